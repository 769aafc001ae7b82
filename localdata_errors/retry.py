"""
Retry helpers: predicates for tenacity and stamina, and a back-off hint per kind.

```python
import stamina
import tenacity
from localdata_errors.retry import is_retryable_exception, retry_after_hint, retry_if_retryable

@tenacity.retry(retry=retry_if_retryable(), stop=tenacity.stop_after_attempt(5))
def transfer(): ...

@stamina.retry(on=is_retryable_exception, attempts=5)
def transfer_again(): ...

hint = retry_after_hint(classify_error(exc))  # RetryHint(strategy="immediate", ...)
```
Neither tenacity nor stamina is imported by this module; the tenacity
predicate imports it when built.  The retry decision itself is
`is_error_retryable`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

from localdata_errors.classify import is_error_retryable
from localdata_errors.kinds import KIND_TABLE, Action, Kind

if TYPE_CHECKING:
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

# How to retry each kind that is retried: (strategy, attempts in all, jitter
# in seconds, cap of the back-off in seconds).  Whether to retry, the next
# step and the first wait are the Kind table's (`KindInfo.action`,
# `KindInfo.retry_after_ms`); this table only adds the policy around them.
_POLICY: Final[dict[Kind, tuple[RetryStrategy, int, float, float]]] = {
    # The loser's transaction was rolled back (MySQL) or must be (PostgreSQL):
    # the conflict is over, so retry the whole transaction at once; jitter
    # keeps two losers from meeting again.
    Kind.DEADLOCK_DETECTED: ("immediate", 5, 0.1, 1.0),
    Kind.SERIALIZATION_FAILURE: ("immediate", 5, 0.1, 1.0),
    # Someone else holds the lock, or every connection slot: give them seconds.
    Kind.LOCK_NOT_AVAILABLE: ("backoff", 5, 0.5, 30.0),
    Kind.DATABASE_LOCKED: ("backoff", 5, 0.5, 30.0),
    Kind.TOO_MANY_CONNECTIONS: ("backoff", 5, 1.0, 60.0),
    Kind.STATEMENT_TIMEOUT: ("backoff", 2, 1.0, 30.0),
    Kind.QUERY_CANCELED: ("backoff", 2, 0.5, 10.0),
    Kind.SNAPSHOT_TOO_OLD: ("backoff", 3, 0.5, 10.0),
    # The connection is gone: a retry on it fails again.
    Kind.CONNECTION_FAILURE: ("reconnect", 3, 0.5, 30.0),
    Kind.CONNECTION_LOST: ("reconnect", 3, 0.5, 30.0),
    Kind.ADMIN_SHUTDOWN: ("reconnect", 3, 1.0, 60.0),
}
_DEFAULT_POLICY: Final[tuple[RetryStrategy, int, float, float]] = ("backoff", 3, 0.5, 10.0)


def _hint(kind: Kind, after_ms: int | None) -> RetryHint:
    info = KIND_TABLE[kind]
    if info.action is Action.ROLLBACK:
        # PostgreSQL 25P02, SQL Server 3930: nothing runs until the transaction
        # is rolled back, and the statement that failed first still needs fixing.
        return RetryHint("rollback", 0.0, 0, rollback_first=True)
    strategy, attempts, jitter, cap = _POLICY.get(kind, _DEFAULT_POLICY)
    delay = (info.retry_after_ms if after_ms is None else after_ms) or 0
    return RetryHint(
        strategy,
        delay / 1000,
        attempts,
        reconnect_first=strategy == "reconnect",
        rollback_first=strategy == "immediate",
        jitter_s=jitter,
        max_delay_s=max(cap, delay / 1000),
    )


#: The hint for each kind that is retried or rolled back; every other kind
#: gets `NO_RETRY`.
RETRY_HINTS: Final[Mapping[Kind, RetryHint]] = MappingProxyType(
    {
        kind: _hint(kind, None)
        for kind, info in KIND_TABLE.items()
        if info.retryable or info.action is Action.ROLLBACK
    }
)


def retry_after_hint(response: StructuredErrorResponse) -> RetryHint:
    """
    The back-off hint for a classified error.

    Args:
        response: From `classify_error`.

    Returns:
        The kind's `RetryHint`, its first wait the response's
        `retry_after_ms` (the server's own, where it said); `NO_RETRY` for
        an error that is not retryable, except that a transaction to roll
        back still says so.
    """
    kind = response.kind
    if response.action is Action.ROLLBACK or KIND_TABLE[kind].action is Action.ROLLBACK:
        return RETRY_HINTS[Kind.TRANSACTION_ABORTED]
    if not response.is_retryable:
        return NO_RETRY
    return _hint(kind, response.retry_after_ms)


def is_retryable_exception(exc: BaseException) -> bool:
    """
    Whether retrying after *exc* may succeed: a predicate for ``stamina.retry(on=...)``.

    Args:
        exc: Any exception (a driver's, or a wrapper's such as SQLAlchemy's).

    Returns:
        `is_error_retryable`'s answer; never raises.
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
