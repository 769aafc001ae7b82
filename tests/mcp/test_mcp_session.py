"""
Every call ends in a clean session, and the timeout is the engine's, set inside each call.

What one call leaves in its session (an advisory lock, a setting changed with
``set_config(..., false)``, a temporary table, a prepared statement, a MySQL
user variable or ``GET_LOCK`` lock) is gone before the next call runs, on
the server's pooled connection: checked through the real MCP client, and
from outside the server (``pg_locks``, ``IS_FREE_LOCK``).  A statement that
switches the engine's timeout off does so for its own call only, and even
there the server's backstop stops it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from localdata_errors.mcp._sql import Database
from tests.conftest import require_module
from tests.mcp._harness import Backend, StdioServer

pytestmark = pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)


@pytest.fixture
def writer(shop: Backend) -> Iterator[StdioServer]:
    """A read-write server allowing several statements per call, with a one-second timeout."""
    server = StdioServer(shop.url, "--allow-multi-statement", "--timeout", "1")
    try:
        yield server
    finally:
        server.close()


def _data(server: StdioServer, sql: str) -> list[dict[str, Any]]:
    out = server.ok("execute_sql", {"sql": sql})
    return list(out["results"][-1]["data"] if "results" in out else out["data"])


def _held_advisory_locks(shop: Backend, key: int) -> int:
    return int(
        shop.scalar(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
            f"AND objid = {key % 2**32} AND granted"
        )
    )


def test_nothing_a_call_leaves_in_its_session_reaches_the_next(
    writer: StdioServer, shop: Backend
) -> None:
    key = secrets.randbelow(2**31)
    name = f"lde_tmp_{secrets.token_hex(3)}"
    if shop.name == "postgresql":
        writer.ok(
            "execute_sql",
            {
                "sql": f"SELECT pg_advisory_lock({key}); "
                "SELECT set_config('search_path', 'pg_catalog', false); "
                f"CREATE TEMP TABLE {name} (a integer); PREPARE lde_p AS SELECT 1; "
                "LISTEN lde_channel"
            },
        )
        assert _held_advisory_locks(shop, key) == 0
        assert _data(writer, "SHOW search_path")[0]["search_path"] != "pg_catalog"
        assert writer.fail("execute_sql", {"sql": f"SELECT * FROM {name}"})["error_code"] == (
            "UNDEFINED_TABLE"
        )
        assert writer.fail("execute_sql", {"sql": "EXECUTE lde_p"})["error_code"] != "SUCCESS"
        assert _data(writer, "SELECT count(*) AS n FROM pg_listening_channels()") == [{"n": 0}]
    else:
        lock = f"lde_{key}"
        writer.ok(
            "execute_sql",
            {
                "sql": f"SELECT @lde_v := {key} AS v; SELECT GET_LOCK('{lock}', 0) AS got; "
                f"CREATE TEMPORARY TABLE {name} (a INTEGER); SET SESSION sql_mode = 'ANSI_QUOTES'"
            },
        )
        assert shop.scalar(f"SELECT IS_FREE_LOCK('{lock}')") == 1
        assert _data(writer, "SELECT @lde_v AS v") == [{"v": None}]
        assert "ANSI_QUOTES" not in _data(writer, "SELECT @@SESSION.sql_mode AS m")[0]["m"]
        assert writer.fail("execute_sql", {"sql": f"SELECT * FROM {name}"})["error_code"] == (
            "UNDEFINED_TABLE"
        )


SWITCH_OFF = {
    "postgresql": "SELECT set_config('statement_timeout', '0', false)",
    "mysql": "SET SESSION max_statement_time = 0",
}
SLEEP = {"postgresql": "SELECT pg_sleep(20)", "mysql": "SELECT SLEEP(20)"}


def _still_sleeping(shop: Backend) -> int:
    if shop.name == "postgresql":
        sql = (
            "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(20)' "
            "AND state = 'active'"
        )
    else:
        sql = (
            "SELECT count(*) FROM information_schema.processlist "
            "WHERE info = 'SELECT SLEEP(20)' AND command = 'Query'"
        )
    return int(shop.scalar(sql))


def test_a_statement_cannot_switch_the_timeout_off_for_a_later_call(
    writer: StdioServer, shop: Backend
) -> None:
    writer.ok("execute_sql", {"sql": SWITCH_OFF[shop.name]})
    started = time.monotonic()
    payload = writer.fail("execute_sql", {"sql": SLEEP[shop.name]})
    assert payload["error_code"] == "STATEMENT_TIMEOUT", payload
    # Stopped by the engine, not waited out (20 s).
    assert time.monotonic() - started < 15
    assert _still_sleeping(shop) == 0


def test_the_backstop_stops_a_statement_whose_call_switched_the_timeout_off(
    writer: StdioServer, shop: Backend
) -> None:
    started = time.monotonic()
    payload = writer.fail("execute_sql", {"sql": f"{SWITCH_OFF[shop.name]}; {SLEEP[shop.name]}"})
    assert payload["error_code"] == "STATEMENT_TIMEOUT", payload
    assert time.monotonic() - started < 15
    assert _still_sleeping(shop) == 0
    # The server goes on serving, the next call with its timeout again.
    assert writer.fail("execute_sql", {"sql": SLEEP[shop.name]})["error_code"] == (
        "STATEMENT_TIMEOUT"
    )


MYSQL_DRIVERS = [
    ("pymysql", "pymysql"),
    ("mysqldb", "MySQLdb"),
    ("mysqlconnector", "mysql.connector"),
    ("mariadbconnector", "mariadb"),
]


def test_every_driver_ends_its_calls_in_a_clean_session(shop: Backend) -> None:
    """With a reset where the driver sends one, a new connection where it cannot."""
    drivers = MYSQL_DRIVERS if shop.name == "mysql" else [("psycopg", "psycopg")]
    for driver, module in drivers:
        require_module(module)
        url = sa.make_url(shop.url).set(drivername=f"{shop.name}+{driver}")
        for read_only in (False, True):
            db = Database(url.render_as_string(hide_password=False), read_only=read_only)
            try:
                setting = (
                    "SELECT set_config('application_name', 'lde_leak', false)"
                    if shop.name == "postgresql"
                    else "SELECT @lde_leak := 1"
                )
                reading = (
                    "SELECT current_setting('application_name')"
                    if shop.name == "postgresql"
                    else "SELECT @lde_leak"
                )
                with db.transaction(write=False) as conn:
                    conn.exec_driver_sql(setting)
                for _ in range(3):
                    with db.transaction(write=False) as conn:
                        assert conn.exec_driver_sql(reading).scalar() in (None, ""), driver
            finally:
                db.dispose()
