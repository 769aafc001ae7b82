"""
Extract `tools/upstream/freetds-dblib-messages.tsv`: what FreeTDS's DB-Library prints.

    python tools/extract_freetds_messages.py --git-dir PATH/freetds.git --ref v1.3.17
    python tools/extract_freetds_messages.py --git-dir PATH/freetds.git --ref v1.3.17 --check
    python tools/extract_freetds_messages.py --tree PATH/freetds-1.3.17 --source "..."

FreeTDS's `sybdb.h` defines each DB-Library error's number with Sybase's old
wording as its comment (`#define SYBETIME 20003 /* SQL Server connection timed
out. */`); what the library prints at run time is another text, the table
`dblib_error_messages[]` of `src/dblib/dblib.c`, which `dbperror()` hands to
the program's error handler with the error's severity class:
`{ SYBETIME, EXTIME, "Adaptive Server connection timed out\\0" }`.  pymssql
prints it after `DB-Lib error message 20003, severity 6:`, PHP's pdo_dblib
as `20003 Adaptive Server connection timed out [20003] (severity 6)`.  A
text may hold placeholders (`%1!`, `%2!`: `dbstrbuild`'s), filled where it
is printed; the format string after the text's `\\0` is left out.  One
error does not go through that table: SYBESMSG, which the library raises
for each server message of severity 11 and up, calling the handler itself
with a text of its own (`src/dblib/dbutil.c`: `General SQL Server error:
Check messages from the SQL Server`, and the server message's severity);
where such a call hands an error a text, that text is the error's.

This reads the table, the numbers of `include/sybdb.h` and the severity
classes' values of `include/syberror.h` of the same tree, and writes each
error as `symbol<TAB>number<TAB>class<TAB>severity<TAB>text` (`\\`, a tab
and a line break written `\\\\`, `\\t`, `\\n`), in the table's order, after
`#` lines naming the source.  It is read by `tools/generate_dblib_codes.py`;
FreeTDS's source is not needed there.  With `--check`, nothing is written:
the exit status is 1 when the committed file differs from what the source
gives.  FreeTDS is LGPL-licensed (`freetds.LICENSE`); the file holds its
messages only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

from _generated import source_missing, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "freetds-dblib-messages.tsv"
DBLIB_C = "src/dblib/dblib.c"
#: Where DB-Library calls the error handler itself, not through the table.
DBUTIL_C = "src/dblib/dbutil.c"
SYBDB_H = "include/sybdb.h"
SYBERROR_H = "include/syberror.h"

_TABLE = re.compile(r"dblib_error_messages\[\]\s*=\s*\{(.*?)\n\s*\};", re.S)
_ENTRY = re.compile(r'\{\s*(SYBE\w+)\s*,\s*(EX\w+)\s*,\s*((?:"(?:[^"\\\n]|\\.)*"\s*)+)\}')
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"0": "\0", "n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}
# `static const char message[] = "...";` then
# `(*_dblib_err_handler)(dbproc, sev, SYBESMSG, ..., message, ...)`.
_DIRECT = re.compile(
    r'static const char (\w+)\[\] = ((?:"(?:[^"\\\n]|\\.)*"\s*)+);'
    r"\s*\(\*_dblib_err_handler\)\([^,]+,[^,]+,\s*(SYBE\w+),[^,]+,\s*\(char \*\)\s*\1\b"
)
_NUMBER = re.compile(r"^#define\s+(SYBE\w+)\s+(\d+)\b", re.M)
_CLASS = re.compile(r"^#define\s+(EX[A-Z]+)\s+(\d+)\b", re.M)


def escape(text: str) -> str:
    """A value as one TSV field."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _c_string(literals: str) -> str:
    """The value of adjacent C string literals (`"a " "b\\0%d"`)."""

    def one(match: re.Match[str]) -> str:
        if match.group(1) not in _ESCAPES:
            raise SystemExit(f"an escape this reader does not know: {match.group()!r}")
        return _ESCAPES[match.group(1)]

    return "".join(_ESCAPE.sub(one, m.group(1)) for m in _LITERAL.finditer(literals))


def read(
    dblib_c: str, dbutil_c: str, sybdb_h: str, syberror_h: str
) -> list[tuple[str, int, str, int, str]]:
    """
    `(symbol, number, class, severity, text)` of every entry of the table, in
    its order; the text a direct call of the handler gives an error, where one does.

    Fails on a symbol `sybdb.h` does not number, a class `syberror.h` does
    not define, a symbol listed twice, too few entries (not the table), or
    no direct call found (the source's form changed).
    """
    direct = {m.group(3): _c_string(m.group(2)) for m in _DIRECT.finditer(dbutil_c)}
    if "SYBESMSG" not in direct:
        raise SystemExit(f"{DBUTIL_C}: no call of the error handler with SYBESMSG's own text")
    table = _TABLE.search(dblib_c)
    if table is None:
        raise SystemExit(f"{DBLIB_C}: no dblib_error_messages[] table")
    numbers = {m.group(1): int(m.group(2)) for m in _NUMBER.finditer(sybdb_h)}
    classes = {m.group(1): int(m.group(2)) for m in _CLASS.finditer(syberror_h)}
    found: list[tuple[str, int, str, int, str]] = []
    seen: set[str] = set()
    for entry in _ENTRY.finditer(table.group(1)):
        symbol, severity_class, literals = entry.groups()
        if symbol in seen:
            raise SystemExit(f"{symbol} is listed twice")
        if symbol not in numbers or severity_class not in classes:
            raise SystemExit(f"{symbol}, {severity_class}: not defined in {SYBDB_H}/{SYBERROR_H}")
        seen.add(symbol)
        text = direct.get(symbol) or _c_string(literals).partition("\0")[0]
        found.append((symbol, numbers[symbol], severity_class, classes[severity_class], text))
    if len(found) < 200 or table.group(1).count("{ SYBE") != len(found):
        raise SystemExit(f"{DBLIB_C}: {len(found)} entries read; the table's form changed?")
    return found


def _git(git_dir: str, *args: str) -> str:
    done = subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        source_missing(f"git {' '.join(args)} failed in {git_dir}: {done.stderr.strip()}")
    return done.stdout


def build(rows: list[tuple[str, int, str, int, str]], source: str) -> str:
    lines = [
        f"# FreeTDS ({source}): the table dblib_error_messages[] of {DBLIB_C}",
        f"# (SYBESMSG's text: the one {DBUTIL_C} passes the error handler),",
        f"# each error's number from {SYBDB_H} and its severity class's value from {SYBERROR_H}.",
        "# GNU Library General Public License, version 2 or later: freetds.LICENSE.",
        "# Extracted by tools/extract_freetds_messages.py."
        " symbol<TAB>number<TAB>class<TAB>severity<TAB>text",
        *(f"{s}\t{n}\t{c}\t{v}\t{escape(t)}" for s, n, c, v, t in rows),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--git-dir", help="a clone of github.com/FreeTDS/freetds")
    group.add_argument("--tree", help="an unpacked FreeTDS source tree")
    parser.add_argument("--ref", default="HEAD", help="the tag or commit (with --git-dir)")
    parser.add_argument("--source", help="how to name the source in the file's header")
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args(argv)
    if args.git_dir is not None:
        commit = _git(args.git_dir, "rev-parse", f"{args.ref}^{{commit}}").strip()
        files = [
            _git(args.git_dir, "show", f"{commit}:{path}")
            for path in (DBLIB_C, DBUTIL_C, SYBDB_H, SYBERROR_H)
        ]
        source = args.source or f"github.com/FreeTDS/freetds, {args.ref}, commit {commit}"
    else:
        tree = Path(args.tree)
        paths = [tree / path for path in (DBLIB_C, DBUTIL_C, SYBDB_H, SYBERROR_H)]
        if not all(path.exists() for path in paths):
            source_missing(f"{tree} is no FreeTDS source tree")
        files = [path.read_text(encoding="latin-1") for path in paths]
        source = args.source or args.tree
    rows = read(*files)
    text = build(rows, source)
    return write_or_check(
        {OUTPUT: text},
        check=args.check,
        what=f"FreeTDS's DB-Library messages ({len(rows)} messages)",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
