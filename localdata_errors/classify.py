"""
`classify_error` and its shorthands: unwrap, pick the mapper, map, build the answer.

Data flows one way:

    exception -> unwrap -> pick mapper -> native code -> Kind -> response

and nothing in it may raise: a mapper that fails is logged once and the
generic fallback answers; anything else that fails yields a plain `unknown`
answer carrying whatever text could be read.

The path is designed for an error seen the first time, which is what agents
meet: the exception's class is looked up once (it names the backend and the
driver), its text is read once, the mapper reads the one or two attributes
that carry the native code and looks the code up in a table, names are read
only by the pattern for the kind found, and the message is searched for
credentials in one pass before anything is masked.  Nothing is remembered
between calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from localdata_errors._backends import PYTHONS_OWN_MODULES as _PYTHONS_OWN
from localdata_errors.backends.generic import generic_answer, keyword_kind
from localdata_errors.detect import Detected, detect
from localdata_errors.kinds import (
    KIND_TABLE,
    RECOVERABLE_BY_DRIVER,
    Action,
    ErrorCategory,
    Kind,
    KindInfo,
    RetrySafety,
    render_suggestion,
)
from localdata_errors.mapper import DatabaseErrorMapper, ErrorInput, ErrorRefiner, MappedError
from localdata_errors.redact import (
    credentials_in,
    may_hold_secret,
    normalize_secrets,
    redact,
    redact_name,
    redact_reading,
)
from localdata_errors.registry import Claim, ErrorMapperRegistry, normalize_db_type, warn_once
from localdata_errors.response import StructuredErrorResponse

__all__ = [
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
#: How deep a `__cause__` / `__context__` chain is followed.
CHAIN_LIMIT: Final = 16

# SQLAlchemy appends the statement, the parameters and a link to the message.
_SQLALCHEMY_TRAILER = re.compile(r"\n?\[(?:SQL|parameters|SQL parameters):|\n?\(Background on this")
# SQLAlchemy prefixes the driver exception's class: "(psycopg.errors.UndefinedTable) ..."
_SQLALCHEMY_PREFIX = re.compile(r"^\((?:[\w.]{1,200})\)\s")

_BYTES_REPR: Final = frozenset({"b'", 'b"'})
# A tuple, not `bytes | bytearray | memoryview`: isinstance() checks a tuple
# several times faster than a union, and this runs on every call.
_BINARY: Final = (bytes, bytearray, memoryview)
_MISS: Final = object()
# The default of `secrets`: CPython's one empty tuple, tested by identity (a
# caller's object may not compare with ==, an array for one).
_NO_SECRETS: Final[tuple[()]] = ()
# Their network exceptions (localdata_errors.backends.network answers them).
_NETWORK_ERRORS: Final = (OSError, EOFError)
# Records built on every call, positionally, without the named tuple's keyword handling.
_new: Final = tuple.__new__

_UNKNOWN: Final = Kind.UNKNOWN
_CONNECTION_LOST: Final = Kind.CONNECTION_LOST
_CONNECTION_ERROR: Final = ErrorCategory.CONNECTION_ERROR
_RECONNECT: Final = Action.RECONNECT
_STOP: Final = Action.STOP
_NOT_APPLICABLE: Final = RetrySafety.NOT_APPLICABLE
# KIND_TABLE as a plain dict: read on every call.
_INFO: Final[dict[Kind, KindInfo]] = dict(KIND_TABLE)


def safe_text(obj: object, limit: int = SCAN_LIMIT + MESSAGE_LIMIT) -> str:
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
        if text[:2] in _BYTES_REPR and isinstance(obj, BaseException) and len(obj.args) == 1:
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


def unwrap(exc: BaseException) -> tuple[BaseException, bool]:
    """
    Find the driver's exception inside *exc*.

    Follows SQLAlchemy's `.orig`, Django's `__cause__` and any `__cause__` /
    `__context__` chain (bounded, cycle-safe) to the first exception a
    registered backend claims.

    Returns:
        `(driver_exception, connection_invalidated)`; the exception itself
        (or SQLAlchemy's `.orig`) when nothing in the chain is claimed.
    """
    found, _, invalidated, _ = _unwrap(exc)
    return found, invalidated


_Found = tuple[BaseException, Claim | None, bool, BaseException | None]


def _unwrap(exc: BaseException, unclaimed: bool = False) -> _Found:
    """
    Return (exception to classify, who claims it, connection_invalidated, wrapper).

    The wrapper is the outermost SQLAlchemy exception, whose text is read only
    when the driver's own is empty: SQLAlchemy renders the statement and the
    parameters into it, which costs more than the rest of a classification.
    *unclaimed*: the caller already knows that no backend claims *exc* itself.
    """
    if not unclaimed:
        claim = ErrorMapperRegistry.claim_for_type(type(exc))
        if claim is not None:
            return exc, claim, False, None
    invalidated = False
    wrapper: BaseException | None = None
    seen: set[int] = set()
    current: BaseException | None = exc
    candidate = exc  # what to classify when no backend claims anything in the chain
    for _ in range(CHAIN_LIMIT):
        if current is None or id(current) in seen:
            break
        seen.add(id(current))
        module = type(current).__module__
        if isinstance(module, str) and module.startswith("sqlalchemy"):
            if getattr(current, "connection_invalidated", False) is True:
                invalidated = True
            if wrapper is None:
                wrapper = current
            orig = getattr(current, "orig", None)
            if isinstance(orig, BaseException):
                candidate = current = orig
                continue
        elif current is not exc:  # exc itself is unclaimed (looked up above, or by the caller)
            link: object = ErrorMapperRegistry._by_type.get(type(current), _MISS)
            if link is _MISS:
                link = ErrorMapperRegistry.claim_for_type(type(current))
            if isinstance(link, Claim):
                return current, link, invalidated, wrapper
        current = current.__cause__ or current.__context__
    if type(candidate).__module__ in _PYTHONS_OWN:
        # Python's own exception raised inside a driver call (asyncpg's refused
        # connect, aiosqlite's ValueError on a closed connection): the driver is
        # the first claimed module on its way.
        return candidate, _claim_by_traceback(candidate), invalidated, wrapper
    return candidate, None, invalidated, wrapper


def _claim_by_traceback(exc: BaseException) -> Claim | None:
    tb = exc.__traceback__
    for _ in range(64):
        if tb is None:
            return None
        module = tb.tb_frame.f_globals.get("__name__")
        if isinstance(module, str) and module != "__main__":
            name = ErrorMapperRegistry.name_for_module(module)
            mapper = ErrorMapperRegistry.lookup(name) if name is not None else None
            if name is not None and mapper is not None:
                return Claim(name, mapper, module.partition(".")[0])
        tb = tb.tb_next
    return None


def _clean_message(text: str) -> str:
    match = _SQLALCHEMY_TRAILER.search(text)
    if match is not None:
        text = text[: match.start()]
    match = _SQLALCHEMY_PREFIX.match(text)
    if match is not None:
        text = text[match.end() :]
    return text.strip()


def _bounded(text: str, secrets: tuple[str, ...]) -> str:
    """The message as returned: cut to its bound first, then masked."""
    if len(text) <= MESSAGE_LIMIT:
        return redact(text, secrets) if secrets or may_hold_secret(text) else text
    # Mask a little past the cut, so a secret straddling it is still caught.
    head = redact(text[: MESSAGE_LIMIT + _MASK_MARGIN], secrets)[:MESSAGE_LIMIT]
    return f"{head}... [truncated, {len(text)} characters in all]"


def _mapper_failed(mapper: DatabaseErrorMapper, exc: Exception) -> None:
    name = type(mapper).__qualname__
    warn_once(f"map:{name}:{type(exc).__name__}", "mapper %s raised %r; using the fallback",
              name, exc)  # fmt: skip


def _checked(mapper: DatabaseErrorMapper, result: object) -> MappedError | None:
    """A plugin's answer that is not exactly a `MappedError`: checked before it is trusted."""
    if isinstance(result, MappedError) and isinstance(result.kind, Kind):
        return result
    name = type(mapper).__qualname__
    warn_once(f"type:{name}", "mapper %s returned %r, not a MappedError; ignored",
              name, type(result).__name__)  # fmt: skip
    return None


def _call_refiner(
    refiner: ErrorRefiner, error: ErrorInput, base: MappedError | None
) -> MappedError | None:
    try:
        result: object = refiner.refine_error(error, base)
    except Exception as exc:  # noqa: BLE001 - a raising refiner is isolated, not fatal
        name = type(refiner).__qualname__
        warn_once(f"refine:{name}:{type(exc).__name__}", "refiner %s raised %r; ignored",
                  name, exc)  # fmt: skip
        return None
    if result is None or (isinstance(result, MappedError) and isinstance(result.kind, Kind)):
        return result
    name = type(refiner).__qualname__
    warn_once(f"refine-type:{name}", "refiner %s returned %r, not a MappedError; ignored",
              name, type(result).__name__)  # fmt: skip
    return None


def _pick_mapper(db_type: object, claim: Claim | None) -> DatabaseErrorMapper | None:
    """An explicit, known `db_type` wins; else the backend that claims the exception."""
    if db_type is None:
        return None if claim is None else claim.mapper
    explicit = normalize_db_type(db_type)
    if explicit == "generic":
        return None
    ErrorMapperRegistry._ensure_discovered()
    mapper = ErrorMapperRegistry._by_name.get(explicit)
    if mapper is None and claim is not None:
        return claim.mapper
    return mapper


def _read(exc: object) -> tuple[BaseException | None, Claim | None, bool, str]:
    """
    The exception to classify, who claims it, whether the connection is gone, its text.

    For what no backend claims by its type (`_classify` has looked): a
    wrapper, an exception of Python's own, or no exception at all.
    """
    if not isinstance(exc, BaseException):
        text = safe_text(exc)
        return None, None, False, _clean_message(text) if "[SQL:" in text else text
    driver_exc, found, invalidated, wrapper = _unwrap(exc, unclaimed=True)
    text = safe_text(driver_exc)
    if wrapper is not None:
        if not text.strip():
            text = _clean_message(safe_text(wrapper))
        elif "[SQL:" in text or "(Background on this" in text:
            text = _clean_message(text)
    elif found is None and "[SQL:" in text:
        text = _clean_message(text)
    return driver_exc, found, invalidated, text


def _classify(  # noqa: PLR0915 - the one hot path, kept in one frame on purpose
    exc: object,
    db_type: object,
    database: str | None,
    secrets: tuple[str, ...],
    code: str | int | None,
) -> StructuredErrorResponse:
    # -- read: who claims the exception, and its text ---------------------------
    claim: object = _MISS
    if isinstance(exc, BaseException):
        # The common case, a driver's own exception: one look-up names the
        # backend and the driver.
        claim = ErrorMapperRegistry._by_type.get(type(exc), _MISS)
        if claim is _MISS:
            claim = ErrorMapperRegistry.claim_for_type(type(exc))
    if isinstance(claim, Claim):
        driver_exc: BaseException | None = exc  # type: ignore[assignment]
        found: Claim | None = claim
        invalidated = False
        try:
            text = str(exc)
        except Exception:  # noqa: BLE001 - a broken __str__: the careful reading below
            text = ""
        if not text or (text[0] == "b" and text[:2] in _BYTES_REPR) or len(text) > _TEXT_LIMIT:
            text = safe_text(exc)  # bytes decoded, length bounded, a broken __str__ survived
        driver: str | None = claim.driver
        own = False
    else:
        driver_exc, found, invalidated, text = _read(exc)
        driver = _driver_of(driver_exc, found)
        # Python's own network exceptions (a driver's own class is never one).
        own = (
            driver_exc is not None
            and type(driver_exc).__module__ in _PYTHONS_OWN
            and isinstance(driver_exc, _NETWORK_ERRORS)
        )

    # -- map: the backend's mapper, its refiners, the keyword fallback ----------
    if db_type is None:
        mapper = None if found is None else found.mapper
    else:
        mapper = _pick_mapper(db_type, found)
    scanned = text if len(text) <= SCAN_LIMIT else text[:SCAN_LIMIT]
    error = _new(ErrorInput, (driver_exc, scanned, code, driver, invalidated))
    backend = "generic"
    mapped: MappedError | None = None
    if own and driver_exc is not None:
        # Python's own network exceptions mean the same for every backend.
        from localdata_errors.backends.network import network_error  # noqa: PLC0415 - rare

        mapped = network_error(driver_exc, driver)
        if mapped is not None and mapper is not None:
            backend = mapper.name
    if mapped is None and mapper is not None:
        try:
            mapped = mapper.map_error(error)
        except Exception as err:  # noqa: BLE001 - a raising mapper is isolated, not fatal
            _mapper_failed(mapper, err)
            mapped = None
        if mapped is not None and type(mapped) is not MappedError:
            mapped = _checked(mapper, mapped)
        backend = mapper.name
        refiners = (
            ErrorMapperRegistry._refiners.get(backend) if ErrorMapperRegistry._refiners else None
        )
        if refiners is not None:
            # Systems that speak this backend's protocol (CockroachDB over
            # PostgreSQL's drivers) recognise their own errors in its answer.
            for refiner in refiners:
                refined = _call_refiner(refiner, error, mapped)
                if refined is not None:
                    mapped, backend = refined, refiner.name
                    break
    caller_database = database
    if database is None and mapper is not None:
        database = mapper.name
    if mapped is None:
        mapped = generic_answer(error)
        backend = "generic"
    (kind, native_code, sqlstate, resources, dependencies, constraint, schema, message,
     m_retryable, refine, m_safety, m_after, m_suggestion) = mapped  # fmt: skip
    # The keyword fallback decides, here and nowhere else: among the kinds the
    # backend allows, keeping the backend's code and names.
    if kind is _UNKNOWN and backend != "generic":
        fallback = generic_answer(error)
        by_words = fallback[0]
        if refine is None or by_words in refine:
            kind = by_words
        resources = resources or fallback[3]
        dependencies = dependencies or fallback[4]
        constraint = constraint or fallback[5]
        schema = schema or fallback[6]
    elif refine is not None:
        by_words = keyword_kind(scanned)
        if by_words is not _UNKNOWN and by_words in refine:
            kind = by_words

    # -- decide: the Kind table, and what the driver says beyond the kind -------
    info = _INFO[kind]
    category, retryable, actions = info.category, info.retryable, info.actions
    action, safety, after_ms = info.action, info.retry_safety, info.retry_after_ms
    if invalidated and category is not _CONNECTION_ERROR:
        # SQLAlchemy already judged the connection gone: trust it over the text.
        kind = _CONNECTION_LOST
        info = _INFO[kind]
        category, retryable, actions = info.category, info.retryable, info.actions
        action, safety, after_ms = info.action, info.retry_safety, info.retry_after_ms
    elif m_retryable is not None and m_retryable is not retryable:
        # The driver says something the kind can't (Oracle's isrecoverable).
        retryable = m_retryable
        if retryable:
            recoverable = _INFO[RECOVERABLE_BY_DRIVER]
            action, safety = recoverable.action, recoverable.retry_safety
            after_ms = recoverable.retry_after_ms
        else:
            action, safety, after_ms = _STOP, _NOT_APPLICABLE, None
    if m_safety is not None:
        safety = m_safety
    if m_after is not None:
        after_ms = m_after

    # -- mask: prove the absence of credentials in one pass, else mask all -----
    if message is None:
        message = text
    target = resources[0] if resources else None
    # Names come from the message or from the driver's diagnostics beside it:
    # one pass over all of them proves that no credential marker is there.
    if resources or dependencies or constraint or schema or caller_database:
        probe = "\n".join(
            (message, *resources, *dependencies, constraint or "", schema or "",
             caller_database or "", native_code or "")
        )  # fmt: skip
    else:
        probe = message
    if secrets or may_hold_secret(probe):
        # A name is the message's text cut out of the clause (PASSWORD '...')
        # that marked it a credential: what the message's masking finds is
        # masked in the names as a named secret (see redact_name).
        # The message as returned and the values masked in it, from one
        # reading (past its bound, a message is cut before it is masked).
        masked: str | None
        if len(message) <= MESSAGE_LIMIT:
            masked, in_message = redact_reading(message, secrets)
        else:
            masked, in_message = None, credentials_in(message)
        if message is text:
            known = (*secrets, *in_message)
        else:
            known = (*secrets, *credentials_in(text), *in_message)
        if known or may_hold_secret(
            "\n".join((*resources, *dependencies, constraint or "", schema or "",
                       native_code or "", database or ""))
        ):  # fmt: skip
            resources = tuple([redact_name(n, known) for n in resources])
            dependencies = tuple([redact_name(n, known) for n in dependencies])
            constraint = None if constraint is None else redact_name(constraint, known)
            schema = None if schema is None else redact_name(schema, known)
            native_code = None if native_code is None else redact_name(native_code, known)
            database = None if database is None else redact_name(database, known)
            target = resources[0] if resources else None
        # else: no value to mask anywhere, and no name holds a place where a
        # credential may start (an e-mail address in a duplicate key's value
        # brought the message here): redact_name would return each unchanged.
        suggestion = m_suggestion or render_suggestion(kind, target, constraint, dependencies)
        if known or may_hold_secret(suggestion):
            suggestion = redact(suggestion, known)
        message = _bounded(message, secrets) if masked is None else masked
    elif m_suggestion is not None:
        suggestion = (
            redact(m_suggestion, secrets) if may_hold_secret(m_suggestion) else m_suggestion
        )
        if len(message) > MESSAGE_LIMIT:
            message = _bounded(message, secrets)
    else:
        suggestion = render_suggestion(kind, target, constraint, dependencies)
        if len(message) > MESSAGE_LIMIT:
            message = _bounded(message, secrets)
    return _new(
        StructuredErrorResponse,
        (category, kind, retryable, message, suggestion, actions, native_code, sqlstate,
         database, backend, resources, dependencies, constraint, schema, driver, action,
         safety, after_ms),
    )  # fmt: skip


def _driver_of(driver_exc: BaseException | None, found: Claim | None) -> str | None:
    """The top-level module of the driver that raised, where known."""
    if found is not None:
        return found.driver
    if driver_exc is None:
        return None
    module = type(driver_exc).__module__
    return module.partition(".")[0] if module and module != "builtins" else None


def _last_resort(exc: object, secrets: object) -> StructuredErrorResponse:
    try:
        message = _bounded(safe_text(exc), normalize_secrets(secrets))
    except Exception:  # noqa: BLE001 - the answer of last resort cannot fail
        message = "unreadable error"
    return StructuredErrorResponse.for_kind(Kind.UNKNOWN, message)


def classify_error(
    exc: object,
    db_type: str | None = None,
    *,
    database: str | None = None,
    secrets: Iterable[object] | None = (),
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
            `localdata_errors.redact.normalize_secrets`.

    Returns:
        The `StructuredErrorResponse`.
    """
    try:
        masked = () if secrets is _NO_SECRETS else normalize_secrets(secrets)
        return _classify(exc, db_type, database, masked, None)
    except Exception as err:  # noqa: BLE001 - classification never raises
        warn_once(f"classify:{type(err).__name__}", "classification failed internally: %r", err)
        return _last_resort(exc, secrets)


def classify_message(
    message: str | bytes,
    db_type: str | None = None,
    code: str | int | None = None,
    *,
    database: str | None = None,
    secrets: Iterable[object] | None = (),
) -> StructuredErrorResponse:
    """
    Classify an error known only by its text (and perhaps its native code).

    Without `db_type` and `code`, the text's own form names them where it
    can: `ERROR 1146 (42S02): ...` (the mysql client), `Msg 208, Level 16,
    ...` (sqlcmd), psql's `ERROR:  ...`, PHP PDO's `SQLSTATE[...]`, a JDBC
    or Python exception class, `ORA-00942` (see `localdata_errors.detect`).

    Args:
        message: The error text.
        db_type: The backend, as for `classify_error`.
        code: The native code, when known: a SQLSTATE, an errno,
            `ORA-00942`, a SQL Server number, a SQLite result name.
        database: A database name to report.
        secrets: Values to mask.

    Returns:
        The `StructuredErrorResponse`.
    """
    try:
        text = safe_text(message)
        found = detect(text) if db_type is None and code is None else None
        if found is None:
            return _classify(text, db_type, database, normalize_secrets(secrets), code)
        # The text names its backend and code itself (a tool's printout).
        return _with_hints(
            _classify(
                found.message,
                found.backend,
                database,
                normalize_secrets(secrets),
                found.code,
            ),
            found,
        )
    except Exception as err:  # noqa: BLE001 - classification never raises
        warn_once(f"classify:{type(err).__name__}", "classification failed internally: %r", err)
        return _last_resort(message, secrets)


def _with_hints(answer: StructuredErrorResponse, found: Detected) -> StructuredErrorResponse:
    """The SQLSTATE and driver the text named, where the mapper found none."""
    if answer.sqlstate is None and found.sqlstate is not None:
        answer = answer._replace(sqlstate=found.sqlstate)
    if answer.driver is None and found.driver is not None:
        answer = answer._replace(driver=found.driver)
    return answer


def is_error_retryable(exc: object, db_type: str | None = None) -> bool:
    """Whether repeating the failed call may succeed.  Never raises."""
    return classify_error(exc, db_type).is_retryable


def get_error_suggestion(exc: object, db_type: str | None = None) -> str:
    """One sentence on what to do next.  Never raises."""
    return classify_error(exc, db_type).suggestion
