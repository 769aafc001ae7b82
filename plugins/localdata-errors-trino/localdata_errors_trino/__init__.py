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

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    Kind,
    MappedError,
    TextSign,
    driver_attr,
    hookimpl,
)
from localdata_errors_trino._codes import ERROR_CODES
from localdata_errors_trino._rules import KINDS, NOT_NULL, RETRYABLE

__all__ = [
    "ENGINE_NAMES",
    "ERROR_CODES",
    "KINDS",
    "TEXT_SIGNS",
    "TrinoMapper",
    "localdata_errors_mappers",
]

_NAMES_BY_CODE: Final[Mapping[int, str]] = MappingProxyType(
    {code: name for name, (code, _) in ERROR_CODES.items()}
)
# The client's repr: TrinoUserError(type=USER_ERROR, name=TABLE_NOT_FOUND, message="...", ...)
_REPR_NAME = re.compile(r"\bname=([A-Z][A-Z0-9_]{1,80})\b")
_ERROR_NAME = re.compile(r"[A-Z][A-Z0-9_]{1,80}")
_CANCELLED = re.compile(r"\bQuery has been cancell?ed\b")

_QUOTED = r"'([^']{1,512})'"
#: An error name opening Trino's message, as the web UI, the CLI's `--debug`
#: and many wrappers print it: `CLUSTER_OUT_OF_MEMORY: Query killed ...`.
_LEADING_NAME = re.compile(r"(?<![\w.])(?P<c>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+): ")
#: Trino's own wording of an error name's message (its analyzer's
#: `semanticException(NAME, ..., "Table '%s' does not exist")`): where the
#: text prints no name, the wording gives it.
_WORDINGS: Final[Mapping[str, re.Pattern[str]]] = MappingProxyType(
    {
        "TABLE_NOT_FOUND": re.compile(r"Table " + _QUOTED + r" does not exist"),
        "COLUMN_NOT_FOUND": re.compile(r"Column " + _QUOTED + r" cannot be resolved"),
        "SCHEMA_NOT_FOUND": re.compile(r"Schema " + _QUOTED + r" does not exist"),
        "FUNCTION_NOT_FOUND": re.compile(r"Function " + _QUOTED + r" not registered"),
        "CATALOG_NOT_FOUND": re.compile(r"Catalog " + _QUOTED + r" (?:does not exist|not found)"),
        "TABLE_ALREADY_EXISTS": re.compile(r"Table " + _QUOTED + r" already exists"),
        "SCHEMA_ALREADY_EXISTS": re.compile(r"Schema " + _QUOTED + r" already exists"),
        "AMBIGUOUS_NAME": re.compile(r"Column " + _QUOTED + r" is ambiguous"),
        "PERMISSION_DENIED": re.compile(
            r"Access Denied: Cannot \w{1,40} (?:from |into |to )?(?:table|view) ([\w.\"$-]{1,512})"
        ),
        # io.trino.ExceededMemoryLimitException.exceededLocalUserMemoryLimit.
        "EXCEEDED_LOCAL_MEMORY_LIMIT": re.compile(r"Query exceeded per-node memory limit of "),
    }
)
#: Each kind's wording, to name the object an error name's message gives.
_PATTERNS: Final[Mapping[Kind, re.Pattern[str]]] = MappingProxyType(
    {KINDS[name]: pattern for name, pattern in _WORDINGS.items() if pattern.groups}
)
#: Trino's error names of the engine's own types (`INTERNAL_ERROR`,
#: `INSUFFICIENT_RESOURCES`, `EXTERNAL`): what no SQL dialect's catalogue holds.
ENGINE_NAMES: Final = frozenset(
    name for name, (_, kind) in ERROR_CODES.items() if kind != "USER_ERROR"
)
#: A query's id as the coordinator makes it (`20240911_103640_00175_snjt3`).
_QUERY_ID = r"\d{8}_\d{6}_\d{5}_[a-z0-9]{5}"
#: How Trino's errors are printed where a text names Trino (see `TextSign`).
TEXT_SIGNS: Final = (
    # The CLI's `Query <id> failed: `, the JDBC driver's `Query failed (#<id>): `.
    TextSign(
        r"\bQuery (?:" + _QUERY_ID + r" failed|failed \(#" + _QUERY_ID + r"\)): ",
        ("Query ",),
    ),
    # The server's and the JDBC driver's Java classes.
    TextSign(r"(?<![\w.])io\.trino\.", (".trino.",)),
    # The Python client's errors: `TrinoUserError(type=USER_ERROR, name=...`.
    TextSign(
        r"\btype=(?:USER_ERROR|INTERNAL_ERROR|INSUFFICIENT_RESOURCES|EXTERNAL), "
        r"name=(?P<c>[A-Z][A-Z0-9_]{1,80})\b",
        (", name=",),
    ),
    # The memory limit of a node, in the words only Trino's (and Presto's) message has.
    TextSign(_WORDINGS["EXCEEDED_LOCAL_MEMORY_LIMIT"].pattern, ("Query exceeded per-node ",)),
    # An engine-side error name opening a line, as the web UI and wrappers print
    # it (`CLUSTER_OUT_OF_MEMORY: Query killed ...`): the names of StandardErrorCode
    # whose type is not USER_ERROR (the coordinator's and workers' own
    # conditions, no SQL dialect's), each a literal of the sign.
    TextSign(
        r"^[ \t]{0,8}(?P<c>[A-Z][A-Z0-9_]{2,80}): ",
        tuple(f"{name}: " for name in ENGINE_NAMES),
        ENGINE_NAMES,
    ),
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
    if match is not None:
        return match.group(1)
    text = error.message[: 16 * 1024]
    for leading in _LEADING_NAME.finditer(text):
        if leading.group("c") in ERROR_CODES:
            return leading.group("c")
    if error.exception is None:
        # A pasted text: Trino's wording of a name's message gives the name.
        for name, pattern in _WORDINGS.items():
            if pattern.search(text) is not None:
                return name
    return None


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
    text_signs = TEXT_SIGNS

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
