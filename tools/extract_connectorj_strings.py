"""
Extract `tools/upstream/mysql-connector-j-strings.tsv`: MySQL Connector/J's own messages.

    python tools/extract_connectorj_strings.py --git-dir PATH/mysql-connector-j.git
    python tools/extract_connectorj_strings.py --git-dir PATH/mysql-connector-j.git --check

MySQL Connector/J, the JDBC driver, raises errors of its own beside the
server's, with no MySQL error number: a public key it may not fetch
(`Public Key Retrieval is not allowed`), a server time zone it cannot read
(`The server time zone value 'CST' is unrecognized ...`), a packet larger
than `max_allowed_packet` (`Packet for query is too large (...)`), a
connection it gave up on.  Their English texts are the driver's message
bundle, `LocalizedErrorMessages.properties` (`src/com/mysql/jdbc/` in 5.1,
`src/main/resources/com/mysql/cj/` from 8.0): this reads its `key=message`
entries (a message may go on over lines ending in `\\`) in each release of
`RELEASES`, lines users still run, and writes each key and text once, one a
line as `key<TAB>text<TAB>releases` (the releases that have that text,
comma-separated; a key whose text changed across releases has a line per
text; `\\`, a tab and a line break written `\\\\`, `\\t`, `\\n`), after `#`
lines naming the source.  The texts are `java.text.MessageFormat` patterns,
kept as the driver writes them (`{0}`, `''`).  It is read by
`tools/generate_connectorj_texts.py` and `tools/generate_vendor_wordings.py`;
the driver's source is not needed there.  Connector/J is GPLv2 with the
Universal FOSS Exception (`mysql-connector-j.LICENSE`).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generated import git_text, release_rows, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "mysql-connector-j-strings.tsv"
BUNDLE = "LocalizedErrorMessages.properties"
#: The releases read, oldest first: the last 5.1 (still run with old
#: applications), the first 8.0 GA and the last before 8.0's renaming, 8.4 LTS,
#: and the newest 9.x.
RELEASES = ("5.1.49", "8.0.11", "8.0.33", "8.4.0", "9.1.0")
#: A key: up to the first `=`, `:` or white space not escaped.
_KEY = re.compile(r"((?:[^=:\s\\]|\\.)+)\s*[=:]?\s*")
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")
_JAVA: dict[str, str] = {"n": "\n", "t": "\t", "r": "\r", "f": "\f"}


def _unescape(text: str) -> str:
    """A `.properties` value's escapes read as `Properties.load` reads them."""

    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if len(code) == 5 and code.startswith("u"):
            return chr(int(code[1:], 16))
        return _JAVA.get(code, code)

    return _ESCAPE.sub(one, text)


def _logical_lines(source: str) -> list[str]:
    """The file's logical lines: a line ending in an odd run of `\\` goes on."""
    lines: list[str] = []
    current: str | None = None
    for raw in source.splitlines():
        line = raw.lstrip(" \t\f")
        if current is None and (not line or line[0] in "#!"):
            continue
        ends = len(line) - len(line.rstrip("\\"))
        if ends % 2:
            current = (current or "") + line[:-1]
            continue
        lines.append((current or "") + line)
        current = None
    if current is not None:
        lines.append(current)
    return lines


def read(source: str, fewest: int = 500) -> list[tuple[str, str]]:
    """
    `(key, text)` of every entry of the bundle, in its order; a key defined
    twice has its last text, as `Properties.load` keeps it.
    """
    found: dict[str, str] = {}
    for line in _logical_lines(source):
        match = _KEY.match(line)
        if match is None:
            raise SystemExit(f"not a key=value line: {line[:80]!r}")
        key = _unescape(match.group(1))
        found.pop(key, None)
        found[key] = _unescape(line[match.end() :])
    if len(found) < fewest:
        raise SystemExit(f"only {len(found)} entries found: not Connector/J's {BUNDLE}?")
    return list(found.items())


def _bundle(git_dir: str, commit: str) -> str:
    """The path of the release's English message bundle (one per release)."""
    paths = [
        path
        for path in git_text(git_dir, "ls-tree", "-r", "--name-only", commit).splitlines()
        if path.endswith(f"/{BUNDLE}")
    ]
    if len(paths) != 1:
        raise SystemExit(f"{commit}: {len(paths)} files named {BUNDLE}")
    return paths[0]


def build(git_dir: str) -> str:
    """The TSV's text: each key and text once, with the releases that have it."""
    releases: dict[tuple[str, str], list[str]] = {}
    header: list[str] = []
    for tag in RELEASES:
        commit = git_text(git_dir, "rev-parse", f"{tag}^{{commit}}").strip()
        path = _bundle(git_dir, commit)
        header.append(f"# {tag}: commit {commit} {path}")
        for key, text in read(git_text(git_dir, "show", f"{commit}:{path}")):
            releases.setdefault((key, text), []).append(tag)
    lines = [
        f"# MySQL Connector/J (github.com/mysql/mysql-connector-j): {BUNDLE},",
        "# every entry's English text in each release read:",
        *header,
        "# GPLv2 with the Universal FOSS Exception: mysql-connector-j.LICENSE.",
        "# Extracted by tools/extract_connectorj_strings.py. key<TAB>text<TAB>releases",
        *release_rows(dict(sorted(releases.items(), key=lambda e: e[0][0].lower()))),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--git-dir", required=True, help="a clone of github.com/mysql/mysql-connector-j"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args(argv)
    return write_or_check(
        {OUTPUT: build(args.git_dir)},
        check=args.check,
        what="the Connector/J message list is",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
