"""
Generate `localdata_errors/_vendor_wordings.py`: phrases only one vendor prints.

    python tools/generate_vendor_wordings.py           # write the module
    python tools/generate_vendor_wordings.py --check   # exit 1 when it is stale

A text that carries no code and no driver's name still carries its vendor's
wording ("no such table: x" is SQLite's, "Invalid column name 'x'" SQL
Server's).  The vendors' own message lists are read:

- MySQL/MariaDB: the server's English texts (`/usr/share/mysql/errmsg-utf8.txt`,
  its `eng` lines);
- PostgreSQL: the msgids of the server's and libpq's message catalogues
  (`/usr/share/locale/*/LC_MESSAGES/postgres-*.mo`, `libpq5-*.mo`);
- SQLite: `sqlite3_errstr` of every result code (the system's libsqlite3),
  and the texts its parser and constraints print, triggered here;
- DuckDB: the texts the installed `duckdb` module prints, triggered here;
- SQL Server: the `sys.messages` texts the SQL Server table's comments quote
  and DB-Library's texts (`localdata_errors/backends/_mssql_codes.py`,
  `_dblib_codes.py`);
- Oracle: python-oracledb's message formats (`oracledb.errors`);
- ODBC's SQLSTATE texts (`_mssql_python_texts.py`), which any ODBC driver
  prints: they rule phrases out, and name no vendor.

Each template is cut at its placeholders (`%s`, `%-.64s`, `%.*ls`, `{}`,
`"%s"`); each fixed run of three words or more is a phrase, kept when no
other vendor's list holds it.  Words are runs of ASCII letters and digits,
lowered (as the text reader reads a text's words).  Each phrase is filed
under its rarest word (the fewest templates of all lists hold it), so that a
text is searched for phrases only when it holds one of those words.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import glob
import re
import sqlite3
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from _generated import source_missing, write_or_check
from generate_libpq_messages import read_msgids

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "localdata_errors" / "_vendor_wordings.py"
ERRMSG = Path("/usr/share/mysql/errmsg-utf8.txt")
PG_CATALOGUES = (
    "/usr/share/locale/*/LC_MESSAGES/postgres-*.mo",
    "/usr/share/locale/*/LC_MESSAGES/libpq5-*.mo",
)
#: Fewest words of a phrase, and most (a longer run is cut to its head: a
#: vendor's later version reworded its tail more often than its head).
FEWEST, MOST = 3, 10
#: Lists that rule phrases out and name no vendor -> the vendor whose own they are.
RULE_OUT: dict[str, str | None] = {"odbc": None, "postgresql-scanner": "postgresql"}

# A placeholder, quoted or not: printf's (%s, %-.64s, %.*ls, %lu, %m),
# Python's ({}, {name}), PostgreSQL's ($1).
_PLACEHOLDER = re.compile(
    r"""['"`]?(?:%[-#0 +']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|z|j|t|I64)?[a-zA-Z%]
    |\{[^{}]{0,40}\}|\$\d+)['"`]?""",
    re.VERBOSE,
)
_WORD = re.compile(r"[a-z0-9]+")
# Where a sentence ends inside a run: a full stop, a colon or a semicolon
# before a blank, a line break.
_SENTENCE = re.compile(r"[.:;!?](?:\s+|$)|\n")


def words(text: str) -> list[str]:
    """A text's words as the reader takes them: runs of ASCII letters and digits, lowered."""
    return _WORD.findall(text.lower().encode("ascii", "ignore").decode())


def runs(template: str) -> list[list[str]]:
    """
    The template's fixed runs of words, between its placeholders.

    A run of two sentences or more ("server closed the connection
    unexpectedly\n\tThis probably means ...") also gives each sentence as a
    run of its own: a text may hold the first sentence alone.
    """
    found = []
    for piece in _PLACEHOLDER.split(template):
        whole = words(piece)
        if not whole:
            continue
        found.append(whole)
        sentences = [w for part in _SENTENCE.split(piece) if (w := words(part))]
        if len(sentences) > 1:
            found.extend(sentences)
    return found


def mysql_texts() -> list[str]:
    if not ERRMSG.exists():
        source_missing(f"{ERRMSG} is missing: install mariadb-server (or mysql-server)")
    eng = re.compile(r'^\s+eng\s+"(.*)"\s*$')
    return [
        m.group(1)
        for line in ERRMSG.read_text(encoding="utf-8").splitlines()
        if (m := eng.match(line))
    ]


def postgresql_texts() -> list[str]:
    found: set[str] = set()
    for pattern in PG_CATALOGUES:
        for path in glob.glob(pattern):
            found.update(read_msgids(path))
    if not found:
        source_missing("no PostgreSQL message catalogue: install postgresql and libpq5")
    return sorted(found)


def postgresql_scanner_texts(msgids: list[str]) -> list[str]:
    """
    What PostgreSQL's scanner prints: a message ("syntax error") as the %s of `%s at or near`.

    DuckDB's parser is PostgreSQL's and prints the same: these texts rule
    DuckDB's phrases out and name no vendor (too many to list as phrases).
    """
    if not any(msgid.startswith("%s at or near") for msgid in msgids):
        return []
    return [f"{m} at or near" for m in msgids if "%" not in m and len(words(m)) <= 4]


# Statements each of which makes SQLite (or DuckDB) print one of its texts.
_SQLITE_TRIGGERS = (
    "select * from missing_table",
    "select missing_column from t",
    "select * frm t",
    "select",
    "create table t(a)",
    "insert into t values (1, 2)",
    "insert into u values (null)",
    "insert into u values (1); insert into u values (1)",
    "insert into c values (-1)",
    "insert into f values (5)",
    "select missing_function(1)",
    "select abs(1, 2)",
    "select a from t, t2",
    "select count(*) from t where count(*) > 1",
    "drop table missing_table",
    "create index i on missing_table(a)",
    "select * from t union select a, a from t",
    "attach 'x' as main",
    "select * from missing_schema.t",
    "create view v as select 1; insert into v values (1)",
    "select a from t order by 5",
)
_SQLITE_SETUP = (
    "create table t(a); create table t2(a); create table u(a unique not null);"
    " create table c(a check (a > 0)); create table p(a primary key);"
    " create table f(a references p(a)); pragma foreign_keys = on"
)


# The names the statements use, and quoted runs: placeholders in what is printed.
_OURS = re.compile(r"""\b(?:missing_\w+|main|t2?|[ucfpvisxa]|\d+)\b|"[^"]*"|'[^']*'""")


def _triggered(run: Iterable[str], execute: object) -> list[str]:
    texts: list[str] = []
    for statement in run:
        try:
            execute(statement)  # type: ignore[operator]
        except Exception as err:  # noqa: BLE001 - every error is a text to keep
            texts.append(_OURS.sub("%s", str(err)))
    return texts


def sqlite_texts() -> list[str]:
    texts: list[str] = []
    name = ctypes.util.find_library("sqlite3")
    if name is None:
        source_missing("libsqlite3 is missing: install libsqlite3-0")
    lib = ctypes.CDLL(name)
    lib.sqlite3_errstr.restype = ctypes.c_char_p
    for code in range(256):
        for extended in range(64):
            text = lib.sqlite3_errstr(code | (extended << 8))
            if text and text != b"unknown error":
                texts.append(text.decode())
    db = sqlite3.connect(":memory:")
    db.executescript(_SQLITE_SETUP)
    texts += _triggered(_SQLITE_TRIGGERS, db.executescript)
    return sorted(set(texts))


def duckdb_texts() -> list[str]:
    try:
        import duckdb  # noqa: PLC0415 - an extra
    except ImportError:
        source_missing("the duckdb module is missing: pip install duckdb")
    db = duckdb.connect(":memory:")
    db.execute(
        "create table t(a integer); create table t2(a integer);"
        " create table u(a integer primary key, b integer not null);"
        " create table c(a integer check (a > 0))"
    )
    statements = (
        *_SQLITE_TRIGGERS,
        "insert into u values (1, null)",
        "insert into u values (1, 1); insert into u values (1, 1)",
        "select 'x'::integer",
        "select 300::tinyint",
        "select * from read_csv('/nonexistent/file.csv')",
        "create schema s; create schema s",
        "create table t(a integer)",
        "select * from missing_catalog.s.t",
    )
    texts = [text.partition("\n")[0] for text in _triggered(statements, db.execute)]
    # The labels are signs of their own ("Catalog Error: "): the phrases are what follows.
    return sorted({re.sub(r"^[A-Za-z ]{1,40} Error: ", "", text) for text in texts})


def mssql_texts() -> list[str]:
    backends = ROOT / "localdata_errors" / "backends"
    # "208: K.UNDEFINED_TABLE,  # Invalid object name '%.*ls'." (cut where the comment is)
    server = (backends / "_mssql_codes.py").read_text(encoding="utf-8")
    dblib = (backends / "_dblib_codes.py").read_text(encoding="utf-8")
    return [
        m.group(1).split("...")[0]
        for source, quoted in (
            (server, r"^\s+\d+: K\.\w+,\s+# (.+)$"),
            (dblib, r"# SYBE\w+: (.+)$"),
        )
        for m in re.finditer(quoted, source, re.M)
    ]


def oracle_texts() -> list[str]:
    try:
        from oracledb import errors  # noqa: PLC0415 - an extra
    except ImportError:
        source_missing("python-oracledb is missing: pip install oracledb")
    return [str(text) for text in errors.ERR_MESSAGE_FORMATS.values()]


def odbc_texts() -> list[str]:
    from localdata_errors.backends import _mssql_python_texts  # noqa: PLC0415

    return list(_mssql_python_texts.SQLSTATES)


def phrases(lists: dict[str, list[str]]) -> dict[str, tuple[str, str]]:
    """Phrase -> (backend, its rarest word), for the phrases only one list holds."""
    runs_of = {vendor: [r for t in texts for r in runs(t)] for vendor, texts in lists.items()}
    joined = {vendor: [" " + " ".join(r) + " " for r in found] for vendor, found in runs_of.items()}
    frequency: Counter[str] = Counter()
    for texts in lists.values():
        for text in texts:
            frequency.update(set(words(text)))
    table: dict[str, tuple[str, str]] = {}
    for vendor, found in runs_of.items():
        if vendor in RULE_OUT:
            continue
        others = [
            j
            for other, js in joined.items()
            if other != vendor and RULE_OUT.get(other) != vendor
            for j in js
        ]
        for run in found:
            if len(run) < FEWEST:
                continue
            phrase = " ".join(run[:MOST])
            if phrase in table or any(f" {phrase} " in other for other in others):
                continue
            if all(word.isdigit() or len(word) < 3 for word in run[:MOST]):
                continue
            rarest = min(run[:MOST], key=lambda w: (frequency[w], -len(w), w))
            table[phrase] = (vendor, rarest)
    return table


def opening(template: str) -> str | None:
    """The template's opening run (its words before the first placeholder), or `None`."""
    template = template.strip()
    found = runs(template)
    if not template[:1].isalpha() or not found or words(template)[:1] != found[0][:1]:
        return None
    return " ".join(found[0][:MOST])


def heads(lists: dict[str, list[str]], table: dict[str, tuple[str, str]]) -> dict[str, str]:
    """
    Opening runs only one vendor's templates open with -> that vendor.

    A phrase another vendor holds inside a template ("no such column" in
    PostgreSQL's "... because there is no such column in data type %s")
    still names the vendor whose messages open with it, where a message
    starts with it.  Only the runs that are not phrases already are kept.
    DuckDB prints every message after its label ("Constraint Error: "), a
    sign of its own: its texts do not rule out a run SQLite opens with.
    """
    opens: dict[str, set[str]] = {}
    own: set[str] = set()  # the runs of the vendors' own lists (not of the lists that rule out)
    for vendor, texts in lists.items():
        owner = RULE_OUT.get(vendor, vendor)
        for text in texts:
            run = opening(text)
            if run is not None:
                opens.setdefault(run, set()).add(owner or vendor)
                if vendor not in RULE_OUT:
                    own.add(run)
    found: dict[str, str] = {}
    for run in opens:
        if run not in own or len(run.split()) < FEWEST or sum(len(w) >= 4 for w in run.split()) < 2:
            continue
        # Every vendor whose messages open with this run, or with a run of two
        # words or more it opens with (a one-word message, "NO", says nothing).
        owners = {
            vendor
            for other, those in opens.items()
            if other == run
            or other.startswith(run + " ")
            or (" " in other and run.startswith(other + " "))
            for vendor in those
        }
        if "sqlite" in owners:
            owners.discard("duckdb")
        if len(owners) != 1 or run in table:
            continue
        (owner,) = owners
        if owner in lists and owner not in RULE_OUT:
            found[run] = owner
    return found


def build() -> str:
    sys.path.insert(0, str(ROOT))
    postgresql = postgresql_texts()
    lists = {
        "mysql": mysql_texts(),
        "postgresql": postgresql,
        "postgresql-scanner": postgresql_scanner_texts(postgresql),
        "sqlite": sqlite_texts(),
        "duckdb": duckdb_texts(),
        "mssql": mssql_texts(),
        "oracle": oracle_texts(),
        "odbc": odbc_texts(),
    }
    table = phrases(lists)
    counts = Counter(vendor for vendor, _ in table.values())
    summary = ", ".join(f"{vendor} {counts[vendor]}" for vendor in sorted(counts))
    lines = [
        '"""',
        "Phrases only one vendor's messages hold, each under its rarest word.",
        "",
        "Generated by `tools/generate_vendor_wordings.py` from the vendors' own",
        "message lists; do not edit.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f"# {len(table)} phrases: {summary}.",
        "# rarest word -> ((phrase, backend), ...)",
        "WORDINGS: Final[dict[str, tuple[tuple[str, str], ...]]] = {",
    ]
    by_word: dict[str, list[tuple[str, str]]] = {}
    for phrase, (vendor, rarest) in table.items():
        by_word.setdefault(rarest, []).append((phrase, vendor))
    for word in sorted(by_word):
        entries = sorted(by_word[word], key=lambda e: (-len(e[0]), e))
        lines.append(f'    "{word}": (')
        lines.extend(f'        ("{phrase}", "{vendor}"),' for phrase, vendor in entries)
        lines.append("    ),")
    lines.append("}")
    opened = heads(lists, table)
    lines += [
        "",
        f"# {len(opened)} opening runs only one vendor's messages open with.",
        "# opening run -> backend (read where a message starts)",
        "HEADS: Final[dict[str, str]] = {",
        *(f'    "{run}": "{vendor}",' for run, vendor in sorted(opened.items())),
        "}",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    args = parser.parse_args()
    return write_or_check(
        {OUTPUT: build()},
        check=args.check,
        what="the vendor wording table",
        script="generate_vendor_wordings.py",
    )


if __name__ == "__main__":
    raise SystemExit(main())
