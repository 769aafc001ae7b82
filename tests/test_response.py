"""The response object and its four shapes."""

from __future__ import annotations

import json
import pickle
from datetime import UTC, datetime, timedelta, timezone

import pytest

from localdata_errors import ErrorCategory, Kind, StructuredErrorResponse, classify_message

LOCALDATA_KEYS = [
    "error",
    "error_type",
    "is_retryable",
    "message",
    "suggestion",
    "database_error_code",
    "database",
]


def _fk() -> StructuredErrorResponse:
    return StructuredErrorResponse(
        error_type=ErrorCategory.CONSTRAINT_ERROR,
        kind=Kind.DEPENDENT_OBJECTS_STILL_EXIST,
        is_retryable=False,
        message="cannot drop table customers because other objects depend on it",
        suggestion="Drop sales first.",
        suggested_actions=("Drop sales first",),
        database_error_code="2BP01",
        sqlstate="2BP01",
        backend="postgresql",
        affected_resources=("customers",),
        dependencies=("sales",),
        constraint="sales_customer_id_fkey",
    )


def test_frozen_slotted_picklable() -> None:
    resp = _fk()
    with pytest.raises(AttributeError):
        resp.kind = Kind.UNKNOWN  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del resp.message  # type: ignore[misc]
    assert not hasattr(resp, "__dict__")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(resp, protocol)) == resp
    assert hash(resp) == hash(pickle.loads(pickle.dumps(resp)))
    changed = resp.replace(kind=Kind.UNKNOWN)
    assert (changed.kind, changed.message) == (Kind.UNKNOWN, resp.message)
    assert resp.kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST
    with pytest.raises(TypeError, match="not a field"):
        resp.replace(colour="red")


def test_localdata_shape_keeps_its_seven_keys_first() -> None:
    out = _fk().to_dict()
    assert list(out)[:7] == LOCALDATA_KEYS
    assert out["error"] is True
    assert out["error_type"] == "constraint_error"
    assert out["database_error_code"] == "2BP01"
    assert out["dependencies"] == ["sales"]
    json.dumps(out)


def test_tool_shape() -> None:
    out = _fk().to_tool_error()
    # retry_safety "not_applicable" is left out: there is nothing to retry.
    assert out == {
        "status": "error",
        "error": "cannot drop table customers because other objects depend on it",
        "error_code": "2BP01",
        "error_type": "foreign_key_constraint",
        "is_retryable": False,
        "action": "fix_query",
        "kind": "dependent_objects_still_exist",
        "suggestion": "Drop sales first.",
        "affected_resources": ["customers"],
        "dependencies": ["sales"],
        "suggested_actions": ["Drop sales first"],
    }


def test_tool_shape_omits_empty_structured_fields() -> None:
    resp = classify_message("something odd happened")
    out = resp.to_tool_error()
    assert "affected_resources" not in out
    assert "dependencies" not in out
    assert out["error_type"] == "unknown"


def _values(obj: object) -> list[object]:
    if isinstance(obj, dict):
        return [v for value in obj.values() for v in [value, *_values(value)]]
    if isinstance(obj, list):
        return [v for value in obj for v in [value, *_values(value)]]
    return []


def test_tool_shape_sends_no_null_and_no_empty_field() -> None:
    import sqlite3

    conn = sqlite3.connect(":memory:")
    answers = []
    for sql in ("SELEC 1", "SELECT * FROM orders", "SELECT 1 FROM (SELECT 1) x WHERE y = 1"):
        try:
            conn.execute(sql)
        except sqlite3.Error as exc:
            answers.append(classify_message(str(exc), "sqlite"))
    answers.append(classify_message("something odd happened"))
    for resp in answers:
        out = resp.to_tool_error()
        for value in _values(out):
            assert value not in (None, [], ""), out


def test_tool_shape_keeps_only_what_says_something() -> None:
    import sqlite3

    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("SELEC 1")
    except sqlite3.Error as exc:
        syntax = classify_message(str(exc), "sqlite").to_tool_error()
    # The kind would only repeat the error type; nothing to retry; no code
    # in a bare SQLite message.
    assert "kind" not in syntax
    assert "retry_safety" not in syntax
    assert "error_code" not in syntax
    # The kind's own sentence is the kind plus its actions: left out.
    assert "suggestion" not in syntax
    assert syntax["suggested_actions"]
    assert list(syntax)[:5] == ["status", "error", "error_type", "is_retryable", "action"]
    # MySQL documents 1213 as a deadlock whose transaction was rolled back:
    # retried at once, safely.
    deadlock = classify_message(
        "Deadlock found when trying to get lock; try restarting transaction", "mysql", 1213
    ).to_tool_error()
    assert deadlock["error_code"] == "1213"
    assert deadlock["kind"] == "deadlock_detected"
    assert deadlock["error_type"] == "unknown"
    assert (deadlock["action"], deadlock["retry_safety"]) == ("retry", "safe")
    assert "retry_after_ms" in deadlock
    # A suggestion of the error's own, not the kind's sentence, is kept.
    own = classify_message("no such table: t", "sqlite").replace(suggestion="Run the migration.")
    assert own.to_tool_error()["suggestion"] == "Run the migration."


def test_jsonrpc_shape() -> None:
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=2)))
    out = _fk().to_jsonrpc_error(tool_name="execute_sql", timestamp=when)
    assert out["success"] is False
    assert out["error_code"] == "DEPENDENT_OBJECTS_STILL_EXIST"
    assert out["jsonrpc_error_code"] == -32003
    assert out["tool_name"] == "execute_sql"
    assert out["timestamp"] == "2026-01-02T01:04:05Z"
    assert out["details"]["dependencies"] == ["sales"]
    assert out["suggestions"][0] == "Drop sales first."
    json.dumps(out)


def test_jsonrpc_timestamp_defaults_to_now_utc() -> None:
    out = _fk().to_jsonrpc_error()
    stamp = datetime.fromisoformat(out["timestamp"].replace("Z", "+00:00"))
    assert stamp.tzinfo is not None
    assert abs(datetime.now(UTC) - stamp) < timedelta(minutes=1)


def test_agent_shape() -> None:
    out = _fk().to_agent_response()
    assert set(out) == {"success", "error", "errorType", "details"}
    assert out["errorType"] == "constraint_error"
    assert out["details"]["constraint"] == "sales_customer_id_fkey"


def test_agent_shape_never_carries_credentials() -> None:
    resp = classify_message(
        'connection to "postgresql://app:hunter2@db.internal/prod" failed: connection refused'
    )
    dumped = json.dumps(resp.to_agent_response())
    assert "hunter2" not in dumped
    assert resp.kind is Kind.CONNECTION_FAILURE


def test_the_response_is_a_record_that_imports_no_policy() -> None:
    # Data flows one way: retry policies and OpenTelemetry read the response.
    import ast
    from pathlib import Path

    import localdata_errors

    source = Path(localdata_errors.__file__).with_name("_response.py").read_text()
    tree = ast.parse(source)
    imported = {
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    # redact is a function of text alone (it imports nothing of the package's):
    # the echoed tool_name is masked with it.
    assert not {m for m in imported if m.startswith("localdata_errors.")} - {
        "localdata_errors._kinds",
        "localdata_errors._redact",
    }


def test_for_kind_fills_the_kind_tables_decisions() -> None:
    resp = StructuredErrorResponse.for_kind(Kind.DEADLOCK_DETECTED, "deadlock")
    assert (resp.action, resp.retry_safety, resp.is_retryable) == ("retry", "safe", True)
    assert resp.error_type is ErrorCategory.TRANSIENT_ERROR
    stop = StructuredErrorResponse.for_kind(Kind.INVALID_PASSWORD, "no", backend="tool")
    assert (stop.action, stop.retry_safety, stop.backend) == ("stop", "not_applicable", "tool")
    with pytest.raises(TypeError, match="not a field"):
        StructuredErrorResponse.for_kind(Kind.UNKNOWN, "x", colour="red")


def test_a_record_built_by_its_own_new_is_the_one_its_class_builds() -> None:
    # The hot paths build the answer, the mapper's answer and its input
    # through `builder`: by keyword, a record equal to the class's own, of
    # the class, defaults filled, and an unknown keyword refused as the
    # class refuses it.
    from localdata_errors._mapper import ErrorInput, MappedError, new_mapped_error
    from localdata_errors._response import builder

    mapped = new_mapped_error(Kind.UNIQUE_VIOLATION, code="23505", constraint="u_email")
    assert type(mapped) is MappedError
    assert mapped == MappedError(Kind.UNIQUE_VIOLATION, code="23505", constraint="u_email")
    assert mapped.affected_resources == ()
    assert mapped.retryable is None
    given = builder(ErrorInput)(None, "boom", driver="psycopg")
    assert given == ErrorInput(None, "boom", None, "psycopg", False)
    answer = builder(StructuredErrorResponse)(
        ErrorCategory.CONSTRAINT_ERROR, Kind.UNIQUE_VIOLATION, backend="postgresql"
    )
    assert answer == StructuredErrorResponse(
        ErrorCategory.CONSTRAINT_ERROR, Kind.UNIQUE_VIOLATION, backend="postgresql"
    )
    assert type(answer) is StructuredErrorResponse
    with pytest.raises(TypeError):
        new_mapped_error(Kind.UNKNOWN, cod="x")  # type: ignore[call-arg]
