"""
Which kind each of mssql-jdbc's own messages means: the decisions, by hand, in one place.

The Microsoft JDBC Driver for SQL Server raises errors of its own beside SQL
Server's: a TLS handshake it could not complete, integrated authentication it
cannot do, a TCP connection that could not be made, a connection that closed
under it.  The facts (each resource name and its English texts, from the
driver's `SQLServerResource.java` of several releases) are generated into
`_mssql_jdbc_texts`; each message that says why a connection could not be
made or was lost gets its kind here, from its text.  The rest (the API's
use, property values, Always Encrypted, bulk copy) is left undecided: the
server's number and the keywords answer.  `tests/test_generated_tables.py`
fails on a name the driver's list lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["KINDS"]

K = Kind

#: Resource name -> its kind.
KINDS: Final[Mapping[str, Kind]] = {
    # "The driver could not establish a secure connection to SQL Server by using
    # Secure Sockets Layer (SSL) encryption. Error: ..." (12.x on: '"encrypt"
    # property is set to ... but the driver could not ...'): the certificate is
    # not trusted, or the TLS versions do not meet; the same call fails again
    # until the trust store, `trustServerCertificate` or `encrypt` changes.
    "R_sslFailed": K.CONNECTION_MISCONFIGURED,
    # "... The application requested encryption but the server is not configured
    # to support SSL." / "SQL Server login requires an encrypted connection that
    # uses Secure Sockets Layer (SSL)."
    "R_sslRequiredNoServerSupport": K.CONNECTION_MISCONFIGURED,
    "R_sslRequiredByServer": K.CONNECTION_MISCONFIGURED,
    # "Failed to validate the server name in a certificate during Secure Sockets
    # Layer (SSL) initialization.", "Error validating Server Certificate",
    # "Server Certificate has expired", "... is not yet valid".
    "R_certNameFailed": K.CONNECTION_MISCONFIGURED,
    "R_serverCertError": K.CONNECTION_MISCONFIGURED,
    "R_serverCertExpired": K.CONNECTION_MISCONFIGURED,
    "R_serverCertNotYetValid": K.CONNECTION_MISCONFIGURED,
    # "This driver is not configured for integrated authentication.": the native
    # authentication library (mssql-jdbc_auth-*.dll) is not on the library path.
    "R_notConfiguredForIntegrated": K.CONNECTION_MISCONFIGURED,
    # "Unable to load authentication DLL {0}", "Neither
    # com.sun.security.auth.module.Krb5LoginModule nor ... was found."
    "R_UnableLoadAuthDll": K.CONNECTION_MISCONFIGURED,
    "R_moduleNotFound": K.CONNECTION_MISCONFIGURED,
    # "The driver received an unexpected pre-login response. Verify the connection
    # properties and check that an instance of SQL Server is running on the host
    # ...": the port answers, but not with SQL Server.
    "R_notSQLServer": K.CONNECTION_MISCONFIGURED,
    # "The TCP/IP connection to the host {0}, port {1} has failed.", "The
    # connection to the host {0}, named instance {1} failed.", "Connection timed
    # out: no further information.", "The timeout expired before connecting to the
    # routing destination.": the connection never opened, nothing ran.
    "R_tcpipConnectionFailed": K.CONNECTION_FAILURE,
    "R_sqlBrowserFailed": K.CONNECTION_FAILURE,
    "R_connectionTimedOut": K.CONNECTION_FAILURE,
    "R_timedOutBeforeRouting": K.CONNECTION_FAILURE,
    # "The connection is closed.", "The physical connection is closed for this
    # pooled connection.", "SQL Server did not return a response. The connection
    # has been closed.", "SQL Server returned an incomplete response. The
    # connection has been closed."
    "R_connectionIsClosed": K.CONNECTION_LOST,
    "R_physicalConnectionIsClosed": K.CONNECTION_LOST,
    "R_noServerResponse": K.CONNECTION_LOST,
    "R_truncatedServerResponse": K.CONNECTION_LOST,
    # Connection recovery failed: "The connection is broken and recovery is not
    # possible", "The server did not acknowledge a recovery attempt", "The server
    # did not preserve SSL encryption during a recovery attempt".
    "R_crClientAllRecoveryAttemptsFailed": K.CONNECTION_LOST,
    "R_crClientUnrecoverable": K.CONNECTION_LOST,
    "R_crServerSessionStateNotRecoverable": K.CONNECTION_LOST,
    "R_crClientNoRecoveryAckFromLogin": K.CONNECTION_LOST,
    "R_crClientSSLStateNotRecoverable": K.CONNECTION_LOST,
    # "The query has timed out.": the statement's own time limit (queryTimeout).
    "R_queryTimedOut": K.STATEMENT_TIMEOUT,
}
