"""
A closed cursor or connection used again, for real, through every driver.

Each driver refuses on its own words, before anything is sent: the answer is
a lost connection (reconnect), and safe to retry, since the call never left
the client.  Two drivers give the C client's numbers for a closed connection
(mysqlclient's 2006, mysql-connector's 2055), which a connection the server
dropped gives too: those stay `idempotent_only`, the cautious reading.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from localdata_errors import classify_error
from localdata_errors._kinds import Action, Kind, RetrySafety
from tests.conftest import require_module

Opener = Callable[[dict[str, object], dict[str, object]], Any]


def _sqlite(pg: dict[str, object], my: dict[str, object]) -> Any:
    return sqlite3.connect(":memory:")


def _duckdb(pg: dict[str, object], my: dict[str, object]) -> Any:
    return require_module("duckdb").connect()


def _psycopg(pg: dict[str, object], my: dict[str, object]) -> Any:
    return require_module("psycopg").connect(**pg)


def _psycopg2(pg: dict[str, object], my: dict[str, object]) -> Any:
    return require_module("psycopg2").connect(**pg)


def _pg8000(pg: dict[str, object], my: dict[str, object]) -> Any:
    return require_module("pg8000.dbapi").connect(
        host=pg["host"], port=pg["port"], user=pg["user"], database=pg["dbname"]
    )


def _pymysql(pg: dict[str, object], my: dict[str, object]) -> Any:
    return require_module("pymysql").connect(**my)


def _mysqldb(pg: dict[str, object], my: dict[str, object]) -> Any:
    return require_module("MySQLdb").connect(
        host=my["host"], port=my["port"], user=my["user"], passwd=my["password"],
        db=my["database"],
    )  # fmt: skip


def _mariadb(pg: dict[str, object], my: dict[str, object]) -> Any:
    return require_module("mariadb").connect(**my)


def _mysql_connector(pg: dict[str, object], my: dict[str, object]) -> Any:
    return require_module("mysql.connector").connect(**my)


# (driver, opener, what is closed, the retry safety the driver's refusal allows)
CASES: list[tuple[str, Opener, str, RetrySafety]] = [
    (name, opener, closed, safety)
    for name, opener, on_connection in [
        ("sqlite3", _sqlite, RetrySafety.SAFE),
        ("duckdb", _duckdb, RetrySafety.SAFE),
        ("psycopg", _psycopg, RetrySafety.SAFE),
        ("psycopg2", _psycopg2, RetrySafety.SAFE),
        ("pg8000", _pg8000, RetrySafety.SAFE),
        ("pymysql", _pymysql, RetrySafety.SAFE),
        ("MySQLdb", _mysqldb, RetrySafety.IDEMPOTENT_ONLY),
        ("mariadb", _mariadb, RetrySafety.SAFE),
        ("mysql.connector", _mysql_connector, RetrySafety.IDEMPOTENT_ONLY),
    ]
    for closed, safety in (("cursor", RetrySafety.SAFE), ("connection", on_connection))
]


@pytest.mark.postgresql
@pytest.mark.mysql
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_a_closed_handle_used_again(
    case: tuple[str, Opener, str, RetrySafety],
    pg_server: dict[str, object],
    mysql_server: dict[str, object],
) -> None:
    _, opener, closed, safety = case
    conn = opener(pg_server, mysql_server)
    try:
        cursor = conn.cursor()
        (cursor if closed == "cursor" else conn).close()
        with pytest.raises(Exception) as caught:  # noqa: PT011 - each driver's own class
            cursor.execute("SELECT 1")
    finally:
        with contextlib.suppress(Exception):  # closing what may be closed already
            conn.close()
    answer = classify_error(caught.value)
    got = (answer.kind, answer.action, answer.retry_safety)
    assert got == (Kind.CONNECTION_LOST, Action.RECONNECT, safety), repr(caught.value)
    assert answer.is_retryable is True
