"""
The one walk along an exception's chain: what it wraps, and what that wraps.

SQLAlchemy keeps the driver's exception as `.orig`; Django and a
`raise ... from` keep it as `__cause__`; an exception raised while handling
another keeps that one as `__context__`, unless `raise ... from None` said
it does not matter.  Every part of the package that looks for the driver's
exception inside another, or for what was attached to one, walks this one
chain, as Python's traceback shows it: bounded, and safe against cycles (an
exception can be its own context).
"""

from __future__ import annotations

from typing import Final

__all__ = ["CHAIN_LIMIT", "chain", "is_sqlalchemy"]

#: How many links are followed.
CHAIN_LIMIT: Final = 16


def is_sqlalchemy(exc: BaseException) -> bool:
    """Whether *exc* is one of SQLAlchemy's own exceptions (a wrapper of the driver's)."""
    module = type(exc).__module__
    return isinstance(module, str) and module.startswith("sqlalchemy")


def chain(exc: BaseException) -> tuple[BaseException, ...]:
    """
    *exc*, then each exception it wraps, outermost first.

    After each link comes its `.orig` (SQLAlchemy's wrappers keep the
    driver's exception there), else its `__cause__`, else its `__context__` unless
    `__suppress_context__` (`raise ... from None`) is set.  At most
    `CHAIN_LIMIT` links; a link seen before ends the walk.  The links are
    read in one loop, all of them (a chain is a few links; a generator's
    suspensions cost more than reading them).

    Args:
        exc: The outermost exception.

    Returns:
        The links, *exc* first.
    """
    links = [exc]
    seen = {id(exc)}
    current = exc
    while len(links) < CHAIN_LIMIT:
        # SQLAlchemy's `.orig`, or any wrapper's that keeps the original so;
        # one without a readable `.orig` is followed by its `__cause__`.
        try:
            wrapped: object = getattr(current, "orig", None)
        except Exception:  # noqa: BLE001 - a broken `.orig` reads as none
            wrapped = None
        following: BaseException | None
        if isinstance(wrapped, BaseException):
            following = wrapped
        elif current.__cause__ is not None:
            following = current.__cause__
        else:
            following = None if current.__suppress_context__ else current.__context__
        if following is None or id(following) in seen:
            break
        seen.add(id(following))
        links.append(following)
        current = following
    return tuple(links)
