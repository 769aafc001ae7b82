"""
DuckDB cases: every one a real error raised by the installed ``duckdb``.

* ``SQL_CASES`` run one statement against a small schema (``SCHEMA``) on a
  fresh in-memory database.
* ``SPECIAL_CASES`` need more: two transactions that conflict, a second
  process holding the file lock, a missing file, a read-only attach, an
  interrupt, a memory limit.

SQLAlchemy reaches DuckDB through ``duckdb_engine``, which is not installed
here, so no case goes through SQLAlchemy.  These tuples are the single source
of truth: the tests parametrize over them and ``collect()`` yields the same
exceptions.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from localdata_errors import Kind
from tests.corpus import CorpusCase, Expected

__all__ = [
    "SCHEMA",
    "SPECIAL_CASES",
    "SQL_CASES",
    "SpecialCase",
    "SqlCase",
    "collect",
    "raise_special",
    "raise_sql",
]

K = Kind

SCHEMA = """
CREATE TABLE users (id INTEGER PRIMARY KEY, email VARCHAR UNIQUE NOT NULL,
                    age INTEGER CHECK (age > 0));
CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users (id), n INTEGER);
CREATE TABLE a (id INTEGER);
CREATE TABLE b (id INTEGER);
CREATE INDEX ix_orders_n ON orders (n);
CREATE VIEW v_users AS SELECT * FROM users;
CREATE SCHEMA sales;
CREATE TABLE sales.leads (id INTEGER);
CREATE SEQUENCE seq_small MAXVALUE 2;
CREATE MACRO twice(x) AS x * 2;
INSERT INTO users VALUES (1, 'a@example.com', 5), (2, 'b@example.com', 6);
INSERT INTO orders VALUES (1, 1, 1);
"""


@dataclass(frozen=True)
class SqlCase:
    """One statement that fails against ``SCHEMA``, and what its answer must say."""

    name: str
    sql: str
    expected: Expected
    params: tuple[Any, ...] | None = None


def _e(
    kind: Kind,
    code: str,
    *resources: str,
    deps: tuple[str, ...] = (),
    retryable: bool | None = None,
    absent: tuple[str, ...] = (),
) -> Expected:
    return Expected(
        kind=kind,
        code=code,
        resources=resources,
        dependencies=deps,
        retryable=retryable,
        absent=absent,
    )


CAT, BIND, CONS, CONV = (
    "CatalogException",
    "BinderException",
    "ConstraintException",
    "ConversionException",
)
INV = "InvalidInputException"

SQL_CASES: tuple[SqlCase, ...] = (
    SqlCase("no-such-table", "SELECT * FROM orderz", _e(K.UNDEFINED_TABLE, CAT, "orderz")),
    SqlCase(
        "no-such-table-qualified", "SELECT * FROM main.orderz", _e(K.UNDEFINED_TABLE, CAT, "orderz")
    ),
    # The missing schema is the object of the error: it is named.
    SqlCase("no-such-schema", "SELECT * FROM nosch.t", _e(K.UNDEFINED_SCHEMA, CAT, "nosch", "t")),
    SqlCase("no-such-view", "DROP VIEW v_nope", _e(K.UNDEFINED_TABLE, CAT, "v_nope")),
    SqlCase("no-such-index", "DROP INDEX ix_nope", _e(K.UNDEFINED_OBJECT, CAT, "ix_nope")),
    SqlCase(
        "no-such-sequence", "SELECT nextval('seq_nope')", _e(K.UNDEFINED_OBJECT, CAT, "seq_nope")
    ),
    SqlCase(
        "no-such-type", "CREATE TABLE t4 (x nosuchtype)", _e(K.UNDEFINED_OBJECT, CAT, "nosuchtype")
    ),
    SqlCase("no-such-function", "SELECT nofn(1)", _e(K.UNDEFINED_FUNCTION, CAT, "nofn")),
    SqlCase("no-such-column", "SELECT emial FROM users", _e(K.UNDEFINED_COLUMN, BIND, "emial")),
    SqlCase(
        "no-such-column-qualified",
        "SELECT u.nope FROM users u",
        _e(K.UNDEFINED_COLUMN, BIND, "nope", absent=("u",)),  # u: an alias
    ),
    # 'Table "leads" does not have a column named "nope"': DuckDB drops the schema.
    SqlCase(
        "no-such-column-schema-qualified",
        "SELECT sales.leads.nope FROM sales.leads",
        _e(K.UNDEFINED_COLUMN, BIND, "nope", absent=("sales",)),
    ),
    SqlCase(
        "insert-unknown-column",
        "INSERT INTO a (zz) VALUES (1)",
        _e(K.UNDEFINED_COLUMN, BIND, "zz", "a"),
    ),
    SqlCase(
        "insert-unknown-column-schema-qualified",
        "INSERT INTO sales.leads (zz) VALUES (1)",
        _e(K.UNDEFINED_COLUMN, BIND, "zz", "leads", absent=("sales",)),
    ),
    SqlCase("no-such-struct-key", "SELECT {'k': 1}.nokey", _e(K.UNDEFINED_COLUMN, BIND, "nokey")),
    SqlCase("wrong-argument-types", "SELECT abs(1, 2)", _e(K.UNDEFINED_FUNCTION, BIND, "abs")),
    SqlCase("operator-types", "SELECT 'a' + 1", _e(K.DATATYPE_MISMATCH, BIND)),
    SqlCase("ambiguous-column", "SELECT id FROM a, b", _e(K.AMBIGUOUS_COLUMN, BIND, "id")),
    SqlCase("group-by", "SELECT id, count(*) FROM users", _e(K.GROUPING_ERROR, BIND, "id")),
    SqlCase("values-count", "INSERT INTO a VALUES (1, 2)", _e(K.SYNTAX_ERROR, BIND, "a")),
    SqlCase(
        "foreign-key-definition",
        "CREATE TABLE bad_fk (x INTEGER, FOREIGN KEY (x) REFERENCES orders (n))",
        _e(K.INVALID_OBJECT_DEFINITION, BIND, "orders"),
    ),
    SqlCase("detach-unknown-database", "DETACH nodb", _e(K.UNDEFINED_DATABASE, BIND, "nodb")),
    SqlCase(
        "attach-existing-name",
        "ATTACH ':memory:' AS memory",
        _e(K.DUPLICATE_DATABASE, BIND, "memory"),
    ),
    SqlCase("syntax", "SELEC * FROM users", _e(K.SYNTAX_ERROR, "ParserException")),
    SqlCase("syntax-incomplete", "SELECT (1", _e(K.SYNTAX_ERROR, "ParserException")),
    SqlCase(
        "parser-not-supported",
        "ALTER TABLE a ADD COLUMN k INTEGER PRIMARY KEY",
        _e(K.FEATURE_NOT_SUPPORTED, "ParserException"),
    ),
    # 'Duplicate key "email: a@example.com" ...': the key's column and value are data.
    SqlCase(
        "unique",
        "INSERT INTO users VALUES (3, 'a@example.com', 5)",
        _e(K.UNIQUE_VIOLATION, CONS, absent=("email", "a@example.com")),
    ),
    SqlCase(
        "primary-key",
        "INSERT INTO users VALUES (1, 'c@example.com', 5)",
        _e(K.UNIQUE_VIOLATION, CONS),
    ),
    SqlCase(
        "not-null",
        "INSERT INTO users (id, age) VALUES (3, 5)",
        _e(K.NOT_NULL_VIOLATION, CONS, "email", "users"),
    ),
    SqlCase(
        "check",
        "INSERT INTO users VALUES (4, 'd@example.com', -1)",
        _e(K.CHECK_VIOLATION, CONS, "users"),
    ),
    SqlCase(
        "foreign-key-insert",
        "INSERT INTO orders VALUES (2, 99, 1)",
        _e(K.FOREIGN_KEY_VIOLATION, CONS, absent=("id", "99")),
    ),
    SqlCase(
        "foreign-key-delete-parent",
        "DELETE FROM users WHERE id = 1",
        _e(K.FOREIGN_KEY_VIOLATION, CONS, absent=("id", "1")),
    ),
    SqlCase(
        "drop-referenced-table",
        "DROP TABLE users",
        _e(K.DEPENDENT_OBJECTS_STILL_EXIST, CAT, "orders", deps=("orders",)),
    ),
    SqlCase(
        "drop-unique-column",
        "ALTER TABLE users DROP COLUMN email",
        _e(K.DEPENDENT_OBJECTS_STILL_EXIST, CAT, "email"),
    ),
    SqlCase(
        "drop-schema-with-tables",
        "DROP SCHEMA sales",
        _e(K.DEPENDENT_OBJECTS_STILL_EXIST, "DependencyException", "sales", deps=("leads",)),
    ),
    SqlCase("drop-view-on-a-table", "DROP VIEW users", _e(K.WRONG_OBJECT_TYPE, CAT, "users")),
    SqlCase("table-exists", "CREATE TABLE users (x INTEGER)", _e(K.DUPLICATE_TABLE, CAT, "users")),
    SqlCase(
        "view-exists", "CREATE VIEW v_users AS SELECT 1", _e(K.DUPLICATE_TABLE, CAT, "v_users")
    ),
    SqlCase(
        "index-exists",
        "CREATE INDEX ix_orders_n ON orders (n)",
        _e(K.DUPLICATE_OBJECT, CAT, "ix_orders_n"),
    ),
    SqlCase("schema-exists", "CREATE SCHEMA sales", _e(K.DUPLICATE_SCHEMA, CAT, "sales")),
    SqlCase("macro-exists", "CREATE MACRO twice(x) AS x", _e(K.DUPLICATE_OBJECT, CAT, "twice")),
    SqlCase(
        "duplicate-column",
        "CREATE TABLE t2 (x INTEGER, x INTEGER)",
        _e(K.DUPLICATE_COLUMN, CAT, "x"),
    ),
    SqlCase("set-unknown-schema", "USE nodb", _e(K.UNDEFINED_SCHEMA, CAT, "nodb")),
    SqlCase("conversion-integer", "SELECT 'abc'::INTEGER", _e(K.INVALID_TEXT_REPRESENTATION, CONV)),
    SqlCase("conversion-date", "SELECT 'notadate'::DATE", _e(K.INVALID_DATETIME_FORMAT, CONV)),
    SqlCase("conversion-timestamp", "SELECT 'x'::TIMESTAMP", _e(K.INVALID_DATETIME_FORMAT, CONV)),
    SqlCase(
        "conversion-out-of-range", "SELECT 300::TINYINT", _e(K.NUMERIC_VALUE_OUT_OF_RANGE, CONV)
    ),
    SqlCase("conversion-unimplemented", "SELECT [1, 2]::INTEGER", _e(K.DATATYPE_MISMATCH, CONV)),
    SqlCase("malformed-json", "SELECT '{bad'::JSON", _e(K.INVALID_TEXT_REPRESENTATION, CONV)),
    SqlCase(
        "overflow",
        "SELECT 2147483647::INTEGER + 1",
        _e(K.NUMERIC_VALUE_OUT_OF_RANGE, "OutOfRangeException"),
    ),
    SqlCase("division-by-zero", "SELECT 1 // 0", _e(K.DIVISION_BY_ZERO, INV)),
    SqlCase("strptime-format", "SELECT strptime('x', '%Y')", _e(K.INVALID_DATETIME_FORMAT, INV)),
    SqlCase("too-many-parameters", "SELECT ?", _e(K.INVALID_PARAMETER, INV), (1, 2)),
    SqlCase("missing-parameter", "SELECT ?, ?", _e(K.INVALID_PARAMETER, INV), (1,)),
    SqlCase(
        "sequence-exhausted",
        "SELECT nextval('seq_small') FROM range(5)",
        _e(K.NUMERIC_VALUE_OUT_OF_RANGE, "SequenceException", "seq_small"),
    ),
    SqlCase(
        "invalid-index-key-type",
        "CREATE TABLE ix_list (i INTEGER[] PRIMARY KEY)",
        _e(K.DATATYPE_MISMATCH, "InvalidTypeException"),
    ),
    SqlCase(
        "transaction-within-transaction",
        "BEGIN; BEGIN",
        _e(K.INVALID_TRANSACTION_STATE, "TransactionException"),
    ),
    SqlCase(
        "commit-without-transaction",
        "COMMIT",
        _e(K.INVALID_TRANSACTION_STATE, "TransactionException"),
    ),
    SqlCase(
        "missing-csv-file",
        "SELECT * FROM read_csv('/nonexistent/lde_duckdb/x.csv')",
        _e(K.UNDEFINED_OBJECT, "IOException"),
    ),
)


def raise_sql(case: SqlCase) -> BaseException:
    """Run *case* on a fresh in-memory database and return the exception it raised."""
    import duckdb

    conn = duckdb.connect()
    try:
        conn.execute(SCHEMA)
        if case.params is None:
            conn.execute(case.sql).fetchall()
        else:
            conn.execute(case.sql, case.params).fetchall()
    except Exception as exc:
        return exc
    finally:
        conn.close()
    raise AssertionError(f"{case.name} raised nothing")


# -- cases that need more than one statement ---------------------------------------------


@dataclass(frozen=True)
class SpecialCase:
    """An error that needs its own setting-up, and what its answer must say."""

    name: str
    trigger: Callable[[Path], None]
    expected: Expected


def _conflict(tmp: Path) -> None:
    import duckdb

    conn = duckdb.connect()
    first, second = conn.cursor(), conn.cursor()
    try:
        conn.execute("CREATE TABLE stock (id INTEGER PRIMARY KEY, qty INTEGER)")
        conn.execute("INSERT INTO stock VALUES (1, 1)")
        first.execute("BEGIN")
        second.execute("BEGIN")
        first.execute("UPDATE stock SET qty = 2 WHERE id = 1")
        second.execute("UPDATE stock SET qty = 3 WHERE id = 1")
    finally:
        conn.close()


def _aborted(tmp: Path) -> None:
    import duckdb

    conn = duckdb.connect()
    first, second = conn.cursor(), conn.cursor()
    try:
        conn.execute("CREATE TABLE stock (id INTEGER PRIMARY KEY, qty INTEGER)")
        conn.execute("INSERT INTO stock VALUES (1, 1)")
        first.execute("BEGIN")
        second.execute("BEGIN")
        first.execute("UPDATE stock SET qty = 2 WHERE id = 1")
        with contextlib.suppress(duckdb.TransactionException):
            second.execute("UPDATE stock SET qty = 3 WHERE id = 1")
        second.execute("SELECT 1")  # the transaction is aborted until ROLLBACK
    finally:
        conn.close()


_HOLD_LOCK = (
    "import duckdb, sys\n"
    "conn = duckdb.connect(sys.argv[1])\n"
    "print('ready', flush=True)\n"
    "sys.stdin.read()\n"
)


def _locked_by_another_process(tmp: Path) -> None:
    import duckdb

    path = str(tmp / "held.duckdb")
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        duckdb.connect(path)
    finally:
        holder.communicate("", timeout=30)


def _missing_directory(tmp: Path) -> None:
    import duckdb

    duckdb.connect(str(tmp / "no-such-directory" / "app.duckdb"))


def _attach_missing(tmp: Path) -> None:
    import duckdb

    conn = duckdb.connect()
    try:
        conn.execute(f"ATTACH '{tmp / 'no-such-directory' / 'other.duckdb'}' AS other")
    finally:
        conn.close()


def _read_only(tmp: Path) -> None:
    import duckdb

    path = str(tmp / "ro.duckdb")
    duckdb.connect(path).close()
    conn = duckdb.connect(path, read_only=True)
    try:
        conn.execute("CREATE TABLE t (x INTEGER)")
    finally:
        conn.close()


def _external_access_disabled(tmp: Path) -> None:
    import duckdb

    conn = duckdb.connect(config={"enable_external_access": False})
    try:
        conn.execute(f"SELECT * FROM read_csv('{tmp / 'x.csv'}')")
    finally:
        conn.close()


def _interrupt(tmp: Path) -> None:
    import duckdb

    conn = duckdb.connect()
    done = threading.Event()

    def keep_interrupting() -> None:
        # An interrupt before the query starts is lost: repeat until it lands.
        while not done.wait(0.05):
            conn.interrupt()

    worker = threading.Thread(target=keep_interrupting, daemon=True)
    worker.start()
    try:
        conn.execute("SELECT count(*) FROM range(100000000000) r, range(10) s").fetchall()
    finally:
        done.set()
        worker.join()
        conn.close()


def _out_of_memory(tmp: Path) -> None:
    import duckdb

    conn = duckdb.connect(
        config={
            "memory_limit": "20MB",
            "threads": 1,
            "preserve_insertion_order": False,
            "temp_directory": "",
        }
    )
    try:
        conn.execute("SELECT list(range) FROM range(50000000) GROUP BY range % 1000000").fetchall()
    finally:
        conn.close()


def _closed(tmp: Path) -> None:
    import duckdb

    conn = duckdb.connect()
    conn.close()
    conn.execute("SELECT 1")


SPECIAL_CASES: tuple[SpecialCase, ...] = (
    SpecialCase(
        "write-write-conflict", _conflict, _e(K.SERIALIZATION_FAILURE, "TransactionException")
    ),
    SpecialCase(
        "transaction-aborted-after-conflict",
        _aborted,
        _e(K.TRANSACTION_ABORTED, "TransactionException"),
    ),
    SpecialCase(
        "file-locked-by-another-process",
        _locked_by_another_process,
        _e(K.DATABASE_LOCKED, "IOException"),
    ),
    SpecialCase(
        "open-missing-directory", _missing_directory, _e(K.UNDEFINED_DATABASE, "IOException")
    ),
    SpecialCase("attach-missing-file", _attach_missing, _e(K.UNDEFINED_DATABASE, "IOException")),
    SpecialCase("read-only-connection", _read_only, _e(K.READ_ONLY, INV, "ro")),
    SpecialCase(
        "external-access-disabled",
        _external_access_disabled,
        _e(K.INSUFFICIENT_PRIVILEGE, "PermissionException"),
    ),
    SpecialCase("interrupted", _interrupt, _e(K.QUERY_CANCELED, "InterruptException")),
    SpecialCase("out-of-memory", _out_of_memory, _e(K.OUT_OF_MEMORY, "OutOfMemoryException")),
    SpecialCase("closed-connection", _closed, _e(K.CONNECTION_LOST, "ConnectionException")),
)


def raise_special(case: SpecialCase, tmp: Path) -> BaseException:
    """Trigger *case* in the scratch directory *tmp* and return the exception."""
    try:
        case.trigger(tmp)
    except Exception as exc:
        return exc
    raise AssertionError(f"{case.name} raised nothing")


def collect() -> Iterator[CorpusCase]:
    """Trigger every case for real and yield it with its expectation."""
    for case in SQL_CASES:
        yield CorpusCase("duckdb", "duckdb", case.name, raise_sql(case), case.expected)
    with tempfile.TemporaryDirectory(prefix="lde_duckdb_") as scratch:
        for special in SPECIAL_CASES:
            tmp = Path(scratch) / special.name
            tmp.mkdir()
            yield CorpusCase(
                "duckdb", "duckdb", special.name, raise_special(special, tmp), special.expected
            )
