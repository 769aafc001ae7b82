"""
Generate `localdata_errors/backends/_libpq_messages.py` from libpq's message catalogue.

    python tools/generate_libpq_messages.py           # write the module
    python tools/generate_libpq_messages.py --check   # exit 1 when it is stale

libpq reports what goes wrong on the client side (a refused or lost
connection, an SSL failure, a bad connection option) as text without a
SQLSTATE, and psycopg 3 and psycopg2 pass that text on.  The complete list of
those texts ships with libpq: the message catalogues Debian's `libpq5`
installs (`/usr/share/locale/*/LC_MESSAGES/libpq5-*.mo`), whose msgids are
the English originals; later releases' msgids (`libpq5-17.mo`, `-18.mo`),
as `tools/extract_postgresql_msgids.py` recorded them in
`tools/upstream/postgresql-msgids.tsv`, are read with them.  Upstream facts
only: each message's first line and its pattern.  Which kind each message
means is decided by hand in `localdata_errors/backends/_libpq_kinds.py`.
"""

from __future__ import annotations

import glob
import re
import struct
from pathlib import Path

from _generated import generate, source_missing

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "localdata_errors" / "backends" / "_libpq_messages.py"
CATALOGUES = "/usr/share/locale/*/LC_MESSAGES/libpq5-*.mo"
#: Other releases' msgids (`tools/extract_postgresql_msgids.py`).
UPSTREAM_MSGIDS = ROOT / "tools" / "upstream" / "postgresql-msgids.tsv"

# printf conversions libpq's messages use.
PLACEHOLDER = re.compile(r"%(?:%|[-0-9.]*(?:l|ll|z|h)?[sdiucmxXp]|\d*[sd]|0?\d*[xX])")
# A message is matched by its first line, which must say something of its own.
MIN_LITERAL = 12
WILDCARD = r"[^\n]{0,256}?"


def read_catalogue(path: str) -> list[tuple[str, str]]:
    """
    The (msgid, msgstr) pairs of a GNU gettext `.mo` file; a plural's singular forms.

    Args:
        path: The `.mo` file.

    Returns:
        Its pairs, in the file's order, the header (empty msgid) left out.
    """
    data = Path(path).read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    pairs = []
    for i in range(count):
        length, offset = struct.unpack(
            order + "2I", data[originals + 8 * i : originals + 8 * i + 8]
        )
        msgid = data[offset : offset + length].decode("utf-8").split("\x00")[0]
        length, offset = struct.unpack(
            order + "2I", data[translations + 8 * i : translations + 8 * i + 8]
        )
        msgstr = data[offset : offset + length].decode("utf-8").split("\x00")[0]
        if msgid:
            pairs.append((msgid, msgstr))
    return pairs


def read_msgids(path: str) -> list[str]:
    """The msgids of a GNU gettext `.mo` file (a plural's singular)."""
    return [msgid for msgid, _ in read_catalogue(path)]


def upstream_msgids(catalogue: str) -> list[str]:
    """
    The msgids of *catalogue* (`postgres`, `libpq5`) that the releases recorded
    in `tools/upstream/postgresql-msgids.tsv` ship.
    """
    unescape = {"\\\\": "\\", "\\t": "\t", "\\n": "\n"}
    found = []
    for line in UPSTREAM_MSGIDS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, text = line.split("\t", 2)
            if name == catalogue:
                found.append(re.sub(r"\\[\\tn]", lambda m: unescape[m.group()], text))
    return found


def messages() -> list[str]:
    """Every distinct msgid of every installed libpq catalogue and of the recorded releases'."""
    paths = sorted(glob.glob(CATALOGUES))
    if not paths:
        source_missing(f"no libpq message catalogue at {CATALOGUES} (apt install libpq5)")
    found: set[str] = set()
    for path in paths:
        found.update(read_msgids(path))
    found.update(upstream_msgids("libpq5"))
    return sorted(found)


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
    entries: dict[str, str] = {}
    skipped = 0
    for msgid in messages():
        pattern = pattern_of(msgid)
        if pattern is None:
            skipped += 1
            continue
        entries.setdefault(pattern, first_line(msgid))
    # Longer patterns first: where two match at the same place, the more
    # specific one decides.
    ordered = sorted(entries.items(), key=lambda e: (-len(e[0]), e[0]))
    lines = [
        '"""',
        "libpq's client-side messages: each one's first line and its pattern.",
        "",
        "Generated by `tools/generate_libpq_messages.py` from the msgids of the",
        "`libpq5` message catalogues; do not edit.  Each entry is the first line of",
        "a message as libpq writes it and as a regex (printf placeholders as",
        "wildcards).  The kind of each is decided in `_libpq_kinds`.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f"# {len(ordered)} messages; {skipped} too short to match on their own.",
        "MESSAGES: Final[tuple[tuple[str, str], ...]] = (",
    ]
    lines += [f"    ({line!r}, {pattern!r})," for pattern, line in ordered]
    lines += [")", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return generate(
        __doc__,
        lambda: {OUTPUT: build()},
        what="the libpq message table is",
        script=Path(__file__).name,
        argv=argv,
    )


if __name__ == "__main__":
    raise SystemExit(main())
