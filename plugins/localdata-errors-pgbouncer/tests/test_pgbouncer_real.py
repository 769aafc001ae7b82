"""
Real errors from a real PgBouncer (Debian's package) in front of the local PostgreSQL.

Every exception here is raised by psycopg, psycopg2 or asyncpg talking to a
PgBouncer this test started; the expected answers follow from what PgBouncer
documents for each situation (a pooled prepared statement cannot outlive its
transaction; ``max_client_conn`` refuses the login; ``query_wait_timeout``
gives up before the query reaches the server and closes the connection).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, Protocol

import pytest

from localdata_errors import Kind, StructuredErrorResponse, classify_error

psycopg = pytest.importorskip("psycopg")
psycopg2 = pytest.importorskip("psycopg2")
asyncpg = pytest.importorskip("asyncpg")

Start = Callable[..., Any]


class Relay(Protocol):
    """The `relay` fixture: a TCP relay to PostgreSQL that can cut its connections."""

    port: int

    def cut(self) -> None: ...


def _raised(call: Callable[[], object]) -> BaseException:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the error under test, whatever its class
        return exc
    raise AssertionError("no error was raised")


def _async_raised(coro: Any) -> BaseException:
    try:
        asyncio.run(coro)
    except Exception as exc:  # noqa: BLE001 - the error under test, whatever its class
        return exc
    raise AssertionError("no error was raised")


def _stop(answer: StructuredErrorResponse) -> None:
    assert answer.action == "stop"
    assert answer.retry_safety == "not_applicable"
    assert answer.is_retryable is False


# -- prepared statements under transaction pooling ----------------------------------------


def test_psycopg_prepared_statement_already_exists(pgbouncer: Start) -> None:
    bouncer = pgbouncer(default_pool_size=1)
    first = psycopg.connect(bouncer.dsn(), prepare_threshold=0, autocommit=True)
    second = psycopg.connect(bouncer.dsn(), prepare_threshold=0, autocommit=True)
    try:
        first.execute("SELECT %s::int", (1,))
        # The one server connection already holds psycopg's "_pg3_0".
        exc = _raised(lambda: second.execute("SELECT %s::int", (2,)))
    finally:
        first.close()
        second.close()
    assert isinstance(exc, psycopg.errors.DuplicatePreparedStatement)
    answer = classify_error(exc)  # detected, no db_type
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.CONNECTION_MISCONFIGURED)
    assert answer.database_error_code == "42P05"
    _stop(answer)
    assert "prepare_threshold=None" in answer.suggestion


def test_psycopg_prepared_statement_does_not_exist(pgbouncer: Start) -> None:
    bouncer = pgbouncer(default_pool_size=2)
    holder = psycopg.connect(bouncer.dsn())
    client = psycopg.connect(bouncer.dsn(), prepare_threshold=0, autocommit=True)
    try:
        holder.execute("SELECT 1")  # a transaction holds one server connection
        client.execute("SELECT %s::int", (1,))  # prepared on the other one
        holder.commit()  # the first is released last: PgBouncer hands it out next
        exc = _raised(lambda: client.execute("SELECT %s::int", (2,)))
    finally:
        holder.close()
        client.close()
    assert isinstance(exc, psycopg.errors.InvalidSqlStatementName)
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        "pgbouncer",
        Kind.CONNECTION_MISCONFIGURED,
        "26000",
    )
    _stop(answer)


def _asyncpg_connect(port: int, **options: object) -> Any:
    return asyncpg.connect(host="127.0.0.1", port=port, user="postgres", database="test", **options)


def test_asyncpg_prepared_statement_does_not_exist(pgbouncer: Start) -> None:
    bouncer = pgbouncer(default_pool_size=2)

    async def scenario() -> None:
        holder = await _asyncpg_connect(bouncer.port, statement_cache_size=0)
        client = await _asyncpg_connect(bouncer.port)  # the default statement cache
        try:
            transaction = holder.transaction()
            await transaction.start()
            await holder.execute("SELECT 1")
            await client.fetchval("SELECT $1::int", 1)
            await transaction.commit()
            await client.fetchval("SELECT $1::int", 2)
        finally:
            await holder.close()
            await client.close()

    exc = _async_raised(scenario())
    assert isinstance(exc, asyncpg.exceptions.InvalidSQLStatementNameError)
    assert "statement_cache_size" in str(exc)  # asyncpg's own note about poolers
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        "pgbouncer",
        Kind.CONNECTION_MISCONFIGURED,
        "26000",
    )
    _stop(answer)
    assert "statement_cache_size=0" in answer.suggestion


_OTHER_WORKER = """
import asyncio, sys
import asyncpg, asyncpg.connection

async def main(port, counter):
    conn = await asyncpg.connect(host="127.0.0.1", port=port, user="postgres", database="test")
    # Another worker process whose statement counter stands where the test's does.
    asyncpg.connection._uid = counter
    await conn.fetchval("SELECT $1::int", 1)
    await conn.close()

asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
"""


def test_asyncpg_prepared_statement_already_exists(pgbouncer: Start) -> None:
    # asyncpg numbers its statements per process: two worker processes behind
    # one PgBouncer prepare the same name on the same server connection.
    bouncer = pgbouncer(default_pool_size=1)
    import asyncpg.connection

    counter = asyncpg.connection._uid
    subprocess.run(
        [sys.executable, "-c", _OTHER_WORKER, str(bouncer.port), str(counter)],
        check=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )

    async def scenario() -> None:
        conn = await _asyncpg_connect(bouncer.port)
        try:
            await conn.fetchval("SELECT $1::int", 1)
        finally:
            await conn.close()

    exc = _async_raised(scenario())
    assert isinstance(exc, asyncpg.exceptions.DuplicatePreparedStatementError)
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        "pgbouncer",
        Kind.CONNECTION_MISCONFIGURED,
        "42P05",
    )
    _stop(answer)


def test_a_statement_the_user_named_stays_postgresqls() -> None:
    # Without a pooler, a PREPARE that names an existing statement is the
    # query's fault: detection leaves PostgreSQL's answer alone.
    host = os.environ.get("LOCALDATA_ERRORS_PG_HOST", "127.0.0.1")
    port = os.environ.get("LOCALDATA_ERRORS_PG_PORT", "5432")
    try:
        conn = psycopg.connect(
            f"host={host} port={port} user=postgres dbname=test", autocommit=True
        )
    except psycopg.OperationalError as exc:
        if os.environ.get("CI", "").lower() == "true":
            raise
        pytest.skip(f"no PostgreSQL server: {exc}")
    name = f"mine_{uuid.uuid4().hex[:8]}"
    try:
        conn.execute(f"PREPARE {name} AS SELECT 1")
        exc = _raised(lambda: conn.execute(f"PREPARE {name} AS SELECT 1"))
    finally:
        conn.close()
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.action) == (
        "postgresql",
        Kind.DUPLICATE_OBJECT,
        "fix_query",
    )
    # Named, the caller says a pooler is in front: the conflict is its configuration.
    named = classify_error(exc, db_type="pgbouncer")
    assert (named.backend, named.kind) == ("pgbouncer", Kind.CONNECTION_MISCONFIGURED)


# -- the pooler's own limits and timeouts -------------------------------------------------


def test_max_client_conn(pgbouncer: Start) -> None:
    bouncer = pgbouncer(max_client_conn=2)
    held = [psycopg.connect(bouncer.dsn(), autocommit=True) for _ in range(2)]
    try:
        errors = [
            _raised(lambda: psycopg.connect(bouncer.dsn())),
            _raised(lambda: psycopg2.connect(bouncer.dsn())),
            _async_raised(_asyncpg_connect(bouncer.port)),
        ]
    finally:
        for conn in held:
            conn.close()
    for exc in errors:
        assert "max_client_conn" in str(exc)
        answer = classify_error(exc)
        assert (answer.backend, answer.kind) == ("pgbouncer", Kind.TOO_MANY_CONNECTIONS), exc
        assert (answer.action, answer.retry_safety) == ("retry", "safe")
        assert answer.retry_after_ms is not None
        assert answer.retry_after_ms > 0


def test_query_wait_timeout(pgbouncer: Start) -> None:
    bouncer = pgbouncer(default_pool_size=1, query_wait_timeout=1)
    holder = psycopg.connect(bouncer.dsn())
    waiting = psycopg.connect(bouncer.dsn(), autocommit=True)
    try:
        holder.execute("SELECT 1")  # holds the only server connection
        exc = _raised(lambda: waiting.execute("SELECT 2"))
    finally:
        holder.close()
        waiting.close()
    assert isinstance(exc, psycopg.errors.ProtocolViolation)
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        "pgbouncer",
        Kind.CONNECTION_FAILURE,
        "08P01",
    )
    # The query waited in PgBouncer's queue and never reached PostgreSQL.
    assert (answer.action, answer.retry_safety) == ("reconnect", "safe")


def test_client_idle_timeout(pgbouncer: Start) -> None:
    bouncer = pgbouncer(client_idle_timeout=1)
    conn = psycopg.connect(bouncer.dsn(), autocommit=True)
    try:
        conn.execute("SELECT 1")
        time.sleep(2.5)
        exc = _raised(lambda: conn.execute("SELECT 1"))
    finally:
        conn.close()
    answer = classify_error(exc)
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.CONNECTION_LOST)
    assert (answer.action, answer.retry_safety) == ("reconnect", "safe")


# PgBouncer closes the server connection and tells the client linked to it why
# (disconnect_server -> unlink_server): the reason is the client's message.


def test_server_connection_lost_mid_query(pgbouncer: Start, relay: Relay) -> None:
    # The server connection ends under a running query ("server conn
    # crashed?"): PgBouncer closes the client too; the query may have run.
    bouncer = pgbouncer(server_port=relay.port)
    conn = psycopg.connect(bouncer.dsn(), autocommit=True)
    cutter = threading.Timer(1.0, relay.cut)
    cutter.start()
    try:
        exc = _raised(lambda: conn.execute("SELECT pg_sleep(5)"))
    finally:
        cutter.cancel()
        conn.close()
    assert "server conn crashed?" in str(exc)
    answer = classify_error(exc)
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.CONNECTION_LOST)
    assert (answer.action, answer.retry_safety) == ("reconnect", "idempotent_only")


def test_query_timeout(pgbouncer: Start) -> None:
    # query_timeout (config.html): queries running longer are canceled, and
    # PgBouncer closes the whole connection; the query was running, so a
    # write may have committed.
    bouncer = pgbouncer(query_timeout=1)
    conn = psycopg.connect(bouncer.dsn(), autocommit=True)
    try:
        exc = _raised(lambda: conn.execute("SELECT pg_sleep(4)"))
    finally:
        conn.close()
    assert "query timeout" in str(exc)
    answer = classify_error(exc)
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.CONNECTION_LOST)
    assert (answer.action, answer.retry_safety) == ("reconnect", "idempotent_only")


def test_idle_transaction_timeout(pgbouncer: Start) -> None:
    # idle_transaction_timeout (config.html): a client "idle in transaction"
    # longer is disconnected.  No statement ran: the next one never reached
    # the server, and the transaction is gone with the connection.
    bouncer = pgbouncer(idle_transaction_timeout=1)
    conn = psycopg.connect(bouncer.dsn())
    try:
        conn.execute("SELECT 1")  # psycopg opened a transaction
        time.sleep(2.5)
        exc = _raised(lambda: conn.execute("SELECT 2"))
    finally:
        conn.close()
    assert "idle transaction timeout" in str(exc)
    answer = classify_error(exc)
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.CONNECTION_LOST)
    assert (answer.action, answer.retry_safety) == ("reconnect", "safe")


# -- the database and the connection's settings -------------------------------------------


def test_unknown_database_pgbouncer_does_not_know(pgbouncer: Start) -> None:
    bouncer = pgbouncer(wildcard=False)
    name = f"nosuch_{uuid.uuid4().hex[:8]}"
    for exc in (
        _raised(lambda: psycopg.connect(bouncer.dsn(name))),
        _raised(lambda: psycopg2.connect(bouncer.dsn(name))),
        _async_raised(
            asyncpg.connect(host="127.0.0.1", port=bouncer.port, user="postgres", database=name)
        ),
    ):
        assert f"no such database: {name}" in str(exc)
        answer = classify_error(exc)
        assert (answer.backend, answer.kind) == ("pgbouncer", Kind.UNDEFINED_DATABASE), exc
        _stop(answer)


def test_unknown_database_the_server_does_not_know(pgbouncer: Start) -> None:
    # With a wildcard entry PgBouncer asks the server, and passes its refusal on.
    bouncer = pgbouncer()
    name = f"nosuch_{uuid.uuid4().hex[:8]}"
    exc = _raised(lambda: psycopg.connect(bouncer.dsn(name)))
    assert f'database "{name}" does not exist' in str(exc)
    answer = classify_error(exc)
    assert answer.kind is Kind.UNDEFINED_DATABASE
    _stop(answer)


def test_unsupported_startup_parameter(pgbouncer: Start) -> None:
    bouncer = pgbouncer()
    exc = _raised(lambda: psycopg.connect(bouncer.dsn() + " options=-cstatement_timeout=0"))
    assert "unsupported startup parameter: options" in str(exc)
    answer = classify_error(exc)
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.CONNECTION_MISCONFIGURED)
    _stop(answer)
    assert "ignore_startup_parameters" in answer.suggestion
