"""
A regular expression compiled on first use, not when its module is imported.

`import localdata_errors` must stay cheap: the big patterns (the credential
scan, the forms of pasted errors) are compiled by the first call that needs
them.
"""

from __future__ import annotations

import re

__all__ = ["LazyPattern"]


class LazyPattern:
    """
    A pattern's source, compiled by the first `get()`.

    Args:
        pattern: The regular expression.
        flags: `re` flags.
    """

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def get(self) -> re.Pattern[str]:
        """The compiled pattern."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self.flags)
        return compiled
