"""
The engine layer of read-only mode: the database itself refuses to write.

It holds even for a statement the parser layer
(`localdata_errors.mcp._readonly`) would have let through:

- **SQLite**: a file is opened read-only (a ``file:`` URI with
  ``mode=ro``), every connection runs with ``PRAGMA query_only`` and an
  authorizer that denies every action but reads: no INSERT, UPDATE, DELETE,
  CREATE, DROP, ALTER, ATTACH, DETACH, REINDEX, ANALYZE, transaction
  control, writing functions, and no PRAGMA beyond the read-only list (in
  its read form: ``PRAGMA query_only = 0`` is denied).  An in-memory
  database cannot be opened read-only; the authorizer and ``query_only``
  hold there.
- **DuckDB**: a file is opened with ``read_only``; file access, extension
  loading and configuration changes are disabled for files and in-memory
  databases alike, and DuckDB's own parser must find exactly one statement
  of a reading type (``SELECT``, ``EXPLAIN``, ``PRAGMA``) before it runs.
- **PostgreSQL**: sessions default to read-only transactions, each call
  runs in a ``READ ONLY`` transaction that is rolled back, never committed,
  and ``standard_conforming_strings`` is on (backslashes in a string mean
  what the parser layer read).  With psycopg 3 every statement is prepared,
  so the server itself refuses a second statement in one call.
- **MySQL / MariaDB**: sessions default to read-only transactions (set again
  at the start of every call), each call runs in ``START TRANSACTION READ
  ONLY`` and is rolled back, the
  drivers are told not to send several statements at once, and the session's
  ``sql_mode`` drops the modes that change how text is tokenized
  (``ANSI_QUOTES``, ``NO_BACKSLASH_ESCAPES`` ...).

SQL Server and Oracle have no switch of that kind the server could rely on:
only the parser layer applies there.  On every backend, a login that may
only read is the strongest guarantee.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Any, Final, Protocol
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from localdata_errors.mcp._readonly import is_read_only_pragma

__all__ = [
    "DUCKDB_CONFIG",
    "TRUE_WORDS",
    "Target",
    "begin",
    "engine_url_and_options",
    "is_memory",
    "on_connect",
    "reading_statement_type",
    "sqlite_authorizer",
]


class Target(Protocol):
    """
    What the schema, hint and session helpers read of the server's database.

    `localdata_errors.mcp._sql.Database` is one; the helpers take this
    instead, so that they do not depend on the module that uses them.
    """

    @property
    def dialect(self) -> str:
        """SQLAlchemy's dialect name."""

    @property
    def engine(self) -> Engine:
        """The engine."""

    @property
    def read_only(self) -> bool:
        """Whether every call is read-only."""

    @property
    def timeout(self) -> float | None:
        """The statement timeout, in seconds."""


#: DuckDB settings of a read-only server: no file or network access (no
#: read_csv of /etc/passwd, no COPY ... TO, no ATTACH), no extension loading,
#: and no setting changed afterwards.
DUCKDB_CONFIG: Final = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "lock_configuration": True,
}
# The statement types DuckDB's parser reports for what reads.
_DUCKDB_READ_TYPES: Final = frozenset({"SELECT", "EXPLAIN", "PRAGMA"})
#: How a URL's query says yes (``?uri=true``).
TRUE_WORDS: Final = frozenset({"1", "true", "yes", "on"})
# sql_mode flags (and the combinations that include them) that change how
# MySQL tokenizes: with them a quote or a backslash means something other
# than what the parser layer read.
_LEXER_SQL_MODES: Final = frozenset(
    {"ANSI_QUOTES", "NO_BACKSLASH_ESCAPES", "ANSI", "ORACLE", "MSSQL", "DB2", "POSTGRESQL", "MAXDB"}
)
_SQLITE_SCHEMA_TABLES: Final = frozenset(
    {"sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema"}
)
_SQLITE_DENIED_FUNCTIONS: Final = frozenset(
    {"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"}
)


def is_memory(database: str | None) -> bool:
    """Whether a SQLite or DuckDB URL's database is in memory (no file to open)."""
    return not database or database == ":memory:" or database.startswith("file::memory:")


def engine_url_and_options(url: sa.URL, options: dict[str, Any]) -> sa.URL:
    """
    Adapt a URL and the engine's options for a read-only server.

    Args:
        url: The parsed URL.
        options: ``create_engine`` keyword arguments; ``connect_args`` is
            added to in place.

    Returns:
        The URL to connect with.
    """
    backend = url.get_backend_name()
    driver = url.get_driver_name()
    args: dict[str, Any] = options.setdefault("connect_args", {})
    if backend == "sqlite" and not is_memory(url.database):
        database = str(url.database)
        if str(url.query.get("uri", "")).lower() not in TRUE_WORDS:
            database = "file:" + quote(os.path.abspath(database))
        # SQLAlchemy moves the URL's other query keys into the file: URI.
        return url.set(database=database).update_query_dict({"uri": "true", "mode": "ro"})
    if backend == "duckdb":
        if not is_memory(url.database):
            args["read_only"] = True
        args["config"] = {**args.get("config", {}), **DUCKDB_CONFIG}
    elif backend == "postgresql" and driver == "psycopg":
        # Prepared statements take one statement each: the server refuses a
        # second one hidden in the text of a call.
        args["prepare_threshold"] = 0
    elif driver == "mysqldb":
        args["multi_statements"] = False
    elif driver == "mysqlconnector":
        from mysql.connector.constants import ClientFlag  # noqa: PLC0415 - this driver only

        args["client_flags"] = (
            ClientFlag.get_default() & ~ClientFlag.MULTI_STATEMENTS
        ) | ClientFlag.FOUND_ROWS
    return url


def on_connect(dialect: str, dbapi_connection: Any) -> None:
    """
    Make a new connection's session read-only (after the server's own settings).

    Args:
        dialect: SQLAlchemy's dialect name.
        dbapi_connection: The driver's connection.
    """
    if dialect == "sqlite":
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA query_only = ON")
        finally:
            cursor.close()
        # Installed last: from now on every statement is authorized first.
        dbapi_connection.set_authorizer(sqlite_authorizer)
    elif dialect == "postgresql":
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            cursor.execute("SET standard_conforming_strings = on")
        finally:
            cursor.close()
        # A SET in a transaction that is rolled back is undone.
        dbapi_connection.commit()
    elif dialect in ("mysql", "mariadb"):
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SET SESSION TRANSACTION READ ONLY")
            cursor.execute("SELECT @@SESSION.sql_mode")
            row = cursor.fetchone()
            modes = str(row[0] if row else "").split(",")
            kept = [m for m in modes if m and m.upper() not in _LEXER_SQL_MODES]
            if kept != [m for m in modes if m]:
                # The flags are the server's own words ([A-Z_]); nothing else is inlined.
                safe = ",".join(m for m in kept if m.replace("_", "").isalnum())
                cursor.execute(f"SET SESSION sql_mode = '{safe}'")
        finally:
            cursor.close()


def begin(conn: Connection, dialect: str) -> None:
    """
    Start a call's transaction read-only, where the backend has the switch.

    Args:
        conn: The connection, in a transaction SQLAlchemy began.
        dialect: SQLAlchemy's dialect name.
    """
    if dialect == "postgresql":
        conn.exec_driver_sql("SET TRANSACTION READ ONLY")
    elif dialect in ("mysql", "mariadb"):
        # A statement that commits implicitly (LOCK TABLES, DDL) ends the
        # transaction and runs in the session's default mode: that default is
        # set again on every call, whatever an earlier call did to it.
        conn.exec_driver_sql("SET SESSION TRANSACTION READ ONLY")
        conn.exec_driver_sql("START TRANSACTION READ ONLY")


def reading_statement_type(conn: Connection, text: str) -> str | None:
    """
    DuckDB's own verdict: the type of the one statement *text* holds, if it reads.

    Args:
        conn: A DuckDB connection.
        text: The statement.

    Returns:
        ``None`` when DuckDB's parser finds exactly one statement of a reading
        type; otherwise what it found, to name in the refusal.
    """
    driver: Any = conn.connection.driver_connection
    try:
        found = driver.extract_statements(text)
    except Exception as exc:  # noqa: BLE001 - any parser failure is a refusal here
        return f"DuckDB cannot parse it ({str(exc).splitlines()[0][:120]})"
    types = [str(getattr(s.type, "name", s.type)).upper() for s in found]
    if len(types) == 1 and types[0] in _DUCKDB_READ_TYPES:
        return None
    return "DuckDB reads it as " + (", ".join(types) or "no statement")


def sqlite_authorizer(
    action: int, arg1: str | None, arg2: str | None, _database: str | None, _source: str | None
) -> int:
    """
    SQLite's authorizer of a read-only connection: reads pass, everything else is denied.

    Args:
        action: SQLite's action code.
        arg1: The table, pragma or transaction word the action concerns.
        arg2: The column, pragma argument or function name.
        _database: The schema (``main``, ``temp``, an attached name).
        _source: The trigger or view the action comes from.

    Returns:
        ``SQLITE_OK``, ``SQLITE_IGNORE`` or ``SQLITE_DENY``.
    """
    if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_RECURSIVE):
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_FUNCTION:
        name = (arg2 or "").lower()
        return sqlite3.SQLITE_DENY if name in _SQLITE_DENIED_FUNCTIONS else sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA:
        allowed = is_read_only_pragma("sqlite", arg1 or "", arg2 is not None)
        return sqlite3.SQLITE_OK if allowed else sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_UPDATE and (arg1 or "").lower() in _SQLITE_SCHEMA_TABLES:
        # SQLite reports this while it sets up a pragma table function
        # (pragma_table_info); IGNORE leaves every column unchanged.
        return sqlite3.SQLITE_IGNORE
    return sqlite3.SQLITE_DENY
