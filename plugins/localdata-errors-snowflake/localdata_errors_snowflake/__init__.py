"""
Snowflake backend for localdata-errors: Snowflake's error numbers, from its connector's exceptions.

snowflake-connector-python raises ``snowflake.connector.errors.Error``
subclasses carrying ``errno`` (Snowflake's number: ``2003`` for a missing
object, ``390114`` for an expired token, ``250001`` for a failed connect)
and ``sqlstate``, and prints them as ``002003 (42S02): <message>``.  This
mapper reads the attributes first and the text second; the number is kept in
Snowflake's six-digit form (``002003``), as its documentation writes it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    Kind,
    MappedError,
    RetrySafety,
    TextSign,
    driver_attr,
    hookimpl,
)

__all__ = ["CODES", "MESSAGE_CODES", "TEXT_SIGNS", "SnowflakeMapper", "localdata_errors_mappers"]

K = Kind


class Rule(NamedTuple):
    """A number's kind, and where Snowflake says more than the kind."""

    kind: Kind
    retry_safety: RetrySafety | None = None


#: Snowflake error number (six digits) -> its rule.  Server numbers are the
#: ones Snowflake's documentation and support articles quote with their
#: messages; client numbers (25xxxx) are the connector's (its ``errorcode``
#: module, checked by the tests).
CODES: Final[Mapping[str, Rule]] = MappingProxyType(
    {
        # -- the statement -------------------------------------------------------------
        "000904": Rule(K.UNDEFINED_COLUMN),  # invalid identifier 'NOSUCH'
        "001003": Rule(K.SYNTAX_ERROR),  # syntax error line 1 at position 0 unexpected 'SELEC'.
        # [O.NAME] is not a valid group by expression
        "000979": Rule(K.GROUPING_ERROR),
        "002028": Rule(K.AMBIGUOUS_COLUMN),  # ambiguous column name 'ID'
        "002140": Rule(K.UNDEFINED_FUNCTION),  # Unknown function NOSUCH
        "002003": Rule(K.UNDEFINED_TABLE),  # Object 'X' does not exist or not authorized. (BY_TEXT)
        # Object does not exist, or operation cannot be performed.
        "002043": Rule(K.UNDEFINED_OBJECT),
        "002002": Rule(K.DUPLICATE_OBJECT),  # Object 'X' already exists.
        # SQL access control error: Insufficient privileges ...
        "003001": Rule(K.INSUFFICIENT_PRIVILEGE),
        "100038": Rule(K.INVALID_TEXT_REPRESENTATION),  # Numeric value 'abc' is not recognized
        "100035": Rule(K.INVALID_DATETIME_FORMAT),  # Timestamp 'x' is not recognized
        "100040": Rule(K.INVALID_DATETIME_FORMAT),  # Date 'x' is not recognized
        "100046": Rule(K.NUMERIC_VALUE_OUT_OF_RANGE),  # Number out of representable range
        "100051": Rule(K.DIVISION_BY_ZERO),  # Division by zero
        "100072": Rule(K.NOT_NULL_VIOLATION),  # NULL result in a non-nullable column
        # String '...' is too long and would be truncated
        "100078": Rule(K.STRING_DATA_RIGHT_TRUNCATION),
        # -- running it ------------------------------------------------------------------
        "000604": Rule(K.QUERY_CANCELED),  # SQL execution canceled
        # Statement reached its statement or warehouse timeout of N second(s) and
        # was canceled: Snowflake rolled the statement back.
        "000630": Rule(K.STATEMENT_TIMEOUT),
        # ... was aborted because the number of waiters for this lock exceeds the
        # 20 statements limit: refused before it ran.
        "000625": Rule(K.LOCK_NOT_AVAILABLE),
        # No active warehouse selected in the current session: a setting of the
        # connection (or the user's default), not something a retry or the SQL fixes.
        "000606": Rule(K.CONNECTION_MISCONFIGURED),
        # -- logging in ------------------------------------------------------------------
        "390100": Rule(K.INVALID_PASSWORD),  # Incorrect username or password was specified.
        "390144": Rule(K.INVALID_PASSWORD),  # JWT token is invalid.
        # Role 'X' specified in the connect string does not exist or not authorized.
        "390189": Rule(K.INVALID_AUTHORIZATION),
        # The requested database does not exist or not authorized.
        "390201": Rule(K.UNDEFINED_DATABASE),
        # Authentication token has expired / session has expired: the server
        # refused the call before running it; a new session runs it.
        "390114": Rule(K.CONNECTION_LOST, retry_safety=RetrySafety.SAFE),
        "390112": Rule(K.CONNECTION_LOST, retry_safety=RetrySafety.SAFE),
        # -- the connector (its errorcode module) ----------------------------------------
        "250001": Rule(K.CONNECTION_FAILURE),  # ER_FAILED_TO_CONNECT_TO_DB
        # ER_CONNECTION_IS_CLOSED: the connection was closed on this side; nothing was sent.
        "250002": Rule(K.CONNECTION_LOST, retry_safety=RetrySafety.SAFE),
        "251001": Rule(K.CONNECTION_MISCONFIGURED),  # ER_NO_ACCOUNT_NAME
        "251005": Rule(K.CONNECTION_MISCONFIGURED),  # ER_NO_USER
        "251006": Rule(K.CONNECTION_MISCONFIGURED),  # ER_NO_PASSWORD
        "251007": Rule(K.CONNECTION_MISCONFIGURED),  # ER_INVALID_VALUE
        "253006": Rule(K.UNDEFINED_OBJECT),  # ER_FILE_NOT_EXISTS
    }
)

# "002003 (42S02): ..." (the connector's format) or "002003: ..." without a SQLSTATE.
_PREFIX = re.compile(r"(?:^|\s)(\d{6})(?: \(([0-9A-Z]{5})\))?: ")
# The JDBC driver's "Error code: 390100, Message: ..." and HikariCP's "ErrorCode(606)".
_LABELLED = re.compile(r"\bError ?[Cc]ode(?:: |\()(\d{3,6})\b")
_QUOTED = r"'([^']{1,512})'"
# Object kinds in Snowflake's "X 'name' does not exist or not authorized."
_MISSING = re.compile(
    r"\b(Object|Table|View|Schema|Database|Function|Stage|Sequence|Warehouse) "
    + _QUOTED
    + r" does not exist"
)
_MISSING_KIND: Final[Mapping[str, Kind]] = MappingProxyType(
    {
        "Object": K.UNDEFINED_TABLE,
        "Table": K.UNDEFINED_TABLE,
        "View": K.UNDEFINED_TABLE,
        "Schema": K.UNDEFINED_SCHEMA,
        # A database named in the statement (db.schema.table): the statement
        # can name another, so it is an object to fix.
        "Database": K.UNDEFINED_OBJECT,
        "Function": K.UNDEFINED_FUNCTION,
        "Stage": K.UNDEFINED_OBJECT,
        "Sequence": K.UNDEFINED_OBJECT,
        "Warehouse": K.UNDEFINED_OBJECT,
    }
)
_NAMES: Final[Mapping[str, re.Pattern[str]]] = MappingProxyType(
    {
        "000904": re.compile(r"invalid identifier " + _QUOTED),
        "000979": re.compile(r"\[([^\]]{1,512})\] is not a valid group by expression"),
        "002028": re.compile(r"ambiguous column name " + _QUOTED),
        "002140": re.compile(r"Unknown function ([\w$.\"]{1,512})"),
        "002002": re.compile(r"Object " + _QUOTED + r" already exists"),
        "003001": re.compile(r"Insufficient privileges to operate on \w{1,40} " + _QUOTED),
    }
)
#: The numbers whose wording a pasted message without its number gives.
_WORDED: Final[Mapping[str, re.Pattern[str]]] = MappingProxyType(
    {
        **_NAMES,
        "001003": re.compile(r"syntax error line \d{1,9} at position \d{1,9} unexpected '"),
    }
)


#: Server messages by their number, for texts that print the message without
#: it: the connector's 250001 (ER_FAILED_TO_CONNECT_TO_DB) carries the
#: server's refusal after "Failed to connect to DB: host:443.", and a client
#: other than the connector (ODBC, JDBC through R or Perl) may print the
#: message alone.  The sentences are Snowflake's own, as its documentation
#: quotes them with their numbers.
MESSAGE_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # https://docs.snowflake.com/en/sql-reference/sql/use-warehouse
        "No active warehouse selected in the current session": "000606",
        # https://docs.snowflake.com/en/user-guide/admin-user-management (390100)
        "Incorrect username or password was specified": "390100",
        "Incorrect username or password specified": "390100",
    }
)
_MESSAGE_CODE = re.compile("|".join(re.escape(m) for m in MESSAGE_CODES))
# The connector's 250001 when the account name does not resolve to a
# Snowflake account: "Failed to connect to DB. Verify the account name is correct".
_ACCOUNT_NAME: Final = "Verify the account name is correct"
#: How Snowflake's errors are printed where a text names Snowflake (see `TextSign`):
#: the compiler's header, its "does not exist or not authorized" (Snowflake does
#: not tell a missing object from a hidden one), and the messages above.
TEXT_SIGNS: Final = (
    TextSign(r"\bSQL compilation error\b", ("SQL compilation error",)),
    TextSign(r"' does not exist or not authorized\b", ("' does not exist or not authorized",)),
    TextSign(_MESSAGE_CODE.pattern, tuple(MESSAGE_CODES)),
)


def _six(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return f"{value:06d}" if 0 <= value < 1_000_000 else None
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= 6:
            return text.zfill(6)
    return None


def _code(error: ErrorInput) -> tuple[str | None, str | None]:
    """(six-digit number, SQLSTATE): the caller's code, the connector's attributes, the text."""
    exc = error.exception
    code = _six(error.code)
    sqlstate: str | None = None
    if exc is not None:
        if code is None:
            code = _six(driver_attr(exc, "errno"))
        state = driver_attr(exc, "sqlstate")
        if isinstance(state, str) and len(state) == 5 and state.isalnum():
            sqlstate = state
    match = _PREFIX.search(error.message[:512])
    if match is not None:
        code = code or match.group(1)
        sqlstate = sqlstate or match.group(2)
    if code is None:
        labelled = _LABELLED.search(error.message, 0, 4096)
        number = _six(labelled.group(1)) if labelled is not None else None
        code = number if number in CODES else None
    if code is None and exc is None:
        # A pasted message without its number: the server's own wording of one.
        head = error.message[:4096]
        if _MISSING.search(head) is not None:
            code = "002003"
        else:
            code = next((c for c, p in _WORDED.items() if p.search(head) is not None), None)
    return code, sqlstate


def _unqualified(name: str) -> tuple[str | None, str]:
    parts = [p.strip('"') for p in name.split(".") if p]
    if not parts:
        return None, name
    return (parts[-2] if len(parts) > 1 else None), parts[-1]


class SnowflakeMapper(BackendMapper):
    """Snowflake, through snowflake-connector-python."""

    name = "snowflake"
    aliases = ("sf", "snowflake-connector", "snowflake_connector", "snowflake.connector")
    driver_modules = ("snowflake.connector",)
    display_name = "Snowflake"
    text_signs = TEXT_SIGNS

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one Snowflake error.

        Args:
            error: The connector's exception, or a message with a number
                (`2003` or `"002003"`) as the code.

        Returns:
            The kind, the six-digit number as the code, the SQLSTATE, and the
            names the message gives; `None` when no Snowflake number is found.
        """
        exc = error.exception
        reauthenticate = exc is not None and type(exc).__name__ == "ReauthenticationRequest"
        code, sqlstate = _code(error)
        if code is None or code == "250001":
            carried = _MESSAGE_CODE.search(error.message, 0, 4096)
            if carried is not None:
                # The server's own refusal decides, under the connector's number
                # (a text without one: the message's own).
                refusal = CODES[MESSAGE_CODES[carried.group()]]
                return MappedError(
                    refusal.kind,
                    code=code or MESSAGE_CODES[carried.group()],
                    sqlstate=sqlstate,
                    retry_safety=refusal.retry_safety,
                )
            if code is not None and _ACCOUNT_NAME in error.message:
                return MappedError(Kind.CONNECTION_MISCONFIGURED, code=code, sqlstate=sqlstate)
        if code is None:
            return None
        rule = CODES.get(code)
        if reauthenticate:
            # The connector says the session can never be renewed: open a new one.
            rule = Rule(K.CONNECTION_LOST, retry_safety=RetrySafety.SAFE)
        if rule is None:
            return MappedError(Kind.UNKNOWN, code=code, sqlstate=sqlstate)
        kind = rule.kind
        message = error.message
        resources: tuple[str, ...] = ()
        schema: str | None = None
        if code == "002003":
            match = _MISSING.search(message)
            if match is not None:
                kind = _MISSING_KIND[match.group(1)]
                schema, name = _unqualified(match.group(2))
                if kind is Kind.UNDEFINED_SCHEMA or match.group(1) == "Database":
                    schema = None
                resources = (name,)
        else:
            pattern = _NAMES.get(code)
            match = pattern.search(message) if pattern is not None else None
            if match is not None:
                schema, name = _unqualified(match.group(1))
                resources = (name,)
        return MappedError(
            kind,
            code=code,
            sqlstate=sqlstate,
            affected_resources=resources,
            schema=schema,
            retry_safety=rule.retry_safety,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every Snowflake number this mapper gives a kind.

        Returns:
            ``{"002003": Kind.UNDEFINED_TABLE, ...}``.
        """
        return {code: rule.kind for code, rule in CODES.items()}


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the Snowflake mapper.

    Returns:
        One `SnowflakeMapper`.
    """
    return [SnowflakeMapper()]
