"""
The server's diagnostics, as each driver exposes them, name what a violation involves.

Each violation is raised on the real server through every PostgreSQL driver
installed (psycopg 3, psycopg2, asyncpg, pg8000), and the answer's table,
column, constraint and domain are compared with the fields the driver itself
reports (psycopg's `diag.table_name` ..., asyncpg's `table_name` ...,
pg8000's protocol fields): the expected values come from the server, not
from the code under test.  The unique violation's message names no table and
the domain's no type: only the diagnostics do.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Callable, Generator, Iterator
from typing import Any

import pytest

from localdata_errors import classify_error
from localdata_errors._kinds import Kind
from tests.conftest import require_module

SETUP = (
    "CREATE SCHEMA {s}",
    "CREATE DOMAIN {s}.positive_int AS int CHECK (VALUE > 0)",
    "CREATE TABLE {s}.customers (id int PRIMARY KEY, email text UNIQUE NOT NULL,"
    " age int CHECK (age >= 0))",
    "CREATE TABLE {s}.sales (id int, customer_id int REFERENCES {s}.customers (id),"
    " quantity {s}.positive_int)",
    "INSERT INTO {s}.customers VALUES (1, 'a@example.com', 30)",
)

#: The violation, its statement, and which of the driver's fields it carries.
CASES: dict[str, tuple[Kind, str, tuple[str, ...]]] = {
    "not_null": (
        Kind.NOT_NULL_VIOLATION,
        "INSERT INTO {s}.customers (id, email) VALUES (2, NULL)",
        ("table", "column", "schema"),
    ),
    "unique": (
        Kind.UNIQUE_VIOLATION,
        "INSERT INTO {s}.customers VALUES (2, 'a@example.com', 1)",
        ("table", "constraint", "schema"),
    ),
    "foreign_key": (
        Kind.FOREIGN_KEY_VIOLATION,
        "INSERT INTO {s}.sales VALUES (1, 99, 1)",
        ("table", "constraint", "schema"),
    ),
    "check": (
        Kind.CHECK_VIOLATION,
        "INSERT INTO {s}.customers VALUES (3, 'b@example.com', -1)",
        ("table", "constraint", "schema"),
    ),
    "domain_check": (
        Kind.CHECK_VIOLATION,
        "INSERT INTO {s}.sales VALUES (2, 1, -5)",
        ("constraint", "schema", "datatype"),
    ),
}


def _psycopg_fields(exc: Any) -> dict[str, str | None]:
    diag = exc.diag
    return {
        "table": diag.table_name,
        "column": diag.column_name,
        "constraint": diag.constraint_name,
        "schema": diag.schema_name,
        "datatype": diag.datatype_name,
    }


def _asyncpg_fields(exc: Any) -> dict[str, str | None]:
    return {
        "table": exc.table_name,
        "column": exc.column_name,
        "constraint": exc.constraint_name,
        "schema": exc.schema_name,
        "datatype": exc.data_type_name,
    }


def _pg8000_fields(exc: Any) -> dict[str, str | None]:
    fields = exc.args[0]
    return {
        "table": fields.get("t"),
        "column": fields.get("c"),
        "constraint": fields.get("n"),
        "schema": fields.get("s"),
        "datatype": fields.get("d"),
    }


Run = Callable[[str], BaseException]


def _psycopg(pg: dict[str, object], setup: list[str], teardown: str) -> Generator[Run, None, None]:
    psycopg = require_module("psycopg")
    conn = psycopg.connect(
        host=pg["host"], port=pg["port"], user=pg["user"], dbname=pg["dbname"], autocommit=True
    )

    def run(sql: str) -> BaseException:
        with pytest.raises(psycopg.Error) as caught:
            conn.execute(sql)
        raised: BaseException = caught.value
        return raised

    try:
        for sql in setup:
            conn.execute(sql)
        yield run
        conn.execute(teardown)
    finally:
        conn.close()


def _psycopg2(pg: dict[str, object], setup: list[str], teardown: str) -> Generator[Run, None, None]:
    psycopg2 = require_module("psycopg2")
    conn = psycopg2.connect(host=pg["host"], port=pg["port"], user=pg["user"], dbname=pg["dbname"])
    conn.autocommit = True

    def run(sql: str) -> BaseException:
        with conn.cursor() as cursor, pytest.raises(psycopg2.Error) as caught:
            cursor.execute(sql)
        raised: BaseException = caught.value
        return raised

    try:
        with conn.cursor() as cursor:
            for sql in setup:
                cursor.execute(sql)
        yield run
        with conn.cursor() as cursor:
            cursor.execute(teardown)
    finally:
        conn.close()


def _asyncpg(pg: dict[str, object], setup: list[str], teardown: str) -> Generator[Run, None, None]:
    asyncpg = require_module("asyncpg")
    loop = asyncio.new_event_loop()
    conn = loop.run_until_complete(
        asyncpg.connect(host=pg["host"], port=pg["port"], user=pg["user"], database=pg["dbname"])
    )

    def run(sql: str) -> BaseException:
        with pytest.raises(asyncpg.PostgresError) as caught:
            loop.run_until_complete(conn.execute(sql))
        raised: BaseException = caught.value
        return raised

    try:
        for sql in setup:
            loop.run_until_complete(conn.execute(sql))
        yield run
        loop.run_until_complete(conn.execute(teardown))
    finally:
        loop.run_until_complete(conn.close())
        loop.close()


def _pg8000(pg: dict[str, object], setup: list[str], teardown: str) -> Generator[Run, None, None]:
    dbapi = require_module("pg8000.dbapi")
    conn = dbapi.connect(user=pg["user"], host=pg["host"], port=pg["port"], database=pg["dbname"])
    conn.autocommit = True

    def run(sql: str) -> BaseException:
        cursor = conn.cursor()
        with pytest.raises(dbapi.DatabaseError) as caught:
            cursor.execute(sql)
        raised: BaseException = caught.value
        return raised

    try:
        cursor = conn.cursor()
        for sql in setup:
            cursor.execute(sql)
        yield run
        conn.cursor().execute(teardown)
    finally:
        conn.close()


DRIVERS: dict[
    str, tuple[Callable[..., Generator[Run, None, None]], Callable[[Any], dict[str, str | None]]]
] = {
    "psycopg": (_psycopg, _psycopg_fields),
    "psycopg2": (_psycopg2, _psycopg_fields),
    "asyncpg": (_asyncpg, _asyncpg_fields),
    "pg8000": (_pg8000, _pg8000_fields),
}


@pytest.fixture(params=sorted(DRIVERS))
def driver(request: pytest.FixtureRequest, pg_server: dict[str, object]) -> Iterator[Any]:
    name = request.param
    schema = f"lde_diag_{uuid.uuid4().hex[:8]}"
    connect, fields = DRIVERS[name]
    setup = [sql.format(s=schema) for sql in SETUP]
    with contextlib.closing(connect(pg_server, setup, f"DROP SCHEMA {schema} CASCADE")) as runs:
        yield next(runs), fields, schema
        next(runs, None)  # drops the schema, then closes the connection


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_answer_names_what_the_drivers_diagnostics_name(driver: Any, case: str) -> None:
    run, fields_of, schema = driver
    kind, sql, carried = CASES[case]
    exc = run(sql.format(s=schema))
    fields = fields_of(exc)
    assert all(fields[name] for name in carried), fields
    answer = classify_error(exc)
    assert answer.kind is kind
    assert answer.schema == fields["schema"] == schema
    if fields["table"]:
        assert fields["table"] in answer.affected_resources
    if fields["column"]:
        assert fields["column"] in answer.affected_resources
    if fields["constraint"]:
        assert answer.constraint == fields["constraint"]
        assert fields["constraint"] in answer.affected_resources
    if fields["datatype"]:
        assert fields["datatype"] in answer.affected_resources
