"""
ClickHouse backend for localdata-errors: ClickHouse's error codes, from its drivers' exceptions.

ClickHouse reports every error as ``Code: N. DB::Exception: <text>. (NAME)``.
The drivers keep the number where they can: clickhouse-connect's
``DatabaseError.code`` (and ``.name``), clickhouse-driver's
``ServerException.code``; chdb, the embedded engine, raises ``ChdbError``
(``RuntimeError`` from ``chdb.query``) with the text alone.  This mapper reads
the attribute first and the text second, looks the number up in ClickHouse's
own ``ErrorCodes`` list (``_codes.py``, generated from the engine) and the
name in the table of kinds (``_rules.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    Kind,
    MappedError,
    TextSign,
    driver_attr,
    hookimpl,
)
from localdata_errors_clickhouse._codes import ENGINE_VERSION, ERROR_NAMES
from localdata_errors_clickhouse._rules import BY_TEXT, KINDS, OVERRIDES, TOTAL_MEMORY

__all__ = [
    "CODES_BY_NAME",
    "ENGINE_VERSION",
    "ERROR_NAMES",
    "KINDS",
    "TEXT_SIGNS",
    "ClickHouseMapper",
    "localdata_errors_mappers",
]

#: Name -> code: the reverse of ``ERROR_NAMES``.
CODES_BY_NAME: Final[Mapping[str, int]] = MappingProxyType(
    {name: code for code, name in ERROR_NAMES.items()}
)

# "Code: 60. DB::Exception: ..." (chdb, the HTTP body, clickhouse-driver) or
# "Received ClickHouse exception, code: 60, ..." (clickhouse-connect); the
# first is the outermost error of a nested report.
# "[62] DB::Exception: ..." (snuba's ClickhouseError: the code in brackets).
_CODE = re.compile(r"\bcode:\s{0,4}(\d{1,6})\b|\[(\d{1,6})\] DB::Exception\b", re.IGNORECASE)
#: How ClickHouse's errors are printed where a text names ClickHouse, beside
#: the core's own `Code: N. DB::Exception` forms (see `TextSign`).
TEXT_SIGNS: Final = (
    TextSign(
        r"\[(?P<c>\d{1,6})\] DB::Exception\b",
        ("] DB::Exception",),
        frozenset(map(str, ERROR_NAMES)),
    ),
    # The server's version closing its message (`(version 22.8.6.71 (official
    # build))`, as src/Common/Exception.cpp appends it): a four-part version.
    TextSign(
        r"\(version \d{1,3}\.\d{1,3}\.\d{1,6}\.\d{1,6}(?: \([\w ]{1,40}\))?\)",
        ("(version ",),
    ),
)
# "... (UNKNOWN_TABLE)" closes the server's text; the last one is the outermost.
_NAME = re.compile(r"\(([A-Z][A-Z0-9_]{2,80})\)")

# One quoted or bare, possibly qualified, name.
_QNAME = r"(`[^`]{1,256}`(?:\.`[^`]{1,256}`){0,2}|'[^']{1,256}'|[\w.$]{1,256})"
_PATTERNS: Final[Mapping[Kind, re.Pattern[str]]] = MappingProxyType(
    {
        Kind.UNDEFINED_TABLE: re.compile(
            r"Unknown table expression identifier "
            + _QNAME
            + r"|Table "
            + _QNAME
            + r" (?:does not|doesn't) exist"
        ),
        Kind.UNDEFINED_COLUMN: re.compile(
            r"Unknown expression (?:or function )?identifier "
            + _QNAME
            + r"|Identifier "
            + _QNAME
            + r" cannot be resolved"
            + r"|Missing columns: "
            + _QNAME
            + r"|(?:Cannot find|There is no) column "
            + _QNAME
            + r"|Unknown identifier: "
            + _QNAME
        ),
        Kind.UNDEFINED_FUNCTION: re.compile(
            r"Function with name "
            + _QNAME
            + r" does not exist"
            + r"|Unknown (?:aggregate )?function "
            + _QNAME
        ),
        Kind.UNDEFINED_SCHEMA: re.compile(r"Database " + _QNAME + r" does not exist"),
        Kind.DUPLICATE_TABLE: re.compile(r"Table " + _QNAME + r" already exists"),
        Kind.DUPLICATE_SCHEMA: re.compile(r"Database " + _QNAME + r" already exists"),
        Kind.DUPLICATE_COLUMN: re.compile(r"Cannot add column " + _QNAME),
        Kind.GROUPING_ERROR: re.compile(r"Column " + _QNAME + r" is not under aggregate"),
        Kind.UNDEFINED_OBJECT: re.compile(
            r"Dictionary \("
            + _QNAME
            + r"\) not found"
            + r"|Unknown (?:table engine|format|data type family:) "
            + _QNAME
        ),
    }
)
_CONSTRAINT = re.compile(r"Constraint " + _QNAME + r" for table " + _QNAME)
_TOTAL_MEMORY = re.compile(r"Memory limit \(total\) exceeded", re.IGNORECASE)


def _int_code(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 < value < 1_000_000 else None
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= 6:
            return int(text)
        return CODES_BY_NAME.get(text) if len(text) <= 80 else None
    return None


def _native_code(error: ErrorInput) -> tuple[int | None, str | None]:
    """The error's number and name: the caller's code, the driver's attributes, the text."""
    exc = error.exception
    code = _int_code(error.code)
    if code is None and exc is not None:
        code = _int_code(driver_attr(exc, "code"))
    if code is None:
        match = _CODE.search(error.message)
        code = int(match.group(1) or match.group(2)) if match else None
    name = ERROR_NAMES.get(code) if code is not None else None
    if name is None and exc is not None:
        attr = driver_attr(exc, "name")
        if isinstance(attr, str) and attr in CODES_BY_NAME:
            name = attr
    if name is None:
        names = _NAME.findall(error.message)
        name = next((n for n in reversed(names) if n in CODES_BY_NAME), None)
    if code is None and name is not None:
        code = CODES_BY_NAME[name]
    return code, name


def _unquote(name: str) -> str:
    return name.strip("`'\"")


def _split(qualified: str) -> tuple[str | None, str]:
    """``db.t`` / ```db`.`t``` -> (``db``, ``t``): the schema, and the unqualified name."""
    if qualified.startswith("`"):
        parts = [p for p in qualified.split("`") if p and p != "."]
    else:
        parts = _unquote(qualified).split(".")
    parts = [_unquote(p) for p in parts if p]
    if not parts:
        return None, qualified
    return (parts[-2] if len(parts) > 1 else None), parts[-1]


def _names(kind: Kind, message: str) -> tuple[tuple[str, ...], str | None, str | None]:
    """(affected resources, schema, constraint) named by the message."""
    if kind is Kind.CHECK_VIOLATION:
        match = _CONSTRAINT.search(message)
        if match is None:
            return (), None, None
        schema, table = _split(match.group(2))
        return (table,), schema, _unquote(match.group(1))
    pattern = _PATTERNS.get(kind)
    match = pattern.search(message) if pattern is not None else None
    if match is None:
        return (), None, None
    found = next(g for g in match.groups() if g is not None)
    if kind is Kind.GROUPING_ERROR or kind is Kind.UNDEFINED_COLUMN:
        # "Column 'd1.t.id'", "Identifier 't.nosuch'": the column is the last part.
        return (_split(found)[1],), None, None
    if kind in (Kind.UNDEFINED_SCHEMA, Kind.DUPLICATE_SCHEMA):
        return (_unquote(found),), None, None
    schema, name = _split(found)
    return (name,), schema, None


class ClickHouseMapper(BackendMapper):
    """
    ClickHouse, through chdb, clickhouse-connect or clickhouse-driver.

    `chdb.query()` raises a plain `RuntimeError`: classify it with
    `db_type="clickhouse"` (or `"chdb"`); chdb's sessions and connections
    raise `ChdbError`, which is detected.
    """

    name = "clickhouse"
    aliases = ("ch", "chdb", "clickhouse-connect", "clickhouse_connect", "clickhouse_driver")
    driver_modules = ("chdb", "clickhouse_connect", "clickhouse_driver")
    display_name = "ClickHouse"
    text_signs = TEXT_SIGNS

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one ClickHouse error.

        Args:
            error: The driver's exception, or a message with a code (a number
                or a name such as `"UNKNOWN_TABLE"`).

        Returns:
            The kind, the code, and the names the message gives;
            `Kind.UNKNOWN` for a text with neither a code nor an error name
            (asked about a text, this mapper was named by it or by the caller:
            the keyword fallback gives the kind); `None` for such an exception.
        """
        code, name = _native_code(error)
        if code is None:
            return MappedError(Kind.UNKNOWN) if error.exception is None else None
        native = str(code)
        kind = KINDS.get(name, Kind.UNKNOWN) if name is not None else Kind.UNKNOWN
        message = error.message
        for rule_name, phrase, text_kind in BY_TEXT:
            if name == rule_name and phrase in message:
                kind = text_kind
                break
        if kind is Kind.UNKNOWN:
            return MappedError(kind, code=native)
        override = OVERRIDES.get(name) if name is not None else None
        if kind is Kind.OUT_OF_MEMORY and _TOTAL_MEMORY.search(message):
            override = TOTAL_MEMORY
        resources, schema, constraint = _names(kind, message)
        return MappedError(
            kind,
            code=native,
            affected_resources=resources,
            schema=schema,
            constraint=constraint,
            retryable=override.retryable if override else None,
            retry_safety=override.retry_safety if override else None,
            retry_after_ms=override.retry_after_ms if override else None,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every ClickHouse code this mapper gives a kind, by number.

        Returns:
            ``{"60": Kind.UNDEFINED_TABLE, ...}``.
        """
        return {str(CODES_BY_NAME[name]): kind for name, kind in KINDS.items()}


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the ClickHouse mapper.

    Returns:
        One `ClickHouseMapper`.
    """
    return [ClickHouseMapper()]
