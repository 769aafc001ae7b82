"""
Mask the values in a SQL statement before anything reads or keeps it.

The execution history keeps the statements an agent sent, and parses them to
learn what they changed.  Neither needs the values: ``DELETE FROM customers
WHERE email = 'ann@example.com'`` changed ``customers`` whatever the address
was.  So the values go first, and only the masked text is parsed, cached and
kept: string literals (any prefix: ``N''``, ``E''``, ``X''``, ``_utf8mb4''``),
dollar-quoted strings, numbers and comments.  Each becomes ``?``, so the
masked text still parses, and running it as it stands fails for want of a
bound value instead of doing something the agent never asked for.

Quoted identifiers stay (``"Order Lines"``, `` `sales` ``, ``[dbo]``): they
name what a statement changes.  Which quotes delimit identifiers follows the
dialect: MySQL's double quotes delimit strings, SQL Server's and SQLite's
brackets delimit names.  Whatever is left open at the end of the text (a
string, a comment, a quoted name) is masked to the end: an unterminated quote
is where a cut text, or a broken statement, would otherwise leak.

One precompiled scan per dialect family; the cost is linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Final

from localdata_errors.redact import MASK, redact

__all__ = ["LITERAL", "compact_values", "mask_statement", "mask_values"]

#: What a value becomes.
LITERAL: Final = "?"

# As redact: shorter values would destroy the text without protecting anything.
_SHORTEST_SECRET: Final = 3
# The redaction patterns reach at most this far past where a secret starts
# (their longest bounded run, 512, plus the longest key they look for).
_REDACT_REACH: Final = 1024

# A credential written as a bare word: Oracle's IDENTIFIED BY tiger, MySQL's
# PASSWORD = secret.  Quoted ones are literals and masked already; the atomic
# group keeps "PASSWORD = ?" from being read as the word "=".
_SQL_SECRET: Final = re.compile(
    r"((?>(?:PASSWORD|IDENTIFIED\s{1,16}BY)\s{0,16}(?:=\s{0,16})?))(?![?*])\S{1,512}",
    re.IGNORECASE,
)

# Every alternative starts with the character it needs, and any look back
# comes after that character: the scan then skips, at C speed, every position
# where nothing can start.

# sp_rename's arguments are object names written as strings; they say what a
# statement renamed, and its third argument says what sort of object it was.
_SP_RENAME: Final = (
    r"(?P<keep>[Ss](?<![\w$#][Ss])(?i:p_rename)\s{1,16}[Nn]?'[^'\n]{1,256}'\s{0,16},\s{0,16}"
    r"[Nn]?'[^'\n]{1,256}'(?:\s{0,16},\s{0,16}[Nn]?'[A-Za-z_]{1,32}')?)"
)
# A backslash escapes in MySQL and in PostgreSQL's E'' strings; reading it as
# an escape everywhere can only make a string longer, never leave part unmasked.
_STRING_BODY: Final = r"'(?:[^'\\]++|\\.?|'')*+(?:'|\Z)"
_STRING: Final = rf"(?P<string>{_STRING_BODY})"
# What is left of N'', E'', X'', B'', R'', U&'', _utf8mb4'' once the string is masked.
_PREFIX: Final = re.compile(r"(?<![\w$#])(?:[NnEeXxBbRr]|[Uu]&|_[A-Za-z0-9]{1,32})\?")
# Oracle's alternative quoting: q'[...]', q'{...}', q'<...>', q'(...)', q'!...!'.
_Q_STRING: Final = (
    r"(?P<qstring>(?:[Qq](?<![\w$#][Qq])|[Nn](?<![\w$#][Nn])[Qq])'(?:\[.*?(?:\]'|\Z)|\{.*?(?:\}'|\Z)|<.*?(?:>'|\Z)"
    r"|\(.*?(?:\)'|\Z)|(?P<qdelim>[^\s\[{<(]).*?(?:(?P=qdelim)'|\Z)))"
)
_DOLLAR: Final = r"(?P<dollar>\$(?<![\w$]\$)(?P<tag>[A-Za-z_]\w{0,62}|)\$.*?(?:\$(?P=tag)\$|\Z))"
_COMMENT: Final = r"(?P<comment>--[^\n]*+|/\*.*?(?:\*/|\Z){mysql})"
_DOUBLE_NAME: Final = r'(?P<dquoted>"(?:[^"]++|"")*+(?:"|(?P<dquoted_open>\Z)))'
_DOUBLE_STRING: Final = r'(?P<dstring>"(?:[^"\\]++|\\.?|"")*+(?:"|\Z))'
_BACKTICK: Final = r"(?P<backtick>`(?:[^`]++|``)*+(?:`|(?P<backtick_open>\Z)))"
_BRACKET: Final = r"(?P<bracket>\[(?:[^\]]++|\]\])*+(?:\]|(?P<bracket_open>\Z)))"
# Positional and numbered parameters ($1, :1) are not values.
_PARAMETER: Final = r"(?P<param>[$:]\d+)"
# A number that is not part of a name (t1, a.5): 42, 4.2, 4.2e1, .5, 0x1F.
_NUMBER: Final = (
    r"(?P<number>(?:\d(?<![\w$#@.]\d)(?:[xX][0-9A-Fa-f]+|\d*+(?:\.\d*+)?(?:[eE][+-]?\d+)?)"
    r"|\.(?<![\w$#@.]\.)\d++(?:[eE][+-]?\d+)?)(?![\w$#]))"
)
# Runs of masked values: "?, ?, ?" and "(?), (?)".
_VALUE_RUN: Final = re.compile(r"\?(?:\s*,\s*\?)+")
_ROW_RUN: Final = re.compile(r"\(\s*\?\s*\)(?:\s*,\s*\(\s*\?\s*\))+")
# What the scan may find besides values: quoted names, comments, parameters.
_NOT_ONLY_VALUES: Final = re.compile(r"[\"`\[#$:]|--|/\*")
_VALUES: Final = frozenset({"string", "prefixed", "qstring", "dstring", "dollar", "number"})

# How each dialect family writes strings, names and comments.
_FAMILY: Final = {
    "mysql": "mysql",
    "doris": "mysql",
    "starrocks": "mysql",
    "singlestore": "mysql",
    "tsql": "tsql",
    "sqlite": "sqlite",
    "postgres": "postgres",
    "duckdb": "postgres",
    "redshift": "postgres",
}


@cache
def _scanner(family: str, q_quotes: bool, sp_rename: bool) -> re.Pattern[str]:
    # A few patterns in all, compiled on first use.  The rare alternatives
    # that start with a letter are left out unless the text needs them, and
    # the look-ahead lets the scan skip every position where nothing starts.
    parts = [_COMMENT.replace("{mysql}", r"|\#[^\n]*+" if family == "mysql" else "")]
    first = r"""\-/'"`$:0-9."""
    if sp_rename:
        parts.append(_SP_RENAME)
        first += "Ss"
    if q_quotes:
        parts.append(_Q_STRING)
        first += "QqNn"
    parts += [_STRING, _DOUBLE_STRING if family == "mysql" else _DOUBLE_NAME, _BACKTICK]
    if family == "mysql":
        first += "#"
    if family in {"tsql", "sqlite"}:
        parts.append(_BRACKET)
        first += r"\["
    if family in {"postgres", "generic"}:
        parts.append(_DOLLAR)
    parts += [_PARAMETER, _NUMBER]
    return re.compile(f"(?=[{first}])(?:{'|'.join(parts)})", re.DOTALL)


def _replace(match: re.Match[str]) -> str:
    kind = match.lastgroup
    if kind in _VALUES:
        return LITERAL
    if kind == "comment":
        return " "
    if kind in {"dquoted", "backtick", "bracket"} and match.group(f"{kind}_open") is not None:
        return LITERAL  # a name left open to the end: what follows it is unknown
    return match.group(0)


def mask_values(sql: str, dialect: str | None = None) -> str:
    """
    Replace every literal value in *sql* with ``?`` and drop its comments.

    Args:
        sql: The statement (or several).
        dialect: The sqlglot dialect (``postgres``, ``mysql``, ``tsql``...),
            for how strings and names are quoted; ``None`` when unknown.

    Returns:
        The masked text.
    """
    sp_rename = "_rename" in sql.lower()
    scanner = _scanner(_FAMILY.get(dialect or "", "generic"), "q'" in sql or "Q'" in sql, sp_rename)
    if sp_rename or _NOT_ONLY_VALUES.search(sql):
        masked = scanner.sub(_replace, sql)
    else:
        # Every match is a value (a bulk INSERT, most statements): no callback.
        masked = scanner.sub(LITERAL, sql)
    # N'...', E'...', _utf8mb4'...': the prefix of a masked string goes with it.
    return _PREFIX.sub(LITERAL, masked) if "'" in sql else masked


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
    # Literals next, then the credential patterns over what is left: a pattern
    # that ran over a quoted literal could split it and leave its tail bare.
    masked = redact(mask_values(window, dialect))
    if "ass" in masked or "ASS" in masked or "dentified" in masked.lower():
        masked = _SQL_SECRET.sub(r"\1" + MASK, masked)
    if clean and MASK in masked:
        # Whatever was masked reads as a value does (``password = ?``), so the
        # statement still parses and tells what it changed.
        masked = masked.replace(MASK, LITERAL)
    return masked[:limit]


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
