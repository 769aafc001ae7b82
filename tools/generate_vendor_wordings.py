"""
Generate `localdata_errors/_vendor_wordings.py`: phrases only one vendor prints.

    python tools/generate_vendor_wordings.py           # write the module
    python tools/generate_vendor_wordings.py --check   # exit 1 when it is stale

A text that carries no code and no driver's name still carries its vendor's
wording ("no such table: x" is SQLite's, "Invalid column name 'x'" SQL
Server's).  The vendors' own message lists are read:

- MySQL/MariaDB: the server's English texts (`/usr/share/mysql/errmsg-utf8.txt`,
  its `eng` lines), and Connector/J's own messages that say why a connection
  failed or which configured limit a statement exceeded (`_connectorj_texts.py`,
  those `_connectorj_kinds.py` decides);
- PostgreSQL: the msgids of the server's and libpq's message catalogues
  (`/usr/share/locale/*/LC_MESSAGES/postgres-*.mo`, `libpq5-*.mo`), and
  those of later releases (`tools/upstream/postgresql-msgids.tsv`, from
  `tools/extract_postgresql_msgids.py`); the messages of its client programs'
  catalogues (`pg_dump-*.mo`, `psql-*.mo`, `pgscripts-*.mo`,
  `pg_basebackup-*.mo`: `aborting because of server version mismatch`),
  read as its drivers' list (`postgresql-drivers`);
- SQLite: `sqlite3_errstr` of every result code (the system's libsqlite3),
  and the texts its parser and constraints print, triggered here;
- DuckDB: the texts the installed `duckdb` module prints, triggered here;
- SQL Server: the `sys.messages` texts the SQL Server table's comments quote
  and DB-Library's texts (`localdata_errors/backends/_mssql_codes.py`,
  `_dblib_codes.py`), and SqlClient's own messages that say how a command or a
  connection ended (`_sqlclient_texts.py`, those `_sqlclient_kinds.py` decides)
  and mssql-jdbc's that say why a connection failed (`_mssql_jdbc_texts.py`,
  those `_mssql_jdbc_kinds.py` decides), and EF Core's SQL Server provider's
  that frame the driver's (`_efcore_texts.py`, those `_efcore_kinds.py` decides);
- Oracle: python-oracledb's message formats (`oracledb.errors`);
- ODBC's SQLSTATE texts (`_mssql_python_texts.py`), which any ODBC driver
  prints: they rule phrases out, and name no vendor.
- the drivers' platforms' own messages (`tools/upstream/platform-messages.tsv`,
  from `tools/extract_platform_messages.py`: Node.js's built-in modules,
  the C library's `strerror`/`gai_strerror`, Python's and Go's standard
  libraries), which a driver may copy (tedious's `socket hang up` is
  Node's): they rule phrases out, and name no vendor.
- the drivers' own messages (`tools/upstream/driver-messages.tsv`, from
  `tools/extract_driver_messages.py`: node-postgres, pgjdbc, mysql2, tedious,
  PyMySQL, ...), each backend's drivers as one list of that backend's
  (`postgresql-drivers`), with no code but a client error number the driver's
  call names; read from every call site, as DuckDB's (`read_everywhere`).

Each template is cut at its placeholders (`%s`, `%-.64s`, `%.*ls`, `{}`,
`"%s"`); each fixed run of three words or more is a phrase, kept when no
other vendor's list holds it.  Words are runs of ASCII letters and digits,
lowered (as the text reader reads a text's words).  Each phrase is filed
under its rarest word (the fewest templates of all lists hold it), so that a
text is searched for phrases only when it holds one of those words.

Where the vendor's list gives each template its code (MySQL/MariaDB's error
numbers, from `mysqld_error.h` and mysql-connector-python's `errorcode.py`;
SQLite's result names, from what the library returns; SQL Server's message
numbers; python-oracledb's `DPY-` numbers; the SQLSTATE PostgreSQL's source
states at every call site of a server format, `tools/upstream/postgresql-*sqlstates.tsv`,
one per release's source, from `tools/extract_postgresql_sqlstates.py`, kept
where every release that has the format states the same one, and for a start-up refusal whose
call site sets it through a variable, the condition of the start-up
catalogue, `backends/_postgresql_fatal.py`), a phrase carries the code of the
one template of its vendor that holds it.  A phrase a few codes' templates
hold carries those codes, and each of their templates is listed by its fixed
runs (`TEMPLATES`): the text reader gives the code of the template whose runs
the text holds, all of them, the most words (`Access denied for user` is
1044's, 1045's and 1698's; `... (using password: YES)` only 1045's).
"""

from __future__ import annotations

import bisect
import ctypes
import ctypes.util
import glob
import re
import sqlite3
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from _generated import generate, source_missing
from generate_libpq_messages import read_msgids, upstream_msgids
from generate_mysql_codes import parse_c_header, parse_connector_errorcode

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "localdata_errors" / "_vendor_wordings.py"
ERRMSG = Path("/usr/share/mysql/errmsg-utf8.txt")
MYSQLD_ERROR = Path("/usr/include/mariadb/mysqld_error.h")
PG_SERVER = "/usr/share/locale/*/LC_MESSAGES/postgres-*.mo"
PG_LIBPQ = "/usr/share/locale/*/LC_MESSAGES/libpq5-*.mo"
#: The client programs' catalogues (pg_dump and pg_restore, psql, createdb and
#: the other scripts, pg_basebackup): their own messages name PostgreSQL too.
PG_TOOLS = tuple(
    f"/usr/share/locale/*/LC_MESSAGES/{name}-*.mo"
    for name in ("pg_dump", "psql", "pgscripts", "pg_basebackup")
)
#: Server format -> the SQLSTATE every call site of it states (PostgreSQL's
#: source), one file per release (15.18's, 18.6's).
PG_SQLSTATES = sorted((ROOT / "tools" / "upstream").glob("postgresql*-sqlstates.tsv"))
#: DuckDB's message formats and their exception types (the engine's source).
DUCKDB_FORMATS = ROOT / "tools" / "upstream" / "duckdb-exceptions.tsv"
#: Fewest words of a phrase, and most (a longer run is cut to its head: a
#: vendor's later version reworded its tail more often than its head).
FEWEST, MOST = 3, 10
#: The lists read from every call site of an engine's source (DuckDB's
#: throw sites: its internal checks as well as what a user meets), not from a
#: catalogue of its messages: of theirs, a run of `COMMON_RUN` words or fewer,
#: each of which `COMMON` other vendors' templates or more hold ("expected one
#: of", "the database file"), is English any program may print, no phrase.
#: (Applied to a catalogue's runs, it would drop SQL Server's "Invalid object
#: name", whose words are everyone's but whose run is its own.)  Nor does such
#: a list rule out another vendor's phrase: DuckDB's binder keeps PostgreSQL's
#: wordings in throw sites a user rarely meets (`column "%s" does not exist`),
#: which stay the phrases of the catalogue that holds them.  Nor does what the
#: engine prints where a user meets it (triggered here: "syntax error at or
#: near"): DuckDB prints each message after its label (`Parser Error: `, the
#: label column of its throw sites), which the text reader reads as DuckDB's
#: sign before any wording, so a text without it is another vendor's.
SOURCE_WIDE, COMMON_RUN, COMMON = frozenset({"duckdb"}), 4, 20
#: Lists that rule phrases out and name no vendor -> the vendor whose own they are.
RULE_OUT: dict[str, str | None] = {
    "odbc": None,
    "platforms": None,
    "postgresql-scanner": "postgresql",
}
#: Lists whose words count toward no word's frequency (`COMMON`, a phrase's
#: rarest word): the platforms' hundreds of messages would make a driver's
#: protocol words everyone's (`bind`, `handshake`, `response`) and its
#: `unexpected bind response` English.  They rule out the phrases they hold.
UNCOUNTED = frozenset({"platforms"})
#: Most codes a phrase may name (their templates then tell them apart).
MOST_CODES = 6
#: The drivers' own messages, each with its backend (from `tools/extract_driver_messages.py`).
DRIVER_MESSAGES = ROOT / "tools" / "upstream" / "driver-messages.tsv"
#: The drivers' platforms' own messages (from `tools/extract_platform_messages.py`).
PLATFORM_MESSAGES = ROOT / "tools" / "upstream" / "platform-messages.tsv"
#: A drivers' list is named after its backend with this after it (`mysql-drivers`).
DRIVERS = "-drivers"


def owner(name: str) -> str:
    """
    Whose a list's messages are: a drivers' list's backend's, a ruling-out
    list's vendor's (ODBC's are its own), else the list's own vendor's.
    """
    if name.endswith(DRIVERS):
        return name.removesuffix(DRIVERS)
    return RULE_OUT.get(name) or name


def read_everywhere(name: str) -> bool:
    """
    Whether the list was read from every call site of a source (an engine's
    throw sites, a driver's), not from a catalogue of messages.

    As `SOURCE_WIDE` says of DuckDB's: its runs of everyone's words are
    English, no phrase, and it rules out no catalogue's phrase (a driver's
    bulk copy says `column %v does not exist in destination table %v`, where
    PostgreSQL's `column "%s" does not exist` is what its users meet).  Such
    lists rule out each other's phrases: a phrase two backends' drivers hold
    names neither, and a catalogue's rules out a driver's.
    """
    return name in SOURCE_WIDE or name.endswith(DRIVERS)


#: A template, and the code its vendor's list gives it (`None`: none given).
Template = tuple[str, str | None]

# A placeholder, quoted or not: printf's (%s, %-.64s, %.*ls, %lu, %m),
# Python's ({}, {name}), PostgreSQL's ($1), Sybase's numbered ones (%1!, DB-Library's).
_PLACEHOLDER = re.compile(
    r"""['"`]?(?:%\d+!|%[-#0 +'`]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|z|j|t|I64)?[a-zA-Z%]
    |\{[^{}]{0,40}\}|\$\d+)['"`]?""",
    re.VERBOSE,
)
_WORD = re.compile(r"[a-z0-9]+")
# Where a sentence ends inside a run: a full stop, a colon or a semicolon
# before a blank, a line break.
_SENTENCE = re.compile(r"[.:;!?](?:\s+|$)|\n")


def words(text: str) -> list[str]:
    """
    A text's words as the reader takes them: runs of ASCII letters and digits,
    lowered; any other character (a non-ASCII one too) parts them.
    """
    return _WORD.findall(text.lower().encode("ascii", "replace").decode())


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


def mysql_texts() -> list[Template]:
    """
    The server's English texts, each with its number (`mysqld_error.h`), and
    the client's (mysql-connector-python's English `CR_` texts, numbered by
    its `errorcode.py`).

    MariaDB's texts name their server where MySQL's, which they were forked
    from, name MySQL (`Host '%-.64s' is not allowed to connect to this
    MariaDB server`, `... consider upgrading MariaDB client`): the product's
    name is read as a placeholder, so that a phrase is the words both print.
    """
    if not ERRMSG.exists():
        source_missing(f"{ERRMSG} is missing: install mariadb-server (or mysql-server)")
    if not MYSQLD_ERROR.exists():
        source_missing(f"{MYSQLD_ERROR} is missing: install libmariadb-dev")
    numbers = parse_c_header(MYSQLD_ERROR)
    eng = re.compile(r'^\s+eng\s+"(.*)"\s*$')
    symbol = re.compile(r"^([A-Z][A-Z0-9_]*)\b")
    found: list[Template] = []
    number: int | None = None
    for line in ERRMSG.read_text(encoding="utf-8").splitlines():
        if (m := symbol.match(line)) is not None:
            number = numbers.get(m.group(1))
        elif (m := eng.match(line)) is not None:
            text = re.sub(r"\bMariaDB\b", "%s", m.group(1))
            found.append((text, None if number is None else str(number)))
    return found + mysql_client_texts()


def mysql_client_texts() -> list[Template]:
    try:
        from mysql.connector import errorcode  # noqa: PLC0415 - an extra
        from mysql.connector.locales.eng import client_error  # noqa: PLC0415
    except ImportError:
        source_missing("mysql-connector-python is missing: pip install mysql-connector-python")
    numbers, _version = parse_connector_errorcode(Path(str(errorcode.__file__)))
    return [
        (text, str(numbers[name]) if name in numbers else None)
        for name, text in vars(client_error).items()
        if name.startswith("CR_") and isinstance(text, str)
    ]


def postgresql_texts() -> list[Template]:
    """
    The msgids, a server's with the SQLSTATE its source states (the catalogues
    give none); libpq's, which it prints without one, with none.
    """
    server: set[str] = set()
    client: set[str] = set()
    for pattern, found in ((PG_SERVER, server), (PG_LIBPQ, client)):
        for path in glob.glob(pattern):
            found.update(read_msgids(path))
    if not server and not client:
        source_missing("no PostgreSQL message catalogue: install postgresql and libpq5")
    server.update(upstream_msgids("postgres"))
    client.update(upstream_msgids("libpq5"))
    # Where a call site sets the code through a variable (the authentication
    # methods' refusals), the start-up catalogue's reviewed condition says it.
    from localdata_errors.backends import _postgresql_fatal  # noqa: PLC0415

    states = {msgid: state for _, state, _, msgid in _postgresql_fatal.MESSAGES}
    states.update(postgresql_sqlstates())
    for text, state in list(states.items()):
        # A detail that says a format's words again (the style guide's capital
        # and full stop: `Could not open file "%s": %m.`, `Role "%s" does not
        # exist.`) has its words, and no SQLSTATE of its own: the format's is
        # the detail's too, so that the two are one template's words, not a
        # coded and an uncoded one that tie.  (Where the format's is set from
        # errno, the text reader reads the SQLSTATE only where the words are
        # written as the primary message writes them.)
        twin = text[:1].upper() + text[1:] + "."
        if twin in server and twin not in states:
            states[twin] = state
    return [
        (text, None if text in client else states.get(text)) for text in sorted(server | client)
    ]


def postgresql_program_texts(catalogued: list[Template]) -> list[Template]:
    """
    The messages of PostgreSQL's client programs' catalogues (`PG_TOOLS`:
    `aborting because of server version mismatch`, `input file appears to be
    a text format dump`), those the server's and libpq's do not hold: their
    messages, not their help (one line, a lower-case start and no full stop,
    PostgreSQL's style for a primary message), with no code.  Client-side
    words, as its drivers' are: they join `postgresql-drivers`, read as
    those are (`read_everywhere`: a run of everyone's words is no phrase).
    """
    known = {text for text, _ in catalogued}
    found: set[str] = set()
    for pattern in PG_TOOLS:
        for path in glob.glob(pattern):
            found.update(
                msgid
                for msgid in read_msgids(path)
                if "\n" not in msgid and msgid[:1].islower() and not msgid.endswith(".")
            )
    return [(text, None) for text in sorted(found - known)]


def postgresql_sqlstates() -> dict[str, str]:
    """
    Server format -> SQLSTATE, as `tools/extract_postgresql_sqlstates.py` wrote
    them for each release: a format the releases state different codes for
    (`empty XPath expression`: 15's 22000, 18's 10608) states none.  A
    format whose SQLSTATE the server sets from errno states its marker
    (`errno:file`, `errno:socket`): the text reader reads the SQLSTATE
    from the strerror text its `%m` printed (`backends/_postgresql_errno.py`).
    """
    unescape = {"\\\\": "\\", "\\t": "\t", "\\n": "\n"}
    stated: dict[str, set[str]] = {}
    for path in PG_SQLSTATES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#") and line.count("\t") == 1:
                # (The errno section's rows, marker<TAB>errno<TAB>sqlstate, are
                # `tools/generate_postgresql_errno.py`'s.)
                text, _, state = line.rpartition("\t")
                text = re.sub(r"\\[\\tn]", lambda m: unescape[m.group()], text)
                stated.setdefault(text, set()).add(state)
    return {text: states.pop() for text, states in stated.items() if len(states) == 1}


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
    "insert into p values (1); insert into p values (1)",
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


def _triggered(run: Iterable[str], execute: object) -> list[Template]:
    """What each statement prints, with the result name the library gave it (SQLite's)."""
    texts: list[Template] = []
    for statement in run:
        try:
            execute(statement)  # type: ignore[operator]
        except Exception as err:  # noqa: BLE001 - every error is a text to keep
            name = getattr(err, "sqlite_errorname", None)
            texts.append((_OURS.sub("%s", str(err)), name if isinstance(name, str) else None))
    return texts


def sqlite_texts() -> list[Template]:
    """
    `sqlite3_errstr` of every result code, named by the SQLite mapper's list
    of result codes (an extended code whose text is its primary's is the
    primary's text), and the texts the statements make it print, named by
    the result the library returned.
    """
    from localdata_errors.backends.sqlite import RESULT_CODES  # noqa: PLC0415

    names = {number: name for name, number in RESULT_CODES.items()}
    texts: set[Template] = set()
    name = ctypes.util.find_library("sqlite3")
    if name is None:
        source_missing("libsqlite3 is missing: install libsqlite3-0")
    lib = ctypes.CDLL(name)
    lib.sqlite3_errstr.restype = ctypes.c_char_p
    for code in range(256):
        primary = lib.sqlite3_errstr(code)
        for extended in range(64):
            number = code | (extended << 8)
            text = lib.sqlite3_errstr(number)
            if text and text != b"unknown error":
                owner = code if text == primary else number
                texts.add((text.decode(), names.get(owner)))
    db = sqlite3.connect(":memory:")
    db.executescript(_SQLITE_SETUP)
    printed: dict[str, set[str | None]] = {}
    for text, owner_name in _triggered(_SQLITE_TRIGGERS, db.executescript):
        printed.setdefault(text, set()).add(owner_name)
    for text, owners in printed.items():
        # One text of several extended results (`UNIQUE constraint failed` is
        # SQLITE_CONSTRAINT_UNIQUE's and _PRIMARYKEY's) is their primary
        # result's, which each of them is (an extended code's low byte).
        primaries = {
            names.get(RESULT_CODES[o] & 0xFF) if o is not None and o in RESULT_CODES else o
            for o in owners
        }
        primary = primaries.pop() if len(primaries) == 1 else None
        texts.add((text, owners.pop() if len(owners) == 1 else primary))
    return sorted(texts, key=lambda t: (t[0], t[1] or ""))


def duckdb_texts(triggered: list[Template]) -> list[Template]:
    """
    The engine's message formats, each with the exception class DuckDB raises
    it as (`tools/upstream/duckdb-exceptions.tsv`: the source's throw sites,
    kept where the installed engine's library holds them), and *triggered*.
    """
    return sorted(set(triggered) | set(duckdb_formats()), key=lambda t: (t[0], t[1] or ""))


def duckdb_shell_texts() -> list[Template]:
    """The texts the installed `duckdb` module prints, triggered here, with the class it raised."""
    try:
        import duckdb  # noqa: PLC0415 - an extra
    except ImportError:
        source_missing("the duckdb module is missing: pip install duckdb")
    from localdata_errors.backends.duckdb import CLASS_KINDS  # noqa: PLC0415

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
    texts: set[Template] = set()
    for statement in statements:
        try:
            db.execute(statement)
        except duckdb.Error as err:
            # The labels are signs of their own ("Catalog Error: "): the phrases are what follows.
            text = re.sub(r"^[A-Za-z ]{1,40} Error: ", "", str(err).partition("\n")[0])
            name = type(err).__name__
            texts.add((_OURS.sub("%s", text), name if name in CLASS_KINDS else None))
    return sorted(texts, key=lambda t: (t[0], t[1] or ""))


def duckdb_formats() -> list[Template]:
    """
    The formats of `tools/upstream/duckdb-exceptions.tsv`, each with the class
    the duckdb module raises for its label (`Catalog`: `CatalogException`),
    none where the DuckDB backend knows no class of that label.

    The `INTERNAL` ones are left out: assertions of the engine's own code,
    which DuckDB prints after their label and with its own notice
    (`This error signals an assertion failure within DuckDB`, appended by
    `ErrorData`), both signs already; their runs would only rule out the
    phrases of vendors whose users meet them.
    """
    from localdata_errors.backends.duckdb import _LABEL_CLASS  # noqa: PLC0415

    unescape = {"\\\\": "\\", "\\t": "\t", "\\n": "\n"}
    found: list[Template] = []
    for line in DUCKDB_FORMATS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            text, kind, label = line.split("\t")
            if kind == "INTERNAL":
                continue
            text = re.sub(r"\\[\\tn]", lambda m: unescape[m.group()], text)
            found.append((text, _LABEL_CLASS.get(label.lower())))
    return found


def mssql_texts() -> list[Template]:
    """
    The `sys.messages` texts the SQL Server table quotes, with their numbers;
    the texts FreeTDS's DB-Library prints, with theirs (`backends/_dblib_codes.py`'s
    `MESSAGES`: pymssql, PHP's pdo_dblib, DBD::Sybase and tiny_tds show them).
    Not `sybdb.h`'s comments: Sybase's old wordings, which no library prints.
    """
    from localdata_errors.backends import _dblib_codes  # noqa: PLC0415

    backends = ROOT / "localdata_errors" / "backends"
    # "208: K.UNDEFINED_TABLE,  # Invalid object name '%.*ls'." (cut where the comment is)
    server = (backends / "_mssql_codes.py").read_text(encoding="utf-8")
    return [
        (m.group(2).split("...")[0], m.group(1))
        for m in re.finditer(r"^\s+(\d+): K\.\w+,\s+# (.+)$", server, re.M)
    ] + [
        (text, str(_dblib_codes.ERRORS[symbol][0]))
        for symbol, (_severity, text) in _dblib_codes.MESSAGES.items()
    ]


def sqlclient_texts() -> list[Template]:
    """
    SqlClient's own messages that say how a command or a connection ended (those
    `_sqlclient_kinds` gives a kind, each wording of the releases read), from
    the driver's `Strings.resx`
    (`backends/_sqlclient_texts.py`, generated from `tools/upstream/sqlclient-strings.tsv`).
    """
    from localdata_errors.backends import _sqlclient_kinds, _sqlclient_texts  # noqa: PLC0415

    decided = [*_sqlclient_kinds.DETAILS, *_sqlclient_kinds.KINDS]
    return [(text, None) for name in decided for text in _sqlclient_texts.TEXTS[name]]


def mssql_jdbc_texts() -> list[Template]:
    """
    mssql-jdbc's own messages that say why a connection could not be made or
    was lost (those `_mssql_jdbc_kinds` gives a kind), each wording of the
    releases read, from the driver's `SQLServerResource.java`
    (`backends/_mssql_jdbc_texts.py`, generated from `tools/upstream/mssql-jdbc-strings.tsv`).
    """
    from localdata_errors.backends import _mssql_jdbc_kinds, _mssql_jdbc_texts  # noqa: PLC0415

    return [
        (text.replace("''", "'"), None)
        for name in _mssql_jdbc_kinds.KINDS
        for text in _mssql_jdbc_texts.TEXTS[name]
    ]


def connectorj_texts() -> list[Template]:
    """
    MySQL Connector/J's own messages that say why a connection could not be
    made or was lost, or which configured limit a statement exceeded (those
    `_connectorj_kinds` gives a kind), each wording of the releases read,
    from the driver's `LocalizedErrorMessages.properties`
    (`backends/_connectorj_texts.py`, generated from
    `tools/upstream/mysql-connector-j-strings.tsv`).
    """
    from localdata_errors.backends import _connectorj_kinds, _connectorj_texts  # noqa: PLC0415

    return [
        (text.replace("''", "'"), None)
        for key in _connectorj_kinds.KINDS
        for text in _connectorj_texts.TEXTS[key]
    ]


def efcore_texts() -> list[Template]:
    """
    EF Core's SQL Server provider's own messages (those `_efcore_kinds` gives
    a kind), each wording of the releases read, from its `SqlServerStrings.resx`
    (`backends/_efcore_texts.py`, generated from `tools/upstream/efcore-strings.tsv`).
    """
    from localdata_errors.backends import _efcore_kinds, _efcore_texts  # noqa: PLC0415

    return [(text, None) for name in _efcore_kinds.KINDS for text in _efcore_texts.TEXTS[name]]


def oracle_texts() -> list[Template]:
    """python-oracledb's message formats, each with its `DPY-` number."""
    try:
        from oracledb import errors  # noqa: PLC0415 - an extra
    except ImportError:
        source_missing("python-oracledb is missing: pip install oracledb")
    return [
        (str(text), f"{errors.ERR_PREFIX}-{number:04d}")
        for number, text in errors.ERR_MESSAGE_FORMATS.items()
    ]


def driver_texts() -> dict[str, list[Template]]:
    """
    Backend's drivers' list (`postgresql-drivers`) -> the messages its drivers
    raise of their own (`tools/upstream/driver-messages.tsv`), each with the
    client error number the driver's call names, else none.
    """
    unescape = {"\\\\": "\\", "\\t": "\t", "\\n": "\n"}
    found: dict[str, set[Template]] = {}
    for line in DRIVER_MESSAGES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            _driver, backend, _version, _file, code, text = line.split("\t")
            text = re.sub(r"\\[\\tn]", lambda m: unescape[m.group()], text)
            found.setdefault(backend + DRIVERS, set()).add((text, None if code == "-" else code))
    return {
        name: sorted(texts, key=lambda t: (t[0], t[1] or ""))
        for name, texts in sorted(found.items())
    }


def platform_texts() -> list[str]:
    """
    The messages of the drivers' platforms (`tools/upstream/platform-messages.tsv`):
    Node's, the C library's, Python's and Go's, whatever program prints them.
    """
    unescape = {"\\\\": "\\", "\\t": "\t", "\\n": "\n"}
    found: set[str] = set()
    for line in PLATFORM_MESSAGES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            _platform, _version, _source, text = line.split("\t")
            found.add(re.sub(r"\\[\\tn]", lambda m: unescape[m.group()], text))
    return sorted(found)


def odbc_texts() -> list[str]:
    from localdata_errors.backends import _mssql_python_texts  # noqa: PLC0415

    return list(_mssql_python_texts.SQLSTATES)


#: A phrase's entry: (backend, its rarest word, the code(s) of its templates, or `None`).
Entry = tuple[str, str, str | None]


def _elsewhere(lists: dict[str, list[Template]]) -> dict[str, Counter[str]]:
    """Vendor -> how many of the other vendors' templates hold each word."""
    own: dict[str, Counter[str]] = {}
    for vendor, texts in lists.items():
        held = own.setdefault(owner(vendor), Counter())
        for text, _ in [] if vendor in UNCOUNTED else texts:
            held.update(set(words(text)))
    every: Counter[str] = Counter()
    for held in own.values():
        every.update(held)
    return {vendor: every - held for vendor, held in own.items()}


def phrases(lists: dict[str, list[Template]]) -> dict[str, Entry]:
    """
    Phrase -> (backend, its rarest word, codes), for the phrases only one list holds.

    The codes are those of the vendor's templates that hold the phrase,
    joined by blanks (one code: the phrase is that code's), `None` where
    one holds it without a code or more than `MOST_CODES` codes do.
    """
    runs_of = {
        vendor: [(r, code) for text, code in texts for r in runs(text)]
        for vendor, texts in lists.items()
    }
    joined = {
        vendor: [(" " + " ".join(r) + " ", code) for r, code in found]
        for vendor, found in runs_of.items()
    }
    frequency: Counter[str] = Counter()
    own: dict[str, Counter[str]] = {}
    for vendor, texts in lists.items():
        held = own.setdefault(owner(vendor), Counter())
        for text, _ in [] if vendor in UNCOUNTED else texts:
            held.update(set(words(text)))
    for held in own.values():
        frequency.update(held)
    table: dict[str, Entry] = {}
    for vendor, found in runs_of.items():
        if vendor in RULE_OUT:
            continue
        # How many of the other vendors' templates hold each word.
        elsewhere = frequency - own[owner(vendor)]
        # The other lists' runs, one per line: " phrase " (no line break in it)
        # is in the text exactly when it is in one of the runs.
        others = "\n".join(
            j
            for other, js in joined.items()
            if owner(other) != owner(vendor)
            and (not read_everywhere(other) or read_everywhere(vendor))
            for j, _ in js
        )
        coded = any(code is not None for _, code in found)
        for run, _code in found:
            if len(run) < FEWEST:
                continue
            phrase = " ".join(run[:MOST])
            if phrase in table or f" {phrase} " in others:
                continue
            if all(word.isdigit() or len(word) < 3 for word in run[:MOST]):
                continue
            if (
                read_everywhere(vendor)
                and len(run) <= COMMON_RUN
                and all(elsewhere[word] >= COMMON for word in run)
            ):
                # Words every vendor writes ("expected one of", "the database
                # file"): English, not the vendor's wording.
                continue
            rarest = min(run[:MOST], key=lambda w: (frequency[w], -len(w), w))
            codes = _codes(f" {phrase} ", joined[vendor]) if coded else None
            table[phrase] = (owner(vendor), rarest, codes)
    return table


def pieces(template: str) -> list[str]:
    """
    The template's fixed runs in order, each as its words joined by blanks,
    and a first piece `""` where it opens with a placeholder (another message
    goes there: MySQL's `%s near '%-.80T' at line %d`).
    """
    parts = [" ".join(words(piece)[:MOST]) for piece in _PLACEHOLDER.split(template.strip())]
    found = [part for part in parts if part]
    if found and not parts[0]:
        found.insert(0, "")
    return found


def in_order(parts: list[str], joined: str) -> bool:
    """Whether the joined words (`" w w "`) hold the parts, in order."""
    at = 0
    for part in parts:
        if not part:
            continue
        at = joined.find(f" {part} ", at)
        if at < 0:
            return False
        at += len(part) + 1
    return True


#: A code standing for the templates that have none, among a gapped phrase's codes.
UNCODED = "-"


def gapped(lists: dict[str, list[Template]], table: dict[str, Entry]) -> dict[str, Entry]:
    """
    Gapped phrase (`access denied for user|using password`) -> entry, for the
    coded templates no phrase gives their code: each template's fixed runs,
    in order, kept when no other vendor's template holds them, in order.
    Three words or more, two of four letters or more.

    Where no phrase gives the template's code alone, the runs give that
    code.  Where one gives it alone (a vendor whose code has many templates:
    PostgreSQL's SQLSTATEs), but none the template holds, the runs give the
    codes of the vendor's templates that hold them, `UNCODED` for those that
    have none (their templates tell them apart), no more than `MOST_CODES`.
    """
    every = [
        (vendor, code, " " + " ".join(words(text)) + " ", set(words(text)))
        for vendor, texts in lists.items()
        for text, code in texts
    ]
    holding: dict[str, list[int]] = {}
    for n, (_, _, _, held) in enumerate(every):
        for word in held:
            holding.setdefault(word, []).append(n)
    frequency = {word: len(ns) for word, ns in holding.items()}
    alone = {(vendor, codes) for vendor, _, codes in table.values() if codes and " " not in codes}
    found: dict[str, Entry] = {}
    for vendor, texts in lists.items():
        if vendor in RULE_OUT or vendor.endswith(DRIVERS):
            continue  # a drivers' list gives few codes: its phrases name the backend
        for text, code in texts:
            parts = pieces(text)
            named = [w for part in parts for w in part.split()]
            if (
                code is None
                or len([p for p in parts if p]) < 2  # a gap between two runs
                or len(named) < FEWEST
                or sum(len(w) >= 4 for w in named) < 2
            ):
                continue
            shared = (vendor, code) in alone
            if shared and any(
                table.get(" ".join(run[:MOST]), ("", "", None))[::2] == (vendor, code)
                for run in runs(text)
            ):
                continue
            rarest = min(named, key=lambda w: (frequency[w], -len(w), w))
            codes: set[str | None] = {code}
            for n in holding[rarest]:
                other, other_code, joined, _ = every[n]
                if (other != vendor and owner(other) == vendor) or not in_order(parts, joined):
                    continue  # the vendor's scanner's texts, its drivers' messages
                if read_everywhere(other) and not read_everywhere(vendor):
                    continue  # rules out no catalogue's phrase (see `read_everywhere`)
                if other != vendor:
                    codes.add(None)
                elif shared:
                    codes.add(other_code or UNCODED)
            if None in codes or len(codes) > MOST_CODES:
                continue
            joined_codes = " ".join(sorted(c for c in codes if c is not None))
            found.setdefault("|".join(parts), (vendor, rarest, joined_codes))
    return found


def _codes(phrase: str, joined: list[tuple[str, str | None]]) -> str | None:
    """
    The codes of the templates holding the phrase, joined by blanks
    (`UNCODED` for those that have none: their templates tell them apart),
    or `None`: no template holding it has a code, or too many codes.
    """
    codes = {code or UNCODED for run, code in joined if phrase in run}
    if codes == {UNCODED} or len(codes) > MOST_CODES:
        return None
    return " ".join(sorted(codes))


def templates(
    lists: dict[str, list[Template]], named: Iterable[tuple[str, str, str]]
) -> dict[str, dict[str, list[str]]]:
    """
    Backend -> code -> its templates, each as its fixed runs joined by `|`,
    for the codes named together with others by one phrase: the templates
    of four words or more that hold such a phrase of their code, and a
    shorter one that is such a phrase itself (`relation "%s" already
    exists`, 42P07's, whose phrase 42701's `column "%s" of relation "%s"
    already exists` holds too).

    A template that ends with a placeholder ends with a last `|` (a value
    follows its runs), its last run whole (not cut to `MOST` words: where
    the value starts is what tells it): MySQL's 1452 is 1216's words and
    the constraint's details after them (`... constraint fails (%s)`).
    """
    wanted: dict[tuple[str, str], list[list[str]]] = {}
    for vendor, code, phrase in named:
        wanted.setdefault((vendor, code), []).append(phrase.split("|"))
    found: dict[str, dict[str, list[str]]] = {}
    for vendor, texts in lists.items():
        for text, given in texts:
            code = given or UNCODED
            if (vendor, code) not in wanted:
                continue
            joined = " " + " ".join(words(text)) + " "
            if not any(in_order(phrase, joined) for phrase in wanted[vendor, code]):
                continue
            parts = [part for part in pieces(text) if part]
            if sum(len(part.split()) for part in parts) <= FEWEST and parts not in [
                [part for part in phrase if part] for phrase in wanted[vendor, code]
            ]:
                continue  # a template of three words or fewer tells no code apart
            last = open_run(text)
            if last is not None:
                # Its last run whole, then where its value goes.
                parts[-1] = last
            form = "|".join(parts) + ("|" if last is not None else "")
            forms = found.setdefault(vendor, {}).setdefault(code, [])
            if form not in forms:
                forms.append(form)
    return found


def open_run(template: str) -> str | None:
    """
    The template's last run, whole, where a placeholder (and punctuation at
    most) ends the template right after it; else `None`.
    """
    split = [piece for piece in _PLACEHOLDER.split(template.strip()) if piece.strip()]
    if len(split) < 2 or words(split[-1]):
        return None
    return " ".join(words(split[-2])) or None


def known(lists: dict[str, list[Template]], table: dict[str, Entry]) -> dict[str, dict[str, str]]:
    """
    Backend -> its coded templates no phrase gives the code of, each as its
    fixed runs joined by `|` (`pieces`) -> the codes of the vendor's templates
    of that form (blanks between).

    A template's runs another vendor prints too ("deadlock detected", `%s at
    or near "%s"`, DuckDB's parser being PostgreSQL's), or of fewer than three
    words, are no phrase: they name no vendor, but once the backend is known
    they are its template's.  Those a phrase of the template's code already
    gives (the phrase is found wherever the template is) are left out, and
    those of fewer than two words, or none of four letters or more.  A form
    the vendor's other templates have too carries their codes (`UNCODED` for
    those that have none): the text reader then gives none of them.
    """
    found: dict[str, dict[str, set[str]]] = {}
    for vendor, texts in lists.items():
        if vendor in RULE_OUT or vendor.endswith(DRIVERS):
            continue
        forms: dict[str, set[str]] = {}
        wanted: set[str] = set()
        for text, code in texts:
            parts = pieces(text)
            form = "|".join(parts)
            named = [w for part in parts for w in part.split()]
            if len(named) < 2 or all(len(w) < 4 for w in named):
                continue
            forms.setdefault(form, set()).add(code or UNCODED)
            if code is None:
                continue
            keys = [" ".join(run[:MOST]) for run in runs(text)] + [form]
            if not any(
                (entry := table.get(key)) is not None
                and entry[0] == vendor
                and entry[2] is not None
                and code in entry[2].split()
                for key in keys
            ):
                wanted.add(form)
        if wanted:
            found[vendor] = {form: forms[form] for form in wanted}
    return {
        vendor: {form: " ".join(sorted(codes)) for form, codes in sorted(forms.items())}
        for vendor, forms in sorted(found.items())
    }


def opening(template: str) -> str | None:
    """The template's opening run (its words before the first placeholder), or `None`."""
    template = template.strip()
    found = runs(template)
    if not template[:1].isalpha() or not found or words(template)[:1] != found[0][:1]:
        return None
    return " ".join(found[0][:MOST])


def _quoted_after_opening(template: str) -> bool:
    """Whether the template's first placeholder, right after its opening run, is quoted."""
    found = _PLACEHOLDER.search(template.strip())
    return found is not None and found.group()[:1] in "'\"`"


def heads(
    lists: dict[str, list[Template]], table: dict[str, Entry]
) -> dict[str, tuple[str, str | None]]:
    """
    Opening runs only one vendor's templates open with -> that vendor, and the code.

    A phrase another vendor holds inside a template ("no such column" in
    PostgreSQL's "... because there is no such column in data type %s")
    still names the vendor whose messages open with it, where a message
    starts with it.  Only the runs that are not phrases already are kept.
    DuckDB prints every message after its label ("Constraint Error: "), a
    sign of its own: its texts do not rule out a run SQLite opens with.
    The codes are those of the vendor's templates that open with the run
    (`None` where one has none, or more than `MOST_CODES` have one).  A
    shorter run whose every template goes on with a quoted placeholder
    (PostgreSQL's `not-null constraint "%s" on ...`) does not rule out a run
    that goes on from it with a word (SQLite's `NOT NULL constraint failed`):
    after it a text goes on with a quote.
    """
    opens: dict[str, set[str]] = {}  # the lists whose templates open with a run
    own: set[str] = set()  # the runs of the vendors' own lists (not of the lists that rule out)
    codes: dict[tuple[str, str], set[str | None]] = {}
    unquoted: dict[str, set[str]] = {}  # the lists of a run's templates going on unquoted
    catalogued: set[str] = set()  # the runs an engine's templates open with (not a driver's)
    elsewhere = _elsewhere(lists)
    for vendor, texts in lists.items():
        for text, code in texts:
            run = opening(text)
            if run is not None:
                opens.setdefault(run, set()).add(vendor)
                codes.setdefault((vendor, run), set()).add(code)
                if not _quoted_after_opening(text):
                    unquoted.setdefault(run, set()).add(vendor)
                if vendor not in RULE_OUT:
                    own.add(run)
                if not vendor.endswith(DRIVERS):
                    catalogued.add(run)
    found: dict[str, tuple[str, str | None]] = {}
    ordered = sorted(opens)
    for run, opening_it in opens.items():
        if run not in own or len(run.split()) < FEWEST or sum(len(w) >= 4 for w in run.split()) < 2:
            continue
        # Every vendor whose messages open with this run, or with a run of two
        # words or more it opens with (a one-word message, "NO", says nothing).
        held_by = set(opening_it)
        # The runs that go on from this one sort together, right after "run ".
        for other in ordered[bisect.bisect_left(ordered, run + " ") :]:
            if not other.startswith(run + " "):
                break
            held_by |= opens[other]
        # The runs this one goes on from: its first two words, three, ...
        parts = run.split(" ")
        for n in range(2, len(parts)):
            held_by |= unquoted.get(" ".join(parts[:n]), set())
        # A driver's message rules out no run an engine's templates open with
        # (as it rules out no engine's phrase: see `read_everywhere`).
        owners = {
            owner(name) for name in held_by if run not in catalogued or not name.endswith(DRIVERS)
        }
        if "sqlite" in owners:
            owners.discard("duckdb")
        if len(owners) != 1 or run in table:
            continue
        (whose,) = owners
        if (
            run not in catalogued
            and len(run.split()) <= COMMON_RUN
            and all(elsewhere[whose][word] >= COMMON for word in run.split())
        ):
            continue  # a driver's English, which any program may open with
        if whose in lists and whose not in RULE_OUT:
            # The codes of the vendor's own list (a driver's message states none).
            held = {
                code
                for (vendor, other), those in codes.items()
                if vendor == whose and (other == run or other.startswith(run + " "))
                for code in those
            }
            several = None in held or len(held) > MOST_CODES
            given = " ".join(sorted(c for c in held if c))
            found[run] = (whose, None if several or not given else given)
    return found


def build() -> str:
    sys.path.insert(0, str(ROOT))
    postgresql = postgresql_texts()
    shell = duckdb_shell_texts()
    lists: dict[str, list[Template]] = {
        "mysql": mysql_texts() + connectorj_texts(),
        "postgresql": postgresql,
        "postgresql-scanner": [
            (text, None) for text in postgresql_scanner_texts([t for t, _ in postgresql])
        ],
        "sqlite": sqlite_texts(),
        "duckdb": duckdb_texts(shell),
        "mssql": mssql_texts() + sqlclient_texts() + mssql_jdbc_texts() + efcore_texts(),
        "oracle": oracle_texts(),
        "odbc": [(text, None) for text in odbc_texts()],
        "platforms": [(text, None) for text in platform_texts()],
        **driver_texts(),
    }
    programs = "postgresql" + DRIVERS
    lists[programs] = sorted(
        set(lists.get(programs, [])) | set(postgresql_program_texts(postgresql)),
        key=lambda t: (t[0], t[1] or ""),
    )
    table = phrases(lists)
    table.update(gapped(lists, table))
    counts = Counter(vendor for vendor, _, _ in table.values())
    summary = ", ".join(f"{vendor} {counts[vendor]}" for vendor in sorted(counts))
    coded = Counter(vendor for vendor, _, codes in table.values() if codes and " " not in codes)
    several = Counter(vendor for vendor, _, codes in table.values() if codes and " " in codes)
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
        "# Of one code's templates: "
        + ", ".join(f"{vendor} {coded[vendor]}" for vendor in sorted(coded))
        + "; of a few codes': "
        + ", ".join(f"{vendor} {several[vendor]}" for vendor in sorted(several))
        + ".",
        "# rarest word -> ((phrase, backend, code or codes or None), ...); a gapped phrase's",
        "# runs, joined by '|', are found in order (a first '' where a message goes).",
        "WORDINGS: Final[dict[str, tuple[tuple[str, str, str | None], ...]]] = {",
    ]
    by_word: dict[str, list[tuple[str, str, str | None]]] = {}
    for phrase, (vendor, rarest, codes) in table.items():
        by_word.setdefault(rarest, []).append((phrase, vendor, codes))
    for word in sorted(by_word):
        entries = sorted(by_word[word], key=lambda e: (-len(e[0]), e[0], e[1]))
        lines.append(f'    "{word}": (')
        lines.extend(
            f'        ("{phrase}", "{vendor}", {_literal(codes)}),'
            for phrase, vendor, codes in entries
        )
        lines.append("    ),")
    lines.append("}")
    opened = heads(lists, table)
    lines += [
        "",
        f"# {len(opened)} opening runs only one vendor's messages open with.",
        "# opening run -> (backend, code or codes or None) (read where a message starts)",
        "HEADS: Final[dict[str, tuple[str, str | None]]] = {",
        *(
            f'    "{run}": ("{vendor}", {_literal(code)}),'
            for run, (vendor, code) in sorted(opened.items())
        ),
        "}",
    ]
    named = [
        (vendor, code, phrase)
        for phrase, vendor, codes in [(p, v, c) for p, (v, _, c) in table.items()]
        + [(run, v, c) for run, (v, c) in opened.items()]
        if codes and " " in codes
        for code in codes.split()
    ]
    forms = templates(lists, named)
    lines += [
        "",
        "# The templates of the codes a phrase names with others, as their fixed runs",
        "# joined by '|': backend -> code -> (template, ...).",
        "TEMPLATES: Final[dict[str, dict[str, tuple[str, ...]]]] = {",
    ]
    for vendor in sorted(forms):
        lines.append(f'    "{vendor}": {{')
        for code in sorted(forms[vendor]):
            quoted = ", ".join(f'"{form}"' for form in forms[vendor][code])
            lines.append(f'        "{code}": ({quoted},),')
        lines.append("    },")
    lines.append("}")
    known_forms = known(lists, table)
    lines += [
        "",
        "# A backend's coded templates no phrase gives the code of (shared with another",
        "# vendor, or short), read only where the backend is already known, as their",
        "# fixed runs joined by '|': backend -> ((template, code or codes), ...).",
        "KNOWN: Final[dict[str, tuple[tuple[str, str], ...]]] = {",
    ]
    for vendor, own_forms in known_forms.items():
        lines.append(f'    "{vendor}": (')
        lines.extend(f'        ("{form}", "{codes}"),' for form, codes in own_forms.items())
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _literal(code: str | None) -> str:
    return "None" if code is None else f'"{code}"'


def main(argv: list[str] | None = None) -> int:
    return generate(
        __doc__,
        lambda: {OUTPUT: build()},
        what="the vendor wording table",
        script="generate_vendor_wordings.py",
        argv=argv,
    )


if __name__ == "__main__":
    raise SystemExit(main())
