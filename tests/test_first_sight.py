"""
What a newcomer reads first is true: the home page's example prints what the
page says it prints, and the README's example says what each engine gives.
"""

from __future__ import annotations

import secrets
import sqlite3
import subprocess
import sys
from pathlib import Path

from localdata_errors import ErrorCategory, Kind, classify_error
from tests.conftest import require_module

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "snippets" / "home" / "example.py"


def test_the_home_pages_example_prints_what_the_page_shows() -> None:
    page = (ROOT / "docs" / "index.md").read_text()
    assert '--8<-- "docs/snippets/home/example.py"' in page
    assert '--8<-- "docs/snippets/home/example.out"' in page
    lines = [line for line in EXAMPLE.read_text().splitlines() if line.strip()]
    assert len(lines) <= 10, "the home page promises ten lines"
    out = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout == EXAMPLE.with_suffix(".out").read_text()


def test_the_home_pages_pipeline_needs_no_sideways_scroll() -> None:
    page = (ROOT / "docs" / "index.md").read_text()
    diagram = page.split("## The pipeline", 1)[1].split("```", 2)[1]
    assert max(len(line) for line in diagram.splitlines()) <= 80


def _readme_says(*lines: str) -> None:
    readme = (ROOT / "README.md").read_text()
    for line in lines:
        assert line in readme, line


def test_the_readme_example_holds_on_postgresql(pg_server: dict[str, object]) -> None:
    _readme_says(
        "answer.kind  # Kind.DEPENDENT_OBJECTS_STILL_EXIST",
        "answer.affected_resources  # ('customers',)",
        "answer.dependencies  # ('sales',)  -- change this first",
        "answer.database_error_code  # '2BP01'",
        'answer.to_tool_error()  # {"status": "error", '
        '"error_type": "foreign_key_constraint", ...}',
    )
    psycopg = require_module("psycopg")
    schema = f"readme_{secrets.token_hex(4)}"
    dsn = " ".join(f"{k}={v}" for k, v in pg_server.items())
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
        try:
            conn.execute(f"SET search_path TO {schema}")
            conn.execute("CREATE TABLE customers (id int PRIMARY KEY)")
            conn.execute("CREATE TABLE sales (customer_id int REFERENCES customers (id))")
            cur = conn.cursor()
            try:
                cur.execute("DROP TABLE customers")
            except psycopg.Error as exc:
                answer = classify_error(exc)
        finally:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    assert answer.kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST
    assert answer.error_type is ErrorCategory.CONSTRAINT_ERROR
    assert answer.is_retryable is False
    assert answer.affected_resources == ("customers",)
    assert answer.dependencies == ("sales",)
    assert answer.database_error_code == "2BP01"
    assert answer.to_tool_error()["error_type"] == "foreign_key_constraint"


def test_the_readme_says_what_sqlite_gives_for_the_same_statement() -> None:
    _readme_says("`Kind.FOREIGN_KEY_VIOLATION`, tool type `foreign_key_constraint` and code")
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.executescript(
        "CREATE TABLE customers (id INTEGER PRIMARY KEY);"
        "CREATE TABLE sales (customer_id INTEGER REFERENCES customers (id));"
        "INSERT INTO customers VALUES (1); INSERT INTO sales VALUES (1);"
    )
    try:
        conn.execute("DROP TABLE customers")
    except sqlite3.Error as exc:
        answer = classify_error(exc)
    assert str(answer.message) == "FOREIGN KEY constraint failed"
    assert answer.kind is Kind.FOREIGN_KEY_VIOLATION
    assert answer.to_tool_error()["error_type"] == "foreign_key_constraint"
    assert answer.database_error_code == "SQLITE_CONSTRAINT_FOREIGNKEY"
    assert (answer.affected_resources, answer.dependencies) == ((), ())
