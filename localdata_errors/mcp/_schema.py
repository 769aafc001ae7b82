"""
What the SQL tool server knows of the schema: tables, columns, keys, and their names.

Every identifier a caller sends is looked up here and used as the
introspected object, so SQLAlchemy quotes it.  A name that is not found
is refused with the closest names that exist (`localdata_errors.mcp._hints`):
in the default schema, and qualified (``sales.orders``) when the table lives
in another schema only.  A qualified name (``schema.table``) is accepted
where the default schema has no table of that exact name.
"""

from __future__ import annotations

import contextlib
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors._kinds import Kind
from localdata_errors.mcp import _hints
from localdata_errors.mcp._engine import Target
from localdata_errors.mcp._results import ToolInputError, make_response

__all__ = [
    "AVAILABLE_CAP",
    "base_table_names",
    "describe",
    "find_column",
    "find_table",
    "foreign_keys",
    "qualified",
    "referenced_tables",
    "referencing_tables",
    "schema_names",
    "table_names",
    "view_names",
]

JSONDict = dict[str, Any]

#: The most names an error lists in ``available_tables``.
AVAILABLE_CAP: Final = 100

_DUCKDB_TYPES: Final[dict[str, Any]] = {
    "INTEGER": sa.Integer,
    "INT": sa.Integer,
    "BIGINT": sa.BigInteger,
    "SMALLINT": sa.SmallInteger,
    "TINYINT": sa.SmallInteger,
    "HUGEINT": sa.BigInteger,
    "UINTEGER": sa.BigInteger,
    "UBIGINT": sa.BigInteger,
    "DOUBLE": sa.Float,
    "FLOAT": sa.Float,
    "REAL": sa.Float,
    "DECIMAL": sa.Numeric,
    "NUMERIC": sa.Numeric,
    "VARCHAR": sa.String,
    "TEXT": sa.String,
    "BOOLEAN": sa.Boolean,
    "DATE": sa.Date,
    "TIMESTAMP": sa.DateTime,
    "TIME": sa.Time,
    "UUID": sa.Uuid,
    "BLOB": sa.LargeBinary,
}


def _duckdb_type(name: str) -> Any:
    base = name.split("(", 1)[0].strip().upper()
    return _DUCKDB_TYPES.get(base, sa.types.NullType)()


def qualified(table: sa.Table) -> str:
    """
    The table's name as callers give it back: ``orders``, or ``sales.orders``.

    Args:
        table: A table from `find_table`.

    Returns:
        The name, qualified by its schema when it has one (outside the
        default schema).
    """
    return f"{table.schema}.{table.name}" if table.schema else table.name


# duckdb_engine lists the tables of every schema and attached database when
# asked for the default schema's: DuckDB's information_schema says it right.
_DUCKDB_TABLES: Final = (
    "SELECT table_name, table_type FROM information_schema.tables "
    "WHERE table_catalog = current_database() "
    "AND table_schema = coalesce($1, current_schema()) ORDER BY table_name"
)


def _duckdb_tables(conn: Connection, schema: str | None) -> list[tuple[str, bool]]:
    rows = conn.exec_driver_sql(_DUCKDB_TABLES, (schema,)).all()
    return [(str(name), str(kind).upper() == "VIEW") for name, kind in rows]


def view_names(conn: Connection, schema: str | None = None) -> set[str]:
    """The views of *schema* (the default one when ``None``)."""
    if conn.dialect.name == "duckdb":
        return {name for name, is_view in _duckdb_tables(conn, schema) if is_view}
    with contextlib.suppress(NotImplementedError):
        return set(sa.inspect(conn).get_view_names(schema=schema))
    return set()


def base_table_names(conn: Connection, schema: str | None = None) -> list[str]:
    """The tables of *schema* (the default one when ``None``), views left out."""
    if conn.dialect.name == "duckdb":
        return [name for name, is_view in _duckdb_tables(conn, schema) if not is_view]
    return list(sa.inspect(conn).get_table_names(schema=schema))


def table_names(conn: Connection, schema: str | None = None) -> list[str]:
    """
    The tables and views of *schema*.

    Args:
        conn: The connection.
        schema: The schema; the default one when ``None``.

    Returns:
        The names, tables first.
    """
    names = base_table_names(conn, schema)
    names += sorted(v for v in view_names(conn, schema) if v not in names)
    return names


def schema_names(conn: Connection) -> list[str]:
    """The schemas of the database (the databases of the server, on MySQL/MariaDB)."""
    if conn.dialect.name == "duckdb":
        rows = conn.exec_driver_sql(
            "SELECT schema_name FROM information_schema.schemata "
            "WHERE catalog_name = current_database() ORDER BY schema_name"
        ).all()
        return [str(r[0]) for r in rows]
    with contextlib.suppress(NotImplementedError):
        return list(sa.inspect(conn).get_schema_names())
    return []


def _match(name: str, names: list[str]) -> str | None:
    """*name* as it is in *names*: exactly, else the one name that differs only in case."""
    if name in names:
        return name
    folded = [n for n in names if n.lower() == name.lower()]
    return folded[0] if len(folded) == 1 else None


def _split_qualified(conn: Connection, name: str) -> tuple[str, str] | None:
    """``(schema, table)`` when *name* is ``schema.table`` and that table exists."""
    schema_part, dot, table_part = name.partition(".")
    if not dot or not schema_part or not table_part:
        return None
    schema = _match(schema_part, schema_names(conn))
    if schema is None:
        return None
    table = _match(table_part, table_names(conn, schema))
    return (schema, table) if table is not None else None


def find_table(db: Target, conn: Connection, name: str) -> sa.Table:
    """
    The introspected table called *name*.

    Args:
        db: The database.
        conn: The connection.
        name: The caller's table name: an exact match in the default schema
            first, else the one table whose name differs only in case, else
            ``schema.table``.

    Returns:
        The reflected table (its ``schema`` set for a qualified name).

    Raises:
        ToolInputError: ``undefined_table``, with ``details.did_you_mean``
            (the closest names, qualified where the table lives in another
            schema) and ``details.available_tables``.
    """
    names = table_names(conn)
    actual = _match(name, names)
    schema: str | None = None
    if actual is None:
        found = _split_qualified(conn, name)
        if found is not None:
            schema, actual = found
    if actual is None:
        hints = _hints.table_hints(db, conn, name, None, names)
        response = make_response(
            Kind.UNDEFINED_TABLE,
            f"The table '{name}' does not exist.",
            affected_resources=(name,),
            database=db.dialect,
        )
        details: JSONDict = {"available_tables": sorted(names)[:AVAILABLE_CAP]}
        if len(names) > AVAILABLE_CAP:
            details.update(
                available_tables_truncated=True,
                table_count=len(names),
                hint="list_tables pages through every table (name_contains, offset)",
            )
        raise ToolInputError(*_hints.with_hints(response, details, hints))
    if db.dialect == "duckdb":
        return _duckdb_table(conn, actual, schema)
    return sa.Table(actual, sa.MetaData(), schema=schema, autoload_with=conn)


# duckdb_engine's reflection runs PostgreSQL catalogue queries DuckDB
# cannot answer (pg_collation, regclass) under SQLAlchemy 2.1; DuckDB's
# own information_schema and duckdb_constraints() say the same things.
def _duckdb_table(conn: Connection, name: str, schema: str | None) -> sa.Table:
    rows = conn.exec_driver_sql(
        "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
        "WHERE table_name = $1 AND table_schema = coalesce($2, current_schema()) "
        "ORDER BY ordinal_position",
        (name, schema),
    ).all()
    pk: set[str] = set()
    for ctype, cols in conn.exec_driver_sql(
        "SELECT constraint_type, constraint_column_names FROM duckdb_constraints() "
        "WHERE table_name = $1 AND schema_name = coalesce($2, current_schema())",
        (name, schema),
    ).all():
        if ctype == "PRIMARY KEY":
            pk.update(cols)
    columns = [
        sa.Column(
            col,
            _duckdb_type(str(dtype)),
            primary_key=col in pk,
            nullable=nullable == "YES",
            autoincrement=False,
        )
        for col, dtype, nullable in rows
    ]
    return sa.Table(name, sa.MetaData(), *columns, schema=schema)


def _duckdb_constraints(
    conn: Connection, name: str, schema: str | None, kind: str
) -> list[tuple[Any, ...]]:
    return list(
        conn.exec_driver_sql(
            "SELECT constraint_name, constraint_column_names, referenced_table, "
            "referenced_column_names FROM duckdb_constraints() WHERE table_name = $1 "
            "AND schema_name = coalesce($2, current_schema()) AND constraint_type = $3",
            (name, schema, kind),
        ).all()
    )


def foreign_keys(
    db: Target, conn: Connection, name: str, schema: str | None = None
) -> list[JSONDict]:
    """The foreign keys of table *name*: name, columns, referenced table and columns."""
    if db.dialect == "duckdb":
        return [
            {
                "name": cname,
                "constrained_columns": list(cols),
                "referred_table": ref,
                "referred_columns": list(refcols),
            }
            for cname, cols, ref, refcols in _duckdb_constraints(conn, name, schema, "FOREIGN KEY")
        ]
    return [dict(fk) for fk in sa.inspect(conn).get_foreign_keys(name, schema=schema)]


def _indexes(db: Target, conn: Connection, name: str, schema: str | None) -> list[JSONDict]:
    if db.dialect == "duckdb":
        return []  # DuckDB does not expose its indexes to reflection
    return [
        {
            "name": ix.get("name"),
            "columns": ix.get("column_names"),
            "unique": bool(ix.get("unique")),
        }
        for ix in sa.inspect(conn).get_indexes(name, schema=schema)
    ]


def _unique_constraints(
    db: Target, conn: Connection, name: str, schema: str | None
) -> list[JSONDict]:
    if db.dialect == "duckdb":
        return [
            {"name": cname, "columns": list(cols)}
            for cname, cols, _ref, _refcols in _duckdb_constraints(conn, name, schema, "UNIQUE")
        ]
    if db.dialect == "sqlite":
        return _sqlite_unique(conn, name, schema)
    return [
        {"name": uc.get("name"), "columns": list(uc.get("column_names") or ())}
        for uc in sa.inspect(conn).get_unique_constraints(name, schema=schema)
    ]


def _sqlite_unique(conn: Connection, name: str, schema: str | None) -> list[JSONDict]:
    # SQLAlchemy reflects only table-level UNIQUE (...) clauses; a column's
    # own UNIQUE lives in an automatic index that PRAGMA index_list reports
    # with origin 'u', as the table-level ones are.
    prefix = conn.dialect.identifier_preparer.quote(schema) + "." if schema else ""
    quoted = conn.dialect.identifier_preparer.quote(name)
    found: list[JSONDict] = []
    for row in conn.exec_driver_sql(f"PRAGMA {prefix}index_list({quoted})").mappings():
        if row.get("origin") != "u":
            continue
        index = conn.dialect.identifier_preparer.quote(str(row["name"]))
        cols = [
            str(info["name"])
            for info in conn.exec_driver_sql(f"PRAGMA {prefix}index_info({index})").mappings()
        ]
        # The automatic index has a generated name; the constraint itself has none.
        shown = None if str(row["name"]).startswith("sqlite_autoindex_") else row["name"]
        found.append({"name": shown, "columns": cols})
    return found


def _sqlite_rowid_alias(db: Target, table: sa.Table, pk: list[str]) -> str | None:
    # SQLite's INTEGER PRIMARY KEY is the rowid: it can never hold NULL,
    # though the table's declaration (and so reflection) says nullable.
    if db.dialect != "sqlite" or len(pk) != 1:
        return None
    declared = str(table.c[pk[0]].type).strip().upper()
    return pk[0] if declared == "INTEGER" else None


def describe(db: Target, conn: Connection, name: str) -> JSONDict:
    """Columns, types, keys, unique constraints, foreign keys, indexes and the row count."""
    table = find_table(db, conn, name)
    schema = table.schema
    pk = list(table.primary_key.columns.keys())
    rowid = _sqlite_rowid_alias(db, table, pk)
    uniques = _unique_constraints(db, conn, table.name, schema)
    indexes = _indexes(db, conn, table.name, schema)
    single_unique = {u["columns"][0] for u in uniques if len(u["columns"]) == 1}
    single_unique |= {
        ix["columns"][0] for ix in indexes if ix["unique"] and len(ix["columns"] or ()) == 1
    }
    if len(pk) == 1:
        single_unique.add(pk[0])
    columns = [
        {
            "name": c.name,
            "type": str(c.type),
            "nullable": bool(c.nullable) and c.name != rowid,
            "primary_key": c.name in pk,
            "unique": c.name in single_unique,
            "default": None
            if c.server_default is None
            else str(getattr(c.server_default, "arg", c.server_default)),
            "autoincrement": c.name in pk
            and c.autoincrement is not False
            and _python_type(c) is int,
        }
        for c in table.columns
    ]
    foreign = [
        {
            "name": fk.get("name"),
            "columns": fk["constrained_columns"],
            "references_table": fk["referred_table"],
            "references_columns": fk["referred_columns"],
        }
        for fk in foreign_keys(db, conn, table.name, schema)
    ]
    count = conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
    out: JSONDict = {"table": qualified(table)}
    if schema:
        out["schema"] = schema
    out.update(
        columns=columns,
        primary_key=pk,
        unique_constraints=uniques,
        foreign_keys=foreign,
        referenced_by=referencing_tables(db, conn, table.name, schema),
        indexes=indexes,
        row_count=int(count),
    )
    return out


def _python_type(column: sa.Column[Any]) -> type | None:
    try:
        return column.type.python_type
    except NotImplementedError:
        return None


def referencing_tables(
    db: Target, conn: Connection, name: str, schema: str | None = None
) -> list[str]:
    """The other tables of *schema* whose foreign keys reference table *name*."""
    return [
        other
        for other in base_table_names(conn, schema)
        if other != name
        and any(fk.get("referred_table") == name for fk in foreign_keys(db, conn, other, schema))
    ]


def referenced_tables(
    db: Target, conn: Connection, name: str, schema: str | None = None
) -> list[str]:
    """The tables that table *name*'s foreign keys reference."""
    fks = foreign_keys(db, conn, name, schema)
    return sorted({fk["referred_table"] for fk in fks if fk["referred_table"] != name})


def find_column(db: Target, table: sa.Table, name: str) -> sa.Column[Any]:
    """
    The column *name* of *table*.

    Raises:
        ToolInputError: ``undefined_column`` naming the column and the table,
            with ``details.did_you_mean`` (``table.column``, closest first).
    """
    if name in table.c:
        return table.c[name]
    folded = [c for c in table.c if c.name.lower() == name.lower()]
    if len(folded) == 1:
        return folded[0]
    shown = qualified(table)
    response = make_response(
        Kind.UNDEFINED_COLUMN,
        f"The column '{name}' does not exist in table '{shown}'.",
        affected_resources=(name, table.name),
        database=db.dialect,
    )
    details: JSONDict = {
        "table": shown,
        "column": name,
        "available_columns": [c.name for c in table.c],
    }
    hints = [f"{shown}.{c}" for c in _hints.close_names(name, [c.name for c in table.c])]
    raise ToolInputError(*_hints.with_hints(response, details, hints))
