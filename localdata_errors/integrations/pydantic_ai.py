"""
Pydantic AI: a tool decorator that sends each database error down its path.

```python
from pydantic_ai import Agent
from localdata_errors.integrations.pydantic_ai import database_tool

agent = Agent("openai:gpt-5")


@agent.tool_plain
@database_tool(idempotent=True)
def run_query(sql: str) -> list[tuple]:
    with sqlite3.connect("shop.db", timeout=0) as conn:
        return conn.execute(sql).fetchall()
```

- `fix_query`: raises `ModelRetry` with the report; the model rewrites the call.
- `retry`, `reconnect`: retried in code (`CodeRetry`), no model turn; what
  is still failing afterwards is reported with `ToolFailed`.
- `rollback`: calls `rollback`, then raises `ModelRetry`.
- `stop`: raises `ToolFailed` ("stop: tell the user ..."): the model sees
  the failure, the tool's retry budget is not spent, nothing is retried.

Needs the `pydantic-ai` extra (`pydantic-ai-slim`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar, cast, overload

from pydantic_ai import ModelRetry, ToolFailed

from localdata_errors._kinds import Action
from localdata_errors.integrations._tool_errors import (
    Callback,
    CodeRetry,
    ToolErrorReport,
    report_for,
)

__all__ = ["database_tool", "model_feedback"]

P = ParamSpec("P")
R = TypeVar("R")

# The model changes the call: these are the paths that spend a model turn
# on a retry prompt.
_MODEL_RETRY = frozenset({Action.FIX_QUERY, Action.ROLLBACK})


def model_feedback(
    error: BaseException | ToolErrorReport, db_type: str | None = None
) -> ModelRetry | ToolFailed:
    """
    The Pydantic AI exception that tells the model about a database error.

    For a tool that catches its own errors:
    `except sqlite3.Error as exc: raise model_feedback(exc) from exc`.

    Args:
        error: The exception the tool raised, or its report.
        db_type: The backend, when detection from the driver is not enough.

    Returns:
        `ModelRetry` for `fix_query` and `rollback` (the model rewrites the
        call); `ToolFailed` for `stop` and for a `retry` or `reconnect` the
        code did not (or no longer) retry: the model reads it, and it does
        not spend the tool's retry budget.
    """
    report = error if isinstance(error, ToolErrorReport) else report_for(error, db_type)
    text = report.render()
    if report.action in _MODEL_RETRY:
        return ModelRetry(text)
    return ToolFailed(text)


@overload
def database_tool(func: Callable[P, R], /) -> Callable[P, R]: ...


@overload
def database_tool(
    *,
    idempotent: bool = False,
    atomic: bool = False,
    max_attempts: int | None = None,
    max_delay_s: float | None = None,
    reconnect: Callback | None = None,
    rollback: Callback | None = None,
    db_type: str | None = None,
    errors: tuple[type[BaseException], ...] | None = None,
) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def database_tool(  # noqa: PLR0913 - keyword-only options, one per CodeRetry field
    func: Callable[P, R] | None = None,
    /,
    *,
    idempotent: bool = False,
    atomic: bool = False,
    max_attempts: int | None = None,
    max_delay_s: float | None = None,
    reconnect: Callback | None = None,
    rollback: Callback | None = None,
    db_type: str | None = None,
    errors: tuple[type[BaseException], ...] | None = None,
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """
    Wrap a Pydantic AI tool function (sync or async) so its database errors take their path.

    Put it under `@agent.tool` / `@agent.tool_plain` (or pass the wrapped
    function to `Tool(...)`); the signature, the docstring and a leading
    `RunContext` are kept, so the tool's schema does not change.

    Args:
        func: The tool function (when used without arguments).
        idempotent: The tool only reads, or repeating its writes is
            harmless: errors after which a write may have committed
            (`idempotent_only`: a connection lost mid-statement), or after
            which its earlier statements still stand, are retried too.
            Otherwise they are reported to the model, which should check
            first.
        atomic: The tool ends its own transaction when it raises (`with
            conn:`, `engine.begin()`, a connection of its own): errors after
            which the server undid only the failed statement are retried
            too (see `CodeRetry`).
        max_attempts: Calls in all for an error retried in code; by default
            the kind's (`localdata_errors.retry.retry_after_hint`).
        max_delay_s: A cap on each wait, in seconds.
        reconnect: Called before retrying a `reconnect` error (sync or async).
        rollback: Rolls back the transaction the tool runs in (sync or
            async): after a `rollback` error, and after a retried error the
            server left the transaction open or aborted after (see
            `CodeRetry`).  Without it, a lock wait timeout that left the
            tool's earlier statements standing is not retried in code
            unless the tool is idempotent.
        db_type: The backend, when detection from the driver is not enough.
        errors: The exceptions to handle; by default every database error
            (`localdata_errors.integrations.is_database_error`).  Other
            exceptions, and Pydantic AI's own, pass through untouched.

    Returns:
        The wrapped function, or a decorator when called with options only.
    """
    loop = CodeRetry(
        idempotent=idempotent,
        atomic=atomic,
        max_attempts=max_attempts,
        max_delay_s=max_delay_s,
        reconnect=reconnect,
        rollback=rollback,
        db_type=db_type,
        errors=errors,
        passthrough=(ModelRetry, ToolFailed),
    )

    def decorate(tool: Callable[P, R]) -> Callable[P, R]:
        if inspect.iscoroutinefunction(tool):
            async_tool = cast("Callable[P, Awaitable[Any]]", tool)

            @functools.wraps(tool)
            async def async_wrapper(*args: P.args, **kwargs: P.kwargs) -> Any:
                try:
                    return await loop.acall(async_tool, *args, **kwargs)
                except Exception as exc:
                    if not loop.handles(exc):
                        raise
                    raise model_feedback(exc, db_type) from exc

            return cast("Callable[P, R]", async_wrapper)

        @functools.wraps(tool)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return loop.call(tool, *args, **kwargs)
            except Exception as exc:
                if not loop.handles(exc):
                    raise
                raise model_feedback(exc, db_type) from exc

        return wrapper

    if func is not None:
        return decorate(func)
    return decorate
