"""
mssql-jdbc's own messages (Microsoft's JDBC driver), as a Java application prints them.

The driver raises errors of its own beside the server's (a TLS handshake it
could not complete, integrated authentication it cannot do, a TCP connection
that could not be made): they carry no server number.  Each message the
backend decides (`_mssql_jdbc_kinds`) is read from the driver's own texts
(`_mssql_jdbc_texts`, from its `SQLServerResource.java` of each release
read), its placeholders filled, and must answer the kind its words call for,
after the exception's class.
"""

from __future__ import annotations

import re

import pytest

from localdata_errors import Kind, classify_message
from localdata_errors.backends import _mssql_jdbc_kinds, _mssql_jdbc_texts

K = Kind
EXCEPTION = "com.microsoft.sqlserver.jdbc.SQLServerException: "
CONNECTION_ID = " ClientConnectionId:9e7294ea-f8ca-4249-8dff-46194b49d008"

#: A value for each placeholder, as the driver fills them.
VALUE = "true"

CASES = [(name, text) for name in _mssql_jdbc_kinds.KINDS for text in _mssql_jdbc_texts.TEXTS[name]]


@pytest.mark.parametrize(("name", "template"), CASES)
def test_each_decided_message_answers_its_kind(name: str, template: str) -> None:
    text = re.sub(r"\{\d+\}", VALUE, template).replace("''", "'")
    response = classify_message(EXCEPTION + text + CONNECTION_ID)
    assert (response.backend, response.kind) == ("mssql", _mssql_jdbc_kinds.KINDS[name])


@pytest.mark.parametrize(
    "text",
    [
        # 7.x-11.x's wording.
        EXCEPTION + "The driver could not establish a secure connection to SQL Server by using"
        ' Secure Sockets Layer (SSL) encryption. Error: "PKIX path building failed:'
        " sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid"
        ' certification path to requested target".',
        # cut where a paste often ends.
        EXCEPTION + "The driver could not establish a secure connection to SQL Server by using"
        ' Secure Sockets Layer (SSL) encryption. Error: "PKIX path building failed: ...',
        # 12.x on.
        EXCEPTION + '"encrypt" property is set to "true" and "trustServerCertificate" property is'
        ' set to "false" but the driver could not establish a secure connection to SQL Server'
        " by using Secure Sockets Layer (SSL) encryption: Error: PKIX path building failed:"
        " sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid"
        " certification path to requested target." + CONNECTION_ID,
        EXCEPTION + "This driver is not configured for integrated authentication.",
        "This driver is not configured for integrated authentication." + CONNECTION_ID,
        # 12.x's wording without the exception's class: the text is read from
        # its first word, past the opening quote.
        '"encrypt" property is set to "true" and "trustServerCertificate" property is set to'
        ' "false" but the driver could not establish a secure connection to SQL Server by using'
        " Secure Sockets Layer (SSL) encryption: Error: PKIX path building failed.",
    ],
)
def test_a_refused_tls_handshake_or_missing_integrated_auth_is_misconfigured(text: str) -> None:
    response = classify_message(text)
    assert (response.backend, response.kind) == ("mssql", K.CONNECTION_MISCONFIGURED)
    assert response.is_retryable is False


def test_an_api_usage_message_is_left_undecided() -> None:
    assert "R_statementIsClosed" in _mssql_jdbc_texts.TEXTS
    assert "R_statementIsClosed" not in _mssql_jdbc_kinds.KINDS
