"""
CockroachDB's errors, built as psycopg and asyncpg build them from the server's reply.

CockroachDB cannot run here.  Each exception is made the way the driver makes
it from an ErrorResponse: psycopg's class for the SQLSTATE with the server's
diagnostic fields (as psycopg keeps them, ``info``), asyncpg's
``PostgresError.new(fields)``.  The texts are those CockroachDB's transaction
retry error reference and common-errors pages show.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from localdata_errors import ErrorMapperRegistry, Kind, classify_error, classify_message

psycopg = pytest.importorskip("psycopg")
asyncpg = pytest.importorskip("asyncpg")
from psycopg.pq import DiagnosticField  # noqa: E402 - after the importorskip

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def psycopg_error(sqlstate: str, message: str) -> BaseException:
    """psycopg's exception for a server reply with this SQLSTATE and message."""
    try:
        cls = psycopg.errors.lookup(sqlstate)
    except KeyError:  # a code psycopg has no class for: its class's base, as psycopg picks
        cls = psycopg.errors.get_base_exception(sqlstate)
    info = {
        DiagnosticField.SQLSTATE: sqlstate.encode(),
        DiagnosticField.MESSAGE_PRIMARY: message.encode(),
        DiagnosticField.SEVERITY: b"ERROR",
    }
    exc: BaseException = cls(message, info=info)
    return exc


def asyncpg_error(sqlstate: str, message: str) -> BaseException:
    """asyncpg's exception for the same reply."""
    exc: BaseException = asyncpg.exceptions.PostgresError.new(
        {"S": "ERROR", "V": "ERROR", "C": sqlstate, "M": message}
    )
    return exc


RETRY_ERRORS = [
    "restart transaction: TransactionRetryWithProtoRefreshError: TransactionRetryError: "
    'retry txn (RETRY_SERIALIZABLE - failed preemptive refresh): "sql txn" meta={id=92409d02}',
    "restart transaction: TransactionRetryWithProtoRefreshError: WriteTooOldError: write for "
    "key /Table/107/1/1/0 at timestamp 1689969385.160402000,0 too old; wrote at "
    "1689969385.168744000,1",
    "restart transaction: TransactionRetryWithProtoRefreshError: TransactionRetryError: "
    "retry txn (RETRY_WRITE_TOO_OLD)",
    "restart transaction: TransactionRetryWithProtoRefreshError: "
    'TransactionAbortedError(ABORT_REASON_ABORT_SPAN): "sql txn" meta={id=0d6ff35c}',
    "restart transaction: TransactionRetryWithProtoRefreshError: "
    "ReadWithinUncertaintyIntervalError: read at time 1591009232.376925064,0 encountered "
    "previous write with future timestamp 1591009232.493830170,0 within uncertainty interval",
]


@pytest.mark.parametrize("message", RETRY_ERRORS)
@pytest.mark.parametrize("build", [psycopg_error, asyncpg_error])
def test_transaction_retry_errors_retry_the_whole_transaction(message: str, build: object) -> None:
    exc = build("40001", message)  # type: ignore[operator]
    answer = classify_error(exc)  # detected: "restart transaction" is CockroachDB's
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        "cockroachdb",
        Kind.SERIALIZATION_FAILURE,
        "40001",
    )
    # The transaction was aborted: running it again from its start is safe.
    assert (answer.action, answer.retry_safety) == ("retry", "safe")
    assert "whole transaction" in answer.suggestion


@pytest.mark.parametrize("build", [psycopg_error, asyncpg_error])
def test_ambiguous_result_is_retried_only_when_idempotent(build: object) -> None:
    exc = build(  # type: ignore[operator]
        "40003",
        "result is ambiguous (error=rpc error: code = Unavailable desc = transport is closing "
        "[exhausted])",
    )
    answer = classify_error(exc)
    assert (answer.backend, answer.database_error_code) == ("cockroachdb", "40003")
    assert answer.kind is Kind.STATEMENT_COMPLETION_UNKNOWN
    assert (answer.action, answer.retry_safety) == ("retry", "idempotent_only")


@pytest.mark.parametrize(
    ("sqlstate", "message", "kind", "action"),
    [
        (
            "XXA00",
            "transaction committed but schema change aborted with error: (23505): duplicate "
            'key value violates unique constraint "users_email_key"',
            Kind.INTERNAL_ERROR,
            "stop",  # the DML committed: running it again would apply it twice
        ),
        (
            "58C00",
            "replica unavailable: (n1,s1):1 unable to serve request to r52:/Table/106",
            Kind.IO_ERROR,
            "retry",
        ),
        ("58C01", "internal connection failure: node 3 unreachable", Kind.CONNECTION_LOST,
         "reconnect"),
        ("XXC02", "use of partitions requires an enterprise license", Kind.FEATURE_NOT_SUPPORTED,
         "fix_query"),
        ("XCHR2", "Query has no home region. Try adding a LIMIT clause.",
         Kind.FEATURE_NOT_SUPPORTED, "fix_query"),
        ("08C00", "codeParamsRoutingFailed: cluster identifier not found",
         Kind.CONNECTION_FAILURE, "reconnect"),
    ],
)  # fmt: skip
def test_cockroachdb_sqlstates(sqlstate: str, message: str, kind: Kind, action: str) -> None:
    for exc in (psycopg_error(sqlstate, message), asyncpg_error(sqlstate, message)):
        answer = classify_error(exc)  # PostgreSQL never sends these codes: detected
        assert (answer.backend, answer.kind, answer.action) == ("cockroachdb", kind, action)
        assert answer.database_error_code == sqlstate


def test_range_unavailable_may_have_applied_a_write() -> None:
    answer = classify_error(psycopg_error("58C00", "replica unavailable"))
    assert answer.retry_safety == "idempotent_only"


def test_postgresql_errors_stay_postgresqls() -> None:
    plain = classify_error(
        psycopg_error("40001", "could not serialize access due to concurrent update")
    )
    assert (plain.backend, plain.kind) == ("postgresql", Kind.SERIALIZATION_FAILURE)
    missing = classify_error(psycopg_error("42P01", 'relation "orders" does not exist'))
    assert missing.backend == "postgresql"


def test_named_by_any_alias() -> None:
    refiner = ErrorMapperRegistry.get_mapper("cockroachdb")
    for alias in ("crdb", "cockroach", "CockroachDB"):
        assert ErrorMapperRegistry.get_mapper(alias) is refiner
    named = classify_error(psycopg_error("42P01", 'relation "orders" does not exist'), "crdb")
    assert (named.backend, named.kind, named.affected_resources) == (
        "cockroachdb",
        Kind.UNDEFINED_TABLE,
        ("orders",),
    )


def test_generated_codes_match_the_generator() -> None:
    result = subprocess.run(
        [sys.executable, str(TOOLS / "generate_cockroachdb_codes.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "text",
    [
        # Go's lib/pq prints the message without the SQLSTATE
        # (https://github.com/cockroachdb/cockroach/issues/45921).
        "pq: restart transaction: TransactionRetryWithProtoRefreshError: TransactionRetryError: "
        'retry txn (RETRY_SERIALIZABLE): "sql txn" id=eaff4515 key=/Table/SystemConfigSpan/Start',
        "ERROR: restart transaction: TransactionRetryWithProtoRefreshError: TransactionRetryError: "
        "retry txn (RETRY_SERIALIZABLE - failed preemptive refresh)",
    ],
)
def test_retry_errors_printed_without_their_sqlstate(text: str) -> None:
    # "All transaction retry errors use the SQLSTATE error code 40001"
    # (https://www.cockroachlabs.com/docs/stable/transaction-retry-error-reference):
    # the error's name is enough to know it, once the text reaches PostgreSQL's mapper.
    answer = classify_message(text, "postgresql")
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        "cockroachdb",
        Kind.SERIALIZATION_FAILURE,
        "40001",
    )
    assert (answer.action, answer.retry_safety) == ("retry", "safe")


def test_retry_words_alone_do_not_claim_a_postgresql_answer() -> None:
    # A PostgreSQL error the base mapper recognised is not CockroachDB's for a
    # word in its text.
    answer = classify_message(
        'duplicate key value violates unique constraint "restart transaction"', "postgresql"
    )
    assert (answer.backend, answer.kind) == ("postgresql", Kind.UNIQUE_VIOLATION)


def test_a_retry_error_under_psycopg2s_class_40_exception() -> None:
    # psycopg2 raised every class-40 error as TransactionRollbackError before
    # 2.8 (its class says 40000, not the subclass); SQLAlchemy prints it so
    # (cockroachdb/cockroach#19019).  Every retry error is 40001.
    text = (
        "sqlalchemy.exc.OperationalError: (psycopg2.extensions.TransactionRollbackError)"
        " restart transaction: HandledRetryableTxnError: TransactionRetryError: retry txn"
        ' (RETRY_SERIALIZABLE): "sql txn" id=3a9084f0'
    )
    answer = classify_message(text)
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        "cockroachdb",
        Kind.SERIALIZATION_FAILURE,
        "40001",
    )
    assert (answer.action, answer.retry_safety) == ("retry", "safe")
