"""
SQLAlchemy's `handle_error` listener on real engines: SQLite (sync and async),
PostgreSQL through psycopg, MariaDB through pymysql and mysql-connector-python.

A missing table: the answer is attached (kind `undefined_table`) and nothing
is marked a disconnect.  A connection the server ended (`pg_terminate_backend`,
`KILL`): the listener marks the disconnect; for mysql-connector-python, whose
"MySQL Connection not available" SQLAlchemy's dialect does not recognise, the
listener's mark is the difference between a dead pooled connection and a
reconnect.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_module

sa = require_module("sqlalchemy")

from sqlalchemy import event
from sqlalchemy.engine import Engine, ExceptionContext

from localdata_errors import Action, Kind
from localdata_errors.integrations.sqlalchemy import (
    ANSWER_ATTRIBUTE,
    answer_of,
    handle_error,
    listen,
)
from tests.integrations.conftest import terminate_pg_backend, wait_until


class Seen:
    """Records `is_disconnect` before the listener (registered first) and after it (last)."""

    def __init__(self, engine: Engine, *, with_listener: bool = True) -> None:
        self.before: list[bool] = []
        self.after: list[bool] = []
        event.listen(engine, "handle_error", self._before)
        if with_listener:
            listen(engine)
        event.listen(engine, "handle_error", self._after)

    def _before(self, context: ExceptionContext) -> None:
        self.before.append(context.is_disconnect)

    def _after(self, context: ExceptionContext) -> None:
        self.after.append(context.is_disconnect)


@pytest.fixture
def sqlite_engine(shop_db: Path) -> Iterator[Engine]:
    engine = sa.create_engine(f"sqlite:///{shop_db}")
    yield engine
    engine.dispose()


def test_sqlite_missing_table_attaches_the_answer(sqlite_engine: Engine) -> None:
    seen = Seen(sqlite_engine)
    with sqlite_engine.connect() as conn, pytest.raises(sa.exc.OperationalError) as caught:
        conn.exec_driver_sql("SELECT * FROM ordrs")

    answer = answer_of(caught.value)
    assert answer is not None
    assert answer.kind is Kind.UNDEFINED_TABLE
    assert answer.affected_resources == ("ordrs",)
    # On SQLAlchemy's exception and on the driver's.
    assert getattr(caught.value, ANSWER_ATTRIBUTE) is answer
    assert getattr(caught.value.orig, ANSWER_ATTRIBUTE) is answer
    assert seen.before == seen.after == [False]
    assert caught.value.connection_invalidated is False


def test_sqlite_listener_never_clears_a_disconnect(sqlite_engine: Engine) -> None:
    def earlier(context: ExceptionContext) -> None:
        context.is_disconnect = True  # an application's own rule, before ours

    event.listen(sqlite_engine, "handle_error", earlier)
    seen = Seen(sqlite_engine)
    with sqlite_engine.connect() as conn, pytest.raises(sa.exc.OperationalError) as caught:
        conn.exec_driver_sql("SELECT * FROM ordrs")

    answer = answer_of(caught.value)
    assert answer is not None
    assert answer.action is Action.FIX_QUERY
    assert seen.after == [True]
    assert caught.value.connection_invalidated is True


def test_listen_registers_once(sqlite_engine: Engine) -> None:
    listen(sqlite_engine)
    listen(sqlite_engine)
    assert event.contains(sqlite_engine, "handle_error", handle_error)
    with sqlite_engine.connect() as conn, pytest.raises(sa.exc.OperationalError) as caught:
        conn.exec_driver_sql("SELECT nme FROM orders")
    answer = answer_of(caught.value)
    assert answer is not None
    assert answer.kind is Kind.UNDEFINED_COLUMN


def test_async_engine_through_its_sync_engine(shop_db: Path) -> None:
    require_module("aiosqlite")
    from sqlalchemy.ext.asyncio import create_async_engine

    async def scenario() -> Any:
        engine = create_async_engine(f"sqlite+aiosqlite:///{shop_db}")
        listen(engine)
        try:
            async with engine.connect() as conn:
                await conn.exec_driver_sql("SELECT * FROM ordrs")
        except sa.exc.OperationalError as exc:
            return answer_of(exc)
        finally:
            await engine.dispose()
        return None

    answer = asyncio.run(scenario())
    assert answer is not None
    assert answer.kind is Kind.UNDEFINED_TABLE


# -- PostgreSQL ----------------------------------------------------------------------


def pg_url(settings: dict[str, object]) -> str:
    return (
        f"postgresql+psycopg://{settings['user']}@{settings['host']}:{settings['port']}"
        f"/{settings['dbname']}"
    )


@pytest.mark.postgresql
def test_postgresql_terminated_backend_is_a_disconnect(pg_server: dict[str, object]) -> None:
    psycopg = require_module("psycopg")
    engine = sa.create_engine(pg_url(pg_server))
    seen = Seen(engine)
    try:
        with engine.connect() as conn:
            pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
            terminate_pg_backend(psycopg, pg_server, int(pid))
            with pytest.raises(sa.exc.DBAPIError) as caught:
                conn.exec_driver_sql("SELECT 1")
            conn.rollback()
            # The invalidated connection reconnects on its next use.
            assert conn.exec_driver_sql("SELECT pg_backend_pid()").scalar() != pid
    finally:
        engine.dispose()

    answer = answer_of(caught.value)
    assert answer is not None
    assert answer.kind is Kind.ADMIN_SHUTDOWN  # 57P01, "terminating connection due to ..."
    assert answer.action is Action.RECONNECT
    assert seen.after[0] is True
    assert caught.value.connection_invalidated is True


@pytest.mark.postgresql
def test_postgresql_missing_table(pg_server: dict[str, object]) -> None:
    require_module("psycopg")
    engine = sa.create_engine(pg_url(pg_server))
    listen(engine)
    try:
        with engine.connect() as conn, pytest.raises(sa.exc.ProgrammingError) as caught:
            conn.exec_driver_sql("SELECT * FROM lde_no_such_table_here")
    finally:
        engine.dispose()
    answer = answer_of(caught.value)
    assert answer is not None
    assert answer.kind is Kind.UNDEFINED_TABLE
    assert answer.database_error_code == "42P01"
    assert caught.value.connection_invalidated is False


# -- MariaDB -------------------------------------------------------------------------


def mysql_url(settings: dict[str, object], driver: str) -> str:
    password = f":{settings['password']}" if settings["password"] else ""
    return (
        f"mysql+{driver}://{settings['user']}{password}@{settings['host']}:{settings['port']}"
        f"/{settings['database']}"
    )


def kill_and_use(engine: Engine) -> tuple[BaseException, bool]:
    """KILL the connection's session from another, use it; return the error and a later use."""
    with engine.connect() as conn:
        pid = conn.exec_driver_sql("SELECT CONNECTION_ID()").scalar()
        with engine.connect() as admin:
            admin.exec_driver_sql(f"KILL {int(pid)}")

            def gone() -> bool:
                count = admin.exec_driver_sql(
                    f"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = {int(pid)}"
                ).scalar()
                return count == 0

            wait_until(gone, f"MariaDB session {pid} to end")
        with pytest.raises(sa.exc.DBAPIError) as caught:
            conn.exec_driver_sql("SELECT 1")
        try:
            conn.rollback()
            recovered = conn.exec_driver_sql("SELECT CONNECTION_ID()").scalar() != pid
        except sa.exc.DBAPIError:
            recovered = False
    return caught.value, recovered


@pytest.mark.mysql
def test_mariadb_pymysql_killed_connection_is_a_disconnect(
    mysql_server: dict[str, object],
) -> None:
    require_module("pymysql")
    engine = sa.create_engine(mysql_url(mysql_server, "pymysql"))
    seen = Seen(engine)
    try:
        error, recovered = kill_and_use(engine)
    finally:
        engine.dispose()
    answer = answer_of(error)
    assert answer is not None
    assert answer.action is Action.RECONNECT
    assert seen.after[0] is True
    assert recovered


@pytest.mark.mysql
@pytest.mark.parametrize("with_listener", [False, True])
def test_mariadb_mysql_connector_disconnect_only_the_listener_sees(
    mysql_server: dict[str, object], with_listener: bool
) -> None:
    require_module("mysql.connector")
    engine = sa.create_engine(mysql_url(mysql_server, "mysqlconnector"))
    seen = Seen(engine, with_listener=with_listener)
    try:
        error, recovered = kill_and_use(engine)
    finally:
        engine.dispose()

    # SQLAlchemy's own judgement of "MySQL Connection not available".
    assert seen.before[0] is False
    assert isinstance(error, sa.exc.DBAPIError)
    if with_listener:
        answer = answer_of(error)
        assert answer is not None
        assert answer.kind is Kind.CONNECTION_LOST
        assert seen.after[0] is True
        assert error.connection_invalidated is True
        assert recovered  # the next use reconnected, without a second failure
    else:
        assert answer_of(error) is None
        assert error.connection_invalidated is False
        assert not recovered  # the dead connection failed once more


@pytest.mark.mysql
def test_mariadb_missing_table(mysql_server: dict[str, object]) -> None:
    require_module("pymysql")
    engine = sa.create_engine(mysql_url(mysql_server, "pymysql"))
    listen(engine)
    try:
        with engine.connect() as conn, pytest.raises(sa.exc.ProgrammingError) as caught:
            conn.exec_driver_sql("SELECT * FROM lde_no_such_table_here")
    finally:
        engine.dispose()
    answer = answer_of(caught.value)
    assert answer is not None
    assert answer.kind is Kind.UNDEFINED_TABLE
    assert answer.database_error_code == "1146"
