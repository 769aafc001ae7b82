"""
Retry helpers: whether a unit may run again, predicates for tenacity and stamina, back-off hints.

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

A retry calls again a *unit*: the function the helper wraps, which may run
several statements in one transaction.  `retry_safety` speaks of the
statement that failed; `retry_verdict` adds what the server undid
(`localdata_errors._kinds.RollbackScope`), so that a retry never writes
twice.  Every decision it reads (attempts, strategy, waits, jitter, what
was undone) is a column of the Kind table (`localdata_errors._kinds`).

Neither tenacity nor stamina is imported by this module; the tenacity
predicate imports it when built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from localdata_errors._classify import classify_error
from localdata_errors._kinds import (
    KIND_TABLE,
    RECOVERABLE_BY_DRIVER,
    Action,
    Kind,
    KindInfo,
    RetrySafety,
    RetryStrategy,
    RollbackScope,
    rollback_scope,
)

if TYPE_CHECKING:
    from localdata_errors._response import StructuredErrorResponse

__all__ = [
    "RETRY_HINTS",
    "RetryHint",
    "RetryStrategy",
    "RetryVerdict",
    "is_retryable_exception",
    "retry_after_hint",
    "retry_if_retryable",
    "retry_verdict",
    "retryable_exception",
]

#: Called to roll the unit's transaction back (`conn.rollback`), sync.
Rollback = Callable[[], object]


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
        rollback_first: Roll the transaction back before anything else: the
            connection is alive and the server left the failed transaction
            open or aborted (only a statement undone, or nothing more can run).
        jitter_s: Up to this much random wait to add, so that competing
            clients do not collide again.
        max_delay_s: The cap of the exponential back-off.
        rollback_scope: What the server undid (`RollbackScope`): a unit of
            several statements is called again only after a rollback, or
            when it is idempotent, unless this is ``transaction`` or
            ``nothing_sent`` (see `retry_verdict`).
    """

    strategy: RetryStrategy
    initial_delay_s: float
    max_attempts: int
    reconnect_first: bool = False
    rollback_first: bool = False
    jitter_s: float = 0.0
    max_delay_s: float = 0.0
    rollback_scope: RollbackScope = RollbackScope.STATEMENT

    @property
    def should_retry(self) -> bool:
        """Whether repeating the call (after the hint's preparation) may succeed."""
        return self.max_attempts > 1


NO_RETRY: Final = RetryHint("none", 0.0, 0)


def _hint(info: KindInfo, after_ms: int | None, scope: RollbackScope) -> RetryHint:
    if info.action is Action.ROLLBACK:
        # PostgreSQL 25P02, SQL Server 3930: nothing runs until the transaction
        # is rolled back, and the statement that failed first still needs fixing.
        return RetryHint("rollback", 0.0, 0, rollback_first=True, rollback_scope=scope)
    delay = (info.retry_after_ms if after_ms is None else after_ms) or 0
    return RetryHint(
        info.strategy,
        delay / 1000,
        info.max_attempts,
        reconnect_first=info.action is Action.RECONNECT,
        rollback_first=info.action is Action.RETRY and scope is not RollbackScope.NOTHING_SENT,
        jitter_s=info.jitter_ms / 1000,
        max_delay_s=max(info.max_delay_ms, delay) / 1000,
        rollback_scope=scope,
    )


#: The hint for each kind that is retried or rolled back (on an engine the
#: Kind table does not name); every other kind gets `NO_RETRY`.
RETRY_HINTS: Final[Mapping[Kind, RetryHint]] = MappingProxyType(
    {
        kind: _hint(info, None, info.rollback_scope)
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
        `retry_after_ms` (the server's own, where it said) and its rollback
        scope the backend's; `NO_RETRY` for an error that is not retryable,
        except that a transaction to roll back still says so.  An error the
        driver calls recoverable although its kind is not retried takes
        the policy of `RECOVERABLE_BY_DRIVER`.
    """
    kind = response.kind
    info = KIND_TABLE[kind]
    scope = rollback_scope(kind, response.backend)
    if response.action is Action.ROLLBACK or info.action is Action.ROLLBACK:
        return _hint(KIND_TABLE[Kind.TRANSACTION_ABORTED], None, RollbackScope.TRANSACTION)
    if not response.is_retryable:
        return NO_RETRY
    if not info.retryable:
        info = KIND_TABLE[RECOVERABLE_BY_DRIVER]
    return _hint(info, response.retry_after_ms, scope)


class RetryVerdict(StrEnum):
    """
    Whether a unit (a function that may run several statements) may be called again.

    - `retry`: yes, after the hint's preparation (a rollback, a reconnect).
    - `not_retryable`: the error's next step is not `retry` or `reconnect`.
    - `write_may_have_committed`: the connection was lost while a statement
      ran (`idempotent_only`), and the unit is not idempotent.
    - `earlier_writes_pending`: the server undid only the failed statement;
      what the unit did before it stands in the open transaction, nothing
      rolls it back, and the unit is not idempotent.
    """

    RETRY = "retry"
    NOT_RETRYABLE = "not_retryable"
    WRITE_MAY_HAVE_COMMITTED = "write_may_have_committed"
    EARLIER_WRITES_PENDING = "earlier_writes_pending"


def retry_verdict(
    response: StructuredErrorResponse, *, idempotent: bool = False, rolled_back: bool = False
) -> RetryVerdict:
    """
    Whether the unit that failed with *response* may be called again: a retry never writes twice.

    The rule (docs/kinds.md gives it per kind):

    - only errors whose next step is `retry` or `reconnect`;
    - an `idempotent_only` error (a write may have committed) only for an
      idempotent unit;
    - where the server undid only the failed statement (`statement` scope:
      InnoDB's lock wait timeout, SQL Server's lock timeout, Oracle, SQLite),
      only once the unit's transaction is rolled back (*rolled_back*) or
      for an idempotent unit; the whole transaction rolled back or aborted
      (`transaction`) or nothing sent (`nothing_sent`) needs neither.

    Args:
        response: The classified error.
        idempotent: The unit only reads, or repeating its writes is harmless.
        rolled_back: The unit's transaction is rolled back before it runs
            again: the unit is atomic (it ends its own transaction when it
            raises), or the caller rolls it back.

    Returns:
        The `RetryVerdict`.
    """
    if response.action not in {Action.RETRY, Action.RECONNECT}:
        return RetryVerdict.NOT_RETRYABLE
    safety = response.retry_safety
    if safety is RetrySafety.NOT_APPLICABLE:
        return RetryVerdict.NOT_RETRYABLE
    if safety is RetrySafety.IDEMPOTENT_ONLY and not idempotent:
        return RetryVerdict.WRITE_MAY_HAVE_COMMITTED
    scope = rollback_scope(response.kind, response.backend)
    if scope is RollbackScope.STATEMENT and not (idempotent or rolled_back):
        return RetryVerdict.EARLIER_WRITES_PENDING
    return RetryVerdict.RETRY


def retryable_exception(
    *,
    idempotent: bool = False,
    atomic: bool = False,
    rollback: Rollback | None = None,
    db_type: str | None = None,
) -> Callable[[BaseException], bool]:
    """
    A predicate for ``stamina.retry(on=...)`` and tenacity: retry exactly what may be retried.

    Args:
        idempotent: The retried function only reads, or repeating its
            writes is harmless: `idempotent_only` errors are retried too,
            and so are errors after which its earlier statements stand.
        atomic: The retried function ends its own transaction when it
            raises (its statements run in `with conn:`, `engine.begin()`,
            `conn.transaction()`, or on a connection it opens and closes),
            so nothing it wrote stands after an error.
        rollback: Rolls the function's transaction back; called by the
            predicate before it approves a retry whose hint says to roll
            back first.  Without it (and without *atomic* or
            *idempotent*), an error after which the server undid only the
            failed statement (InnoDB's lock wait timeout, SQLite's busy
            database) is not retried: the function's earlier statements
            would run twice.
        db_type: The backend, when detection from the driver is not enough.

    Returns:
        The predicate; it never raises (except what *rollback* raises).
    """

    def predicate(exc: BaseException) -> bool:
        answer = classify_error(exc, db_type)
        verdict = retry_verdict(
            answer, idempotent=idempotent, rolled_back=atomic or rollback is not None
        )
        if verdict is not RetryVerdict.RETRY:
            return False
        if rollback is not None and retry_after_hint(answer).rollback_first:
            rollback()
        return True

    return predicate


def is_retryable_exception(
    exc: BaseException,
    db_type: str | None = None,
    *,
    idempotent: bool = False,
    atomic: bool = False,
) -> bool:
    """
    Whether calling the failed function again may succeed and cannot write twice.

    A predicate for ``stamina.retry(on=is_retryable_exception)``: without
    *idempotent*, only `safe` errors, and of those only the ones after which
    nothing of the function stands (the server rolled the whole transaction
    back or aborted it, or nothing reached it), unless *atomic*.  For a
    rollback before each retry, use `retryable_exception(rollback=...)`.

    Args:
        exc: Any exception (a driver's, or a wrapper's such as SQLAlchemy's).
        db_type: The backend, when detection from the driver is not enough.
        idempotent: See `retryable_exception`.
        atomic: See `retryable_exception`.

    Returns:
        The answer; never raises.
    """
    return retryable_exception(idempotent=idempotent, atomic=atomic, db_type=db_type)(exc)


def retry_if_retryable(
    db_type: str | None = None,
    *,
    idempotent: bool = False,
    atomic: bool = False,
    rollback: Rollback | None = None,
) -> Any:
    """
    A tenacity ``retry=`` strategy that retries exactly what `retryable_exception` approves.

    Args:
        db_type: The backend, when detection from the driver is not enough.
        idempotent: See `retryable_exception`.
        atomic: See `retryable_exception`.
        rollback: See `retryable_exception`.

    Returns:
        A ``tenacity.retry_if_exception`` instance.

    Raises:
        ImportError: tenacity is not installed.
    """
    import tenacity  # noqa: PLC0415 - optional dependency, imported on use

    return tenacity.retry_if_exception(
        retryable_exception(
            idempotent=idempotent, atomic=atomic, rollback=rollback, db_type=db_type
        )
    )
