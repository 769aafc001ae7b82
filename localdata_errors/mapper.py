"""
The contract between the core and a backend: what a mapper receives and returns.

The two records are named tuples: immutable, picklable, cheap to build (they
are built on every classification), and free of import-time cost.

A backend is mostly data: it reads the native code the driver put on the
exception, looks it up in a table of :class:`~localdata_errors.Kind` values,
and names the objects involved.  Everything else (category, retry decision,
suggestion, shapes, redaction) is the core's job.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from typing import ClassVar, NamedTuple

from localdata_errors.kinds import Kind

__all__ = ["DatabaseErrorMapper", "ErrorInput", "MappedError", "driver_attr", "driver_attrs"]


def driver_attr(obj: object, name: str, default: object = None) -> object:
    """
    ``getattr(obj, name, default)`` that never raises: a driver's attribute, read safely.

    A driver's exception can compute an attribute on access, and that can
    fail (a diagnostic of a result already released, a wrapper's broken
    property): such an attribute reads as absent.  The value is returned as
    is: check its type before using it.  A plain ``try``, no more: mappers
    call this on every classification.

    Args:
        obj: The driver's exception (or an object it carries).
        name: The attribute.
        default: What an absent or failing attribute reads as.

    Returns:
        The attribute's value, or *default*.

    .. versionadded:: 0.1.0
    """
    try:
        return getattr(obj, name, default)
    except Exception:  # noqa: BLE001 - any failure means "not available"
        return default


def driver_attrs(obj: object, names: tuple[str, ...]) -> tuple[object, ...]:
    """
    :func:`driver_attr` for each of *names*: the values a mapper reads, as a
    :meth:`DatabaseErrorMapper.cache_key`.

    .. versionadded:: 0.1.0
    """
    return tuple([driver_attr(obj, name) for name in names])


class ErrorInput(NamedTuple):
    """
    What a mapper is asked to classify.

    Attributes:
        exception: The driver's exception, already unwrapped from SQLAlchemy,
            Django or a ``__cause__`` chain; ``None`` when only text is known
            (:func:`~localdata_errors.classify_message`).
        message: The exception's text, safe to read: never raises, bounded in
            length, SQLAlchemy's ``[SQL: ...]`` trailer removed. Not yet
            redacted; the core redacts whatever the mapper returns.
        code: A native code the caller passed explicitly (``classify_message(...,
            code=...)``), as given.
        driver: The top-level module of the driver that raised (``psycopg``,
            ``pymysql``, ...), ``None`` when unknown.
        connection_invalidated: A wrapper (SQLAlchemy) already judged that the
            connection is gone.

    .. versionadded:: 0.1.0
    """

    exception: BaseException | None
    message: str
    code: str | int | None = None
    driver: str | None = None
    connection_invalidated: bool = False


class MappedError(NamedTuple):
    """
    A mapper's answer.

    Attributes:
        kind: The fine-grained reason; :attr:`Kind.UNKNOWN` lets the generic
            keyword fallback choose a kind while the code below is kept.
        code: The most specific native code (SQLSTATE, errno, ``ORA-00942``,
            SQL Server number, SQLite extended result name).
        sqlstate: The SQLSTATE, where the driver reported one.
        affected_resources: Names the error involves, unqualified and unquoted.
        dependencies: What must change first.
        constraint: The constraint's name.
        schema: The schema a qualified name carried.
        message: The message to show, when ``str(exception)`` is not the
            driver's own text (e.g. a stack where one line is the cause).
        retryable: Overrides the Kind table's decision for this one error;
            leave ``None`` unless the driver says something the kind can't.

    .. versionadded:: 0.1.0
    """

    kind: Kind
    code: str | None = None
    sqlstate: str | None = None
    affected_resources: tuple[str, ...] = ()
    dependencies: tuple[str, ...] = ()
    constraint: str | None = None
    schema: str | None = None
    message: str | None = None
    retryable: bool | None = None


class DatabaseErrorMapper(ABC):
    """
    Base class of every backend mapper, built-in or third-party.

    Subclasses set :attr:`name`, optionally :attr:`aliases` and
    :attr:`driver_modules`, and implement :meth:`map_error`.  ``map_error``
    must be fast and pure: no I/O, no blocking, no global state.  It may
    raise (the core isolates it and answers with the fallback), but it should
    return ``None`` for what it does not recognise.

    .. versionadded:: 0.1.0
    """

    #: The backend's canonical name (``postgresql``, ``mysql``, ...).
    name: ClassVar[str] = ""
    #: Other names ``db_type`` may use for this backend.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Module prefixes of the drivers whose exceptions this mapper reads
    #: (``psycopg``, ``mysql.connector``); used to detect the backend.
    driver_modules: ClassVar[tuple[str, ...]] = ()
    #: A human-readable name for listings and docs.
    display_name: ClassVar[str] = ""

    @abstractmethod
    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one error.

        Args:
            error: The exception and its text.

        Returns:
            The kind and details, or ``None`` when this mapper does not
            recognise the error (the generic fallback answers then).
        """

    def cache_key(self, error: ErrorInput) -> Hashable | None:
        """
        What, besides the exception's class, its text and the explicit code,
        decides this mapper's answer; ``None`` when the answer may not be remembered.

        The core remembers a bounded number of answers, keyed on the mapper,
        the exception's class, ``error.message``, ``error.code`` and this
        value, and answers a repeated error from memory.  Return the driver
        attributes :meth:`map_error` reads (an errno, a SQLSTATE, the server's
        diagnostic fields), as a tuple of hashable values, read the way
        :meth:`map_error` reads them: some drivers' attributes are unsafe to
        read on an exception they did not fill.  The default, ``None``,
        never remembers: correct for any mapper, only slower.

        Args:
            error: The exception and its text.

        Returns:
            A hashable value, or ``None``.

        .. versionadded:: 0.1.0
        """
        return None

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        The native codes this mapper claims to classify, and the kind of each.

        The compliance suite (:mod:`localdata_errors.testing`) checks that each
        is really classified so; the docs list them.

        Returns:
            A mapping from native code (as it appears in
            ``database_error_code``) to kind; empty by default.
        """
        return {}
