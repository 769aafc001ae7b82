"""
LangChain and LangGraph: real agents and graphs, driven by LangChain's own
fake chat model with scripted tool calls, call a tool that runs real SQL.

- `create_agent` with `ToolErrorMiddleware(on_tool_error)` outside
  `ToolRetryMiddleware(retry_on=retry_on())`: a missing table reaches the
  model, which fixes the name; `database is locked` is retried by the
  middleware without a model turn; a read-only write stops;
- `StructuredTool(handle_tool_error=handle_tool_error)` with
  `raise_tool_exception`;
- a LangGraph `StateGraph` whose `ToolNode(handle_tool_errors=handle_tool_errors)`
  runs the tool;
- PostgreSQL: a terminated backend is retried (on a new connection) only
  for an idempotent tool.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_module

require_module("langchain")
require_module("langgraph")

from langchain.agents import create_agent
from langchain.agents.middleware import ToolErrorMiddleware, ToolRetryMiddleware
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import StructuredTool, ToolException
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from localdata_errors.integrations.langchain import (
    handle_tool_error,
    handle_tool_errors,
    on_tool_error,
    raise_tool_exception,
    retry_on,
)
from tests.integrations.conftest import WriteLock, terminate_pg_backend


class ScriptedChatModel(FakeMessagesListChatModel):
    """LangChain's fake chat model, accepting tools as a real chat model does."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        return self


def sql_call(sql: str, call_id: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "run_sql", "args": {"sql": sql}, "id": call_id}])


def tool_messages(messages: list[BaseMessage]) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage)]


def model_turns(messages: list[BaseMessage]) -> int:
    return sum(isinstance(m, AIMessage) for m in messages)


def structured(message: ToolMessage) -> dict[str, Any]:
    return dict(json.loads(str(message.content).splitlines()[1]))


class SqliteTool:
    """A `run_sql` tool on a SQLite file; counts the calls that reached the database."""

    def __init__(
        self, path: Path, *, read_only: bool = False, lock: WriteLock | None = None
    ) -> None:
        self.target = f"file:{path}?mode=ro" if read_only else f"file:{path}"
        self.lock = lock
        self.executed: list[str] = []

    def run_sql(self, sql: str) -> str:
        """Run one SQL statement and return its rows."""
        self.executed.append(sql)
        # timeout=0: fail at once on a lock instead of sqlite3's own 5 s wait.
        conn = sqlite3.connect(self.target, uri=True, timeout=0)
        try:
            with conn:
                return json.dumps(conn.execute(sql).fetchall())
        except sqlite3.OperationalError:
            if self.lock is not None:
                self.lock.release()  # refused once: the holder commits before the retry
            raise
        finally:
            conn.close()


def middleware_agent(model: ScriptedChatModel, tool: SqliteTool, **retry: Any) -> Any:
    run_sql = StructuredTool.from_function(tool.run_sql, name="run_sql")
    return create_agent(
        model,
        tools=[run_sql],
        middleware=[
            ToolErrorMiddleware(on_tool_error),
            ToolRetryMiddleware(retry_on=retry_on(**retry), on_failure="error"),
        ],
    )


# -- create_agent with the middleware ------------------------------------------------


def test_agent_missing_table_reaches_the_model_which_fixes_the_name(shop_db: Path) -> None:
    tool = SqliteTool(shop_db)
    model = ScriptedChatModel(
        responses=[
            sql_call("SELECT item FROM ordrs ORDER BY id", "c1"),
            sql_call("SELECT item FROM orders ORDER BY id", "c2"),
            AIMessage("tea and cake"),
        ]
    )
    out = middleware_agent(model, tool).invoke({"messages": [HumanMessage("What was ordered?")]})

    first, second = tool_messages(out["messages"])
    assert first.status == "error"
    assert str(first.content).startswith("fix_query:")
    assert structured(first)["kind"] == "undefined_table"
    assert structured(first)["affected_resources"] == ["ordrs"]
    assert second.status == "success"
    assert json.loads(str(second.content)) == [["tea"], ["cake"]]
    assert len(tool.executed) == 2  # the missing table was not retried in code
    assert model_turns(out["messages"]) == 3


def test_agent_database_locked_is_retried_by_the_middleware_without_a_model_turn(
    shop_db: Path, write_lock: WriteLock
) -> None:
    tool = SqliteTool(shop_db, lock=write_lock)
    model = ScriptedChatModel(
        responses=[sql_call("INSERT INTO orders (item) VALUES ('scone')", "c1"), AIMessage("ok")]
    )
    # run_sql opens and closes its own connection: atomic, nothing of it stands.
    agent = middleware_agent(model, tool, atomic=True)
    with write_lock:
        out = agent.invoke({"messages": [HumanMessage("Order a scone.")]})

    (only,) = tool_messages(out["messages"])
    assert only.status == "success"
    assert len(tool.executed) == 2  # refused on the lock, then written after the release
    assert model_turns(out["messages"]) == 2
    conn = sqlite3.connect(shop_db)
    try:
        items = [row[0] for row in conn.execute("SELECT item FROM orders ORDER BY id")]
    finally:
        conn.close()
    assert items == ["tea", "cake", "held", "scone"]


def test_agent_lock_that_outlasts_the_middleware_retries_says_what_the_others_say(
    shop_db: Path, write_lock: WriteLock
) -> None:
    tool = SqliteTool(shop_db)  # the lock is held throughout
    model = ScriptedChatModel(
        responses=[
            sql_call("INSERT INTO orders (item) VALUES ('scone')", "c1"),
            AIMessage("The database stays locked; I told the user."),
        ]
    )
    agent = create_agent(
        model,
        tools=[StructuredTool.from_function(tool.run_sql, name="run_sql")],
        middleware=[
            ToolErrorMiddleware(on_tool_error),
            ToolRetryMiddleware(
                retry_on=retry_on(atomic=True),
                max_retries=2,
                initial_delay=0,
                jitter=False,
                on_failure="error",
            ),
        ],
    )
    with write_lock:
        out = agent.invoke({"messages": [HumanMessage("Order a scone.")]})

    (only,) = tool_messages(out["messages"])
    assert only.status == "error"
    # The same words as Pydantic AI's and the OpenAI Agents SDK's adapters: the
    # code already retried it, so the same call is not the model's next move.
    assert str(only.content).splitlines()[0] == (
        "retry: still failing after the code retried it. Try again later, or tell the user."
    )
    assert structured(only)["kind"] == "database_locked"
    assert len(tool.executed) == 3
    assert model_turns(out["messages"]) == 2


def test_agent_statement_scoped_lock_is_not_retried_for_a_tool_that_may_have_written(
    shop_db: Path, write_lock: WriteLock
) -> None:
    tool = SqliteTool(shop_db, lock=write_lock)
    model = ScriptedChatModel(
        responses=[
            sql_call("INSERT INTO orders (item) VALUES ('scone')", "c1"),
            AIMessage("I told the user."),
        ]
    )
    # Neither atomic nor idempotent, no rollback: SQLite undid only the refused
    # statement, so a resend could repeat what the tool wrote before it.
    with write_lock:
        out = middleware_agent(model, tool).invoke({"messages": [HumanMessage("Order a scone.")]})

    (only,) = tool_messages(out["messages"])
    assert only.status == "error"
    first = str(only.content).splitlines()[0]
    assert first.startswith("retry: the database undid only the statement that failed")
    assert "for a write, tell the user" in first
    assert len(tool.executed) == 1


def test_agent_read_only_write_stops_and_is_not_retried(shop_db: Path) -> None:
    tool = SqliteTool(shop_db, read_only=True)
    model = ScriptedChatModel(
        responses=[
            sql_call("INSERT INTO orders (item) VALUES ('scone')", "c1"),
            AIMessage("The database is read-only; I told the user."),
        ]
    )
    out = middleware_agent(model, tool, idempotent=True).invoke(
        {"messages": [HumanMessage("Order a scone.")]}
    )

    (only,) = tool_messages(out["messages"])
    assert only.status == "error"
    assert str(only.content).startswith("stop: tell the user.")
    assert structured(only)["kind"] == "read_only"
    assert len(tool.executed) == 1
    assert model_turns(out["messages"]) == 2


def test_agent_lets_a_bug_in_the_tool_propagate(shop_db: Path) -> None:
    def run_sql(sql: str) -> str:
        """Run one SQL statement."""
        raise KeyError(sql)

    model = ScriptedChatModel(responses=[sql_call("SELECT 1", "c1"), AIMessage("unreachable")])
    agent = create_agent(
        model,
        tools=[StructuredTool.from_function(run_sql)],
        middleware=[
            ToolErrorMiddleware(on_tool_error),
            ToolRetryMiddleware(retry_on=retry_on(), on_failure="error"),
        ],
    )
    with pytest.raises(KeyError):
        agent.invoke({"messages": [HumanMessage("go")]})


# -- StructuredTool(handle_tool_error=...) -------------------------------------------


def test_structured_tool_handle_tool_error_renders_each_path(shop_db: Path) -> None:
    writable = SqliteTool(shop_db)
    read_only = SqliteTool(shop_db, read_only=True)
    tools = [
        StructuredTool.from_function(
            raise_tool_exception(writable.run_sql),
            name="run_sql",
            handle_tool_error=handle_tool_error,
        ),
        StructuredTool.from_function(
            raise_tool_exception(read_only.run_sql),
            name="run_sql_read_only",
            handle_tool_error=handle_tool_error,
        ),
    ]
    model = ScriptedChatModel(
        responses=[
            sql_call("SELECT item FROM ordrs", "c1"),
            AIMessage(
                "",
                tool_calls=[
                    {
                        "name": "run_sql_read_only",
                        "args": {"sql": "DELETE FROM orders"},
                        "id": "c2",
                    }
                ],
            ),
            AIMessage("done"),
        ]
    )
    out = create_agent(model, tools=tools).invoke({"messages": [HumanMessage("go")]})

    missing, stop = tool_messages(out["messages"])
    assert missing.status == "error"
    assert structured(missing)["action"] == "fix_query"
    assert stop.status == "error"
    assert str(stop.content).startswith("stop:")
    assert structured(stop)["kind"] == "read_only"
    assert model_turns(out["messages"]) == 3


def test_handle_tool_error_keeps_langchains_text_for_other_tool_exceptions() -> None:
    assert handle_tool_error(ToolException("quota of the day used up")) == (
        "quota of the day used up"
    )


# -- LangGraph: ToolNode(handle_tool_errors=...) -------------------------------------


def tool_node_graph(model: ScriptedChatModel, tool: Any) -> Any:
    def call_model(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode([tool], handle_tool_errors=handle_tool_errors))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile()


def test_tool_node_missing_table_then_fixed(shop_db: Path) -> None:
    tool = SqliteTool(shop_db)
    model = ScriptedChatModel(
        responses=[
            sql_call("SELECT itm FROM orders", "c1"),
            sql_call("SELECT item FROM orders ORDER BY id", "c2"),
            AIMessage("tea and cake"),
        ]
    )
    graph = tool_node_graph(model, StructuredTool.from_function(tool.run_sql, name="run_sql"))
    out = graph.invoke({"messages": [HumanMessage("What was ordered?")]})

    first, second = tool_messages(out["messages"])
    assert first.status == "error"
    assert structured(first)["kind"] == "undefined_column"
    assert second.status == "success"
    assert model_turns(out["messages"]) == 3


def test_tool_node_read_only_write_stops(shop_db: Path) -> None:
    tool = SqliteTool(shop_db, read_only=True)
    model = ScriptedChatModel(
        responses=[sql_call("UPDATE orders SET item = 'pie'", "c1"), AIMessage("told the user")]
    )
    graph = tool_node_graph(model, StructuredTool.from_function(tool.run_sql, name="run_sql"))
    out = graph.invoke({"messages": [HumanMessage("Rename.")]})

    (only,) = tool_messages(out["messages"])
    assert only.status == "error"
    assert str(only.content).startswith("stop: tell the user.")
    assert len(tool.executed) == 1
    assert model_turns(out["messages"]) == 2


def test_tool_node_keeps_its_defaults_for_other_errors(shop_db: Path) -> None:
    def run_sql(sql: str) -> str:
        """Run one SQL statement."""
        raise KeyError(sql)

    tool = StructuredTool.from_function(run_sql)
    bad_arguments = ScriptedChatModel(
        responses=[
            AIMessage("", tool_calls=[{"name": "run_sql", "args": {"query": 1}, "id": "c1"}]),
            AIMessage("fixed"),
        ]
    )
    out = tool_node_graph(bad_arguments, tool).invoke({"messages": [HumanMessage("go")]})
    (invalid,) = tool_messages(out["messages"])
    assert invalid.status == "error"
    assert "sql" in str(invalid.content)  # LangGraph's own validation message

    bug = ScriptedChatModel(responses=[sql_call("SELECT 1", "c1"), AIMessage("unreachable")])
    with pytest.raises(KeyError):
        tool_node_graph(bug, tool).invoke({"messages": [HumanMessage("go")]})


# -- PostgreSQL: retry_safety decides whether the middleware resends -----------------


@pytest.mark.postgresql
@pytest.mark.parametrize("idempotent", [True, False])
def test_terminated_backend_is_resent_only_for_an_idempotent_tool(
    pg_server: dict[str, object], idempotent: bool
) -> None:
    psycopg = require_module("psycopg")
    holder = {"conn": psycopg.connect(**pg_server, autocommit=True)}
    executed: list[str] = []
    reconnects: list[int] = []

    def reconnect() -> None:
        reconnects.append(1)
        holder["conn"].close()
        holder["conn"] = psycopg.connect(**pg_server, autocommit=True)

    def run_sql(sql: str) -> str:
        """Run one SQL statement."""
        executed.append(sql)
        return json.dumps(holder["conn"].execute(sql).fetchall())

    terminate_pg_backend(psycopg, pg_server, holder["conn"].info.backend_pid)

    model = ScriptedChatModel(responses=[sql_call("SELECT 41 + 1", "c1"), AIMessage("done")])
    agent = create_agent(
        model,
        tools=[StructuredTool.from_function(run_sql)],
        middleware=[
            ToolErrorMiddleware(on_tool_error),
            ToolRetryMiddleware(
                retry_on=retry_on(idempotent=idempotent, reconnect=reconnect),
                on_failure="error",
                initial_delay=0.05,
            ),
        ],
    )
    try:
        out = agent.invoke({"messages": [HumanMessage("Add.")]})
    finally:
        holder["conn"].close()

    (only,) = tool_messages(out["messages"])
    assert model_turns(out["messages"]) == 2
    if idempotent:
        assert only.status == "success"
        assert json.loads(str(only.content)) == [[42]]
        assert len(executed) == 2
        assert len(reconnects) == 1
    else:
        assert only.status == "error"
        assert "a write may have committed" in str(only.content)
        assert structured(only)["retry_safety"] == "idempotent_only"
        assert len(executed) == 1
        assert reconnects == []
