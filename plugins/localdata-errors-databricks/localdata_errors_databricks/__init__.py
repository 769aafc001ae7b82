"""
Databricks backend for localdata-errors: Spark's and Databricks' error classes and SQLSTATEs.

Databricks reports a failed statement as ``[ERROR_CLASS] message ...
SQLSTATE: 42P01``; databricks-sql-connector raises it as
``databricks.sql.exc.ServerOperationError`` with that text (the Thrift
backend's ``displayMessage``), as ``Command failed: ERROR_CLASS - message``
(the statement-execution backend), or with ``error_code`` / ``sql_state``
attributes (the kernel backend).  This mapper reads the attributes first and
the text second, and gives the class the kind of its SQLSTATE (``_rules.py``
over Spark's list, ``_conditions.py``).
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
from localdata_errors_databricks._conditions import CONDITIONS, SOURCE
from localdata_errors_databricks._rules import CLASS_OVERRIDES, DATABRICKS_CONDITIONS, kind_for

__all__ = [
    "ALL_CONDITIONS",
    "CONDITIONS",
    "SOURCE",
    "TEXT_SIGNS",
    "DatabricksMapper",
    "localdata_errors_mappers",
]

#: Spark's classes and Databricks' own: error class -> SQLSTATE.
ALL_CONDITIONS: Final[Mapping[str, str]] = MappingProxyType({**CONDITIONS, **DATABRICKS_CONDITIONS})

_CLASS = r"[A-Z][A-Z0-9_]{1,100}(?:\.[A-Z][A-Z0-9_]{1,100}){0,2}"
# "[TABLE_OR_VIEW_NOT_FOUND] The table ..." or "Command failed: TABLE_OR_VIEW_NOT_FOUND - ..."
_CLASS_IN_TEXT = re.compile(r"\[(" + _CLASS + r")\]|Command failed: (" + _CLASS + r") - ")
_SQLSTATE_IN_TEXT = re.compile(r"\bSQLSTATE: ([0-9A-Z]{5})\b")
_BARE_CLASS = re.compile(_CLASS)
# A SQLSTATE in brackets (DBeaver's "SQL Error [500051] [HY000]") is no class.
_STATE_SHAPED = re.compile(r"[0-9A-Z]{5}")
_SQLSTATE = re.compile(r"[0-9A-Z]{5}")
# A backquoted, possibly qualified name: `main`.`sales`.`orders`.
_NAME = re.compile(r"`([^`]{1,256})`(?:\.`([^`]{1,256})`)?(?:\.`([^`]{1,256})`)?")

_MOST_CLASSES: Final = 32
_ANALYSIS: Final = re.compile(r"(?<![\w.])(?:\w{1,64}\.){0,8}AnalysisException\b")

#: How Databricks' and Spark's errors are printed where a text names them:
#: the JDBC/ODBC drivers' vendor prefix (`[Databricks][JDBCDriver](500051)`,
#: Simba's `[Simba][SparkJDBCDriver]`), Spark's analysis exception
#: (`pyspark.sql.utils.AnalysisException`, `org.apache.spark.sql.`), and an
#: error class of Spark's or Databricks' list in brackets
#: (`[UNRESOLVED_COLUMN.WITH_SUGGESTION]`).
TEXT_SIGNS: Final = (
    TextSign(
        r"\[Databricks\]\[[\w ]{1,40}\]|\[Simba\]\[Spark[\w ]{0,40}\]",
        ("[Databricks][", "[Simba][Spark"),
    ),
    TextSign(
        r"(?<![\w.])(?:AnalysisException\b|pyspark\.(?:sql|errors)\.|org\.apache\.spark\.sql\.)",
        ("AnalysisException", "pyspark.", "org.apache.spark.sql."),
    ),
    TextSign(
        r"\[(?P<c>[A-Z][A-Z0-9]{1,50}_[A-Z0-9_]{1,100})(?:\.[A-Z][A-Z0-9_]{1,100}){0,2}\]",
        ("[",),
        ALL_CONDITIONS,
    ),
)

_NAMED_KINDS: Final = frozenset(
    {
        Kind.UNDEFINED_TABLE,
        Kind.UNDEFINED_COLUMN,
        Kind.UNDEFINED_FUNCTION,
        Kind.UNDEFINED_OBJECT,
        Kind.UNDEFINED_SCHEMA,
        Kind.DUPLICATE_TABLE,
        Kind.DUPLICATE_SCHEMA,
        Kind.DUPLICATE_COLUMN,
        Kind.DUPLICATE_OBJECT,
        Kind.AMBIGUOUS_COLUMN,
        Kind.INSUFFICIENT_PRIVILEGE,
    }
)


def _attr_str(exc: BaseException | None, name: str, pattern: re.Pattern[str]) -> str | None:
    value = driver_attr(exc, name) if exc is not None else None
    return value if isinstance(value, str) and pattern.fullmatch(value) else None


def _class_in_text(message: str) -> str | None:
    """
    The error class the text gives: the first of Spark's or Databricks' list,
    else the first that is not a SQLSTATE (a class older than the list).
    """
    first: str | None = None
    for count, match in enumerate(_CLASS_IN_TEXT.finditer(message, 0, 16 * 1024)):
        found = match.group(1) or match.group(2)
        if found.partition(".")[0] in ALL_CONDITIONS:
            return found
        if first is None and not _STATE_SHAPED.fullmatch(found):
            first = found
        if count >= _MOST_CLASSES:
            break
    return first


def _class_and_state(error: ErrorInput) -> tuple[str | None, str | None]:
    """(error class, SQLSTATE): the caller's code, the connector's attributes, the text."""
    exc = error.exception
    code = error.code if isinstance(error.code, str) else None
    error_class = code.strip() if code and _BARE_CLASS.fullmatch(code.strip()) else None
    error_class = error_class or _attr_str(exc, "error_code", _BARE_CLASS)
    sqlstate = _attr_str(exc, "sql_state", _SQLSTATE)
    if error_class is None:
        error_class = _class_in_text(error.message)
    if sqlstate is None:
        match = _SQLSTATE_IN_TEXT.search(error.message)
        sqlstate = match.group(1) if match else None
    return error_class, sqlstate


def _names(message: str, kind: Kind) -> tuple[tuple[str, ...], str | None]:
    match = _NAME.search(message)
    if match is None:
        return (), None
    parts = [p for p in match.groups() if p is not None]
    if kind in (Kind.UNDEFINED_SCHEMA, Kind.DUPLICATE_SCHEMA) or len(parts) == 1:
        return (parts[-1],), None
    return (parts[-1],), parts[-2]


class DatabricksMapper(BackendMapper):
    """Databricks SQL (and Spark SQL error classes), through databricks-sql-connector."""

    name = "databricks"
    aliases = ("databricks-sql", "databricks_sql", "spark", "sparksql", "spark-sql")
    driver_modules = ("databricks.sql",)
    display_name = "Databricks"
    text_signs = TEXT_SIGNS

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one Databricks error.

        Args:
            error: The connector's exception, or a message with an error class
                (`"TABLE_OR_VIEW_NOT_FOUND"`) as the code.

        Returns:
            The kind, the error class as the code (with its sub-class, as the
            server wrote it), the SQLSTATE, and the names the message gives;
            `None` when neither an error class nor a SQLSTATE is found.
        """
        error_class, sqlstate = _class_and_state(error)
        if error_class is None and sqlstate is None:
            if _ANALYSIS.search(error.message, 0, 4096) is not None:
                # Spark's analysis error from before error classes (Spark 3.3
                # and older: "AnalysisException: Table or view not found: x"):
                # Spark's, the kind left to the message's words.
                return MappedError(Kind.UNKNOWN)
            return None
        main = error_class.partition(".")[0] if error_class else None
        if main is not None:
            sqlstate = sqlstate or ALL_CONDITIONS.get(main)
        kind = CLASS_OVERRIDES.get(main, Kind.UNKNOWN) if main else Kind.UNKNOWN
        if kind is Kind.UNKNOWN:
            kind = kind_for(sqlstate)
        code = error_class or sqlstate
        if kind is Kind.UNKNOWN:
            return MappedError(kind, code=code, sqlstate=sqlstate)
        resources, schema = _names(error.message, kind) if kind in _NAMED_KINDS else ((), None)
        return MappedError(
            kind, code=code, sqlstate=sqlstate, affected_resources=resources, schema=schema
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every error class whose SQLSTATE (or own rule) gives a kind.

        Returns:
            ``{"TABLE_OR_VIEW_NOT_FOUND": Kind.UNDEFINED_TABLE, ...}``.
        """
        declared: dict[str, Kind] = {}
        for name, state in ALL_CONDITIONS.items():
            kind = CLASS_OVERRIDES.get(name) or kind_for(state)
            if kind is not Kind.UNKNOWN:
                declared[name] = kind
        return declared


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the Databricks mapper.

    Returns:
        One `DatabricksMapper`.
    """
    return [DatabricksMapper()]
