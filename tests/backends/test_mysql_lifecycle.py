"""
MySQL/MariaDB connections that end: real ones through the drivers, and the
numbers both servers use for different errors, told apart by their text.
"""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import classify_error, classify_message
from localdata_errors._kinds import Action, ErrorCategory, RetrySafety
from tests.conftest import require_module

ERRMSG = Path("/usr/share/mysql/errmsg-utf8.txt")

# MySQL 8's text for 4031 (ER_CLIENT_INTERACTION_TIMEOUT), as the MySQL
# server error reference prints it.
MYSQL_4031 = (
    "The client was disconnected by the server because of inactivity. "
    "See wait_timeout and interactive_timeout for configuring this behavior."
)


def _mariadb_english(symbol: str) -> str | None:
    """MariaDB's English text of a symbol, read from its message file."""
    if not ERRMSG.exists():
        return None
    lines = ERRMSG.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.split()[:1] == [symbol]), None)
    if start is None:
        return None
    for line in lines[start + 1 :]:
        found = re.match(r'\s+eng "(.*)"', line)
        if found:
            return found.group(1)
    return None


def test_4031_from_mysql_is_a_dropped_idle_connection() -> None:
    answer = classify_message(MYSQL_4031, "mysql", code=4031)
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR
    assert answer.action is Action.RECONNECT
    assert answer.database_error_code == "4031"


@pytest.mark.skipif(not ERRMSG.exists(), reason="MariaDB's errmsg-utf8.txt is not installed")
def test_4031_from_mariadb_is_a_missing_trigger() -> None:
    text = _mariadb_english("ER_REFERENCED_TRG_DOES_NOT_EXIST")
    assert text is not None
    answer = classify_message(text.replace("%s", "trg_audit"), "mysql", code=4031)
    assert answer.error_type is ErrorCategory.SCHEMA_ERROR
    assert answer.action is Action.FIX_QUERY


def _connect(driver: str, server: dict[str, object]) -> Any:
    module = require_module(driver)
    if driver == "MySQLdb":
        return module.connect(
            host=server["host"], port=server["port"], user=server["user"],
            passwd=server["password"], db=server["database"],
        )  # fmt: skip
    return module.connect(**server)


DRIVERS = ["pymysql", "mysql.connector", "MySQLdb", "mariadb"]


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_query_on_a_closed_connection(driver: str, mysql_server: dict[str, object]) -> None:
    conn = _connect(driver, mysql_server)
    cursor = conn.cursor()
    conn.close()
    with pytest.raises(Exception) as caught:  # noqa: PT011 - each driver's own class
        cursor.execute("SELECT 1")
    answer = classify_error(caught.value)
    assert answer.database == "mysql", repr(caught.value)
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR, repr(caught.value)
    assert answer.action is Action.RECONNECT


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_killed_session(driver: str, mysql_server: dict[str, object]) -> None:
    victim = _connect(driver, mysql_server)
    admin = _connect(driver, mysql_server)
    try:
        cursor = victim.cursor()
        cursor.execute("SELECT CONNECTION_ID()")
        thread = cursor.fetchone()[0]
        admin.cursor().execute(f"KILL {int(thread)}")
        with pytest.raises(Exception) as caught:  # noqa: PT011 - each driver's own class
            cursor.execute("SELECT 1")
        answer = classify_error(caught.value)
        assert answer.error_type is ErrorCategory.CONNECTION_ERROR, repr(caught.value)
        assert answer.action is Action.RECONNECT
        assert answer.retry_safety is RetrySafety.IDEMPOTENT_ONLY
    finally:
        admin.close()
        with contextlib.suppress(Exception):  # closing what the server already dropped
            victim.close()


@pytest.mark.parametrize("driver", ["pymysql", "mysql.connector", "MySQLdb", "mariadb"])
def test_a_session_past_wait_timeout(driver: str, mysql_server: dict[str, object]) -> None:
    conn = _connect(driver, mysql_server)
    cursor = conn.cursor()
    cursor.execute("SELECT CONNECTION_ID()")
    thread = int(cursor.fetchone()[0])
    cursor.execute("SET SESSION wait_timeout = 1")
    # The server ends the session a second on: wait until it is gone from the
    # server's list (not a fixed sleep long enough for a loaded machine).
    watcher = _connect("pymysql", mysql_server)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            watch = watcher.cursor()
            watch.execute(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = %s", (thread,)
            )
            if watch.fetchone()[0] == 0:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the server kept an idle session past its wait_timeout")
    finally:
        watcher.close()
    with pytest.raises(Exception) as caught:  # noqa: PT011 - each driver's own class
        cursor.execute("SELECT 1")
    answer = classify_error(caught.value)
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR, repr(caught.value)
    assert answer.action is Action.RECONNECT
    with contextlib.suppress(Exception):  # closing what the server already dropped
        conn.close()


def _with_read_timeout(driver: str, server: dict[str, object], seconds: int) -> Any:
    module = require_module(driver)
    if driver == "MySQLdb":
        return module.connect(
            host=server["host"], port=server["port"], user=server["user"],
            passwd=server["password"], db=server["database"], read_timeout=seconds,
        )  # fmt: skip
    return module.connect(**server, read_timeout=seconds)


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_client_read_timeout_mid_statement(driver: str, mysql_server: dict[str, object]) -> None:
    # The driver gives up waiting for the answer and closes its connection; the
    # statement went out and may have run: reconnect, and resend only what is
    # idempotent.  (mysql-connector reports it under the server's 3024, the
    # number of a statement the server stopped itself, with its own words.)
    conn = _with_read_timeout(driver, mysql_server, 1)
    try:
        cursor = conn.cursor()
        with pytest.raises(Exception) as caught:  # noqa: PT011 - each driver's own class
            cursor.execute("SELECT SLEEP(5)")
        answer = classify_error(caught.value)
        assert answer.error_type is ErrorCategory.CONNECTION_ERROR, repr(caught.value)
        assert answer.action is Action.RECONNECT, repr(caught.value)
        assert answer.retry_safety is RetrySafety.IDEMPOTENT_ONLY, repr(caught.value)
    finally:
        with contextlib.suppress(Exception):  # closing what the driver already closed
            conn.close()


def test_the_servers_own_statement_timeout_keeps_its_number() -> None:
    # MySQL's 3024 from the server (max_execution_time): the server stopped the
    # statement and the session goes on.
    answer = classify_message(
        "Query execution was interrupted, maximum statement execution time exceeded",
        "mysql",
        code=3024,
    )
    assert (answer.kind.value, answer.database_error_code) == ("statement_timeout", "3024")


@pytest.mark.parametrize(
    ("dialect", "driver"),
    [
        ("mysql+pymysql", "pymysql"),
        ("mysql+mysqlconnector", "mysql.connector"),
        ("mysql+mysqldb", "MySQLdb"),
    ],
)
def test_a_client_read_timeout_through_sqlalchemy(
    dialect: str, driver: str, mysql_server: dict[str, object]
) -> None:
    sqlalchemy = require_module("sqlalchemy")
    require_module(driver)
    url = sqlalchemy.engine.URL.create(
        dialect,
        username=str(mysql_server["user"]),
        password=str(mysql_server["password"]) or None,
        host=str(mysql_server["host"]),
        port=int(str(mysql_server["port"])),
        database=str(mysql_server["database"]),
    )
    engine = sqlalchemy.create_engine(
        url, connect_args={"read_timeout": 1}, poolclass=sqlalchemy.pool.NullPool
    )
    conn = engine.connect()
    try:
        with pytest.raises(sqlalchemy.exc.DBAPIError) as caught:
            conn.execute(sqlalchemy.text("SELECT SLEEP(5)"))
    finally:
        # mysql-connector says it closed the connection but keeps the socket: the
        # rollback on close waits for the same answer and times out again.
        with contextlib.suppress(Exception):
            conn.close()
        engine.dispose()
    answer = classify_error(caught.value)
    assert answer.database == "mysql", repr(caught.value)
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR, repr(caught.value)
    assert (answer.action, answer.retry_safety) == (Action.RECONNECT, RetrySafety.IDEMPOTENT_ONLY)
