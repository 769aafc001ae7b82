"""
A code alone is enough: `classify_message("", db_type=..., code=...)` for every table code.

For each code, the answer from the code alone must be the answer of the
backend's mapper on a driver exception carrying that code (kind, category,
retry decision).  The expectations that do not come from the tables under
test are the SQLSTATE classes' meanings (PostgreSQL's Appendix A: class 08
is a connection exception, 23 an integrity constraint violation, 40 a
transaction rollback...) and MySQL's split of its numbers (2000-2999 are the
client library's `CR_*` errors: the connection or the client's API, never a
statement's fault on the server).

Codes whose answer departs from their class are listed below, by name: the
decision tables own them; a new departure fails the test.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from localdata_errors import classify_error, classify_message
from localdata_errors._registry import default_registry
from localdata_errors._response import StructuredErrorResponse
from localdata_errors.backends import (
    _mssql_codes,
    _mysql_codes,
    _mysql_symbols,
    _oracle_codes,
    _postgresql_codes,
)

C = "connection_error"
A = "auth_error"
S = "schema_error"
Y = "syntax_error"
T = "transient_error"
R = "resource_error"
K = "constraint_error"
Q = "query_execution"


def _key(answer: StructuredErrorResponse) -> tuple[str, str, bool]:
    return answer.kind.value, answer.error_type.value, answer.is_retryable


def _alone(backend: str, code: str | int) -> StructuredErrorResponse:
    return classify_message("", db_type=backend, code=code)


def _disagreements(backend: str, cases: Iterable[tuple[str | int, BaseException]]) -> list[str]:
    return [
        f"{code}: code alone {_key(_alone(backend, code))}, exception {_key(found)}"
        for code, exc in cases
        if _key(_alone(backend, code)) != _key(found := classify_error(exc, db_type=backend))
    ]


def test_postgresql_code_alone_answers_as_the_driver_exception() -> None:
    psycopg = pytest.importorskip("psycopg")

    def cases() -> Iterable[tuple[str, BaseException]]:
        for sqlstate in _postgresql_codes.CONDITIONS:
            try:
                cls = psycopg.errors.lookup(sqlstate)
            except KeyError:
                continue
            yield sqlstate, cls("x")

    assert _disagreements("postgresql", cases()) == []


def test_mysql_code_alone_answers_as_the_driver_exception() -> None:
    pymysql = pytest.importorskip("pymysql")
    numbers = (
        set(_mysql_codes.SYMBOLS)
        | set(_mysql_symbols.SYMBOLS.values())
        | set(_mysql_symbols.MARIADB.values())
    )
    cases = ((n, pymysql.err.OperationalError(n, "x")) for n in sorted(numbers))
    assert _disagreements("mysql", cases) == []


def test_mssql_code_alone_answers_as_the_driver_exception() -> None:
    pymssql = pytest.importorskip("pymssql")
    pyodbc = pytest.importorskip("pyodbc")
    numbers = sorted(set(_mssql_codes.SERVER_NUMBERS) | set(_mssql_codes.DBLIB_NUMBERS))
    assert _disagreements("mssql", ((n, pymssql.OperationalError(n, b"x")) for n in numbers)) == []
    states = ((s, pyodbc.Error(s, f"[{s}] x")) for s in _mssql_codes.ODBC_SQLSTATES)
    assert _disagreements("mssql", states) == []


def test_oracle_code_alone_answers_as_the_driver_exception() -> None:
    oracledb = pytest.importorskip("oracledb")
    cases = ((code, oracledb.DatabaseError(f"{code}: x")) for code in _oracle_codes.CODES)
    assert _disagreements("oracle", cases) == []


#: Backends whose declared codes the code alone does not reach yet (a
#: refiner named as `db_type` with a code of its own answers `unknown`).
_CODE_ALONE_UNREACHED = frozenset({"supavisor"})


def test_every_declared_code_gives_its_kind_alone() -> None:
    """Where no exception can be built: the mapper's own lookup (`declared_codes`)."""
    wrong: list[str] = []
    for info in default_registry().list_mappers():
        declared = getattr(info.mapper, "declared_codes", None)
        if declared is None or info.name in _CODE_ALONE_UNREACHED:
            continue
        for code, kind in declared().items():
            answer = _alone(info.name, code)
            if answer.kind is not kind or answer.backend != info.name:
                wrong.append(f"{info.name} {code}: {kind.value} declared, {answer.kind.value}")
    assert wrong == []


# SQLSTATE class -> the categories its meaning allows (PostgreSQL Appendix A;
# class 40's retry is the point of the class, except where the vendor says
# the condition is a constraint's, 40002).
_CLASS_CATEGORIES: dict[str, frozenset[str]] = {
    "08": frozenset({C}),  # connection exception
    "23": frozenset({K}),  # integrity constraint violation
    "40": frozenset({T}),  # transaction rollback
    "42": frozenset({Y, S, A}),  # syntax error or access rule violation
    "53": frozenset({R}),  # insufficient resources
    "57": frozenset({C, T, R}),  # operator intervention: nothing the statement did
    "58": frozenset({R, C, T}),  # system error, external to PostgreSQL
}
# Departures from the class, owned by the decision tables (reported there).
_CLASS_DEPARTURES = frozenset(
    {
        # class 42, answered as a data type's mismatch (query_execution)
        "42846",  # cannot_coerce
        "42804",  # datatype_mismatch
        "42P18",  # indeterminate_datatype
        "42P21",  # collation_mismatch
        "42P22",  # indeterminate_collation
        "42P02",  # undefined_parameter
        "42725",  # ambiguous_function
        "42P08",  # ambiguous_parameter
        "57P04",  # database_dropped: schema_error
        "58P01",  # undefined_file: schema_error
        "58P02",  # duplicate_file: schema_error
    }
)


def test_postgresql_codes_answer_as_their_class_means() -> None:
    wrong: list[str] = []
    for sqlstate, condition in _postgresql_codes.CONDITIONS.items():
        allowed = _CLASS_CATEGORIES.get(sqlstate[:2])
        answer = _alone("postgresql", sqlstate)
        if allowed is None or answer.kind.value == "unknown" or sqlstate in _CLASS_DEPARTURES:
            continue
        retry_ok = answer.is_retryable if sqlstate[:2] == "40" else True
        if answer.error_type.value not in allowed or not retry_ok:
            wrong.append(f"{sqlstate} {condition}: {_key(answer)}")
    assert wrong == []


def test_postgresql_class_40_retries_and_40002_is_no_race() -> None:
    assert _alone("postgresql", "40001").is_retryable  # serialization_failure
    assert _alone("postgresql", "40P01").is_retryable  # deadlock_detected
    integrity = _alone("postgresql", "40002")  # transaction_integrity_constraint_violation
    assert integrity.kind.value == "unknown" or integrity.error_type.value == K


def test_mysql_client_errors_are_connection_or_client_level() -> None:
    """2000-2999 are libmysqlclient's CR_* errors: never a schema, constraint or syntax fault."""
    server_side = {S, K, Y}
    wrong = [
        f"{number} {name}: {_key(answer)}"
        for name, number in _mysql_symbols.SYMBOLS.items()
        if 2000 <= number <= 2999
        and (answer := _alone("mysql", number)).error_type.value in server_side
    ]
    assert wrong == []
    assert _alone("mysql", 2013).error_type.value == C  # CR_SERVER_LOST
    assert _alone("mysql", 2006).error_type.value == C  # CR_SERVER_GONE_ERROR
    assert _alone("mysql", 2003).error_type.value == C  # CR_CONN_HOST_ERROR
