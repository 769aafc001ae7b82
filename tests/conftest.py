"""
Shared fixtures: a fresh registry per test, and the real servers.

Integration tests need the PostgreSQL and MariaDB servers.  On a developer's
machine without them they skip, saying how to enable them; in CI (``CI=true``)
a missing server fails the run instead.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import socket
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors._registry import ENTRY_POINT_GROUP
from localdata_errors.testing import fresh_default_registry

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


@pytest.fixture(scope="session", autouse=True)
def _installed_entry_points() -> Iterator[None]:
    """
    The plugin group's entry points, read from the installed metadata once per sys.path.

    Every test's fresh registry discovers its plugins: it loads, registers and
    checks each one afresh, but the venv's metadata does not change during a
    run, and reading it (every distribution's entry_points.txt) cost about
    half of each classifying test's time.  A test that fakes entry points
    replaces `importlib.metadata.entry_points` itself, which bypasses this; a
    test that puts a distribution on a new sys.path gets a fresh reading.
    """
    real = importlib.metadata.entry_points
    read: dict[tuple[str, ...], Any] = {}

    def entry_points(**params: Any) -> Any:
        if params != {"group": ENTRY_POINT_GROUP}:
            return real(**params)
        key = tuple(sys.path)
        if key not in read:
            read[key] = real(**params)
        return read[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(importlib.metadata, "entry_points", entry_points)
        yield


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    """Every test starts from a new default registry, which discovers its plugins afresh."""
    with fresh_default_registry():
        yield


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


def require_tool(message: str) -> None:
    """Skip (or, in CI, where .ci/run installs it, fail) for want of a tool: *message* says how."""
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


#: Drivers that build against libmariadb's headers, which the README's test
#: command leaves out (a machine without the headers could not install them):
#: module -> what installs it.  Their tests skip without them, saying so, and
#: CI runs those tests in a second step with the drivers installed and
#: `LOCALDATA_ERRORS_REQUIRE_HEADER_DRIVERS=1`, where a missing one fails.
HEADER_DRIVERS = {"MySQLdb": "mysqlclient", "mariadb": "mariadb"}
HEADER_DRIVER_SKIP = "needs a driver built against libmariadb's headers:"
REQUIRE_HEADER_DRIVERS = os.environ.get("LOCALDATA_ERRORS_REQUIRE_HEADER_DRIVERS", "") == "1"


def require_module(name: str) -> Any:
    """
    Import a driver or skip, saying how to install it.

    In CI every driver the README's command installs must import; the two
    that need libmariadb's headers (`HEADER_DRIVERS`) skip there too, until
    CI's second step requires them.
    """
    top = name.partition(".")[0]
    if top in HEADER_DRIVERS and not REQUIRE_HEADER_DRIVERS:
        if importlib.util.find_spec(top) is None:
            pytest.skip(
                f"{HEADER_DRIVER_SKIP} pip install {HEADER_DRIVERS[top]} "
                "(with libmariadb-dev and pkg-config installed) to run this test"
            )
        return importlib.import_module(name)
    if IN_CI:
        return importlib.import_module(name)
    return pytest.importorskip(name)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Write down each test skipped for want of a header-built driver, where CI asks."""
    listing = os.environ.get("LOCALDATA_ERRORS_HEADER_DRIVER_SKIPS")
    if not listing or not report.skipped:
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if HEADER_DRIVER_SKIP in reason:
        with open(listing, "a", encoding="utf-8") as out:
            out.write(report.nodeid + "\n")
