"""
Extract `tools/upstream/mssql-jdbc-strings.tsv`: Microsoft's JDBC driver's own messages.

    python tools/extract_mssql_jdbc_strings.py --git-dir PATH/mssql-jdbc.git
    python tools/extract_mssql_jdbc_strings.py --git-dir PATH/mssql-jdbc.git --check

The Microsoft JDBC Driver for SQL Server (mssql-jdbc) raises errors of its
own beside the server's: a refused TLS handshake (`The driver could not
establish a secure connection to SQL Server by using Secure Sockets Layer
(SSL) encryption.`), integrated authentication it cannot do (`This driver is
not configured for integrated authentication.`), a TCP connection that could
not be made.  Their English texts are the driver's resource bundle,
`src/main/java/com/microsoft/sqlserver/jdbc/SQLServerResource.java`: this
reads its `{"R_name", "text"}` entries (a text may be string literals joined
by `+`) in each release of `RELEASES`, lines users still run, and writes
each name and text once, one a line as `name<TAB>text<TAB>releases` (the
releases that have that text, comma-separated; a name whose text changed
across releases has a line per text; `\\`, a tab and a line break written
`\\\\`, `\\t`, `\\n`), after `#` lines naming the source.  The texts are
`java.text.MessageFormat` patterns, kept as the driver writes them (`{0}`,
`''`).  It is read by `tools/generate_mssql_jdbc_texts.py` and
`tools/generate_vendor_wordings.py`; the driver's source is not needed
there.  mssql-jdbc is MIT-licensed (`mssql-jdbc.LICENSE`).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generated import git_text, release_rows, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "mssql-jdbc-strings.tsv"
RESOURCE = "src/main/java/com/microsoft/sqlserver/jdbc/SQLServerResource.java"
#: The releases read: the last of each line, oldest first (7.4 the last for Java 8 and
#: 11 of its time; 12.x and 13.x the supported lines).
RELEASES = (
    "v7.4.1",
    "v8.4.1",
    "v9.4.1",
    "v10.2.3",
    "v11.2.3",
    "v12.4.3",
    "v12.8.2",
    "v12.10.2",
    "v13.2.1",
    "v13.4.0",
)
_LITERAL = r'"(?:[^"\\\n]|\\.)*"'
#: One entry: its name, then its text's literals (joined by `+`, comments between).
_ENTRY = re.compile(
    rf'\{{\s*"(R_\w+)"\s*,\s*({_LITERAL}(?:\s*\+\s*(?://[^\n]*\n\s*)*{_LITERAL})*)\s*\}}'
)
_ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|[\\"\'ntrbf])')
_JAVA: dict[str, str] = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}


def _java(literals: str) -> str:
    """The string the Java literals (`"a" + "b"`) make."""
    parts = re.findall(_LITERAL, literals)

    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code.startswith("u"):
            return chr(int(code[1:], 16))
        return _JAVA.get(code, code)

    return "".join(_ESCAPE.sub(one, part[1:-1]) for part in parts)


def read(source: str, fewest: int = 300) -> list[tuple[str, str]]:
    """
    `(name, text)` of every entry of the resource file, in its order; a name
    defined twice (some releases do) has its last text, as `ListResourceBundle`
    keeps it.
    """
    found: dict[str, str] = {}
    entries = 0
    for match in _ENTRY.finditer(source):
        entries += 1
        found.pop(match.group(1), None)
        found[match.group(1)] = _java(match.group(2))
    named = len(re.findall(r'\{\s*"R_\w+"\s*,', source))
    if named != entries:
        raise SystemExit(f"{named} entries named, {entries} read: an entry of another shape?")
    if len(found) < fewest:
        raise SystemExit(f"only {len(found)} entries found: not mssql-jdbc's SQLServerResource?")
    return list(found.items())


def build(git_dir: str) -> str:
    """The TSV's text: each name and text once, with the releases that have it."""
    releases: dict[tuple[str, str], list[str]] = {}
    header: list[str] = []
    for tag in RELEASES:
        commit = git_text(git_dir, "rev-parse", f"{tag}^{{commit}}").strip()
        header.append(f"# {tag}: commit {commit}")
        for name, text in read(git_text(git_dir, "show", f"{commit}:{RESOURCE}")):
            releases.setdefault((name, text), []).append(tag.removeprefix("v"))
    lines = [
        f"# Microsoft JDBC Driver for SQL Server (github.com/microsoft/mssql-jdbc): {RESOURCE},",
        "# every R_ entry's English text in each release read:",
        *header,
        "# MIT License: mssql-jdbc.LICENSE.",
        "# Extracted by tools/extract_mssql_jdbc_strings.py. name<TAB>text<TAB>releases",
        *release_rows(dict(sorted(releases.items(), key=lambda e: e[0][0].lower()))),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--git-dir", required=True, help="a clone of github.com/microsoft/mssql-jdbc"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args(argv)
    return write_or_check(
        {OUTPUT: build(args.git_dir)},
        check=args.check,
        what="the mssql-jdbc message list is",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
