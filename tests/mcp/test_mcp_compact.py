"""
The SQL tool server's failures, as a model reads them by default: the compact form.

The JSON-RPC shape (`--verbose-errors`) names the kind three times and adds a
JSON-RPC code, a timestamp, the tool's name and both `backend` and
`database`: 850 to 1,430 characters an error, against 33 to 160 a success.
The compact form is the tool shape (nothing empty, nothing that only
restates another field) and what the server itself adds (the names it
suggests, the fields a call got wrong), with the history only when it bears
on the failure.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.mcp._harness import Backend, StdioServer

# What the compact form may hold: the tool shape's keys, and what the server
# itself added to the failure (its `details` beyond the answer's own fields).
TOOL_SHAPE = {
    "status", "error", "error_code", "error_type", "is_retryable", "action", "kind",
    "suggestion", "retry_safety", "retry_after_ms", "affected_resources", "dependencies",
    "suggested_actions",
}  # fmt: skip
ANSWER_DETAILS = {
    "kind", "is_retryable", "action", "retry_safety", "database_error_code", "backend",
    "retry_after_ms", "sqlstate", "database", "constraint", "schema", "affected_resources",
    "dependencies",
}  # fmt: skip
JSONRPC_ONLY = {"success", "jsonrpc_error_code", "timestamp", "tool_name", "details", "suggestions"}


@pytest.fixture(scope="module")
def servers(backend: Backend) -> Iterator[tuple[StdioServer, StdioServer]]:
    """The default (compact) server and a --verbose-errors one, on the same database."""
    compact = StdioServer(backend.url, "--timeout", "60", compact=True)
    verbose = StdioServer(backend.url, "--timeout", "60")
    try:
        yield compact, verbose
    finally:
        compact.close()
        verbose.close()


FAILURES: list[tuple[str, dict[str, Any]]] = [
    ("select_rows", {"table": "custmers"}),
    ("select_rows", {"table": "customers", "columns": ["nmae"]}),
    ("execute_sql", {"sql": "SELEC 1"}),
    ("execute_sql", {"sql": "SELECT * FROM no_such_table"}),
    ("insert_rows", {"table": "customers", "rows": [{"id": 1, "name": "dup"}]}),
    ("delete_rows", {"table": "customers"}),
    ("select_rows", {"table": "customers", "limit": "many"}),
]


@pytest.mark.usefixtures("shop")
@pytest.mark.parametrize(("tool", "arguments"), FAILURES)
def test_a_failure_is_compact_by_default(
    servers: tuple[StdioServer, StdioServer], tool: str, arguments: dict[str, Any]
) -> None:
    compact, verbose = servers
    small = compact.fail(tool, arguments)
    full = verbose.fail(tool, arguments)
    assert not set(small) & JSONRPC_ONLY, small
    server_own = set(full["details"]) - ANSWER_DETAILS
    assert set(small) - TOOL_SHAPE <= server_own | {"history", "repeated_call"}, small
    # The same answer: its kind, its next step and the server's hints.
    kind = small.get("kind", small["error_type"])
    assert kind.upper() == full["error_code"]
    assert small["action"] == full["details"]["action"]
    assert small["is_retryable"] == full["details"]["is_retryable"]
    for key in server_own:
        assert small.get(key) == full["details"][key] or full["details"][key] in (None, [], {}, "")
    # Said once: the kind at most once, and fewer characters than the JSON-RPC shape.
    text = json.dumps(small)
    assert text.count(f'"{kind}"') <= 1
    assert len(text) < len(json.dumps(full))


@pytest.mark.usefixtures("shop")
def test_the_history_comes_only_with_the_failure_it_bears_on(
    servers: tuple[StdioServer, StdioServer],
) -> None:
    compact, _ = servers
    for _ in range(3):
        compact.fail("execute_sql", {"sql": "SELEC 1"})
    unrelated = compact.fail("update_rows", {"table": "customers", "values": {"nope": 1}})
    assert "SELEC" not in json.dumps(unrelated)
    again = compact.fail("execute_sql", {"sql": "SELEC 1"})
    assert "SELEC" in again.get("history", "") or "repeated_call" in again
