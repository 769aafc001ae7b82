"""
What a statement changes, as sqlglot reads it: only masked text is parsed,
no input makes parsing fail or crawl, and without sqlglot no history is
created (one line names the extra to install).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import _statechange
from localdata_errors._backends import sqlglot_dialect
from localdata_errors._sqlmask import mask_values
from localdata_errors._statechange import Name, fold_name, parse_statement

# (db_type, statement, what it changes): written from what the statement does in
# SQL, not from the reader's output.
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
    ("mysql", "DROP TEMPORARY TABLE scratch", ["table scratch dropped"]),
    ("mssql", "DROP TABLE [dbo].[Order Lines]", ["table Order Lines dropped"]),
    ("sqlite", "drop view if exists v_sales;", ["view v_sales dropped"]),
    ("postgresql", "DROP MATERIALIZED VIEW mv_sales", ["materialized view mv_sales dropped"]),
    ("postgresql", "DROP INDEX idx_sales_customer", ["index idx_sales_customer dropped"]),
    ("postgresql", "DROP SEQUENCE order_ids", ["sequence order_ids dropped"]),
    ("postgresql", "DROP SCHEMA staging CASCADE", ["schema staging dropped"]),
    ("postgresql", "CREATE TABLE IF NOT EXISTS report (id int)", ["table report created"]),
    ("sqlite", "CREATE TEMP TABLE scratch AS SELECT 1", ["table scratch created"]),
    ("mysql", "CREATE TABLE `Report` (id int)", ["table Report created"]),
    (
        "postgresql",
        "CREATE UNIQUE INDEX idx_email ON customers (email)",
        ["index idx_email created"],
    ),
    ("postgresql", "CREATE OR REPLACE VIEW v_open AS SELECT 1", ["view v_open created"]),
    ("postgresql", "CREATE SCHEMA archive", ["schema archive created"]),
    ("postgresql", "ALTER TABLE staging RENAME TO report", ["table staging renamed to report"]),
    ("mysql", "ALTER TABLE `staging` RENAME TO `report`", ["table staging renamed to report"]),
    (
        "postgresql",
        "ALTER TABLE public.sales DROP CONSTRAINT sales_customer_id_fkey",
        ["table sales altered (constraint dropped)"],
    ),
    (
        "mysql",
        "ALTER TABLE sales DROP FOREIGN KEY sales_ibfk_1",
        ["table sales altered (constraint dropped)"],
    ),
    ("postgresql", "ALTER TABLE sales ADD COLUMN note text", ["table sales altered"]),
    ("postgresql", "TRUNCATE sales, returns", ["table sales truncated", "table returns truncated"]),
    ("mysql", "TRUNCATE TABLE `sales`", ["table sales truncated"]),
    ("postgresql", "INSERT INTO customers (id) VALUES (1)", ["rows inserted into customers"]),
    ("mysql", "INSERT IGNORE INTO `customers` VALUES (1)", ["rows inserted into customers"]),
    ("sqlite", "INSERT OR REPLACE INTO customers VALUES (1)", ["rows inserted into customers"]),
    ("mysql", "REPLACE INTO customers (id) VALUES (1)", ["rows inserted into customers"]),
    ("postgresql", "INSERT INTO archive SELECT * FROM sales", ["rows inserted into archive"]),
    ("postgresql", "UPDATE customers SET name = 'x' WHERE id = 1", ["rows updated in customers"]),
    ("postgresql", "DELETE FROM sales WHERE id = 1", ["rows deleted from sales"]),
    ("mssql", "DELETE FROM [dbo].[sales]", ["rows deleted from sales"]),
    ("mysql", "RENAME TABLE a TO b, c TO d", ["table a renamed to b", "table c renamed to d"]),
    ("mssql", "EXEC sp_rename 'dbo.staging', 'report'", ["table staging renamed to report"]),
    ("mssql", "EXEC sp_rename 'dbo.t.c', 'd', 'COLUMN'", []),
    ("postgresql", "SELECT * FROM sales JOIN customers ON true", []),
    ("postgresql", "GRANT SELECT ON sales TO reporting", []),
    ("postgresql", "CREATE USER bob WITH PASSWORD 'tiger'", []),
    (
        "sqlite",
        "DROP TABLE a; CREATE TABLE b (id int); INSERT INTO b VALUES (1)",
        ["table a dropped", "table b created", "rows inserted into b"],
    ),
]


@pytest.mark.parametrize(("db_type", "sql", "expected"), CASES)
def test_what_a_statement_changes(db_type: str, sql: str, expected: list[str]) -> None:
    parsed = parse_statement(sql, db_type)
    assert [c.describe() for c in parsed.changes] == expected
    assert parsed.parser == "sqlglot"


@pytest.mark.parametrize(("db_type", "sql", "expected"), CASES)
def test_masking_first_changes_nothing_the_reader_finds(
    db_type: str, sql: str, expected: list[str]
) -> None:
    # The history parses the masked text only; masking must not hide a change.
    masked = mask_values(sql, sqlglot_dialect(db_type))
    parsed = parse_statement(masked, db_type)
    assert [c.describe() for c in parsed.changes] == expected, masked


def test_sqlglot_finds_what_the_first_words_do_not_say() -> None:
    cte = parse_statement(
        "WITH d AS (DELETE FROM old_rows RETURNING *) SELECT * FROM d", "postgresql"
    )
    assert [c.describe() for c in cte.changes] == ["rows deleted from old_rows"]
    into = parse_statement("SELECT * INTO backup FROM sales", "mssql")
    assert [c.describe() for c in into.changes] == ["table backup created"]
    joined = parse_statement("DELETE a, b FROM a JOIN b ON a.id = b.id", "mysql")
    assert [c.describe() for c in joined.changes] == ["rows deleted from a", "rows deleted from b"]
    merge = parse_statement(
        "MERGE INTO stock t USING delivery s ON t.id = s.id "
        "WHEN MATCHED THEN UPDATE SET qty = t.qty + s.qty "
        "WHEN NOT MATCHED THEN INSERT (id, qty) VALUES (s.id, s.qty)",
        "postgresql",
    )
    assert [c.describe() for c in merge.changes] == [
        "rows updated in stock",
        "rows inserted into stock",
    ]
    view = parse_statement("ALTER VIEW v_old RENAME TO v_new", "postgresql")
    assert [c.describe() for c in view.changes] == ["view v_old renamed to v_new"]


def test_what_sqlglot_cannot_parse_changes_nothing() -> None:
    # PostgreSQL accepts DROP SCHEMA a, b; sqlglot does not.  Unknown is not "dropped".
    parsed = parse_statement("DROP SCHEMA a, b", "postgresql")
    assert parsed == ("DROP", (), (), "sqlglot")
    assert parse_statement("DROP TABLE `t`", "postgresql").changes == ()  # not PostgreSQL


def test_no_value_reaches_sqlglot(monkeypatch: pytest.MonkeyPatch) -> None:
    from localdata_errors import _sqlglot
    from localdata_errors.history import ExecutionHistory

    seen: list[str] = []
    real = _sqlglot.parse

    def spy(sql: str, dialect: str | None, *, partial: bool = False) -> list[Any]:
        seen.append(sql)
        return real(sql, dialect, partial=partial)

    monkeypatch.setattr(_sqlglot, "parse", spy)
    _statechange._glot.cache_clear()
    history = ExecutionHistory(db_type="postgresql")
    history.record(
        "execute_sql",
        {"sql": "UPDATE users SET note = 'tok-8812-secret' WHERE id = 4471 -- note 9931"},
    )
    assert seen == ["UPDATE users SET note = ? WHERE id = ? "]
    assert "rows updated in users" in history.summary()


@pytest.fixture
def without_sqlglot(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make ``import sqlglot`` fail, as when the extra is not installed."""
    monkeypatch.setitem(sys.modules, "sqlglot", None)
    _statechange._glot.cache_clear()
    yield
    _statechange._glot.cache_clear()


@pytest.mark.usefixtures("without_sqlglot")
def test_without_sqlglot_no_history_is_created() -> None:
    from localdata_errors.history import ExecutionHistory

    with pytest.raises(ImportError) as raised:
        ExecutionHistory()
    message = str(raised.value)
    assert "\n" not in message
    assert "sqlglot" in message
    assert "pip install 'localdata-errors[history]'" in message


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
def test_weird_input_never_raises(sql: str) -> None:
    parsed = parse_statement(sql, "postgresql")
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
    assert sqlglot_dialect(db_type) == dialect


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
