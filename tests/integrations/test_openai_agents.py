"""
OpenAI Agents SDK: `Runner.run` with the SDK's own `ScriptedModel` (no network,
tracing off) calls a `function_tool` that runs real SQL, with
`failure_error_function` (and `retry_in_code` underneath where the test says).

- a missing table: the report goes to the model, which fixes the name;
- `database is locked`: retried in code, no model turn;
- a read-only write: the stop report, not retried;
- MariaDB: a lock wait timeout (1205) while another session holds the row,
  retried in code until the holder commits.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_module

require_module("agents")

from agents import Agent, FunctionTool, RunConfig, Runner, RunResult, function_tool
from agents.testing import ModelCall, ModelStep, ScriptedModel, assistant_message, function_call

from localdata_errors.integrations import retry_in_code
from localdata_errors.integrations.openai_agents import failure_error_function
from tests.integrations.conftest import WriteLock


def run(tool: FunctionTool, model: ScriptedModel, prompt: str = "go") -> RunResult:
    agent = Agent(name="shop", model=model, tools=[tool])
    return asyncio.run(Runner.run(agent, prompt, run_config=RunConfig(tracing_disabled=True)))


def outputs(result: RunResult) -> list[str]:
    """The tool outputs the model was shown, in order."""
    return [
        str(item.output) for item in result.new_items if type(item).__name__ == "ToolCallOutputItem"
    ]


def structured(output: str) -> dict[str, Any]:
    return dict(json.loads(output.splitlines()[1]))


def last_output(call: ModelCall) -> str:
    items = [
        i for i in call.input if isinstance(i, dict) and i.get("type") == "function_call_output"
    ]
    return str(items[-1]["output"])


def sqlite_tool(
    target: str,
    executed: list[str],
    *,
    code_retry: bool = False,
    lock: WriteLock | None = None,
) -> FunctionTool:
    def run_sql(sql: str) -> str:
        """
        Run one SQL statement and return its rows.

        Args:
            sql: The statement.
        """
        executed.append(sql)
        # timeout=0: fail at once on a lock instead of sqlite3's own 5 s wait.
        conn = sqlite3.connect(target, uri=True, timeout=0)
        try:
            with conn:
                return json.dumps(conn.execute(sql).fetchall())
        except sqlite3.OperationalError:
            if lock is not None:
                lock.release()  # refused once: the holder commits before the retry
            raise
        finally:
            conn.close()

    # run_sql opens and closes its own connection: atomic, nothing of it stands.
    body = retry_in_code(atomic=True)(run_sql) if code_retry else run_sql
    return function_tool(body, failure_error_function=failure_error_function)


def test_missing_table_reaches_the_model_which_fixes_the_name(shop_db: Path) -> None:
    executed: list[str] = []

    def fix(call: ModelCall) -> Any:
        report = structured(last_output(call))
        assert report["kind"] == "undefined_table"
        return [function_call("run_sql", {"sql": "SELECT item FROM orders"}, call_id="c2")]

    model = ScriptedModel(
        [
            [function_call("run_sql", {"sql": "SELECT item FROM ordrs"}, call_id="c1")],
            ModelStep.respond(fix),
            [assistant_message("tea and cake")],
        ]
    )
    result = run(sqlite_tool(f"file:{shop_db}", executed, code_retry=True), model)

    missing, fixed = outputs(result)
    assert missing.startswith("fix_query:")
    assert structured(missing)["affected_resources"] == ["ordrs"]
    assert json.loads(fixed) == [["tea"], ["cake"]]
    assert len(executed) == 2
    assert len(model.calls) == 3
    model.assert_complete()


def test_database_locked_is_retried_in_code_without_a_model_turn(
    shop_db: Path, write_lock: WriteLock
) -> None:
    executed: list[str] = []
    model = ScriptedModel(
        [
            [
                function_call(
                    "run_sql", {"sql": "INSERT INTO orders (item) VALUES ('scone')"}, call_id="c1"
                )
            ],
            [assistant_message("ordered")],
        ]
    )
    tool = sqlite_tool(f"file:{shop_db}", executed, code_retry=True, lock=write_lock)
    with write_lock:
        result = run(tool, model)

    (only,) = outputs(result)
    assert json.loads(only) == []
    assert len(executed) == 2  # refused on the lock, then written after the release
    assert len(model.calls) == 2
    model.assert_complete()


def test_a_lock_that_outlasts_the_code_retries_says_what_the_others_say(
    shop_db: Path, write_lock: WriteLock
) -> None:
    executed: list[str] = []

    def run_sql(sql: str) -> str:
        """
        Run one SQL statement.

        Args:
            sql: The statement.
        """
        executed.append(sql)
        conn = sqlite3.connect(shop_db, timeout=0)
        try:
            with conn:
                return json.dumps(conn.execute(sql).rowcount)
        finally:
            conn.close()

    model = ScriptedModel(
        [
            [
                function_call(
                    "run_sql", {"sql": "INSERT INTO orders (item) VALUES ('scone')"}, call_id="c1"
                )
            ],
            [assistant_message("still locked")],
        ]
    )
    body = retry_in_code(atomic=True, max_attempts=3, max_delay_s=0.01)(run_sql)
    tool = function_tool(body, failure_error_function=failure_error_function)
    with write_lock:  # held throughout
        result = run(tool, model)

    (only,) = outputs(result)
    # The same words as the Pydantic AI and LangChain adapters.
    assert only.splitlines()[0] == (
        "retry: still failing after the code retried it. Try again later, or tell the user."
    )
    assert structured(only)["attempts"] == 3
    assert len(executed) == 3
    model.assert_complete()


def test_database_locked_without_code_retry_goes_to_the_model_as_retry(
    shop_db: Path, write_lock: WriteLock
) -> None:
    executed: list[str] = []
    model = ScriptedModel(
        [
            [
                function_call(
                    "run_sql", {"sql": "INSERT INTO orders (item) VALUES ('scone')"}, call_id="c1"
                )
            ],
            [assistant_message("later")],
        ]
    )
    with write_lock:
        result = run(sqlite_tool(f"file:{shop_db}", executed), model)

    (only,) = outputs(result)
    assert only.startswith("retry:")
    # No code loop judged the tool: the model is told what a resend may repeat.
    assert "undid only the statement that failed" in only.splitlines()[0]
    assert structured(only)["kind"] == "database_locked"
    assert len(executed) == 1


def test_read_only_write_stops_and_is_not_retried(shop_db: Path) -> None:
    executed: list[str] = []

    def tell_the_user(call: ModelCall) -> Any:
        return [assistant_message(last_output(call).splitlines()[0])]

    model = ScriptedModel(
        [
            [function_call("run_sql", {"sql": "DELETE FROM orders"}, call_id="c1")],
            ModelStep.respond(tell_the_user),
        ]
    )
    tool = sqlite_tool(f"file:{shop_db}?mode=ro", executed, code_retry=True)
    result = run(tool, model)

    (only,) = outputs(result)
    assert only.startswith("stop: tell the user.")
    assert structured(only)["kind"] == "read_only"
    assert len(executed) == 1
    assert len(model.calls) == 2
    assert str(result.final_output).startswith("stop:")


def test_other_exceptions_get_the_sdks_own_text(shop_db: Path) -> None:
    def run_sql(sql: str) -> str:
        """
        Run one SQL statement.

        Args:
            sql: The statement.
        """
        raise KeyError(sql)

    model = ScriptedModel(
        [
            [function_call("run_sql", {"sql": "SELECT 1"}, call_id="c1")],
            [assistant_message("sorry")],
        ]
    )
    result = run(function_tool(run_sql, failure_error_function=failure_error_function), model)
    (only,) = outputs(result)
    assert only == "An error occurred while running the tool. Please try again."


@pytest.mark.mysql
def test_mariadb_lock_wait_timeout_is_retried_in_code(mysql_server: dict[str, object]) -> None:
    pymysql = require_module("pymysql")
    table = f"lde_agents_{uuid.uuid4().hex[:12]}"
    admin = pymysql.connect(**mysql_server, autocommit=True)
    admin.cursor().execute(f"CREATE TABLE {table} (id INT PRIMARY KEY, n INT) ENGINE=InnoDB")
    admin.cursor().execute(f"INSERT INTO {table} VALUES (1, 0)")
    holder = pymysql.connect(**mysql_server)
    refused = threading.Event()
    committed = threading.Event()
    executed: list[str] = []

    def run_sql(sql: str) -> str:
        """
        Run one SQL statement.

        Args:
            sql: The statement.
        """
        executed.append(sql)
        conn = pymysql.connect(**mysql_server, autocommit=True)
        try:
            cur = conn.cursor()
            cur.execute("SET SESSION innodb_lock_wait_timeout = 1")
            cur.execute(sql)
            return json.dumps(cur.rowcount)
        except pymysql.err.OperationalError:
            # Refused once: the holder commits before the code's retry.
            refused.set()
            committed.wait(10)
            raise
        finally:
            conn.close()

    def release() -> None:
        refused.wait(30)
        holder.commit()
        committed.set()

    model = ScriptedModel(
        [
            [
                function_call(
                    "run_sql", {"sql": f"UPDATE {table} SET n = 1 WHERE id = 1"}, call_id="c1"
                )
            ],
            [assistant_message("updated")],
        ]
    )
    # run_sql opens and closes its own connection: atomic, nothing of it stands.
    tool = function_tool(
        retry_in_code(atomic=True)(run_sql), failure_error_function=failure_error_function
    )
    try:
        holder.cursor().execute(f"SELECT * FROM {table} WHERE id = 1 FOR UPDATE")
        thread = threading.Thread(target=release)
        thread.start()
        try:
            result = run(tool, model)
        finally:
            refused.set()
            thread.join(10)
        (only,) = outputs(result)
        assert json.loads(only) == 1
        assert len(executed) == 2  # 1205 first, then the update once the holder committed
        assert len(model.calls) == 2
    finally:
        holder.close()
        admin.cursor().execute(f"DROP TABLE IF EXISTS {table}")
        admin.close()
