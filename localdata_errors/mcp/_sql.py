"""
The database behind the SQL tool server: checked identifiers, bound values, limits.

Every identifier a caller sends (table, column, order-by column) is looked up
in the schema SQLAlchemy introspects (`localdata_errors.mcp._schema`) and
used as the introspected object, so SQLAlchemy quotes it; no caller text is
ever interpolated into SQL.  Every value is bound.  Read-only mode has two
layers, always both: a statement runs only when its parse proves it reads
(`localdata_errors.mcp._readonly`), and the database itself refuses writes
(`localdata_errors.mcp._engine`).

The statement timeout is the engine's own, set inside each call, and each
call ends in a clean session (`localdata_errors.mcp._session`).  Waiting
for a pooled connection has its own limit, the same number of seconds:
running out of it is ``too_many_connections``, not a statement timeout.

Each call runs in its own transaction on a pooled connection; a connection
is rolled back and reset when the call ends and checked when it leaves the
pool (`Database`'s checkout guard), so no call inherits a failed
transaction, nor anything another call left in the session.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Final
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from localdata_errors._backends import extra_for_driver
from localdata_errors._kinds import Kind
from localdata_errors._redact import redact
from localdata_errors.mcp import _engine, _schema, _session
from localdata_errors.mcp._results import ToolInputError, make_response
from localdata_errors.mcp._session import StatementTimeoutError
from localdata_errors.mcp._settings import DEFAULT_MAX_BYTES, MIN_MAX_BYTES, ServerSettings
from localdata_errors.mcp._statements import Statement, to_named_placeholders

__all__ = [
    "OPERATORS",
    "CallState",
    "Database",
    "DatabaseURLError",
    "StatementTimeoutError",
    "jsonable",
]

logger = logging.getLogger("localdata_errors.mcp.server")

JSONDict = dict[str, Any]

#: The filter operators ``select_rows``, ``update_rows`` and ``delete_rows`` accept.
OPERATORS: Final = ("=", "!=", "<", "<=", ">", ">=", "like", "in", "is_null", "not_null")
_TRUE: Final = frozenset({"true", "t", "yes", "y", "1", "on"})
_FALSE: Final = frozenset({"false", "f", "no", "n", "0", "off"})
_MAX_IN_VALUES: Final = 1000
# libpq's transaction states, as psycopg 3 (`info.transaction_status`) and
# psycopg2 (`get_transaction_status()`) report them without a round trip.
_PQ_IDLE: Final = 0
_PQ_INTRANS: Final = 2
_PQ_INERROR: Final = 3
_PQ_UNKNOWN: Final = 4
# Where the checkout guard leaves what it did, for the call to report.
_CLEANED: Final = "localdata_errors.cleaned"


class CallState:
    """
    Where a call's transaction is, and what the server did to give it a clean start.

    Attributes:
        stage: ``connect`` (taking a pooled connection), ``setup`` (the
            server's own settings: read-only, timeout), ``work`` (the call's
            statements), ``commit``, ``done``.
        notes: What the server recovered from before the work ran (a
            failed transaction found on the pooled connection, rolled back).
        keyword: The statement ``execute_sql`` is running, by its first word.
        text: That statement's text.
    """

    __slots__ = ("keyword", "notes", "stage", "text")

    def __init__(self) -> None:
        self.stage = "connect"
        self.notes: list[JSONDict] = []
        self.keyword = ""
        self.text = ""


def _transaction_status(dbapi_connection: Any) -> int | None:
    info = getattr(dbapi_connection, "info", None)
    status = getattr(info, "transaction_status", None)  # psycopg 3
    if status is None:
        get = getattr(dbapi_connection, "get_transaction_status", None)  # psycopg2
        status = get() if callable(get) else None
    try:
        return int(status) if status is not None else None
    except (TypeError, ValueError):
        return None


class DatabaseURLError(ValueError):
    """The database URL cannot be used: malformed, an unknown dialect, or its driver missing."""


def jsonable(value: Any) -> Any:
    """
    Convert a value read from the database into JSON.

    Args:
        value: A column value.

    Returns:
        Numbers, strings, booleans and ``None`` as they are; exact decimals as
        numbers when a float holds them exactly, else as strings; dates and
        times in ISO 8601; bytes as hex; anything else as its string.
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Decimal):
        as_float = float(value)
        return as_float if Decimal(repr(as_float)) == value else str(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return str(value)


def _python_type(column: sa.Column[Any]) -> type | None:
    try:
        return column.type.python_type
    except NotImplementedError:
        return None


def _convert(text: str, ptype: type) -> Any:
    stripped = text.strip()
    if ptype is bool:
        lower = stripped.lower()
        if lower in _TRUE:
            return True
        if lower in _FALSE:
            return False
        raise ValueError("not a boolean")
    if ptype is int:
        return int(stripped)
    if ptype is float:
        return float(stripped)
    if ptype is Decimal:
        number = Decimal(stripped)
        if not number.is_finite():
            raise ValueError("not a finite number")
        return number
    if ptype is datetime:
        return datetime.fromisoformat(stripped)
    if ptype is date:
        return date.fromisoformat(stripped)
    if ptype is time:
        return time.fromisoformat(stripped)
    if ptype is uuid.UUID:
        return uuid.UUID(stripped)
    return text


class Database:
    """
    One SQLAlchemy engine, with the tool server's checks and limits.

    Args:
        url: Any SQLAlchemy URL.
        read_only: Run every call read-only: the engine layer of
            ``localdata_errors.mcp._engine`` applies, and writing tools refuse.
        max_rows: The most rows any call returns.
        max_bytes: The most bytes of values any call holds and returns.
        timeout: The statement timeout in seconds (``None``: none), also the
            longest wait for a pooled connection (30 s without a timeout).
        allow_multi_statement: Let ``execute_sql`` run several statements.
        create: Create a SQLite or DuckDB file that does not exist; without
            it such a URL is a `DatabaseURLError` (a mistyped path is not a
            new, empty database).

    Raises:
        DatabaseURLError: The URL cannot be used.
    """

    def __init__(  # noqa: PLR0913 - the server's settings, keyword-only
        self,
        url: str,
        *,
        read_only: bool = False,
        max_rows: int = 1000,
        max_bytes: int = DEFAULT_MAX_BYTES,
        timeout: float | None = 30.0,
        allow_multi_statement: bool = False,
        create: bool = False,
    ) -> None:
        try:
            parsed = sa.make_url(url)
        except sa.exc.ArgumentError:
            # The message repeats the URL, password and all: say it without it.
            raise DatabaseURLError(
                "not a database URL; expected dialect[+driver]://user@host/database, "
                "e.g. sqlite:///app.db or postgresql+psycopg://app@localhost/shop"
            ) from None
        self.read_only = read_only
        self.max_rows = max(1, int(max_rows))
        self.max_bytes = max(MIN_MAX_BYTES, int(max_bytes))
        self.timeout = timeout if timeout and timeout > 0 else None
        self.allow_multi_statement = allow_multi_statement
        # The URL is logged with its password masked.  Errors are not masked
        # by the password's value: the drivers never echo it, the core masks a
        # credential by its shape wherever one appears, and masking what the
        # client's own statement echoes only when it holds the password would
        # tell a client sending guesses which one is right.
        password = (parsed.password,) if parsed.password else ()
        self.redacted_url = redact(parsed.render_as_string(hide_password=True), password)
        options: JSONDict = {"pool_pre_ping": parsed.get_backend_name() != "sqlite"}
        if parsed.get_backend_name() == "duckdb" and parsed.database not in (None, "", ":memory:"):
            # A DuckDB file admits one process at a time: open it per call, so
            # other programs can use it between calls.
            options["poolclass"] = sa.pool.NullPool
        if not create:
            parsed = self._existing_file(parsed)
        if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() == "psycopg":
            # Each call ends with DISCARD ALL, which deallocates the session's
            # prepared statements: psycopg must not keep names of its own for
            # them across calls.  Read-only mode prepares every statement
            # instead (`_engine`), and its rollback clears psycopg's names.
            options["connect_args"] = {"prepare_threshold": None}
        try:
            connect_url = _engine.engine_url_and_options(parsed, options) if read_only else parsed
            if _queued(connect_url, options):
                # No pooled connection within the timeout: too_many_connections.
                options["pool_timeout"] = self.timeout or 30.0
            self.engine: Engine = sa.create_engine(connect_url, **options)
        except sa.exc.NoSuchModuleError:
            raise DatabaseURLError(
                f"{self.redacted_url}: SQLAlchemy knows no dialect or driver {parsed.drivername!r}"
            ) from None
        except ImportError as exc:
            extra = extra_for_driver(parsed.get_backend_name(), parsed.get_driver_name()) or "all"
            raise DatabaseURLError(
                f"{self.redacted_url}: the driver is not installed ({exc.name or exc}); "
                f"pip install 'localdata-errors[{extra}]' brings the common ones"
            ) from None
        self.dialect = self.engine.dialect.name
        sa.event.listen(self.engine, "connect", self._on_connect)
        sa.event.listen(self.engine, "checkout", self._on_checkout)
        if read_only and self.dialect == "duckdb":
            sa.event.listen(self.engine, "before_cursor_execute", self._duckdb_reads_only)

    @classmethod
    def from_settings(cls, settings: ServerSettings) -> Database:
        """The database the server's settings name, with their limits."""
        return cls(
            settings.url,
            read_only=settings.read_only,
            max_rows=settings.max_rows,
            max_bytes=settings.max_bytes,
            timeout=settings.timeout,
            allow_multi_statement=settings.allow_multi_statement,
            create=settings.create,
        )

    def _existing_file(self, url: sa.URL) -> sa.URL:
        """
        *url*, made to open only a file that exists (SQLite, DuckDB).

        SQLite is told so itself (``mode=rw`` of a ``file:`` URI, unless the URL
        is a URI already or read-only mode opens it ``mode=ro``), so a file
        removed after this check is not created either.
        """
        backend = url.get_backend_name()
        database = url.database
        if backend not in ("sqlite", "duckdb") or _engine.is_memory(database):
            return url
        is_uri = str(url.query.get("uri", "")).lower() in _engine.TRUE_WORDS
        path = str(database)
        if is_uri:
            return url  # the URI's own mode= says what opening it may do
        if not os.path.exists(path):
            raise DatabaseURLError(
                f"{self.redacted_url}: the file {path!r} does not exist; check the path, "
                "or pass --create to create a new database there"
            )
        if backend == "sqlite" and not self.read_only:
            uri = "file:" + quote(os.path.abspath(path))
            return url.set(database=uri).update_query_dict({"uri": "true", "mode": "rw"})
        return url

    # -- connections ----------------------------------------------------------------

    @property
    def db_type(self) -> str:
        """The backend's name for classification (``postgresql``, ``mysql``, ``sqlite``...)."""
        return {"mariadb": "mysql"}.get(self.dialect, self.dialect)

    def _on_connect(self, dbapi_connection: Any, record: Any) -> None:
        # The server's session settings: applied again after every reset.
        _session.on_connect(self, dbapi_connection, record)

    def _on_checkout(self, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        # The pool rolls a connection back when it returns; this catches one
        # that left it in a transaction anyway (a reset that failed, a hook
        # of someone else's), so that no call starts in a failed transaction.
        status = _transaction_status(dbapi_connection)
        if status is None or status == _PQ_IDLE:
            return
        if status == _PQ_UNKNOWN:
            # The connection is broken: the pool replaces it.
            raise sa.exc.DisconnectionError("the pooled connection is in an unknown state")
        if status in (_PQ_INTRANS, _PQ_INERROR):
            dbapi_connection.rollback()
            kind = (
                Kind.TRANSACTION_ABORTED
                if status == _PQ_INERROR
                else Kind.INVALID_TRANSACTION_STATE
            )
            record.info[_CLEANED] = kind
            logger.warning("rolled back a transaction left open on a pooled connection (%s)", kind)

    @contextmanager
    def transaction(self, *, write: bool, state: CallState | None = None) -> Iterator[Connection]:
        """
        Open a transaction with the server's read-only mode and timeout applied.

        Args:
            write: Whether the work writes (refused in read-only mode).
            state: Where the transaction is, updated as it goes (for the
                server's recovery, `localdata_errors.mcp._recovery`).

        Yields:
            The connection, inside a transaction committed on success; on a
            read-only server the transaction is read-only where the backend
            has the switch, and always rolled back.
        """
        if write:
            self.refuse_write("this tool changes data")
        state = state if state is not None else CallState()
        state.stage = "connect"
        with self.engine.connect() as conn:
            try:
                with self._call(conn, state):
                    yield conn
            finally:
                # Whatever the call did to its session goes with it.
                _session.end(self, conn)

    @contextmanager
    def _call(self, conn: Connection, state: CallState) -> Iterator[None]:
        state.stage = "setup"
        cleaned = conn.info.pop(_CLEANED, None)
        if cleaned is not None:
            state.notes.append(
                {"kind": str(cleaned), "action": "rollback", "done": "rolled_back", "rerun": False}
            )
        transaction = conn.begin()
        try:
            _session.begin(self, conn)
            state.stage = "work"
            with _session.deadline(self, conn):
                yield
        except BaseException:
            # A connection that broke cannot roll back; the pool discards it.
            with contextlib.suppress(sa.exc.SQLAlchemyError):
                transaction.rollback()
            raise
        state.stage = "commit"
        if self.read_only:
            transaction.rollback()
        else:
            transaction.commit()
        state.stage = "done"

    def execute(
        self,
        conn: Connection,
        statement: Statement,
        params: Mapping[str, Any] | Sequence[Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> sa.CursorResult[Any]:
        """
        Run one statement of ``execute_sql`` with its bound values.

        Args:
            conn: A connection from `transaction`.
            statement: One statement, as ``_execute.statements_of`` returns it.
            params: An object for ``:name`` placeholders, a list for ``?``
                placeholders, or ``None``: the text then goes to the driver as it is.
            options: SQLAlchemy execution options (``stream_results``).

        Returns:
            The result.

        Raises:
            ToolInputError: ``invalid_parameter`` when the ``?`` placeholders
                and the list of values differ in number.
        """
        clause, values = self.clause(statement, params)
        if values is None:
            text = _escape_percent(conn, clause)
            return conn.exec_driver_sql(text, execution_options=dict(options or {}))
        return conn.execute(sa.text(clause), values, execution_options=dict(options or {}))

    @staticmethod
    def clause(
        statement: Statement, params: Mapping[str, Any] | Sequence[Any] | None
    ) -> tuple[str, dict[str, Any] | None]:
        """
        A statement's text and bound values: ``:name`` binds, or the text alone.

        Returns:
            The text with ``:name`` placeholders and their values; or, without
            values, the statement's own text (``None`` for values).

        Raises:
            ToolInputError: ``invalid_parameter`` when the ``?`` placeholders
                and the list of values differ in number.
        """
        if params is None or (not params and not statement.placeholders):
            return statement.text, None
        if isinstance(params, Mapping):
            wanted = set(sa.text(statement.text).compile().params) if params else set()
            return statement.text, {k: v for k, v in params.items() if k in wanted}
        text, names = to_named_placeholders(statement)
        values = list(params)
        if len(names) != len(values):
            raise ToolInputError(
                make_response(
                    Kind.INVALID_PARAMETER,
                    f"The statement has {len(names)} '?' placeholders but {len(values)} "
                    "parameters were given.",
                )
            )
        return text, dict(zip(names, values, strict=True))

    def statement_deadline(self, conn: Connection) -> contextlib.AbstractContextManager[None]:
        """The server's backstop for one statement of ``execute_sql``, reading included."""
        return _session.backstop(self, conn)

    def _duckdb_reads_only(
        self,
        conn: Connection,
        _cursor: Any,
        statement: str,
        _parameters: Any,
        _context: Any,
        _executemany: bool,
    ) -> None:
        # DuckDB runs every statement of a text it is given: its own parser
        # must find exactly one, of a reading type, in what is sent to it.
        found = _engine.reading_statement_type(conn, statement)
        if found is not None:
            self.refuse_write(f"the statement is not a read ({found})")

    def refuse_write(self, what: str) -> None:
        """Raise a ``read_only`` refusal when the server is read-only."""
        if self.read_only:
            raise ToolInputError(
                make_response(
                    Kind.READ_ONLY,
                    f"The server runs in read-only mode: {what}; it is refused.",
                    database=self.dialect,
                    actions=(
                        "Use select_rows, list_tables, describe_table or a SELECT statement",
                        "Ask for a server started without --read-only to change data",
                    ),
                )
            )

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- schema -------------------------------------------------------------------

    def table(self, conn: Connection, name: str) -> sa.Table:
        """The introspected table called *name* (see `localdata_errors.mcp._schema.find_table`)."""
        return _schema.find_table(self, conn, name)

    def column(self, table: sa.Table, name: str) -> sa.Column[Any]:
        """The column *name* of *table* (see `localdata_errors.mcp._schema.find_column`)."""
        return _schema.find_column(self, table, name)

    def coerce(self, column: sa.Column[Any], value: Any) -> Any:
        """
        Convert a string value to the column's type; other values pass unchanged.

        Raises:
            ToolInputError: ``invalid_text_representation`` naming the column.
        """
        if not isinstance(value, str):
            return value
        ptype = _python_type(column)
        if ptype is None or ptype is str:
            return value
        try:
            return _convert(value, ptype)
        except (ValueError, ArithmeticError, InvalidOperation):
            table = getattr(column.table, "name", "?")
            raise ToolInputError(
                make_response(
                    Kind.INVALID_TEXT_REPRESENTATION,
                    f"The value given for column '{column.name}' of table '{table}' cannot be "
                    f"converted to its type {column.type}.",
                    affected_resources=(column.name, table),
                    database=self.dialect,
                ),
                {"column": column.name, "table": table, "expected_type": str(column.type)},
            ) from None

    # -- filters --------------------------------------------------------------------

    def conditions(self, table: sa.Table, filters: Sequence[Mapping[str, Any]]) -> list[Any]:
        """
        Build WHERE conditions from structured filters; every value bound.

        Args:
            table: The table.
            filters: ``{"column", "operator", "value"}`` items.

        Returns:
            SQLAlchemy conditions, to be combined with AND.
        """
        out: list[Any] = []
        for index, item in enumerate(filters):
            col = self.column(table, str(item["column"]))
            op = str(item.get("operator", "="))
            value = item.get("value")
            if op == "is_null" or (op == "=" and value is None):
                out.append(col.is_(None))
            elif op == "not_null" or (op == "!=" and value is None):
                out.append(col.is_not(None))
            elif op == "in":
                if not isinstance(value, list) or not value or len(value) > _MAX_IN_VALUES:
                    raise _bad_filter(
                        index,
                        col.name,
                        f"operator 'in' needs a non-empty list of at most {_MAX_IN_VALUES} values",
                    )
                out.append(col.in_([self.coerce(col, v) for v in value]))
            elif op == "like":
                if not isinstance(value, str):
                    raise _bad_filter(index, col.name, "operator 'like' needs a string pattern")
                out.append(col.like(value))
            elif op in ("=", "!=", "<", "<=", ">", ">="):
                if isinstance(value, list | dict):
                    raise _bad_filter(index, col.name, f"operator '{op}' needs a single value")
                bound = self.coerce(col, value)
                out.append(
                    {
                        "=": col == bound,
                        "!=": col != bound,
                        "<": col < bound,
                        "<=": col <= bound,
                        ">": col > bound,
                        ">=": col >= bound,
                    }[op]
                )
            else:
                raise _bad_filter(
                    index,
                    col.name,
                    f"unknown operator {op[:20]!r}; use one of " + ", ".join(OPERATORS),
                )
        return out


def _queued(url: sa.URL, options: JSONDict) -> bool:
    """Whether the engine's pool is a queue of connections (it then takes a wait limit)."""
    poolclass = options.get("poolclass")
    if poolclass is None:
        # The default dialects all define it (DefaultDialect); the Dialect protocol does not.
        choose = getattr(url.get_dialect(), "get_pool_class", None)
        poolclass = choose(url) if callable(choose) else None
    return isinstance(poolclass, type) and issubclass(poolclass, sa.pool.QueuePool)


def _bad_filter(index: int, column: str, problem: str) -> ToolInputError:
    return ToolInputError(
        make_response(
            Kind.INVALID_PARAMETER,
            f"Filter {index} on column '{column}': {problem}.",
            affected_resources=(column,),
        ),
        {
            "fields": [{"field": f"filters.{index}", "problem": problem}],
            "invalid_fields": [f"filters.{index}"],
        },
    )


def _escape_percent(conn: Connection, sql: str) -> str:
    # Drivers of the "format"/"pyformat" styles read "%" as a placeholder even
    # when SQLAlchemy passes no parameters through exec_driver_sql.
    if "%" in sql and conn.dialect.paramstyle in ("format", "pyformat"):
        return sql.replace("%", "%%")
    return sql
