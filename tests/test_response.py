"""The response object and its four shapes."""

from __future__ import annotations

import json
import pickle
from datetime import UTC, datetime, timedelta, timezone

import pytest

from localdata_errors import ErrorCategory, Kind, StructuredErrorResponse, classify_message

LOCALDATA_KEYS = [
    "error", "error_type", "is_retryable", "message", "suggestion",
    "database_error_code", "database",
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
    assert out == {
        "status": "error",
        "error": "cannot drop table customers because other objects depend on it",
        "error_code": "2BP01",
        "error_type": "foreign_key_constraint",
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


def test_retry_hint_and_otel_attributes_are_on_the_response() -> None:
    deadlock = classify_message("deadlock detected", db_type="generic")
    assert deadlock.retry_after_hint.strategy == "immediate"
    fk = _fk()
    assert fk.retry_after_hint.max_attempts == 0
    attrs = fk.to_otel_attributes()
    assert attrs["db.system.name"] == "postgresql"
    assert attrs["db.response.status_code"] == "2BP01"
    json.dumps(attrs)
