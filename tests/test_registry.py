"""The registry: names, programmatic registration, entry-point discovery, one instance per user."""

from __future__ import annotations

import importlib.metadata
import sqlite3
import sys
import threading
import time
import types

import pytest

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    ErrorMapperRegistry,
    Kind,
    MappedError,
    MapperRegistry,
    NoSuchMapperError,
    classify_error,
    classify_message,
    default_registry,
    hookimpl,
    normalize_db_type,
)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("PostgreSQL", "postgresql"),
        ("postgresql+psycopg", "postgresql"),
        ("postgres", "postgresql"),
        (" MariaDB ", "mysql"),
        ("mysql+pymysql", "mysql"),
        ("sqlite3", "sqlite"),
        ("SQL Server", "mssql"),
        ("mssql+pyodbc", "mssql"),
        ("oracle+oracledb", "oracle"),
        ("generic", "generic"),
        (None, "generic"),
        (42, "generic"),
        ("mydb", "mydb"),
    ],
)
def test_normalize_db_type(given: object, expected: str) -> None:
    assert normalize_db_type(given) == expected


class _ShoutMapper(BackendMapper):
    name = "shoutdb"
    aliases = ("shout",)
    driver_modules = ("shoutdriver",)

    def map_error(self, error: ErrorInput) -> MappedError | None:
        if "NOPE" in error.message:
            return MappedError(
                kind=Kind.UNDEFINED_TABLE, code="SH-1", affected_resources=("things",)
            )
        return None


def _shout_error_class() -> type[Exception]:
    return type("ShoutError", (Exception,), {"__module__": "shoutdriver.errors"})


def _sqlite_error(sql: str = "SELECT * FROM orders") -> sqlite3.Error:
    try:
        sqlite3.connect(":memory:").execute(sql)
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("no error")


def test_register_get_unregister() -> None:
    registry = MapperRegistry(plugins=False)
    mapper = _ShoutMapper()
    registry.register("shoutdb", mapper)
    assert registry.get_mapper("SHOUT") is mapper
    info = next(i for i in registry.list_mappers() if i.name == "shoutdb")
    assert info.source == "register()"
    assert info.aliases == ("shout",)
    assert registry.unregister("shoutdb") is mapper
    with pytest.raises(NoSuchMapperError, match="localdata_errors:shoutdb"):
        registry.get_mapper("shoutdb")
    assert registry.lookup("shoutdb") is None


def test_register_rejects_bad_input() -> None:
    registry = MapperRegistry(plugins=False)
    with pytest.raises(TypeError):
        registry.register("x", object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reserved"):
        registry.register("generic", _ShoutMapper())
    with pytest.raises(ValueError, match="non-empty"):
        registry.register("  ", _ShoutMapper())


def test_registries_are_independent() -> None:
    mine = MapperRegistry(plugins=False)
    mine.register("shoutdb", _ShoutMapper())
    exc = _shout_error_class()("NOPE: no things here")
    assert classify_error(exc, registry=mine).backend == "shoutdb"
    # Neither another instance nor the default one knows it.
    assert classify_error(exc, registry=MapperRegistry(plugins=False)).backend == "generic"
    assert classify_error(exc).backend == "generic"
    assert default_registry().lookup("shoutdb") is None


def test_detection_by_driver_module_and_explicit_db_type() -> None:
    registry = MapperRegistry(plugins=False)
    registry.register("shoutdb", _ShoutMapper())
    exc = _shout_error_class()("NOPE: no things here")
    resp = classify_error(exc, registry=registry)
    assert (resp.backend, resp.kind, resp.database_error_code) == (
        "shoutdb",
        Kind.UNDEFINED_TABLE,
        "SH-1",
    )
    assert resp.affected_resources == ("things",)
    # explicit db_type, message only
    assert classify_message("NOPE", db_type="shout", registry=registry).backend == "shoutdb"
    # the mapper declines: the generic fallback answers
    other = classify_error(_shout_error_class()("deadlock detected"), registry=registry)
    assert other.backend == "generic"
    assert other.kind is Kind.DEADLOCK_DETECTED


def test_subclass_defined_elsewhere_is_detected_through_its_mro() -> None:
    registry = MapperRegistry(plugins=False)
    registry.register("shoutdb", _ShoutMapper())
    sub = type("AppError", (_shout_error_class(),), {"__module__": "myapp.errors"})
    resp = classify_error(sub("NOPE"), registry=registry)
    assert resp.backend == "shoutdb"
    # The driver is the claimed class's, not the application's module.
    assert resp.driver == "shoutdriver"
    claim = registry.claim_for_type(sub)
    assert claim is not None
    assert (claim.name, claim.driver) == ("shoutdb", "shoutdriver")


def test_the_localdata_mcp_style_facade_is_the_default_registry() -> None:
    ErrorMapperRegistry.register("shoutdb", _ShoutMapper())
    assert ErrorMapperRegistry.get_mapper("shout") is default_registry().get_mapper("shoutdb")
    assert classify_error(_shout_error_class()("NOPE")).backend == "shoutdb"
    assert "shoutdb" in ErrorMapperRegistry.names()
    ErrorMapperRegistry.unregister("shoutdb")
    assert ErrorMapperRegistry.lookup("shoutdb") is None


def test_built_in_backends_report_this_distribution_and_version() -> None:
    from localdata_errors import __version__

    rows = {info.name: info for info in MapperRegistry(plugins=False).list_mappers()}
    assert {"sqlite", "duckdb", "postgresql", "mysql", "oracle", "mssql"} <= set(rows)
    for name in ("sqlite", "postgresql"):
        assert (rows[name].source, rows[name].distribution, rows[name].version) == (
            "built-in",
            "localdata-errors",
            __version__,
        )


# -- entry points ---------------------------------------------------------------


def _fake_entry_point(
    monkeypatch: pytest.MonkeyPatch, name: str, module: types.ModuleType
) -> list[dict[str, object]]:
    """Make *module* a plugin of the group; returns the list of entry_points() calls."""
    monkeypatch.setitem(sys.modules, module.__name__, module)
    real = importlib.metadata.entry_points
    calls: list[dict[str, object]] = []

    def entry_points(**kwargs: object) -> object:
        calls.append(kwargs)
        eps = list(real(**kwargs))  # type: ignore[arg-type]
        if kwargs.get("group") == "localdata_errors":
            eps.append(
                importlib.metadata.EntryPoint(
                    name=name, value=module.__name__, group="localdata_errors"
                )
            )
        return eps

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    return calls


@pytest.fixture
def fake_plugin(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = types.ModuleType("shout_plugin")

    @hookimpl
    def localdata_errors_mappers() -> list[BackendMapper]:
        return [_ShoutMapper()]

    module.localdata_errors_mappers = localdata_errors_mappers  # type: ignore[attr-defined]
    _fake_entry_point(monkeypatch, "shoutdb", module)
    return module


def test_entry_point_plugin_is_a_first_class_backend(fake_plugin: types.ModuleType) -> None:
    registry = MapperRegistry()
    assert "shoutdb" in registry.names()
    info = next(i for i in registry.list_mappers() if i.name == "shoutdb")
    assert info.source == "entry point"
    assert classify_error(_shout_error_class()("NOPE"), registry=registry).backend == "shoutdb"
    assert registry.plugin_manager().is_registered(fake_plugin)
    # A registry that is told not to load plugins does not.
    assert "shoutdb" not in MapperRegistry(plugins=False).names()


def test_discovery_is_lazy_and_once(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("lazy_plugin")
    calls = _fake_entry_point(monkeypatch, "lazy", module)
    registry = MapperRegistry()
    assert calls == []
    classify_message("x", registry=registry)
    classify_message("y", registry=registry)
    registry.names()
    assert len(calls) == 1


def test_code_registered_before_first_use_wins_over_a_built_in_name() -> None:
    registry = MapperRegistry(plugins=False)

    class MySqlite(_ShoutMapper):
        name = "sqlite"

    mine = MySqlite()
    registry.register("sqlite", mine)
    assert registry.get_mapper("sqlite") is mine
    assert registry.list_mappers()[0].mapper is not None


def test_a_plugin_hook_that_blocks_does_not_stall_other_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A plugin's hook that never returns while another thread classifies: the
    # other thread answers with what is registered (the built-ins), at once.
    release = threading.Event()
    entered = threading.Event()
    module = types.ModuleType("slow_plugin")

    @hookimpl
    def localdata_errors_mappers() -> list[BackendMapper]:
        entered.set()
        release.wait(timeout=30)
        return [_ShoutMapper()]

    module.localdata_errors_mappers = localdata_errors_mappers  # type: ignore[attr-defined]
    _fake_entry_point(monkeypatch, "slow", module)
    registry = MapperRegistry()
    discoverer = threading.Thread(target=registry.names)
    discoverer.start()
    try:
        assert entered.wait(timeout=30)
        started = time.monotonic()
        answer = classify_error(_sqlite_error(), registry=registry)
        waited = time.monotonic() - started
        assert (answer.backend, answer.kind) == ("sqlite", Kind.UNDEFINED_TABLE)
        assert discoverer.is_alive()  # still inside the plugin's hook
        assert waited < 25  # not the plugin's 30 s: nobody waited for it
    finally:
        release.set()
        discoverer.join(timeout=30)
    assert "shoutdb" in registry.names()


def test_a_plugin_that_fails_is_left_out_and_the_rest_work(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    module = types.ModuleType("raising_plugin")

    @hookimpl
    def localdata_errors_mappers() -> list[BackendMapper]:
        raise RuntimeError("plugin bug")

    module.localdata_errors_mappers = localdata_errors_mappers  # type: ignore[attr-defined]
    _fake_entry_point(monkeypatch, "raising", module)
    registry = MapperRegistry()
    with caplog.at_level("WARNING", logger="localdata_errors"):
        answer = classify_error(_sqlite_error(), registry=registry)
    assert answer.kind is Kind.UNDEFINED_TABLE
    assert any("plugin bug" in r.getMessage() for r in caplog.records)


def test_an_answer_of_the_wrong_types_gets_the_fallbacks_answer() -> None:
    class Sloppy(_ShoutMapper):
        def map_error(self, error: ErrorInput) -> MappedError | None:
            # Names as a list and a number for a code: not what the contract says.
            return MappedError(Kind.UNDEFINED_TABLE, 42, affected_resources=["t"])  # type: ignore[arg-type]

    sloppy = MapperRegistry(plugins=False)
    sloppy.register("shoutdb", Sloppy())
    exc = _shout_error_class()('relation "orders" does not exist')
    answer = classify_error(exc, registry=sloppy)
    # The keyword fallback's answer, as if the mapper had raised; never `unknown`.
    assert answer.kind is Kind.UNDEFINED_TABLE
    assert answer.backend == "generic"
    assert answer.affected_resources == ("orders",)
