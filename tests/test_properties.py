"""
Never fail: whatever a driver throws, ``classify_error`` answers, the same way every time.

Property tests over arbitrary exceptions (classes claiming each driver's
module, so every backend's mapper sees them), attributes of the wrong type
or that raise, messages of any text or bytes, cyclic cause chains, and any
``db_type``.  Each answer must render to every shape, each shape must be
JSON-serialisable, and the same input must give the same answer.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localdata_errors import (
    ErrorCategory,
    ErrorMapperRegistry,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
    get_error_suggestion,
    is_error_retryable,
)

# Bounded: the whole file runs in well under the 30 s budget on a shared machine.
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DRIVER_MODULES = (
    "psycopg.errors",
    "psycopg2.errors",
    "psycopg2.extensions",
    "asyncpg.exceptions",
    "pymysql.err",
    "MySQLdb._exceptions",
    "mysql.connector.errors",
    "mariadb",
    "aiomysql",
    "sqlite3",
    "aiosqlite",
    "duckdb",
    "oracledb.exceptions",
    "cx_Oracle",
    "pyodbc",
    "pymssql._mssql",
    "pytds.tds_base",
    "sqlalchemy.exc",
    "django.db.utils",
    "builtins",
    "myapp.errors",
)
DB_TYPES = (
    "postgresql",
    "postgres",
    "PostgreSQL",
    "postgresql+psycopg",
    "mysql",
    "mariadb",
    "mysql+pymysql",
    "sqlite",
    "sqlite3",
    "duckdb",
    "oracle",
    "oracle+oracledb",
    "mssql",
    "SQL Server",
    "mssql+pyodbc",
    "generic",
    "",
    " ",
    "+",
    ":",
    "nosuchdb",
    "None",
)
ATTRIBUTE_NAMES = (
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
    "orig",
    "connection_invalidated",
    "args_",
    "offset",
    "table_name",
    "column_name",
    "constraint_name",
    "schema_name",
    "message",
    "context",
)


class _Raises:
    """A descriptor that raises on access, like a diagnostic of a closed result."""

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        raise RuntimeError("raised on access")


class _Diag:
    def __getattr__(self, name: str) -> Any:
        raise ValueError(f"diag.{name}")


def _raising_str(self: object) -> str:
    raise RuntimeError("__str__ raised")


texts = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()),
    max_size=300,
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    texts,
    st.binary(max_size=200),
    st.just(object()),
    st.lists(st.integers(), max_size=3),
    st.sampled_from(
        [
            "42P01",
            "23505",
            "1146",
            "ORA-00942",
            "208",
            "SQLITE_BUSY",
            "40001",
            "HY000",
            "08S01",
            "1213",
            "40P01",
            "x" * 300,
        ]
    ),
)
attr_values = st.one_of(scalars, st.just(_Raises()), st.just(_Diag()))


@st.composite
def exceptions(draw: st.DrawFn) -> BaseException:
    """An exception of a class claiming a driver module, with hostile attributes."""
    module = draw(st.sampled_from(DRIVER_MODULES))
    names = draw(st.lists(st.sampled_from(ATTRIBUTE_NAMES), max_size=6, unique=True))
    namespace: dict[str, Any] = {name: draw(attr_values) for name in names}
    namespace["__module__"] = module
    if draw(st.booleans()):
        namespace["__str__"] = _raising_str
    if draw(st.booleans()):
        namespace["__repr__"] = _raising_str
    base = draw(st.sampled_from([Exception, OSError, ValueError, sqlite3.DatabaseError]))
    klass = type(
        draw(
            st.sampled_from(
                ["Error", "OperationalError", "IntegrityError", "ProgrammingError", "DBAPIError"]
            )
        ),
        (base,),
        namespace,
    )
    args = draw(st.lists(scalars, max_size=4))
    try:
        return klass(*args)
    except Exception:  # some bases reject some argument lists; the bare class is fine
        return klass()


@st.composite
def chains(draw: st.DrawFn) -> BaseException:
    """Exceptions linked by __cause__ / __context__, possibly in a cycle."""
    links = draw(st.lists(exceptions(), min_size=1, max_size=5))
    for i, exc in enumerate(links[:-1]):
        if draw(st.booleans()):
            exc.__cause__ = links[i + 1]
        else:
            exc.__context__ = links[i + 1]
    if draw(st.booleans()):
        links[-1].__cause__ = links[0]  # a cycle
    if draw(st.booleans()):
        links[-1].__context__ = links[-1]  # a self-loop
    return links[0]


def _dumped(resp: StructuredErrorResponse) -> str:
    """Every shape, JSON-serialised; raises if any shape is not serialisable."""
    when = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
    shapes = [
        resp.to_dict(),
        resp.to_tool_error(),
        resp.to_jsonrpc_error("query", timestamp=when),
        resp.to_agent_response(),
    ]
    return json.dumps(shapes, allow_nan=False, sort_keys=True)


def _check(resp: object) -> str:
    assert isinstance(resp, StructuredErrorResponse)
    assert isinstance(resp.kind, Kind)
    assert isinstance(resp.error_type, ErrorCategory)
    assert isinstance(resp.is_retryable, bool)
    assert isinstance(resp.message, str)
    assert len(resp.message) <= 9 * 1024
    assert all(isinstance(n, str) for n in (*resp.affected_resources, *resp.dependencies))
    assert resp.database_error_code is None or isinstance(resp.database_error_code, str)
    return _dumped(resp)


@PROPERTY
@given(exc=exceptions(), db_type=st.one_of(st.none(), st.sampled_from(DB_TYPES), texts))
def test_any_exception_any_db_type(exc: BaseException, db_type: str | None) -> None:
    first = _check(classify_error(exc, db_type))
    assert _check(classify_error(exc, db_type)) == first  # deterministic
    assert isinstance(is_error_retryable(exc, db_type), bool)
    assert isinstance(get_error_suggestion(exc, db_type), str)


@PROPERTY
@given(exc=chains(), db_type=st.one_of(st.none(), st.sampled_from(DB_TYPES)))
def test_cause_chains_and_cycles(exc: BaseException, db_type: str | None) -> None:
    assert _check(classify_error(exc, db_type)) == _check(classify_error(exc, db_type))


@PROPERTY
@given(
    message=st.one_of(texts, st.binary(max_size=500)),
    db_type=st.one_of(st.none(), st.sampled_from(DB_TYPES)),
    code=st.one_of(
        st.none(),
        st.integers(),
        texts,
        st.sampled_from(["42P01", "1146", "ORA-00942", "208", "SQLITE_BUSY"]),
    ),
)
def test_any_message_any_code(
    message: str | bytes, db_type: str | None, code: str | int | None
) -> None:
    first = _check(classify_message(message, db_type, code))
    assert _check(classify_message(message, db_type, code)) == first


@PROPERTY
@given(
    obj=st.one_of(scalars, st.builds(object), st.just(sqlite3)),
    secrets=st.lists(
        st.one_of(texts, st.integers(), st.binary(max_size=20), st.none()), max_size=3
    ),
)
def test_not_an_exception_and_odd_secrets(obj: object, secrets: list[object]) -> None:
    _check(classify_error(obj, secrets=secrets))


@pytest.mark.parametrize("module", DRIVER_MODULES)
def test_ten_megabyte_messages(module: str) -> None:
    big = ('relation "' + "é\x00'`[" * 10) * (10 * 1024 * 1024 // 60)
    klass = type(
        "Error",
        (Exception,),
        {"__module__": module, "errno": "1146", "sqlstate": 42, "pgcode": None},
    )
    resp = classify_error(klass(big))
    _check(resp)
    assert resp.message.endswith("characters in all]")
    _check(classify_message(big.encode("utf-8", "surrogatepass"), module.partition(".")[0]))


def test_a_real_sqlite_error_wrapped_in_a_cycle_is_still_found() -> None:
    if "sqlite" not in ErrorMapperRegistry.names():
        pytest.skip("the sqlite backend is not importable yet")
    try:
        sqlite3.connect(":memory:").execute("SELECT * FROM no_such_table")
    except sqlite3.Error as exc:
        driver_exc = exc
    wrapper = RuntimeError("query failed")
    wrapper.__cause__ = driver_exc
    driver_exc.__context__ = wrapper  # a cycle back to the wrapper
    resp = classify_error(wrapper)
    assert resp.kind is Kind.UNDEFINED_TABLE
    assert "no_such_table" in resp.affected_resources


def test_every_registered_name_and_alias_as_db_type() -> None:
    exc = sqlite3.OperationalError("database is locked")
    for info in ErrorMapperRegistry.list_mappers():
        for name in (info.name, *info.aliases, info.name.upper(), f"{info.name}+driver"):
            resp = classify_error(exc, name)
            _check(resp)
            assert resp.backend in {info.name, "generic"}
