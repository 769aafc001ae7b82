"""
A host that does not resolve, for real, through every driver: it stops.

A name under `.invalid` (RFC 6761) never resolves, so the same call cannot
succeed: `connection_misconfigured`, not retryable, tell the user.  The
drivers resolve the name themselves (asyncpg, aiomysql, pymysql, pg8000,
mysql-connector and psycopg through Python's `socket.getaddrinfo`; psycopg2
through libpq; mysqlclient and MariaDB Connector/Python through
libmariadb), all through glibc's `getaddrinfo`.

No query may leave the machine, and this machine's resolver is elsewhere.
So the triggers run in a child process with its own mount and network
namespaces (`unshare`, which needs root): `/etc/nsswitch.conf` is
bind-mounted from a file whose `hosts:` line is `files` alone, so glibc
answers "Name or service not known" from `/etc/hosts` without asking any
resolver, and the child's only network interface is its own loopback, so
nothing it sends could leave anyway.  The child proves both before it runs a
driver, classifies each exception with the driver's own traceback and cause
intact, and reports as JSON.  Without root the tests skip, saying why; in CI
(`CI=true`) they fail instead.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.conftest import IN_CI, require_module

HOST = "lde-nowhere.invalid"
PG_PORT = 5432
MYSQL_PORT = 3306
# Each driver's own bound on the connect; nothing is dialled, the bound only
# keeps a broken isolation from hanging the run.
TIMEOUT = 5
# libmariadb (mysqlclient, MariaDB Connector/Python) asks the resolver again
# after "Temporary failure in name resolution", for longer the longer its
# connect timeout: measured 8.4 s at 5, 2.1 s at 1, the same error either way.
LIBMARIADB_TIMEOUT = 1
ROOT = Path(__file__).resolve().parents[2]


def _psycopg() -> None:
    import psycopg

    psycopg.connect(
        host=HOST, port=PG_PORT, user="postgres", dbname="test", connect_timeout=TIMEOUT
    )


def _psycopg_async() -> None:
    import psycopg

    async def go() -> None:
        conn = await psycopg.AsyncConnection.connect(
            host=HOST, port=PG_PORT, user="postgres", dbname="test", connect_timeout=TIMEOUT
        )
        await conn.close()

    asyncio.run(go())


def _psycopg2() -> None:
    import psycopg2

    psycopg2.connect(
        host=HOST, port=PG_PORT, user="postgres", dbname="test", connect_timeout=TIMEOUT
    )


def _asyncpg() -> None:
    import asyncpg

    async def go() -> None:
        conn = await asyncpg.connect(
            host=HOST, port=PG_PORT, user="postgres", database="test", timeout=TIMEOUT
        )
        await conn.close()

    asyncio.run(go())


def _pg8000() -> None:
    import pg8000

    pg8000.connect(host=HOST, port=PG_PORT, user="postgres", database="test", timeout=TIMEOUT)


def _pg8000_native() -> None:
    import pg8000.native

    pg8000.native.Connection(
        host=HOST, port=PG_PORT, user="postgres", database="test", timeout=TIMEOUT
    )


def _pymysql() -> None:
    import pymysql

    pymysql.connect(host=HOST, port=MYSQL_PORT, user="root", password="", connect_timeout=TIMEOUT)


def _mysql_connector() -> None:
    import mysql.connector

    mysql.connector.connect(
        host=HOST,
        port=MYSQL_PORT,
        user="root",
        password="",
        connection_timeout=TIMEOUT,
        use_pure=True,
    )


def _mysqldb() -> None:
    import MySQLdb

    MySQLdb.connect(
        host=HOST, port=MYSQL_PORT, user="root", passwd="", connect_timeout=LIBMARIADB_TIMEOUT
    )


def _mariadb() -> None:
    import mariadb

    mariadb.connect(
        host=HOST, port=MYSQL_PORT, user="root", password="", connect_timeout=LIBMARIADB_TIMEOUT
    )


def _aiomysql() -> None:
    import aiomysql

    async def go() -> None:
        conn = await aiomysql.connect(
            host=HOST, port=MYSQL_PORT, user="root", password="", connect_timeout=TIMEOUT
        )
        conn.close()

    asyncio.run(go())


def _asyncmy() -> None:
    import asyncmy

    async def go() -> None:
        conn = await asyncmy.connect(
            host=HOST, port=MYSQL_PORT, user="root", password="", connect_timeout=TIMEOUT
        )
        conn.close()

    asyncio.run(go())


def _sqlalchemy(url: str) -> Callable[[], None]:
    def run() -> None:
        import sqlalchemy

        engine = sqlalchemy.create_engine(url)
        try:
            with engine.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
        finally:
            engine.dispose()

    return run


def _sqlalchemy_async(url: str) -> Callable[[], None]:
    def run() -> None:
        from sqlalchemy.ext.asyncio import create_async_engine

        async def go() -> None:
            engine = create_async_engine(url)
            try:
                async with engine.connect():
                    pass
            finally:
                await engine.dispose()

        asyncio.run(go())

    return run


class Case(NamedTuple):
    """One way to meet the unresolvable host, and what its driver says."""

    name: str
    modules: tuple[str, ...]  # what must import (in CI: must be installed)
    backend: str
    text: str  # a run of the driver's own message, as this machine's versions word it
    run: Callable[[], None]


_PG = "postgresql"
_MY = "mysql"
_SA = "sqlalchemy"
_PG_URL = f"postgres@{HOST}:{PG_PORT}/test"
_MY_URL = f"root@{HOST}:{MYSQL_PORT}/test"
# glibc's gai_strerror(EAI_NONAME), which most drivers repeat.
_NONAME = "Name or service not known"
# glibc's gai_strerror(EAI_AGAIN).
_AGAIN = "Temporary failure in name resolution"

CASES = (
    # psycopg 3 resolves the name itself, in Python, before libpq connects.
    Case("psycopg", ("psycopg",), _PG, f"failed to resolve host '{HOST}': [Errno -2] {_NONAME}",
         _psycopg),
    Case("psycopg-async", ("psycopg",), _PG, f"failed to resolve host '{HOST}'", _psycopg_async),
    # libpq's own message.
    Case("psycopg2", ("psycopg2",), _PG,
         f'could not translate host name "{HOST}" to address: {_NONAME}', _psycopg2),
    # asyncpg lets the socket.gaierror through.
    Case("asyncpg", ("asyncpg",), _PG, _NONAME, _asyncpg),
    # pg8000 names no reason; it raises from the socket.gaierror.
    Case("pg8000", ("pg8000",), _PG,
         f"Can't create a connection to host {HOST} and port {PG_PORT}", _pg8000),
    Case("pg8000.native", ("pg8000",), _PG,
         f"Can't create a connection to host {HOST} and port {PG_PORT}", _pg8000_native),
    Case("pymysql", ("pymysql",), _MY,
         f"Can't connect to MySQL server on '{HOST}' ([Errno -2] {_NONAME})", _pymysql),
    Case("mysql.connector", ("mysql.connector",), _MY,
         f"Can't connect to MySQL server on '{HOST}:{MYSQL_PORT}' (Errno -2: {_NONAME})",
         _mysql_connector),
    # Its C extension (libmysqlclient's CR_UNKNOWN_HOST, 2005) is left out: the
    # wheel's extension loads only against the OpenSSL it was built for, not
    # this machine's, and a case that may skip has no place in a run that must
    # not; MySQLdb and mariadb below raise the same client error.
    # libmariadb's CR_UNKNOWN_HOST (2005), with getaddrinfo's number.
    Case("MySQLdb", ("MySQLdb",), _MY, f"Unknown server host '{HOST}' (-2)", _mysqldb),
    Case("mariadb", ("mariadb",), _MY, f"Unknown server host '{HOST}' (-2)", _mariadb),
    # aiomysql names no reason; it raises pymysql's class from the socket.gaierror.
    Case("aiomysql", ("aiomysql",), _MY, f"Can't connect to MySQL server on '{HOST}'", _aiomysql),
    Case("asyncmy", ("asyncmy",), _MY,
         f"Can't connect to MySQL server on '{HOST}' ([Errno -2] {_NONAME})", _asyncmy),
    Case("sqlalchemy+psycopg", (_SA, "psycopg"), _PG, f"failed to resolve host '{HOST}'",
         _sqlalchemy(f"postgresql+psycopg://{_PG_URL}")),
    Case("sqlalchemy+psycopg2", (_SA, "psycopg2"), _PG, f'could not translate host name "{HOST}"',
         _sqlalchemy(f"postgresql+psycopg2://{_PG_URL}")),
    Case("sqlalchemy+pg8000", (_SA, "pg8000"), _PG, f"Can't create a connection to host {HOST}",
         _sqlalchemy(f"postgresql+pg8000://{_PG_URL}")),
    Case("sqlalchemy+asyncpg", (_SA, "asyncpg", "greenlet"), _PG, _NONAME,
         _sqlalchemy_async(f"postgresql+asyncpg://{_PG_URL}")),
    Case("sqlalchemy+psycopg-async", (_SA, "psycopg", "greenlet"), _PG,
         f"failed to resolve host '{HOST}'", _sqlalchemy_async(f"postgresql+psycopg://{_PG_URL}")),
    Case("sqlalchemy+pymysql", (_SA, "pymysql"), _MY, f"Can't connect to MySQL server on '{HOST}'",
         _sqlalchemy(f"mysql+pymysql://{_MY_URL}")),
    Case("sqlalchemy+mysqlconnector", (_SA, "mysql.connector"), _MY,
         f"Can't connect to MySQL server on '{HOST}:{MYSQL_PORT}'",
         _sqlalchemy(f"mysql+mysqlconnector://{_MY_URL}?use_pure=true")),
    Case("sqlalchemy+mysqldb", (_SA, "MySQLdb"), _MY, f"Unknown server host '{HOST}'",
         _sqlalchemy(f"mysql+mysqldb://{_MY_URL}")),
    Case("sqlalchemy+mariadbconnector", (_SA, "mariadb"), _MY, f"Unknown server host '{HOST}'",
         _sqlalchemy(f"mariadb+mariadbconnector://{_MY_URL}")),
    Case("sqlalchemy+aiomysql", (_SA, "aiomysql", "greenlet"), _MY,
         f"Can't connect to MySQL server on '{HOST}'",
         _sqlalchemy_async(f"mysql+aiomysql://{_MY_URL}")),
    Case("sqlalchemy+asyncmy", (_SA, "asyncmy", "greenlet"), _MY,
         f"Can't connect to MySQL server on '{HOST}'",
         _sqlalchemy_async(f"mysql+asyncmy://{_MY_URL}")),
)  # fmt: skip


# libmariadb asks a resolver that did not answer again, for about 8 s (four
# times that under SQLAlchemy's MySQLdb and MariaDB dialects): the library's
# own cases are enough to show its answer.
AGAIN_CASES = tuple(
    case for case in CASES if case.name not in {"sqlalchemy+mysqldb", "sqlalchemy+mariadbconnector"}
)


# -- the child: runs inside the namespaces ---------------------------------------------


def _isolation() -> dict[str, Any]:
    """What proves that no lookup can leave: the hosts line, the interfaces, the answer."""
    lines = Path("/etc/nsswitch.conf").read_text(encoding="utf-8").splitlines()
    hosts = [line.split()[1:] for line in lines if line.split()[:1] == ["hosts:"]]
    try:
        socket.getaddrinfo(HOST, PG_PORT)
    except socket.gaierror as exc:
        answer = {"errno": exc.errno, "text": exc.strerror}
    else:
        answer = {"errno": None, "text": "resolved"}
    return {
        "hosts": hosts,
        "interfaces": sorted(name for _, name in socket.if_nameindex()),
        "getaddrinfo": answer,
    }


def _outcome(case: Case) -> dict[str, Any]:
    from localdata_errors import classify_error

    try:
        case.run()
    except ImportError as exc:
        return {"missing": str(exc)}
    except Exception as exc:
        answer = classify_error(exc)
        causes = []
        cause = exc.__cause__
        while cause is not None and len(causes) < 8:
            causes.append(f"{type(cause).__module__}.{type(cause).__qualname__}: {cause}")
            cause = cause.__cause__
        return {
            "type": f"{type(exc).__module__}.{type(exc).__qualname__}",
            "text": str(exc),
            "causes": causes,
            "backend": answer.backend,
            "database": answer.database,
            "kind": answer.kind.value,
            "error_type": answer.error_type.value,
            "is_retryable": answer.is_retryable,
            "action": answer.action.value,
            "retry_safety": answer.retry_safety.value,
            "code": answer.database_error_code,
        }
    return {"raised": None}


def _child(source: str) -> int:
    report: dict[str, Any] = {"isolation": _isolation(), "cases": {}}
    facts = report["isolation"]
    # Drivers run only where nothing can leave: the only interface is this
    # namespace's loopback, and the one source of host names is the one asked
    # for (/etc/hosts; or DNS, whose server is then unreachable: no route).
    if facts["hosts"] == [[source]] and facts["interfaces"] == ["lo"]:
        for case in CASES if source == "files" else AGAIN_CASES:
            try:
                report["cases"][case.name] = _outcome(case)
            except BaseException:
                report["cases"][case.name] = {"crashed": traceback.format_exc()}
    json.dump(report, sys.stdout)
    return 0


# -- the tests ---------------------------------------------------------------------


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every case, run once in the isolated child, names from /etc/hosts alone."""
    return _isolated_run(tmp_path_factory, "files")


@pytest.fixture(scope="module")
def report_again(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """
    Every case, run once in the isolated child, names from DNS alone.

    The resolver's server is off the machine and the child has no route there
    (its only interface is its own loopback): glibc cannot send the query and
    answers EAI_AGAIN, "Temporary failure in name resolution", as for a
    resolver that is down.
    """
    return _isolated_run(tmp_path_factory, "dns")


def _isolated_run(tmp_path_factory: pytest.TempPathFactory, source: str) -> dict[str, Any]:
    if os.geteuid() != 0:
        _unavailable(
            "these tests run the drivers in private mount and network namespaces "
            "(unshare), which needs root; run them as root to resolve '.invalid' "
            "from /etc/hosts alone, without sending a query off the machine"
        )
    unshare = shutil.which("unshare")
    if unshare is None:
        _unavailable("util-linux's unshare is not installed; it isolates the lookups")
    nsswitch = tmp_path_factory.mktemp("nss") / "nsswitch.conf"
    nsswitch.write_text(f"hosts: {source}\n", encoding="utf-8")
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    script = 'mount --bind "$1" /etc/nsswitch.conf && exec "$2" "$3" "$4"'
    args = [unshare, "--mount", "--net", "--propagation", "private", "sh", "-c", script, "sh"]
    done = subprocess.run(
        [*args, str(nsswitch), sys.executable, __file__, source],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env=env,
        check=False,
    )
    if done.returncode != 0 or not done.stdout:
        _unavailable(
            f"the isolated child did not run (exit {done.returncode}): {done.stderr[-2000:]}"
        )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_no_lookup_leaves_the_machine(report: dict[str, Any]) -> None:
    facts = report["isolation"]
    assert facts["hosts"] == [["files"]], facts
    assert facts["interfaces"] == ["lo"], facts
    # glibc's EAI_NONAME, from /etc/hosts alone.
    assert facts["getaddrinfo"] == {"errno": socket.EAI_NONAME, "text": _NONAME}, facts
    assert len(report["cases"]) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_an_unresolvable_host_stops(report: dict[str, Any], case: Case) -> None:
    for module in case.modules:
        require_module(module)
    got = report["cases"][case.name]
    assert "missing" not in got, got
    assert "type" in got, got
    assert case.text in got["text"] or any(case.text in cause for cause in got["causes"]), got
    assert (got["backend"], got["database"]) == (case.backend, case.backend), got
    assert (got["kind"], got["error_type"]) == ("connection_misconfigured", "connection_error"), got
    assert got["is_retryable"] is False, got
    assert (got["action"], got["retry_safety"]) == ("stop", "not_applicable"), got


def test_the_texts_without_a_reason_are_raised_from_the_lookup(report: dict[str, Any]) -> None:
    # pg8000 and aiomysql say only that connecting failed: the answer comes
    # from the socket.gaierror they were raised from.
    for name in ("pg8000", "aiomysql"):
        require_module(name)
        got = report["cases"][name]
        assert _NONAME not in got["text"], got
        assert got["causes"][:1] == [f"socket.gaierror: [Errno -2] {_NONAME}"], got


def test_a_resolver_that_cannot_be_reached_is_asked_again(report_again: dict[str, Any]) -> None:
    facts = report_again["isolation"]
    assert facts["hosts"] == [["dns"]], facts
    assert facts["interfaces"] == ["lo"], facts
    # glibc's EAI_AGAIN: the query could not be sent.
    assert facts["getaddrinfo"] == {"errno": socket.EAI_AGAIN, "text": _AGAIN}, facts


@pytest.mark.parametrize("case", AGAIN_CASES, ids=[case.name for case in AGAIN_CASES])
def test_a_lookup_that_may_succeed_later_is_retried(
    report_again: dict[str, Any], case: Case
) -> None:
    # The resolver did not answer: nothing is known about the name, and the
    # same call may succeed once it does.  A failed connect, safe to retry.
    for module in case.modules:
        require_module(module)
    got = report_again["cases"][case.name]
    assert "type" in got, got
    said = [got["text"], *got["causes"]]
    assert any(_AGAIN in text or f"'{HOST}' (-3)" in text for text in said), got
    assert (got["backend"], got["kind"]) == (case.backend, "connection_failure"), got
    assert got["is_retryable"] is True, got
    assert (got["action"], got["retry_safety"]) == ("reconnect", "safe"), got


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1]))
