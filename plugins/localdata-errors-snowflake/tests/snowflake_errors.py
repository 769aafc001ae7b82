"""
Snowflake's errors, turned into exceptions by snowflake-connector-python itself.

The connector's core reports a failure as a ``DriverException`` message
(kind, message, vendor code, SQLSTATE, query id); the connector converts it
with ``_proto_to_public_error``: the same function, on the same message, here.
The texts are Snowflake's, as its documentation and support articles quote
them: https://docs.snowflake.com/en/developer-guide/python-connector/python-connector-example#handling-errors,
https://docs.snowflake.com/en/sql-reference/parameters#statement-timeout-in-seconds,
https://docs.snowflake.com/en/user-guide/key-pair-auth-troubleshooting,
https://docs.snowflake.com/en/sql-reference/transactions#resource-locking.
"""

from __future__ import annotations

from snowflake.connector._internal.api_client.client_api import _proto_to_public_error
from snowflake.connector._internal.protobuf_gen import database_driver_v1_pb2 as pb
from snowflake.connector._internal.protobuf_gen.proto_exception import ProtoApplicationException

QUERY_ID = "01b2c3d4-0000-1234-0000-000100020003"

#: six-digit number -> (SQLSTATE, message) as Snowflake sends them.
MESSAGES: dict[str, tuple[str, str]] = {
    "002003": (
        "42S02",
        "SQL compilation error:\nObject 'SALES.PUBLIC.ORDERS' does not exist or not authorized.",
    ),
    "000904": (
        "42000",
        "SQL compilation error: error line 1 at position 7\ninvalid identifier 'NOSUCH'",
    ),
    "001003": (
        "42000",
        "SQL compilation error:\nsyntax error line 1 at position 0 unexpected 'SELEC'.",
    ),
    "000979": ("42601", "SQL compilation error:\n[O.NAME] is not a valid group by expression"),
    "002028": ("42601", "SQL compilation error:\nambiguous column name 'ID'"),
    "002140": ("42601", "SQL compilation error:\nUnknown function NOSUCH"),
    "002002": ("42710", "SQL compilation error:\nObject 'ORDERS' already exists."),
    "003001": (
        "42501",
        "SQL access control error:\nInsufficient privileges to operate on table 'ORDERS'",
    ),
    "100038": ("22018", "Numeric value 'abc' is not recognized"),
    "100051": ("22012", "Division by zero"),
    "100072": ("22000", "NULL result in a non-nullable column"),
    "000604": ("57014", "SQL execution canceled"),
    "000630": (
        "57014",
        "Statement reached its statement or warehouse timeout of 60 second(s) and was canceled.",
    ),
    "000625": (
        "57014",
        "Statement '01b6c04c-0108-5374-0008-50d700010052' has locked table 'LINEITEM' in"
        " transaction 1725239781553000000 and this lock has not yet been released.\nYour statement"
        " '01b6c04c-0108-5374-0008-50d700010056' was aborted because the number of waiters for this"
        " lock exceeds the 20 statements limit.",
    ),
    "000606": (
        "57P03",
        "No active warehouse selected in the current session.  Select an active warehouse with the"
        " 'use warehouse' command.",
    ),
    "390100": ("08004", "Incorrect username or password was specified."),
    "390144": ("08004", "JWT token is invalid."),
    "390114": ("08001", "Authentication token has expired.  The user must authenticate again."),
}


def _convert(exception: pb.DriverException) -> BaseException:
    return _proto_to_public_error(ProtoApplicationException(exception))


def query_error(
    code: str, message: str | None = None, sqlstate: str | None = None
) -> BaseException:
    """What the connector raises for a statement that failed with Snowflake's number *code*."""
    known_state, known_text = MESSAGES.get(code, ("42000", f"error {code}"))
    return _convert(
        pb.DriverException(
            kind=pb.ERROR_KIND_QUERY_FAILED,
            message=known_text if message is None else message,
            vendor_code=int(code),
            sql_state=sqlstate or known_state,
            query_id=QUERY_ID,
        )
    )


def login_error(code: str | None, message: str, *, reauthenticate: bool = False) -> BaseException:
    """What the connector raises when logging in (or renewing the session) fails."""
    exception = pb.DriverException(
        kind=pb.ERROR_KIND_LOGIN_ERROR, message=message, reauthentication_required=reauthenticate
    )
    if code is not None:
        exception.vendor_code = int(code)
    return _convert(exception)
