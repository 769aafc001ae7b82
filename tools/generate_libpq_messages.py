"""
Generate `localdata_errors/backends/_libpq_messages.py` from libpq's message catalogue.

    python tools/generate_libpq_messages.py           # write the module
    python tools/generate_libpq_messages.py --check   # exit 1 when it is stale

libpq reports what goes wrong on the client side (a refused or lost
connection, an SSL failure, a bad connection option) as text without a
SQLSTATE, and psycopg 3 and psycopg2 pass that text on.  The complete list of
those texts ships with libpq: the message catalogues Debian's `libpq5`
installs (`/usr/share/locale/*/LC_MESSAGES/libpq5-*.mo`), whose msgids are
the English originals.  Each message is given a kind by the explicit rules
below (first match wins), reviewed against libpq's sources' use of it; a
message that names the connection, the server, a socket, SSL or
authentication must get one, or the generator fails.
"""

from __future__ import annotations

import argparse
import glob
import re
import struct
import sys
from pathlib import Path

from _generated import source_missing, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "localdata_errors" / "backends" / "_libpq_messages.py"
CATALOGUES = "/usr/share/locale/*/LC_MESSAGES/libpq5-*.mo"

LOST = "CONNECTION_LOST"
FAILURE = "CONNECTION_FAILURE"
MISCONFIGURED = "CONNECTION_MISCONFIGURED"
BAD_PASSWORD = "INVALID_PASSWORD"  # noqa: S105 - a kind's name
AUTHORIZATION = "INVALID_AUTHORIZATION"
MEMORY = "OUT_OF_MEMORY"

# (phrase in the lower-cased first line, kind); first match wins.  None: not
# a connection matter (COPY, pipeline mode, large objects, result access:
# the application's use of the API), left to the other rules.
RULES: tuple[tuple[str, str | None], ...] = (
    # Warnings libpq prints beside another error, and API misuse.
    ("warning:", None),
    ("password file", None),
    ("encrypt password", None),
    ("password_encryption", None),
    ("password encryption algorithm", None),
    ("could not open file", None),
    ("could not read from file", None),
    ("could not write to file", None),
    ("pipeline mode", None),
    # The session went away while in use: whatever was sent may have run.
    ("server closed the connection unexpectedly", LOST),
    ("ssl syscall error", LOST),
    ("ssl connection has been closed unexpectedly", LOST),
    ("could not receive data from server", LOST),
    ("could not send data to server", LOST),
    ("write to server failed", LOST),
    ("lost synchronization with server", LOST),
    ("no connection to the server", LOST),
    ("connection not open", LOST),
    ("connection in wrong state", LOST),
    ("connection pointer is null", LOST),
    ("arrived from server while idle", LOST),
    ("pending bytes in transport buffer", LOST),
    ("invalid socket", LOST),
    ("no ssl error reported", LOST),
    ("unrecognized ssl error code", LOST),
    ("unrecognized socket error", LOST),
    # The protocol stream is out of step: only a new connection recovers.
    ("could not interpret result from server", LOST),
    ("invalid connection state", LOST),
    ("server returned too much data", LOST),
    ("without prior row description", LOST),
    # Refused or failed before the server ran anything: safe to try again.
    ("could not connect to server", FAILURE),
    ("is the server running", FAILURE),
    ("connection to server at", FAILURE),
    ("connection to server on socket", FAILURE),
    ("could not translate unix-domain socket path", FAILURE),
    ("could not parse network address", FAILURE),
    ("could not create socket", FAILURE),
    ("could not set socket to", FAILURE),
    ("setsockopt(", FAILURE),
    ("wsaioctl(", FAILURE),
    ("could not get socket error status", FAILURE),
    ("could not get client address from socket", FAILURE),
    ("select() failed", FAILURE),
    ("could not send startup packet", FAILURE),
    ("could not send ssl negotiation packet", FAILURE),
    ("could not send gssapi negotiation packet", FAILURE),
    ("received invalid response to", FAILURE),
    ("received unencrypted data after", FAILURE),
    ("unexpected message from server during startup", FAILURE),
    ("expected authentication request from server", FAILURE),
    ("unexpected response from server", FAILURE),
    ("server sent an error response during ssl exchange", FAILURE),
    ("timeout expired", FAILURE),
    ("could not make a writable connection", FAILURE),
    ("hot standby mode", FAILURE),
    ("session is read-only", FAILURE),
    ("session is not read-only", FAILURE),
    ("transaction_read_only", FAILURE),
    ("result set returned for show", FAILURE),
    # The password (or the server's proof of it) did not check out.
    ("error received from server in scram exchange", BAD_PASSWORD),
    ("incorrect server signature", AUTHORIZATION),
    ("could not verify server signature", AUTHORIZATION),
    ("local user with id", AUTHORIZATION),
    ("could not look up local user id", AUTHORIZATION),
    ("user name lookup failure", AUTHORIZATION),
    ("requirepeer", AUTHORIZATION),
    ("could not get peer credentials", AUTHORIZATION),
    # An SSL failure is as often the handshake's as a running session's;
    # nothing was run in the first case, and reconnecting is right in both.
    ("ssl error", FAILURE),
    # The connection's settings cannot work as written: no retry helps.
    # (A host name that does not resolve is, far more often than a passing
    # DNS outage, a host name written wrong.)
    ("could not translate host name", MISCONFIGURED),
    ("authentication", MISCONFIGURED),
    ("sasl", MISCONFIGURED),
    ("scram", MISCONFIGURED),
    ("gssapi", MISCONFIGURED),
    ("sspi", MISCONFIGURED),
    ("channel binding", MISCONFIGURED),
    ("client proof", MISCONFIGURED),
    ("nonce", MISCONFIGURED),
    ("random salt", MISCONFIGURED),
    ("certificate", MISCONFIGURED),
    ("private key", MISCONFIGURED),
    ("private ssl key", MISCONFIGURED),
    ("ssl engine", MISCONFIGURED),
    ("ssl context", MISCONFIGURED),
    ("ssl protocol version", MISCONFIGURED),
    ("server name indication", MISCONFIGURED),
    ("establish ssl connection", MISCONFIGURED),
    ("ssl was required", MISCONFIGURED),
    ("ssl not in use", MISCONFIGURED),
    ("sslmode", MISCONFIGURED),
    ("sslpassword", MISCONFIGURED),
    ("gssencmode", MISCONFIGURED),
    ("host name must be specified", MISCONFIGURED),
    ("hostaddr values", MISCONFIGURED),
    ("port numbers to", MISCONFIGURED),
    ("socket path", MISCONFIGURED),
    ("connection option", MISCONFIGURED),
    ("connection info string", MISCONFIGURED),
    ("invalid port number", MISCONFIGURED),
    ("invalid channel_binding", MISCONFIGURED),
    ("invalid target_session_attrs", MISCONFIGURED),
    ("invalid ssl_m", MISCONFIGURED),
    ("ssl protocol", MISCONFIGURED),
    ('invalid %s value: "%s"', MISCONFIGURED),
    ("keepalives parameter", MISCONFIGURED),
    ("in uri", MISCONFIGURED),
    ("invalid uri", MISCONFIGURED),
    ("percent-encoded", MISCONFIGURED),
    ("service file", MISCONFIGURED),
    ("definition of service", MISCONFIGURED),
    ("service specifications", MISCONFIGURED),
    ("ldap", MISCONFIGURED),
    ("function requires at least protocol version", MISCONFIGURED),
    # The client ran out of memory (the server's OOM has SQLSTATE 53200).
    ("out of memory", MEMORY),
)

# Words that make a message a connection matter: each such message needs a kind.
CONNECTION_WORDS = re.compile(
    r"\b(?:server|connection|connect|socket|ssl|authentication|timeout|host)\b", re.IGNORECASE
)
# printf conversions libpq's messages use.
PLACEHOLDER = re.compile(r"%(?:%|[-0-9.]*(?:l|ll|z|h)?[sdiucmxXp]|\d*[sd]|0?\d*[xX])")
# A message is matched by its first line, which must say something of its own.
MIN_LITERAL = 12
WILDCARD = r"[^\n]{0,256}?"


def read_msgids(path: str) -> list[str]:
    """The msgids of a GNU gettext `.mo` file."""
    data = Path(path).read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, _ = struct.unpack(order + "4I", data[4:20])
    found = []
    for i in range(count):
        entry = originals + 8 * i
        length, offset = struct.unpack(order + "2I", data[entry : entry + 8])
        text = data[offset : offset + length].decode("utf-8")
        if text:
            found.append(text.split("\x00")[0])  # a plural's singular
    return found


def messages() -> list[str]:
    """Every distinct msgid of every installed libpq catalogue."""
    paths = sorted(glob.glob(CATALOGUES))
    if not paths:
        source_missing(f"no libpq message catalogue at {CATALOGUES} (apt install libpq5)")
    found: set[str] = set()
    for path in paths:
        found.update(read_msgids(path))
    return sorted(found)


def kind_of(msgid: str) -> str | None:
    """The kind the rules give the message (None: not a connection matter)."""
    head = first_line(msgid).lower()
    for phrase, kind in RULES:
        if phrase in head:
            return kind
    return None


def first_line(msgid: str) -> str:
    return msgid.strip().split("\n", 1)[0].strip()


def pattern_of(msgid: str) -> str | None:
    """The message's first line as a regex, placeholders as lazy wildcards."""
    line = first_line(msgid)
    parts = PLACEHOLDER.split(line)
    literal = "".join(parts)
    if len(literal.strip(" :,.\"'()")) < MIN_LITERAL:
        return None
    # Placeholders match anything short on the same line; one at either end
    # adds nothing to the match and goes.
    while parts and not parts[-1].strip():
        parts.pop()
    while parts and not parts[0].strip():
        parts.pop(0)
    return WILDCARD.join(re.escape(p) for p in parts).replace("\\ ", " ")


def build() -> str:
    entries: list[tuple[str, str]] = []
    unmapped: list[str] = []
    skipped = 0
    for msgid in messages():
        kind = kind_of(msgid)
        if kind is None:
            if CONNECTION_WORDS.search(first_line(msgid)) and not any(
                phrase in first_line(msgid).lower() for phrase, k in RULES if k is None
            ):
                unmapped.append(msgid)
            continue
        pattern = pattern_of(msgid)
        if pattern is None:
            skipped += 1
            continue
        if (pattern, kind) not in entries:
            entries.append((pattern, kind))
    if unmapped:
        sys.exit("connection messages without a kind:\n" + "\n".join(map(repr, unmapped)))
    # Longer patterns first: where two match at the same place, the more
    # specific one decides.
    entries.sort(key=lambda e: (-len(e[0]), e[0]))
    counts: dict[str, int] = {}
    for _, kind in entries:
        counts[kind] = counts.get(kind, 0) + 1
    lines = [
        '"""',
        "libpq's client-side messages and their kinds.",
        "",
        "Generated by `tools/generate_libpq_messages.py` from the msgids of the",
        "`libpq5` message catalogues; do not edit.  Each entry is the first line of",
        "a message as a regex (printf placeholders as wildcards) and its kind.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "from localdata_errors.kinds import Kind",
        "",
        "K = Kind",
        "",
        f"# {len(entries)} messages with a kind: "
        + ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))
        + f"; {skipped} too short to match on their own.",
        "MESSAGES: Final[tuple[tuple[str, Kind], ...]] = (",
    ]
    lines += [f"    ({pattern!r}, K.{kind})," for pattern, kind in entries]
    lines += [")", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    args = parser.parse_args(argv)
    return write_or_check(
        {OUTPUT: build()},
        check=args.check,
        what="the libpq message table is",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
