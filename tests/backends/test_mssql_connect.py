"""
SQL Server connect failures, for real, without a SQL Server: the drivers' own.

No SQL Server runs here, but every SQL Server driver fails for real against
a port nobody listens on, and against a server that does not speak TDS (the
local PostgreSQL): pymssql and pyodbc through FreeTDS (DB-Library's 20009 and
20002, ODBC's 08S01 and 08001), pytds in Python.  Nothing was sent to a
database: each is a failed connect, safe to retry.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from localdata_errors import classify_error
from localdata_errors._kinds import Action, Kind, RetrySafety
from tests.conftest import IN_CI, PG_HOST, PG_PORT, require_module

#: Debian's FreeTDS ODBC driver (package tdsodbc; .ci/run installs it).
FREETDS = Path("/usr/lib/x86_64-linux-gnu/odbc/libtdsodbc.so")
TIMEOUT = 2


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def _pymssql(host: str, port: int) -> None:
    require_module("pymssql").connect(
        server=host, port=port, user="sa", password="x", login_timeout=TIMEOUT
    )


def _pytds(host: str, port: int) -> None:
    require_module("pytds").connect(
        dsn=host, port=port, user="sa", password="x", login_timeout=TIMEOUT
    )


def _pyodbc_freetds(host: str, port: int) -> None:
    if not FREETDS.exists():
        reason = f"FreeTDS's ODBC driver is not installed ({FREETDS}: apt-get install tdsodbc)"
        if IN_CI:
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(reason)
    require_module("pyodbc").connect(
        f"DRIVER={FREETDS};SERVER={host};PORT={port};UID=sa;PWD=x;TDS_Version=7.4",
        timeout=TIMEOUT,
    )


def _sqlalchemy_pymssql(host: str, port: int) -> None:
    sqlalchemy = require_module("sqlalchemy")
    engine = sqlalchemy.create_engine(
        f"mssql+pymssql://sa:x@{host}:{port}/master",
        connect_args={"login_timeout": TIMEOUT},
        poolclass=sqlalchemy.pool.NullPool,
    )
    try:
        engine.connect().close()
    finally:
        engine.dispose()


DRIVERS: dict[str, Callable[[str, int], None]] = {
    "pymssql": _pymssql,
    "pytds": _pytds,
    "pyodbc+FreeTDS": _pyodbc_freetds,
    "sqlalchemy+pymssql": _sqlalchemy_pymssql,
}


def _answer_to(connect: Callable[[str, int], None], host: str, port: int) -> object:
    with pytest.raises(Exception) as caught:  # noqa: PT011 - each driver's own class
        connect(host, port)
    return caught.value


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_refused_connect_is_safe_to_retry(driver: str) -> None:
    exc = _answer_to(DRIVERS[driver], "127.0.0.1", _free_port())
    answer = classify_error(exc)
    assert answer.backend == "mssql", repr(exc)
    assert answer.kind is Kind.CONNECTION_FAILURE, repr(exc)
    assert (answer.action, answer.retry_safety) == (Action.RECONNECT, RetrySafety.SAFE)


@pytest.mark.postgresql
@pytest.mark.parametrize("driver", DRIVERS)
def test_a_server_that_does_not_speak_tds_is_a_failed_connect(
    driver: str, pg_server: dict[str, object]
) -> None:
    # The local PostgreSQL answers the login packet with its own protocol and
    # closes the connection: no SQL Server there, nothing ran.
    exc = _answer_to(DRIVERS[driver], PG_HOST, PG_PORT)
    answer = classify_error(exc)
    assert answer.backend == "mssql", repr(exc)
    assert answer.kind is Kind.CONNECTION_FAILURE, repr(exc)
    assert (answer.action, answer.retry_safety) == (Action.RECONNECT, RetrySafety.SAFE)
