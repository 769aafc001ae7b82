"""
The package's log: each warning once at WARNING, then at DEBUG.

A library logs; the application decides where it goes.  `logging` is
imported on the first warning, not with the package: most processes never
need it, and it is among the costlier standard modules.  The text given here
is logged as it is: `localdata_errors._warn.warn_once` masks what may hold a
credential before it comes here.
"""

from __future__ import annotations

import threading
from typing import Final

__all__ = ["LOGGER_NAME", "log_once"]

LOGGER_NAME: Final = "localdata_errors"

_seen: set[str] = set()
_seen_lock = threading.Lock()


def log_once(key: str, text: str) -> None:
    """
    Log *text* at WARNING the first time *key* is seen, at DEBUG afterwards.

    Args:
        key: What makes two warnings the same one.
        text: The message, logged as it is.
    """
    import logging  # noqa: PLC0415 - see the module's docstring

    with _seen_lock:
        first = key not in _seen
        _seen.add(key)
    logger = logging.getLogger(LOGGER_NAME)
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
    level = logging.WARNING if first else logging.DEBUG
    if logger.isEnabledFor(level):
        logger.log(level, "%s", text)


def forget() -> None:
    """Forget which warnings were logged (tests that expect a first warning call this)."""
    with _seen_lock:
        _seen.clear()
