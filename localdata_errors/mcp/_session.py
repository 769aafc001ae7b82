"""
A clean session for every call, and the engine's own statement timeout inside it.

**Each call ends in a clean session.**  A call's connection is rolled back
(or committed) and then reset before the pool hands it to the next call, so
that nothing one call or one client does is visible to the next: PostgreSQL
runs ``DISCARD ALL`` (session advisory locks, prepared statements, temporary
tables, ``SET`` and ``set_config(..., false)`` settings, ``LISTEN``), and
MySQL/MariaDB reset the connection (``COM_RESET_CONNECTION``: user variables,
temporary tables, session variables, ``GET_LOCK`` locks) where the driver
sends it (MariaDB Connector/Python's ``reset()``, mysql-connector's
``cmd_reset_connection()``); with the other drivers (PyMySQL, mysqlclient)
the connection is closed and the next call opens a new one.  A connection
that cannot be reset is discarded the same way.  The server's own session
settings (`on_connect`) are then applied again.  SQLite and DuckDB run in
the server's process: a read-only server's session there can hold nothing
another call could read back (temporary objects, ``ATTACH`` and settings
are refused by the engine layer).

**The timeout is the engine's, set inside each call.**  PostgreSQL: ``SET
LOCAL statement_timeout`` in the call's transaction; MariaDB:
``max_statement_time`` and MySQL: ``max_execution_time``, set for the
session at the start of each call (after the reset); SQLite: a progress
handler that stops the statement once the deadline has passed; DuckDB: its
``interrupt()`` from a timer.  A statement cannot switch the timeout off for
a later call: the reset undoes it and the next call sets it again.  For
PostgreSQL and MySQL/MariaDB a timer in the server is a backstop only (a
statement of the same call that switched the engine's timeout off): a
little after the timeout it cancels the statement (PostgreSQL's cancel
request, MySQL's ``KILL QUERY`` from a connection of its own).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors.mcp import _engine
from localdata_errors.mcp._engine import Target

__all__ = ["THREAD_ID", "StatementTimeoutError", "begin", "deadline", "end", "on_connect"]

logger = logging.getLogger("localdata_errors.mcp.server")

#: Where a MySQL/MariaDB connection's record keeps its thread id (for KILL QUERY).
THREAD_ID: Final = "localdata_errors.thread_id"
# How many SQLite virtual-machine instructions run between two looks at the clock.
_SQLITE_STEPS: Final = 10_000
# The backstop fires this long after the engine's own timeout should have.
_BACKSTOP_GRACE: Final = 1.0


class StatementTimeoutError(Exception):
    """The server interrupted a statement that ran past the configured timeout."""


def _is_mysql(db: Target) -> bool:
    return db.dialect in ("mysql", "mariadb")


def on_connect(db: Target, dbapi_connection: Any, record: Any) -> None:
    """
    Apply the server's own session settings to a new (or just reset) connection.

    Args:
        db: The database.
        dbapi_connection: The driver's connection.
        record: The pool's record of it (``None`` after a reset).
    """
    cursor = dbapi_connection.cursor()
    try:
        if db.dialect == "sqlite":
            # SQLite enforces declared foreign keys only when asked to.
            cursor.execute("PRAGMA foreign_keys = ON")
        elif _is_mysql(db) and record is not None:
            cursor.execute("SELECT CONNECTION_ID()")
            row = cursor.fetchone()
            record.info[THREAD_ID] = int(row[0]) if row else None
    finally:
        cursor.close()
    if db.read_only:
        _engine.on_connect(db.dialect, dbapi_connection)


def begin(db: Target, conn: Connection) -> None:
    """
    Start a call: its read-only switch and its timeout, in the engine.

    Args:
        db: The database.
        conn: The call's connection, inside the transaction SQLAlchemy began.
    """
    millis = max(1, int(db.timeout * 1000)) if db.timeout is not None else 0
    if _is_mysql(db):
        # Session variables, set before the transaction starts: a reset (or a
        # new connection) cleared whatever an earlier call set.
        if bool(getattr(conn.dialect, "is_mariadb", False)):
            conn.exec_driver_sql(f"SET SESSION max_statement_time = {millis / 1000:.3f}")
        else:
            conn.exec_driver_sql(f"SET SESSION max_execution_time = {millis}")
    if db.read_only:
        _engine.begin(conn, db.dialect)
    if db.dialect == "postgresql":
        conn.exec_driver_sql(f"SET LOCAL statement_timeout = {millis}")


def end(db: Target, conn: Connection) -> None:
    """
    Leave the call's connection clean for the next call, or discard it.  Never raises.

    Args:
        db: The database.
        conn: The call's connection, its transaction already ended.
    """
    if conn.closed or conn.invalidated or db.dialect not in ("postgresql", "mysql", "mariadb"):
        return
    try:
        raw: Any = conn.connection.dbapi_connection
        if raw is None:
            return
        if db.dialect == "postgresql":
            _discard_all(raw)
        elif not _reset_mysql(raw):
            # The driver cannot reset a session: the next call gets a new one.
            conn.invalidate()
            return
        on_connect(db, raw, None)
        raw.commit()
    except Exception:
        logger.info("a connection could not be reset and was discarded", exc_info=True)
        with contextlib.suppress(Exception):
            conn.invalidate()


def _discard_all(raw: Any) -> None:
    # DISCARD ALL cannot run inside a transaction block.
    raw.rollback()
    raw.autocommit = True
    try:
        cursor = raw.cursor()
        try:
            if getattr(raw, "prepare_threshold", None) is not None:
                # psycopg 3 preparing statements (read-only mode): DISCARD ALL
                # itself is never prepared, as it deallocates every prepared
                # statement; the call's rollback cleared psycopg's own cache.
                cursor.execute("DISCARD ALL", prepare=False)
            else:
                cursor.execute("DISCARD ALL")
        finally:
            cursor.close()
    finally:
        raw.autocommit = False


def _reset_mysql(raw: Any) -> bool:
    """Send COM_RESET_CONNECTION where the driver has a public way to; whether it did."""
    raw.rollback()
    for name in ("reset", "cmd_reset_connection"):  # MariaDB Connector, mysql-connector
        method = getattr(raw, name, None)
        if callable(method):
            method()
            return True
    return False


# -- the timeout ------------------------------------------------------------------------


@contextlib.contextmanager
def deadline(db: Target, conn: Connection) -> Iterator[None]:
    """
    Hold a whole call to the server's timeout where the engine runs in this process.

    SQLite: a progress handler that stops the statement running when the
    deadline has passed; DuckDB: ``interrupt()`` from a timer.  Elsewhere
    the engine's own timeout applies (`begin`), and this does nothing.

    Args:
        db: The database.
        conn: The call's connection.

    Yields:
        Nothing; a statement stopped past the deadline raises
        `StatementTimeoutError` from the engine's error.
    """
    if db.timeout is None or db.dialect not in ("sqlite", "duckdb"):
        yield
        return
    driver: Any = conn.connection.driver_connection
    fired = threading.Event()
    if db.dialect == "sqlite":
        limit = time.monotonic() + db.timeout

        def past_deadline() -> int:
            if time.monotonic() < limit:
                return 0
            fired.set()
            return 1  # non-zero: SQLite stops the statement ("interrupted")

        driver.set_progress_handler(past_deadline, _SQLITE_STEPS)
        with _timed_out(db, fired):
            try:
                yield
            finally:
                driver.set_progress_handler(None, 0)
        return
    with _timer(db.timeout, fired, driver.interrupt), _timed_out(db, fired):
        yield


@contextlib.contextmanager
def backstop(db: Target, conn: Connection) -> Iterator[None]:
    """
    Cancel a statement of ``execute_sql`` that outlives the engine's own timeout.

    A statement of the same call may have switched the engine's timeout off
    (``set_config('statement_timeout', '0', false)``, ``SET SESSION
    max_statement_time = 0``): a little after the timeout, PostgreSQL's
    cancel request or MySQL's ``KILL QUERY`` stops what runs.

    Args:
        db: The database.
        conn: The call's connection.

    Yields:
        Nothing; a statement stopped by the backstop raises `StatementTimeoutError`.
    """
    if db.timeout is None or db.dialect not in ("postgresql", "mysql", "mariadb"):
        yield
        return
    fired = threading.Event()
    if db.dialect == "postgresql":
        driver: Any = conn.connection.driver_connection
        cancel = driver.cancel
    else:
        thread = conn.connection.info.get(THREAD_ID)
        if not isinstance(thread, int):
            yield
            return

        def cancel() -> None:
            _kill_query(db, thread)

    with _timer(db.timeout + _BACKSTOP_GRACE, fired, cancel), _timed_out(db, fired):
        yield


def _kill_query(db: Target, thread: int) -> None:
    # A connection of its own: the call's connection is busy with the statement.
    killer = sa.create_engine(db.engine.url, poolclass=sa.pool.NullPool)
    try:
        with killer.connect() as conn:
            conn.exec_driver_sql(f"KILL QUERY {int(thread)}")
    finally:
        killer.dispose()


@contextlib.contextmanager
def _timer(seconds: float, fired: threading.Event, action: Any) -> Iterator[None]:
    def fire() -> None:
        fired.set()
        try:
            action()
        except Exception:
            logger.warning("could not interrupt a statement past the timeout", exc_info=True)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


@contextlib.contextmanager
def _timed_out(db: Target, fired: threading.Event) -> Iterator[None]:
    try:
        yield
    except Exception as exc:
        if fired.is_set():
            raise StatementTimeoutError(
                f"The statement ran longer than the server's timeout of {db.timeout:g} s "
                "and was interrupted"
            ) from exc
        raise
