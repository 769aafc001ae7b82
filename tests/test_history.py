"""
The execution history: entries, state changes, unblocking rules, the summary's
format and budget, masking, thread safety.

Failures come from a real SQLite database (foreign keys on) wherever SQLite
can produce them; where a rule needs what only a server reports (the
``dependencies`` of a PostgreSQL 2BP01), the test records the classified
response the server's mapper returns, built with :func:`classify_message`
and the dependency the server names.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import Kind, StructuredErrorResponse, classify_message
from localdata_errors.history import DEFAULT_MAX_CHARS, ExecutionHistory


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    """customers and products, referenced by sales; one row in each."""
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.executescript(
        """
        CREATE TABLE customers (id INTEGER PRIMARY KEY);
        CREATE TABLE products (id INTEGER PRIMARY KEY);
        CREATE TABLE sales (id INTEGER PRIMARY KEY,
                            customer_id INTEGER REFERENCES customers(id),
                            product_id INTEGER REFERENCES products(id));
        CREATE TABLE staging (id INTEGER PRIMARY KEY);
        INSERT INTO customers VALUES (1);
        INSERT INTO products VALUES (1);
        INSERT INTO sales VALUES (1, 1, 1);
        """
    )
    yield conn
    conn.close()


def run(
    history: ExecutionHistory, conn: sqlite3.Connection, sql: str, params: tuple[Any, ...] = ()
) -> bool:
    """Execute *sql* on SQLite and record the outcome, as a tool wrapper would."""
    try:
        cur = conn.execute(sql, params)
    except sqlite3.Error as exc:
        history.record("execute_sql", {"sql": sql, "params": list(params)}, error=exc)
        return False
    history.record(
        "execute_sql", {"sql": sql, "params": list(params)}, result={"rowcount": cur.rowcount}
    )
    return True


def server_error(
    kind: Kind,
    *,
    affected: tuple[str, ...] = (),
    dependencies: tuple[str, ...] = (),
    backend: str = "postgresql",
) -> StructuredErrorResponse:
    """A classified error as a server's mapper reports it (kind, resources, dependencies)."""
    base = classify_message("error", "generic")
    info = base.replace(kind=kind).info
    return base.replace(
        kind=kind,
        error_type=info.category,
        is_retryable=info.retryable,
        affected_resources=affected,
        dependencies=dependencies,
        backend=backend,
    )


def test_empty_history_renders_nothing() -> None:
    history = ExecutionHistory()
    assert history.summary() == ""
    assert history.to_dict() == {
        "entries": [],
        "state_changes": [],
        "possibly_unblocked": [],
        "pending": [],
    }
    assert len(history) == 0


def test_drop_scenario_on_sqlite(db: sqlite3.Connection) -> None:
    history = ExecutionHistory(max_entries=5)
    assert not run(history, db, "DROP TABLE customers")
    assert not run(history, db, "DROP TABLE products")
    assert run(history, db, "DROP TABLE sales")
    summary = history.summary()
    # SQLite's error names no table: the history says what happened since.
    assert summary == (
        "<TOOL_EXECUTION_SUMMARY>\n"
        "Recent tool executions:\n"
        "- execute_sql: DROP TABLE sales → SUCCESS (table sales dropped)\n"
        "- execute_sql: DROP TABLE products → FAILED (foreign_key_constraint)\n"
        "- execute_sql: DROP TABLE customers → FAILED (foreign_key_constraint)\n"
        "State changes: table sales dropped.\n"
        "Possibly unblocked: retry `DROP TABLE customers`, `DROP TABLE products` unchanged "
        "(table sales dropped since they failed).\n"
        "</TOOL_EXECUTION_SUMMARY>"
    )
    assert run(history, db, "DROP TABLE customers")
    summary = history.summary()
    assert (
        "Possibly unblocked: retry `DROP TABLE products` unchanged "
        "(table sales dropped since it failed)." in summary
    )
    assert run(history, db, "drop table products;")  # the same statement, written differently
    assert "Possibly unblocked" not in history.summary()
    assert history.to_dict()["possibly_unblocked"] == []


def test_drop_scenario_with_server_dependencies_matches_the_documented_block() -> None:
    history = ExecutionHistory(max_entries=5, db_type="postgresql")
    blocked = server_error(
        Kind.DEPENDENT_OBJECTS_STILL_EXIST,
        affected=("customers", "sales_customer_id_fkey", "sales"),
        dependencies=("sales",),
    )
    history.record("execute_sql", {"sql": "DROP TABLE customers"}, error=blocked)
    history.record(
        "execute_sql",
        {"sql": "DROP TABLE products"},
        error=blocked.replace(affected_resources=("products", "sales")),
    )
    history.record("execute_sql", {"sql": "DROP TABLE sales"}, result={"rowcount": 0})
    assert history.summary() == (
        "<TOOL_EXECUTION_SUMMARY>\n"
        "Recent tool executions:\n"
        "- execute_sql: DROP TABLE sales → SUCCESS (table sales dropped)\n"
        "- execute_sql: DROP TABLE products → FAILED (foreign_key_constraint: depends on sales)\n"
        "- execute_sql: DROP TABLE customers → FAILED (foreign_key_constraint: depends on sales)\n"
        "State changes: table sales dropped.\n"
        "Possibly unblocked: retry `DROP TABLE customers`, `DROP TABLE products` unchanged "
        "(their dependency sales no longer exists).\n"
        "</TOOL_EXECUTION_SUMMARY>"
    )
    data = history.to_dict()
    assert [p["operation"] for p in data["possibly_unblocked"]] == [
        "DROP TABLE customers",
        "DROP TABLE products",
    ]
    assert data["possibly_unblocked"][0]["reasons"] == ["its dependency sales no longer exists"]
    assert data["entries"][1]["dependencies"] == ["sales"]
    assert data["entries"][0]["state_changes"][0]["description"] == "table sales dropped"


def test_dropping_an_unrelated_table_does_not_unblock_a_known_dependency() -> None:
    history = ExecutionHistory(db_type="postgresql")
    history.record(
        "execute_sql",
        {"sql": "DROP TABLE customers"},
        error=server_error(Kind.DEPENDENT_OBJECTS_STILL_EXIST, dependencies=("sales",)),
    )
    history.record("execute_sql", {"sql": "DROP TABLE audit_log"})
    history.record("execute_sql", {"sql": "INSERT INTO sales VALUES (3, 1, 1)"}, result=1)
    assert "Possibly unblocked" not in history.summary()
    history.record("execute_sql", {"sql": "ALTER TABLE sales RENAME TO sales_2024"})
    assert (
        "Possibly unblocked: retry `DROP TABLE customers` unchanged "
        "(its dependency sales no longer exists)" in history.summary()
    )


def test_dropping_the_foreign_key_unblocks_the_drop() -> None:
    history = ExecutionHistory(db_type="postgresql")
    history.record(
        "execute_sql",
        {"sql": "DROP TABLE customers"},
        error=server_error(Kind.DEPENDENT_OBJECTS_STILL_EXIST, dependencies=("sales",)),
    )
    history.record("execute_sql", {"sql": "ALTER TABLE sales ADD COLUMN note text"})
    assert "Possibly unblocked" not in history.summary()
    history.record(
        "execute_sql", {"sql": "ALTER TABLE sales DROP CONSTRAINT sales_customer_id_fkey"}
    )
    assert "(a constraint on its dependency sales was dropped)" in history.summary()


def test_child_insert_unblocked_by_parent_insert(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    assert not run(history, db, "INSERT INTO sales VALUES (2, 7, 1)")
    assert run(history, db, "SELECT * FROM sales")
    assert run(history, db, "UPDATE staging SET id = id")
    assert "Possibly unblocked" not in history.summary()
    assert run(history, db, "INSERT INTO customers VALUES (7)")
    summary = history.summary()
    # The statement's values are masked: it is named as it was shown.
    assert (
        "Possibly unblocked: retry `INSERT INTO sales VALUES (?, ?, ?)` unchanged "
        "(1 row inserted into customers since it failed)."
    ) in summary
    assert "SUCCESS (1 row inserted into customers)" in summary
    assert run(history, db, "INSERT INTO sales VALUES (2, 7, 1)")
    assert "Possibly unblocked" not in history.summary()


def test_child_insert_with_named_parent_waits_for_that_parent() -> None:
    history = ExecutionHistory(db_type="mysql")
    missing = server_error(
        Kind.FOREIGN_KEY_VIOLATION,
        affected=("sales", "customers", "sales_ibfk_1"),
        dependencies=("customers",),
        backend="mysql",
    )
    history.record("execute_sql", {"sql": "INSERT INTO sales VALUES (2, 7, 1)"}, error=missing)
    history.record(
        "execute_sql", {"sql": "INSERT INTO products VALUES (7)"}, result={"affectedRows": 1}
    )
    history.record(
        "execute_sql", {"sql": "INSERT INTO Customers VALUES (7)"}, result={"affectedRows": 0}
    )
    assert "Possibly unblocked" not in history.summary()  # nothing was inserted
    history.record(
        "execute_sql", {"sql": "INSERT INTO `Customers` VALUES (7)"}, result={"affectedRows": 1}
    )
    assert (
        "Possibly unblocked: retry `INSERT INTO sales VALUES (?, ?, ?)` unchanged "
        "(its parent table Customers has new rows)."
    ) in history.summary()


def test_rename_resolves_undefined_table_for_the_new_name_only(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    assert not run(history, db, "SELECT * FROM report")
    assert not run(history, db, "SELECT * FROM staging_old")
    assert run(history, db, "ALTER TABLE staging RENAME TO report")
    summary = history.summary()
    assert (
        "Possibly unblocked: retry `SELECT * FROM report` unchanged (table report now exists)."
        in summary
    )
    assert "SELECT * FROM staging_old (" not in summary
    assert run(history, db, "CREATE TABLE staging_old (id INTEGER)")
    assert "`SELECT * FROM staging_old` unchanged (table staging_old now exists)" in (
        history.summary()
    )


def test_unrelated_successes_unblock_nothing(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    assert not run(history, db, "DROP TABLE customers")
    assert not run(history, db, "INSERT INTO sales VALUES (5, 99, 1)")
    assert not run(history, db, "SELECT * FROM missing_table")
    for sql in (
        "CREATE TABLE notes (id INTEGER)",
        "SELECT COUNT(*) FROM sales",
        "UPDATE staging SET id = id",
        "DROP TABLE notes",
    ):
        # DROP TABLE notes: a table dropped could be an unknown dependency of the
        # DROP, so it is the one statement left out until the end.
        if sql.startswith("DROP"):
            assert "Possibly unblocked" not in history.summary()
        assert run(history, db, sql)
    data = history.to_dict()
    assert [p["operation"] for p in data["possibly_unblocked"]] == ["DROP TABLE customers"]
    assert {p["operation"] for p in data["pending"]} == {
        "INSERT INTO sales VALUES (?, ?, ?)",
        "SELECT * FROM missing_table",
    }


def test_a_retry_that_fails_again_is_no_longer_unblocked(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    db.execute("CREATE TABLE returns (id INTEGER, customer_id INTEGER REFERENCES customers(id))")
    db.execute("INSERT INTO returns VALUES (1, 1)")
    assert not run(history, db, "DROP TABLE customers")
    assert run(history, db, "DROP TABLE sales")
    assert "Possibly unblocked: retry `DROP TABLE customers` unchanged" in history.summary()
    assert not run(history, db, "DROP TABLE customers")  # returns still references it
    assert "Possibly unblocked" not in history.summary()
    assert run(history, db, "DROP TABLE returns")
    assert "Possibly unblocked: retry `DROP TABLE customers` unchanged" in history.summary()


def test_failures_older_than_the_window_are_still_watched(db: sqlite3.Connection) -> None:
    history = ExecutionHistory(max_entries=2)
    assert not run(history, db, "DROP TABLE customers")
    for _ in range(4):
        assert run(history, db, "SELECT * FROM staging")
    assert run(history, db, "DROP TABLE sales")
    summary = history.summary()
    assert "FAILED" not in summary
    assert "Possibly unblocked: retry `DROP TABLE customers` unchanged" in summary
    assert len(history.to_dict()["entries"]) == 2


def test_pending_failures_are_bounded() -> None:
    history = ExecutionHistory(max_pending=3, db_type="postgresql")
    for i in range(5):
        history.record(
            "execute_sql",
            {"sql": f"SELECT * FROM t{i}"},
            error=server_error(Kind.UNDEFINED_TABLE, affected=(f"t{i}",)),
        )
    assert [p["operation"] for p in history.to_dict()["pending"]] == [
        "SELECT * FROM t2",
        "SELECT * FROM t3",
        "SELECT * FROM t4",
    ]
    history.record("execute_sql", {"sql": "CREATE TABLE t0 (id int)"})
    assert "Possibly unblocked" not in history.summary()


def test_postgresql_case_folding() -> None:
    history = ExecutionHistory(db_type="postgresql")
    history.record(
        "execute_sql",
        {"sql": 'SELECT * FROM "Report"'},
        error=server_error(Kind.UNDEFINED_TABLE, affected=("Report",)),
    )
    history.record("execute_sql", {"sql": "CREATE TABLE Report (id int)"})  # folds to report
    assert "Possibly unblocked" not in history.summary()
    history.record("execute_sql", {"sql": 'CREATE TABLE "Report" (id int)'})
    assert (
        'Possibly unblocked: retry `SELECT * FROM "Report"` unchanged (table Report now exists)'
        in history.summary()
    )


def test_case_insensitive_backends_match_any_case(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    assert not run(history, db, "SELECT * FROM Report")
    assert run(history, db, 'CREATE TABLE "REPORT" (id INTEGER)')
    assert "Possibly unblocked: retry `SELECT * FROM Report` unchanged" in history.summary()


def test_duplicate_table_unblocked_when_the_old_one_goes(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    assert not run(history, db, "CREATE TABLE staging (id INTEGER)")
    assert run(history, db, "DROP TABLE staging")
    assert (
        "Possibly unblocked: retry `CREATE TABLE staging (id INTEGER)` unchanged "
        "(table staging no longer exists)" in history.summary()
    )


def test_entries_are_newest_first_and_bounded(db: sqlite3.Connection) -> None:
    history = ExecutionHistory(max_entries=3)
    for i in range(6):
        run(history, db, f"SELECT {i} AS n{i}")
    lines = [line for line in history.summary().splitlines() if line.startswith("- ")]
    assert lines == [
        "- execute_sql: SELECT ? AS n5 → SUCCESS",
        "- execute_sql: SELECT ? AS n4 → SUCCESS",
        "- execute_sql: SELECT ? AS n3 → SUCCESS",
    ]
    assert [e["sequence"] for e in history.to_dict()["entries"]] == [6, 5, 4]


def test_reset_starts_fresh(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    run(history, db, "DROP TABLE customers")
    history.reset()
    assert history.summary() == ""
    run(history, db, "DROP TABLE sales")
    assert "Possibly unblocked" not in history.summary()
    assert history.to_dict()["entries"][0]["sequence"] == 1


def test_parameters_and_credentials_are_never_kept(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    run(
        history,
        db,
        "SELECT * FROM customers WHERE id = ? OR 'hunter2secret' = ?",
        (1, "hunter2secret"),
    )
    try:
        sqlite3.connect("/nonexistent-lde-dir/prod.db")
    except sqlite3.Error as exc:
        history.record(
            "connect",
            {
                "dsn": "postgresql://app:s3cr3tpw@db/prod",
                "password": "s3cr3tpw",
                "database": "prod",
            },
            error=exc,
        )
    history.record("execute_sql", {"sql": "CREATE USER bob WITH PASSWORD 'tiger123'"})
    history.record("execute_sql", {"sql": "ALTER USER bob IDENTIFIED BY tiger456"})
    text = history.summary() + repr(history.to_dict())
    for secret in ("hunter2secret", "s3cr3tpw", "tiger123", "tiger456"):
        assert secret not in text
    assert "- connect(dsn=?, password=?, database=?) → FAILED (" in text
    assert "- execute_sql: CREATE USER bob WITH PASSWORD ? → SUCCESS" in text
    assert "- execute_sql: ALTER USER bob IDENTIFIED BY ? → SUCCESS" in text


def test_long_sql_is_shortened_and_the_budget_holds(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    columns = ", ".join(f"column_number_{i}" for i in range(200))
    for i in range(5):
        run(history, db, f"SELECT {columns} FROM table_that_does_not_exist_{i}")
    summary = history.summary()
    assert len(summary) <= DEFAULT_MAX_CHARS
    assert summary.startswith("<TOOL_EXECUTION_SUMMARY>\n")
    assert summary.endswith("\n</TOOL_EXECUTION_SUMMARY>")
    assert summary.count("\n- execute_sql: SELECT column_number_0") == 5
    assert "…" in summary


@pytest.mark.parametrize("max_chars", [120, 200, 400, 800])
def test_budget_is_never_exceeded(db: sqlite3.Connection, max_chars: int) -> None:
    history = ExecutionHistory(max_chars=max_chars)
    db.executescript(
        "".join(
            f"CREATE TABLE child_{i} (p INTEGER REFERENCES customers(id));"
            f"INSERT INTO child_{i} VALUES (1);"
            for i in range(12)
        )
    )
    for i in range(12):
        run(history, db, f"DELETE FROM customers WHERE id = 1 AND {i} = {i}")
    for i in range(12):
        run(history, db, f"DROP TABLE child_{i}")
    summary = history.summary()
    assert len(summary) <= max_chars
    assert summary.startswith("<TOOL_EXECUTION_SUMMARY>")
    assert summary.endswith("</TOOL_EXECUTION_SUMMARY>")


def test_oldest_entries_are_dropped_before_the_budget_is_broken(db: sqlite3.Connection) -> None:
    history = ExecutionHistory(max_chars=420)
    for i in range(5):
        run(history, db, f"SELECT * FROM a_rather_long_table_name_number_{i} WHERE x = {i}")
    summary = history.summary()
    assert len(summary) <= 420
    assert "a_rather_long_table_name_number_4" in summary  # the newest stays
    assert "older execution" in summary


def test_record_accepts_exceptions_and_responses_and_other_tools(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    try:
        db.execute("SELEC 1")
    except sqlite3.Error as exc:
        entry = history.record("execute_sql", {"sql": "SELEC 1"}, error=exc)
    assert entry.kind == "syntax_error"
    assert entry.error_type == "syntax_error"
    assert not entry.is_retryable
    entry = history.record("list_tables", {"schema": "main"}, result=["customers"])
    assert entry.success
    assert entry.operation == "list_tables(schema=?)"
    entry = history.record("describe", None)
    assert entry.operation == "describe"
    assert "- list_tables(schema=?) → SUCCESS" in history.summary()


def test_concurrent_records_are_all_kept() -> None:
    history = ExecutionHistory(max_entries=1000, max_chars=10**6)
    barrier = threading.Barrier(4)

    def worker(n: int) -> None:
        barrier.wait()
        for i in range(50):
            history.record("execute_sql", {"sql": f"INSERT INTO t{n} VALUES ({i})"}, result=1)
            history.summary()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entries = history.to_dict()["entries"]
    assert len(entries) == 200
    assert sorted(e["sequence"] for e in entries) == list(range(1, 201))


def test_invalid_window_is_refused() -> None:
    with pytest.raises(ValueError, match="max_entries"):
        ExecutionHistory(max_entries=0)


def test_odd_arguments_are_tolerated() -> None:
    history = ExecutionHistory()
    history.record("execute_sql", "DROP TABLE sales")
    odd: Any = ["not", "a", "mapping"]
    history.record("execute_sql", odd, result=object())
    history.record("execute_sql", {"sql": 42, "params": None}, result={"rowcount": "many"})
    assert history.summary().splitlines()[2:6] == [
        "- execute_sql(sql=?, params=?) → SUCCESS",
        "- execute_sql(?) → SUCCESS",
        "- execute_sql: DROP TABLE sales → SUCCESS (table sales dropped)",
        "State changes: table sales dropped.",
    ]
