"""
SQLite backend: real errors from a real SQLite, through sqlite3, SQLAlchemy and aiosqlite.

The cases live in :mod:`tests.corpus.sqlite` (the accuracy benchmark scores
the same ones); here each is triggered, classified, and every part of the
answer a caller relies on is checked.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import (
    KIND_TABLE,
    ErrorCategory,
    ErrorMapperRegistry,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
    default_registry,
)
from localdata_errors._mapper import ErrorInput
from localdata_errors.backends.sqlite import RESULT_CODES, SqliteMapper, parse_message
from tests.conftest import require_module
from tests.corpus import Expected, score
from tests.corpus import sqlite as corpus

ROOT = Path(__file__).resolve().parents[2]

SQL = [
    pytest.param(case, driver, id=f"{driver}-{case.name}")
    for case in corpus.SQL_CASES
    for driver in case.drivers
]
SPECIAL = [pytest.param(case, id=case.name) for case in corpus.SPECIAL_CASES]


def check(resp: StructuredErrorResponse, expected: Expected) -> None:
    """Assert every part of *expected* on *resp*, with a readable failure."""
    info = KIND_TABLE[expected.kind]
    assert resp.kind is expected.kind, resp.message
    assert resp.error_type is info.category
    retryable = info.retryable if expected.retryable is None else expected.retryable
    assert resp.is_retryable is retryable
    assert resp.database_error_code == expected.code
    assert resp.sqlstate is None  # SQLite has none
    for name in expected.resources:
        assert name in resp.affected_resources
    for name in expected.dependencies:
        assert name in resp.dependencies
    if expected.constraint is not None:
        assert resp.constraint == expected.constraint
    for name in expected.absent:
        assert name not in resp.affected_resources, resp.affected_resources
    if expected.schema is not None:
        assert resp.schema == expected.schema


@pytest.mark.parametrize(("case", "driver"), SQL)
def test_statement_error_through_each_driver(case: corpus.SqlCase, driver: str) -> None:
    if "sqlalchemy" in driver:
        require_module("sqlalchemy")
    if "aiosqlite" in driver:
        require_module("aiosqlite")
    exc = corpus.raise_sql(case, driver)
    if "sqlalchemy" in driver:
        assert type(exc).__module__ == "sqlalchemy.exc"
    resp = classify_error(exc)  # no db_type: detected from the driver's exception
    check(resp, case.expected)
    assert resp.backend == "sqlite"
    assert "[SQL:" not in resp.message


@pytest.mark.parametrize("case", SPECIAL)
def test_error_that_needs_its_own_setting(case: corpus.SpecialCase, tmp_path: Path) -> None:
    exc = corpus.raise_special(case, tmp_path)
    assert type(exc).__module__ == "sqlite3"
    resp = classify_error(exc)
    check(resp, case.expected)
    assert resp.backend == "sqlite"


def test_collect_is_the_cases_the_tests_check() -> None:
    cases = list(corpus.collect())
    assert len(cases) == len(SQL) + len(SPECIAL)
    assert len({(c.driver, c.name) for c in cases}) == len(cases)
    for case in cases:
        assert score(case, classify_error(case.exception, case.db_type)).all, case.name


# -- specific promises -------------------------------------------------------------------


def test_busy_is_retryable_and_says_to_wait(tmp_path: Path) -> None:
    resp = classify_error(corpus.raise_special(corpus.SPECIAL_CASES[0], tmp_path))
    assert resp.is_retryable
    assert resp.to_tool_error()["error_type"] in {"timeout", "unknown"}


def test_unique_names_table_and_column_unqualified() -> None:
    case = next(c for c in corpus.SQL_CASES if c.name == "unique")
    resp = classify_error(corpus.raise_sql(case, "sqlite3"))
    assert resp.affected_resources == ("users", "email")
    assert resp.dependencies == ()


def test_foreign_key_failure_names_nothing_it_cannot_know() -> None:
    case = next(c for c in corpus.SQL_CASES if c.name == "foreign-key-insert")
    resp = classify_error(corpus.raise_sql(case, "sqlite3"))
    assert resp.affected_resources == ()
    assert resp.dependencies == ()
    assert resp.to_tool_error()["error_type"] == "foreign_key_constraint"


def test_qualified_missing_table_reports_the_schema() -> None:
    case = next(c for c in corpus.SQL_CASES if c.name == "no-such-table-qualified")
    resp = classify_error(corpus.raise_sql(case, "sqlite3"))
    assert resp.affected_resources == ("orderz",)
    assert resp.schema == "main"


def test_statement_text_in_sqlalchemy_trailer_is_never_classified() -> None:
    case = next(c for c in corpus.SQL_CASES if c.name == "syntax-statement-mentions-a-lock")
    exc = corpus.raise_sql(case, "sqlalchemy")
    assert "database is locked" in str(exc)  # the trailer is there...
    resp = classify_error(exc)
    assert resp.kind is Kind.SYNTAX_ERROR  # ...and ignored
    assert not resp.is_retryable


@pytest.mark.parametrize(
    ("text", "code", "kind", "resources"),
    [
        ("no such table: orders", None, Kind.UNDEFINED_TABLE, ("orders",)),
        ("database is locked", None, Kind.DATABASE_LOCKED, ()),
        ("database is locked", "SQLITE_BUSY", Kind.DATABASE_LOCKED, ()),
        ("database table is locked: stock", None, Kind.LOCK_NOT_AVAILABLE, ("stock",)),
        (
            "UNIQUE constraint failed: users.email",
            "2067",
            Kind.UNIQUE_VIOLATION,
            ("users", "email"),
        ),
        ("FOREIGN KEY constraint failed", 787, Kind.FOREIGN_KEY_VIOLATION, ()),
        ("attempt to write a readonly database", None, Kind.READ_ONLY, ()),
        ("whatever the text", "busy", Kind.DATABASE_LOCKED, ()),
        ('near "SELEC": syntax error', None, Kind.SYNTAX_ERROR, ()),
    ],
)
def test_message_only(text: str, code: object, kind: Kind, resources: tuple[str, ...]) -> None:
    resp = classify_message(text, db_type="sqlite", code=code)  # type: ignore[arg-type]
    assert resp.kind is kind
    assert resp.backend == "sqlite"
    assert resp.affected_resources == resources


def test_message_only_keeps_the_code_given_as_a_name_or_number() -> None:
    assert (
        classify_message("x", "sqlite", code=2067).database_error_code == "SQLITE_CONSTRAINT_UNIQUE"
    )
    assert classify_message("x", "sqlite", code="sqlite_busy").database_error_code == "SQLITE_BUSY"


@pytest.mark.parametrize("db_type", ["sqlite", "SQLite", "sqlite3", "sqlite+aiosqlite"])
def test_explicit_db_type_aliases(db_type: str) -> None:
    assert classify_message("no such column: x", db_type=db_type).kind is Kind.UNDEFINED_COLUMN


# -- the code table ----------------------------------------------------------------------


def test_result_codes_match_the_sqlite3_module() -> None:
    for name, number in RESULT_CODES.items():
        if hasattr(sqlite3, name):
            assert getattr(sqlite3, name) == number, name
    exposed = {
        n
        for n in dir(sqlite3)
        if re.fullmatch(r"SQLITE_[A-Z_]+", n) and sqlite3.__dict__[n] not in (0, 100, 101)
    }
    # Every result code sqlite3 exposes (not the authorizer actions) is in the table.
    result_like = {n for n in exposed if n.split("_")[1] in {c.split("_")[1] for c in RESULT_CODES}}
    assert result_like - set(RESULT_CODES) <= {
        "SQLITE_READ",
        "SQLITE_DROP_INDEX",
        "SQLITE_DROP_TABLE",
        "SQLITE_DROP_VIEW",
        "SQLITE_DROP_TRIGGER",
        "SQLITE_DROP_VTABLE",
        "SQLITE_DROP_TEMP_INDEX",
        "SQLITE_DROP_TEMP_TABLE",
        "SQLITE_DROP_TEMP_TRIGGER",
        "SQLITE_DROP_TEMP_VIEW",
        "SQLITE_FUNCTION",
        "SQLITE_NOTICE_RECOVER_ROLLBACK",
        "SQLITE_NOTICE_RECOVER_WAL",
        "SQLITE_WARNING_AUTOINDEX",
        "SQLITE_OK_LOAD_PERMANENTLY",
        "SQLITE_OK_SYMLINK",
    }


@pytest.mark.skipif(not Path("/usr/include/sqlite3.h").exists(), reason="no sqlite3.h")
def test_result_codes_match_sqlite3_h() -> None:
    header = Path("/usr/include/sqlite3.h").read_text(encoding="utf-8", errors="replace")
    primary = {
        m[1]: int(m[2]) for m in re.finditer(r"#define (SQLITE_[A-Z]+)\s+(\d+)\s+/\*", header)
    }
    extended = {
        m[1]: primary[m[2]] | (int(m[3]) << 8)
        for m in re.finditer(
            r"#define (SQLITE_[A-Z]+_[A-Z_]+)\s+\((SQLITE_[A-Z]+) \| \((\d+)<<8\)\)", header
        )
    }
    for name, number in RESULT_CODES.items():
        if name in primary or name in extended:
            assert primary.get(name, extended.get(name)) == number, name
    for name in extended:
        if not name.startswith(("SQLITE_OK_", "SQLITE_NOTICE_", "SQLITE_WARNING_")):
            assert name in RESULT_CODES, name


def test_every_declared_code_classifies_as_declared() -> None:
    mapper = SqliteMapper()
    declared = mapper.declared_codes()
    assert declared["SQLITE_BUSY"] is Kind.DATABASE_LOCKED
    assert "SQLITE_ERROR" not in declared  # the message decides
    for code, kind in declared.items():
        resp = classify_message("", db_type="sqlite", code=code)
        assert resp.kind is kind, code
        assert resp.database_error_code == code


def test_docs_list_every_declared_code() -> None:
    page = (ROOT / "docs" / "backends" / "sqlite.md").read_text(encoding="utf-8")
    for code, kind in SqliteMapper().declared_codes().items():
        assert re.search(rf"`{code}`.*`{kind.value}`", page), code


# -- robustness --------------------------------------------------------------------------


class FakeSqliteError(Exception):
    """An exception with wrongly typed attributes, as a broken wrapper might raise."""


FakeSqliteError.__module__ = "sqlite3"


@pytest.mark.parametrize(
    "attrs",
    [
        {"sqlite_errorcode": "5", "sqlite_errorname": 42},
        {"sqlite_errorcode": True, "sqlite_errorname": None},
        {"sqlite_errorcode": 10**30, "sqlite_errorname": b"SQLITE_BUSY"},
        {"sqlite_errorcode": -1, "sqlite_errorname": "SQLITE_NOPE"},
    ],
)
@pytest.mark.parametrize(
    "text",
    [
        "",
        "no such table: ",
        "\x00\udcff" * 10,
        "x" * 16384,
        "UNIQUE constraint failed: " + "a." * 5000,
        "near " + '"' * 10000,
    ],
)
def test_weird_input_never_raises(attrs: dict[str, Any], text: str) -> None:
    exc = FakeSqliteError(text)
    for key, value in attrs.items():
        setattr(exc, key, value)
    mapped = SqliteMapper().map_error(ErrorInput(exc, text))
    assert mapped is None or isinstance(mapped.kind, Kind)
    assert classify_error(exc).backend in {"sqlite", "generic"}


def _raises(*_args: object) -> Any:
    raise RuntimeError("attribute access raised")


class RaisingCodeError(sqlite3.OperationalError):
    """The real driver class, whose code attributes raise on access (a broken wrapper)."""

    sqlite_errorcode = property(_raises)
    sqlite_errorname = property(_raises)


class WrongTypedCodeError(sqlite3.OperationalError):
    """The real driver class, whose code attributes hold the wrong types."""

    sqlite_errorcode = "busy"
    sqlite_errorname = 5


@pytest.mark.parametrize(
    ("cls", "text", "kind", "resources"),
    [
        (RaisingCodeError, "no such table: main.orders", Kind.UNDEFINED_TABLE, ("orders",)),
        (RaisingCodeError, "database is locked", Kind.DATABASE_LOCKED, ()),
        (WrongTypedCodeError, "no such column: o.total", Kind.UNDEFINED_COLUMN, ("total",)),
        (
            WrongTypedCodeError,
            "UNIQUE constraint failed: users.email",
            Kind.UNIQUE_VIOLATION,
            ("users", "email"),
        ),
    ],
)
def test_hostile_code_attributes_fall_back_on_the_message(
    cls: type[sqlite3.OperationalError], text: str, kind: Kind, resources: tuple[str, ...]
) -> None:
    exc = cls(text)
    mapped = SqliteMapper().map_error(ErrorInput(exc, text, None, "sqlite3"))
    assert mapped is not None
    assert mapped.kind is kind
    assert mapped.code is None  # neither attribute gave a usable code
    assert mapped.affected_resources == resources
    resp = classify_error(exc)
    assert resp.backend == "sqlite"  # answered by the mapper, not the fallback
    assert resp.kind is kind


def test_unicode_digits_given_as_code_are_not_a_number() -> None:
    # "²".isdigit() is True, but int("²") raises.
    mapped = SqliteMapper().map_error(ErrorInput(None, "no such table: t", "²"))
    assert mapped is not None
    assert mapped.kind is Kind.UNDEFINED_TABLE
    assert mapped.code is None


def test_parse_message_ignores_foreign_wording() -> None:
    assert parse_message('ERROR: relation "x" does not exist') is None
    assert parse_message("") is None


def test_importing_the_backend_imports_no_driver() -> None:
    code = (
        "import sys; import localdata_errors.backends.sqlite, localdata_errors;"
        "from localdata_errors import classify_message;"
        "classify_message('no such table: t', 'sqlite');"
        "bad = [m for m in ('sqlite3', '_sqlite3', 'aiosqlite', 'sqlalchemy')"
        " if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_registered_through_the_entry_point() -> None:
    mapper = ErrorMapperRegistry.get_mapper("sqlite")
    assert isinstance(mapper, SqliteMapper)
    assert default_registry().name_for_module("aiosqlite.core") == "sqlite"


# -- the connection lifecycle ---------------------------------------------------------


def _is_disconnect_phrases(module: str) -> list[str]:
    """The string literals SQLAlchemy's SQLite dialect tests in ``is_disconnect``."""
    import ast
    import importlib
    import inspect

    source = inspect.getsource(importlib.import_module(module))
    phrases = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "is_disconnect":
            phrases += [
                n.value
                for n in ast.walk(node)
                if isinstance(n, ast.Constant) and isinstance(n.value, str) and " " in n.value
            ]
    return phrases


@pytest.mark.parametrize(
    "module", ["sqlalchemy.dialects.sqlite.pysqlite", "sqlalchemy.dialects.sqlite.aiosqlite"]
)
def test_sqlalchemys_disconnect_list_is_a_connection_problem(module: str) -> None:
    require_module("sqlalchemy")
    phrases = _is_disconnect_phrases(module)
    assert phrases, module
    for phrase in phrases:
        answer = classify_message(phrase, "sqlite")
        assert answer.error_type is ErrorCategory.CONNECTION_ERROR, (phrase, answer.kind)
        assert answer.action in {"reconnect", "retry"}


def test_a_closed_connection_or_cursor_used_again_is_a_safe_reconnect() -> None:
    conn = sqlite3.connect(":memory:")
    cursor = conn.cursor()
    cursor.close()
    with pytest.raises(sqlite3.ProgrammingError) as closed_cursor:
        cursor.execute("SELECT 1")
    conn.close()
    with pytest.raises(sqlite3.ProgrammingError) as closed_conn:
        conn.execute("SELECT 1")
    for info in (closed_cursor, closed_conn):
        answer = classify_error(info.value)
        assert (answer.kind, answer.action, answer.retry_safety) == (
            Kind.CONNECTION_LOST,
            "reconnect",
            "safe",  # the driver refused: nothing reached SQLite
        )


def test_aiosqlites_closed_connection_is_claimed_and_safe() -> None:
    aiosqlite = require_module("aiosqlite")

    async def go() -> None:
        db = await aiosqlite.connect(":memory:")
        await db.close()
        await db.execute("SELECT 1")

    with pytest.raises(ValueError, match="no active connection") as info:
        asyncio.run(go())
    answer = classify_error(info.value)  # a ValueError, raised inside aiosqlite
    assert (answer.backend, answer.driver) == ("sqlite", "aiosqlite")
    assert (answer.kind, answer.retry_safety) == (Kind.CONNECTION_LOST, "safe")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # SQLite before 3.8.2 (sqlite3.c's "column %s is not unique" and plural).
        ("column email is not unique", ("email",)),
        ("columns a, b are not unique", ("a", "b")),
        ("column a, b are not unique", ("a", "b")),
    ],
)
def test_old_unique_messages_name_their_columns(text: str, names: tuple[str, ...]) -> None:
    answer = classify_message(text, "sqlite")
    assert answer.kind is Kind.UNIQUE_VIOLATION
    assert answer.affected_resources == names


def test_old_unique_message_through_the_drivers_exception() -> None:
    # SQLite before 3.8.2 raised it as the bare SQLITE_CONSTRAINT (19), no extended code.
    exc = sqlite3.IntegrityError("columns a, b are not unique")
    exc.sqlite_errorcode = 19  # type: ignore[attr-defined]
    exc.sqlite_errorname = "SQLITE_CONSTRAINT"  # type: ignore[attr-defined]
    answer = classify_error(exc)
    assert (answer.kind, answer.database_error_code) == (Kind.UNIQUE_VIOLATION, "SQLITE_CONSTRAINT")
    assert answer.affected_resources == ("a", "b")
