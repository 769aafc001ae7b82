"""
The SQL tool server's execution history, replayed through the real server on
SQLite, PostgreSQL and MariaDB: it records what was called and nothing else.

A scripted agent deletes, updates, inserts, truncates and drops with the
table tools, and sends SQL with literals and bound values.  After every call:

- each line of the summary is a call the agent made, rendered as it was made
  (tool, table, filter columns and operators), or a statement it sent via
  ``execute_sql`` with its values masked; no SQL appears that it did not send;
- no value it sent (filter values, rows, literals, bound parameters) appears;
- "Possibly unblocked" names only earlier failed calls, verbatim, and only
  asks to retry them unchanged.

The expected renderings are written from the calls (the documented form),
the expected maskings from the statements (every literal becomes ``?``).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
import sqlalchemy as sa
from mcp import Client

from localdata_errors import Action, Kind, StructuredErrorResponse
from localdata_errors.history import ExecutionHistory
from localdata_errors.mcp import server as server_module
from tests.conftest import require_module
from tests.mcp._harness import PG_PASSWORD, Backend

# Values the agent sends: none may ever reach a summary or the history's data.
RENAMED = "Zed-Secret-Name-5521"
NEW_CUSTOMER = "Secret-Row-6611"
MISSING_ID = 777001
BULK_QTY = 987654
DEFAULT_NOTE = "Secret-Default-4402"
PARAM_NOTE = "Param-Secret-8180"
PARAM_ID = 31337
VALUES = ("Bob", RENAMED, NEW_CUSTOMER, str(MISSING_ID), str(BULK_QTY), DEFAULT_NOTE)
VALUES += (PARAM_NOTE, str(PARAM_ID))

DELETE_CUSTOMER = {
    "table": "customers",
    "filters": [{"column": "id", "operator": "=", "value": 1}],
}
ORPHAN_SALE = {"table": "sales", "rows": [{"customer_id": MISSING_ID, "product_id": 1, "qty": 5}]}
DROP_PRODUCTS = {"table": "products", "mode": "drop_table", "confirm": True}

# (tool, arguments, succeeds, how the history shows the call)
SCRIPT: list[tuple[str, dict[str, Any], bool, str]] = [
    ("delete_rows", DELETE_CUSTOMER, False, "delete_rows(customers, where id = ?)"),
    ("insert_rows", ORPHAN_SALE, False, "insert_rows(sales, 1 row: customer_id, product_id, qty)"),
    (
        "update_rows",
        {
            "table": "customers",
            "values": {"name": RENAMED},
            "filters": [{"column": "name", "operator": "=", "value": "Bob"}],
        },
        True,
        "update_rows(customers, set name where name = ?)",
    ),
    (
        "select_rows",
        {
            "table": "customers",
            "columns": ["id", "name"],
            "filters": [{"column": "joined", "operator": "is_null"}],
            "limit": 2,
        },
        True,
        "select_rows(customers, columns id, name where joined is null, limit 2)",
    ),
    (
        "delete_rows",
        {"table": "sales", "filters": [{"column": "customer_id", "operator": "=", "value": 1}]},
        True,
        "delete_rows(sales, where customer_id = ?)",
    ),
    (
        "insert_rows",
        {"table": "customers", "rows": [{"id": MISSING_ID, "name": NEW_CUSTOMER}]},
        True,
        "insert_rows(customers, 1 row: id, name)",
    ),
    ("delete_rows", DELETE_CUSTOMER, True, "delete_rows(customers, where id = ?)"),
    ("insert_rows", ORPHAN_SALE, True, "insert_rows(sales, 1 row: customer_id, product_id, qty)"),
    (
        "execute_sql",
        {"sql": f"DELETE FROM sales WHERE qty = {BULK_QTY}"},
        True,
        "DELETE FROM sales WHERE qty = ?",
    ),
    ("delete_rows", DROP_PRODUCTS, False, "delete_rows(products, mode drop_table)"),
    (
        "delete_rows",
        {"table": "sales", "mode": "truncate", "confirm": True},
        True,
        "delete_rows(sales, mode truncate)",
    ),
    (
        "delete_rows",
        {"table": "sales", "mode": "drop_table", "confirm": True},
        True,
        "delete_rows(sales, mode drop_table)",
    ),
    ("delete_rows", DROP_PRODUCTS, True, "delete_rows(products, mode drop_table)"),
    ("describe_table", {"table": "audit_log"}, False, "describe_table(audit_log)"),
    (
        "execute_sql",
        {
            "sql": "CREATE TABLE audit_log (id INTEGER PRIMARY KEY, "
            f"note VARCHAR(40) DEFAULT '{DEFAULT_NOTE}')"
        },
        True,
        "CREATE TABLE audit_log (id INTEGER PRIMARY KEY, note VARCHAR(?) DEFAULT ?)",
    ),
    (
        "execute_sql",
        {
            "sql": "INSERT INTO audit_log (id, note) VALUES (:id, :note)",
            "params": {"id": PARAM_ID, "note": PARAM_NOTE},
        },
        True,
        "INSERT INTO audit_log (id, note) VALUES (:id, :note)",
    ),
    (
        "update_rows",
        {"table": "audit_log", "values": {"note": "x"}, "confirm_all": True},
        True,
        "update_rows(audit_log, set note, all rows)",
    ),
    ("describe_table", {"table": "audit_log"}, True, "describe_table(audit_log)"),
    ("list_tables", {}, True, "list_tables()"),
]

# (step whose success may unblock, the earlier failed step it unblocks, why)
UNBLOCKS = [
    (4, 0, "rows were removed from its dependency sales"),
    (11, 9, "its dependency sales no longer exists"),
    (14, 13, "table audit_log now exists"),
]
# The statements the history used to make up for structured calls.
SQL_WORDS = re.compile(
    r"\b(?:DELETE\s+FROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DROP\s+TABLE|TRUNCATE\s+TABLE|"
    r"DEFAULT\s+VALUES)\b|=\s*NULL\b"
)
ENTRY = re.compile(r"^- (?P<op>.*) → (?P<outcome>SUCCESS|FAILED)(?: \(.*\))?$")


def _make(name: str, request: pytest.FixtureRequest, tmp: Path) -> Backend:
    if name == "sqlite":
        return Backend(name, f"sqlite:///{tmp / 'shop.db'}", None, None)
    db_name = f"lde_hist_{secrets.token_hex(4)}"
    if name == "postgresql":
        cfg = request.getfixturevalue("pg_server")
        require_module("psycopg")
        base = f"postgresql+psycopg://{cfg['user']}:{PG_PASSWORD}@{cfg['host']}:{cfg['port']}"
        admin_url = f"{base}/{cfg['dbname']}"
    else:
        cfg = request.getfixturevalue("mysql_server")
        require_module("pymysql")
        password = f":{cfg['password']}" if cfg["password"] else ""
        base = f"mysql+pymysql://{cfg['user']}{password}@{cfg['host']}:{cfg['port']}"
        admin_url = f"{base}/{cfg['database']}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {db_name}")
    admin.dispose()
    return Backend(name, f"{base}/{db_name}", admin_url, db_name)


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgresql", marks=pytest.mark.postgresql),
        pytest.param("mysql", marks=pytest.mark.mysql),
    ]
)
def shop(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """A database of its own with the shop schema, dropped afterwards."""
    db = _make(request.param, request, tmp_path)
    try:
        db.reset_shop()
        yield db
    finally:
        db.drop()


@pytest.fixture
def histories(monkeypatch: pytest.MonkeyPatch) -> list[ExecutionHistory]:
    """The histories the server creates (the server's own kind), kept to read them."""
    made: list[ExecutionHistory] = []

    def factory() -> Any:
        def make() -> ExecutionHistory:
            made.append(ExecutionHistory(max_entries=5))
            return made[-1]

        return make

    monkeypatch.setattr(server_module, "_history_factory", factory)
    return made


def replay(url: str, calls: list[tuple[str, dict[str, Any]]], after: Any) -> None:
    """Run *calls* in one client session of a freshly built server, calling *after* each."""
    settings = server_module.ServerSettings(
        url, max_rows=5, timeout=5, create=True, verbose_errors=True
    )
    server = server_module.build_server(settings)

    async def run() -> None:
        async with Client(server) as client:
            for i, (tool, arguments) in enumerate(calls):
                result = await client.call_tool(tool, arguments)
                after(i, result)

    anyio.run(run)


def check_summary(summary: str, sent: dict[str, bool], failed: set[str]) -> None:
    """Every line is a call that was made, as it was made; unblocked ones are earlier failures."""
    for value in VALUES:
        assert value not in summary
    for line in summary.splitlines()[2:-1]:
        if line.startswith("- ("):
            continue  # "(N older executions omitted)"
        if line.startswith("- "):
            match = ENTRY.match(line)
            assert match, line
            op = match["op"]
            if op.startswith("execute_sql: "):
                assert op.removeprefix("execute_sql: ") in sent, line
            else:
                assert op in sent, line
                assert not SQL_WORDS.search(op), line  # a call is never shown as SQL
        elif line.startswith("Possibly unblocked: "):
            named = re.findall(r"`([^`]*)`", line)
            assert named, line
            assert all(op in failed for op in named), line
            assert line.count("unchanged") == line.count("retry ")
            assert not SQL_WORDS.search(re.sub(r"`[^`]*`", "", line)), line
        else:
            assert line.startswith("State changes: "), line
            assert not SQL_WORDS.search(line), line


def test_the_history_records_what_was_called(
    shop: Backend, histories: list[ExecutionHistory]
) -> None:
    sent: dict[str, bool] = {}  # rendered call -> whether it was sent via execute_sql
    failed: set[str] = set()
    seen_unblocked: dict[int, set[str]] = {}
    payload_dependencies: dict[int, list[str]] = {}

    def after(step: int, result: Any) -> None:
        tool, arguments, succeeds, shown = SCRIPT[step]
        assert result.is_error is not succeeds, (step, result.structured_content)
        sent[shown] = tool == "execute_sql"
        if not succeeds:
            failed.add(shown)
            payload = result.structured_content
            payload_dependencies[step] = payload["details"].get("dependencies", [])
            # What is attached bears on this failure: calls on its table or dependency.
            block = payload.get("history", "")
            check_summary(block, sent, failed)
            named = {str(arguments.get("table")), *payload_dependencies[step]}
            for line in block.splitlines()[1:-1]:
                if line.startswith("- "):
                    assert any(name in line for name in named), (step, line)
        (history,) = histories
        data = history.to_dict()
        entry = data["entries"][0]
        assert (entry["tool"], entry["operation"]) == (tool, shown)
        assert entry["outcome"] == ("success" if succeeds else "failed")
        if tool != "execute_sql":
            call = entry["call"]
            assert call["table"] == arguments.get("table")
            assert [(f["column"], f["operator"]) for f in call["filters"]] == [
                (f["column"], f["operator"]) for f in arguments.get("filters", [])
            ]
        text = json.dumps(data)
        for value in VALUES:
            assert value not in text
        summary = history.summary()
        check_summary(summary, sent, failed)
        for item in data["possibly_unblocked"]:
            assert item["operation"] in failed
            seen_unblocked.setdefault(step, set()).add(
                item["operation"] + " | " + "; ".join(item["reasons"])
            )

    replay(shop.url, [(tool, arguments) for tool, arguments, _, _ in SCRIPT], after)

    assert payload_dependencies[0] == ["sales"]  # the referencing table blocks the delete
    for step, earlier, reason in UNBLOCKS:
        assert f"{SCRIPT[earlier][3]} | {reason}" in seen_unblocked.get(step, set()), step
    # The insert of an orphan waits for its parent; where the server names only
    # the parent, the new customer row unblocks it.
    if payload_dependencies[1] == ["customers"]:
        unblocked = f"{SCRIPT[1][3]} | its parent table customers has new rows"
        assert unblocked in seen_unblocked.get(5, set())
    (history,) = histories
    assert history.to_dict()["possibly_unblocked"] == []  # every retry succeeded


FORMAT_NAMES = ("p{0}", "{x}", "%s", "{0!r}")


def test_names_that_look_like_format_strings(
    shop: Backend, histories: list[ExecutionHistory]
) -> None:
    quote = "`" if shop.name == "mysql" else '"'
    table, column = FORMAT_NAMES[0], FORMAT_NAMES[1]
    child = FORMAT_NAMES[3]
    calls: list[tuple[str, dict[str, Any]]] = [
        (
            "execute_sql",
            {
                "sql": f"CREATE TABLE {quote}{table}{quote} (id INTEGER PRIMARY KEY, "
                f"{quote}{column}{quote} VARCHAR(20), {quote}%s{quote} INTEGER)"
            },
        ),
        ("describe_table", {"table": table}),
        ("insert_rows", {"table": table, "rows": [{"id": 1, column: "Secret-Row-6611"}]}),
        (
            "update_rows",
            {
                "table": table,
                "values": {"%s": 2},
                "filters": [{"column": column, "operator": "like", "value": "Secret%"}],
            },
        ),
        ("select_rows", {"table": table, "order_by": [{"column": "%s", "direction": "desc"}]}),
        ("delete_rows", {"table": child, "mode": "drop_table", "confirm": True}),  # missing
        ("execute_sql", {"sql": f"CREATE TABLE {quote}{child}{quote} (id INTEGER)"}),
        (
            "delete_rows",
            {"table": table, "filters": [{"column": "%s", "operator": "=", "value": 2}]},
        ),
        ("describe_table", {"table": "nowhere"}),  # fails: the summary is attached
    ]
    payloads: list[Any] = []
    summaries: list[str] = []

    def after(_step: int, result: Any) -> None:
        payloads.append(result.structured_content)
        summaries.append(histories[0].summary())

    try:
        replay(shop.url, calls, after)
        assert "history" not in payloads[-1]  # nothing bears on describe_table(nowhere)
        (history,) = histories
        summary = history.summary()
        assert summary == summaries[-1]
        assert not any("Secret" in text for text in summaries)
        shown = [summary.splitlines() for summary in summaries]
        assert '- describe_table("p{0}") → SUCCESS' in shown[1]
        assert (
            '- insert_rows("p{0}", 1 row: id, "{x}") → SUCCESS (1 row inserted into p{0})'
            in (shown[2])
        )
        assert (
            '- update_rows("p{0}", set "%s" where "{x}" like ?) → SUCCESS (1 row updated in p{0})'
            in shown[3]
        )
        assert '- select_rows("p{0}", order by "%s" desc) → SUCCESS' in shown[4]
        assert (
            '- delete_rows("p{0}", where "%s" = ?) → SUCCESS (1 row deleted from p{0})' in shown[7]
        )
        lines = summary.splitlines()
        assert "- describe_table(nowhere) → FAILED (resource_not_found: nowhere)" in lines
        ops = [e["operation"] for e in history.to_dict()["entries"]]
        assert 'describe_table("p{0}")' not in ops  # scrolled out: five entries
        assert history.to_dict()["possibly_unblocked"] == [
            {
                "tool": "delete_rows",
                "operation": 'delete_rows("{0!r}", mode drop_table)',
                "failed_at": 6,
                "reasons": ["table {0!r} now exists"],
            }
        ]
        assert (
            'Possibly unblocked: retry `delete_rows("{0!r}", mode drop_table)` unchanged '
            "(table {0!r} now exists)." in lines
        )
    finally:
        with shop.engine.begin() as conn:
            for name in (table, child):
                conn.exec_driver_sql(f"DROP TABLE IF EXISTS {quote}{name}{quote}")


# -- the loop guard ----------------------------------------------------------------------


def test_a_call_repeated_unchanged_is_named_with_its_next_step(
    shop: Backend, histories: list[ExecutionHistory]
) -> None:
    """The same failing call, sent again and again: the summary says so, and what to do."""
    drop = ("delete_rows", {"table": "customers", "mode": "drop_table", "confirm": True})
    other_row = ("delete_rows", {"table": "customers", "filters": [{"column": "id", "value": 2}]})
    same_row = ("delete_rows", {"table": "customers", "filters": [{"column": "id", "value": 1}]})
    calls = [drop, ("list_tables", {}), drop, same_row, other_row, drop]
    payloads: list[Any] = []
    replay(shop.url, calls, lambda _i, result: payloads.append(result.structured_content))
    first, _, second, one, two, third = payloads
    assert "repeated_call" not in first
    assert second["repeated_call"] == {"times": 2, "action": "fix_query"}
    assert third["repeated_call"] == {"times": 3, "action": "fix_query"}
    # The same rendering, other values: another call, not a repeat.
    assert "repeated_call" not in one
    assert "repeated_call" not in two
    line = next(x for x in third["history"].splitlines() if x.startswith("Repeated failures:"))
    assert "`delete_rows(customers, mode drop_table)` 3 times unchanged" in line
    assert "fails with fix_query" in line
    assert "change it before sending it again" in line
    (history,) = histories
    assert history.repeated() == [
        {
            "tool": "delete_rows",
            "operation": "delete_rows(customers, mode drop_table)",
            "times": 3,
            "kind": third["details"]["kind"],
            "action": "fix_query",
            "last_failed_at": 6,
        }
    ]


def test_a_repeat_is_forgotten_once_the_call_succeeds(
    shop: Backend, histories: list[ExecutionHistory]
) -> None:
    sql = {"sql": "SELECT count(*) AS n FROM lde_later"}
    calls = [
        ("execute_sql", sql),
        ("execute_sql", sql),
        ("execute_sql", {"sql": "CREATE TABLE lde_later (id INTEGER)"}),
        ("execute_sql", sql),
        ("execute_sql", {"sql": "DROP TABLE lde_later"}),
        ("execute_sql", sql),
    ]
    payloads: list[Any] = []
    replay(shop.url, calls, lambda _i, result: payloads.append(result.structured_content))
    assert payloads[1]["repeated_call"] == {"times": 2, "action": "fix_query"}
    assert payloads[3]["success"] is True
    # Failing again after a success starts a new count.
    assert "repeated_call" not in payloads[5]
    assert "Repeated failures" not in payloads[5].get("history", "")


@pytest.mark.parametrize("shop", ["sqlite"], indirect=True)
def test_a_repeated_stop_says_to_tell_the_user(
    tmp_path: Path, shop: Backend, histories: list[ExecutionHistory]
) -> None:
    # A database file that cannot be opened: connection_misconfigured, whose next step is stop.
    url = f"sqlite:///{tmp_path / 'missing-dir' / 'shop.db'}"
    payloads: list[Any] = []
    replay(url, [("list_tables", {})] * 2, lambda _i, r: payloads.append(r.structured_content))
    assert [p["details"]["action"] for p in payloads] == ["stop", "stop"]
    assert payloads[1]["repeated_call"] == {"times": 2, "action": "stop"}
    assert "stop and tell the user" in payloads[1]["history"]


def test_the_history_keeps_the_answer_it_was_given() -> None:
    """A classified answer is recorded as it is: never classified again."""
    history = ExecutionHistory()
    answer = StructuredErrorResponse.for_kind(
        Kind.DEADLOCK_DETECTED, "deadlock detected", backend="postgresql"
    )
    for _ in range(2):
        entry = history.record("execute_sql", {"sql": "UPDATE t SET a = 1"}, error=answer)
    assert (entry.kind, entry.action, entry.repeats) == ("deadlock_detected", "retry", 1)
    assert entry.action == Action.RETRY.value
    assert "the code retries it after a back-off" in history.summary()


@pytest.mark.parametrize("shop", ["sqlite"], indirect=True)
def test_an_error_carries_no_note_about_another_call(
    shop: Backend, histories: list[ExecutionHistory]
) -> None:
    """A loop on one statement is not told to an unrelated failure, as it used to be."""
    selec = ("execute_sql", {"sql": "SELEC * FROM customers"})
    update = (
        "update_rows",
        {
            "table": "no_such_table",
            "values": {"name": NEW_CUSTOMER},
            "filters": [{"column": "id", "operator": "=", "value": MISSING_ID}],
        },
    )
    payloads: list[Any] = []
    replay(
        shop.url, [selec, selec, selec, update], lambda _i, r: payloads.append(r.structured_content)
    )
    assert "`SELEC * FROM customers` 3 times unchanged" in payloads[2]["history"]
    assert payloads[3]["success"] is False
    assert "history" not in payloads[3]
    assert NEW_CUSTOMER not in json.dumps(payloads)
    assert str(MISSING_ID) not in json.dumps(payloads)
    (history,) = histories
    assert "SELEC" in history.summary()  # the whole summary still shows it
