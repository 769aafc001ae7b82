"""The BigQuery plugin against google-api-core's and google-cloud-bigquery's own exceptions."""

from __future__ import annotations

import pytest
from bigquery_errors import http_error, job_error, status_for
from google.api_core import exceptions
from google.cloud.bigquery.dbapi import exceptions as dbapi_exceptions
from google.cloud.bigquery.job.base import _ERROR_REASON_TO_EXCEPTION
from localdata_errors_bigquery import REASONS

from localdata_errors import (
    Action,
    ErrorMapperRegistry,
    Kind,
    RetrySafety,
    classify_error,
    classify_message,
)


def test_registered_through_its_entry_point() -> None:
    info = {m.name: m for m in ErrorMapperRegistry.list_mappers()}["bigquery"]
    assert info.source == "entry point"
    assert info.distribution == "localdata-errors-bigquery"
    assert ErrorMapperRegistry.get_mapper("bq") is info.mapper


def test_every_reason_the_client_knows_is_classified() -> None:
    # The BigQuery client's own list of reasons (reason -> HTTP status).
    assert set(_ERROR_REASON_TO_EXCEPTION) <= set(REASONS)


def test_the_client_picks_the_class_by_status() -> None:
    assert type(http_error(404, "notFound")) is exceptions.NotFound
    assert type(http_error(429, "rateLimitExceeded")) is exceptions.TooManyRequests
    assert type(http_error(403, "rateLimitExceeded")) is exceptions.Forbidden
    assert type(job_error("invalidQuery")) is exceptions.BadRequest


# (status, reason, kind, action, retry safety, names, schema)
HTTP = [
    (404, "notFound", Kind.UNDEFINED_TABLE, Action.FIX_QUERY, None, ("orders",), "sales"),
    (403, "accessDenied", Kind.INSUFFICIENT_PRIVILEGE, Action.STOP, None, ("orders",), "sales"),
    (403, "rateLimitExceeded", Kind.TOO_MANY_CONNECTIONS, Action.RETRY, RetrySafety.SAFE, (), None),
    (429, "rateLimitExceeded", Kind.TOO_MANY_CONNECTIONS, Action.RETRY, RetrySafety.SAFE, (), None),
    (
        403,
        "quotaExceeded",
        Kind.QUOTA_EXCEEDED,
        Action.STOP,
        RetrySafety.NOT_APPLICABLE,
        (),
        None,
    ),
    (400, "invalidQuery", Kind.SYNTAX_ERROR, Action.FIX_QUERY, None, (), None),
    (500, "backendError", Kind.INTERNAL_ERROR, Action.RETRY, RetrySafety.IDEMPOTENT_ONLY, (), None),
    (503, "backendError", Kind.INTERNAL_ERROR, Action.RETRY, RetrySafety.IDEMPOTENT_ONLY, (), None),
    (
        500,
        "internalError",
        Kind.INTERNAL_ERROR,
        Action.RETRY,
        RetrySafety.IDEMPOTENT_ONLY,
        (),
        None,
    ),
    (409, "duplicate", Kind.DUPLICATE_TABLE, Action.FIX_QUERY, None, ("orders",), "sales"),
]


@pytest.mark.parametrize(
    ("status", "reason", "kind", "action", "safety", "names", "schema"),
    HTTP,
    ids=[f"{h[0]}-{h[1]}" for h in HTTP],
)
def test_http_error_replies(  # noqa: PLR0913, PLR0917 - one parameter per column of HTTP
    status: int,
    reason: str,
    kind: Kind,
    action: Action,
    safety: RetrySafety | None,
    names: tuple[str, ...],
    schema: str | None,
) -> None:
    answer = classify_error(http_error(status, reason))
    assert (answer.backend, answer.driver) == ("bigquery", "google")
    assert answer.database_error_code == reason
    assert (answer.kind, answer.action) == (kind, action)
    if safety is not None:
        assert answer.retry_safety is safety
    assert (answer.affected_resources, answer.schema) == (names, schema)


# (reason, message, kind, action, names)
JOBS = [
    (
        "invalidQuery",
        'Syntax error: Unexpected identifier "SELEC" at [1:1]',
        Kind.SYNTAX_ERROR,
        Action.FIX_QUERY,
        (),
    ),
    (
        "invalidQuery",
        "Unrecognized name: nosuch at [1:8]",
        Kind.UNDEFINED_COLUMN,
        Action.FIX_QUERY,
        ("nosuch",),
    ),
    (
        "invalidQuery",
        "Function not found: nosuch at [1:8]",
        Kind.UNDEFINED_FUNCTION,
        Action.FIX_QUERY,
        ("nosuch",),
    ),
    ("invalidQuery", "Division by zero: 1 / 0", Kind.DIVISION_BY_ZERO, Action.FIX_QUERY, ()),
    (
        "invalidQuery",
        "Could not serialize access to table my-project:sales.orders due to concurrent update",
        Kind.SERIALIZATION_FAILURE,
        Action.RETRY,
        ("orders",),
    ),
    (
        "invalidQuery",
        "SELECT list expression references column name which is neither grouped nor"
        " aggregated at [1:8]",
        Kind.GROUPING_ERROR,
        Action.FIX_QUERY,
        ("name",),
    ),
    (
        "notFound",
        "Not found: Dataset my-project:nosuch was not found in location US",
        Kind.UNDEFINED_SCHEMA,
        Action.FIX_QUERY,
        ("nosuch",),
    ),
    ("resourcesExceeded", None, Kind.OUT_OF_MEMORY, Action.FIX_QUERY, ()),
    ("responseTooLarge", None, Kind.CONFIGURATION_LIMIT_EXCEEDED, Action.FIX_QUERY, ()),
    ("stopped", None, Kind.QUERY_CANCELED, Action.RETRY, ()),
    # The job ran past its time limit: sent again unchanged it runs as long again.
    ("timeout", None, Kind.STATEMENT_TIMEOUT, Action.FIX_QUERY, ()),
    ("jobRateLimitExceeded", None, Kind.TOO_MANY_CONNECTIONS, Action.RETRY, ()),
]


@pytest.mark.parametrize(("reason", "message", "kind", "action", "names"), JOBS)
def test_failed_jobs(
    reason: str, message: str | None, kind: Kind, action: Action, names: tuple[str, ...]
) -> None:
    exc = job_error(reason, message)
    assert exc.code == status_for(reason)
    answer = classify_error(exc)
    assert (answer.backend, answer.database_error_code) == ("bigquery", reason)
    assert (answer.kind, answer.action) == (kind, action)
    assert answer.affected_resources == names


def test_a_failed_job_is_safe_to_run_again() -> None:
    # A job's backend error: the job failed as a whole (jobs are atomic).
    answer = classify_error(job_error("backendError"))
    assert (answer.action, answer.retry_safety) == (Action.RETRY, RetrySafety.SAFE)


def test_through_the_db_api() -> None:
    # google.cloud.bigquery.dbapi's cursor raises DatabaseError(exc) inside `except`.
    try:
        try:
            raise job_error("invalidQuery", "Unrecognized name: nosuch at [1:8]")
        except exceptions.GoogleAPICallError as exc:
            raise dbapi_exceptions.DatabaseError(exc) from None
    except dbapi_exceptions.DatabaseError as wrapped:
        answer = classify_error(wrapped)
    assert (answer.backend, answer.kind, answer.affected_resources) == (
        "bigquery",
        Kind.UNDEFINED_COLUMN,
        ("nosuch",),
    )


def test_an_unlisted_reason_keeps_its_name() -> None:
    # A reason of Google's API layer, not in BigQuery's list.
    answer = classify_error(http_error(400, "keyInvalid", "Bad Request"))
    assert (answer.backend, answer.database_error_code) == ("bigquery", "keyInvalid")


def test_reason_given_as_code() -> None:
    answer = classify_message("Exceeded rate limits", db_type="bigquery", code="rateLimitExceeded")
    assert (answer.kind, answer.retry_safety) == (Kind.TOO_MANY_CONNECTIONS, RetrySafety.SAFE)


@pytest.mark.parametrize(
    ("text", "reason", "kind"),
    [
        # The messages of https://cloud.google.com/bigquery/docs/error-messages,
        # printed as google-api-core's str() prints an HTTP error: the status
        # and the message, without the reason.
        (
            "google.api_core.exceptions.Forbidden: 403 Quota exceeded: Your project exceeded "
            "quota for free query bytes scanned.",
            "quotaExceeded",
            Kind.QUOTA_EXCEEDED,
        ),
        (
            "403 Exceeded rate limits: too many table update operations for this table.",
            "rateLimitExceeded",
            Kind.TOO_MANY_CONNECTIONS,
        ),
        (
            "Not found: Dataset my-dataset:my_table was not found in location US.",
            "notFound",
            Kind.UNDEFINED_SCHEMA,
        ),
    ],
)
def test_reason_read_from_the_message(text: str, reason: str, kind: Kind) -> None:
    answer = classify_message(text, "bigquery")
    assert (answer.database_error_code, answer.kind) == (reason, kind)


def test_a_status_alone_names_no_reason() -> None:
    # 403 is accessDenied, quotaExceeded and rateLimitExceeded alike.
    answer = classify_message("403 Forbidden", "bigquery")
    assert answer.database_error_code is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # Google's Go client prints "googleapi: Error <status>: <message>, <reason>"
        # (googleapis/google-cloud-go#975).
        (
            "googleapi: Error 404: Not found: Table pureapp-199410:dream4.sometable14, notFound",
            Kind.UNDEFINED_TABLE,
        ),
        # An error object printed as a Python dict (mozilla/bigquery-etl#1698).
        (
            "[{'code': 404, 'errors': [{'message': 'Not found: Table a-project:ds.t was not"
            " found in location US', 'domain': 'global', 'reason': 'notFound'}],",
            Kind.UNDEFINED_TABLE,
        ),
        # BigQuery's message on a qualified dataset, printed alone.
        ("Not found: Dataset my-project:my_dataset was not found in location US.",
         Kind.UNDEFINED_SCHEMA),
    ],
)  # fmt: skip
def test_a_pasted_text_names_bigquery(text: str, kind: Kind) -> None:
    # No db_type, no code: BigQuery's own signs name it (TEXT_SIGNS).
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code, answer.kind) == (
        "bigquery",
        "notFound",
        kind,
    )


def test_a_reason_outside_bigquerys_list_names_no_bigquery() -> None:
    answer = classify_message("{'domain': 'global', 'reason': 'somethingElse'}")
    assert answer.backend != "bigquery"
