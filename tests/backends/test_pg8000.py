"""pg8000 against the real server: its server fields in `args[0]`, its own texts."""

from __future__ import annotations

import contextlib
import socket
from typing import Any

import pytest

from localdata_errors import classify_error
from localdata_errors._kinds import Action, ErrorCategory, Kind, RetrySafety
from tests.conftest import require_module


def _connect(pg_server: dict[str, object], **changes: object) -> Any:
    dbapi = require_module("pg8000.dbapi")
    settings = {**pg_server, **changes}
    return dbapi.connect(
        user=settings["user"],
        host=settings["host"],
        port=settings["port"],
        database=settings["dbname"],
    )


def test_server_fields_give_the_code_and_names(pg_server: dict[str, object]) -> None:
    conn = _connect(pg_server)
    try:
        cursor = conn.cursor()
        cursor.execute("CREATE TEMP TABLE lde_parent (id int PRIMARY KEY)")
        cursor.execute(
            "CREATE TEMP TABLE lde_child (id int, parent int REFERENCES lde_parent (id))"
        )
        with pytest.raises(require_module("pg8000").DatabaseError) as caught:
            cursor.execute("INSERT INTO lde_child VALUES (1, 99)")
        answer = classify_error(caught.value)
        assert answer.database == "postgresql"
        assert answer.driver == "pg8000"
        assert answer.kind is Kind.FOREIGN_KEY_VIOLATION
        assert answer.database_error_code == "23503"
        assert answer.constraint == "lde_child_parent_fkey"
        assert answer.dependencies == ("lde_parent",)
    finally:
        conn.close()


def test_unknown_database_stops(pg_server: dict[str, object]) -> None:
    with pytest.raises(require_module("pg8000").DatabaseError) as caught:
        _connect(pg_server, dbname="lde_no_such_database")
    answer = classify_error(caught.value)
    assert answer.database_error_code == "3D000"
    assert answer.action is Action.STOP


def test_refused_connect_is_safe_to_retry(pg_server: dict[str, object]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    with pytest.raises(require_module("pg8000").InterfaceError) as caught:
        _connect(pg_server, port=port)
    answer = classify_error(caught.value)
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR
    assert answer.retry_safety is RetrySafety.SAFE


def test_a_client_timeout_mid_statement_loses_the_connection(
    pg_server: dict[str, object],
) -> None:
    # pg8000's own timeout: the socket times out under its file object, which
    # refuses every later read, so the connection is gone (unlike asyncpg's,
    # which cancels the statement and keeps it).  The statement went out.
    native = require_module("pg8000.native")
    conn = native.Connection(
        user=pg_server["user"],
        host=pg_server["host"],
        port=pg_server["port"],
        database=pg_server["dbname"],
        timeout=1,
    )
    try:
        with pytest.raises(TimeoutError) as caught:
            conn.run("SELECT pg_sleep(3)")
        answer = classify_error(caught.value)
        assert (answer.backend, answer.kind) == ("postgresql", Kind.CONNECTION_LOST)
        assert answer.action is Action.RECONNECT
        assert answer.retry_safety is RetrySafety.IDEMPOTENT_ONLY
        with pytest.raises(OSError, match="cannot read from timed out object") as again:
            conn.run("SELECT 1")
        answer = classify_error(again.value)
        assert (answer.backend, answer.kind) == ("postgresql", Kind.CONNECTION_LOST)
        assert answer.action is Action.RECONNECT
    finally:
        with contextlib.suppress(Exception):  # closing what already broke
            conn.close()
