"""
The SQL tool server end to end: the real client, a server subprocess, real databases.

Every test runs against SQLite, DuckDB, PostgreSQL and MariaDB (the ``backend``
fixture's parameters) through the same stdio server a user starts with
``localdata-errors serve``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest

from tests.mcp._harness import PG_PASSWORD, Backend, StdioServer

TOOLS = {
    "list_tables",
    "describe_table",
    "select_rows",
    "insert_rows",
    "update_rows",
    "delete_rows",
    "execute_sql",
}

# How each engine refuses to drop a table another table references: PostgreSQL
# and DuckDB (and the server itself, for SQLite, which would drop it silently)
# say the dependents still exist; MariaDB reports the foreign key.
DROP_BLOCKED = {
    "sqlite": "DEPENDENT_OBJECTS_STILL_EXIST",
    "duckdb": "DEPENDENT_OBJECTS_STILL_EXIST",
    "postgresql": "DEPENDENT_OBJECTS_STILL_EXIST",
    "mysql": "FOREIGN_KEY_VIOLATION",
}
SLEEP = {
    "postgresql": "SELECT pg_sleep(5)",
    "mysql": "SELECT SLEEP(5)",
    # These count for hours; only the server's interrupt stops them.
    "duckdb": "SELECT count(*) FROM range(1000000000000000)",
    "sqlite": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
    "SELECT count(*) FROM c",
}


def expect(payload: dict[str, Any], error_code: str, jsonrpc: int) -> dict[str, Any]:
    assert (payload["error_code"], payload["jsonrpc_error_code"]) == (error_code, jsonrpc), payload
    assert payload["suggestions"]
    assert all(isinstance(s, str) for s in payload["suggestions"])
    assert payload["timestamp"].endswith("Z")
    return payload["details"]


# -- tools and their schemas -----------------------------------------------------


def test_tools_are_listed_with_their_schemas(server: StdioServer) -> None:
    tools = {tool.name: tool for tool in server.list_tools().tools}
    assert set(tools) == TOOLS
    select = tools["select_rows"].input_schema
    assert select["required"] == ["table"]
    filters = select["properties"]["filters"]
    assert "maxItems" in str(filters)
    filter_def = select["$defs"]["Filter"]
    assert filter_def["properties"]["operator"]["enum"] == [
        "=",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "like",
        "in",
        "is_null",
        "not_null",
    ]
    assert filter_def["additionalProperties"] is False
    insert = tools["insert_rows"].input_schema
    assert set(insert["required"]) == {"table", "rows"}
    rows = insert["properties"]["rows"]
    assert (rows["minItems"], rows["maxItems"]) == (1, 1000)
    assert tools["delete_rows"].input_schema["properties"]["mode"]["enum"] == [
        "rows",
        "truncate",
        "drop_table",
    ]
    assert tools["execute_sql"].input_schema["required"] == ["sql"]
    assert tools["list_tables"].annotations.read_only_hint is True
    assert tools["delete_rows"].annotations.destructive_hint is True
    assert "5 rows" in (tools["select_rows"].description or "")


# -- success paths ---------------------------------------------------------------


def test_list_and_describe(server: StdioServer, shop: Backend) -> None:
    listed = server.ok("list_tables")
    assert {"customers", "products", "sales"} <= {t["name"] for t in listed["tables"]}
    sales = server.ok("describe_table", {"table": "sales"})
    assert sales["primary_key"] == ["id"]
    assert [c["name"] for c in sales["columns"]] == ["id", "customer_id", "product_id", "qty"]
    refs = {(tuple(fk["columns"]), fk["references_table"]) for fk in sales["foreign_keys"]}
    assert refs == {(("customer_id",), "customers"), (("product_id",), "products")}
    assert sales["row_count"] == 2
    customers = server.ok("describe_table", {"table": "customers"})
    assert customers["referenced_by"] == ["sales"]
    name = next(c for c in customers["columns"] if c["name"] == "name")
    assert name["nullable"] is False
    assert "CHAR" in name["type"].upper()


def test_select_rows_filters_order_and_limit(server: StdioServer, shop: Backend) -> None:
    out = server.ok(
        "select_rows",
        {
            "table": "customers",
            "columns": ["id", "name"],
            "filters": [
                {"column": "id", "operator": ">=", "value": "2"},
                {"column": "name", "operator": "in", "value": ["Bob", "Cid", "Zed"]},
            ],
            "order_by": [{"column": "name", "direction": "desc"}],
        },
    )
    assert out["data"] == [{"id": 3, "name": "Cid"}, {"id": 2, "name": "Bob"}]
    assert (out["rowCount"], out["columns"], out["truncated"]) == (2, ["id", "name"], False)
    nulls = server.ok(
        "select_rows",
        {"table": "customers", "filters": [{"column": "joined", "operator": "is_null"}]},
    )
    assert [r["name"] for r in nulls["data"]] == ["Cid"]
    like = server.ok(
        "select_rows",
        {
            "table": "customers",
            "columns": ["name"],
            "filters": [{"column": "name", "operator": "like", "value": "A%"}],
        },
    )
    assert like["data"] == [{"name": "Ann"}]
    dated = server.ok(
        "select_rows",
        {
            "table": "customers",
            "columns": ["joined"],
            "filters": [{"column": "name", "value": "Ann"}],
        },
    )
    assert dated["data"] == [{"joined": "2024-01-05"}]
    priced = server.ok(
        "select_rows",
        {"table": "products", "columns": ["price"], "order_by": [{"column": "price"}], "limit": 1},
    )
    assert priced["data"] == [{"price": 1.5}]
    assert priced["hasMore"] is True
    assert priced["truncated"] is False


def test_row_cap_truncates_with_a_warning(server: StdioServer, shop: Backend) -> None:
    server.ok(
        "insert_rows",
        {"table": "products", "rows": [{"name": f"item{i}", "price": i} for i in range(6)]},
    )
    out = server.ok("select_rows", {"table": "products", "limit": 100})
    assert (out["rowCount"], out["truncated"]) == (5, True)
    assert "row cap of 5" in out["warning"]
    sql = server.ok("execute_sql", {"sql": "SELECT name FROM products"})
    assert (sql["rowCount"], sql["truncated"]) == (5, True)


def test_insert_rows_returns_generated_keys(server: StdioServer, shop: Backend) -> None:
    out = server.ok(
        "insert_rows",
        {
            "table": "customers",
            "rows": [
                {"name": "Dee", "joined": "2024-03-01"},
                {"name": "Eve", "joined": "2024-03-02"},
            ],
        },
    )
    assert out["insertedCount"] == 2
    assert [(r["id"], r["name"]) for r in out["rows"]] == [(4, "Dee"), (5, "Eve")]
    one = server.ok(
        "insert_rows",
        {"table": "sales", "rows": [{"customer_id": "4", "product_id": "1", "qty": "7"}]},
    )
    assert one["rows"][0]["id"] == 3
    assert one["rows"][0]["customer_id"] == 4
    assert shop.scalar("SELECT qty FROM sales WHERE id = 3") == 7


def test_insert_rows_skip_on_conflict(server: StdioServer, shop: Backend) -> None:
    out = server.ok(
        "insert_rows",
        {
            "table": "customers",
            "skip_on_conflict": True,
            "rows": [{"name": "Ann"}, {"name": "Fay"}],
        },
    )
    assert (out["insertedCount"], out["skippedCount"]) == (1, 1)
    assert shop.scalar("SELECT count(*) FROM customers") == 4


def test_update_and_delete_rows(server: StdioServer, shop: Backend) -> None:
    out = server.ok(
        "update_rows",
        {
            "table": "products",
            "values": {"price": "9.99"},
            "filters": [{"column": "name", "value": "pen"}],
        },
    )
    assert out == {"success": True, "table": "products", "affectedRows": 1}
    assert float(shop.scalar("SELECT price FROM products WHERE name = 'pen'")) == 9.99
    none = server.ok(
        "update_rows",
        {
            "table": "products",
            "values": {"price": 1},
            "filters": [{"column": "name", "value": "nothing"}],
        },
    )
    assert none["affectedRows"] == 0
    assert "warning" not in none
    every = server.ok(
        "update_rows", {"table": "products", "values": {"price": 2}, "confirm_all": True}
    )
    assert every["affectedRows"] == 2
    assert "every row" in every["warning"]
    gone = server.ok(
        "delete_rows",
        {"table": "sales", "filters": [{"column": "qty", "operator": "<", "value": 2}]},
    )
    assert gone["affectedRows"] == 1
    assert shop.scalar("SELECT count(*) FROM sales") == 1
    zero = server.ok("delete_rows", {"table": "sales", "filters": [{"column": "id", "value": 999}]})
    assert zero["affectedRows"] == 0


def test_truncate_and_drop(server: StdioServer, shop: Backend) -> None:
    server.ok(
        "execute_sql", {"sql": "CREATE TABLE notes (id INTEGER PRIMARY KEY, body VARCHAR(20))"}
    )
    server.ok("insert_rows", {"table": "notes", "rows": [{"id": 1, "body": "x"}]})
    truncated = server.ok("delete_rows", {"table": "notes", "mode": "truncate", "confirm": True})
    assert truncated["truncated"] is True
    assert shop.scalar("SELECT count(*) FROM notes") == 0
    unconfirmed = server.fail("delete_rows", {"table": "notes", "mode": "drop_table"})
    assert expect(unconfirmed, "INVALID_PARAMETER", -32000)["invalid_fields"] == ["confirm"]
    assert "notes" in shop.tables()
    dropped = server.ok("delete_rows", {"table": "notes", "mode": "drop_table", "confirm": True})
    assert dropped["dropped"] is True
    assert "notes" not in shop.tables()


def test_execute_sql_binds_named_and_positional(server: StdioServer, shop: Backend) -> None:
    named = server.ok(
        "execute_sql",
        {
            "sql": "SELECT name FROM customers WHERE id = :id OR name = :name ORDER BY id",
            "params": {"id": 1, "name": "Cid"},
        },
    )
    assert named["data"] == [{"name": "Ann"}, {"name": "Cid"}]
    positional = server.ok(
        "execute_sql",
        {
            "sql": "SELECT count(*) AS n FROM customers WHERE name IN (?, ?) AND name <> '?'",
            "params": ["Ann", "Bob"],
        },
    )
    assert positional["data"] == [{"n": 2}]
    changed = server.ok(
        "execute_sql",
        {"sql": "UPDATE customers SET joined = NULL WHERE name = :n", "params": {"n": "Ann"}},
    )
    assert changed == {"success": True, "affectedRows": 1}
    percent = server.ok("execute_sql", {"sql": "SELECT '100%' AS p"})
    assert percent["data"] == [{"p": "100%"}]


# -- error paths -----------------------------------------------------------------


def test_undefined_table(server: StdioServer, shop: Backend) -> None:
    details = expect(server.fail("select_rows", {"table": "orders"}), "UNDEFINED_TABLE", -32001)
    assert details["affected_resources"] == ["orders"]
    assert {"customers", "products", "sales"} <= set(details["available_tables"])
    from_db = server.fail("execute_sql", {"sql": "SELECT * FROM orders"})
    assert expect(from_db, "UNDEFINED_TABLE", -32001)["backend"] != "mcp"
    assert "orders" in from_db["message"]


def test_foreign_key_violations_name_their_dependency(server: StdioServer, shop: Backend) -> None:
    child = server.fail(
        "insert_rows", {"table": "sales", "rows": [{"customer_id": 42, "product_id": 1, "qty": 1}]}
    )
    assert "customers" in expect(child, "FOREIGN_KEY_VIOLATION", -32003)["dependencies"]
    parent = server.fail(
        "delete_rows", {"table": "customers", "filters": [{"column": "name", "value": "Ann"}]}
    )
    assert expect(parent, "FOREIGN_KEY_VIOLATION", -32003)["dependencies"] == ["sales"]
    assert shop.scalar("SELECT count(*) FROM customers") == 3


def test_unique_violation(server: StdioServer, shop: Backend) -> None:
    payload = server.fail("insert_rows", {"table": "customers", "rows": [{"name": "Bob"}]})
    expect(payload, "UNIQUE_VIOLATION", -32003)
    assert payload["error_type"] == "constraint_error"
    assert shop.scalar("SELECT count(*) FROM customers") == 3


def test_bad_filter_column(server: StdioServer, shop: Backend) -> None:
    payload = server.fail(
        "select_rows", {"table": "customers", "filters": [{"column": "nmae", "value": "Ann"}]}
    )
    details = expect(payload, "UNDEFINED_COLUMN", -32001)
    assert (details["column"], details["table"]) == ("nmae", "customers")
    assert "name" in details["available_columns"]
    order = server.fail("select_rows", {"table": "customers", "order_by": [{"column": "x"}]})
    expect(order, "UNDEFINED_COLUMN", -32001)


def test_bad_type_coercion_names_the_column(server: StdioServer, shop: Backend) -> None:
    payload = server.fail(
        "insert_rows",
        {"table": "sales", "rows": [{"customer_id": 1, "product_id": 1, "qty": "three"}]},
    )
    details = expect(payload, "INVALID_TEXT_REPRESENTATION", -32000)
    assert details["column"] == "qty"
    assert "qty" in payload["message"]
    dated = server.fail(
        "select_rows",
        {"table": "customers", "filters": [{"column": "joined", "value": "yesterday"}]},
    )
    assert expect(dated, "INVALID_TEXT_REPRESENTATION", -32000)["column"] == "joined"
    assert shop.scalar("SELECT count(*) FROM sales") == 2


def test_invalid_arguments_name_the_fields(server: StdioServer, shop: Backend) -> None:
    payload = server.fail(
        "select_rows", {"table": "customers", "filters": [{"column": "id", "operator": "=="}]}
    )
    details = expect(payload, "INVALID_PARAMETER", -32000)
    assert details["invalid_fields"] == ["filters.0.operator"]
    missing = server.fail("insert_rows", {"table": "customers"})
    assert expect(missing, "INVALID_PARAMETER", -32000)["invalid_fields"] == ["rows"]
    in_scalar = server.fail(
        "select_rows",
        {"table": "customers", "filters": [{"column": "id", "operator": "in", "value": 3}]},
    )
    assert expect(in_scalar, "INVALID_PARAMETER", -32000)["invalid_fields"] == ["filters.0"]


def test_update_and_delete_without_filters_are_refused(server: StdioServer, shop: Backend) -> None:
    update = server.fail("update_rows", {"table": "products", "values": {"price": 0}})
    assert expect(update, "INVALID_PARAMETER", -32000)["invalid_fields"] == ["filters"]
    delete = server.fail("delete_rows", {"table": "sales"})
    expect(delete, "INVALID_PARAMETER", -32000)
    assert shop.scalar("SELECT count(*) FROM sales") == 2
    assert float(shop.scalar("SELECT max(price) FROM products")) == 7.25


def test_execute_sql_asks_before_changing_every_row(server: StdioServer, shop: Backend) -> None:
    """The same confirmation update_rows and delete_rows ask for, from the statement's parse."""
    unfiltered = [
        "UPDATE customers SET name = 'x'",
        "DELETE FROM sales",
        "/* every row */ delete from SALES",
        "UPDATE customers SET name = (SELECT name FROM products WHERE id = 1)",
    ]
    if shop.name in ("postgresql", "sqlite", "duckdb"):
        unfiltered.append("WITH d AS (DELETE FROM sales RETURNING *) SELECT count(*) FROM d")
    if shop.name == "mysql":
        unfiltered.append("DELETE s FROM sales s JOIN customers c ON c.id = s.customer_id")
    for sql in unfiltered:
        payload = server.fail("execute_sql", {"sql": sql})
        details = expect(payload, "INVALID_PARAMETER", -32000)
        assert details["required_arguments"] == {"confirm_all": True}, sql
        assert "every row" in payload["message"]
    assert shop.scalar("SELECT count(*) FROM sales") == 2
    assert shop.scalar("SELECT count(*) FROM customers WHERE name = 'x'") == 0
    # A WHERE, even one that is always true, is the caller's own choice.
    assert server.ok("execute_sql", {"sql": "DELETE FROM sales WHERE qty > 2"})["affectedRows"] == 1
    confirmed = server.ok(
        "execute_sql", {"sql": "UPDATE products SET price = price", "confirm_all": True}
    )
    assert confirmed["affectedRows"] in (0, 2)  # MySQL counts changed rows only
    assert shop.scalar("SELECT count(*) FROM sales") == 1


def test_multi_statement_rejected(server: StdioServer, shop: Backend) -> None:
    payload = server.fail("execute_sql", {"sql": "SELECT 1; DELETE FROM sales"})
    assert expect(payload, "FEATURE_NOT_SUPPORTED", -32000)["statement_count"] == 2
    assert shop.scalar("SELECT count(*) FROM sales") == 2
    # A semicolon inside a literal or a comment is not a second statement.
    one = server.ok("execute_sql", {"sql": "SELECT 'a;b' AS v -- ; DELETE FROM sales\n;"})
    assert one["data"] == [{"v": "a;b"}]


def test_statement_timeout(shop: Backend) -> None:
    # A server of its own: one second, against statements that run far longer.
    impatient = StdioServer(shop.url, "--timeout", "1")
    try:
        payload = impatient.fail("execute_sql", {"sql": SLEEP[shop.name]})
        details = expect(payload, "STATEMENT_TIMEOUT", -32005)
        # Sent again unchanged it would time out again: the statement must change.
        assert (details["is_retryable"], details["action"]) == (False, "fix_query")
        # The server is still usable afterwards.
        assert impatient.ok("select_rows", {"table": "products"})["rowCount"] == 2
    finally:
        impatient.close()


def test_read_only_server(readonly_server: StdioServer, shop: Backend) -> None:
    ro = readonly_server
    assert ro.ok("select_rows", {"table": "customers"})["rowCount"] == 3
    both = ro.ok("execute_sql", {"sql": "SELECT 1 AS a; SELECT 2 AS b"})
    assert [r["data"] for r in both["results"]] == [[{"a": 1}], [{"b": 2}]]
    # The write tools are not listed; a call of one is told the server is
    # read-only (not "unknown tool"), and the history records what was asked:
    # a later failure on the same table shows it.
    recorded = {"customers": ["insert_rows(customers", "update_rows(customers"],
                "sales": ["delete_rows(sales", "delete_rows(sales, mode drop_table)"]}  # fmt: skip
    for tool, args in [
        ("insert_rows", {"table": "customers", "rows": [{"name": "Zed"}]}),
        ("update_rows", {"table": "customers", "values": {"name": "Zed"}, "confirm_all": True}),
        ("delete_rows", {"table": "sales", "confirm_all": True}),
        ("delete_rows", {"table": "sales", "mode": "drop_table", "confirm": True}),
    ]:
        payload = ro.fail(tool, args)
        details = expect(payload, "READ_ONLY", -32002)
        assert details["backend"] == "mcp"
        assert "read-only" in payload["message"]
    for table, calls in recorded.items():
        later = ro.fail("select_rows", {"table": table, "columns": ["no_such_column"]})
        for call in calls:
            assert call in later["history"], later["history"]
        assert "Zed" not in later["history"]
    for sql in [
        "DELETE FROM sales",
        "SELECT 1; DROP TABLE sales",
        "WITH x AS (SELECT 1) DELETE FROM sales",
    ]:
        expect(ro.fail("execute_sql", {"sql": sql}), "READ_ONLY", -32002)
    assert shop.scalar("SELECT count(*) FROM sales") == 2
    assert "sales" in shop.tables()


# A SELECT that writes through a function: PostgreSQL's catalogue, then its engine.
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_read_only_transaction_is_enforced_by_the_backend(
    readonly_server: StdioServer, shop: Backend
) -> None:
    # A user's function is volatile unless declared otherwise: the server
    # refuses the call by the catalogue's word.  One declared STABLE that
    # writes anyway passes that check, and the engine refuses the write.
    with shop.engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION lde_mcp_wipe() RETURNS int LANGUAGE sql AS "
            "'DELETE FROM sales RETURNING 1'"
        )
        conn.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION lde_mcp_stable_wipe() RETURNS int LANGUAGE plpgsql "
            "STABLE AS $$BEGIN DELETE FROM sales; RETURN 1; END$$"
        )
    payload = readonly_server.fail("execute_sql", {"sql": "SELECT lde_mcp_wipe()"})
    expect(payload, "READ_ONLY", -32002)
    assert payload["details"]["backend"] == "mcp"
    assert "volatile" in payload["message"]
    payload = readonly_server.fail("execute_sql", {"sql": "SELECT lde_mcp_stable_wipe()"})
    assert payload["details"]["backend"] != "mcp"
    assert "non-volatile function" in payload["message"]
    assert shop.scalar("SELECT count(*) FROM sales") == 2


# -- the drop scenario, injection, credentials -------------------------------------


def test_drop_scenario_finishes_in_five_calls(server: StdioServer, shop: Backend) -> None:
    """A scripted client drops customers and products, led only by the error results."""
    todo = ["customers", "products"]
    calls = 0
    first_error: dict[str, Any] | None = None
    while todo and calls < 10:
        result = server.call(
            "delete_rows", {"table": todo[0], "mode": "drop_table", "confirm": True}
        )
        calls += 1
        if result.is_error:
            payload = result.structured_content
            assert isinstance(payload, dict)
            first_error = first_error or payload
            blockers = payload["details"].get("dependencies", [])
            assert blockers, payload
            todo = [*blockers, *[t for t in todo if t not in blockers]]
        else:
            todo.pop(0)
    assert calls <= 5
    assert first_error is not None
    assert expect(first_error, DROP_BLOCKED[shop.name], -32003)["dependencies"] == ["sales"]
    assert not {"customers", "products", "sales"} & shop.tables()
    # The history attached to an error bears on it: calls on its table or its dependency.
    for line in first_error.get("history", "").splitlines():
        if line.startswith("- "):
            assert "customers" in line or "sales" in line, line


def test_history_attached_to_errors_only_where_it_bears_on_them(
    server: StdioServer, shop: Backend
) -> None:
    server.ok("list_tables")
    missing = f"nowhere_{secrets.token_hex(4)}"
    first = server.fail("describe_table", {"table": missing})
    assert "history" not in first  # list_tables bears on nothing here
    again = server.fail("describe_table", {"table": missing})
    history = again["history"]
    assert f"`describe_table({missing})` 2 times unchanged" in history
    assert "list_tables" not in history


INJECTIONS = [
    "'; DROP TABLE customers; --",
    "Ann' OR '1'='1",
    'x"; DELETE FROM sales; --',
    "/* */ 1; DROP TABLE products",
    "Robert'); DROP TABLE sales;--",
]


@pytest.mark.parametrize("evil", INJECTIONS)
def test_injection_changes_nothing(server: StdioServer, shop: Backend, evil: str) -> None:
    found = server.ok(
        "select_rows", {"table": "customers", "filters": [{"column": "name", "value": evil}]}
    )
    assert found["rowCount"] == 0
    expect(server.fail("select_rows", {"table": evil}), "UNDEFINED_TABLE", -32001)
    expect(
        server.fail("select_rows", {"table": "customers", "columns": [evil]}),
        "UNDEFINED_COLUMN",
        -32001,
    )
    expect(
        server.fail(
            "select_rows", {"table": "customers", "filters": [{"column": evil, "value": 1}]}
        ),
        "UNDEFINED_COLUMN",
        -32001,
    )
    expect(
        server.fail("insert_rows", {"table": "customers", "rows": [{evil: "x"}]}),
        "UNDEFINED_COLUMN",
        -32001,
    )
    expect(
        server.fail(
            "delete_rows", {"table": f"sales; {evil}", "mode": "drop_table", "confirm": True}
        ),
        "UNDEFINED_TABLE",
        -32001,
    )
    stored = server.ok("insert_rows", {"table": "products", "rows": [{"name": evil[:50]}]})
    assert stored["rows"][0]["name"] == evil[:50]
    echoed = server.ok("execute_sql", {"sql": "SELECT :v AS v", "params": {"v": evil}})
    assert echoed["data"] == [{"v": evil}]
    assert {"customers", "products", "sales"} <= shop.tables()
    assert shop.scalar("SELECT count(*) FROM sales") == 2
    assert shop.scalar("SELECT count(*) FROM customers") == 3


# Only the PostgreSQL URL carries a password (trust auth ignores it).
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_credentials_never_leave_the_server(server: StdioServer, shop: Backend) -> None:
    assert PG_PASSWORD in server.url
    payload = server.fail("execute_sql", {"sql": "SELECT * FROM nowhere"})
    assert PG_PASSWORD not in str(payload)
    log = server.log_text()
    assert "serving postgresql+psycopg://" in log
    assert PG_PASSWORD not in log


def _without(payload: dict[str, Any], literal: str) -> dict[str, Any]:
    """The answer with the client's own literal taken out (and what changes every call)."""
    kept = {k: v for k, v in payload.items() if k not in ("timestamp", "history")}
    return json.loads(json.dumps(kept).replace(literal, "<literal>"))


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_masking_is_no_oracle_for_the_password(server: StdioServer, shop: Backend) -> None:
    """
    A client's own literal comes back the same whether or not it holds the password.

    Masking it only when it matched a secret would tell a client sending
    candidates which one is right; the server masks none of the client's own
    text by the password's value (credentials are masked by their shape).
    """
    guess = "lde-mcp-Pw-7732"  # the password's length and shape, one character off
    for template in (
        "SELECT '{}' + 1",
        'SELECT * FROM "{}"',
        "SELECT 1 FROM customers WHERE name = '{}' AND nosuch = 1",
    ):
        right = server.fail("execute_sql", {"sql": template.format(PG_PASSWORD)})
        wrong = server.fail("execute_sql", {"sql": template.format(guess)})
        assert _without(right, PG_PASSWORD) == _without(wrong, guess), template
