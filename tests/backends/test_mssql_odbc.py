"""
ODBC's SQLSTATEs: every one of the generated table, raised as pyodbc raises it.

The list is generated from ODBC 3.x's list (`tools/generate_odbc_sqlstates.py`)
and the kinds decided in `_odbc_kinds`; the expectations are not: each SQLSTATE's kind is written in
`tests.corpus.mssql.ODBC_STATES` from its class and its text's meaning, and
the categories each class allows are written here.  A record without a SQL
Server number (native error 0) is what the ODBC driver, the driver manager
and other databases' drivers report; the SQLSTATE is all there is to read.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from localdata_errors import KIND_TABLE, Kind, classify_error, classify_message
from localdata_errors._kinds import Action, ErrorCategory
from localdata_errors.backends import _odbc_kinds as odbc_kinds
from localdata_errors.backends import _odbc_sqlstates as odbc_facts
from tests.conftest import require_module
from tests.corpus import mssql as corpus

ROOT = Path(__file__).resolve().parents[2]
C = ErrorCategory
K = Kind

#: Who reports a driver-only record: the SQL Server ODBC driver, the driver
#: manager, another database's ODBC driver.
CHAINS = {
    "driver": corpus.ODBC_CHAIN,
    "driver-manager": "[unixODBC][Driver Manager]",
    "other-database": "[IBM][CLI Driver][DB2/LINUXX8664]",
}

#: The categories a SQLSTATE's class allows (ODBC 3.x's classes); class 01
#: (warnings) and the SQLSTATEs whose message decides are not held to one.
BY_CLASS: dict[str, set[ErrorCategory]] = {
    "07": {C.QUERY_EXECUTION},
    "08": {C.CONNECTION_ERROR},
    "0A": {C.QUERY_EXECUTION},
    "21": {C.SYNTAX_ERROR, C.QUERY_EXECUTION},
    "22": {C.QUERY_EXECUTION},
    "23": {C.CONSTRAINT_ERROR},
    "24": {C.QUERY_EXECUTION},
    "25": {C.QUERY_EXECUTION, C.TRANSIENT_ERROR},
    "28": {C.AUTH_ERROR},
    "34": {C.SCHEMA_ERROR},
    "3C": {C.SCHEMA_ERROR},
    "3D": {C.SCHEMA_ERROR},
    "3F": {C.SCHEMA_ERROR},
    "40": {C.TRANSIENT_ERROR, C.CONSTRAINT_ERROR},
    "42": {C.SYNTAX_ERROR, C.SCHEMA_ERROR, C.AUTH_ERROR},
    "44": {C.CONSTRAINT_ERROR},
    "HYT": {C.TRANSIENT_ERROR, C.CONNECTION_ERROR},
    "HY": {C.QUERY_EXECUTION, C.RESOURCE_ERROR, C.TRANSIENT_ERROR, C.CONNECTION_ERROR},
    "IM": {C.CONNECTION_ERROR, C.QUERY_EXECUTION},
}


def _about_the_connection(state: str) -> bool:
    """The connection failed, was lost, or cannot be made as configured."""
    return (
        state[:2] == "08"
        or (state[:2] == "IM" and state != "IM001")  # IM001: a function the driver lacks
        or state in {"01002", "01S00", "01S09", "HYT01"}
    )


STATES = [pytest.param(*row, id=row[0]) for row in corpus.ODBC_STATES]


def _table() -> dict[str, Kind]:
    from localdata_errors.backends import _mssql_codes

    return dict(_mssql_codes.ODBC_SQLSTATES)


def _record(state: str, text: str, native: int = 0, function: str = "SQLExecDirectW") -> Any:
    return corpus.pyodbc_error(state, [(state, text, native)], function)


@pytest.fixture(autouse=True)
def _pyodbc() -> None:
    require_module("pyodbc")


# -- the table is ODBC's whole list --------------------------------------------------------


def test_every_sqlstate_of_the_table_has_its_expectation() -> None:
    expected = [row[0] for row in corpus.ODBC_STATES]
    assert len(expected) == len(set(expected))
    assert set(expected) == set(_table())
    assert len(expected) >= 117 + 2  # ODBC 3.x's list and the two added beside it


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _driver_texts() -> dict[str, str]:
    mssql_python = require_module("mssql_python")
    texts: dict[str, str] = _tool("generate_mssql_python_texts").read_texts(
        Path(mssql_python.__file__).with_name("exceptions.py")
    )
    return texts


def test_the_expectations_word_each_sqlstate_as_odbc_does() -> None:
    texts = _driver_texts()
    mine = {state: text for state, text, _ in corpus.ODBC_STATES}
    assert {s: mine[s] for s in texts} == texts
    assert set(mine) - set(texts) == {"08S02", "0A000"}


# -- each SQLSTATE, through pyodbc -----------------------------------------------------------


@pytest.mark.parametrize("chain", CHAINS)
@pytest.mark.parametrize(("state", "text", "kind"), STATES)
def test_a_driver_only_record_is_read_by_its_sqlstate(
    state: str, text: str, kind: Kind, chain: str
) -> None:
    resp = classify_error(_record(state, CHAINS[chain] + text))
    assert (resp.kind, resp.database_error_code, resp.sqlstate) == (kind, state, state)
    assert resp.backend == "mssql"
    assert resp.error_type is KIND_TABLE[kind].category
    assert text in resp.message


@pytest.mark.parametrize(("state", "text", "kind"), STATES)
def test_a_sqlstate_given_as_code_reads_the_same(state: str, text: str, kind: Kind) -> None:
    resp = classify_message(text, "mssql", code=state)
    assert (resp.kind, resp.database_error_code, resp.sqlstate) == (kind, state, state)


@pytest.mark.parametrize(("state", "text", "kind"), STATES)
def test_the_class_bounds_the_category(state: str, text: str, kind: Kind) -> None:
    if state[:2] == "01" or kind is K.UNKNOWN:
        return  # a warning is read by its meaning; an unknown one by its message
    allowed = BY_CLASS.get(state[:3]) or BY_CLASS[state[:2]]
    resp = classify_error(_record(state, corpus.ODBC_CHAIN + text))
    assert resp.error_type in allowed, (state, text, resp.kind)


def test_no_connection_sqlstate_is_unknown() -> None:
    table = _table()
    connection = sorted(state for state in table if _about_the_connection(state))
    assert {"08001", "08S01", "08S02", "01002", "HYT01", "IM002", "IM003"} <= set(connection)
    assert [s for s in connection if table[s] is K.UNKNOWN] == []
    texts = {state: text for state, text, _ in corpus.ODBC_STATES}
    for state in connection:
        resp = classify_error(_record(state, corpus.ODBC_CHAIN + texts[state]))
        assert resp.kind is not K.UNKNOWN, state
        assert resp.error_type is C.CONNECTION_ERROR, state


# -- the records real drivers send -------------------------------------------------------------


def test_a_lost_smux_session_is_a_lost_connection() -> None:
    # Microsoft ODBC Driver 17/18: 08S02, outside ODBC's own list, native -1.
    exc = _record(
        "08S02",
        "[Microsoft][ODBC Driver 17 for SQL Server]SMux Provider: Physical connection is not "
        "usable [xFFFFFFFF]. ",
        -1,
    )
    resp = classify_error(exc)
    assert (resp.kind, resp.database_error_code) == (K.CONNECTION_LOST, "08S02")
    assert resp.action is Action.RECONNECT


def test_a_fetch_out_of_sequence_is_fixed_not_retried() -> None:
    exc = _record("HY010", corpus.ODBC_CHAIN + "Function sequence error", 0, "SQLFetch")
    resp = classify_error(exc)
    assert (resp.kind, resp.database_error_code) == (K.INVALID_TRANSACTION_STATE, "HY010")
    assert not resp.is_retryable


def test_a_cancelled_statement_and_a_connection_timeout() -> None:
    canceled = classify_error(_record("HY008", corpus.ODBC_CHAIN + "Operation canceled"))
    assert canceled.kind is K.QUERY_CANCELED
    timeout = classify_error(_record("HYT01", corpus.ODBC_CHAIN + "Connection timeout expired"))
    assert timeout.kind is K.CONNECTION_FAILURE


def test_an_unknown_outcome_is_checked_before_a_write_is_repeated() -> None:
    resp = classify_error(_record("40003", corpus.ODBC_CHAIN + "Statement completion unknown"))
    assert resp.kind is K.STATEMENT_COMPLETION_UNKNOWN
    assert resp.retry_safety.value == "idempotent_only"


# -- SQLSTATEs that name a family: the message names the member -----------------------------

MYSQL = "[MySQL][ODBC 8.0(w) Driver][mysqld-8.0.36]"
SERVER = corpus.ODBC_CHAIN + "[SQL Server]"


@pytest.mark.parametrize(
    ("state", "text", "native", "kind"),
    [
        ("23000", MYSQL + "Duplicate entry '1' for key 'orders.PRIMARY'", 1062, K.UNIQUE_VIOLATION),
        (
            "23000",
            MYSQL + "Cannot add or update a child row: a foreign key constraint fails "
            "(`test`.`orders`, CONSTRAINT `fk_c` FOREIGN KEY (`c`) REFERENCES `customers` (`id`))",
            1452,
            K.FOREIGN_KEY_VIOLATION,
        ),
        ("23000", MYSQL + "Column 'name' cannot be null", 1048, K.NOT_NULL_VIOLATION),
        # SQL Server numbers the table does not list: the SQLSTATE, then the words.
        ("23000", SERVER + "Duplicate key was ignored.", 3604, K.UNIQUE_VIOLATION),
        # 42000 is any server error without a SQLSTATE of its own, RAISERROR's too.
        ("42000", SERVER + "Order 42 cannot ship before it is paid.", 50000, K.UNKNOWN),
        ("42000", MYSQL + "You have an error in your SQL syntax", 1064, K.SYNTAX_ERROR),
        (
            "42000",
            MYSQL + "SELECT command denied to user 'app'@'localhost' for table 'orders'",
            1142,
            K.INSUFFICIENT_PRIVILEGE,
        ),
    ],
)
def test_the_message_names_the_member_of_a_family(
    state: str, text: str, native: int, kind: Kind
) -> None:
    resp = classify_error(_record(state, text, native))
    assert resp.kind is kind, resp.message
    assert resp.sqlstate == state


def test_a_family_is_not_left_by_words_of_another() -> None:
    # "timed out" would be a timeout anywhere else; under 23000 it is still a constraint.
    text = corpus.ODBC_CHAIN + "Integrity constraint violation: the check timed out"
    assert classify_error(_record("23000", text)).kind is K.CHECK_VIOLATION


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "Violation of PRIMARY KEY constraint 'PK_t'. Cannot insert duplicate key in object "
            "'dbo.t'. The duplicate key value is (1).",
            K.UNIQUE_VIOLATION,
        ),
        (
            'The INSERT statement conflicted with the FOREIGN KEY constraint "FK_o_c". The '
            'conflict occurred in database "db", table "dbo.customers", column \'id\'.',
            K.FOREIGN_KEY_VIOLATION,
        ),
        (
            "Cannot insert the value NULL into column 'name', table 'db.dbo.t'; column does "
            "not allow nulls. INSERT fails.",
            K.NOT_NULL_VIOLATION,
        ),
    ],
)
def test_mssql_python_drops_the_number_and_the_family_reads_the_text(text: str, kind: Kind) -> None:
    # mssql-python leaves the native number out: its text stands for 23000.
    shown = "Driver Error: Integrity constraint violation; DDBC Error: [Microsoft][SQL Server]"
    resp = classify_message(shown + text, "mssql")
    assert (resp.kind, resp.database_error_code) == (kind, "23000")


# -- the generator and the decisions -------------------------------------------------------


@pytest.fixture
def generator() -> ModuleType:
    require_module("mssql_python")
    return _tool("generate_odbc_sqlstates")


def test_the_generator_lists_every_sqlstate_odbc_lists(generator: ModuleType) -> None:
    states = generator.collect(_driver_texts())
    assert [s.sqlstate for s in states] == sorted(_table())


@pytest.mark.parametrize(
    "extra",
    [
        {"08S02": "Physical connection is not usable"},  # the addition is now listed
        {"hy000": "Not a SQLSTATE"},
    ],
)
def test_the_generator_fails_on_what_is_not_a_fact(
    generator: ModuleType, extra: dict[str, str]
) -> None:
    with pytest.raises(generator.SourceError):
        generator.collect({**_driver_texts(), **extra})


def test_the_decisions_fit_the_list() -> None:
    assert odbc_kinds.problems(odbc_facts.TEXTS) == []
    # A new SQLSTATE of a class with a kind takes the class's kind.
    assert odbc_kinds.problems([*odbc_facts.TEXTS, "08S99"]) == []
    assert odbc_kinds.kind_of("08S99") is K.CONNECTION_FAILURE


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("01S99", "01S99: no rule decides"),  # class 01 has no kind: each warning is decided
        ("5A000", "5A000: no rule decides"),
    ],
)
def test_a_sqlstate_no_rule_decides_is_a_problem(extra: str, problem: str) -> None:
    assert any(p.startswith(problem) for p in odbc_kinds.problems([*odbc_facts.TEXTS, extra]))


def test_a_rule_for_a_sqlstate_nobody_lists_is_a_problem() -> None:
    listed = set(odbc_facts.TEXTS) - {"HY010"}
    assert any(p.startswith("HY010") for p in odbc_kinds.problems(listed))


def test_an_unknown_connection_sqlstate_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(odbc_kinds.KINDS, "08S01", K.UNKNOWN)
    assert any(p.startswith("08S01") for p in odbc_kinds.problems(odbc_facts.TEXTS))
    monkeypatch.setitem(odbc_kinds.KINDS, "08S01", K.CONNECTION_LOST)
    monkeypatch.setitem(odbc_kinds.KINDS, "IM004", K.UNKNOWN)
    assert any(p.startswith("IM004") for p in odbc_kinds.problems(odbc_facts.TEXTS))


def test_a_family_without_its_own_kind_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(odbc_kinds.KINDS, "23000", K.SYNTAX_ERROR)
    assert any(p.startswith("23000") for p in odbc_kinds.problems(odbc_facts.TEXTS))
