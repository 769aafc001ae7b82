"""
SQL text read with sqlglot's tokenizer: its statements, and the text each one runs.

``execute_sql`` must know how many statements a text holds (one, unless the
server allows more) and where the ``?`` placeholders are; in read-only mode
each statement is also parsed (`localdata_errors.mcp._readonly`).  All
of it comes from one tokenization in the server's dialect: a semicolon, a
keyword or a ``?`` inside a string literal, a quoted identifier or a comment
counts for nothing, with the dialect's own quoting rules (PostgreSQL's
``E''`` strings and dollar quotes, MySQL's backslash escapes and ``#``
comments, SQLite's bracketed identifiers ...).

Each statement runs as its own call, with its own text: the database never
receives a second statement that was not counted.  In read-only mode that
text is rebuilt from the statement's tokens with every comment removed, so
what the database runs is exactly the sequence of tokens that was checked: a
comment the database would read differently (a MySQL ``/*! ... */``, a nested
comment) never reaches it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from localdata_errors import _sqlglot

__all__ = [
    "Piece",
    "Statement",
    "UnreadableSQLError",
    "pieces",
    "split",
    "to_named_placeholders",
    "tokenize",
]

# Whitespace every SQL engine agrees on; any other gap between two tokens
# (a comment, an exotic space) becomes one space in read-only mode.
_PLAIN_SPACE: Final = frozenset(" \t\r\n")
# A command's text nests at most this deep (EXPLAIN of EXPLAIN of ...).
_MAX_DEPTH: Final = 8


class UnreadableSQLError(ValueError):
    """The text cannot be tokenized in the dialect (an unterminated literal, ...)."""


class Piece(NamedTuple):
    """
    One token, where it stands in the text it was read from.

    Attributes:
        start: Offset of its first character.
        end: Offset just past its last character.
        type: sqlglot's token type name (``SELECT``, ``STRING``, ``SEMICOLON`` ...).
        text: Its text as sqlglot reports it (a string's content, unquoted).
        comments: The comments sqlglot attached to it, without their delimiters.
    """

    start: int
    end: int
    type: str
    text: str
    comments: tuple[str, ...]


@dataclass(frozen=True)
class Statement:
    """
    One statement of an ``execute_sql`` text.

    Attributes:
        text: What the database runs: the statement's own text, without its
            semicolon (and, in read-only mode, without comments).
        keyword: Its first word, upper case (``SELECT``, ``INSERT`` ...).
        placeholders: Offsets in *text* of each ``?`` placeholder.
        comments: The comments the statement carried, without their
            delimiters (read-only mode checks them for MySQL's executable ones).
        tokens: sqlglot's tokens of *text*, their offsets in *text*, so that
            the statement is parsed without being tokenized again; empty
            when they are not at hand (a command's text read in pieces).
    """

    text: str
    keyword: str
    placeholders: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()
    tokens: tuple[Any, ...] = field(default=(), repr=False, compare=False)


def _dialect(dialect: str | None) -> Any:
    module = _sqlglot.sqlglot()
    if module is None:
        raise ImportError("sqlglot is not installed (pip install 'localdata-errors[mcp]')")
    return module.Dialect.get_or_raise(dialect)


def _tokens(text: str, dialect: str | None) -> list[Any]:
    try:
        with _sqlglot.quiet():
            return list(_dialect(dialect).tokenize(text))
    except ImportError:
        raise
    except Exception as exc:  # noqa: BLE001 - sqlglot's TokenError and any tokenizer failure
        raise UnreadableSQLError(str(exc).splitlines()[0][:200]) from None


def tokenize(text: str, dialect: str | None) -> list[Any]:
    """
    sqlglot's tokens of *text* in *dialect*.

    Raises:
        UnreadableSQLError: The text cannot be tokenized.
    """
    return _tokens(text, dialect)


def pieces(
    text: str, dialect: str | None, depth: int = 0, *, tokens: Sequence[Any] | None = None
) -> Iterator[Piece]:
    """
    Tokenize *text*, with true offsets for every token.

    sqlglot reads what follows a command keyword (``EXPLAIN``, ``SHOW`` in
    some dialects) as one string token without a position; that string is
    located in *text* and tokenized in turn, so every piece has its offsets.

    Args:
        text: The SQL text.
        dialect: A sqlglot dialect name.
        depth: Nesting of command texts (internal).
        tokens: *text*'s tokens (`tokenize`), when they were read already.

    Yields:
        The pieces, in order.

    Raises:
        UnreadableSQLError: The text cannot be tokenized.
    """
    if depth > _MAX_DEPTH:
        raise UnreadableSQLError("commands nested too deeply")
    if tokens is None:
        tokens = _tokens(text, dialect)
    tokenizer = _dialect(dialect).tokenizer_class
    commands = {t.name for t in tokenizer.COMMANDS}
    prefixes = {t.name for t in tokenizer.COMMAND_PREFIX_TOKENS}
    for index, token in enumerate(tokens):
        kind = token.token_type.name
        previous = tokens[index - 1] if index else None
        if (
            previous is not None
            and kind == "STRING"
            and previous.token_type.name in commands
            and (index == 1 or tokens[index - 2].token_type.name in prefixes)
        ):
            # The rest of a command, stripped: it starts at the first
            # non-blank character after the command keyword.
            rest = text[previous.end + 1 :]
            offset = previous.end + 1 + len(rest) - len(rest.lstrip())
            if not text.startswith(token.text, offset):
                raise UnreadableSQLError("a command's text could not be located")
            for piece in pieces(token.text, dialect, depth + 1):
                yield piece._replace(start=piece.start + offset, end=piece.end + offset)
            continue
        yield Piece(token.start, token.end + 1, kind, token.text, tuple(token.comments))


def _rebuild(text: str, parts: list[Piece]) -> tuple[str, tuple[int, ...]]:
    out: list[str] = []
    length = 0
    placeholders: list[int] = []
    previous_end: int | None = None
    for piece in parts:
        if previous_end is not None:
            gap = text[previous_end : piece.start]
            gap = gap if set(gap) <= _PLAIN_SPACE else " "
            out.append(gap)
            length += len(gap)
        if piece.type == "PLACEHOLDER" and piece.text == "?":
            placeholders.append(length)
        source = text[piece.start : piece.end]
        out.append(source)
        length += len(source)
        previous_end = piece.end
    return "".join(out), tuple(placeholders)


def _shifted(tokens: Sequence[Any], offset: int) -> tuple[Any, ...]:
    """The tokens of a statement that starts at *offset*, their offsets made its own."""
    if not offset or not tokens:
        return tuple(tokens)
    token = type(tokens[0])
    return tuple(
        token(t.token_type, t.text, t.line, t.col, t.start - offset, t.end - offset, t.comments)
        for t in tokens
    )


def _statement(
    text: str,
    parts: list[Piece],
    dialect: str | None,
    strip: bool,
    tokens: Sequence[Any] | None,
) -> Statement:
    first = parts[0].text
    keyword = first.upper() if first.replace("_", "").isalnum() else ""
    comments = tuple(c for p in parts for c in p.comments)
    start = parts[0].start
    sliced = text[start : parts[-1].end]
    if not strip:
        return Statement(
            text=sliced,
            keyword=keyword,
            placeholders=tuple(
                p.start - start for p in parts if p.type == "PLACEHOLDER" and p.text == "?"
            ),
            comments=comments,
            tokens=_shifted(tokens, start) if tokens is not None else (),
        )
    clean, placeholders = _rebuild(text, parts)
    if clean == sliced and tokens is not None:
        # Nothing was removed: the text reads as the very tokens just read.
        own = _shifted(tokens, start)
    else:
        # The rebuilt text must read as the same tokens: if removing a comment
        # changed how anything tokenizes, the text is not run at all.
        own = tuple(_tokens(clean, dialect))
        again = [(p.type, p.text) for p in pieces(clean, dialect, tokens=own)]
        if again != [(p.type, p.text) for p in parts]:
            raise UnreadableSQLError(
                "the statement reads differently once its comments are removed"
            )
    return Statement(
        text=clean, keyword=keyword, placeholders=placeholders, comments=comments, tokens=own
    )


def _tokens_within(tokens: Sequence[Any], starts: list[int], parts: list[Piece]) -> Any:
    """The tokens a statement's pieces were read from; ``None`` when a command was read in parts."""
    first = bisect_left(starts, parts[0].start)
    last = bisect_left(starts, parts[-1].start)
    found = tokens[first : last + 1]
    return found if len(found) == len(parts) else None


def split(sql: str, dialect: str | None, *, strip_comments: bool = False) -> list[Statement]:
    """
    Split a SQL text into its statements.

    Args:
        sql: The text.
        dialect: A sqlglot dialect name (``localdata_errors._backends.sqlglot_dialect``).
        strip_comments: Rebuild each statement from its tokens without
            comments (read-only mode); otherwise each statement is the slice
            of *sql* from its first token to its last.

    Returns:
        The non-empty statements, in order, each with its tokens.

    Raises:
        UnreadableSQLError: The text cannot be tokenized.
    """
    tokens = _tokens(sql, dialect)
    starts = [t.start for t in tokens]
    statements: list[Statement] = []
    current: list[Piece] = []
    for piece in [*pieces(sql, dialect, tokens=tokens), None]:
        if piece is None or piece.type == "SEMICOLON":
            if current:
                own = _tokens_within(tokens, starts, current)
                statements.append(_statement(sql, current, dialect, strip_comments, own))
            current = []
        else:
            current.append(piece)
    return statements


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
