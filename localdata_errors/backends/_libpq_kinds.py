"""
Which kind each of libpq's client-side messages means: the decisions, by hand, in one place.

The facts (the first line of every msgid of libpq's message catalogues, and
its pattern) are generated into `_libpq_messages`; what each message means
for an agent is decided here by phrase (first match wins), reviewed against
libpq's sources' use of it, so that changing a kind is a one-line edit.  A
message that names the connection, the server, a socket, SSL or
authentication must get one: `tests/test_generated_tables.py` fails on one
that does not (`unjudged`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["CONNECTION_WORDS", "RULES", "kind_of", "unjudged"]

K = Kind


#: (phrase in the lower-cased first line, kind); first match wins.  None: not
# a connection matter (COPY, pipeline mode, large objects, result access:
# the application's use of the API), left to the other rules.
RULES: Final[tuple[tuple[str, Kind | None], ...]] = (
    # Warnings libpq prints beside another error, and API misuse.
    ("warning:", None),
    ("password file", None),
    ("encrypt password", None),
    ("password_encryption", None),
    ("password encryption algorithm", None),
    ("could not open file", None),
    ("could not read from file", None),
    ("could not write to file", None),
    ("pipeline mode", None),
    ("cancel request is already being sent", None),
    # A note libpq adds as it tries again itself, and an internal error after a failure.
    ("retrying connection with new bearer token", None),
    ("internal error: async cleanup", None),
    # The session went away while in use: whatever was sent may have run.
    ("server closed the connection unexpectedly", K.CONNECTION_LOST),
    ("ssl syscall error", K.CONNECTION_LOST),
    ("ssl connection has been closed unexpectedly", K.CONNECTION_LOST),
    ("could not receive data from server", K.CONNECTION_LOST),
    ("could not send data to server", K.CONNECTION_LOST),
    ("write to server failed", K.CONNECTION_LOST),
    ("lost synchronization with server", K.CONNECTION_LOST),
    ("no connection to the server", K.CONNECTION_LOST),
    ("connection not open", K.CONNECTION_LOST),
    ("connection in wrong state", K.CONNECTION_LOST),
    ("connection pointer is null", K.CONNECTION_LOST),
    ("arrived from server while idle", K.CONNECTION_LOST),
    ("pending bytes in transport buffer", K.CONNECTION_LOST),
    ("invalid socket", K.CONNECTION_LOST),
    ("no ssl error reported", K.CONNECTION_LOST),
    ("unrecognized ssl error code", K.CONNECTION_LOST),
    ("unrecognized socket error", K.CONNECTION_LOST),
    # The protocol stream is out of step: only a new connection recovers.
    ("could not interpret result from server", K.CONNECTION_LOST),
    ("invalid connection state", K.CONNECTION_LOST),
    ("server returned too much data", K.CONNECTION_LOST),
    ("without prior row description", K.CONNECTION_LOST),
    # Refused or failed before the server ran anything: safe to try again.
    ("could not connect to server", K.CONNECTION_FAILURE),
    ("is the server running", K.CONNECTION_FAILURE),
    ("connection to server at", K.CONNECTION_FAILURE),
    ("connection to server on socket", K.CONNECTION_FAILURE),
    ("could not translate unix-domain socket path", K.CONNECTION_FAILURE),
    ("could not parse network address", K.CONNECTION_FAILURE),
    ("could not create socket", K.CONNECTION_FAILURE),
    ("could not set socket to", K.CONNECTION_FAILURE),
    ("setsockopt(", K.CONNECTION_FAILURE),
    ("wsaioctl(", K.CONNECTION_FAILURE),
    ("could not get socket error status", K.CONNECTION_FAILURE),
    ("could not get client address from socket", K.CONNECTION_FAILURE),
    ("select() failed", K.CONNECTION_FAILURE),
    ("could not send startup packet", K.CONNECTION_FAILURE),
    ("could not send ssl negotiation packet", K.CONNECTION_FAILURE),
    ("could not send gssapi negotiation packet", K.CONNECTION_FAILURE),
    ("received invalid response to", K.CONNECTION_FAILURE),
    ("invalid protocol negotiation message", K.CONNECTION_FAILURE),
    ("received unencrypted data after", K.CONNECTION_FAILURE),
    ("unexpected message from server during startup", K.CONNECTION_FAILURE),
    ("expected authentication request from server", K.CONNECTION_FAILURE),
    ("unexpected response from server", K.CONNECTION_FAILURE),
    ("server sent an error response during ssl exchange", K.CONNECTION_FAILURE),
    ("server sent an error response during gss encryption exchange", K.CONNECTION_FAILURE),
    ("timeout expired", K.CONNECTION_FAILURE),
    ("could not make a writable connection", K.CONNECTION_FAILURE),
    ("hot standby mode", K.CONNECTION_FAILURE),
    ("session is read-only", K.CONNECTION_FAILURE),
    ("session is not read-only", K.CONNECTION_FAILURE),
    ("transaction_read_only", K.CONNECTION_FAILURE),
    ("result set returned for show", K.CONNECTION_FAILURE),
    # The password (or the server's proof of it) did not check out.
    ("error received from server in scram exchange", K.INVALID_PASSWORD),
    ("incorrect server signature", K.INVALID_AUTHORIZATION),
    ("could not verify server signature", K.INVALID_AUTHORIZATION),
    ("local user with id", K.INVALID_AUTHORIZATION),
    ("could not look up local user id", K.INVALID_AUTHORIZATION),
    ("user name lookup failure", K.INVALID_AUTHORIZATION),
    ("requirepeer", K.INVALID_AUTHORIZATION),
    ("could not get peer credentials", K.INVALID_AUTHORIZATION),
    ("server rejected oauth bearer token", K.INVALID_AUTHORIZATION),
    # An SSL failure is as often the handshake's as a running session's;
    # nothing was run in the first case, and reconnecting is right in both.
    ("ssl error", K.CONNECTION_FAILURE),
    # The connection's settings cannot work as written: no retry helps.
    # (A host name that does not resolve is, far more often than a passing
    # DNS outage, a host name written wrong.)
    ("could not translate host name", K.CONNECTION_MISCONFIGURED),
    ("authentication", K.CONNECTION_MISCONFIGURED),
    ("sasl", K.CONNECTION_MISCONFIGURED),
    ("scram", K.CONNECTION_MISCONFIGURED),
    ("gssapi", K.CONNECTION_MISCONFIGURED),
    ("sspi", K.CONNECTION_MISCONFIGURED),
    ("channel binding", K.CONNECTION_MISCONFIGURED),
    ("client proof", K.CONNECTION_MISCONFIGURED),
    # OAuth (libpq 18): the flow, the issuer's discovery document, libcurl,
    # and the server's error response in the exchange.
    ("oauth", K.CONNECTION_MISCONFIGURED),
    ("discovery document", K.CONNECTION_MISCONFIGURED),
    ("libcurl", K.CONNECTION_MISCONFIGURED),
    ("server's error", K.CONNECTION_MISCONFIGURED),
    ("error response without a status", K.CONNECTION_MISCONFIGURED),
    # require_auth refusing the method the server asks for.
    ("server requested a", K.CONNECTION_MISCONFIGURED),
    ("nonce", K.CONNECTION_MISCONFIGURED),
    ("random salt", K.CONNECTION_MISCONFIGURED),
    ("certificate", K.CONNECTION_MISCONFIGURED),
    ("private key", K.CONNECTION_MISCONFIGURED),
    ("private ssl key", K.CONNECTION_MISCONFIGURED),
    ("ssl engine", K.CONNECTION_MISCONFIGURED),
    ("ssl context", K.CONNECTION_MISCONFIGURED),
    ("ssl protocol version", K.CONNECTION_MISCONFIGURED),
    ("server name indication", K.CONNECTION_MISCONFIGURED),
    ("establish ssl connection", K.CONNECTION_MISCONFIGURED),
    ("ssl was required", K.CONNECTION_MISCONFIGURED),
    ("ssl not in use", K.CONNECTION_MISCONFIGURED),
    ("sslmode", K.CONNECTION_MISCONFIGURED),
    ("sslpassword", K.CONNECTION_MISCONFIGURED),
    ("gssencmode", K.CONNECTION_MISCONFIGURED),
    ("host name must be specified", K.CONNECTION_MISCONFIGURED),
    ("hostaddr values", K.CONNECTION_MISCONFIGURED),
    ("port numbers to", K.CONNECTION_MISCONFIGURED),
    ("socket path", K.CONNECTION_MISCONFIGURED),
    ("connection option", K.CONNECTION_MISCONFIGURED),
    ("connection info string", K.CONNECTION_MISCONFIGURED),
    ("invalid port number", K.CONNECTION_MISCONFIGURED),
    ("invalid channel_binding", K.CONNECTION_MISCONFIGURED),
    ("invalid target_session_attrs", K.CONNECTION_MISCONFIGURED),
    ("invalid ssl_m", K.CONNECTION_MISCONFIGURED),
    ("ssl protocol", K.CONNECTION_MISCONFIGURED),
    ("alpn", K.CONNECTION_MISCONFIGURED),
    ("ssl support is not compiled in", K.CONNECTION_MISCONFIGURED),
    # The protocol version or extension asked for (min/max_protocol_version).
    ("protocol version not supported by server", K.CONNECTION_MISCONFIGURED),
    ("server only supports protocol version", K.CONNECTION_MISCONFIGURED),
    ("protocol extension not supported by server", K.CONNECTION_MISCONFIGURED),
    ('invalid %s value: "%s"', K.CONNECTION_MISCONFIGURED),
    ("keepalives parameter", K.CONNECTION_MISCONFIGURED),
    ("in uri", K.CONNECTION_MISCONFIGURED),
    ("invalid uri", K.CONNECTION_MISCONFIGURED),
    ("percent-encoded", K.CONNECTION_MISCONFIGURED),
    ("service file", K.CONNECTION_MISCONFIGURED),
    ("definition of service", K.CONNECTION_MISCONFIGURED),
    ("service specifications", K.CONNECTION_MISCONFIGURED),
    ("ldap", K.CONNECTION_MISCONFIGURED),
    ("function requires at least protocol version", K.CONNECTION_MISCONFIGURED),
    # The client ran out of memory (the server's OOM has SQLSTATE 53200).
    ("out of memory", K.OUT_OF_MEMORY),
)

#: Words that make a message a connection matter: each such message needs a kind.
CONNECTION_WORDS: Final = re.compile(
    r"\b(?:server|connection|connect|socket|ssl|authentication|timeout|host)\b", re.IGNORECASE
)


def kind_of(line: str) -> Kind | None:
    """
    The kind the rules give a message, by its first line.

    Args:
        line: The msgid's first line, placeholders as libpq writes them.

    Returns:
        The kind; `None` for a message that is not a connection matter.
    """
    head = line.lower()
    for phrase, kind in RULES:
        if phrase in head:
            return kind
    return None


def unjudged(lines: Iterable[str]) -> list[str]:
    """
    The messages that name the connection but that no rule gives a kind.

    Args:
        lines: The msgids' first lines.

    Returns:
        Those lines, in order.
    """
    ignored = [phrase for phrase, kind in RULES if kind is None]
    return [
        line
        for line in lines
        if kind_of(line) is None
        and CONNECTION_WORDS.search(line)
        and not any(phrase in line.lower() for phrase in ignored)
    ]
