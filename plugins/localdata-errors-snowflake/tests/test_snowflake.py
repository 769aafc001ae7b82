"""The Snowflake plugin against snowflake-connector-python's own exceptions."""

from __future__ import annotations

import pytest
from localdata_errors_snowflake import CODES
from snowflake.connector import errors
from snowflake.connector._internal import errorcode
from snowflake_errors import MESSAGES, login_error, query_error

from localdata_errors import (
    Action,
    ErrorMapperRegistry,
    Kind,
    RetrySafety,
    classify_error,
    classify_message,
)


def test_registered_through_its_entry_point() -> None:
    info = {m.name: m for m in ErrorMapperRegistry.list_mappers()}["snowflake"]
    assert info.source == "entry point"
    assert info.distribution == "localdata-errors-snowflake"
    assert info.driver_modules == ("snowflake.connector",)


def test_the_connectors_format() -> None:
    exc = query_error("002003")
    assert isinstance(exc, errors.ProgrammingError)
    assert (exc.errno, exc.sqlstate) == (2003, "42S02")
    assert str(exc).startswith("002003 (42S02): SQL compilation error:")


def test_client_numbers_are_the_connectors() -> None:
    # The connector's own errorcode module names the 25xxxx numbers.
    assert {code: int(code) for code in CODES if code.startswith("25")} == {
        "250001": errorcode.ER_FAILED_TO_CONNECT_TO_DB,
        "250002": errorcode.ER_CONNECTION_IS_CLOSED,
        "251001": errorcode.ER_NO_ACCOUNT_NAME,
        "251005": errorcode.ER_NO_USER,
        "251006": errorcode.ER_NO_PASSWORD,
        "251007": errorcode.ER_INVALID_VALUE,
        "253006": errorcode.ER_FILE_NOT_EXISTS,
    }


# (number, kind, action, names, schema)
CASES = [
    ("002003", Kind.UNDEFINED_TABLE, Action.FIX_QUERY, ("ORDERS",), "PUBLIC"),
    ("000904", Kind.UNDEFINED_COLUMN, Action.FIX_QUERY, ("NOSUCH",), None),
    ("001003", Kind.SYNTAX_ERROR, Action.FIX_QUERY, (), None),
    ("000979", Kind.GROUPING_ERROR, Action.FIX_QUERY, ("NAME",), "O"),
    ("002028", Kind.AMBIGUOUS_COLUMN, Action.FIX_QUERY, ("ID",), None),
    ("002140", Kind.UNDEFINED_FUNCTION, Action.FIX_QUERY, ("NOSUCH",), None),
    ("002002", Kind.DUPLICATE_OBJECT, Action.FIX_QUERY, ("ORDERS",), None),
    ("003001", Kind.INSUFFICIENT_PRIVILEGE, Action.STOP, ("ORDERS",), None),
    ("100038", Kind.INVALID_TEXT_REPRESENTATION, Action.FIX_QUERY, (), None),
    ("100051", Kind.DIVISION_BY_ZERO, Action.FIX_QUERY, (), None),
    ("100072", Kind.NOT_NULL_VIOLATION, Action.FIX_QUERY, (), None),
    ("000604", Kind.QUERY_CANCELED, Action.RETRY, (), None),
    ("000630", Kind.STATEMENT_TIMEOUT, Action.FIX_QUERY, (), None),
    ("000625", Kind.LOCK_NOT_AVAILABLE, Action.RETRY, (), None),
    ("000606", Kind.CONNECTION_MISCONFIGURED, Action.STOP, (), None),
]


@pytest.mark.parametrize(
    ("code", "kind", "action", "names", "schema"), CASES, ids=[c[0] for c in CASES]
)
def test_statement_errors(
    code: str, kind: Kind, action: Action, names: tuple[str, ...], schema: str | None
) -> None:
    answer = classify_error(query_error(code))
    assert (answer.backend, answer.driver) == ("snowflake", "snowflake")
    assert (answer.database_error_code, answer.sqlstate) == (code, MESSAGES[code][0])
    assert (answer.kind, answer.action) == (kind, action)
    assert (answer.affected_resources, answer.schema) == (names, schema)


@pytest.mark.parametrize(
    ("noun", "kind"),
    [
        ("Schema", Kind.UNDEFINED_SCHEMA),
        ("Database", Kind.UNDEFINED_OBJECT),
        ("Table", Kind.UNDEFINED_TABLE),
    ],
)
def test_what_does_not_exist(noun: str, kind: Kind) -> None:
    text = f"SQL compilation error:\n{noun} 'NOSUCH' does not exist or not authorized."
    answer = classify_error(query_error("002003", text))
    assert (answer.kind, answer.affected_resources) == (kind, ("NOSUCH",))


def test_wrong_password_stops() -> None:
    answer = classify_error(login_error("390100", MESSAGES["390100"][1]))
    assert (answer.kind, answer.action, answer.database_error_code) == (
        Kind.INVALID_PASSWORD,
        Action.STOP,
        "390100",
    )


def test_invalid_jwt_stops() -> None:
    answer = classify_error(login_error("390144", MESSAGES["390144"][1]))
    assert (answer.kind, answer.action) == (Kind.INVALID_PASSWORD, Action.STOP)


def test_expired_token_reconnects() -> None:
    exc = login_error("390114", MESSAGES["390114"][1], reauthenticate=True)
    assert isinstance(exc, errors.ReauthenticationRequest)
    answer = classify_error(exc)
    assert (answer.kind, answer.action, answer.retry_safety) == (
        Kind.CONNECTION_LOST,
        Action.RECONNECT,
        RetrySafety.SAFE,
    )
    assert answer.database_error_code == "390114"


def test_failed_connect() -> None:
    # No vendor code: the connector numbers a login failure 250001 (ER_FAILED_TO_CONNECT_TO_DB).
    exc = login_error(
        None,
        "Failed to connect to DB: xy12345.snowflakecomputing.com:443. Connection refused",
    )
    answer = classify_error(exc)
    assert (answer.database_error_code, answer.sqlstate) == ("250001", "08001")
    assert (answer.kind, answer.action, answer.retry_safety) == (
        Kind.CONNECTION_FAILURE,
        Action.RECONNECT,
        RetrySafety.SAFE,
    )


def test_legacy_constructor_and_text_only() -> None:
    # The keyword constructor older connector releases raised with.
    exc = errors.ProgrammingError(
        msg="SQL compilation error:\nObject 'ORDERS' does not exist or not authorized.",
        errno=2003,
        sqlstate="42S02",
        sfqid="01b2c3d4-0000-1234-0000-000100020003",
    )
    assert classify_error(exc).kind is Kind.UNDEFINED_TABLE
    text = (
        "snowflake.connector.errors.ProgrammingError: 000630 (57014): Statement reached its"
        " statement or warehouse timeout"
    )
    answer = classify_message(text, db_type="snowflake")
    assert (answer.database_error_code, answer.sqlstate, answer.kind) == (
        "000630",
        "57014",
        Kind.STATEMENT_TIMEOUT,
    )


def test_an_unlisted_number_is_kept() -> None:
    answer = classify_error(
        query_error(
            "090105", "Cannot perform SELECT. This session does not have a current database."
        )
    )
    assert (answer.backend, answer.database_error_code) == ("snowflake", "090105")


@pytest.mark.parametrize(
    ("text", "code", "kind"),
    [
        # The connector's 250001 carrying the server's refusal: the server's
        # 390100 "Incorrect username or password was specified"
        # (https://docs.snowflake.com/en/developer-guide/python-connector/python-connector-api).
        (
            "250001 (08001): Failed to connect to DB: xy12345.snowflakecomputing.com:443. "
            "Incorrect username or password was specified.",
            "250001",
            Kind.INVALID_PASSWORD,
        ),
        # An account name that names no account: no retry can succeed.
        (
            "250001 (08001): Failed to connect to DB. Verify the account name is correct:",
            "250001",
            Kind.CONNECTION_MISCONFIGURED,
        ),
        # 000606's message printed without its number (Perl's DBD::ODBC): the
        # wording gives it (https://docs.snowflake.com/en/sql-reference/sql/use-warehouse).
        (
            "No active warehouse selected in the current session.  Select an active warehouse "
            "with the 'use warehouse' command.  (SQL-57P03)",
            "000606",
            Kind.CONNECTION_MISCONFIGURED,
        ),
    ],
)
def test_server_message_without_its_number(text: str, code: str | None, kind: Kind) -> None:
    answer = classify_message(text, "snowflake")
    assert (answer.database_error_code, answer.kind) == (code, kind)
