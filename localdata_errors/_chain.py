"""
The one walk along an exception's chain: what it wraps, and what that wraps.

SQLAlchemy keeps the driver's exception as `.orig`; Django and a
`raise ... from` keep it as `__cause__`; an exception raised while handling
another keeps that one as `__context__`.  Every part of the package that
looks for the driver's exception inside another walks this one chain:
bounded, and safe against cycles (an exception can be its own context).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from typing import Final

__all__ = ["CHAIN_LIMIT", "chain", "is_sqlalchemy"]

#: How many links are followed.
CHAIN_LIMIT: Final = 16


def is_sqlalchemy(exc: BaseException) -> bool:
    """Whether *exc* is one of SQLAlchemy's own exceptions (a wrapper of the driver's)."""
    module = type(exc).__module__
    return isinstance(module, str) and module.startswith("sqlalchemy")


def chain(exc: BaseException, *, causes_only: bool = False) -> Iterator[BaseException]:
    """
    *exc*, then each exception it wraps, outermost first.

    After each link comes SQLAlchemy's `.orig` (for SQLAlchemy's own
    exceptions), else its `__cause__`, else (unless *causes_only*) its
    `__context__`.  At most `CHAIN_LIMIT` links; a link seen before ends
    the walk.

    Args:
        exc: The outermost exception.
        causes_only: Follow `.orig` and `__cause__` only: what was raised
            *from* what, not what happened while handling what.

    Yields:
        The links, *exc* first.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    for _ in range(CHAIN_LIMIT):
        if current is None or id(current) in seen:
            return
        seen.add(id(current))
        yield current
        wrapped: object = None
        if is_sqlalchemy(current):
            # A wrapper without a readable .orig is followed by its __cause__.
            with suppress(Exception):
                wrapped = current.orig  # type: ignore[attr-defined]
        if isinstance(wrapped, BaseException):
            current = wrapped
        elif causes_only:
            current = current.__cause__
        else:
            current = current.__cause__ or current.__context__
