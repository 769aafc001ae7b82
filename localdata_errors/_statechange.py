"""
What a SQL statement changes: the objects it creates, drops, alters, renames
or truncates, and the tables whose rows it inserts, updates or deletes.

Used by :mod:`localdata_errors.history`.  Three tiers, cheapest first:

1. Exact recognisers for a *single* simple statement whose effect is fixed by
   its first words (``DROP TABLE a, b``, ``INSERT INTO t ...``, ``ALTER TABLE
   x RENAME TO y``, ``SELECT ...``).  A bounded regex answers these in about a
   microsecond, where a full parse costs 70-300 µs; the tests check that they
   agree with sqlglot on every dialect.
2. sqlglot (optional, imported on first use), dialect-aware, for everything
   else: several statements, CTEs that modify data, ``SELECT ... INTO``,
   ``MERGE``.
3. The same bounded regexes, statement by statement, when sqlglot is not
   installed or cannot parse the text.

Every pattern is precompiled and bounded (``{0,128}``), so the cost is linear
in the text's length; input longer than :data:`PARSE_LIMIT` is cut.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Final, Literal, NamedTuple

__all__ = [
    "PARSE_LIMIT",
    "Name",
    "ParsedStatement",
    "StateChange",
    "fold_name",
    "parse_statement",
    "sql_dialect",
]

#: Only this many characters of a statement are parsed.
PARSE_LIMIT: Final = 16_384

Parser = Literal["auto", "sqlglot", "regex"]


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
    One change a successful statement made.

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
        if self.action in _ROW_ACTIONS:
            prep = (
                "into"
                if self.action == "inserted"
                else "in"
                if self.action == "updated"
                else "from"
            )
            count = (
                "rows" if self.rows is None else f"{self.rows} row{'' if self.rows == 1 else 's'}"
            )
            return f"{count} {self.action} {prep} {self.name.name}"
        if self.action == "renamed" and self.new_name is not None:
            return f"{self.object_type} {self.name.name} renamed to {self.new_name.name}"
        if self.detail:
            return f"{self.object_type} {self.name.name} {self.action} ({self.detail})"
        return f"{self.object_type} {self.name.name} {self.action}"


class ParsedStatement(NamedTuple):
    """
    What a statement (or a batch of them) does, before knowing whether it succeeded.

    Attributes:
        verb: The first statement's verb, upper case (``DROP``, ``INSERT``,
            ``SELECT``...); ``""`` when unknown.
        changes: What it changes if it succeeds (row counts not yet known).
        tables: Every table it names, targets first.
        parser: Which tier answered: ``fast``, ``sqlglot`` or ``regex``.
    """

    verb: str
    changes: tuple[StateChange, ...]
    tables: tuple[Name, ...]
    parser: str


_ROW_ACTIONS: Final = frozenset({"inserted", "updated", "deleted"})

_DIALECTS: Final = {
    "postgresql": "postgres",
    "postgres": "postgres",
    "pg": "postgres",
    "psycopg": "postgres",
    "psycopg2": "postgres",
    "asyncpg": "postgres",
    "redshift": "postgres",
    "mysql": "mysql",
    "mariadb": "mysql",
    "pymysql": "mysql",
    "mysqldb": "mysql",
    "sqlite": "sqlite",
    "sqlite3": "sqlite",
    "aiosqlite": "sqlite",
    "mssql": "tsql",
    "sqlserver": "tsql",
    "tsql": "tsql",
    "pyodbc": "tsql",
    "pymssql": "tsql",
    "oracle": "oracle",
    "oracledb": "oracle",
    "duckdb": "duckdb",
}


def sql_dialect(db_type: str | None) -> str | None:
    """
    The sqlglot dialect of a backend name (``"postgresql+psycopg"`` -> ``"postgres"``).

    Args:
        db_type: A backend name, as :func:`~localdata_errors.classify_error` takes it.

    Returns:
        The dialect, or ``None`` when unknown.
    """
    if not isinstance(db_type, str):
        return None
    key = db_type.strip().lower().split("+", 1)[0].replace(" ", "").replace("_", "")
    return _DIALECTS.get(key)


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
        dialect: From :func:`sql_dialect`.

    Returns:
        The comparison key.
    """
    if dialect == "postgres":
        return name if quoted else name.lower()
    if dialect == "oracle":
        return name if quoted else name.upper()
    return name.casefold()


# -- the bounded recognisers ----------------------------------------------------

_IDENT: Final = r'(?:"[^"\n]{1,128}"|`[^`\n]{1,128}`|\[[^\]\n]{1,128}\]|[^\W\d][\w$#]{0,127})'
_QNAME: Final = rf"{_IDENT}(?:\s{{0,4}}\.\s{{0,4}}{_IDENT}){{0,3}}"
_QLIST: Final = rf"{_QNAME}(?:\s{{0,16}},\s{{0,16}}{_QNAME}){{0,63}}"
# Anchored: every statement pattern matches at the start only, so a search
# that tries each offset fails at once everywhere else.
_LEAD: Final = r"\A\s{0,64}"
_FLAGS: Final = re.IGNORECASE | re.DOTALL

_IDENT_RE: Final = re.compile(_IDENT)
_QNAME_RE: Final = re.compile(_QNAME)
_OBJECT: Final = r"(?P<type>TABLE|VIEW|MATERIALIZED\s{1,16}VIEW|INDEX|SEQUENCE|SCHEMA|DATABASE)"

_DROP: Final = re.compile(
    rf"{_LEAD}DROP\s{{1,16}}(?:TEMPORARY\s{{1,16}})?{_OBJECT}\s{{1,16}}"
    rf"(?:IF\s{{1,16}}EXISTS\s{{1,16}})?(?P<names>{_QLIST})"
    r"(?:\s{1,16}(?:CASCADE|RESTRICT|PURGE)){0,2}\s{0,64};?\s{0,64}",
    _FLAGS,
)
_CREATE: Final = re.compile(
    rf"{_LEAD}CREATE\s{{1,16}}(?:OR\s{{1,16}}REPLACE\s{{1,16}})?(?:(?:GLOBAL|LOCAL)\s{{1,16}})?"
    rf"(?:TEMP(?:ORARY)?\s{{1,16}})?(?:UNIQUE\s{{1,16}})?{_OBJECT}\s{{1,16}}"
    rf"(?:IF\s{{1,16}}NOT\s{{1,16}}EXISTS\s{{1,16}})?(?P<name>{_QNAME})",
    _FLAGS,
)
_ALTER: Final = re.compile(
    rf"{_LEAD}ALTER\s{{1,16}}TABLE\s{{1,16}}(?:IF\s{{1,16}}EXISTS\s{{1,16}})?(?:ONLY\s{{1,16}})?"
    rf"(?P<name>{_QNAME})\s{{1,16}}(?P<rest>.{{0,4096}})",
    _FLAGS,
)
_RENAME_TO: Final = re.compile(
    rf"RENAME\s{{1,16}}TO\s{{1,16}}(?P<new>{_QNAME})\s{{0,64}};?\s{{0,64}}", _FLAGS
)
_DROP_CONSTRAINT: Final = re.compile(
    r"DROP\s{1,16}(?:CONSTRAINT|FOREIGN\s{1,16}KEY)\b(?!.{0,4096}\bADD\b)", _FLAGS
)
_RENAME_TABLE: Final = re.compile(
    rf"{_LEAD}RENAME\s{{1,16}}TABLES?\s{{1,16}}(?P<pairs>.{{1,4096}})", _FLAGS
)
_RENAME_PAIR: Final = re.compile(
    rf"(?<![\w$#])(?P<old>{_QNAME})\s{{1,16}}TO\s{{1,16}}(?P<new>{_QNAME})", _FLAGS
)
_SP_RENAME: Final = re.compile(
    _LEAD + r"(?:EXEC(?:UTE)?\s{1,16})?(?:\w{1,128}\.){0,2}sp_rename\s{1,16}"
    r"N?'(?P<old>[^'\n]{1,256})'\s{0,16},\s{0,16}N?'(?P<new>[^'\n]{1,256})'"
    r"\s{0,16}(?P<rest>,?.{0,64})",
    _FLAGS,
)
_TRUNCATE: Final = re.compile(
    rf"{_LEAD}TRUNCATE\s{{1,16}}(?:TABLE\s{{1,16}})?(?:ONLY\s{{1,16}})?(?P<names>{_QLIST})", _FLAGS
)
_INSERT: Final = re.compile(
    rf"{_LEAD}(?:INSERT|REPLACE)\s{{1,16}}(?:(?:IGNORE|LOW_PRIORITY|DELAYED|HIGH_PRIORITY|"
    rf"OR\s{{1,16}}[A-Z]{{1,16}})\s{{1,16}}){{0,3}}(?:INTO\s{{1,16}})?(?P<name>{_QNAME})",
    _FLAGS,
)
_UPDATE: Final = re.compile(
    rf"{_LEAD}UPDATE\s{{1,16}}(?:(?:LOW_PRIORITY|IGNORE|ONLY|OR\s{{1,16}}[A-Z]{{1,16}})\s{{1,16}}){{0,3}}"
    rf"(?P<name>{_QNAME})",
    _FLAGS,
)
_DELETE: Final = re.compile(
    rf"{_LEAD}DELETE\s{{1,16}}(?:(?:LOW_PRIORITY|QUICK|IGNORE)\s{{1,16}}){{0,3}}(?:FROM\s{{1,16}})?"
    rf"(?:ONLY\s{{1,16}})?(?P<name>{_QNAME})",
    _FLAGS,
)
_READ: Final = re.compile(
    r"\A\s{0,64}(?P<verb>SELECT|VALUES|SHOW|EXPLAIN|DESCRIBE|DESC|TABLE)\b", _FLAGS
)
_INTO: Final = re.compile(r"\bINTO\b", re.IGNORECASE)
_FROM_JOIN: Final = re.compile(rf"\b(?:FROM|JOIN|TABLE)\s{{1,16}}(?P<name>{_QNAME})", _FLAGS)
_VERB: Final = re.compile(r"\A\s{0,64}(?P<verb>[A-Za-z]{1,16})")
# Words that can follow a verb where a name is expected but are not a name.
_NOT_A_NAME: Final = frozenset(
    {"ON", "TOP", "SELECT", "LATERAL", "ONLY", "IF", "FROM", "SET", "WHERE"}
)


def _name(qualified: str) -> Name:
    # The last dotted part is the object; the qualifier goes.
    parts = _IDENT_RE.findall(qualified)
    last = parts[-1] if parts else qualified.strip()
    if len(last) >= 2 and last[0] in '"`[' and last[-1] in '"`]':
        return Name(last[1:-1], True)
    return Name(last, False)


def _names(text: str) -> list[Name]:
    return [_name(m.group(0)) for m in _QNAME_RE.finditer(text)]


def _object_type(raw: str) -> str:
    return " ".join(raw.lower().split())


def _regex_one(stmt: str) -> ParsedStatement | None:
    """Recognise one statement with the bounded regexes; ``None`` when none applies."""
    if m := _DROP.match(stmt):
        kind = _object_type(m["type"])
        names = tuple(_names(m["names"]))
        return ParsedStatement(
            "DROP",
            tuple(StateChange("dropped", kind, n) for n in names),
            names if kind == "table" else (),
            "regex",
        )
    if m := _CREATE.match(stmt):
        kind = _object_type(m["type"])
        name = _name(m["name"])
        if name.name.upper() in _NOT_A_NAME:
            return None
        return ParsedStatement(
            "CREATE",
            (StateChange("created", kind, name),),
            (name,) if kind == "table" else (),
            "regex",
        )
    if m := _ALTER.match(stmt):
        name = _name(m["name"])
        rest = m["rest"]
        if r := _RENAME_TO.fullmatch(rest):
            new = _name(r["new"])
            return ParsedStatement(
                "ALTER", (StateChange("renamed", "table", name, new),), (name, new), "regex"
            )
        detail = "constraint dropped" if _DROP_CONSTRAINT.search(rest) else None
        return ParsedStatement(
            "ALTER", (StateChange("altered", "table", name, detail=detail),), (name,), "regex"
        )
    if m := _RENAME_TABLE.match(stmt):
        pairs = [(_name(p["old"]), _name(p["new"])) for p in _RENAME_PAIR.finditer(m["pairs"])]
        if not pairs:
            return None
        return ParsedStatement(
            "RENAME",
            tuple(StateChange("renamed", "table", old, new) for old, new in pairs),
            tuple(n for pair in pairs for n in pair),
            "regex",
        )
    if m := _SP_RENAME.match(stmt):
        if "'COLUMN'" in m["rest"].upper() or "'INDEX'" in m["rest"].upper():
            return ParsedStatement("EXEC", (), (), "regex")
        old, new = _name(m["old"]), _name(m["new"])
        return ParsedStatement(
            "EXEC", (StateChange("renamed", "table", old, new),), (old, new), "regex"
        )
    if m := _TRUNCATE.match(stmt):
        names = tuple(_names(m["names"]))
        return ParsedStatement(
            "TRUNCATE", tuple(StateChange("truncated", "table", n) for n in names), names, "regex"
        )
    for verb, pattern, action in (
        ("INSERT", _INSERT, "inserted"),
        ("UPDATE", _UPDATE, "updated"),
        ("DELETE", _DELETE, "deleted"),
    ):
        if m := pattern.match(stmt):
            name = _name(m["name"])
            if name.name.upper() in _NOT_A_NAME:
                return None
            others = tuple(n for n in _from_tables(stmt) if n != name)
            return ParsedStatement(
                verb, (StateChange(action, "table", name),), (name, *others), "regex"
            )
    if m := _READ.match(stmt):
        return ParsedStatement(m["verb"].upper(), (), tuple(_from_tables(stmt)), "regex")
    return None


def _from_tables(stmt: str) -> list[Name]:
    seen: list[Name] = []
    for m in _FROM_JOIN.finditer(stmt):
        name = _name(m["name"])
        if name.name.upper() not in _NOT_A_NAME and name not in seen:
            seen.append(name)
    return seen


def _fast(stmt: str) -> ParsedStatement | None:
    """The exact tier: one statement whose effect its first words fix."""
    body = stmt.strip().rstrip(";")
    if ";" in body:
        return None  # several statements, or a ';' in a literal: leave it to the parser
    if _READ.match(body) and _INTO.search(body):
        return None  # SELECT ... INTO creates a table (SQL Server, PostgreSQL)
    if body.lstrip()[:4].upper() in {"WITH", "MERG", "CALL", "EXEC", "DO "}:
        return None
    parsed = _regex_one(body)
    return parsed._replace(parser="fast") if parsed is not None else None


def _regex(sql: str) -> ParsedStatement:
    """The fallback tier: every ';'-separated statement through the bounded regexes."""
    verb = ""
    changes: list[StateChange] = []
    tables: list[Name] = []
    for stmt in sql.split(";"):
        if not stmt.strip():
            continue
        parsed = _regex_one(stmt)
        if parsed is None:
            if not verb and (v := _VERB.match(stmt)):
                verb = v["verb"].upper()
            continue
        verb = verb or parsed.verb
        changes.extend(parsed.changes)
        tables.extend(t for t in parsed.tables if t not in tables)
    return ParsedStatement(verb, tuple(changes), tuple(tables), "regex")


# -- sqlglot -------------------------------------------------------------------


def _sqlglot() -> Any:
    try:
        import sqlglot  # noqa: PLC0415 - optional dependency, imported on first use
    except ImportError:
        return None
    return sqlglot


def _table_name(node: Any) -> Name | None:
    from sqlglot import exp  # noqa: PLC0415 - optional dependency, imported on first use

    while node is not None and not isinstance(node, exp.Table | exp.Identifier):
        node = node.args.get("this") if isinstance(node, exp.Expression) else None
    if isinstance(node, exp.Table):
        node = node.this
    if isinstance(node, exp.Identifier):
        return Name(str(node.this), bool(node.args.get("quoted")))
    return None


def _glot_statement(tree: Any) -> ParsedStatement | None:
    from sqlglot import exp  # noqa: PLC0415 - optional dependency, imported on first use

    if isinstance(tree, exp.Command | exp.Execute):
        return None
    tables: list[Name] = []
    changes: list[StateChange] = []
    cte_names = {str(c.alias_or_name).casefold() for c in tree.find_all(exp.CTE)}
    if isinstance(tree, exp.Drop):
        kind = str(tree.args.get("kind") or "table").lower()
        targets = tree.args.get("tables") or [tree.this]
        names = [n for n in (_table_name(t) for t in targets) if n is not None]
        changes = [StateChange("dropped", kind, n) for n in names]
        return ParsedStatement(
            "DROP", tuple(changes), tuple(names) if kind == "table" else (), "sqlglot"
        )
    if isinstance(tree, exp.Create):
        kind = str(tree.args.get("kind") or "table").lower()
        target = tree.this
        name = _table_name(target.this if isinstance(target, exp.Index) else target)
        if name is None:
            return None
        return ParsedStatement(
            "CREATE",
            (StateChange("created", kind, name),),
            (name,) if kind == "table" else (),
            "sqlglot",
        )
    if isinstance(tree, exp.Alter):
        name = _table_name(tree.this)
        if name is None:
            return None
        actions = tree.args.get("actions") or []
        rename = getattr(exp, "AlterRename", None) or getattr(exp, "RenameTable", None)
        for action in actions:
            if rename is not None and isinstance(action, rename):
                new = _table_name(action.this)
                if new is not None:
                    return ParsedStatement(
                        "ALTER",
                        (StateChange("renamed", "table", name, new),),
                        (name, new),
                        "sqlglot",
                    )
        dropped = any(
            isinstance(a, exp.Drop)
            and str(a.args.get("kind") or "").upper() in {"CONSTRAINT", "FOREIGN KEY"}
            for a in actions
        )
        added = any(not isinstance(a, exp.Drop) for a in actions)
        detail = "constraint dropped" if dropped and not added else None
        return ParsedStatement(
            "ALTER", (StateChange("altered", "table", name, detail=detail),), (name,), "sqlglot"
        )
    if isinstance(tree, exp.TruncateTable):
        names = [n for n in (_table_name(t) for t in tree.expressions) if n is not None]
        return ParsedStatement(
            "TRUNCATE",
            tuple(StateChange("truncated", "table", n) for n in names),
            tuple(names),
            "sqlglot",
        )
    verb = {
        exp.Insert: "INSERT",
        exp.Update: "UPDATE",
        exp.Delete: "DELETE",
        exp.Merge: "MERGE",
    }.get(type(tree), str(tree.key).upper())
    for node in tree.find_all(exp.Insert, exp.Update, exp.Delete, exp.Merge):
        name = _table_name(node.this)
        if name is None:
            continue
        action = {exp.Insert: "inserted", exp.Delete: "deleted"}.get(type(node), "updated")
        changes.append(StateChange(action, "table", name))
        tables.append(name)
    into = tree.args.get("into") if isinstance(tree, exp.Select) else None
    if into is not None and (name := _table_name(into.this)) is not None:
        changes.append(StateChange("created", "table", name))
        tables.append(name)
    for table in tree.find_all(exp.Table):
        name = _table_name(table)
        if name is not None and name not in tables and name.name.casefold() not in cte_names:
            tables.append(name)
    return ParsedStatement(verb, tuple(changes), tuple(tables), "sqlglot")


@lru_cache(maxsize=256)
def _glot(sql: str, dialect: str | None) -> ParsedStatement | None:
    # Agents repeat statements (that is what a retry is), so a small cache pays.
    sqlglot = _sqlglot()
    if sqlglot is None:
        return None
    from sqlglot.errors import ErrorLevel  # noqa: PLC0415 - optional dependency

    try:
        trees = sqlglot.parse(sql, read=dialect, error_level=ErrorLevel.RAISE)
    except Exception:  # noqa: BLE001 - any parse failure means: use the fallback tier
        return None
    verb = ""
    changes: list[StateChange] = []
    tables: list[Name] = []
    for tree in trees:
        if tree is None:
            continue
        parsed = _glot_statement(tree)
        if parsed is None:
            return None  # a statement sqlglot kept as an opaque command
        verb = verb or parsed.verb
        changes.extend(parsed.changes)
        tables.extend(t for t in parsed.tables if t not in tables)
    return ParsedStatement(verb, tuple(changes), tuple(tables), "sqlglot")


_UNSUPPORTED_BY_GLOT: Final = re.compile(
    r"\A\s{0,64}(?:RENAME|CREATE\s{1,16}(?:USER|ROLE)|GRANT|REVOKE)\b", _FLAGS
)


def parse_statement(
    sql: str, db_type: str | None = None, parser: Parser = "auto"
) -> ParsedStatement:
    """
    Work out what *sql* changes if it succeeds.  Never raises.

    Args:
        sql: One statement, or several separated by ``;``.
        db_type: The backend (``"postgresql"``, ``"mysql"``, ...), for the
            dialect: backticks, brackets, double quotes.
        parser: ``"auto"`` (exact recognisers, then sqlglot, then regexes),
            ``"sqlglot"`` (sqlglot, then regexes) or ``"regex"``.

    Returns:
        The :class:`ParsedStatement`.
    """
    text = sql[:PARSE_LIMIT] if isinstance(sql, str) else ""
    try:
        if parser == "auto" and (fast := _fast(text)) is not None:
            return fast
        # sqlglot logs a warning and keeps statements it does not know as
        # opaque commands; those few go straight to the regex tier.
        if (
            parser != "regex"
            and not _UNSUPPORTED_BY_GLOT.match(text)
            and (parsed := _glot(text, sql_dialect(db_type))) is not None
        ):
            return parsed
        return _regex(text)
    except Exception:  # noqa: BLE001 - a history must never fail because of a statement
        return ParsedStatement("", (), (), "regex")
