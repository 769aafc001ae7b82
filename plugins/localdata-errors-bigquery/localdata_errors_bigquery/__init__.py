"""
BigQuery backend for localdata-errors: BigQuery's error reasons, from google-api-core's exceptions.

BigQuery answers a failed request or job with an error object whose
``reason`` (``notFound``, ``rateLimitExceeded``, ``invalidQuery``, ...) says
what happened; google-cloud-bigquery raises it as a
``google.api_core.exceptions.GoogleAPICallError`` subclass chosen by the HTTP
status, with the error objects in ``.errors``.  This mapper reads
``errors[0]["reason"]`` first and the text second (``reason: notFound`` in
a job's error), and the names from BigQuery's messages (``Not found: Table
project:dataset.table``).  The reasons are BigQuery's documented list
(https://cloud.google.com/bigquery/docs/error-messages).
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

__all__ = [
    "MESSAGE_REASONS",
    "REASONS",
    "TEXT_SIGNS",
    "BigQueryMapper",
    "localdata_errors_mappers",
]

K = Kind


class Rule(NamedTuple):
    """A reason's kind, and where BigQuery says more than the kind."""

    kind: Kind
    retryable: bool | None = None
    retry_safety: RetrySafety | None = None


#: BigQuery error reason -> its rule.
#: https://cloud.google.com/bigquery/docs/error-messages#errortable
REASONS: Final[Mapping[str, Rule]] = MappingProxyType(
    {
        "accessDenied": Rule(K.INSUFFICIENT_PRIVILEGE),
        # "This error returns when there is a temporary server failure such as
        # a network connection problem or a server overload": retry with back-off.
        "backendError": Rule(K.INTERNAL_ERROR, retryable=True),
        "internalError": Rule(K.INTERNAL_ERROR, retryable=True),
        "jobBackendError": Rule(K.INTERNAL_ERROR, retryable=True),
        "jobInternalError": Rule(K.INTERNAL_ERROR, retryable=True),
        "tableUnavailable": Rule(K.INTERNAL_ERROR, retryable=True),
        "billingNotEnabled": Rule(K.INVALID_AUTHORIZATION),
        "invalidUser": Rule(K.INVALID_AUTHORIZATION),
        "blocked": Rule(K.INSUFFICIENT_PRIVILEGE),
        "policyViolation": Rule(K.INSUFFICIENT_PRIVILEGE),
        "billingTierLimitExceeded": Rule(K.CONFIGURATION_LIMIT_EXCEEDED),
        # A project's quota (queries per day, bytes scanned, table updates
        # per day): used up, it resets only with time; tell the user.
        "quotaExceeded": Rule(K.QUOTA_EXCEEDED),
        "responseTooLarge": Rule(K.CONFIGURATION_LIMIT_EXCEEDED),
        "resourcesExceeded": Rule(K.OUT_OF_MEMORY),
        "duplicate": Rule(K.DUPLICATE_OBJECT),
        # "any type of invalid input other than an invalid query, such as
        # missing required fields or an invalid table schema"
        "invalid": Rule(K.INVALID_PARAMETER),
        "invalidQuery": Rule(K.SYNTAX_ERROR),
        "notFound": Rule(K.UNDEFINED_OBJECT),
        "notImplemented": Rule(K.FEATURE_NOT_SUPPORTED),
        # "Exceeded rate limits": the request was refused before it ran; the
        # documented remedy is to retry with exponential back-off.
        "rateLimitExceeded": Rule(K.TOO_MANY_CONNECTIONS, retry_safety=RetrySafety.SAFE),
        "jobRateLimitExceeded": Rule(K.TOO_MANY_CONNECTIONS, retry_safety=RetrySafety.SAFE),
        "resourceInUse": Rule(K.LOCK_NOT_AVAILABLE),
        "stopped": Rule(K.QUERY_CANCELED),
        "timeout": Rule(K.STATEMENT_TIMEOUT),
    }
)

# BigQuery names tables `project:dataset.table` (legacy) or `project.dataset.table`.
_NAME = r"`?([\w$-]{1,256}(?:[:.][\w$-]{1,256}){0,3})`?"
#: (reason, pattern) -> the kind a message gives within a reason that covers several.
BY_TEXT: Final[tuple[tuple[str, re.Pattern[str], Kind], ...]] = (
    ("notFound", re.compile(r"Not found: Table " + _NAME), K.UNDEFINED_TABLE),
    ("notFound", re.compile(r"Not found: Dataset " + _NAME), K.UNDEFINED_SCHEMA),
    ("notFound", re.compile(r"Not found: Function " + _NAME), K.UNDEFINED_FUNCTION),
    ("duplicate", re.compile(r"Already Exists: Table " + _NAME), K.DUPLICATE_TABLE),
    ("duplicate", re.compile(r"Already Exists: Dataset " + _NAME), K.DUPLICATE_SCHEMA),
    ("invalidQuery", re.compile(r"Unrecognized name: " + _NAME), K.UNDEFINED_COLUMN),
    ("invalidQuery", re.compile(r"Function not found: " + _NAME), K.UNDEFINED_FUNCTION),
    ("invalidQuery", re.compile(r"Table " + _NAME + r" was not found"), K.UNDEFINED_TABLE),
    ("invalidQuery", re.compile(r"Division by zero"), K.DIVISION_BY_ZERO),
    (
        "invalidQuery",
        re.compile(r"Could not serialize access to table " + _NAME),
        K.SERIALIZATION_FAILURE,
    ),
    (
        "invalidQuery",
        re.compile(
            r"(?:SELECT list expression references column|Column) "
            + _NAME
            + r" which is neither grouped nor aggregated"
        ),
        K.GROUPING_ERROR,
    ),
    (
        "accessDenied",
        re.compile(r"Access Denied: (?:Table|Dataset) " + _NAME),
        K.INSUFFICIENT_PRIVILEGE,
    ),
)

# A job's error ("...; reason: notFound, location: x, message: ...") or the
# JSON of an error object printed as text.
_REASON_IN_TEXT = re.compile(r"""\breason['"]?:\s{0,4}['"]?([a-zA-Z]{2,64})\b""")
_CHAIN_LIMIT: Final = 4
#: The sentence each reason's message starts with, as BigQuery words it
#: (https://cloud.google.com/bigquery/docs/error-messages): what a text
#: printed without its reason (an HTTP error's str, "403 Quota exceeded: ...")
#: still says.  An HTTP status alone does not: 403 is accessDenied,
#: quotaExceeded and rateLimitExceeded alike.
MESSAGE_REASONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "Quota exceeded": "quotaExceeded",
        "Exceeded rate limits": "rateLimitExceeded",
        "Not found": "notFound",
        "Already Exists": "duplicate",
        "Access Denied": "accessDenied",
        "Resources exceeded": "resourcesExceeded",
        "Response too large": "responseTooLarge",
    }
)
_MESSAGE_REASON = re.compile(
    r"(?:^|(?<=[\s'\"]))(" + "|".join(re.escape(m) for m in MESSAGE_REASONS) + r"):",
    re.MULTILINE,
)


_QUOTE = r"""['"]"""
#: How BigQuery's errors are printed where a text names it: Google's Go
#: client (`googleapi: Error 404: <message>, <reason>`), an error object
#: printed as JSON or a Python dict (`'domain': 'global', 'reason':
#: 'notFound'`, a reason of BigQuery's list), and BigQuery's messages about a
#: qualified resource (`Not found: Table project:dataset.table`).
TEXT_SIGNS: Final = (
    TextSign(r"\bgoogleapi: Error \d{3}: ", ("googleapi: Error ",)),
    TextSign(
        _QUOTE
        + r"domain"
        + _QUOTE
        + r": ?"
        + _QUOTE
        + r"\w{1,64}"
        + _QUOTE
        + r", ?"
        + _QUOTE
        + r"reason"
        + _QUOTE
        + r": ?"
        + _QUOTE
        + r"(?P<c>[A-Za-z]{2,64})"
        + _QUOTE,
        ("domain",),
        REASONS,
    ),
    TextSign(
        _QUOTE
        + r"reason"
        + _QUOTE
        + r": ?"
        + _QUOTE
        + r"(?P<c>[A-Za-z]{2,64})"
        + _QUOTE
        + r", ?"
        + _QUOTE
        + r"domain"
        + _QUOTE
        + r": ",
        ("reason",),
        REASONS,
    ),
    TextSign(
        r"(?<![\w.])(?:Not found|Already Exists|Access Denied): "
        r"(?:Table|Dataset|Function|Routine|Model|Job) [\w$-]{1,256}[:.][\w$-]",
        ("Not found: ", "Already Exists: ", "Access Denied: "),
    ),
)


def _api_error(exc: BaseException | None) -> BaseException | None:
    """google-api-core's exception: the exception itself, or what the DB-API wraps."""
    current = exc
    for _ in range(_CHAIN_LIMIT):
        if current is None:
            return None
        if isinstance(driver_attr(current, "_errors"), list | tuple):
            return current
        # google.cloud.bigquery.dbapi raises DatabaseError(exc) inside `except`.
        args = driver_attr(current, "args", ())
        inner = args[0] if isinstance(args, tuple) and args else None
        if isinstance(inner, BaseException):
            current = inner
            continue
        cause = driver_attr(current, "__cause__") or driver_attr(current, "__context__")
        current = cause if isinstance(cause, BaseException) else None
    return None


def _reason(error: ErrorInput, api_error: BaseException | None) -> str | None:
    code = error.code
    if isinstance(code, str) and code in REASONS:
        return code
    if api_error is not None:
        errors = driver_attr(api_error, "errors")
        if isinstance(errors, list) and errors and isinstance(errors[0], Mapping):
            reason = errors[0].get("reason")
            if isinstance(reason, str) and 0 < len(reason) <= 64:
                return reason
    match = _REASON_IN_TEXT.search(error.message)
    if match is not None:
        return match.group(1)
    worded = _MESSAGE_REASON.search(error.message, 0, 4096)
    return MESSAGE_REASONS[worded.group(1)] if worded else None


def _split(qualified: str) -> tuple[str | None, str]:
    """``project:dataset.table`` -> (``dataset``, ``table``)."""
    parts = [p for p in re.split(r"[:.]", qualified) if p]
    if not parts:
        return None, qualified
    return (parts[-2] if len(parts) > 1 else None), parts[-1]


class BigQueryMapper(BackendMapper):
    """BigQuery, through google-cloud-bigquery (its client and its DB-API)."""

    name = "bigquery"
    aliases = ("bq", "google-bigquery", "google_bigquery", "googlesql")
    # google-api-core's exceptions are every Google API's; BigQuery's client
    # raises them, and their reasons are the same vocabulary across APIs.
    driver_modules = ("google.cloud.bigquery", "google.api_core.exceptions")
    display_name = "Google BigQuery"
    text_signs = TEXT_SIGNS

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one BigQuery error.

        Args:
            error: google-api-core's exception (or the DB-API's wrapping it),
                or a message with a reason (`"notFound"`) as the code.

        Returns:
            The kind, the reason as the code, and the names the message gives;
            `Kind.UNKNOWN` for a text without a reason (asked about a text, this
            mapper was named by it or by the caller: the text is BigQuery's, the
            keyword fallback gives the kind); `None` for an exception without one.
        """
        api_error = _api_error(error.exception)
        reason = _reason(error, api_error)
        if reason is None:
            return MappedError(Kind.UNKNOWN) if error.exception is None else None
        rule = REASONS.get(reason)
        if rule is None:
            return MappedError(Kind.UNKNOWN, code=reason)
        kind = rule.kind
        message = error.message
        if api_error is not None and api_error is not error.exception:
            inner = driver_attr(api_error, "message")
            message = inner[: 16 * 1024] if isinstance(inner, str) else message
        resources: tuple[str, ...] = ()
        schema: str | None = None
        for rule_reason, pattern, text_kind in BY_TEXT:
            if rule_reason != reason:
                continue
            match = pattern.search(message)
            if match is None:
                continue
            kind = text_kind
            if match.groups():
                if kind in (Kind.UNDEFINED_SCHEMA, Kind.DUPLICATE_SCHEMA):
                    resources = (_split(match.group(1))[1],)
                else:
                    schema, name = _split(match.group(1))
                    resources = (name,)
            break
        safety = rule.retry_safety
        if rule.retryable and driver_attr(api_error, "response") is None and api_error is not None:
            # A job's own error (no HTTP response): the job failed as a whole
            # and BigQuery jobs are atomic, so nothing was written.
            safety = RetrySafety.SAFE
        return MappedError(
            kind,
            code=reason,
            affected_resources=resources,
            schema=schema,
            retryable=rule.retryable,
            retry_safety=safety,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every BigQuery reason this mapper gives a kind.

        Returns:
            ``{"notFound": Kind.UNDEFINED_OBJECT, ...}``.
        """
        return {reason: rule.kind for reason, rule in REASONS.items()}


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the BigQuery mapper.

    Returns:
        One `BigQueryMapper`.
    """
    return [BigQueryMapper()]
