"""
MySQL/MariaDB corpus: every case triggered for real on the running server, through every driver.

The drivers: pymysql, mysqlclient (``MySQLdb``), mysql-connector-python,
MariaDB Connector/Python and aiomysql, each also through SQLAlchemy
(``mysql+pymysql``, ``mysql+mysqldb``, ``mysql+mysqlconnector``,
``mysql+aiomysql``, ``mariadb+mariadbconnector``).

:func:`environment` creates a uniquely named database (``lde_mysql_<hex>``)
and two throw-away users, and drops them all afterwards.  :data:`SPECS` says,
for each case, how to trigger it and what a correct answer says;
:func:`trigger` runs one case through one driver and returns the exception.
The tests (``tests/integration/test_mysql_server.py``) and :func:`collect`
share these, so they can never disagree.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from localdata_errors import Kind
from tests.corpus import CorpusCase, Expected

__all__ = [
    "DRIVERS",
    "SPECS",
    "Driver",
    "Env",
    "Spec",
    "collect",
    "db_type_for",
    "environment",
    "trigger",
]

HOST = os.environ.get("LOCALDATA_ERRORS_MYSQL_HOST", "127.0.0.1")
# How long a connect waits for the server (seconds): generous, as for
# PostgreSQL (tests/corpus/postgresql.py's CONNECT_TIMEOUT).  A case that
# expects the server's verdict at connect (access denied, an unknown
# database) must get it; on a loaded machine a short timeout expires first
# and the driver's own timeout is another reply to the same trigger.
CONNECT_TIMEOUT = 30
PORT = int(os.environ.get("LOCALDATA_ERRORS_MYSQL_PORT", "3306"))
USER = os.environ.get("LOCALDATA_ERRORS_MYSQL_USER", "root")
PASSWORD = os.environ.get("LOCALDATA_ERRORS_MYSQL_PASSWORD", "")


class CaseDidNotFailError(AssertionError):
    """A case's statement succeeded: the server does not behave as the case assumes."""


@dataclass(frozen=True)
class Driver:
    """One way to reach the server: a DB-API driver, or SQLAlchemy over one."""

    name: str
    module: str
    api: str  # "dbapi", "aiomysql", "sqlalchemy" or "sqlalchemy-async"
    url: str = ""

    def available(self) -> bool:
        """Whether the driver (and SQLAlchemy, where used) can be imported."""
        needed = [self.module] + (["sqlalchemy"] if self.url else [])
        if self.api == "sqlalchemy-async":
            needed.append("greenlet")
        return all(importlib.util.find_spec(m) is not None for m in needed)


DRIVERS: tuple[Driver, ...] = (
    Driver("pymysql", "pymysql", "dbapi"),
    Driver("mysqlclient", "MySQLdb", "dbapi"),
    Driver("mysql-connector", "mysql.connector", "dbapi"),
    Driver("mariadb", "mariadb", "dbapi"),
    Driver("aiomysql", "aiomysql", "aiomysql"),
    Driver("sqlalchemy+pymysql", "pymysql", "sqlalchemy", "mysql+pymysql"),
    Driver("sqlalchemy+mysqldb", "MySQLdb", "sqlalchemy", "mysql+mysqldb"),
    Driver("sqlalchemy+mysqlconnector", "mysql.connector", "sqlalchemy", "mysql+mysqlconnector"),
    Driver("sqlalchemy+aiomysql", "aiomysql", "sqlalchemy-async", "mysql+aiomysql"),
    Driver("sqlalchemy+mariadbconnector", "mariadb", "sqlalchemy", "mariadb+mariadbconnector"),
)


# -- sessions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Login:
    """Who connects, to what."""

    user: str = USER
    password: str = PASSWORD
    database: str | None = None
    port: int = PORT


class Session:
    """One open connection through one driver; ``execute`` raises what the driver raises."""

    def execute(self, sql: str, params: tuple[Any, ...] | None = None) -> Any:
        """Run *sql*; return its rows (or ``None``)."""
        raise NotImplementedError

    def close(self) -> None:
        """Close quietly: after a KILL the driver may complain."""
        raise NotImplementedError

    def value(self, sql: str) -> Any:
        """The first column of the first row."""
        rows = self.execute(sql)
        return rows[0][0]


def _dbapi_connect(module: str, login: Login) -> Any:
    mod = importlib.import_module(module)
    kwargs: dict[str, Any] = {
        "host": HOST,
        "port": login.port,
        "user": login.user,
        "password": login.password,
    }
    if login.database is not None:
        kwargs["database"] = login.database
    if module == "mysql.connector":
        kwargs["connection_timeout"] = CONNECT_TIMEOUT
    else:
        kwargs["connect_timeout"] = CONNECT_TIMEOUT
    return mod.connect(**kwargs)


class DbapiSession(Session):
    """A synchronous DB-API connection."""

    def __init__(self, module: str, login: Login) -> None:
        self.conn = _dbapi_connect(module, login)
        self.cursor = self.conn.cursor()

    def execute(self, sql: str, params: tuple[Any, ...] | None = None) -> Any:
        """Run *sql* on the cursor."""
        if params is None:
            self.cursor.execute(sql)
        else:
            self.cursor.execute(sql, params)
        return self.cursor.fetchall() if self.cursor.description else None

    def close(self) -> None:
        """Roll back and close."""
        for action in (self.conn.rollback, self.cursor.close, self.conn.close):
            with contextlib.suppress(Exception):
                action()


class AiomysqlSession(Session):
    """An aiomysql connection driven by its own event loop."""

    def __init__(self, login: Login) -> None:
        aiomysql = importlib.import_module("aiomysql")
        self.loop = asyncio.new_event_loop()
        try:
            self.conn = self.loop.run_until_complete(
                aiomysql.connect(
                    host=HOST,
                    port=login.port,
                    user=login.user,
                    password=login.password,
                    db=login.database,
                    connect_timeout=CONNECT_TIMEOUT,
                )
            )
        except BaseException:
            self.loop.close()
            raise

    def execute(self, sql: str, params: tuple[Any, ...] | None = None) -> Any:
        """Run *sql* on a fresh cursor."""

        async def run() -> Any:
            async with self.conn.cursor() as cur:
                await cur.execute(sql, params)
                return await cur.fetchall() if cur.description else None

        return self.loop.run_until_complete(run())

    def close(self) -> None:
        """Close the connection, then the loop."""
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(self.conn.ensure_closed())
        with contextlib.suppress(Exception):
            self.conn.close()
        self.loop.close()


class SqlalchemySession(Session):
    """A SQLAlchemy connection (synchronous engine)."""

    def __init__(self, engine: Any) -> None:
        self.conn = engine.connect()

    def execute(self, sql: str, params: tuple[Any, ...] | None = None) -> Any:
        """Run *sql* through ``exec_driver_sql``."""
        result = (
            self.conn.exec_driver_sql(sql, params) if params else self.conn.exec_driver_sql(sql)
        )
        return result.fetchall() if result.returns_rows else None

    def close(self) -> None:
        """Roll back and close."""
        for action in (self.conn.rollback, self.conn.close):
            with contextlib.suppress(Exception):
                action()


class AsyncSqlalchemySession(Session):
    """A SQLAlchemy ``AsyncConnection``, driven by its own event loop."""

    def __init__(self, url: Any) -> None:
        from sqlalchemy.ext.asyncio import create_async_engine
        from sqlalchemy.pool import NullPool

        self.loop = asyncio.new_event_loop()
        self.engine = create_async_engine(url, poolclass=NullPool)
        try:
            self.conn = self.loop.run_until_complete(self.engine.connect())
        except BaseException:
            self.loop.run_until_complete(self.engine.dispose())
            self.loop.close()
            raise

    def execute(self, sql: str, params: tuple[Any, ...] | None = None) -> Any:
        """Run *sql* through ``exec_driver_sql``."""

        async def run() -> Any:
            result = await (
                self.conn.exec_driver_sql(sql, params) if params else self.conn.exec_driver_sql(sql)
            )
            return result.fetchall() if result.returns_rows else None

        return self.loop.run_until_complete(run())

    def close(self) -> None:
        """Roll back, close, dispose the engine, close the loop."""
        for step in (self.conn.rollback, self.conn.close, self.engine.dispose):
            with contextlib.suppress(Exception):
                self.loop.run_until_complete(step())
        self.loop.close()


# -- the environment ------------------------------------------------------------------


@dataclass
class Env:
    """The database and users one run created, and the engines it opened."""

    database: str
    password_user: str
    password: str
    limited_user: str
    closed_port: int
    engines: dict[tuple[str, Login], Any] = field(default_factory=dict)

    def login(self, **changes: Any) -> Login:
        """Root on this run's database, with *changes*."""
        return Login(**{"database": self.database, **changes})

    def connect(self, driver: Driver, login: Login | None = None) -> Session:
        """Open a session through *driver*."""
        login = login or self.login()
        if driver.api == "dbapi":
            return DbapiSession(driver.module, login)
        if driver.api == "aiomysql":
            return AiomysqlSession(login)
        from sqlalchemy import URL

        url = URL.create(
            driver.url,
            username=login.user,
            password=login.password,
            host=HOST,
            port=login.port,
            database=login.database,
        )
        if driver.api == "sqlalchemy-async":
            return AsyncSqlalchemySession(url)
        key = (driver.url, login)
        if key not in self.engines:
            from sqlalchemy import create_engine
            from sqlalchemy.pool import NullPool

            self.engines[key] = create_engine(url, poolclass=NullPool)
        return SqlalchemySession(self.engines[key])


_SCHEMA = (
    "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, email VARCHAR(50),"
    " UNIQUE KEY uq_email (email), KEY idx_name (name))",
    "CREATE TABLE sales (id INT PRIMARY KEY, customer_id INT NOT NULL,"
    " CONSTRAINT fk_sales_customer FOREIGN KEY (customer_id) REFERENCES customers (id))",
    "CREATE TABLE products (id INT PRIMARY KEY, price INT, qty TINYINT, made DATE,"
    " CONSTRAINT chk_price CHECK (price >= 0))",
    "CREATE TABLE `Ünïcode Mixed` (`Straße` INT PRIMARY KEY)",
    "CREATE TABLE locks (id INT PRIMARY KEY, v INT)",
    # Odd names: the server prints a quote inside a quoted name bare ('k'ey').
    "CREATE TABLE `we'ird` (id INT PRIMARY KEY, `na'me` VARCHAR(20), UNIQUE KEY `k'ey` (`na'me`))",
    "INSERT INTO customers VALUES (1, 'a', 'a@x'), (2, 'b', 'b@x')",
    "INSERT INTO sales VALUES (1, 1)",
    "INSERT INTO `Ünïcode Mixed` VALUES (1)",
    "INSERT INTO locks VALUES (1, 0), (2, 0)",
    "INSERT INTO `we'ird` VALUES (1, 'O''Brien')",
)


def _closed_port() -> int:
    # A port the kernel just handed out and that nothing listens on any more.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
    return port


@contextlib.contextmanager
def environment() -> Iterator[Env]:
    """
    Create this run's database and users; drop them (and only them) afterwards.

    Yields:
        The :class:`Env` the cases run in.
    """
    pymysql = importlib.import_module("pymysql")
    tag = secrets.token_hex(4)
    env = Env(
        database=f"lde_mysql_{tag}",
        password_user=f"lde_mysql_{tag}_pw",
        password=secrets.token_urlsafe(12),
        limited_user=f"lde_mysql_{tag}_lim",
        closed_port=_closed_port(),
    )
    admin = pymysql.connect(host=HOST, port=PORT, user=USER, password=PASSWORD, autocommit=True)
    try:
        with admin.cursor() as cur:
            cur.execute(f"CREATE DATABASE `{env.database}` CHARACTER SET utf8mb4")
            cur.execute(f"CREATE USER '{env.password_user}'@'%%' IDENTIFIED BY %s", (env.password,))
            cur.execute(
                f"CREATE USER '{env.limited_user}'@'%%' IDENTIFIED BY %s"
                " WITH MAX_USER_CONNECTIONS 1",
                (env.password,),
            )
            cur.execute(f"USE `{env.database}`")
            for statement in _SCHEMA:
                cur.execute(statement)
        yield env
    finally:
        for engine in env.engines.values():
            engine.dispose()
        with admin.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS `{env.database}`")
            cur.execute(f"DROP USER IF EXISTS '{env.password_user}'@'%'")
            cur.execute(f"DROP USER IF EXISTS '{env.limited_user}'@'%'")
        admin.close()


# -- the cases ---------------------------------------------------------------------

Run = Callable[[Env, Driver], None]


@dataclass(frozen=True)
class Spec:
    """One case: how to trigger it and what a correct answer says."""

    name: str
    expected: Expected
    run: Run


def _statement(sql: str, *before: str, params: tuple[Any, ...] | None = None) -> Run:
    """Run *before* then *sql* as root on this run's database."""

    def run(env: Env, driver: Driver) -> None:
        session = env.connect(driver)
        try:
            for statement in before:
                session.execute(statement.format(db=env.database))
            session.execute(sql.format(db=env.database), params)
        finally:
            session.close()

    return run


def _as_user(sql: str) -> Run:
    """Run *sql* as the user without privileges."""

    def run(env: Env, driver: Driver) -> None:
        session = env.connect(driver, Login(env.password_user, env.password))
        try:
            session.execute(sql.format(db=env.database))
        finally:
            session.close()

    return run


def _connect(**login: Any) -> Callable[[Env], Login]:
    return lambda env: Login(**{k: (v(env) if callable(v) else v) for k, v in login.items()})


def _connecting(make_login: Callable[[Env], Login]) -> Run:
    """Open (and close) one connection with the given login."""

    def run(env: Env, driver: Driver) -> None:
        env.connect(driver, make_login(env)).close()

    return run


def _too_many_connections(env: Env, driver: Driver) -> None:
    # The user may hold one connection; hold it, then open a second.
    pymysql = importlib.import_module("pymysql")
    held = pymysql.connect(host=HOST, port=PORT, user=env.limited_user, password=env.password)
    try:
        env.connect(driver, Login(env.limited_user, env.password)).close()
    finally:
        held.close()


def _locked(sql: str, *before: str) -> Run:
    """Hold row 1 of ``locks`` in another transaction, then run *sql*."""

    def run(env: Env, driver: Driver) -> None:
        holder = DbapiSession("pymysql", env.login())
        session = env.connect(driver)
        try:
            holder.execute("BEGIN")
            holder.execute("SELECT * FROM locks WHERE id = 1 FOR UPDATE")
            for statement in before:
                session.execute(statement)
            session.execute("BEGIN")
            session.execute(sql)
        finally:
            session.close()
            holder.close()

    return run


def _wait_for_lock_wait(
    env: Env, connection_id: int, statement: str, errors: list[BaseException], limit: float = 20.0
) -> None:
    # The witness is the process list: the helper's connection running the
    # statement that cannot finish while the session holds its row.
    # (information_schema.INNODB_TRX was seen on MariaDB 10.11 to leave such a
    # waiting transaction out at times.)
    monitor = DbapiSession("pymysql", env.login())
    try:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if errors:
                raise CaseDidNotFailError(
                    f"{statement!r} failed before the deadlock: {errors[0]!r}"
                )
            running = monitor.execute(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = %s AND INFO = %s",
                (connection_id, statement),
            )
            if running[0][0]:
                return
            time.sleep(0.01)
        raise CaseDidNotFailError(f"{statement!r} never waited for its lock")
    finally:
        monitor.close()


DEADLOCK_PAUSE = 1.5
#: When this process's last deadlock attempt ended (`time.monotonic`).
_LAST_DEADLOCK = [float("-inf")]


def _deadlock(env: Env, driver: Driver) -> None:
    # A helper (pymysql, in a thread) locks row 1 and a batch of others, the session
    # under test locks row 2; the helper waits for row 2 (seen on the server by its
    # statement), then the session asks for row 1.  InnoDB detects the cycle and rolls
    # back the lighter transaction: the session's, which changed one row.  Each
    # attempt uses a table of its own so nothing earlier attempts left can interfere.
    # Back-to-back deadlocks within about a second were observed on MariaDB 10.11 to end
    # in a lock-wait timeout instead of a detected deadlock; a pause keeps each
    # attempt a clean, first deadlock: 1.5 s since this process's last one ended
    # (the tests run the other cases in between, so this rarely waits).
    time.sleep(max(0.0, _LAST_DEADLOCK[0] + DEADLOCK_PAUSE - time.monotonic()))
    table = f"deadlock_{secrets.token_hex(4)}"
    helper = DbapiSession("pymysql", env.login())
    helper_id = int(helper.value("SELECT CONNECTION_ID()"))
    helper.execute(f"CREATE TABLE {table} (id INT PRIMARY KEY, v INT)")
    helper.execute(f"INSERT INTO {table} VALUES " + ", ".join(f"({i}, 0)" for i in range(1, 23)))
    helper.conn.commit()
    session = env.connect(driver)
    waits = f"UPDATE {table} SET v = v + 1 WHERE id = 2"
    helper_errors: list[BaseException] = []

    def helper_waits() -> None:
        try:
            helper.execute(waits)
        except Exception as exc:
            helper_errors.append(exc)

    waiter = threading.Thread(target=helper_waits)
    try:
        # Long enough that the helper's wait cannot time out before the session
        # closes the cycle, however slow the machine: a helper that gave up first
        # would leave the session a plain lock wait (1205), not a deadlock.
        helper.execute("SET SESSION innodb_lock_wait_timeout = 60")
        helper.execute("BEGIN")
        helper.execute(f"UPDATE {table} SET v = v + 1 WHERE id = 1 OR id > 2")
        session.execute("BEGIN")
        session.execute(f"UPDATE {table} SET v = v + 1 WHERE id = 2")
        waiter.start()
        _wait_for_lock_wait(env, helper_id, waits, helper_errors)
        session.execute(f"UPDATE {table} SET v = v + 1 WHERE id = 1")
    finally:
        # Closing the session releases its locks, so the helper's statement ends.
        session.close()
        if waiter.ident is not None:
            waiter.join(30)
        helper.close()
        dropper = DbapiSession("pymysql", env.login())
        try:
            dropper.execute(f"DROP TABLE IF EXISTS {table}")
        finally:
            dropper.close()
            _LAST_DEADLOCK[0] = time.monotonic()


def _killed(env: Env, driver: Driver) -> None:
    # Another connection kills this one between two statements.
    session = env.connect(driver)
    admin = DbapiSession("pymysql", env.login())
    try:
        victim = session.value("SELECT CONNECTION_ID()")
        admin.execute(f"KILL CONNECTION {int(victim)}")
        session.execute("SELECT 1")
    finally:
        admin.close()
        session.close()


_STRICT = "SET SESSION sql_mode = 'STRICT_ALL_TABLES'"
_NO_SUCH_DB = "lde_mysql_no_such_database"


def _e(
    kind: Kind,
    code: str | None = None,
    *resources: str,
    deps: Sequence[str] = (),
    constraint: str | None = None,
    absent: Sequence[str] = (),
) -> Expected:
    return Expected(
        kind=kind,
        code=code,
        resources=tuple(resources),
        dependencies=tuple(deps),
        constraint=constraint,
        absent=tuple(absent),
    )


K = Kind
SPECS: tuple[Spec, ...] = (
    # missing objects
    Spec(
        "undefined_table",
        _e(K.UNDEFINED_TABLE, "1146", "no_such_table"),
        _statement("SELECT * FROM no_such_table"),
    ),
    Spec(
        "undefined_table_qualified_unicode",
        _e(K.UNDEFINED_TABLE, "1146", "Missing_Ünï"),
        _statement("SELECT * FROM `{db}`.`Missing_Ünï`"),
    ),
    Spec(
        "drop_missing_table",
        _e(K.UNDEFINED_TABLE, "1051", "no_such_table"),
        _statement("DROP TABLE no_such_table"),
    ),
    Spec(
        "drop_missing_view",
        _e(K.UNDEFINED_TABLE, "4092", "customers"),
        _statement("DROP VIEW customers"),
    ),
    Spec(
        "undefined_column",
        _e(K.UNDEFINED_COLUMN, "1054", "nope"),
        _statement("SELECT nope FROM customers"),
    ),
    # "Unknown column 'c.nope'": c is an alias, not a name.
    Spec(
        "undefined_column_qualified",
        _e(K.UNDEFINED_COLUMN, "1054", "nope", absent=["c", "c.nope"]),
        _statement("SELECT c.nope FROM customers c"),
    ),
    # "Unknown column 'lde_mysql_....customers.nope'": a database's table, not an alias.
    Spec(
        "undefined_column_database_qualified",
        _e(K.UNDEFINED_COLUMN, "1054", "nope", "customers"),
        _statement("SELECT `{db}`.customers.nope FROM customers"),
    ),
    # "Table 'lde_mysql_....no'such' doesn't exist": the quote inside is the name's.
    Spec(
        "undefined_table_quote_in_name",
        _e(K.UNDEFINED_TABLE, "1146", "no'such"),
        _statement("SELECT * FROM `no'such`"),
    ),
    Spec(
        "undefined_column_quote_in_name",
        _e(K.UNDEFINED_COLUMN, "1054", "zz'z"),
        _statement("SELECT `zz'z` FROM customers"),
    ),
    Spec(
        "undefined_column_where_backticks",
        _e(K.UNDEFINED_COLUMN, "1054", "Wëird Col"),
        _statement("SELECT id FROM customers WHERE `Wëird Col` = 1"),
    ),
    Spec(
        "undefined_database_use",
        _e(K.UNDEFINED_DATABASE, "1049", _NO_SUCH_DB),
        _statement(f"USE {_NO_SUCH_DB}"),
    ),
    Spec(
        "undefined_database_connect",
        _e(K.UNDEFINED_DATABASE, "1049", _NO_SUCH_DB),
        _connecting(_connect(database=_NO_SUCH_DB)),
    ),
    Spec(
        "undefined_function",
        _e(K.UNDEFINED_FUNCTION, "1305", "lde_no_such_fn"),
        _statement("SELECT lde_no_such_fn(1)"),
    ),
    Spec(
        "drop_missing_column",
        _e(K.UNDEFINED_OBJECT, "1091", "nope"),
        _statement("ALTER TABLE customers DROP COLUMN nope"),
    ),
    Spec(
        "unknown_system_variable",
        _e(K.UNDEFINED_OBJECT, "1193", "lde_nope"),
        _statement("SET @@lde_nope = 1"),
    ),
    # the statement
    Spec("syntax_error", _e(K.SYNTAX_ERROR, "1064"), _statement("SELEC 1")),
    Spec(
        "column_count_mismatch",
        _e(K.SYNTAX_ERROR, "1136"),
        _statement("INSERT INTO customers (id, name) VALUES (1)"),
    ),
    Spec(
        "ambiguous_column",
        _e(K.AMBIGUOUS_COLUMN, "1052", "id"),
        _statement("SELECT id FROM customers JOIN sales ON 1 = 1"),
    ),
    Spec(
        "grouping_error",
        _e(K.GROUPING_ERROR, "1055", "id"),
        _statement(
            "SELECT id, COUNT(*) FROM customers GROUP BY name",
            "SET SESSION sql_mode = 'ONLY_FULL_GROUP_BY'",
        ),
    ),
    Spec(
        "subquery_more_than_one_row",
        _e(K.CARDINALITY_VIOLATION, "1242"),
        _statement("SELECT (SELECT id FROM customers)"),
    ),
    Spec(
        "row_compared_to_scalar",
        _e(K.DATATYPE_MISMATCH, "4078"),
        _statement("SELECT 1 = (SELECT 1, 2)"),
    ),
    Spec(
        "wrong_arguments_execute",
        _e(K.INVALID_PARAMETER, "1210"),
        _statement("EXECUTE lde_stmt", "PREPARE lde_stmt FROM 'SELECT ?'"),
    ),
    Spec(
        "wrong_native_function_arguments",
        _e(K.INVALID_PARAMETER, "1582"),
        _statement("SELECT CONCAT_WS()"),
    ),
    Spec("wrong_bind_count", _e(K.INVALID_PARAMETER), _statement("SELECT %s, %s", params=(1,))),
    # objects that exist
    Spec(
        "duplicate_table",
        _e(K.DUPLICATE_TABLE, "1050", "customers"),
        _statement("CREATE TABLE customers (id INT)"),
    ),
    Spec(
        "duplicate_column",
        _e(K.DUPLICATE_COLUMN, "1060", "name"),
        _statement("ALTER TABLE customers ADD COLUMN name INT"),
    ),
    Spec(
        "duplicate_column_in_create",
        _e(K.DUPLICATE_COLUMN, "1060", "a"),
        _statement("CREATE TABLE lde_dup_col (a INT, a INT)"),
    ),
    Spec(
        "duplicate_key_name",
        _e(K.DUPLICATE_OBJECT, "1061", "idx_name"),
        _statement("ALTER TABLE customers ADD INDEX idx_name (email)"),
    ),
    Spec(
        "duplicate_database", _e(K.DUPLICATE_DATABASE, "1007"), _statement("CREATE DATABASE `{db}`")
    ),
    # constraints
    Spec(
        "unique_violation_primary",
        _e(K.UNIQUE_VIOLATION, "1062", constraint="PRIMARY"),
        _statement("INSERT INTO customers (id, name) VALUES (1, 'x')"),
    ),
    Spec(
        "unique_violation_key",
        _e(K.UNIQUE_VIOLATION, "1062", constraint="uq_email", absent=["a@x"]),
        _statement("INSERT INTO customers (id, name, email) VALUES (99, 'z', 'a@x')"),
    ),
    # "Duplicate entry 'O'Brien' for key 'k'ey'": the entry is data, the key a name.
    Spec(
        "unique_violation_quotes_in_value_and_key",
        _e(K.UNIQUE_VIOLATION, "1062", "k'ey", constraint="k'ey", absent=["O'Brien", "O"]),
        _statement("INSERT INTO `we'ird` VALUES (2, 'O''Brien')"),
    ),
    Spec(
        "unique_violation_unicode",
        _e(K.UNIQUE_VIOLATION, "1062", constraint="PRIMARY"),
        _statement("INSERT INTO `Ünïcode Mixed` (`Straße`) VALUES (1)"),
    ),
    Spec(
        "not_null_violation",
        _e(K.NOT_NULL_VIOLATION, "1048", "name"),
        _statement("INSERT INTO customers (id, name) VALUES (50, NULL)"),
    ),
    Spec(
        "no_default_value",
        _e(K.NOT_NULL_VIOLATION, "1364", "customer_id"),
        _statement("INSERT INTO sales (id) VALUES (5)", _STRICT),
    ),
    Spec(
        "foreign_key_child_insert",
        _e(
            K.FOREIGN_KEY_VIOLATION,
            "1452",
            "sales",
            deps=["customers"],
            constraint="fk_sales_customer",
        ),
        _statement("INSERT INTO sales (id, customer_id) VALUES (10, 999)"),
    ),
    Spec(
        "foreign_key_parent_delete",
        _e(
            K.FOREIGN_KEY_VIOLATION,
            "1451",
            "customers",
            deps=["sales"],
            constraint="fk_sales_customer",
        ),
        _statement("DELETE FROM customers WHERE id = 1"),
    ),
    Spec(
        "foreign_key_parent_update",
        _e(
            K.FOREIGN_KEY_VIOLATION,
            "1451",
            "customers",
            deps=["sales"],
            constraint="fk_sales_customer",
        ),
        _statement("UPDATE customers SET id = 77 WHERE id = 1"),
    ),
    # MariaDB answers DROP TABLE of a referenced parent with a bare 1451 (no names).
    Spec(
        "foreign_key_drop_parent",
        _e(K.FOREIGN_KEY_VIOLATION, "1451"),
        _statement("DROP TABLE customers"),
    ),
    Spec(
        "foreign_key_truncate_parent",
        _e(
            K.DEPENDENT_OBJECTS_STILL_EXIST,
            "1701",
            "customers",
            deps=["sales"],
            constraint="fk_sales_customer",
        ),
        _statement("TRUNCATE TABLE customers"),
    ),
    Spec(
        "foreign_key_drop_index",
        _e(K.DEPENDENT_OBJECTS_STILL_EXIST, "1553", "fk_sales_customer"),
        _statement("ALTER TABLE sales DROP INDEX fk_sales_customer"),
    ),
    Spec(
        "foreign_key_change_parent_column",
        _e(
            K.DEPENDENT_OBJECTS_STILL_EXIST,
            "1833",
            "id",
            deps=["sales"],
            constraint="fk_sales_customer",
        ),
        _statement("ALTER TABLE customers MODIFY id BIGINT"),
    ),
    Spec(
        "check_violation",
        _e(K.CHECK_VIOLATION, "4025", "products", constraint="chk_price"),
        _statement("INSERT INTO products (id, price) VALUES (1, -5)"),
    ),
    # the data
    Spec(
        "value_too_long",
        _e(K.STRING_DATA_RIGHT_TRUNCATION, "1406", "name"),
        _statement("INSERT INTO customers (id, name) VALUES (60, REPEAT('x', 300))", _STRICT),
    ),
    Spec(
        "numeric_out_of_range",
        _e(K.NUMERIC_VALUE_OUT_OF_RANGE, "1264", "qty"),
        _statement("INSERT INTO products (id, qty) VALUES (2, 100000)", _STRICT),
    ),
    Spec(
        "invalid_integer",
        _e(K.INVALID_TEXT_REPRESENTATION, "1366", "qty", "products"),
        _statement("INSERT INTO products (id, qty) VALUES (3, 'abc')", _STRICT),
    ),
    Spec(
        "invalid_date",
        _e(K.INVALID_DATETIME_FORMAT, "1292", "made", "products"),
        _statement("INSERT INTO products (id, made) VALUES (4, 'not-a-date')", _STRICT),
    ),
    Spec(
        "division_by_zero",
        _e(K.DIVISION_BY_ZERO, "1365"),
        _statement(
            "INSERT INTO products (id, qty) VALUES (5, 1 / 0)",
            "SET SESSION sql_mode = 'STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO'",
        ),
    ),
    # read-only, locks, timeouts
    Spec(
        "read_only_transaction",
        _e(K.READ_ONLY, "1792"),
        _statement("UPDATE customers SET name = 'q' WHERE id = 2", "START TRANSACTION READ ONLY"),
    ),
    Spec(
        "lock_wait_timeout",
        _e(K.LOCK_NOT_AVAILABLE, "1205"),
        _locked("UPDATE locks SET v = 1 WHERE id = 1", "SET innodb_lock_wait_timeout = 1"),
    ),
    Spec(
        "lock_nowait",
        _e(K.LOCK_NOT_AVAILABLE, "1205"),
        _locked("SELECT * FROM locks WHERE id = 1 FOR UPDATE NOWAIT"),
    ),
    Spec("deadlock", _e(K.DEADLOCK_DETECTED, "1213"), _deadlock),
    Spec(
        "statement_timeout",
        _e(K.STATEMENT_TIMEOUT, "1969"),
        _statement("SELECT SLEEP(1)", "SET SESSION max_statement_time = 0.05"),
    ),
    # who may do what
    Spec(
        "wrong_password",
        _e(K.INVALID_PASSWORD, "1045"),
        _connecting(lambda env: Login(env.password_user, env.password + "-wrong")),
    ),
    Spec(
        "no_privilege_on_table",
        _e(K.INSUFFICIENT_PRIVILEGE, "1142", "customers"),
        _as_user("SELECT * FROM `{db}`.customers"),
    ),
    Spec("no_privilege_global", _e(K.INSUFFICIENT_PRIVILEGE, "1227"), _as_user("FLUSH TABLES")),
    Spec(
        "no_privilege_on_database",
        _e(K.INSUFFICIENT_PRIVILEGE, "1044"),
        _connecting(lambda env: Login(env.password_user, env.password, env.database)),
    ),
    Spec("too_many_user_connections", _e(K.TOO_MANY_CONNECTIONS, "1226"), _too_many_connections),
    # the connection
    Spec(
        "connection_refused",
        _e(K.CONNECTION_FAILURE),
        _connecting(lambda env: Login(port=env.closed_port)),
    ),
    Spec("connection_killed", _e(K.CONNECTION_LOST), _killed),
)


def trigger(spec: Spec, env: Env, driver: Driver) -> BaseException:
    """
    Run one case through one driver.

    Returns:
        The exception the driver (or SQLAlchemy) raised.

    Raises:
        CaseDidNotFailError: The statement succeeded.
    """
    try:
        spec.run(env, driver)
    except Exception as exc:
        return exc
    raise CaseDidNotFailError(f"{spec.name} through {driver.name} raised nothing")


def db_type_for(exc: BaseException) -> str | None:
    """
    The ``db_type`` a caller passes for *exc*: ``"mysql"`` for a plain Python exception.

    aiomysql formats parameters itself and lets Python's ``TypeError`` escape:
    nothing on it names a driver, so only a caller who knows the backend can
    say it; every driver exception is detected without help.
    """
    return "mysql" if type(exc).__module__ == "builtins" else None


def collect() -> Iterator[CorpusCase]:
    """
    Every case through every installed driver, triggered on the running server.

    Yields:
        One :class:`CorpusCase` per (case, driver).
    """
    drivers = [d for d in DRIVERS if d.available()]
    with environment() as env:
        for driver in drivers:
            for spec in SPECS:
                exc = trigger(spec, env, driver)
                yield CorpusCase(
                    backend="mysql",
                    driver=driver.name,
                    name=spec.name,
                    exception=exc,
                    expected=spec.expected,
                    db_type=db_type_for(exc),
                )
