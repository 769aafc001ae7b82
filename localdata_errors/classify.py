"""
``classify_error`` and its shorthands: unwrap, pick the mapper, map, build the answer.

Data flows one way::

    exception -> unwrap -> pick mapper -> native code -> Kind -> response

and nothing in it may raise: a mapper that fails is logged once and the
generic fallback answers; anything else that fails yields a plain
``unknown`` answer carrying whatever text could be read.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Sequence
from typing import Final

from localdata_errors.backends.generic import GENERIC_MAPPER
from localdata_errors.kinds import KIND_TABLE, ErrorCategory, Kind, KindInfo
from localdata_errors.mapper import DatabaseErrorMapper, ErrorInput, MappedError
from localdata_errors.redact import redact
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
#: How deep a ``__cause__`` / ``__context__`` chain is followed.
CHAIN_LIMIT: Final = 16

# SQLAlchemy appends the statement, the parameters and a link to the message.
_SQLALCHEMY_TRAILER = re.compile(r"\n?\[(?:SQL|parameters|SQL parameters):|\n?\(Background on this")
# SQLAlchemy prefixes the driver exception's class: "(psycopg.errors.UndefinedTable) ..."
_SQLALCHEMY_PREFIX = re.compile(r"^\((?:[\w.]{1,200})\)\s")


def safe_text(obj: object, limit: int = SCAN_LIMIT + MESSAGE_LIMIT) -> str:
    """
    Return ``str(obj)`` bounded to *limit* characters, never raising.

    ``bytes`` are decoded as UTF-8 with replacement (also an exception's one
    ``bytes`` argument); an object whose ``__str__`` raises falls back to its
    ``repr``, then to its class name.
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
        return text[:limit]
    except Exception:  # noqa: BLE001, S110 - a broken __str__ falls through to repr
        pass
    try:
        return repr(obj)[:limit]
    except Exception:  # noqa: BLE001 - nor a broken __repr__
        return type(obj).__name__


_BYTES_REPR: Final = frozenset({"b'", 'b"', "by"})
# A tuple, not ``bytes | bytearray | memoryview``: isinstance() checks a tuple
# several times faster than a union, and this runs on every call.
_BINARY: Final = (bytes, bytearray, memoryview)


def _is_sqlalchemy(exc: BaseException) -> bool:
    return type(exc).__module__.startswith("sqlalchemy")


def unwrap(exc: BaseException) -> tuple[BaseException, bool]:
    """
    Find the driver's exception inside *exc*.

    Follows SQLAlchemy's ``.orig``, Django's ``__cause__`` and any
    ``__cause__`` / ``__context__`` chain (bounded, cycle-safe) to the first
    exception a registered backend claims.

    Returns:
        ``(driver_exception, connection_invalidated)``; the exception itself
        (or SQLAlchemy's ``.orig``) when nothing in the chain is claimed.
    """
    found, _, invalidated, _ = _unwrap(exc)
    return found, invalidated


_Found = tuple[BaseException, Claim | None, bool, str | None]


def _unwrap(exc: BaseException) -> _Found:
    """Return (exception to classify, who claims it, connection_invalidated, wrapper text)."""
    claim = ErrorMapperRegistry.claim_for_type(type(exc))
    if claim is not None:
        return exc, claim, False, None  # the common case: the driver's own exception
    invalidated = False
    wrapper_text: str | None = None
    seen: set[int] = set()
    current: BaseException | None = exc
    candidate = exc  # what to classify when no backend claims anything in the chain
    for _ in range(CHAIN_LIMIT):
        if current is None or id(current) in seen:
            break
        seen.add(id(current))
        if _is_sqlalchemy(current):
            if getattr(current, "connection_invalidated", False) is True:
                invalidated = True
            if wrapper_text is None:
                wrapper_text = safe_text(current)
            orig = getattr(current, "orig", None)
            if isinstance(orig, BaseException):
                candidate = current = orig
                continue
        else:
            claim = ErrorMapperRegistry.claim_for_type(type(current))
            if claim is not None:
                return current, claim, invalidated, wrapper_text
        current = current.__cause__ or current.__context__
    return candidate, None, invalidated, wrapper_text


def _clean_message(text: str) -> str:
    match = _SQLALCHEMY_TRAILER.search(text)
    if match is not None:
        text = text[: match.start()]
    match = _SQLALCHEMY_PREFIX.match(text)
    if match is not None:
        text = text[match.end():]
    return text.strip()


def _bounded(text: str, secrets: Sequence[object]) -> str:
    if len(text) <= MESSAGE_LIMIT:
        return redact(text, secrets)
    # Redact a little past the cut, so a secret straddling it is still caught.
    head = redact(text[: MESSAGE_LIMIT + 1024], secrets)[:MESSAGE_LIMIT]
    return f"{head}... [truncated, {len(text)} characters in all]"


_SUGGESTIONS: dict[tuple[Kind, str | None, str | None, tuple[str, ...]], str] = {}
_SUGGESTION_CACHE_LIMIT: Final = 2048


def _render_suggestion(kind: Kind, info: KindInfo, mapped: MappedError) -> str:
    template = info.suggestion
    if "{" not in template:
        return template
    target = mapped.affected_resources[0] if mapped.affected_resources else None
    # The same few objects fail again and again: render each combination once.
    key = (kind, target, mapped.constraint, mapped.dependencies)
    cached = _SUGGESTIONS.get(key)
    if cached is not None:
        return cached
    deps = ", ".join(mapped.dependencies)
    fields = {
        "target": f"'{target}' " if target else "",
        "target_cap": f"'{target}' " if target else "The object ",
        "on_target": f" on '{target}'" if target else "",
        "constraint": f" ({mapped.constraint})" if mapped.constraint else "",
        "dependency": f" (change {deps} first)" if deps else "",
        "near": "",
    }
    rendered = template.format_map(fields)
    if len(_SUGGESTIONS) >= _SUGGESTION_CACHE_LIMIT:
        _SUGGESTIONS.clear()
    _SUGGESTIONS[key] = rendered
    return rendered


def _call_mapper(mapper: DatabaseErrorMapper, error: ErrorInput) -> MappedError | None:
    try:
        result = mapper.map_error(error)
    except Exception as exc:  # noqa: BLE001 - a raising mapper is isolated, not fatal
        warn_once(f"map:{type(mapper).__qualname__}:{type(exc).__name__}",
                  "mapper %s raised %r; using the fallback",
                  type(mapper).__qualname__, exc)
        return None
    kind: object = getattr(result, "kind", None)
    if result is not None and not (isinstance(result, MappedError) and isinstance(kind, Kind)):
        warn_once(f"type:{type(mapper).__qualname__}",
                  "mapper %s returned %r, not a MappedError; ignored",
                  type(mapper).__qualname__, type(result).__name__)
        return None
    return result


def _classify(
    exc: object,
    db_type: str | None,
    database: str | None,
    secrets: tuple[object, ...],
    code: str | int | None = None,
) -> StructuredErrorResponse:
    driver_exc: BaseException | None = None
    detected: Claim | None = None
    invalidated = False
    if isinstance(exc, BaseException):
        driver_exc, detected, invalidated, wrapper_text = _unwrap(exc)
        text = safe_text(driver_exc)
        if wrapper_text and not text.strip():
            text = wrapper_text
    else:
        text = safe_text(exc)
    # A claimed exception is a driver's own; only an unclaimed one can be SQLAlchemy's.
    if "[SQL:" in text or (detected is None and driver_exc is not None
                           and _is_sqlalchemy(driver_exc)):
        text = _clean_message(text)

    # Pick the mapper: an explicit, known db_type wins; else detect from the driver.
    mapper: DatabaseErrorMapper | None = None
    explicit = normalize_db_type(db_type) if db_type is not None else None
    if explicit is not None and explicit != "generic":
        mapper = ErrorMapperRegistry.lookup(explicit)
    driver: str | None = None
    if detected is not None:
        # The claimed class's driver: a user's subclass in "myapp" is still psycopg's.
        driver = detected.driver
        if mapper is None and explicit != "generic":
            mapper = detected.mapper
    elif driver_exc is not None:
        module = type(driver_exc).__module__
        driver = module.partition(".")[0] if module and module != "builtins" else None

    error = ErrorInput(driver_exc, text[:SCAN_LIMIT], code, driver, invalidated)
    key = _memo_key(mapper, error, database, secrets)
    if key is not None:
        try:
            cached = _MEMO.get(key)
        except TypeError:  # an unhashable code, secret or fingerprint
            key = None
        else:
            if cached is not None:
                return cached
    response = _answer(mapper, error, text, database, secrets)
    if key is not None:
        if len(_MEMO) >= MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = response
    return response


#: How many answers are remembered.  Agents repeat the same failure (a retry
#: loop, the same missing table), and a remembered answer costs a dictionary
#: look-up instead of the mapping.  Bounded: when full it starts over.
MEMO_LIMIT: Final = 1024
#: Longer messages are not remembered: they are rarely repeated word for word.
MEMO_TEXT_LIMIT: Final = 2048
_MEMO: dict[tuple[object, ...], StructuredErrorResponse] = {}


def _memo_key(
    mapper: DatabaseErrorMapper | None,
    error: ErrorInput,
    database: str | None,
    secrets: tuple[object, ...],
) -> tuple[object, ...] | None:
    """The key that determines the whole answer, or ``None`` when it cannot be remembered."""
    if len(error.message) > MEMO_TEXT_LIMIT:
        return None
    if mapper is None:
        fingerprint: Hashable | None = ()  # the keyword fallback reads the text and code only
    else:
        try:
            fingerprint = mapper.cache_key(error)
        except Exception:  # noqa: BLE001 - a mapper's bug costs it the memo, nothing more
            return None
        if fingerprint is None:
            return None
    return (mapper, type(error.exception), error.message, error.code,
            error.connection_invalidated, database, secrets, fingerprint)


def _answer(
    mapper: DatabaseErrorMapper | None,
    error: ErrorInput,
    text: str,
    database: str | None,
    secrets: tuple[object, ...],
) -> StructuredErrorResponse:
    invalidated = error.connection_invalidated
    mapped = _call_mapper(mapper, error) if mapper is not None else None
    backend = mapper.name if mapper is not None and mapped is not None else "generic"
    if mapped is None:
        mapped = GENERIC_MAPPER.map_error(error)
    elif mapped.kind is Kind.UNKNOWN:
        # Keep the backend's code and names; take the keyword kind.
        fallback = GENERIC_MAPPER.map_error(error)
        mapped = mapped._replace(
            kind=fallback.kind,
            code=mapped.code or fallback.code,
            affected_resources=mapped.affected_resources or fallback.affected_resources,
            constraint=mapped.constraint or fallback.constraint,
            schema=mapped.schema or fallback.schema,
        )
    kind = mapped.kind
    info = KIND_TABLE[kind]
    retryable = info.retryable if mapped.retryable is None else mapped.retryable
    if invalidated:
        # SQLAlchemy already judged the connection gone: trust it over the text.
        if info.category is not ErrorCategory.CONNECTION_ERROR:
            kind = Kind.CONNECTION_LOST
            info = KIND_TABLE[kind]
        retryable = True
    message = mapped.message if mapped.message is not None else text
    suggestion = _render_suggestion(kind, info, mapped)
    names = (mapped.affected_resources, mapped.dependencies, mapped.constraint, mapped.schema,
             mapped.code, database)
    # Names come from the message (or the server's diagnostics next to it); only
    # text with "=" or "@" can hold a credential's shape (see redact).
    if secrets or "=" in text or "@" in text or _may_hold_secret(names, message):
        suggestion = redact(suggestion, secrets)
        names = _redact_names(names, secrets)
    resources, dependencies, constraint, schema, native_code, database = names
    return StructuredErrorResponse(
        info.category,
        kind,
        retryable,
        _bounded(message, secrets),
        suggestion,
        info.actions,
        native_code,
        mapped.sqlstate,
        database or (mapper.name if mapper is not None else None),
        backend,
        resources,
        dependencies,
        constraint,
        schema,
        error.driver,
    )


_Names = tuple[tuple[str, ...], tuple[str, ...], str | None, str | None, str | None, str | None]


def _may_hold_secret(names: _Names, message: str) -> bool:
    if "=" in message or "@" in message:
        return True
    resources, dependencies, *rest = names
    # Names straight from server diagnostics, not from the text: check them too.
    return any("=" in n or "@" in n for n in (*resources, *dependencies, *rest) if n)


def _redact_names(names: _Names, secrets: Sequence[object]) -> _Names:
    resources, dependencies, constraint, schema, code, database = names
    return (
        tuple(redact(n, secrets) for n in resources),
        tuple(redact(n, secrets) for n in dependencies),
        _redact_opt(constraint, secrets),
        _redact_opt(schema, secrets),
        _redact_opt(code, secrets),
        _redact_opt(database, secrets),
    )


def _redact_opt(value: str | None, secrets: Sequence[object]) -> str | None:
    return None if value is None else redact(str(value), secrets)


def _last_resort(exc: object, secrets: Iterable[object]) -> StructuredErrorResponse:
    secrets = tuple(secrets) if not isinstance(secrets, tuple) else secrets
    info = KIND_TABLE[Kind.UNKNOWN]
    try:
        message = _bounded(safe_text(exc), secrets)
    except Exception:  # noqa: BLE001 - the answer of last resort cannot fail
        message = "unreadable error"
    return StructuredErrorResponse(
        error_type=info.category,
        kind=Kind.UNKNOWN,
        is_retryable=False,
        message=message,
        suggestion=info.suggestion,
        suggested_actions=info.actions,
    )


def classify_error(
    exc: object,
    db_type: str | None = None,
    *,
    database: str | None = None,
    secrets: Iterable[object] = (),
) -> StructuredErrorResponse:
    """
    Classify any database driver exception.  Never raises.

    Args:
        exc: The exception (a driver's, or one wrapping it: SQLAlchemy,
            Django, a ``raise ... from``); any other object is classified by
            its text.
        db_type: The backend, when known: ``"postgresql"``,
            ``"postgresql+psycopg"``, ``"PostgreSQL"`` and ``"postgres"`` are
            one backend; ``"generic"`` asks for the keyword fallback.  When
            omitted, the backend is detected from the driver's module.
        database: A database name to report in the ``database`` field.
        secrets: Values to mask in every output field (bound parameters,
            passwords the caller knows).

    Returns:
        The :class:`StructuredErrorResponse`.

    .. versionadded:: 0.1.0
    """
    try:
        return _classify(exc, db_type, database, tuple(secrets))
    except Exception as err:  # noqa: BLE001 - classification never raises
        warn_once(f"classify:{type(err).__name__}",
                  "classification failed internally: %r", err)
        return _last_resort(exc, secrets)


def classify_message(
    message: str | bytes,
    db_type: str | None = None,
    code: str | int | None = None,
    *,
    database: str | None = None,
    secrets: Iterable[object] = (),
) -> StructuredErrorResponse:
    """
    Classify an error known only by its text (and perhaps its native code).

    Args:
        message: The error text.
        db_type: The backend, as for :func:`classify_error`.
        code: The native code, when known: a SQLSTATE, an errno,
            ``ORA-00942``, a SQL Server number, a SQLite result name.
        database: A database name to report.
        secrets: Values to mask.

    Returns:
        The :class:`StructuredErrorResponse`.

    .. versionadded:: 0.1.0
    """
    try:
        text = safe_text(message)
        if "[SQL:" in text:
            text = _clean_message(text)
        return _classify(text, db_type, database, tuple(secrets), code=code)
    except Exception as err:  # noqa: BLE001 - classification never raises
        warn_once(f"classify:{type(err).__name__}",
                  "classification failed internally: %r", err)
        return _last_resort(message, secrets)


def is_error_retryable(exc: object, db_type: str | None = None) -> bool:
    """
    Whether repeating the failed call may succeed.  Never raises.

    .. versionadded:: 0.1.0
    """
    return classify_error(exc, db_type).is_retryable


def get_error_suggestion(exc: object, db_type: str | None = None) -> str:
    """
    One sentence on what to do next.  Never raises.

    .. versionadded:: 0.1.0
    """
    return classify_error(exc, db_type).suggestion
