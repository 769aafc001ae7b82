"""
A statement that ran out of its own time is narrowed, not sent again unchanged.

Three things stop a statement before it finishes, and each vendor names them
apart: the time limit the client (or the administrator) set on the statement
(`statement_timeout`: sent again unchanged it runs as long again, so the model
narrows it), a lock held by someone else (`lock_not_available`: another
setting, another kind, retried after a back-off), and a cancel from another
session (`query_canceled`: sent again once, if that was not intended).  The
real errors come from the PostgreSQL and MariaDB servers here; Oracle's and
SQL Server's are built as their drivers raise them, with the vendors' texts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import Action, Kind, classify_error, classify_message
from localdata_errors.integrations import report_for, retry_in_code
from localdata_errors.retry import is_retryable_exception, retry_after_hint
from tests.conftest import require_module


def _assert_narrow_it(exc: BaseException) -> None:
    answer = classify_error(exc)
    assert answer.kind is Kind.STATEMENT_TIMEOUT
    assert (answer.action, answer.is_retryable) == (Action.FIX_QUERY, False)
    # The suggestion says plainly what happens if it is sent again, and what to do.
    assert "time out again" in answer.suggestion
    assert "Narrow" in answer.suggestion
    assert not is_retryable_exception(exc, idempotent=True)
    assert not retry_after_hint(answer).should_retry


@pytest.fixture
def pg_conn(pg_server: dict[str, object]) -> Iterator[Any]:
    psycopg = require_module("psycopg")
    conn = psycopg.connect(**pg_server, autocommit=True)
    yield conn
    conn.close()


@pytest.mark.postgresql
def test_postgresql_statement_timeout_is_narrowed_not_resent(pg_conn: Any) -> None:
    pg_conn.execute("SET statement_timeout = '1s'")
    calls: list[int] = []

    def sleepy() -> None:
        calls.append(1)
        pg_conn.execute("SELECT pg_sleep(3)")

    with pytest.raises(Exception) as caught:  # noqa: PT011 - psycopg's class is checked below
        retry_in_code(idempotent=True, max_delay_s=0.01)(sleepy)()
    assert type(caught.value).__name__ == "QueryCanceled"
    assert "statement timeout" in str(caught.value)
    _assert_narrow_it(caught.value)
    assert calls == [1]  # not sent again, even for a read
    first_line = report_for(caught.value).render().splitlines()[0]
    assert first_line.startswith("fix_query:")


@pytest.mark.postgresql
def test_postgresql_cancel_by_another_session_is_sent_again_once(
    pg_conn: Any, pg_server: dict[str, object]
) -> None:
    psycopg = require_module("psycopg")
    pid = pg_conn.info.backend_pid

    def cancel() -> None:
        with psycopg.connect(**pg_server, autocommit=True) as other:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                row = other.execute(
                    "SELECT state FROM pg_stat_activity WHERE pid = %s", (pid,)
                ).fetchone()
                if row and row[0] == "active":
                    other.execute("SELECT pg_cancel_backend(%s)", (pid,))
                    return
                time.sleep(0.02)

    canceller = threading.Thread(target=cancel)
    canceller.start()
    try:
        with pytest.raises(psycopg.errors.QueryCanceled) as caught:
            pg_conn.execute("SELECT pg_sleep(5)")
    finally:
        canceller.join(15)
    assert "user request" in str(caught.value)
    answer = classify_error(caught.value)
    # The same SQLSTATE (57014) as a statement timeout, another meaning.
    assert answer.kind is Kind.QUERY_CANCELED
    assert answer.action is Action.RETRY
    assert retry_after_hint(answer).max_attempts == 2


@pytest.mark.postgresql
def test_postgresql_lock_timeout_is_a_lock_wait_not_a_statement_timeout(
    pg_server: dict[str, object],
) -> None:
    psycopg = require_module("psycopg")
    table = f"lde_timeouts_{time.monotonic_ns()}"
    with psycopg.connect(**pg_server, autocommit=True) as admin:
        admin.execute(f"CREATE TABLE {table} (id int PRIMARY KEY)")
        admin.execute(f"INSERT INTO {table} VALUES (1)")
        try:
            with psycopg.connect(**pg_server) as holder, psycopg.connect(**pg_server) as waiter:
                holder.execute(f"SELECT * FROM {table} FOR UPDATE")
                waiter.execute("SET lock_timeout = '500ms'")
                with pytest.raises(psycopg.errors.LockNotAvailable) as caught:
                    waiter.execute(f"UPDATE {table} SET id = 2")
        finally:
            admin.execute(f"DROP TABLE IF EXISTS {table}")
    answer = classify_error(caught.value)
    assert (answer.kind, answer.action) == (Kind.LOCK_NOT_AVAILABLE, Action.RETRY)


@pytest.fixture
def maria_conn(mysql_server: dict[str, object]) -> Iterator[Any]:
    pymysql = require_module("pymysql")
    conn = pymysql.connect(**mysql_server)
    yield conn
    conn.close()


@pytest.mark.mysql
def test_mariadb_max_statement_time_is_narrowed_not_resent(maria_conn: Any) -> None:
    pymysql = require_module("pymysql")
    with pytest.raises(pymysql.err.OperationalError) as caught:
        maria_conn.cursor().execute("SET STATEMENT max_statement_time = 1 FOR SELECT SLEEP(3)")
    assert classify_error(caught.value).database_error_code == "1969"
    _assert_narrow_it(caught.value)


@pytest.mark.mysql
def test_mariadb_kill_query_is_a_cancel(maria_conn: Any, mysql_server: dict[str, object]) -> None:
    pymysql = require_module("pymysql")
    cursor = maria_conn.cursor()
    cursor.execute("SELECT CONNECTION_ID()")
    (connection_id,) = cursor.fetchone()

    def kill() -> None:
        time.sleep(0.5)
        other = pymysql.connect(**mysql_server)
        try:
            other.cursor().execute(f"KILL QUERY {int(connection_id)}")
        finally:
            other.close()

    killer = threading.Thread(target=kill)
    killer.start()
    try:
        with pytest.raises(pymysql.err.OperationalError) as caught:
            cursor.execute("SELECT SLEEP(5)")
    finally:
        killer.join(10)
    answer = classify_error(caught.value)
    assert (answer.database_error_code, answer.kind) == ("1317", Kind.QUERY_CANCELED)
    assert answer.action is Action.RETRY


# The vendors' texts, as their drivers report them.
@pytest.mark.parametrize(
    ("text", "db_type", "code", "kind", "action"),
    [
        # MySQL's max_execution_time (SELECT only).
        (
            "Query execution was interrupted, maximum statement execution time exceeded",
            "mysql",
            3024,
            Kind.STATEMENT_TIMEOUT,
            Action.FIX_QUERY,
        ),
        # SQL Server: the client's own query timeout (ODBC, SqlClient).
        ("[HYT00] [Microsoft][ODBC Driver 18 for SQL Server]Query timeout expired (0) "
         "(SQLExecDirectW)", "mssql", None, Kind.STATEMENT_TIMEOUT, Action.FIX_QUERY),
        ("Execution Timeout Expired.  The timeout period elapsed prior to completion of the "
         "operation or the server is not responding.", "mssql", -2, Kind.STATEMENT_TIMEOUT,
         Action.FIX_QUERY),
        # A wait for the optimizer's memory: the server says to run it again.
        ("A time out occurred while waiting to optimize the query. Rerun the query.", "mssql",
         8628, Kind.STATEMENT_TIMEOUT, Action.RETRY),
        # A lock wait is its own kind, with its own limit (SET LOCK_TIMEOUT).
        ("Lock request time out period exceeded.", "mssql", 1222, Kind.LOCK_NOT_AVAILABLE,
         Action.RETRY),
        # Oracle: a cancel (Connection.cancel(), ALTER SYSTEM CANCEL SQL) ...
        ("ORA-01013: user requested cancel of current operation", "oracle", None,
         Kind.QUERY_CANCELED, Action.RETRY),
        # ... and python-oracledb's own call timeout, a limit the client set.
        ("DPY-4024: call timeout of 1000 ms exceeded", "oracle", None, Kind.STATEMENT_TIMEOUT,
         Action.FIX_QUERY),
        ("ORA-30006: resource busy; acquire with WAIT timeout expired", "oracle", None,
         Kind.LOCK_NOT_AVAILABLE, Action.RETRY),
    ],
)  # fmt: skip
def test_every_backends_timeout_lands_on_its_kind(
    text: str, db_type: str, code: int | None, kind: Kind, action: Action
) -> None:
    answer = classify_message(text, db_type, code=code)
    assert (answer.kind, answer.action) == (kind, action)
