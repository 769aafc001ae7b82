"""
SQL Server backend: pyodbc, aioodbc, pymssql and python-tds (pytds) errors.

It reads the SQL Server message number from wherever the driver put it
(the ``(NNN)`` native error of pyodbc's first ODBC record, pymssql's
``args[0]`` / ``.number``, pytds's ``.msg_no``), keeps pyodbc's SQLSTATE,
and looks the number up in a curated table of SQL Server numbers and the
generated tables of DB-Library's client numbers (pymssql) and ODBC's
SQLSTATEs (ODBC 3.x's whole list).  Unknown numbers fall back on the
message's severity (20 and above: the server closed the connection), then on
the SQLSTATE, then on the generic keywords.  Names come from the message
patterns of ``sys.messages``.

pyodbc serves every ODBC database: a record whose driver chain is clearly
another database's (``[PostgreSQL]``, ``[MySQL]``, ``[Oracle]``, ...) is
answered from its SQLSTATE and the generic keywords, never from SQL Server
numbers.

A ``code`` given with the text (``classify_message(text, "mssql", code=...)``)
is read when the text carries no number of its own.  An ``int`` is a SQL
Server number.  A string is a SQLSTATE when it has a SQLSTATE's shape (five
ASCII letters or digits: a class of two, a subclass of three) and either is
one of the ODBC SQLSTATEs this backend declares (``08001``, ``40001``,
``22012``, ...) or cannot be a number as SQL Server writes one (it holds a
letter, ``42S02``, ``HYT00``, or starts with ``0``, ``01000``).  Any other
string of at most six digits, with an optional ``-``, is a SQL Server number
(``208``, ``1205``, ``-2``, ``40613``, ``20009``).  No declared SQLSTATE is
also a declared SQL Server or DB-Library number, so the rule is unambiguous
for every declared code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any, Final

from localdata_errors._backends import BACKENDS
from localdata_errors._kinds import Kind, RetrySafety
from localdata_errors._mapper import (
    ANY_KIND,
    BackendMapper,
    ErrorInput,
    MappedError,
    driver_attr,
    new_mapped_error,
)
from localdata_errors._names import column_reference, split_qualified, unique, unqualify

__all__ = ["MssqlMapper"]


@cache
def _tables() -> ModuleType:
    """Import the code tables on first use, not when the plugin is loaded."""
    from localdata_errors.backends import _mssql_codes  # noqa: PLC0415 - lazy by design

    return _mssql_codes


# -- reading the driver's shapes -------------------------------------------------------

#: The head of a pyodbc record: ``[SQLSTATE] [driver][...]``.
_ODBC_HEAD: Final = re.compile(r"\[([0-9A-Z]{5})\] ((?:\[[^\[\]]{0,128}\]){1,8})")
#: pymssql's server text is followed by DB-Library's own message.
_DBLIB_TAIL: Final = "DB-Lib error message "
_DBLIB_SEVERITY: Final = re.compile(r"DB-Lib error message 20018, severity (\d{1,3})")
#: Message-only inputs: pymssql's and pytds's ``message`` property, SSMS's
#: ``Msg N, Level L`` header and a pymssql args tuple rendered as text.
_TEXT_NUMBER: Final = re.compile(
    r"(?:SQL Server message|Msg|DB-Lib error message) (-?\d{1,6}),"
    r" (?:severity|Level) (\d{1,3})[^\n]{0,200}\n?"
    r"|\(\(?(-?\d{1,6}), b?[\"']"
)
_DRIVER_MANAGERS: Final = frozenset(
    {"unixodbc", "iodbc", "microsoft", "driver manager", "odbc driver manager"}
)
#: What `driver_attr` returns for an attribute the exception does not have.
_ABSENT: Final = object()


# Not frozen: a frozen dataclass's __init__ costs several times more, and these
# never leave the module.
@dataclass(slots=True)
class _Read:
    """What the driver said, before any table is consulted."""

    number: int | None = None
    sqlstate: str | None = None
    body: str = ""
    severity: int | None = None
    #: ``"server"``: a SQL Server message; ``"client"``: the SQL Server ODBC
    #: driver's own record; ``"neutral"``: the ODBC driver manager's;
    #: ``"foreign"``: another database's ODBC driver; ``"dblib"``: pymssql.
    origin: str = "server"
    message: str | None = None


def _is_sqlstate(value: str) -> bool:
    return len(value) == 5 and value.isascii() and value.isalnum()


def _code_sqlstate(code: str) -> str | None:
    """
    *code* (given by the caller) as a SQLSTATE, or ``None`` when it is not one.

    A declared ODBC SQLSTATE (``08001``), or a SQLSTATE-shaped code that no
    SQL Server number is written as (``42S02``, ``01000``): see the module's
    docstring.  ``40613`` stays a number.
    """
    if not _is_sqlstate(code):
        return None
    if not code.isdigit() or code[0] == "0" or code in _tables().ODBC_SQLSTATES:
        return code
    return None


def _int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray):
        return bytes(value[:65536]).decode("utf-8", "replace")
    return None


def _odbc_origin(chain: str) -> str:
    """Say whose record an ODBC bracket chain (``[Microsoft][...][SQL Server]``) is."""
    if "[SQL Server]" in chain:  # the server's own tag: the text is a sys.messages text
        return "server"
    if "SQL Server" in chain:
        return "client"  # the SQL Server ODBC driver (or FreeTDS) speaking for itself
    parts = chain[1:-1].lower().split("][")
    if all(part in _DRIVER_MANAGERS or "driver manager" in part for part in parts):
        return "neutral"
    return "foreign"


def _split_native(record: str) -> tuple[str, int | None]:
    """
    Split a record's end: `` (native)`` and, on the first record, `` (SQLFunction)``.

    The last parentheses are read one pair at a time: a number is the native
    error; a name is the ODBC function, and the native error precedes it.  A
    message given as a tuple's repr ends with its closing quote and
    parenthesis too; only the last 96 characters are looked at.
    """
    end = len(record)
    low = max(0, end - 96)
    for _ in range(2):
        opening = record.rfind("(", low, end)
        closing = record.find(")", opening, end) if opening >= 0 else -1
        if closing < 0:
            break
        inner = record[opening + 1 : closing]
        digits = inner[1:] if inner[:1] == "-" else inner
        if digits.isascii() and digits.isdigit() and len(digits) <= 10:
            return record[:opening].rstrip(), int(inner)
        if not inner.isidentifier():
            break
        end = opening  # the ODBC function's name; the native error precedes it
    return record, None


def _read_odbc(text: str, sqlstate: str | None) -> _Read | None:
    """Parse pyodbc's ``[SQLSTATE] [driver][SQL Server]text (native) (Function); ...``."""
    at = text.find("[", 0, 64)
    head = _ODBC_HEAD.match(text, at) if at >= 0 else None
    if head is None:
        return None
    state = head.group(1)
    # Skip warnings (01xxx) that precede the real error, e.g. "Changed database context".
    for _ in range(4):
        if not state.startswith("01"):
            break
        following = _ODBC_HEAD.search(text, head.end())
        if following is None or text[following.start() - 2 : following.start()] != "; ":
            break
        head = following
        state = head.group(1)
    start = head.end()
    end = text.find("; [", start)
    while end >= 0 and _ODBC_HEAD.match(text, end + 2) is None:
        end = text.find("; [", end + 3)
    record, number = _split_native(text[start:end] if end >= 0 else text[start:])
    origin = _odbc_origin(head.group(2))
    if number == 0 or origin in {"foreign", "neutral"}:
        number = None
    return _Read(
        number=number, sqlstate=sqlstate or state, body=record.strip(), origin=origin, message=text
    )


def _read_pymssql(
    args: tuple[object, ...], attr_number: object, attr_severity: object
) -> _Read | None:
    """pymssql: ``(number, b"text DB-Lib error message ...")``, or that tuple as one arg."""
    first: object = args[0] if args else None
    payload: tuple[object, ...] = args
    if isinstance(first, tuple) and len(first) >= 2:
        payload = first
    number = _int(payload[0]) if payload else None
    number = _int(attr_number) or number
    if number is None:
        return None
    raw = _text(payload[1]) if len(payload) > 1 else None
    text = raw or ""
    body = text
    cut = text.find(_DBLIB_TAIL)
    if cut > 0:
        body = text[:cut]
    severity = _int(attr_severity) or None
    if severity is None and cut >= 0:
        found = _DBLIB_SEVERITY.search(text, cut)
        severity = int(found.group(1)) if found is not None else None
    origin = "dblib" if cut == 0 else "server"
    # A query timeout surfaces as 20047 (DBPROCESS is dead) after the 20003 that caused it.
    if number == 20047 and "DB-Lib error message 20003," in text:
        number = 20003
    return _Read(
        number=number, body=body.strip(), severity=severity, origin=origin, message=text or None
    )


def _attributes(exc: BaseException, driver: str | None) -> tuple[object, ...]:
    """
    The attributes the driver put on *exc*, read once and cheaply: ``(shape, ...)``.

    Only what the driver's shape has is read: pymssql's ``srvname``, for one,
    crashes the interpreter on an exception the driver did not fill.
    """
    # A wrapper's property can raise, or hold anything: read safely, check types.
    args = driver_attr(exc, "args", ())
    if not isinstance(args, tuple):
        args = ()
    msg_no = _int(driver_attr(exc, "msg_no"))
    if msg_no is not None and (
        driver == "pytds" or driver_attr(exc, "srvname", _ABSENT) is not _ABSENT
    ):
        return "tds", args, msg_no, driver_attr(exc, "text"), driver_attr(exc, "severity")
    if driver in {"pymssql", "_mssql"}:
        return "dblib", args, driver_attr(exc, "number"), driver_attr(exc, "severity")
    return "args", args


def _read_attributes(attributes: tuple[Any, ...]) -> _Read | None:
    shape, args = attributes[0], attributes[1]
    if shape == "tds":
        _, _, msg_no, attr_text, attr_severity = attributes
        text = _text(attr_text) or (_text(args[0]) if args else "") or ""
        severity = _int(attr_severity)
        return _Read(
            number=msg_no or None,
            body=text,
            severity=severity or None,
            message=_text(args[0]) if args else None,
        )
    if shape == "dblib":
        return _read_pymssql(args, attributes[2], attributes[3])
    if len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        # pyodbc: (sqlstate, "[sqlstate] [...]...") from ODBC, (message, sqlstate) from itself.
        state, text = args[0], args[1]
        if not _is_sqlstate(state):
            state, text = text, state
            if not _is_sqlstate(state):
                return None
        found = _read_odbc(text, state)
        if found is not None:
            return found
        return _Read(sqlstate=state, body=text, origin="neutral", message=text)
    return None


_DRIVER_ERROR: Final = "Driver Error: "
_DDBC_ERROR: Final = "; DDBC Error: "


@cache
def _mssql_python_states() -> Mapping[str, tuple[str, ...]]:
    """mssql-python's texts and their SQLSTATEs, imported by its first error (not per call)."""
    from localdata_errors.backends._mssql_python_texts import SQLSTATES  # noqa: PLC0415 - lazy

    return SQLSTATES


def _read_mssql_python(text: str) -> _Read | None:
    """
    mssql-python: `Driver Error: <text>; DDBC Error: [Microsoft][SQL Server]...`.

    The driver's text stands for the ODBC SQLSTATE it left out (the table is
    generated from the driver's own `sqlstate_to_exception`); the DDBC part
    is the ODBC record, without its native number.
    """
    cut = text.find(_DDBC_ERROR)
    driver_text = text[len(_DRIVER_ERROR) : cut if cut >= 0 else None].strip()
    record = text[cut + len(_DDBC_ERROR) :].strip() if cut >= 0 else driver_text
    states = _mssql_python_states().get(driver_text)
    origin = "server" if "[SQL Server]" in record else "client"
    body = record[record.rfind("]") + 1 :].strip() if record.startswith("[") else record
    return _Read(sqlstate=states[0] if states else None, body=body, origin=origin, message=text)


def _read_text(text: str, code: str | int | None) -> _Read:
    """A message without a driver object (classify_message, unknown wrappers)."""
    if text.startswith(_DRIVER_ERROR):
        mssql_python = _read_mssql_python(text)
        if mssql_python is not None and code is None:
            return mssql_python
    found = _read_odbc(text, None)
    if found is None:
        match = _TEXT_NUMBER.search(text, 0, 512)
        if match is not None:
            num = match.group(1) or match.group(3)
            sev = match.group(2)
            body = text[match.end() :]
            cut = body.find(_DBLIB_TAIL)
            found = _Read(
                number=int(num),
                severity=int(sev) if sev else None,
                body=body[:cut] if cut > 0 else body,
            )
        else:
            found = _Read(body=text, origin="server" if code is not None else "neutral")
    if code is not None and found.number is None:
        if isinstance(code, int) and not isinstance(code, bool):
            return _Read(
                number=code,
                sqlstate=found.sqlstate,
                body=found.body,
                severity=found.severity,
                origin="server",
            )
        code_text = str(code).strip()
        # A SQLSTATE first: "08001" is ODBC's "unable to connect", not the number 8001.
        state = _code_sqlstate(code_text)
        if state is not None:
            if found.sqlstate is None:
                return _Read(sqlstate=state, body=found.body, origin=found.origin)
            return found  # the text's own SQLSTATE wins
        digits = code_text.removeprefix("-")
        if digits.isascii() and digits.isdigit() and len(digits) <= 6:
            return _Read(
                number=int(code_text),
                sqlstate=found.sqlstate,
                body=found.body,
                severity=found.severity,
                origin="server",
            )
    return found


# -- names ---------------------------------------------------------------------------


def _q(group: str) -> str:
    return f"'(?P<{group}>[^']{{1,256}})'"


def _dq(group: str) -> str:
    return f'"(?P<{group}>[^"]{{1,256}})"'


_FK_547: Final = re.compile(
    r"The (?P<stmt>INSERT|UPDATE|DELETE|MERGE) statement conflicted with the "
    r"(?P<ctype>FOREIGN KEY SAME TABLE|FOREIGN KEY|REFERENCE|CHECK|COLUMN FOREIGN KEY|"
    r"COLUMN CHECK) constraint "
    + _dq("constraint")
    + r"\. The conflict occurred in database "
    + _dq("database")
    + r", table "
    + _dq("table")
    + r"(?:, column '(?P<column>[^']{1,256})')?"
)
_DROP_WHAT: Final = re.compile(
    r"Cannot \w{1,32} the (?P<what>[\w ]{1,40}) " + _q("obj") + ", because"
)

# Per number: the sys.messages pattern and its named parts.  Group names say
# the part's role: table / obj / function (qualified: the qualifier is the
# schema), column, constraint, index, database, schema, dep (a dependency);
# in_schema and in_database place another object (the schema goes to
# ``schema``, the database nowhere): they are not objects of the error's own.
# Compiled on first use of each number, not at plugin import.
_NAME_SOURCES: Final[dict[int, str]] = {
    208: "Invalid object name " + _q("table"),
    207: "Invalid column name " + _q("column"),
    209: "Ambiguous column name " + _q("column"),
    4104: 'The multi-part identifier "(?P<column>[^"]{1,256})" could not be bound',
    4924: "column " + _q("column") + " does not exist in table " + _q("table"),
    1767: "Foreign key " + _q("constraint") + " references invalid table " + _q("table"),
    4902: "Cannot find the object " + _dq("table"),
    195: _q("function") + " is not a recognized",
    2812: "Could not find stored procedure " + _q("function"),
    4121: 'or the user-defined function or aggregate "(?P<function>[^"]{1,256})"',
    3728: _q("constraint") + " is not a constraint",
    911: "Database " + _q("database") + " does not exist",
    4060: "Cannot open database " + _dq("database"),
    2760: "schema name " + _dq("schema"),
    2705: "Column name " + _q("column") + " in table " + _q("table"),
    8156: "The column " + _q("column") + " was specified multiple times",
    1913: "with name " + _q("index") + r" already exists on \w{1,20} " + _q("table"),
    2714: "There is already an object named " + _q("obj"),
    15023: "User, group, or role " + _q("obj"),
    15025: "The server principal " + _q("obj"),
    1801: "Database " + _q("database") + " already exists",
    1776: "referenced table " + _q("table") + " that match the referencing column list "
    "in the foreign key " + _q("constraint"),
    1778: "in foreign key " + _q("constraint"),
    1785: "Introducing FOREIGN KEY constraint " + _q("constraint") + " on table " + _q("table"),
    4901: "Column " + _q("column") + " cannot be added to non-empty table " + _q("table"),
    1505: "for the object name " + _q("table") + " and the index name " + _q("index"),
    2601: "Cannot insert duplicate key row in object "
    + _q("table")
    + " with unique index "
    + _q("index"),
    2627: r"Violation of [A-Z ]{1,16} constraint "
    + _q("constraint")
    + r"\. Cannot insert duplicate key in object "
    + _q("table"),
    515: "into column " + _q("column") + ", table " + _q("table"),
    3726: "Could not drop object " + _q("table") + " because it is referenced",
    3729: r"Cannot [A-Za-z ]{1,40} "
    + _q("obj")
    + " because it is being referenced by object "
    + _q("dep"),
    4712: "Cannot truncate table " + _q("table"),
    4922: r"ALTER TABLE (?:\w{1,16} ){0,2}(?P<column>[^\s']{1,256}) failed because one or "
    r"more objects access this column",
    5074: r"The \w{1,32} " + _q("dep") + r" is dependent on \w{1,32} " + _q("obj"),
    229: "permission was denied on the object "
    + _q("obj")
    + ", database "
    + _q("in_database")
    + ", schema "
    + _q("in_schema"),
    230: "permission was denied on the column "
    + _q("column")
    + " of the object "
    + _q("obj")
    + ", database "
    + _q("in_database")
    + ", schema "
    + _q("in_schema"),
    262: "permission denied in database " + _q("database"),
    300: "permission was denied on object " + _q("obj") + ", database " + _q("in_database"),
    916: "not able to access the database " + _dq("database"),
    3906: "Failed to update database " + _dq("database"),
    3961: "failed in database " + _q("database"),
    1807: "exclusive lock on database " + _q("database"),
    3702: "Cannot drop database " + _dq("database"),
    40613: "Database " + _q("database") + " on server",
    615: "name " + _q("database") + r"\. The database may be offline",
    926: "Database " + _q("database") + " cannot be opened",
    1101: "new page for database " + _q("database"),
    # The object is 'schema.table' or 'schema.table'.'index'; the database and the
    # filegroup that is full only say where it is.
    1105: "Could not allocate space for object "
    + _q("table")
    + r"(?:\.'(?P<index>[^']{1,256})')? in database "
    + _q("in_database"),
    9002: "The transaction log for database " + _q("database"),
    40544: "The database " + _q("database") + " has reached its size quota",
    2628: "truncated in table " + _q("table") + ", column " + _q("column"),
    8120: "Column " + _q("column") + " is invalid in the select list",
    201: "Procedure or function " + _q("function") + " expects parameter",
    8144: r"Procedure or function (?P<function>[^\s']{1,256}) has too many arguments",
    8146: r"Procedure (?P<function>[^\s']{1,256}) has no parameters",
    4406: "view or function " + _q("obj"),
}
_QUALIFIED_ROLES: Final = ("table", "obj", "function")
_RESOURCE_ROLES: Final = (
    "table",
    "obj",
    "function",
    "column",
    "constraint",
    "index",
    "database",
    "schema",
)
_COMPILED: dict[int, tuple[re.Pattern[str], tuple[str, ...]]] = {}


def _pattern(number: int) -> tuple[re.Pattern[str], tuple[str, ...]] | None:
    """The compiled pattern of *number* and its roles in listing order, or ``None``."""
    entry = _COMPILED.get(number)
    if entry is None:
        source = _NAME_SOURCES.get(number)
        if source is None:
            return None
        pattern = re.compile(source)
        entry = (pattern, tuple(r for r in _RESOURCE_ROLES if r in pattern.groupindex))
        _COMPILED[number] = entry  # bounded by _NAME_SOURCES; a racing duplicate is harmless
    return entry


@dataclass(slots=True)
class _Names:
    resources: tuple[str, ...] = ()
    dependencies: tuple[str, ...] = ()
    constraint: str | None = None
    schema: str | None = None
    kind: Kind | None = None


#: The names of a message that names nothing: shared, never changed.
_NO_NAMES: Final = _Names()


def _split(raw: str) -> tuple[str, str | None]:
    """`unqualify`, with a fast path for the common unquoted ``schema.name``."""
    if "[" in raw or '"' in raw:
        return unqualify(raw)
    head, dot, name = raw.rpartition(".")
    if not dot:
        return raw.strip(), None
    return name.strip(), head.rpartition(".")[2].strip() or None


def _names(number: int, body: str) -> _Names:
    """Name the objects a message of *number* mentions (and refine 547 and 3701)."""
    if number == 547:
        return _names_547(body)
    entry = _pattern(number)
    if entry is None:
        if number in {3701, 15151}:
            return _names_drop(body)
        return _NO_NAMES
    pattern, roles = entry
    match = pattern.search(body)
    if match is None:
        return _NO_NAMES
    found = match.groupdict()
    schema = found.get("schema") or found.get("in_schema")
    resources: list[str] = []
    for role in roles:
        raw = found[role]
        if raw is None:
            continue
        if role in _QUALIFIED_ROLES:
            name, qualifier = _split(raw)
            schema = schema or qualifier
            resources.append(name)
        elif role == "column":
            # "c.x": c is a table or an alias; "dbo.Orders.x" names a schema's table.
            column, table, qualifier = column_reference(split_qualified(raw))
            resources.append(column)
            if table is not None:
                resources.append(table)
                schema = schema or qualifier
        else:
            resources.append(raw)
    dep = found.get("dep")
    return _Names(
        resources=tuple(dict.fromkeys(name for name in resources if name)),
        dependencies=(_split(dep)[0],) if dep else (),
        constraint=found.get("constraint"),
        schema=schema,
    )


def _names_547(body: str) -> _Names:
    match = _FK_547.search(body)
    if match is None:
        return _Names(kind=Kind.CHECK_VIOLATION if "CHECK constraint" in body else None)
    ctype = match.group("ctype")
    table, schema = _split(match.group("table"))
    constraint = match.group("constraint")
    column = match.group("column")
    if "CHECK" in ctype:
        return _Names(
            resources=unique([table, column, constraint]),
            constraint=constraint,
            schema=schema,
            kind=Kind.CHECK_VIOLATION,
        )
    # FOREIGN KEY: the child row's parent is missing, the table named is the parent;
    # REFERENCE: the parent row still has children, the table named is the child.
    resources = [table, constraint] if ctype == "FOREIGN KEY SAME TABLE" else [constraint]
    return _Names(
        resources=unique(resources),
        dependencies=(table,),
        constraint=constraint,
        schema=schema,
        kind=Kind.FOREIGN_KEY_VIOLATION,
    )


def _names_drop(body: str) -> _Names:
    match = _DROP_WHAT.search(body)
    if match is None:
        return _NO_NAMES
    name, schema = _split(match.group("obj"))
    what = match.group("what").lower()
    kind: Kind | None = None
    if what == "table":
        kind = Kind.UNDEFINED_TABLE
    elif what in {"procedure", "function"}:
        kind = Kind.UNDEFINED_FUNCTION
    elif what == "database":
        kind = Kind.UNDEFINED_DATABASE
    elif what == "schema":
        kind = Kind.UNDEFINED_SCHEMA
    return _Names(resources=(name,), schema=schema, kind=kind)


# -- kinds ---------------------------------------------------------------------------

# "Rerun the query": the memory grant (8645, 8651) or the optimizer's memory
# (8628) may come next time; the wait was for the server, not the statement's
# own time limit.
_RERUN: Final = frozenset({8628, 8645, 8651})


def _severity_kind(severity: int) -> Kind:
    """
    An unknown number, judged by its severity level (SQL Server's documented bands).

    Below 20 the keyword fallback may refine it (`ANY_KIND`).
    """
    if severity >= 20:
        return Kind.CONNECTION_LOST  # fatal: the server has closed the connection
    if severity == 18:
        return Kind.INTERNAL_ERROR  # nonfatal internal error
    return Kind.CONFIGURATION_LIMIT_EXCEEDED  # 17: out of resources; 19: engine limit


#: Where a message's text is cut into runs: a sentence's end (the full stop
#: of the languages written without spaces too), a placeholder.
_SENTENCE: Final = re.compile(r"\.\s+|。|\{\d+\}")
_WORD: Final = re.compile(r"[a-z0-9]+")
#: A translation's word: letters and digits of any script (`время`, `执行超时已过期`).
_ANY_WORD: Final = re.compile(r"[^\W_]+")
#: A character of the scripts written without spaces: where a translation's
#: sentences do not pair with the English text's, one of them is a run at
#: eight such characters (`完成操作之前已超时或服务器未响应`), as at four words elsewhere.
_UNSPACED: Final = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_UNSPACED_RUN: Final = 8
#: How much of a text is searched for SqlClient's runs.
_SQLCLIENT_SCAN: Final = 4096


def _sentences(text: str, word: re.Pattern[str]) -> list[list[str]]:
    """The words of each sentence (and each part between placeholders) of *text* that has any."""
    return [words for part in _SENTENCE.split(text) if (words := word.findall(part.lower()))]


def _translated_runs(english: list[list[str]], text: str) -> list[list[str]]:
    """
    A translation's runs: its sentences that stand where the English text's
    runs do (sentence for sentence, where the two have as many): `超时时间已到`
    is `Timeout expired`, too short to say which timeout, as in English.
    """
    local = _sentences(text, _ANY_WORD)
    if len(local) == len(english):
        return [words for words, source in zip(local, english, strict=True) if len(source) >= 4]
    return [
        words
        for words in local
        if len(words) >= 4 or len(_UNSPACED.findall("".join(words))) >= _UNSPACED_RUN
    ]


@cache
def _sqlclient_runs(
    *, translated: bool = False, details: bool = False
) -> tuple[tuple[str, Kind], ...]:
    """
    SqlClient's own messages with a kind: each sentence of four words or more,
    as the words it holds, and its kind, longest first (built on first use).

    With *translated*, the same of the driver's translations of those messages
    (`_sqlclient_translations`, imported here: only a text that is not ASCII
    asks), their words of any script, their kind the English text's.  With
    *details*, of the details a network-layer message frames
    (`_sqlclient_kinds.DETAILS`), else of the messages (`KINDS`).
    """
    from localdata_errors.backends import _sqlclient_kinds, _sqlclient_texts  # noqa: PLC0415

    translations: dict[str, tuple[str, ...]] = {}
    if translated:
        from localdata_errors.backends._sqlclient_translations import TRANSLATIONS  # noqa: PLC0415

        translations = TRANSLATIONS
    said: dict[str, set[Kind]] = {}  # every sentence, run or not, and the kinds it says
    runs: dict[str, Kind] = {}
    decided = _sqlclient_kinds.DETAILS if details else _sqlclient_kinds.KINDS
    for name, kind in decided.items():
        # Each wording of the releases read (.NET's and .NET Framework's files
        # before 5.2 did not always say the same); a translation translates the first.
        wordings = [_sentences(text, _WORD) for text in _sqlclient_texts.TEXTS[name]]
        texts = translations.get(name, ())
        local = [w for text in texts for w in _sentences(text, _ANY_WORD)]
        for words in local or [w for english in wordings for w in english]:
            said.setdefault(f" {' '.join(words)} ", set()).add(kind)
        if translated:
            found = [run for text in texts for run in _translated_runs(wordings[0], text)]
        else:
            found = [words for english in wordings for words in english if len(words) >= 4]
        runs.update((f" {' '.join(words)} ", kind) for words in found)
    # A sentence messages of different kinds share says neither (`已超過連接逾時的設定`,
    # connection timeout expired, opens a login's and the pool's).
    return tuple(
        sorted(((r, k) for r, k in runs.items() if len(said[r]) == 1), key=lambda e: -len(e[0]))
    )


def sqlclient_kind(body: str) -> Kind | None:
    """
    The kind of SqlClient's own message the text holds (`Execution Timeout
    Expired.  The timeout period elapsed ...`), the longest sentence found;
    in a text that is not ASCII, of its translations too (`执行超时已过期。
    完成操作之前已超时或服务器未响应。`): the same runs, read the same way.
    A detail the network layer's message frames (`... (provider: SQL Network
    Interfaces, error: 50 - Local Database Runtime error occurred.)`) decides
    before the frame.

    Args:
        body: The message (its first 4 KiB are read).

    Returns:
        The kind `_sqlclient_kinds` decides for the message found, else `None`.
    """
    head = body[:_SQLCLIENT_SCAN].lower()
    found = _sqlclient_run(f" {' '.join(_WORD.findall(head))} ", translated=False)
    if found is not None or head.isascii():
        return found
    return _sqlclient_run(f" {' '.join(_ANY_WORD.findall(head))} ", translated=True)


def _sqlclient_run(words: str, *, translated: bool) -> Kind | None:
    """The kind of the first run *words* holds: a framed detail's before the frames'."""
    return next(
        (
            kind
            for details in (True, False)
            for run, kind in _sqlclient_runs(translated=translated, details=details)
            if run in words
        ),
        None,
    )


@cache
def _efcore_runs() -> tuple[tuple[str, Kind], ...]:
    """EF Core's messages with a kind: each sentence of four words or more and its kind."""
    from localdata_errors.backends import _efcore_kinds, _efcore_texts  # noqa: PLC0415

    return tuple(
        (f" {' '.join(words)} ", kind)
        for name, kind in _efcore_kinds.KINDS.items()
        for text in _efcore_texts.TEXTS[name]
        for words in _sentences(text, _WORD)
        if len(words) >= 4
    )


def efcore_kind(body: str) -> Kind | None:
    """
    The kind of EF Core's SQL Server provider's own message the text holds
    (`An exception has been raised that is likely due to a transient
    failure. ...`): a frame, read after the driver's messages.

    Args:
        body: The message (its first 4 KiB are read).

    Returns:
        The kind `_efcore_kinds` decides for the message found, else `None`.
    """
    words = f" {' '.join(_WORD.findall(body[:_SQLCLIENT_SCAN].lower()))} "
    return next((kind for run, kind in _efcore_runs() if run in words), None)


@cache
def _jdbc_templates() -> tuple[re.Pattern[str], tuple[Kind, ...]]:
    """
    One alternation of mssql-jdbc's messages with a kind (each wording of
    every release read), and each branch's kind (built on first use).
    """
    from localdata_errors.backends import _mssql_jdbc_kinds, _mssql_jdbc_texts  # noqa: PLC0415
    from localdata_errors.backends._message_format import alternation  # noqa: PLC0415

    return alternation(
        (text, kind)
        for name, kind in _mssql_jdbc_kinds.KINDS.items()
        for text in _mssql_jdbc_texts.TEXTS[name]
    )


def mssql_jdbc_kind(body: str) -> Kind | None:
    """
    The kind of mssql-jdbc's own message the text holds (`This driver is not
    configured for integrated authentication.`, `The driver could not establish
    a secure connection to SQL Server by using Secure Sockets Layer (SSL)
    encryption. Error: "PKIX path building failed ..."`), its `{0}` read as any text.

    Args:
        body: The message (its first 4 KiB are read).

    Returns:
        The kind `_mssql_jdbc_kinds` decides for the first message found, else `None`.
    """
    pattern, kinds = _jdbc_templates()
    found = pattern.search(body[:_SQLCLIENT_SCAN])
    if found is None or found.lastgroup is None:
        return None
    return kinds[int(found.lastgroup[1:])]


@cache
def sni_providers() -> tuple[str, ...]:
    """
    SqlClient's names of its network layer's providers (`SNI_PN<N>`: `TCP
    Provider`, `SQL Network Interfaces`), longest first.
    """
    from localdata_errors.backends import _sqlclient_texts  # noqa: PLC0415

    names = {t[0] for n, t in _sqlclient_texts.TEXTS.items() if n.startswith("SNI_PN")}
    return tuple(sorted(names, key=len, reverse=True))


@cache
def _provider_error() -> re.Pattern[str]:
    """
    The ODBC and OLE DB drivers' network-layer error without a text of its
    own: `TCP Provider: Error code 0x2746`, the operating system's error in
    hexadecimal, after a provider's name as SqlClient's resources write it.
    """
    alternation = "|".join(map(re.escape, sni_providers()))
    return re.compile(rf"(?:{alternation}): Error code 0x(?P<hex>[0-9A-Fa-f]{{1,8}})\b")


#: What the keywords may make of a network error the operating system reported.
_CONNECT_PHASES: Final = frozenset(
    {Kind.CONNECTION_FAILURE, Kind.CONNECTION_LOST, Kind.CONNECTION_MISCONFIGURED}
)


def _provider_kind(body: str) -> Kind:
    """
    The kind of the operating system's error a network provider reports
    (`TCP Provider: Error code 0x2746` is 10054, the connection reset), as
    the table's client numbers have it; else `Kind.UNKNOWN`.
    """
    provider = _provider_error().search(body, 0, _SQLCLIENT_SCAN)
    if provider is None:
        return Kind.UNKNOWN
    number = int(provider["hex"], 16)
    tables = _tables()
    if number not in tables.CLIENT_NATIVE_NUMBERS:
        return Kind.UNKNOWN
    kind: Kind = tables.SERVER_NUMBERS[number]
    return kind


def _client_kind(sqlstate: str | None, body: str) -> tuple[Kind, frozenset[Kind] | None]:
    """
    An ODBC record without a SQL Server number: its SQLSTATE, refined by its text.

    Returns the kind and, for a SQLSTATE that names a family of conditions
    (``23000``), the kinds the message's keywords may choose instead.
    """
    low = body.lower()
    if (
        "can't open lib" in low
        or "certificate verify failed" in low
        or ("not trusted" in low and "certificate" in low)
    ):
        return Kind.CONNECTION_MISCONFIGURED, None
    if "parameter markers" in low:  # pyodbc's own count check (HY000)
        return Kind.INVALID_PARAMETER, None
    if "error 10054" in low or "failed to resume the transaction" in low:
        # Windows' WSAECONNRESET through FreeTDS; a MARS session the server dropped.
        return Kind.CONNECTION_LOST, None
    if sqlstate in (None, "HYT00") and "login timeout" in low:
        # HYT00 while logging in (sqlcmd prints the text alone): the connection
        # never opened, nothing ran.
        return Kind.CONNECTION_FAILURE, None
    if sqlstate is None:
        # SqlClient's or mssql-jdbc's own message (a .NET or Java application's
        # log), or the ODBC driver's network layer without its SQLSTATE: no
        # number, no SQLSTATE.
        known = sqlclient_kind(body) or mssql_jdbc_kind(body) or efcore_kind(body)
        if known is not None:
            return known, None
        provider = _provider_kind(body)
        # A reset or a refusal says nothing of the phase: the words around it
        # may (the ODBC driver's "Client unable to establish connection").
        return provider, _CONNECT_PHASES if provider is not Kind.UNKNOWN else None
    tables = _tables()
    kind: Kind = tables.ODBC_SQLSTATES.get(sqlstate, Kind.UNKNOWN)
    return kind, tables.ODBC_FAMILIES.get(sqlstate)


class MssqlMapper(BackendMapper):
    """
    Microsoft SQL Server and Azure SQL, through pyodbc, aioodbc, pymssql and pytds.
    """

    name = "mssql"
    aliases = BACKENDS["mssql"].aliases
    driver_modules = BACKENDS["mssql"].driver_modules
    display_name = BACKENDS["mssql"].display_name

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify a SQL Server error.

        Args:
            error: The driver's exception (or only its text) and its message.

        Returns:
            The kind, the SQL Server number as ``code`` (the SQLSTATE when the
            record has no number), the SQLSTATE pyodbc reported, and the names
            the message mentions.
        """
        read: _Read | None = None
        exc = error.exception
        if exc is not None:
            read = _read_attributes(_attributes(exc, error.driver))
            if read is None and type(exc).__name__ == "ClosedConnectionError":
                # pytds: "Server closed connection".  During the login nothing ran
                # (a server that does not speak TDS, or refused the login):
                # a failed connect, safe to retry.
                from localdata_errors.backends.network import in_connect_phase  # noqa: PLC0415 - rare

                if in_connect_phase(exc.__traceback__):
                    return new_mapped_error(
                        kind=Kind.CONNECTION_FAILURE, retry_safety=RetrySafety.SAFE
                    )
                return new_mapped_error(kind=Kind.CONNECTION_LOST)
            if type(exc).__name__ == "ConnectionStringParseError":
                # mssql-python refused its connection string: no retry can help.
                return new_mapped_error(kind=Kind.CONNECTION_MISCONFIGURED)
        if read is None:
            read = _read_text(error.message, error.code)
        return self._classify(read)

    def _classify(self, read: _Read) -> MappedError:
        tables = _tables()
        number = read.number
        kind: Kind | None = None
        refine: frozenset[Kind] | None = None
        names = _NO_NAMES
        if read.origin == "foreign":
            # Another database's ODBC driver: its natives are not SQL Server numbers.
            kind, refine = _client_kind(read.sqlstate, read.body)
            return new_mapped_error(
                kind=kind,
                code=read.sqlstate,
                sqlstate=read.sqlstate,
                message=read.message,
                refine=refine,
            )
        if number is not None:
            if read.origin == "client" and number not in tables.CLIENT_NATIVE_NUMBERS:
                number = None  # an operating-system error code, not a SQL Server number
            else:
                kind = tables.SERVER_NUMBERS.get(number)
                if kind is None and (read.origin == "dblib" or 20000 <= number <= 20999):
                    kind = tables.DBLIB_NUMBERS.get(number)
                names = _names(number, read.body)
                if names.kind is not None and kind is not None:
                    kind = names.kind
                if kind is None and read.severity is not None and read.severity > 16:
                    kind = _severity_kind(read.severity)
                    refine = ANY_KIND if read.severity < 20 else None
        if kind is None:
            kind, refine = _client_kind(read.sqlstate, read.body)
        retryable: bool | None = None
        if number in _RERUN:
            retryable = True  # the server says "Rerun the query": the memory grant may come
        code = str(number) if number is not None else read.sqlstate
        return new_mapped_error(
            kind,
            code=code,
            sqlstate=read.sqlstate,
            affected_resources=names.resources,
            dependencies=names.dependencies,
            constraint=names.constraint,
            schema=names.schema,
            message=read.message,
            retryable=retryable,
            refine=refine,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every SQL Server number, DB-Library number and ODBC SQLSTATE of the tables.

        Returns:
            ``{"208": Kind.UNDEFINED_TABLE, "20009": ..., "HYT00": ..., ...}``.
        """
        tables = _tables()
        declared: dict[str, Kind] = {str(n): k for n, k in tables.SERVER_NUMBERS.items()}
        declared.update((str(n), k) for n, k in tables.DBLIB_NUMBERS.items())
        declared.update(tables.ODBC_SQLSTATES)
        return declared
