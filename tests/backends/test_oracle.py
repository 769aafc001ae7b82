"""
Oracle backend: every code through python-oracledb's own error machinery.

The cases live in :mod:`tests.corpus.oracle` (the accuracy benchmark scores
the same ones); here each is classified and every part of the answer a
caller relies on is checked.
"""

from __future__ import annotations

import importlib
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
)
from localdata_errors._mapper import ErrorInput
from localdata_errors.backends.oracle import OracleMapper
from tests.conftest import require_module
from tests.corpus import Expected
from tests.corpus import oracle as corpus

ROOT = Path(__file__).resolve().parents[2]

TABLE = [
    pytest.param(code, shape, build, id=f"{code}-{shape}")
    for code, shape, build in corpus.table_cases()
]
DETAIL = [pytest.param(case, id=case.name) for case in corpus.DETAIL_CASES]
REAL = [pytest.param(produce, expected, id=name) for name, produce, expected in corpus.real_cases()]


@pytest.fixture(autouse=True)
def _driver() -> None:
    require_module("oracledb")


def errors_module() -> Any:
    return importlib.import_module("oracledb.errors")


def check(resp: StructuredErrorResponse, expected: Expected) -> None:
    """Assert every part of *expected* on *resp*, with a readable failure."""
    info = KIND_TABLE[expected.kind]
    assert resp.kind is expected.kind, resp.message
    assert resp.error_type is info.category
    retryable = info.retryable if expected.retryable is None else expected.retryable
    assert resp.is_retryable is retryable, resp.message
    if expected.code is not None:
        assert resp.database_error_code == expected.code
    for name in expected.resources:
        assert name in resp.affected_resources, resp.affected_resources
    for name in expected.dependencies:
        assert name in resp.dependencies
    if expected.constraint is not None:
        assert resp.constraint == expected.constraint
    for name in expected.absent:
        assert name not in resp.affected_resources, resp.affected_resources
    if expected.schema is not None:
        assert resp.schema == expected.schema


@pytest.mark.parametrize(("code", "shape", "build"), TABLE)
def test_every_code_through_the_driver(code: str, shape: str, build: Any) -> None:
    exc = build()
    assert type(exc).__module__ == "oracledb.exceptions"
    resp = classify_error(exc)
    check(resp, corpus.table_expected(code))
    assert resp.backend == "oracle"
    assert resp.driver == "oracledb"
    # The driver's own message is the message, Help line and all.
    if code == "DPY-2031":
        # "invalid access token: value must be ...": what follows "token:" is
        # masked, as a token would be; the redaction errs on the safe side.
        assert resp.message == "DPY-2031: invalid access token: ***"
    else:
        assert resp.message == exc.args[0].message
    if shape == "thin" and code.startswith("ORA"):
        number = int(code[4:])
        assert f"Help: https://docs.oracle.com/error-help/db/ora-{number:05}/" in resp.message
    if shape == "thick" and code.startswith("ORA"):
        assert "Help:" not in resp.message


def test_the_cases_cover_exactly_the_declared_codes() -> None:
    declared = OracleMapper().declared_codes()
    covered = {code for code, _, _ in corpus.table_cases()} | set(corpus.NJS_KINDS)
    assert covered == set(declared)
    assert sum(1 for code in declared if code.startswith("ORA-")) >= 80


@pytest.mark.parametrize("code", sorted(corpus.NJS_KINDS))
def test_every_njs_code_as_node_prints_it(code: str) -> None:
    # node-oracledb is Node's driver: its errors reach Python as text only.
    resp = classify_message(corpus.njs_text(code))
    check(resp, Expected(kind=corpus.NJS_KINDS[code], code=code))
    assert resp.backend == "oracle"


@pytest.mark.parametrize("code", sorted(corpus.DPY_ARGS))
def test_dpy_codes_are_the_drivers_own(code: str) -> None:
    errors = errors_module()
    number = int(code[4:])
    assert number in errors.ERR_MESSAGE_FORMATS, f"{code} is not a python-oracledb error"
    error = errors._create_err(number, **corpus.DPY_ARGS[code])
    assert error.full_code == code
    assert "Wrong arguments" not in error.message


def test_the_driver_picks_the_exception_class() -> None:
    exceptions = importlib.import_module("oracledb.exceptions")
    assert type(corpus.thin(corpus.OFFICIAL_TEXTS["ORA-02291"], 2291)) is exceptions.IntegrityError
    assert (
        type(corpus.thin(corpus.OFFICIAL_TEXTS["ORA-01013"], 1013)) is exceptions.OperationalError
    )
    assert type(corpus.thin(corpus.OFFICIAL_TEXTS["ORA-00942"], 942)) is exceptions.DatabaseError


@pytest.mark.parametrize("case", DETAIL)
def test_detail(case: corpus.DetailCase) -> None:
    resp = classify_error(case.build())
    check(resp, case.expected)
    if case.schema is not None:
        assert resp.schema == case.schema


def test_no_names_when_the_message_has_none() -> None:
    resp = classify_error(corpus.thin(corpus.OFFICIAL_TEXTS["ORA-00942"], 942, offset=14))
    assert resp.affected_resources == ()
    assert resp.schema is None


def test_resources_are_unqualified_and_unquoted() -> None:
    resp = classify_error(corpus.thin(corpus.OFFICIAL_TEXTS["ORA-12899"], 12899))
    assert resp.affected_resources == ("EMP", "NAME")
    assert resp.schema == "HR"


@pytest.mark.parametrize(("produce", "expected"), REAL)
def test_real_driver_errors(produce: Any, expected: Expected) -> None:
    exc = produce()
    assert type(exc).__module__ == "oracledb.exceptions"
    resp = classify_error(exc)
    check(resp, expected)
    assert resp.message == str(exc)


def test_sqlalchemy_wrapper_is_unwrapped() -> None:
    sa_exc = require_module("sqlalchemy.exc")
    orig = corpus.thin(corpus.OFFICIAL_TEXTS["ORA-02292"], 2292)
    wrapped = sa_exc.IntegrityError("DELETE FROM dept WHERE deptno = :1", (10,), orig)
    resp = classify_error(wrapped)
    assert resp.kind is Kind.FOREIGN_KEY_VIOLATION
    assert resp.database_error_code == "ORA-02292"
    assert resp.constraint == "FK_EMP_DEPT"


@pytest.mark.parametrize("code", ["ORA-00060", "ora-60", "60", 60])
def test_message_with_explicit_code(code: str | int) -> None:
    resp = classify_message("deadlock victim", "oracle", code=code)
    assert resp.kind is Kind.DEADLOCK_DETECTED
    assert resp.database_error_code == "ORA-00060"


def test_message_only_stack() -> None:
    text = (
        "ORA-00604: error occurred at recursive SQL level 1\n" + corpus.OFFICIAL_TEXTS["ORA-01653"]
    )
    resp = classify_message(text, "oracle")
    assert resp.kind is Kind.DISK_FULL
    assert resp.database_error_code == "ORA-01653"
    assert resp.message == text


def test_unknown_code_is_kept_and_keywords_decide() -> None:
    resp = classify_error(corpus.thin("ORA-20999: lock wait timeout in the batch job", 20999))
    assert resp.database_error_code == "ORA-20999"
    assert resp.backend == "oracle"


def test_detected_from_the_driver_module() -> None:
    exceptions = importlib.import_module("oracledb.exceptions")
    claim = ErrorMapperRegistry.claim_for_type(exceptions.IntegrityError)
    mapper = None if claim is None else claim.mapper
    assert isinstance(mapper, OracleMapper)


class _Odd:
    """An args[0] whose attributes are of the wrong types."""

    message = None
    full_code = 42
    code = "x"
    isrecoverable = "yes"


@pytest.mark.parametrize(
    "exc",
    [
        ValueError(_Odd()),
        ValueError(),
        ValueError(b"\xff\xfeORA-\x00"),
        ValueError("ORA-" + "9" * 20000),
        ValueError("ORA-00942:" + "\n" * 5000 + "x" * 16000),
        ValueError("ORA-00001: unique constraint (" + '"' * 5000 + ") violated"),
        ValueError("ORA-12899: value too large for column " + '"a".' * 4000 + " (actual"),
    ],
)
def test_weird_input_never_breaks_the_mapper(exc: BaseException) -> None:
    mapper = OracleMapper()
    text = str(exc)[:16384]
    result = mapper.map_error(ErrorInput(exc, text, None, "oracledb"))
    assert result is None or result.kind in KIND_TABLE
    assert classify_error(exc, "oracle").kind in KIND_TABLE


def test_import_loads_neither_driver_nor_table() -> None:
    code = (
        "import sys, localdata_errors.backends.oracle as m\n"
        "assert 'oracledb' not in sys.modules and 'cx_Oracle' not in sys.modules\n"
        "assert 'localdata_errors.backends._oracle_codes' not in sys.modules\n"
        "m.OracleMapper().declared_codes()\n"
        "assert 'localdata_errors.backends._oracle_codes' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_docs_list_every_code_with_its_kind() -> None:
    doc = (ROOT / "docs" / "backends" / "oracle.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([A-Z]{3}-\d{4,5})` \| `(\w+)` \|", doc, re.MULTILINE))
    # The DPY-, DPI- and NJS- listings are generated from the drivers (each code
    # and its message); their kinds are decided in `_oracledb_kinds`,
    # `_odpi_kinds` and `_njs_kinds`.
    generated = ("DPY-", "DPI-", "NJS-")
    listed = set(re.findall(r"^\| `((?:DPY|DPI)-\d{4}|NJS-\d{3})` \|", doc, re.MULTILINE))
    rows = {code: kind for code, kind in rows.items() if not code.startswith(generated)}
    declared = {code: kind.value for code, kind in OracleMapper().declared_codes().items()}
    assert rows == {code: kind for code, kind in declared.items() if not code.startswith(generated)}
    assert listed >= {code for code in declared if code.startswith(generated)}


def test_a_joined_dpy_line_is_the_cause() -> None:
    # python-oracledb puts the cause on its own line under DPY-6005; a log or a
    # web page joins them with a space (dblabai/dblab#32).  DPY-3010 ("connections
    # to this database server version are not supported by python-oracledb in
    # thin mode", python-oracledb's errors.py): only thick mode can connect.
    text = (
        "DPY-6005: cannot connect to database (CONNECTION_ID=CR6+FXcacrzRnlPdkLaI5A==). "
        "DPY-3010: connections to this database server version are not supported by "
        "python-oracledb in thin mode"
    )
    answer = classify_message(text)
    assert (answer.database_error_code, answer.kind) == (
        "DPY-3010",
        Kind.CONNECTION_MISCONFIGURED,
    )
    assert answer.is_retryable is False
