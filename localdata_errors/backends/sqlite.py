"""
SQLite backend: the stdlib ``sqlite3`` module, ``aiosqlite`` and the pysqlite builds.

It reads the extended result code first (``sqlite_errorcode`` /
``sqlite_errorname``, set by Python 3.11+ on every error the library
reports), the message second.  Most codes decide the kind on their own
(``SQLITE_BUSY``, ``SQLITE_CONSTRAINT_UNIQUE``, ``SQLITE_READONLY``, ...);
the catch-all ``SQLITE_ERROR`` (and errors the ``sqlite3`` module raises
itself, which carry no code: wrong number of bindings, a closed database)
are told apart by the message, whose wording SQLite has kept stable for
years (``no such table: X``, ``near "X": syntax error``, ...).

``database_error_code`` is the extended result name (``SQLITE_BUSY``,
``SQLITE_CONSTRAINT_FOREIGNKEY``); SQLite has no SQLSTATE.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from localdata_errors._backends import BACKENDS
from localdata_errors._kinds import Kind, RetrySafety
from localdata_errors._mapper import (
    BackendMapper,
    ErrorInput,
    MappedError,
    driver_attr,
    new_mapped_error,
)
from localdata_errors._names import column_reference, split_qualified, unique, unqualify, unquote

__all__ = ["RESULT_CODES", "SqliteMapper"]

K = Kind

#: SQLite's result codes (https://www.sqlite.org/rescode.html), name -> number:
#: the primary codes, then the extended ones (primary | n << 8).  The tests
#: check every entry against the ``sqlite3`` module's constants and, where it
#: is installed, ``sqlite3.h``.
RESULT_CODES: Final[Mapping[str, int]] = {
    "SQLITE_ERROR": 1,
    "SQLITE_INTERNAL": 2,
    "SQLITE_PERM": 3,
    "SQLITE_ABORT": 4,
    "SQLITE_BUSY": 5,
    "SQLITE_LOCKED": 6,
    "SQLITE_NOMEM": 7,
    "SQLITE_READONLY": 8,
    "SQLITE_INTERRUPT": 9,
    "SQLITE_IOERR": 10,
    "SQLITE_CORRUPT": 11,
    "SQLITE_NOTFOUND": 12,
    "SQLITE_FULL": 13,
    "SQLITE_CANTOPEN": 14,
    "SQLITE_PROTOCOL": 15,
    "SQLITE_EMPTY": 16,
    "SQLITE_SCHEMA": 17,
    "SQLITE_TOOBIG": 18,
    "SQLITE_CONSTRAINT": 19,
    "SQLITE_MISMATCH": 20,
    "SQLITE_MISUSE": 21,
    "SQLITE_NOLFS": 22,
    "SQLITE_AUTH": 23,
    "SQLITE_FORMAT": 24,
    "SQLITE_RANGE": 25,
    "SQLITE_NOTADB": 26,
    "SQLITE_ERROR_MISSING_COLLSEQ": 257,
    "SQLITE_ERROR_RETRY": 513,
    "SQLITE_ERROR_SNAPSHOT": 769,
    "SQLITE_IOERR_READ": 266,
    "SQLITE_IOERR_SHORT_READ": 522,
    "SQLITE_IOERR_WRITE": 778,
    "SQLITE_IOERR_FSYNC": 1034,
    "SQLITE_IOERR_DIR_FSYNC": 1290,
    "SQLITE_IOERR_TRUNCATE": 1546,
    "SQLITE_IOERR_FSTAT": 1802,
    "SQLITE_IOERR_UNLOCK": 2058,
    "SQLITE_IOERR_RDLOCK": 2314,
    "SQLITE_IOERR_DELETE": 2570,
    "SQLITE_IOERR_BLOCKED": 2826,
    "SQLITE_IOERR_NOMEM": 3082,
    "SQLITE_IOERR_ACCESS": 3338,
    "SQLITE_IOERR_CHECKRESERVEDLOCK": 3594,
    "SQLITE_IOERR_LOCK": 3850,
    "SQLITE_IOERR_CLOSE": 4106,
    "SQLITE_IOERR_DIR_CLOSE": 4362,
    "SQLITE_IOERR_SHMOPEN": 4618,
    "SQLITE_IOERR_SHMSIZE": 4874,
    "SQLITE_IOERR_SHMLOCK": 5130,
    "SQLITE_IOERR_SHMMAP": 5386,
    "SQLITE_IOERR_SEEK": 5642,
    "SQLITE_IOERR_DELETE_NOENT": 5898,
    "SQLITE_IOERR_MMAP": 6154,
    "SQLITE_IOERR_GETTEMPPATH": 6410,
    "SQLITE_IOERR_CONVPATH": 6666,
    "SQLITE_IOERR_VNODE": 6922,
    "SQLITE_IOERR_AUTH": 7178,
    "SQLITE_IOERR_BEGIN_ATOMIC": 7434,
    "SQLITE_IOERR_COMMIT_ATOMIC": 7690,
    "SQLITE_IOERR_ROLLBACK_ATOMIC": 7946,
    "SQLITE_IOERR_DATA": 8202,
    "SQLITE_IOERR_CORRUPTFS": 8458,
    "SQLITE_IOERR_IN_PAGE": 8714,
    "SQLITE_LOCKED_SHAREDCACHE": 262,
    "SQLITE_LOCKED_VTAB": 518,
    "SQLITE_BUSY_RECOVERY": 261,
    "SQLITE_BUSY_SNAPSHOT": 517,
    "SQLITE_BUSY_TIMEOUT": 773,
    "SQLITE_CANTOPEN_NOTEMPDIR": 270,
    "SQLITE_CANTOPEN_ISDIR": 526,
    "SQLITE_CANTOPEN_FULLPATH": 782,
    "SQLITE_CANTOPEN_CONVPATH": 1038,
    "SQLITE_CANTOPEN_DIRTYWAL": 1294,
    "SQLITE_CANTOPEN_SYMLINK": 1550,
    "SQLITE_CORRUPT_VTAB": 267,
    "SQLITE_CORRUPT_SEQUENCE": 523,
    "SQLITE_CORRUPT_INDEX": 779,
    "SQLITE_READONLY_RECOVERY": 264,
    "SQLITE_READONLY_CANTLOCK": 520,
    "SQLITE_READONLY_ROLLBACK": 776,
    "SQLITE_READONLY_DBMOVED": 1032,
    "SQLITE_READONLY_CANTINIT": 1288,
    "SQLITE_READONLY_DIRECTORY": 1544,
    "SQLITE_ABORT_ROLLBACK": 516,
    "SQLITE_CONSTRAINT_CHECK": 275,
    "SQLITE_CONSTRAINT_COMMITHOOK": 531,
    "SQLITE_CONSTRAINT_FOREIGNKEY": 787,
    "SQLITE_CONSTRAINT_FUNCTION": 1043,
    "SQLITE_CONSTRAINT_NOTNULL": 1299,
    "SQLITE_CONSTRAINT_PRIMARYKEY": 1555,
    "SQLITE_CONSTRAINT_TRIGGER": 1811,
    "SQLITE_CONSTRAINT_UNIQUE": 2067,
    "SQLITE_CONSTRAINT_VTAB": 2323,
    "SQLITE_CONSTRAINT_ROWID": 2579,
    "SQLITE_CONSTRAINT_PINNED": 2835,
    "SQLITE_CONSTRAINT_DATATYPE": 3091,
    "SQLITE_AUTH_USER": 279,
}
_NAME_BY_NUMBER: Final[Mapping[int, str]] = {v: k for k, v in RESULT_CODES.items()}

# The kind each code decides on its own.  A code left out (SQLITE_ERROR, the
# bare SQLITE_CONSTRAINT, SQLITE_MISUSE, ...) says too little: the message decides.
_KIND_BY_CODE: Final[Mapping[str, Kind]] = {
    "SQLITE_INTERNAL": K.INTERNAL_ERROR,
    "SQLITE_PERM": K.INSUFFICIENT_PRIVILEGE,
    # A statement aborted because the transaction was rolled back under it.
    "SQLITE_ABORT": K.QUERY_CANCELED,
    "SQLITE_ABORT_ROLLBACK": K.QUERY_CANCELED,
    # Another connection (or process) holds the file lock: wait and retry.
    "SQLITE_BUSY": K.DATABASE_LOCKED,
    "SQLITE_BUSY_RECOVERY": K.DATABASE_LOCKED,
    "SQLITE_BUSY_TIMEOUT": K.DATABASE_LOCKED,
    # A WAL read snapshot is stale: the whole transaction must start again.
    "SQLITE_BUSY_SNAPSHOT": K.SERIALIZATION_FAILURE,
    # A table lock within one process (shared cache, virtual tables).
    "SQLITE_LOCKED": K.LOCK_NOT_AVAILABLE,
    "SQLITE_LOCKED_SHAREDCACHE": K.LOCK_NOT_AVAILABLE,
    "SQLITE_LOCKED_VTAB": K.LOCK_NOT_AVAILABLE,
    "SQLITE_PROTOCOL": K.DATABASE_LOCKED,
    "SQLITE_NOMEM": K.OUT_OF_MEMORY,
    "SQLITE_IOERR_NOMEM": K.OUT_OF_MEMORY,
    "SQLITE_INTERRUPT": K.QUERY_CANCELED,
    "SQLITE_IOERR": K.IO_ERROR,
    "SQLITE_IOERR_CORRUPTFS": K.DATA_CORRUPTED,
    "SQLITE_CORRUPT": K.DATA_CORRUPTED,
    "SQLITE_CORRUPT_VTAB": K.DATA_CORRUPTED,
    "SQLITE_CORRUPT_SEQUENCE": K.DATA_CORRUPTED,
    "SQLITE_CORRUPT_INDEX": K.DATA_CORRUPTED,
    "SQLITE_NOTADB": K.DATA_CORRUPTED,
    "SQLITE_FULL": K.DISK_FULL,
    # The file cannot be opened: the path in the settings is wrong, retrying can't help.
    "SQLITE_CANTOPEN": K.CONNECTION_MISCONFIGURED,
    "SQLITE_TOOBIG": K.CONFIGURATION_LIMIT_EXCEEDED,
    "SQLITE_MISMATCH": K.DATATYPE_MISMATCH,
    "SQLITE_NOLFS": K.FEATURE_NOT_SUPPORTED,
    "SQLITE_AUTH": K.INSUFFICIENT_PRIVILEGE,
    "SQLITE_AUTH_USER": K.INVALID_AUTHORIZATION,
    "SQLITE_RANGE": K.INVALID_PARAMETER,
    "SQLITE_READONLY": K.READ_ONLY,
    "SQLITE_ERROR_MISSING_COLLSEQ": K.UNDEFINED_OBJECT,
    "SQLITE_ERROR_SNAPSHOT": K.SERIALIZATION_FAILURE,
    "SQLITE_CONSTRAINT_CHECK": K.CHECK_VIOLATION,
    "SQLITE_CONSTRAINT_FOREIGNKEY": K.FOREIGN_KEY_VIOLATION,
    "SQLITE_CONSTRAINT_NOTNULL": K.NOT_NULL_VIOLATION,
    "SQLITE_CONSTRAINT_PRIMARYKEY": K.UNIQUE_VIOLATION,
    "SQLITE_CONSTRAINT_UNIQUE": K.UNIQUE_VIOLATION,
    "SQLITE_CONSTRAINT_ROWID": K.UNIQUE_VIOLATION,
    # RAISE(ABORT, ...) in a trigger, a commit hook or a function vetoing the
    # change: a rule of the schema the row breaks, like a CHECK.
    "SQLITE_CONSTRAINT_TRIGGER": K.CHECK_VIOLATION,
    "SQLITE_CONSTRAINT_COMMITHOOK": K.CHECK_VIOLATION,
    "SQLITE_CONSTRAINT_FUNCTION": K.CHECK_VIOLATION,
    "SQLITE_CONSTRAINT_VTAB": K.CHECK_VIOLATION,
    "SQLITE_CONSTRAINT_DATATYPE": K.DATATYPE_MISMATCH,
}


def _family_kind(name: str) -> Kind | None:
    """The kind of an extended code not listed by itself: its primary code's."""
    kind = _KIND_BY_CODE.get(name)
    if kind is None and name.count("_") > 1:
        primary = name[: name.index("_", 7)]  # "SQLITE_IOERR_READ" -> "SQLITE_IOERR"
        if primary not in ("SQLITE_ERROR", "SQLITE_CONSTRAINT"):
            kind = _KIND_BY_CODE.get(primary)
    return kind


# -- the message -------------------------------------------------------------------------

_Extract = tuple[Kind, tuple[str, ...], tuple[str, ...], str | None, str | None]
_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], _Extract]]

# A name at the end of a line; SQLite prints identifiers as written.
_NAME = r"(?P<name>[^\n]{1,256}?)"
_EOL = r"[ \t.]{0,4}(?:\n|$)"
# A bare or quoted (possibly dotted) identifier.
_IDENT = r"""(?P<{g}>"(?:[^"\n]|""){{1,128}}"|'[^'\n]{{1,128}}'|`[^`\n]{{1,128}}`
    |\[[^\]\n]{{1,128}}\]|[^\s"'`\[(),:]{{1,128}})"""
_PLAIN_ID = re.compile(r"[A-Za-z_][\w$]{0,127}")

_NO_SUCH_KIND: Final[Mapping[str, Kind]] = {
    "table": K.UNDEFINED_TABLE,
    "column": K.UNDEFINED_COLUMN,
    "function": K.UNDEFINED_FUNCTION,
    "index": K.UNDEFINED_OBJECT,
    "view": K.UNDEFINED_TABLE,
    "trigger": K.UNDEFINED_OBJECT,
    "savepoint": K.UNDEFINED_OBJECT,
    "collation sequence": K.UNDEFINED_OBJECT,
    "module": K.UNDEFINED_OBJECT,
    "database": K.UNDEFINED_DATABASE,
}
_EXISTS_KIND: Final[Mapping[str, Kind]] = {
    "table": K.DUPLICATE_TABLE,
    "view": K.DUPLICATE_TABLE,
    "index": K.DUPLICATE_OBJECT,
    "trigger": K.DUPLICATE_OBJECT,
}


def _one(kind: Kind, raw: str, *, schema_qualifier: bool = True) -> _Extract:
    obj, qualifier = unqualify(raw.strip())
    # A column's qualifier is a table or an alias, not a schema.
    return kind, (obj,) if obj else (), (), None, qualifier if schema_qualifier else None


def _no_such(m: re.Match[str]) -> _Extract:
    what = m.group("what")
    kind = _NO_SUCH_KIND[what]
    if what == "column":
        # "c.x": c is a table or an alias; "shop.t.x" names the schema's table t.
        column, table, schema = column_reference(split_qualified(m.group("name").strip()))
        return kind, unique([column, table]), (), None, schema
    return _one(kind, m.group("name"))


def _exists(m: re.Match[str]) -> _Extract:
    return _one(_EXISTS_KIND[m.group("what")], m.group("name"))


def _columns(raw: str) -> tuple[list[str], list[str]]:
    """Tables and columns of ``t.a, t.b`` (a constraint's column list)."""
    tables: list[str] = []
    columns: list[str] = []
    for item in raw.split(",")[:16]:
        column, table = unqualify(item.strip())
        if table:
            tables.append(table)
        if column:
            columns.append(column)
    return tables, columns


def _unique(m: re.Match[str]) -> _Extract:
    raw = m.group("name").strip()
    if raw.startswith("index "):  # an expression or partial unique index: named
        index = unquote(raw[6:])
        return K.UNIQUE_VIOLATION, (index,), (), index, None
    tables, columns = _columns(raw)
    return K.UNIQUE_VIOLATION, unique([*tables, *columns]), (), None, None


def _not_null(m: re.Match[str]) -> _Extract:
    tables, columns = _columns(m.group("name"))
    return K.NOT_NULL_VIOLATION, unique([*columns, *tables]), (), None, None


def _check(m: re.Match[str]) -> _Extract:
    raw = m.group("name").strip()
    name = unquote(raw)
    # A named constraint is reported by name; an unnamed one by its expression.
    if _PLAIN_ID.fullmatch(name) or raw[:1] in '"`[':
        return K.CHECK_VIOLATION, (name,), (), name, None
    return K.CHECK_VIOLATION, (), (), None, None


def _fk_mismatch(m: re.Match[str]) -> _Extract:
    child, parent = unquote(m.group("child")), unquote(m.group("parent"))
    return K.INVALID_OBJECT_DEFINITION, (child, parent), (parent,), None, None


def _has_no_column(m: re.Match[str]) -> _Extract:
    table, schema = unqualify(m.group("table"))
    return K.UNDEFINED_COLUMN, unique([unquote(m.group("col")), table]), (), None, schema


def _values_count(m: re.Match[str]) -> _Extract:
    return _one(K.SYNTAX_ERROR, m.group("table"))


def _store(m: re.Match[str]) -> _Extract:
    tables, columns = _columns(m.group("name"))
    return K.DATATYPE_MISMATCH, unique([*columns, *tables]), (), None, None


def _function(kind: Kind) -> Callable[[re.Match[str]], _Extract]:
    def extract(m: re.Match[str]) -> _Extract:
        return kind, (m.group("fn"),), (), None, None

    return extract


def _kind_only(kind: Kind) -> Callable[[re.Match[str]], _Extract]:
    def extract(m: re.Match[str]) -> _Extract:
        return kind, (), (), None, None

    return extract


def _named(kind: Kind, group: str = "name") -> Callable[[re.Match[str]], _Extract]:
    def extract(m: re.Match[str]) -> _Extract:
        return _one(kind, m.group(group))

    return extract


def _drop_column(m: re.Match[str]) -> _Extract:
    column = unquote(m.group("col"))
    if m.group("what") == "UNIQUE ":
        # The column's unique index depends on it: that index must go first.
        return K.DEPENDENT_OBJECTS_STILL_EXIST, (column,), (), None, None
    # A primary-key column, or a table's last column: SQLite cannot drop it at all.
    return K.FEATURE_NOT_SUPPORTED, (column,), (), None, None


def _after_drop(m: re.Match[str]) -> _Extract:
    # "error in index ix after drop column: no such column: b": ix uses b.
    dependent = unquote(m.group("obj"))
    return (
        K.DEPENDENT_OBJECTS_STILL_EXIST,
        unique([unquote(m.group("col")), dependent]),
        (dependent,),
        None,
        None,
    )


def _prohibited(m: re.Match[str]) -> _Extract:
    tables, columns = _columns(m.group("name"))
    return K.INSUFFICIENT_PRIVILEGE, unique([*tables, *columns]), (), None, None


def _rules(*pairs: tuple[str, Callable[[re.Match[str]], _Extract]]) -> tuple[_Rule, ...]:
    return tuple((re.compile(p, re.VERBOSE), f) for p, f in pairs)


_LIMIT = _kind_only(K.CONFIGURATION_LIMIT_EXCEEDED)
_PARAM = _kind_only(K.INVALID_PARAMETER)
_NOT_ACTIVE = _kind_only(K.INVALID_TRANSACTION_STATE)

# Dispatched on the message's first word (lower-cased), so a message is tested
# against two or three patterns, not all of them.
_BY_FIRST_WORD: Final[Mapping[str, tuple[_Rule, ...]]] = {
    "no": _rules(
        # aiosqlite's own check on a closed connection.
        (r"no\ active\ connection", _kind_only(K.CONNECTION_LOST)),
        (
            r"no\ such\ (?P<what>table|column|function|index|view|trigger|savepoint"
            r"|collation\ sequence|module|database):\ " + _NAME + _EOL,
            _no_such,
        ),
    ),
    "near": _rules((r"near\ ", _kind_only(K.SYNTAX_ERROR))),
    "incomplete": _rules((r"incomplete\ input", _kind_only(K.SYNTAX_ERROR))),
    "unrecognized": _rules((r"unrecognized\ token", _kind_only(K.SYNTAX_ERROR))),
    "row": _rules((r"row\ value\ misused", _kind_only(K.SYNTAX_ERROR))),
    "sub-select": _rules((r"sub-select\ returns", _kind_only(K.SYNTAX_ERROR))),
    "unique": _rules((r"UNIQUE\ constraint\ failed:\ " + _NAME + _EOL, _unique)),
    # SQLite before 3.8.2: "column email is not unique", "columns a, b are not unique".
    "column": _rules((r"columns?\ (?P<name>[^\n]{1,512}?)\ (?:is|are)\ not\ unique", _unique)),
    "columns": _rules((r"columns?\ (?P<name>[^\n]{1,512}?)\ (?:is|are)\ not\ unique", _unique)),
    "primary": _rules((r"PRIMARY\ KEY\ must\ be\ unique", _kind_only(K.UNIQUE_VIOLATION))),
    "not": _rules(
        (r"NOT\ NULL\ constraint\ failed:\ " + _NAME + _EOL, _not_null),
        (r"not\ authorized", _kind_only(K.INSUFFICIENT_PRIVILEGE)),
    ),
    "check": _rules((r"CHECK\ constraint\ failed:\ " + _NAME + _EOL, _check)),
    "foreign": _rules(
        (r"FOREIGN\ KEY\ constraint\ failed", _kind_only(K.FOREIGN_KEY_VIOLATION)),
        (
            r"foreign\ key\ mismatch\ -\ "
            + _IDENT.format(g="child")
            + r"\ referencing\ "
            + _IDENT.format(g="parent"),
            _fk_mismatch,
        ),
    ),
    "table": _rules(
        (
            r"table\ (?P<table>[^\n]{1,256}?)\ has\ no\ column\ named\ (?P<col>[^\n]{1,256}?)"
            + _EOL,
            _has_no_column,
        ),
        (r"table\ (?P<table>[^\n]{1,256}?)\ has\ \d{1,9}\ columns?\ but", _values_count),
        (r"table\ (?P<name>[^\n]{1,256}?)\ may\ not\ be", _named(K.INSUFFICIENT_PRIVILEGE)),
        (r"(?P<what>table)\ " + _NAME + r"\ already\ exists", _exists),
    ),
    "index": _rules((r"(?P<what>index)\ " + _NAME + r"\ already\ exists", _exists)),
    "view": _rules((r"(?P<what>view)\ " + _NAME + r"\ already\ exists", _exists)),
    "trigger": _rules((r"(?P<what>trigger)\ " + _NAME + r"\ already\ exists", _exists)),
    "unknown": _rules((r"unknown\ database\ " + _NAME + _EOL, _named(K.UNDEFINED_DATABASE))),
    "ambiguous": _rules(
        (
            r"ambiguous\ column\ name:\ " + _NAME + _EOL,
            lambda m: _one(K.AMBIGUOUS_COLUMN, m.group("name"), schema_qualifier=False),
        )
    ),
    "duplicate": _rules(
        (
            r"duplicate\ column\ name:\ " + _NAME + _EOL,
            lambda m: _one(K.DUPLICATE_COLUMN, m.group("name"), schema_qualifier=False),
        )
    ),
    "misuse": _rules(
        (
            r"misuse\ of\ (?:aggregate|window)(?:\ function)?:?\ "
            r"(?P<fn>[\w$]{1,128})\(",
            _function(K.GROUPING_ERROR),
        )
    ),
    "wrong": _rules(
        (
            r"wrong\ number\ of\ arguments\ to\ function\ (?P<fn>[\w$]{1,128})\(",
            _function(K.UNDEFINED_FUNCTION),
        )
    ),
    "too": _rules((r"too\ (?:many|few)\ ", _LIMIT)),
    "expression": _rules((r"Expression\ tree\ is\ too\ large", _LIMIT)),
    "like": _rules((r"LIKE\ or\ GLOB\ pattern\ too\ complex", _LIMIT)),
    "string": _rules((r"string\ or\ blob\ too\ big", _LIMIT)),
    "integer": _rules((r"integer\ overflow", _kind_only(K.NUMERIC_VALUE_OUT_OF_RANGE))),
    "cannot": _rules(
        (r"cannot\ store\ \w{1,16}\ value\ in\ \w{1,32}\ column\ " + _NAME + _EOL, _store),
        (
            r"cannot\ start\ a\ transaction\ within\ a\ transaction",
            _kind_only(K.INVALID_TRANSACTION_STATE),
        ),
        (r"cannot\ (?:commit|rollback|release)\ -\ no\ transaction\ is\ active", _NOT_ACTIVE),
        (
            r"cannot\ drop\ (?P<what>UNIQUE\ |PRIMARY\ KEY\ )?column:?\ " + _IDENT.format(g="col"),
            _drop_column,
        ),
        # The sqlite3 module's own check: nothing reached SQLite (see _CLOSED).
        (r"[Cc]annot\ operate\ on\ a\ closed\ (?:database|cursor)", _kind_only(K.CONNECTION_LOST)),
    ),
    "error": _rules(
        (
            r"error\ in\ (?:index|view|trigger|table)\ "
            + _IDENT.format(g="obj")
            + r"\ after\ drop\ column:\ no\ such\ column:\ "
            + _IDENT.format(g="col"),
            _after_drop,
        ),
        # The sqlite3 module: "Error binding parameter 1: type 'object' is not supported".
        (r"Error\ binding\ parameter", _PARAM),
    ),
    "use": _rules(
        (
            r"use\ DROP\ (?:TABLE|VIEW)\ to\ delete\ (?:table|view)\ " + _NAME + _EOL,
            _named(K.WRONG_OBJECT_TYPE),
        )
    ),
    "access": _rules((r"access\ to\ " + _NAME + r"\ is\ prohibited", _prohibited)),
    # The texts of the codes that decide alone, for callers that have only the text.
    "database": _rules(
        (r"database\ is\ locked", _kind_only(K.DATABASE_LOCKED)),
        (
            r"database\ table\ is\ locked(?::\ " + _NAME + _EOL + ")?",
            lambda m: (
                _one(K.LOCK_NOT_AVAILABLE, m.group("name"))
                if m.group("name")
                else (K.LOCK_NOT_AVAILABLE, (), (), None, None)
            ),
        ),
        (r"database\ or\ disk\ is\ full", _kind_only(K.DISK_FULL)),
        (r"database\ disk\ image\ is\ malformed", _kind_only(K.DATA_CORRUPTED)),
    ),
    "attempt": _rules((r"attempt\ to\ write\ a\ readonly\ database", _kind_only(K.READ_ONLY))),
    "disk": _rules((r"disk\ I/O\ error", _kind_only(K.IO_ERROR))),
    "file": _rules((r"file\ is\ not\ a\ database", _kind_only(K.DATA_CORRUPTED))),
    "interrupted": _rules((r"interrupted", _kind_only(K.QUERY_CANCELED))),
    "datatype": _rules((r"datatype\ mismatch", _kind_only(K.DATATYPE_MISMATCH))),
    "autoincrement": _rules(
        (r"AUTOINCREMENT\ is\ only\ allowed", _kind_only(K.INVALID_OBJECT_DEFINITION))
    ),
    "malformed": _rules((r"malformed\ JSON", _kind_only(K.INVALID_TEXT_REPRESENTATION))),
    "unable": _rules((r"unable\ to\ open\ database", _kind_only(K.CONNECTION_MISCONFIGURED))),
    # The sqlite3 module's own checks, raised before SQLite runs anything.
    "incorrect": _rules((r"Incorrect\ number\ of\ bindings", _PARAM)),
    "you": _rules(
        (r"You\ did\ not\ supply\ a\ value\ for\ binding", _PARAM),
        (r"You\ can\ only\ execute\ one\ statement", _kind_only(K.FEATURE_NOT_SUPPORTED)),
    ),
    "binding": _rules((r"Binding\ \d{1,9}\ has\ no\ name", _PARAM)),
}
_FIRST_WORD = re.compile(r"[A-Za-z_-]{1,16}")


def parse_message(text: str) -> _Extract | None:
    """
    Classify one SQLite message by its wording and name the objects it mentions.

    Args:
        text: The message (``str(exc)``).

    Returns:
        ``(kind, resources, dependencies, constraint, schema)``, or ``None``
        when the wording is not one SQLite (or the ``sqlite3`` module) uses.
    """
    text = text.lstrip()
    head = _FIRST_WORD.match(text)
    if head is None:
        return None
    rules = _BY_FIRST_WORD.get(head.group().lower())
    if rules is None:
        return None
    for pattern, extract in rules:
        m = pattern.match(text)
        if m is not None:
            return extract(m)
    return None


# The drivers' own refusals on a closed handle (sqlite3, aiosqlite).
_CLOSED: Final = (
    "Cannot operate on a closed database",
    "Cannot operate on a closed cursor",
    "no active connection",
)


def _code_name(error: ErrorInput) -> str | None:
    """The extended result name the driver (or the caller) gave, if any."""
    exc = error.exception
    if exc is not None:
        # A wrapper's property can raise, or hold anything: read safely, check types.
        name = driver_attr(exc, "sqlite_errorname")
        if type(name) is str and name in RESULT_CODES:
            return name  # the common case: Python 3.11+ names the extended code
        number = driver_attr(exc, "sqlite_errorcode")
        if isinstance(name, str) and name in RESULT_CODES:
            return name
        # Python knows fewer names than SQLite (3091 is "unknown" on 3.11):
        # the number is the truth.
        if isinstance(number, int) and not isinstance(number, bool):
            found = _NAME_BY_NUMBER.get(number) or _NAME_BY_NUMBER.get(number & 0xFF)
            if found is not None:
                return found
    code = error.code
    if isinstance(code, str):
        code = code.strip().upper()
        if code.isascii() and code.isdigit():  # "²".isdigit() is True, int("²") raises
            code = int(code)
        elif code in RESULT_CODES:
            return code
        elif "SQLITE_" + code in RESULT_CODES:
            return "SQLITE_" + code
    if isinstance(code, int) and not isinstance(code, bool):
        return _NAME_BY_NUMBER.get(code) or _NAME_BY_NUMBER.get(code & 0xFF)
    return None


class SqliteMapper(BackendMapper):
    """
    SQLite: extended result codes first, SQLite's stable message wording second.
    """

    name = "sqlite"
    aliases = BACKENDS["sqlite"].aliases
    driver_modules = BACKENDS["sqlite"].driver_modules
    display_name = BACKENDS["sqlite"].display_name

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one SQLite error.

        Args:
            error: The exception and its text.

        Returns:
            The kind (from the result code when it decides, else from the
            message), with the names the message carries; ``None`` when
            neither the code nor the wording is SQLite's.
        """
        code = _code_name(error)
        code_kind = _family_kind(code) if code is not None else None
        parsed = parse_message(error.message)
        if parsed is None:
            if code is None:
                return None
            # A known code whose kind the wording must decide, and it did not:
            # keep the code, let the keyword fallback choose.
            return new_mapped_error(kind=code_kind or K.UNKNOWN, code=code)
        kind, resources, dependencies, constraint, schema = parsed
        if code_kind is not None and code_kind is not kind:
            # The code is the engine's own decision; the message only names things.
            kind = code_kind
        if kind is K.CONNECTION_LOST and code is None and error.message.startswith(_CLOSED):
            # A closed connection or cursor used again: the driver refused before
            # anything reached SQLite, so calling again on a new one is safe.
            return new_mapped_error(
                kind, None, None, (), (), None, None, None, None, None, RetrySafety.SAFE
            )
        return new_mapped_error(
            kind,
            code=code,
            affected_resources=resources,
            dependencies=dependencies,
            constraint=constraint,
            schema=schema,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every result code that decides a kind by itself.

        Returns:
            Extended result name -> kind (``SQLITE_ERROR`` and the bare
            ``SQLITE_CONSTRAINT`` are decided by the message, so not listed).
        """
        return {name: kind for name in RESULT_CODES if (kind := _family_kind(name)) is not None}
