"""
Real logs of real database errors, for `scan`'s tests and `python -m bench.scan`.

Each event is a real failing statement run through a real driver (SQLite
always; PostgreSQL and MariaDB when their servers are given), logged by
Python's `logging` with `logger.exception`, so the log holds the traceback
exactly as an application's log does.  The expected kind of each is the
vendor's documented meaning of the error (SQLite's result texts,
PostgreSQL's SQLSTATE, MySQL's error numbers), never an answer of the
library.  `psql_events` runs the real `psql` client, whose errors span lines
(`LINE 1:`, `DETAIL:`, `HINT:`).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import logging
import os
import secrets
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from localdata_errors import Kind

__all__ = ["FORMAT", "Event", "driver_events", "psql_events", "write_log"]

#: The application log format of the events: a timestamp, the level, the logger.
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


@dataclass(frozen=True)
class Event:
    """
    One logged error: the log's text of it and what it is.

    Attributes:
        text: The lines the log holds for it, ending with a line break.
        backend: The backend that raised it.
        kind: The vendor's documented meaning.
        code: The native code the text carries, where it carries one: printed,
            or by its wording (the vendor's own text of that code).
        marker: A text unique to the event's first line.
    """

    text: str
    backend: str
    kind: Kind
    code: str | None
    marker: str


_counter = itertools.count(1)


def _logged(fmt: str, raise_error: Callable[[], object]) -> tuple[str, str]:
    """Run *raise_error* and log what it raises as an application would; return (text, marker)."""
    marker = f"query {next(_counter)} failed"
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter(fmt))
    logger = logging.Logger("app.db")
    logger.addHandler(handler)
    try:
        raise_error()
    except Exception:
        logger.exception(marker)
    else:
        raise AssertionError(f"{raise_error!r} did not fail")
    return out.getvalue(), marker


def _sqlite_cases(workdir: str) -> Iterator[tuple[Callable[[], object], Kind, str]]:
    # SQLite prints no code, but its wording is its result's own text
    # (https://www.sqlite.org/rescode.html): the code each text carries.  A
    # rowid's duplicate is SQLITE_CONSTRAINT_PRIMARYKEY, printed as a unique
    # index's is: the text says SQLITE_CONSTRAINT, which both are.
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL)")
    conn.execute("INSERT INTO customers VALUES (1, 'ada@example.com')")
    # SQLite's result texts: "no such table", a syntax error, "UNIQUE constraint
    # failed", "NOT NULL constraint failed", and SQLITE_BUSY's "database is locked".
    yield (lambda: conn.execute("SELECT * FROM orders")), Kind.UNDEFINED_TABLE, "SQLITE_ERROR"
    yield (lambda: conn.execute("SELEC 1")), Kind.SYNTAX_ERROR, "SQLITE_ERROR"
    yield (
        (lambda: conn.execute("INSERT INTO customers VALUES (1, 'b@x')")),
        Kind.UNIQUE_VIOLATION,
        "SQLITE_CONSTRAINT",
    )
    yield (
        (lambda: conn.execute("INSERT INTO customers (id) VALUES (2)")),
        Kind.NOT_NULL_VIOLATION,
        "SQLITE_CONSTRAINT_NOTNULL",
    )
    path = os.path.join(workdir, "locked.db")
    holder = sqlite3.connect(path, timeout=0, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    other = sqlite3.connect(path, timeout=0)
    yield (lambda: other.execute("INSERT INTO t VALUES (1)")), Kind.DATABASE_LOCKED, "SQLITE_BUSY"
    holder.execute("ROLLBACK")
    holder.close()
    other.close()
    conn.close()


def _sqlalchemy_case() -> Iterator[tuple[Callable[[], object], Kind, str]]:
    try:
        import sqlalchemy as sa
    except ImportError:
        return
    engine = sa.create_engine("sqlite://")

    def run() -> None:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT * FROM orders"))

    # A chained traceback: sqlite3's error, then SQLAlchemy's wrapper.
    yield run, Kind.UNDEFINED_TABLE, "SQLITE_ERROR"
    engine.dispose()


def _postgresql_cases(
    pg: Mapping[str, Any],
) -> Iterator[tuple[str, Callable[[], object], Kind, str]]:
    schema = f"scanlog_{secrets.token_hex(4)}"
    dsn = " ".join(f"{k}={v}" for k, v in pg.items())
    with contextlib.ExitStack() as stack:
        try:
            import psycopg
        except ImportError:
            psycopg = None
        try:
            import psycopg2
        except ImportError:
            psycopg2 = None
        if psycopg is None:
            return
        admin = stack.enter_context(psycopg.connect(dsn, autocommit=True))
        admin.execute(f"CREATE SCHEMA {schema}")
        stack.callback(admin.execute, f"DROP SCHEMA {schema} CASCADE")
        admin.execute(f"SET search_path TO {schema}")
        admin.execute("CREATE TABLE customers (id int PRIMARY KEY)")
        admin.execute("CREATE TABLE sales (customer_id int REFERENCES customers (id))")
        admin.execute("INSERT INTO customers VALUES (1)")
        # PostgreSQL's SQLSTATEs: 42P01 undefined_table, 23505 unique_violation,
        # 23503 foreign_key_violation, 22012 division_by_zero.
        for sql, kind, code in (
            ("SELECT * FROM orders", Kind.UNDEFINED_TABLE, "42P01"),
            ("INSERT INTO customers VALUES (1)", Kind.UNIQUE_VIOLATION, "23505"),
            ("INSERT INTO sales VALUES (99)", Kind.FOREIGN_KEY_VIOLATION, "23503"),
            ("SELECT 1 / 0", Kind.DIVISION_BY_ZERO, "22012"),
        ):
            yield "psycopg", (lambda sql=sql: admin.execute(sql)), kind, code
        if psycopg2 is not None:
            old = stack.enter_context(contextlib.closing(psycopg2.connect(dsn)))
            old.autocommit = True
            cur = old.cursor()
            cur.execute(f"SET search_path TO {schema}")
            yield (
                "psycopg2",
                (lambda: cur.execute("SELECT * FROM orders")),
                Kind.UNDEFINED_TABLE,
                "42P01",
            )


def _mysql_cases(my: Mapping[str, Any]) -> Iterator[tuple[str, Callable[[], object], Kind, str]]:
    try:
        import pymysql
    except ImportError:
        return
    table = f"scanlog_{secrets.token_hex(4)}"
    conn = pymysql.connect(
        host=my["host"],
        port=int(my["port"]),
        user=my["user"],
        password=my["password"],
        database=my["database"],
        autocommit=True,
    )
    try:
        cur = conn.cursor()
        cur.execute(f"CREATE TABLE {table} (id INT PRIMARY KEY)")
        cur.execute(f"INSERT INTO {table} VALUES (1)")
        # MySQL's error numbers: 1146 ER_NO_SUCH_TABLE, 1062 ER_DUP_ENTRY,
        # 1064 ER_PARSE_ERROR.
        for sql, kind, code in (
            (f"SELECT * FROM {table}_missing", Kind.UNDEFINED_TABLE, "1146"),
            (f"INSERT INTO {table} VALUES (1)", Kind.UNIQUE_VIOLATION, "1062"),
            ("SELEC 1", Kind.SYNTAX_ERROR, "1064"),
        ):
            yield "pymysql", (lambda sql=sql: cur.execute(sql)), kind, code
        try:
            import MySQLdb
        except ImportError:
            MySQLdb = None  # noqa: N806 - the module's own name
        if MySQLdb is not None:
            other = MySQLdb.connect(
                host=my["host"],
                port=int(my["port"]),
                user=my["user"],
                password=my["password"],
                database=my["database"],
            )
            try:
                mcur = other.cursor()
                yield (
                    "MySQLdb",
                    (lambda: mcur.execute(f"SELECT * FROM {table}_missing")),
                    Kind.UNDEFINED_TABLE,
                    "1146",
                )
            finally:
                other.close()
        cur.execute(f"DROP TABLE {table}")
    finally:
        conn.close()


def driver_events(
    pg: Mapping[str, Any] | None = None,
    mysql: Mapping[str, Any] | None = None,
    fmt: str = FORMAT,
) -> list[Event]:
    """
    Real errors, each logged with its traceback by Python's `logging`.

    Args:
        pg: PostgreSQL connection settings (`host`, `port`, `user`, `dbname`), or `None`.
        mysql: MariaDB settings (`host`, `port`, `user`, `password`, `database`), or `None`.
        fmt: The `logging` format of the first line.

    Returns:
        The events: SQLite's always, the servers' when given.
    """
    events: list[Event] = []
    with tempfile.TemporaryDirectory(prefix="scanlog-") as workdir:
        # Lazily: each statement runs while its connection is open.
        for raise_error, kind, code in itertools.chain(_sqlite_cases(workdir), _sqlalchemy_case()):
            text, marker = _logged(fmt, raise_error)
            events.append(Event(text, "sqlite", kind, code, marker))
    if pg is not None:
        for _driver, raise_error, kind, code in _postgresql_cases(pg):
            text, marker = _logged(fmt, raise_error)
            events.append(Event(text, "postgresql", kind, code, marker))
    if mysql is not None:
        for _driver, raise_error, kind, code in _mysql_cases(mysql):
            text, marker = _logged(fmt, raise_error)
            events.append(Event(text, "mysql", kind, code, marker))
    return events


def psql_events(pg: Mapping[str, Any]) -> list[Event]:
    """
    Errors as the real `psql` client prints them, spanning lines; `[]` without psql.

    Args:
        pg: PostgreSQL connection settings.

    Returns:
        The events, one a psql run (no timestamps: psql writes none).
    """
    psql = shutil.which("psql")
    if psql is None:
        return []
    base = [psql, "-X", "-q", "-h", str(pg["host"]), "-p", str(pg["port"])]
    base += ["-U", str(pg["user"]), "-d", str(pg["dbname"]), "-v", "ON_ERROR_STOP=1"]
    missing = f"orders_{secrets.token_hex(4)}"
    runs = [
        # 42P01 undefined_table, with its LINE and caret lines.  The codes are
        # the ones the wording stands for in PostgreSQL's source (its ereport
        # of that message), where psql prints none.
        ([], f"SELECT * FROM {missing}", Kind.UNDEFINED_TABLE, "42P01", missing),
        # The same in psql's verbose form: the SQLSTATE and a LOCATION line.
        (
            ["-v", "VERBOSITY=verbose"],
            f"SELECT * FROM {missing}",
            Kind.UNDEFINED_TABLE,
            "42P01",
            missing,
        ),
        # 23503 foreign_key_violation, with its DETAIL line (temporary tables:
        # nothing is left on the shared server).
        (
            [],
            "CREATE TEMP TABLE p (id int PRIMARY KEY); "
            "CREATE TEMP TABLE c (pid int REFERENCES p (id)); INSERT INTO c VALUES (7)",
            Kind.FOREIGN_KEY_VIOLATION,
            "23503",
            'violates foreign key constraint "c_pid_fkey"',
        ),
        # 42883 undefined_function, with LINE and HINT lines.
        ([], "SELECT no_such_function_x(1)", Kind.UNDEFINED_FUNCTION, None, "no_such_function_x"),
    ]
    events = []
    for options, sql, kind, code, marker in runs:
        out = subprocess.run(
            [*base, *options, "-c", sql],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "PGCONNECT_TIMEOUT": "10", "LC_MESSAGES": "C"},
        )
        if out.returncode == 0 or "ERROR:" not in out.stderr:
            raise AssertionError(f"psql did not fail as expected: {out.stderr!r}")
        events.append(Event(out.stderr, "postgresql", kind, code, marker))
    return events


def write_log(path: str, events: list[Event], filler: int = 3) -> None:
    """
    Write *events* to *path*, with *filler* ordinary log lines before each.

    Args:
        path: The file.
        events: The events, in order.
        filler: Ordinary INFO lines written before each event.
    """
    with open(path, "w", encoding="utf-8") as out:
        for i, event in enumerate(events):
            for j in range(filler):
                out.write(
                    f"2024-05-01 12:00:{i % 60:02},{j:03} INFO app.web: GET /orders 200 in 12 ms\n"
                )
            out.write(event.text)


_FILLER = (
    "{ts} INFO app.web: GET /orders/{n} 200 in {ms} ms",
    "{ts} INFO app.web: POST /cart/{n}/items 201 in {ms} ms",
    "{ts} INFO app.web: GET /products?page={ms} 200 in {ms} ms",
    "{ts} DEBUG app.db: pool checkout took {ms} ms (size 10, overflow 0)",
    "{ts} DEBUG app.db: executed statement {n} in {ms} ms",
    "{ts} INFO app.jobs: job {n} finished, {ms} rows exported",
    "{ts} INFO app.auth: user {n} signed in",
    "{ts} DEBUG app.cache: cache hit for key user:{n}",
    "{ts} INFO app.mail: queued message {n} for delivery",
    "{ts} DEBUG app.web: request {n} headers parsed in {ms} us",
    "{ts} WARNING app.cache: cache miss for key user:{n}, refreshing",
    # A warning with an error word that is not a database error.
    "{ts} WARNING app.http: upstream call failed after {ms} ms, retrying",
)


def corpus_events() -> list[Event]:
    """
    The text corpus's real error texts, each as the message of an application's ERROR line.

    The expected kind is the corpus's label where it names one; texts
    without a kind label are left out.
    """
    from tests.text_corpus import load

    events = []
    for case in load():
        if case.kind is None or case.backend is None:
            continue
        text = f"2024-05-01 12:00:00,000 ERROR app.db: {case.text}\n"
        marker = case.text.partition("\n")[0]
        events.append(Event(text, case.backend, Kind(case.kind), case.code, marker))
    return events


def write_sized_log(
    path: str, size: int, events: list[Event], error_share: float = 0.02, seed: int = 7
) -> tuple[int, int]:
    """
    Write a log of about *size* bytes: ordinary lines, and *events* among them.

    Blocks of about 1 MB are built from the events and ordinary lines (a
    share *error_share* of the records are events), then written in turn
    until the size is reached.

    Args:
        path: The file.
        size: Its size in bytes (at least).
        events: The errors to write among the ordinary lines.
        error_share: The share of records that are errors.
        seed: The random seed of the blocks.

    Returns:
        (records, error records) written.
    """
    import random

    rng = random.Random(seed)
    blocks: list[tuple[bytes, int, int]] = []
    for _ in range(8):
        parts: list[str] = []
        length = records = errors = 0
        while length < 1 << 20:
            if rng.random() < error_share:
                text = rng.choice(events).text
                errors += 1
            else:
                hour, minute, ms = rng.randrange(24), rng.randrange(60), rng.randrange(1000)
                ts = f"2024-05-01 {hour:02}:{minute:02}:00,{ms:03}"
                text = (
                    rng.choice(_FILLER).format(ts=ts, n=rng.randrange(10**6), ms=rng.randrange(900))
                    + "\n"
                )
            parts.append(text)
            length += len(text)
            records += 1
        blocks.append(("".join(parts).encode(), records, errors))
    written = records = errors = 0
    with open(path, "wb") as out:
        for block, block_records, block_errors in itertools.cycle(blocks):
            if written >= size:
                break
            out.write(block)
            written += len(block)
            records += block_records
            errors += block_errors
    return records, errors
