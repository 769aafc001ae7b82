"""
What a statement changes: the exact recognisers agree with sqlglot, the regex
fallback works without sqlglot, and no input makes parsing fail or crawl.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import _statechange
from localdata_errors._statechange import Name, fold_name, parse_statement, sql_dialect

# (db_type, statement, expected change descriptions)
CASES: list[tuple[str, str, list[str]]] = [
    ("postgresql", "DROP TABLE customers", ["table customers dropped"]),
    (
        "postgresql",
        'DROP TABLE IF EXISTS sales.orders, "Returns" CASCADE',
        ["table orders dropped", "table Returns dropped"],
    ),
    (
        "mysql",
        "DROP TABLE IF EXISTS `shop`.`sales`, products",
        ["table sales dropped", "table products dropped"],
    ),
    ("mssql", "DROP TABLE [dbo].[Order Lines]", ["table Order Lines dropped"]),
    ("sqlite", "drop view if exists v_sales;", ["view v_sales dropped"]),
    ("postgresql", "DROP INDEX idx_sales_customer", ["index idx_sales_customer dropped"]),
    ("postgresql", "CREATE TABLE IF NOT EXISTS report (id int)", ["table report created"]),
    ("sqlite", "CREATE TEMP TABLE scratch AS SELECT 1", ["table scratch created"]),
    ("mysql", "CREATE TABLE `Report` (id int)", ["table Report created"]),
    ("postgresql", "ALTER TABLE staging RENAME TO report", ["table staging renamed to report"]),
    ("mysql", "ALTER TABLE `staging` RENAME TO `report`", ["table staging renamed to report"]),
    (
        "postgresql",
        "ALTER TABLE public.sales DROP CONSTRAINT sales_customer_id_fkey",
        ["table sales altered (constraint dropped)"],
    ),
    ("postgresql", "ALTER TABLE sales ADD COLUMN note text", ["table sales altered"]),
    ("postgresql", "TRUNCATE sales, returns", ["table sales truncated", "table returns truncated"]),
    ("mysql", "TRUNCATE TABLE `sales`", ["table sales truncated"]),
    ("postgresql", "INSERT INTO customers (id) VALUES (1)", ["rows inserted into customers"]),
    ("mysql", "INSERT IGNORE INTO `customers` VALUES (1)", ["rows inserted into customers"]),
    ("sqlite", "INSERT OR REPLACE INTO customers VALUES (1)", ["rows inserted into customers"]),
    ("postgresql", "INSERT INTO archive SELECT * FROM sales", ["rows inserted into archive"]),
    ("postgresql", "UPDATE customers SET name = 'x' WHERE id = 1", ["rows updated in customers"]),
    ("postgresql", "DELETE FROM sales WHERE id = 1", ["rows deleted from sales"]),
    ("mssql", "DELETE FROM [dbo].[sales]", ["rows deleted from sales"]),
    ("postgresql", "SELECT * FROM sales JOIN customers ON true", []),
]


@pytest.mark.parametrize(("db_type", "sql", "expected"), CASES)
@pytest.mark.parametrize("parser", ["auto", "sqlglot", "regex"])
def test_every_tier_finds_the_same_changes(
    db_type: str, sql: str, expected: list[str], parser: _statechange.Parser
) -> None:
    if parser == "sqlglot":
        pytest.importorskip("sqlglot")
    parsed = parse_statement(sql, db_type, parser)
    assert [c.describe() for c in parsed.changes] == expected


def test_the_exact_tier_answers_simple_statements_and_defers_the_rest() -> None:
    assert parse_statement("DROP TABLE a, b", "postgresql").parser == "fast"
    assert parse_statement("INSERT INTO t VALUES (1)", "sqlite").parser == "fast"
    pytest.importorskip("sqlglot")
    for sql in (
        "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
        "DROP TABLE a; DROP TABLE b",
        "SELECT * INTO t2 FROM t",
    ):
        assert parse_statement(sql, "postgresql").parser == "sqlglot"


def test_sqlglot_finds_what_the_first_words_do_not_say() -> None:
    pytest.importorskip("sqlglot")
    cte = parse_statement(
        "WITH d AS (DELETE FROM old_rows RETURNING *) SELECT * FROM d", "postgresql"
    )
    assert [c.describe() for c in cte.changes] == ["rows deleted from old_rows"]
    into = parse_statement("SELECT * INTO backup FROM sales", "mssql")
    assert [c.describe() for c in into.changes] == ["table backup created"]
    batch = parse_statement(
        "DROP TABLE a; CREATE TABLE b (id int); INSERT INTO b VALUES (1)", "sqlite"
    )
    assert [c.describe() for c in batch.changes] == [
        "table a dropped",
        "table b created",
        "rows inserted into b",
    ]


def test_statements_sqlglot_keeps_opaque_go_to_the_regexes() -> None:
    renamed = parse_statement("RENAME TABLE a TO b, c TO d", "mysql")
    assert [c.describe() for c in renamed.changes] == [
        "table a renamed to b",
        "table c renamed to d",
    ]
    sp = parse_statement("EXEC sp_rename 'dbo.staging', 'report'", "mssql")
    assert [c.describe() for c in sp.changes] == ["table staging renamed to report"]
    column = parse_statement("EXEC sp_rename 'dbo.t.c', 'd', 'COLUMN'", "mssql")
    assert column.changes == ()


@pytest.fixture
def without_sqlglot(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make ``import sqlglot`` fail, as when the extra is not installed."""
    monkeypatch.setitem(sys.modules, "sqlglot", None)
    _statechange._glot.cache_clear()
    yield
    _statechange._glot.cache_clear()


@pytest.mark.usefixtures("without_sqlglot")
def test_without_sqlglot_the_fallback_still_answers() -> None:
    batch = parse_statement("DROP TABLE a; DROP TABLE `b`", "mysql")
    assert [c.describe() for c in batch.changes] == ["table a dropped", "table b dropped"]
    assert batch.parser == "regex"
    cte = parse_statement("WITH x AS (SELECT 1) SELECT * FROM x", "postgresql")
    assert cte.changes == ()


def test_tables_named_by_a_read_are_listed() -> None:
    parsed = parse_statement(
        'SELECT * FROM "Sales" s JOIN app.customers c ON c.id = s.cid', "postgresql"
    )
    assert parsed.tables == (Name("Sales", True), Name("customers", False))


@pytest.mark.parametrize(
    "sql",
    [
        "",
        ";;;",
        "DROP TABLE",
        "DROP TABLE " + "a," * 10_000,
        "INSERT INTO " + '"' * 5000,
        "SELECT " + "(" * 3000 + "1" + ")" * 3000,
        "ALTER TABLE t " + "RENAME " * 4000,
        "\x00\udcff\ufffd" * 2000,
        "CREATE TABLE " + "x" * 20_000,
        "EXEC sp_rename '" + "'" * 8000,
    ],
)
@pytest.mark.parametrize("parser", ["auto", "regex"])
def test_weird_input_never_raises(sql: str, parser: _statechange.Parser) -> None:
    parsed = parse_statement(sql, "postgresql", parser)
    assert isinstance(parsed.changes, tuple)
    assert all(len(c.name.name) <= 130 for c in parsed.changes)


def test_non_string_input_is_tolerated() -> None:
    junk: Any = b"DROP TABLE a"  # bytes where a caller should pass str
    assert parse_statement(junk, None).changes == ()


@pytest.mark.parametrize(
    ("db_type", "dialect"),
    [
        ("PostgreSQL", "postgres"),
        ("postgresql+psycopg", "postgres"),
        ("mariadb", "mysql"),
        ("mssql", "tsql"),
        ("sqlite", "sqlite"),
        ("oracle", "oracle"),
        ("nosuchdb", None),
        (None, None),
    ],
)
def test_dialects(db_type: str | None, dialect: str | None) -> None:
    assert sql_dialect(db_type) == dialect


def test_folding_follows_the_backend() -> None:
    assert fold_name("Report", False, "postgres") == fold_name("report", True, "postgres")
    assert fold_name("Report", True, "postgres") != fold_name("report", True, "postgres")
    assert fold_name("report", False, "oracle") == fold_name("REPORT", True, "oracle")
    assert fold_name("Report", True, "mysql") == fold_name("REPORT", False, "mysql")
    assert fold_name("Report", True, None) == fold_name("report", False, None)


def test_importing_the_package_imports_neither_history_nor_sqlglot() -> None:
    code = (
        "import sys, localdata_errors; "
        "print(any(m in sys.modules for m in "
        "('sqlglot', 'localdata_errors.history', 'tenacity', 'stamina')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    code = (
        "import sys, localdata_errors.history, localdata_errors.retry; "
        "print(any(m in sys.modules for m in ('sqlglot', 'tenacity', 'stamina')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
