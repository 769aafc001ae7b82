"""
Python's own network exceptions raised inside a driver call: claimed by the
driver found in the traceback, and answered by what the operating system said.

The expectations come from the operating system's meaning: a refused
connection never reached a server (safe to retry, reconnecting); a name that
does not resolve cannot work as given (stop); a timeout while a statement
ran may have let a write commit (idempotent only).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

import pytest

from localdata_errors import Action, Kind, RetrySafety, classify_error
from localdata_errors.backends.network import in_connect_phase, network_error
from tests.conftest import PG_DB, PG_HOST, PG_PORT, PG_USER, require_module


def _raised(fn: Callable[[], Any]) -> BaseException:
    try:
        fn()
    except BaseException as exc:
        return exc
    raise AssertionError("nothing raised")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_refused_connect_is_a_safe_reconnect() -> None:
    port = _closed_port()
    exc = _raised(lambda: socket.create_connection(("127.0.0.1", port), timeout=2))
    assert isinstance(exc, ConnectionRefusedError)
    assert in_connect_phase(exc.__traceback__)
    mapped = network_error(exc)
    assert mapped is not None
    assert (mapped.kind, mapped.code, mapped.retry_safety) == (
        Kind.CONNECTION_FAILURE,
        "ECONNREFUSED",
        RetrySafety.SAFE,
    )


def test_a_name_that_does_not_resolve_stops() -> None:
    # Built as the socket module builds it (errno, gai_strerror's text): a real
    # lookup would ask this machine's resolver, which is off the machine.  The
    # real failure, resolved from /etc/hosts alone in a private namespace, is
    # tests/integration/test_unresolvable_host.py's.
    exc = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    mapped = network_error(exc)
    assert mapped is not None
    assert mapped.kind is Kind.CONNECTION_MISCONFIGURED
    assert mapped.code == "EAI_NONAME"


def test_a_broken_pipe_mid_stream_may_have_committed() -> None:
    left, right = socket.socketpair()
    right.close()

    def send_forever() -> None:
        for _ in range(100):
            left.sendall(b"x" * 65536)

    exc = _raised(send_forever)
    left.close()
    assert isinstance(exc, BrokenPipeError | ConnectionResetError)
    mapped = network_error(exc)
    assert mapped is not None
    assert (mapped.kind, mapped.retry_safety) == (Kind.CONNECTION_LOST, RetrySafety.IDEMPOTENT_ONLY)


def test_other_exceptions_are_not_network_errors() -> None:
    assert network_error(ValueError("x")) is None
    assert network_error(PermissionError(1, "not a socket")) is None


# -- raised inside a real driver: asyncpg lets the OS's exception through ---------------


def _asyncpg_error(**connect: Any) -> BaseException:
    asyncpg = require_module("asyncpg")

    async def go() -> None:
        conn = await asyncpg.connect(**connect, timeout=5)
        try:
            await conn.fetch("SELECT pg_sleep(5)", timeout=0.2)
        finally:
            await conn.close()

    return _raised(lambda: asyncio.run(go()))


def test_asyncpg_refused_connect_is_claimed_by_postgresql() -> None:
    exc = _asyncpg_error(host="127.0.0.1", port=_closed_port(), user=PG_USER)
    assert type(exc) is ConnectionRefusedError
    answer = classify_error(exc)
    assert (answer.backend, answer.driver, answer.kind) == (
        "postgresql",
        "asyncpg",
        Kind.CONNECTION_FAILURE,
    )
    assert (answer.action, answer.retry_safety) == (Action.RECONNECT, RetrySafety.SAFE)


@pytest.mark.postgresql
def test_asyncpg_client_timeout_mid_statement_is_idempotent_only(
    pg_server: dict[str, object],
) -> None:
    exc = _asyncpg_error(host=PG_HOST, port=PG_PORT, user=PG_USER, database=PG_DB)
    assert isinstance(exc, TimeoutError)
    answer = classify_error(exc)
    assert (answer.backend, answer.kind) == ("postgresql", Kind.STATEMENT_TIMEOUT)
    assert answer.retry_safety is RetrySafety.IDEMPOTENT_ONLY
