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

The network layer's messages frame a detail: `<frame> (provider: <the SNI
provider>, error: <N> - <what failed>)`.  Where the detail is one of the
driver's own (`SNI_ERROR_<N>`) or its security package's (`SQL_SSPI...`) and
says the connection cannot be made as configured (a LocalDB instance that
does not exist, a Kerberos SPN that cannot be composed, TLS that cannot be
agreed), its kind is in `DETAILS`, and it decides before the frame's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["DETAILS", "KINDS"]

K = Kind

#: Resource name -> its kind.
KINDS: Final[Mapping[str, Kind]] = {
    # "Execution Timeout Expired.  The timeout period elapsed prior to completion
    # of the operation or the server is not responding.": the command's own time
    # limit (SqlException.Number -2); .NET Framework's files before 5.2 say
    # "Timeout expired.  The timeout period elapsed ..." (`SQL_Timeout`).
    "SQL_Timeout_Execution": K.STATEMENT_TIMEOUT,
    "SQL_Timeout": K.STATEMENT_TIMEOUT,
    # "Timeout expired.  The connection has been broken as a result." (.NET Framework).
    "SQL_FatalTimeout": K.CONNECTION_LOST,
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
    "Snix_PreLoginBeforeSuccessfullWrite": K.CONNECTION_FAILURE,  # its name before 5.2
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
    "SQLCR_TDSVestionNotPreserved": K.CONNECTION_LOST,  # its name before 5.2
}

#: What failed, inside a network-layer message's parentheses (or alone): the
#: resource name -> its kind, deciding before the frame's.  Each says the
#: connection cannot be made as configured: the same call cannot succeed.
DETAILS: Final[Mapping[str, Kind]] = {
    # Windows integrated authentication could not start: "The target principal
    # name is incorrect.  Cannot generate SSPI context." (.NET Framework; .NET's
    # files said "Failed to generate SSPI context."), "Cannot initialize SSPI
    # package.": the server's SPN or the client's Kerberos set-up.
    "SQL_SSPIGenerateError": K.CONNECTION_MISCONFIGURED,
    "SQL_SSPIInitializeError": K.CONNECTION_MISCONFIGURED,
    "SQL_KerberosTicketMissingError": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_44": K.CONNECTION_MISCONFIGURED,  # Could not compose Service Principal Name
    # "No server name supplied", "Connection string is not valid".
    "SNI_ERROR_12": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_25": K.CONNECTION_MISCONFIGURED,
    # "Encryption is enforced but there is no valid certificate", "Encryption(ssl/tls)
    # handshake failed": the two ends do not agree on TLS.
    "SNI_ERROR_21": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_31": K.CONNECTION_MISCONFIGURED,
    # MultiSubnetFailover with an instance it does not support.
    "SNI_ERROR_47": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_48": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_49": K.CONNECTION_MISCONFIGURED,
    # LocalDB: "Local Database Runtime error occurred." (the instance named does
    # not exist or cannot start), no instance name, no installation, its registry.
    "SNI_ERROR_50": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_51": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_52": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_53": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_54": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_55": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_56": K.CONNECTION_MISCONFIGURED,
    "SNI_ERROR_57": K.CONNECTION_MISCONFIGURED,
}
