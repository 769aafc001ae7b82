"""
What each tool of the SQL tool server does, on a `Database`.

Each operation returns a JSON-ready dict on success and raises a
`ClassifiedError` on failure: a `ToolInputError` for what the server refuses
itself, a `ClassifiedDatabaseError` for what the database refuses.  A database
error is classified once (`localdata_errors.mcp._recovery`, which also rolls
back, reconnects and runs the call again where the server can) and then
explained here, while the operation still knows its table: a foreign key's
other tables and direction (from the introspected schema when the backend
does not name them), and for ``execute_sql`` the existing names closest to
one that does not exist.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors._kinds import Kind
from localdata_errors._response import StructuredErrorResponse
from localdata_errors.mcp import _hints, _schema
from localdata_errors.mcp._recovery import Call, ClassifiedDatabaseError, run
from localdata_errors.mcp._results import ToolInputError, make_response
from localdata_errors.mcp._rows import (
    Budget,
    read_rows,
    stream_options,
)
from localdata_errors.mcp._sql import CallState, Database, jsonable

__all__ = [
    "LIST_TABLES_CAP",
    "delete_rows",
    "describe_table",
    "insert_rows",
    "list_tables",
    "run_call",
    "select_rows",
    "update_rows",
]

JSONDict = dict[str, Any]

#: The most tables one ``list_tables`` call returns; ``offset`` pages on.
LIST_TABLES_CAP: Final = 500

_FK_KINDS: Final = frozenset({Kind.FOREIGN_KEY_VIOLATION, Kind.DEPENDENT_OBJECTS_STILL_EXIST})
_NOT_FOUND_KINDS: Final = frozenset({Kind.UNDEFINED_TABLE, Kind.UNDEFINED_COLUMN})
_MODE_VERBS: Final = {"rows": "DELETE", "truncate": "TRUNCATE", "drop_table": "DROP"}


class _Failed(NamedTuple):
    """What a refused call was: its table, what it did, the statement that failed."""

    table: str | None
    verb: str
    sql: str | None


def run_call(  # noqa: PLR0913 - the call, its work, and what explains its failure
    db: Database,
    call: Call,
    work: Callable[[Connection, CallState], JSONDict],
    *,
    table: str | None = None,
    verb: str = "",
    sql: str | None = None,
) -> JSONDict:
    """Run one call through the recovery; explain a database refusal with the schema's help."""
    try:
        result, notes = run(db, call, work)
    except ClassifiedDatabaseError as failure:
        # For execute_sql: the statement that failed, of the text's statements.
        failed = failure.state.text or sql
        _explain(db, failure, _Failed(table, verb or failure.state.keyword, failed))
        raise
    if notes:
        result["recovered"] = notes
    return result


def _explain(db: Database, failure: ClassifiedDatabaseError, what: _Failed) -> None:
    """Add what the schema says to a classified refusal (never fails: a hint is an aid)."""
    kind = failure.response.kind
    if kind not in _FK_KINDS and (kind not in _NOT_FOUND_KINDS or what.sql is None):
        return
    try:
        with db.engine.connect() as conn:
            if kind in _FK_KINDS:
                _explain_foreign_key(db, conn, failure, what)
            elif what.sql is not None:
                names = _schema.table_names(conn)
                hints = _hints.missing_name_hints(db, conn, failure.response, what.sql, names)
                failure.response, failure.details = _hints.with_hints(
                    failure.response, failure.details, hints
                )
    except (sa.exc.SQLAlchemyError, ToolInputError):
        return


def _failed_table(
    db: Database, conn: Connection, response: StructuredErrorResponse, what: _Failed
) -> str | None:
    if what.table is not None:
        return what.table
    # execute_sql: the first table the error names that is not a dependency,
    # else the first table the statement names (SQLite names none).
    known = {n.lower(): n for n in _schema.table_names(conn)}
    named = [*response.affected_resources]
    named += [t for s, t in _hints.statement_tables(what.sql or "", db.dialect) if s is None]
    deps = set(response.dependencies)
    return next((known[r.lower()] for r in named if r.lower() in known and r not in deps), None)


def _explain_foreign_key(
    db: Database, conn: Connection, failure: ClassifiedDatabaseError, what: _Failed
) -> None:
    response = failure.response
    name = _failed_table(db, conn, response, what)
    if name is None:
        return
    deps = list(response.dependencies)
    target = _schema.find_table(db, conn, name)
    children = _schema.referencing_tables(db, conn, target.name, target.schema)
    parents = _schema.referenced_tables(db, conn, target.name, target.schema)
    role = _hints.dependency_role(what.verb)
    if role is None:  # an UPDATE (or a statement that names no side): the schema says
        if set(deps) & set(children):
            role = "child"
        elif set(deps) & set(parents) or parents:
            role = "parent"
        elif children:
            role = "child"
    if role is None:
        return
    if not deps:
        # The backend named no other table (SQLite; MariaDB's DROP refusal).
        deps = children if role == "child" else parents
    response = response.replace(
        dependencies=tuple(deps),
        affected_resources=tuple(dict.fromkeys((*response.affected_resources, target.name))),
    )
    shown = _schema.qualified(target)
    failure.response, extra = _hints.foreign_key_advice(response, role, what.verb, shown)
    failure.details.update(extra)


def list_tables(
    db: Database,
    *,
    name_contains: str | None = None,
    schema: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> JSONDict:
    """
    The tables and views of a schema, filtered by name and paged.

    Args:
        db: The database.
        name_contains: Keep the names that contain this text, in any case.
        schema: The schema (the default one when ``None``).
        limit: The most names to return, at most `LIST_TABLES_CAP`.
        offset: How many matching names to skip (``next_offset`` of the previous page).

    Returns:
        ``tables`` (``name``, ``type``), ``count``, ``total`` (the matching
        names), and, when more remain, ``truncated: true``, ``limit`` and
        ``next_offset``.
    """
    size = min(limit or LIST_TABLES_CAP, LIST_TABLES_CAP)

    def work(conn: Connection, _state: CallState) -> JSONDict:
        actual = _schema_named(db, conn, schema) if schema is not None else None
        views = _schema.view_names(conn, actual)
        names = sorted(_schema.table_names(conn, actual))
        if name_contains:
            needle = name_contains.lower()
            names = [n for n in names if needle in n.lower()]
        page = names[offset : offset + size]
        out: JSONDict = {
            "success": True,
            "tables": [{"name": n, "type": "view" if n in views else "table"} for n in page],
            "count": len(page),
            "total": len(names),
            "database": db.dialect,
        }
        if actual is not None:
            out["schema"] = actual
        more = offset + len(page) < len(names)
        out["truncated"] = more
        if more:
            out.update(limit=size, next_offset=offset + len(page))
        return out

    return run_call(db, Call(write=False, reads_only=lambda: True), work)


def _schema_named(db: Database, conn: Connection, schema: str) -> str:
    """The schema called *schema* (exactly, else in another case), or ``undefined_schema``."""
    schemas = _schema.schema_names(conn)
    if not schemas or schema in schemas:
        return schema
    folded = [s for s in schemas if s.lower() == schema.lower()]
    if len(folded) == 1:
        return folded[0]
    response = make_response(
        Kind.UNDEFINED_SCHEMA,
        f"The schema '{schema}' does not exist.",
        affected_resources=(schema,),
        database=db.dialect,
    )
    hints = _hints.close_names(schema, schemas)
    raise ToolInputError(*_hints.with_hints(response, {"available_schemas": schemas[:100]}, hints))


def describe_table(db: Database, table: str) -> JSONDict:
    """Columns (types, nullability, uniqueness, defaults), keys, indexes, row count."""

    def work(conn: Connection, _state: CallState) -> JSONDict:
        return {"success": True, **_schema.describe(db, conn, table)}

    return run_call(db, Call(write=False, reads_only=lambda: True), work, table=table)


def select_rows(  # noqa: PLR0913 - one per tool argument
    db: Database,
    table: str,
    *,
    columns: Sequence[str] | None,
    filters: Sequence[Mapping[str, Any]],
    order_by: Sequence[Mapping[str, Any]],
    limit: int | None,
    offset: int,
) -> JSONDict:
    """Read rows with structured filters; the server's row cap applies, ``next_offset`` pages on."""
    capped = limit is None or limit > db.max_rows
    effective = db.max_rows if capped else int(limit or 0)

    def work(conn: Connection, _state: CallState) -> JSONDict:
        tbl = db.table(conn, table)
        cols = [db.column(tbl, c) for c in columns] if columns else list(tbl.columns)
        stmt = sa.select(*cols).where(*db.conditions(tbl, filters))
        for item in order_by:
            col = db.column(tbl, str(item["column"]))
            desc = str(item.get("direction", "asc")).lower() == "desc"
            stmt = stmt.order_by(col.desc() if desc else col.asc())
        stmt = stmt.limit(effective + 1)
        if offset:
            stmt = stmt.offset(offset)
        budget = Budget(db.max_bytes)
        read = read_rows(
            conn.execute(stmt, execution_options=stream_options(db.dialect)), effective, budget
        )
        rows, more = read.data, read.more
        out: JSONDict = {
            "success": True,
            "data": rows,
            "rowCount": len(rows),
            "columns": read.columns,
            "truncated": bool(more and capped),
        }
        if more:
            out["next_offset"] = offset + len(rows)
        if more and capped and not read.by_bytes:
            out["max_rows"] = db.max_rows
            out["warning"] = (
                f"The result was cut at the server's row cap of {db.max_rows} rows; "
                f"narrow the filters or page with offset {offset + len(rows)}."
            )
        elif more and not read.by_bytes:
            out["hasMore"] = True
        read.report(out, budget)
        return out

    return run_call(db, Call(write=False, reads_only=lambda: True), work, table=table)


def _insert_statement(db: Database, table: sa.Table, skip_on_conflict: bool) -> Any:
    if not skip_on_conflict:
        return sa.insert(table)
    if db.dialect in ("postgresql", "duckdb"):
        from sqlalchemy.dialects import postgresql  # noqa: PLC0415 - only for this backend

        return postgresql.insert(table).on_conflict_do_nothing()
    if db.dialect == "sqlite":
        from sqlalchemy.dialects import sqlite  # noqa: PLC0415 - only for this backend

        return sqlite.insert(table).on_conflict_do_nothing()
    if db.dialect in ("mysql", "mariadb"):
        # INSERT IGNORE: MySQL's only statement-level "skip duplicates".
        return sa.insert(table).prefix_with("IGNORE")
    raise ToolInputError(
        make_response(
            Kind.FEATURE_NOT_SUPPORTED,
            f"skip_on_conflict is not supported on {db.dialect}.",
            database=db.dialect,
        )
    )


def insert_rows(
    db: Database, table: str, rows: Sequence[Mapping[str, Any]], skip_on_conflict: bool
) -> JSONDict:
    """Insert rows in one transaction; return them with generated keys where the backend can."""

    def work(conn: Connection, _state: CallState) -> JSONDict:
        tbl = db.table(conn, table)
        prepared: list[JSONDict] = []
        for row in rows:
            values: JSONDict = {}
            for key, value in row.items():
                col = db.column(tbl, str(key))
                values[col.name] = db.coerce(col, value)
            prepared.append(values)
        base = _insert_statement(db, tbl, skip_on_conflict)
        returned, inserted = _insert(conn, tbl, base, prepared)
        out: JSONDict = {
            "success": True,
            "table": _schema.qualified(tbl),
            "insertedCount": inserted,
            "rows": returned,
        }
        if skip_on_conflict:
            out["skippedCount"] = len(prepared) - inserted
        return out

    return run_call(db, Call(write=True), work, table=table, verb="INSERT")


def _insert(
    conn: Connection, tbl: sa.Table, base: Any, prepared: list[JSONDict]
) -> tuple[list[JSONDict], int]:
    dialect = conn.dialect
    returned: list[JSONDict] = []
    inserted = 0
    # Rows with the same keys go in one executemany; differing key sets
    # cannot share a statement, but share the transaction.
    for group in _groups(prepared):
        many = dialect.insert_executemany_returning
        if dialect.insert_returning and (len(group) == 1 or many):
            result = conn.execute(base.returning(*tbl.columns), group)
            names = list(result.keys())
            got = [{k: jsonable(v) for k, v in zip(names, r, strict=False)} for r in result]
            returned += got
            inserted += len(got)
            continue
        for values in group:
            result = conn.execute(base, values)
            count = max(result.rowcount, 0)
            inserted += count
            if count:
                generated = result.inserted_primary_key or ()
                pk = list(tbl.primary_key.columns)
                row_out = {k: jsonable(v) for k, v in values.items()}
                for col, value in zip(pk, generated, strict=False):
                    if value is not None:
                        row_out.setdefault(col.name, jsonable(value))
                returned.append(row_out)
    return returned, inserted


def _groups(rows: list[JSONDict]) -> Iterator[list[JSONDict]]:
    current: list[JSONDict] = []
    keys: tuple[str, ...] | None = None
    for row in rows:
        row_keys = tuple(row)
        if keys is not None and row_keys != keys:
            yield current
            current = []
        keys = row_keys
        current.append(row)
    if keys is not None:
        yield current


def _require_scope(tool: str, filters: Sequence[Any], confirm_all: bool) -> None:
    if not filters and not confirm_all:
        raise ToolInputError(
            make_response(
                Kind.INVALID_PARAMETER,
                f"{tool} without filters would change every row of the table; pass filters, "
                "or confirm_all: true to mean every row.",
                actions=(
                    "Add filters that select the rows to change",
                    "Or pass confirm_all: true if every row is meant",
                ),
            ),
            {
                "fields": [{"field": "filters", "problem": "required unless confirm_all is true"}],
                "invalid_fields": ["filters"],
            },
        )


def update_rows(
    db: Database,
    table: str,
    values: Mapping[str, Any],
    filters: Sequence[Mapping[str, Any]],
    confirm_all: bool,
) -> JSONDict:
    """Update the rows the filters select; without filters only with ``confirm_all``."""
    _require_scope("update_rows", filters, confirm_all)

    def work(conn: Connection, _state: CallState) -> JSONDict:
        tbl = db.table(conn, table)
        changes: JSONDict = {}
        for key, value in values.items():
            col = db.column(tbl, str(key))
            changes[col.name] = db.coerce(col, value)
        stmt = sa.update(tbl).where(*db.conditions(tbl, filters)).values(changes)
        affected = max(conn.execute(stmt).rowcount, 0)
        name = _schema.qualified(tbl)
        out: JSONDict = {"success": True, "table": name, "affectedRows": affected}
        if not filters:
            out["warning"] = f"No filters: every row of '{name}' was updated ({affected} rows)."
        return out

    return run_call(db, Call(write=True), work, table=table, verb="UPDATE")


def _refuse_unconfirmed(table: str, mode: str) -> None:
    if mode == "drop_table":
        what = (
            "drops the table itself (its definition and every row), not only its rows",
            f"Pass confirm: true with mode 'drop_table' to drop table '{table}' itself",
        )
    else:
        what = (
            "removes every row of the table (the table itself stays)",
            f"Pass confirm: true with mode 'truncate' to remove every row of '{table}'",
        )
    raise ToolInputError(
        make_response(
            Kind.INVALID_PARAMETER,
            f"mode '{mode}' {what[0]}; pass confirm: true to mean it.",
            affected_resources=(table,),
            actions=(what[1], "Or use mode 'rows' with filters to delete only some rows"),
        ),
        {
            "fields": [{"field": "confirm", "problem": f"must be true for mode '{mode}'"}],
            "invalid_fields": ["confirm"],
            "required_arguments": {"confirm": True},
        },
    )


def delete_rows(  # noqa: PLR0913 - one per tool argument
    db: Database,
    table: str,
    *,
    filters: Sequence[Mapping[str, Any]],
    confirm_all: bool,
    mode: str,
    confirm: bool,
) -> JSONDict:
    """Delete rows (filters required unless ``confirm_all``), truncate, or drop the table."""
    if mode in ("truncate", "drop_table") and not confirm:
        _refuse_unconfirmed(table, mode)
    if mode == "rows":
        _require_scope("delete_rows", filters, confirm_all)

    def work(conn: Connection, _state: CallState) -> JSONDict:
        tbl = db.table(conn, table)
        name = _schema.qualified(tbl)
        if mode == "drop_table":
            _refuse_referenced_drop(db, conn, tbl)
            conn.execute(sa.schema.DropTable(tbl))
            return {"success": True, "table": name, "dropped": True}
        if mode == "truncate":
            affected = _truncate(db, conn, tbl)
            return {
                "success": True,
                "table": name,
                "truncated": True,
                **({"affectedRows": affected} if affected is not None else {}),
            }
        stmt = sa.delete(tbl).where(*db.conditions(tbl, filters))
        affected = max(conn.execute(stmt).rowcount, 0)
        out: JSONDict = {"success": True, "table": name, "affectedRows": affected}
        if not filters:
            out["warning"] = f"No filters: every row of '{name}' was deleted ({affected} rows)."
        return out

    # MySQL/MariaDB commit DROP and TRUNCATE by themselves.
    ddl = mode != "rows" and db.dialect in ("mysql", "mariadb")
    call = Call(write=True, self_committing=lambda: ddl)
    return run_call(db, call, work, table=table, verb=_MODE_VERBS.get(mode, "DELETE"))


def _refuse_referenced_drop(db: Database, conn: Connection, tbl: sa.Table) -> None:
    # SQLite drops a referenced table silently when it has no rows, leaving
    # the children's foreign keys dangling; refuse as the other engines do.
    if db.dialect != "sqlite":
        return
    children = _schema.referencing_tables(db, conn, tbl.name, tbl.schema)
    if children:
        name = _schema.qualified(tbl)
        response = make_response(
            Kind.DEPENDENT_OBJECTS_STILL_EXIST,
            f"Cannot drop table '{name}': foreign keys of {', '.join(children)} reference it.",
            affected_resources=(tbl.name,),
            dependencies=children,
            database=db.dialect,
        )
        raise ToolInputError(*_hints.foreign_key_advice(response, "child", "DROP", name))


def _truncate(db: Database, conn: Connection, tbl: sa.Table) -> int | None:
    if db.dialect == "sqlite":
        # SQLite has no TRUNCATE; its DELETE without WHERE is optimised the same way.
        return max(conn.execute(sa.delete(tbl)).rowcount, 0)
    quoted = conn.dialect.identifier_preparer.format_table(tbl)
    conn.exec_driver_sql(f"TRUNCATE TABLE {quoted}")
    return None
