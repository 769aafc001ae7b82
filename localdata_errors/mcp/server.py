"""
The SQL tool server: point an MCP client at any SQLAlchemy URL.

.. code-block:: console

    $ localdata-errors serve --url sqlite:///shop.db
    $ python -m localdata_errors.mcp.server --read-only \\
        --url postgresql+psycopg://app@localhost/shop

Tools: ``list_tables``, ``describe_table``, ``select_rows``, ``insert_rows``,
``update_rows``, ``delete_rows``, ``execute_sql``.  Every failure is a tool
result with ``isError: true`` and the structured JSON-RPC payload of
:mod:`localdata_errors.mcp`; each client session keeps an execution history
whose summary is attached to its errors.  Credentials never leave the
process: the URL is logged redacted, and the password is masked in every
error.

.. versionadded:: 0.1.0
"""

# No "from __future__ import annotations": the SDK reads the tool functions'
# annotations at registration, and some name values local to _register_tools.
import argparse
import functools
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any, Final, Literal

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from localdata_errors.mcp import HistoryLike, install_structured_errors
from localdata_errors.mcp import _operations as ops
from localdata_errors.mcp._sql import Database

__all__ = ["DEFAULT_URL", "URL_ENV", "Filter", "OrderBy", "build_server", "history_arguments",
           "main", "run_server"]

logger = logging.getLogger("localdata_errors.mcp.server")

#: The database a first run opens when no URL is given.
DEFAULT_URL: Final = "sqlite:///localdata.db"
#: The environment variable read when ``--url`` is not given: a URL holding a
#: password is then not visible in the process list.
URL_ENV: Final = "LOCALDATA_ERRORS_URL"

JSONDict = dict[str, Any]

_INSTRUCTIONS: Final = (
    "SQL database tools. Start with list_tables and describe_table; prefer select_rows, "
    "insert_rows, update_rows and delete_rows (identifiers are checked, values bound) over "
    "execute_sql. A failed call returns isError with a structured error: error_code says why, "
    "details.dependencies says what must change first, suggestions say what to do next, and "
    "history summarises the recent calls."
)


class Filter(BaseModel):
    """One condition on a column; conditions are combined with AND."""

    model_config = ConfigDict(extra="forbid")

    column: Annotated[str, Field(min_length=1, max_length=128, description="Column name")]
    operator: Literal["=", "!=", "<", "<=", ">", ">=", "like", "in", "is_null", "not_null"] = Field(
        default="=", description="Comparison; 'in' takes a list, is_null/not_null no value")
    value: Any = Field(default=None, description=(
        "The value, always bound (never part of the SQL); strings are converted to the "
        "column's type"))


class OrderBy(BaseModel):
    """One ordering term."""

    model_config = ConfigDict(extra="forbid")

    column: Annotated[str, Field(min_length=1, max_length=128, description="Column name")]
    direction: Literal["asc", "desc"] = "asc"


TableName = Annotated[str, Field(min_length=1, max_length=128,
                                 description="Table name, as list_tables reports it")]
Filters = Annotated[list[Filter], Field(max_length=50, description=(
    "Conditions combined with AND"))]


def _history_factory() -> Callable[[], HistoryLike] | None:
    try:
        from localdata_errors.history import (  # noqa: PLC0415 - optional, may be absent
            ExecutionHistory,
        )
    except ImportError:
        logger.info("localdata_errors.history is not available: errors carry no history")
        return None

    def make() -> HistoryLike:
        history: HistoryLike = ExecutionHistory(max_entries=5)
        return history

    return make


def _quoted(name: object) -> str:
    return '"' + str(name).replace('"', '""') + '"'


def history_arguments(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """
    Describe a structured tool call as the SQL it amounts to, for the execution history.

    The statement is only read by the history (what the call creates, drops or
    changes, so it can say that an earlier failure is unblocked); it never runs.
    Values are left out: the history sees the shape, not the data.

    Args:
        tool: The tool's name.
        arguments: The call's arguments.

    Returns:
        The arguments, with ``sql`` added for the table tools.
    """
    table = arguments.get("table")
    if not isinstance(table, str) or "sql" in arguments:
        return arguments
    target = _quoted(table)
    if tool == "delete_rows":
        mode = arguments.get("mode", "rows")
        sql = {"drop_table": f"DROP TABLE {target}",
               "truncate": f"TRUNCATE TABLE {target}"}.get(str(mode), f"DELETE FROM {target}")
    elif tool == "insert_rows":
        sql = f"INSERT INTO {target} DEFAULT VALUES"
    elif tool == "update_rows":
        values = arguments.get("values")
        column = next(iter(values), "x") if isinstance(values, dict) and values else "x"
        sql = f"UPDATE {target} SET {_quoted(column)} = NULL"
    else:
        return arguments
    return {**arguments, "sql": sql}


def build_server(  # noqa: PLR0913 - the server's settings, keyword-only
    url: str = DEFAULT_URL, *, read_only: bool = False, max_rows: int = 1000,
                 timeout: float | None = 30.0, allow_multi_statement: bool = False,
                 name: str = "localdata-errors-sql") -> MCPServer[Any]:
    """
    Build the SQL tool server (not yet running).

    Args:
        url: Any SQLAlchemy URL.
        read_only: Refuse every write.
        max_rows: The most rows a call returns (``truncated`` says when it cut).
        timeout: The statement timeout in seconds; ``None`` for none.
        allow_multi_statement: Let ``execute_sql`` run several statements per call.
        name: The server's name, as clients show it.

    Returns:
        The ``MCPServer``, its tools registered and structured errors installed.
    """
    db = Database(url, read_only=read_only, max_rows=max_rows, timeout=timeout,
                  allow_multi_statement=allow_multi_statement)
    logger.info("serving %s (read_only=%s, max_rows=%d, timeout=%s)", db.redacted_url,
                read_only, db.max_rows, db.timeout)

    @asynccontextmanager
    async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:
            db.dispose()

    server: MCPServer[Any] = MCPServer(name, instructions=_INSTRUCTIONS, lifespan=lifespan)
    _register_tools(server, db)
    install_structured_errors(server, db_type=db.db_type, history_per_session=_history_factory(),
                              secrets=db.secrets, history_arguments=history_arguments)
    return server


async def _run(fn: Callable[..., JSONDict], *args: Any) -> JSONDict:
    # SQLAlchemy's engines are synchronous: run each call in a worker thread
    # so one slow statement does not stall the protocol loop.
    return await anyio.to_thread.run_sync(functools.partial(fn, *args))


def _dump(items: Sequence[BaseModel]) -> list[JSONDict]:
    return [item.model_dump() for item in items]


def _register_tools(server: MCPServer[Any], db: Database) -> None:
    read = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
    write = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    destroy = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
    cap = db.max_rows

    @server.tool(annotations=read)
    async def list_tables() -> dict[str, Any]:
        """List the tables and views of the database."""
        return await _run(ops.list_tables, db)

    @server.tool(annotations=read)
    async def describe_table(table: TableName) -> dict[str, Any]:
        """Describe a table: columns and types, primary key, foreign keys, referencing tables, indexes, row count."""  # noqa: E501 - the model reads it on one line
        return await _run(ops.describe_table, db, table)

    @server.tool(annotations=read, description=(
        "Read rows of one table. Filters are structured conditions (column, operator, value) "
        "combined with AND; values are bound. Returns success, data, rowCount, columns and "
        f"truncated (true with a warning when the server's cap of {cap} rows cut the result)."))
    async def select_rows(  # noqa: PLR0913, PLR0917 - the tool's arguments, as the SDK reads them
        table: TableName,
        columns: Annotated[list[Annotated[str, Field(min_length=1, max_length=128)]] | None,
                           Field(max_length=200, description="Columns to return (all if omitted)")
                           ] = None,
        filters: Filters | None = None,
        order_by: Annotated[list[OrderBy] | None, Field(max_length=10)] = None,
        limit: Annotated[int | None, Field(ge=1, le=1_000_000, description=(
            f"Most rows to return; the server caps it at {cap}"))] = None,
        offset: Annotated[int, Field(ge=0, le=100_000_000)] = 0,
    ) -> dict[str, Any]:
        return await _run(functools.partial(
            ops.select_rows, db, table, columns=columns, filters=_dump(filters or []),
            order_by=_dump(order_by or []), limit=limit, offset=offset))

    @server.tool(annotations=write, description=(
        "Insert one or more rows (objects of column: value) in one transaction. Returns the "
        "inserted rows with generated keys where the backend can (RETURNING). String values "
        "are converted to the column's type. skip_on_conflict skips rows that would violate "
        "a unique key (ON CONFLICT DO NOTHING / INSERT IGNORE)."))
    async def insert_rows(
        table: TableName,
        rows: Annotated[list[dict[str, Any]], Field(min_length=1, max_length=1000)],
        skip_on_conflict: bool = False,
    ) -> dict[str, Any]:
        return await _run(ops.insert_rows, db, table, rows, skip_on_conflict)

    @server.tool(annotations=destroy, description=(
        "Update the rows the filters select, setting values (column: value). Filters are "
        "required; without them pass confirm_all: true to update every row. Returns "
        "affectedRows (0 when nothing matched)."))
    async def update_rows(
        table: TableName,
        values: Annotated[dict[str, Any], Field(min_length=1, max_length=200)],
        filters: Filters | None = None,
        confirm_all: bool = False,
    ) -> dict[str, Any]:
        return await _run(ops.update_rows, db, table, values, _dump(filters or []), confirm_all)

    @server.tool(annotations=destroy, description=(
        "Delete rows the filters select (mode 'rows'; without filters only with confirm_all: "
        "true), empty the table (mode 'truncate', with confirm: true) or drop it (mode "
        "'drop_table', with confirm: true). Returns affectedRows."))
    async def delete_rows(
        table: TableName,
        filters: Filters | None = None,
        confirm_all: bool = False,
        mode: Literal["rows", "truncate", "drop_table"] = "rows",
        confirm: bool = False,
    ) -> dict[str, Any]:
        return await _run(functools.partial(
            ops.delete_rows, db, table, filters=_dump(filters or []), confirm_all=confirm_all,
            mode=mode, confirm=confirm))

    multi = ("Several statements separated by ';' run in one transaction."
             if db.allow_multi_statement else "One statement per call.")
    params_schema = Annotated[
        dict[str, Any] | list[Any] | None,
        Field(description="Bound values: an object for :name placeholders, or a list for ? "
                          "placeholders")]

    @server.tool(annotations=destroy, description=(
        "Run SQL with bound parameters. Returns data, rowCount, columns and truncated for a "
        f"query, affectedRows otherwise. {multi} Prefer the table tools when they fit."))
    async def execute_sql(
        sql: Annotated[str, Field(min_length=1, max_length=100_000)],
        params: params_schema = None,
    ) -> dict[str, Any]:
        return await _run(ops.execute_sql, db, sql, params)


def run_server(  # noqa: PLR0913 - the CLI's flags, keyword-only
    url: str, *, read_only: bool = False, max_rows: int = 1000,
               timeout: float | None = 30.0, allow_multi_statement: bool = False,
               transport: str = "stdio", host: str = "127.0.0.1", port: int = 8000) -> None:
    """
    Run the SQL tool server until the client disconnects (stdio) or it is stopped (http).

    Args:
        url: Any SQLAlchemy URL.
        read_only: Refuse every write.
        max_rows: The most rows a call returns.
        timeout: The statement timeout in seconds; ``None`` or ``0`` for none.
        allow_multi_statement: Let ``execute_sql`` run several statements per call.
        transport: ``"stdio"`` or ``"http"`` (streamable HTTP on *host*:*port*).
        host: The HTTP address; loopback by default.
        port: The HTTP port.

    Raises:
        ValueError: An unknown transport.
    """
    if transport not in ("stdio", "http", "streamable-http"):
        raise ValueError(f"unknown transport {transport!r}: use 'stdio' or 'http'")
    if not logging.getLogger().handlers:
        # stdout carries the protocol over stdio: log lines go to stderr only.
        logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    server = build_server(url, read_only=read_only, max_rows=max_rows, timeout=timeout,
                          allow_multi_statement=allow_multi_statement)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m localdata_errors.mcp.server",
        description="SQL tools over MCP, with structured, actionable errors.")
    parser.add_argument("--url", default=os.environ.get(URL_ENV, DEFAULT_URL),
                        help=f"SQLAlchemy URL (default: ${URL_ENV}, else {DEFAULT_URL})")
    parser.add_argument("--read-only", action="store_true", help="refuse every write")
    parser.add_argument("--max-rows", type=int, default=1000,
                        help="most rows a call returns (default: 1000)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="statement timeout in seconds, 0 for none (default: 30)")
    parser.add_argument("--allow-multi-statement", action="store_true",
                        help="let execute_sql run several statements per call")
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP address (default: loopback)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default: 8000)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """
    Run the server from the command line.

    Args:
        argv: The arguments (``sys.argv[1:]`` by default).

    Returns:
        The exit status.
    """
    args = _parser().parse_args(argv)
    run_server(args.url, read_only=args.read_only, max_rows=args.max_rows,
               timeout=args.timeout or None, allow_multi_statement=args.allow_multi_statement,
               transport=args.transport, host=args.host, port=args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
