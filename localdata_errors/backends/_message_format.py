"""
Java drivers' `java.text.MessageFormat` messages read as patterns.

mssql-jdbc and MySQL Connector/J keep their English messages as
`MessageFormat` patterns (`Unable to load authentication plugin ''{0}''.`):
`{0}`, `{1}` their values, `''` an apostrophe.  A text is found to hold one
when it holds the pattern's fixed runs in order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["alternation", "template_pattern"]

#: A placeholder of a `MessageFormat` pattern, and a run of white space.
_PART: Final = re.compile(r"(\{\d+\})|\s+")


def template_pattern(template: str) -> str:
    """
    A template as a regular expression: its fixed runs in order, any text for
    each placeholder, any white space for a run of it; what follows the last
    placeholder (a closing quote and full stop a paste often cuts) is not
    required, nor the quote it opens with (`"encrypt" property is set to
    ...`: a reader takes the message from its first word).

    Args:
        template: A `MessageFormat` pattern, as the driver's resource has it.

    Returns:
        The expression's text (no flags; the callers join several).
    """
    parts = _PART.split(template.replace("''", "'").strip().removeprefix('"'))
    if any(parts[1::2]):  # a placeholder: stop at the last one
        last = max(i for i, p in enumerate(parts) if i % 2 and p)
        parts = parts[:last]
    pattern = ""
    for i, part in enumerate(parts):
        if i % 2 == 0:
            pattern += re.escape(part)
        else:
            pattern += ".*?" if part else r"\s+"
    return pattern


def alternation(templates: Iterable[tuple[str, Kind]]) -> tuple[re.Pattern[str], tuple[Kind, ...]]:
    """
    One expression of several templates, each its branch `t<n>` in order, and each branch's kind.

    Args:
        templates: Each `MessageFormat` pattern and the kind of its message.

    Returns:
        The compiled alternation (case and line breaks ignored) and the kinds
        by branch number: `kinds[int(match.lastgroup[1:])]`.
    """
    branches = [(template_pattern(text), kind) for text, kind in templates]
    # Each branch ends in its empty group: the engine rejects a branch by its
    # first character without entering it (a group around it is entered).
    pattern = "|".join(f"{p}(?P<t{i}>)" for i, (p, _) in enumerate(branches))
    return re.compile(pattern, re.IGNORECASE | re.DOTALL), tuple(k for _, k in branches)
