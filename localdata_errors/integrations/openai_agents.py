"""
OpenAI Agents SDK: a `failure_error_function` that shows the model the structured answer.

```python
from agents import function_tool
from localdata_errors.integrations import retry_in_code
from localdata_errors.integrations.openai_agents import failure_error_function


@function_tool(failure_error_function=failure_error_function)
@retry_in_code(idempotent=True)  # optional: retry and reconnect in code, no model turn
def run_sql(sql: str) -> str:
    ...
```

The SDK turns what this function returns into the tool's output, which the
model reads on its next turn:

- `fix_query`, `rollback`: the report begins with the action; the model
  rewrites the call.
- `retry`, `reconnect`: with `retry_in_code` underneath, retried in code
  first; what is left (or, without it, the error itself) is reported.
- `stop`: the report begins "stop: tell the user"; the model should not
  call the tool again for it.

Any other exception gets the SDK's own `default_tool_error_function` text.
Needs the `openai-agents` extra.
"""

from __future__ import annotations

from typing import Any

from agents import RunContextWrapper, default_tool_error_function

from localdata_errors.integrations._tool_errors import is_database_error, report_for

__all__ = ["failure_error_function"]


def failure_error_function(ctx: RunContextWrapper[Any], error: Exception) -> str:
    """
    `function_tool(failure_error_function=...)`: the report for a database error.

    Args:
        ctx: The run context (passed on to the SDK's default for other errors).
        error: The exception the tool raised.

    Returns:
        The rendered report (the next step in words, then the structured
        answer as compact JSON); for any other exception, the SDK's
        `default_tool_error_function` text, which does not expose it.
    """
    if is_database_error(error):
        return report_for(error).render()
    return default_tool_error_function(ctx, error)
