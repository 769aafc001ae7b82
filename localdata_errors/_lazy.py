"""
Regular expressions compiled on first use, and the case folding they read.

`import localdata_errors` must stay cheap: the big patterns (the credential
scan, the forms of pasted errors) are compiled by the first call that needs
them.  Patterns written in lower case read a text through `fold`, which
equates what `re.IGNORECASE` would at a fraction of its cost.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Final

__all__ = ["FOLDED_LETTERS", "LazyPattern", "Literals", "fold", "literal_trie"]

# The non-ASCII characters that Python's re.IGNORECASE equates with an ASCII
# letter (tests/test_redaction_units.py derives this table from the re module
# over all of Unicode).  str.lower() leaves the long s and the dotless i alone
# and turns the dotted capital I into two characters; replacing these four first
# keeps the folded text exactly as long as the original, so positions found in
# one are positions in the other.
FOLDED_LETTERS: Final = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}


def fold(text: str) -> str:
    """*text* in lower case, as long as it is, with what `re.IGNORECASE` equates with ASCII."""
    if text.isascii():
        return text.lower()
    for char, letter in FOLDED_LETTERS.items():
        if char in text:
            text = text.replace(char, letter)
    return text.lower()


class LazyPattern:
    """
    A pattern's source, compiled by the first `get()`.

    Args:
        pattern: The regular expression, or a function that writes it (for a
            source that is itself built from tables: built on first use too).
        flags: `re` flags.
    """

    __slots__ = ("_compiled", "_source", "flags")

    def __init__(self, pattern: str | Callable[[], str], flags: int = 0) -> None:
        self._source = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def pattern(self) -> str:
        """The regular expression's source."""
        source = self._source
        if not isinstance(source, str):
            source = self._source = source()
        return source

    def get(self) -> re.Pattern[str]:
        """The compiled pattern."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self.flags)
        return compiled


def literal_trie(literals: list[str]) -> str:
    """
    One pattern of the literals, their shared prefixes factored.

    The engine then tries one branch per character, not one per literal (a
    plain alternation of literals costs one try per literal at every
    position).  At a position it matches the longest literal there: a caller
    that needs the shorter ones too looks inside each match.
    """
    tree: dict[str, dict] = {}  # type: ignore[type-arg]  # a tree of characters
    for literal in literals:
        node = tree
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:  # type: ignore[type-arg]
        ends = "" in node
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends:
            return f"(?:{body})?" if len(branches) == 1 else body + "?"
        return body

    return emit(tree)


class Literals:
    """
    Which of a set of literals a text holds, each standing for some numbers.

    One search of one pattern (`literal_trie`) finds every literal's start,
    overlaps included: each search starts one past the last hit's start, and
    the shorter literals inside a hit are in the text too.  The text is
    searched at C speed, however many literals there are; a literal's numbers
    (rules, signs, entries: whatever the caller indexes) are what is found.

    Args:
        pairs: (literal, number) pairs; a literal may stand for several numbers.
    """

    __slots__ = ("_inside", "_numbers", "_pattern")

    def __init__(self, pairs: Iterable[tuple[str, int]]) -> None:
        numbers: dict[str, tuple[int, ...]] = {}
        for literal, number in pairs:
            numbers[literal] = (*numbers.get(literal, ()), number)
        self._numbers = numbers
        self._pattern = LazyPattern(lambda: literal_trie(sorted(numbers)))
        # A hit (itself a literal) -> the numbers of every literal inside it.
        self._inside: dict[str, frozenset[int]] = {}

    def found(self, text: str) -> set[int]:
        """The numbers of every literal *text* holds."""
        found: set[int] = set()
        if not self._numbers:
            return found
        search = self._pattern.get().search
        hit = search(text)
        while hit is not None:
            literal = hit.group()
            inside = self._inside.get(literal)
            if inside is None:
                inside = self._inside[literal] = frozenset(
                    n for other, ns in self._numbers.items() if other in literal for n in ns
                )
            found |= inside
            hit = search(text, hit.start() + 1)
        return found
