"""
Which kind each of SqlClient's own messages means: the decisions, by hand, in one place.

Microsoft.Data.SqlClient (and System.Data.SqlClient before it) raises errors
of its own beside SQL Server's: the command's time limit, the network layer
(`Snix_`: the connection could not be made, or broke), a connection's time
limit while logging in, the pool, connection recovery.  The facts (each
resource name and its English text, from the driver's `Strings.resx`) are
generated into `_sqlclient_texts`; each message that says how a command or a
connection ended gets its kind here, from its text.  The rest (the API's
use, Always Encrypted, bulk copy) is left to the server's number and the
keywords.  `tests/test_generated_tables.py` fails on a name the driver's
list lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["KINDS"]

K = Kind

#: Resource name -> its kind.
KINDS: Final[Mapping[str, Kind]] = {
    # "Execution Timeout Expired.  The timeout period elapsed prior to completion
    # of the operation or the server is not responding.": the command's own time
    # limit (SqlException.Number -2).
    "SQL_Timeout_Execution": K.STATEMENT_TIMEOUT,
    # "Connection Timeout Expired.  The timeout period elapsed ..." in each phase
    # of opening a connection: it never opened, nothing ran.
    "SQL_Timeout_PreLogin_Begin": K.CONNECTION_FAILURE,
    "SQL_Timeout_PreLogin_InitializeConnection": K.CONNECTION_FAILURE,
    "SQL_Timeout_PreLogin_SendHandshake": K.CONNECTION_FAILURE,
    "SQL_Timeout_PreLogin_ConsumeHandshake": K.CONNECTION_FAILURE,
    "SQL_Timeout_Login_Begin": K.CONNECTION_FAILURE,
    "SQL_Timeout_Login_ProcessConnectionAuth": K.CONNECTION_FAILURE,
    "SQL_Timeout_PostLogin": K.CONNECTION_FAILURE,
    # "Timeout attempting to open the connection."
    "ADP_NonPooledOpenTimeout": K.CONNECTION_FAILURE,
    # "Timeout expired.  The timeout period elapsed prior to obtaining a
    # connection from the pool ... all pooled connections were in use and max
    # pool size was reached.": the pool is exhausted; retried after a back-off.
    "ADP_PooledOpenTimeout": K.TOO_MANY_CONNECTIONS,
    # The network layer while connecting: "A network-related or instance-specific
    # error occurred while establishing a connection", "A connection was
    # successfully established with the server, but then an error occurred during
    # the pre-login handshake / the login process / obtaining the SSPI context",
    # "The client was unable to establish a connection ... before login",
    # "A transport-level error has occurred during SSPI handshake".
    "Snix_Connect": K.CONNECTION_FAILURE,
    "Snix_PreLoginBeforeSuccessfulWrite": K.CONNECTION_FAILURE,
    "Snix_PreLogin": K.CONNECTION_FAILURE,
    "Snix_LoginSspi": K.CONNECTION_FAILURE,
    "Snix_Login": K.CONNECTION_FAILURE,
    "Snix_ProcessSspi": K.CONNECTION_FAILURE,
    # The network layer on an open connection: "A transport-level error has
    # occurred when sending the request to / receiving results from the server",
    # "... during connection clean-up", "... while sending information to the
    # server", "Failed to establish a MARS session in preparation to send the
    # request to the server".
    "Snix_Execute": K.CONNECTION_LOST,
    "Snix_Read": K.CONNECTION_LOST,
    "Snix_Close": K.CONNECTION_LOST,
    "Snix_SendRows": K.CONNECTION_LOST,
    "Snix_GetMarsSession": K.CONNECTION_LOST,
    # Connection recovery failed: "The connection is broken and recovery is not
    # possible", "The server did not acknowledge a recovery attempt".
    "SQLCR_AllAttemptsFailed": K.CONNECTION_LOST,
    "SQLCR_UnrecoverableServer": K.CONNECTION_LOST,
    "SQLCR_UnrecoverableClient": K.CONNECTION_LOST,
    "SQLCR_NoCRAckAtReconnection": K.CONNECTION_LOST,
    "SQLCR_EncryptionChanged": K.CONNECTION_LOST,
    "SQLCR_TDSVersionNotPreserved": K.CONNECTION_LOST,
}
