"""
SQLite cases: every one a real error raised by a real SQLite through a real driver.

* ``SQL_CASES`` run one statement against a small schema (``SCHEMA``), each
  through the stdlib ``sqlite3``, through SQLAlchemy (which wraps the
  driver's exception and appends ``[SQL: ...]``), through ``aiosqlite`` and
  through SQLAlchemy's async ``sqlite+aiosqlite`` engine.
* ``SPECIAL_CASES`` need more than a statement (two connections, a read-only
  or missing file, a corrupted file, an authorizer, a lowered limit); they
  run through ``sqlite3`` only.

These tuples are the single source of truth: the tests parametrize over
them and ``collect()`` yields the same exceptions.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from localdata_errors import Kind
from tests.corpus import CorpusCase, Expected

__all__ = [
    "DRIVERS",
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
PRAGMA foreign_keys = ON;
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    email TEXT UNIQUE NOT NULL,
    age INT CHECK (age > 0),
    CONSTRAINT id_positive CHECK (id > 0)
);
CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INT REFERENCES users (id), n INT);
CREATE INDEX ix_orders_n ON orders (n);
CREATE TABLE a (id INT);
CREATE TABLE b (id INT);
CREATE TABLE tags (name TEXT);
CREATE UNIQUE INDEX ux_tags_lower ON tags (lower(name));
CREATE TABLE strict_t (qty INT) STRICT;
CREATE TABLE parent2 (a);
CREATE TABLE child2 (a REFERENCES parent2 (zz));
CREATE VIEW v_users AS SELECT * FROM users;
CREATE TABLE frozen (x);
CREATE TABLE pairs (a INT, b INT, UNIQUE (a, b));
CREATE TRIGGER frozen_guard BEFORE INSERT ON frozen
BEGIN SELECT RAISE(ABORT, 'frozen is read-only by policy'); END;
INSERT INTO users VALUES (1, 'a@example.com', 5);
INSERT INTO orders VALUES (1, 1, 1);
INSERT INTO tags VALUES ('Red');
INSERT INTO pairs VALUES (1, 2);
"""

#: How each SQL case reaches SQLite.
DRIVERS = ("sqlite3", "sqlalchemy", "aiosqlite", "sqlalchemy+aiosqlite")


@dataclass(frozen=True)
class SqlCase:
    """One statement that fails against ``SCHEMA``, and what its answer must say."""

    name: str
    sql: str
    expected: Expected
    params: tuple[Any, ...] | dict[str, Any] = ()
    drivers: tuple[str, ...] = DRIVERS


def _e(
    kind: Kind,
    code: str | None,
    *resources: str,
    deps: tuple[str, ...] = (),
    constraint: str | None = None,
    schema: str | None = None,
    absent: tuple[str, ...] = (),
) -> Expected:
    return Expected(
        kind=kind,
        code=code,
        resources=resources,
        dependencies=deps,
        constraint=constraint,
        schema=schema,
        absent=absent,
    )


ERR = "SQLITE_ERROR"

SQL_CASES: tuple[SqlCase, ...] = (
    SqlCase("no-such-table", "SELECT * FROM orderz", _e(K.UNDEFINED_TABLE, ERR, "orderz")),
    SqlCase(
        "no-such-table-qualified",
        "SELECT * FROM main.orderz",
        _e(K.UNDEFINED_TABLE, ERR, "orderz", schema="main", absent=("main",)),
    ),
    SqlCase("no-such-column", "SELECT emial FROM users", _e(K.UNDEFINED_COLUMN, ERR, "emial")),
    # "no such column: u.nope": u is an alias, not a name to keep.
    SqlCase(
        "no-such-column-aliased",
        "SELECT u.nope FROM users u",
        _e(K.UNDEFINED_COLUMN, ERR, "nope", absent=("u", "u.nope")),
    ),
    # "no such column: main.users.nope": a schema's table, which no alias can be.
    SqlCase(
        "no-such-column-schema-qualified",
        "SELECT main.users.nope FROM users",
        _e(K.UNDEFINED_COLUMN, ERR, "nope", "users", schema="main", absent=("main",)),
    ),
    SqlCase("no-such-function", "SELECT nofn(1)", _e(K.UNDEFINED_FUNCTION, ERR, "nofn")),
    SqlCase("no-such-index", "DROP INDEX ix_nope", _e(K.UNDEFINED_OBJECT, ERR, "ix_nope")),
    SqlCase("syntax-near", "SELEC * FROM users", _e(K.SYNTAX_ERROR, ERR)),
    # The statement's words must not count: SQLAlchemy puts it in the message.
    SqlCase(
        "syntax-statement-mentions-a-lock", "SELEC 'database is locked'", _e(K.SYNTAX_ERROR, ERR)
    ),
    SqlCase("syntax-incomplete", "SELECT (1", _e(K.SYNTAX_ERROR, ERR)),
    SqlCase("syntax-unrecognized-token", "SELECT 1 @@ 2", _e(K.SYNTAX_ERROR, ERR)),
    SqlCase("syntax-subselect-columns", "SELECT (SELECT 1, 2)", _e(K.SYNTAX_ERROR, ERR)),
    SqlCase("values-count", "INSERT INTO a VALUES (1, 2)", _e(K.SYNTAX_ERROR, ERR, "a")),
    SqlCase(
        "unique",
        "INSERT INTO users VALUES (2, 'a@example.com', 5)",
        _e(K.UNIQUE_VIOLATION, "SQLITE_CONSTRAINT_UNIQUE", "users", "email"),
    ),
    # "UNIQUE constraint failed: pairs.a, pairs.b": the table and both columns.
    SqlCase(
        "unique-two-columns",
        "INSERT INTO pairs VALUES (1, 2)",
        _e(K.UNIQUE_VIOLATION, "SQLITE_CONSTRAINT_UNIQUE", "pairs", "a", "b"),
    ),
    SqlCase(
        "primary-key",
        "INSERT INTO users VALUES (1, 'b@example.com', 5)",
        _e(K.UNIQUE_VIOLATION, "SQLITE_CONSTRAINT_PRIMARYKEY", "users", "id"),
    ),
    SqlCase(
        "unique-expression-index",
        "INSERT INTO tags VALUES ('red')",
        _e(
            K.UNIQUE_VIOLATION,
            "SQLITE_CONSTRAINT_UNIQUE",
            "ux_tags_lower",
            constraint="ux_tags_lower",
        ),
    ),
    SqlCase(
        "not-null",
        "INSERT INTO users (id, age) VALUES (3, 5)",
        _e(K.NOT_NULL_VIOLATION, "SQLITE_CONSTRAINT_NOTNULL", "email", "users"),
    ),
    SqlCase(
        "check-expression",
        "INSERT INTO users VALUES (4, 'c@example.com', -1)",
        _e(K.CHECK_VIOLATION, "SQLITE_CONSTRAINT_CHECK"),
    ),
    SqlCase(
        "check-named",
        "INSERT INTO users VALUES (-4, 'd@example.com', 1)",
        _e(K.CHECK_VIOLATION, "SQLITE_CONSTRAINT_CHECK", "id_positive", constraint="id_positive"),
    ),
    SqlCase(
        "trigger-raise",
        "INSERT INTO frozen VALUES (1)",
        _e(K.CHECK_VIOLATION, "SQLITE_CONSTRAINT_TRIGGER"),
    ),
    SqlCase(
        "foreign-key-insert",
        "INSERT INTO orders VALUES (2, 99, 1)",
        _e(K.FOREIGN_KEY_VIOLATION, "SQLITE_CONSTRAINT_FOREIGNKEY"),
    ),
    SqlCase(
        "foreign-key-delete-parent",
        "DELETE FROM users WHERE id = 1",
        _e(K.FOREIGN_KEY_VIOLATION, "SQLITE_CONSTRAINT_FOREIGNKEY"),
    ),
    SqlCase(
        "foreign-key-drop-parent",
        "DROP TABLE users",
        _e(K.FOREIGN_KEY_VIOLATION, "SQLITE_CONSTRAINT_FOREIGNKEY"),
    ),
    SqlCase(
        "foreign-key-mismatch",
        "INSERT INTO child2 VALUES (1)",
        _e(K.INVALID_OBJECT_DEFINITION, ERR, "child2", "parent2", deps=("parent2",)),
    ),
    SqlCase("table-exists", "CREATE TABLE users (x)", _e(K.DUPLICATE_TABLE, ERR, "users")),
    SqlCase(
        "view-exists", "CREATE VIEW v_users AS SELECT 1", _e(K.DUPLICATE_TABLE, ERR, "v_users")
    ),
    SqlCase(
        "index-exists",
        "CREATE INDEX ix_orders_n ON orders (n)",
        _e(K.DUPLICATE_OBJECT, ERR, "ix_orders_n"),
    ),
    SqlCase("duplicate-column", "CREATE TABLE t2 (x INT, x INT)", _e(K.DUPLICATE_COLUMN, ERR, "x")),
    SqlCase("ambiguous-column", "SELECT id FROM a, b", _e(K.AMBIGUOUS_COLUMN, ERR, "id")),
    SqlCase(
        "has-no-column-named",
        "INSERT INTO users (zz) VALUES (1)",
        _e(K.UNDEFINED_COLUMN, ERR, "zz", "users"),
    ),
    SqlCase(
        "misuse-of-aggregate",
        "SELECT * FROM users WHERE count(*) > 1",
        _e(K.GROUPING_ERROR, ERR, "count"),
    ),
    SqlCase("wrong-number-of-arguments", "SELECT abs(1, 2)", _e(K.UNDEFINED_FUNCTION, ERR, "abs")),
    SqlCase(
        "no-such-collation",
        "SELECT 'a' = 'b' COLLATE nocoll",
        _e(K.UNDEFINED_OBJECT, "SQLITE_ERROR_MISSING_COLLSEQ", "nocoll"),
    ),
    SqlCase("no-such-savepoint", "RELEASE sp_nope", _e(K.UNDEFINED_OBJECT, ERR, "sp_nope")),
    SqlCase("no-such-database", "DETACH nodb", _e(K.UNDEFINED_DATABASE, ERR, "nodb")),
    SqlCase("unknown-database", "CREATE TABLE nodb.t (x)", _e(K.UNDEFINED_DATABASE, ERR, "nodb")),
    SqlCase("drop-view-on-a-table", "DROP VIEW users", _e(K.WRONG_OBJECT_TYPE, ERR, "users")),
    SqlCase(
        "drop-system-table",
        "DROP TABLE sqlite_master",
        _e(K.INSUFFICIENT_PRIVILEGE, ERR, "sqlite_master"),
    ),
    SqlCase(
        "drop-unique-column",
        "ALTER TABLE users DROP COLUMN email",
        _e(K.DEPENDENT_OBJECTS_STILL_EXIST, ERR, "email"),
    ),
    SqlCase(
        "drop-indexed-column",
        "ALTER TABLE orders DROP COLUMN n",
        _e(K.DEPENDENT_OBJECTS_STILL_EXIST, ERR, "n", "ix_orders_n", deps=("ix_orders_n",)),
    ),
    SqlCase(
        "drop-primary-key-column",
        "ALTER TABLE users DROP COLUMN id",
        _e(K.FEATURE_NOT_SUPPORTED, ERR, "id"),
    ),
    SqlCase(
        "datatype-mismatch",
        "INSERT INTO orders VALUES ('abc', 1, 1)",
        _e(K.DATATYPE_MISMATCH, "SQLITE_MISMATCH"),
    ),
    # Python 3.11 names 3091 "unknown": the number is read instead.
    SqlCase(
        "strict-table-type",
        "INSERT INTO strict_t VALUES ('many')",
        _e(K.DATATYPE_MISMATCH, "SQLITE_CONSTRAINT_DATATYPE", "qty", "strict_t"),
    ),
    SqlCase(
        "integer-overflow",
        "SELECT abs(-9223372036854775808)",
        _e(K.NUMERIC_VALUE_OUT_OF_RANGE, ERR),
    ),
    SqlCase(
        "string-or-blob-too-big",
        "SELECT zeroblob(2000000000)",
        _e(K.CONFIGURATION_LIMIT_EXCEEDED, "SQLITE_TOOBIG"),
    ),
    SqlCase(
        "too-many-columns",
        "CREATE TABLE wide (" + ", ".join(f"c{i}" for i in range(2001)) + ")",
        _e(K.CONFIGURATION_LIMIT_EXCEEDED, ERR),
    ),
    SqlCase("malformed-json", "SELECT json('{bad')", _e(K.INVALID_TEXT_REPRESENTATION, ERR)),
    # The sqlite3 module's own checks: no result code at all.
    SqlCase("wrong-number-of-bindings", "SELECT ?", _e(K.INVALID_PARAMETER, None), (1, 2)),
    SqlCase(
        "missing-named-binding",
        "SELECT :a",
        _e(K.INVALID_PARAMETER, None),
        {"b": 1},
        drivers=("sqlite3", "sqlalchemy", "aiosqlite"),
    ),
    SqlCase(
        "unsupported-binding-type",
        "SELECT ?",
        _e(K.INVALID_PARAMETER, None),
        (object(),),
        drivers=("sqlite3", "sqlalchemy", "aiosqlite"),
    ),
)


def _run_sqlite3(case: SqlCase) -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        conn.execute(case.sql, case.params)
    finally:
        conn.close()


def _run_sqlalchemy(case: SqlCase) -> None:
    from sqlalchemy import create_engine

    engine = create_engine("sqlite://")
    try:
        with engine.connect() as conn:
            conn.connection.driver_connection.executescript(SCHEMA)  # type: ignore[union-attr]
            conn.exec_driver_sql(case.sql, case.params)
    finally:
        engine.dispose()


def _run_aiosqlite(case: SqlCase) -> None:
    import aiosqlite

    async def run() -> None:
        async with aiosqlite.connect(":memory:") as db:
            await db.executescript(SCHEMA)
            await db.execute(case.sql, case.params)

    asyncio.run(run())


def _run_sqlalchemy_async(case: SqlCase) -> None:
    from sqlalchemy.ext.asyncio import create_async_engine

    async def run() -> None:
        engine = create_async_engine("sqlite+aiosqlite://")
        try:
            async with engine.connect() as conn:
                for statement in SCHEMA.split(";\n"):
                    if statement.strip() and "RAISE" not in statement:
                        await conn.exec_driver_sql(statement)
                raw = await conn.get_raw_connection()
                await raw.driver_connection.executescript(  # type: ignore[union-attr]
                    "CREATE TRIGGER frozen_guard BEFORE INSERT ON frozen BEGIN "
                    "SELECT RAISE(ABORT, 'frozen is read-only by policy'); END;"
                )
                await conn.exec_driver_sql(case.sql, case.params)
        finally:
            await engine.dispose()

    asyncio.run(run())


_RUNNERS: dict[str, Callable[[SqlCase], None]] = {
    "sqlite3": _run_sqlite3,
    "sqlalchemy": _run_sqlalchemy,
    "aiosqlite": _run_aiosqlite,
    "sqlalchemy+aiosqlite": _run_sqlalchemy_async,
}


def raise_sql(case: SqlCase, driver: str) -> BaseException:
    """Run *case* through *driver* and return the exception it raised."""
    try:
        _RUNNERS[driver](case)
    except Exception as exc:
        return exc
    raise AssertionError(f"{case.name} through {driver} raised nothing")


# -- cases that need more than one statement ---------------------------------------------


@dataclass(frozen=True)
class SpecialCase:
    """An error that needs its own setting-up, and what its answer must say."""

    name: str
    trigger: Callable[[Path], None]
    expected: Expected
    notes: dict[str, str] = field(default_factory=dict)


def _busy(tmp: Path) -> None:
    path = tmp / "busy.db"
    holder = sqlite3.connect(path, timeout=0, isolation_level=None)
    waiter = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        holder.execute("CREATE TABLE t (x)")
        holder.execute("BEGIN IMMEDIATE")
        holder.execute("INSERT INTO t VALUES (1)")
        waiter.execute("INSERT INTO t VALUES (2)")
    finally:
        holder.close()
        waiter.close()


def _shared_cache_lock(tmp: Path) -> None:
    uri = f"file:lde_sqlite_{uuid.uuid4().hex}?mode=memory&cache=shared"
    writer = sqlite3.connect(uri, uri=True, isolation_level=None)
    reader = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        writer.execute("CREATE TABLE inventory (x)")
        writer.execute("BEGIN")
        writer.execute("INSERT INTO inventory VALUES (1)")
        reader.execute("SELECT * FROM inventory").fetchall()
    finally:
        writer.close()
        reader.close()


def _read_only(tmp: Path) -> None:
    path = tmp / "ro.db"
    sqlite3.connect(path).close()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        conn.execute("CREATE TABLE t (x)")
    finally:
        conn.close()


def _missing_directory(tmp: Path) -> None:
    sqlite3.connect(tmp / "no-such-directory" / "app.db")


def _missing_file_read_only(tmp: Path) -> None:
    sqlite3.connect(f"file:{tmp / 'absent.db'}?mode=ro", uri=True)


def _disk_full(tmp: Path) -> None:
    conn = sqlite3.connect(tmp / "full.db")
    try:
        conn.execute("CREATE TABLE big (x)")
        conn.commit()
        conn.execute("PRAGMA max_page_count = 3")
        conn.execute("INSERT INTO big SELECT zeroblob(100000)")
    finally:
        conn.close()


def _fill(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(1000)])
    conn.commit()
    conn.close()


def _malformed(tmp: Path) -> None:
    path = tmp / "malformed.db"
    _fill(path)
    with path.open("r+b") as fh:  # overwrite the table's root page header
        fh.seek(4096)
        fh.write(b"\xff" * 64)
    conn = sqlite3.connect(path)
    try:
        conn.execute("SELECT * FROM t").fetchall()
    finally:
        conn.close()


def _not_a_database(tmp: Path) -> None:
    path = tmp / "garbage.db"
    path.write_bytes(b"this is not a database " * 200)
    conn = sqlite3.connect(path)
    try:
        conn.execute("SELECT * FROM sqlite_master").fetchall()
    finally:
        conn.close()


def _disk_io_error(tmp: Path) -> None:
    path = tmp / "io.db"
    conn = sqlite3.connect(path)
    try:
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
        # The rollback journal's path is taken by a directory: SQLite cannot use it.
        os.mkdir(f"{path}-journal")
        conn.execute("INSERT INTO t VALUES (1)")
        conn.commit()
    finally:
        conn.close()


def _interrupt_from_progress_handler(tmp: Path) -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.set_progress_handler(lambda: 1, 100)
        conn.execute(
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
        ).fetchall()
    finally:
        conn.close()


def _interrupt_call(tmp: Path) -> None:
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    try:
        # conn.interrupt() while the query runs, as another thread would call it.
        conn.create_function("stop_now", 1, lambda n: conn.interrupt() if n == 1000 else 0)
        conn.execute(
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
            "SELECT max(stop_now(n)) FROM r"
        ).fetchall()
    finally:
        conn.close()


def _deny_insert(tmp: Path) -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE TABLE audit (x)")
        conn.set_authorizer(
            lambda op, *_: sqlite3.SQLITE_DENY if op == sqlite3.SQLITE_INSERT else sqlite3.SQLITE_OK
        )
        conn.execute("INSERT INTO audit VALUES (1)")
    finally:
        conn.close()


def _deny_read(tmp: Path) -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE TABLE staff (name, salary)")
        conn.set_authorizer(
            lambda op, arg1, arg2, *_: (
                sqlite3.SQLITE_DENY
                if op == sqlite3.SQLITE_READ and arg2 == "salary"
                else sqlite3.SQLITE_OK
            )
        )
        conn.execute("SELECT salary FROM staff")
    finally:
        conn.close()


def _too_many_variables(tmp: Path) -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 10)
        conn.execute("SELECT 1 WHERE 1 IN (" + ", ".join("?" * 20) + ")", tuple(range(20)))
    finally:
        conn.close()


def _transaction(*statements: str) -> Callable[[Path], None]:
    def trigger(tmp: Path) -> None:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        try:
            for statement in statements:
                conn.execute(statement)
        finally:
            conn.close()

    return trigger


def _closed(tmp: Path) -> None:
    conn = sqlite3.connect(":memory:")
    conn.close()
    conn.execute("SELECT 1")


def _two_statements(tmp: Path) -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("SELECT 1; SELECT 2")
    finally:
        conn.close()


SPECIAL_CASES: tuple[SpecialCase, ...] = (
    SpecialCase("busy-two-connections", _busy, _e(K.DATABASE_LOCKED, "SQLITE_BUSY")),
    SpecialCase(
        "locked-shared-cache-table",
        _shared_cache_lock,
        _e(K.LOCK_NOT_AVAILABLE, "SQLITE_LOCKED_SHAREDCACHE", "inventory"),
    ),
    SpecialCase("read-only-uri", _read_only, _e(K.READ_ONLY, "SQLITE_READONLY")),
    SpecialCase(
        "unable-to-open-missing-directory",
        _missing_directory,
        _e(K.CONNECTION_MISCONFIGURED, "SQLITE_CANTOPEN"),
    ),
    SpecialCase(
        "unable-to-open-missing-file-read-only",
        _missing_file_read_only,
        _e(K.CONNECTION_MISCONFIGURED, "SQLITE_CANTOPEN"),
    ),
    SpecialCase("disk-full-max-page-count", _disk_full, _e(K.DISK_FULL, "SQLITE_FULL")),
    SpecialCase("malformed-page", _malformed, _e(K.DATA_CORRUPTED, "SQLITE_CORRUPT")),
    SpecialCase("not-a-database", _not_a_database, _e(K.DATA_CORRUPTED, "SQLITE_NOTADB")),
    SpecialCase("disk-io-error-journal", _disk_io_error, _e(K.IO_ERROR, "SQLITE_IOERR_READ")),
    SpecialCase(
        "interrupted-progress-handler",
        _interrupt_from_progress_handler,
        _e(K.QUERY_CANCELED, "SQLITE_INTERRUPT"),
    ),
    SpecialCase(
        "interrupted-by-interrupt", _interrupt_call, _e(K.QUERY_CANCELED, "SQLITE_INTERRUPT")
    ),
    SpecialCase("not-authorized", _deny_insert, _e(K.INSUFFICIENT_PRIVILEGE, "SQLITE_AUTH")),
    SpecialCase(
        "read-prohibited",
        _deny_read,
        _e(K.INSUFFICIENT_PRIVILEGE, "SQLITE_AUTH", "staff", "salary"),
    ),
    SpecialCase(
        "too-many-sql-variables", _too_many_variables, _e(K.CONFIGURATION_LIMIT_EXCEEDED, ERR)
    ),
    SpecialCase(
        "transaction-within-transaction",
        _transaction("BEGIN", "BEGIN"),
        _e(K.INVALID_TRANSACTION_STATE, ERR),
    ),
    SpecialCase(
        "commit-without-transaction", _transaction("COMMIT"), _e(K.INVALID_TRANSACTION_STATE, ERR)
    ),
    SpecialCase(
        "rollback-without-transaction",
        _transaction("ROLLBACK"),
        _e(K.INVALID_TRANSACTION_STATE, ERR),
    ),
    SpecialCase("closed-connection", _closed, _e(K.CONNECTION_LOST, None)),
    SpecialCase("two-statements-in-execute", _two_statements, _e(K.FEATURE_NOT_SUPPORTED, None)),
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
        for driver in case.drivers:
            yield CorpusCase("sqlite", driver, case.name, raise_sql(case, driver), case.expected)
    with tempfile.TemporaryDirectory(prefix="lde_sqlite_") as scratch:
        for special in SPECIAL_CASES:
            tmp = Path(scratch) / special.name
            tmp.mkdir()
            yield CorpusCase(
                "sqlite", "sqlite3", special.name, raise_special(special, tmp), special.expected
            )
