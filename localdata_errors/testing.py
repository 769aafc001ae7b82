"""
A compliance suite any mapper (built-in or third-party) runs against itself.

Three ways to use it:

```python
from localdata_errors.testing import run_mapper_compliance, assert_mapper_compliant

problems = run_mapper_compliance(MyMapper())   # a list of strings; empty is good
assert_mapper_compliant(MyMapper())            # raises AssertionError listing them

# or, in a pytest module, one test per check:
from localdata_errors.testing import MapperComplianceSuite

class TestMyMapper(MapperComplianceSuite):
    @pytest.fixture
    def mapper(self):
        return MyMapper()
```
What is checked:

* **types**: ``name`` is a non-empty, normalised ``str``; ``aliases`` and
  ``driver_modules`` are tuples of ``str``; ``declared_codes()`` maps ``str``
  to `Kind`;
* **never fails**: ``map_error`` neither raises nor returns anything but
  ``MappedError | None`` (with well-typed fields) on a battery of hostile
  inputs (`hostile_inputs`): wrong attribute types, attributes that
  raise on access, ``__str__`` that raises, 16 KiB of junk, control
  characters, odd explicit codes;
* **never blocks**: no single ``map_error`` call takes longer than
  ``slow_call_limit`` seconds (a generous bound that only catches I/O, sleeps
  and runaway regular expressions);
* **JSON-safe**: every shape of `classify_error`'s
  answer to those inputs survives `json.dumps`;
* **declared codes**: each code of ``declared_codes()`` is classified to its
  declared kind by ``classify_message(text, db_type=name, code=code)``, and
  ``database_error_code`` keeps it; with an ``exception_factory`` (which
  builds the driver's exception for a code, as the driver would), through
  ``classify_error`` too.

A refiner (`ErrorRefiner`) is checked through the
backends it refines: the hostile exceptions claim their driver modules,
``refine_error`` is also called with hostile base answers, and declared codes
built by the exception factory are classified both detected (no
``db_type``: the base backend claims the exception and the refiner
recognises it) and named.

Nothing here imports pytest: `MapperComplianceSuite` is a plain class
whose ``test_*`` methods pytest collects in a subclass that provides the
``mapper`` fixture.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

from localdata_errors._backends import normalize_db_type
from localdata_errors._classify import classify_error, classify_message
from localdata_errors._kinds import KIND_TABLE, Kind
from localdata_errors._log import forget
from localdata_errors._mapper import (
    BackendMapper,
    ErrorInput,
    ErrorRefiner,
    MappedError,
    RefinerClaims,
    answer_problems,
)
from localdata_errors._registry import MapperRegistry, mapper_problems, replace_default_registry
from localdata_errors._response import StructuredErrorResponse

__all__ = [
    "ExceptionFactory",
    "MapperComplianceSuite",
    "assert_mapper_compliant",
    "check_classify_shapes",
    "check_declared_codes",
    "check_hostile_inputs",
    "check_pasted_text",
    "check_types",
    "fresh_default_registry",
    "hostile_exceptions",
    "hostile_inputs",
    "response_shapes",
    "run_mapper_compliance",
]

#: Builds the driver's exception for a native code and a message, as the driver
#: would; ``None`` for a code the driver cannot raise by itself (that code is
#: then checked through ``classify_message`` only).
ExceptionFactory = Callable[[str, str], BaseException | None]

#: The default bound on one ``map_error`` call, in seconds: generous enough for
#: a loaded CI machine, far below what I/O or catastrophic backtracking costs.
SLOW_CALL_LIMIT: Final = 1.0

#: At most this many problems are reported per check; the rest are counted.
_REPORT_LIMIT: Final = 20


class _BoomError(Exception):
    """Raised by hostile attributes and ``__str__`` methods."""


def _raise(*_args: object) -> Any:
    raise _BoomError("attribute access raised")


class _RaisingDiag:
    """A ``diag`` whose every attribute raises, like a diagnostic of a closed result."""

    def __getattr__(self, name: str) -> Any:
        raise _BoomError(f"diag.{name} raised")


_RAISING = property(_raise)

#: Attribute names drivers put their codes and details on, across backends.
_CODE_ATTRIBUTES: Final = (
    "sqlstate",
    "pgcode",
    "pgerror",
    "errno",
    "msg",
    "errmsg",
    "code",
    "full_code",
    "number",
    "msg_no",
    "severity",
    "sqlite_errorcode",
    "sqlite_errorname",
    "diag",
    "table_name",
    "column_name",
    "constraint_name",
    "schema_name",
    "offset",
    "context",
    "message",
    "text",
    "line",
)

_JUNK: Final = (
    "\x00\x01\x02\x1b[31m\x7f\ud800"  # control characters, an escape sequence, a lone surrogate
    + "é中\u202e\ufeff"  # non-ASCII, a right-to-left override, a BOM
)


def _hostile_attribute_sets() -> Iterator[tuple[str, dict[str, Any]]]:
    """Attribute dictionaries of wrong types, ``None``s and raising properties."""
    yield "no attributes", {}
    yield (
        "wrong types",
        {
            "sqlstate": 42,
            "pgcode": None,
            "errno": "x",
            "code": 3.5,
            "number": "NaN",
            "msg_no": [1],
            "sqlite_errorcode": "busy",
            "sqlite_errorname": 5,
            "full_code": b"ORA-00942",
            "msg": object(),
            "errmsg": None,
            "severity": {},
            "diag": 12,
            "offset": "ten",
            "message": 7,
            "context": (),
        },
    )
    yield (
        "code-like strings",
        {
            "sqlstate": "42P01x",
            "pgcode": "",
            "errno": "99999999999999999999",
            "code": "ORA-",
            "number": "-1",
            "sqlite_errorname": "SQLITE_",
            "full_code": "ORA-99999",
            "msg": "",
            "message": "",
        },
    )
    yield (
        "extreme numbers",
        {
            "errno": 2**80,
            "number": -(2**63),
            "code": True,
            "sqlstate": -1,
            "msg_no": 0,
            "sqlite_errorcode": 2**31,
        },
    )
    yield "raising properties", dict.fromkeys(_CODE_ATTRIBUTES, _RAISING)
    yield "raising diag", {"diag": _RaisingDiag(), "sqlstate": "23505"}


_ARGS: Final[tuple[tuple[str, tuple[Any, ...]], ...]] = (
    ("no args", ()),
    ("object arg", (object(),)),
    ("none arg", (None,)),
    ("int and bytes", (1146, b"Table 'x.y' doesn't exist \xff\xfe")),
    ("bytes junk", (bytes(range(256)) * 8,)),
    ("long message", ("x" * (16 * 1024),)),
    ("long names", ('relation "' + "a" * 8000 + '" does not exist',)),
    ("control characters", (_JUNK * 64,)),
    ("nested tuple", (("42S02", ("[42S02] nested", None)), {"k": "v"})),
    ("many args", tuple(range(64))),
)


def hostile_exceptions(mapper: BackendMapper) -> Iterator[tuple[str, BaseException]]:
    """
    Exceptions built to break a mapper, each claiming one of its driver modules.

    Every class's ``__module__`` is one of the mapper's ``driver_modules`` (for
    a refiner, also those of the backends it refines; ``builtins`` when there
    are none), so detection hands them to it.

    Args:
        mapper: The mapper under test.

    Returns:
        ``(label, exception)`` pairs.
    """
    modules = _detected_through(mapper)
    for module in modules or ("builtins",):
        for attr_label, attrs in _hostile_attribute_sets():
            for args_label, args in _ARGS:
                namespace = dict(attrs)
                namespace["__module__"] = module
                klass = type("HostileError", (Exception,), namespace)
                yield f"{module}: {attr_label}, {args_label}", klass(*args)
        # __str__ and __repr__ that raise: the core reads around them.
        unprintable = type(
            "UnprintableError",
            (Exception,),
            {
                "__module__": module,
                "__str__": _raise,
                "__repr__": _raise,
            },
        )
        yield f"{module}: unprintable", unprintable("hidden")
        # A subclass defined elsewhere keeps the driver's module in its MRO.
        base = type("DriverError", (Exception,), {"__module__": module})
        sub = type("AppError", (base,), {"__module__": "myapp.errors", "errno": "7"})
        yield f"{module}: subclass in the application", sub("app error")


_CODES: Final[tuple[str | int | None, ...]] = (
    None,
    "",
    0,
    -1,
    2**70,
    "42P01",
    "ORA-00942",
    "1146",
    "208",
    "SQLITE_BUSY",
    "x" * 4096,
    "\x00",
    "é",
)

_MESSAGES: Final[tuple[str, ...]] = (
    "",
    " ",
    _JUNK,
    "x" * (16 * 1024),
    "(" * 4096 + ")" * 4096,
    "'" * 8192,
    '"' * 8192,
    "`a`.`b`." * 2048,
    "ERROR 1146 (42S02) at line 1: " + "Table '" * 1000,
    "[42S02] [Microsoft]" + "[x]" * 2000,
    "ORA-00942: " + "ORA-" * 3000,
    "Key (" + "a, " * 3000 + ")=(",
    'relation "' + '\\"' * 4000,
    "\n".join(["DETAIL: x", "CONTEXT: y", "HINT: z"] * 500),
)


def hostile_inputs(mapper: BackendMapper) -> Iterator[tuple[str, ErrorInput]]:
    """
    The battery of `ErrorInput` values ``map_error`` must survive.

    Args:
        mapper: The mapper under test (its driver modules shape the exceptions).

    Returns:
        ``(label, error_input)`` pairs.
    """
    for i, message in enumerate(_MESSAGES):
        for code in _CODES:
            yield (f"message #{i}, code {code!r:.20}", ErrorInput(None, message, code, None, False))
    for label, exc in hostile_exceptions(mapper):
        message = _safe_str(exc)
        yield label, ErrorInput(exc, message, None, type(exc).__module__.partition(".")[0])
        yield f"{label}, invalidated", ErrorInput(exc, message, 42, None, True)


def _safe_str(obj: object) -> str:
    try:
        return str(obj)[: 16 * 1024]
    except Exception:  # noqa: BLE001 - a hostile __str__ is the point of the battery
        return ""


def _safe_tuple(value: object) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else ()


def _detected_through(mapper: BackendMapper) -> tuple[str, ...]:
    """The driver modules whose exceptions reach *mapper* by detection."""
    modules = [m for m in _safe_tuple(getattr(mapper, "driver_modules", ())) if m]
    if isinstance(mapper, ErrorRefiner):
        # A refiner is asked about the errors its base backends claim.
        registry = MapperRegistry(plugins=False)
        for base in _safe_tuple(getattr(mapper, "refines", ())):
            found = registry.lookup(base) if isinstance(base, str) else None
            if isinstance(found, BackendMapper) and found is not mapper:
                modules.extend(m for m in found.driver_modules if m not in modules)
    return tuple(modules)


#: Base answers a refiner's ``refine_error`` must survive, beside the base
#: mapper's real answers: nothing, a bare kind, codes and names of every odd shape.
_HOSTILE_BASES: Final[tuple[MappedError | None, ...]] = (
    None,
    MappedError(Kind.UNKNOWN),
    MappedError(Kind.SERIALIZATION_FAILURE, code="40001", sqlstate="40001"),
    MappedError(Kind.CONNECTION_FAILURE, code="08P01", sqlstate="08P01"),
    MappedError(Kind.UNKNOWN, code="1105", sqlstate="HY000"),
    MappedError(Kind.UNKNOWN, code="x" * 4096, sqlstate="", message=_JUNK * 64),
    MappedError(Kind.DUPLICATE_OBJECT, code="", affected_resources=("", "\x00" * 64)),
)


def response_shapes(resp: StructuredErrorResponse) -> dict[str, Any]:
    """
    Every shape a response renders to, by name.

    Args:
        resp: A classified error.

    Returns:
        ``{"to_dict": ..., "to_tool_error": ..., "to_jsonrpc_error": ...,
        "to_agent_response": ...}``.
    """
    return {
        "to_dict": resp.to_dict(),
        "to_tool_error": resp.to_tool_error(),
        "to_jsonrpc_error": resp.to_jsonrpc_error("compliance"),
        "to_agent_response": resp.to_agent_response(),
    }


@contextmanager
def fresh_default_registry() -> Iterator[MapperRegistry]:
    """
    A new default registry for the duration (it discovers the plugins afresh), then the old one.

    For tests that register into the default registry
    (`ErrorMapperRegistry.register`, as localdata-mcp's users do) or that
    expect a first warning: the package's "logged once" memory is cleared
    too.  A test that only needs its own mappers makes a `MapperRegistry`
    and passes it as `registry=`.

    Yields:
        The new default registry.
    """
    fresh = MapperRegistry()
    previous = replace_default_registry(fresh)
    forget()
    try:
        yield fresh
    finally:
        replace_default_registry(previous)
        forget()


# -- the checks --------------------------------------------------------------------------


def check_types(mapper: BackendMapper) -> list[str]:
    """
    Check the mapper's class attributes and ``declared_codes()`` types.

    Returns:
        The problems found; empty when compliant.
    """
    problems = mapper_problems(mapper)
    candidate: object = mapper  # typed as a mapper, checked as anything
    if not isinstance(candidate, BackendMapper):
        return problems or [f"{type(candidate).__name__} is not a BackendMapper"]
    name: object = mapper.name
    if isinstance(name, str) and name.strip() and normalize_db_type(name) != name:
        problems.append(
            f"name {name!r} is not normalised (normalize_db_type gives "
            f"{normalize_db_type(name)!r}); use the lower-case canonical name"
        )
    for attr in ("aliases", "driver_modules"):
        value: object = getattr(mapper, attr, None)
        flagged = any(p.startswith(f"{attr} ") for p in problems)
        good = isinstance(value, tuple) and all(isinstance(v, str) and v for v in value)
        if not good and not flagged:
            problems.append(f"{attr} must be a tuple of non-empty str, got {value!r}")
    if isinstance(mapper, ErrorRefiner) and mapper.claims == RefinerClaims():
        problems.append("a refiner claims nothing (claims: codes, driver modules, markers)")
    display: object = getattr(mapper, "display_name", "")
    if not isinstance(display, str):
        problems.append(f"display_name must be a str, got {display!r}")
    try:
        declared: object = mapper.declared_codes()
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return [*problems, f"declared_codes() raised {exc!r}"]
    if not isinstance(declared, Mapping):
        return [*problems, f"declared_codes() must return a Mapping, got {type(declared)!r}"]
    bad = [
        (c, k)
        for c, k in declared.items()
        if not (isinstance(c, str) and c and isinstance(k, Kind))
    ]
    problems.extend(
        f"declared code {c!r} -> {k!r}: must be a non-empty str -> Kind"
        for c, k in bad[:_REPORT_LIMIT]
    )
    return problems


def _check_mapped(label: str, result: object) -> list[str]:
    return [f"{label}: {problem}" for problem in answer_problems(result)]


def check_hostile_inputs(
    mapper: BackendMapper, *, slow_call_limit: float | None = SLOW_CALL_LIMIT
) -> list[str]:
    """
    Run ``map_error`` over `hostile_inputs`: it must not raise, block or mistype.

    Args:
        mapper: The mapper under test.
        slow_call_limit: Seconds one call may take before it is reported;
            ``None`` turns the check off.

    Returns:
        The problems found; empty when compliant.
    """
    problems: list[str] = []
    registry = _registry_with(mapper)
    for label, error in hostile_inputs(mapper):
        start = time.perf_counter()
        try:
            result = mapper.map_error(error)
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            problems.append(f"{label}: map_error raised {exc!r:.200}")
            continue
        elapsed = time.perf_counter() - start
        if slow_call_limit is not None and elapsed > slow_call_limit:
            problems.append(
                f"{label}: map_error took {elapsed:.2f} s (limit "
                f"{slow_call_limit} s): no I/O, no blocking, bounded regexes"
            )
        problems.extend(_check_mapped(label, result))
        if isinstance(mapper, ErrorRefiner):
            problems.extend(_check_refiner(registry, mapper, label, error, slow_call_limit))
    return _capped(problems)


def _check_refiner(
    registry: MapperRegistry,
    refiner: ErrorRefiner,
    label: str,
    error: ErrorInput,
    slow_call_limit: float | None,
) -> list[str]:
    """`refine_error` on one hostile input, with each hostile base answer and the base's own."""
    problems: list[str] = []
    base_mapper = registry.base_of(refiner)
    own: tuple[MappedError | None, ...] = ()
    if base_mapper is not None:
        try:
            own = (base_mapper.map_error(error),)
        except Exception:  # noqa: BLE001 - the base backend's own compliance reports it
            own = ()
    for base in (*_HOSTILE_BASES, *own):
        start = time.perf_counter()
        try:
            result = refiner.refine_error(error, base)
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            problems.append(f"{label}: refine_error raised {exc!r:.200}")
            continue
        elapsed = time.perf_counter() - start
        if slow_call_limit is not None and elapsed > slow_call_limit:
            problems.append(
                f"{label}: refine_error took {elapsed:.2f} s (limit {slow_call_limit} s)"
            )
        problems.extend(_check_mapped(f"{label} (refine_error)", result))
        if result is not None and not _claimed(registry, refiner, error, base):
            problems.append(
                f"{label}: refine_error answered an error its claims do not match "
                "(the core would not have asked it): declare the code, driver module "
                "or marker in claims"
            )
    return problems


def _claimed(
    registry: MapperRegistry, refiner: ErrorRefiner, error: ErrorInput, base: MappedError | None
) -> bool:
    """Whether the core asks *refiner* about *error* (its claims match)."""
    return any(
        refiner in registry.refiners_for(normalize_db_type(name), error, base)
        for name in refiner.refines
        if isinstance(name, str)
    )


def _check_shapes(label: str, resp: object) -> list[str]:
    if not isinstance(resp, StructuredErrorResponse):
        return [f"{label}: classify_error returned {type(resp).__name__}"]
    try:
        for shape, rendered in response_shapes(resp).items():
            json.dumps(rendered, allow_nan=False)
            if shape == "to_dict" and rendered.get("error") is not True:
                return [f"{label}: to_dict() lacks error: true"]
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return [f"{label}: a shape is not JSON-serialisable: {exc!r:.200}"]
    return []


def _registry_with(mapper: BackendMapper) -> MapperRegistry:
    """A registry of the built-in backends and *mapper*, under its name (no other plugin)."""
    registry = MapperRegistry(plugins=False)
    if not mapper_problems(mapper):
        registry.register(normalize_db_type(mapper.name), mapper)
    return registry


def check_classify_shapes(mapper: BackendMapper) -> list[str]:
    """
    Classify every hostile exception through the core; every shape must be JSON-safe.

    The mapper is registered under its name for the duration, if it is not already.

    Returns:
        The problems found; empty when compliant.
    """
    problems: list[str] = []
    registry = _registry_with(mapper)
    name = normalize_db_type(mapper.name)
    for label, exc in hostile_exceptions(mapper):
        for db_type in (None, name):
            resp = classify_error(exc, db_type, registry=registry)
            problems.extend(_check_shapes(f"{label} (db_type={db_type})", resp))
    for i, message in enumerate(_MESSAGES):
        resp = classify_message(message, name, code=42, registry=registry)
        problems.extend(_check_shapes(f"message #{i}", resp))
    return _capped(problems)


def check_declared_codes(
    mapper: BackendMapper,
    *,
    messages: Mapping[str, str] | None = None,
    exception_factory: ExceptionFactory | None = None,
) -> list[str]:
    """
    Check that every declared code is classified to its declared kind and kept.

    Args:
        mapper: The mapper under test.
        messages: Sample message text per code; codes without one are
            classified with a neutral text that names no keyword.
        exception_factory: Builds the driver's exception for ``(code, message)``;
            when given, each code is also classified through ``classify_error``,
            with the mapper's name as ``db_type`` and, when the mapper can be
            detected (it claims driver modules, or refines a backend that
            does), without one.

    Returns:
        The problems found; empty when compliant.
    """
    try:
        declared: Mapping[Any, object] = dict(mapper.declared_codes())
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return [f"declared_codes() raised {exc!r}"]
    problems: list[str] = []
    registry = _registry_with(mapper)
    name = normalize_db_type(mapper.name)
    if name:
        for code, kind in declared.items():
            if not isinstance(code, str) or not isinstance(kind, Kind):
                continue  # check_types reports these
            text = (messages or {}).get(code, f"error {code}")
            resp = classify_message(text, name, code=code, registry=registry)
            problems.extend(_compare(f"classify_message(code={code!r})", resp, code, kind))
            if exception_factory is not None:
                try:
                    built = exception_factory(code, text)
                except Exception as err:  # noqa: BLE001 - reported, not raised
                    problems.append(f"exception_factory({code!r}) raised {err!r}")
                    continue
                if built is None:
                    continue
                # A mapper that claims no driver module answers only to its
                # name; a refiner is also asked about its base backends' errors.
                detected = bool(mapper.driver_modules) or isinstance(mapper, ErrorRefiner)
                for db_type in (None, name) if detected else (name,):
                    resp = classify_error(built, db_type, registry=registry)
                    problems.extend(
                        _compare(
                            f"classify_error({type(built).__name__} code={code!r}, "
                            f"db_type={db_type})",
                            resp,
                            code,
                            kind,
                        )
                    )
    return _capped(problems)


def _compare(label: str, resp: StructuredErrorResponse, code: str, kind: Kind) -> list[str]:
    problems: list[str] = []
    # A declared Kind.UNKNOWN means "keep the code, let the keywords decide".
    if kind is not Kind.UNKNOWN and resp.kind is not kind:
        problems.append(f"{label}: kind {resp.kind.value}, declared {kind.value}")
    if resp.database_error_code != code:
        problems.append(
            f"{label}: database_error_code {resp.database_error_code!r}, expected {code!r}"
        )
    return problems


def check_pasted_text(text: str, backend: str, kind: Kind, code: str | None = None) -> list[str]:
    """
    Problems with reading a pasted *text*, as `classify_message(text)` reads it.

    The text must name *backend*, and get the category and the retry decision
    of *kind* (a label decided from the vendor's documentation) and, when
    given, the native *code* it carries or its wording gives.  The kind itself
    is not compared: a label's kind and the answer's may differ within one
    category and action (a system's generic "not found" for a table).

    Args:
        text: The error text, as a user pasted it.
        backend: The backend it must name.
        kind: The kind its label gives.
        code: The native code, or `None` when the text carries none.

    Returns:
        One line per problem; empty when there is none.
    """
    answer = classify_message(text)
    want = KIND_TABLE[kind]
    found = {
        "backend": (answer.backend, backend),
        "error_type": (answer.error_type, want.category),
        "is_retryable": (answer.is_retryable, want.retryable),
    }
    if code is not None:
        found["database_error_code"] = (answer.database_error_code, code)
    return [f"{field}: {got!r}, expected {expected!r}" for field, (got, expected) in found.items()
            if got != expected]  # fmt: skip


def _capped(problems: list[str]) -> list[str]:
    # The same fault usually shows on many inputs: report each distinct fault
    # once (with the first input that showed it and a count), then cap.
    first: dict[str, str] = {}
    counts: dict[str, int] = {}
    for problem in problems:
        _, _, fault = problem.partition(": ")
        key = re.sub(r"\d+", "N", fault or problem)
        first.setdefault(key, problem)
        counts[key] = counts.get(key, 0) + 1
    out = [
        first[key] + (f" (and {counts[key] - 1} similar)" if counts[key] > 1 else "")
        for key in first
    ]
    if len(out) <= _REPORT_LIMIT:
        return out
    return [*out[:_REPORT_LIMIT], f"... and {len(out) - _REPORT_LIMIT} more"]


def run_mapper_compliance(
    mapper: BackendMapper,
    *,
    messages: Mapping[str, str] | None = None,
    exception_factory: ExceptionFactory | None = None,
    slow_call_limit: float | None = SLOW_CALL_LIMIT,
) -> list[str]:
    """
    Run every check on *mapper*.

    Args:
        mapper: The mapper under test.
        messages: Sample message text per declared code (see
            `check_declared_codes`).
        exception_factory: Builds the driver's exception for a declared code.
        slow_call_limit: Seconds one ``map_error`` call may take.

    Returns:
        The problems found, each one line; empty when the mapper complies.
    """
    problems = check_types(mapper)
    candidate: object = mapper
    if problems and not isinstance(candidate, BackendMapper):
        return problems
    problems += check_hostile_inputs(mapper, slow_call_limit=slow_call_limit)
    if not problems:
        # The core checks need a mapper the registry accepts.
        problems += check_classify_shapes(mapper)
        problems += check_declared_codes(
            mapper, messages=messages, exception_factory=exception_factory
        )
    return problems


def assert_mapper_compliant(mapper: BackendMapper, **options: Any) -> None:
    """
    Raise `AssertionError` listing every problem `run_mapper_compliance` finds.

    Args:
        mapper: The mapper under test.
        options: Passed on to `run_mapper_compliance`.
    """
    problems = run_mapper_compliance(mapper, **options)
    if problems:
        raise AssertionError(
            f"{type(mapper).__name__} is not compliant:\n  " + "\n  ".join(problems)
        )


class MapperComplianceSuite:
    """
    Subclass in a pytest module and provide a ``mapper`` fixture; each check is one test.

    Override `messages` / `exception_factory` to check declared
    codes through real message text and real driver exceptions.
    """

    #: Sample message text per declared code.
    messages: Mapping[str, str] | None = None
    #: Seconds one ``map_error`` call may take.
    slow_call_limit: float | None = SLOW_CALL_LIMIT

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        """Build the driver's exception for *code*; ``None`` skips the ``classify_error`` check."""
        del code, message
        return None

    def _factory(self) -> ExceptionFactory | None:
        if type(self).exception_factory is MapperComplianceSuite.exception_factory:
            return None
        return self.exception_factory

    def test_types(self, mapper: BackendMapper) -> None:
        """The class attributes and declared codes are well typed."""
        problems = check_types(mapper)
        assert not problems, "\n".join(problems)  # noqa: S101 - a pytest test body

    def test_hostile_inputs(self, mapper: BackendMapper) -> None:
        """``map_error`` never raises, blocks or returns a wrong type."""
        problems = check_hostile_inputs(mapper, slow_call_limit=self.slow_call_limit)
        assert not problems, "\n".join(problems)  # noqa: S101 - a pytest test body

    def test_shapes_json_safe(self, mapper: BackendMapper) -> None:
        """Every shape of the core's answer is JSON-serialisable."""
        problems = check_classify_shapes(mapper)
        assert not problems, "\n".join(problems)  # noqa: S101 - a pytest test body

    def test_declared_codes(self, mapper: BackendMapper) -> None:
        """Each declared code is classified to its kind, and kept."""
        problems = check_declared_codes(
            mapper, messages=self.messages, exception_factory=self._factory()
        )
        assert not problems, "\n".join(problems)  # noqa: S101 - a pytest test body
