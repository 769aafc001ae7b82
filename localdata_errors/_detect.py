"""
The backend and the code of an error known only by its text.

People paste errors as their tools print them: the `mysql` client's
`ERROR 1146 (42S02): ...`, `sqlcmd`'s `Msg 208, Level 16, State 1, Line 1`,
`psql`'s `ERROR:  ...` with its `LINE` and `SQLSTATE` lines, PHP PDO's
`SQLSTATE[HY000] [2002] ...`, a JDBC exception's class name
(`org.postgresql.util.PSQLException: ERROR: ...`), Oracle's `ORA-00942`,
and the last line of a Python traceback (`sqlite3.OperationalError: ...`,
`psycopg.errors.UndefinedTable: ...`).  `detect` reads the form, the
backend it belongs to and the code it carries, and returns the message as
the backend's mapper expects it.  `classify_message` calls it when no
`db_type` and no code are given.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from localdata_errors._lazy import LazyPattern
from localdata_errors._registry import MapperRegistry, default_registry
from localdata_errors._textread import (
    DUCKDB_LABELS,
    is_plain,
    pg_sqlstate,
    read_plain,
    read_signs,
)

__all__ = ["Detected", "detect"]


class Detected(NamedTuple):
    """
    What the text says about itself.

    Attributes:
        backend: The backend's canonical name.
        code: The native code the text carries (errno, SQLSTATE, SQL Server
            number, DuckDB class), or `None`.
        sqlstate: The SQLSTATE the text carries, or `None`.
        message: The text without the tool's framing (the mapper's input).
        driver: The driver module a traceback line names, or `None`.
    """

    backend: str
    code: str | None
    sqlstate: str | None
    message: str
    driver: str | None


# Each form anchored at the start of the text (after leading blank space);
# the alternatives start with different words, so one pass decides.
_FORMS: Final = LazyPattern(
    r"""\A\s{0,16}(?:
      ERROR\ (?P<my_errno>\d{1,5})(?:\ \((?P<my_state>[0-9A-Z]{5})\))?
          (?:\ at\ line\ \d{1,9})?(?:\ in\ file:\ '[^'\n]{0,512}')?:\ (?P<my_rest>)
    | Msg\ (?P<ms_num>\d{1,6}),\ Level\ (?P<ms_level>\d{1,2}),\ State\ \d{1,3}
          (?:,\ Server\ [^,\n]{1,128})?(?:,\ Procedure\ [^,\n]{1,256})?(?:,\ Line\ \d{1,9})?
          [ \t]{0,4}\r?\n?(?P<ms_rest>)
    | SQLSTATE\[(?P<pdo_state>[0-9A-Z]{5})\]
          (?:\ \[(?P<pdo_bracket>-?\d{1,6})\]\ |:\ [^:\n]{1,64}:\ (?:(?P<pdo_num>-?\d{1,6})\ )?)?
          (?P<pdo_rest>)
    | (?:psql:[^:\n]{0,512}:\d{1,9}:\ )?(?P<pg_level>ERROR|FATAL|PANIC):\ {2}
          (?:(?P<pg_state>[0-9A-Z]{5}):\ )?(?P<pg_rest>)
    | (?P<cls>[A-Za-z_][\w]{0,64}(?:\.[A-Za-z_][\w$]{0,64}){1,8})(?::[ \t]{1,4}|[ \t]{0,4}$)
          (?P<cls_rest>)
    )""",
    re.VERBOSE,
)
# The exception line of a pasted traceback: not indented, "module.Class: ...".
_RAISED: Final = LazyPattern(r"(?m)^(?=[A-Za-z_])(?:[\w]{1,64}\.){1,8}[\w$]{1,64}:[ \t]")
# A Python or Java class path inside a text, after a prefix: "module.Class: ".
_INNER: Final = LazyPattern(r"(?<![\w.$])(?:[A-Za-z_][\w]{0,64}\.){1,8}[A-Za-z_][\w$]{0,64}:[ \t]")
# SQLAlchemy's prefix: "(psycopg.errors.UndefinedTable) relation ...".
_WRAPPED: Final = LazyPattern(r"\((?P<cls>(?:[\w]{1,64}\.){1,8}[\w$]{1,64})\)\s")
# The mysql/mariadb client's line, after whatever it echoed before it.
_MYSQL_CLIENT: Final = LazyPattern(
    r"(?m)^ERROR (?P<errno>\d{1,5})(?: \((?P<state>[0-9A-Z]{5})\))?(?: at line \d{1,9})?"
    r"(?: in file: '[^'\n]{0,512}')?: "
)
# An Oracle code at the start of a line, wherever the line is.
_ORACLE: Final = LazyPattern(
    r"(?m)^[ \t]{0,8}(?:[\w.]{1,128}: )?(?P<code>(?:(?:ORA|DPY|DPI|PLS)-\d{4,5}|NJS-\d{3}):)"
)
# sqlite-jdbc: "[SQLITE_ERROR] SQL error or missing database (no such table: x)".
_SQLITE_JDBC: Final = LazyPattern(
    r"\[(?P<code>SQLITE_[A-Z_]{1,40})\][^(\n]{0,128}\((?P<msg>.{1,4096})\)\s*\Z", re.S
)
# psql's verbose lines after the message.
_PSQL_STATE: Final = LazyPattern(r"(?m)^SQLSTATE:\ ([0-9A-Z]{5})\s*$")
# DuckDB's labels: "Catalog Error: ...", "Binder Error: ...".
_DUCKDB_LABEL: Final = LazyPattern(r"\A\s{0,16}" + DUCKDB_LABELS)
# The vendors' JDBC packages, by backend.
_JDBC: Final = (
    ("org.postgresql.", "postgresql"),
    ("com.mysql.", "mysql"),
    ("org.mariadb.jdbc.", "mysql"),
    ("com.microsoft.sqlserver.", "mssql"),
    ("oracle.jdbc.", "oracle"),
    ("org.sqlite.", "sqlite"),
    ("org.duckdb.", "duckdb"),
)
# A Python class path whose module no backend claims, but whose words do.
_PYTHON_HINTS: Final = {"duckdb": "duckdb", "_duckdb": "duckdb", "sqlite3": "sqlite"}


def _class_backend(path: str, registry: MapperRegistry) -> tuple[str, str | None] | None:
    """`(backend, driver)` for a Python or Java class path, or `None`."""
    for prefix, backend in _JDBC:
        if path.startswith(prefix):
            return backend, None
    module = path.rpartition(".")[0]
    name = registry.name_for_module(module) if module else None
    if name is not None:
        return name, module.partition(".")[0]
    first = path.partition(".")[0]
    hinted = _PYTHON_HINTS.get(first)
    return None if hinted is None else (hinted, first)


def _pdo(match: re.Match[str], text: str) -> Detected | None:
    state = match.group("pdo_state")
    rest = text[match.end() :]
    number = match.group("pdo_bracket") or match.group("pdo_num")
    if rest.startswith(("ERROR:", "FATAL:")) or (
        number == "7" and ("ERROR:" in rest[:64] or "could not" in rest[:64])
    ):
        # pdo_pgsql: the "7" is libpq's PGRES_FATAL_ERROR; the SQLSTATE is PostgreSQL's.
        body = rest.partition(":")[2].strip() if rest.startswith(("ERROR:", "FATAL:")) else rest
        return Detected("postgresql", state, state, body, None)
    if rest.startswith("[Microsoft]"):
        return Detected("mssql", state, state, text.strip(), None)
    if number is not None and number.isdigit() and int(number) >= 1000:
        # The driver's own number: pdo_mysql's errno, pdo_oci's ORA number,
        # pdo_dblib's DB-Library number.  The signs in the rest name the backend
        # (MySQL where its list holds the number and nothing else names one).
        return None
    if number is not None and number.isdigit() and int(number) < 1000 and state == "HY000":
        # pdo_sqlite's "General error: 1 no such table: x": SQLite's result code.
        return Detected("sqlite", number, None, rest.strip(), None)
    return None


def detect(text: str, registry: MapperRegistry | None = None) -> Detected | None:
    """
    The backend, code and message of an error pasted as a tool printed it.

    The forms a text starts with are read first (the message the mapper
    reads follows them); then the signs anywhere in it
    (`localdata_errors._textread`): a code in any language's format, a
    driver's class, a product name; last, a phrase only one vendor's
    messages hold (`no such table` is SQLite's, generated from the vendors'
    message lists by `tools/generate_vendor_wordings.py`).

    Args:
        text: The error's text.
        registry: Whose driver modules name a Python class's backend; the
            default registry when omitted.

    Returns:
        What the text says, or `None` when nothing in it names a backend (the
        keyword fallback answers then).
    """
    registry = registry or default_registry()
    if is_plain(text):
        # Every leading form and every sign holds a digit or a punctuation
        # mark: a text of words is read for names only.
        # A vendor's template's wording gives its code (`database is locked`:
        # SQLITE_BUSY), and where the message starts.
        plain = read_plain(text, registry)
        if plain.backend is None:
            return _translated(text, registry)
        return Detected(plain.backend, plain.code, None, text[plain.start :].strip(), None)
    found = _leading(text, registry)
    if found is not None and found.code is not None:
        return found
    signs = read_signs(text, registry, None if found is None else found.backend)
    if found is not None:
        if signs.code is None:
            return found
        return found._replace(code=signs.code, sqlstate=found.sqlstate or signs.sqlstate)
    if signs.backend is None:
        # No backend, but an ORM's own code (Prisma's `P2002`): the keyword
        # fallback reads the text, and keeps the code.
        if signs.code is None:
            return _translated(text, registry)
        return Detected("generic", signs.code, None, text.strip(), None)
    inner = _INNER.get().search(text, 0, 8192)
    if inner is not None and inner.start() > 0:
        # A log's or a wrapper's prefix before a form: the form's reading.
        found = _leading(text[inner.start() :], registry)
        if found is not None:
            if found.code is None and signs.code is not None:
                return found._replace(code=signs.code, sqlstate=found.sqlstate or signs.sqlstate)
            return found
    return Detected(signs.backend, signs.code, signs.sqlstate, text[signs.start :].strip(), None)


def _translated(text: str, registry: MapperRegistry) -> Detected | None:
    """
    A driver's own message in another language, where nothing else names a
    backend: SqlClient's (`执行超时已过期。完成操作之前已超时或服务器未响应。`),
    as the SQL Server backend reads its runs.  An ASCII text is not asked
    (the vendors' wordings read SqlClient's English runs).
    """
    if text.isascii() or registry.lookup("mssql") is None:
        return None
    from localdata_errors.backends.mssql import sqlclient_kind  # noqa: PLC0415 - a rare text

    if sqlclient_kind(text) is None:
        return None
    return Detected("mssql", None, None, text.strip(), None)


def _leading(text: str, registry: MapperRegistry) -> Detected | None:
    """What a text says by the form it starts with (a traceback's by its last line)."""
    if "Traceback (most recent call last):" in text:
        raised = None
        for raised in _RAISED.get().finditer(text, 0, 65536):  # noqa: B007 - the last one is raised
            pass
        if raised is not None:
            text = text[raised.start() :]
    if text[:1] == "(":
        wrapped = _WRAPPED.get().match(text)
        if wrapped is not None:
            # SQLAlchemy's own text (str() of its exception): the driver's
            # class in parentheses, then the driver's message.
            return _leading(f"{wrapped.group('cls')}: {text[wrapped.end() :]}", registry)
    match = _FORMS.get().match(text)
    if match is not None:
        group = match.lastgroup
        if group == "my_rest":
            # Kept whole: the MySQL mapper reads "ERROR 1146 (42S02): ..." itself.
            return Detected("mysql", match.group("my_errno"), match.group("my_state"), text, None)
        if group == "ms_rest":
            body = text[match.end() :].strip()
            return Detected("mssql", match.group("ms_num"), None, body, None)
        if group == "pdo_rest":
            found = _pdo(match, text)
            if found is not None:
                return found
        elif group == "pg_rest":
            state = match.group("pg_state")
            if state is None:
                verbose = _PSQL_STATE.get().search(text, 0, 8192)
                state = verbose.group(1) if verbose is not None else None
            return Detected("postgresql", state, state, text[match.end() :], None)
        elif group == "cls_rest":
            rest = text[match.end() :]
            wrapped = _WRAPPED.get().match(rest)
            if wrapped is not None and match.group("cls").startswith("sqlalchemy."):
                # SQLAlchemy's text: the driver's class, then the driver's message.
                return _leading(f"{wrapped.group('cls')}: {rest[wrapped.end() :]}", registry)
            owner = _class_backend(match.group("cls"), registry)
            if owner is not None:
                backend, driver = owner
                rest = text[match.end() :].strip()
                if backend == "postgresql" and rest.startswith(("ERROR: ", "FATAL: ")):
                    # libpq's "ERROR:  " has two spaces: the message starts after both.
                    rest = rest.partition(": ")[2].lstrip(" ")
                name = match.group("cls").rpartition(".")[2]
                code: str | None = None
                if backend == "duckdb":
                    code = name
                elif backend == "postgresql":
                    code = pg_sqlstate(name)
                elif backend == "sqlite" and (jdbc := _SQLITE_JDBC.get().match(rest)) is not None:
                    code, rest = jdbc.group("code"), jdbc.group("msg")
                return Detected(
                    backend, code, code if backend == "postgresql" else None, rest, driver
                )
    client = _MYSQL_CLIENT.get().search(text, 0, 8192) if "ERROR " in text else None
    if client is not None:
        line = text[client.start() :]
        return Detected("mysql", client.group("errno"), client.group("state"), line, None)
    oracle = _ORACLE.get().search(text, 0, 8192)
    if oracle is not None:
        # From the first code on: the mapper reads codes at the start of lines.
        return Detected("oracle", None, None, text[oracle.start("code") :], None)
    if _DUCKDB_LABEL.get().match(text) is not None:
        return Detected("duckdb", None, None, text, None)
    return None
