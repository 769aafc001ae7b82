"""
Generate `localdata_errors/backends/_postgresql_fatal.py` from the server's message catalogue.

    python tools/generate_postgresql_fatal.py           # write the module and the docs listing
    python tools/generate_postgresql_fatal.py --check   # exit 1 when either is stale

libpq reports a refused connection start-up as text only (`connection to
server at "127.0.0.1", port 5432 failed: FATAL:  role "x" is not permitted to
log in`): psycopg and psycopg2 have no SQLSTATE there, although the server
sent one.  The server's English texts ship with it: the msgids of its
message catalogues (`/usr/share/locale/*/LC_MESSAGES/postgres-15.mo`,
Debian's `postgresql-15`).  This picks out the messages the server sends as a
FATAL while a connection starts, is refused, or is ended by the server
(`SELECT`: explicit rules, each naming where the server raises the
message), and gives each the condition the server raises it with
(`CONDITIONS`: explicit rules, reviewed against the server's sources and,
where the server here can produce the message, against its reply); the
SQLSTATE is the condition's in `errcodes.txt`.

The generator fails on a message two selection rules pick, on a selected
message no condition rule covers, on a condition `errcodes.txt` does not
list, on a selected message of more than one line, and on a rule (or a
`NOT_SENT` entry) that no longer matches anything: the catalogue changed
under it, and the rules need a look.
"""

from __future__ import annotations

import argparse
import glob
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from _generated import splice, write_or_check

TOOLS: Final = Path(__file__).resolve().parent
ROOT: Final = TOOLS.parent
if str(TOOLS) not in sys.path:  # imported from the tests, not run: find the sibling tools
    sys.path.insert(0, str(TOOLS))

# The .mo reader and the errcodes.txt parser the sibling generators use.
from generate_libpq_messages import read_msgids  # noqa: E402 - needs the sys.path line
from generate_postgresql_codes import parse  # noqa: E402 - needs the sys.path line

OUTPUT: Final = ROOT / "localdata_errors" / "backends" / "_postgresql_fatal.py"
DOCS: Final = ROOT / "docs" / "backends" / "postgresql.md"
CATALOGUES: Final = "/usr/share/locale/*/LC_MESSAGES/postgres-15.mo"
ERRCODES: Final = Path("/usr/share/postgresql/15/errcodes.txt")
DOCS_START: Final = "<!-- start-up FATAL messages: start -->"
DOCS_END: Final = "<!-- start-up FATAL messages: end -->"

#: Which messages the server sends as a FATAL while a connection starts, is
#: refused or is ended by the server: (regex matched at the start of the
#: msgid, where the server raises it).  No message may match two rules.
SELECT: Final[tuple[tuple[str, str], ...]] = (
    # The authentication method's refusal (each method has its own text).
    (r'(?:\S+ )?authentication failed for user "%s"', "auth.c auth_failed()"),
    # pg_hba.conf decided against the connection, or its certificate rule.
    (r"pg_hba\.conf rejects ", "auth.c ClientAuthentication()"),
    (r"no pg_hba\.conf entry for ", "auth.c ClientAuthentication()"),
    (r"connection requires a valid client certificate$", "auth.c ClientAuthentication()"),
    (r"client certificates can only be checked if ", "auth.c ClientAuthentication()"),
    # The password message itself.
    (r"empty password returned by client$", "auth.c recv_password_packet()"),
    (r"invalid password packet size$", "auth.c recv_password_packet()"),
    # The role.
    (
        r'role (?:"%s"|with OID %u) (?:does not exist|is not permitted to log in)$',
        "miscinit.c InitializeSessionUserId()",
    ),
    (r'too many connections for role "%s"$', "miscinit.c InitializeSessionUserId()"),
    # The database.
    (
        r'database (?:"%s"|%u) (?:does not exist|has disappeared from pg_database)$',
        "postinit.c InitPostgres(), CheckMyDatabase()",
    ),
    (
        r'database "%s" is not currently accepting connections$',
        "postinit.c CheckMyDatabase(): ALLOW_CONNECTIONS false",
    ),
    (
        r'cannot connect to invalid database "%s"$',
        "postinit.c CheckMyDatabase(): a DROP DATABASE that was interrupted",
    ),
    (r'permission denied for database "%s"$', "postinit.c CheckMyDatabase(): no CONNECT"),
    (r'too many connections for database "%s"$', "postinit.c CheckMyDatabase(): CONNECTION LIMIT"),
    (r"database locale is incompatible with ", "postinit.c CheckMyDatabase()"),
    (r"must be superuser to connect in ", "postinit.c InitPostgres(): binary upgrade"),
    (r"must be superuser or replication role to start ", "postinit.c InitPostgres(): walsender"),
    # Connection slots.
    (r"remaining connection slots are reserved ", "postinit.c InitPostgres()"),
    (r"sorry, too many clients already$", "proc.c InitProcess(), postmaster.c"),
    # The server's state, and the start-up packet.
    (r"the database system is ", "postmaster.c ProcessStartupPacket()"),
    (r"(?:invalid length of|incomplete) startup packet$", "postmaster.c ProcessStartupPacket()"),
    (r"invalid startup packet layout", "postmaster.c ProcessStartupPacket()"),
    (r"no PostgreSQL user name specified ", "postmaster.c ProcessStartupPacket()"),
    (r"received unencrypted data after ", "postmaster.c ProcessStartupPacket(): SSL, GSSAPI"),
    (r"unsupported frontend protocol ", "postmaster.c ProcessStartupPacket()"),
    # The server ends a session (an established one, or one starting).
    (r"terminating connection ", "postgres.c ProcessInterrupts(), be-secure.c"),
)

#: Messages a selection rule picks that the server never sends to a client
#: as a FATAL of its own: msgid -> why.
NOT_SENT: Final[Mapping[str, str]] = {
    'certificate authentication failed for user "%s": client certificate contains no user name': (
        "logged only; the client is told auth_failed()'s message"
    ),
    'certificate authentication failed for user "%s": unable to retrieve subject DN': (
        "logged only; the client is told auth_failed()'s message"
    ),
    "role with OID %u does not exist": "only background workers connect by OID",
    "database %u does not exist": "only background workers connect by OID",
    "invalid length of startup packet": "a COMMERROR: logged, never sent",
    "incomplete startup packet": "a COMMERROR: logged, never sent",
    "terminating connection because of crash of another server process": (
        "sent as a WARNING before the server closes the socket, not a FATAL"
    ),
    "terminating connection due to immediate shutdown command": (
        "sent as a WARNING before the server closes the socket, not a FATAL"
    ),
    "terminating connection because of unexpected SIGQUIT signal": (
        "sent as a WARNING before the server closes the socket, not a FATAL"
    ),
    "terminating connection due to conflict with recovery": (
        "sent with 40001 or 57P04, by the kind of conflict: the text alone does not say which"
    ),
}

#: The condition each selected message is raised with: (phrase in the msgid,
#: condition name); the first that matches decides.
CONDITIONS: Final[tuple[tuple[str, str], ...]] = (
    ("password authentication failed for user", "invalid_password"),
    ("empty password returned by client", "invalid_password"),
    ("authentication failed for user", "invalid_authorization_specification"),
    ("pg_hba.conf", "invalid_authorization_specification"),
    ("connection requires a valid client certificate", "invalid_authorization_specification"),
    ("root certificate store", "config_file_error"),
    ("no PostgreSQL user name specified", "invalid_authorization_specification"),
    ("is not permitted to log in", "invalid_authorization_specification"),
    ('role "%s" does not exist', "invalid_authorization_specification"),
    ("too many connections for", "too_many_connections"),
    ("remaining connection slots are reserved", "too_many_connections"),
    ("sorry, too many clients already", "too_many_connections"),
    ('database "%s" does not exist', "invalid_catalog_name"),
    ("has disappeared from pg_database", "invalid_catalog_name"),
    ("is not currently accepting connections", "object_not_in_prerequisite_state"),
    ("cannot connect to invalid database", "object_not_in_prerequisite_state"),
    ("permission denied for database", "insufficient_privilege"),
    ("must be superuser", "insufficient_privilege"),
    # Raised without an errcode(): a FATAL's default, XX000.
    ("database locale is incompatible", "internal_error"),
    ("the database system is", "cannot_connect_now"),
    ("unsupported frontend protocol", "feature_not_supported"),
    ("invalid startup packet layout", "protocol_violation"),
    ("received unencrypted data after", "protocol_violation"),
    ("invalid password packet size", "protocol_violation"),
    ("protocol synchronization was lost", "protocol_violation"),
    ("due to administrator command", "admin_shutdown"),
    ("due to unexpected postmaster exit", "admin_shutdown"),
    ("due to idle-session timeout", "idle_session_timeout"),
    ("due to idle-in-transaction timeout", "idle_in_transaction_session_timeout"),
)

# printf conversions of the server's messages.
PLACEHOLDER: Final = re.compile(r"%(?:[-0-9.]*(?:l|ll|z|h)?[sdiumxX])")
# A placeholder matches anything short on the same line.
WILDCARD: Final = r"[^\n]{0,256}?"


class RuleError(Exception):
    """A message the rules select twice or cannot give a code, or a stale rule."""


@dataclass(frozen=True)
class Entry:
    """
    One start-up FATAL message.

    Args:
        msgid: The server's English text, placeholders and all.
        condition: The condition name the server raises it with.
        sqlstate: That condition's SQLSTATE.
    """

    msgid: str
    condition: str
    sqlstate: str

    @property
    def pattern(self) -> str:
        """The message as a regex matched at its start; placeholders are wildcards."""
        parts = PLACEHOLDER.split(self.msgid)
        # A placeholder at the end adds nothing to a match from the start.
        while parts and not parts[-1]:
            parts.pop()
        # re.escape() escapes spaces (for verbose patterns); these are not.
        return WILDCARD.join(re.escape(part).replace("\\ ", " ") for part in parts)


def catalogue_msgids(pattern: str = CATALOGUES) -> list[str]:
    """
    Every distinct msgid of every installed catalogue of the server.

    Raises:
        RuleError: When no catalogue is installed.
    """
    paths = sorted(glob.glob(pattern))
    if not paths:
        raise RuleError(f"no server message catalogue at {pattern} (apt install postgresql-15)")
    found: set[str] = set()
    for path in paths:
        found.update(read_msgids(path))
    return sorted(found)


def condition_codes(path: Path = ERRCODES) -> dict[str, str]:
    """Condition name -> SQLSTATE, from `errcodes.txt`."""
    return {code.name: code.sqlstate for code in parse(path.read_text("utf-8"), str(path))}


def select(
    msgids: Sequence[str],
    codes: Mapping[str, str],
    *,
    rules: Sequence[tuple[str, str]] = SELECT,
    not_sent: Mapping[str, str] = NOT_SENT,
    conditions: Sequence[tuple[str, str]] = CONDITIONS,
) -> list[Entry]:
    """
    The start-up FATAL messages among *msgids*, each with its condition and SQLSTATE.

    Args:
        msgids: The catalogue's msgids.
        codes: Condition name -> SQLSTATE.
        rules: The selection rules.
        not_sent: Selected messages the server never sends as a FATAL.
        conditions: The condition rules.

    Returns:
        The entries, in the msgids' order.

    Raises:
        RuleError: On a message selected twice, a selected message without a
            condition (or with one `errcodes.txt` lacks), a selected message
            of several lines, or a rule that matches nothing.
    """
    compiled = [(re.compile(regex), regex) for regex, _ in rules]
    problems: list[str] = []
    used_rules: set[str] = set()
    used_conditions: set[str] = set()
    entries: list[Entry] = []
    for msgid in msgids:
        matched = [regex for pattern, regex in compiled if pattern.match(msgid)]
        if not matched:
            continue
        used_rules.update(matched)
        if len(matched) > 1:
            problems.append(f"selected twice ({', '.join(matched)}): {msgid!r}")
            continue
        if msgid in not_sent:
            continue
        if "\n" in msgid.strip():
            problems.append(f"selected message of several lines: {msgid!r}")
            continue
        phrase, condition = next(((p, c) for p, c in conditions if p in msgid), ("", ""))
        if not condition:
            problems.append(f"no condition for the selected message {msgid!r}")
            continue
        used_conditions.add(phrase)
        sqlstate = codes.get(condition)
        if sqlstate is None:
            problems.append(f"condition {condition!r} (for {msgid!r}) is not in errcodes.txt")
            continue
        entries.append(Entry(msgid, condition, sqlstate))
    problems += [
        f"selection rule matches nothing: {regex!r}"
        for _, regex in compiled
        if regex not in used_rules
    ]
    problems += [f"NOT_SENT entry not in the catalogue: {m!r}" for m in not_sent if m not in msgids]
    problems += [
        f"condition rule matches nothing: {p!r}" for p, _ in conditions if p not in used_conditions
    ]
    if problems:
        raise RuleError("\n".join(problems))
    return entries


def render(entries: Sequence[Entry], catalogues: int, msgids: int) -> str:
    """The generated module's text."""
    counts: dict[str, int] = {}
    for entry in entries:
        key = f"{entry.sqlstate} {entry.condition}"
        counts[key] = counts.get(key, 0) + 1
    # Longer patterns first: where two match at one place, the longer decides.
    ordered = sorted(entries, key=lambda e: (-len(e.pattern), e.pattern))
    lines = [
        '"""',
        "The server's start-up FATAL messages and the SQLSTATE it sends with each.",
        "",
        "Generated by `tools/generate_postgresql_fatal.py`; do not edit.  Each entry is",
        "the message as a regex matched where libpq's `FATAL:  ` ends (printf",
        "placeholders as wildcards), its SQLSTATE, the condition name and the msgid.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "# Source:",
        f"#   PostgreSQL 15: the msgids of {CATALOGUES} ({catalogues} catalogues,",
        f"#   {msgids} distinct msgids); condition names: {ERRCODES}",
        f"# {len(entries)} messages: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())),
        "MESSAGES: Final[tuple[tuple[str, str, str, str], ...]] = (",
    ]
    lines += [
        f"    ({e.pattern!r}, {e.sqlstate!r}, {e.condition!r}, {e.msgid!r})," for e in ordered
    ]
    lines += [")", ""]
    return "\n".join(lines)


def render_listing(entries: Sequence[Entry]) -> str:
    """The docs' listing: one row per message, by SQLSTATE."""
    out = [
        f"Generated from the server's message catalogue ({len(entries)} messages).",
        "",
        "| SQLSTATE | condition | message |",
        "|---|---|---|",
    ]
    for entry in sorted(entries, key=lambda e: (e.sqlstate, e.msgid)):
        text = entry.msgid.replace("|", "\\|")
        out.append(f"| `{entry.sqlstate}` | {entry.condition} | `{text}` |")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """
    Write (or, with `--check`, compare) the generated module and the docs listing.

    Args:
        argv: Command-line arguments.

    Returns:
        0 when written or up to date; 1 when `--check` finds a difference.
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0].strip())
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    args = parser.parse_args(argv)
    try:
        msgids = catalogue_msgids()
        entries = select(msgids, condition_codes())
        docs = splice(
            DOCS.read_text(encoding="utf-8"),
            DOCS_START,
            DOCS_END,
            render_listing(entries),
            RuleError,
        )
    except RuleError as exc:
        print(exc, file=sys.stderr)
        return 2
    wanted = {OUTPUT: render(entries, len(glob.glob(CATALOGUES)), len(msgids)), DOCS: docs}
    return write_or_check(
        wanted,
        check=args.check,
        what="the start-up FATAL table and its listing are",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
