"""
Shared fixtures: a fresh registry per test, and the real servers.

Integration tests need the PostgreSQL and MariaDB servers.  On a developer's
machine without them they skip, saying how to enable them; in CI (``CI=true``)
a missing server fails the run instead.
"""

from __future__ import annotations

import importlib
import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import ErrorMapperRegistry

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

PG_HOST = os.environ.get("LOCALDATA_ERRORS_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("LOCALDATA_ERRORS_PG_PORT", "5432"))
PG_USER = os.environ.get("LOCALDATA_ERRORS_PG_USER", "postgres")
PG_DB = os.environ.get("LOCALDATA_ERRORS_PG_DB", "test")

MYSQL_HOST = os.environ.get("LOCALDATA_ERRORS_MYSQL_HOST", "127.0.0.1")
MYSQL_PORT = int(os.environ.get("LOCALDATA_ERRORS_MYSQL_PORT", "3306"))
MYSQL_USER = os.environ.get("LOCALDATA_ERRORS_MYSQL_USER", "root")
MYSQL_PASSWORD = os.environ.get("LOCALDATA_ERRORS_MYSQL_PASSWORD", "")
MYSQL_DB = os.environ.get("LOCALDATA_ERRORS_MYSQL_DB", "test")


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    """Every test starts from a registry that discovers its plugins afresh."""
    ErrorMapperRegistry.reset()
    yield
    ErrorMapperRegistry.reset()


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def require_server(name: str, host: str, port: int, env_hint: str) -> None:
    """Skip (or, in CI, fail) unless *host*:*port* accepts connections."""
    if _port_open(host, port):
        return
    message = (
        f"{name} is not reachable at {host}:{port}; start it, or point {env_hint} at one "
        "(see Development in the README) to run these tests"
    )
    if IN_CI:
        pytest.fail(f"CI=true and {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def pg_server() -> dict[str, object]:
    """Connection settings of the running PostgreSQL server (skips/fails when down)."""
    require_server("PostgreSQL", PG_HOST, PG_PORT, "LOCALDATA_ERRORS_PG_HOST/_PORT")
    return {"host": PG_HOST, "port": PG_PORT, "user": PG_USER, "dbname": PG_DB}


@pytest.fixture(scope="session")
def mysql_server() -> dict[str, object]:
    """Connection settings of the running MariaDB/MySQL server (skips/fails when down)."""
    require_server("MariaDB/MySQL", MYSQL_HOST, MYSQL_PORT, "LOCALDATA_ERRORS_MYSQL_HOST/_PORT")
    return {
        "host": MYSQL_HOST,
        "port": MYSQL_PORT,
        "user": MYSQL_USER,
        "password": MYSQL_PASSWORD,
        "database": MYSQL_DB,
    }


def require_module(name: str) -> Any:
    """Import a driver or skip; in CI every driver the project installs must import."""
    if IN_CI:
        return importlib.import_module(name)
    return pytest.importorskip(name)
