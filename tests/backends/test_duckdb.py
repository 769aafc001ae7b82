"""
DuckDB backend: real errors from the installed duckdb, classified without a db_type.

The cases live in :mod:`tests.corpus.duckdb` (the accuracy benchmark scores
the same ones); here each is triggered, classified, and every part of the
answer a caller relies on is checked.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import (
    KIND_TABLE,
    ErrorMapperRegistry,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
    default_registry,
)
from localdata_errors._mapper import ErrorInput
from localdata_errors.backends.duckdb import CLASS_KINDS, DuckdbMapper, parse_message
from tests.conftest import require_module
from tests.corpus import Expected, score
from tests.corpus import duckdb as corpus

ROOT = Path(__file__).resolve().parents[2]

SQL = [pytest.param(case, id=case.name) for case in corpus.SQL_CASES]
SPECIAL = [pytest.param(case, id=case.name) for case in corpus.SPECIAL_CASES]


@pytest.fixture(autouse=True)
def _driver() -> None:
    require_module("duckdb")


def check(resp: StructuredErrorResponse, expected: Expected) -> None:
    """Assert every part of *expected* on *resp*, with a readable failure."""
    info = KIND_TABLE[expected.kind]
    assert resp.kind is expected.kind, resp.message
    assert resp.error_type is info.category
    retryable = info.retryable if expected.retryable is None else expected.retryable
    assert resp.is_retryable is retryable
    assert resp.database_error_code == expected.code
    assert resp.sqlstate is None
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


@pytest.mark.parametrize("case", SQL)
def test_statement_error(case: corpus.SqlCase) -> None:
    exc = corpus.raise_sql(case)
    assert type(exc).__module__ == "_duckdb"
    assert type(exc).__name__ == case.expected.code  # the class is the code
    resp = classify_error(exc)  # no db_type: detected from the exception's module
    check(resp, case.expected)
    assert resp.backend == "duckdb"
    assert resp.message == str(exc)  # the engine's own words, hints included


@pytest.mark.parametrize("case", SPECIAL)
def test_error_that_needs_its_own_setting(case: corpus.SpecialCase, tmp_path: Path) -> None:
    exc = corpus.raise_special(case, tmp_path)
    assert type(exc).__module__ == "_duckdb"
    resp = classify_error(exc)
    check(resp, case.expected)
    assert resp.backend == "duckdb"


def test_collect_is_the_cases_the_tests_check() -> None:
    cases = list(corpus.collect())
    assert len(cases) == len(SQL) + len(SPECIAL)
    assert len({c.name for c in cases}) == len(cases)
    for case in cases:
        assert score(case, classify_error(case.exception, case.db_type)).all, case.name


# -- specific promises -------------------------------------------------------------------


def _special(name: str, tmp_path: Path) -> StructuredErrorResponse:
    case = next(c for c in corpus.SPECIAL_CASES if c.name == name)
    return classify_error(corpus.raise_special(case, tmp_path))


def test_file_lock_of_another_process_is_transient(tmp_path: Path) -> None:
    resp = _special("file-locked-by-another-process", tmp_path)
    assert resp.is_retryable
    assert resp.error_type.value == "transient_error"


@pytest.mark.parametrize(
    "reason",
    [
        # strerror(ENOTSUP) after the path: DuckDB's local_file_system.cpp puts the
        # OS's reason there unless another process holds the lock (a mounted
        # network volume, as in duckdb/duckdb#13017).
        "Operation not supported",
        # DuckDB's own reason where the file system has no locks at all.
        "File locks are not supported for this file system, cannot open the file in "
        "read-write mode. Try opening the file in read-only mode",
    ],
)
def test_a_file_system_without_locks_is_no_transient_lock(reason: str) -> None:
    resp = classify_message(
        f'IO Error: Could not set lock on file "/Volumes/share/app.db": {reason}',
        "duckdb",
        code="IOException",
    )
    assert resp.kind is Kind.CONNECTION_MISCONFIGURED
    assert resp.is_retryable is False


def test_missing_database_file_is_not_a_connection_error(tmp_path: Path) -> None:
    resp = _special("open-missing-directory", tmp_path)
    assert resp.error_type.value != "connection_error"
    assert resp.kind is Kind.UNDEFINED_DATABASE
    assert resp.affected_resources[0].endswith("app.duckdb")


def test_conflict_is_retryable(tmp_path: Path) -> None:
    assert _special("write-write-conflict", tmp_path).is_retryable


def test_hints_after_the_first_line_are_not_names() -> None:
    case = next(c for c in corpus.SQL_CASES if c.name == "no-such-table")
    exc = corpus.raise_sql(case)
    assert "Did you mean" in str(exc)
    resp = classify_error(exc)
    assert resp.affected_resources == ("orderz",)


def test_duplicate_key_values_are_data_not_names() -> None:
    case = next(c for c in corpus.SQL_CASES if c.name == "primary-key")
    resp = classify_error(corpus.raise_sql(case))
    assert resp.affected_resources == ()


def test_qualified_missing_table_reports_the_schema() -> None:
    case = next(c for c in corpus.SQL_CASES if c.name == "no-such-schema")
    resp = classify_error(corpus.raise_sql(case))
    assert resp.schema == "nosch"


@pytest.mark.parametrize(
    ("text", "code", "kind", "resources"),
    [
        (
            "Catalog Error: Table with name orders does not exist!",
            None,
            Kind.UNDEFINED_TABLE,
            ("orders",),
        ),
        (
            'Binder Error: Referenced column "x" not found in FROM clause!',
            None,
            Kind.UNDEFINED_COLUMN,
            ("x",),
        ),
        (
            "Constraint Error: NOT NULL constraint failed: t.c",
            None,
            Kind.NOT_NULL_VIOLATION,
            ("c", "t"),
        ),
        ('Catalog Error: Table with name "t" already exists!', None, Kind.DUPLICATE_TABLE, ("t",)),
        (
            "Scalar Function with name foo does not exist!",
            "CatalogException",
            Kind.UNDEFINED_FUNCTION,
            ("foo",),
        ),
        (
            "TransactionContext Error: Conflict on tuple deletion!",
            None,
            Kind.SERIALIZATION_FAILURE,
            (),
        ),
        ("anything", "OutOfMemoryException", Kind.OUT_OF_MEMORY, ()),
        # The appender's lookup (appender.cpp: Table '%s.%s.%s' could not be found).
        (
            "Catalog Error: Table 'memory.main.events' could not be found",
            None,
            Kind.UNDEFINED_TABLE,
            ("events",),
        ),
    ],
)
def test_message_only(text: str, code: str | None, kind: Kind, resources: tuple[str, ...]) -> None:
    resp = classify_message(text, db_type="duckdb", code=code)
    assert resp.kind is kind
    assert resp.backend == "duckdb"
    assert resp.affected_resources == resources


def test_every_exception_class_of_the_driver_is_known() -> None:
    duckdb = require_module("duckdb")
    generic = {
        "Error",
        "DatabaseError",
        "DataError",
        "IntegrityError",
        "InternalError",
        "NotSupportedError",
        "OperationalError",
        "ProgrammingError",
        "Warning",
        "InterfaceError",
        "ResourceInUseException",
    }
    classes = {
        n
        for n in dir(duckdb)
        if isinstance(getattr(duckdb, n), type)
        and issubclass(getattr(duckdb, n), Exception)
        and n.endswith(("Error", "Exception"))
    }
    assert classes - generic <= set(CLASS_KINDS), classes - generic - set(CLASS_KINDS)


def test_every_declared_code_classifies_as_declared() -> None:
    for code, kind in DuckdbMapper().declared_codes().items():
        resp = classify_message("", db_type="duckdb", code=code)
        assert resp.kind is kind, code
        assert resp.database_error_code == code


def test_docs_list_every_class() -> None:
    page = (ROOT / "docs" / "backends" / "duckdb.md").read_text(encoding="utf-8")
    for name, kind in CLASS_KINDS.items():
        assert re.search(rf"`{name}`.*`{kind.value}`", page), name


# -- robustness --------------------------------------------------------------------------


class CatalogException(Exception):
    """A class named like DuckDB's, raised with odd arguments."""


CatalogException.__module__ = "_duckdb"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Catalog Error: ",
        "\x00\udcff" * 10,
        "x" * 16384,
        "Catalog Error: Table with name " + '"' * 5000 + " does not exist!",
        "Catalog Error: " + "Table with name a" * 1000,
        "Binder Error: Table " + '"a' * 4000,
    ],
)
def test_weird_input_never_raises(text: str) -> None:
    exc = CatalogException(text)
    mapped = DuckdbMapper().map_error(ErrorInput(exc, text))
    assert mapped is not None
    assert mapped.code == "CatalogException"
    assert classify_error(exc).backend == "duckdb"


def test_parse_message_of_unknown_class() -> None:
    assert parse_message("NoSuchException", "whatever") is None


def test_importing_the_backend_imports_no_driver() -> None:
    code = (
        "import sys; import localdata_errors.backends.duckdb, localdata_errors;"
        "from localdata_errors import classify_message;"
        "classify_message('Catalog Error: Table with name t does not exist!', 'duckdb');"
        "bad = [m for m in ('duckdb', '_duckdb') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_registered_through_the_entry_point() -> None:
    mapper: Any = ErrorMapperRegistry.get_mapper("duckdb")
    assert isinstance(mapper, DuckdbMapper)
    assert default_registry().name_for_module("_duckdb") == "duckdb"
    assert default_registry().name_for_module("duckdb_engine") != "duckdb"
