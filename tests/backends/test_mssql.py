"""
SQL Server backend: every number through the drivers' real exception classes and shapes.

The cases live in :mod:`tests.corpus.mssql` (the accuracy benchmark scores
the same ones); here each is classified and every part of the answer a
caller relies on is checked.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from localdata_errors import (
    KIND_TABLE,
    ErrorMapperRegistry,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
)
from localdata_errors._mapper import ErrorInput
from localdata_errors.backends import _odbc_sqlstates
from localdata_errors.backends import mssql as mssql_backend
from tests.conftest import require_module
from tests.corpus import Expected, score
from tests.corpus import mssql as corpus

ROOT = Path(__file__).resolve().parents[2]

SERVER = [
    pytest.param(case, driver, build, id=f"{driver}-{case.name}")
    for case in corpus.SERVER_CASES
    for driver, build in corpus.server_shapes(case)
]
CLIENT = [pytest.param(case, id=case.name) for case in corpus.CLIENT_CASES + corpus.STATE_CASES]


@pytest.fixture(autouse=True)
def _drivers() -> None:
    for name in ("pyodbc", "pymssql", "pytds"):
        require_module(name)


def check(resp: StructuredErrorResponse, expected: Expected) -> None:
    """Assert every part of *expected* on *resp*, with a readable failure."""
    info = KIND_TABLE[expected.kind]
    assert resp.kind is expected.kind, resp.message
    assert resp.error_type is info.category
    retryable = info.retryable if expected.retryable is None else expected.retryable
    assert resp.is_retryable is retryable
    if expected.code is not None:
        assert resp.database_error_code == expected.code
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


@pytest.mark.parametrize(("case", "driver", "build"), SERVER)
def test_server_message_through_each_driver(
    case: corpus.ServerCase, driver: str, build: Any
) -> None:
    exc = build(case)
    assert type(exc).__module__.partition(".")[0] == driver  # the driver's own class
    resp = classify_error(exc)
    check(resp, case.expected())
    assert resp.backend == "mssql"
    assert case.text in resp.message  # the server's own words, never a paraphrase
    if driver == "pyodbc":
        assert resp.sqlstate == case.sqlstate


@pytest.mark.parametrize("case", CLIENT)
def test_driver_side_error(case: corpus.ClientCase) -> None:
    resp = classify_error(case.build())
    check(resp, case.expected)
    assert resp.backend == "mssql"


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in corpus.MESSAGE_CASES])
def test_message_only(case: corpus.MessageCase) -> None:
    check(classify_message(case.text, "mssql", code=case.code), case.expected)


def test_collect_is_the_cases_the_tests_check() -> None:
    cases = list(corpus.collect())
    assert len(cases) == len(SERVER) + len(CLIENT)
    assert len({c.name for c in cases}) == len(cases)
    for case in cases:
        assert score(case, classify_error(case.exception, case.db_type)).all, case.name


# -- the table ---------------------------------------------------------------------------


def _mapper() -> Any:
    mapper = ErrorMapperRegistry.lookup("mssql")
    assert mapper is not None
    return mapper


def test_every_declared_code_is_exercised_with_its_declared_kind() -> None:
    """Each number of the table is classified as declared by at least one real shape."""
    declared: dict[str, Kind] = dict(_mapper().declared_codes())
    assert len(declared) >= 80
    seen: dict[str, set[Kind]] = {}
    for case in corpus.collect():
        seen.setdefault(case.expected.code or "", set()).add(case.expected.kind)
    for message_case in corpus.MESSAGE_CASES:
        seen.setdefault(message_case.expected.code or "", set()).add(message_case.expected.kind)
    missing = {code: kind for code, kind in declared.items() if kind not in seen.get(code, ())}
    assert not missing


def test_azure_transient_numbers_are_retryable() -> None:
    """The numbers EF Core's SqlServerTransientExceptionDetector retries, as decided here."""
    retried = {
        1205,
        40613,
        40501,
        40197,
        40143,
        40540,
        49918,
        49919,
        49920,
        10928,
        10929,
        41301,
        41302,
        41305,
        41325,
        41839,
        233,
        10053,
        10054,
        10060,
        64,
        20,
        121,
        4221,
        42108,
        42109,
        615,
        1222,
    }
    declared = _mapper().declared_codes()
    not_retryable = sorted(n for n in retried if not KIND_TABLE[declared[str(n)]].retryable)
    assert not_retryable == []
    # Decided otherwise on purpose (see the docs): a wrong database name, an unknown
    # host and a suspect database do not heal by retrying, and a client timeout (-2)
    # is the statement's own time limit: sent again unchanged, it runs as long again.
    for number in (4060, 11001, 926, -2):
        assert not KIND_TABLE[declared[str(number)]].retryable


def test_docs_list_every_declared_code_with_its_decision() -> None:
    text = (ROOT / "docs" / "backends" / "mssql.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        match = re.match(r"^\| `(-?[0-9A-Z]{1,5})` \| `(\w+)` \| (\w+) \| (yes|no)", line)
        if match:
            rows[match.group(1)] = match.groups()[1:]
    # The ODBC SQLSTATEs' listing holds their texts; their kinds are decided in
    # `_odbc_kinds` (tests/backends/test_mssql_odbc.py holds each to its meaning).
    odbc = set(_odbc_sqlstates.TEXTS)
    declared = {c: k for c, k in _mapper().declared_codes().items() if c not in odbc}
    assert set(rows) == set(declared)
    for code, kind in declared.items():
        info = KIND_TABLE[kind]
        retryable = info.retryable or code in {"8628", "8645", "8651"}  # the documented overrides
        assert rows[code] == (kind.value, info.category.value, "yes" if retryable else "no")


# -- names -------------------------------------------------------------------------------


def _odbc(sqlstate: str, text: str, number: int, more: str = "") -> BaseException:
    import pyodbc

    message = (
        f"[{sqlstate}] [Microsoft][ODBC Driver 18 for SQL Server][SQL Server]{text} "
        f"({number}) (SQLExecDirectW){more}"
    )
    cls = pyodbc.IntegrityError if sqlstate.startswith("23") else pyodbc.ProgrammingError
    exc: BaseException = cls(sqlstate, message)
    return exc


def test_invalid_object_name_is_unqualified_with_its_schema() -> None:
    resp = classify_error(_odbc("42S02", "Invalid object name 'dbo.orders'.", 208))
    assert resp.affected_resources == ("orders",)
    assert resp.schema == "dbo"
    assert resp.database_error_code == "208"
    assert resp.sqlstate == "42S02"


def test_bracketed_three_part_name() -> None:
    resp = classify_error(_odbc("42S02", "Invalid object name 'salesdb.Sales.[Order Lines]'.", 208))
    assert resp.affected_resources == ("Order Lines",)
    assert resp.schema == "Sales"


def test_foreign_key_insert_names_the_parent_as_dependency() -> None:
    resp = classify_error(_odbc("23000", corpus.FK_INSERT, 547))
    assert resp.kind is Kind.FOREIGN_KEY_VIOLATION
    assert resp.affected_resources == ("FK_o_c",)
    assert resp.dependencies == ("customers",)
    assert resp.constraint == "FK_o_c"
    assert resp.to_tool_error()["error_type"] == "foreign_key_constraint"


def test_reference_delete_names_the_child_as_dependency() -> None:
    resp = classify_error(_odbc("23000", corpus.FK_DELETE, 547))
    assert resp.kind is Kind.FOREIGN_KEY_VIOLATION
    assert resp.dependencies == ("orders",)
    assert "customer_id" not in resp.affected_resources  # the child's column: not ours


def test_check_constraint_547_is_a_check_violation() -> None:
    resp = classify_error(_odbc("23000", corpus.CK_UPDATE, 547))
    assert resp.kind is Kind.CHECK_VIOLATION
    assert resp.affected_resources == ("t", "qty", "CK_t_qty")
    assert resp.dependencies == ()


def test_first_record_is_the_cause() -> None:
    more = (
        "; [01000] [Microsoft][ODBC Driver 18 for SQL Server][SQL Server]The statement has "
        "been terminated. (3621)"
    )
    resp = classify_error(
        _odbc(
            "23000",
            "Cannot insert the value NULL into column 'name', "
            "table 'db.dbo.t'; column does not allow nulls. INSERT fails.",
            515,
            more,
        )
    )
    assert resp.kind is Kind.NOT_NULL_VIOLATION
    assert resp.database_error_code == "515"
    assert resp.affected_resources == ("t", "name")
    assert resp.schema == "dbo"


def test_leading_warning_record_is_skipped() -> None:
    import pyodbc

    message = (
        "[01000] [Microsoft][ODBC Driver 18 for SQL Server][SQL Server]Changed database "
        "context to 'salesdb'. (5701) (SQLDriverConnect); [42S02] [Microsoft][ODBC "
        "Driver 18 for SQL Server][SQL Server]Invalid object name 'orders'. (208)"
    )
    resp = classify_error(pyodbc.Error("01000", message))
    assert resp.kind is Kind.UNDEFINED_TABLE
    assert resp.database_error_code == "208"


def test_truncated_value_is_data_not_a_name() -> None:
    resp = classify_error(
        _odbc(
            "22001",
            "String or binary data would be truncated in table "
            "'salesdb.dbo.customers', column 'name'. Truncated value: "
            "'secret-ish'.",
            2628,
        )
    )
    assert resp.affected_resources == ("customers", "name")
    assert "secret-ish" not in resp.affected_resources


def test_duplicate_key_value_is_not_a_name() -> None:
    resp = classify_error(
        _odbc(
            "23000",
            "Cannot insert duplicate key row in object 'dbo.t' "
            "with unique index 'IX_t_email'. The duplicate key value is "
            "(a@b.c).",
            2601,
        )
    )
    assert resp.affected_resources == ("t", "IX_t_email")


def test_drop_table_that_does_not_exist_is_an_undefined_table() -> None:
    text = (
        "Cannot drop the table 'dbo.orders', because it does not exist or you do not have "
        "permission."
    )
    resp = classify_error(_odbc("42S02", text, 3701))
    assert resp.kind is Kind.UNDEFINED_TABLE
    assert resp.affected_resources == ("orders",)


# -- drivers and wrappers ------------------------------------------------------------------


def test_pymssql_mssql_database_exception_from_the_low_level_module() -> None:
    from pymssql import _mssql

    exc = _mssql.MSSQLDatabaseException(
        (208, b"Invalid object name 'dbo.orders'." + corpus.DBLIB_20018.format(sev=16).encode())
    )
    resp = classify_error(exc)
    assert resp.kind is Kind.UNDEFINED_TABLE
    assert resp.database_error_code == "208"
    assert resp.affected_resources == ("orders",)


def test_pymssql_message_keeps_the_server_text() -> None:
    case = next(c for c in corpus.SERVER_CASES if c.number == 2627)
    resp = classify_error(corpus.pymssql_error(case))
    assert resp.message.startswith(case.text)


def test_pytds_keeps_the_cause_when_the_statement_was_terminated() -> None:
    case = next(c for c in corpus.SERVER_CASES if c.number == 547)
    exc = corpus.pytds_error(case)
    assert exc.msg_no == 547  # type: ignore[attr-defined]
    resp = classify_error(exc)
    assert resp.kind is Kind.FOREIGN_KEY_VIOLATION
    assert resp.dependencies == ("customers",)


def _dialect(module: Any) -> Any:
    return module.dialect()


def _sqlalchemy_wrap(orig: BaseException, dialect: Any, dbapi: Any) -> BaseException:
    """Wrap *orig* as SQLAlchemy's DefaultExecutionContext does on a failed execute."""
    from sqlalchemy.exc import DBAPIError

    dialect.dbapi = dbapi
    return DBAPIError.instance(
        "SELECT * FROM orders",
        {},
        orig,
        dbapi.Error,
        connection_invalidated=dialect.is_disconnect(orig, None, None),
        dialect=dialect,
    )


def test_sqlalchemy_mssql_pyodbc() -> None:
    require_module("sqlalchemy")
    import pyodbc
    from sqlalchemy.dialects.mssql import pyodbc as sa_pyodbc

    orig = _odbc("42S02", "Invalid object name 'dbo.orders'.", 208)
    wrapped = _sqlalchemy_wrap(orig, _dialect(sa_pyodbc), pyodbc)
    resp = classify_error(wrapped)
    assert resp.kind is Kind.UNDEFINED_TABLE
    assert resp.affected_resources == ("orders",)
    assert resp.backend == "mssql"


def test_sqlalchemy_disconnect_is_a_lost_connection() -> None:
    require_module("sqlalchemy")
    import pyodbc
    from sqlalchemy.dialects.mssql import pyodbc as sa_pyodbc

    orig = corpus.pyodbc_error(
        "08S01", [("08S01", corpus.ODBC_CHAIN + "Communication link failure", 0)]
    )
    wrapped = _sqlalchemy_wrap(orig, _dialect(sa_pyodbc), pyodbc)
    assert getattr(wrapped, "connection_invalidated", False) is True
    resp = classify_error(wrapped)
    assert resp.kind is Kind.CONNECTION_LOST
    assert resp.is_retryable


def test_sqlalchemy_mssql_pymssql() -> None:
    require_module("sqlalchemy")
    import pymssql
    from sqlalchemy.dialects.mssql import pymssql as sa_pymssql

    case = next(c for c in corpus.SERVER_CASES if c.number == 2601)
    wrapped = _sqlalchemy_wrap(corpus.pymssql_error(case), _dialect(sa_pymssql), pymssql)
    resp = classify_error(wrapped)
    assert resp.kind is Kind.UNIQUE_VIOLATION
    assert resp.affected_resources == ("t", "IX_t_email")


def test_sqlalchemy_mssql_pytds_without_a_dialect() -> None:
    """python-tds's SQLAlchemy dialect is third-party; the wrapper shape is SQLAlchemy's."""
    require_module("sqlalchemy")
    from sqlalchemy.exc import DBAPIError

    case = next(c for c in corpus.SERVER_CASES if c.number == 1205)
    orig = corpus.pytds_error(case)
    wrapped = DBAPIError.instance("UPDATE t SET x = 1", {}, orig, Exception)
    resp = classify_error(wrapped)
    assert resp.kind is Kind.DEADLOCK_DETECTED
    assert resp.is_retryable


def test_explicit_db_type_aliases() -> None:
    exc = _odbc("42S22", "Invalid column name 'foo'.", 207)
    for db_type in ("mssql", "sqlserver", "mssql+pyodbc", "SQL Server"):
        assert classify_error(exc, db_type).kind is Kind.UNDEFINED_COLUMN


def test_other_databases_through_pyodbc_never_get_sql_server_numbers() -> None:
    import pyodbc

    # MySQL's 1146 would be read as a SQL Server number if the chain were ignored;
    # 547 in a PostgreSQL record must not become a foreign-key violation.
    exc = pyodbc.Error(
        "HY000",
        "[HY000] [PostgreSQL][ODBC][psqlODBC]ERROR: canceling statement "
        "due to statement timeout (547) (SQLExecDirectW)",
    )
    resp = classify_error(exc)
    assert resp.kind is Kind.STATEMENT_TIMEOUT
    assert resp.database_error_code == "HY000"


# -- robustness ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        (42, 42),
        ("42S02", 208),
        (None,),
        (),
        ("[42S02] [", "x"),
        ((208,),),
        ((None, None),),
        (b"\xff\xfe junk",),
        ("HY000", "[HY000] " + "[x]" * 5000),
        ("42000", "[42000] [Microsoft][SQL Server]" + "a(" * 8000 + " (102) (SQLExecDirectW)"),
        (208, "Invalid object name 'x'." * 700),
    ],
)
def test_weird_arguments_never_raise(args: tuple[object, ...]) -> None:
    import pymssql
    import pyodbc

    for cls in (pyodbc.Error, pymssql.exceptions.OperationalError):
        exc = cls(*args)
        resp = classify_error(exc)
        assert isinstance(resp.kind, Kind)
        mapped = _mapper().map_error(
            ErrorInput(
                exception=exc, message=str(args)[:16384], driver=type(exc).__module__.split(".")[0]
            )
        )
        assert mapped is None or isinstance(mapped.kind, Kind)


def test_wrongly_typed_attributes_never_raise() -> None:
    from pytds import tds_base

    exc = tds_base.OperationalError("Invalid object name 'dbo.t'.")
    exc.msg_no = "208"
    exc.severity = None
    exc.text = 42
    assert isinstance(classify_error(exc).kind, Kind)


def _raises(*_args: object) -> Any:
    raise RuntimeError("attribute access raised")


_RAISING = property(_raises, lambda _self, _value: None)


def test_pyodbc_args_that_raise_or_are_not_a_tuple_fall_back_on_the_text() -> None:
    import pyodbc

    message = (
        "[42S02] [Microsoft][ODBC Driver 18 for SQL Server][SQL Server]Invalid object "
        "name 'dbo.orders'. (208) (SQLExecDirectW)"
    )
    raising = type("RaisingArgsError", (pyodbc.ProgrammingError,), {"args": _RAISING})
    listed = type(
        "ListArgsError",
        (pyodbc.ProgrammingError,),
        {"args": property(lambda _self: ["42S02", message])},
    )
    for cls in (raising, listed):
        exc = cls("42S02", message)  # str(exc) still shows the driver's tuple
        mapped = _mapper().map_error(ErrorInput(exc, str(exc), None, "pyodbc"))
        assert mapped is not None
        assert (mapped.kind, mapped.code) == (Kind.UNDEFINED_TABLE, "208")
        assert mapped.affected_resources == ("orders",)
        resp = classify_error(exc)
        assert resp.backend == "mssql"  # answered by the mapper, not the fallback
        assert resp.kind is Kind.UNDEFINED_TABLE


def test_pytds_attributes_that_raise_are_absent() -> None:
    from pytds import tds_base

    # srvname (the pytds marker), text and severity raise; msg_no is set as
    # _TdsSession.raise_db_exception sets it, after __init__.
    cls = type(
        "RaisingTdsError",
        (tds_base.ProgrammingError,),
        {"srvname": _RAISING, "text": _RAISING, "severity": _RAISING, "__module__": "myapp.errors"},
    )  # a user's subclass: the driver is still pytds
    exc = cls("Invalid object name 'dbo.orders'.")
    exc.msg_no = 208  # type: ignore[attr-defined]
    mapped = _mapper().map_error(ErrorInput(exc, str(exc), None, "pytds"))
    assert mapped is not None
    assert (mapped.kind, mapped.code) == (Kind.UNDEFINED_TABLE, "208")
    assert mapped.affected_resources == ("orders",)
    # Without the driver's name, a srvname that raises is no sign of pytds: the text decides.
    mapped = _mapper().map_error(ErrorInput(exc, str(exc), None, None))
    assert mapped is not None
    resp = classify_error(exc)
    assert resp.backend == "mssql"
    assert resp.driver == "pytds"
    assert resp.database_error_code == "208"  # read through the pytds path, not the text
    assert resp.affected_resources == ("orders",)


def test_pymssql_number_and_severity_that_raise_or_are_wrongly_typed() -> None:
    import pymssql

    text = (
        b"Transaction (Process ID 52) was deadlocked on lock resources with another process "
        b"and has been chosen as the deadlock victim. Rerun the transaction."
        + corpus.DBLIB_20018.format(sev=13).encode()
    )
    raising = type(
        "RaisingNumberError",
        (pymssql.exceptions.OperationalError,),
        {"number": _RAISING, "severity": _RAISING},
    )
    wrong = type(
        "WrongNumberError",
        (pymssql.exceptions.OperationalError,),
        {"number": "1205", "severity": "13"},
    )
    for cls in (raising, wrong):
        exc = cls(1205, text)
        mapped = _mapper().map_error(ErrorInput(exc, str(exc), None, "pymssql"))
        assert mapped is not None
        assert (mapped.kind, mapped.code) == (Kind.DEADLOCK_DETECTED, "1205")
        resp = classify_error(exc)
        assert resp.backend == "mssql"
        assert resp.kind is Kind.DEADLOCK_DETECTED


# -- a code given with the text: SQLSTATE or number -----------------------------------------


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ("08001", Kind.CONNECTION_FAILURE),
        ("07002", Kind.INVALID_PARAMETER),
        ("22012", Kind.DIVISION_BY_ZERO),
        ("23000", Kind.CHECK_VIOLATION),
        ("28000", Kind.INVALID_PASSWORD),
        ("40001", Kind.SERIALIZATION_FAILURE),
        ("40003", Kind.STATEMENT_COMPLETION_UNKNOWN),
        ("42S02", Kind.UNDEFINED_TABLE),
        ("HYT00", Kind.STATEMENT_TIMEOUT),
    ],
)
def test_a_declared_sqlstate_given_as_code_is_a_sqlstate(code: str, kind: Kind) -> None:
    resp = classify_message("error", "mssql", code=code)
    assert (resp.kind, resp.database_error_code, resp.sqlstate) == (kind, code, code)


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ("208", Kind.UNDEFINED_TABLE),
        ("1205", Kind.DEADLOCK_DETECTED),
        (1205, Kind.DEADLOCK_DETECTED),
        ("-2", Kind.STATEMENT_TIMEOUT),
        (-2, Kind.STATEMENT_TIMEOUT),
        ("40613", Kind.ADMIN_SHUTDOWN),
        ("20009", Kind.CONNECTION_FAILURE),
        ("50000", Kind.UNKNOWN),  # RAISERROR's number, though SQLSTATE-shaped
        (8001, Kind.UNKNOWN),  # an int is always a number, even one a SQLSTATE resembles
    ],
)
def test_other_codes_are_sql_server_numbers(code: str | int, kind: Kind) -> None:
    resp = classify_message("error", "mssql", code=code)
    assert (resp.kind, resp.database_error_code, resp.sqlstate) == (kind, str(code), None)


def test_an_undeclared_code_no_number_is_written_as_is_a_sqlstate() -> None:
    # A leading zero: no SQL Server number is written so.
    resp = classify_message("error", "mssql", code="01000")
    assert (resp.database_error_code, resp.sqlstate) == ("01000", "01000")


def test_the_texts_own_sqlstate_wins_over_a_sqlstate_given_as_code() -> None:
    text = "[08S01] [unixODBC][Driver Manager]Communication link failure"
    resp = classify_message(text, "mssql", code="08001")
    assert (resp.kind, resp.database_error_code) == (Kind.CONNECTION_LOST, "08S01")


def test_no_declared_sqlstate_is_also_a_declared_number() -> None:
    from localdata_errors.backends import _mssql_codes as tables

    numbers = {str(n) for n in (*tables.SERVER_NUMBERS, *tables.DBLIB_NUMBERS)}
    assert not numbers & set(tables.ODBC_SQLSTATES)


@settings(max_examples=150, deadline=None)
@given(
    state=st.from_regex(r"[0-9A-Z]{5}", fullmatch=True),
    chain=st.lists(
        st.sampled_from(
            [
                "Microsoft",
                "SQL Server",
                "unixODBC",
                "PostgreSQL",
                "ODBC Driver 18 for SQL Server",
                "",
                "]",
                "[[",
            ]
        ),
        max_size=4,
    ),
    body=st.text(max_size=300),
    native=st.integers(-(2**40), 2**40),
    more=st.booleans(),
)
def test_any_pyodbc_shaped_message_never_raises(
    state: str, chain: list[str], body: str, native: int, more: bool
) -> None:
    message = f"[{state}] " + "".join(f"[{c}]" for c in chain) + f"{body} ({native}) (SQLX)"
    if more:
        message += f"; [{state}] [SQL Server]{body} ({native})"
    mapped = _mapper().map_error(ErrorInput(exception=None, message=message))
    assert mapped is None or isinstance(mapped.kind, Kind)


def test_long_message_names_still_found() -> None:
    text = "Invalid object name 'dbo.orders'." + " padding" * 2000
    resp = classify_error(_odbc("42S02", text, 208))
    assert resp.affected_resources == ("orders",)


def test_importing_the_backend_imports_no_driver_and_no_table() -> None:
    code = (
        "import sys, localdata_errors, localdata_errors.backends.mssql as m\n"
        "drivers = {'pyodbc', 'pymssql', 'pytds', '_mssql', 'aioodbc', 'sqlalchemy'}\n"
        "assert not drivers & set(sys.modules), drivers & set(sys.modules)\n"
        "assert 'localdata_errors.backends._mssql_codes' not in sys.modules\n"
        "m.MssqlMapper().declared_codes()\n"
        "assert 'localdata_errors.backends._mssql_codes' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_record_ends_with_its_number_and_the_odbc_function() -> None:
    split = mssql_backend._split_native
    assert split("Invalid object name 'x'. (208) (SQLExecDirectW)") == (
        "Invalid object name 'x'.",
        208,
    )
    assert split("Login failed. (18456)") == ("Login failed.", 18456)
    assert split("Timeout expired (0) (SQL\u00e9)") == ("Timeout expired", 0)
    assert split("No number (SQLExecDirectW)") == ("No number (SQLExecDirectW)", None)
