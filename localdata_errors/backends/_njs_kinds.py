"""
Which kind each of node-oracledb's own errors (NJS-) means: the decisions, by hand, in one place.

node-oracledb's thin mode is python-oracledb's, ported to JavaScript, and
most of its error constants carry python-oracledb's names
(`ERR_CONNECTION_CLOSED`, `ERR_INVALID_SERVICE_NAME`): those take
python-oracledb's decisions (`_oracledb_kinds`), so that one name means one
kind in both drivers.  The names only node-oracledb has are decided here,
each from its message in the generated facts (`_njs_codes`, from the npm
package's `lib/errors.js`).  `tests/test_generated_tables.py` fails on a
decision for a name the driver lacks, on one python-oracledb already
decides, and on a name about the connection that neither decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from localdata_errors._kinds import Kind
from localdata_errors.backends import _oracledb_kinds

__all__ = ["OVERRIDES", "decide", "kind_of", "unjudged"]

K = Kind

#: node-oracledb's own names -> their kinds (None: left to the keywords).
OVERRIDES: Final[Mapping[str, Kind | None]] = {
    # "invalid pool", "connection pool is closing / was closed": python-oracledb's
    # ERR_POOL_NOT_OPEN; "invalid or closed connection" its ERR_NOT_CONNECTED
    # (node-oracledb raises it for ODPI-C's DPI-1010 "not connected").
    "ERR_INVALID_POOL": K.CONNECTION_LOST,
    "ERR_POOL_CLOSING": K.CONNECTION_LOST,
    "ERR_POOL_CLOSED": K.CONNECTION_LOST,
    "ERR_INVALID_CONNECTION": K.CONNECTION_LOST,
    # The pool had no free connection in time ("Request exceeded queueTimeout"),
    # or its queue is full ("queueMax reached"): python-oracledb's
    # ERR_POOL_NO_CONNECTION_AVAILABLE.
    "ERR_CONN_REQUEST_TIMEOUT": K.TOO_MANY_CONNECTIONS,
    "ERR_QUEUE_MAX_EXCEEDED": K.TOO_MANY_CONNECTIONS,
    # "connection pool is being reconfigured": a later request gets a connection.
    "ERR_POOL_RECONFIGURING": K.CONNECTION_FAILURE,
    # The Oracle Net layer (500 and up), each from its message.
    "ERR_CONNECTION_LOSTCONTACT": K.CONNECTION_LOST,  # terminated unexpectedly
    "ERR_CONNECTION_EOF": K.CONNECTION_LOST,  # received end-of-file on communication channel
    "ERR_CONNECTION_INBAND": K.CONNECTION_LOST,  # error received through in-band notification
    "ERR_CONNECTION_INCOMPLETE": K.CONNECTION_FAILURE,  # could not be established
    "ERR_CONNECTION_TIMEDOUT": K.CONNECTION_FAILURE,  # timed out (connecting)
    "ERR_CONNECTION_REFUSED": K.CONNECTION_FAILURE,  # the listener refused it
    "ERR_PROXY_CONNECTION_FAILURE": K.CONNECTION_FAILURE,  # through a web proxy
    "ERR_HOST_NOT_FOUND": K.CONNECTION_MISCONFIGURED,  # incorrect or unresolvable hosts
    "ERR_TLS_INIT_FAILURE": K.CONNECTION_MISCONFIGURED,  # check the wallet credentials
    "ERR_TLS_AUTH_FAILURE": K.CONNECTION_MISCONFIGURED,  # TLS handshake failure
    "ERR_TLS_DNMATCH_FAILURE": K.CONNECTION_MISCONFIGURED,  # the certificate's DN
    "ERR_TLS_HOSTMATCH_FAILURE": K.CONNECTION_MISCONFIGURED,  # the certificate's host
    "ERR_ANO_NEGOTIATION": K.CONNECTION_MISCONFIGURED,  # native encryption needs thick mode
    "ERR_INVALID_CONNECT_STRING_PARAMETERS": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_CONNECT_STRING_SYNTAX": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_EZCONNECT_SYNTAX": K.CONNECTION_MISCONFIGURED,
    "ERR_CONNECT_DESCRIPTOR_LIMIT_EXCEEDED": K.CONNECTION_MISCONFIGURED,
    "ERR_TNS_NAMES_FILE_MISSING": K.CONNECTION_MISCONFIGURED,
    "ERR_EMPTY_CONNECT_STRING": K.CONNECTION_MISCONFIGURED,
    "ERR_DBL_CONNECT_STRING": K.CONNECTION_MISCONFIGURED,  # connectString and connectionString
    # The pool's and the login's settings.
    "ERR_POOL_WITH_ALIAS_ALREADY_EXISTS": K.CONNECTION_MISCONFIGURED,
    "ERR_POOL_WITH_ALIAS_NOT_FOUND": K.CONNECTION_MISCONFIGURED,
    "ERR_INVALID_NUMBER_OF_CONNECTIONS": K.CONNECTION_MISCONFIGURED,  # poolMax below poolMin
    "ERR_POOL_STATISTICS_DISABLED": K.CONNECTION_MISCONFIGURED,  # enableStatistics is off
    "ERR_POOL_TOKEN_BASED_AUTH": K.CONNECTION_MISCONFIGURED,
    "ERR_CONN_TOKEN_BASED_AUTH": K.CONNECTION_MISCONFIGURED,
    "ERR_WRONG_USER_FORMAT_EXTAUTH_PROXY": K.CONNECTION_MISCONFIGURED,
    # Credentials: python-oracledb's ERR_NO_CREDENTIALS, ERR_EXPIRED_ACCESS_TOKEN.
    "ERR_MISSING_CREDENTIALS": K.INVALID_PASSWORD,
    "ERR_TOKEN_BASED_AUTH": K.INVALID_AUTHORIZATION,  # invalid access token
    "ERR_TOKEN_HAS_EXPIRED": K.INVALID_AUTHORIZATION,
    "ERR_ACCESS_TOKEN": K.INVALID_AUTHORIZATION,  # the access token function failed
    # python-oracledb's ERR_MISMATCHED_TOKEN, in pipeline mode.
    "ERR_PIPELINE_MISMATCHED_TOKEN": K.INTERNAL_ERROR,
}


def kind_of(name: str) -> Kind | None:
    """
    The kind of one of node-oracledb's constants.

    Args:
        name: `ERR_<NAME>`.

    Returns:
        node-oracledb's own decision, else python-oracledb's for the name;
        `None` for the application's use of the API, left to the keywords.
    """
    if name in OVERRIDES:
        return OVERRIDES[name]
    return _oracledb_kinds.kind_of(name)


def decide(errors: Mapping[str, int]) -> dict[int, Kind]:
    """Number -> kind, for every error a decision gives one (`_oracledb_kinds.decide`)."""
    return _oracledb_kinds.decide(errors, kind_of)


def unjudged(names: Iterable[str]) -> list[str]:
    """The names about the connection that no decision gives a kind (`_oracledb_kinds.unjudged`)."""
    return _oracledb_kinds.unjudged(names, kind_of)
