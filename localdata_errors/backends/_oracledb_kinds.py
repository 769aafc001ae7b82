"""
Which kind each of python-oracledb's own errors (DPY-) means: the decisions, by hand, in one place.

The facts (every `ERR_<NAME> = <number>` constant of `oracledb/errors.py`)
are generated into `_oracledb_codes`; each number gets its kind here, by its
constant's name, first match wins (the message formats were read to write
the rules), so that changing a kind is a one-line edit.  Every error whose
name speaks of a connection, a pool, the network, a listener, a session,
TLS or credentials must get one: `tests/test_generated_tables.py` fails on
one that does not (`unjudged`), and on a rule for a name the driver lacks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = [
    "CONNECTION_NAME",
    "NOT_CONNECTION",
    "OVERRIDES",
    "PATTERNS",
    "decide",
    "kind_of",
    "unjudged",
]

K = Kind

#: Per-name decisions, then name patterns (first match wins).  None: the
# application's use of the API or of a data type, left to the keywords.
OVERRIDES: Final[Mapping[str, Kind | None]] = {
    "ERR_NOT_CONNECTED": K.CONNECTION_LOST,
    "ERR_CONNECTION_CLOSED": K.CONNECTION_LOST,
    "ERR_EXCEEDED_IDLE_TIME": K.CONNECTION_LOST,
    "ERR_UNEXPECTED_END_OF_DATA": K.CONNECTION_LOST,
    "ERR_UNEXPECTED_REFUSE": K.CONNECTION_FAILURE,
    "ERR_LISTENER_REFUSED_CONNECTION": K.CONNECTION_FAILURE,
    "ERR_CONNECTION_FAILED": K.CONNECTION_FAILURE,
    "ERR_PROXY_FAILURE": K.CONNECTION_FAILURE,
    "ERR_CALL_TIMEOUT_EXCEEDED": K.STATEMENT_TIMEOUT,
    "ERR_POOL_NO_CONNECTION_AVAILABLE": K.TOO_MANY_CONNECTIONS,
    "ERR_POOL_NOT_OPEN": K.CONNECTION_LOST,
    "ERR_POOL_HAS_BUSY_CONNECTIONS": K.INVALID_TRANSACTION_STATE,
    "ERR_CURSOR_HAS_BEEN_CLOSED": K.INVALID_TRANSACTION_STATE,
    "ERR_CURSOR_NOT_OPEN": K.INVALID_TRANSACTION_STATE,
    "ERR_THIN_CONNECTION_ALREADY_CREATED": K.CONNECTION_MISCONFIGURED,
    "ERR_NO_CREDENTIALS": K.INVALID_PASSWORD,
    "ERR_EXPIRED_ACCESS_TOKEN": K.INVALID_AUTHORIZATION,
    "ERR_INVALID_ACCESS_TOKEN_RETURNED": K.INVALID_AUTHORIZATION,
    "ERR_PASSWORD_TYPE_HANDLER_FAILED": K.CONNECTION_MISCONFIGURED,
    "ERR_PLAINTEXT_PASSWORD_IN_CONFIG": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_PASSWORD_TYPE": K.CONNECTION_MISCONFIGURED,
    "ERR_UNSUPPORTED_VERIFIER_TYPE": K.CONNECTION_MISCONFIGURED,
    "ERR_SERVER_VERSION_NOT_SUPPORTED": K.CONNECTION_MISCONFIGURED,
    "ERR_SERVER_VERIFY_FAILED": K.CONNECTION_MISCONFIGURED,
    "ERR_SERVER_REFUSED_EZTLS": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_SERVER_RESPONSE": K.CONNECTION_LOST,
    "ERR_MISSING_ENDING_SINGLE_QUOTE": K.SYNTAX_ERROR,
    "ERR_MISSING_ENDING_DOUBLE_QUOTE": K.SYNTAX_ERROR,
    "ERR_INVALID_BIND_NAME": K.INVALID_PARAMETER,
    "ERR_WRONG_NUMBER_OF_POSITIONAL_BINDS": K.INVALID_PARAMETER,
    "ERR_MISSING_BIND_VALUE": K.INVALID_PARAMETER,
    "ERR_TNS_ENTRY_NOT_FOUND": K.CONNECTION_MISCONFIGURED,
    "ERR_MISSING_FILE": K.CONNECTION_MISCONFIGURED,
    "ERR_NO_CONFIG_DIR": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_SERVICE_NAME": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_SERVER_CERT_DN": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_SID": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_SERVER_NAME": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_CONNECT_DESCRIPTOR": K.CONNECTION_MISCONFIGURED,
    "ERR_CANNOT_PARSE_CONNECT_STRING": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_SSL_VERSION": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_NETWORK_NAME": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_REDIRECT_DATA": K.CONNECTION_LOST,
    "ERR_INVALID_PROTOCOL": K.CONNECTION_MISCONFIGURED,
    "ERR_WALLET_FILE_MISSING": K.CONNECTION_MISCONFIGURED,
    "ERR_MISSING_CONNECT_DESCRIPTOR": K.CONNECTION_MISCONFIGURED,
    "ERR_MISSING_ADDRESS": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_CONNECT_PARAMS": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_POOL_PARAMS": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_CONN_CLASS": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_POOL_CLASS": K.CONNECTION_MISCONFIGURED,
    "ERR_POOL_MAX_LESS_THAN_MIN": K.CONNECTION_MISCONFIGURED,
    "ERR_NAMED_POOL_MISSING": K.CONNECTION_MISCONFIGURED,
    "ERR_NAMED_POOL_EXISTS": K.CONNECTION_MISCONFIGURED,
    "ERR_HTTPS_PROXY_REQUIRES_TCPS": K.CONNECTION_MISCONFIGURED,
    "ERR_ACCESS_TOKEN_REQUIRES_TCPS": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_ACCESS_TOKEN_PARAM": K.CONNECTION_MISCONFIGURED,
    "ERR_END_USER_SECURITY_CONTEXT_REQUIRES_TCPS": K.CONNECTION_MISCONFIGURED,
    "ERR_ANO_STATUS_FAILURE": K.CONNECTION_MISCONFIGURED,
    "ERR_NO_CRYPTOGRAPHY_PACKAGE": K.CONNECTION_MISCONFIGURED,
    "ERR_INIT_ORACLE_CLIENT_NOT_CALLED": K.CONNECTION_MISCONFIGURED,
    "ERR_LIBRARY_ALREADY_INITIALIZED": K.CONNECTION_MISCONFIGURED,
    "ERR_THICK_MODE_ENABLED": K.CONNECTION_MISCONFIGURED,
    "ERR_PROTOCOL_HANDLER_FAILED": K.CONNECTION_MISCONFIGURED,
    "ERR_IFILE_CYCLE_DETECTED": K.CONNECTION_MISCONFIGURED,
    "ERR_UNKNOWN_TRANSACTION_STATE": K.STATEMENT_COMPLETION_UNKNOWN,
    # "internal error: pipeline token number N does not match expected token
    # number M": a pipelined response's token, not one of a connect string.
    "ERR_MISMATCHED_TOKEN": K.INTERNAL_ERROR,
    "ERR_INVALID_SERVER_TYPE": K.CONNECTION_MISCONFIGURED,  # in a connect string
    "ERR_CURSOR_DIFF_CONNECTION": K.INVALID_PARAMETER,  # a REF CURSOR of another connection
    "ERR_INTEGER_TOO_LARGE": None,
    "ERR_NUMBER_TOO_LARGE": None,
}
PATTERNS: Final[tuple[tuple[str, Kind | None], ...]] = (
    (r"_NOT_SUPPORTED|_UNSUPPORTED|ERR_UNSUPPORTED_|ERR_NOT_IMPLEMENTED", K.FEATURE_NOT_SUPPORTED),
    (r"^ERR_INVALID_NUMBER$|^ERR_NUMBER_|_INVALID_EXPONENT|_EMPTY_EXPONENT|AFTER_NUMBER", None),
)
#: Names about the connection: each needs a kind.
CONNECTION_NAME: Final = re.compile(
    r"CONN|POOL|NETWORK|LISTENER|SESSION|TLS|SSL|CREDENTIAL|PASSWORD|TOKEN|WALLET|TNS"
    r"|SERVER|PROXY|PROTOCOL|ADDRESS|SID|SERVICE|TIMEOUT|IDLE|REFUSE|END_OF_DATA"
)
#: Session-less transactions and the like: a state of the API, not of the connection.
NOT_CONNECTION: Final = re.compile(r"SESSIONLESS|PIGGYBACK|TRANSACTION_SYNC|SUBSCR|ARROW")


def kind_of(name: str) -> Kind | None:
    """
    The kind the rules give one of the driver's constants.

    Args:
        name: `ERR_<NAME>`.

    Returns:
        The kind; `None` for the application's use of the API or of a data
        type, left to the keywords.
    """
    if name in OVERRIDES:
        return OVERRIDES[name]
    for pattern, kind in PATTERNS:
        if re.search(pattern, name):
            return kind
    return None


def decide(
    errors: Mapping[str, int], kind_of: Callable[[str], Kind | None] = kind_of
) -> dict[int, Kind]:
    """
    Number -> kind, for every error the rules give one, by number.

    Args:
        errors: `ERR_<NAME>` -> its number.
        kind_of: The decisions (this driver's; node-oracledb's are its own).

    Returns:
        The numbers with a kind.
    """
    by_number = sorted(errors.items(), key=lambda item: item[1])
    return {number: kind for name, number in by_number if (kind := kind_of(name)) is not None}


def unjudged(names: Iterable[str], kind_of: Callable[[str], Kind | None] = kind_of) -> list[str]:
    """
    The names about the connection that no rule gives a kind.

    Args:
        names: The driver's `ERR_<NAME>` constants.
        kind_of: The decisions (this driver's; node-oracledb's are its own).

    Returns:
        Those names, in order.
    """
    return [
        name
        for name in names
        if kind_of(name) is None
        and CONNECTION_NAME.search(name)
        and not NOT_CONNECTION.search(name)
    ]
