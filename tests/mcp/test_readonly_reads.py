"""
A read-only server still reads: ordinary queries work on every engine.

Also: it lists only the tools that read, and the engine layer refuses a
write on its own (the parser layer bypassed), with the engine's own error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from localdata_errors import classify_error
from localdata_errors._kinds import Kind
from localdata_errors.mcp import ToolInputError
from localdata_errors.mcp._sql import Database
from tests.conftest import require_module
from tests.mcp._harness import Backend, StdioServer
from tests.mcp._readonly_corpus import READS
from tests.mcp._readonly_dump import HostileDatabase

READ_TOOLS = {"list_tables", "describe_table", "select_rows", "execute_sql"}

# Queries every engine answers the same way on the shop's rows.
COMMON_READS: list[tuple[str, list[dict[str, Any]]]] = [
    (
        "SELECT c.name, s.qty FROM sales s JOIN customers c ON c.id = s.customer_id "
        "ORDER BY c.name",
        [{"name": "Ann", "qty": 3}, {"name": "Bob", "qty": 1}],
    ),
    (
        "WITH big AS (SELECT customer_id FROM sales WHERE qty > 2) "
        "SELECT name FROM customers WHERE id IN (SELECT customer_id FROM big)",
        [{"name": "Ann"}],
    ),
    (
        "SELECT name, row_number() OVER (ORDER BY name DESC) AS rn FROM customers ORDER BY rn",
        [{"name": "Cid", "rn": 1}, {"name": "Bob", "rn": 2}, {"name": "Ann", "rn": 3}],
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3) "
        "SELECT sum(x) AS total FROM c",
        [{"total": 6}],
    ),
    (
        "SELECT name FROM customers WHERE name = 'Ann' UNION SELECT name FROM products "
        "WHERE name = 'pen' ORDER BY 1",
        [{"name": "Ann"}, {"name": "pen"}],
    ),
    ("SELECT count(*) AS n FROM (SELECT DISTINCT product_id FROM sales) AS d", [{"n": 2}]),
    ("SELECT 'a;b' AS v -- a comment; DELETE FROM sales\n", [{"v": "a;b"}]),
    ("/* leading */ SELECT 1 AS one /* trailing */", [{"one": 1}]),
    ("SELECT name FROM lde_ro_view ORDER BY name LIMIT 1", [{"name": "Ann"}]),
]

# Engine-specific reads: (sql, a check on the returned rows).
Check = Callable[[list[dict[str, Any]]], bool]
DIALECT_READS: dict[str, list[tuple[str, Check]]] = {
    "sqlite": [
        ("PRAGMA table_info(customers)", lambda rows: {r["name"] for r in rows} >= {"id"}),
        ("PRAGMA main.index_list('customers')", lambda rows: len(rows) >= 1),
        ("PRAGMA foreign_key_list(sales)", lambda rows: len(rows) == 2),
        ("PRAGMA query_only", lambda rows: list(rows[0].values()) == [1]),
        ("SELECT name FROM pragma_table_info('sales') ORDER BY cid", lambda rows: len(rows) == 4),
        ("EXPLAIN QUERY PLAN SELECT * FROM sales WHERE id = 1", lambda rows: len(rows) >= 1),
        ("VALUES (1, 'a'), (2, 'b')", lambda rows: len(rows) == 2),
        ("SELECT [name] FROM customers WHERE id = 1", lambda rows: rows == [{"name": "Ann"}]),
    ],
    "duckdb": [
        ("SHOW TABLES", lambda rows: {"customers", "sales"} <= {r["name"] for r in rows}),
        ("DESCRIBE customers", lambda rows: "id" in {r["column_name"] for r in rows}),
        ("PRAGMA table_info('customers')", lambda rows: len(rows) == 3),
        ("EXPLAIN SELECT * FROM sales", lambda rows: len(rows) >= 1),
        ("EXPLAIN ANALYZE SELECT count(*) FROM sales", lambda rows: len(rows) >= 1),
        ("SUMMARIZE sales", lambda rows: len(rows) == 4),
        (
            "FROM customers SELECT name ORDER BY name LIMIT 1",
            lambda rows: rows == [{"name": "Ann"}],
        ),
        ("SELECT $$a;b$$ AS v", lambda rows: rows == [{"v": "a;b"}]),
    ],
    "postgresql": [
        ("SHOW search_path", lambda rows: len(rows) == 1),
        ("EXPLAIN SELECT * FROM sales WHERE id = 1", lambda rows: len(rows) >= 1),
        (
            "EXPLAIN (ANALYZE, COSTS OFF) SELECT count(*) FROM sales",
            lambda rows: len(rows) >= 1,
        ),
        ("TABLE customers", lambda rows: len(rows) == 3),
        ("VALUES (1, 'a'), (2, 'b')", lambda rows: len(rows) == 2),
        (
            "SELECT $$a;b$$ AS v, E'it\\'s' AS w",
            lambda rows: rows == [{"v": "a;b", "w": "it's"}],
        ),
        ("SELECT last_value FROM lde_ro_seq", lambda rows: len(rows) == 1),
    ],
    "mysql": [
        ("SHOW TABLES", lambda rows: len(rows) >= 3),
        ("SHOW CREATE TABLE sales", lambda rows: "FOREIGN KEY" in str(rows)),
        ("DESCRIBE customers", lambda rows: "id" in {r["Field"] for r in rows}),
        ("EXPLAIN SELECT * FROM sales WHERE id = 1", lambda rows: len(rows) >= 1),
        (
            "SELECT 'it\\'s' AS v, `name` FROM customers ORDER BY id LIMIT 1",
            lambda rows: rows == [{"v": "it's", "name": "Ann"}],
        ),
        ("SELECT 1 AS one # a comment\n", lambda rows: rows == [{"one": 1}]),
    ],
}


@pytest.fixture(scope="module")
def readable(backend: Backend) -> Iterator[Backend]:
    """The shop with a view (and a sequence where the backend has them; pg_trgm on PostgreSQL)."""
    db = HostileDatabase(backend)
    if backend.name == "postgresql":
        # The module's own database: the extension goes with it.
        with backend.engine.begin() as conn:
            conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    try:
        yield backend
    finally:
        db.close()


def test_only_the_read_tools_are_listed(readonly_server: StdioServer, readable: Backend) -> None:
    tools = {tool.name: tool for tool in readonly_server.list_tools().tools}
    assert set(tools) == READ_TOOLS
    assert all(tool.annotations.read_only_hint is True for tool in tools.values())
    assert "reads" in (tools["execute_sql"].description or "")


@pytest.mark.parametrize(("sql", "expected"), COMMON_READS, ids=[s[:30] for s, _ in COMMON_READS])
def test_ordinary_reads(
    readonly_server: StdioServer, readable: Backend, sql: str, expected: list[dict[str, Any]]
) -> None:
    out = readonly_server.ok("execute_sql", {"sql": sql})
    assert out["data"] == expected


def test_reads_with_bound_values(readonly_server: StdioServer, readable: Backend) -> None:
    named = readonly_server.ok(
        "execute_sql",
        {"sql": "SELECT name FROM customers WHERE id = :id -- :ignored\n", "params": {"id": 2}},
    )
    assert named["data"] == [{"name": "Bob"}]
    positional = readonly_server.ok(
        "execute_sql",
        {
            "sql": "SELECT count(*) AS n FROM customers WHERE name IN (?, ?) AND name <> '?'",
            "params": ["Ann", "Cid"],
        },
    )
    assert positional["data"] == [{"n": 2}]
    both = readonly_server.ok(
        "execute_sql", {"sql": "SELECT 1 AS a; SELECT name FROM customers WHERE id = 3"}
    )
    assert [r["data"] for r in both["results"]] == [[{"a": 1}], [{"name": "Cid"}]]


def test_structured_read_tools(readonly_server: StdioServer, readable: Backend) -> None:
    listed = readonly_server.ok("list_tables")
    names = {t["name"]: t["type"] for t in listed["tables"]}
    assert names["customers"] == "table"
    assert names["lde_ro_view"] == "view"
    sales = readonly_server.ok("describe_table", {"table": "sales"})
    assert sales["row_count"] == 2
    assert {fk["references_table"] for fk in sales["foreign_keys"]} == {"customers", "products"}
    rows = readonly_server.ok(
        "select_rows", {"table": "customers", "filters": [{"column": "name", "value": "Bob"}]}
    )
    assert rows["data"][0]["name"] == "Bob"


def _read(server: StdioServer, sql: str, check: Check) -> None:
    out = server.ok("execute_sql", {"sql": sql})
    assert check(out["data"]), out["data"]


def _reads_of(name: str) -> Any:
    cases = DIALECT_READS[name]
    return pytest.mark.parametrize(("sql", "check"), cases, ids=[s[:40] for s, _ in cases])


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@_reads_of("sqlite")
def test_sqlite_reads(
    readonly_server: StdioServer, readable: Backend, sql: str, check: Check
) -> None:
    _read(readonly_server, sql, check)


@pytest.mark.parametrize("backend", ["duckdb"], indirect=True)
@_reads_of("duckdb")
def test_duckdb_reads(
    readonly_server: StdioServer, readable: Backend, sql: str, check: Check
) -> None:
    _read(readonly_server, sql, check)


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
@_reads_of("postgresql")
def test_postgresql_reads(
    readonly_server: StdioServer, readable: Backend, sql: str, check: Check
) -> None:
    _read(readonly_server, sql, check)


@pytest.mark.parametrize("backend", ["mysql"], indirect=True)
@_reads_of("mysql")
def test_mariadb_reads(
    readonly_server: StdioServer, readable: Backend, sql: str, check: Check
) -> None:
    _read(readonly_server, sql, check)


# -- no false refusals: a corpus of analytical reads per engine ---------------------


def _analytical(name: str) -> Any:
    cases = READS[name]
    ids = [f"{i:03d}-{sql[:40]}" for i, sql in enumerate(cases)]
    return pytest.mark.parametrize("sql", cases, ids=ids)


def test_every_engine_has_a_hundred_reads() -> None:
    for name, cases in READS.items():
        assert len(set(cases)) >= 100, name


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
@_analytical("postgresql")
def test_postgresql_analytical_reads(
    readonly_server: StdioServer, readable: Backend, sql: str
) -> None:
    readonly_server.ok("execute_sql", {"sql": sql})


@pytest.mark.parametrize("backend", ["mysql"], indirect=True)
@_analytical("mysql")
def test_mariadb_analytical_reads(
    readonly_server: StdioServer, readable: Backend, sql: str
) -> None:
    readonly_server.ok("execute_sql", {"sql": sql})


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@_analytical("sqlite")
def test_sqlite_analytical_reads(readonly_server: StdioServer, readable: Backend, sql: str) -> None:
    readonly_server.ok("execute_sql", {"sql": sql})


@pytest.mark.parametrize("backend", ["duckdb"], indirect=True)
@_analytical("duckdb")
def test_duckdb_analytical_reads(readonly_server: StdioServer, readable: Backend, sql: str) -> None:
    readonly_server.ok("execute_sql", {"sql": sql})


# -- the engine layer alone ---------------------------------------------------------


@pytest.fixture(scope="module")
def engine_only(readable: Backend) -> Iterator[Database]:
    """A read-only Database on the module's database, used without its parser layer."""
    db = Database(readable.url, read_only=True, timeout=5)
    try:
        yield db
    finally:
        db.dispose()


def _engine_error(db: Database, sql: str) -> BaseException:
    with pytest.raises(sa.exc.DBAPIError) as caught, db.transaction(write=False) as conn:
        conn.exec_driver_sql(sql)
    return caught.value


def test_the_engine_refuses_a_write_by_itself(engine_only: Database, readable: Backend) -> None:
    """The parser layer bypassed, each engine refuses with its own read-only error."""
    if readable.name == "sqlite":
        # The authorizer denies it first; without the authorizer, the file
        # opened with mode=ro refuses the write.
        denied = _engine_error(engine_only, "DELETE FROM sales")
        assert "not authorized" in str(denied)
        with engine_only.engine.connect() as conn:
            raw = conn.connection.driver_connection
            assert raw is not None
            raw.set_authorizer(None)
            with pytest.raises(Exception, match="readonly database") as caught:
                raw.execute("DELETE FROM sales")
            assert classify_error(caught.value).kind is Kind.READ_ONLY
            conn.invalidate()
    elif readable.name == "duckdb":
        # Straight to the driver, past the check of DuckDB's own parser.
        with engine_only.engine.connect() as conn:
            raw = conn.connection.driver_connection
            assert raw is not None
            for sql in ("DELETE FROM sales", "CREATE TABLE lde_x (a INTEGER)"):
                with pytest.raises(Exception, match="read-only mode") as caught:
                    raw.execute(sql)
                assert classify_error(caught.value, "duckdb").kind is Kind.READ_ONLY
    else:
        for sql in (
            "DELETE FROM sales",
            "UPDATE customers SET name = 'x'",
            "CREATE TABLE lde_x (a INTEGER)",
            "SELECT lde_ro_wipe()",
        ):
            error = _engine_error(engine_only, sql)
            assert classify_error(error).kind is Kind.READ_ONLY, error
    assert readable.scalar("SELECT count(*) FROM sales") == 2
    assert "lde_x" not in readable.tables()


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_a_function_that_writes_is_refused_by_the_engine(
    readonly_server: StdioServer, readable: Backend
) -> None:
    """
    A call the parse lets through (a user's function) meets the engine layer.

    On PostgreSQL the catalogue refuses a volatile function first: the one
    that reaches the engine is declared STABLE and writes anyway.
    """
    function = "lde_ro_stable_wipe" if readable.name == "postgresql" else "lde_ro_wipe"
    result = readonly_server.call("execute_sql", {"sql": f"SELECT {function}()"})
    assert result.is_error
    payload = result.structured_content
    assert isinstance(payload, dict)
    assert payload["details"]["backend"] != "mcp"
    # PostgreSQL: a write in a non-volatile function (0A000); MariaDB: read-only transaction.
    assert payload["error_code"] in ("READ_ONLY", "FEATURE_NOT_SUPPORTED"), payload
    assert readable.scalar("SELECT count(*) FROM sales") == 2


def test_in_memory_databases_refuse_writes_too() -> None:
    """An in-memory database cannot be opened read-only; the rest of the engine layer holds."""
    sqlite = Database("sqlite://", read_only=True)
    try:
        with sqlite.transaction(write=False) as conn:
            assert conn.exec_driver_sql("SELECT 1").scalar() == 1
        for sql in (
            "CREATE TABLE t (a INTEGER)",
            "PRAGMA query_only = 0",
            "ATTACH ':memory:' AS x",
        ):
            assert "not authorized" in str(_engine_error(sqlite, sql))
    finally:
        sqlite.dispose()
    duck = Database("duckdb:///:memory:", read_only=True)
    try:
        with duck.transaction(write=False) as conn:
            assert conn.exec_driver_sql("SELECT 42").scalar() == 42
            # DuckDB's own parser finds a CREATE: refused before it runs.
            with pytest.raises(ToolInputError, match="CREATE"):
                conn.exec_driver_sql("CREATE TABLE t (a INTEGER)")
            # Past the parser check, straight to the driver: the settings are locked.
            raw = conn.connection.driver_connection
            assert raw is not None
            with pytest.raises(Exception, match="locked"):
                raw.execute("SET enable_external_access = true")
        # A read of a file: file access is off in the engine itself.
        with (
            pytest.raises(sa.exc.DBAPIError, match="disabled by configuration"),
            duck.transaction(write=False) as conn,
        ):
            conn.exec_driver_sql("SELECT * FROM read_text('/etc/hostname')")
    finally:
        duck.dispose()


DRIVERS = {
    "postgresql": [("psycopg", "psycopg")],
    "mysql": [
        ("pymysql", "pymysql"),
        ("mysqldb", "MySQLdb"),
        ("mysqlconnector", "mysql.connector"),
        ("mariadbconnector", "mariadb"),
    ],
}


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_one_call_sends_one_statement_with_every_driver(readable: Backend) -> None:
    """A second statement the parser missed would not run: the driver or server refuses it."""
    for driver, module in DRIVERS[readable.name]:
        require_module(module)
        url = sa.make_url(readable.url).set(drivername=f"{readable.name}+{driver}")
        db = Database(url.render_as_string(hide_password=False), read_only=True, timeout=5)
        try:
            with db.transaction(write=False) as conn:
                assert conn.exec_driver_sql("SELECT 1").scalar() == 1
            for sql in ("SELECT 1; DELETE FROM sales", "COMMIT; DELETE FROM sales"):
                with pytest.raises(sa.exc.DBAPIError), db.transaction(write=False) as conn:
                    conn.exec_driver_sql(sql)
        finally:
            db.dispose()
        assert readable.scalar("SELECT count(*) FROM sales") == 2, driver
