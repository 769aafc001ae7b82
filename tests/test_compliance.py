"""
The compliance suite (``localdata_errors.testing``): run over every built-in backend, and on itself.

The backends are found by their entry-point names, read without loading them,
so a backend that lands later is covered without touching this file; one
whose module is not there yet is skipped with a reason.
"""

from __future__ import annotations

import importlib.metadata
import logging
import sqlite3
import subprocess
import sys
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    ErrorMapperRegistry,
    Kind,
    MappedError,
    MapperRegistry,
    classify_error,
    hookimpl,
)
from localdata_errors._backends import BACKENDS
from localdata_errors.testing import (
    MapperComplianceSuite,
    assert_mapper_compliant,
    check_declared_codes,
    check_hostile_inputs,
    check_pasted_text,
    check_types,
    hostile_exceptions,
    hostile_inputs,
    run_mapper_compliance,
)

# The built-in backends, from the one table of backend names.
BUILTIN = sorted(BACKENDS)
CHECKS = ("types", "hostile_inputs", "shapes_json_safe", "declared_codes")


def _builtin_mapper(name: str) -> BackendMapper:
    mapper = ErrorMapperRegistry.lookup(name)
    if mapper is None:
        pytest.fail(f"the built-in {name} backend is not registered")
    return mapper


# -- driver exceptions built as the drivers build them, per backend ---------------------------


def _sqlite_exception(code: str, message: str) -> BaseException:
    # _sqlite3 sets these two attributes on every exception it raises (3.11+).
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorname = code
    exc.sqlite_errorcode = -1  # the name is the code; the number is not looked at first
    return exc


def _pymysql_exception(code: str, message: str) -> BaseException:
    pymysql = pytest.importorskip("pymysql")
    # pymysql.err.raise_mysql_exception: errorclass(errno, errval).
    cls: Any = pymysql.err.OperationalError
    return cls(int(code), message)  # type: ignore[no-any-return]


def _psycopg_exception(code: str, message: str) -> BaseException | None:
    psycopg = pytest.importorskip("psycopg")
    # psycopg picks the class by SQLSTATE; the class carries it as ``sqlstate``.
    # A code newer than this psycopg has no class of its own: psycopg then
    # reads it from the server's result, which only a server can give.
    try:
        cls: Any = psycopg.errors.lookup(code)
    except KeyError:
        return None
    return cls(message)  # type: ignore[no-any-return]


FACTORIES = {
    "sqlite": _sqlite_exception,
    "mysql": _pymysql_exception,
    "postgresql": _psycopg_exception,
}

# Findings of this suite in backends owned elsewhere, kept as failing tests
# until fixed (strict: the day one is fixed, the XPASS says to drop its line).
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def _cases() -> Iterator[Any]:
    for name in BUILTIN:
        for check in CHECKS:
            reason = KNOWN_FAILURES.get((name, check))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            yield pytest.param(name, check, id=f"{name}-{check}", marks=marks)


@pytest.mark.parametrize(("name", "check"), list(_cases()))
def test_builtin_backend_compliance(name: str, check: str) -> None:
    mapper = _builtin_mapper(name)
    if check == "types":
        problems = check_types(mapper)
    elif check == "hostile_inputs":
        problems = check_hostile_inputs(mapper)
    elif check == "shapes_json_safe":
        from localdata_errors.testing import check_classify_shapes

        problems = check_classify_shapes(mapper)
    else:
        problems = check_declared_codes(mapper, exception_factory=FACTORIES.get(name))
    assert problems == []


def test_every_builtin_declares_codes_and_driver_modules() -> None:
    present = [info for info in ErrorMapperRegistry.list_mappers() if info.name in BUILTIN]
    assert (
        sorted(info.name for info in present)
        == BUILTIN
        == ["duckdb", "mssql", "mysql", "oracle", "postgresql", "sqlite"]
    )
    assert all(info.source == "built-in" for info in present)
    for info in present:
        assert info.driver_modules, info.name
        assert len(info.mapper.declared_codes()) > 0, info.name


# -- the suite catches what it claims to catch ---------------------------------------------


class _GoodMapper(BackendMapper):
    """A small, correct mapper: reads ``.code`` defensively, knows two codes."""

    name = "compliancedb"
    aliases = ("cdb",)
    driver_modules = ("compliancedriver",)
    display_name = "ComplianceDB"
    _CODES: ClassVar[dict[str, Kind]] = {
        "CD-1": Kind.UNDEFINED_TABLE,
        "CD-2": Kind.DEADLOCK_DETECTED,
    }

    def map_error(self, error: ErrorInput) -> MappedError | None:
        code = error.code if isinstance(error.code, str) else None
        if code is None and error.exception is not None:
            try:
                value = getattr(error.exception, "code", None)
            except Exception:
                value = None
            code = value if isinstance(value, str) else None
        kind = self._CODES.get(code) if code else None
        return None if kind is None else MappedError(kind, code=code)

    def declared_codes(self) -> dict[str, Kind]:
        return dict(self._CODES)


def _exception_for(code: str, message: str) -> BaseException:
    cls = type("ComplianceError", (Exception,), {"__module__": "compliancedriver.errors"})
    exc = cls(message)
    exc.code = code  # type: ignore[attr-defined]
    return exc


def test_good_mapper_is_compliant_and_is_restored() -> None:
    assert run_mapper_compliance(_GoodMapper(), exception_factory=_exception_for) == []
    assert_mapper_compliant(_GoodMapper())
    # The temporary registration is undone.
    assert ErrorMapperRegistry.lookup("compliancedb") is None
    # And an existing registration is kept as it was.
    mine = _GoodMapper()
    ErrorMapperRegistry.register("compliancedb", mine)
    assert run_mapper_compliance(_GoodMapper()) == []
    assert ErrorMapperRegistry.lookup("compliancedb") is mine


class TestGoodMapperThroughTheSuiteClass(MapperComplianceSuite):
    @pytest.fixture
    def mapper(self) -> BackendMapper:
        return _GoodMapper()

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        return _exception_for(code, message)


class _RaisingMapper(_GoodMapper):
    name = "raisingdb"

    def map_error(self, error: ErrorInput) -> MappedError | None:
        return MappedError(Kind.SYNTAX_ERROR, code=str(len(error.message) // 0))


class _WrongTypeMapper(_GoodMapper):
    name = "wrongtypedb"

    def map_error(self, error: ErrorInput) -> MappedError | None:
        if error.exception is None:
            return MappedError(
                Kind.SYNTAX_ERROR,
                code=42,  # type: ignore[arg-type]
                affected_resources=["t"],
            )  # type: ignore[arg-type]
        return {"kind": "syntax_error"}  # type: ignore[return-value]


class _LyingMapper(_GoodMapper):
    name = "lyingdb"

    def declared_codes(self) -> dict[str, Kind]:
        return {"CD-1": Kind.UNIQUE_VIOLATION, "CD-9": Kind.DISK_FULL}


class _BadAttributesMapper(_GoodMapper):
    name = "Bad Name"
    aliases = ["b"]  # type: ignore[assignment]  # noqa: RUF012 - the wrong type is the test
    driver_modules = ("", 3)  # type: ignore[assignment]


def test_a_raising_mapper_is_reported() -> None:
    problems = check_hostile_inputs(_RaisingMapper())
    assert problems
    assert all("ZeroDivisionError" in p for p in problems if "more" not in p)
    with pytest.raises(AssertionError, match=r"_RaisingMapper is not compliant"):
        assert_mapper_compliant(_RaisingMapper())


def test_wrong_return_types_are_reported() -> None:
    problems = check_hostile_inputs(_WrongTypeMapper())
    assert any("code is int" in p for p in problems)
    assert any("affected_resources" in p for p in problems)
    assert any("returned dict, not a MappedError" in p for p in problems)


def test_misdeclared_codes_are_reported() -> None:
    problems = check_declared_codes(_LyingMapper())
    assert (
        "classify_message(code='CD-1'): kind undefined_table, declared unique_violation" in problems
    )
    assert "classify_message(code='CD-9'): kind unknown, declared disk_full" in problems


def test_bad_class_attributes_are_reported() -> None:
    problems = check_types(_BadAttributesMapper())
    assert any(p.startswith("name 'Bad Name' is not normalised") for p in problems)
    assert any(p.startswith("aliases must be a tuple") for p in problems)
    assert any(p.startswith("driver_modules must hold strings only") for p in problems)
    assert check_types(object()) == [  # type: ignore[arg-type]
        "object is neither a BackendMapper nor a DatabaseErrorMapper"
    ]


def test_a_blocking_mapper_is_reported() -> None:
    # A limit of zero makes every call "slow": the check itself is exercised
    # without depending on how fast this machine is.
    problems = check_hostile_inputs(_GoodMapper(), slow_call_limit=0.0)
    assert problems
    assert "no I/O, no blocking" in problems[0]


def test_battery_reaches_the_mapper_through_detection() -> None:
    ErrorMapperRegistry.register("compliancedb", _GoodMapper())
    labels = [label for label, _ in hostile_exceptions(_GoodMapper())]
    assert len(labels) == len(set(labels)) > 50
    for _, exc in hostile_exceptions(_GoodMapper()):
        claim = ErrorMapperRegistry.claim_for_type(type(exc))
        assert claim is not None
        assert claim.name == "compliancedb"
        assert classify_error(exc).error_type is not None
    assert sum(1 for _ in hostile_inputs(_GoodMapper())) > 300


def test_importing_testing_does_not_import_pytest() -> None:
    code = (
        "import sys, localdata_errors.testing; "
        "sys.exit(1 if 'pytest' in sys.modules or '_pytest' in sys.modules else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# -- misbehaving plugins are isolated, logged once, and classification continues -------------


class _FakeEntryPoint:
    """What importlib.metadata hands the registry, with a load() we control."""

    def __init__(self, name: str, load: Any) -> None:
        self.name = name
        self.value = f"lde_fake_plugins.{name}"
        self.group = "localdata_errors"
        self.dist = None
        self._load = load

    def load(self) -> Any:
        return self._load()


def _plugin(name: str, hook: Any) -> types.ModuleType:
    module = types.ModuleType(f"lde_fake_plugins.{name}")
    module.localdata_errors_mappers = hookimpl(hook)  # type: ignore[attr-defined]
    return module


def _fail_import() -> Any:
    raise ImportError("No module named 'lde_missing_dependency'")


def _raise_in_hook() -> list[BackendMapper]:
    raise RuntimeError("plugin hook exploded")


def _wrong_type() -> Any:
    return 42


class _DupMapper(_GoodMapper):
    name = "lde_dupdb"
    driver_modules = ("lde_dupdriver",)


class _ClaimsSqlite(_GoodMapper):
    name = "sqlite"
    driver_modules = ("lde_impostor",)


def _registers_twice() -> list[BackendMapper]:
    return [_DupMapper(), _DupMapper()]


def _claims_builtin_name() -> list[BackendMapper]:
    return [_ClaimsSqlite()]


def _bad_signature(unexpected_argument: object) -> list[BackendMapper]:
    return []


class _MapRaises(_GoodMapper):
    name = "lde_mapraisesdb"
    driver_modules = ("lde_mapraises",)

    def map_error(self, error: ErrorInput) -> MappedError | None:
        raise KeyError("mapper bug")


PLUGIN_FAULTS: dict[str, tuple[Any, str]] = {
    "fails_to_import": (_fail_import, "failed to load"),
    "raises_in_hook": (lambda: _plugin("raises_in_hook", _raise_in_hook), "raised"),
    "wrong_type": (lambda: _plugin("wrong_type", _wrong_type), "malformed"),
    "registers_twice": (lambda: _plugin("registers_twice", _registers_twice), "again"),
    "claims_builtin": (lambda: _plugin("claims_builtin", _claims_builtin_name), "again"),
    "bad_signature": (lambda: _plugin("bad_signature", _bad_signature), "rejected"),
}


def _sqlite_error() -> sqlite3.Error:
    try:
        sqlite3.connect(":memory:").execute("SELECT * FROM lde_missing_table")
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("no error")


@pytest.mark.parametrize("fault", sorted(PLUGIN_FAULTS))
def test_a_misbehaving_plugin_is_isolated_and_logged_once(
    fault: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    exc = _sqlite_error()
    expected = classify_error(exc).to_dict()  # with the real plugins only
    real = importlib.metadata.entry_points
    load, words = PLUGIN_FAULTS[fault]
    fake = _FakeEntryPoint(f"lde_{fault}", load)

    def entry_points(**params: Any) -> list[Any]:
        return [*real(**params), fake]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    registry = MapperRegistry()
    with caplog.at_level(logging.DEBUG, logger="localdata_errors"):
        for _ in range(3):
            assert classify_error(exc, registry=registry).to_dict() == expected
        names = registry.names()
    mine = [
        r
        for r in caplog.records
        if r.levelno == logging.WARNING and f"lde_{fault}" in r.getMessage()
    ]
    assert len(mine) == 1, [r.getMessage() for r in mine]
    assert words in mine[0].getMessage()
    # Nothing of the faulty plugin was kept, except the first of a duplicate.
    if fault == "registers_twice":
        assert "lde_dupdb" in names
    if fault == "claims_builtin" and "sqlite" in names:
        assert not isinstance(registry.get_mapper("sqlite"), _ClaimsSqlite)


def test_a_raising_map_error_is_logged_once_and_the_fallback_answers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ErrorMapperRegistry.register("lde_mapraisesdb", _MapRaises())
    klass = type("Error", (Exception,), {"__module__": "lde_mapraises.errors"})
    with caplog.at_level(logging.WARNING, logger="localdata_errors"):
        answers = [classify_error(klass("deadlock detected")) for _ in range(5)]
    assert {a.backend for a in answers} == {"generic"}
    assert {a.kind for a in answers} == {Kind.DEADLOCK_DETECTED}
    mine = [r for r in caplog.records if "_MapRaises" in r.getMessage()]
    assert len(mine) == 1


def test_check_pasted_text_names_each_part_the_text_gets_wrong() -> None:
    text = "sqlite3.OperationalError: database is locked"
    assert check_pasted_text(text, "sqlite", Kind.DATABASE_LOCKED, "SQLITE_BUSY") == []
    problems = check_pasted_text(text, "postgresql", Kind.UNDEFINED_TABLE, "42P01")
    assert [p.partition(":")[0] for p in problems] == [
        "backend",
        "error_type",
        "is_retryable",
        "database_error_code",
    ]
