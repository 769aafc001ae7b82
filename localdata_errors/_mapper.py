"""
The contract between the core and a backend: what a mapper receives and returns.

The two records are named tuples: immutable, picklable, cheap to build (they
are built on every classification), and free of import-time cost.

A backend is mostly data: it reads the native code the driver put on the
exception, looks it up in a table of `Kind` values,
and names the objects involved.  Everything else (category, retry decision,
suggestion, shapes, redaction) is the core's job.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each
# string annotation into a ForwardRef (about 1 ms of the package's import in all).

from abc import ABC, abstractmethod
from collections.abc import Container, Mapping
from typing import ClassVar, Final, NamedTuple

from localdata_errors._kinds import KIND_TABLE, ErrorCategory, Kind, RetrySafety
from localdata_errors._response import StructuredErrorResponse, builder

__all__ = [
    "ANY_KIND",
    "PROXY_KINDS",
    "BackendMapper",
    "DatabaseErrorMapper",
    "ErrorInput",
    "ErrorRefiner",
    "MappedError",
    "RefinerClaims",
    "TextSign",
    "answer_problems",
    "driver_attr",
    "new_mapped_error",
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


#: Builds a `MappedError` by keyword, as calling the class does, at a third of
#: the cost (see `localdata_errors._response.builder`): mappers answer with it.
new_mapped_error: Final = builder(MappedError)

#: Every kind: `MappedError.refine` for "the keyword fallback may choose any".
ANY_KIND: Final[frozenset[Kind]] = frozenset(Kind)

#: The types each field of a `MappedError` may hold, in field order.
_FIELD_TYPES: Final[tuple[tuple[str, tuple[type, ...]], ...]] = (
    ("kind", (Kind,)),
    ("code", (str, type(None))),
    ("sqlstate", (str, type(None))),
    ("affected_resources", (tuple,)),
    ("dependencies", (tuple,)),
    ("constraint", (str, type(None))),
    ("schema", (str, type(None))),
    ("message", (str, type(None))),
    ("retryable", (bool, type(None))),
    ("refine", (frozenset, type(None))),
    ("retry_safety", (RetrySafety, type(None))),
    ("retry_after_ms", (int, type(None))),
    ("suggestion", (str, type(None))),
)


def answer_problems(result: object) -> list[str]:
    """
    What is wrong with a mapper's answer, field by field.

    The core trusts an answer only when this finds nothing (otherwise the
    keyword fallback answers, as if the mapper had raised), and the
    compliance suite (`localdata_errors.testing`) reports the same problems.

    Args:
        result: What `BackendMapper.map_error` or `ErrorRefiner.refine_error`
            returned.

    Returns:
        One line per problem; empty for `None` and for a well-formed `MappedError`.
    """
    if result is None:
        return []
    if not isinstance(result, MappedError):
        return [f"returned {type(result).__name__}, not a MappedError"]
    problems = []
    for (name, allowed), value in zip(_FIELD_TYPES, result, strict=True):
        if not isinstance(value, allowed) or (name == "retry_after_ms" and value is True):
            problems.append(f"{name} is {type(value).__name__}")
        elif isinstance(value, tuple) and not all(isinstance(item, str) for item in value):
            problems.append(f"{name} holds something that is not a str")
        elif isinstance(value, frozenset) and not all(isinstance(k, Kind) for k in value):
            problems.append(f"{name} holds something that is not a Kind")
    return problems


#: The kinds a base backend gives the errors of a proxy or pooler in front of
#: it (PgBouncer, Supavisor, Neon's proxy): connection, login and resource
#: failures, an internal error (proxies send their own errors under
#: PostgreSQL's XX000), and what it does not recognise.  For
#: `RefinerClaims.kinds`.
PROXY_KINDS: Final[frozenset[Kind]] = frozenset(
    {
        kind
        for kind, info in KIND_TABLE.items()
        if info.category
        in (ErrorCategory.CONNECTION_ERROR, ErrorCategory.AUTH_ERROR, ErrorCategory.RESOURCE_ERROR)
    }
    | {Kind.UNKNOWN, Kind.INTERNAL_ERROR}
)


class RefinerClaims(NamedTuple):
    """
    What a refiner claims: the core asks it only about errors that match.

    The core looks each error up once, for every refiner of a backend at
    once: its native codes (the base answer's code and SQLSTATE, and an
    explicit `code`) and the module of the driver's exception class in two
    dictionaries; then, only for the refiners whose `kinds` hold the base
    answer's kind, whether the message holds one of their `markers`.  A
    refiner whose claims match nothing is not asked, so it costs nothing on
    the errors of its base that are not its own.

    Attributes:
        codes: Native codes, as the base answer reports them (`40001`, `8027`).
        driver_modules: Module prefixes of exception classes only this system raises.
        markers: Literal texts that only this system's messages hold,
            matched without regard to case (`restart transaction`).
        kinds: The base answer's kinds among which the markers are looked
            for (a pooler's messages reach the base backend as connection
            or login failures, or as nothing it recognises: `Kind.UNKNOWN`,
            which also stands for no base answer at all); empty: among
            every kind, which costs a search of every message.
    """

    codes: frozenset[str] = frozenset()
    driver_modules: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()
    kinds: frozenset[Kind] = frozenset()


class TextSign(NamedTuple):
    """
    One way a backend's errors are printed that names the backend in a text.

    `classify_message` without `db_type` reads a pasted text for signs of
    its backend: a driver's vendor prefix (`[Databricks][JDBCDriver]`), an
    API client's format (`googleapi: Error 404: `), an error class in the
    backend's own list (`[TABLE_OR_VIEW_NOT_FOUND]`).  A mapper declares
    its signs as data (`BackendMapper.text_signs`); the core looks them up
    beside its own, and the first sign in the text names the backend.

    Attributes:
        pattern: A regular expression of the sign; a group `c`, where it
            has one, holds a native code that `known` must hold.
        triggers: Literal texts every match holds one of (case counts): the
            pattern is tried only on a text that holds one.
        known: The backend's codes (a set, or a mapping's keys); a match
            whose `c` group is not among them is no sign.  `None`: every
            match is one.
    """

    pattern: str
    triggers: tuple[str, ...]
    known: Container[str] | None = None


class BackendMapper(ABC):
    """
    Base class of every backend's mapper, built-in or third-party.

    Subclasses set `name`, optionally `aliases` and `driver_modules`, and
    implement `map_error`.  `map_error` must be fast and pure: no I/O, no
    blocking, no global state.  It may raise (the core isolates it and
    answers with the fallback), but it should return `None` for what it does
    not recognise.
    """

    #: The backend's canonical name (`postgresql`, `mysql`, ...).
    name: ClassVar[str] = ""
    #: Other names `db_type` may use for this backend.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Module prefixes of the drivers whose exceptions this mapper reads
    #: (`psycopg`, `mysql.connector`); used to detect the backend.
    driver_modules: ClassVar[tuple[str, ...]] = ()
    #: A human-readable name for listings and docs.
    display_name: ClassVar[str] = ""
    #: How this backend's errors are printed where a text names it (see `TextSign`).
    text_signs: ClassVar[tuple[TextSign, ...]] = ()

    @abstractmethod
    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one error.

        Args:
            error: The exception and its text.

        Returns:
            The kind and details, or `None` when this mapper does not
            recognise the error (the generic fallback answers then).
        """

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        The native codes this mapper claims to classify, and the kind of each.

        The compliance suite (`localdata_errors.testing`) checks that each
        is really classified so; the docs list them.

        Returns:
            A mapping from native code (as it appears in
            `database_error_code`) to kind; empty by default.
        """
        return {}


class ErrorRefiner(BackendMapper):
    """
    A system that speaks another backend's protocol, refining that backend's answer.

    CockroachDB and Neon speak PostgreSQL's protocol through PostgreSQL's
    drivers, TiDB MySQL's, and a pooler (PgBouncer) stands in front of
    PostgreSQL: their errors reach the base backend's mapper first.  A
    refiner names the backends it refines (`refines`), declares what it
    claims (`claims`: codes, driver modules, message markers) and implements
    `refine_error`, which sees the base mapper's answer and returns a better
    one for the errors it recognises as its own, or `None`.

    The core asks a refiner only about the errors its claims match, so a
    refiner costs nothing on the others; the compliance suite checks that it
    never refines an error its claims do not match.  It composes with the
    base mapper in two ways:

    - **Detected**: an exception claimed by a base backend (a psycopg error,
      say) is mapped by the base mapper; then each refiner of that backend
      whose claims match is asked, in registration order; the first answer
      that is not `None` wins, and the response's `backend` is the
      refiner's name.
    - **Named**: `classify_error(exc, db_type="cockroachdb")` runs the base
      mapper (the first of `refines` that is registered) and then this
      refiner's `refine_named`, whatever its claims; its answer wins when it
      gives one, and the response's `backend` is the refiner's name either way.

    The core never calls a refiner's `map_error`.
    """

    #: The canonical names of the backends whose answers this refiner refines.
    refines: ClassVar[tuple[str, ...]] = ()
    #: What this refiner claims (see `RefinerClaims`).
    claims: ClassVar[RefinerClaims] = RefinerClaims()

    @abstractmethod
    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Refine the base backend's answer to one error.

        Must be fast and pure, like `BackendMapper.map_error`.

        Args:
            error: The exception and its text.
            base: The base mapper's answer (`None` when it recognised nothing).

        Returns:
            The refined answer, or `None` to keep the base's.
        """

    def refine_named(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Refine the base backend's answer when the caller named this system.

        The caller said the error is this system's (`db_type="tidb"`), so
        what only hints at it elsewhere may decide here; by default, the same
        as `refine_error`.

        Args:
            error: The exception and its text.
            base: The base mapper's answer (`None` when it recognised nothing).

        Returns:
            The refined answer, or `None` to keep the base's.
        """
        return self.refine_error(error, base)

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Not called: a refiner answers through `refine_error`, after its base.

        Args:
            error: The exception and its text.

        Returns:
            `None`.
        """
        return None


class DatabaseErrorMapper(ABC):
    """
    A mapper written to localdata-mcp's contract: the exception in, the whole answer out.

    localdata-mcp's plugin guide runs unchanged but for the import path:

    ```python
    from localdata_errors import (
        DatabaseErrorMapper, ErrorCategory, ErrorMapperRegistry,
        GenericDatabaseErrorMapper, StructuredErrorResponse,
    )

    class MyDBErrorMapper(DatabaseErrorMapper):
        def map_error(self, exception: Exception) -> StructuredErrorResponse:
            if "duplicate" in str(exception).lower():
                return StructuredErrorResponse(
                    error_type=ErrorCategory.CONSTRAINT_ERROR,
                    message=str(exception),
                    suggestion="Check for duplicate values.",
                )
            return GenericDatabaseErrorMapper().map_error(exception)

    ErrorMapperRegistry.register("mydb", MyDBErrorMapper())
    ```

    Such a mapper is reached by its registered name (`db_type="mydb"`); the
    core completes its answer (a kind that fits its category, the next
    step, masking) as for any other.  A backend written for this library
    subclasses `BackendMapper` instead: it is detected from the driver, and
    reports codes and names the core builds on.
    """

    @abstractmethod
    def map_error(self, exception: Exception) -> StructuredErrorResponse:
        """
        Classify one exception.

        Args:
            exception: The exception (`classify_message` passes an
                `Exception` carrying the text).

        Returns:
            The answer.
        """
