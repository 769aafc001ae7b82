"""
Prompt guidance: the text that tells a language model how to use the
structured error fields and the ``<TOOL_EXECUTION_SUMMARY>`` block.

```python
from localdata_errors.prompts import with_error_guidance

system_prompt = with_error_guidance("You are a careful database assistant.")
```
"""

from __future__ import annotations

from typing import Final

__all__ = ["ERROR_HANDLING_GUIDANCE", "with_error_guidance"]

#: How to act on a structured tool error and the execution summary (≤ 1,500 characters).
ERROR_HANDLING_GUIDANCE: Final = """\
<ERROR_HANDLING>
When a tool call fails, read its structured error before acting:
1. error_type says what went wrong; dependencies name what must change first;
   affected_resources name the tables, columns and constraints involved.
2. Check <TOOL_EXECUTION_SUMMARY> (in your context, or in an error when earlier
   calls bear on it) for state changes since the failure. Retry a call listed
   as "Possibly unblocked" exactly as you first sent it (same arguments, same
   values): its dependencies were resolved.
3. Otherwise apply suggested_actions (fix the SQL, handle the dependency first).
4. If is_retryable is false, never repeat the same call unchanged.
5. If is_retryable is true, wait briefly and retry; roll back first if told to.
6. Ask the user only when nothing above applies.
Example: DROP TABLE customers and DROP TABLE products fail with
foreign_key_constraint, dependencies [sales]. DROP TABLE sales succeeds. The
summary says "Possibly unblocked: retry `DROP TABLE customers`,
`DROP TABLE products` unchanged" - send both again now instead of giving up.
</ERROR_HANDLING>"""


def with_error_guidance(system_prompt: str) -> str:
    """
    Compose a caller's system prompt with `ERROR_HANDLING_GUIDANCE`.

    Args:
        system_prompt: The caller's prompt; kept first and unchanged.  A
            prompt that already holds the guidance is returned as it is.

    Returns:
        The prompt, a blank line, then the guidance (the guidance alone when
        the prompt is empty).
    """
    base = system_prompt.rstrip()
    if ERROR_HANDLING_GUIDANCE in base:
        return system_prompt
    return f"{base}\n\n{ERROR_HANDLING_GUIDANCE}" if base else ERROR_HANDLING_GUIDANCE
