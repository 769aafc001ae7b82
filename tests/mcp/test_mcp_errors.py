"""
Structured tool errors on the official SDK: the decorator and the server-wide installation.

The servers here run in-process (the SDK's in-memory transport) with tools
that raise real driver exceptions from SQLite; what the client receives is
checked, not what the server meant to send.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, ErrorData, TextContent

from localdata_errors import Action, Kind, StructuredErrorResponse
from localdata_errors.mcp import (
    error_payload,
    install_structured_errors,
    structured_errors,
)

SECRET = "hunter2-Secret"


def missing_table() -> None:
    sqlite3.connect(":memory:").execute("SELECT * FROM orders")


def duplicate_key() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.execute("INSERT INTO t VALUES (1)")


def call(server: MCPServer[Any], tool: str, arguments: dict[str, Any]) -> CallToolResult:
    async def run() -> CallToolResult:
        async with Client(server) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(run)


def payload_of(result: CallToolResult) -> dict[str, Any]:
    assert result.is_error is True
    assert isinstance(result.structured_content, dict)
    assert json.loads(getattr(result.content[0], "text", "")) == result.structured_content
    return result.structured_content


class Recorder:
    """A history that keeps what it was told (ExecutionHistory's interface)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any], Any, Any]] = []

    def record(
        self,
        tool_name: str,
        arguments: dict[str, Any],
        *,
        error: Any = None,
        result: dict[str, Any] | None = None,
        db_type: str | None = None,
    ) -> None:
        self.calls.append((tool_name, arguments, error, result))

    def summary(self) -> str:
        return " | ".join(
            f"{name}:{'FAILED' if err is not None else 'OK'}" for name, _, err, _ in self.calls
        )


# -- the decorator ---------------------------------------------------------------


def test_decorated_sync_tool_returns_the_classified_database_error() -> None:
    server: MCPServer[Any] = MCPServer("t")

    @server.tool()
    @structured_errors
    def orders(customer: int) -> dict[str, Any]:
        missing_table()
        return {"customer": customer}

    payload = payload_of(call(server, "orders", {"customer": 1}))
    assert (payload["error_code"], payload["jsonrpc_error_code"]) == ("UNDEFINED_TABLE", -32001)
    assert payload["tool_name"] == "orders"
    assert payload["details"]["affected_resources"] == ["orders"]
    assert payload["details"]["backend"] == "sqlite"
    assert payload["message"] == "no such table: orders"


def test_decorated_async_tool_keeps_its_signature_and_success_result() -> None:
    server: MCPServer[Any] = MCPServer("t")

    @server.tool()
    @structured_errors(tool_name="add_pair", db_type="sqlite")
    async def add(a: int, b: int = 2) -> dict[str, Any]:
        """Add two numbers."""
        if a < 0:
            duplicate_key()
        return {"sum": a + b}

    async def schema() -> dict[str, Any]:
        async with Client(server) as client:
            return (await client.list_tools()).tools[0].input_schema

    assert anyio.run(schema)["required"] == ["a"]
    ok = call(server, "add", {"a": 1})
    assert not ok.is_error
    assert ok.structured_content == {"sum": 3}
    failed = payload_of(call(server, "add", {"a": -1}))
    assert (failed["error_code"], failed["jsonrpc_error_code"]) == ("UNIQUE_VIOLATION", -32003)
    assert failed["tool_name"] == "add_pair"


def test_unexpected_exception_leaks_nothing() -> None:
    server: MCPServer[Any] = MCPServer("t")

    @server.tool()
    @structured_errors
    def crash() -> str:
        raise KeyError(f"password={SECRET} in /etc/app/secrets.yaml")

    payload = payload_of(call(server, "crash", {}))
    assert (payload["error_code"], payload["jsonrpc_error_code"]) == ("INTERNAL_ERROR", -32603)
    assert payload["details"]["exception_type"] == "KeyError"
    text = json.dumps(payload)
    assert SECRET not in text
    assert "secrets.yaml" not in text
    assert "Traceback" not in text


def test_protocol_errors_stay_protocol_errors() -> None:
    server: MCPServer[Any] = MCPServer("t")

    @server.tool()
    @structured_errors
    def refuse() -> str:
        raise MCPError.from_error_data(ErrorData(code=-32602, message="bad cursor"))

    async def run() -> MCPError | None:
        async with Client(server) as client:
            try:
                await client.call_tool("refuse", {})
            except MCPError as exc:  # caught inside: the client's task group would wrap it
                return exc
        return None

    error = anyio.run(run)
    assert isinstance(error, MCPError)
    assert (error.error.code, error.error.message) == (-32602, "bad cursor")


def test_decorator_records_into_a_history() -> None:
    history = Recorder()
    server: MCPServer[Any] = MCPServer("t")

    @server.tool()
    @structured_errors(history=history)
    def maybe(fail: bool) -> dict[str, Any]:
        if fail:
            missing_table()
        return {"fine": True}

    call(server, "maybe", {"fail": False})
    payload = payload_of(call(server, "maybe", {"fail": True}))
    assert [(name, args, res) for name, args, _, res in history.calls] == [
        ("maybe", {"fail": False}, {"fine": True}),
        ("maybe", {"fail": True}, None),
    ]
    # The history records the answer the payload was rendered from, not the
    # exception to classify again.
    recorded = history.calls[1][2]
    assert isinstance(recorded, StructuredErrorResponse)
    assert (recorded.kind, recorded.backend) == (Kind.UNDEFINED_TABLE, "sqlite")
    assert recorded.message == payload["message"]
    assert payload["history"] == "maybe:OK | maybe:FAILED"


def test_an_installed_history_keeps_a_decorated_tools_answer() -> None:
    """A failure a tool rendered itself is recorded as classified, never classified again."""
    history = Recorder()
    server: MCPServer[Any] = MCPServer("t")

    @server.tool()
    @structured_errors(db_type="sqlite")
    def decorated() -> dict[str, Any]:
        missing_table()
        return {}

    @server.tool()
    def rendered() -> CallToolResult:
        # Someone else's tool: a plain result carrying the payload.
        try:
            duplicate_key()
        except sqlite3.Error as exc:
            payload = error_payload(exc, "rendered", db_type="sqlite")
        return CallToolResult(
            content=[TextContent(type="text", text=json.dumps(payload))],
            structured_content=payload,
            is_error=True,
        )

    install_structured_errors(server, history=history)
    first = payload_of(call(server, "decorated", {}))
    second = payload_of(call(server, "rendered", {}))
    kept = [err for _, _, err, _ in history.calls]
    assert all(isinstance(err, StructuredErrorResponse) for err in kept)
    # SQLite's own words: "no such table" and "UNIQUE constraint failed".
    assert [(e.kind, e.backend) for e in kept] == [
        (Kind.UNDEFINED_TABLE, "sqlite"),
        (Kind.UNIQUE_VIOLATION, "sqlite"),
    ]
    assert [e.message for e in kept] == [first["message"], second["message"]]
    assert kept[0].action is Action.FIX_QUERY


# -- installed on the whole server -------------------------------------------------


def installed(**options: Any) -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer("t")

    @server.tool()
    def lookup(table: str, limit: int = 10) -> dict[str, Any]:
        if table == "orders":
            missing_table()
        if table == "boom":
            raise RuntimeError(f"internal state {SECRET}")
        if table == "refused":
            raise ToolError("tables named refused are off limits")
        if table == "leak":
            raise sqlite3.OperationalError(f"cannot open {SECRET}")
        return {"table": table, "limit": limit}

    return install_structured_errors(server, **options)


def test_installed_validation_errors_name_the_fields() -> None:
    payload = payload_of(call(installed(), "lookup", {"limit": "many"}))
    assert (payload["error_code"], payload["jsonrpc_error_code"]) == ("INVALID_PARAMETER", -32000)
    assert payload["details"]["invalid_fields"] == ["limit", "table"]
    problems = {f["field"]: f["type"] for f in payload["details"]["fields"]}
    assert problems == {"table": "missing", "limit": "int_parsing"}
    assert "many" not in json.dumps(payload["details"])


def test_installed_database_error_crash_and_deliberate_error() -> None:
    server = installed(db_type="sqlite")
    db = payload_of(call(server, "lookup", {"table": "orders"}))
    assert (db["error_code"], db["details"]["backend"]) == ("UNDEFINED_TABLE", "sqlite")
    crash = payload_of(call(server, "lookup", {"table": "boom"}))
    assert (crash["jsonrpc_error_code"], crash["details"]["exception_type"]) == (
        -32603,
        "RuntimeError",
    )
    assert SECRET not in json.dumps(crash)
    deliberate = payload_of(call(server, "lookup", {"table": "refused"}))
    assert (deliberate["error_code"], deliberate["message"]) == (
        "TOOL_ERROR",
        "tables named refused are off limits",
    )
    unknown = payload_of(call(server, "nope", {}))
    assert unknown["error_code"] == "TOOL_ERROR"
    assert "nope" in unknown["message"]


def test_installed_secrets_are_masked() -> None:
    payload = payload_of(call(installed(secrets=[SECRET]), "lookup", {"table": "leak"}))
    assert SECRET not in json.dumps(payload)
    assert payload["message"] == "cannot open ***"


def test_installed_history_per_session() -> None:
    made: list[Recorder] = []

    def factory() -> Recorder:
        made.append(Recorder())
        return made[-1]

    server = installed(
        history_per_session=factory, history_arguments=lambda name, args: {**args, "seen": name}
    )

    async def session() -> list[CallToolResult]:
        async with Client(server) as client:
            return [
                await client.call_tool("lookup", {"table": "t"}),
                await client.call_tool("lookup", {"table": "orders"}),
            ]

    first = anyio.run(session)
    assert first[0].structured_content == {"table": "t", "limit": 10}
    assert payload_of(first[1])["history"] == "lookup:OK | lookup:FAILED"
    assert len(made) == 1
    assert made[0].calls[0][1] == {"table": "t", "seen": "lookup"}


def test_error_payload_for_sqlalchemy_wrapped_errors() -> None:
    sa = pytest.importorskip("sqlalchemy")
    engine = sa.create_engine("sqlite://")
    with engine.connect() as conn, pytest.raises(sa.exc.OperationalError) as caught:
        conn.exec_driver_sql("SELECT * FROM invoices")
    payload = error_payload(caught.value, "q")
    assert (payload["error_code"], payload["details"]["affected_resources"]) == (
        "UNDEFINED_TABLE",
        ["invoices"],
    )
    assert "[SQL:" not in payload["message"]


def test_importing_the_core_imports_neither_mcp_nor_sqlalchemy() -> None:
    code = (
        "import sys, localdata_errors, localdata_errors._classify; "
        "assert 'mcp' not in sys.modules, 'mcp'; "
        "assert 'sqlalchemy' not in sys.modules, 'sqlalchemy'; "
        "import localdata_errors.mcp.server; "
        "drivers = {'psycopg', 'psycopg2', 'pymysql', 'MySQLdb', 'duckdb', 'oracledb'}; "
        "assert not drivers & set(sys.modules), drivers & set(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_run_server_rejects_an_unknown_transport() -> None:
    from localdata_errors.mcp.server import ServerSettings, run_server

    with pytest.raises(ValueError, match="unknown transport 'carrier-pigeon'"):
        run_server(ServerSettings("sqlite://", transport="carrier-pigeon"))


def test_http_transport_serves_on_loopback(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "localdata_errors.mcp.server",
            "--url",
            f"sqlite:///{tmp_path / 'h.db'}",
            "--create",
            "--transport",
            "http",
            "--port",
            str(port),
        ],
        cwd=Path(__file__).resolve().parents[2],
        stdout=log,
        stderr=log,
    )
    try:
        for _ in range(200):
            with socket.socket() as conn:
                if conn.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            time.sleep(0.1)

        async def run() -> CallToolResult:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await client.call_tool("list_tables", {})
                return await client.call_tool("describe_table", {"table": "missing"})

        payload = payload_of(anyio.run(run))
        assert payload["kind"] == "undefined_table"
        assert "history" not in payload  # list_tables bears on nothing here
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()
