"""
The database behind the SQL tool server: checked identifiers, bound values, limits.

Every identifier a caller sends (table, column, order-by column) is looked up
in the schema SQLAlchemy introspects and used as the introspected object, so
SQLAlchemy quotes it; no caller text is ever interpolated into SQL.  Every
value is bound.  Read-only mode refuses writes before any SQL runs and, where
the backend can, makes the transaction itself read-only.  The statement
timeout is enforced by the backend where it has one (PostgreSQL's
``statement_timeout``, MariaDB's ``max_statement_time``, MySQL's
``max_execution_time``) and by interrupting the connection otherwise
(SQLite, DuckDB).
"""

from __future__ import annotations

import contextlib
import math
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from localdata_errors.kinds import Kind
from localdata_errors.mcp._results import ToolInputError, make_response
from localdata_errors.mcp._sqltext import Statement, count_statements, split_sql
from localdata_errors.redact import redact

__all__ = ["OPERATORS", "Database", "StatementTimeoutError", "jsonable", "statements_of"]

JSONDict = dict[str, Any]

#: The filter operators ``select_rows``, ``update_rows`` and ``delete_rows`` accept.
OPERATORS: Final = ("=", "!=", "<", "<=", ">", ">=", "like", "in", "is_null", "not_null")
_TRUE: Final = frozenset({"true", "t", "yes", "y", "1", "on"})
_FALSE: Final = frozenset({"false", "f", "no", "n", "0", "off"})
_MAX_IN_VALUES: Final = 1000


class StatementTimeoutError(Exception):
    """The server interrupted a statement that ran past the configured timeout."""


#: The extra that installs a backend's drivers, by SQLAlchemy backend name.
_EXTRAS: Final = {"postgresql": "postgresql", "mysql": "mysql", "mariadb": "mysql",
                  "oracle": "oracle", "mssql": "mssql", "duckdb": "duckdb"}


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


_DUCKDB_TYPES: Final[dict[str, Any]] = {
    "INTEGER": sa.Integer, "INT": sa.Integer, "BIGINT": sa.BigInteger, "SMALLINT": sa.SmallInteger,
    "TINYINT": sa.SmallInteger, "HUGEINT": sa.BigInteger, "UINTEGER": sa.BigInteger,
    "UBIGINT": sa.BigInteger, "DOUBLE": sa.Float, "FLOAT": sa.Float, "REAL": sa.Float,
    "DECIMAL": sa.Numeric, "NUMERIC": sa.Numeric, "VARCHAR": sa.String, "TEXT": sa.String,
    "BOOLEAN": sa.Boolean, "DATE": sa.Date, "TIMESTAMP": sa.DateTime, "TIME": sa.Time,
    "UUID": sa.Uuid, "BLOB": sa.LargeBinary,
}


def _duckdb_type(name: str) -> Any:
    base = name.split("(", 1)[0].strip().upper()
    return _DUCKDB_TYPES.get(base, sa.types.NullType)()


class Database:
    """
    One SQLAlchemy engine, with the tool server's checks and limits.

    Args:
        url: Any SQLAlchemy URL.
        read_only: Refuse writes.
        max_rows: The most rows any call returns.
        timeout: The statement timeout in seconds (``None``: none).
        allow_multi_statement: Let ``execute_sql`` run several statements.
    """

    def __init__(self, url: str, *, read_only: bool = False, max_rows: int = 1000,
                 timeout: float | None = 30.0, allow_multi_statement: bool = False) -> None:
        try:
            parsed = sa.make_url(url)
        except sa.exc.ArgumentError:
            # The message repeats the URL, password and all: say it without it.
            raise DatabaseURLError(
                "not a database URL; expected dialect[+driver]://user@host/database, "
                "e.g. sqlite:///app.db or postgresql+psycopg://app@localhost/shop") from None
        self.read_only = read_only
        self.max_rows = max(1, int(max_rows))
        self.timeout = timeout if timeout and timeout > 0 else None
        self.allow_multi_statement = allow_multi_statement
        self.secrets: tuple[str, ...] = (parsed.password,) if parsed.password else ()
        self.redacted_url = redact(parsed.render_as_string(hide_password=True), self.secrets)
        options: JSONDict = {"pool_pre_ping": parsed.get_backend_name() != "sqlite"}
        if parsed.get_backend_name() == "duckdb" and parsed.database not in (None, "", ":memory:"):
            # A DuckDB file admits one process at a time: open it per call, so
            # other programs can use it between calls.
            options["poolclass"] = sa.pool.NullPool
            if read_only:
                options["connect_args"] = {"read_only": True}
        try:
            self.engine: Engine = sa.create_engine(parsed, **options)
        except sa.exc.NoSuchModuleError:
            raise DatabaseURLError(
                f"{self.redacted_url}: SQLAlchemy knows no dialect or driver "
                f"{parsed.drivername!r}") from None
        except ImportError as exc:
            extra = _EXTRAS.get(parsed.get_backend_name(), "all")
            raise DatabaseURLError(
                f"{self.redacted_url}: the driver is not installed ({exc.name or exc}); "
                f"pip install 'localdata-errors[{extra}]' brings the common ones") from None
        self.dialect = self.engine.dialect.name
        self._local = threading.local()
        sa.event.listen(self.engine, "connect", self._on_connect)

    # -- connections ----------------------------------------------------------------

    @property
    def db_type(self) -> str:
        """The backend's name for classification (``postgresql``, ``mysql``, ``sqlite``...)."""
        return {"mariadb": "mysql"}.get(self.dialect, self.dialect)

    @property
    def is_mariadb(self) -> bool:
        """Whether the server is MariaDB (its timeout variable differs from MySQL's)."""
        return bool(getattr(self.engine.dialect, "is_mariadb", False))

    def _on_connect(self, dbapi_connection: Any, _record: Any) -> None:
        # Session settings: they last as long as the pooled connection, and
        # change nothing for any other client of the server.
        cursor = dbapi_connection.cursor()
        try:
            if self.dialect == "sqlite":
                # SQLite enforces declared foreign keys only when asked to.
                cursor.execute("PRAGMA foreign_keys = ON")
                if self.read_only:
                    cursor.execute("PRAGMA query_only = ON")
            elif self.dialect in ("mysql", "mariadb"):
                if self.read_only:
                    cursor.execute("SET SESSION TRANSACTION READ ONLY")
                if self.timeout is not None:
                    if self._server_is_mariadb(cursor):
                        cursor.execute(f"SET SESSION max_statement_time = {self.timeout:.3f}")
                    else:
                        millis = int(self.timeout * 1000)
                        cursor.execute(f"SET SESSION max_execution_time = {millis}")
        finally:
            cursor.close()

    @staticmethod
    def _server_is_mariadb(cursor: Any) -> bool:
        cursor.execute("SELECT VERSION()")
        row = cursor.fetchone()
        return bool(row) and "mariadb" in str(row[0]).lower()

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Connection]:
        """
        Open a transaction with the server's read-only mode and timeout applied.

        Args:
            write: Whether the work writes (refused in read-only mode).

        Yields:
            The connection, inside a transaction committed on success.
        """
        if write:
            self.refuse_write("this tool changes data")
        with self.engine.connect() as conn, conn.begin():
            if self.dialect == "postgresql":
                if self.read_only:
                    conn.exec_driver_sql("SET TRANSACTION READ ONLY")
                if self.timeout is not None:
                    conn.exec_driver_sql(
                        f"SET LOCAL statement_timeout = {max(1, int(self.timeout * 1000))}")
            with self._interrupt_after(conn):
                yield conn

    @contextmanager
    def _interrupt_after(self, conn: Connection) -> Iterator[None]:
        # Backends without a statement timeout of their own (SQLite, DuckDB)
        # are interrupted from a timer thread; their interrupt() is thread-safe.
        if self.timeout is None or self.dialect not in ("sqlite", "duckdb"):
            yield
            return
        driver = conn.connection.driver_connection
        interrupt = getattr(driver, "interrupt", None)
        if interrupt is None:
            yield
            return
        fired = threading.Event()

        def fire() -> None:
            fired.set()
            interrupt()

        timer = threading.Timer(self.timeout, fire)
        timer.daemon = True
        timer.start()
        try:
            yield
        except Exception as exc:
            if fired.is_set():
                raise StatementTimeoutError(
                    f"The statement ran longer than the server's timeout of {self.timeout:g} s "
                    "and was interrupted") from exc
            raise
        finally:
            timer.cancel()

    def refuse_write(self, what: str) -> None:
        """Raise a ``read_only`` refusal when the server is read-only."""
        if self.read_only:
            raise ToolInputError(make_response(
                Kind.READ_ONLY,
                f"The server runs in read-only mode: {what}, so it is refused.",
                database=self.dialect,
                actions=("Use select_rows, list_tables, describe_table or a SELECT statement",
                         "Ask for a server started without --read-only to change data"),
            ))

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- schema ---------------------------------------------------------------------

    def table_names(self, conn: Connection) -> list[str]:
        """The tables and views of the default schema."""
        inspector = sa.inspect(conn)
        names = list(inspector.get_table_names())
        with contextlib.suppress(NotImplementedError):
            names += [v for v in inspector.get_view_names() if v not in names]
        return names

    def table(self, conn: Connection, name: str) -> sa.Table:
        """
        The introspected table called *name*.

        Args:
            conn: The connection.
            name: The caller's table name; an exact match first, else the one
                table whose name differs only in case.

        Returns:
            The reflected table.

        Raises:
            ToolInputError: ``undefined_table`` when there is no such table.
        """
        names = self.table_names(conn)
        actual = name if name in names else None
        if actual is None:
            folded = [n for n in names if n.lower() == name.lower()]
            actual = folded[0] if len(folded) == 1 else None
        if actual is None:
            raise ToolInputError(
                make_response(Kind.UNDEFINED_TABLE, f"The table '{name}' does not exist.",
                              affected_resources=(name,), database=self.dialect),
                {"available_tables": sorted(names)[:100]},
            )
        if self.dialect == "duckdb":
            return self._duckdb_table(conn, actual)
        return sa.Table(actual, sa.MetaData(), autoload_with=conn)

    # duckdb_engine's reflection runs PostgreSQL catalogue queries DuckDB
    # cannot answer (pg_collation, regclass) under SQLAlchemy 2.1; DuckDB's
    # own information_schema and duckdb_constraints() say the same things.
    def _duckdb_table(self, conn: Connection, name: str) -> sa.Table:
        rows = conn.exec_driver_sql(
            "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_name = $1 AND table_schema = current_schema() "
            "ORDER BY ordinal_position", (name,)).all()
        pk: set[str] = set()
        for ctype, cols in conn.exec_driver_sql(
                "SELECT constraint_type, constraint_column_names FROM duckdb_constraints() "
                "WHERE table_name = $1 AND schema_name = current_schema()", (name,)).all():
            if ctype == "PRIMARY KEY":
                pk.update(cols)
        columns = [sa.Column(col, _duckdb_type(str(dtype)), primary_key=col in pk,
                             nullable=nullable == "YES", autoincrement=False)
                   for col, dtype, nullable in rows]
        return sa.Table(name, sa.MetaData(), *columns)

    def foreign_keys(self, conn: Connection, name: str) -> list[JSONDict]:
        """The foreign keys of table *name*: name, columns, referenced table and columns."""
        if self.dialect == "duckdb":
            return [{"name": cname, "constrained_columns": list(cols), "referred_table": ref,
                     "referred_columns": list(refcols)}
                    for cname, cols, ref, refcols in conn.exec_driver_sql(
                        "SELECT constraint_name, constraint_column_names, referenced_table, "
                        "referenced_column_names FROM duckdb_constraints() WHERE table_name = $1 "
                        "AND schema_name = current_schema() AND constraint_type = 'FOREIGN KEY'",
                        (name,)).all()]
        return [dict(fk) for fk in sa.inspect(conn).get_foreign_keys(name)]

    def indexes(self, conn: Connection, name: str) -> list[JSONDict]:
        """The indexes of table *name* (none reported for DuckDB, which does not expose them)."""
        if self.dialect == "duckdb":
            return []
        return [{"name": ix.get("name"), "columns": ix.get("column_names"),
                 "unique": bool(ix.get("unique"))} for ix in sa.inspect(conn).get_indexes(name)]

    def column(self, table: sa.Table, name: str) -> sa.Column[Any]:
        """
        The column *name* of *table*.

        Raises:
            ToolInputError: ``undefined_column`` naming the column and the table.
        """
        if name in table.c:
            return table.c[name]
        folded = [c for c in table.c if c.name.lower() == name.lower()]
        if len(folded) == 1:
            return folded[0]
        raise ToolInputError(
            make_response(Kind.UNDEFINED_COLUMN,
                          f"The column '{name}' does not exist in table '{table.name}'.",
                          affected_resources=(name, table.name), database=self.dialect),
            {"table": table.name, "column": name,
             "available_columns": [c.name for c in table.c]},
        )

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
                    affected_resources=(column.name, table), database=self.dialect),
                {"column": column.name, "table": table, "expected_type": str(column.type)},
            ) from None

    def describe(self, conn: Connection, name: str) -> JSONDict:
        """Columns, types, keys, foreign keys, indexes and the row count of a table."""
        table = self.table(conn, name)
        pk = list(table.primary_key.columns.keys())
        columns = [
            {"name": c.name, "type": str(c.type), "nullable": bool(c.nullable),
             "primary_key": c.name in pk,
             "default": None if c.server_default is None else str(
                 getattr(c.server_default, "arg", c.server_default)),
             "autoincrement": c.name in pk and c.autoincrement is not False
             and _python_type(c) is int}
            for c in table.columns
        ]
        foreign_keys = [
            {"name": fk.get("name"), "columns": fk["constrained_columns"],
             "references_table": fk["referred_table"], "references_columns": fk["referred_columns"]}
            for fk in self.foreign_keys(conn, table.name)
        ]
        referenced_by = self.referencing_tables(conn, table.name)
        indexes = self.indexes(conn, table.name)
        count = conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
        return {"table": table.name, "columns": columns, "primary_key": pk,
                "foreign_keys": foreign_keys, "referenced_by": referenced_by,
                "indexes": indexes, "row_count": int(count)}

    def referencing_tables(self, conn: Connection, name: str) -> list[str]:
        """The other tables whose foreign keys reference table *name*."""
        return [other for other in sa.inspect(conn).get_table_names()
                if other != name and any(fk.get("referred_table") == name
                                         for fk in self.foreign_keys(conn, other))]

    def referenced_tables(self, conn: Connection, name: str) -> list[str]:
        """The tables that table *name*'s foreign keys reference."""
        fks = self.foreign_keys(conn, name)
        return sorted({fk["referred_table"] for fk in fks if fk["referred_table"] != name})

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
                    raise _bad_filter(index, col.name, "operator 'in' needs a non-empty list "
                                      f"of at most {_MAX_IN_VALUES} values")
                out.append(col.in_([self.coerce(col, v) for v in value]))
            elif op == "like":
                if not isinstance(value, str):
                    raise _bad_filter(index, col.name, "operator 'like' needs a string pattern")
                out.append(col.like(value))
            elif op in ("=", "!=", "<", "<=", ">", ">="):
                if isinstance(value, list | dict):
                    raise _bad_filter(index, col.name, f"operator '{op}' needs a single value")
                bound = self.coerce(col, value)
                out.append({"=": col == bound, "!=": col != bound, "<": col < bound,
                            "<=": col <= bound, ">": col > bound, ">=": col >= bound}[op])
            else:
                raise _bad_filter(index, col.name, f"unknown operator {op[:20]!r}; use one of "
                                  + ", ".join(OPERATORS))
        return out


def _bad_filter(index: int, column: str, problem: str) -> ToolInputError:
    return ToolInputError(
        make_response(Kind.INVALID_PARAMETER, f"Filter {index} on column '{column}': {problem}.",
                      affected_resources=(column,)),
        {"fields": [{"field": f"filters.{index}", "problem": problem}],
         "invalid_fields": [f"filters.{index}"]},
    )


def statements_of(db: Database, sql: str) -> list[Statement]:
    """
    Check an ``execute_sql`` text against the server's rules and split it.

    Raises:
        ToolInputError: several statements when only one is allowed
            (``feature_not_supported``), or a write in read-only mode.
    """
    backslash = db.dialect in ("mysql", "mariadb")
    parts = split_sql(sql, backslash_escapes=backslash)
    if not parts:
        raise ToolInputError(make_response(Kind.SYNTAX_ERROR, "The SQL text holds no statement."))
    count = count_statements(sql, db.dialect, parts)
    if count > 1 and not db.allow_multi_statement:
        raise ToolInputError(
            make_response(
                Kind.FEATURE_NOT_SUPPORTED,
                f"The SQL text holds {count} statements; this server runs one statement per "
                "call (it was started without --allow-multi-statement).",
                actions=("Send each statement in its own execute_sql call",)),
            {"statement_count": count},
        )
    if db.read_only:
        for part in parts:
            if part.writes():
                db.refuse_write(f"the statement starting with {part.first_keyword or '?'} "
                                "may change data")
    return parts
