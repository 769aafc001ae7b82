"""
Read SQL with sqlglot's tokenizer for its credentials: where each value after a key word is.

A statement (or the excerpt of one that a server echoes in its message) is
read token by token in each dialect the package knows.  After a credential
key word (a name that ends in ``password``, ``secret``, ``token``,
``identified``, ``key_id``, ``credentials``...; past ``=``, ``BY``, ``WITH
plugin BY``, ``FOR user =``) the value is a credential whatever its type: a
literal, or a bare word (``IDENTIFIED BY tiger``, ``PASSWORD hunter2``), or
several tokens glued together (``hun-ter2``).  A separator, a key word of the
grammar or a data type after the key word says it named a column instead
(``password text``).  Where the tokenizer cannot read on (an unterminated
quote, a character no name holds) nothing after is trusted.

sqlglot is an optional dependency, imported on first use.  Without it a
text is read only for its key words: everything after the first one counts
as unread.  The cost is the tokenizer's, linear in the text; a text that
names no credential key word costs one search.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import islice
from typing import Any, Final

from localdata_errors import _sqlglot
from localdata_errors._backends import BACKENDS
from localdata_errors._credential_words import KEY_PREFIXES, KEY_WORDS
from localdata_errors._lazy import LazyPattern, fold

__all__ = [
    "CREDENTIAL_ROOTS",
    "CREDENTIAL_WORD",
    "Credentials",
    "credential_end",
    "read_credentials",
]

# A credential key word: a name that ends in one (as in redaction's reading of
# echoed statements).
_CREDENTIAL: Final = LazyPattern(rf"(?i)(?:{'|'.join(KEY_WORDS)})\Z")
# Between a credential key word and its value: IDENTIFIED [WITH|VIA plugin]
# BY|AS|USING, PASSWORD =, PASSWORD(...).
_PLUGIN: Final = frozenset({"WITH", "VIA"})
_BY: Final = frozenset({"BY", "AS", "USING"})
_ASSIGN: Final = frozenset({"=", ":=", "=>", "("})
# How far SET PASSWORD FOR account = ... looks for its "=".
_ACCOUNT_TOKENS: Final = 16
# What ends a value, or shows the key word named a column in a list.
_SEPARATORS: Final = frozenset({",", ")", ";", "(", "["})


class _Reading:
    """How one dialect's tokens are read: its tokenizer, its literal and type tokens."""

    __slots__ = (
        "colon",
        "dot",
        "hint",
        "introducer",
        "literals",
        "number",
        "operands",
        "parameter",
        "tokenizer",
        "types",
        "values",
        "var",
        "words",
    )

    def __init__(self, dialect: str | None) -> None:
        module = _sqlglot.sqlglot()
        if module is None:
            raise ImportError("sqlglot is not installed (pip install 'localdata-errors[history]')")
        token_type = module.tokens.TokenType
        dialect_class = module.dialects.dialect.Dialect.get_or_raise(dialect)
        base = dialect_class.tokenizer_class
        # A command's text (MySQL's RENAME TABLE a TO b) is read as tokens like any
        # other, not kept whole as one string: its values are masked, its names kept.
        self.tokenizer: Any = type(f"Masking{base.__name__}", (base,), {"COMMANDS": set()})
        # sqlglot names every kind of quoted literal *_STRING.
        self.literals = frozenset(
            t for t in token_type if t.name == "STRING" or t.name.endswith("_STRING")
        ) | {token_type.NUMBER}
        parser = dialect_class.parser_class
        self.types = frozenset(parser.TYPE_TOKENS)
        # What the grammar takes for a word: a bare value may be any of these.
        self.words = frozenset(parser.ID_VAR_TOKENS) | {token_type.VAR, token_type.IDENTIFIER}
        self.number = token_type.NUMBER
        self.parameter = token_type.PARAMETER
        self.hint = token_type.HINT
        self.introducer = token_type.INTRODUCER
        self.var = token_type.VAR
        self.colon = token_type.COLON
        self.dot = token_type.DOT
        # What a sign glued after it belongs to (t.c, a[1:2]), not a sign of its own.
        # What a value after a credential may be made of: words and literals.
        self.values = self.literals | {token_type.VAR, token_type.IDENTIFIER}
        self.operands = self.literals | {
            token_type.VAR,
            token_type.IDENTIFIER,
            token_type.R_PAREN,
            token_type.R_BRACKET,
        }


@cache
def _reading(dialect: str | None) -> _Reading:
    return _Reading(dialect)


@cache
def _known_dialects() -> tuple[str, ...]:
    return tuple(dict.fromkeys(b.sqlglot for b in BACKENDS.values()))


def _tokens(sql: str, reading: _Reading, dialect: str | None) -> tuple[list[Any], int]:
    """The tokens of *sql*, and where the text the tokenizer could read ends."""
    tokenizer = reading.tokenizer(dialect=dialect)
    try:
        return list(tokenizer.tokenize(sql)), len(sql)
    except Exception:  # noqa: BLE001 - an unterminated quote, or sqlglot's own failure
        # The tokens read before the failure are whole; the rest is masked.
        done = list(getattr(tokenizer, "tokens", None) or ())
        return done, (done[-1].end + 1 if done else 0)


def _upper(token: Any) -> str:
    return str(token.text).upper()


def _value_start(tokens: list[Any], at: int) -> int:
    """Where the value of the credential key word before *at* starts (past its connectors)."""
    size = len(tokens)
    if at < size and _upper(tokens[at]) in _PLUGIN:
        at += 2  # IDENTIFIED WITH plugin
    if at < size and _upper(tokens[at]) in _BY:
        at += 1
    elif at < size and _upper(tokens[at]) == "FOR":
        # SET PASSWORD FOR 'u'@'h' = value: the account is a name, the value follows "=".
        for i in range(at + 1, min(at + 1 + _ACCOUNT_TOKENS, size)):
            if tokens[i].text == "=":
                return i + 1
        return at + 1
    while at < size and tokens[at].text in _ASSIGN:
        at += 1
    return at


def _credential_start(tokens: list[Any], reading: _Reading) -> int | None:
    """
    Where the first credential's value starts: after a key word, past its connectors.

    From there on the text is masked, quoted or not: a bare value's end
    cannot be told (``PASSWORD $pw$a b, c$pw$`` read as MySQL is three
    pieces of one secret), so everything after it goes, more than the secret,
    never less.  A value is a literal, or a word the grammar takes for one
    (``tiger``, ``first``), or several tokens glued together (``hun-ter2``);
    a separator (``password,``), a key word of the grammar (``token FROM``)
    or a data type (``password text``, a column declared) after the key word
    says it named a column instead, and nothing is masked.
    """
    size = len(tokens)
    for i, token in enumerate(tokens):
        # The longest key word is 17 characters: a long name is read at its end only.
        if token.token_type in reading.literals or not _CREDENTIAL.get().search(
            str(token.text)[-24:]
        ):
            continue
        at = _value_start(tokens, i + 1)
        if at >= size or tokens[at].text in _SEPARATORS:
            continue
        value = tokens[at]
        kind = value.token_type
        glued = (
            at + 1 < size
            and tokens[at + 1].start == value.end + 1
            and tokens[at + 1].text not in _SEPARATORS
        )
        if kind in reading.literals or glued or (kind in reading.words - reading.types):
            return int(value.start)
    return None


# The same key words anywhere in a text (as a name's end), case-blind.
CREDENTIAL_WORD: Final = LazyPattern(rf"(?:{'|'.join(KEY_WORDS)})(?![\w$])", re.IGNORECASE)
# The same words in the folded text (`fold`), each looked for from a letter
# few words hold, the letters before it read backwards: the engine stops at
# few places (some 5 ns per character, where the pattern above costs 100,
# and "key" is in most DDL).  Its match ends where the pattern above's does
# (tests/test_redaction_echo.py holds the two to it); it starts at that letter.
_FOLDED_WORD: Final = LazyPattern(
    lambda: r"""(?x)(?:w(?:ord(?<=password)|d(?<=passwd))
                      |c(?:ret(?<=secret)|redentials?)
                      |k(?:en(?<=token)|ey_?id|ey(?:LOOKBEHINDS))
                      |fied(?<=identified)
                      |g(?:(?<=connection_string)|(?<=connectionstring)))(?![\w$])""".replace(
        "LOOKBEHINDS",
        "|".join(f"(?<={prefix}{sep}key)" for prefix in KEY_PREFIXES for sep in ("_", "")),
    )
)
#: A substring every credential key word holds, case-folded (a test holds
#: each branch of `CREDENTIAL_WORD` to one).
CREDENTIAL_ROOTS: Final = (
    "passw",
    "secret",
    "token",
    "credential",
    "identified",
    "key",
    "connection",
)


def credential_end(text: str) -> int | None:
    """
    Where the first credential key word in *text* ends, or `None`.

    A text none of whose `CREDENTIAL_ROOTS` is in it holds no key word: known
    from a few substring searches, without the pattern.  Most statements and
    most echoed excerpts hold none.
    """
    folded = fold(text)
    for root in CREDENTIAL_ROOTS:
        if root in folded:
            found = _FOLDED_WORD.get().search(folded)
            return None if found is None else found.end()
    return None


# Before a key word, these say it names an object (DuckDB's CREATE [OR
# REPLACE] [PERSISTENT] SECRET name, DROP SECRET [IF EXISTS] name).
_OBJECT_VERBS: Final = frozenset(
    {"CREATE", "DROP", "ALTER", "REPLACE", "PERSISTENT", "TEMPORARY", "TEMP", "EXISTS"}
)


class Credentials:
    """What a reading of a text found: where masking must start, and each value's span."""

    __slots__ = ("start", "values")

    def __init__(self, start: int | None, values: tuple[tuple[int, int], ...]) -> None:
        #: From here to the end the text is masked (the first value, or what
        #: could not be read after a key word); `None`: nothing to mask.
        self.start = start
        #: Each credential value, as ``(start, end)`` in the text.
        self.values = values


_NONE: Final = Credentials(None, ())


def _value_spans(sql: str, tokens: list[Any], reading: _Reading) -> list[tuple[int, int]]:
    """Every credential value's span (each key word's, not only the first)."""
    spans: list[tuple[int, int]] = []
    size = len(tokens)
    for i, token in enumerate(tokens):
        if token.token_type in reading.literals or not _CREDENTIAL.get().search(
            str(token.text)[-24:]
        ):
            continue
        if i and _upper(tokens[i - 1]) in _OBJECT_VERBS:
            continue  # CREATE SECRET name (...): the word names the object
        at = _value_start(tokens, i + 1)
        if at >= size or tokens[at].text in _SEPARATORS:
            continue
        value = tokens[at]
        end = at
        while (
            end + 1 < size
            and tokens[end + 1].start == tokens[end].end + 1
            and tokens[end + 1].text not in _SEPARATORS
        ):
            end += 1
        kind = value.token_type
        if kind in reading.literals or end > at or kind in reading.words - reading.types:
            spans.append((int(value.start), int(tokens[end].end) + 1))
    return spans


def read_credentials(sql: str) -> Credentials:
    """
    Read *sql* (a statement, or a server's excerpt of one) for its credentials.

    Every dialect the package knows reads it, and what any of them takes for
    a credential counts.  From the first value on, where a bare value ends
    cannot be told: every word and literal after it counts as a value too
    (key words of the grammar and signs aside), and each word of what the
    tokenizer could not read.  Without sqlglot, every word after the first
    key word counts.

    Args:
        sql: The text.

    Returns:
        Where masking starts, and the values' spans.
    """
    word_end = credential_end(sql)
    if word_end is None:
        return _NONE
    if _sqlglot.sqlglot() is None:
        return Credentials(word_end, _words(sql, word_end))
    start: int | None = None
    values: set[tuple[int, int]] = set()
    with _sqlglot.quiet():
        for dialect in _known_dialects():
            reading = _reading(dialect)
            tokens, readable = _tokens(sql, reading, dialect)
            found = _value_spans(sql, tokens, reading)
            first = min((s for s, _ in found), default=None)
            rest = sql[readable:]
            if rest.strip():
                unread = len(sql) - len(rest.lstrip())
                first = unread if first is None else min(first, unread)
                values.update(_words(sql, max(unread, first)))
            if first is None:
                continue
            start = first if start is None else min(start, first)
            values.update(span for span in found if span[1] <= readable)
            values.update(
                (int(t.start), int(t.end) + 1)
                for t in tokens
                if t.start >= first
                and t.end < readable
                and t.token_type in reading.values
                and not _CREDENTIAL.get().search(str(t.text)[-24:])  # the next key word
            )
    return Credentials(start, tuple(sorted(values)))


# A word of a text the tokenizer did not read: a run between spaces and signs.
_WORD: Final = LazyPattern(r"[^\s,;()=]++")
# The most words of unread text taken for values.
_MAX_WORDS: Final = 32


def _words(sql: str, start: int) -> tuple[tuple[int, int], ...]:
    return tuple(m.span() for m in islice(_WORD.get().finditer(sql, start), _MAX_WORDS))
