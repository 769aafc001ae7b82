"""
Pydantic AI: a real agent, driven by the framework's own `FunctionModel`,
calls a tool that runs real SQL; each database error takes its path.

- a missing table: `ModelRetry`, and the scripted model fixes the name;
- `database is locked` (another connection holds the write lock): retried in
  code, no model turn;
- a write to a read-only database: `ToolFailed` with the stop text, not
  retried;
- PostgreSQL: a terminated backend (retried only for an idempotent tool, on
  a new connection) and an aborted transaction (rolled back, then the model
  sends the work again).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_module

require_module("pydantic_ai")

from pydantic_ai import Agent, AgentRunResult
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from localdata_errors.integrations.pydantic_ai import database_tool, model_feedback
from tests.integrations.conftest import WriteLock, terminate_pg_backend

Script = Callable[[list[ToolReturnPart]], ModelResponse]


def scripted(script: Script) -> FunctionModel:
    """A model that answers from the tool results it has seen so far."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [
            part
            for message in messages
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, ToolReturnPart)
        ]
        return script(returns)

    return FunctionModel(respond)


def tool_returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [
        part
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def structured(part: ToolReturnPart) -> dict[str, Any]:
    """The JSON line of a rendered report."""
    text = str(part.content)
    return dict(json.loads(text.splitlines()[1]))


def run(agent: Agent[None, str], prompt: str) -> AgentRunResult[str]:
    # asyncio.run closes its loop; Agent.run_sync leaves a loop set on the
    # thread, which a later test's asyncio.run would drop unclosed.
    return asyncio.run(agent.run(prompt))


def call(sql: str) -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart("run_sql", {"sql": sql})])


def say(text: str) -> ModelResponse:
    return ModelResponse(parts=[TextPart(text)])


def test_missing_table_goes_back_to_the_model_which_fixes_the_name(shop_db: Path) -> None:
    executed: list[str] = []

    def script(returns: list[ToolReturnPart]) -> ModelResponse:
        if not returns:
            return call("SELECT item FROM ordrs ORDER BY id")
        last = returns[-1]
        if last.outcome == "retried":
            # What a model does with the report: the table it named is missing.
            report = structured(last)
            assert report["affected_resources"] == ["ordrs"]
            return call("SELECT item FROM orders ORDER BY id")
        return say(str(last.content))

    agent = Agent(scripted(script))

    @agent.tool_plain
    @database_tool
    def run_sql(sql: str) -> list[str]:
        """Run one SQL statement."""
        executed.append(sql)
        with sqlite3.connect(shop_db) as conn:
            rows = [row[0] for row in conn.execute(sql)]
        conn.close()
        return rows

    result = run(agent, "What was ordered?")

    first, second = tool_returns(result.all_messages())
    assert first.outcome == "retried"  # ModelRetry: the model rewrites the call
    assert str(first.content).startswith("fix_query:")
    assert structured(first)["kind"] == "undefined_table"
    assert second.outcome == "success"
    assert second.content == ["tea", "cake"]
    assert executed == ["SELECT item FROM ordrs ORDER BY id", "SELECT item FROM orders ORDER BY id"]
    assert result.usage.requests == 3  # call, fixed call, answer


def test_database_locked_is_retried_in_code_without_a_model_turn(
    shop_db: Path, write_lock: WriteLock
) -> None:
    attempts: list[int] = []

    def script(returns: list[ToolReturnPart]) -> ModelResponse:
        if not returns:
            return call("INSERT INTO orders (item) VALUES ('scone')")
        return say("done")

    agent = Agent(scripted(script))

    @agent.tool_plain
    @database_tool(atomic=True)  # its own connection, `with conn:`: nothing of it stands
    def run_sql(sql: str) -> int:
        """Run one SQL statement."""
        attempts.append(1)
        # timeout=0: fail at once on the lock instead of sqlite3's own 5 s wait.
        conn = sqlite3.connect(shop_db, timeout=0)
        try:
            with conn:
                return conn.execute(sql).rowcount
        except sqlite3.OperationalError:
            write_lock.release()  # refused once: the holder commits before the retry
            raise
        finally:
            conn.close()

    with write_lock:
        result = run(agent, "Order a scone.")

    (only,) = tool_returns(result.all_messages())
    assert only.outcome == "success"
    assert only.content == 1
    assert len(attempts) == 2  # refused on the lock, then written after the release
    assert result.usage.requests == 2  # the retry spent no model turn
    with sqlite3.connect(shop_db) as conn:
        items = [row[0] for row in conn.execute("SELECT item FROM orders ORDER BY id")]
    conn.close()
    assert items == ["tea", "cake", "held", "scone"]  # written once, after the holder's commit


def test_a_lock_that_outlasts_the_code_retries_is_reported_not_retried_by_the_model(
    shop_db: Path, write_lock: WriteLock
) -> None:
    attempts: list[int] = []

    def script(returns: list[ToolReturnPart]) -> ModelResponse:
        if not returns:
            return call("INSERT INTO orders (item) VALUES ('scone')")
        return say(str(returns[-1].content).splitlines()[0])

    agent = Agent(scripted(script))

    @agent.tool_plain
    @database_tool(atomic=True, max_attempts=3, max_delay_s=0.05)
    def run_sql(sql: str) -> int:
        """Run one SQL statement."""
        attempts.append(1)
        conn = sqlite3.connect(shop_db, timeout=0)
        try:
            with conn:
                return conn.execute(sql).rowcount
        finally:
            conn.close()

    with write_lock:  # held throughout
        result = run(agent, "Order a scone.")

    (only,) = tool_returns(result.all_messages())
    assert only.outcome == "failed"  # ToolFailed: no retry prompt
    # The same words as the LangChain and OpenAI Agents adapters.
    assert str(only.content).splitlines()[0] == (
        "retry: still failing after the code retried it. Try again later, or tell the user."
    )
    assert structured(only)["attempts"] == 3
    assert structured(only)["kind"] == "database_locked"
    assert len(attempts) == 3
    assert result.usage.requests == 2


def test_read_only_write_stops_and_is_not_retried(shop_db: Path) -> None:
    attempts: list[str] = []

    def script(returns: list[ToolReturnPart]) -> ModelResponse:
        if not returns:
            return call("INSERT INTO orders (item) VALUES ('scone')")
        return say(f"I cannot do that: {returns[-1].content}")

    agent = Agent(scripted(script))

    @agent.tool_plain
    @database_tool(idempotent=True, max_delay_s=0.01)
    def run_sql(sql: str) -> int:
        """Run one SQL statement."""
        attempts.append(sql)
        conn = sqlite3.connect(f"file:{shop_db}?mode=ro", uri=True, timeout=0)
        try:
            with conn:
                return conn.execute(sql).rowcount
        finally:
            conn.close()

    result = run(agent, "Order a scone.")

    (only,) = tool_returns(result.all_messages())
    assert only.outcome == "failed"  # ToolFailed: seen by the model, no retry prompt
    assert str(only.content).startswith("stop: tell the user.")
    assert structured(only)["kind"] == "read_only"
    assert len(attempts) == 1
    assert result.usage.requests == 2
    assert "stop: tell the user" in result.output


def test_async_tool_takes_the_same_paths(shop_db: Path) -> None:
    aiosqlite = require_module("aiosqlite")
    executed: list[str] = []

    def script(returns: list[ToolReturnPart]) -> ModelResponse:
        if not returns:
            return call("SELECT nme FROM orders")
        if returns[-1].outcome == "retried":
            return call("SELECT item FROM orders ORDER BY id")
        return say("done")

    agent = Agent(scripted(script))

    @agent.tool_plain
    @database_tool
    async def run_sql(sql: str) -> list[str]:
        """Run one SQL statement."""
        executed.append(sql)
        async with aiosqlite.connect(shop_db) as conn, conn.execute(sql) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    result = run(agent, "What was ordered?")

    first, second = tool_returns(result.all_messages())
    assert first.outcome == "retried"
    assert structured(first)["kind"] == "undefined_column"
    assert second.content == ["tea", "cake"]
    assert len(executed) == 2
    assert result.usage.requests == 3


def test_an_error_in_the_tools_own_code_is_not_turned_into_feedback(shop_db: Path) -> None:
    agent = Agent(scripted(lambda returns: call("SELECT 1")))

    @agent.tool_plain
    @database_tool
    def run_sql(sql: str) -> int:
        """Run one SQL statement."""
        raise KeyError(sql)

    with pytest.raises(KeyError):
        run(agent, "go")


def test_model_feedback_for_a_tool_that_catches_its_own_errors(shop_db: Path) -> None:
    from pydantic_ai import ModelRetry, ToolFailed

    conn = sqlite3.connect(f"file:{shop_db}?mode=ro", uri=True)
    try:
        with pytest.raises(sqlite3.Error) as missing:
            conn.execute("SELECT * FROM nowhere")
        with pytest.raises(sqlite3.Error) as read_only:
            conn.execute("DELETE FROM orders")
    finally:
        conn.close()
    assert isinstance(model_feedback(missing.value), ModelRetry)
    stop = model_feedback(read_only.value)
    assert isinstance(stop, ToolFailed)
    assert stop.message.startswith("stop:")


# -- PostgreSQL: a connection lost mid-call, an aborted transaction ------------------


class PgSession:
    """One psycopg connection a tool shares, which the test can have the server end."""

    def __init__(self, settings: dict[str, object]) -> None:
        self.psycopg = require_module("psycopg")
        self.settings = settings
        self.conn = self.psycopg.connect(**settings, autocommit=True)
        self.reconnects = 0
        self.rollbacks = 0

    def terminate(self) -> None:
        terminate_pg_backend(self.psycopg, self.settings, self.conn.info.backend_pid)

    def reconnect(self) -> None:
        self.reconnects += 1
        self.conn.close()
        self.conn = self.psycopg.connect(**self.settings, autocommit=True)

    def rollback(self) -> None:
        self.rollbacks += 1
        self.conn.rollback()

    def close(self) -> None:
        self.conn.close()


@pytest.mark.postgresql
@pytest.mark.parametrize("idempotent", [True, False])
def test_terminated_backend_is_retried_on_a_new_connection_only_when_idempotent(
    pg_server: dict[str, object], idempotent: bool
) -> None:
    session = PgSession(pg_server)
    attempts: list[int] = []

    def script(returns: list[ToolReturnPart]) -> ModelResponse:
        if not returns:
            return call("SELECT 41 + 1")
        return say("done")

    agent = Agent(scripted(script))

    @agent.tool_plain
    @database_tool(idempotent=idempotent, reconnect=session.reconnect, max_delay_s=0.2)
    def run_sql(sql: str) -> int:
        """Run one SQL statement."""
        attempts.append(1)
        row = session.conn.execute(sql).fetchone()
        assert row is not None
        return int(row[0])

    session.terminate()
    try:
        result = run(agent, "Add.")
    finally:
        session.close()

    (only,) = tool_returns(result.all_messages())
    assert result.usage.requests == 2
    if idempotent:
        assert only.outcome == "success"
        assert only.content == 42
        assert session.reconnects == 1
        assert len(attempts) == 2
    else:
        # The server ended the session while a statement may have run: not resent.
        assert only.outcome == "failed"
        assert "a write may have committed" in str(only.content)
        assert structured(only)["action"] == "reconnect"
        assert session.reconnects == 0
        assert len(attempts) == 1


@pytest.mark.postgresql
def test_async_tool_reconnects_with_an_async_callback(pg_server: dict[str, object]) -> None:
    psycopg = require_module("psycopg")
    attempts: list[int] = []
    reconnects: list[int] = []

    def script(returns: list[ToolReturnPart]) -> ModelResponse:
        if not returns:
            return call("SELECT 6 * 7")
        return say("done")

    async def scenario() -> tuple[AgentRunResult[str], int]:
        holder = {"conn": await psycopg.AsyncConnection.connect(**pg_server, autocommit=True)}
        old_pid = holder["conn"].info.backend_pid

        async def reconnect() -> None:
            reconnects.append(1)
            await holder["conn"].close()
            holder["conn"] = await psycopg.AsyncConnection.connect(**pg_server, autocommit=True)

        agent = Agent(scripted(script))

        @agent.tool_plain
        @database_tool(idempotent=True, reconnect=reconnect, max_delay_s=0.2)
        async def run_sql(sql: str) -> int:
            """Run one SQL statement."""
            attempts.append(1)
            cursor = await holder["conn"].execute(sql)
            row = await cursor.fetchone()
            assert row is not None
            return int(row[0])

        terminate_pg_backend(psycopg, pg_server, old_pid)
        try:
            return await agent.run("Multiply."), old_pid
        finally:
            new_pid = holder["conn"].info.backend_pid
            await holder["conn"].close()
            assert new_pid != old_pid

    result, _ = asyncio.run(scenario())
    (only,) = tool_returns(result.all_messages())
    assert only.outcome == "success"
    assert only.content == 42
    assert len(attempts) == 2
    assert reconnects == [1]
    assert result.usage.requests == 2


@pytest.mark.postgresql
def test_aborted_transaction_is_rolled_back_then_the_model_sends_the_work_again(
    pg_server: dict[str, object],
) -> None:
    session = PgSession(pg_server)
    session.conn.autocommit = False
    executed: list[str] = []

    def script(returns: list[ToolReturnPart]) -> ModelResponse:
        if not returns:
            return call("SELECT 1 / 0")
        if len(returns) == 1:
            return call("SELECT 2")
        if len(returns) == 2:
            return call("SELECT 3")
        return say("done")

    # Two retry prompts in a row: the division, then the aborted transaction.
    agent = Agent(scripted(script), retries=2)

    @agent.tool_plain
    @database_tool(rollback=session.rollback)
    def run_sql(sql: str) -> int:
        """Run one SQL statement in the session's open transaction."""
        executed.append(sql)
        row = session.conn.execute(sql).fetchone()
        assert row is not None
        return int(row[0])

    try:
        # The division fails as a fix_query error and leaves the transaction
        # aborted; the next statement meets 25P02.
        agent_result = run(agent, "Compute.")
    finally:
        session.close()

    division, aborted, after = tool_returns(agent_result.all_messages())
    assert division.outcome == "retried"
    assert structured(division)["kind"] == "division_by_zero"
    assert aborted.outcome == "retried"
    assert structured(aborted)["kind"] == "transaction_aborted"
    assert structured(aborted)["rolled_back"] is True
    assert str(aborted.content).startswith("rollback: the failed transaction was rolled back")
    assert session.rollbacks == 1
    assert after.outcome == "success"
    assert after.content == 3
    assert executed == ["SELECT 1 / 0", "SELECT 2", "SELECT 3"]
    assert agent_result.usage.requests == 4
