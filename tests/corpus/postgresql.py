"""
PostgreSQL corpus: real errors from the running server, through every installed driver.

Each :class:`PgCase` triggers one error for real: a statement on a fresh
connection (in a per-run schema), a conflict between two connections (a
deadlock, a serialization failure, a lock wait), or a connection attempt that
must fail (wrong password on a throwaway password-protected instance, unknown
database, a closed port, a role at its connection limit).  Every case runs
through psycopg 3, psycopg2 and asyncpg, directly and wrapped by SQLAlchemy
(``postgresql+psycopg``, ``postgresql+psycopg2``, ``postgresql+asyncpg``);
drivers that are not installed are left out.

The tests (``tests/integration/test_postgresql_server.py``) parametrize over
:data:`CASES` and :func:`drivers`, and call :func:`trigger`, the same code
:func:`collect` runs: one source of truth.

Settings come from the environment like the test fixtures'
(``LOCALDATA_ERRORS_PG_HOST`` / ``_PORT`` / ``_USER`` / ``_DB``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from localdata_errors import Kind
from tests.corpus import CorpusCase, Expected

__all__ = [
    "CASES",
    "CONNECT_TIMEOUT",
    "DRIVERS",
    "Context",
    "Driver",
    "Instance",
    "PgCase",
    "collect",
    "drivers",
    "start_instance",
    "trigger",
]

HOST: Final = os.environ.get("LOCALDATA_ERRORS_PG_HOST", "127.0.0.1")
PORT: Final = int(os.environ.get("LOCALDATA_ERRORS_PG_PORT", "5432"))
USER: Final = os.environ.get("LOCALDATA_ERRORS_PG_USER", "postgres")
DBNAME: Final = os.environ.get("LOCALDATA_ERRORS_PG_DB", "test")
PG_BIN: Final = Path(os.environ.get("LOCALDATA_ERRORS_PG_BIN", "/usr/lib/postgresql/15/bin"))

# How long a connect waits for the server (seconds).  Generous on purpose: a
# case that expects the server's verdict at start-up (an unknown database or
# role, a role at its limit, a wrong password) must get that verdict, and on
# a cold or loaded machine a backend can take seconds to start.  A short
# timeout then expires first, and the driver raises its own timeout
# (psycopg's ConnectionTimeout, libpq's "timeout expired", asyncpg's and
# pg8000's TimeoutError) instead of the server's FATAL: another reply to the
# same trigger, rightly a connection_failure, and a flaky case.  A connect
# passes `connect_timeout` in its settings to wait less.
CONNECT_TIMEOUT: Final = 30


# -- drivers: one synchronous facade over each --------------------------------------


class Conn:
    """One open connection of a driver under test (autocommit: BEGIN is explicit)."""

    def __init__(
        self,
        run: Callable[[str, tuple[object, ...] | None], Any],
        close: Callable[[], None],
        disconnect: Callable[[], None] | None = None,
    ) -> None:
        self._run = run
        self._close = close
        self._disconnect = disconnect or close

    def execute(self, sql: str, params: tuple[object, ...] | None = None) -> Any:
        """Run one statement; returns the rows of a query."""
        return self._run(sql, params)

    def disconnect(self) -> None:
        """Close the connection only (an async driver keeps its event loop for later calls)."""
        self._disconnect()

    def close(self) -> None:
        """Close, ignoring a connection that is already gone."""
        # A connection the case broke (terminated, refused) cannot be closed cleanly.
        with contextlib.suppress(Exception):
            self._close()


@dataclass(frozen=True)
class Driver:
    """A driver (possibly wrapped by SQLAlchemy) as the cases use it."""

    name: str
    module: str
    placeholder: str  # "%s" or "$"
    connect: Callable[[Mapping[str, object]], Conn]

    def marks(self, count: int) -> str:
        """``count`` placeholders in this driver's style, comma-separated."""
        if self.placeholder == "$":
            return ", ".join(f"${i}" for i in range(1, count + 1))
        return ", ".join(["%s"] * count)


def _conninfo(params: Mapping[str, object]) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo("", **{k: str(v) for k, v in params.items()})


def _psycopg(params: Mapping[str, object]) -> Conn:
    import psycopg

    conn = psycopg.connect(
        _conninfo({"connect_timeout": CONNECT_TIMEOUT, **params}), autocommit=True
    )

    def run(sql: str, args: tuple[object, ...] | None) -> Any:
        cur = conn.execute(sql, args)
        return cur.fetchall() if cur.description else None

    return Conn(run, conn.close)


def _psycopg2(params: Mapping[str, object]) -> Conn:
    import psycopg2

    conn = psycopg2.connect(**{"connect_timeout": CONNECT_TIMEOUT, **params})
    conn.autocommit = True

    def run(sql: str, args: tuple[object, ...] | None) -> Any:
        with conn.cursor() as cur:
            cur.execute(sql, args)
            return cur.fetchall() if cur.description else None

    return Conn(run, conn.close)


class _Loop:
    """A private event loop, so async drivers run behind the synchronous facade."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        self.loop.close()


def _asyncpg(params: Mapping[str, object]) -> Conn:
    import asyncpg

    loop = _Loop()
    names = {"dbname": "database", "connect_timeout": "timeout"}
    kwargs: dict[str, object] = {"timeout": CONNECT_TIMEOUT}
    kwargs.update((names.get(k, k), v) for k, v in params.items())
    try:
        conn = loop.run(asyncpg.connect(**kwargs))
    except BaseException:
        loop.close()
        raise

    def run(sql: str, args: tuple[object, ...] | None) -> Any:
        if args is None and not sql.lstrip().upper().startswith(("SELECT", "WITH")):
            return loop.run(conn.execute(sql))
        return loop.run(conn.fetch(sql, *(args or ())))

    def disconnect() -> None:
        loop.run(conn.close(timeout=2))

    def close() -> None:
        try:
            if not conn.is_closed():
                disconnect()
        finally:
            loop.close()

    return Conn(run, close, disconnect)


def _url(dialect: str, params: Mapping[str, object]) -> Any:
    from sqlalchemy.engine import URL

    return URL.create(
        dialect,
        username=str(params.get("user")),
        password=None if params.get("password") is None else str(params["password"]),
        host=str(params.get("host")),
        port=int(str(params.get("port"))),
        database=str(params.get("dbname")),
    )


def _sqlalchemy(dialect: str) -> Callable[[Mapping[str, object]], Conn]:
    def connect(params: Mapping[str, object]) -> Conn:
        from sqlalchemy import create_engine
        from sqlalchemy.pool import NullPool

        engine = create_engine(
            _url(dialect, params),
            poolclass=NullPool,
            isolation_level="AUTOCOMMIT",
            connect_args={"connect_timeout": CONNECT_TIMEOUT},
        )
        try:
            conn = engine.connect()
        except BaseException:
            engine.dispose()
            raise

        def run(sql: str, args: tuple[object, ...] | None) -> Any:
            result = conn.exec_driver_sql(sql, args) if args else conn.exec_driver_sql(sql)
            return result.fetchall() if result.returns_rows else None

        def close() -> None:
            try:
                conn.close()
            finally:
                engine.dispose()

        return Conn(run, close)

    return connect


async def _connect_async(engine: Any) -> Any:
    return await engine.connect()


def _sqlalchemy_asyncpg(params: Mapping[str, object]) -> Conn:
    from sqlalchemy.ext.asyncio import create_async_engine
    from sqlalchemy.pool import NullPool

    loop = _Loop()
    engine = create_async_engine(
        _url("postgresql+asyncpg", params),
        poolclass=NullPool,
        isolation_level="AUTOCOMMIT",
        connect_args={"timeout": CONNECT_TIMEOUT},
    )
    try:
        conn = loop.run(_connect_async(engine))
    except BaseException:
        loop.run(engine.dispose())
        loop.close()
        raise

    def run(sql: str, args: tuple[object, ...] | None) -> Any:
        async def go() -> Any:
            result = await (conn.exec_driver_sql(sql, args) if args else conn.exec_driver_sql(sql))
            return result.fetchall() if result.returns_rows else None

        return loop.run(go())

    def disconnect() -> None:
        loop.run(conn.close())

    def close() -> None:
        try:
            disconnect()
            loop.run(engine.dispose())
        finally:
            loop.close()

    return Conn(run, close, disconnect)


DRIVERS: Final = (
    Driver("psycopg", "psycopg", "%s", _psycopg),
    Driver("psycopg2", "psycopg2", "%s", _psycopg2),
    Driver("asyncpg", "asyncpg", "$", _asyncpg),
    Driver("sqlalchemy+psycopg", "psycopg", "%s", _sqlalchemy("postgresql+psycopg")),
    Driver("sqlalchemy+psycopg2", "psycopg2", "%s", _sqlalchemy("postgresql+psycopg2")),
    Driver("sqlalchemy+asyncpg", "asyncpg", "$", _sqlalchemy_asyncpg),
)


def drivers() -> tuple[Driver, ...]:
    """The drivers whose modules (and SQLAlchemy, for the wrapped ones) are installed."""

    def installed(name: str) -> bool:
        return importlib.util.find_spec(name) is not None

    return tuple(
        d
        for d in DRIVERS
        if installed(d.module) and (not d.name.startswith("sqlalchemy") or installed("sqlalchemy"))
    )


# -- the run's objects on the server -------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Context:
    """
    The server objects of one run: a schema, roles, a throwaway instance.

    Names start with ``lde_pg_`` and a random suffix, so concurrent runs and
    reruns on a used server do not collide; :meth:`close` drops them.
    """

    run_id: str = field(default_factory=lambda: secrets.token_hex(4))
    _helper: Any = None
    _instance: Instance | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def schema(self) -> str:
        """The run's schema (tables of the cases live here)."""
        return f"lde_pg_{self.run_id}"

    @property
    def reader(self) -> str:
        """A role without privileges on the run's tables."""
        return f"lde_pg_{self.run_id}_reader"

    @property
    def limited(self) -> str:
        """A login role with CONNECTION LIMIT 1."""
        return f"lde_pg_{self.run_id}_limited"

    def params(self, **overrides: object) -> dict[str, object]:
        """Connection settings of the main server, with *overrides*."""
        params: dict[str, object] = {"host": HOST, "port": PORT, "user": USER, "dbname": DBNAME}
        params.update(overrides)
        return params

    def helper(self) -> Any:
        """The run's own psycopg connection (autocommit), for setup and the other side."""
        if self._helper is None:
            import psycopg

            self._helper = psycopg.connect(
                _conninfo(self.params()), autocommit=True, connect_timeout=CONNECT_TIMEOUT
            )
        return self._helper

    def new_helper(self) -> Any:
        """A second psycopg connection (autocommit) in the run's schema."""
        import psycopg

        conn = psycopg.connect(
            _conninfo(self.params()), autocommit=True, connect_timeout=CONNECT_TIMEOUT
        )
        conn.execute(f"SET search_path TO {self.schema}")
        return conn

    def open(self) -> Context:
        """Create the schema, its tables and the roles."""
        h = self.helper()
        s = self.schema
        h.execute(f"CREATE SCHEMA {s}")
        h.execute(f"SET search_path TO {s}")
        for sql in _SETUP:
            h.execute(sql.format(schema=s))
        h.execute(f"CREATE ROLE {self.reader} NOLOGIN")
        h.execute(f"GRANT USAGE ON SCHEMA {s} TO {self.reader}")
        h.execute(f"CREATE ROLE {self.limited} LOGIN CONNECTION LIMIT 1")
        h.execute(f"GRANT USAGE ON SCHEMA {s} TO {self.limited}")
        return self

    def close(self) -> None:
        """Drop everything the run created; stop the throwaway instance."""
        try:
            h = self.helper()
            for role in (self.limited, self.reader):
                h.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s",
                    (role,),
                )
            h.execute(f"DROP SCHEMA IF EXISTS {self.schema}_empty")
            h.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
            for role in (self.limited, self.reader):
                h.execute(f"DROP ROLE IF EXISTS {role}")
            h.close()
            self._helper = None
        finally:
            self._stop_instance()

    def connect(self, driver: Driver, **overrides: object) -> Conn:
        """A connection of *driver* with the run's schema first on the search path."""
        conn = driver.connect(self.params(**overrides))
        try:
            conn.execute(f"SET search_path TO {self.schema}")
        except BaseException:
            conn.close()
            raise
        return conn

    # The throwaway instance: scram password authentication, which the
    # main (trust) server cannot refuse.
    def instance(self) -> tuple[str, int]:
        """Start (once) a password-protected PostgreSQL; returns (host, port)."""
        with self._lock:
            if self._instance is None:
                self._instance = start_instance(
                    f"lde_pg_{self.run_id}_", auth="scram-sha-256", password="right-password"
                )
            return HOST, self._instance.port

    def _stop_instance(self) -> None:
        if self._instance is not None:
            self._instance.stop()
            self._instance = None


# -- throwaway servers ---------------------------------------------------------------


def _as_postgres() -> list[str]:
    # initdb and the server refuse root: run them as postgres.
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


@dataclass(frozen=True)
class Instance:
    """
    A throwaway PostgreSQL server: its directory and its port on 127.0.0.1.

    Args:
        root: The directory holding its data, socket, log (and password file).
        port: Its TCP port.
    """

    root: Path
    port: int

    def pg_ctl(self, *args: str, check: bool = True) -> None:
        """Run `pg_ctl` on the instance's data directory."""
        subprocess.run(
            [*_as_postgres(), str(PG_BIN / "pg_ctl"), "-D", str(self.root / "data"), *args],
            check=check,
            capture_output=True,
            timeout=120,
        )

    def stop(self) -> None:
        """Stop the server at once and remove its directory."""
        self.pg_ctl("-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def start_instance(
    prefix: str,
    *,
    auth: str = "trust",
    password: str | None = None,
    hba: str | None = None,
    settings: Mapping[str, object] | None = None,
    standby: bool = False,
) -> Instance:
    """
    Create and start a throwaway PostgreSQL server listening on 127.0.0.1.

    Args:
        prefix: Its directory's name prefix (the run's, so leftovers are recognised).
        auth: initdb's `--auth`: the method of every pg_hba.conf line.
        password: The superuser `postgres`'s password.
        hba: A pg_hba.conf to use instead of initdb's.
        settings: Server settings (`-c name=value`).
        standby: Start it as a standby (in recovery, with no primary).

    Returns:
        The running instance; `Instance.stop` removes it.
    """
    root = Path(tempfile.mkdtemp(prefix=prefix))
    data = root / "data"
    initdb = [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", f"--auth={auth}"]
    if password is not None:
        pwfile = root / "pw"
        pwfile.write_text(f"{password}\n")
        initdb.append(f"--pwfile={pwfile}")
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        if password is not None:
            shutil.chown(root / "pw", "postgres")
    subprocess.run(
        [*_as_postgres(), *initdb, "--no-sync", "-E", "UTF8"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    if hba is not None:
        (data / "pg_hba.conf").write_text(hba)
    if standby:
        (data / "standby.signal").touch()
    instance = Instance(root, _free_port())
    options = f"-p {instance.port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    for name, value in (settings or {}).items():
        options += f" -c {name}={value}"
    instance.pg_ctl("-w", "-t", "60", "-l", str(root / "log"), "-o", options, "start")
    return instance


_SETUP: Final = (
    "CREATE TABLE customers (id int PRIMARY KEY, email varchar(20) UNIQUE,"
    " name text NOT NULL DEFAULT 'x', age int CHECK (age >= 0))",
    "CREATE TABLE sales (id int PRIMARY KEY, customer_id int"
    " CONSTRAINT sales_customer_id_fkey REFERENCES customers(id), amount numeric(6, 2))",
    "CREATE VIEW big_sales AS SELECT * FROM sales WHERE amount > 100",
    "INSERT INTO customers (id, email, name, age)"
    " VALUES (1, 'a@x', 'Ann', 30), (2, 'b@x', 'Bob', 40)",
    "INSERT INTO sales VALUES (1, 1, 10), (2, 2, 20)",
    "CREATE TABLE accounts (id int PRIMARY KEY, balance int)",
    "INSERT INTO accounts VALUES (1, 100), (2, 100)",
    'CREATE TABLE "Café" ("Nom" text, "Prix" int)',
    'CREATE TABLE "Orders" (id int, "Total" int)',
    "CREATE SCHEMA {schema}_empty",
    "CREATE TABLE bookings (room int, during tsrange,"
    " CONSTRAINT bookings_no_overlap EXCLUDE USING gist (during WITH &&))",
    "INSERT INTO bookings VALUES (1, '[2024-01-01 10:00, 2024-01-01 12:00)')",
    "CREATE INDEX sales_amount_idx ON sales (amount)",
    "CREATE FUNCTION lde_ratio(d int) RETURNS int LANGUAGE plpgsql AS"
    " $$ BEGIN RETURN 100 / d; END $$",
)


# -- the cases ----------------------------------------------------------------------

Run = Callable[[Context, Driver], None]


@dataclass(frozen=True)
class PgCase:
    """
    One real error, how to trigger it, and what a correct answer says.

    Args:
        name: The case's id.
        expected: What the answer must say.
        run: Triggers the error (raises it) through a driver.
        only: Drivers the case applies to (``None``: all).
        per_driver: Expectations where a driver reports the error differently.
        db_type: Per driver, a ``db_type`` to pass (for driver-side errors
            raised as built-in exceptions, whose module names no backend).
    """

    name: str
    expected: Expected
    run: Run
    only: frozenset[str] | None = None
    per_driver: Mapping[str, Expected] = field(default_factory=dict)
    db_type: Mapping[str, str] = field(default_factory=dict)

    def applies_to(self, driver: Driver) -> bool:
        """Whether the case runs through *driver*."""
        return self.only is None or driver.name in self.only

    def expected_for(self, driver: Driver) -> Expected:
        """The expectation for *driver*."""
        return self.per_driver.get(driver.name, self.expected)


def sql(*statements: str) -> Run:
    """A run: the statements in order on a fresh connection; the last one fails.

    ``{schema}`` in a statement stands for the run's schema.
    """

    def run(ctx: Context, driver: Driver) -> None:
        conn = ctx.connect(driver)
        try:
            for statement in statements:
                conn.execute(statement.format(schema=ctx.schema))
        finally:
            conn.close()

    return run


def _bind_count(ctx: Context, driver: Driver) -> None:
    conn = ctx.connect(driver)
    try:
        conn.execute(f"SELECT {driver.marks(2)}", (1,))
    finally:
        conn.close()


def _aborted(ctx: Context, driver: Driver) -> None:
    conn = ctx.connect(driver)
    try:
        conn.execute("BEGIN")
        # The first failure, which aborts the transaction.
        with contextlib.suppress(Exception):
            conn.execute("SELECT 1 / 0")
        conn.execute("SELECT 1")
    finally:
        conn.close()


def _serialization(ctx: Context, driver: Driver) -> None:
    other = ctx.new_helper()
    conn = ctx.connect(driver)
    try:
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        conn.execute("SELECT balance FROM accounts WHERE id = 1")
        other.execute("UPDATE accounts SET balance = balance + 1 WHERE id = 1")
        conn.execute("UPDATE accounts SET balance = balance - 1 WHERE id = 1")
    finally:
        conn.close()
        other.close()


def _deadlock(ctx: Context, driver: Driver) -> None:
    # The driver's session checks for deadlocks after 10 ms, the other after
    # 10 s: the driver's session is always the victim.
    other = ctx.new_helper()
    conn = ctx.connect(driver)
    waiter: threading.Thread | None = None
    try:
        other.execute("SET deadlock_timeout = '10s'")
        conn.execute("SET deadlock_timeout = '10ms'")
        other.execute("BEGIN")
        other.execute("UPDATE accounts SET balance = balance WHERE id = 1")
        conn.execute("BEGIN")
        conn.execute("UPDATE accounts SET balance = balance WHERE id = 2")

        def wait_for_row_2() -> None:
            # Were this session the victim (its 10 s deadlock_timeout rules that
            # out), the driver's statement would succeed and trigger() says so.
            with contextlib.suppress(Exception):
                other.execute("UPDATE accounts SET balance = balance WHERE id = 2")
                other.execute("ROLLBACK")

        waiter = threading.Thread(target=wait_for_row_2, daemon=True)
        waiter.start()
        _wait_for(ctx.helper(), other.info.backend_pid, "wait_event_type", "Lock")
        conn.execute("UPDATE accounts SET balance = balance WHERE id = 1")
    finally:
        conn.close()
        if waiter is not None:
            waiter.join(30)
        other.close()


def _wait_for(helper: Any, pid: int, column: str, value: str) -> None:
    """Wait until backend *pid* shows *value* in ``pg_stat_activity.<column>``."""
    for _ in range(500):
        row = helper.execute(
            f"SELECT {column} FROM pg_stat_activity WHERE pid = %s", (pid,)
        ).fetchone()
        if row is not None and row[0] == value:
            return
        time.sleep(0.01)
    msg = f"backend {pid} never showed {column} = {value}"
    raise RuntimeError(msg)


def _lock_held(*statements: str) -> Run:
    """A run: another session holds row 1 of accounts while the statements run."""

    def run(ctx: Context, driver: Driver) -> None:
        other = ctx.new_helper()
        conn = ctx.connect(driver)
        try:
            other.execute("BEGIN")
            other.execute("SELECT * FROM accounts WHERE id = 1 FOR UPDATE")
            for statement in statements:
                conn.execute(statement)
        finally:
            conn.close()
            other.execute("ROLLBACK")
            other.close()

    return run


def _too_many(ctx: Context, driver: Driver) -> None:
    import psycopg

    # The previous case's session of the role may still be exiting.
    for _ in range(500):
        if (
            not ctx.helper()
            .execute("SELECT 1 FROM pg_stat_activity WHERE usename = %s", (ctx.limited,))
            .fetchone()
        ):
            break
        time.sleep(0.01)
    first = psycopg.connect(_conninfo(ctx.params(user=ctx.limited)))
    try:
        driver.connect(ctx.params(user=ctx.limited)).close()
    finally:
        first.close()


def _wrong_password(ctx: Context, driver: Driver) -> None:
    host, port = ctx.instance()
    driver.connect(
        {
            "host": host,
            "port": port,
            "user": "postgres",
            "dbname": "postgres",
            "password": "wrong-password",
        }
    ).close()


def _connect(**overrides: object) -> Run:
    def run(ctx: Context, driver: Driver) -> None:
        driver.connect(ctx.params(**overrides)).close()

    return run


def _refused(ctx: Context, driver: Driver) -> None:
    driver.connect(ctx.params(port=_free_port())).close()


def _terminated(ctx: Context, driver: Driver) -> None:
    conn = ctx.connect(driver)
    try:
        pid = conn.execute("SELECT pg_backend_pid()")[0][0]
        ctx.helper().execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
        conn.execute("SELECT 1")
    finally:
        conn.close()


def _canceled(ctx: Context, driver: Driver) -> None:
    conn = ctx.connect(driver)
    canceller: threading.Thread | None = None
    try:
        pid = conn.execute("SELECT pg_backend_pid()")[0][0]

        def cancel_when_sleeping() -> None:
            # Its own connection: the helper is not shared between threads.
            other = ctx.new_helper()
            try:
                _wait_for(other, pid, "wait_event", "PgSleep")
                other.execute("SELECT pg_cancel_backend(%s)", (pid,))
            finally:
                other.close()

        canceller = threading.Thread(target=cancel_when_sleeping, daemon=True)
        canceller.start()
        conn.execute("SELECT pg_sleep(10)")
    finally:
        if canceller is not None:
            canceller.join(30)
        conn.close()


def _closed(ctx: Context, driver: Driver) -> None:
    conn = ctx.connect(driver)
    try:
        conn.disconnect()
        conn.execute("SELECT 1")
    finally:
        conn.close()


def _as_reader(statement: str) -> Run:
    def run(ctx: Context, driver: Driver) -> None:
        conn = ctx.connect(driver)
        try:
            conn.execute(f"SET ROLE {ctx.reader}")
            conn.execute(statement)
        finally:
            conn.close()

    return run


def _pool_exhausted(ctx: Context, driver: Driver) -> None:
    params = ctx.params()
    if driver.name == "psycopg2":
        from psycopg2.pool import SimpleConnectionPool

        pool = SimpleConnectionPool(1, 1, **params)
        try:
            pool.getconn()
            pool.getconn()
        finally:
            pool.closeall()
        return
    from sqlalchemy import create_engine

    dialect = "postgresql+" + driver.name.partition("+")[2]
    engine = create_engine(_url(dialect, params), pool_size=1, max_overflow=0, pool_timeout=0.05)
    try:
        with engine.connect(), engine.connect():
            pass
    finally:
        engine.dispose()


E = Expected
K = Kind
_SYNC_SQLALCHEMY: Final = frozenset({"sqlalchemy+psycopg", "sqlalchemy+psycopg2"})

CASES: Final[tuple[PgCase, ...]] = (
    PgCase("syntax_error", E(K.SYNTAX_ERROR, "42601"), sql("SELEC 1")),
    # An empty schema of the run's own: no other user's "Orders" can exist there.
    PgCase(
        "undefined_table_qualified_mixed_case",
        E(K.UNDEFINED_TABLE, "42P01", ("Orders",)),
        sql('SELECT * FROM {schema}_empty."Orders"'),
    ),
    PgCase(
        "undefined_table",
        E(K.UNDEFINED_TABLE, "42P01", ("no_such_table",)),
        sql("SELECT * FROM no_such_table"),
    ),
    PgCase(
        "undefined_column",
        E(K.UNDEFINED_COLUMN, "42703", ("nickname",)),
        sql("SELECT nickname FROM customers"),
    ),
    # "column c.nickname does not exist": c is an alias, not a name to keep.
    PgCase(
        "undefined_column_alias",
        E(K.UNDEFINED_COLUMN, "42703", ("nickname",), absent=("c", "c.nickname")),
        sql("SELECT c.nickname FROM customers c"),
    ),
    # 'relation "public.lde_no_such_table"': the schema goes to schema, not the resources.
    PgCase(
        "undefined_table_schema_qualified",
        E(
            K.UNDEFINED_TABLE,
            "42P01",
            ("lde_no_such_table",),
            schema="public",
            absent=("public", "public.lde_no_such_table"),
        ),
        sql("SELECT * FROM public.lde_no_such_table"),
    ),
    PgCase(
        "undefined_column_unicode",
        E(K.UNDEFINED_COLUMN, "42703", ("Préis",)),
        sql('SELECT "Préis" FROM "Café"'),
    ),
    PgCase(
        "undefined_column_insert",
        E(K.UNDEFINED_COLUMN, "42703", ("Total2", "Orders")),
        sql('INSERT INTO "Orders" (id, "Total2") VALUES (1, 2)'),
    ),
    PgCase(
        "undefined_function",
        E(K.UNDEFINED_FUNCTION, "42883", ("no_such_fn",)),
        sql("SELECT no_such_fn(1)"),
    ),
    PgCase(
        "undefined_schema",
        E(K.UNDEFINED_SCHEMA, "3F000", ("lde_no_such_schema",)),
        sql("CREATE TABLE lde_no_such_schema.t (id int)"),
    ),
    PgCase(
        "undefined_object_type",
        E(K.UNDEFINED_OBJECT, "42704", ("lde_no_such_type",)),
        sql("DROP TYPE lde_no_such_type"),
    ),
    PgCase(
        "duplicate_table",
        E(K.DUPLICATE_TABLE, "42P07", ("customers",)),
        sql("CREATE TABLE customers (id int)"),
    ),
    PgCase(
        "duplicate_column",
        E(K.DUPLICATE_COLUMN, "42701", ("email", "customers")),
        sql("ALTER TABLE customers ADD COLUMN email text"),
    ),
    PgCase(
        "duplicate_index",
        E(K.DUPLICATE_TABLE, "42P07", ("sales_amount_idx",)),
        sql("CREATE INDEX sales_amount_idx ON sales (id)"),
    ),
    PgCase(
        "duplicate_schema", E(K.DUPLICATE_SCHEMA, "42P06", ("public",)), sql("CREATE SCHEMA public")
    ),
    PgCase(
        "duplicate_database",
        E(K.DUPLICATE_DATABASE, "42P04", ("postgres",)),
        sql("CREATE DATABASE postgres"),
    ),
    PgCase(
        "duplicate_constraint",
        E(K.DUPLICATE_OBJECT, "42710", ("customers",), constraint="customers_age_check"),
        sql("ALTER TABLE customers ADD CONSTRAINT customers_age_check CHECK (age < 200)"),
    ),
    PgCase(
        "ambiguous_column",
        E(K.AMBIGUOUS_COLUMN, "42702", ("id",)),
        sql("SELECT id FROM customers JOIN sales ON sales.customer_id = customers.id"),
    ),
    PgCase(
        "grouping_error",
        E(K.GROUPING_ERROR, "42803", ("name",)),
        sql("SELECT name, count(*) FROM customers GROUP BY email"),
    ),
    PgCase(
        "datatype_mismatch",
        E(K.DATATYPE_MISMATCH, "42804", ("age",)),
        sql("INSERT INTO customers (id, age) VALUES (9, true)"),
    ),
    PgCase(
        "operator_does_not_exist",
        E(K.DATATYPE_MISMATCH, "42883"),
        sql("SELECT * FROM customers WHERE id = 'a'::text"),
    ),
    PgCase(
        "cardinality_violation",
        E(K.CARDINALITY_VIOLATION, "21000"),
        sql("SELECT (SELECT id FROM customers)"),
    ),
    PgCase("division_by_zero", E(K.DIVISION_BY_ZERO, "22012"), sql("SELECT 1 / 0")),
    PgCase(
        "division_by_zero_in_function",
        E(K.DIVISION_BY_ZERO, "22012", ("lde_ratio",)),
        sql("SELECT lde_ratio(0)"),
    ),
    PgCase(
        "invalid_text_representation",
        E(K.INVALID_TEXT_REPRESENTATION, "22P02"),
        sql("SELECT 'abc'::int"),
    ),
    PgCase(
        "numeric_out_of_range",
        E(K.NUMERIC_VALUE_OUT_OF_RANGE, "22003"),
        sql("INSERT INTO sales VALUES (9, 1, 123456.78)"),
    ),
    PgCase(
        "integer_out_of_range",
        E(K.NUMERIC_VALUE_OUT_OF_RANGE, "22003"),
        sql("SELECT 2147483647::int + 1"),
    ),
    PgCase(
        "value_too_long",
        E(K.STRING_DATA_RIGHT_TRUNCATION, "22001"),
        sql("INSERT INTO customers (id, email) VALUES (9, repeat('x', 50))"),
    ),
    PgCase(
        "invalid_datetime_format",
        E(K.INVALID_DATETIME_FORMAT, "22007"),
        sql("SELECT 'not a date'::date"),
    ),
    PgCase(
        "datetime_field_overflow",
        E(K.INVALID_DATETIME_FORMAT, "22008"),
        sql("SELECT '2024-13-45'::date"),
    ),
    PgCase(
        "not_null_violation",
        E(K.NOT_NULL_VIOLATION, "23502", ("name", "customers")),
        sql("INSERT INTO customers (id, name) VALUES (9, NULL)"),
    ),
    PgCase(
        "check_violation",
        E(K.CHECK_VIOLATION, "23514", ("customers",), constraint="customers_age_check"),
        sql("INSERT INTO customers (id, age) VALUES (9, -1)"),
    ),
    PgCase(
        "unique_violation",
        # "Key (email)=(a@x) already exists": the key's column and value are data.
        E(
            K.UNIQUE_VIOLATION,
            "23505",
            ("customers",),
            constraint="customers_email_key",
            absent=("email", "a@x"),
        ),
        sql("INSERT INTO customers (id, email) VALUES (9, 'a@x')"),
    ),
    PgCase(
        "primary_key_violation",
        E(K.UNIQUE_VIOLATION, "23505", ("customers",), constraint="customers_pkey"),
        sql("INSERT INTO customers (id) VALUES (1)"),
    ),
    PgCase(
        "exclusion_violation",
        E(
            K.EXCLUSION_VIOLATION,
            "23P01",
            ("bookings",),
            constraint="bookings_no_overlap",
            absent=("during",),
        ),
        sql("INSERT INTO bookings VALUES (2, '[2024-01-01 11:00, 2024-01-01 13:00)')"),
    ),
    PgCase(
        "foreign_key_child_insert",
        E(
            K.FOREIGN_KEY_VIOLATION,
            "23503",
            ("sales",),
            ("customers",),
            "sales_customer_id_fkey",
            absent=("customer_id", "42"),
        ),
        sql("INSERT INTO sales VALUES (9, 42, 1)"),
    ),
    PgCase(
        "foreign_key_parent_delete",
        E(
            K.FOREIGN_KEY_VIOLATION,
            "23503",
            ("customers",),
            ("sales",),
            "sales_customer_id_fkey",
            absent=("id", "1"),
        ),
        sql("DELETE FROM customers WHERE id = 1"),
    ),
    PgCase(
        "drop_table_with_dependents",
        E(
            K.DEPENDENT_OBJECTS_STILL_EXIST,
            "2BP01",
            ("customers",),
            ("sales",),
            "sales_customer_id_fkey",
        ),
        sql("DROP TABLE customers"),
    ),
    PgCase(
        "drop_table_with_view",
        E(K.DEPENDENT_OBJECTS_STILL_EXIST, "2BP01", ("sales",), ("big_sales",)),
        sql("DROP TABLE sales"),
    ),
    PgCase(
        "truncate_referenced_table",
        E(K.DEPENDENT_OBJECTS_STILL_EXIST, "0A000", ("customers",), ("sales",)),
        sql("TRUNCATE customers"),
    ),
    PgCase("transaction_aborted", E(K.TRANSACTION_ABORTED, "25P02"), _aborted),
    PgCase(
        "read_only_transaction",
        E(K.READ_ONLY, "25006"),
        sql("BEGIN", "SET TRANSACTION READ ONLY", "INSERT INTO accounts VALUES (9, 0)"),
    ),
    PgCase(
        "insufficient_privilege",
        E(K.INSUFFICIENT_PRIVILEGE, "42501", ("accounts",)),
        _as_reader("SELECT * FROM accounts"),
    ),
    PgCase("serialization_failure", E(K.SERIALIZATION_FAILURE, "40001"), _serialization),
    PgCase("deadlock", E(K.DEADLOCK_DETECTED, "40P01", ("accounts",)), _deadlock),
    PgCase(
        "lock_timeout",
        E(K.LOCK_NOT_AVAILABLE, "55P03", ("accounts",)),
        _lock_held("SET lock_timeout = '50ms'", "UPDATE accounts SET balance = 0 WHERE id = 1"),
    ),
    PgCase(
        "nowait",
        E(K.LOCK_NOT_AVAILABLE, "55P03", ("accounts",)),
        _lock_held("SELECT * FROM accounts WHERE id = 1 FOR UPDATE NOWAIT"),
    ),
    PgCase(
        "statement_timeout",
        E(K.STATEMENT_TIMEOUT, "57014"),
        sql("SET statement_timeout = '50ms'", "SELECT pg_sleep(2)"),
    ),
    PgCase("query_canceled", E(K.QUERY_CANCELED, "57014"), _canceled),
    PgCase("use_after_close", E(K.CONNECTION_LOST), _closed),
    PgCase("too_many_connections_for_role", E(K.TOO_MANY_CONNECTIONS, "53300"), _too_many),
    PgCase("wrong_password", E(K.INVALID_PASSWORD, "28P01"), _wrong_password),
    PgCase(
        "unknown_database",
        E(K.UNDEFINED_DATABASE, "3D000"),
        _connect(dbname="lde_pg_no_such_database"),
    ),
    PgCase(
        "unknown_role", E(K.INVALID_AUTHORIZATION, "28000"), _connect(user="lde_pg_no_such_role")
    ),
    # asyncpg lets the socket's ConnectionRefusedError (a built-in) through:
    # nothing in it names a backend, so the caller says which one.
    PgCase(
        "connection_refused",
        E(K.CONNECTION_FAILURE),
        _refused,
        db_type={"asyncpg": "postgresql", "sqlalchemy+asyncpg": "postgresql"},
    ),
    # psycopg2 reads the server's FATAL only as a closed socket; asyncpg
    # reports the reason inside its own 08003.
    PgCase(
        "admin_shutdown",
        E(K.ADMIN_SHUTDOWN, "57P01"),
        _terminated,
        per_driver={
            "psycopg2": E(K.CONNECTION_LOST),
            "sqlalchemy+psycopg2": E(K.CONNECTION_LOST),
            "asyncpg": E(K.ADMIN_SHUTDOWN, "08003"),
            "sqlalchemy+asyncpg": E(K.ADMIN_SHUTDOWN, "08003"),
        },
    ),
    # psycopg2 formats parameters itself and raises a built-in IndexError.
    PgCase(
        "wrong_bind_count",
        E(K.INVALID_PARAMETER),
        _bind_count,
        db_type={"psycopg2": "postgresql", "sqlalchemy+psycopg2": "postgresql"},
    ),
    PgCase(
        "pool_exhausted",
        E(K.TOO_MANY_CONNECTIONS),
        _pool_exhausted,
        only=frozenset({"psycopg2"}) | _SYNC_SQLALCHEMY,
    ),
)


def trigger(ctx: Context, case: PgCase, driver: Driver) -> BaseException:
    """
    Run *case* through *driver* and return the exception it raised.

    Raises:
        AssertionError: When the case did not fail.
    """
    try:
        case.run(ctx, driver)
    except Exception as exc:
        return exc
    msg = f"case {case.name} did not fail through {driver.name}"
    raise AssertionError(msg)


def collect() -> Iterator[CorpusCase]:
    """Yield every case through every installed driver, as real exceptions."""
    ctx = Context().open()
    try:
        for case in CASES:
            for driver in drivers():
                if not case.applies_to(driver):
                    continue
                yield CorpusCase(
                    backend="postgresql",
                    driver=driver.name,
                    name=case.name,
                    exception=trigger(ctx, case, driver),
                    expected=case.expected_for(driver),
                    db_type=case.db_type.get(driver.name),
                )
    finally:
        ctx.close()
