"""
Retry helpers: predicates for tenacity and stamina, and a back-off hint per kind.

.. code-block:: python

    import stamina
    import tenacity
    from localdata_errors.retry import is_retryable_exception, retry_after_hint, retry_if_retryable

    @tenacity.retry(retry=retry_if_retryable(), stop=tenacity.stop_after_attempt(5))
    def transfer(): ...

    @stamina.retry(on=is_retryable_exception, attempts=5)
    def transfer_again(): ...

    hint = retry_after_hint(classify_error(exc))  # RetryHint(strategy="immediate", ...)

Neither tenacity nor stamina is imported by this module; the tenacity
predicate imports it when built.  The retry decision itself is
:func:`~localdata_errors.is_error_retryable`'s.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

from localdata_errors.classify import is_error_retryable
from localdata_errors.kinds import Kind

if TYPE_CHECKING:
    from collections.abc import Mapping

    from localdata_errors.response import StructuredErrorResponse

__all__ = [
    "RETRY_HINTS",
    "RetryHint",
    "RetryStrategy",
    "is_retryable_exception",
    "retry_after_hint",
    "retry_if_retryable",
]

RetryStrategy = Literal["immediate", "backoff", "reconnect", "rollback", "none"]


@dataclass(frozen=True, slots=True)
class RetryHint:
    """
    How to retry an error of some kind, if at all.

    Args:
        strategy: ``immediate`` (retry the whole transaction now, with a
            little jitter), ``backoff`` (wait, doubling the wait each time),
            ``reconnect`` (open a new connection, then retry), ``rollback``
            (roll back, then fix the statement: the same call will not
            succeed) or ``none`` (do not retry unchanged).
        initial_delay_s: The first wait, in seconds.
        max_attempts: How many attempts in all make sense (0: do not retry).
        reconnect_first: Open a new connection before the next attempt.
        rollback_first: Roll the transaction back before anything else.
        jitter_s: Up to this much random wait to add, so that competing
            clients do not collide again.
        max_delay_s: The cap of the exponential back-off.
    """

    strategy: RetryStrategy
    initial_delay_s: float
    max_attempts: int
    reconnect_first: bool = False
    rollback_first: bool = False
    jitter_s: float = 0.0
    max_delay_s: float = 0.0

    @property
    def should_retry(self) -> bool:
        """Whether repeating the call (after the hint's preparation) may succeed."""
        return self.max_attempts > 1


NO_RETRY: Final = RetryHint("none", 0.0, 0)
_DEFAULT_RETRYABLE: Final = RetryHint("backoff", 1.0, 3, jitter_s=0.5, max_delay_s=10.0)

#: The hint for each kind that has one; every other kind gets :data:`NO_RETRY`
#: when not retryable, else a short exponential back-off.
RETRY_HINTS: Final[Mapping[Kind, RetryHint]] = MappingProxyType(
    {
        # The loser's transaction was rolled back (MySQL) or must be (PostgreSQL):
        # the conflict is over, so retry the whole transaction at once; jitter
        # keeps two losers from meeting again.
        Kind.DEADLOCK_DETECTED: RetryHint(
            "immediate", 0.0, 5, rollback_first=True, jitter_s=0.1, max_delay_s=1.0
        ),
        Kind.SERIALIZATION_FAILURE: RetryHint(
            "immediate", 0.0, 5, rollback_first=True, jitter_s=0.1, max_delay_s=1.0
        ),
        # Someone else holds the lock, or every connection slot: give them seconds.
        Kind.LOCK_NOT_AVAILABLE: RetryHint("backoff", 1.0, 5, jitter_s=0.5, max_delay_s=30.0),
        Kind.DATABASE_LOCKED: RetryHint("backoff", 1.0, 5, jitter_s=0.5, max_delay_s=30.0),
        Kind.TOO_MANY_CONNECTIONS: RetryHint("backoff", 2.0, 5, jitter_s=1.0, max_delay_s=60.0),
        Kind.STATEMENT_TIMEOUT: RetryHint("backoff", 2.0, 2, jitter_s=1.0, max_delay_s=30.0),
        Kind.QUERY_CANCELED: RetryHint("backoff", 1.0, 2, jitter_s=0.5, max_delay_s=10.0),
        Kind.SNAPSHOT_TOO_OLD: RetryHint("backoff", 1.0, 3, jitter_s=0.5, max_delay_s=10.0),
        # The connection is gone: a retry on it fails again.
        Kind.CONNECTION_FAILURE: RetryHint(
            "reconnect", 1.0, 3, reconnect_first=True, jitter_s=0.5, max_delay_s=30.0
        ),
        Kind.CONNECTION_LOST: RetryHint(
            "reconnect", 0.5, 3, reconnect_first=True, jitter_s=0.5, max_delay_s=30.0
        ),
        Kind.ADMIN_SHUTDOWN: RetryHint(
            "reconnect", 5.0, 3, reconnect_first=True, jitter_s=1.0, max_delay_s=60.0
        ),
        # PostgreSQL 25P02, SQL Server 3930: nothing runs until the transaction is
        # rolled back, and the statement that failed first still needs fixing.
        Kind.TRANSACTION_ABORTED: RetryHint("rollback", 0.0, 0, rollback_first=True),
    }
)


def retry_after_hint(response: StructuredErrorResponse) -> RetryHint:
    """
    The back-off hint for a classified error.

    Args:
        response: From :func:`~localdata_errors.classify_error`.

    Returns:
        The kind's :class:`RetryHint`; :data:`NO_RETRY` for an error that is
        not retryable (except that a transaction to roll back still says so).
    """
    hint = RETRY_HINTS.get(response.kind)
    if hint is not None and (response.is_retryable or hint.rollback_first):
        return hint if response.is_retryable or not hint.should_retry else NO_RETRY
    return _DEFAULT_RETRYABLE if response.is_retryable else NO_RETRY


def is_retryable_exception(exc: BaseException) -> bool:
    """
    Whether retrying after *exc* may succeed: a predicate for ``stamina.retry(on=...)``.

    Args:
        exc: Any exception (a driver's, or a wrapper's such as SQLAlchemy's).

    Returns:
        :func:`~localdata_errors.is_error_retryable`'s answer; never raises.
    """
    return is_error_retryable(exc)


def retry_if_retryable(db_type: str | None = None) -> Any:
    """
    A tenacity ``retry=`` strategy that retries exactly the retryable database errors.

    Args:
        db_type: The backend, when detection from the driver is not enough.

    Returns:
        A ``tenacity.retry_if_exception`` instance.

    Raises:
        ImportError: tenacity is not installed.
    """
    import tenacity  # noqa: PLC0415 - optional dependency, imported on use

    def predicate(exc: BaseException) -> bool:
        return is_error_retryable(exc, db_type)

    return tenacity.retry_if_exception(predicate)
