"""
The contract between the core and a backend: what a mapper receives and returns.

The two records are named tuples: immutable, picklable, cheap to build (they
are built on every classification), and free of import-time cost.

A backend is mostly data: it reads the native code the driver put on the
exception, looks it up in a table of `Kind` values,
and names the objects involved.  Everything else (category, retry decision,
suggestion, shapes, redaction) is the core's job.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar, Final, NamedTuple

from localdata_errors.kinds import Kind, RetrySafety

__all__ = [
    "ANY_KIND",
    "DatabaseErrorMapper",
    "ErrorInput",
    "ErrorRefiner",
    "MappedError",
    "driver_attr",
]


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
    """
    try:
        return getattr(obj, name, default)
    except Exception:  # noqa: BLE001 - any failure means "not available"
        return default


class ErrorInput(NamedTuple):
    """
    What a mapper is asked to classify.

    Attributes:
        exception: The driver's exception, already unwrapped from SQLAlchemy,
            Django or a ``__cause__`` chain; ``None`` when only text is known
            (`classify_message`).
        message: The exception's text, safe to read: never raises, bounded in
            length, SQLAlchemy's ``[SQL: ...]`` trailer removed. Not yet
            redacted; the core redacts whatever the mapper returns.
        code: A native code the caller passed explicitly (``classify_message(...,
            code=...)``), as given.
        driver: The top-level module of the driver that raised (``psycopg``,
            ``pymysql``, ...), ``None`` when unknown.
        connection_invalidated: A wrapper (SQLAlchemy) already judged that the
            connection is gone.
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
        kind: The fine-grained reason; `Kind.UNKNOWN` lets the generic
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
            An override to `True` on a kind that is not retried makes the
            next step `retry` (`idempotent_only`); to `False` on a kind that
            is retried makes it `stop`.  To stop on a kind the model could
            fix, choose a kind whose next step is `stop` (`quota_exceeded`,
            `configuration_limit_exceeded` is `fix_query`).
        refine: The kinds the keyword fallback may choose instead of `kind`
            (the backend knows the code's family but not the exact kind);
            `None`: the fallback decides only when `kind` is
            `Kind.UNKNOWN`, among every kind (`ANY_KIND`).
        retry_safety: Overrides the kind's retry safety for this one error
            (a closed connection used again: nothing was sent, `safe`).
        retry_after_ms: How long to wait before retrying, when the server
            says (Azure SQL's "retry after 10 s").
        suggestion: What to do, where this error says more than its kind's
            suggestion can (the setting that fixes a pooler's refusal); the
            kind's suggestion otherwise.  Masked like every other field.
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
    refine: frozenset[Kind] | None = None
    retry_safety: RetrySafety | None = None
    retry_after_ms: int | None = None
    suggestion: str | None = None


#: Every kind: `MappedError.refine` for "the keyword fallback may choose any".
ANY_KIND: Final[frozenset[Kind]] = frozenset(Kind)


class DatabaseErrorMapper(ABC):
    """
    Base class of every backend mapper, built-in or third-party.

    Subclasses set `name`, optionally `aliases` and
    `driver_modules`, and implement `map_error`.  ``map_error``
    must be fast and pure: no I/O, no blocking, no global state.  It may
    raise (the core isolates it and answers with the fallback), but it should
    return ``None`` for what it does not recognise.
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

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        The native codes this mapper claims to classify, and the kind of each.

        The compliance suite (`localdata_errors.testing`) checks that each
        is really classified so; the docs list them.

        Returns:
            A mapping from native code (as it appears in
            ``database_error_code``) to kind; empty by default.
        """
        return {}


class ErrorRefiner(DatabaseErrorMapper):
    """
    A system that speaks another backend's protocol, refining that backend's answer.

    CockroachDB and Neon speak PostgreSQL's protocol through PostgreSQL's
    drivers, TiDB MySQL's, and a pooler (PgBouncer) stands in front of
    PostgreSQL: their errors reach the base backend's mapper first.  A
    refiner names the backends it refines (`refines`) and implements
    `refine_error`, which sees the base mapper's answer and returns a better
    one for the errors it recognises as its own (its codes, its texts), or
    `None`.

    It composes with the base mapper in two ways:

    - **Detected**: an exception claimed by a base backend (a psycopg error,
      say) is mapped by the base mapper; then every refiner of that backend
      is asked, in registration order; the first answer that is not `None`
      wins, and the response's `backend` is the refiner's name.
    - **Named**: `classify_error(exc, db_type="cockroachdb")` runs the base
      mapper (the first of `refines` that is registered) and then this
      refiner, whose answer wins when it gives one; the response's
      `backend` is the refiner's name either way.
    """

    #: The canonical names of the backends whose answers this refiner refines.
    refines: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Refine the base backend's answer to one error.

        Must be fast and pure, like `DatabaseErrorMapper.map_error`, and
        return `None` quickly for errors that are not this system's.

        Args:
            error: The exception and its text.
            base: The base mapper's answer (`None` when it recognised nothing).

        Returns:
            The refined answer, or `None` to keep the base's.
        """

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        The base backend's answer, refined: used when this refiner is named.

        Args:
            error: The exception and its text.

        Returns:
            `refine_error`'s answer, else the base mapper's.
        """
        from localdata_errors.registry import ErrorMapperRegistry  # noqa: PLC0415 - a cycle

        base: MappedError | None = None
        for name in self.refines:
            mapper = ErrorMapperRegistry.lookup(name)
            if mapper is not None and mapper is not self:
                base = mapper.map_error(error)
                break
        refined = self.refine_error(error, base)
        return base if refined is None else refined
