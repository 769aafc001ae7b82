"""
CockroachDB rule pack for localdata-errors: transaction retries, ambiguous results, own SQLSTATEs.

CockroachDB speaks PostgreSQL's protocol through PostgreSQL's drivers, so the
built-in ``postgresql`` mapper answers first; this refiner adds what only
CockroachDB says:

- ``40001`` with ``restart transaction`` (``TransactionRetryWithProtoRefreshError``,
  ``RETRY_WRITE_TOO_OLD``, ``RETRY_SERIALIZABLE``, ``ABORT_REASON_...``): the
  *whole transaction* was aborted and must be run again from its start
  (``serialization_failure``, ``retry``, ``safe``);
- ``40003`` ``result is ambiguous``: the statement may or may not have been
  applied (``retry``, but ``idempotent_only``);
- CockroachDB's own SQLSTATEs (``XXA00``, ``58C00``, ``58C01``, ``XCUBS``, ...),
  generated from its ``pgcode`` list into ``_codes``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    ErrorRefiner,
    Kind,
    MappedError,
    RefinerClaims,
    RetrySafety,
    driver_attr,
    hookimpl,
)
from localdata_errors_cockroachdb._codes import CODES

__all__ = ["RETRY_ERRORS", "RETRY_REASONS", "CockroachDBRefiner", "localdata_errors_mappers"]

_SCAN: Final = 4096

#: The reasons CockroachDB names in its transaction retry errors (its
#: transaction retry error reference); each means "run the transaction again".
RETRY_REASONS: Final[tuple[str, ...]] = (
    "RETRY_WRITE_TOO_OLD",
    "RETRY_SERIALIZABLE",
    "RETRY_ASYNC_WRITE_FAILURE",
    "RETRY_COMMIT_DEADLINE_EXCEEDED",
    "ReadWithinUncertaintyIntervalError",
    "ABORT_REASON_ABORTED_RECORD_FOUND",
    "ABORT_REASON_ABORT_SPAN",
    "ABORT_REASON_CLIENT_REJECT",
    "ABORT_REASON_PUSHER_ABORTED",
    "ABORT_REASON_NEW_LEASE_PREVENTS_TXN",
    "ABORT_REASON_TIMESTAMP_CACHE_REJECTED",
)
#: The error types CockroachDB names in its transaction retry errors.
RETRY_ERRORS: Final[tuple[str, ...]] = (
    "restart transaction",
    "TransactionRetryWithProtoRefreshError",
    "TransactionRetryError",
    "TransactionAbortedError",
    "WriteTooOldError",
)
# Every transaction retry error says "restart transaction"; the error types
# and reasons identify one even where a tool dropped that prefix.
_RETRY: Final = re.compile("|".join(re.escape(r) for r in (*RETRY_ERRORS, *RETRY_REASONS)))
# Without a SQLSTATE, the error as CockroachDB prints it: "restart transaction:"
# before the error's type, or the type with its detail ("TransactionAbortedError(
# ABORT_REASON_...)"), not those words anywhere (a constraint's name).
_RETRY_PRINTED: Final = re.compile(
    r"restart transaction: [A-Za-z]{1,64}Error\b"
    r"|\b(?:TransactionRetryWithProtoRefreshError|TransactionRetryError|TransactionAbortedError"
    r"|WriteTooOldError)[:(]"
)
# "All transaction retry errors use the SQLSTATE error code 40001"
# (https://www.cockroachlabs.com/docs/stable/transaction-retry-error-reference).
_RETRY_CODE: Final = "40001"
# Class 40 without its subclass: what a driver's class for every class-40 error
# says (psycopg2's TransactionRollbackError, before psycopg2 2.8 named 40001).
_ROLLBACK_CLASS: Final = "40000"
_AMBIGUOUS: Final = "result is ambiguous"
_AMBIGUOUS_CODE: Final = "40003"


def _sqlstate(error: ErrorInput, base: MappedError | None) -> str | None:
    state = base.sqlstate if base is not None else None
    if state is None and error.exception is not None:
        for attr in ("sqlstate", "pgcode"):
            value = driver_attr(error.exception, attr)
            if isinstance(value, str) and len(value) == 5:
                return value
    if state is None and isinstance(error.code, str) and len(error.code) == 5:
        return error.code
    return state


#: (retryable, retry safety, first wait) overrides.
Overrides = tuple[bool | None, RetrySafety | None, int | None]


def _with(
    base: MappedError | None, code: str, kind: Kind, overrides: Overrides = (None, None, None)
) -> MappedError:
    retryable, retry_safety, retry_after_ms = overrides
    answer = MappedError(kind, code=code, sqlstate=code) if base is None else base
    return answer._replace(
        kind=kind,
        code=code,
        sqlstate=code,
        refine=None,
        retryable=retryable,
        retry_safety=retry_safety,
        retry_after_ms=retry_after_ms,
    )


class CockroachDBRefiner(ErrorRefiner):
    """
    CockroachDB over PostgreSQL's drivers: retries of the whole transaction, ambiguous results.
    """

    name = "cockroachdb"
    aliases = ("crdb", "cockroach")
    refines = ("postgresql",)
    display_name = "CockroachDB"
    # Its own SQLSTATEs, the two PostgreSQL codes it gives its own meaning, and
    # the names of its retry errors where a tool printed no SQLSTATE (Go's
    # "pq: restart transaction: ...", a log line): nothing else recognised them.
    claims = RefinerClaims(
        codes=frozenset({*CODES, _RETRY_CODE, _ROLLBACK_CLASS, _AMBIGUOUS_CODE}),
        markers=(*RETRY_ERRORS, *RETRY_REASONS),
        kinds=frozenset({Kind.UNKNOWN}),
    )

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Recognise CockroachDB's errors in the PostgreSQL mapper's answer.

        Args:
            error: The exception and its text.
            base: The PostgreSQL mapper's answer.

        Returns:
            The refined answer, or ``None`` for an error that is not CockroachDB's.
        """
        state = _sqlstate(error, base)
        if state is None:
            if (base is None or base.kind is Kind.UNKNOWN) and _RETRY_PRINTED.search(
                error.message, 0, _SCAN
            ):
                # A retry error printed without its SQLSTATE: its name says 40001.
                retry = (None, RetrySafety.SAFE, None)
                return _with(base, _RETRY_CODE, Kind.SERIALIZATION_FAILURE, retry)
            return None
        entry = CODES.get(state)
        if entry is not None:
            # Codes PostgreSQL never sends: CockroachDB's by their code alone.
            _, kind, retryable, safety, after_ms = entry
            return _with(base, state, kind, (retryable, safety, after_ms))
        head = error.message[:_SCAN]
        if state in (_RETRY_CODE, _ROLLBACK_CLASS) and _RETRY.search(head):
            # The transaction was aborted: retry it whole, from BEGIN.  Every
            # retry error is 40001, also where only its class was printed.
            safe = (None, RetrySafety.SAFE, None)
            return _with(base, _RETRY_CODE, Kind.SERIALIZATION_FAILURE, safe)
        if state == _AMBIGUOUS_CODE and _AMBIGUOUS in head:
            # Whether the statement was applied is unknown: only an idempotent
            # transaction may simply run again.
            ambiguous = (None, RetrySafety.IDEMPOTENT_ONLY, 1000)
            return _with(base, state, Kind.STATEMENT_COMPLETION_UNKNOWN, ambiguous)
        return None

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        CockroachDB's own SQLSTATEs, plus the two PostgreSQL codes it gives its own meaning.

        Returns:
            ``{"XXA00": Kind.INTERNAL_ERROR, "40003": Kind.STATEMENT_COMPLETION_UNKNOWN, ...}``.
        """
        codes = {code: entry[1] for code, entry in CODES.items()}
        codes[_RETRY_CODE] = Kind.SERIALIZATION_FAILURE
        codes[_AMBIGUOUS_CODE] = Kind.STATEMENT_COMPLETION_UNKNOWN
        return codes


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the CockroachDB refiner.

    Returns:
        One `CockroachDBRefiner`.
    """
    return [CockroachDBRefiner()]
