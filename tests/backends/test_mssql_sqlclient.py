"""
SqlClient's own messages (.NET's SQL Server driver), as a .NET application prints them.

SqlClient raises errors of its own beside the server's (a command's time
limit, the network layer, a connection's time limit, the pool): they carry no
server number and no SQLSTATE.  Each message the backend decides
(`_sqlclient_kinds`) is read from the driver's own text
(`_sqlclient_texts`, from its `Strings.resx`), its placeholders filled, and
must answer the kind its words call for (written here, from the message),
with or without the exception's class before it.
"""

from __future__ import annotations

import re

import pytest

from localdata_errors import Kind, classify_message
from localdata_errors.backends import _sqlclient_kinds, _sqlclient_texts

K = Kind

#: The kind each decided message calls for, by its words.
EXPECTED: dict[str, Kind] = {
    "SQL_Timeout_Execution": K.STATEMENT_TIMEOUT,  # Execution Timeout Expired
    "SQL_Timeout_PreLogin_Begin": K.CONNECTION_FAILURE,  # Connection Timeout Expired ...
    "SQL_Timeout_PreLogin_InitializeConnection": K.CONNECTION_FAILURE,
    "SQL_Timeout_PreLogin_SendHandshake": K.CONNECTION_FAILURE,
    "SQL_Timeout_PreLogin_ConsumeHandshake": K.CONNECTION_FAILURE,
    "SQL_Timeout_Login_Begin": K.CONNECTION_FAILURE,
    "SQL_Timeout_Login_ProcessConnectionAuth": K.CONNECTION_FAILURE,
    "SQL_Timeout_PostLogin": K.CONNECTION_FAILURE,
    "ADP_NonPooledOpenTimeout": K.CONNECTION_FAILURE,  # Timeout attempting to open
    "ADP_PooledOpenTimeout": K.TOO_MANY_CONNECTIONS,  # ... max pool size was reached
    "Snix_Connect": K.CONNECTION_FAILURE,  # A network-related or instance-specific error
    "Snix_PreLoginBeforeSuccessfulWrite": K.CONNECTION_FAILURE,
    "Snix_PreLogin": K.CONNECTION_FAILURE,  # ... during the pre-login handshake
    "Snix_LoginSspi": K.CONNECTION_FAILURE,
    "Snix_Login": K.CONNECTION_FAILURE,  # ... during the login process
    "Snix_ProcessSspi": K.CONNECTION_FAILURE,
    "Snix_Execute": K.CONNECTION_LOST,  # A transport-level error ... sending the request
    "Snix_Read": K.CONNECTION_LOST,  # ... when receiving results from the server
    "Snix_Close": K.CONNECTION_LOST,
    "Snix_SendRows": K.CONNECTION_LOST,
    "Snix_GetMarsSession": K.CONNECTION_LOST,
    "SQLCR_AllAttemptsFailed": K.CONNECTION_LOST,  # The connection is broken and recovery ...
    "SQLCR_UnrecoverableServer": K.CONNECTION_LOST,
    "SQLCR_UnrecoverableClient": K.CONNECTION_LOST,
    "SQLCR_NoCRAckAtReconnection": K.CONNECTION_LOST,
    "SQLCR_EncryptionChanged": K.CONNECTION_LOST,
    "SQLCR_TDSVersionNotPreserved": K.CONNECTION_LOST,
}


def _text(name: str) -> str:
    return re.sub(r"\{\d+\}", "x", _sqlclient_texts.TEXTS[name])


def test_every_decision_is_expected_here() -> None:
    assert set(EXPECTED) == set(_sqlclient_kinds.KINDS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_message_after_the_exception_class(name: str) -> None:
    answer = classify_message(f"Microsoft.Data.SqlClient.SqlException (0x80131904): {_text(name)}")
    assert (answer.backend, answer.kind) == ("mssql", EXPECTED[name])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_message_alone_names_sql_server(name: str) -> None:
    answer = classify_message(_text(name))
    assert (answer.backend, answer.kind) == ("mssql", EXPECTED[name])


def test_the_network_layers_provider_names_sql_server() -> None:
    # SqlClient's "{0} (provider: {1}, error: {2} - {3})" (TdsParser.cs).
    answer = classify_message(
        "Cannot open the connection. (provider: Named Pipes Provider, error: 40 - x)"
    )
    assert answer.backend == "mssql"
