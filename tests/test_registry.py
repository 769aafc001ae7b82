"""The registry: names, programmatic registration, entry-point discovery."""

from __future__ import annotations

import importlib.metadata
import sys
import types

import pytest

from localdata_errors import (
    DatabaseErrorMapper,
    ErrorInput,
    ErrorMapperRegistry,
    Kind,
    MappedError,
    NoSuchMapperError,
    classify_error,
    classify_message,
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


class _ShoutMapper(DatabaseErrorMapper):
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


def test_register_get_unregister() -> None:
    mapper = _ShoutMapper()
    ErrorMapperRegistry.register("shoutdb", mapper)
    assert ErrorMapperRegistry.get_mapper("SHOUT") is mapper
    assert ErrorMapperRegistry.get_or_default("shoutdb") is mapper
    info = next(i for i in ErrorMapperRegistry.list_mappers() if i.name == "shoutdb")
    assert info.source == "register()"
    assert info.aliases == ("shout",)
    assert ErrorMapperRegistry.unregister("shoutdb") is mapper
    with pytest.raises(NoSuchMapperError, match="localdata_errors:shoutdb"):
        ErrorMapperRegistry.get_mapper("shoutdb")
    assert ErrorMapperRegistry.get_or_default("shoutdb").name == "generic"


def test_register_rejects_bad_input() -> None:
    with pytest.raises(TypeError):
        ErrorMapperRegistry.register("x", object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reserved"):
        ErrorMapperRegistry.register("generic", _ShoutMapper())


def test_detection_by_driver_module_and_explicit_db_type() -> None:
    ErrorMapperRegistry.register("shoutdb", _ShoutMapper())
    exc = _shout_error_class()("NOPE: no things here")
    resp = classify_error(exc)
    assert (resp.backend, resp.kind, resp.database_error_code) == (
        "shoutdb",
        Kind.UNDEFINED_TABLE,
        "SH-1",
    )
    assert resp.affected_resources == ("things",)
    # explicit db_type, message only
    assert classify_message("NOPE", db_type="shout").backend == "shoutdb"
    # the mapper declines: the generic fallback answers
    other = classify_error(_shout_error_class()("deadlock detected"))
    assert other.backend == "generic"
    assert other.kind is Kind.DEADLOCK_DETECTED


def test_subclass_defined_elsewhere_is_detected_through_its_mro() -> None:
    ErrorMapperRegistry.register("shoutdb", _ShoutMapper())
    sub = type("AppError", (_shout_error_class(),), {"__module__": "myapp.errors"})
    resp = classify_error(sub("NOPE"))
    assert resp.backend == "shoutdb"
    # The driver is the claimed class's, not the application's module.
    assert resp.driver == _shout_error_class().__module__.partition(".")[0]
    claim = ErrorMapperRegistry.claim_for_type(sub)
    assert claim is not None
    assert (claim.name, claim.driver) == ("shoutdb", resp.driver)


@pytest.fixture
def fake_plugin(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = types.ModuleType("shout_plugin")

    @hookimpl
    def localdata_errors_mappers() -> list[DatabaseErrorMapper]:
        return [_ShoutMapper()]

    module.localdata_errors_mappers = localdata_errors_mappers  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "shout_plugin", module)
    real = importlib.metadata.entry_points

    def entry_points(**kwargs: object) -> object:
        eps = list(real(**kwargs))  # type: ignore[arg-type]
        if kwargs.get("group") == "localdata_errors":
            eps.append(
                importlib.metadata.EntryPoint(
                    name="shoutdb", value="shout_plugin", group="localdata_errors"
                )
            )
        return eps

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    ErrorMapperRegistry.reset()
    return module


def test_entry_point_plugin_is_a_first_class_backend(fake_plugin: types.ModuleType) -> None:
    names = ErrorMapperRegistry.names()
    assert "shoutdb" in names
    info = next(i for i in ErrorMapperRegistry.list_mappers() if i.name == "shoutdb")
    assert info.source == "entry point"
    assert classify_error(_shout_error_class()("NOPE")).backend == "shoutdb"
    assert ErrorMapperRegistry.plugin_manager().is_registered(fake_plugin)


def test_discovery_is_lazy_and_cached(
    fake_plugin: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = importlib.metadata.entry_points

    def counting(**kwargs: object) -> object:
        calls.append(kwargs)
        return real(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.metadata, "entry_points", counting)
    ErrorMapperRegistry.reset()
    assert calls == []
    classify_message("x")
    classify_message("y")
    ErrorMapperRegistry.names()
    assert len(calls) == 1
