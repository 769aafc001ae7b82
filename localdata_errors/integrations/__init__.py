"""
Adapters for the frameworks agents run in.

An agent's database tool fails in one of three ways, and each has its own
loop: the model rewrites the call (`fix_query`, `rollback`), the code backs
off and calls again without spending a model turn (`retry`, `reconnect`),
or the run stops to tell the user (`stop`).  Each adapter routes an error to
its framework's mechanism for that path:

- `localdata_errors.integrations.pydantic_ai`: a tool decorator
  (`ModelRetry`, code retry, `ToolFailed`).
- `localdata_errors.integrations.langchain`: `handle_tool_error` callables
  for LangChain tools and LangGraph's `ToolNode`, a `ToolErrorMiddleware`
  handler and a `ToolRetryMiddleware` predicate.
- `localdata_errors.integrations.openai_agents`: a `failure_error_function`.
- `localdata_errors.integrations.sqlalchemy`: a `handle_error` listener that
  attaches the answer and marks disconnects.

This package imports no framework; each adapter module imports its own, and
only when it is imported.  What they share is here: `CodeRetry`,
`retry_in_code` and their `RetryOptions` (the code's loop), `ToolErrorReport`
and `report_for` (what the model reads), `is_database_error`.
"""

from __future__ import annotations

from localdata_errors.integrations._tool_errors import (
    CodeRetry,
    RetryOptions,
    ToolErrorReport,
    is_database_error,
    report_for,
    retry_in_code,
)

__all__ = [
    "CodeRetry",
    "RetryOptions",
    "ToolErrorReport",
    "is_database_error",
    "report_for",
    "retry_in_code",
]
