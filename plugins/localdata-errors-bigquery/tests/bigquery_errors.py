"""
BigQuery's error replies, turned into exceptions by google-api-core and google-cloud-bigquery.

Two paths reach a caller: a REST call that fails (``tables.get``,
``jobs.insert``) is raised by ``google.api_core.exceptions.from_http_response``
on the HTTP reply; a query job that fails is raised by the BigQuery client's
``_error_result_to_exception`` on the job's ``errorResult``.  The messages
are BigQuery's, as its documentation quotes them
(https://cloud.google.com/bigquery/docs/error-messages and the pages it links).
"""

from __future__ import annotations

import json
from http import HTTPStatus

import requests
from google.api_core import exceptions
from google.cloud.bigquery.job.base import _ERROR_REASON_TO_EXCEPTION, _error_result_to_exception

#: reason -> a message BigQuery sends with it.
MESSAGES: dict[str, str] = {
    "notFound": "Not found: Table my-project:sales.orders was not found in location US",
    "accessDenied": (
        "Access Denied: Table my-project:sales.orders: User does not have permission to query"
        " table my-project:sales.orders."
    ),
    "rateLimitExceeded": (
        "Exceeded rate limits: too many table update operations for this table. For more"
        " information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas"
    ),
    "jobRateLimitExceeded": (
        "Exceeded rate limits: too many concurrent queries for this project_and_region."
    ),
    "quotaExceeded": (
        "Quota exceeded: Your project exceeded quota for free query bytes scanned. For more"
        " information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas"
    ),
    "invalidQuery": 'Syntax error: Unexpected identifier "SELEC" at [1:1]',
    "backendError": "Error encountered during execution. Retrying may solve the problem.",
    "internalError": "An internal error occurred and the request could not be completed.",
    "responseTooLarge": "Response too large to return. Consider specifying a destination table.",
    "resourcesExceeded": (
        "Resources exceeded during query execution: The query could not be executed in the"
        " allotted memory. Peak usage: 125% of limit."
    ),
    "duplicate": "Already Exists: Table my-project:sales.orders",
    "stopped": "Job execution was cancelled: User requested cancellation",
    "timeout": "Job timed out after 6 hours.",
}


def http_error(status: int, reason: str, message: str | None = None) -> BaseException:
    """What google-api-core raises for BigQuery's HTTP error reply."""
    text = MESSAGES.get(reason, f"error {reason}") if message is None else message
    payload = {
        "error": {
            "code": status,
            "message": text,
            "errors": [{"message": text, "domain": "global", "reason": reason}],
            "status": HTTPStatus(status).name,
        }
    }
    response = requests.Response()
    response.status_code = status
    response._content = json.dumps(payload).encode()
    response.request = requests.Request(
        "GET", "https://bigquery.googleapis.com/bigquery/v2/projects/my-project/queries/job_1"
    ).prepare()
    return exceptions.from_http_response(response)


def job_error(reason: str, message: str | None = None) -> BaseException:
    """What google-cloud-bigquery raises for a query job that failed with *reason*."""
    text = MESSAGES.get(reason, f"error {reason}") if message is None else message
    error_result = {"reason": reason, "location": "query", "message": text}
    return _error_result_to_exception(error_result, [error_result])


def status_for(reason: str) -> int:
    """The HTTP status the BigQuery client gives a job error of *reason*."""
    return int(_ERROR_REASON_TO_EXCEPTION.get(reason, HTTPStatus.INTERNAL_SERVER_ERROR))
