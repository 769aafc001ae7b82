"""
The parser layer of read-only mode: a statement runs only when its parse proves it reads.

sqlglot parses each statement in the server's dialect, and read-only mode is
an allowlist over that parse: a query (``SELECT``, set operations, ``WITH``,
``VALUES``, ``TABLE``), ``EXPLAIN`` of such a query, ``SHOW``, ``DESCRIBE``
and the read forms of a few PRAGMAs.  Everything else is refused, and so is
a query with any part that is not a read: a data-modifying CTE, ``SELECT ...
INTO``, a row lock (``FOR UPDATE``/``FOR SHARE``), a DuckDB table named by
a file path.  A text that cannot be parsed is refused as well: nothing runs
that was not understood.

Functions: on PostgreSQL the parse finds every call and names it as the
engine will (`localdata_errors.mcp._functions`), and the engine's own
catalogue judges it inside the call's transaction (immutable or stable
only); the other engines classify no built-in function in a catalogue, and
a call of one on their short list (file access, locks, sequences) refuses
the statement here.

The login layer (`localdata_errors.mcp._login`) and the session layer
(`localdata_errors.mcp._engine`, `localdata_errors.mcp._session`) make
the database itself refuse writes and forget each call; this layer refuses
early, with a clear reason, and covers what an engine lets a read-only
transaction do (read a server file, take an advisory lock, terminate
another session).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from localdata_errors import _sqlglot
from localdata_errors.mcp._functions import FunctionCall, function_calls
from localdata_errors.mcp._statements import Piece, UnreadableSQLError, pieces

__all__ = [
    "OBJECT_PRAGMAS",
    "VALUE_PRAGMAS",
    "Reading",
    "every_row_changes",
    "is_read_only_pragma",
    "parse_statement",
    "read",
    "refusal",
]

#: PRAGMAs whose argument names an object (a table, an index): read-only in
#: every form.
OBJECT_PRAGMAS: Final[dict[str, frozenset[str]]] = {
    "sqlite": frozenset(
        {
            "table_info",
            "table_xinfo",
            "table_list",
            "index_list",
            "index_info",
            "index_xinfo",
            "foreign_key_list",
        }
    ),
    "duckdb": frozenset({"table_info", "storage_info"}),
}
#: PRAGMAs that read a setting without an argument and change it with one:
#: only their read form (no argument) is allowed.
VALUE_PRAGMAS: Final[dict[str, frozenset[str]]] = {
    "sqlite": frozenset(
        {
            "database_list",
            "collation_list",
            "compile_options",
            "foreign_keys",
            "query_only",
            "user_version",
            "application_id",
            "schema_version",
            "data_version",
            "encoding",
            "page_size",
            "page_count",
            "freelist_count",
            "journal_mode",
        }
    ),
    "duckdb": frozenset(
        {
            "show_tables",
            "show_tables_expanded",
            "database_list",
            "database_size",
            "version",
            "platform",
            "collations",
        }
    ),
}

# Functions that write, lock, signal, change settings or read the server's
# files, by dialect, where the engine does not classify its functions itself:
# a call of any of them refuses the statement.  Reading a local file is a way
# out for data the database user should not hand over.  PostgreSQL is not
# here: its catalogue says which functions may be called
# (`localdata_errors.mcp._functions`), for the names `read` finds.
_DENIED_FUNCTIONS: Final[dict[str, frozenset[str]]] = {
    "mysql": frozenset(
        {
            "load_file",
            "get_lock",
            "release_lock",
            "release_all_locks",
            "nextval",
            "setval",
            "sys_exec",
            "sys_eval",
        }
    ),
    "sqlite": frozenset({"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"}),
    "duckdb": frozenset(
        {
            "getenv",
            "query",
            "query_table",
            "glob",
            "sniff_csv",
            "nextval",
            "setval",
            "st_read",
            "st_readosm",
            "st_read_meta",
            "duckdb_secrets",
            "which_secret",
            "load_extension",
        }
    ),
    "tsql": frozenset({"openrowset", "opendatasource", "openquery"}),
    "oracle": frozenset(),
}
_DENIED_PREFIXES: Final[dict[str, tuple[str, ...]]] = {
    "duckdb": ("read_", "parquet_", "sqlite_", "postgres_", "mysql_", "iceberg_", "delta_"),
    "oracle": ("dbms_", "utl_"),
}
# DuckDB reads a file named in place of a table (FROM 'data.csv'): a table
# name with one of these characters is not a table of the database.
_PATH_CHARACTERS: Final = frozenset("./\\:*?~")
# Nodes of sqlglot's DDL module that occur inside ordinary queries.
_QUERY_SAFE_DDL: Final = frozenset({"Comprehension", "Heredoc"})
# Nodes of sqlglot's query module that are statements or clauses that act.
_ACTING_QUERY_NODES: Final = frozenset(
    {
        "Into",
        "Lock",
        "Grant",
        "Revoke",
        "Put",
        "Get",
        "AddPartition",
        "DropPartition",
        "ReplacePartition",
        "Block",
        "IfBlock",
        "LoopBlock",
        "WhileBlock",
        "RepeatBlock",
        "Leave",
        "Iterate",
        "Return",
        "StoredProcedure",
        "MultitableInserts",
        "ConditionalInsert",
        "ListStage",
        "Analyze",
    }
)
_ACTING_REASONS: Final = {
    "Into": "SELECT ... INTO writes its result (a new table, a file, variables)",
    "Lock": "FOR UPDATE / FOR SHARE locks rows",
}
_EXPLAIN_OPTIONS: Final = frozenset({"ANALYZE", "ANALYSE", "VERBOSE"})


@dataclass(frozen=True, slots=True)
class Reading:
    """
    What the parse found of one statement.

    Attributes:
        reason: Why it is not proven to read; ``None`` when it is, so far.
        calls: The functions it calls by name (PostgreSQL), for the engine's
            own catalogue to judge (`localdata_errors.mcp._functions`).
        query: It is a query (``SELECT``, a set operation, ``VALUES``): its
            rows can be read through a server-side cursor.
    """

    reason: str | None
    calls: tuple[FunctionCall, ...] = ()
    query: bool = False


def parse_statement(text: str, dialect: str | None, tokens: Sequence[Any] | None = None) -> Any:
    """
    sqlglot's parse of one statement (from its tokens, when they were read already).

    Raises:
        UnreadableSQLError: It does not parse as one statement in the dialect.
    """
    module = _sqlglot.sqlglot()
    if module is None:
        raise ImportError("sqlglot is not installed (pip install 'localdata-errors[mcp]')")
    try:
        with _sqlglot.quiet():
            if tokens:
                # Parsed from the tokens already read: the text is not read again.
                parser = module.Dialect.get_or_raise(dialect).parser()
                found = parser.parse(list(tokens), text)
            else:
                found = _sqlglot.parse(text, dialect)
        expressions = [e for e in found if e is not None]
    except ImportError:
        raise
    except Exception as exc:  # noqa: BLE001 - ParseError, TokenError, RecursionError on deep nesting
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UnreadableSQLError(first[:200]) from None
    if len(expressions) != 1:
        raise UnreadableSQLError("it does not parse as one statement")
    return expressions[0]


def refusal(
    text: str,
    dialect: str | None,
    comments: Sequence[str] = (),
    tokens: Sequence[Any] | None = None,
) -> str | None:
    """
    Why one statement is not proven to read, or ``None`` when the parse proves it.

    For PostgreSQL the functions the statement calls are then judged by the
    engine's catalogue (`read` returns them).

    Args:
        text: One statement, as it will run (see ``_statements.split``).
        dialect: The sqlglot dialect of the server's database.
        comments: The comments the statement carried before they were
            removed from *text*.
        tokens: *text*'s tokens, when they were read already.

    Returns:
        The reason to refuse it, in words a model reads; ``None`` to run it.

    Raises:
        UnreadableSQLError: The statement cannot be parsed in the dialect.
    """
    return read(text, dialect, comments, tokens).reason


def read(
    text: str,
    dialect: str | None,
    comments: Sequence[str] = (),
    tokens: Sequence[Any] | None = None,
) -> Reading:
    """
    Read one statement: whether its parse proves it reads, and which functions it calls.

    Args:
        text: One statement, as it will run.
        dialect: The sqlglot dialect of the server's database.
        comments: The comments removed from *text*.
        tokens: *text*'s tokens, when they were read already.

    Returns:
        The reading: a reason to refuse, or the calls to judge (PostgreSQL).

    Raises:
        UnreadableSQLError: The statement cannot be parsed in the dialect.
    """
    parts = list(pieces(text, dialect, tokens=tokens or None))
    if not parts:
        raise UnreadableSQLError("the text holds no statement")
    if dialect == "mysql":
        reason = _mysql_comments(parts, comments)
        if reason:
            return Reading(reason)
    if dialect == "sqlite":
        reason = _sqlite_variables(parts)
        if reason:
            return Reading(reason)
    keyword = parts[0].text.upper()
    if keyword == "EXPLAIN" and parts[0].type == "COMMAND":
        return _explain(text, parts, dialect)
    if keyword == "SHOW" and dialect == "postgres":
        # PostgreSQL's SHOW names one setting; sqlglot reads it as a command.
        words = all(p.type in ("VAR", "DOT") or p.text.replace("_", "").isalnum() for p in parts)
        return Reading(None if len(parts) > 1 and words else "it is not a plain SHOW of a setting")
    root = parse_statement(text, dialect, tokens)
    reason = _root(root, dialect)
    if reason is not None:
        return Reading(reason)
    query = isinstance(root, _expressions().Query | _expressions().Values)
    calls = function_calls(root, parts) if dialect == "postgres" else ()
    return Reading(None, calls, query)


def every_row_changes(
    text: str, dialect: str | None, tokens: Sequence[Any] | None = None
) -> list[str]:
    """
    The UPDATEs and DELETEs of a statement that have no WHERE, anywhere in its parse.

    Args:
        text: One statement.
        dialect: The sqlglot dialect of the server's database.
        tokens: *text*'s tokens, when they were read already.

    Returns:
        ``UPDATE``/``DELETE`` for each one without a WHERE clause (empty when
        every one is filtered).

    Raises:
        UnreadableSQLError: The statement cannot be parsed in the dialect.
    """
    exp = _expressions()
    root = parse_statement(text, dialect, tokens)
    return [
        type(node).__name__.upper()
        for node in root.find_all(exp.Update, exp.Delete)
        if node.args.get("where") is None
    ]


def _mysql_comments(parts: list[Piece], comments: Sequence[str]) -> str | None:
    # MySQL runs the text of /*! ... */ (and MariaDB that of /*M! ... */):
    # SQL inside what every other reader takes for a comment.
    for comment in (*comments, *(c for p in parts for c in p.comments)):
        if comment[:1] == "!" or comment[:2] in ("M!", "m!"):
            return "an executable comment (/*! ... */) runs SQL the parse cannot see"
    if any(p.type == "HINT" for p in parts):
        return "an optimizer hint (/*+ ... */) can change settings for the statement"
    return None


def _sqlite_variables(parts: list[Piece]) -> str | None:
    # SQLite reads $name, @name, #name and :name followed by "(...)" as one
    # variable token, parenthesis and all (Tcl syntax): other readers see a
    # call whose argument may hide a quote.  Only ? and :name are accepted.
    for index, piece in enumerate(parts):
        following = parts[index + 1] if index + 1 < len(parts) else None
        if piece.type in ("PARAMETER", "HASH") or (piece.type == "VAR" and piece.text[:1] == "$"):
            return "SQLite's $, @ and # variables are not accepted; use ? or :name"
        if (
            piece.type == "COLON"
            and following is not None
            and index + 2 < len(parts)
            and parts[index + 2].type == "L_PAREN"
            and following.end == parts[index + 2].start
        ):
            return "a :name variable followed by ( is read by SQLite as one token"
    return None


def _explain(text: str, parts: list[Piece], dialect: str | None) -> Reading:
    # EXPLAIN [ANALYZE] [VERBOSE] | EXPLAIN (options) | EXPLAIN QUERY PLAN:
    # what follows the options must itself be a read (ANALYZE runs it).
    index = 1
    if index < len(parts) and parts[index].type == "L_PAREN":
        index = _after_parenthesis(parts, index)
    while index < len(parts) and parts[index].text.upper() in _EXPLAIN_OPTIONS:
        index += 1
    if dialect == "sqlite" and [p.text.upper() for p in parts[index : index + 2]] == [
        "QUERY",
        "PLAN",
    ]:
        index += 2
    if index >= len(parts):
        return Reading("EXPLAIN without a statement")
    inner = read(text[parts[index].start :], dialect)
    if inner.reason is None:
        return Reading(None, inner.calls)
    return Reading(f"it explains what is not a read: {inner.reason}")


def _after_parenthesis(parts: list[Piece], opening: int) -> int:
    depth = 0
    for index in range(opening, len(parts)):
        depth += {"L_PAREN": 1, "R_PAREN": -1}.get(parts[index].type, 0)
        if depth == 0:
            return index + 1
    return len(parts)


def _root(expression: Any, dialect: str | None) -> str | None:
    exp = _expressions()
    if isinstance(expression, exp.Pragma):
        return _pragma(expression, dialect)
    if not isinstance(expression, exp.Query | exp.Values | exp.Describe | exp.Show | exp.Summarize):
        return f"{_statement_name(expression)} is not a read"
    return _walk(expression, dialect)


def _statement_name(expression: Any) -> str:
    name = type(expression).__name__
    if name in ("Command", "Column", "Alias", "Identifier", "Var"):
        # What sqlglot could not place: name it by its first word.
        first = expression.sql().split(maxsplit=1)
        return first[0].upper() if first else name
    return name.upper()


def _walk(root: Any, dialect: str | None) -> str | None:
    exp = _expressions()
    for node in root.walk():
        cls = type(node)
        module = cls.__module__.rsplit(".", 1)[-1]
        name = cls.__name__
        if node is not root and module in ("dml", "ddl") and name not in _QUERY_SAFE_DDL:
            return f"it contains {_statement_name(node)}, which is not a read"
        if module in ("properties", "constraints"):
            return f"it contains {name} (a definition), which is not a read"
        if name in _ACTING_QUERY_NODES:
            return _ACTING_REASONS.get(name, f"it contains {name.upper()}, which is not a read")
        if isinstance(node, exp.Func):
            reason = _function(node, dialect)
            if reason:
                return reason
        if dialect == "duckdb" and isinstance(node, exp.Table) and _names_a_path(node):
            return f"the table name {node.name!r} names a file, which read-only mode refuses"
        if (
            dialect == "oracle"
            and isinstance(node, exp.Column)
            and node.name.lower() in ("nextval", "currval")
            and node.table
        ):
            return "a sequence's NEXTVAL advances it"
    return None


def _function(node: Any, dialect: str | None) -> str | None:
    exp = _expressions()
    name = (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()
    qualifier = ""
    if isinstance(node.parent, exp.Dot) and node.parent.expression is node:
        qualifier = node.parent.this.name.lower()
    key = dialect or ""
    denied = _DENIED_FUNCTIONS.get(key, frozenset())
    prefixes = _DENIED_PREFIXES.get(key, ())
    if name in denied or name.startswith(prefixes) or qualifier.startswith(prefixes):
        shown = f"{qualifier}.{name}" if qualifier else name
        return f"it calls {shown}(), which writes, locks, changes settings or reads files"
    if dialect == "sqlite" and name.startswith("pragma_"):
        has_args = bool(node.expressions) or node.args.get("this") is not None
        if isinstance(node, exp.Anonymous):
            has_args = bool(node.expressions)
        if not is_read_only_pragma("sqlite", name.removeprefix("pragma_"), has_args):
            return f"{name}() is not a read-only pragma function"
    return None


def _names_a_path(table: Any) -> bool:
    this = table.this
    exp = _expressions()
    if isinstance(this, exp.Literal):
        return True
    return isinstance(this, exp.Identifier) and bool(_PATH_CHARACTERS & set(this.name))


def is_read_only_pragma(dialect: str, name: str, has_argument: bool) -> bool:
    """
    Whether a PRAGMA is on the read-only allowlist.

    Args:
        dialect: ``sqlite`` or ``duckdb``.
        name: The pragma's name, any case.
        has_argument: Whether it is given a value (``PRAGMA x = v``, ``PRAGMA x(v)``).

    Returns:
        ``True`` for an object pragma in any form, or a value pragma read without argument.
    """
    lowered = name.lower()
    if lowered in OBJECT_PRAGMAS.get(dialect, frozenset()):
        return True
    return not has_argument and lowered in VALUE_PRAGMAS.get(dialect, frozenset())


def _pragma(expression: Any, dialect: str | None) -> str | None:
    exp = _expressions()
    if dialect not in ("sqlite", "duckdb"):
        return "a PRAGMA is not a read"
    inner = expression.this
    argument: Any = None
    has_argument = False
    if isinstance(inner, exp.EQ | exp.PropertyEQ):
        target, argument, has_argument = inner.this, inner.expression, True
    elif isinstance(inner, exp.Anonymous):
        target, has_argument = inner, bool(inner.expressions)
        argument = inner.expressions[0] if len(inner.expressions) == 1 else None
    else:
        target = inner
    name = str(target.name)
    if not name or not is_read_only_pragma(dialect, name, has_argument):
        shown = f"PRAGMA {name or '?'}" + (" with a value" if has_argument else "")
        return f"{shown} is not on the read-only pragma list"
    if has_argument and not isinstance(
        argument, exp.Literal | exp.Column | exp.Identifier | exp.Var
    ):
        return f"PRAGMA {name} takes an object's name"
    return None


def _expressions() -> Any:
    module = _sqlglot.sqlglot()
    if module is None:
        raise ImportError("sqlglot is not installed (pip install 'localdata-errors[mcp]')")
    return module.expressions
