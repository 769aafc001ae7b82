"""
What every framework adapter shares: the code's own retry loop, and the
report a model reads (`is_database_error`, which exceptions they handle,
is the core's: `localdata_errors.dbapi`).

No framework is imported here; each adapter module imports its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, ParamSpec, TypedDict, TypeVar, Unpack, cast, overload

from localdata_errors._chain import chain
from localdata_errors._classify import classify_error
from localdata_errors._kinds import Action
from localdata_errors._response import StructuredErrorResponse
from localdata_errors.dbapi import is_database_error
from localdata_errors.retry import RetryVerdict, retry_after_hint, retry_verdict

__all__ = [
    "CodeRetry",
    "RetryOptions",
    "ToolErrorReport",
    "is_database_error",
    "report_for",
    "retry_in_code",
    "retry_loop",
]

P = ParamSpec("P")
R = TypeVar("R")

#: The attribute the code's retry loop leaves on the exception it gives up on.
REPORT_ATTRIBUTE: Final = "localdata_tool_error"


# The first line a model reads: the next step, in words.
_INSTRUCTION: Final[dict[Action, str]] = {
    Action.FIX_QUERY: (
        "fix_query: the statement or its arguments must change; "
        "do not send the same call again unchanged."
    ),
    Action.ROLLBACK: (
        "rollback: the transaction has failed and runs nothing more; roll it back, "
        "then fix the statement that failed first and send the work again."
    ),
    Action.RETRY: "retry: a transient conflict; the same call may succeed after a short wait.",
    Action.RECONNECT: (
        "reconnect: the connection failed; the same call may succeed on a new connection."
    ),
    Action.STOP: (
        "stop: tell the user. Neither a rewritten call nor a retry can fix this; "
        "do not call the tool again for it."
    ),
}
_ROLLED_BACK: Final = (
    "rollback: the failed transaction was rolled back, undoing its earlier statements; "
    "fix the statement that failed first and send the work again."
)
_WITHHELD: Final = (
    "{action}: the connection was lost while the statement ran, so a write may have "
    "committed. Check whether it took effect before sending it again; a read can be "
    "sent again."
)
_PENDING: Final = (
    "{action}: the database undid only the statement that failed, not what this call ran "
    "before it in the same transaction, and nothing rolled that back: sending it again could "
    "apply those writes twice. A read can be sent again; for a write, tell the user."
)
_EXHAUSTED: Final = (
    "{action}: still failing after the code retried it. Try again later, or tell the user."
)


@dataclass(frozen=True, slots=True)
class ToolErrorReport:
    """
    A database error as a tool reports it to the model.

    Every adapter renders it (`render`), so the model reads the same words
    for the same outcome whichever framework runs the tool.

    Attributes:
        answer: The classified error.
        attempts: Calls made in all, where the code's loop counted them.
        rolled_back: The `rollback` callback ran after the error.
        retried: The code retried it until it gave up (`attempts` > 1 says
            so too; a framework's own retry loop, such as LangChain's
            middleware, does not count its attempts for us).
        verdict: Why the code did not call it again (`retry_verdict`);
            `None` when no retry loop judged it, which reads as the
            cautious verdict: the tool is not idempotent and nothing rolls
            its transaction back.
    """

    answer: StructuredErrorResponse
    attempts: int = 1
    rolled_back: bool = False
    retried: bool = False
    verdict: RetryVerdict | None = None

    @property
    def action(self) -> Action:
        """The answer's next step."""
        return self.answer.action

    def instruction(self) -> str:
        """The next step in one sentence, beginning with the action's name."""
        action = self.answer.action
        if action is Action.ROLLBACK and self.rolled_back:
            return _ROLLED_BACK
        if action in {Action.RETRY, Action.RECONNECT}:
            if self.retried or self.attempts > 1:
                return _EXHAUSTED.format(action=action.value)
            # Not sent again by the code (or no code loop ran): the model
            # decides, and must know what sending it again may repeat.
            verdict = self.verdict or retry_verdict(self.answer)
            if verdict is RetryVerdict.WRITE_MAY_HAVE_COMMITTED:
                return _WITHHELD.format(action=action.value)
            if verdict is RetryVerdict.EARLIER_WRITES_PENDING:
                return _PENDING.format(action=action.value)
        return _INSTRUCTION[action]

    def to_dict(self) -> dict[str, Any]:
        """
        The structured part: what went wrong and which objects are involved.

        Returns:
            `kind`, `action`, `retry_safety`, `message`, `suggestion` and
            `error_code`, then `affected_resources`, `dependencies`,
            `retry_after_ms` and `attempts` where there is something to say.
        """
        answer = self.answer
        out: dict[str, Any] = {
            "kind": answer.kind.value,
            "action": answer.action.value,
            "retry_safety": answer.retry_safety.value,
            "message": answer.message,
            "suggestion": answer.suggestion,
            "error_code": answer.database_error_code,
        }
        if answer.affected_resources:
            out["affected_resources"] = list(answer.affected_resources)
        if answer.dependencies:
            out["dependencies"] = list(answer.dependencies)
        if answer.retry_after_ms is not None:
            out["retry_after_ms"] = answer.retry_after_ms
        if self.attempts > 1:
            out["attempts"] = self.attempts
        if self.rolled_back:
            out["rolled_back"] = True
        return out

    def render(self) -> str:
        """The text a model reads: the instruction, then the structured part as compact JSON."""
        body = json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))
        return f"{self.instruction()}\n{body}"


def attach_report(exc: BaseException, report: ToolErrorReport) -> None:
    """Leave *report* on *exc*, for `report_for` to find (a retry loop's judgement)."""
    # A driver exception without a __dict__ keeps nothing: `report_for`
    # classifies it again.
    with contextlib.suppress(AttributeError, TypeError):
        setattr(exc, REPORT_ATTRIBUTE, report)


def report_for(exc: BaseException, db_type: str | None = None) -> ToolErrorReport:
    """
    The report for an exception a tool raised.

    Args:
        exc: The exception; the report the code's retry loop left on it
            (or on the exception it was raised from) wins.
        db_type: The backend, when detection from the driver is not enough.

    Returns:
        The report; never raises.
    """
    for link in chain(exc):
        report = getattr(link, REPORT_ATTRIBUTE, None)
        if isinstance(report, ToolErrorReport):
            return report
    return ToolErrorReport(classify_error(exc, db_type))


Callback = Callable[[], object]


async def _call_async(callback: Callback) -> None:
    result = callback()
    if inspect.isawaitable(result):
        await result


@dataclass(frozen=True, slots=True)
class CodeRetry:
    """
    The code's retry loop: back off and call again, without a model turn.

    The tool function is a *unit*: it may run several statements in one
    transaction before the one that fails.  It is called again only when
    `retry_verdict` says that cannot write twice: the error's action is
    `retry` or `reconnect`; an `idempotent_only` error only when
    `idempotent` is true; and where the server undid only the failed
    statement (InnoDB's lock wait timeout, SQL Server's lock timeout,
    Oracle, SQLite's busy database), only when the unit's transaction is
    rolled back first (`atomic`, or the `rollback` callback), or when
    `idempotent` is true.  Each wait is
    the one `retry_after_hint` gives for the kind.  Every other error, and
    the last one when the attempts run out, is raised again with a
    `ToolErrorReport` attached (read it with `report_for`).

    Attributes:
        idempotent: The tool only reads, or its writes may be repeated
            safely: retry errors after which a write may have committed,
            or after which its earlier statements still stand.
        atomic: The tool ends its own transaction when it raises (its
            statements run in `with conn:`, `engine.begin()`,
            `conn.transaction()`, or on a connection it opens and closes):
            nothing it wrote stands after an error.
        max_attempts: Calls in all; by default the kind's
            (`RetryHint.max_attempts`).
        max_delay_s: A cap on each wait, in seconds.
        reconnect: Called before retrying a `reconnect` error (dispose of
            a pool, open a new connection).  Sync or async.
        rollback: Rolls back the transaction the tool function runs in.
            Called after a `rollback` error, and after a retried error
            whose hint says to roll back first (the connection is alive and
            the server left the transaction open or aborted): before the
            next call, or before the error is reported when the attempts
            run out, so the model's next call starts clean.  Sync or async.
            Give it only for a tool whose every call is one transaction:
            it undoes everything that transaction holds.
        db_type: The backend, when detection from the driver is not enough.
        errors: The exceptions to handle; by default the database errors
            (`is_database_error`).  Anything else passes through untouched.
        passthrough: Exceptions never handled, even when raised from a
            database error: a framework's own signals (`ModelRetry`).
    """

    idempotent: bool = False
    max_attempts: int | None = None
    max_delay_s: float | None = None
    reconnect: Callback | None = None
    rollback: Callback | None = None
    db_type: str | None = None
    errors: tuple[type[BaseException], ...] | None = None
    passthrough: tuple[type[BaseException], ...] = ()
    atomic: bool = False

    def handles(self, exc: BaseException) -> bool:
        """Whether *exc* is one of the errors this loop classifies."""
        if isinstance(exc, self.passthrough):
            return False
        if self.errors is not None:
            return isinstance(exc, self.errors)
        return is_database_error(exc)

    def _verdict(self, answer: StructuredErrorResponse) -> RetryVerdict:
        rolled_back = self.atomic or self.rollback is not None
        return retry_verdict(answer, idempotent=self.idempotent, rolled_back=rolled_back)

    def _plan(self, answer: StructuredErrorResponse, attempt: int) -> tuple[float | None, bool]:
        """Return (the wait before the next call, or None to give up; whether to roll back)."""
        verdict = self._verdict(answer)
        hint = retry_after_hint(answer)
        # A transaction the server left open or aborted is rolled back whether
        # the unit runs again or the model is told: its next call starts clean.
        roll_back = self.rollback is not None and (
            answer.action is Action.ROLLBACK
            or (verdict is RetryVerdict.RETRY and hint.rollback_first)
        )
        if verdict is not RetryVerdict.RETRY:
            return None, roll_back
        limit = self.max_attempts if self.max_attempts is not None else hint.max_attempts
        if attempt >= limit:
            return None, roll_back
        delay = hint.initial_delay_s
        if hint.strategy != "immediate":
            delay = min(delay * 2 ** (attempt - 1), hint.max_delay_s)
        # Jitter spreads competing clients apart; it is not a secret.
        delay += random.uniform(0.0, hint.jitter_s)  # noqa: S311
        if self.max_delay_s is not None:
            delay = min(delay, self.max_delay_s)
        return delay, roll_back

    def _report(
        self, answer: StructuredErrorResponse, attempt: int, rolled_back: bool
    ) -> ToolErrorReport:
        verdict = self._verdict(answer)
        return ToolErrorReport(answer, attempts=attempt, rolled_back=rolled_back, verdict=verdict)

    def _reconnects(self, answer: StructuredErrorResponse) -> bool:
        return self.reconnect is not None and answer.action is Action.RECONNECT

    def call(self, func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Call *func*, retrying in code as the class says (the synchronous loop)."""
        attempt = 1
        while True:
            try:
                return func(*args, **kwargs)
            except Exception as exc:
                if not self.handles(exc):
                    raise
                answer = classify_error(exc, self.db_type)
                delay, roll_back = self._plan(answer, attempt)
                if roll_back and self.rollback is not None:
                    self.rollback()
                if delay is None:
                    attach_report(exc, self._report(answer, attempt, roll_back))
                    raise
                time.sleep(delay)
                if self._reconnects(answer) and self.reconnect is not None:
                    self.reconnect()
            attempt += 1

    async def acall(self, func: Callable[P, Awaitable[R]], *args: P.args, **kwargs: P.kwargs) -> R:
        """Await *func*, retrying in code as the class says (the asynchronous loop)."""
        attempt = 1
        while True:
            try:
                return await func(*args, **kwargs)
            except Exception as exc:
                if not self.handles(exc):
                    raise
                answer = classify_error(exc, self.db_type)
                delay, roll_back = self._plan(answer, attempt)
                if roll_back and self.rollback is not None:
                    await _call_async(self.rollback)
                if delay is None:
                    attach_report(exc, self._report(answer, attempt, roll_back))
                    raise
                await asyncio.sleep(delay)
                if self._reconnects(answer) and self.reconnect is not None:
                    await _call_async(self.reconnect)
            attempt += 1

    def wrap(self, func: Callable[P, R]) -> Callable[P, R]:
        """Wrap a sync or async function in the loop, keeping its signature."""
        if inspect.iscoroutinefunction(func):
            async_func = cast("Callable[P, Awaitable[Any]]", func)

            @functools.wraps(func)
            async def async_wrapper(*args: P.args, **kwargs: P.kwargs) -> Any:
                return await self.acall(async_func, *args, **kwargs)

            return cast("Callable[P, R]", async_wrapper)

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            return self.call(func, *args, **kwargs)

        return wrapper


class RetryOptions(TypedDict, total=False):
    """
    The options of `retry_in_code` and of the adapters' decorators: `CodeRetry`'s, by keyword.

    Each is described at `CodeRetry`; a name that is not one of them raises
    `TypeError` when the decorator is made.
    """

    idempotent: bool
    atomic: bool
    max_attempts: int | None
    max_delay_s: float | None
    reconnect: Callback | None
    rollback: Callback | None
    db_type: str | None
    errors: tuple[type[BaseException], ...] | None


def retry_loop(options: RetryOptions, **fixed: Any) -> CodeRetry:
    """
    The loop a decorator's *options* ask for, with what its adapter sets itself (*fixed*).

    Raises:
        TypeError: An option that is not one of `RetryOptions`.
    """
    unknown = sorted(set(options) - RetryOptions.__optional_keys__)
    if unknown:
        known = ", ".join(sorted(RetryOptions.__optional_keys__))
        raise TypeError(f"unknown option {', '.join(unknown)} (the options: {known})")
    return CodeRetry(**options, **fixed)


@overload
def retry_in_code(func: Callable[P, R], /) -> Callable[P, R]: ...


@overload
def retry_in_code(
    **options: Unpack[RetryOptions],
) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def retry_in_code(
    func: Callable[P, R] | None = None, /, **options: Unpack[RetryOptions]
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """
    Retry a tool function's transient database errors in code, for any framework.

    Use it under a framework's own tool decorator (the framework's error
    handler then renders what is left with `report_for`):

    ```python
    @function_tool(failure_error_function=failure_error_function)
    @retry_in_code(idempotent=True)
    def run_query(sql: str) -> list[tuple]: ...
    ```

    Args:
        func: The tool function, sync or async (when used without arguments).
        **options: `CodeRetry`'s options (`RetryOptions`), by keyword.

    Returns:
        The wrapped function (or a decorator, when called with options only).
    """
    loop = retry_loop(options)
    if func is not None:
        return loop.wrap(func)
    return loop.wrap
