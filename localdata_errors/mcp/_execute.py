"""
``execute_sql``: a SQL text split into the statements that run, each checked, then run.

The text is tokenized once, in the database's dialect, and split into its
statements (`localdata_errors.mcp._statements`); each statement runs as its
own call with the very text that was checked.  A read-only server runs only
statements whose parse proves they read (`localdata_errors.mcp._readonly`)
and, on PostgreSQL, whose function calls the catalogue allows
(`localdata_errors.mcp._functions`, asked inside the call's transaction).  A
read-write server asks for ``confirm_all`` before an UPDATE or DELETE that
the parse finds without a WHERE, as ``update_rows`` and ``delete_rows`` do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors._backends import sqlglot_dialect
from localdata_errors._kinds import Kind
from localdata_errors.mcp._functions import FunctionCall, catalog_refusal
from localdata_errors.mcp._operations import run_call
from localdata_errors.mcp._readonly import every_row_changes, read, refusal
from localdata_errors.mcp._recovery import Call
from localdata_errors.mcp._results import ToolInputError, make_response
from localdata_errors.mcp._rows import (
    Budget,
    Streamed,
    read_rows,
    stream_options,
    streams_itself,
)
from localdata_errors.mcp._sql import CallState, Database
from localdata_errors.mcp._statements import Statement, UnreadableSQLError, split

__all__ = ["READ_ONLY_MAX_LENGTH", "Checked", "execute_sql", "statements_of"]

JSONDict = dict[str, Any]

#: The longest ``execute_sql`` text a read-only server reads to prove it reads.
#: The proof is a parse (sqlglot, pure Python: 4 to 20 µs a character, more for
#: long texts; ``bench/readonly_check.py``), so its cost is bounded by refusing
#: a longer text before reading it: at this length a check takes at most a few
#: tenths of a second, in a worker thread.
READ_ONLY_MAX_LENGTH: Final = 20_000

_DML: Final = frozenset({"INSERT", "UPDATE", "DELETE"})
# Statements that stay inside the call's transaction on every backend; DDL
# does too except on MySQL/MariaDB, where it commits by itself.
_TRANSACTIONAL: Final = frozenset(
    {"SELECT", "WITH", "VALUES", "TABLE", "FROM", "EXPLAIN", "SHOW", "DESCRIBE", "DESC", "PRAGMA"}
    | {"INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "REPLACE"}
)
_TRANSACTIONAL_DDL: Final = frozenset({"CREATE", "DROP", "ALTER", "TRUNCATE", "COMMENT"})


class Checked(NamedTuple):
    """A statement of ``execute_sql`` and what the read-only check still asks the engine."""

    statement: Statement
    #: The functions it calls, for PostgreSQL's catalogue to judge in the
    #: call's transaction (read-only mode); ``None`` when nothing is asked.
    calls: tuple[FunctionCall, ...] | None = None
    #: Its rows are read as they come (a server-side cursor).
    stream: bool = False


def execute_sql(
    db: Database,
    sql: str,
    params: Mapping[str, Any] | Sequence[Any] | None,
    confirm_all: bool = False,
) -> JSONDict:
    """
    Run SQL with bound parameters: rows for a query, the affected count otherwise.

    Args:
        db: The database.
        sql: One statement, or several with ``--allow-multi-statement``.
        params: Bound values: a mapping for ``:name``, a list for ``?``.
        confirm_all: The caller means an UPDATE or DELETE without WHERE to
            change every row (read-write servers).
    """
    checked = statements_of(db, sql)
    statements = [c.statement for c in checked]
    if not db.read_only and not confirm_all:
        _require_where(db, statements)
    if isinstance(params, Sequence) and not isinstance(params, str) and len(statements) > 1:
        raise ToolInputError(
            make_response(
                Kind.INVALID_PARAMETER,
                "Positional parameters apply to one statement; use named parameters (:name) "
                "with several statements.",
            )
        )

    budget = Budget(db.max_bytes)

    def work(conn: Connection, state: CallState) -> JSONDict:
        results: list[JSONDict] = []
        budget.used = 0  # a call run again starts with the whole budget
        for number, (statement, calls, stream) in enumerate(checked, start=1):
            state.keyword, state.text = statement.keyword, statement.text
            if calls is not None:
                # The catalogue, in this very transaction and search_path.
                reason = catalog_refusal(conn, calls)
                if reason is not None:
                    where = _which(statement, number if len(checked) > 1 else None)
                    db.refuse_write(f"{where} is not proven to only read ({reason})")
            results.append(_run_one(db, conn, statement, params, budget=budget, stream=stream))
        if len(results) == 1:
            return {"success": True, **results[0]}
        return {"success": True, "statementCount": len(results), "results": results}

    keywords = {s.keyword for s in statements}
    kept = (
        _TRANSACTIONAL
        if db.dialect in ("mysql", "mariadb")
        else _TRANSACTIONAL | _TRANSACTIONAL_DDL
    )
    call = Call(
        write=not db.read_only,
        reads_only=lambda: _reads_only(db, statements),
        self_committing=lambda: not keywords <= kept,
    )
    return run_call(db, call, work, sql=sql)


# The statements that may change every row of a table when they lack a WHERE.
_SCOPED: Final = frozenset({"UPDATE", "DELETE", "WITH"})


def _require_where(db: Database, statements: Sequence[Statement]) -> None:
    """
    Ask for ``confirm_all`` before an UPDATE or DELETE the parse finds without a WHERE.

    The parse says so, anywhere in the statement (``WITH d AS (DELETE FROM t
    RETURNING *) SELECT ...`` too).  A statement that would need the check
    and cannot be read (too long, or not parseable) is not proven to be
    filtered: it asks for the confirmation as well.
    """
    dialect = _parser_dialect(db)
    for number, statement in enumerate(statements, start=1):
        if statement.keyword not in _SCOPED:
            continue
        problem = _unfiltered(statement, dialect)
        if problem is None:
            continue
        where = _which(statement, number if len(statements) > 1 else None)
        raise ToolInputError(
            make_response(
                Kind.INVALID_PARAMETER,
                f"{where[:1].upper()}{where[1:]} {problem}: it would change every row of its "
                "table. Add a WHERE clause, or pass confirm_all: true to mean every row.",
                actions=(
                    "Add a WHERE clause that selects the rows to change",
                    "Or pass confirm_all: true if every row is meant",
                ),
            ),
            {
                "fields": [
                    {"field": "confirm_all", "problem": "required for a change of every row"}
                ],
                "invalid_fields": ["confirm_all"],
                "required_arguments": {"confirm_all": True},
            },
        )


def _unfiltered(statement: Statement, dialect: str | None) -> str | None:
    """What makes a statement change every row, in words; ``None`` when its parse shows WHEREs."""
    if len(statement.text) > READ_ONLY_MAX_LENGTH:
        return f"is too long to be read for its WHERE (over {READ_ONLY_MAX_LENGTH:,} characters)"
    try:
        found = every_row_changes(statement.text, dialect, statement.tokens)
    except UnreadableSQLError as exc:
        return f"could not be read for its WHERE ({exc})"
    if not found:
        return None
    return f"has no WHERE clause for its {' and '.join(dict.fromkeys(found))}"


def _reads_only(db: Database, statements: Sequence[Statement]) -> bool:
    """Whether every statement is proven to read, by the check read-only mode uses."""
    if db.read_only:
        return True  # checked already, and the database refuses writes besides
    dialect = _parser_dialect(db)
    try:
        return all(refusal(s.text, dialect, s.comments, s.tokens) is None for s in statements)
    except UnreadableSQLError:
        return False


def _run_one(  # noqa: PLR0913 - one statement, and the call's bounds
    db: Database,
    conn: Connection,
    statement: Statement,
    params: Mapping[str, Any] | Sequence[Any] | None,
    *,
    budget: Budget,
    stream: bool,
) -> JSONDict:
    with db.statement_deadline(conn):
        return _run_and_read(db, conn, statement, params, budget=budget, stream=stream)


def _run_and_read(  # noqa: PLR0913 - one statement, and the call's bounds
    db: Database,
    conn: Connection,
    statement: Statement,
    params: Mapping[str, Any] | Sequence[Any] | None,
    *,
    budget: Budget,
    stream: bool,
) -> JSONDict:
    result: Any
    if stream and streams_itself(conn):
        query, values = db.clause(statement, params)
        bound: Any = None
        if values is not None:
            # The driver's own placeholders, as SQLAlchemy would have sent them.
            compiled = sa.text(query).compile(dialect=conn.dialect)
            query, bound = compiled.string, compiled.construct_params(values)
        result = Streamed(conn, query, bound)
    else:
        result = db.execute(conn, statement, params, stream_options(db.dialect) if stream else {})
    if result.returns_rows:
        if (
            db.dialect == "duckdb"
            and statement.keyword in _DML
            and list(result.keys()) == ["Count"]
        ):
            # DuckDB answers INSERT/UPDATE/DELETE with a one-row result: the count.
            return {"affectedRows": int(result.scalar() or 0)}
        read = read_rows(result, db.max_rows, budget)
        out: JSONDict = {
            "data": read.data,
            "rowCount": len(read.data),
            "columns": read.columns,
            "truncated": read.more,
        }
        if read.more and not read.by_bytes:
            out["max_rows"] = db.max_rows
            out["warning"] = (
                f"The result was cut at the server's row cap of {db.max_rows} rows; "
                "add a WHERE clause, or page with LIMIT and OFFSET."
            )
        read.report(out, budget)
        return out
    return {"affectedRows": max(result.rowcount, 0)}


# Statements whose rows may be streamed once the parse shows they are queries.
_QUERY_KEYWORDS: Final = frozenset({"SELECT", "WITH", "VALUES", "TABLE", ""})


def _streams(db: Database, statement: Statement, query: bool | None) -> bool:
    """
    Whether a statement's rows are read through a server-side cursor.

    MySQL/MariaDB's drivers stream any statement.  PostgreSQL's server-side
    cursor (``DECLARE``) takes queries only: what the parse shows to be one
    (*query*, from read-only mode's reading; read here otherwise).
    """
    if db.dialect in ("mysql", "mariadb"):
        return True
    if db.dialect != "postgresql" or statement.keyword not in _QUERY_KEYWORDS:
        return False
    if query is not None:
        return query
    if len(statement.text) > READ_ONLY_MAX_LENGTH:
        return False
    try:
        reading = read(statement.text, _parser_dialect(db), statement.comments, statement.tokens)
    except UnreadableSQLError:
        return False
    return reading.reason is None and reading.query


def _parser_dialect(db: Database) -> str | None:
    return sqlglot_dialect(db.dialect) or db.dialect


def statements_of(db: Database, sql: str) -> list[Checked]:
    """
    Split an ``execute_sql`` text into the statements that will run, checked.

    The statement count and, in read-only mode, the check of each statement
    come from one tokenization of the text; each statement then runs as its
    own call with the very text that was checked.

    Raises:
        ToolInputError: no statement or an unreadable text (``syntax_error``),
            several statements when one is allowed (``feature_not_supported``),
            a statement not proven to read in read-only mode (``read_only``).
    """
    dialect = _parser_dialect(db)
    if db.read_only and len(sql) > READ_ONLY_MAX_LENGTH:
        db.refuse_write(
            f"the SQL text is not proven to only read (it is {len(sql):,} characters long, and "
            f"the read-only check reads at most {READ_ONLY_MAX_LENGTH:,}: send shorter "
            "statements, one per call, or use select_rows)"
        )
    try:
        parts = split(sql, dialect, strip_comments=db.read_only)
    except UnreadableSQLError as exc:
        if db.read_only:
            raise _unreadable(db, str(exc)) from None
        # Without read-only mode the database is the judge of its own syntax.
        first = sql.split(maxsplit=1)
        parts = [Statement(text=sql.strip(), keyword=first[0].upper() if first else "")]
    if not parts:
        raise ToolInputError(make_response(Kind.SYNTAX_ERROR, "The SQL text holds no statement."))
    if len(parts) > 1 and not db.allow_multi_statement:
        raise ToolInputError(
            make_response(
                Kind.FEATURE_NOT_SUPPORTED,
                f"The SQL text holds {len(parts)} statements; this server runs one statement "
                "per call (it was started without --allow-multi-statement).",
                actions=("Send each statement in its own execute_sql call",),
            ),
            {"statement_count": len(parts)},
        )
    if not db.read_only:
        return [Checked(part, stream=_streams(db, part, None)) for part in parts]
    checked: list[Checked] = []
    for number, part in enumerate(parts, start=1):
        shown = number if len(parts) > 1 else None
        try:
            reading = read(part.text, dialect, part.comments, part.tokens)
        except UnreadableSQLError as exc:
            raise _unreadable(db, str(exc), shown) from None
        if reading.reason is not None:
            db.refuse_write(f"{_which(part, shown)} is not proven to only read ({reading.reason})")
        calls = reading.calls if db.dialect == "postgresql" else None
        checked.append(Checked(part, calls, _streams(db, part, reading.query)))
    return checked


def _which(statement: Statement, number: int | None) -> str:
    if number is not None:
        return f"statement {number} ({statement.keyword or '?'})"
    return f"the {statement.keyword or '?'} statement"


def _unreadable(db: Database, problem: str, number: int | None = None) -> ToolInputError:
    where = f"Statement {number}" if number else "The SQL text"
    return ToolInputError(
        make_response(
            Kind.SYNTAX_ERROR,
            f"{where} could not be parsed as {db.dialect} SQL ({problem}); a read-only server "
            "runs only statements it can parse and prove to read.",
            database=db.dialect,
            actions=(
                "Check the statement's syntax",
                "Rewrite it as a plain SELECT the server can parse",
            ),
        )
    )
