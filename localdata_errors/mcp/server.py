"""
The SQL tool server: point an MCP client at any SQLAlchemy URL.

```console
$ localdata-errors serve --url sqlite:///shop.db
$ python -m localdata_errors.mcp.server --read-only \\
    --url postgresql+psycopg://app@localhost/shop
```

Tools: `list_tables`, `describe_table`, `select_rows`, `insert_rows`,
`update_rows`, `delete_rows`, `execute_sql`; a read-only server lists only
the four that read, and its `execute_sql` runs only statements proven to
read.  Results are compact JSON.  Every failure is a tool result with
`isError: true` and the structured JSON-RPC payload of
`localdata_errors.mcp`; each client session keeps an execution history whose
summary is attached to its errors.  The server recovers where only it can
(`localdata_errors.mcp._recovery`): it rolls back a failed transaction and
reconnects for a read, and says so.  Every call ends in a clean session
(`localdata_errors.mcp._session`) and holds a bounded number of bytes
(`localdata_errors.mcp._rows`).  Credentials never leave the process: the
URL is logged redacted, and every error is masked by the core, which finds
credentials by their shape (never by the password's value: that would tell
a client sending guesses which one is right).
"""

# No "from __future__ import annotations": the SDK reads the tool functions'
# annotations at registration, and some name values local to _register_tools.
import argparse
import functools
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any, Final, Literal

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from localdata_errors._calls import quote_name
from localdata_errors._redact import redact
from localdata_errors.history import Condition, Effect, StructuredCall, call_identity
from localdata_errors.mcp import HistoryLike, install_structured_errors
from localdata_errors.mcp import _execute as execute
from localdata_errors.mcp import _operations as ops
from localdata_errors.mcp._http import BearerTokenMiddleware, BoundHostMiddleware
from localdata_errors.mcp._login import LoginError, check_login
from localdata_errors.mcp._settings import (
    DEFAULT_URL,
    TOKEN_ENV,
    URL_ENV,
    ServerSettings,
    add_arguments,
    from_arguments,
    is_loopback,
)
from localdata_errors.mcp._sql import Database, DatabaseURLError

__all__ = [
    "DEFAULT_URL",
    "TOKEN_ENV",
    "URL_ENV",
    "Filter",
    "OrderBy",
    "ServerSettings",
    "build_server",
    "history_call",
    "main",
    "run_server",
]

logger = logging.getLogger("localdata_errors.mcp.server")

JSONDict = dict[str, Any]

_INSTRUCTIONS: Final = (
    "SQL database tools. Start with list_tables and describe_table; prefer select_rows, "
    "insert_rows, update_rows and delete_rows (identifiers are checked, values bound) over "
    "execute_sql. A failed call returns isError with a structured error: details.action says "
    "the next step (fix_query: change the call; retry: send it again unchanged after "
    "retry_after_ms; reconnect: the server reconnects, check a write before resending; stop: "
    "tell the user), details.retry_safety whether resending a write is safe, "
    "details.dependencies what must change first, details.did_you_mean the closest existing "
    "names, and history summarises the recent calls."
)
_READ_ONLY_INSTRUCTIONS: Final = (
    "Read-only SQL database tools. Start with list_tables and describe_table; prefer "
    "select_rows (identifiers are checked, values bound) over execute_sql, which runs only "
    "statements that read (SELECT, WITH, VALUES, EXPLAIN, SHOW, DESCRIBE). A failed call "
    "returns isError with a structured error: details.action says the next step (fix_query, "
    "retry, stop), details.did_you_mean the closest existing names, suggestions what to do "
    "next, and history summarises the recent calls."
)


class Filter(BaseModel):
    """One condition on a column; conditions are combined with AND."""

    model_config = ConfigDict(extra="forbid")

    column: Annotated[str, Field(min_length=1, max_length=128, description="Column name")]
    operator: Literal["=", "!=", "<", "<=", ">", ">=", "like", "in", "is_null", "not_null"] = Field(
        default="=", description="Comparison; 'in' takes a list, is_null/not_null no value"
    )
    value: Any = Field(
        default=None,
        description=(
            "The value, always bound (never part of the SQL); strings are converted to the "
            "column's type"
        ),
    )


class OrderBy(BaseModel):
    """One ordering term."""

    model_config = ConfigDict(extra="forbid")

    column: Annotated[str, Field(min_length=1, max_length=128, description="Column name")]
    direction: Literal["asc", "desc"] = "asc"


TableName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=257,
        description="Table name, as list_tables reports it; schema.table for another schema",
    ),
]
#: What every tool returns: compact JSON text and the same dict as structured content.
ToolResult = Annotated[CallToolResult, dict[str, Any]]
Filters = Annotated[
    list[Filter], Field(max_length=50, description=("Conditions combined with AND"))
]


def _history_factory() -> Callable[[], HistoryLike] | None:
    try:
        from localdata_errors.history import (  # noqa: PLC0415 - optional, may be absent
            ExecutionHistory,
        )

        ExecutionHistory()  # raises ImportError without sqlglot, which reads the statements
    except ImportError:
        logger.info("localdata_errors.history is not available: errors carry no history")
        return None

    def make() -> HistoryLike:
        history: HistoryLike = ExecutionHistory(max_entries=5)
        return history

    return make


_STRUCTURED_TOOLS: Final = frozenset(
    {"list_tables", "describe_table", "select_rows", "insert_rows", "update_rows", "delete_rows"}
)
_DELETE_EFFECTS: Final[dict[str, Effect]] = {
    "rows": "deleted",
    "truncate": "truncated",
    "drop_table": "dropped",
}


def _conditions(filters: object) -> tuple[Condition, ...]:
    # The arguments are not validated yet: whatever is not a filter is left out.
    if not isinstance(filters, list):
        return ()
    return tuple(
        Condition(str(f["column"]), str(f.get("operator", "=")))
        for f in filters
        if isinstance(f, dict) and "column" in f
    )


def _columns(names: object) -> tuple[str, ...]:
    if isinstance(names, dict):
        names = list(names)
    if not isinstance(names, list):
        return ()
    return tuple(dict.fromkeys(str(n) for n in names))


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _select_options(arguments: dict[str, Any]) -> tuple[str, ...]:
    options = []
    order = arguments.get("order_by")
    if isinstance(order, list):
        terms = [
            f"{quote_name(o['column'])} {'desc' if o.get('direction') == 'desc' else 'asc'}"
            for o in order
            if isinstance(o, dict) and "column" in o
        ]
        if terms:
            options.append("order by " + ", ".join(terms))
    if (limit := _count(arguments.get("limit"))) is not None:
        options.append(f"limit {limit}")
    if offset := _count(arguments.get("offset")):
        options.append(f"offset {offset}")
    return tuple(options)


def history_call(tool: str, arguments: dict[str, Any]) -> StructuredCall | dict[str, Any]:
    """
    What the execution history records of a call: a table tool's call as the call it was.

    The table tools are recorded as a `StructuredCall`: the table, the
    filters' columns and operators, the columns set or inserted, never a
    value, and what the call changes when it succeeds (a ``delete_rows``
    deletes rows of its table; with ``mode: drop_table`` it drops it).  The
    history shows it as ``delete_rows(customers, where id = ?)``.
    ``execute_sql``'s arguments are recorded as they are: the history masks
    the statement's values before it reads or keeps it.

    Args:
        tool: The tool's name.
        arguments: The call's arguments, as the client sent them.

    Returns:
        A `StructuredCall` for the table tools; the arguments otherwise.
    """
    if tool not in _STRUCTURED_TOOLS:
        return arguments
    table = arguments.get("table")
    name = str(table) if table is not None else None
    identity = call_identity([tool, arguments])
    filters = _conditions(arguments.get("filters"))
    everything = arguments.get("confirm_all") is True
    if tool == "select_rows":
        return StructuredCall(
            name,
            None,
            filters,
            _columns(arguments.get("columns")),
            options=_select_options(arguments),
            identity=identity,
        )
    if tool == "insert_rows":
        rows = arguments.get("rows")
        rows = rows if isinstance(rows, list) else []
        keys = [k for row in rows if isinstance(row, dict) for k in row]
        skip = ("skip_on_conflict",) if arguments.get("skip_on_conflict") is True else ()
        return StructuredCall(
            name, "inserted", (), _columns(keys), len(rows), options=skip, identity=identity
        )
    if tool == "update_rows":
        columns = _columns(arguments.get("values"))
        return StructuredCall(
            name, "updated", filters, columns, all_rows=everything, identity=identity
        )
    if tool == "delete_rows":
        mode = arguments.get("mode", "rows")
        effect = _DELETE_EFFECTS.get(mode) if isinstance(mode, str) else None
        if mode == "rows":
            return StructuredCall(name, effect, filters, all_rows=everything, identity=identity)
        shown = f"mode {mode}" if effect is not None else "mode ?"
        return StructuredCall(name, effect, options=(shown,), identity=identity)
    return StructuredCall(name, identity=identity)  # list_tables, describe_table


def build_server(settings: ServerSettings | None = None) -> MCPServer[Any]:
    """
    Build the SQL tool server (not yet running).

    Args:
        settings: What to serve and how (`ServerSettings`); the defaults
            when ``None``.

    Returns:
        The ``MCPServer``, its tools registered and structured errors installed.

    Raises:
        DatabaseURLError: The URL cannot be used.
        LoginError: A read-only server's login holds privileges read-only mode
            cannot contain (`localdata_errors.mcp._login`), unless
            ``allow_privileged_login``; or they could not be read.
    """
    settings = settings if settings is not None else ServerSettings()
    db = Database.from_settings(settings)
    if settings.read_only:
        try:
            check_login(db, allow=settings.allow_privileged_login)
        except LoginError:
            db.dispose()
            raise
    return _serve(db, settings.name, verbose_errors=settings.verbose_errors)


def _serve(
    db: Database, name: str = "localdata-errors-sql", *, verbose_errors: bool = False
) -> MCPServer[Any]:
    """The server for a `Database` already built: its tools, its errors, its history."""
    logger.info(
        "serving %s (read_only=%s, max_rows=%d, timeout=%s)",
        db.redacted_url,
        db.read_only,
        db.max_rows,
        db.timeout,
    )

    @asynccontextmanager
    async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:
            db.dispose()

    instructions = _READ_ONLY_INSTRUCTIONS if db.read_only else _INSTRUCTIONS
    server: MCPServer[Any] = MCPServer(name, instructions=instructions, lifespan=lifespan)
    _register_tools(server, db)
    if db.read_only:
        _answer_write_tools(server, db)
    install_structured_errors(
        server,
        db_type=db.db_type,
        history_per_session=_history_factory(),
        history_arguments=history_call,
        compact=not verbose_errors,
    )
    return server


#: The tools a read-only server does not serve.
WRITE_TOOLS: Final = frozenset({"insert_rows", "update_rows", "delete_rows"})


def _answer_write_tools(server: MCPServer[Any], db: Database) -> None:
    """
    A write tool called on a read-only server: answer that the server is read-only.

    The tools are not listed (a client sees only those it may use); a client
    that calls one anyway is told why it cannot, ``READ_ONLY``, instead of
    an unknown tool, and the history records the call as it was asked.
    """
    original = server.call_tool

    async def call_tool(name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        if name in WRITE_TOOLS:
            db.refuse_write(f"{name} changes data, and this server only reads")
        return await original(name, arguments, context)

    # The seam install_structured_errors uses too: the SDK calls self.call_tool.
    server.call_tool = call_tool  # type: ignore[method-assign]  # see the comment above


async def _run(fn: Callable[..., JSONDict], *args: Any) -> CallToolResult:
    # SQLAlchemy's engines are synchronous: run each call in a worker thread
    # so one slow statement does not stall the protocol loop.
    result = await anyio.to_thread.run_sync(functools.partial(fn, *args))
    # Compact JSON: a model pays for every space of an indented dump.
    text = json.dumps(result, default=str, separators=(",", ":"), ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result)


def _dump(items: Sequence[BaseModel]) -> list[JSONDict]:
    return [item.model_dump() for item in items]


def _register_tools(server: MCPServer[Any], db: Database) -> None:
    read = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
    destroy = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
    cap = db.max_rows

    @server.tool(
        annotations=read,
        description=(
            "List the tables and views of the database (or of one schema), sorted by name, "
            f"at most {ops.LIST_TABLES_CAP} per call. name_contains keeps the names containing "
            "a text (any case). Returns tables, count, total; when more remain, truncated: true "
            "and next_offset to pass as offset."
        ),
    )
    async def list_tables(
        name_contains: Annotated[
            str | None, Field(max_length=128, description="Keep names containing this text")
        ] = None,
        schema: Annotated[
            str | None, Field(max_length=128, description="The schema; the default one if omitted")
        ] = None,
        limit: Annotated[int | None, Field(ge=1, le=ops.LIST_TABLES_CAP)] = None,
        offset: Annotated[int, Field(ge=0, le=100_000_000)] = 0,
    ) -> ToolResult:
        return await _run(
            functools.partial(
                ops.list_tables,
                db,
                name_contains=name_contains,
                schema=schema,
                limit=limit,
                offset=offset,
            )
        )

    @server.tool(annotations=read)
    async def describe_table(table: TableName) -> ToolResult:
        """Describe a table: columns (type, nullable, unique), primary key, unique constraints, foreign keys, referencing tables, indexes, row count."""  # noqa: E501 - the model reads it on one line
        return await _run(ops.describe_table, db, table)

    @server.tool(
        annotations=read,
        description=(
            "Read rows of one table. Filters are structured conditions (column, operator, value) "
            "combined with AND; values are bound. Returns success, data, rowCount, columns and "
            f"truncated (true with a warning when the server's cap of {cap} rows cut the "
            "result); next_offset, when more rows remain, is the offset of the next page."
        ),
    )
    async def select_rows(  # noqa: PLR0913, PLR0917 - the tool's arguments, as the SDK reads them
        table: TableName,
        columns: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=128)]] | None,
            Field(max_length=200, description="Columns to return (all if omitted)"),
        ] = None,
        filters: Filters | None = None,
        order_by: Annotated[list[OrderBy] | None, Field(max_length=10)] = None,
        limit: Annotated[
            int | None,
            Field(
                ge=1,
                le=1_000_000,
                description=(f"Most rows to return; the server caps it at {cap}"),
            ),
        ] = None,
        offset: Annotated[int, Field(ge=0, le=100_000_000)] = 0,
    ) -> ToolResult:
        return await _run(
            functools.partial(
                ops.select_rows,
                db,
                table,
                columns=columns,
                filters=_dump(filters or []),
                order_by=_dump(order_by or []),
                limit=limit,
                offset=offset,
            )
        )

    if not db.read_only:
        _register_write_tools(server, db)
    multi = (
        "Several statements separated by ';' run in one transaction, one after the other."
        if db.allow_multi_statement
        else "One statement per call."
    )
    params_schema = Annotated[
        dict[str, Any] | list[Any] | None,
        Field(
            description="Bound values: an object for :name placeholders, or a list for ? "
            "placeholders"
        ),
    ]

    if db.read_only:
        sql_annotations, sql_description = (
            read,
            "Run a SQL statement that reads (SELECT, WITH, VALUES, EXPLAIN, SHOW, DESCRIBE), with "
            "bound parameters; the server refuses anything its parse does not prove to read. "
            f"Returns data, rowCount, columns and truncated. {multi} Prefer the table tools "
            "when they fit.",
        )
    else:
        sql_annotations, sql_description = (
            destroy,
            "Run SQL with bound parameters. Returns data, rowCount, columns and truncated for a "
            f"query, affectedRows otherwise. {multi} An UPDATE or DELETE without WHERE needs "
            "confirm_all: true. Prefer the table tools when they fit.",
        )

    if db.read_only:

        @server.tool(annotations=sql_annotations, description=sql_description)
        async def execute_sql(
            sql: Annotated[str, Field(min_length=1, max_length=100_000)],
            params: params_schema = None,
        ) -> ToolResult:
            return await _run(execute.execute_sql, db, sql, params)

        return

    @server.tool(annotations=sql_annotations, description=sql_description, name="execute_sql")
    async def execute_sql_writing(
        sql: Annotated[str, Field(min_length=1, max_length=100_000)],
        params: params_schema = None,
        confirm_all: Annotated[
            bool,
            Field(
                description="Required for an UPDATE or DELETE without WHERE: it changes every row"
            ),
        ] = False,
    ) -> ToolResult:
        return await _run(execute.execute_sql, db, sql, params, confirm_all)


def _register_write_tools(server: MCPServer[Any], db: Database) -> None:
    write = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    destroy = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

    @server.tool(
        annotations=write,
        description=(
            "Insert one or more rows (objects of column: value) in one transaction. Returns the "
            "inserted rows with generated keys where the backend can (RETURNING). String values "
            "are converted to the column's type. skip_on_conflict skips rows that would violate "
            "a unique key (ON CONFLICT DO NOTHING / INSERT IGNORE)."
        ),
    )
    async def insert_rows(
        table: TableName,
        rows: Annotated[list[dict[str, Any]], Field(min_length=1, max_length=1000)],
        skip_on_conflict: bool = False,
    ) -> ToolResult:
        return await _run(ops.insert_rows, db, table, rows, skip_on_conflict)

    @server.tool(
        annotations=destroy,
        description=(
            "Update the rows the filters select, setting values (column: value). Filters are "
            "required; without them pass confirm_all: true to update every row. Returns "
            "affectedRows (0 when nothing matched)."
        ),
    )
    async def update_rows(
        table: TableName,
        values: Annotated[dict[str, Any], Field(min_length=1, max_length=200)],
        filters: Filters | None = None,
        confirm_all: bool = False,
    ) -> ToolResult:
        return await _run(ops.update_rows, db, table, values, _dump(filters or []), confirm_all)

    @server.tool(
        annotations=destroy,
        description=(
            "Delete rows the filters select (mode 'rows'; without filters only with confirm_all: "
            "true), empty the table (mode 'truncate', with confirm: true) or drop it (mode "
            "'drop_table', with confirm: true). Returns affectedRows."
        ),
    )
    async def delete_rows(
        table: TableName,
        filters: Filters | None = None,
        confirm_all: bool = False,
        mode: Literal["rows", "truncate", "drop_table"] = "rows",
        confirm: bool = False,
    ) -> ToolResult:
        return await _run(
            functools.partial(
                ops.delete_rows,
                db,
                table,
                filters=_dump(filters or []),
                confirm_all=confirm_all,
                mode=mode,
                confirm=confirm,
            )
        )


def run_server(settings: ServerSettings) -> None:
    """
    Run the SQL tool server until the client disconnects (stdio) or it is stopped (http).

    Args:
        settings: What to serve and how.

    Raises:
        ValueError: Settings that cannot be served (an unknown transport, HTTP
            settings that would expose the server: `ServerSettings.problem`).
        DatabaseURLError: The URL cannot be used.
        LoginError: A read-only server's login is refused (see `build_server`).
    """
    problem = settings.problem()
    if problem:
        raise ValueError(problem)
    if not logging.getLogger().handlers:
        # stdout carries the protocol over stdio: log lines go to stderr only.
        logging.basicConfig(
            level=logging.INFO,
            stream=sys.stderr,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
    server = build_server(settings)
    if settings.transport == "stdio":
        server.run("stdio")
        return
    import uvicorn  # noqa: PLC0415 - the HTTP transport only

    host, port, token = settings.host, settings.port, settings.auth_token
    # The Host/Origin check is this server's own, from the address it binds
    # (`BoundHostMiddleware`): the SDK's knows three spellings only.
    unchecked = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app: Any = server.streamable_http_app(host=host, transport_security=unchecked)
    if token is not None:
        app = BearerTokenMiddleware(app, token)
    if is_loopback(host):
        # No token is needed on loopback: a page's DNS rebinding must not reach it.
        app = BoundHostMiddleware(app, host, port)
    logger.info(
        "listening on http://%s:%d/mcp (%s)",
        host,
        port,
        "bearer token required" if token is not None else "no token: this machine only",
    )
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="info")).run()


def main(argv: Sequence[str] | None = None, *, prog: str | None = None) -> int:
    """
    Run the server from the command line (``localdata-errors serve`` is this function too).

    Args:
        argv: The arguments (``sys.argv[1:]`` by default).
        prog: The program's name in usage and error lines.

    Returns:
        The exit status: 0; 2 for a usage error, an unusable URL or a login
        a read-only server refuses (one line on stderr, the password
        masked); 130 when interrupted.
    """
    prog = prog or "python -m localdata_errors.mcp.server"
    parser = add_arguments(
        argparse.ArgumentParser(
            prog=prog, description="SQL tools over MCP, with structured, actionable errors."
        )
    )
    settings = from_arguments(parser, parser.parse_args(argv))
    try:
        run_server(settings)
    except DatabaseURLError as exc:
        sys.stderr.write(f"{prog}: --url: {redact(str(exc))}\n")
        return 2
    except LoginError as exc:
        sys.stderr.write(f"{prog}: {redact(str(exc))}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
