"""
MySQL Connector/J's own messages, as a Java application prints them.

The driver raises errors of its own beside the server's (a public key it may
not fetch, a server time zone it cannot read, a packet over
`max_allowed_packet`, a connection it gave up on): they carry no MySQL
error number.  Each message the backend decides (`_connectorj_kinds`) is
read from the driver's own texts (`_connectorj_texts`, from its
`LocalizedErrorMessages.properties` of each release read), its placeholders
filled, and must answer the kind its words call for, after the exception's
class.
"""

from __future__ import annotations

import re

import pytest

from localdata_errors import Kind, classify_message
from localdata_errors.backends import _connectorj_kinds, _connectorj_texts

K = Kind
EXCEPTION = "java.sql.SQLException: "

#: A value for each placeholder, as the driver fills them.
VALUE = "3"

#: 5.1 builds some messages from pieces under the same keys (`' > '`): those
#: of fewer than three words are not read.
CASES = [
    (key, text)
    for key in _connectorj_kinds.KINDS
    for text in _connectorj_texts.TEXTS[key]
    if len(text.split()) >= 3
]


@pytest.mark.parametrize(("key", "template"), CASES)
def test_each_decided_message_answers_its_kind(key: str, template: str) -> None:
    text = re.sub(r"\{\d+\}", VALUE, template).replace("''", "'")
    response = classify_message(EXCEPTION + text)
    assert (response.backend, response.kind) == ("mysql", _connectorj_kinds.KINDS[key])


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # allowPublicKeyRetrieval (Connector/J's security properties).
        (
            "java.sql.SQLNonTransientConnectionException: Public Key Retrieval is not allowed",
            K.CONNECTION_MISCONFIGURED,
        ),
        # serverTimezone / connectionTimeZone.
        (
            "java.sql.SQLException: The server time zone value 'CST' is unrecognized or"
            " represents more than one time zone. You must configure either the server or"
            " JDBC driver (via the 'serverTimezone' configuration property) to use a more"
            " specifc time zone value if you want to utilize time zone support.",
            K.CONNECTION_MISCONFIGURED,
        ),
        # max_allowed_packet: the server's configured limit.
        (
            "com.mysql.cj.jdbc.exceptions.PacketTooBigException: Packet for query is too large"
            " (4,739,923 > 4,194,304). You can change this value on the server by setting the"
            " 'max_allowed_packet' variable.",
            K.CONFIGURATION_LIMIT_EXCEEDED,
        ),
        (
            "java.sql.SQLNonTransientConnectionException: Could not create connection to"
            " database server. Attempted reconnect 3 times. Giving up.",
            K.CONNECTION_FAILURE,
        ),
        # caching_sha2_password to a driver older than it: a newer driver is needed.
        (
            "java.sql.SQLException: Unable to load authentication plugin 'caching_sha2_password'.",
            K.CONNECTION_MISCONFIGURED,
        ),
        # the wrapper gives way to its cause.
        (
            "java.sql.SQLNonTransientConnectionException: Could not create connection to"
            " database server.\nCaused by: com.mysql.cj.exceptions.UnableToConnectException:"
            " Public Key Retrieval is not allowed",
            K.CONNECTION_MISCONFIGURED,
        ),
    ],
)
def test_connectorjs_connection_and_limit_messages(text: str, kind: Kind) -> None:
    response = classify_message(text)
    assert (response.backend, response.kind) == ("mysql", kind)
    assert response.is_retryable is (kind is K.CONNECTION_FAILURE)


def test_a_piece_of_a_message_is_not_read() -> None:
    from localdata_errors.backends.mysql import connectorj_kind

    assert connectorj_kind("java.sql.SQLException: value 2 > 1") is None


def test_a_message_left_undecided_is_not_guessed() -> None:
    # "Savepoint '{0}' does not exist" is the API's use: no kind from this table.
    from localdata_errors.backends.mysql import connectorj_kind

    assert connectorj_kind("java.sql.SQLException: Savepoint 'a' does not exist") is None
