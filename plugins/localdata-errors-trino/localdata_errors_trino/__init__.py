"""
Trino backend for localdata-errors: Trino's error names, read from the trino client's exceptions.

A failed Trino query answers with an error object (``errorName``,
``errorCode``, ``errorType``, ``message``); the trino client raises it as
``TrinoUserError`` (``USER_ERROR``), ``TrinoExternalError`` (``EXTERNAL``)
or ``TrinoQueryError`` (``INTERNAL_ERROR``, ``INSUFFICIENT_RESOURCES``),
whose properties read that object.  This mapper reads ``error_name`` first
and the text second, and looks the name up in the table of kinds
(``_rules.py``) built on Trino's ``StandardErrorCode`` (``_codes.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from localdata_errors import BackendMapper, ErrorInput, Kind, MappedError, driver_attr, hookimpl
from localdata_errors_trino._codes import ERROR_CODES
from localdata_errors_trino._rules import KINDS, NOT_NULL, RETRYABLE

__all__ = ["ERROR_CODES", "KINDS", "TrinoMapper", "localdata_errors_mappers"]

_NAMES_BY_CODE: Final[Mapping[int, str]] = MappingProxyType(
    {code: name for name, (code, _) in ERROR_CODES.items()}
)
# The client's repr: TrinoUserError(type=USER_ERROR, name=TABLE_NOT_FOUND, message="...", ...)
_REPR_NAME = re.compile(r"\bname=([A-Z][A-Z0-9_]{1,80})\b")
_ERROR_NAME = re.compile(r"[A-Z][A-Z0-9_]{1,80}")
_CANCELLED = re.compile(r"\bQuery has been cancell?ed\b")

_QUOTED = r"'([^']{1,512})'"
_PATTERNS: Final[Mapping[Kind, re.Pattern[str]]] = MappingProxyType(
    {
        Kind.UNDEFINED_TABLE: re.compile(r"Table " + _QUOTED + r" does not exist"),
        Kind.UNDEFINED_COLUMN: re.compile(r"Column " + _QUOTED + r" cannot be resolved"),
        Kind.UNDEFINED_SCHEMA: re.compile(r"Schema " + _QUOTED + r" does not exist"),
        Kind.UNDEFINED_FUNCTION: re.compile(r"Function " + _QUOTED + r" not registered"),
        Kind.UNDEFINED_OBJECT: re.compile(r"Catalog " + _QUOTED + r" (?:does not exist|not found)"),
        Kind.DUPLICATE_TABLE: re.compile(r"Table " + _QUOTED + r" already exists"),
        Kind.DUPLICATE_SCHEMA: re.compile(r"Schema " + _QUOTED + r" already exists"),
        Kind.AMBIGUOUS_COLUMN: re.compile(r"Column " + _QUOTED + r" is ambiguous"),
        Kind.INSUFFICIENT_PRIVILEGE: re.compile(
            r"Access Denied: Cannot \w{1,40} (?:from |into |to )?(?:table|view) ([\w.\"$-]{1,512})"
        ),
    }
)


def _error_name(error: ErrorInput) -> str | None:
    """The Trino error name: the caller's code, the client's attributes, the text."""
    code = error.code
    if isinstance(code, str) and _ERROR_NAME.fullmatch(code.strip()):
        return code.strip()
    if isinstance(code, int) and not isinstance(code, bool) and code in _NAMES_BY_CODE:
        return _NAMES_BY_CODE[code]
    exc = error.exception
    if exc is not None:
        # `error_name` is a property over the error object; it raises when the
        # client made the exception from a plain string ("Query has been cancelled").
        name = driver_attr(exc, "error_name")
        if isinstance(name, str) and _ERROR_NAME.fullmatch(name):
            return name
        number = driver_attr(exc, "error_code")
        if isinstance(number, int) and not isinstance(number, bool) and number in _NAMES_BY_CODE:
            return _NAMES_BY_CODE[number]
    match = _REPR_NAME.search(error.message)
    return match.group(1) if match else None


def _message(error: ErrorInput) -> str:
    """Trino's own message (the client's repr wraps it)."""
    if error.exception is not None:
        text = driver_attr(error.exception, "message")
        if isinstance(text, str):
            return text[: 16 * 1024]
    return error.message


def _split(qualified: str) -> tuple[str | None, str]:
    parts = [p.strip('"') for p in qualified.split(".") if p]
    if not parts:
        return None, qualified
    return (parts[-2] if len(parts) > 1 else None), parts[-1]


class TrinoMapper(BackendMapper):
    """Trino (and Starburst), through the trino client."""

    name = "trino"
    aliases = ("presto", "starburst", "trino-python-client")
    driver_modules = ("trino",)
    display_name = "Trino"

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one Trino error.

        Args:
            error: The client's exception, or a message with an error name
                (`"TABLE_NOT_FOUND"`) or number (`46`) as the code.

        Returns:
            The kind, the error name as the code, and the names the message
            gives; `None` when no Trino error name is found.
        """
        name = _error_name(error)
        if name is None:
            if error.exception is not None and _CANCELLED.search(
                safe_arg(error.exception) or error.message
            ):
                # The client's own "Query has been cancelled" (a plain string).
                return MappedError(Kind.QUERY_CANCELED, code="USER_CANCELED")
            return None
        kind = KINDS.get(name, Kind.UNKNOWN)
        if kind is Kind.CHECK_VIOLATION and NOT_NULL in _message(error):
            kind = Kind.NOT_NULL_VIOLATION
        if kind is Kind.UNKNOWN:
            return MappedError(kind, code=name)
        resources: tuple[str, ...] = ()
        schema: str | None = None
        pattern = _PATTERNS.get(kind)
        if pattern is not None:
            match = pattern.search(_message(error))
            if match is not None:
                if kind in (Kind.UNDEFINED_SCHEMA, Kind.DUPLICATE_SCHEMA):
                    schema, found = None, _split(match.group(1))[1]
                else:
                    schema, found = _split(match.group(1))
                resources = (found,)
        return MappedError(
            kind,
            code=name,
            affected_resources=resources,
            schema=schema,
            retryable=True if name in RETRYABLE else None,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every Trino error name this mapper gives a kind.

        Returns:
            ``{"TABLE_NOT_FOUND": Kind.UNDEFINED_TABLE, ...}``.
        """
        return dict(KINDS)


def safe_arg(exc: BaseException) -> str | None:
    """The first argument of *exc* when it is a string (the client's plain-string errors)."""
    args = driver_attr(exc, "args", ())
    if isinstance(args, tuple) and args and isinstance(args[0], str):
        return args[0][:1024]
    inner = driver_attr(exc, "_error")
    return inner[:1024] if isinstance(inner, str) else None


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the Trino mapper.

    Returns:
        One `TrinoMapper`.
    """
    return [TrinoMapper()]
