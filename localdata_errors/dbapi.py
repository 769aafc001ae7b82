"""
Whether an exception is a database's: the one test every layer uses.

A tool server, an agent framework's adapter and a retry loop all need to
tell a database error (classify it, perhaps retry it) from a bug in the
code around it (let it propagate).  They ask `is_database_error`, which
imports no driver: it reads the exception's classes, what the registered
backends claim, and the chain of exceptions it was raised from.
"""

from __future__ import annotations

from typing import Final

from localdata_errors._chain import chain
from localdata_errors._registry import ErrorMapperRegistry

__all__ = ["PEP249_NAMES", "is_database_error"]

#: PEP 249's exception names: a driver no backend claims still names its
#: errors so (SQLAlchemy's and Django's wrappers do too).  Every error a
#: driver raises derives from `DatabaseError` or `InterfaceError`; the bare
#: name `Error` is left out, since binascii, csv, shutil and others name
#: their errors so too.
PEP249_NAMES: Final = frozenset(
    {
        "DatabaseError",
        "InterfaceError",
        "OperationalError",
        "ProgrammingError",
        "IntegrityError",
        "DataError",
        "InternalError",
        "NotSupportedError",
        "DBAPIError",
    }
)
# Database layers whose every exception is a database error, whatever its
# name (SQLAlchemy's pool timeout, Django's TransactionManagementError).
_DATABASE_MODULES: Final = ("sqlalchemy.", "django.db.", "sqlite3", "_sqlite3")
# How far down the chain of causes to look: far enough for a framework's
# wrapper of a wrapper, bounded against a chain built in a loop.


def _is_one(exc: BaseException) -> bool:
    if ErrorMapperRegistry.claim_for_type(type(exc)) is not None:
        return True
    for klass in type(exc).__mro__:
        module = klass.__module__ if isinstance(klass.__module__, str) else ""
        if module == "builtins":
            continue
        if klass.__name__ in PEP249_NAMES or module.startswith(_DATABASE_MODULES):
            return True
    return False


def is_database_error(
    exc: BaseException, extra_types: tuple[type[BaseException], ...] = ()
) -> bool:
    """
    Whether *exc* is, or was raised from, a database driver's error.

    True for an exception a registered backend claims; for one whose class
    carries a PEP 249 name (`OperationalError`, `DatabaseError`, ...; not
    the bare `Error`) outside the builtins, or comes from SQLAlchemy,
    Django's database layer or `sqlite3`; for one of *extra_types*; and for
    an exception raised from one of those, as Python's traceback would show
    it: its `__cause__` (`raise ToolError(...) from exc`), else its
    `__context__` unless `raise ... from None` suppressed it, and
    SQLAlchemy's `.orig`.

    Args:
        exc: Any exception.
        extra_types: More classes to treat as database errors.

    Returns:
        Whether to treat it as a database error; a bug in the code around
        the database (a `KeyError`, a `TypeError`) is not one.  Never raises.
    """
    return any(
        (extra_types and isinstance(link, extra_types)) or _is_one(link) for link in chain(exc)
    )
