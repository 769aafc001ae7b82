"""
The one way into sqlglot: imported on first use, its log records kept to itself.

sqlglot is an optional dependency (the ``mcp`` and ``history`` extras); the
core never imports it.  While it parses for this package it may log the
statement it could not fully parse (``'<sql>' contains unsupported
syntax``), and a statement can carry a password (``CREATE USER u
IDENTIFIED BY 'secret'``): records emitted during a parse made here are
dropped, on the parsing thread only, so an application's own use of sqlglot
keeps its logging.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = ["available", "parse", "quiet", "sqlglot"]

_state = threading.local()
_installed = False
_install_lock = threading.Lock()


class _DropOwnParses:
    """
    Drop sqlglot's records emitted while this thread parses for this package.

    A logging filter (any object with a `filter` method will do): `logging`
    itself is imported with sqlglot, not with this package.
    """

    def filter(self, record: object) -> bool:
        return not getattr(_state, "depth", 0)


def _install_filter() -> None:
    global _installed  # noqa: PLW0603 - installed once per process
    with _install_lock:
        if _installed:
            return
        import logging  # noqa: PLC0415 - sqlglot has imported it by now

        # Every sqlglot module logs through the one "sqlglot" logger, and a
        # logger's filter sees the records created on it.
        logging.getLogger("sqlglot").addFilter(_DropOwnParses())
        _installed = True


def sqlglot() -> ModuleType | None:
    """
    The sqlglot module, or ``None`` when it is not installed.

    Returns:
        The imported module.
    """
    try:
        import sqlglot as module  # noqa: PLC0415 - optional, imported on first use
    except ImportError:
        return None
    _install_filter()
    return module


def available() -> bool:
    """Whether sqlglot can be imported."""
    return sqlglot() is not None


@contextmanager
def quiet() -> Iterator[None]:
    """Drop sqlglot's log records on this thread while the block runs."""
    _install_filter()
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1


def parse(sql: str, dialect: str | None, *, partial: bool = False) -> list[Any]:
    """
    Parse *sql* (one or more statements) in *dialect*, without logging it.

    Args:
        sql: The text.
        dialect: A sqlglot dialect name (see ``localdata_errors._backends``),
            or ``None`` for sqlglot's default.
        partial: The text was cut short: return what sqlglot makes of it
            instead of raising at its unfinished end.

    Returns:
        The parsed expressions, one per statement (``None`` entries for
        empty statements are kept, as sqlglot returns them).

    Raises:
        ImportError: sqlglot is not installed.
        sqlglot.errors.SqlglotError: The text cannot be parsed.
    """
    module = sqlglot()
    if module is None:
        raise ImportError("sqlglot is not installed (pip install 'localdata-errors[mcp]')")
    with quiet():
        if partial:
            level = module.errors.ErrorLevel.IGNORE
            return list(module.parse(sql, read=dialect, error_level=level))
        return list(module.parse(sql, read=dialect))
