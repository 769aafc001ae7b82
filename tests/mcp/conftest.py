"""
Fixtures for the SQL tool server: a database and a server subprocess per backend.

Each backend gets its own database (``lde_mcp_<random>`` on the servers, a
temporary file for SQLite), one server subprocess per module, and a fresh
shop schema (customers, products, sales) before each test.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("mcp")
pytest.importorskip("sqlalchemy")

import sqlalchemy as sa

from tests.mcp._harness import PG_PASSWORD, Backend, StdioServer


def _make_backend(name: str, request: pytest.FixtureRequest, tmp: Path) -> Backend:
    if name == "sqlite":
        return Backend(name, f"sqlite:///{tmp / 'shop.db'}", None, None)
    if name == "duckdb":
        pytest.importorskip("duckdb_engine")
        return Backend(name, f"duckdb:///{tmp / 'shop.duckdb'}", None, None)
    db_name = f"lde_mcp_{secrets.token_hex(4)}"
    if name == "postgresql":
        cfg = request.getfixturevalue("pg_server")
        pytest.importorskip("psycopg")
        base = f"postgresql+psycopg://{cfg['user']}:{PG_PASSWORD}@{cfg['host']}:{cfg['port']}"
        admin_url = f"{base}/{cfg['dbname']}"
    else:
        cfg = request.getfixturevalue("mysql_server")
        pytest.importorskip("pymysql")
        password = f":{cfg['password']}" if cfg["password"] else ""
        base = f"mysql+pymysql://{cfg['user']}{password}@{cfg['host']}:{cfg['port']}"
        admin_url = f"{base}/{cfg['database']}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {db_name}")
    admin.dispose()
    return Backend(name, f"{base}/{db_name}", admin_url, db_name)


@pytest.fixture(scope="module", params=["sqlite", "duckdb", "postgresql", "mysql"])
def backend(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Backend]:
    """A database of its own per backend, dropped afterwards."""
    db = _make_backend(request.param, request, tmp_path_factory.mktemp("mcp"))
    try:
        db.reset_shop()
        yield db
    finally:
        db.drop()


@pytest.fixture(scope="module")
def server(backend: Backend) -> Iterator[StdioServer]:
    """
    The server over stdio, with a small row cap.

    Its timeout is only a safety net: a short one would be a wall-clock budget
    on every test, which a loaded machine overruns (an insert interrupted
    after a second of catalogue reads).  The timeout test starts a server of
    its own with a short one.
    """
    srv = StdioServer(backend.url, "--max-rows", "5", "--timeout", "60")
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture(scope="module")
def readonly_server(backend: Backend) -> Iterator[StdioServer]:
    """
    A second server on the same database: read-only, several statements allowed.

    Its login is the shared servers' superuser, which a read-only server
    refuses unless told: so the parse and session layers are tested alone,
    on the login that could do the most (``test_mcp_login`` tests the login
    layer).
    """
    srv = StdioServer(
        backend.url,
        "--read-only",
        "--allow-privileged-login",
        "--allow-multi-statement",
        "--timeout",
        "60",
    )
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture
def shop(backend: Backend) -> Backend:
    """The shop schema, fresh for this test."""
    backend.reset_shop()
    return backend
