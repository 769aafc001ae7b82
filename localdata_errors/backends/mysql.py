"""
MySQL and MariaDB backend: server and client error numbers, for every common driver.

Recognises the exceptions of pymysql (and aiomysql, which re-raises
pymysql's), mysqlclient (``MySQLdb``), mysql-connector-python
(``mysql.connector``) and MariaDB Connector/Python (``mariadb``), directly
or wrapped by SQLAlchemy.  The error number (``errno``) is the code: it is
looked up in a table generated from MariaDB's and MySQL's own error lists
(`localdata_errors.backends._mysql_codes`, loaded on first use), and
the message names the objects involved: tables, columns, keys, foreign-key
constraints and the table on the other side of a foreign key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple

from localdata_errors._backends import BACKENDS
from localdata_errors._kinds import Kind, RetrySafety
from localdata_errors._mapper import (
    BackendMapper,
    ErrorInput,
    MappedError,
    driver_attr,
    new_mapped_error,
)
from localdata_errors._names import (
    column_reference,
    split_qualified,
    unique,
    unqualify,
    unqualify_parts,
    unquote,
)

__all__ = ["MySQLMapper", "extract_detail", "read_error"]


# -- reading the exception -------------------------------------------------------

_SQLSTATE = re.compile(r"[0-9A-Z]{5}")
# A message that still carries its number: mysql-connector's "1146 (42S02): ...",
# the command-line client's "ERROR 1146 (42S02) at line 1: ...", pymysql's
# tuple repr "(1146, \"...\")".
# (Not a log's clock, `14:23:27,421 ERROR ...`: a digit right after the colon.)
_PREFIX = re.compile(
    r"""^\s{0,8}(?:ERROR\s{1,4})?(?P<paren>\()?(?P<errno>\d{1,5})
        (?:\s{0,4}\((?P<sqlstate>[0-9A-Z]{5})\))?(?:\s{1,4}at\sline\s\d{1,9})?
        \s{0,4}[:,](?!\d)\s{0,4}(?P<quote>["']?)""",
    re.VERBOSE,
)
# An exception's repr, "MySQLInterfaceError(\"Table 'test.t' doesn't exist\")": how
# mysql-connector's C extension error reads in a log line or a traceback's chain.
_CLASS_REPR = re.compile(r"""^\s{0,8}[A-Za-z_][\w.]{0,127}\((?P<quote>["'])""")
# The escapes a repr writes in a string (a backslash, the quote, a control character).
_ESCAPE = re.compile(r"""\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\\'nrt])""")
_ESCAPED: Final = {"n": "\n", "r": "\r", "t": "\t"}


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) == 1:
        return _ESCAPED.get(code, code)
    point = int(code[1:], 16)
    return chr(point) if point <= 0x10FFFF else match.group()


def _literal_body(text: str, quote: str) -> str | None:
    """
    The string a repr's literal holds, when the literal (and its parenthesis) ends *text*.

    *text* starts just after the opening *quote*.  The repr's escapes are
    undone: a message holding both kinds of quote is written with ``\\'``.
    """
    if not text.endswith(quote + ")"):
        return None
    body = text[:-2]
    return _ESCAPE.sub(_unescape, body) if "\\" in body else body


# Drivers whose exceptions carry (errno, message) in args and nothing else.
_ARGS_DRIVERS: Final = frozenset({"pymysql", "aiomysql", "asyncmy", "MySQLdb"})


def _errno(value: object) -> int | None:
    # bool is an int; a driver that puts True there is not reporting an error number.
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 100_000:
        return value
    # isascii: "²".isdigit() is True, but int("²") raises.
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 5:
        return int(value)
    return None


def _sqlstate(value: object) -> str | None:
    # Five digits or capitals: "42S02", "23000" (isupper() is False for digits alone).
    if (
        type(value) is str
        and len(value) == 5
        and value.isascii()
        and value.isalnum()
        and (value.isupper() or value.isdigit())
    ):
        return value
    if isinstance(value, str) and len(value) == 5 and _SQLSTATE.fullmatch(value):
        return value
    return None


@dataclass(frozen=True, slots=True)
class DriverError:
    """
    What a MySQL-family driver put on its exception.

    Args:
        errno: The server's or client library's error number.
        sqlstate: The SQLSTATE, where the driver reports one.
        message: The driver's own message text without the number prefix.
    """

    errno: int | None
    sqlstate: str | None
    message: str | None


def read_error(error: ErrorInput) -> DriverError:
    """
    Read the error number, SQLSTATE and message text from an exception.

    pymysql and MySQLdb: ``args == (errno, message)``; mysql-connector:
    ``.errno``, ``.sqlstate``, ``.msg``; mariadb: ``.errno``, ``.sqlstate``,
    ``.errmsg``.  Attributes of the wrong type are ignored.  Without an
    exception (or without a number on it), the explicit ``code`` and then a
    number prefix of the message are used.

    Args:
        error: The mapper's input.

    Returns:
        What could be read; each part ``None`` when absent.
    """
    exc = error.exception
    errno: int | None = None
    sqlstate: str | None = None
    message: str | None = None
    if exc is not None and error.driver in _ARGS_DRIVERS:
        # pymysql, aiomysql, asyncmy and MySQLdb: (errno, message) in args.
        args = driver_attr(exc, "args", ())
        if type(args) is tuple and len(args) == 2:
            number, text = args
            if type(number) is int and 0 < number < 100_000 and type(text) is str:
                return DriverError(number, _sqlstate(driver_attr(exc, "sqlstate")), text)
    if exc is not None:
        # A wrapper's property can raise, or hold anything: read safely, check types.
        errno = _errno(driver_attr(exc, "errno"))
        sqlstate = _sqlstate(driver_attr(exc, "sqlstate"))
        for attr in ("msg", "errmsg"):
            text = driver_attr(exc, attr)
            if isinstance(text, str) and text:
                message = text
                break
        args = driver_attr(exc, "args", ())
        if isinstance(args, tuple) and len(args) >= 2:
            if errno is None:
                errno = _errno(args[0])
            if message is None and errno is not None and isinstance(args[1], str):
                message = args[1]
    if errno is None and error.code is not None:
        errno = _errno(error.code)
    if errno is None or message is None:
        match = _PREFIX.match(error.message)
        if match is not None:
            errno = errno or _errno(match.group("errno"))
            sqlstate = sqlstate or match.group("sqlstate")
            if message is None:
                text = error.message[match.end() :].rstrip()
                quote = match.group("quote")
                body = _literal_body(text, quote) if quote and match.group("paren") else None
                message = _without_stray_close(text) if body is None else body
        elif message is None:
            literal = _CLASS_REPR.match(error.message)
            if literal is not None:
                text = error.message[literal.end() :].rstrip()
                message = _literal_body(text, literal.group("quote"))
    return DriverError(errno, sqlstate, message)


def _without_stray_close(text: str) -> str:
    """
    *text* without a closing ``")`` that nothing in it opened.

    A message cut out of a repr keeps the repr's end (``... for key 'k'")``);
    a message of the server's own that ends so (``... (errno: 150 "Foreign
    key constraint is incorrectly formed")``) opened its quote.
    """
    if text.endswith('")') and text.count('"') % 2 == 1:
        return text[:-2].rstrip()
    return text


# -- names in the messages ---------------------------------------------------------

# A backticked part; a doubled backtick inside stands for one (bounded, no nesting).
_BQ = r"`[^`]{1,128}(?:``[^`]{0,128}){0,2}`"
# A name as MySQL and MariaDB print them: `db`.`t`.`c`, 'db.t', "x".
# A single-quoted name is printed as it is: a quote inside it stays bare
# ('test.no'such'), and is told from the closing one by the letter after it;
# a message copied out of a string literal writes it \'.
_SQ = r"'(?:[^'\\\n]|\\.|'(?=\w)){1,256}'"
_NAME = rf"(?:{_BQ}(?:\.{_BQ}){{0,2}}|{_SQ}|\"[^\"]{{1,256}}\")"
_BACKSLASHED = re.compile(r"\\([\\'\"])")


def _unquoted(raw: str) -> str:
    """*raw* without its quotes, a backslash-escaped quote (``O\\'Brien``) undone."""
    inner = unquote(raw)
    if "\\" in inner and raw[:1] == "'":
        return _BACKSLASHED.sub(r"\1", inner)
    return inner


def _parts(raw: str) -> list[str]:
    # Backticked names are split on their dots; a quoted 'db.t' on its first dot
    # (the server prints database and table joined, unquoted, inside the quotes).
    raw = raw.strip()
    if raw.startswith("`"):
        if "``" not in raw:  # the common case, without the general quote scanner
            return [p for p in raw[1:-1].split("`.`") if p]
        return split_qualified(raw)
    inner = _unquoted(raw)
    return [p for p in inner.split(".", 2) if p] or [inner]


class Detail:
    """
    Names read from one message.

    Attributes:
        resources: Affected tables, columns, keys, constraints, ..., in order.
        dependencies: What must change first.
        constraint: The constraint or key name.
        schema: The database a qualified name carried.
        kind: A kind the message makes more precise than the number alone.
    """

    __slots__ = ("constraint", "dependencies", "kind", "resources", "schema")

    def __init__(self) -> None:
        self.resources: list[str] = []
        self.dependencies: list[str] = []
        self.constraint: str | None = None
        self.schema: str | None = None
        self.kind: Kind | None = None

    def table(self, raw: str | None, *, dependency: bool = False) -> str | None:
        """Add a (possibly qualified) table; returns its bare name."""
        if not raw:
            return None
        obj, qualifier = unqualify_parts(_parts(raw))
        self.schema = self.schema or qualifier
        (self.dependencies if dependency else self.resources).append(obj)
        return obj

    def column(self, raw: str | None) -> None:
        """Add a column; ``db.t.c`` also names its table and database."""
        if not raw:
            return
        parts = _parts(raw)
        self.resources.append(parts[-1])
        if len(parts) >= 3:
            self.resources.append(parts[-2])
            self.schema = self.schema or parts[-3]

    def name(self, raw: str | None) -> str | None:
        """Add an unqualified object (key, index, constraint, database)."""
        if not raw:
            return None
        obj = _unquoted(raw)
        self.resources.append(obj)
        return obj


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern.replace("NAME", _NAME), re.IGNORECASE)


_TABLE_MISSING = _re(r"Table (?P<t>NAME) doesn't exist")
_UNKNOWN_TABLE = _re(r"Unknown (?:table|VIEW):? (?P<t>NAME)")
_UNKNOWN_VARIABLE = _re(r"Unknown system variable (?P<v>NAME)")
_GROUP_BY = _re(r"(?P<c>NAME) isn't in GROUP BY")
_TABLE_EXISTS = _re(r"Table (?P<t>NAME) already exists")
_DATABASE = _re(r"(?:Unknown database|drop database|create database|to database) (?P<d>NAME)")
_UNKNOWN_COLUMN = _re(r"Unknown column (?P<c>NAME)(?: in (?P<w>NAME))?")
_AMBIGUOUS_COLUMN = _re(r"Column (?P<c>NAME) in .{1,64}? is ambiguous")
_COLUMN = _re(r"(?:for column|Column|Field|column name) (?P<c>NAME)")
_KEY_NAME = _re(
    r"(?:key name|for key|Can't DROP(?: COLUMN| INDEX| KEY| CONSTRAINT"
    r"| FOREIGN KEY| CHECK| PRIMARY KEY)?) (?P<k>NAME)"
)
_DUP_ENTRY_KEY = _re(r"for key (?P<k>NAME)\s{0,4}$")
_DUP_KEY_TABLE = _re(r"duplicate key in table (?P<t>NAME)")
_ROUTINE = re.compile(r"(?:FUNCTION|PROCEDURE|PACKAGE) (?P<f>[\w$.`]{1,256}) does not exist")
_DENIED_TABLE = _re(r"for (?:column (?P<c>NAME) in )?table (?P<t>NAME)")
_FK = _re(
    r"foreign key constraint fails \((?P<child>NAME), CONSTRAINT (?P<c>NAME) "
    r"FOREIGN KEY \([^)]{0,512}\) REFERENCES (?P<parent>NAME)"
)
_FK_TRUNCATE = _re(
    r"referenced in a foreign key constraint \((?P<child>NAME), CONSTRAINT "
    r"(?P<c>NAME) FOREIGN KEY \([^)]{0,512}\) REFERENCES (?P<parent>NAME)"
)
_FK_DROP_PARENT = _re(
    r"Cannot drop table (?P<t>NAME) referenced by (?:a )?foreign key "
    r"constraint (?P<c>NAME) on table (?P<child>NAME)"
)
_FK_NEEDED = _re(
    r"Cannot (?:drop|change) (?:index|column) (?P<o>NAME): (?:needed|used) in "
    r"a foreign key constraint(?: (?P<c>NAME))?(?: of table (?P<t>NAME))?"
)
_CHECK_MARIADB = _re(r"CONSTRAINT (?P<c>NAME) failed for (?P<t>NAME)")
_CHECK_MYSQL = _re(r"Check constraint (?P<c>NAME) is violated")
_CREATE_TABLE = _re(r"Can't create table (?P<t>NAME)")
_DATETIME = re.compile(
    r"Incorrect (?:date|time|datetime|timestamp) value|"
    r"incorrect (?:date|time|datetime|timestamp) value",
    re.IGNORECASE,
)
_NAME_RESOLUTION = re.compile(
    r"Name or service not known|nodename nor servname"
    r"|Unknown (?:MySQL |MariaDB )?server host|getaddrinfo failed|No address associated",
    re.IGNORECASE,
)
# getaddrinfo's EAI_AGAIN, in words (glibc's gai_strerror) or as libmariadb's
# "Unknown server host 'x' (-3)": the resolver did not answer, which says
# nothing about the name; the same call may succeed once it does.
_RESOLVER_LATER = re.compile(
    r"Temporary failure in name resolution|server host '[^'\n]{0,256}' \(-3\)"
)
_HOURLY_LIMIT = re.compile(r"max_questions|max_updates|max_connections_per_hour")
_OPTION = re.compile(r"running with the --")
_READ_ONLY = re.compile(r"read[-_ ]only", re.IGNORECASE)
# Parameter-count errors the drivers raise themselves, before anything reaches a server.
_DRIVER_PARAMETERS = re.compile(
    r"not enough arguments for format string|not all arguments converted"
    r"|Not enough parameters for the SQL statement|Not all parameters were used"
    r"|doesn't match the number of data elements|Incorrect number of arguments"
    r"|Wrong number of parameters",
    re.IGNORECASE,
)
# Connection states the drivers report themselves, without an error number.
# A closed cursor or connection used again: the driver refuses before anything
# is sent (pymysql and aiomysql "Cursor closed", MySQLdb "cursor closed", the
# MariaDB connector's "Cursor cannot be used anymore ..." and "Invalid
# connection or not connected", mysql-connector's "Cursor is not connected").
_HANDLE_CLOSED = re.compile(
    r"\s{0,8}(?:Cursor closed|Cursor cannot be used anymore|Cursor is not connected"
    r"|Invalid (?:connection|cursor) or not connected)",
    re.IGNORECASE,
)
_DRIVER_LOST = re.compile(
    r"Connection not available|connection is not open|connection is closed"
    r"|Lost connection to (?:MySQL|MariaDB) server|server has gone away"
    # mysql-connector, pymysql ("Already closed"), asyncmy, the mariadb connector
    r"|Connection to (?:MySQL|MariaDB) is not available|^already closed$"
    r"|network operation failed|isn't valid|Invalid (?:connection|cursor) or not connected"
    # pymysql, aiomysql and asyncmy: a reply out of step with the request (a
    # connection shared between threads, a reply left unread after a timeout);
    # the driver closes the connection before it raises this.
    r"|Packet sequence number wrong",
    re.IGNORECASE,
)
_SCAN: Final = 2048  # the names come first in every message
_CONNECTORJ_SCAN: Final = 4096  # a Java stack trace may come before the cause
_CONNECTORJ_WORDS: Final = 3  # the fewest words of a Connector/J wording read


def _fk(d: Detail, msg: str, *, parent_side: bool) -> None:
    match = _FK.search(msg, 0, _SCAN) or _FK_TRUNCATE.search(msg, 0, _SCAN)
    if match is None:
        return
    child = unqualify_parts(_parts(match.group("child")))
    parent = unqualify_parts(_parts(match.group("parent")))
    d.constraint = unquote(match.group("c"))
    d.schema = child[1] or parent[1]
    if parent_side:  # the parent row/table is blocked by the child table
        d.resources += [parent[0], child[0], d.constraint]
        d.dependencies.append(child[0])
    else:  # the child row needs a parent row
        d.resources += [child[0], parent[0], d.constraint]
        d.dependencies.append(parent[0])


def _detail_fk_child(d: Detail, msg: str) -> None:
    _fk(d, msg, parent_side=False)


def _detail_fk_parent(d: Detail, msg: str) -> None:
    _fk(d, msg, parent_side=True)


def _detail_fk_drop_parent(d: Detail, msg: str) -> None:
    match = _FK_DROP_PARENT.search(msg, 0, _SCAN)
    if match is None:
        _fk(d, msg, parent_side=True)
        return
    d.table(match.group("t"))
    d.table(match.group("child"))
    d.table(match.group("child"), dependency=True)
    d.constraint = d.name(match.group("c"))


def _detail_fk_needed(d: Detail, msg: str) -> None:
    match = _FK_NEEDED.search(msg, 0, _SCAN)
    if match is None:
        return
    d.name(match.group("o"))
    if match.group("c"):
        d.constraint = d.name(match.group("c"))
    if match.group("t"):
        d.table(match.group("t"))
        d.table(match.group("t"), dependency=True)


def _detail_table(pattern: re.Pattern[str]) -> Callable[[Detail, str], None]:
    def detail(d: Detail, msg: str) -> None:
        match = pattern.search(msg, 0, _SCAN)
        if match is not None:
            d.table(match.group("t"))

    return detail


def _detail_database(d: Detail, msg: str) -> None:
    match = _DATABASE.search(msg, 0, _SCAN)
    if match is not None:
        d.name(match.group("d"))


def _detail_unknown_column(d: Detail, msg: str) -> None:
    match = _UNKNOWN_COLUMN.search(msg, 0, _SCAN)
    if match is not None:
        # 'c.x': c is a table or an alias; 'db.t.x' names a database's table.
        column, table, schema = column_reference(_parts(match.group("c")))
        d.resources.append(column)
        if table is not None:
            d.resources.append(table)
            d.schema = d.schema or schema


def _detail_variable(d: Detail, msg: str) -> None:
    match = _UNKNOWN_VARIABLE.search(msg, 0, _SCAN)
    if match is not None:
        d.name(match.group("v"))


def _detail_group_by(d: Detail, msg: str) -> None:
    match = _GROUP_BY.search(msg, 0, _SCAN)
    if match is not None:
        d.column(match.group("c"))


def _detail_ambiguous(d: Detail, msg: str) -> None:
    match = _AMBIGUOUS_COLUMN.search(msg, 0, _SCAN)
    if match is not None:
        d.column(match.group("c"))


def _detail_column(d: Detail, msg: str) -> None:
    match = _COLUMN.search(msg, 0, _SCAN)
    if match is not None:
        d.column(match.group("c"))


def _detail_value(d: Detail, msg: str) -> None:
    _detail_column(d, msg)
    if _DATETIME.search(msg, 0, 200):
        d.kind = Kind.INVALID_DATETIME_FORMAT


def _detail_duplicate_entry(d: Detail, msg: str) -> None:
    # The entry's value is data: only the key is named.  MySQL 8 prints "table.key".
    match = _DUP_ENTRY_KEY.search(msg, max(0, len(msg) - 600))
    if match is None:
        return
    parts = _parts(match.group("k"))
    if len(parts) > 1:
        d.resources.append(parts[0])
    d.constraint = ".".join(parts[1:]) if len(parts) > 1 else parts[0]
    d.resources.append(d.constraint)


def _detail_key(d: Detail, msg: str) -> None:
    match = _KEY_NAME.search(msg, 0, _SCAN)
    if match is not None:
        d.name(match.group("k"))


def _detail_routine(d: Detail, msg: str) -> None:
    match = _ROUTINE.search(msg, 0, _SCAN)
    if match is not None:
        obj, qualifier = unqualify(match.group("f"))
        d.resources.append(obj)
        d.schema = qualifier


def _detail_denied(d: Detail, msg: str) -> None:
    match = _DENIED_TABLE.search(msg, 0, _SCAN)
    if match is not None:
        d.table(match.group("t"))
        if match.group("c"):
            d.name(match.group("c"))
    else:
        _detail_database(d, msg)


def _detail_check(d: Detail, msg: str) -> None:
    match = _CHECK_MARIADB.search(msg, 0, _SCAN)
    if match is not None:
        d.kind = Kind.CHECK_VIOLATION
        d.constraint = d.name(match.group("c"))
        d.table(match.group("t"))
        return
    match = _CHECK_MYSQL.search(msg, 0, _SCAN)
    if match is not None:
        d.kind = Kind.CHECK_VIOLATION
        d.constraint = d.name(match.group("c"))


def _detail_create_table(d: Detail, msg: str) -> None:
    _detail_table(_CREATE_TABLE)(d, msg)


def _detail_rename(d: Detail, msg: str) -> None:
    # "Error on rename of ... (errno: 150 ...)": InnoDB refused because a foreign
    # key still refers to what the ALTER changes or removes.
    if "errno: 150" in msg or "oreign key" in msg:
        d.kind = Kind.DEPENDENT_OBJECTS_STILL_EXIST


def _detail_connect(d: Detail, msg: str) -> None:
    if _RESOLVER_LATER.search(msg, 0, _SCAN):
        d.kind = Kind.CONNECTION_FAILURE
    elif _NAME_RESOLUTION.search(msg, 0, _SCAN):
        d.kind = Kind.CONNECTION_MISCONFIGURED


# mysql-connector's own socket timeouts borrow the server's 3024 (ER_QUERY_TIMEOUT)
# with a text of their own: the driver closed the connection, and what was
# sent may have run.
_DRIVER_TIMEOUT: Final = "Operation timed out. As a consequence the current connection has been"


def _detail_query_timeout(d: Detail, msg: str) -> None:
    if _DRIVER_TIMEOUT in msg:
        d.kind = Kind.CONNECTION_LOST


def _detail_user_limit(d: Detail, msg: str) -> None:
    if _HOURLY_LIMIT.search(msg, 0, _SCAN):
        d.kind = Kind.QUOTA_EXCEEDED  # a per-user hourly allowance, used up


def _detail_option(d: Detail, msg: str) -> None:
    if _OPTION.search(msg, 0, _SCAN) and not _READ_ONLY.search(msg, 0, _SCAN):
        d.kind = Kind.UNKNOWN  # another --option (secure-file-priv, ...): read the message


_DETAILS: Final[dict[int, Callable[[Detail, str], None]]] = {
    1146: _detail_table(_TABLE_MISSING),
    1051: _detail_table(_UNKNOWN_TABLE),
    1109: _detail_table(_UNKNOWN_TABLE),
    4092: _detail_table(_UNKNOWN_TABLE),
    1193: _detail_variable,
    1055: _detail_group_by,
    1050: _detail_table(_TABLE_EXISTS),
    1022: _detail_table(_DUP_KEY_TABLE),
    1005: _detail_create_table,
    1049: _detail_database,
    1007: _detail_database,
    1008: _detail_database,
    1044: _detail_database,
    1054: _detail_unknown_column,
    1052: _detail_ambiguous,
    1048: _detail_column,
    1364: _detail_column,
    1406: _detail_column,
    1264: _detail_column,
    1265: _detail_column,
    1060: _detail_column,
    1366: _detail_value,
    1292: _detail_value,
    1062: _detail_duplicate_entry,
    1586: _detail_duplicate_entry,
    1061: _detail_key,
    1091: _detail_key,
    1305: _detail_routine,
    1630: _detail_routine,
    1142: _detail_denied,
    1143: _detail_denied,
    1452: _detail_fk_child,
    1216: _detail_fk_child,
    1451: _detail_fk_parent,
    1217: _detail_fk_parent,
    1701: _detail_fk_parent,
    3730: _detail_fk_drop_parent,
    1553: _detail_fk_needed,
    1828: _detail_fk_needed,
    1829: _detail_fk_needed,
    1832: _detail_fk_needed,
    1833: _detail_fk_needed,
    4025: _detail_check,
    3819: _detail_check,
    1025: _detail_rename,
    3024: _detail_query_timeout,
    2002: _detail_connect,
    2003: _detail_connect,
    2005: _detail_connect,
    1226: _detail_user_limit,
    1290: _detail_option,
}


def extract_detail(errno: int | None, message: str) -> Detail:
    """
    Read the names (and any kind refinement) from a message.

    Args:
        errno: The error number; selects which message shape to expect.
        message: The driver's message text.

    Returns:
        The names found; empty when the message has another shape.
    """
    detail = Detail()
    extractor = _DETAILS.get(errno) if errno is not None else None
    if extractor is not None:
        extractor(detail, message)
    return detail


# -- the tables (generated facts and hand-written kinds, joined on first use) ----


class _Tables(NamedTuple):
    #: Number -> kind where the servers agree.
    kinds: dict[int, Kind]
    #: Number -> its two kinds, where MariaDB and MySQL use it for different errors.
    ambiguous: dict[int, tuple[Kind, Kind]]
    #: Number -> a run of MariaDB's text for it.
    mariadb_text: dict[int, str]


@cache
def _tables() -> _Tables:
    """The generated facts and the hand-written kinds, joined on first use."""
    from localdata_errors.backends import _mysql_codes  # noqa: PLC0415 - lazy on purpose
    from localdata_errors.backends._mysql_kinds import decide  # noqa: PLC0415 - lazy

    kinds, ambiguous = decide(_mysql_codes.SYMBOLS)
    return _Tables(kinds, ambiguous, _mysql_codes.MARIADB_TEXT)


def _server_kind(errno: int, message: str) -> Kind:
    """
    The kind of a number MariaDB and MySQL use for different errors, by its text.

    MariaDB's message for the number (from its `errmsg-utf8.txt`) holds a
    known run of text; a message without it is MySQL's.  `Kind.UNKNOWN`
    when MariaDB's text is not known (a client error of Connector/C).
    """
    _, ambiguous, mariadb_text = _tables()
    pair = ambiguous.get(errno)
    text = mariadb_text.get(errno)
    if pair is None or text is None:
        return Kind.UNKNOWN
    return pair[0] if text in message else pair[1]


def kind_for_code(errno: int) -> tuple[Kind, frozenset[Kind] | None]:
    """
    The kind of one error number, without the message's refinements.

    A number MariaDB and MySQL use for different errors has no kind of its
    own: the answer is `Kind.UNKNOWN` with the two candidates, between which
    the keyword fallback decides by the message.

    Args:
        errno: The error number.

    Returns:
        The kind (`Kind.UNKNOWN` when the table has none), and the kinds the
        keyword fallback may choose between (or `None`).
    """
    kinds, ambiguous, _ = _tables()
    kind = kinds.get(errno)
    if kind is not None:
        return kind, None
    pair = ambiguous.get(errno)
    if pair is None:
        return Kind.UNKNOWN, None
    return Kind.UNKNOWN, frozenset(pair)


@cache
def _connectorj_templates() -> tuple[re.Pattern[str], tuple[Kind, ...]]:
    """
    One alternation of Connector/J's messages with a kind (each wording of
    every release read, in `_connectorj_kinds`' order of preference), and
    each branch's kind (built on first use).
    """
    from localdata_errors.backends import _connectorj_kinds, _connectorj_texts  # noqa: PLC0415
    from localdata_errors.backends._message_format import alternation  # noqa: PLC0415

    return alternation(
        (text, kind)
        for key, kind in _connectorj_kinds.KINDS.items()
        for text in _connectorj_texts.TEXTS[key]
        # 5.1 builds some messages from pieces under the same keys (`' > '`):
        # a piece of fewer than three words says nothing of its own.
        if len(text.split()) >= _CONNECTORJ_WORDS
    )


def connectorj_kind(body: str) -> Kind | None:
    """
    The kind of MySQL Connector/J's own message the text holds (`Public Key
    Retrieval is not allowed`, `The server time zone value 'CST' is
    unrecognized ...`), its `{0}` read as any text.

    Args:
        body: The message (its first 4 KiB are read).

    Returns:
        The kind `_connectorj_kinds` decides for the message it prefers among
        those found (`Could not create connection to database server.` gives
        way to its cause), else `None`.
    """
    pattern, kinds = _connectorj_templates()
    found = [
        int(match.lastgroup[1:])
        for match in pattern.finditer(body[:_CONNECTORJ_SCAN])
        if match.lastgroup is not None
    ]
    return kinds[min(found)] if found else None


class MySQLMapper(BackendMapper):
    """
    MySQL and MariaDB, through pymysql, aiomysql, MySQLdb, mysql-connector and mariadb.
    """

    name = "mysql"
    aliases = BACKENDS["mysql"].aliases
    driver_modules = BACKENDS["mysql"].driver_modules
    display_name = BACKENDS["mysql"].display_name

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one MySQL-family error by its number, then name what it involves.

        Args:
            error: The exception (pymysql, MySQLdb, mysql-connector, mariadb)
                or a message with an explicit ``code``.

        Returns:
            The kind and details; ``Kind.UNKNOWN`` (keeping the number) when
            the table has no row for it, so the keyword fallback decides.
        """
        found = read_error(error)
        message = found.message if found.message is not None else error.message
        if found.errno is None:
            if _DRIVER_PARAMETERS.search(message, 0, _SCAN):
                return new_mapped_error(kind=Kind.INVALID_PARAMETER, message=found.message)
            if _HANDLE_CLOSED.match(message):
                return new_mapped_error(
                    kind=Kind.CONNECTION_LOST, message=found.message, retry_safety=RetrySafety.SAFE
                )
            if _DRIVER_LOST.search(message, 0, _SCAN):
                return new_mapped_error(kind=Kind.CONNECTION_LOST, message=found.message)
            # Connector/J's own message (a Java application's log): no number.
            return new_mapped_error(
                kind=connectorj_kind(message) or Kind.UNKNOWN,
                sqlstate=found.sqlstate,
                message=found.message,
            )
        if found.errno == 0 and not (found.message or "").strip():
            # pymysql's and aiomysql's InterfaceError(0, ''): the connection
            # was closed (by this client, or after the server dropped it), and
            # the driver refused before sending anything.
            return new_mapped_error(
                kind=Kind.CONNECTION_LOST,
                code="0",
                message=found.message,
                retry_safety=RetrySafety.SAFE,
            )
        kind, refine = kind_for_code(found.errno)
        if refine is not None:
            by_text = _server_kind(found.errno, message)
            if by_text is not Kind.UNKNOWN:
                kind, refine = by_text, None
        extractor = _DETAILS.get(found.errno)
        if extractor is None:
            return new_mapped_error(
                kind,
                code=str(found.errno),
                sqlstate=found.sqlstate,
                message=found.message,
                refine=refine,
            )
        detail = Detail()
        extractor(detail, message)
        if detail.kind is not None:
            kind = detail.kind
        elif kind is Kind.CONNECTION_FAILURE and error.exception is not None:
            # aiomysql's "Can't connect to MySQL server on 'host'" names no
            # reason; the OS error it was raised from does (a name that does
            # not resolve is no failure to retry).
            from localdata_errors.backends.network import cause_kind  # noqa: PLC0415 - rare

            kind = cause_kind(error.exception) or kind
        return new_mapped_error(
            kind,
            code=str(found.errno),
            sqlstate=found.sqlstate,
            affected_resources=unique(detail.resources),
            dependencies=unique(detail.dependencies) if detail.dependencies else (),
            constraint=detail.constraint,
            schema=detail.schema,
            message=found.message,
            refine=refine,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every error number with a kind in the generated table.

        Returns:
            ``{"1146": Kind.UNDEFINED_TABLE, ...}``; numbers the two servers
            use for different errors are left out.
        """
        return {str(errno): kind for errno, kind in _tables().kinds.items()}
