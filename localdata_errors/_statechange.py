"""
What a SQL statement changes: the objects it creates, drops, alters, renames
or truncates, and the tables whose rows it inserts, updates or deletes.

Used by `localdata_errors.history`.  The text it reads is already masked
(no values, no comments; see `_sqlmask`), so nothing here ever sees, caches
or logs a value.

sqlglot reads the statement, in the backend's dialect, through
`localdata_errors._sqlglot` (the one way into sqlglot, which keeps its log
records of our parses to itself).  Each sqlglot expression class has one
reader (the table `_readers()` builds on first use; every other statement
goes to `_read_query`); a statement sqlglot cannot parse changes nothing as
far as the history knows, which at worst leaves an earlier failure unreported
as unblocked.  sqlglot is the only reader: the history requires it.

There is no cheaper tier in front of sqlglot: the recognisers that stood
there disagreed with sqlglot on 443 of 1,596 simple statements across seven
dialects (keywords used as names, quotes of another dialect), and the tools
that write most often (the SQL tool server's structured tools) are recorded
as calls, not parsed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from typing import Any, Final, NamedTuple

from localdata_errors import _sqlglot
from localdata_errors._backends import sqlglot_dialect

__all__ = [
    "PARSE_LIMIT",
    "Name",
    "ParsedStatement",
    "StateChange",
    "fold_name",
    "parse_statement",
    "read_statement",
]

#: Only this many characters of a statement are parsed.
PARSE_LIMIT: Final = 16_384


class Name(NamedTuple):
    """
    An object name as the statement wrote it: unqualified and unquoted.

    Attributes:
        name: The object's own name (``Sales.Orders`` -> ``Orders``).
        quoted: Whether it was quoted (quoted names keep their case).
    """

    name: str
    quoted: bool = False


class StateChange(NamedTuple):
    """
    One change a successful statement or call made.

    Attributes:
        action: ``created``, ``dropped``, ``altered``, ``renamed``,
            ``truncated``, ``inserted``, ``updated`` or ``deleted``.
        object_type: ``table``, ``view``, ``index``, ``schema``, ... (``table``
            for row changes).
        name: The object.
        new_name: The new name of a renamed object.
        rows: How many rows, where the result said so.
        detail: A short qualifier (``constraint dropped``).
    """

    action: str
    object_type: str
    name: Name
    new_name: Name | None = None
    rows: int | None = None
    detail: str | None = None

    def describe(self) -> str:
        """
        Render the change for a person: ``table sales dropped``, ``2 rows inserted into customers``.

        Returns:
            One short phrase.
        """
        name = self.name.name
        if self.action in _ROW_PREPOSITION:
            count = (
                "rows" if self.rows is None else f"{self.rows} row{'' if self.rows == 1 else 's'}"
            )
            return f"{count} {self.action} {_ROW_PREPOSITION[self.action]} {name}"
        if self.action == "renamed" and self.new_name is not None:
            return f"{self.object_type} {name} renamed to {self.new_name.name}"
        if self.detail:
            return f"{self.object_type} {name} {self.action} ({self.detail})"
        return f"{self.object_type} {name} {self.action}"


class ParsedStatement(NamedTuple):
    """
    What a statement (or a batch of them) does, before knowing whether it succeeded.

    Attributes:
        verb: The first statement's verb, upper case (``DROP``, ``INSERT``,
            ``SELECT``...); ``""`` when unknown.
        changes: What it changes if it succeeds (row counts not yet known).
        tables: Every table it names, targets first.
        parser: Who read it: ``sqlglot``, or ``call`` for a structured call
            (``none`` for arguments that are neither).
    """

    verb: str
    changes: tuple[StateChange, ...]
    tables: tuple[Name, ...]
    parser: str


_ROW_PREPOSITION: Final = {"inserted": "into", "updated": "in", "deleted": "from"}
_FIRST_WORD: Final = re.compile(r"\s{0,64}([A-Za-z]{1,16})")
_NAME_LIMIT: Final = 128
_WORD: Final = re.compile(r"[^\W\d][\w$#]{0,127}")


def fold_name(name: str, quoted: bool, dialect: str | None) -> str:
    """
    The key two names are compared by, folded as the backend folds them.

    PostgreSQL folds unquoted names to lower case and keeps quoted ones as
    written; Oracle folds unquoted names to upper case.  SQLite, MySQL/MariaDB
    (table names, on the usual case-insensitive file systems), SQL Server
    (default collations) and unknown backends compare without case.

    Args:
        name: The unquoted name.
        quoted: Whether the statement quoted it.  Names read from an error
            are the stored names: pass ``True``.
        dialect: From `localdata_errors._backends.sqlglot_dialect`.

    Returns:
        The comparison key.
    """
    if dialect == "postgres":
        return name if quoted else name.lower()
    if dialect == "oracle":
        return name if quoted else name.upper()
    return name.casefold()


def _first_word(text: str) -> str:
    match = _FIRST_WORD.match(text)
    return match.group(1).upper() if match else ""


def _unique(names: Iterable[Name]) -> tuple[Name, ...]:
    return tuple(dict.fromkeys(names))


# -- sqlglot: one reader per expression class -------------------------------------

Reader = Callable[[Any, str | None], ParsedStatement]


def _exp() -> Any:
    from sqlglot import exp  # noqa: PLC0415 - optional; only reached once sqlglot imported

    return exp


def _name_of(node: Any) -> Name | None:
    """The object a ``Table`` / ``Schema`` / ``Index`` / ``Identifier`` node names."""
    exp = _exp()
    for _ in range(8):  # Schema(Table(Identifier)) is as deep as it gets
        if isinstance(node, exp.Identifier):
            text = str(node.this)
            # No backend allows a longer name: such a text names nothing.
            return Name(text, bool(node.args.get("quoted"))) if len(text) <= _NAME_LIMIT else None
        if isinstance(node, exp.Table):
            # A schema is a Table with only its db part (CREATE SCHEMA s).
            node = node.this or node.args.get("db") or node.args.get("catalog")
        elif isinstance(node, exp.Expression):
            node = node.this
        else:
            return None
    return None


def _names(nodes: Iterable[Any]) -> list[Name]:
    return [n for n in map(_name_of, nodes) if n is not None]


def _object_type(tree: Any) -> str:
    kind = str(tree.args.get("kind") or "table").lower()
    materialized = tree.args.get("materialized") or (
        tree.find(_exp().MaterializedProperty) is not None if kind == "view" else False
    )
    return f"materialized {kind}" if materialized else kind


def _read_drop(tree: Any, _dialect: str | None) -> ParsedStatement:
    kind = _object_type(tree)
    names = _names(tree.args.get("tables") or [tree.this])
    return ParsedStatement(
        "DROP",
        tuple(StateChange("dropped", kind, n) for n in names),
        tuple(names) if kind == "table" else (),
        "sqlglot",
    )


def _read_create(tree: Any, _dialect: str | None) -> ParsedStatement:
    kind = _object_type(tree)
    target = tree.this
    name = _name_of(target.this if isinstance(target, _exp().Index) else target)
    if name is None:
        return ParsedStatement("CREATE", (), (), "sqlglot")  # CREATE INDEX ON t (...)
    return ParsedStatement(
        "CREATE",
        (StateChange("created", kind, name),),
        (name,) if kind == "table" else (),
        "sqlglot",
    )


def _read_alter(tree: Any, _dialect: str | None) -> ParsedStatement:
    exp = _exp()
    kind = _object_type(tree)
    name = _name_of(tree.this)
    if name is None:
        return ParsedStatement("ALTER", (), (), "sqlglot")
    tables = (name,) if kind == "table" else ()
    actions = tree.args.get("actions") or []
    rename = getattr(exp, "AlterRename", None) or getattr(exp, "RenameTable", None)
    for action in actions:
        if rename is not None and isinstance(action, rename):
            new = _name_of(action.this)
            if new is not None:
                change = StateChange("renamed", kind, name, new)
                return ParsedStatement("ALTER", (change,), (*tables, new), "sqlglot")
    # Only a statement that drops a constraint and adds none takes it away.
    dropped = any(
        isinstance(a, exp.Drop)
        and str(a.args.get("kind") or "").upper() in {"CONSTRAINT", "FOREIGN KEY"}
        for a in actions
    )
    added = any(not isinstance(a, exp.Drop) for a in actions)
    detail = "constraint dropped" if dropped and not added else None
    return ParsedStatement(
        "ALTER", (StateChange("altered", kind, name, detail=detail),), tables, "sqlglot"
    )


def _read_truncate(tree: Any, _dialect: str | None) -> ParsedStatement:
    if tree.args.get("is_database"):
        return ParsedStatement("TRUNCATE", (), (), "sqlglot")
    names = _names(tree.expressions)
    return ParsedStatement(
        "TRUNCATE",
        tuple(StateChange("truncated", "table", n) for n in names),
        tuple(names),
        "sqlglot",
    )


def _merge_actions(node: Any) -> list[str]:
    exp = _exp()
    actions: list[str] = []
    for when in node.find_all(exp.When):
        then = when.args.get("then")
        if isinstance(then, exp.Insert):
            actions.append("inserted")
        elif isinstance(then, exp.Update):
            actions.append("updated")
        elif then is not None and str(getattr(then, "this", "")).upper() == "DELETE":
            actions.append("deleted")
    return list(dict.fromkeys(actions)) or ["updated"]


def _row_changes(tree: Any) -> list[StateChange]:
    """Every row change in the tree: the statement's own and those of its CTEs."""
    exp = _exp()
    changes: list[StateChange] = []
    for node in tree.find_all(exp.Insert, exp.Update, exp.Delete, exp.Merge):
        if isinstance(node, exp.Merge):
            name = _name_of(node.this)
            actions = _merge_actions(node)
            changes += [StateChange(a, "table", name) for a in actions if name is not None]
        elif isinstance(node, exp.Delete) and node.args.get("tables"):
            # MySQL's DELETE a, b FROM a JOIN b: the targets are listed first.
            changes += [StateChange("deleted", "table", n) for n in _names(node.args["tables"])]
        elif (name := _name_of(node.this)) is not None:
            action = {exp.Insert: "inserted", exp.Delete: "deleted"}.get(type(node), "updated")
            changes.append(StateChange(action, "table", name))
    return changes


def _read_query(tree: Any, _dialect: str | None) -> ParsedStatement:
    """Any other statement: the rows it changes, the tables it names."""
    exp = _exp()
    verbs = {exp.Insert: "INSERT", exp.Update: "UPDATE", exp.Delete: "DELETE", exp.Merge: "MERGE"}
    set_operation = getattr(exp, "SetOperation", exp.Union)
    verb = verbs.get(type(tree)) or (
        "SELECT" if isinstance(tree, set_operation) else str(tree.key).upper()
    )
    changes = _row_changes(tree)
    into = tree.args.get("into") if isinstance(tree, exp.Select) else None
    if into is not None and (name := _name_of(into.this)) is not None:
        changes.append(StateChange("created", "table", name))  # SELECT ... INTO t
    ctes = {str(c.alias_or_name).casefold() for c in tree.find_all(exp.CTE)}
    read = [n for n in _names(tree.find_all(exp.Table)) if n.name.casefold() not in ctes]
    tables = _unique([*(c.name for c in changes), *read])
    return ParsedStatement(verb, tuple(changes), tables, "sqlglot")


def _dotted(tokens: list[Any], start: int) -> tuple[Name | None, int]:
    """A dotted name from sqlglot tokens: its last part, and the index after it."""
    token_type = _sqlglot_module().tokens.TokenType
    name: Name | None = None
    i = start
    while i < len(tokens):
        token = tokens[i]
        quoted = token.token_type == token_type.IDENTIFIER
        if not quoted and not _WORD.fullmatch(token.text):
            return None, i
        name = Name(token.text, quoted)
        i += 1
        if i < len(tokens) and tokens[i].token_type == token_type.DOT:
            i += 1
            continue
        break
    return name, i


def _read_rename_command(text: str, dialect: str | None) -> ParsedStatement:
    """MySQL's ``RENAME TABLE a TO b, c TO d``, read with sqlglot's tokenizer."""
    module = _sqlglot_module()
    with _sqlglot.quiet():
        tokens = list(module.tokenize(text, read=dialect))
    token_type = module.tokens.TokenType
    i = 1 if tokens and tokens[0].text.upper() in {"TABLE", "TABLES"} else 0
    changes: list[StateChange] = []
    while i < len(tokens):
        old, i = _dotted(tokens, i)
        if old is None or i >= len(tokens) or tokens[i].text.upper() != "TO":
            return ParsedStatement("RENAME", (), (), "sqlglot")
        new, i = _dotted(tokens, i + 1)
        if new is None or (i < len(tokens) and tokens[i].token_type != token_type.COMMA):
            return ParsedStatement("RENAME", (), (), "sqlglot")
        changes.append(StateChange("renamed", "table", old, new))
        i += 1
    tables = _unique(n for c in changes for n in (c.name, c.new_name) if n is not None)
    return ParsedStatement("RENAME", tuple(changes), tables, "sqlglot")


def _read_replace_command(text: str, dialect: str | None) -> ParsedStatement:
    """``REPLACE INTO t ...`` inserts (after deleting the rows it conflicts with)."""
    try:
        trees = _sqlglot.parse("INSERT " + text, dialect)
    except Exception:  # noqa: BLE001 - unparseable: nothing known
        return ParsedStatement("REPLACE", (), (), "sqlglot")
    tree = trees[0] if len(trees) == 1 else None
    if not isinstance(tree, _exp().Insert):
        return ParsedStatement("REPLACE", (), (), "sqlglot")
    return _read_query(tree, dialect)._replace(verb="REPLACE")


_COMMANDS: Final[dict[str, Callable[[str, str | None], ParsedStatement]]] = {
    "RENAME": _read_rename_command,
    "REPLACE": _read_replace_command,
}


def _read_command(tree: Any, dialect: str | None) -> ParsedStatement:
    """A statement sqlglot keeps as an opaque command: a few are known by their first word."""
    word = str(tree.this).upper()
    reader = _COMMANDS.get(word)
    rest = tree.args.get("expression")
    # The rest of the text: a string Literal, or a plain str, by sqlglot version.
    text = str(rest.this if isinstance(rest, _exp().Expression) else rest or "")
    if reader is None or not text:
        return ParsedStatement(word, (), (), "sqlglot")
    return reader(text, dialect)


def _read_execute(tree: Any, _dialect: str | None) -> ParsedStatement:
    """SQL Server's ``EXEC sp_rename 'schema.old', 'new'`` renames a table."""
    exp = _exp()
    procedure = _name_of(tree.this)
    if procedure is None or procedure.name.casefold() != "sp_rename":
        return ParsedStatement("EXEC", (), (), "sqlglot")
    args = tree.expressions
    if len(args) < 2 or not all(isinstance(a, exp.Literal) and a.is_string for a in args):
        return ParsedStatement("EXEC", (), (), "sqlglot")
    if len(args) > 2 and str(args[2].this).upper() != "OBJECT":
        return ParsedStatement("EXEC", (), (), "sqlglot")  # a column, an index...
    old_text = str(args[0].this)
    old = _bracketed(old_text.rsplit(".", 1)[-1])
    new = _bracketed(str(args[1].this))
    return ParsedStatement(
        "EXEC", (StateChange("renamed", "table", old, new),), (old, new), "sqlglot"
    )


def _bracketed(part: str) -> Name:
    part = part.strip()
    if len(part) >= 2 and part[0] in '["' and part[-1] in ']"':
        return Name(part[1:-1], True)
    return Name(part, False)


def _sqlglot_module() -> Any:
    return _sqlglot.sqlglot()


@cache
def _readers() -> dict[type, Reader]:
    # Built on first use: sqlglot is imported only then.  Names differ across
    # sqlglot versions (AlterTable became Alter); absent ones are skipped.
    exp = _exp()
    table: dict[str, Reader] = {
        "Select": _read_query,
        "Insert": _read_query,
        "Update": _read_query,
        "Delete": _read_query,
        "Merge": _read_query,
        "Drop": _read_drop,
        "Create": _read_create,
        "Alter": _read_alter,
        "AlterTable": _read_alter,
        "TruncateTable": _read_truncate,
        "Command": _read_command,
        "Execute": _read_execute,
    }
    return {getattr(exp, k): v for k, v in table.items() if hasattr(exp, k)}


def _read(tree: Any, dialect: str | None) -> ParsedStatement:
    readers = _readers()
    for cls in type(tree).__mro__:
        reader = readers.get(cls)
        if reader is not None:
            return reader(tree, dialect)
    return _read_query(tree, dialect)


@lru_cache(maxsize=256)
def _glot(sql: str, dialect: str | None, partial: bool = False) -> ParsedStatement:
    # The text is masked, so the key holds no value; agents repeat statements
    # (that is what a retry is), and a parse costs 50-400 µs.
    try:
        trees = _sqlglot.parse(sql, dialect, partial=partial)
    except Exception:  # noqa: BLE001 - unparseable: its effect is unknown
        return ParsedStatement(_first_word(sql), (), (), "sqlglot")
    verb = ""
    changes: list[StateChange] = []
    tables: list[Name] = []
    for tree in trees:
        if tree is None:
            continue
        parsed = _read(tree, dialect)
        verb = verb or parsed.verb
        changes.extend(parsed.changes)
        tables.extend(parsed.tables)
    return ParsedStatement(verb, tuple(changes), _unique(tables), "sqlglot")


def parse_statement(sql: str, db_type: str | None = None, *, cut: bool = False) -> ParsedStatement:
    """
    Work out what *sql* changes if it succeeds.  Never raises.

    Args:
        sql: One statement, or several separated by ``;``; masked already
            when it comes from the history.
        db_type: The backend (``"postgresql"``, ``"mysql"``, ...), for the
            dialect: backticks, brackets, double quotes.
        cut: The statement was longer than the caller kept: sqlglot reads
            what it can of the unfinished text (a long ``INSERT ... VALUES``
            still inserts into its table).

    Returns:
        The `ParsedStatement`.
    """
    return read_statement(sql, sqlglot_dialect(db_type), cut=cut)


def read_statement(sql: str, dialect: str | None, *, cut: bool = False) -> ParsedStatement:
    """
    `parse_statement` in a sqlglot dialect (``postgres``, ``tsql``...) rather than a backend.

    Args:
        sql: The (masked) statement.
        dialect: The sqlglot dialect, or ``None`` for sqlglot's default.
        cut: The statement was cut short.

    Returns:
        The `ParsedStatement`; one that changes nothing when sqlglot cannot
        parse the text.
    """
    text = sql[:PARSE_LIMIT] if isinstance(sql, str) else ""
    cut = cut or (isinstance(sql, str) and len(sql) > PARSE_LIMIT)
    try:
        return _glot(text, dialect, cut)
    except Exception:  # noqa: BLE001 - a history must never fail because of a statement
        return ParsedStatement("", (), (), "sqlglot")
