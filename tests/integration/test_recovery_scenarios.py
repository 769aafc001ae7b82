"""
Recovery across steps on real engines: SQLite (foreign keys on), PostgreSQL
and MariaDB raise the real foreign-key, missing-table and syntax errors; the
execution history must show what changed and what may now succeed, and a
scripted agent that reads only the structured fields and the summary must
finish the job.

Each server test works in its own uniquely named schema (PostgreSQL) or
database (MariaDB) and drops it afterwards.
"""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import ToolErrorType, classify_error
from localdata_errors.history import ExecutionHistory
from tests.conftest import require_module

SCHEMA = (
    "CREATE TABLE customers (id INTEGER PRIMARY KEY)",
    "CREATE TABLE products (id INTEGER PRIMARY KEY)",
    "CREATE TABLE sales (id INTEGER PRIMARY KEY, customer_id INTEGER, product_id INTEGER, "
    "FOREIGN KEY (customer_id) REFERENCES customers (id), "
    "FOREIGN KEY (product_id) REFERENCES products (id))",
    "CREATE TABLE staging (id INTEGER PRIMARY KEY)",
    "INSERT INTO customers VALUES (1)",
    "INSERT INTO products VALUES (1)",
    "INSERT INTO sales VALUES (1, 1, 1)",
)


class Engine:
    """One database to run statements on, as an agent's ``execute_sql`` tool does."""

    db_type: str = ""
    # Whether the server's error names the other table of the foreign key:
    # the referencing one for a blocked DROP, the referenced one for a child row.
    names_dependents = False
    names_parent = False
    # How the history showed each statement (its values masked).
    shown: dict[str, str]

    def __init__(self) -> None:
        self.shown = {}

    def execute(self, sql: str) -> object:
        """Run *sql*; return the result (``{"rowcount": n}``) or raise the driver's error."""
        raise NotImplementedError

    def tables(self) -> set[str]:
        raise NotImplementedError

    def run(self, history: ExecutionHistory, sql: str) -> tuple[bool, Any]:
        """Execute and record; return (succeeded, result or classified error)."""
        try:
            result = self.execute(sql)
        except Exception as exc:
            response = classify_error(exc, self.db_type)
            self.shown[sql] = history.record("execute_sql", {"sql": sql}, error=response).operation
            return False, response
        self.shown[sql] = history.record("execute_sql", {"sql": sql}, result=result).operation
        return True, result


class SQLiteEngine(Engine):
    db_type = "sqlite"

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA foreign_keys=ON")

    def execute(self, sql: str) -> object:
        return {"rowcount": self.conn.execute(sql).rowcount}

    def tables(self) -> set[str]:
        rows = self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {r[0] for r in rows}


class PostgresEngine(Engine):
    db_type = "postgresql"
    names_dependents = True  # 2BP01's DETAIL names the constraint's table
    names_parent = True  # 23503's DETAIL names the referenced table

    def __init__(self, settings: dict[str, object]) -> None:
        super().__init__()
        psycopg = require_module("psycopg")
        self.schema = f"lde_recovery_{uuid.uuid4().hex[:12]}"
        self.conn = psycopg.connect(**settings, autocommit=True)
        self.conn.execute(f"CREATE SCHEMA {self.schema}")
        self.conn.execute(f"SET search_path TO {self.schema}")

    def execute(self, sql: str) -> object:
        return {"rowcount": self.conn.execute(sql).rowcount}

    def tables(self) -> set[str]:
        rows = self.conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (self.schema,),
        )
        return {r[0] for r in rows}

    def close(self) -> None:
        self.conn.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
        self.conn.close()


class MariaDBEngine(Engine):
    db_type = "mysql"
    names_parent = True  # 1452 quotes the constraint; 1451 on DROP names nothing

    def __init__(self, settings: dict[str, object]) -> None:
        super().__init__()
        pymysql = require_module("pymysql")
        self.database = f"lde_recovery_{uuid.uuid4().hex[:12]}"
        options = {k: v for k, v in settings.items() if k != "database"}
        self.conn = pymysql.connect(**options, autocommit=True)
        with self.conn.cursor() as cur:
            cur.execute(f"CREATE DATABASE {self.database}")
            cur.execute(f"USE {self.database}")

    def execute(self, sql: str) -> object:
        with self.conn.cursor() as cur:
            return {"affectedRows": cur.execute(sql)}

    def tables(self) -> set[str]:
        with self.conn.cursor() as cur:
            cur.execute("SHOW TABLES")
            return {r[0] for r in cur.fetchall()}

    def close(self) -> None:
        with self.conn.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS {self.database}")
        self.conn.close()


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgresql", marks=pytest.mark.postgresql),
        pytest.param("mariadb", marks=pytest.mark.mysql),
    ]
)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """The shop schema (customers, products <- sales; staging) on each engine."""
    db: Engine
    if request.param == "sqlite":
        db = SQLiteEngine(tmp_path / "shop.db")
    elif request.param == "postgresql":
        db = PostgresEngine(request.getfixturevalue("pg_server"))
    else:
        db = MariaDBEngine(request.getfixturevalue("mysql_server"))
    try:
        for sql in SCHEMA:
            db.execute(sql)
        yield db
    finally:
        if isinstance(db, PostgresEngine | MariaDBEngine):
            db.close()
        elif isinstance(db, SQLiteEngine):
            db.conn.close()


def unblocked_line(history: ExecutionHistory) -> str:
    return next(
        (line for line in history.summary().splitlines() if line.startswith("Possibly unblocked:")),
        "",
    )


def test_drop_scenario(engine: Engine) -> None:
    history = ExecutionHistory(max_entries=5)
    ok, customers = engine.run(history, "DROP TABLE customers")
    assert not ok
    assert customers.info.tool_error_type is ToolErrorType.FOREIGN_KEY_CONSTRAINT
    # Where the server names the referencing table, it is the dependency.
    assert customers.dependencies == (("sales",) if engine.names_dependents else ())
    ok, _ = engine.run(history, "DROP TABLE products")
    assert not ok
    assert engine.run(history, "DROP TABLE sales")[0]

    lines = history.summary().splitlines()
    assert lines[:3] == [
        "<TOOL_EXECUTION_SUMMARY>",
        "Recent tool executions:",
        "- execute_sql: DROP TABLE sales → SUCCESS (table sales dropped)",
    ]
    depends = ": depends on sales" if customers.dependencies else ""
    assert (
        lines[3] == f"- execute_sql: DROP TABLE products → FAILED (foreign_key_constraint{depends})"
    )
    assert (
        lines[4]
        == f"- execute_sql: DROP TABLE customers → FAILED (foreign_key_constraint{depends})"
    )
    assert lines[5] == "State changes: table sales dropped."
    reason = (
        "their dependency sales no longer exists"
        if customers.dependencies
        else "table sales dropped since they failed"
    )
    assert lines[6] == (
        "Possibly unblocked: retry `DROP TABLE customers`, `DROP TABLE products` unchanged "
        f"({reason})."
    )
    assert lines[7:] == ["</TOOL_EXECUTION_SUMMARY>"]

    assert engine.run(history, "DROP TABLE customers")[0]
    assert unblocked_line(history).startswith("Possibly unblocked: retry `DROP TABLE products` ")
    assert engine.run(history, "DROP TABLE products")[0]
    assert unblocked_line(history) == ""
    assert engine.tables() == {"staging"}


def agent(
    engine: Engine, history: ExecutionHistory, statements: list[str], budget: int
) -> list[str]:
    """
    A scripted agent: runs the user's statements, using only the structured
    fields (retryable? syntax error?) and the summary's "Possibly unblocked" line.
    """
    queue = list(statements)
    parked: list[str] = []
    calls: list[str] = []
    while queue and len(calls) < budget:
        sql = queue.pop(0)
        calls.append(sql)
        ok, outcome = engine.run(history, sql)
        if not ok:
            if outcome.is_retryable:
                queue.insert(0, sql)
            elif outcome.info.tool_error_type is ToolErrorType.SYNTAX_ERROR:
                pass  # would ask the user to fix it; never re-sent unchanged
            else:
                parked.append(sql)
        # The summary names each call as it showed it, and only asks to repeat it.
        named = re.findall(r"`([^`]*)`", unblocked_line(history))
        for waiting in list(parked):
            if engine.shown[waiting] in named:
                parked.remove(waiting)
                queue.append(waiting)
    return calls


def test_scripted_agent_drops_everything_in_five_calls(engine: Engine) -> None:
    history = ExecutionHistory()
    calls = agent(
        engine,
        history,
        ["DROP TABLE customers", "DROP TABLE products", "DROP TABLE sales"],
        budget=5,
    )
    assert engine.tables() == {"staging"}
    assert len(calls) == 5
    assert calls[2:] == ["DROP TABLE sales", "DROP TABLE customers", "DROP TABLE products"]


def test_scripted_agent_never_resends_a_syntax_error(engine: Engine) -> None:
    history = ExecutionHistory()
    calls = agent(engine, history, ["DROPP TABLE sales", "DROP TABLE customers"], budget=10)
    assert calls == ["DROPP TABLE sales", "DROP TABLE customers"]
    summary = history.summary()
    assert "- execute_sql: DROPP TABLE sales → FAILED (syntax_error)" in summary
    assert "Possibly unblocked" not in summary
    assert "customers" in engine.tables()


def test_child_insert_unblocked_by_parent_insert(engine: Engine) -> None:
    history = ExecutionHistory()
    ok, error = engine.run(history, "INSERT INTO sales VALUES (2, 7, 1)")
    assert not ok
    assert error.info.tool_error_type is ToolErrorType.FOREIGN_KEY_CONSTRAINT
    assert error.dependencies == (("customers",) if engine.names_parent else ())
    assert engine.run(history, "SELECT * FROM sales")[0]
    assert unblocked_line(history) == ""
    assert engine.run(history, "INSERT INTO customers VALUES (7)")[0]
    reason = (
        "its parent table customers has new rows"
        if error.dependencies
        else "1 row inserted into customers since it failed"
    )
    assert unblocked_line(history) == (
        f"Possibly unblocked: retry `INSERT INTO sales VALUES (?, ?, ?)` unchanged ({reason})."
    )
    assert engine.run(history, "INSERT INTO sales VALUES (2, 7, 1)")[0]
    assert unblocked_line(history) == ""


def test_rename_resolves_the_new_name_only(engine: Engine) -> None:
    history = ExecutionHistory()
    ok, report = engine.run(history, "SELECT * FROM report")
    assert not ok
    assert report.info.tool_error_type is ToolErrorType.RESOURCE_NOT_FOUND
    assert not engine.run(history, "SELECT * FROM staging_old")[0]
    assert engine.run(history, "ALTER TABLE staging RENAME TO report")[0]
    assert unblocked_line(history) == (
        "Possibly unblocked: retry `SELECT * FROM report` unchanged (table report now exists)."
    )
    assert engine.run(history, "SELECT * FROM report")[0]
    assert unblocked_line(history) == ""
    assert [p["operation"] for p in history.to_dict()["pending"]] == ["SELECT * FROM staging_old"]


def test_unrelated_successes_unblock_nothing(engine: Engine) -> None:
    history = ExecutionHistory()
    assert not engine.run(history, "DROP TABLE customers")[0]
    ok, child = engine.run(history, "INSERT INTO sales VALUES (5, 99, 1)")
    assert not ok
    assert not engine.run(history, "SELECT * FROM report")[0]
    for sql in (
        "CREATE TABLE notes (id INTEGER)",
        "UPDATE staging SET id = id",
        "SELECT COUNT(*) FROM sales",
        "ALTER TABLE notes ADD COLUMN body INTEGER",
        "DELETE FROM staging WHERE id = 42",
    ):
        assert engine.run(history, sql)[0], sql
        assert unblocked_line(history) == "", sql
    assert len(history.to_dict()["pending"]) == 3
    # A row in an unrelated table: unrelated only when the server named the parent.
    assert engine.run(history, "INSERT INTO notes VALUES (1, 1)")[0]
    if child.dependencies:
        assert unblocked_line(history) == ""
    else:
        assert unblocked_line(history) == (
            "Possibly unblocked: retry `INSERT INTO sales VALUES (?, ?, ?)` unchanged "
            "(1 row inserted into notes since it failed)."
        )
