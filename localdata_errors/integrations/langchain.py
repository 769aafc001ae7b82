"""
LangChain and LangGraph: error handlers that show the model the structured
answer, and a retry predicate that keeps transient errors in code.

```python
from langchain.agents import create_agent
from langchain.agents.middleware import ToolErrorMiddleware, ToolRetryMiddleware
from localdata_errors.integrations.langchain import on_tool_error, retry_on

agent = create_agent(
    model,
    tools=[run_sql],
    middleware=[
        ToolErrorMiddleware(on_tool_error),  # outer: what is left, for the model
        ToolRetryMiddleware(retry_on=retry_on(idempotent=True), on_failure="error"),
    ],
)
```

- `fix_query`, `rollback`: an error `ToolMessage` with the report; the model
  rewrites the call.
- `retry`, `reconnect`: `retry_on` retries them in `ToolRetryMiddleware`,
  without a model turn, when that cannot write twice (an `idempotent_only`
  error only for an idempotent tool; a lock wait timeout that left the
  tool's earlier statements standing only after `rollback`, or for an
  idempotent tool); what is left reaches the model as a report.
- `stop`: an error `ToolMessage` beginning "stop: tell the user".

For a tool used without an agent's middleware: `handle_tool_error` for
`StructuredTool(handle_tool_error=...)` (with `raise_tool_exception`, since
LangChain hands only `ToolException` to it), and `handle_tool_errors` for
LangGraph's `ToolNode(handle_tool_errors=...)`.

Needs the `langchain` extra (`langchain`, `langchain-core`, `langgraph`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, cast

from langchain_core.tools import ToolException
from langgraph.prebuilt.tool_node import ToolInvocationError

from localdata_errors._kinds import Action
from localdata_errors.integrations._tool_errors import (
    ToolErrorReport,
    attach_report,
    is_database_error,
    report_for,
)
from localdata_errors.retry import RetryVerdict, retry_after_hint, retry_verdict

if TYPE_CHECKING:
    from langchain.agents.middleware import ToolCallRequest

__all__ = [
    "handle_tool_error",
    "handle_tool_errors",
    "on_tool_error",
    "raise_tool_exception",
    "retry_on",
]

P = ParamSpec("P")
R = TypeVar("R")


def handle_tool_error(error: ToolException) -> str:
    """
    `BaseTool.handle_tool_error`: the report for a database error, LangChain's text otherwise.

    LangChain hands a tool's handler only `ToolException`s: raise one from
    the database error (`raise_tool_exception` does).

    Args:
        error: The `ToolException` the tool raised.

    Returns:
        The rendered report when the exception is, or was raised from, a
        database error; else the exception's own message, as LangChain's
        `handle_tool_error=True` would give.
    """
    if is_database_error(error):
        return report_for(error).render()
    return str(error.args[0]) if error.args else "Tool execution error"


def handle_tool_errors(error: Exception) -> str:
    """
    LangGraph's `ToolNode(handle_tool_errors=...)`: database errors go to the model as reports.

    Annotated with `Exception`, so `ToolNode` hands it every exception; it
    keeps `ToolNode`'s own default for the others: invalid arguments
    (`ToolInvocationError`) go to the model, anything else is raised.

    Args:
        error: The exception a tool raised.

    Returns:
        The rendered report, or the invocation error's message.

    Raises:
        Exception: *error* itself, when it is neither.
    """
    if is_database_error(error):
        return report_for(error).render()
    if isinstance(error, ToolInvocationError):
        return error.message
    raise error


def on_tool_error(error: Exception, request: ToolCallRequest) -> str | None:
    """
    `ToolErrorMiddleware(on_error=...)`: the report for a database error, `None` otherwise.

    Args:
        error: The exception the tool raised (after `ToolRetryMiddleware`
            gave up on it, when that middleware is inside this one).
        request: The tool call (unused: the report does not repeat the
            arguments, which may carry values the model should not see again).

    Returns:
        The rendered report; `None` lets any other exception propagate.
    """
    del request
    if is_database_error(error):
        return report_for(error).render()
    return None


def retry_on(
    *,
    idempotent: bool = False,
    atomic: bool = False,
    reconnect: Callable[[], object] | None = None,
    rollback: Callable[[], object] | None = None,
    db_type: str | None = None,
) -> Callable[[Exception], bool]:
    """
    A `ToolRetryMiddleware(retry_on=...)` predicate: retry only what the code should retry.

    The tool is a *unit* that may run several statements; the predicate
    approves a retry only when `localdata_errors.retry.retry_verdict` says
    it cannot write twice (see `CodeRetry`).  `ToolRetryMiddleware` lets
    exceptions the predicate refuses propagate at once; put
    `ToolErrorMiddleware(on_tool_error)` outside it so they reach the model
    as reports.  The predicate marks what it approved, so that once the
    middleware's retries run out (`on_failure="error"`), the report says
    "still failing after the code retried it", as every adapter does.  The
    middleware's own back-off applies (`initial_delay`, `backoff_factor`,
    `max_retries`), not the kind's.

    Args:
        idempotent: The tool only reads, or repeating its writes is
            harmless: `idempotent_only` errors (a connection lost
            mid-statement) are retried too, and so are errors after which
            its earlier statements still stand.
        atomic: The tool ends its own transaction when it raises (`with
            conn:`, `engine.begin()`, a connection of its own): nothing it
            wrote stands after an error, so a statement-scoped error is
            retried too.
        reconnect: Called (synchronously) when the predicate approves a
            retry of a `reconnect` error, before the middleware waits and
            calls again.
        rollback: Rolls back the tool's transaction; called (synchronously)
            when the predicate approves a retry whose hint says to roll back
            first.  Without it, an error after which the server undid only
            the failed statement (InnoDB's lock wait timeout) is retried
            only for an idempotent tool.
        db_type: The backend, when detection from the driver is not enough.

    Returns:
        The predicate.
    """

    def predicate(error: Exception) -> bool:
        if not is_database_error(error):
            return False
        answer = report_for(error, db_type).answer
        verdict = retry_verdict(
            answer, idempotent=idempotent, rolled_back=atomic or rollback is not None
        )
        approved = verdict is RetryVerdict.RETRY
        rolled_back = False
        if approved and rollback is not None and retry_after_hint(answer).rollback_first:
            rollback()
            rolled_back = True
        # What reaches on_tool_error afterwards was refused, or approved and
        # then given up on by the middleware: the report says which.
        attach_report(
            error,
            ToolErrorReport(answer, rolled_back=rolled_back, retried=approved, verdict=verdict),
        )
        if approved and reconnect is not None and answer.action is Action.RECONNECT:
            reconnect()
        return approved

    return predicate


def raise_tool_exception(func: Callable[P, R]) -> Callable[P, R]:
    """
    Wrap a tool function (sync or async) so its database errors become `ToolException`s.

    The `ToolException` carries the rendered report as its message and the
    database error as its cause, so `handle_tool_error=True` already shows
    the model the report, and `handle_tool_error` reads the cause.  Other
    exceptions pass through unchanged.

    Args:
        func: The tool function.

    Returns:
        The wrapped function, with the same signature.
    """
    if inspect.iscoroutinefunction(func):
        async_func = cast("Callable[P, Awaitable[Any]]", func)

        @functools.wraps(func)
        async def async_wrapper(*args: P.args, **kwargs: P.kwargs) -> Any:
            try:
                return await async_func(*args, **kwargs)
            except ToolException:
                raise
            except Exception as exc:
                if not is_database_error(exc):
                    raise
                raise ToolException(report_for(exc).render()) from exc

        return cast("Callable[P, R]", async_wrapper)

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ToolException:
            raise
        except Exception as exc:
            if not is_database_error(exc):
                raise
            raise ToolException(report_for(exc).render()) from exc

    return wrapper
