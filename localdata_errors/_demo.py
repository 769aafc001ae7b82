"""
The ``demo`` command: real failing statements on embedded SQLite (and DuckDB
when installed), each real error shown beside its structured answer.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from localdata_errors.classify import classify_error
from localdata_errors.response import StructuredErrorResponse

__all__ = ["run_demo"]

_SQLITE_SETUP = """
CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE,
                        age INTEGER CHECK (age >= 0));
CREATE TABLE sales (id INTEGER PRIMARY KEY,
                    customer_id INTEGER NOT NULL REFERENCES customers(id));
INSERT INTO customers (id, email, age) VALUES (1, 'ada@example.com', 36);
INSERT INTO sales (customer_id) VALUES (1);
"""

_SQLITE_TOUR: tuple[tuple[str, str], ...] = (
    ("a table that does not exist", "SELECT * FROM orders"),
    ("a column that does not exist", "SELECT nmae FROM customers"),
    ("malformed SQL", "SELEC * FROM customers"),
    ("a duplicate key", "INSERT INTO customers (id, email) VALUES (2, 'ada@example.com')"),
    ("a missing parent row", "INSERT INTO sales (customer_id) VALUES (99)"),
    ("a parent still referenced", "DELETE FROM customers WHERE id = 1"),
    ("a required value left out", "INSERT INTO customers (id) VALUES (3)"),
    ("a CHECK constraint", "INSERT INTO customers (id, email, age) VALUES (4, 'b@x', -1)"),
    ("a table that already exists", "CREATE TABLE customers (id INTEGER)"),
    ("a wrong number of bound values", "SELECT * FROM customers WHERE id = ?"),
)

_DUCKDB_TOUR: tuple[tuple[str, str], ...] = (
    ("a table that does not exist", "SELECT * FROM orders"),
    ("text that is not a number", "SELECT CAST('forty-two' AS INTEGER)"),
    ("a duplicate primary key", "INSERT INTO customers VALUES (1, 'again')"),
    ("a function that does not exist", "SELECT no_such_function(1)"),
)


@dataclass(frozen=True)
class _Step:
    engine: str
    title: str
    sql: str
    error: BaseException


def _sqlite_steps(workdir: str) -> Iterator[_Step]:
    path = os.path.join(workdir, "demo.db")
    # Autocommit, so that a failed statement leaves no transaction holding a lock.
    conn = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.executescript(_SQLITE_SETUP)
        for title, sql in _SQLITE_TOUR:
            try:
                conn.execute(sql)
            except sqlite3.Error as exc:
                yield _Step("SQLite", title, sql, exc)
        yield from _sqlite_lock_step(path)
        yield from _sqlite_readonly_step(path)
    finally:
        conn.close()


def _sqlite_lock_step(path: str) -> Iterator[_Step]:
    holder = sqlite3.connect(path, timeout=0, isolation_level=None)
    other = sqlite3.connect(path, timeout=0)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        sql = "INSERT INTO sales (customer_id) VALUES (1)"
        try:
            other.execute(sql)
        except sqlite3.Error as exc:
            yield _Step("SQLite", "another connection holds the lock", sql, exc)
        holder.execute("ROLLBACK")
    finally:
        other.close()
        holder.close()


def _sqlite_readonly_step(path: str) -> Iterator[_Step]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    sql = "UPDATE customers SET age = 37"
    try:
        conn.execute(sql)
    except sqlite3.Error as exc:
        yield _Step("SQLite", "a read-only database", sql, exc)
    finally:
        conn.close()


def _duckdb_steps() -> Iterator[_Step]:
    try:
        duckdb: Any = importlib.import_module("duckdb")
    except ImportError:
        return
    conn = duckdb.connect()
    try:
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR)")
        conn.execute("INSERT INTO customers VALUES (1, 'Ada')")
        for title, sql in _DUCKDB_TOUR:
            try:
                conn.execute(sql)
            except duckdb.Error as exc:
                yield _Step("DuckDB", title, sql, exc)
    finally:
        conn.close()


def _steps() -> Iterator[tuple[_Step, StructuredErrorResponse]]:
    with tempfile.TemporaryDirectory(prefix="localdata-errors-demo-") as workdir:
        for step in (*_sqlite_steps(workdir), *_duckdb_steps()):
            yield step, classify_error(step.error)


def _style(color: bool) -> Callable[[str, str], str]:
    codes = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}

    def paint(text: str, name: str) -> str:
        return f"\x1b[{codes[name]}m{text}\x1b[0m" if color else text

    return paint


def _text(out: TextIO, color: bool) -> int:
    paint = _style(color)
    count = 0
    for step, resp in _steps():
        count += 1
        retry = paint("yes", "green") if resp.is_retryable else paint("no", "red")
        lines = [
            paint(f"{count:2}. {step.engine}: {step.title}", "bold"),
            f"    sql          {paint(step.sql, 'cyan')}",
            f"    driver says  {type(step.error).__name__}: "
            + resp.message.replace("\n", "\n" + " " * 17),
            f"    kind         {paint(resp.kind.value, 'yellow')} ({resp.error_type.value}), "
            f"retry: {retry}",
            f"    code         {resp.database_error_code or '-'}"
            f"    tool type: {resp.info.tool_error_type.value}",
        ]
        if resp.affected_resources:
            lines.append(f"    involves     {', '.join(resp.affected_resources)}")
        if resp.dependencies:
            lines.append(f"    change first {', '.join(resp.dependencies)}")
        if resp.constraint:
            lines.append(f"    constraint   {resp.constraint}")
        lines.append(f"    suggestion   {resp.suggestion}")
        out.write("\n".join(lines) + "\n\n")
    out.write(paint(f"{count} real errors classified.", "dim") + "\n")
    return 0


def _jsonl(out: TextIO) -> int:
    for step, resp in _steps():
        record = {
            "engine": step.engine,
            "title": step.title,
            "sql": step.sql,
            "exception": type(step.error).__name__,
            **resp.to_dict(),
        }
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return 0


def run_demo(out: TextIO, *, fmt: str = "text", color: bool = False) -> int:
    """
    Run the tour and write it to *out*.

    Args:
        out: Where to write.
        fmt: ``"text"`` for a terminal, ``"json"`` for JSON lines.
        color: Colour the text output with ANSI escapes.

    Returns:
        The exit status (0).
    """
    with contextlib.suppress(BrokenPipeError):
        return _jsonl(out) if fmt == "json" else _text(out, color)
    return 1
