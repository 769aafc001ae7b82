"""
Mask the values in a SQL statement before anything reads or keeps it.

The execution history keeps the statements an agent sent, and parses them to
learn what they changed.  Neither needs the values: ``DELETE FROM customers
WHERE email = 'ann@example.com'`` changed ``customers`` whatever the address
was.  So the values go first, and only the masked text is parsed, cached and
kept.

sqlglot's tokenizer reads the statement, in its dialect; the masking only
decides what to keep of each token:

- every literal token becomes ``?``: strings of any quoting and prefix
  (``N''``, ``E''``, ``X''``, ``B''``, ``U&''``, Oracle's ``q'[...]'``),
  dollar-quoted strings, numbers; so does a word glued to a literal
  (``0x1F`` where the dialect has no hex numbers, ``123abc``) and an
  unquoted word that starts with a digit;
- comments (and optimizer hints) become one space;
- names stay, quoted or not (``"Order Lines"``, `` `sales` ``, ``[dbo]``):
  they name what a statement changes; so do key words, operators and
  parameters (``?``, ``$1``, ``:name``, ``%s``), and the arguments of SQL
  Server's ``sp_rename 'dbo.old', 'new'``, which are names written as strings;
- after a credential key word (a name ending in ``password``, ``secret``,
  ``token``, ``identified``, ``key_id``...; past ``=``, ``BY``, ``WITH
  plugin BY``, ``FOR user =``), the value is masked whatever its type, a
  literal or a bare word (``IDENTIFIED BY tiger``, ``PASSWORD hunter2``),
  and all that follows it: where a bare value ends cannot be told.  A
  separator, a key word of the grammar or a data type after the key word is
  kept: there the key word names a column (``password text``);
- whatever the tokenizer cannot read (an unterminated quote or comment, a
  character no SQL name holds, such as a typographic quote) is masked from
  there to the end of the text: a cut text, or a broken statement, would
  otherwise leak there.

A text whose dialect is unknown is read by each dialect the package knows
(PostgreSQL, MySQL/MariaDB, SQLite, DuckDB, Oracle, SQL Server), and a
character is kept only where every one of them keeps it: a value any of them
would write (``$$...$$``, ``"text"``, ``# comment``, ``'it\\'s'``) is masked,
at the price of a name only some of them quote that way (``"Order Lines"``).
Each value becomes ``?``, so the masked text still parses, and running it as
it stands fails for want of a bound value instead of doing something the
agent never asked for.

The cost is the tokenizer's: linear in the text, which the caller cuts first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

from localdata_errors._redact import MASK, redact
from localdata_errors._sqlread import (
    _credential_start,
    _known_dialects,
    _Reading,
    _reading,
    _tokens,
)

__all__ = ["LITERAL", "compact_values", "mask_statement", "mask_values"]

#: What a value becomes.
LITERAL: Final = "?"

# As redact: shorter values would destroy the text without protecting anything.
_SHORTEST_SECRET: Final = 3
# The redaction patterns reach at most this far past where a secret starts
# (their longest bounded run, 512, plus the longest key they look for).
_REDACT_REACH: Final = 1024

# A name as SQL writes one unquoted (letters, digits, _, $, #, @).  A word the
# tokenizer made of anything else is a character sequence it could not read.
_NAME: Final = re.compile(r"[\w$#@]+")
# sp_rename's arguments are object names written as strings (and its third
# the sort of object): kept, as names are, when they read like names.
_SP_RENAME: Final = "sp_rename"
_SP_RENAME_ARGUMENT: Final = re.compile(r"[^\n]{1,256}")
# How a character of the text is rendered: kept, dropped (a comment: one
# space for the run), or masked (a value: one "?" for the run).
_KEEP: Final = 0
_DROP: Final = 1
_VALUE: Final = 2
_RUNS: Final = re.compile(rb"\x00+|\x01+|\x02+")


def _renamed_names(tokens: list[Any], reading: _Reading) -> set[int]:
    """The string tokens that are ``sp_rename``'s arguments: names, not values."""
    names: set[int] = set()
    for i, token in enumerate(tokens):
        if str(token.text).casefold() != _SP_RENAME or token.token_type in reading.literals:
            continue
        at = i + 1
        for _ in range(3):  # 'old', 'new'[, 'OBJECT']
            if at >= len(tokens) or tokens[at].token_type not in reading.literals:
                break
            if tokens[at].token_type == reading.number:
                break
            if not _SP_RENAME_ARGUMENT.fullmatch(str(tokens[at].text)):
                break
            names.add(at)
            if at + 1 >= len(tokens) or tokens[at + 1].text != ",":
                break
            at += 2
    return names


def _spans(sql: str, dialect: str | None) -> list[tuple[int, int, int]]:
    """What one dialect's reading drops and masks: ``(start, end, _DROP | _VALUE)`` spans."""
    reading = _reading(dialect)
    tokens, readable = _tokens(sql, reading, dialect)
    credential = _credential_start(tokens, reading)
    if credential is not None:
        readable = min(readable, credential)  # the rest is masked
    names = _renamed_names(tokens, reading)
    spans: list[tuple[int, int, int]] = []
    at = 0  # where the previous token ended
    previous: Any = None
    masked = False  # whether the previous token was masked
    attached = False  # whether the previous token is glued to an operand before it
    for i, token in enumerate(tokens):
        start, end = token.start, token.end + 1
        if start < at or end > readable:
            readable = at  # positions the masking cannot trust: masked from here
            break
        text = sql[start:end]
        kind = token.token_type
        if kind == reading.var and not _NAME.fullmatch(text):
            readable = start  # a character no name holds: the tokenizer could not read it
            break
        if start > at and not sql[at:start].isspace():
            spans.append((at, start, _DROP))  # a comment, whatever it held
        glued = start == at and previous is not None
        sign = previous.token_type if glued and not attached else None
        if kind == reading.hint:
            spans.append((start, end, _DROP))
            masked = False
        elif kind == reading.number and sign in (reading.parameter, reading.colon):
            masked = False  # $1, :1: the number names a bind parameter
        else:
            masked = (kind in reading.literals and i not in names) or (
                kind == reading.var and (text[0].isdigit() or (glued and masked))
            )
            if masked:
                begin = start
                if previous is not None and (
                    previous.token_type == reading.introducer  # _utf8mb4 'x'
                    or (kind == reading.number and sign == reading.dot)  # .5
                    or (kind in reading.literals and sign == reading.var)  # a prefix: N'x'
                ):
                    begin = previous.start
                spans.append((begin, end, _VALUE))
        attached = glued and previous.token_type in reading.operands
        previous, at = token, end
    if readable > at and not sql[at:readable].isspace():
        spans.append((at, readable, _DROP))
    rest = sql[readable:]
    if rest.strip():
        spans.append((len(sql) - len(rest.lstrip()), len(sql), _VALUE))
    return spans


def mask_values(sql: str, dialect: str | None = None) -> str:
    """
    Replace every literal value in *sql* with ``?`` and drop its comments.

    Args:
        sql: The statement (or several).
        dialect: The sqlglot dialect (``postgres``, ``mysql``, ``tsql``...),
            for how strings, names and comments are written; ``None`` when
            unknown: then every dialect the package knows reads it, and what
            any of them masks is masked.

    Returns:
        The masked text: each run of masked characters is one ``?``, each
        comment one space.

    Raises:
        ImportError: sqlglot is not installed.
    """
    readings = (dialect,) if dialect is not None else _known_dialects()
    spans = [span for d in readings for span in _spans(sql, d)]
    marks = bytearray(len(sql))
    for how in (_DROP, _VALUE):  # a value masked by one reading stays masked
        for start, end, mark in spans:
            if mark == how:
                marks[start:end] = bytes((how,)) * (end - start)
    out = []
    for run in _RUNS.finditer(marks):
        start, end = run.span()
        how = marks[start]
        out.append(sql[start:end] if how == _KEEP else LITERAL if how == _VALUE else " ")
    return "".join(out)


def mask_statement(
    sql: str, *, limit: int, dialect: str | None = None, secrets: Iterable[object] = ()
) -> str:
    """
    Cut *sql* to *limit* characters and mask its values and credentials.

    The text is cut before it is masked, so a long statement costs no more
    than a short one; masking runs over a margin past the cut (the longest
    secret, and the reach of the redaction patterns), and the result is cut
    again, so a secret that straddles the cut is masked all the same.

    Args:
        sql: The statement as sent.
        limit: The most characters kept.
        dialect: The sqlglot dialect, or ``None``.
        secrets: Bound parameter values, masked wherever they still appear.

    Returns:
        At most *limit* characters, with no value, bound parameter or
        credential left in them.

    Raises:
        ImportError: sqlglot is not installed.
    """
    texts = [
        s if isinstance(s, str) else str(s)
        for s in secrets
        if isinstance(s, str | int | float) and not isinstance(s, bool)
    ]
    margin = _REDACT_REACH + min(max((len(t) for t in texts), default=0), limit)
    window = sql[: limit + margin]
    clean = MASK not in window
    # Bound values go first, whole: masking the numbers in one written inline
    # (``code-4471``) would leave the rest of it unrecognisable.
    for text in texts:
        if len(text) >= _SHORTEST_SECRET and text in window:
            window = window.replace(text, MASK)
    # The literals and credentials next, then the shapes redaction knows over
    # what is left (a URL's password, user/password@service).
    try:
        masked = redact(mask_values(window, dialect))
    except ImportError:
        raise
    except Exception:  # noqa: BLE001 - masking fails closed: nothing of the text is kept
        masked = LITERAL
    if clean and MASK in masked:
        # Whatever was masked reads as a value does (``password = ?``), so the
        # statement still parses and tells what it changed.
        masked = masked.replace(MASK, LITERAL)
    return masked[:limit]


# Runs of masked values: "?, ?, ?" and "(?), (?)".
_VALUE_RUN: Final = re.compile(r"\?(?:\s*,\s*\?)+")
_ROW_RUN: Final = re.compile(r"\(\s*\?\s*\)(?:\s*,\s*\(\s*\?\s*\))+")


def compact_values(masked: str) -> str:
    """
    Fold each run of masked values into one: ``VALUES (?, ?), (?, ?)`` -> ``VALUES (?)``.

    A bulk ``INSERT`` or a long ``IN (...)`` list says no more about what a
    statement changes than one value does, and parsing thousands of them
    costs milliseconds; the folded text parses in microseconds.

    Args:
        masked: Text from `mask_statement`.

    Returns:
        The text with every run of ``?`` (and of ``(?)``) folded into one.
    """
    if "?" not in masked:
        return masked
    return _ROW_RUN.sub("(?)", _VALUE_RUN.sub(LITERAL, masked))
