"""
What each tool of the SQL tool server does, on a :class:`~localdata_errors.mcp._sql.Database`.

Each operation returns a JSON-ready dict on success and raises on failure:
:class:`~localdata_errors.mcp.ToolInputError` for what the server refuses
itself, the driver's exception (through SQLAlchemy) for what the database
refuses.  A database refusal is classified here, while the operation still
knows its table, so that a foreign-key error the backend reports without
naming the other table gets its dependencies from the introspected schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors.classify import classify_error
from localdata_errors.kinds import Kind
from localdata_errors.mcp._results import ToolInputError, make_response
from localdata_errors.mcp._sql import Database, StatementTimeoutError, jsonable, statements_of
from localdata_errors.mcp._sqltext import to_named_placeholders

__all__ = ["delete_rows", "describe_table", "execute_sql", "insert_rows", "list_tables",
           "select_rows", "update_rows"]

JSONDict = dict[str, Any]

_FK_KINDS: Final = frozenset({Kind.FOREIGN_KEY_VIOLATION, Kind.DEPENDENT_OBJECTS_STILL_EXIST})
_DML: Final = frozenset({"INSERT", "UPDATE", "DELETE"})


@contextmanager
def _classified(db: Database, table: str | None, *, child_side: bool) -> Iterator[None]:
    """
    Classify a database failure; fill missing foreign-key dependencies from the schema.

    Args:
        db: The database.
        table: The table the operation works on.
        child_side: Whether the operation writes rows that *reference* others
            (insert, update: the parent tables come first) rather than rows or
            tables that others reference (delete, drop: the child tables do).
    """
    try:
        yield
    except ToolInputError:
        raise
    except StatementTimeoutError as exc:
        raise ToolInputError(make_response(Kind.STATEMENT_TIMEOUT, str(exc),
                                           database=db.dialect)) from exc
    except sa.exc.DBAPIError as exc:
        response = classify_error(exc, db.db_type, secrets=db.secrets)
        if response.kind in _FK_KINDS and not response.dependencies and table:
            try:
                with db.engine.connect() as conn:
                    deps = (db.referenced_tables(conn, table) if child_side
                            else db.referencing_tables(conn, table))
            except sa.exc.SQLAlchemyError:
                deps = []
            if deps:
                response = response.replace(
                    dependencies=tuple(deps),
                    affected_resources=tuple(dict.fromkeys((*response.affected_resources, table))),
                    suggestion=response.suggestion.rstrip(".")
                    + f" (change {', '.join(deps)} first).")
        raise ToolInputError(response) from exc


def list_tables(db: Database) -> JSONDict:
    """The tables and views of the default schema, with their column counts."""
    with _classified(db, None, child_side=False), db.transaction(write=False) as conn:
        names = db.table_names(conn)
        inspector = sa.inspect(conn)
        views = set()
        try:
            views = set(inspector.get_view_names())
        except NotImplementedError:
            views = set()
        tables = [{"name": n, "type": "view" if n in views else "table"} for n in sorted(names)]
    return {"success": True, "tables": tables, "count": len(tables), "database": db.dialect}


def describe_table(db: Database, table: str) -> JSONDict:
    """Columns (types, nullability, defaults), keys, foreign keys, indexes, row count."""
    with _classified(db, table, child_side=False), db.transaction(write=False) as conn:
        return {"success": True, **db.describe(conn, table)}


def _fetch(result: sa.CursorResult[Any], cap: int) -> tuple[list[str], list[JSONDict], bool]:
    columns = list(result.keys())
    raw = result.fetchmany(cap + 1)
    more = len(raw) > cap
    rows = [{k: jsonable(v) for k, v in zip(columns, row, strict=False)} for row in raw[:cap]]
    return columns, rows, more


def select_rows(db: Database, table: str, *, columns: Sequence[str] | None,  # noqa: PLR0913 - one per tool argument
                filters: Sequence[Mapping[str, Any]], order_by: Sequence[Mapping[str, Any]],
                limit: int | None, offset: int) -> JSONDict:
    """Read rows with structured filters; the server's row cap applies."""
    with _classified(db, table, child_side=False), db.transaction(write=False) as conn:
        tbl = db.table(conn, table)
        cols = [db.column(tbl, c) for c in columns] if columns else list(tbl.columns)
        stmt = sa.select(*cols).where(*db.conditions(tbl, filters))
        for item in order_by:
            col = db.column(tbl, str(item["column"]))
            desc = str(item.get("direction", "asc")).lower() == "desc"
            stmt = stmt.order_by(col.desc() if desc else col.asc())
        capped = limit is None or limit > db.max_rows
        effective = db.max_rows if capped else int(limit or 0)
        stmt = stmt.limit(effective + 1)
        if offset:
            stmt = stmt.offset(offset)
        names, rows, more = _fetch(conn.execute(stmt), effective)
    out: JSONDict = {"success": True, "data": rows, "rowCount": len(rows), "columns": names,
                     "truncated": bool(more and capped)}
    if more and capped:
        out["warning"] = (f"The result was cut at the server's row cap of {db.max_rows} rows; "
                          "narrow the filters or page with offset.")
    elif more:
        out["hasMore"] = True
    return out


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
    raise ToolInputError(make_response(
        Kind.FEATURE_NOT_SUPPORTED,
        f"skip_on_conflict is not supported on {db.dialect}.", database=db.dialect))


def insert_rows(db: Database, table: str, rows: Sequence[Mapping[str, Any]],
                skip_on_conflict: bool) -> JSONDict:
    """Insert rows in one transaction; return them with generated keys where the backend can."""
    with _classified(db, table, child_side=True), db.transaction(write=True) as conn:
        tbl = db.table(conn, table)
        prepared: list[JSONDict] = []
        for row in rows:
            values: JSONDict = {}
            for key, value in row.items():
                col = db.column(tbl, str(key))
                values[col.name] = db.coerce(col, value)
            prepared.append(values)
        base = _insert_statement(db, tbl, skip_on_conflict)
        dialect = conn.dialect
        returned: list[JSONDict] = []
        inserted = 0
        # Rows with the same keys go in one executemany; differing key sets
        # cannot share a statement, but share the transaction.
        for keys, group in _groups(prepared):
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
            del keys
    out: JSONDict = {"success": True, "table": tbl.name, "insertedCount": inserted,
                     "rows": returned}
    if skip_on_conflict:
        out["skippedCount"] = len(prepared) - inserted
    return out


def _groups(rows: list[JSONDict]) -> Iterator[tuple[tuple[str, ...], list[JSONDict]]]:
    current: list[JSONDict] = []
    keys: tuple[str, ...] | None = None
    for row in rows:
        row_keys = tuple(row)
        if keys is not None and row_keys != keys:
            yield keys, current
            current = []
        keys = row_keys
        current.append(row)
    if keys is not None:
        yield keys, current


def _require_scope(tool: str, filters: Sequence[Any], confirm_all: bool) -> None:
    if not filters and not confirm_all:
        raise ToolInputError(
            make_response(
                Kind.INVALID_PARAMETER,
                f"{tool} without filters would change every row of the table; pass filters, "
                "or confirm_all: true to mean every row.",
                actions=("Add filters that select the rows to change",
                         "Or pass confirm_all: true if every row is meant")),
            {"fields": [{"field": "filters", "problem": "required unless confirm_all is true"}],
             "invalid_fields": ["filters"]},
        )


def update_rows(db: Database, table: str, values: Mapping[str, Any],
                filters: Sequence[Mapping[str, Any]], confirm_all: bool) -> JSONDict:
    """Update the rows the filters select; without filters only with ``confirm_all``."""
    _require_scope("update_rows", filters, confirm_all)
    with _classified(db, table, child_side=True), db.transaction(write=True) as conn:
        tbl = db.table(conn, table)
        changes: JSONDict = {}
        for key, value in values.items():
            col = db.column(tbl, str(key))
            changes[col.name] = db.coerce(col, value)
        stmt = sa.update(tbl).where(*db.conditions(tbl, filters)).values(changes)
        affected = max(conn.execute(stmt).rowcount, 0)
    out: JSONDict = {"success": True, "table": tbl.name, "affectedRows": affected}
    if not filters:
        out["warning"] = f"No filters: every row of '{tbl.name}' was updated ({affected} rows)."
    return out


def delete_rows(db: Database, table: str, *, filters: Sequence[Mapping[str, Any]],  # noqa: PLR0913 - one per tool argument
                confirm_all: bool, mode: str, confirm: bool) -> JSONDict:
    """Delete rows (filters required unless ``confirm_all``), truncate, or drop the table."""
    if mode in ("truncate", "drop_table") and not confirm:
        raise ToolInputError(
            make_response(Kind.INVALID_PARAMETER,
                          f"mode '{mode}' removes every row of the table; pass confirm: true.",
                          affected_resources=(table,)),
            {"fields": [{"field": "confirm", "problem": f"must be true for mode '{mode}'"}],
             "invalid_fields": ["confirm"]})
    if mode == "rows":
        _require_scope("delete_rows", filters, confirm_all)
    with _classified(db, table, child_side=False), db.transaction(write=True) as conn:
        tbl = db.table(conn, table)
        if mode == "drop_table":
            _refuse_referenced_drop(db, conn, tbl)
            conn.execute(sa.schema.DropTable(tbl))
            return {"success": True, "table": tbl.name, "dropped": True}
        if mode == "truncate":
            affected = _truncate(db, conn, tbl)
            return {"success": True, "table": tbl.name, "truncated": True,
                    **({"affectedRows": affected} if affected is not None else {})}
        stmt = sa.delete(tbl).where(*db.conditions(tbl, filters))
        affected = max(conn.execute(stmt).rowcount, 0)
    out: JSONDict = {"success": True, "table": tbl.name, "affectedRows": affected}
    if not filters:
        out["warning"] = f"No filters: every row of '{tbl.name}' was deleted ({affected} rows)."
    return out


def _refuse_referenced_drop(db: Database, conn: Connection, tbl: sa.Table) -> None:
    # SQLite drops a referenced table silently when it has no rows, leaving
    # the children's foreign keys dangling; refuse as the other engines do.
    if db.dialect != "sqlite":
        return
    children = db.referencing_tables(conn, tbl.name)
    if children:
        raise ToolInputError(make_response(
            Kind.DEPENDENT_OBJECTS_STILL_EXIST,
            f"Cannot drop table '{tbl.name}': foreign keys of {', '.join(children)} reference it.",
            affected_resources=(tbl.name,), dependencies=children, database=db.dialect))


def _truncate(db: Database, conn: Connection, tbl: sa.Table) -> int | None:
    if db.dialect == "sqlite":
        # SQLite has no TRUNCATE; its DELETE without WHERE is optimised the same way.
        return max(conn.execute(sa.delete(tbl)).rowcount, 0)
    quoted = conn.dialect.identifier_preparer.format_table(tbl)
    conn.exec_driver_sql(f"TRUNCATE TABLE {quoted}")
    return None


def execute_sql(db: Database, sql: str, params: Mapping[str, Any] | Sequence[Any] | None
                ) -> JSONDict:
    """Run SQL with bound parameters: rows for a query, the affected count otherwise."""
    statements = statements_of(db, sql)
    if isinstance(params, Sequence) and not isinstance(params, str) and len(statements) > 1:
        raise ToolInputError(make_response(
            Kind.INVALID_PARAMETER,
            "Positional parameters apply to one statement; use named parameters (:name) "
            "with several statements."))
    results: list[JSONDict] = []
    with _classified(db, None, child_side=False), \
            db.transaction(write=not db.read_only) as conn:
        results.extend(_run_one(db, conn, statement, params) for statement in statements)
    if len(results) == 1:
        return {"success": True, **results[0]}
    return {"success": True, "statementCount": len(results), "results": results}


def _run_one(db: Database, conn: Connection, statement: Any,
             params: Mapping[str, Any] | Sequence[Any] | None) -> JSONDict:
    if params is None or (not params and not statement.placeholders):
        result = conn.exec_driver_sql(_escape_percent(conn, statement.text))
    elif isinstance(params, Mapping):
        clause = sa.text(statement.text)
        wanted = set(clause.compile().params) if params else set()
        result = conn.execute(clause, {k: v for k, v in params.items() if k in wanted})
    else:
        text, names = to_named_placeholders(statement)
        values = list(params)
        if len(names) != len(values):
            raise ToolInputError(make_response(
                Kind.INVALID_PARAMETER,
                f"The statement has {len(names)} '?' placeholders but {len(values)} "
                "parameters were given."))
        result = conn.execute(sa.text(text), dict(zip(names, values, strict=True)))
    if result.returns_rows:
        if (db.dialect == "duckdb" and statement.first_keyword in _DML
                and list(result.keys()) == ["Count"]):
            # DuckDB answers INSERT/UPDATE/DELETE with a one-row result: the count.
            return {"affectedRows": int(result.scalar() or 0)}
        names_out, rows, more = _fetch(result, db.max_rows)
        out: JSONDict = {"data": rows, "rowCount": len(rows), "columns": names_out,
                         "truncated": more}
        if more:
            out["warning"] = (f"The result was cut at the server's row cap of {db.max_rows} rows; "
                              "add a WHERE clause or LIMIT.")
        return out
    return {"affectedRows": max(result.rowcount, 0)}


def _escape_percent(conn: Connection, sql: str) -> str:
    # Drivers of the "format"/"pyformat" styles read "%" as a placeholder even
    # when SQLAlchemy passes no parameters through exec_driver_sql.
    if "%" in sql and conn.dialect.paramstyle in ("format", "pyformat"):
        return sql.replace("%", "%%")
    return sql

