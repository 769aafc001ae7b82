"""
Hints from the schema: the names closest to one that does not exist, and the
next step that fits a foreign key's direction.

An unknown table or column answers with the closest existing names
(`difflib`, case-insensitive), in the payload's ``details.did_you_mean`` and
in the suggestion: ``did you mean `customers.name`?``.  For
``execute_sql`` the classified ``affected_resources`` say what was not found,
and the statement's parse says which tables it reads.

A hint can steer a write: an agent that takes the first one runs its
statement on that table.  So the current schema's table whose name differs
only in case comes first, and no table of another schema or database comes
ahead of it; every name outside the current schema is qualified
(PostgreSQL's ``archive.orders``, another database on MySQL/MariaDB, an
attached SQLite database).  A table that exists only in another schema is
still found, qualified, by a query for that very name (not a scan that a
server with many databases could cut short).

A foreign-key refusal is explained by which side of the key the call was on:
a parent row or table that is deleted, dropped or truncated waits for its
child rows or tables (``dependency_role: child``); a child row that is
inserted or updated waits for its parent row (``dependency_role: parent``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors import _sqlglot
from localdata_errors._backends import sqlglot_dialect
from localdata_errors._kinds import Kind, render_suggestion
from localdata_errors._response import StructuredErrorResponse
from localdata_errors.mcp._engine import Target

__all__ = [
    "close_names",
    "dependency_role",
    "foreign_key_advice",
    "missing_name_hints",
    "statement_tables",
    "table_hints",
    "with_hints",
]

JSONDict = dict[str, Any]

_MAX_HINTS: Final = 5
_MAX_SCANNED: Final = 5000  # names read from the catalogue, at most
_MAX_SCHEMAS: Final = 20  # schemas walked one by one where no catalogue query serves
_MAX_TABLES_FOR_COLUMNS: Final = 50  # tables whose columns are read for a column hint
_CUTOFF: Final = 0.6

# One query lists the tables outside the current schema, where the
# backend has a catalogue that says it (bounded; system schemas left out).
_OTHER_SCHEMAS_SQL: Final = {
    "postgresql": (
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') "
        "AND left(table_schema, 3) <> 'pg_' AND table_schema <> current_schema() "
        f"ORDER BY 1, 2 LIMIT {_MAX_SCANNED}"
    ),
    "mysql": (
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE table_schema NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') "
        f"AND table_schema <> DATABASE() ORDER BY 1, 2 LIMIT {_MAX_SCANNED}"
    ),
    "duckdb": (
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE table_catalog = current_database() "
        "AND table_schema NOT IN ('information_schema', 'pg_catalog') "
        f"AND table_schema <> current_schema() ORDER BY 1, 2 LIMIT {_MAX_SCANNED}"
    ),
}
_OTHER_SCHEMAS_SQL["mariadb"] = _OTHER_SCHEMAS_SQL["mysql"]
# The same, for one name (any case): every schema that has it, none cut off.
_SAME_NAME_SQL: Final = {
    "postgresql": (
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE lower(table_name) = lower(:name) AND table_schema <> current_schema() "
        "AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2"
    ),
    "mysql": (
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE lower(table_name) = lower(:name) AND table_schema <> DATABASE() "
        "AND table_schema NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') "
        "ORDER BY 1, 2"
    ),
    "duckdb": (
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE lower(table_name) = lower(:name) AND table_catalog = current_database() "
        "AND table_schema <> current_schema() ORDER BY 1, 2"
    ),
}
_SAME_NAME_SQL["mariadb"] = _SAME_NAME_SQL["mysql"]

# The verbs on each side of a foreign key.
_PARENT_VERBS: Final = frozenset({"DELETE", "DROP", "TRUNCATE"})
_CHILD_VERBS: Final = frozenset({"INSERT", "REPLACE", "UPSERT"})


def close_names(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """
    The candidates closest to *name*, compared case-insensitively.

    Args:
        name: The name that was not found.
        candidates: The names that exist.
        n: How many to return at most.

    Returns:
        The closest names, as they are spelled, closest first (an exact
        match but for case comes first).
    """
    folded: dict[str, str] = {}
    for candidate in candidates:
        folded.setdefault(candidate.lower(), candidate)
    matches = difflib.get_close_matches(name.lower(), list(folded), n=n, cutoff=_CUTOFF)
    return [folded[m] for m in matches]


def with_hints(
    response: StructuredErrorResponse, details: JSONDict, hints: Sequence[str]
) -> tuple[StructuredErrorResponse, JSONDict]:
    """
    Add "did you mean" names to an answer: in ``details.did_you_mean`` and the suggestion.

    Args:
        response: The answer (its suggestion rendered by the Kind table).
        details: The payload's extra details.
        hints: The closest existing names, best first.

    Returns:
        The answer and the details, unchanged when there is no hint.
    """
    if not hints:
        return response, details
    shown = list(dict.fromkeys(hints))[:_MAX_HINTS]
    named = ", ".join(f"`{h}`" for h in shown)
    response = response.replace(
        suggestion=f"{response.suggestion} Did you mean {named}?",
        suggested_actions=(f"Use {named} if that is what you meant", *response.suggested_actions),
    )
    return response, {**details, "did_you_mean": shown}


def _other_tables(db: Target, conn: Connection) -> list[tuple[str, str]]:
    """``(schema, table)`` pairs outside the default schema (a bounded number)."""
    sql = _OTHER_SCHEMAS_SQL.get(db.dialect)
    if sql is not None:
        return [(str(s), str(t)) for s, t in conn.exec_driver_sql(sql).all()]
    inspector = sa.inspect(conn)
    try:
        schemas = list(inspector.get_schema_names())
    except NotImplementedError:
        return []
    default = inspector.default_schema_name
    found: list[tuple[str, str]] = []
    for schema in [s for s in schemas if s not in (default, "temp")][:_MAX_SCHEMAS]:
        found += [(schema, t) for t in inspector.get_table_names(schema=schema)]
        if len(found) >= _MAX_SCANNED:
            break
    return found[:_MAX_SCANNED]


def _same_name_elsewhere(db: Target, conn: Connection, name: str) -> list[str]:
    """``schema.table`` for each table called *name* (any case) outside the default schema."""
    sql = _SAME_NAME_SQL.get(db.dialect)
    if sql is None:
        others = _other_tables(db, conn)
        return [f"{s}.{t}" for s, t in others if t.lower() == name.lower()]
    return [f"{s}.{t}" for s, t in conn.execute(sa.text(sql), {"name": name}).all()]


def table_hints(
    db: Target, conn: Connection, name: str, schema: str | None, names: Sequence[str]
) -> list[str]:
    """
    The existing tables closest to *name*, the current schema's first.

    Args:
        db: The database.
        conn: A connection (the hints read the catalogue).
        name: The table that was not found, unqualified.
        schema: The schema the caller named, if any.
        names: The tables and views of the default schema.

    Returns:
        At most five names, best first: the current schema's table of the
        same name in another case; close names in the schema the caller
        named; the same name in other schemas (qualified); close names in the
        current schema; close names in the other schemas only when there is
        none of these.  No table of another schema comes ahead of the
        current schema's same-named one, and every name outside the current
        schema is qualified.
    """
    if schema is None and "." in name:
        schema, _, name = name.partition(".")
    target = name.lower()
    current = [] if schema is not None else [n for n in names if n.lower() == target][:1]
    try:
        elsewhere = _same_name_elsewhere(db, conn, name)
        others = _other_tables(db, conn) if schema is not None or not current else []
    except sa.exc.SQLAlchemyError:
        # A catalogue the login may not read: hints from the default schema only.
        elsewhere, others = [], []
    if schema is not None:
        # The schema the caller named: its own tables first, then the same
        # name elsewhere (never the named schema's table again).
        in_named = [t for s, t in others if s.lower() == schema.lower()]
        named_close = [f"{schema}.{t}" for t in close_names(name, in_named)]
        elsewhere = [q for q in elsewhere if q.partition(".")[0].lower() != schema.lower()]
        found = [*named_close, *elsewhere, *close_names(name, names)]
    else:
        found = [*current, *elsewhere, *close_names(name, names)]
    if not found:
        # Only when nothing nearer exists: close names in the other schemas.
        by_name: dict[str, list[str]] = {}
        for s, t in others:
            by_name.setdefault(t.lower(), []).append(f"{s}.{t}")
        found = [q for t in close_names(name, by_name) for q in by_name[t.lower()]]
    return list(dict.fromkeys(found))[:_MAX_HINTS]


def statement_tables(sql: str, dialect: str | None) -> list[tuple[str | None, str]]:
    """The tables a statement names, ``(schema, table)``; empty when it cannot be parsed."""
    if not _sqlglot.available():
        return []
    try:
        expressions = _sqlglot.parse(sql, sqlglot_dialect(dialect) or dialect)
    except Exception:  # noqa: BLE001 - any parser failure only means no hint
        return []
    module = _sqlglot.sqlglot()
    if module is None:
        return []
    found = [
        (table.db or None, table.name)
        for expression in expressions
        if expression is not None
        for table in expression.find_all(module.exp.Table)
        if table.name
    ]
    return list(dict.fromkeys(found))


def _columns(db: Target, conn: Connection, table: str, schema: str | None) -> list[str]:
    if db.dialect == "duckdb":
        rows = conn.exec_driver_sql(
            "SELECT column_name FROM information_schema.columns WHERE table_name = $1 "
            "AND table_schema = coalesce($2, current_schema()) ORDER BY ordinal_position",
            (table, schema),
        ).all()
        return [str(r[0]) for r in rows]
    return [str(c["name"]) for c in sa.inspect(conn).get_columns(table, schema=schema)]


def _column_hints(
    db: Target, conn: Connection, column: str, sql: str, names: Sequence[str]
) -> list[str]:
    """``table.column`` names close to *column*: in the statement's tables, else anywhere."""
    lowered = {n.lower(): n for n in names}
    tables: list[tuple[str | None, str]] = []
    for schema, table in statement_tables(sql, db.dialect):
        actual = lowered.get(table.lower()) if schema is None else table
        if actual is not None:
            tables.append((schema, actual))
    hints: list[str] = []
    for schema, table in tables[:_MAX_TABLES_FOR_COLUMNS]:
        shown = f"{schema}.{table}" if schema else table
        hints += [f"{shown}.{c}" for c in close_names(column, _columns(db, conn, table, schema))]
    if hints:
        return hints
    # Not in the tables the statement reads: the same column in another table
    # of the default schema (a join is missing, or the wrong table is named).
    read = {t for _, t in tables}
    for table in [n for n in names if n not in read][:_MAX_TABLES_FOR_COLUMNS]:
        hints += [
            f"{table}.{c}" for c in _columns(db, conn, table, None) if c.lower() == column.lower()
        ]
    return hints


def missing_name_hints(
    db: Target,
    conn: Connection,
    response: StructuredErrorResponse,
    sql: str,
    names: Sequence[str],
) -> list[str]:
    """
    The closest existing names for a database's ``undefined_table`` / ``undefined_column``.

    Args:
        db: The database.
        conn: A connection for the catalogue.
        response: The classified error; its first affected resource is the
            name that was not found, its ``schema`` the schema it was
            qualified with.
        sql: The statement that failed.
        names: The tables and views of the default schema.

    Returns:
        The hints, best first; empty for other kinds or when nothing is close.
    """
    if not response.affected_resources:
        return []
    missing = response.affected_resources[0]
    if response.kind is Kind.UNDEFINED_TABLE:
        schema = response.schema
        # MySQL names the current database as the schema of every table it misses.
        if schema is not None and schema.lower() == str(conn.dialect.default_schema_name).lower():
            schema = None
        return table_hints(db, conn, missing, schema, names)
    if response.kind is Kind.UNDEFINED_COLUMN:
        return _column_hints(db, conn, missing, sql, names)
    return []


def foreign_key_advice(
    response: StructuredErrorResponse, role: str, verb: str, table: str | None
) -> tuple[StructuredErrorResponse, JSONDict]:
    """
    The next steps for a foreign-key refusal, by the side of the key the call was on.

    Args:
        response: The classified refusal, its ``dependencies`` filled.
        role: ``child`` when the dependencies reference the call's table
            (they go first), ``parent`` when the call's rows reference them
            (their rows must exist first).
        verb: What the call did: ``INSERT``, ``UPDATE``, ``DELETE``,
            ``DROP``, ``TRUNCATE``.
        table: The call's table, where known.

    Returns:
        The refusal with its suggestion (rendered by the Kind table) and
        actions fitting the operation, and ``details.dependency_role``.
    """
    deps = response.dependencies
    listed = ", ".join(deps) if deps else "the referencing tables"
    target = table or "the table"
    if role == "child" and verb == "DROP":
        actions = (
            f"Drop {listed} first (or remove its foreign key to {target}); "
            f"then drop {target} with the same call",
            "Emptying the referencing tables is not enough: the foreign key itself blocks the drop",
        )
    elif role == "child" and verb == "TRUNCATE":
        actions = (
            f"Delete the rows of {listed} that reference {target} first, then delete the rows "
            f"of {target} (mode 'rows' with confirm_all: true)",
            f"Or drop {listed} first: most databases refuse to truncate a referenced table "
            "whatever its rows",
        )
    elif role == "child":
        actions = (
            f"Delete or update the rows of {listed} that reference these rows of {target} first",
            "Then send this call again unchanged",
        )
    else:
        parents = ", ".join(deps) if deps else "the referenced table"
        actions = (
            f"Insert the referenced row into {parents} first, or use a key that exists there",
            f"Look up the existing keys of {parents} (select_rows) before writing {target}",
        )
    suggestion = render_suggestion(
        response.kind,
        table or (response.affected_resources[0] if response.affected_resources else None),
        response.constraint,
        deps,
    )
    return response.replace(suggestion=suggestion, suggested_actions=actions), {
        "dependency_role": role
    }


def dependency_role(verb: str) -> str | None:
    """The role of a foreign key's other side, from the verb alone (``None``: it depends)."""
    if verb in _PARENT_VERBS:
        return "child"
    if verb in _CHILD_VERBS:
        return "parent"
    return None
