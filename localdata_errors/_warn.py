"""
`warn_once`: a warning whose text is masked before it is logged.

Its arguments are often exceptions, whose text may echo a statement with a
password in it, and a log handler would otherwise format them unmasked: the
message is formatted here, each argument masked on its own first (before
`%r` escapes its quotes), the result cut to `WARNING_LIMIT` characters and
masked again.
"""

from __future__ import annotations

from typing import Final

from localdata_errors._log import log_once
from localdata_errors._redact import redact

__all__ = ["WARNING_LIMIT", "warn_once"]

#: How much of a warning is kept: it is cut to this, then masked.
WARNING_LIMIT: Final = 2000


def warn_once(key: str, msg: str, *args: object) -> None:
    """
    Log *msg* % *args*, masked, at WARNING the first time *key* is seen.

    Args:
        key: What makes two warnings the same one.
        msg: A `%`-format string (the package's own text).
        *args: Its arguments: numbers as they are, anything else masked.
    """
    log_once(key, redact(_format(msg, args), limit=WARNING_LIMIT))


class _Masked:
    """An argument shown masked: its text is masked before %r escapes its quotes."""

    __slots__ = ("_repr", "_str")

    def __init__(self, value: object) -> None:
        try:
            text = str(value)
        except Exception:  # noqa: BLE001 - an unprintable value is shown by its type
            text = f"<{type(value).__name__}>"
        self._str = redact(text, limit=WARNING_LIMIT)
        if isinstance(value, BaseException):
            self._repr = f"{type(value).__name__}({self._str!r})"
        elif isinstance(value, str):
            self._repr = repr(self._str)
        else:
            try:
                self._repr = redact(repr(value), limit=WARNING_LIMIT)
            except Exception:  # noqa: BLE001 - as above
                self._repr = f"<{type(value).__name__}>"

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return self._repr


def _format(msg: str, args: tuple[object, ...]) -> str:
    # Numbers keep their type for %d; anything else is masked on its own first.
    shown = tuple(a if a is None or isinstance(a, int | float) else _Masked(a) for a in args)
    try:
        return msg % shown if shown else msg
    except Exception:  # noqa: BLE001 - a message that does not format is logged bare
        return f"{msg} (arguments could not be rendered)"
