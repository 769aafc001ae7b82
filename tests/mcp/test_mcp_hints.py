"""
Answers that help: the closest names, the next step a foreign key asks for, pages, keys.

Every test runs against SQLite, DuckDB, PostgreSQL and MariaDB through the
stdio server a user starts (``--max-rows 5``); the expectations come from
the schema the test created (the shop: ``sales`` references ``customers``
and ``products``; ``customers.name`` is UNIQUE).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.mcp._harness import Backend, StdioServer


def suggestions(payload: dict[str, Any]) -> str:
    return " ".join(payload["suggestions"])


# -- did you mean -------------------------------------------------------------------


def test_an_unknown_table_names_the_closest(server: StdioServer, shop: Backend) -> None:
    payload = server.fail("select_rows", {"table": "customer"})
    assert payload["details"]["did_you_mean"] == ["customers"]
    assert "Did you mean `customers`?" in payload["suggestions"][0]
    cased = server.fail("describe_table", {"table": "SALEZ"})
    assert cased["details"]["did_you_mean"][0] == "sales"
    # Nothing close: no guess.
    far = server.fail("select_rows", {"table": "zzqqxx"})
    assert "did_you_mean" not in far["details"]


def test_an_unknown_column_names_the_closest(server: StdioServer, shop: Backend) -> None:
    payload = server.fail("select_rows", {"table": "customers", "columns": ["nmae"]})
    assert payload["details"]["did_you_mean"] == ["customers.name"]
    assert "`customers.name`" in payload["suggestions"][0]
    filtered = server.fail(
        "update_rows",
        {"table": "sales", "values": {"qty": 2}, "filters": [{"column": "customerid", "value": 1}]},
    )
    assert filtered["details"]["did_you_mean"][0] == "sales.customer_id"


def test_execute_sql_errors_name_the_closest(server: StdioServer, shop: Backend) -> None:
    table = server.fail("execute_sql", {"sql": "SELECT * FROM custmers"})
    assert table["error_code"] == "UNDEFINED_TABLE"
    assert table["details"]["backend"] != "mcp"  # the database's own refusal
    assert table["details"]["did_you_mean"][0] == "customers"
    column = server.fail("execute_sql", {"sql": "SELECT nmae FROM customers"})
    assert column["error_code"] == "UNDEFINED_COLUMN"
    assert column["details"]["did_you_mean"] == ["customers.name"]
    assert "`customers.name`" in column["suggestions"][0]
    # A column of another table: the statement lacks a join.
    elsewhere = server.fail("execute_sql", {"sql": "SELECT name FROM sales"})
    assert {"customers.name", "products.name"} <= set(elsewhere["details"]["did_you_mean"])


@pytest.fixture
def other_schema(shop: Backend) -> Iterator[tuple[str, str]]:
    """A table that exists only in another schema (another database on MariaDB)."""
    schema = f"lde_mcp_o_{secrets.token_hex(3)}"
    table = f"ledger_{secrets.token_hex(3)}"
    create = "CREATE DATABASE" if shop.name == "mysql" else "CREATE SCHEMA"
    drop = f"DROP DATABASE {schema}" if shop.name == "mysql" else f"DROP SCHEMA {schema} CASCADE"
    with shop.engine.begin() as conn:
        conn.exec_driver_sql(f"{create} {schema}")
        conn.exec_driver_sql(f"CREATE TABLE {schema}.{table} (id INTEGER PRIMARY KEY, memo TEXT)")
        conn.exec_driver_sql(f"INSERT INTO {schema}.{table} VALUES (1, 'kept')")
    try:
        yield schema, table
    finally:
        with shop.engine.begin() as conn:
            conn.exec_driver_sql(drop)


# An SQLite file has one schema (ATTACH lasts one connection).
@pytest.mark.parametrize("backend", ["duckdb", "postgresql", "mysql"], indirect=True)
def test_a_table_in_another_schema_is_named_qualified(
    server: StdioServer, shop: Backend, other_schema: tuple[str, str]
) -> None:
    schema, table = other_schema
    qualified = f"{schema}.{table}"
    refused = server.fail("select_rows", {"table": table})
    assert refused["details"]["did_you_mean"][0] == qualified
    assert f"`{qualified}`" in refused["suggestions"][0]
    # The name the hint gives works.
    rows = server.ok("select_rows", {"table": qualified})
    assert rows["data"] == [{"id": 1, "memo": "kept"}]
    described = server.ok("describe_table", {"table": qualified})
    assert (described["table"], described["schema"]) == (qualified, schema)
    from_sql = server.fail("execute_sql", {"sql": f"SELECT memo FROM {table}"})
    assert qualified in from_sql["details"]["did_you_mean"]
    listed = server.ok("list_tables", {"schema": schema})
    assert [t["name"] for t in listed["tables"]] == [table]


@pytest.fixture
def archive(shop: Backend) -> Iterator[str]:
    """
    ``orders`` in the current schema and in ``archive_<random>``: a schema on
    PostgreSQL, another database on MariaDB.
    """
    schema = f"archive_{secrets.token_hex(4)}"
    create = "CREATE DATABASE" if shop.name == "mysql" else "CREATE SCHEMA"
    drop = f"DROP DATABASE {schema}" if shop.name == "mysql" else f"DROP SCHEMA {schema} CASCADE"
    with shop.engine.begin() as conn:
        conn.exec_driver_sql(f"{create} {schema}")
        for where in ("", f"{schema}."):
            conn.exec_driver_sql(
                f"CREATE TABLE {where}orders (id INTEGER PRIMARY KEY, status VARCHAR(20))"
            )
            conn.exec_driver_sql(f"INSERT INTO {where}orders VALUES (1, 'open'), (2, 'open')")
        conn.exec_driver_sql("CREATE TABLE order_items (id INTEGER PRIMARY KEY)")
    try:
        yield schema
    finally:
        with shop.engine.begin() as conn:
            conn.exec_driver_sql(drop)
            conn.exec_driver_sql("DROP TABLE orders")
            conn.exec_driver_sql("DROP TABLE order_items")


# The misspelt case is an error only where names are case-sensitive.
CASED = {
    "postgresql": "UPDATE \"Orders\" SET status = 'paid' WHERE id = 1",
    "mysql": ("UPDATE Orders SET status = 'paid' WHERE id = 1"),
}


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_the_current_schemas_table_is_the_first_hint(
    server: StdioServer, shop: Backend, archive: str
) -> None:
    payload = server.fail("execute_sql", {"sql": CASED[shop.name]})
    assert payload["error_code"] == "UNDEFINED_TABLE", payload
    hints = payload["details"]["did_you_mean"]
    assert hints[0] == "orders", hints
    assert f"{archive}.orders" in hints
    # Every name outside the current schema is qualified.
    assert all(h == "orders" or "." in h or h == "order_items" for h in hints), hints
    assert "Did you mean `orders`" in payload["suggestions"][0]
    # Another schema's same name, asked for by name, is still found, qualified.
    asked = server.fail("select_rows", {"table": f"{archive}.Orderz"})
    assert f"{archive}.orders" in asked["details"]["did_you_mean"]


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_an_agent_taking_the_first_hint_writes_only_the_current_schema(
    server: StdioServer, shop: Backend, archive: str
) -> None:
    """A scripted agent that reads only the structured fields: the first hint is the name."""
    sql = CASED[shop.name]
    wrong = '"Orders"' if shop.name == "postgresql" else "Orders"
    for _ in range(3):
        result = server.call("execute_sql", {"sql": sql})
        if not result.is_error:
            break
        payload = result.structured_content
        assert isinstance(payload, dict)
        first = payload["details"]["did_you_mean"][0]
        sql, wrong = sql.replace(wrong, first), first
    assert not result.is_error, result.structured_content
    assert shop.scalar("SELECT status FROM orders WHERE id = 1") == "paid"
    assert shop.scalar(f"SELECT count(*) FROM {archive}.orders WHERE status = 'open'") == 2


# -- foreign keys: the advice fits the operation ------------------------------------------


def test_deleting_a_parent_row_waits_for_its_children(server: StdioServer, shop: Backend) -> None:
    payload = server.fail(
        "delete_rows", {"table": "customers", "filters": [{"column": "name", "value": "Ann"}]}
    )
    details = payload["details"]
    assert (details["dependencies"], details["dependency_role"]) == (["sales"], "child")
    text = suggestions(payload)
    assert "rows of sales that reference" in text
    assert "Insert the referenced" not in text
    by_sql = server.fail("execute_sql", {"sql": "DELETE FROM customers WHERE name = 'Ann'"})
    assert (by_sql["details"]["dependencies"], by_sql["details"]["dependency_role"]) == (
        ["sales"],
        "child",
    )
    assert "Insert the referenced" not in suggestions(by_sql)


def test_a_child_row_waits_for_its_parent(server: StdioServer, shop: Backend) -> None:
    inserted = server.fail(
        "insert_rows", {"table": "sales", "rows": [{"customer_id": 42, "product_id": 1, "qty": 1}]}
    )
    assert "customers" in inserted["details"]["dependencies"]
    assert inserted["details"]["dependency_role"] == "parent"
    assert "Insert the referenced row into customers" in suggestions(inserted)
    assert "Delete or update the rows" not in suggestions(inserted)
    updated = server.fail(
        "update_rows",
        {
            "table": "sales",
            "values": {"customer_id": 42},
            "filters": [{"column": "id", "value": 1}],
        },
    )
    assert updated["details"]["dependency_role"] == "parent"
    assert "customers" in updated["details"]["dependencies"]


def test_dropping_a_parent_table_names_the_child_tables(server: StdioServer, shop: Backend) -> None:
    payload = server.fail(
        "delete_rows", {"table": "customers", "mode": "drop_table", "confirm": True}
    )
    details = payload["details"]
    assert (details["dependencies"], details["dependency_role"]) == (["sales"], "child")
    assert "Drop sales first" in suggestions(payload)
    assert "customers" in shop.tables()


def test_an_unconfirmed_drop_says_to_confirm(server: StdioServer, shop: Backend) -> None:
    payload = server.fail("delete_rows", {"table": "products", "mode": "drop_table"})
    details = payload["details"]
    assert details["required_arguments"] == {"confirm": True}
    assert details["invalid_fields"] == ["confirm"]
    text = suggestions(payload)
    assert "confirm: true" in text
    assert "table itself" in payload["message"]
    assert "placeholder" not in text
    truncate = server.fail("delete_rows", {"table": "products", "mode": "truncate"})
    assert "the table itself stays" in truncate["message"]
    assert "placeholder" not in suggestions(truncate)
    assert shop.scalar("SELECT count(*) FROM products") == 2


# -- describe_table --------------------------------------------------------------------


def test_describe_lists_unique_constraints_and_true_nullability(
    server: StdioServer, shop: Backend
) -> None:
    customers = server.ok("describe_table", {"table": "customers"})
    # name is declared UNIQUE in the shop's DDL.
    assert ["name"] in [u["columns"] for u in customers["unique_constraints"]]
    columns = {c["name"]: c for c in customers["columns"]}
    assert columns["name"]["unique"] is True
    assert columns["joined"]["unique"] is False
    # A primary key never holds NULL (SQLite's INTEGER PRIMARY KEY is the rowid).
    assert columns["id"]["nullable"] is False
    sales = server.ok("describe_table", {"table": "sales"})
    assert sales["unique_constraints"] == []


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_sqlite_primary_key_of_another_type_may_hold_null(
    server: StdioServer, shop: Backend
) -> None:
    with shop.engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE notes (code TEXT PRIMARY KEY, body TEXT)")
        # SQLite's documented quirk: only INTEGER PRIMARY KEY is NOT NULL by itself.
        conn.exec_driver_sql("INSERT INTO notes VALUES (NULL, 'x')")
    columns = {c["name"]: c for c in server.ok("describe_table", {"table": "notes"})["columns"]}
    assert columns["code"]["nullable"] is True


# -- pages and compact results ---------------------------------------------------------


def test_list_tables_filters_and_pages(server: StdioServer, shop: Backend) -> None:
    first = server.ok("list_tables", {"limit": 2})
    assert [t["name"] for t in first["tables"]] == ["customers", "products"]
    assert (first["total"], first["truncated"], first["next_offset"], first["limit"]) == (
        3,
        True,
        2,
        2,
    )
    rest = server.ok("list_tables", {"limit": 2, "offset": first["next_offset"]})
    assert [t["name"] for t in rest["tables"]] == ["sales"]
    assert rest["truncated"] is False
    assert "next_offset" not in rest
    found = server.ok("list_tables", {"name_contains": "CUST"})
    assert [t["name"] for t in found["tables"]] == ["customers"]
    missing = server.fail("list_tables", {"schema": "lde_no_such_schema"})
    assert missing["error_code"] == "UNDEFINED_SCHEMA"


def test_results_are_compact_json(server: StdioServer, shop: Backend) -> None:
    result = server.call("select_rows", {"table": "customers"})
    text = getattr(result.content[0], "text", "")
    assert text == json.dumps(result.structured_content, separators=(",", ":"), ensure_ascii=False)
    failed = server.call("select_rows", {"table": "nowhere"})
    assert '", "' not in getattr(failed.content[0], "text", "")


def test_every_cut_result_says_how_to_page(server: StdioServer, shop: Backend) -> None:
    server.ok(
        "insert_rows",
        {"table": "products", "rows": [{"name": f"item{i}", "price": i} for i in range(6)]},
    )
    seen: list[Any] = []
    offset = 0
    while True:
        page = server.ok(
            "select_rows", {"table": "products", "order_by": [{"column": "id"}], "offset": offset}
        )
        seen += [row["id"] for row in page["data"]]
        if not page["truncated"]:
            assert "next_offset" not in page
            break
        assert page["max_rows"] == 5
        offset = page["next_offset"]
    assert len(seen) == len(set(seen)) == 8
    sql = server.ok("execute_sql", {"sql": "SELECT name FROM products"})
    assert (sql["truncated"], sql["max_rows"]) == (True, 5)
    assert shop.scalar("SELECT count(*) FROM products") == 8


def test_a_table_name_with_a_dot_is_still_a_name(server: StdioServer, shop: Backend) -> None:
    """``schema.table`` is read only where no table has that exact name."""
    name = "odd.name"
    with shop.engine.begin() as conn:
        q = conn.dialect.identifier_preparer.quote(name)
        conn.exec_driver_sql(f"CREATE TABLE {q} (id INTEGER PRIMARY KEY)")
    try:
        assert server.ok("select_rows", {"table": name})["rowCount"] == 0
    finally:
        with shop.engine.begin() as conn:
            conn.exec_driver_sql(f"DROP TABLE {conn.dialect.identifier_preparer.quote(name)}")
