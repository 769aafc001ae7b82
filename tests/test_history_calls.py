"""
The execution history records what was called: structured calls as the calls
they were (never SQL made up to describe them, never their values), statements
with their values masked, cut before they are masked without letting a secret
through the cut; and no name a user chose is ever read as a format string.

Expected renderings are the documented form (docs/recovery.md); expected state
changes follow from what each call does.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localdata_errors import Kind, StructuredErrorResponse, classify_message
from localdata_errors._sqlmask import mask_statement, mask_values
from localdata_errors._statechange import PARSE_LIMIT
from localdata_errors.history import (
    Condition,
    ExecutionHistory,
    StructuredCall,
    call_identity,
)


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


def unblocked_line(history: ExecutionHistory) -> str:
    lines = history.summary().splitlines()
    return next((line for line in lines if line.startswith("Possibly unblocked:")), "")


# -- rendering ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "call", "shown"),
    [
        (
            "delete_rows",
            StructuredCall("customers", "deleted", (Condition("id", "="),)),
            "delete_rows(customers, where id = ?)",
        ),
        (
            "insert_rows",
            StructuredCall("orders", "inserted", columns=("id", "customer_id", "total"), rows=3),
            "insert_rows(orders, 3 rows: id, customer_id, total)",
        ),
        (
            "insert_rows",
            StructuredCall("orders", "inserted", columns=("id",), rows=1),
            "insert_rows(orders, 1 row: id)",
        ),
        (
            "update_rows",
            StructuredCall("customers", "updated", (("id", "="),), ("email",)),
            "update_rows(customers, set email where id = ?)",
        ),
        (
            "update_rows",
            StructuredCall("customers", "updated", columns=("email",), all_rows=True),
            "update_rows(customers, set email, all rows)",
        ),
        (
            "delete_rows",
            StructuredCall("sales", "dropped", options=("mode drop_table",)),
            "delete_rows(sales, mode drop_table)",
        ),
        (
            "select_rows",
            StructuredCall(
                "customers",
                None,
                (("joined", "is_null"), ("name", "like"), ("id", "in"), ("qty", ">=")),
                ("id", "name"),
                options=("limit 5",),
            ),
            "select_rows(customers, columns id, name where joined is null and name like ? "
            "and id in (?) and qty >= ?, limit 5)",
        ),
        ("describe_table", StructuredCall("Order Lines"), 'describe_table("Order Lines")'),
        ("list_tables", StructuredCall(), "list_tables()"),
        (
            "delete_rows",
            StructuredCall("t", "deleted", (("c", "= 1; DROP TABLE t"),)),
            "delete_rows(t, where c (operator) ?)",
        ),
    ],
)
def test_a_structured_call_renders_as_what_was_called(
    tool: str, call: StructuredCall, shown: str
) -> None:
    assert call.render(tool) == shown
    history = ExecutionHistory()
    entry = history.record(tool, call)
    assert entry.operation == shown
    assert f"\n- {shown} → SUCCESS" in history.summary()
    assert history.to_dict()["entries"][0]["call"]["table"] == call.table


def test_what_a_structured_call_changed_comes_from_the_call() -> None:
    history = ExecutionHistory(db_type="postgresql")
    history.record(
        "delete_rows",
        StructuredCall("customers", "deleted", (("id", "="),)),
        result={"success": True, "affectedRows": 2},
    )
    history.record(
        "insert_rows",
        StructuredCall("orders", "inserted", columns=("id",), rows=3),
        result={"success": True, "insertedCount": 3},
    )
    history.record("delete_rows", StructuredCall("sales", "truncated", options=("mode truncate",)))
    history.record("delete_rows", StructuredCall("sales", "dropped", options=("mode drop_table",)))
    history.record("select_rows", StructuredCall("orders"), result={"rowCount": 3})
    assert history.to_dict()["state_changes"] == [
        "2 rows deleted from customers",
        "3 rows inserted into orders",
        "table sales truncated",
        "table sales dropped",
    ]
    summary = history.summary()
    for invented in ("DELETE", "INSERT", "UPDATE", "DROP TABLE", "TRUNCATE", "DEFAULT VALUES"):
        assert invented not in summary


def test_a_failed_filtered_delete_is_named_as_called_and_only_retried_unchanged() -> None:
    history = ExecutionHistory(db_type="postgresql")
    blocked = server_error(Kind.FOREIGN_KEY_VIOLATION, dependencies=("orders",))
    customers = StructuredCall("customers", "deleted", (("id", "="),), identity="id=7")
    history.record("delete_rows", customers, error=blocked)
    history.record(
        "delete_rows",
        StructuredCall("orders", "deleted", (("customer_id", "="),), identity="customer_id=7"),
        result={"affectedRows": 1},
    )
    assert unblocked_line(history) == (
        "Possibly unblocked: retry `delete_rows(customers, where id = ?)` unchanged "
        "(rows were removed from its dependency orders)."
    )
    # The same shape with other values is another call: not the retry.
    other = StructuredCall("customers", "deleted", (("id", "="),), identity="id=8")
    history.record("delete_rows", other, result={"affectedRows": 1})
    assert "`delete_rows(customers, where id = ?)`" in unblocked_line(history)
    history.record("delete_rows", customers, result={"affectedRows": 1})  # the retry
    assert unblocked_line(history) == ""


def test_a_failed_insert_waits_for_its_parent_table() -> None:
    history = ExecutionHistory(db_type="mysql")
    missing = server_error(Kind.FOREIGN_KEY_VIOLATION, dependencies=("customers",), backend="mysql")
    order = StructuredCall("orders", "inserted", columns=("id", "customer_id", "total"), rows=1)
    history.record("insert_rows", order, error=missing)
    history.record("update_rows", StructuredCall("customers", "updated", (("id", "="),), ("x",)))
    assert unblocked_line(history) == ""
    history.record(
        "insert_rows",
        StructuredCall("customers", "inserted", columns=("id",), rows=1),
        result={"insertedCount": 1},
    )
    assert unblocked_line(history) == (
        "Possibly unblocked: retry `insert_rows(orders, 1 row: id, customer_id, total)` "
        "unchanged (its parent table customers has new rows)."
    )


def test_call_identity_tells_values_apart_and_keeps_none_of_them() -> None:
    one = call_identity({"filters": [{"column": "id", "value": "4471-secret"}]})
    assert one == call_identity({"filters": [{"column": "id", "value": "4471-secret"}]})
    assert one != call_identity({"filters": [{"column": "id", "value": "4472-secret"}]})
    # A digest, not the value: hex only (a keyed digest's hex may contain any
    # four digits, "4471" included, so the check is on its form).
    assert re.fullmatch(r"[0-9a-f]{32}", one)
    assert "4471-secret" not in one


def test_the_documented_summary_is_what_the_history_renders() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "recovery.md").read_text()
    section = docs.split("### The summary", 1)[1]
    documented = section.split("```\n", 2)[1].rstrip("\n")
    history = ExecutionHistory(db_type="postgresql")
    blocked = server_error(Kind.DEPENDENT_OBJECTS_STILL_EXIST, dependencies=("sales",))
    history.record("execute_sql", {"sql": "DROP TABLE products"}, error=blocked)
    history.record("execute_sql", {"sql": "DROP TABLE sales"}, result={"rowcount": 0})
    history.record(
        "delete_rows",
        StructuredCall("customers", "deleted", (Condition("id"),)),
        error=server_error(Kind.FOREIGN_KEY_VIOLATION, dependencies=("orders",)),
    )
    history.record(
        "delete_rows",
        StructuredCall("orders", "deleted", (Condition("customer_id"),)),
        result={"affectedRows": 1},
    )
    assert history.summary() == documented


# -- names that look like format strings ---------------------------------------------

FORMAT_NAMES = ["p{0}", "{}", "%s", "{0!r}", "{poss}", "%(name)s", "{x", "}", "%"]


def _every_path(history: ExecutionHistory, name: str) -> None:
    """Record *name* as a table, column, dependency and resource in every rendering path."""
    quoted = '"' + name.replace('"', '""') + '"'
    blocked = server_error(
        Kind.DEPENDENT_OBJECTS_STILL_EXIST, affected=(name,), dependencies=(name + "_child",)
    )
    # A statement that fails with the name as dependency and resource.
    history.record("execute_sql", {"sql": f"DROP TABLE {quoted}"}, error=blocked)
    # A structured call with the name everywhere it can go.
    call = StructuredCall(
        name,
        "deleted",
        ((name, "="), (name, "is_null")),
        (name,),
        options=(f"order by {name}",),
    )
    history.record("delete_rows", call, error=blocked)
    history.record(
        "describe_table",
        StructuredCall(name + "_gone"),
        error=server_error(Kind.UNDEFINED_TABLE, affected=(name + "_gone",)),
    )
    # Successes that unblock each: the reasons name the dependency and the table.
    child = '"' + (name + "_child").replace('"', '""') + '"'
    history.record("execute_sql", {"sql": f"DROP TABLE {child}"})
    history.record("execute_sql", {"sql": f'CREATE TABLE {quoted[:-1]}_gone" (id int)'})
    renamed = '"' + (name + "_new").replace('"', '""') + '"'
    history.record("execute_sql", {"sql": f"ALTER TABLE {child} RENAME TO {renamed}"})


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_format_strings_in_names_are_only_text(name: str) -> None:
    history = ExecutionHistory(max_entries=10, max_chars=10_000)
    _every_path(history, name)
    summary = history.summary()
    data = history.to_dict()
    assert f"dependency {name}_child no longer exists" in summary
    assert "delete_rows(" in summary
    assert f"table {name}_gone now exists" in summary
    assert [p["tool"] for p in data["possibly_unblocked"]] == [
        "execute_sql",
        "delete_rows",
        "describe_table",
    ]
    assert data["possibly_unblocked"][0]["reasons"] == [
        f"its dependency {name}_child no longer exists"
    ]


def test_a_single_unblocked_failure_with_a_format_name_renders() -> None:
    # The singular and plural reasons both carry the name; neither is formatted.
    for count in (1, 2):
        history = ExecutionHistory(db_type="postgresql")
        for i in range(count):
            history.record(
                "execute_sql",
                {"sql": f"DROP TABLE t{i}"},
                error=server_error(Kind.DEPENDENT_OBJECTS_STILL_EXIST, dependencies=("p{0}",)),
            )
        history.record("execute_sql", {"sql": 'DROP TABLE "p{0}"'})
        pronoun = "its" if count == 1 else "their"
        assert f"({pronoun} dependency p{{0}} no longer exists)" in history.summary()


NAMES = st.text(
    alphabet=st.sampled_from([*"ab_{}%!r0s:.()[]<>/\\'\"` \n\t\u2028", "é", "表"]),
    min_size=1,
    max_size=24,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES)
def test_any_name_renders_on_its_own_lines(name: str) -> None:
    history = ExecutionHistory(max_entries=10, max_chars=20_000)
    _every_path(history, name)
    summary = history.summary()
    lines = summary.splitlines()
    # A name never starts a line of its own, nor opens or closes the block.
    assert lines[0] == "<TOOL_EXECUTION_SUMMARY>"
    assert lines[1] == "Recent tool executions:"
    assert lines[-1] == "</TOOL_EXECUTION_SUMMARY>"
    assert summary.count("<TOOL_EXECUTION_SUMMARY>") == 1
    assert summary.count("</TOOL_EXECUTION_SUMMARY>") == 1
    assert sum(line.startswith("- ") for line in lines) == 6
    for line in lines[2:-1]:
        assert line.startswith(("- ", "State changes: ", "Possibly unblocked: ")), line


# -- statements: values masked, cut before masking -----------------------------------


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.executescript(
        "CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT);"
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, "
        "customer_id INTEGER NOT NULL REFERENCES customers(id));"
        "INSERT INTO customers VALUES (4471, 'ann@example.com');"
        "INSERT INTO orders VALUES (1, 4471);"
    )
    yield conn
    conn.close()


def test_statement_literals_are_masked_before_they_are_kept(db: sqlite3.Connection) -> None:
    history = ExecutionHistory()
    sql = "DELETE FROM customers WHERE email = 'ann@example.com' AND id = 4471"
    try:
        db.execute(sql)
    except sqlite3.Error as exc:
        history.record("execute_sql", {"sql": sql}, error=exc)
    db.execute("DELETE FROM orders WHERE customer_id = 4471")
    history.record("execute_sql", {"sql": "DELETE FROM orders WHERE customer_id = 4471"}, result=1)
    text = history.summary() + repr(history.to_dict())
    assert "ann@example.com" not in text
    assert "4471" not in text
    assert "- execute_sql: DELETE FROM orders WHERE customer_id = ? → SUCCESS" in text
    assert unblocked_line(history) == (
        "Possibly unblocked: retry `DELETE FROM customers WHERE email = ? AND id = ?` "
        "unchanged (1 row deleted from orders since it failed)."
    )


@pytest.mark.parametrize(
    ("dialect", "sql", "masked"),
    [
        (None, "SELECT 'a''b', 42, 4.2e1, .5, 0x1F FROM t1", "SELECT ?, ?, ?, ?, ? FROM t1"),
        (
            "postgres",
            "SELECT E'it\\'s', $$x$$, $q$y$q$, $1 FROM a$b",
            "SELECT ?, ?, ?, $1 FROM a$b",
        ),
        ("postgres", 'SELECT "col 1" FROM "Order Lines"', 'SELECT "col 1" FROM "Order Lines"'),
        ("mysql", 'SELECT "text", `col 1` FROM t # note', "SELECT ?, `col 1` FROM t "),
        ("tsql", "SELECT [col 1] FROM t WHERE n = N'x'", "SELECT [col 1] FROM t WHERE n = ?"),
        ("oracle", "SELECT q'[it's]' FROM dual WHERE a = :1", "SELECT ? FROM dual WHERE a = :1"),
        (None, "SELECT 1 /* 2 */ -- 3", "SELECT ? "),  # comments become one space
        (None, "SELECT 'open", "SELECT ?"),
        (None, 'SELECT "open name 7', "SELECT ?"),
    ],
)
def test_mask_values(dialect: str | None, sql: str, masked: str) -> None:
    assert mask_values(sql, dialect) == masked


@pytest.mark.parametrize(
    ("sql", "secrets", "masked"),
    [
        # A credential pattern must not split a literal and leave its tail bare.
        (
            "UPDATE t SET note = 'token=abc\ndef' WHERE id = 7",
            (),
            "UPDATE t SET note = ? WHERE id = ?",
        ),
        # A bound value written inline is masked whole, digits and all.
        (
            "SELECT * FROM t WHERE code = ref-4471x",
            ("ref-4471x",),
            "SELECT * FROM t WHERE code = ?",
        ),
        ("ALTER USER bob IDENTIFIED BY tiger456", (), "ALTER USER bob IDENTIFIED BY ?"),
        ("SET PASSWORD = hunter2", (), "SET PASSWORD = ?"),
        ("CREATE USER bob WITH PASSWORD 'tiger'", (), "CREATE USER bob WITH PASSWORD ?"),
        ("CONNECT scott/tiger@orcl", (), "CONNECT scott/?@orcl"),
        # After a credential, everything: where a bare value ends cannot be told.
        ("UPDATE users SET password = 'x', api_key = 'y'", (), "UPDATE users SET password = ?"),
    ],
)
def test_credentials_and_bound_values_never_survive_masking(
    sql: str, secrets: tuple[str, ...], masked: str
) -> None:
    assert mask_statement(sql, limit=1000, secrets=secrets) == masked


def test_the_cut_comes_first_and_nothing_straddling_it_leaks() -> None:
    pad = "x" * (PARSE_LIMIT - 20)
    secret = "straddling-secret-value-9931"
    for sql, secrets in (
        (f"SELECT {pad}, '{secret}'", ()),  # a literal across the cut
        (f"SELECT {pad}, {secret} FROM t", (secret,)),  # a bound value written inline
        (f"SELECT {pad}, postgresql://app:{secret}@db/x", ()),  # a DSN's password
    ):
        out = mask_statement(sql, limit=PARSE_LIMIT, secrets=secrets)
        assert len(out) <= PARSE_LIMIT
        for i in range(4, len(secret) + 1):
            assert secret[:i] not in out[-64:], (sql[-80:], out[-64:])


def test_a_huge_statement_is_cut_before_it_is_masked() -> None:
    history = ExecutionHistory()
    values = ", ".join(f"({i}, 'secret-{i}')" for i in range(200_000))
    entry = history.record("execute_sql", {"sql": f"INSERT INTO t VALUES {values}"}, result=1)
    assert entry.operation.startswith("INSERT INTO t VALUES (?, ?), (?, ?)")
    assert "secret" not in history.summary()
    assert [c.describe() for c in entry.state_changes] == ["1 row inserted into t"]


def test_an_arguments_value_is_never_kept_however_long() -> None:
    history = ExecutionHistory()
    value = "x" * 25 + "postgresql://app:s3cr3tpw@db/prod" + "y" * 100_000
    entry = history.record("connect", {"target": value, "note": "password=hunter2 and more"})
    assert entry.operation == "connect(target=?, note=?)"
    assert "s3cr" not in repr(history.to_dict())


FRAGMENTS = st.sampled_from(
    [
        "SELECT",
        "*",
        "FROM",
        "t1",
        "sales_2024",
        '"Order Lines"',
        "`x 1`",
        "[y 2]",
        "(",
        ")",
        ",",
        "=",
        "--c\n",
        "/*c*/",
        "$1",
        ":2",
        "?",
        "42",
        "4.2e1",
        "E'x'",
        "N'y'",
        "$$z$$",
        "q'[w]'",
        "\n",
    ]
)


@settings(max_examples=200, deadline=None)
@given(
    prefix=st.lists(FRAGMENTS, max_size=12),
    suffix=st.lists(FRAGMENTS, max_size=12),
    secret=st.from_regex(r"[A-Za-z0-9_]{6,16}", fullmatch=True),
    number=st.integers(min_value=100_000, max_value=10**12),
    dialect=st.sampled_from([None, "postgres", "mysql", "tsql", "sqlite", "oracle", "duckdb"]),
)
def test_no_literal_value_survives_masking(
    prefix: list[str], suffix: list[str], secret: str, number: int, dialect: str | None
) -> None:
    sql = f"{' '.join(prefix)} 'Z{secret}' = {number} {' '.join(suffix)}"
    masked = mask_values(sql, dialect)
    assert f"Z{secret}" not in masked
    assert str(number) not in masked
