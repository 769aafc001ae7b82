"""
The block for one failure (`ExecutionHistory.summary_for`) holds only what
bears on it: calls on the same table or object, a dependency its error names,
the same call sent again unchanged, a change since that makes a failed call
worth repeating; and nothing otherwise, so that a note about one call is never
attached to the error of another.

Failures come from a real SQLite database (foreign keys on); where a rule
needs what only a server reports (a named dependency), the classified answer
is built as the server's mapper returns it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from localdata_errors import Kind, StructuredErrorResponse, classify_message
from localdata_errors.history import ExecutionHistory, HistoryEntry, StructuredCall


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    """customers and products, referenced by sales; one row in each."""
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.executescript(
        """
        CREATE TABLE customers (id INTEGER PRIMARY KEY);
        CREATE TABLE products (id INTEGER PRIMARY KEY);
        CREATE TABLE sales (id INTEGER PRIMARY KEY,
                            customer_id INTEGER REFERENCES customers(id),
                            product_id INTEGER REFERENCES products(id));
        INSERT INTO customers VALUES (1);
        INSERT INTO products VALUES (1);
        INSERT INTO sales VALUES (1, 1, 1);
        """
    )
    yield conn
    conn.close()


def run(history: ExecutionHistory, conn: sqlite3.Connection, sql: str) -> HistoryEntry:
    """Execute *sql* on SQLite and record the outcome, as a tool wrapper would."""
    try:
        cur = conn.execute(sql)
    except sqlite3.Error as exc:
        return history.record("execute_sql", {"sql": sql}, error=exc)
    return history.record("execute_sql", {"sql": sql}, result={"rowcount": cur.rowcount})


def server_error(kind: Kind, *, dependencies: tuple[str, ...] = ()) -> StructuredErrorResponse:
    """A classified error as a server's mapper reports it."""
    base = classify_message("error", "generic")
    info = base.replace(kind=kind).info
    return base.replace(
        kind=kind,
        error_type=info.category,
        is_retryable=info.retryable,
        dependencies=dependencies,
        backend="postgresql",
    )


def lines(block: str) -> list[str]:
    return block.splitlines()[1:-1]


def test_a_note_about_another_call_is_not_attached(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    for _ in range(3):
        run(history, db, "SELEC * FROM customers")
    failed = run(history, db, "INSERT INTO sales VALUES (2, 99, 1)")
    assert not failed.success
    assert history.summary_for(failed) == ""
    # The whole summary still shows everything.
    assert "`SELEC * FROM customers` 3 times unchanged" in history.summary()
    assert "INSERT INTO sales" in history.summary()


def test_the_same_call_repeated_is_named(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    first = run(history, db, "SELEC * FROM customers")
    assert history.summary_for(first) == ""  # a first failure: nothing bears on it yet
    run(history, db, "SELECT * FROM products")
    third = [run(history, db, "SELEC * FROM customers") for _ in range(2)][-1]
    assert lines(history.summary_for(third)) == [
        "Repeated failures: you have sent `SELEC * FROM customers` 3 times unchanged; "
        "it fails with fix_query (syntax_error): change it before sending it again."
    ]


def test_calls_on_the_same_table_are_shown(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    run(history, db, "SELECT * FROM products")
    run(history, db, "DELETE FROM sales WHERE id = 1")
    run(history, db, "CREATE TABLE audit (id INTEGER)")
    failed = run(history, db, "DROP TABLE customers")  # no sales row left: it succeeds
    assert failed.success
    assert history.summary_for(failed) == ""  # a success has no block
    run(history, db, "INSERT INTO customers VALUES (5)")
    failed = run(history, db, "INSERT INTO customers VALUES (5)")  # the table is gone
    # Its own earlier failure is the loop guard's line, not an entry of its own.
    assert lines(history.summary_for(failed)) == [
        "Recent tool executions:",
        "- execute_sql: DROP TABLE customers → SUCCESS (table customers dropped)",
        "State changes: table customers dropped.",
        "Repeated failures: you have sent `INSERT INTO customers VALUES (?)` 2 times unchanged; "
        "it fails with fix_query (undefined_table): change it before sending it again.",
    ]


def test_a_dependency_the_error_names_brings_its_calls() -> None:
    history = ExecutionHistory(db_type="postgresql")
    history.record("execute_sql", {"sql": "INSERT INTO sales VALUES (3, 1, 1)"}, result=1)
    history.record("execute_sql", {"sql": "SELECT * FROM audit_log"}, result=1)
    history.record("delete_rows", StructuredCall("products", "deleted"), result=0)
    failed = history.record(
        "execute_sql",
        {"sql": "DROP TABLE customers"},
        error=server_error(Kind.DEPENDENT_OBJECTS_STILL_EXIST, dependencies=("sales",)),
    )
    assert lines(history.summary_for(failed)) == [
        "Recent tool executions:",
        "- execute_sql: INSERT INTO sales VALUES (?, ?, ?) → SUCCESS (1 row inserted into sales)",
        "State changes: 1 row inserted into sales.",
    ]


def test_a_change_that_makes_a_failed_call_worth_repeating_is_shown() -> None:
    history = ExecutionHistory(db_type="postgresql")
    blocked = server_error(Kind.DEPENDENT_OBJECTS_STILL_EXIST, dependencies=("sales",))
    first = history.record("execute_sql", {"sql": "DROP TABLE customers"}, error=blocked)
    history.record("execute_sql", {"sql": "DROP TABLE sales"}, result=0)
    history.record("execute_sql", {"sql": "SELECT 1"}, result=0)
    block = history.summary_for(first)
    assert (
        "Possibly unblocked: retry `DROP TABLE customers` unchanged "
        "(its dependency sales no longer exists)."
    ) in lines(block)
    assert "- execute_sql: DROP TABLE sales → SUCCESS (table sales dropped)" in block
    assert "SELECT 1" not in block
    # Another failure on a table of the unblocked call sees it too; an unrelated one does not.
    gone = history.record(
        "execute_sql",
        {"sql": "SELECT * FROM customers_old"},
        error=server_error(Kind.UNDEFINED_TABLE),
    )
    assert "Possibly unblocked" not in history.summary_for(gone)
    on_customers = history.record(
        "execute_sql",
        {"sql": "UPDATE customers SET name = 'x'"},
        error=server_error(Kind.CHECK_VIOLATION),
    )
    assert "retry `DROP TABLE customers` unchanged" in history.summary_for(on_customers)


def test_names_compare_by_the_backends_rules() -> None:
    history = ExecutionHistory(db_type="postgresql")
    history.record("execute_sql", {"sql": 'DELETE FROM "Sales"'}, result=1)
    history.record("execute_sql", {"sql": "DELETE FROM SALES"}, result=1)  # folds to sales
    failed = history.record(
        "execute_sql",
        {"sql": "INSERT INTO sales VALUES (1)"},
        error=server_error(Kind.CHECK_VIOLATION),
    )
    block = history.summary_for(failed)
    assert "DELETE FROM SALES" in block
    assert '"Sales"' not in block


def test_an_entry_no_longer_shown_has_nothing(db: sqlite3.Connection) -> None:
    history = ExecutionHistory(max_entries=2)
    old = run(history, db, "SELEC 1")
    run(history, db, "SELEC 1")
    run(history, db, "SELEC 1")
    assert history.summary_for(old) == ""
    history.reset()
    assert history.summary_for(old) == ""


@pytest.mark.parametrize("max_chars", [120, 200, 400])
def test_the_budget_holds(db: sqlite3.Connection, max_chars: int) -> None:
    history = ExecutionHistory(max_entries=10, max_chars=max_chars)
    for i in range(8):
        run(history, db, f"SELECT * FROM sales WHERE id = {i} AND 'long text value {i}' <> ''")
    failed = [run(history, db, "INSERT INTO sales VALUES (9, 99, 99)") for _ in range(2)][-1]
    block = history.summary_for(failed)
    assert len(block) <= max_chars
    assert block.startswith("<TOOL_EXECUTION_SUMMARY>")
    assert block.endswith("</TOOL_EXECUTION_SUMMARY>")
