"""
SQL text, read without running it: statements, their first keyword, placeholders.

The ``execute_sql`` tool must know how many statements a text holds (one
unless the server allows more), whether a statement writes (refused in
read-only mode) and where the ``?`` placeholders are.  A semicolon or a
``DELETE`` inside a string literal, a quoted identifier or a comment counts
for nothing, so the text is scanned with a small tokenizer that knows SQL's
quoting rules (including PostgreSQL's dollar quotes and MySQL's backslash
escapes).  When :mod:`sqlglot` is installed, its tokenizer counts the
statements too, and the larger count wins: a disagreement refuses, never
lets through.  The scan is linear in the text's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

__all__ = ["READ_KEYWORDS", "WRITE_KEYWORDS", "Statement", "count_statements", "split_sql",
           "to_named_placeholders"]

#: Statements a read-only server runs: they read, or describe.
READ_KEYWORDS: Final = frozenset(
    {"SELECT", "WITH", "VALUES", "TABLE", "EXPLAIN", "SHOW", "DESCRIBE", "DESC", "PRAGMA"}
)
#: Words that make a statement a write wherever they stand as keywords
#: (``WITH d AS (DELETE ...)``, ``EXPLAIN ANALYZE INSERT``, ``SELECT ... INTO``).
WRITE_KEYWORDS: Final = frozenset(
    {"INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "REPLACE", "CREATE", "DROP", "ALTER",
     "TRUNCATE", "GRANT", "REVOKE", "COPY", "CALL", "DO", "LOCK", "INTO", "ATTACH", "DETACH",
     "VACUUM", "REINDEX", "CLUSTER", "COMMENT", "RENAME", "SET", "LOAD", "INSTALL",
     "HANDLER", "IMPORT", "EXPORT", "CHECKPOINT", "REFRESH", "NOTIFY", "LISTEN",
     "PREPARE", "EXECUTE", "DEALLOCATE", "RESET", "DISCARD", "SECURITY"}
)
# PRAGMA reads (table_info) or writes (journal_mode = ...): a PRAGMA with "="
# or an argument list that sets something is a write.
_PRAGMA_SET = re.compile(r"=")
_DOLLAR_TAG = re.compile(r"\$([A-Za-z_][A-Za-z_0-9]{0,62})?\$")
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9$]{0,127}")


@dataclass
class Statement:
    """
    One statement of a SQL text.

    Args:
        text: The statement, without its terminating semicolon.
        keywords: Its unquoted words, upper-cased, outside literals and comments.
        placeholders: Offsets (in *text*) of each ``?`` outside literals and comments.
    """

    text: str
    keywords: list[str] = field(default_factory=list)
    placeholders: list[int] = field(default_factory=list)

    @property
    def first_keyword(self) -> str:
        """The statement's first word (``SELECT``, ``WITH``, ...), ``""`` if none."""
        return self.keywords[0] if self.keywords else ""

    def writes(self) -> bool:
        """Whether the statement may change data or schema (conservative: unknown is a write)."""
        first = self.first_keyword
        if first not in READ_KEYWORDS:
            return True
        if first == "PRAGMA":
            return bool(_PRAGMA_SET.search(self.text))
        return any(word in WRITE_KEYWORDS for word in self.keywords[1:])


def _skip_quoted(text: str, start: int, quote: str, backslash: bool) -> int:
    """Return the offset just past the literal opening at *start* (unterminated: the end)."""
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if backslash and ch == "\\":
            i += 2
            continue
        if ch == quote:
            if i + 1 < n and text[i + 1] == quote:  # a doubled quote is an escaped quote
                i += 2
                continue
            return i + 1
        i += 1
    return n


def split_sql(sql: str, *, backslash_escapes: bool = False) -> list[Statement]:
    """
    Split a SQL text into its statements.

    Args:
        sql: The text.
        backslash_escapes: Whether ``\\`` escapes a quote inside a literal (MySQL, MariaDB).

    Returns:
        The non-empty statements, in order.
    """
    statements: list[Statement] = []
    current = Statement(text="")
    begin = 0
    i = 0
    n = len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"`":
            i = _skip_quoted(sql, i, ch, backslash_escapes and ch != "`")
        elif (ch == "-" and sql.startswith("--", i)) or (ch == "#" and backslash_escapes):
            end = sql.find("\n", i)
            i = n if end < 0 else end + 1
        elif ch == "/" and sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif ch == "$" and (match := _DOLLAR_TAG.match(sql, i)) is not None and (
            i == 0 or not (sql[i - 1].isalnum() or sql[i - 1] == "_")
        ):
            tag = match.group(0)
            end = sql.find(tag, match.end())
            i = n if end < 0 else end + len(tag)
        elif ch == ";":
            current.text = sql[begin:i]
            if current.keywords or current.text.strip():
                statements.append(current)
            current = Statement(text="")
            begin = i + 1
            i += 1
        elif ch == "?":
            current.placeholders.append(i - begin)
            i += 1
        elif ch.isalpha() or ch == "_":
            word = _WORD.match(sql, i)
            end = word.end() if word else i + 1
            current.keywords.append(sql[i:end].upper())
            i = end
        else:
            i += 1
    current.text = sql[begin:]
    if current.keywords or current.placeholders:
        statements.append(current)
    return statements


_SQLGLOT_DIALECTS: Final = {"postgresql": "postgres", "mysql": "mysql", "mariadb": "mysql",
                            "sqlite": "sqlite", "duckdb": "duckdb", "mssql": "tsql",
                            "oracle": "oracle"}


def _sqlglot_count(sql: str, dialect: str) -> int | None:
    try:
        import sqlglot  # noqa: PLC0415 - optional: used when installed
        from sqlglot.tokenizer_core import TokenType  # noqa: PLC0415 - same optional dependency
    except ImportError:
        return None
    try:
        tokens = sqlglot.tokenize(sql, read=_SQLGLOT_DIALECTS.get(dialect))
    except Exception:  # noqa: BLE001 - sqlglot rejects some valid vendor syntax; our scan decides
        return None
    count = 0
    pending = False
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            count += pending
            pending = False
        else:
            pending = True
    return count + pending


def count_statements(sql: str, dialect: str, statements: list[Statement]) -> int:
    """
    Count the statements of *sql*: the larger of sqlglot's count and ours.

    Args:
        sql: The text.
        dialect: The SQLAlchemy dialect name.
        statements: :func:`split_sql`'s answer for *sql*.

    Returns:
        The number of statements.
    """
    ours = len(statements)
    theirs = _sqlglot_count(sql, dialect)
    return ours if theirs is None else max(ours, theirs)


def to_named_placeholders(statement: Statement, prefix: str = "p") -> tuple[str, list[str]]:
    """
    Rewrite each ``?`` of a statement as a named placeholder ``:p0``, ``:p1``, ...

    Args:
        statement: The statement.
        prefix: The names' prefix.

    Returns:
        The rewritten text and the names, in order.
    """
    names: list[str] = []
    parts: list[str] = []
    last = 0
    for index, offset in enumerate(statement.placeholders):
        name = f"{prefix}{index}"
        names.append(name)
        parts.append(statement.text[last:offset])
        parts.append(f":{name}")
        last = offset + 1
    parts.append(statement.text[last:])
    return "".join(parts), names
