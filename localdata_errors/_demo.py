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
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from localdata_errors._classify import classify_error
from localdata_errors._render import answer_lines, field, style
from localdata_errors._response import StructuredErrorResponse

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


def _text(out: TextIO, color: bool) -> int:
    paint = style(color)
    count = 0
    indent = " " * 4
    for step, resp in _steps():
        count += 1
        lines = [
            paint(f"{count:2}. {step.engine}: {step.title}", "bold"),
            field("sql", paint(step.sql, "cyan"), indent),
            field("driver says", f"{type(step.error).__name__}: {resp.message}", indent),
            *answer_lines(resp, paint, indent),
        ]
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
