"""
`classify_error` and its shorthands: any database exception in, one answer out.

An error passes through four steps, each a function of this module, once
and downward:

1. **read**: who claims the exception (its class names the backend and the
   driver), the driver's exception inside any wrapper, and its text;
2. **map**: the backend's mapper reads the native code and the names, a
   refiner that claims the error refines that, and the keyword fallback
   answers what no mapper recognised;
3. **decide**: the Kind table says what follows from the kind (category,
   next step, retry safety), and what the driver says beyond the kind
   overrides it;
4. **mask**: the message, the names and the suggestion are proven free of
   credentials in one pass, or masked.

Nothing in it may raise: a mapper that fails is logged once and the keyword
fallback answers; anything else that fails yields a plain `unknown` answer
carrying whatever text could be read.  Nothing is remembered between calls.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from localdata_errors._backends import PYTHONS_OWN_MODULES, normalize_db_type
from localdata_errors._chain import chain, is_sqlalchemy
from localdata_errors._kinds import (
    KIND_TABLE,
    RECOVERABLE_BY_DRIVER,
    Action,
    ErrorCategory,
    Kind,
    KindInfo,
    RetrySafety,
    render_suggestion,
)
from localdata_errors._lazy import LazyPattern
from localdata_errors._mapper import (
    BackendMapper,
    DatabaseErrorMapper,
    ErrorInput,
    ErrorRefiner,
    MappedError,
    answer_problems,
    driver_attr,
    new_mapped_error,
)
from localdata_errors._prisma_kinds import is_prisma_code
from localdata_errors._redact import (
    credentials_in,
    credentials_in_statement,
    may_hold_secret,
    normalize_secrets,
    redact,
    redact_name,
    redact_reading,
)
from localdata_errors._registry import Claim, Mapper, MapperRegistry, Standing, default_registry
from localdata_errors._response import StructuredErrorResponse, builder
from localdata_errors._warn import warn_once
from localdata_errors.backends.generic import generic_answer, keyword_answer, keyword_kind
from localdata_errors.backends.network import network_error

if TYPE_CHECKING:
    from localdata_errors._detect import Detected

__all__ = [
    "MESSAGE_LIMIT",
    "SCAN_LIMIT",
    "classify_error",
    "classify_message",
    "get_error_suggestion",
    "is_error_retryable",
    "safe_text",
    "unwrap",
]

#: How much of a message is classified; drivers put the reason first.
SCAN_LIMIT: Final = 16 * 1024
#: How much of a message is returned.
MESSAGE_LIMIT: Final = 8 * 1024
_TEXT_LIMIT: Final = SCAN_LIMIT + MESSAGE_LIMIT
#: How far past the cut a message is masked, so a secret straddling it is caught.
_MASK_MARGIN: Final = 1024

# SQLAlchemy appends the statement, the parameters and a link to the message.
# Compiled on first use: only a wrapper's text needs them.
_SQLALCHEMY_TRAILER: Final = LazyPattern(
    r"\n?\[(?:SQL|parameters|SQL parameters):|\n?\(Background on this"
)

# SQLAlchemy prefixes the driver exception's class: "(psycopg.errors.UndefinedTable) ..."
_SQLALCHEMY_PREFIX: Final = LazyPattern(r"^\((?:[\w.]{1,200})\)\s")

_BINARY: Final = (bytes, bytearray, memoryview)
# Their network exceptions (localdata_errors.backends.network answers them).
_NETWORK_ERRORS: Final = (OSError, EOFError)
_INFO: Final[dict[Kind, KindInfo]] = dict(KIND_TABLE)
# An enum's member read from its class goes through EnumType's __getattr__
# hook on Python 3.11 (some 70 ns): the ones read on every call are module names.
_UNKNOWN: Final = Kind.UNKNOWN
# The records built on every call, by keyword (see `builder`).
_ANSWER: Final = builder(StructuredErrorResponse)
_INPUT: Final = builder(ErrorInput)


def safe_text(obj: object, limit: int = _TEXT_LIMIT) -> str:
    """
    Return `str(obj)` bounded to *limit* characters, never raising.

    `bytes` are decoded as UTF-8 with replacement (also an exception's one
    `bytes` argument); an object whose `__str__` raises falls back to its
    `repr`, then to its class name.
    """
    try:
        if isinstance(obj, _BINARY):
            return bytes(obj[: limit * 4]).decode("utf-8", "replace")[:limit]
        text = str(obj)
        # Only an exception made from bytes renders as "b'...'": decode those.
        if text.startswith(("b'", 'b"')) and isinstance(obj, BaseException) and len(obj.args) == 1:
            arg = obj.args[0]
            if isinstance(arg, bytes | bytearray):
                return bytes(arg[: limit * 4]).decode("utf-8", "replace")[:limit]
        return text if len(text) <= limit else text[:limit]
    except Exception:  # noqa: BLE001, S110 - a broken __str__ falls through to repr
        pass
    try:
        return repr(obj)[:limit]
    except Exception:  # noqa: BLE001 - nor a broken __repr__
        return type(obj).__name__


# -- 1. read ---------------------------------------------------------------------


# What step 1 finds, in this order: the driver's exception (unwrapped; `None`
# for text), who claims it, its text (bounded, SQLAlchemy's trailer removed),
# whether SQLAlchemy judged the connection gone, the top-level module of the
# driver that raised, whether it is Python's own network exception raised
# inside a driver call, and the statement a wrapper of it carries.  (Plain
# tuples between the steps: a record built on every call costs more than the
# rest of a step.)
_Reading = tuple[BaseException | None, Claim | None, str, bool, str | None, bool, str | None]

# What `_unwrap` finds: the exception, who claims it, whether SQLAlchemy
# judged the connection gone, the outermost SQLAlchemy wrapper, and the
# statement a wrapper carries.
_Unwrapped = tuple[BaseException, Claim | None, bool, BaseException | None, str | None]


def _unwrap(exc: BaseException, registry: MapperRegistry) -> _Unwrapped:
    """
    The driver's exception inside *exc*, read in one walk along the chain.

    The wrapper is the outermost SQLAlchemy exception, whose own text is read
    only when the driver's is empty (it renders the statement and the
    parameters, which costs more than the rest of a classification).  The
    statement is the first one a link before the driver's exception carries
    as `.statement` (SQLAlchemy's), read for its credentials.
    """
    invalidated = False
    wrapper: BaseException | None = None
    statement: str | None = None
    candidate = exc  # what to classify when nothing in the chain is claimed
    for link in chain(exc):
        if is_sqlalchemy(link):
            invalidated = invalidated or getattr(link, "connection_invalidated", False) is True
            wrapper = wrapper or link
        else:
            if candidate is exc and wrapper is not None:
                candidate = link  # SQLAlchemy's .orig
            claim = registry.claim_for_type(type(link))
            if claim is not None:
                return link, claim, invalidated, wrapper, statement
        if statement is None:
            carried = driver_attr(link, "statement")
            statement = carried if isinstance(carried, str) and carried else None
    if _module_of(candidate) in PYTHONS_OWN_MODULES:
        # Python's own exception raised inside a driver call (asyncpg's refused
        # connect, aiosqlite's ValueError on a closed connection): the driver is
        # the first claimed module on its way.
        claim = _claim_by_traceback(candidate, registry)
        return candidate, claim, invalidated, wrapper, statement
    return candidate, None, invalidated, wrapper, statement


def _module_of(exc: BaseException) -> str | None:
    """The module of an exception's class; `None` where a class says something else."""
    module = type(exc).__module__
    return module if isinstance(module, str) else None


def _claim_by_traceback(exc: BaseException, registry: MapperRegistry) -> Claim | None:
    tb = exc.__traceback__
    for _ in range(64):
        if tb is None:
            return None
        module = tb.tb_frame.f_globals.get("__name__")
        if isinstance(module, str) and module != "__main__":
            name = registry.name_for_module(module)
            mapper = registry.lookup(name) if name is not None else None
            standing = registry.standing(mapper)
            if name is not None and isinstance(mapper, BackendMapper) and standing is not None:
                return Claim(name, mapper, module.partition(".")[0], standing)
        tb = tb.tb_next
    return None


def _clean_message(text: str) -> str:
    match = _SQLALCHEMY_TRAILER.get().search(text)
    if match is not None:
        text = text[: match.start()]
    match = _SQLALCHEMY_PREFIX.get().match(text)
    if match is not None:
        text = text[match.end() :]
    return text.strip()


def _read(exc: object, registry: MapperRegistry) -> _Reading:
    if not isinstance(exc, BaseException):
        text = safe_text(exc)
        cleaned = _clean_message(text) if "[SQL:" in text else text
        return None, None, cleaned, False, None, False, None
    claim = registry.claim_for_type(type(exc))
    if claim is not None:
        # The common case, a driver's own exception: one look-up names the
        # backend and the driver.
        return exc, claim, safe_text(exc), False, claim.driver, False, None
    driver_exc, claim, invalidated, wrapper, statement = _unwrap(exc, registry)
    text = safe_text(driver_exc)
    if wrapper is not None:
        if not text.strip():
            text = _clean_message(safe_text(wrapper))
        elif "[SQL:" in text or "(Background on this" in text:
            text = _clean_message(text)
    elif claim is None and "[SQL:" in text:
        text = _clean_message(text)
    module = _module_of(driver_exc)
    if claim is not None:
        driver: str | None = claim.driver
    else:
        driver = module.partition(".")[0] if module and module != "builtins" else None
    network = module in PYTHONS_OWN_MODULES and isinstance(driver_exc, _NETWORK_ERRORS)
    return driver_exc, claim, text, invalidated, driver, network, statement


# -- 2. map ----------------------------------------------------------------------


# What step 2 finds: the answer, the mapper that answered ("generic" for the
# keyword fallback), the name of the mapper chosen (for the `database`
# field), and a localdata-mcp-style answer's own category.
_Mapped = tuple[MappedError, str, str | None, ErrorCategory | None]


_NOT_REGISTERED: Final = Standing("backend", False)


def _pick(
    db_type: object, claim: Claim | None, registry: MapperRegistry
) -> tuple[Mapper, Standing] | tuple[None, None]:
    """An explicit, known `db_type` wins; else the backend that claims the exception."""
    if db_type is not None:
        name = normalize_db_type(db_type)
        if name == "generic":
            return None, None
        mapper = registry.lookup(name)
        if mapper is not None:
            return mapper, registry.standing(mapper) or _NOT_REGISTERED
    return (None, None) if claim is None else (claim.mapper, claim.standing)


def _asked(mapper: BackendMapper, error: ErrorInput, trusted: bool) -> MappedError | None:
    """A mapper's answer; one that raises or answers malformed is logged and ignored."""
    try:
        result: object = mapper.map_error(error)
    except Exception as exc:  # noqa: BLE001 - a raising mapper is isolated, not fatal
        name = type(mapper).__qualname__
        warn_once(f"map:{name}:{type(exc).__name__}", "mapper %s raised %r; using the fallback",
                  name, exc)  # fmt: skip
        return None
    return result if trusted else _well_formed(mapper, result)  # type: ignore[return-value]


def _refined(
    refiner: ErrorRefiner, error: ErrorInput, base: MappedError | None, *, named: bool = False
) -> MappedError | None:
    try:
        result: object = (refiner.refine_named if named else refiner.refine_error)(error, base)
    except Exception as exc:  # noqa: BLE001 - a raising refiner is isolated, not fatal
        name = type(refiner).__qualname__
        warn_once(f"refine:{name}:{type(exc).__name__}", "refiner %s raised %r; ignored",
                  name, exc)  # fmt: skip
        return None
    return _well_formed(refiner, result)


def _well_formed(mapper: object, result: object) -> MappedError | None:
    """A plugin's answer, checked field by field before it is trusted."""
    problems = answer_problems(result)
    if not problems:
        return result  # type: ignore[return-value]
    name = type(mapper).__qualname__
    warn_once(f"answer:{name}", "mapper %s answered malformed (%s); ignored",
              name, "; ".join(problems))  # fmt: skip
    return None


def _map(
    exc: object,
    reading: _Reading,
    db_type: object,
    code: str | int | None,
    registry: MapperRegistry,
) -> _Mapped:
    exception, claim, text, invalidated, driver, network, _ = reading
    scanned = text if len(text) <= SCAN_LIMIT else text[:SCAN_LIMIT]
    error = _INPUT(exception, scanned, code, driver, invalidated)
    # An ORM's own code (Prisma's `P1001`) is no backend's: a backend's mapper
    # reads the text alone, the keyword fallback the code (`_prisma_kinds`).
    own = error._replace(code=None) if is_prisma_code(code) else error
    if db_type is None and claim is not None:
        mapper: Mapper | None = claim.mapper
        standing: Standing | None = claim.standing
    else:
        mapper, standing = _pick(db_type, claim, registry)
    # The name it is known by: its own, or the one a localdata-mcp-style
    # mapper was registered under.
    if mapper is None or standing is None:
        name = None
    else:
        name = normalize_db_type(db_type) if standing.role == "legacy" else mapper.name  # type: ignore[union-attr]
    answer: MappedError | None = None
    backend = "generic"
    category: ErrorCategory | None = None
    if network and exception is not None:
        # Python's own network exceptions mean the same for every backend.
        answer = network_error(exception, driver)
        backend = name or backend
    if answer is not None or mapper is None or standing is None:
        pass
    elif standing.role == "legacy":
        answer, category = _legacy(mapper, exc, own)  # type: ignore[arg-type]
        backend = name or backend
    elif standing.role == "refiner":
        # Named: its base answers first, then the refiner, whatever it claims.
        refiner: ErrorRefiner = mapper  # type: ignore[assignment]
        base_mapper = registry.base_of(refiner)
        base_standing = None if base_mapper is None else registry.standing(base_mapper)
        base = (
            None
            if base_mapper is None
            else _asked(base_mapper, own, base_standing is not None and base_standing.trusted)
        )
        answer = _refined(refiner, own, base, named=True) or base
        backend = refiner.name
    else:
        native: BackendMapper = mapper  # type: ignore[assignment]
        answer = _asked(native, error if native.name == "generic" else own, standing.trusted)
        backend = native.name
        # Systems that speak this backend's protocol (CockroachDB over
        # PostgreSQL's drivers) recognise their own errors in its answer.
        refiners = registry.refiners_for(backend, own, answer) if standing.refined else ()
        for refiner in refiners:
            refined = _refined(refiner, own, answer)
            if refined is not None:
                answer, backend = refined, refiner.name
                break
    if answer is None:
        return generic_answer(error), "generic", name, None
    if answer.kind is _UNKNOWN and backend != "generic":
        # The keyword fallback decides, here and nowhere else: among the kinds
        # the backend allows, keeping the backend's code and names.
        fallback = generic_answer(error)
        allowed = answer.refine
        taken = allowed is None or fallback.kind in allowed
        answer = answer._replace(
            kind=fallback.kind if taken else _UNKNOWN,
            # The rule's own retry safety comes with its kind (a closed pool's: safe).
            retry_safety=answer.retry_safety or (fallback.retry_safety if taken else None),
            affected_resources=answer.affected_resources or fallback.affected_resources,
            dependencies=answer.dependencies or fallback.dependencies,
            constraint=answer.constraint or fallback.constraint,
            schema=answer.schema or fallback.schema,
        )
    elif answer.refine is not None:
        by_words, safety = keyword_answer(scanned)
        if by_words is not _UNKNOWN and by_words in answer.refine:
            answer = answer._replace(kind=by_words, retry_safety=answer.retry_safety or safety)
    # The ORM's code is the answer's where the backend's mapper found none of its own.
    return (
        (answer if own is error or answer.code else answer._replace(code=str(code))),
        backend,
        name,
        category,
    )


def _legacy(
    mapper: DatabaseErrorMapper, exc: object, error: ErrorInput
) -> tuple[MappedError | None, ErrorCategory | None]:
    """
    A localdata-mcp-style mapper's answer, as the core's: its category, message and suggestion.

    It is given the exception it was asked about (an `Exception` carrying the
    text when there is none); its kind is the one the keyword fallback finds
    among its category's kinds, else `unknown` in its category.
    """
    given = exc if isinstance(exc, BaseException) else Exception(error.message)
    try:
        result: object = mapper.map_error(given)  # type: ignore[arg-type]
    except Exception as err:  # noqa: BLE001 - a raising mapper is isolated, not fatal
        name = type(mapper).__qualname__
        warn_once(f"map:{name}:{type(err).__name__}", "mapper %s raised %r; using the fallback",
                  name, err)  # fmt: skip
        return None, None
    if not isinstance(result, StructuredErrorResponse) or not isinstance(
        result.error_type, ErrorCategory
    ):
        return _well_formed(mapper, result), None
    kind = result.kind if isinstance(result.kind, Kind) else Kind.UNKNOWN
    if kind is Kind.UNKNOWN:
        by_words = keyword_kind(error.message)
        if _INFO[by_words].category is result.error_type:
            kind = by_words
    code = result.database_error_code
    message = result.message if isinstance(result.message, str) and result.message else None
    suggestion = (
        result.suggestion if isinstance(result.suggestion, str) and result.suggestion else None
    )
    answer = new_mapped_error(
        kind,
        code=code if isinstance(code, str) else None,
        message=message,
        retryable=result.is_retryable if isinstance(result.is_retryable, bool) else None,
        suggestion=suggestion,
    )
    return answer, None if kind is not Kind.UNKNOWN else result.error_type


# -- 3. decide -------------------------------------------------------------------


# What step 3 decides: the kind, its category, whether it is retryable, the
# concrete actions, the next step, its retry safety and the first wait.
_Decision = tuple[Kind, ErrorCategory, bool, tuple[str, ...], Action, RetrySafety, int | None]


def _decide(
    answer: MappedError, own_category: ErrorCategory | None, invalidated: bool
) -> _Decision:
    # One unpacking reads every field (a field's property costs as much as a look-up).
    (own_kind, _, _, _, _, _, _, _, own_retryable, _, own_safety, own_after_ms, _) = answer
    kind = own_kind
    info = _INFO[kind]
    if invalidated and info.category is not ErrorCategory.CONNECTION_ERROR:
        # SQLAlchemy already judged the connection gone: trust it over the text.
        kind = Kind.CONNECTION_LOST
        info = _INFO[kind]
    retryable, action, safety, after_ms = (
        info.retryable, info.action, info.retry_safety, info.retry_after_ms
    )  # fmt: skip
    if kind is own_kind and own_retryable is not None and own_retryable is not retryable:
        # The driver says something the kind can't (Oracle's isrecoverable).
        retryable = own_retryable
        if retryable:
            recoverable = _INFO[RECOVERABLE_BY_DRIVER]
            action, safety = recoverable.action, recoverable.retry_safety
            after_ms = recoverable.retry_after_ms
        else:
            action, safety, after_ms = Action.STOP, RetrySafety.NOT_APPLICABLE, None
    if own_safety is not None:
        safety = own_safety
    if own_after_ms is not None:
        after_ms = own_after_ms
    category = own_category or info.category
    return kind, category, retryable, info.actions, action, safety, after_ms


# -- 4. mask ---------------------------------------------------------------------


def _bounded(text: str, secrets: tuple[str, ...]) -> str:
    """The message as returned: cut to its bound first, then masked."""
    if len(text) <= MESSAGE_LIMIT:
        return redact(text, secrets) if secrets or may_hold_secret(text) else text
    # Mask a little past the cut, so a secret straddling it is still caught.
    head = redact(text[: MESSAGE_LIMIT + _MASK_MARGIN], secrets)[:MESSAGE_LIMIT]
    return f"{head}... [truncated, {len(text)} characters in all]"


def _masked(
    reading: _Reading,
    mapped: _Mapped,
    decision: _Decision,
    database: str | None,
    secrets: tuple[str, ...],
) -> StructuredErrorResponse:
    text, driver = reading[2], reading[4]
    answer, backend, chosen, _ = mapped
    kind, category, retryable, actions, action, safety, after_ms = decision
    # One unpacking reads every field (a field's property costs as much as a look-up).
    (_, code, sqlstate, resources, dependencies, constraint, schema, own_message, _, _, _, _,
     suggestion) = answer  # fmt: skip
    message = text if own_message is None else own_message
    caller_database = database
    if database is None:
        database = chosen
    # Names come from the message or from the driver's diagnostics beside it:
    # one pass over all of them proves that no credential marker is there.
    if resources or dependencies or constraint or schema or caller_database:
        names = (*resources, *dependencies, constraint or "", schema or "", code or "")
        probe = "\n".join((message, *names, caller_database or ""))
    else:
        names = (code or "",)
        probe = message if code is None else f"{message}\n{code}"
    if secrets or may_hold_secret(probe):
        # A name is the message's text cut out of the clause (PASSWORD '...')
        # that marked it a credential: what the message's masking finds is
        # masked in the names as a named secret (see redact_name).
        masked: str | None
        if len(message) <= MESSAGE_LIMIT:
            masked, in_message = redact_reading(message, secrets)
        else:
            masked, in_message = None, credentials_in(message)
        known = (
            (*secrets, *in_message)
            if message is text
            else (*secrets, *credentials_in(text), *in_message)
        )
        if known or may_hold_secret("\n".join((*names, database or ""))):
            resources = tuple([redact_name(n, known) for n in resources])
            dependencies = tuple([redact_name(n, known) for n in dependencies])
            constraint = None if constraint is None else redact_name(constraint, known)
            schema = None if schema is None else redact_name(schema, known)
            code = None if code is None else redact_name(code, known)
            database = None if database is None else redact_name(database, known)
        if suggestion is None:
            suggestion = render_suggestion(
                kind, resources[0] if resources else None, constraint, dependencies
            )
        if known or may_hold_secret(suggestion):
            suggestion = redact(suggestion, known)
        message = _bounded(message, secrets) if masked is None else masked
    else:
        if suggestion is None:
            suggestion = render_suggestion(
                kind, resources[0] if resources else None, constraint, dependencies
            )
        elif may_hold_secret(suggestion):
            suggestion = redact(suggestion, secrets)
        if len(message) > MESSAGE_LIMIT:
            message = _bounded(message, secrets)
    return _ANSWER(
        category,
        kind,
        retryable,
        message,
        suggestion,
        actions,
        database_error_code=code,
        sqlstate=sqlstate,
        database=database,
        backend=backend,
        affected_resources=resources,
        dependencies=dependencies,
        constraint=constraint,
        schema=schema,
        driver=driver,
        action=action,
        retry_safety=safety,
        retry_after_ms=after_ms,
    )


# -- the API ---------------------------------------------------------------------


def _classify(  # noqa: PLR0913 - classify_message's arguments, passed on
    exc: object,
    db_type: object,
    code: object,
    *,
    database: object,
    secrets: object,
    registry: MapperRegistry | None,
) -> StructuredErrorResponse:
    registry = registry or default_registry()
    reading = _read(exc, registry)
    mapped = _map(exc, reading, db_type, None if code is None else _explicit_code(code), registry)
    decision = _decide(mapped[0], mapped[3], reading[3])
    masked = () if secrets is _NO_SECRETS else normalize_secrets(secrets)
    if reading[6] is not None:
        # A server may echo the statement from the value on (MariaDB's `near
        # 'hunter2'`), without the key word that made it a password.
        masked = (*masked, *credentials_in_statement(reading[6]))
    shown = database if isinstance(database, str) else None
    return _masked(reading, mapped, decision, shown, masked)


def _explicit_code(code: object) -> str | int | None:
    """
    An explicit native code as mappers take it: a number or a text.

    `1213.0` is the number 1213; any other type (a float that is not a whole
    number, a list, a `bool`) is no code at all: classification never
    raises, whatever it is given.
    """
    if code is None or isinstance(code, bool):
        return None
    if isinstance(code, int):
        return code
    if isinstance(code, float):
        return int(code) if code.is_integer() else None
    if isinstance(code, str):
        return code.strip() or None
    return None


def _last_resort(exc: object, secrets: object) -> StructuredErrorResponse:
    try:
        message = _bounded(safe_text(exc), normalize_secrets(secrets))
    except Exception:  # noqa: BLE001 - the answer of last resort cannot fail
        message = "unreadable error"
    return StructuredErrorResponse.for_kind(Kind.UNKNOWN, message)


# The default of `secrets`: CPython's one empty tuple, tested by identity (a
# caller's object may not compare with ==, an array for one).
_NO_SECRETS: Final[tuple[()]] = ()


def classify_error(
    exc: object,
    db_type: str | None = None,
    *,
    database: str | None = None,
    secrets: Iterable[object] | None = (),
    registry: MapperRegistry | None = None,
) -> StructuredErrorResponse:
    """
    Classify any database driver exception.  Never raises.

    Args:
        exc: The exception (a driver's, or one wrapping it: SQLAlchemy,
            Django, a `raise ... from`); any other object is classified by
            its text.
        db_type: The backend, when known: `"postgresql"`,
            `"postgresql+psycopg"`, `"PostgreSQL"` and `"postgres"` are one
            backend; `"generic"` asks for the keyword fallback.  When
            omitted, the backend is detected from the driver's module.
        database: A database name to report in the `database` field.
        secrets: Values to mask in every output field (bound parameters,
            passwords the caller knows), of any type, `None` included: see
            `localdata_errors._redact.normalize_secrets`.
        registry: The mappers to use; the default registry when omitted.

    Returns:
        The `StructuredErrorResponse`.
    """
    try:
        return _classify(exc, db_type, None, database=database, secrets=secrets, registry=registry)
    except Exception as err:  # noqa: BLE001 - classification never raises
        warn_once(f"classify:{type(err).__name__}", "classification failed internally: %r", err)
        return _last_resort(exc, secrets)


def classify_message(  # noqa: PLR0913 - the public signature: text, code, and options
    message: str | bytes,
    db_type: str | None = None,
    code: str | int | None = None,
    *,
    database: str | None = None,
    secrets: Iterable[object] | None = (),
    registry: MapperRegistry | None = None,
) -> StructuredErrorResponse:
    """
    Classify an error known only by its text (and perhaps its native code).

    Without `db_type` and `code`, the text's own form names them where it
    can: `ERROR 1146 (42S02): ...` (the mysql client), `Msg 208, Level 16,
    ...` (sqlcmd), psql's `ERROR:  ...`, PHP PDO's `SQLSTATE[...]`, a JDBC
    or Python exception class, `ORA-00942`; else a sign anywhere in it (a
    code in any client's format, a driver's class, a product's name); last,
    a phrase only one vendor's messages hold (`no such table` is SQLite's),
    from the vendors' own message lists.  See `localdata_errors._detect` and
    the docs' page on reading text.  A symbol given as `code` is a code
    (`ER_NO_SUCH_TABLE` is 1146, `UniqueViolation` is 23505).

    Args:
        message: The error text.
        db_type: The backend, as for `classify_error`.
        code: The native code, when known: a SQLSTATE, an errno,
            `ORA-00942`, a SQL Server number, a SQLite result name.
        database: A database name to report.
        secrets: Values to mask.
        registry: The mappers to use; the default registry when omitted.

    Returns:
        The `StructuredErrorResponse`.
    """
    try:
        text = safe_text(message)
        reg = registry or default_registry()
        back = None
        if not text.isascii():
            # A PostgreSQL message in another language is read as its English
            # original (`FEHLER:  Relation »x« existiert nicht`); the table is
            # loaded by the first such text.
            from localdata_errors._localized import read_back  # noqa: PLC0415

            back = read_back(text)
        answer = _text_answer(
            text if back is None else back.english,
            db_type,
            code,
            database=database,
            secrets=secrets,
            registry=reg,
        )
        if back is None and answer.kind is Kind.UNKNOWN and text.isascii():
            # A translation written in ASCII alone (`Zu viele Verbindungen`),
            # read back when the English reading found nothing and two words
            # of such translations are in the text: an English text the
            # reader reads never loads the table.
            from localdata_errors._localized import may_be_translated, read_back  # noqa: PLC0415

            back = read_back(text) if may_be_translated(text) else None
            if back is None:
                return answer
            english = _text_answer(
                back.english, db_type, code, database=database, secrets=secrets, registry=reg
            )
            if english.kind is Kind.UNKNOWN:
                return answer
            answer = english
        if back is None:
            return answer
        if answer.kind is Kind.UNKNOWN:
            # Read back, it said nothing: a driver's own translated message
            # (SqlClient's `サーバーから結果を受信しているときに...`) is no
            # catalogue's, and a catalogue's words inside it were read back alone.
            given = _text_answer(
                text, db_type, code, database=database, secrets=secrets, registry=reg
            )
            if given.kind is not Kind.UNKNOWN:
                return given
        # The message stays the text as given: its part the English message was read from.
        shown = back.original(answer.message)
        return answer._replace(
            message=_bounded(text if shown is None else shown, normalize_secrets(secrets))
        )
    except Exception as err:  # noqa: BLE001 - classification never raises
        warn_once(f"classify:{type(err).__name__}", "classification failed internally: %r", err)
        return _last_resort(message, secrets)


def _text_answer(  # noqa: PLR0913 - classify_message's arguments, passed on
    text: str,
    db_type: str | None,
    code: str | int | None,
    *,
    database: str | None,
    secrets: Iterable[object] | None,
    registry: MapperRegistry,
) -> StructuredErrorResponse:
    """`classify_message` of a text as read (in English where it was translated)."""
    # The text reader is loaded by the first text classified: the
    # exception path never needs it, and the package's import stays small.
    from localdata_errors._detect import detect  # noqa: PLC0415
    from localdata_errors._textread import native_code  # noqa: PLC0415

    if isinstance(code, str) and db_type is not None:
        # A symbol is a code: ER_NO_SUCH_TABLE is 1146, UniqueViolation 23505.
        code = native_code(normalize_db_type(db_type), code.strip())
    found = detect(text, registry) if db_type is None and code is None else None
    if found is None:
        return _classify(text, db_type, code, database=database, secrets=secrets, registry=registry)
    # The text names its backend and code itself (a tool's printout).
    answer = _classify(
        found.message,
        found.backend,
        found.code,
        database=database,
        secrets=secrets,
        registry=registry,
    )
    return _with_hints(answer, found)


def _with_hints(answer: StructuredErrorResponse, found: Detected) -> StructuredErrorResponse:
    """The SQLSTATE and driver the text named, where the mapper found none."""
    if answer.sqlstate is None and found.sqlstate is not None:
        answer = answer._replace(sqlstate=found.sqlstate)
    if answer.driver is None and found.driver is not None:
        answer = answer._replace(driver=found.driver)
    return answer


def unwrap(
    exc: BaseException, registry: MapperRegistry | None = None
) -> tuple[BaseException, bool]:
    """
    Find the driver's exception inside *exc*.

    Follows SQLAlchemy's `.orig`, Django's `__cause__` and any `__cause__` /
    `__context__` chain (bounded, cycle-safe) to the first exception a
    registered backend claims.

    Returns:
        `(driver_exception, connection_invalidated)`; the exception itself
        (or SQLAlchemy's `.orig`) when nothing in the chain is claimed.
    """
    found, _, invalidated, _, _ = _unwrap(exc, registry or default_registry())
    return found, invalidated


def is_error_retryable(exc: object, db_type: str | None = None) -> bool:
    """Whether repeating the failed call may succeed.  Never raises."""
    return classify_error(exc, db_type).is_retryable


def get_error_suggestion(exc: object, db_type: str | None = None) -> str:
    """One sentence on what to do next.  Never raises."""
    return classify_error(exc, db_type).suggestion
