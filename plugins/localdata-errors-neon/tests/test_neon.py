"""
Neon's proxy errors, built as the drivers build them from the proxy's reply.

Neon cannot run here.  The texts are those of Neon's "Connection errors" page
(https://neon.com/docs/connect/connection-errors) and the proxy's messages the
page quotes; at connect time libpq reports them as text (psycopg, psycopg2),
asyncpg raises the class of the SQLSTATE the proxy sends (XX000 for its own).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from localdata_errors import ErrorMapperRegistry, Kind, classify_error, classify_message

psycopg = pytest.importorskip("psycopg")
psycopg2 = pytest.importorskip("psycopg2")
asyncpg = pytest.importorskip("asyncpg")

HOST = "ep-white-morning-123456.us-east-2.aws.neon.tech"


def psycopg_connect_error(message: str) -> BaseException:
    return psycopg.OperationalError(
        f'connection failed: connection to server at "{HOST}" (12.345.67.89), port 5432 '
        f"failed: ERROR:  {message}"
    )


def psycopg2_connect_error(message: str) -> BaseException:
    return psycopg2.OperationalError(
        f'connection to server at "{HOST}" (12.345.67.89), port 5432 failed: ERROR:  {message}\n'
    )


def asyncpg_error(message: str) -> BaseException:
    exc: BaseException = asyncpg.exceptions.PostgresError.new(
        {"S": "ERROR", "V": "ERROR", "C": "XX000", "M": message}
    )
    return exc


BUILDERS: list[Callable[[str], BaseException]] = [
    psycopg_connect_error,
    psycopg2_connect_error,
    asyncpg_error,
]

CASES = [
    # (message, kind, action, retry safety)
    (
        "Couldn't connect to compute node",
        Kind.CONNECTION_FAILURE,
        "reconnect",
        "safe",
    ),
    (
        "The endpoint ID is not specified. Either upgrade the Postgres client library (libpq) "
        "for SNI support or pass the endpoint ID (the first part of the domain name) as a "
        "parameter: '&options=endpoint%3D'. See [https://neon.tech/sni](https://neon.tech/sni) "
        "for more information.",
        Kind.CONNECTION_MISCONFIGURED,
        "stop",
        "not_applicable",
    ),
    (
        "password authentication failed for user 'daniel' connection to server at "
        f'"{HOST}" (12.345.67.89), port 5432 failed: ERROR:  connection is insecure '
        "(try using `sslmode=require`)",
        Kind.CONNECTION_MISCONFIGURED,
        "stop",
        "not_applicable",
    ),
    (
        "Your account or project has exceeded the compute time quota. Upgrade your plan to "
        "increase limits.",
        Kind.QUOTA_EXCEEDED,
        "stop",
        "not_applicable",
    ),
    (
        "Console request failed: endpoint is disabled",
        Kind.CONNECTION_MISCONFIGURED,
        "stop",
        "not_applicable",
    ),
    (
        "You have exceeded the limit of concurrently active endpoints. Please suspend some "
        "endpoints and try again.",
        Kind.TOO_MANY_CONNECTIONS,
        "stop",
        "not_applicable",
    ),
]


@pytest.mark.parametrize(("message", "kind", "action", "safety"), CASES)
@pytest.mark.parametrize("build", BUILDERS)
def test_neon_messages(
    build: Callable[[str], BaseException], message: str, kind: Kind, action: str, safety: str
) -> None:
    answer = classify_error(build(message))  # detected: the texts are Neon's own
    assert (answer.backend, answer.kind) == ("neon", kind)
    assert (answer.action, answer.retry_safety) == (action, safety)


def test_a_waking_compute_is_retried_after_a_few_seconds() -> None:
    answer = classify_error(psycopg_connect_error("Couldn't connect to compute node"))
    assert answer.retry_after_ms == 3000
    assert answer.is_retryable is True


def test_suspended_compute_is_postgresqls_admin_shutdown() -> None:
    # Neon's page: a query on a connection whose compute suspended.
    exc = psycopg.errors.lookup("57P01")("terminating connection due to administrator command")
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.action) == (
        "postgresql",
        Kind.ADMIN_SHUTDOWN,
        "reconnect",
    )
    named = classify_error(exc, db_type="neon")
    assert (named.backend, named.kind) == ("neon", Kind.ADMIN_SHUTDOWN)


def test_other_postgresql_errors_are_left_alone() -> None:
    answer = classify_message('relation "orders" does not exist', "postgresql", code="42P01")
    assert answer.backend == "postgresql"


def test_aliases() -> None:
    refiner = ErrorMapperRegistry.get_mapper("neon")
    assert ErrorMapperRegistry.get_mapper("neondb") is refiner


#: One text of each rule's wordings, as Neon's proxy words it.
WORDINGS = [
    ("endpoint_id_not_specified", "The endpoint ID is not specified. Either upgrade"),
    ("connection_insecure", "connection is insecure (try using `sslmode=require`)"),
    ("endpoint_disabled", "Console request failed: endpoint is disabled"),
    ("endpoint_disabled", "Access to this endpoint is temporarily disabled"),
    ("quota_exceeded", "Your project has exceeded the compute time quota."),
    ("active_endpoints_limit", "You have exceeded the limit of concurrently active endpoints."),
    ("active_endpoints_limit", "active endpoints limit exceeded"),
    ("compute_not_reachable", "Couldn't connect to compute node"),
    (
        "authorization_internal_error",
        "The request could not be authorized due to an internal error",
    ),
]


def test_every_rule_holds_a_needle_the_refiner_looks_for_first() -> None:
    # The core asks the refiner only about a message that holds one of
    # NEEDLES: a rule whose wording holds none would never be reached.
    from localdata_errors_neon import NEEDLES, RULES

    assert {name for name, _ in WORDINGS} == set(RULES)
    for name, text in WORDINGS:
        assert re.search(RULES[name].pattern, text), (name, text)
        assert any(needle in text.lower() for needle in NEEDLES), (name, text)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Endpoint ID is not specified", Kind.CONNECTION_MISCONFIGURED),
        ("ERROR: Couldn't connect to compute node", Kind.CONNECTION_FAILURE),
    ],
)
def test_a_pasted_neon_message_names_neon(text: str, kind: Kind) -> None:
    # No driver, no code: Neon's own wording names it.
    answer = classify_message(text)
    assert (answer.backend, answer.kind) == ("neon", kind)
