"""
PostgreSQL read-only mode: a statement calls only what the engine classifies as side-effect free.

PostgreSQL marks every function ``immutable``, ``stable`` or ``volatile``
(``pg_proc.provolatile``); only a volatile function may change the database
or the session, take a lock, signal another session, read a file or run SQL
given as a string (``query_to_xml``, ``ts_stat``, ``ts_rewrite``).  So in
read-only mode a statement may call only functions the catalogue marks
immutable or stable, plus a short list of harmless volatile ones
(`ALLOWED_VOLATILE`).  No list of forbidden names is kept: the next name
nobody thought of is judged by the catalogue like every other.

**The names, as the engine reads them.**  sqlglot's parse says where the
statement calls a function; the name is then read from the statement's own
tokens, as PostgreSQL reads it: an unquoted name folded to lower case, a
quoted one as written, a ``U&"..."`` name with its escapes decoded, a
``schema.`` or ``database.schema.`` qualifier kept.  Every place where a
name is followed by ``(`` counts as a call unless the parse reads it as a
table alias's column list; a name sqlglot reads as special syntax counts
too.  The name ``t.f`` of a column of ``t`` counts as a possible call of
``f(t)`` (PostgreSQL's attribute notation).

**The verdict, as the engine resolves names.**  Inside the call's read-only
transaction one catalogue query resolves every name: unqualified through the
session's ``search_path`` (``current_schemas(true)``), qualified in its
schema.  A name is allowed only when every function of that name there is
immutable or stable (an overloaded name with one volatile overload is
refused); a name no function has is refused (the check cannot tell what it
is), except a word PostgreSQL's grammar reserves (``pg_get_keywords()``,
categories ``C`` and ``R``: ``CAST``, ``COALESCE``, ``EXTRACT`` ...), which
is syntax, not a call by name.  An attribute name is refused only when a
volatile function of that name is visible.  A database that defines a
volatile operator, cast or type input/output function (none is built in)
refuses every statement: such calls do not show in the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import sqlalchemy as sa

from localdata_errors import _sqlglot
from localdata_errors.mcp._statements import Piece, UnreadableSQLError

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

__all__ = ["ALLOWED_VOLATILE", "FunctionCall", "catalog_refusal", "function_calls"]

#: Volatile functions of ``pg_catalog`` a read-only statement may call: each
#: returns a value computed from the clock, a random source or the size of a
#: relation, and changes nothing, locks nothing and holds nothing after the
#: call (PostgreSQL's documentation: "Date/Time Functions", "UUID
#: Functions", "Mathematical Functions", "Database Object Size Functions").
#: They are volatile because their result changes between calls, not
#: because they act.
ALLOWED_VOLATILE: Final = (
    "random",
    "random_normal",
    "clock_timestamp",
    "timeofday",
    "gen_random_uuid",
    "pg_relation_size",
    "pg_total_relation_size",
    "pg_table_size",
    "pg_indexes_size",
)

# One query for every name of a statement: (index, verdict) rows.
_CHECK: Final = """
WITH wanted AS (
    SELECT w.name, w.schema, w.catalog, w.attribute, w.i
      FROM unnest(CAST(:names AS text[]), CAST(:schemas AS text[]),
                  CAST(:catalogs AS text[]), CAST(:attributes AS boolean[]))
           WITH ORDINALITY AS w(name, schema, catalog, attribute, i)
), found AS (
    SELECT w.i,
           count(p.oid) AS functions,
           count(p.oid) FILTER (
               WHERE p.provolatile = 'v'
                 AND NOT (n.nspname = 'pg_catalog' AND p.proname = ANY (CAST(:allowed AS text[])))
           ) AS volatile
      FROM wanted w
      LEFT JOIN pg_namespace n
        ON CASE WHEN w.schema IS NULL THEN n.nspname = ANY (current_schemas(true))
                ELSE n.nspname = w.schema END
      LEFT JOIN pg_proc p ON p.pronamespace = n.oid AND p.proname = w.name
     GROUP BY w.i
)
SELECT w.i,
       w.catalog IS NULL OR w.catalog = current_database() AS here,
       w.schema IS NULL AND EXISTS (
           SELECT 1 FROM pg_get_keywords() k WHERE k.word = w.name AND k.catcode IN ('C', 'R')
       ) AS syntax,
       f.functions,
       f.volatile
  FROM wanted w JOIN found f ON f.i = w.i
 ORDER BY w.i
"""
# What a statement may call without naming it: operators (visible through the
# search_path), casts and type input/output functions.  None is volatile in a
# database as PostgreSQL creates it.
_IMPLICIT: Final = """
SELECT
  (SELECT string_agg(DISTINCT o.oprname, ' ')
     FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
     JOIN pg_namespace n ON n.oid = o.oprnamespace
    WHERE p.provolatile = 'v' AND n.nspname = ANY (current_schemas(true))),
  (SELECT string_agg(DISTINCT p.proname, ' ')
     FROM pg_proc p
    WHERE p.provolatile = 'v'
      AND (p.oid IN (SELECT castfunc FROM pg_cast)
           OR p.oid IN (SELECT typinput FROM pg_type UNION ALL SELECT typoutput FROM pg_type)))
"""
_ESCAPE: Final = re.compile(r"\\(?:(\\)|([0-9A-Fa-f]{4})|\+([0-9A-Fa-f]{6}))")
_NAMES: Final = frozenset({"VAR", "IDENTIFIER"})


@dataclass(frozen=True, slots=True)
class FunctionCall:
    """
    A function a statement calls by name, as PostgreSQL will look it up.

    Attributes:
        name: The name: folded to lower case unless it was quoted, its ``U&``
            escapes decoded.
        schema: The schema it was qualified with.
        catalog: The database it was qualified with (``db.schema.f()``).
        shown: The name as the statement wrote it (for the refusal).
        attribute: Written ``t.name``: a call of ``name(t)`` only if such a
            function exists.
    """

    name: str
    schema: str | None = None
    catalog: str | None = None
    shown: str = ""
    attribute: bool = False


def _fold(text: str) -> str:
    # PostgreSQL folds only ASCII letters of an unquoted name.
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in text)


def _unicode_escapes(text: str) -> str:
    """A ``U&"..."`` name's escapes (``\\XXXX``, ``\\+XXXXXX``, ``\\\\``), decoded."""

    def decode(match: re.Match[str]) -> str:
        if match[1]:
            return "\\"
        point = int(match[2] or match[3], 16)
        if 0xD800 <= point <= 0xDFFF or point > 0x10FFFF:
            raise UnreadableSQLError("a U& name holds a code point the check does not decode")
        return chr(point)

    decoded = _ESCAPE.sub(decode, text)
    if "\\" in _ESCAPE.sub("", text):
        raise UnreadableSQLError("a U& name holds an escape the check does not read")
    return decoded


def _name(parts: Sequence[Piece], index: int) -> tuple[str, bool, int]:
    """The name at *index* as PostgreSQL reads it, whether it was quoted, and where it begins."""
    piece = parts[index]
    if piece.type != "IDENTIFIER":
        return _fold(piece.text), False, index
    amp = parts[index - 1] if index >= 1 else None
    prefix = parts[index - 2] if index >= 2 else None
    if (
        amp is not None
        and prefix is not None
        and amp.type == "AMP"
        and amp.end == piece.start
        and prefix.end == amp.start
        and prefix.text in ("U", "u")
    ):
        # U&"\0070g_read_file": sqlglot reads U, &, "..."; PostgreSQL one name.
        following = parts[index + 1] if index + 1 < len(parts) else None
        if following is not None and following.text.upper() == "UESCAPE":
            raise UnreadableSQLError("a U& name with UESCAPE is not read by the check")
        return _unicode_escapes(piece.text), True, index - 2
    return piece.text, True, index


def _call_at(parts: Sequence[Piece], index: int, *, attribute: bool = False) -> FunctionCall:
    name, quoted, at = _name(parts, index)
    qualifiers: list[str] = []
    while at >= 2 and parts[at - 1].type == "DOT" and len(qualifiers) < 3:
        qualifier, _quoted, at = _name(parts, at - 2)
        qualifiers.insert(0, qualifier)
    if len(qualifiers) > 2:
        raise UnreadableSQLError("a function name has more than three parts")
    schema = qualifiers[-1] if qualifiers else None
    catalog = qualifiers[-2] if len(qualifiers) == 2 else None
    shown = "".join(
        p.text if p.type != "IDENTIFIER" else f'"{p.text}"' for p in parts[at : index + 1]
    )
    if attribute:
        return FunctionCall(name, shown=shown, attribute=True)
    return FunctionCall(name, schema, catalog, shown=shown if quoted or qualifiers else name)


def function_calls(root: Any, parts: Sequence[Piece]) -> tuple[FunctionCall, ...]:
    """
    The functions a statement calls by name, read from its parse and its tokens.

    Args:
        root: sqlglot's parse of the statement (PostgreSQL).
        parts: Its tokens, with their offsets in the text *root* was parsed from.

    Returns:
        Each call once, in order.

    Raises:
        UnreadableSQLError: A name the check cannot read (a ``U&`` name with
            ``UESCAPE``, an escape it does not decode).
    """
    module = _sqlglot.sqlglot()
    if module is None:
        raise ImportError("sqlglot is not installed (pip install 'localdata-errors[mcp]')")
    exp = module.exp
    parser = module.Dialect.get_or_raise("postgres").parser_class
    special = set(parser.FUNCTION_PARSERS) | set(parser.NO_PAREN_FUNCTION_PARSERS)
    calls_at: set[int] = set()
    not_calls: set[int] = set()
    attributes: set[int] = set()
    for node in root.walk():
        start = node.meta.get("start") if node.meta else None
        if start is None:
            continue
        if isinstance(node, exp.Func):
            calls_at.add(start)
        elif isinstance(node, exp.Identifier):
            parent = node.parent
            if isinstance(parent, exp.TableAlias):
                not_calls.add(start)  # t(a, b): a table alias's columns
            elif (isinstance(parent, exp.Column) and parent.table and parent.this is node) or (
                isinstance(parent, exp.Dot) and parent.expression is node
            ):
                attributes.add(start)
    not_calls |= _sampling_words(parts)
    found: dict[FunctionCall, None] = {}
    for index, piece in enumerate(parts):
        following = parts[index + 1] if index + 1 < len(parts) else None
        called = following is not None and following.type == "L_PAREN"
        if called and (
            piece.start in calls_at
            or piece.text.upper() in special
            or (piece.type in _NAMES and piece.start not in not_calls)
        ):
            found[_call_at(parts, index)] = None
            continue
        if piece.start in attributes:
            found[_call_at(parts, index, attribute=True)] = None
    return tuple(found)


def _sampling_words(parts: Sequence[Piece]) -> set[int]:
    """
    ``TABLESAMPLE method (...) [REPEATABLE (...)]``: the method names a sampling
    handler, looked up as such (not called as a function of the statement),
    and ``REPEATABLE`` is grammar.
    """
    found: set[int] = set()
    for index, piece in enumerate(parts):
        if piece.type != "TABLE_SAMPLE" or index + 1 >= len(parts):
            continue
        found.add(parts[index + 1].start)
        depth = 0
        for after in range(index + 2, len(parts)):
            depth += {"L_PAREN": 1, "R_PAREN": -1}.get(parts[after].type, 0)
            if depth == 0:
                if after + 1 < len(parts) and parts[after + 1].text.upper() == "REPEATABLE":
                    found.add(parts[after + 1].start)
                break
    return found


def catalog_refusal(conn: Connection, calls: Sequence[FunctionCall]) -> str | None:
    """
    Why PostgreSQL's catalogue does not let a read-only statement make these calls.

    Runs inside the call's read-only transaction, with the session's own
    ``search_path``.

    Args:
        conn: The call's connection.
        calls: The statement's calls (`function_calls`).

    Returns:
        The reason to refuse the statement; ``None`` when every call is allowed.
    """
    operators, implicit = conn.execute(sa.text(_IMPLICIT)).one()
    if operators or implicit:
        defined = ", ".join(
            f"{what} {names}"
            for what, names in (("operators", operators), ("functions", implicit))
            if names
        )
        return (
            f"the database defines volatile {defined} that a statement calls without naming "
            "them (operators, casts, type input/output), which the check cannot see"
        )
    if not calls:
        return None
    rows = conn.execute(
        sa.text(_CHECK),
        {
            "names": [c.name for c in calls],
            "schemas": [c.schema for c in calls],
            "catalogs": [c.catalog for c in calls],
            "attributes": [c.attribute for c in calls],
            "allowed": list(ALLOWED_VOLATILE),
        },
    ).all()
    for (_index, here, syntax, functions, volatile), call in zip(rows, calls, strict=True):
        if call.attribute:
            if volatile:
                return f"{call.shown} may call the volatile function {call.name}()"
            continue
        if not here:
            return f"{call.shown}() names another database"
        if syntax and not functions:
            continue  # grammar, not a call by name: CAST(...), COALESCE(...) ...
        if not functions:
            return (
                f"{call.shown}() is no function the session can see, so the check cannot "
                "tell what it does"
            )
        if volatile:
            return (
                f"it calls {call.shown}(), which PostgreSQL classifies as volatile (it may "
                "change data or the session, lock, signal, read files or run SQL); a read-only "
                "statement calls only immutable and stable functions"
            )
    return None
