"""
Which kind each of Connector/J's own messages means: the decisions, by hand, in one place.

MySQL Connector/J, the JDBC driver, raises errors of its own beside the
server's, with no MySQL error number: a public key it may not fetch, a
server time zone it cannot read, an authentication plugin it cannot load, a
packet larger than the server's `max_allowed_packet`, a connection it gave
up on.  The facts (each message key and its English texts, from the
driver's `LocalizedErrorMessages.properties` of several releases) are
generated into `_connectorj_texts`; each message that says why a connection
could not be made or was lost, or which configured limit a statement
exceeded, gets its kind here, from its text and Connector/J's manual
(dev.mysql.com/doc/connector-j/en/connector-j-connp-props-security.html,
connector-j-time-instants.html, connector-j-usagenotes-troubleshooting.html).
The rest (the API's use, property values, the X DevAPI) is left undecided:
the server's number and the keywords answer.  `Communications link failure`
and `No operations allowed after connection closed.` are left to the keyword
fallback (`backends/generic.py`), which reads them with what follows them.
The order is the order of preference: a text holding two messages (`Could
not create connection to database server.` over its cause) gets the kind
of the one listed first.  `tests/test_generated_tables.py` fails on a key
the driver's list lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["KINDS"]

K = Kind

#: Message key -> its kind, in order of preference.
KINDS: Final[Mapping[str, Kind]] = {
    # "Public Key Retrieval is not allowed": `sha256_password` or
    # `caching_sha2_password` needs the server's RSA public key and the
    # connection neither has it nor may fetch it; the same call fails until
    # `allowPublicKeyRetrieval=true`, `serverRSAPublicKeyFile` or TLS is set.
    "Sha256PasswordPlugin.2": K.CONNECTION_MISCONFIGURED,
    # "The server time zone value '{0}' is unrecognized or represents more than
    # one time zone. You must configure either the server or JDBC driver (via
    # the 'serverTimezone' / 'connectionTimeZone' configuration property) ...".
    "TimeUtil.UnrecognizedTimezoneId": K.CONNECTION_MISCONFIGURED,
    "TimeUtil.UnrecognizedTimeZoneId": K.CONNECTION_MISCONFIGURED,
    # "Unable to load authentication plugin '{0}'.": the server asks for a
    # plugin this driver release does not have (`caching_sha2_password`, the
    # default of MySQL 8.0, to an older driver); a newer driver is needed.
    "Connection.BadAuthenticationPlugin": K.CONNECTION_MISCONFIGURED,
    "AuthenticationProvider.BadAuthenticationPlugin": K.CONNECTION_MISCONFIGURED,
    # "SSL connection required for plugin '{0}'. Check if "useSSL" is set to
    # "true"." / "... Check if 'sslMode' is enabled."; "SSL Connection
    # required, but not supported (provided) by server.".
    "Connection.AuthenticationPluginRequiresSSL": K.CONNECTION_MISCONFIGURED,
    "AuthenticationProvider.AuthenticationPluginRequiresSSL": K.CONNECTION_MISCONFIGURED,
    "MysqlIO.15": K.CONNECTION_MISCONFIGURED,
    # "Connection setting too low for 'maxAllowedPacket'. When
    # 'useServerPrepStmts=true', 'maxAllowedPacket' must be higher than {0}."
    "Connection.15": K.CONNECTION_MISCONFIGURED,
    # "Packet for query is too large ({0} > {1}). You can change this value on
    # the server by setting the 'max_allowed_packet' variable." (5.1's text
    # is built from pieces: its first): the server's configured limit, as
    # the server's own ER_NET_PACKET_TOO_LARGE (1153).
    "PacketTooBigException.0": K.CONFIGURATION_LIMIT_EXCEEDED,
    "PacketTooBigException.1": K.CONFIGURATION_LIMIT_EXCEEDED,
    # "Can not read response from server. Expected to read {0} bytes, read {1}
    # bytes before connection was unexpectedly lost."
    "MysqlIO.EOF": K.CONNECTION_LOST,
    # "Cannot connect to MySQL server on {0}:{1}. Make sure that there is a
    # MySQL server running ...", "Could not create connection to database
    # server. Attempted reconnect {0} times. Giving up.", "Could not create
    # connection to database server.": the connection never opened, nothing
    # ran (last: its cause, when the text holds it, says more).
    "Connection.1": K.CONNECTION_FAILURE,
    "Connection.UnableToConnectWithRetries": K.CONNECTION_FAILURE,
    "Connection.UnableToConnect": K.CONNECTION_FAILURE,
}
