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
from typing import Any, ParamSpec, TypeVar, Unpack, cast, overload

from pydantic_ai import ModelRetry, ToolFailed

from localdata_errors._kinds import Action
from localdata_errors.integrations._tool_errors import (
    RetryOptions,
    ToolErrorReport,
    report_for,
    retry_loop,
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
    **options: Unpack[RetryOptions],
) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def database_tool(
    func: Callable[P, R] | None = None, /, **options: Unpack[RetryOptions]
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """
    Wrap a Pydantic AI tool function (sync or async) so its database errors take their path.

    Put it under `@agent.tool` / `@agent.tool_plain` (or pass the wrapped
    function to `Tool(...)`); the signature, the docstring and a leading
    `RunContext` are kept, so the tool's schema does not change.

    Args:
        func: The tool function (when used without arguments).
        **options: `CodeRetry`'s options (`RetryOptions`), by keyword:
            `idempotent=True` for a tool that only reads, or whose writes
            may be repeated; `reconnect` and `rollback` callbacks (sync or
            async); `errors`, the exceptions to handle (by default every
            database error).  Pydantic AI's own exceptions always pass
            through untouched.

    Returns:
        The wrapped function, or a decorator when called with options only.
    """
    loop = retry_loop(options, passthrough=(ModelRetry, ToolFailed))

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
                    raise model_feedback(exc, loop.db_type) from exc

            return cast("Callable[P, R]", async_wrapper)

        @functools.wraps(tool)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return loop.call(tool, *args, **kwargs)
            except Exception as exc:
                if not loop.handles(exc):
                    raise
                raise model_feedback(exc, loop.db_type) from exc

        return wrapper

    if func is not None:
        return decorate(func)
    return decorate
