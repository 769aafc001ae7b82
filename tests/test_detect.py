"""
The backend and code from the text alone: errors pasted as the tools print them.

Where the tool runs here, its real output is used: the `mariadb` client,
`psql` (terse and verbose), and the last line of a real Python traceback.
The other forms are the vendors' documented formats: sqlcmd's message
header, PHP PDO's `SQLSTATE[...]` texts (pdo_mysql, pdo_pgsql, pdo_sqlite),
JDBC drivers' exception class names, Oracle's codes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import uuid

import pytest

from localdata_errors import Kind, classify_message
from localdata_errors._detect import detect
from tests.conftest import (
    IN_CI,
    MYSQL_HOST,
    MYSQL_PORT,
    MYSQL_USER,
    PG_DB,
    PG_HOST,
    PG_PORT,
    PG_USER,
)

# (text as printed, backend, code, sqlstate, kind, a name it involves)
DOCUMENTED = [
    # sqlcmd / SSMS: "Msg <number>, Level <severity>, State <state>, Line <line>".
    (
        "Msg 208, Level 16, State 1, Line 1\nInvalid object name 'dbo.orders'.",
        "mssql",
        "208",
        None,
        Kind.UNDEFINED_TABLE,
        "orders",
    ),
    # PHP PDO, pdo_mysql: SQLSTATE, the driver's message and MySQL's errno.
    (
        "SQLSTATE[42S02]: Base table or view not found: 1146 Table 'shop.orders' doesn't exist",
        "mysql",
        "1146",
        "42S02",
        Kind.UNDEFINED_TABLE,
        "orders",
    ),
    # pdo_mysql at connect: the client error number in brackets.
    ("SQLSTATE[HY000] [2002] Connection refused", "mysql", "2002", "HY000", None, None),
    # pdo_pgsql: "7" is libpq's PGRES_FATAL_ERROR, then the server's message.
    (
        'SQLSTATE[42P01]: Undefined table: 7 ERROR:  relation "orders" does not exist',
        "postgresql",
        "42P01",
        "42P01",
        Kind.UNDEFINED_TABLE,
        "orders",
    ),
    # pdo_sqlite: "1" is SQLITE_ERROR.
    (
        "SQLSTATE[HY000]: General error: 1 no such table: orders",
        "sqlite",
        "SQLITE_ERROR",
        None,
        Kind.UNDEFINED_TABLE,
        "orders",
    ),
    # JDBC drivers' exception classes.
    (
        'org.postgresql.util.PSQLException: ERROR: relation "orders" does not exist\n'
        "  Position: 15",
        "postgresql",
        "42P01",  # undefined_table: no code printed, the wording is its template's
        "42P01",
        Kind.UNDEFINED_TABLE,
        "orders",
    ),
    (
        "java.sql.SQLSyntaxErrorException: ORA-00942: table or view does not exist",
        "oracle",
        "ORA-00942",
        None,
        Kind.UNDEFINED_TABLE,
        None,
    ),
    (
        "org.sqlite.SQLiteException: [SQLITE_ERROR] SQL error or missing database "
        "(no such table: orders)",
        "sqlite",
        "SQLITE_ERROR",
        None,
        Kind.UNDEFINED_TABLE,
        "orders",
    ),
    (
        # No number printed: message 208's wording ("Invalid object name '%.*ls'.",
        # https://learn.microsoft.com/en-us/sql/relational-databases/errors-events/database-engine-events-and-errors-0-to-999).
        "com.microsoft.sqlserver.jdbc.SQLServerException: Invalid object name 'orders'.",
        "mssql",
        "208",
        None,
        Kind.UNDEFINED_TABLE,
        None,
    ),
    # python-oracledb's own codes.
    (
        "DPY-6005: cannot connect to database (CONNECTION_ID=abc).\n[Errno 111] Connection refused",
        "oracle",
        "DPY-6005",
        None,
        None,
        None,
    ),
    # DuckDB's labelled messages.
    (
        "Catalog Error: Table with name orders does not exist!",
        "duckdb",
        "CatalogException",
        None,
        Kind.UNDEFINED_TABLE,
        "orders",
    ),
]


@pytest.mark.parametrize(
    ("text", "backend", "code", "sqlstate", "kind", "name"),
    DOCUMENTED,
    ids=[case[0][:40] for case in DOCUMENTED],
)
def test_documented_forms_name_their_backend_and_code(  # noqa: PLR0917 - one per column
    text: str,
    backend: str,
    code: str | None,
    sqlstate: str | None,
    kind: Kind | None,
    name: str | None,
) -> None:
    answer = classify_message(text)
    assert answer.backend == backend, answer
    assert answer.database_error_code == code
    assert answer.sqlstate == sqlstate
    if kind is not None:
        assert answer.kind is kind
    if name is not None:
        assert name in answer.affected_resources


def test_sqlalchemys_text_names_the_driver_inside() -> None:
    text = (
        "sqlalchemy.exc.ProgrammingError: (psycopg.errors.UndefinedTable) relation "
        '"orders" does not exist\n[SQL: SELECT * FROM orders]'
    )
    answer = classify_message(text)
    assert (answer.backend, answer.driver, answer.database_error_code) == (
        "postgresql",
        "psycopg",
        "42P01",
    )
    assert "orders" in answer.affected_resources


def test_sqlalchemys_own_text_names_the_driver_inside() -> None:
    # str() of SQLAlchemy's exception, as a log or an agent's tool output shows
    # it: "(sqlite3.OperationalError) no such table: t\n[SQL: ...]\n(Background ...)".
    sqlalchemy = pytest.importorskip("sqlalchemy")
    engine = sqlalchemy.create_engine("sqlite://")
    with engine.connect() as conn, pytest.raises(sqlalchemy.exc.OperationalError) as raised:
        conn.execute(sqlalchemy.text("SELECT * FROM lde_missing"))
    engine.dispose()
    text = str(raised.value)
    assert text.startswith("(sqlite3.OperationalError) no such table: lde_missing\n[SQL: ")
    answer = classify_message(text)
    assert (answer.backend, answer.driver, answer.kind) == (
        "sqlite",
        "sqlite3",
        Kind.UNDEFINED_TABLE,
    )
    assert answer.affected_resources == ("lde_missing",)
    assert answer.message == "no such table: lde_missing"


def test_plain_text_without_a_form_is_left_to_the_keywords() -> None:
    assert detect("something odd happened") is None
    assert detect("public.orders: no rows") is None
    assert classify_message("something odd happened").backend == "generic"


def test_an_explicit_backend_or_code_is_not_second_guessed() -> None:
    text = "ERROR 1146 (42S02): Table 'shop.orders' doesn't exist"
    assert classify_message(text, "generic").backend == "generic"
    assert classify_message(text, code=1146).backend == "generic"


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if IN_CI:
            pytest.fail(f"CI=true and the {name} client is not installed")
        pytest.skip(f"the {name} client is not installed")
    return path


@pytest.mark.mysql
def test_the_mariadb_clients_real_output(mysql_server: dict[str, object]) -> None:
    table = f"lde_detect_{uuid.uuid4().hex[:8]}"
    out = subprocess.run(
        [
            _tool("mariadb"),
            "-h", MYSQL_HOST, "-P", str(MYSQL_PORT), "-u", MYSQL_USER, "-v",
            str(mysql_server["database"]), "-e", f"SELECT * FROM {table}",
        ],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert out.returncode != 0
    answer = classify_message(out.stdout + out.stderr)
    assert (answer.backend, answer.database_error_code, answer.sqlstate) == (
        "mysql",
        "1146",
        "42S02",
    )
    assert answer.kind is Kind.UNDEFINED_TABLE
    assert table in answer.affected_resources


@pytest.mark.postgresql
@pytest.mark.parametrize("verbosity", ["default", "verbose"])
def test_psqls_real_output(pg_server: dict[str, object], verbosity: str) -> None:
    table = f"lde_detect_{uuid.uuid4().hex[:8]}"
    out = subprocess.run(
        [
            _tool("psql"),
            "-h", PG_HOST, "-p", str(PG_PORT), "-U", PG_USER, "-d", PG_DB,
            "-v", f"VERBOSITY={verbosity}", "-c", f"SELECT * FROM {table}",
        ],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert out.returncode != 0
    answer = classify_message(out.stderr)
    assert (answer.backend, answer.kind) == ("postgresql", Kind.UNDEFINED_TABLE)
    assert table in answer.affected_resources
    # The verbose form prints the SQLSTATE; the default one does not, and its
    # wording is undefined_table's template (42P01, PostgreSQL's Appendix A).
    assert (answer.database_error_code, answer.sqlstate) == ("42P01", "42P01")


def _traceback(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert out.returncode != 0
    assert out.stderr.startswith("Traceback (most recent call last):")
    return out.stderr


def test_a_real_sqlite3_traceback_line() -> None:
    line = _traceback("import sqlite3; sqlite3.connect(':memory:').execute('SELECT * FROM t')")
    assert "\nsqlite3.OperationalError: " in line
    answer = classify_message(line)
    assert (answer.backend, answer.driver, answer.kind) == (
        "sqlite",
        "sqlite3",
        Kind.UNDEFINED_TABLE,
    )
    assert "t" in answer.affected_resources


@pytest.mark.postgresql
def test_a_real_psycopg_traceback_line(pg_server: dict[str, object]) -> None:
    pytest.importorskip("psycopg")
    line = _traceback(
        "import psycopg\n"
        f"c = psycopg.connect(host={PG_HOST!r}, port={PG_PORT}, user={PG_USER!r}, "
        f"dbname={PG_DB!r})\n"
        "c.execute('SELECT * FROM lde_detect_missing')"
    )
    assert "\npsycopg.errors.UndefinedTable: " in line
    answer = classify_message(line)
    assert (answer.backend, answer.driver) == ("postgresql", "psycopg")
    # The class is named after PostgreSQL's condition: its SQLSTATE is 42P01.
    assert (answer.database_error_code, answer.sqlstate) == ("42P01", "42P01")
    assert answer.kind is Kind.UNDEFINED_TABLE


def test_a_real_duckdb_traceback_line() -> None:
    pytest.importorskip("duckdb")
    line = _traceback("import duckdb; duckdb.connect().execute('SELECT * FROM t')")
    answer = classify_message(line)
    assert (answer.backend, answer.database_error_code) == ("duckdb", "CatalogException")
    assert answer.kind is Kind.UNDEFINED_TABLE
