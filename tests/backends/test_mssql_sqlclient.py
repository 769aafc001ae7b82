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
import subprocess
import sys

import pytest

from localdata_errors import Kind, classify_message
from localdata_errors.backends import _sqlclient_kinds, _sqlclient_texts
from localdata_errors.backends._sqlclient_translations import TRANSLATIONS

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


# -- the driver's translations (`Strings.<language>.resx`) -------------------------


def _translations() -> list[tuple[str, str]]:
    return [(name, text) for name, texts in TRANSLATIONS.items() for text in texts]


def test_every_decided_message_has_its_translations() -> None:
    assert list(TRANSLATIONS) == list(_sqlclient_kinds.KINDS)
    assert all(len(texts) >= 12 for texts in TRANSLATIONS.values())


def test_a_translation_takes_the_english_texts_decision() -> None:
    # Every translation with a letter outside ASCII, after the exception's
    # class, answers its English text's kind; those written in ASCII alone
    # (`Error en el nivel del transporte ...`) are not read (the gate).
    wrong = []
    for name, text in _translations():
        if text.isascii():
            continue
        filled = re.sub(r"\{\d+\}", "x", text)
        answer = classify_message(f"Microsoft.Data.SqlClient.SqlException (0x80131904): {filled}")
        if (answer.backend, answer.kind) != ("mssql", EXPECTED[name]):
            wrong.append((name, text))
    assert wrong == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # https://github.com/siteserver/cms/issues/1461 (SQL_Timeout_Execution, Simplified Chinese)
        ("执行超时已过期。完成操作之前已超时或服务器未响应。", K.STATEMENT_TIMEOUT),
        # https://github.com/siteserver/cms/issues/890 (Snix_Connect and its provider line)
        (
            "在与 SQL Server 建立连接时出现与网络相关的或特定于实例的错误。未找到或无法访问服务器。"
            "请验证实例名称是否正确并且 SQL Server 已配置为允许远程连接。 "
            "(provider: Named Pipes Provider, error: 40 - 无法打开到 SQL Server 的连接)",
            K.CONNECTION_FAILURE,
        ),
        # https://github.com/ret-Phoenix/oscript-sql/issues/18: System.Data.SqlClient's
        # Russian timeout, a line break inside; its second sentence is SQL_Timeout_Execution's.
        (
            "Внешнее исключение (System.Data.SqlClient.SqlException): Истекло время ожидания "
            "(Timeout). Время ожидания истекло до завершения\n операции или сервер не отвечает.",
            K.STATEMENT_TIMEOUT,
        ),
    ],
)
def test_real_translated_texts(text: str, kind: Kind) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.kind) == ("mssql", kind)


def test_a_translations_short_first_sentence_says_no_kind() -> None:
    # `Timeout expired.` opens the pool's message; in English it is too short
    # to be a run, and so is its translation (paired sentence for sentence).
    answer = classify_message("Microsoft.Data.SqlClient.SqlException: 超时时间已到。")
    assert answer.kind is not K.TOO_MANY_CONNECTIONS


def test_an_english_text_never_loads_the_translations() -> None:
    code = (
        "import sys\n"
        "from localdata_errors import classify_message\n"
        "classify_message('Microsoft.Data.SqlClient.SqlException (0x80131904): Execution Timeout"
        " Expired.  The timeout period elapsed prior to completion of the operation or the server"
        " is not responding.')\n"
        "classify_message('System.Data.SqlClient.SqlException: Cannot open database \"x\".')\n"
        "assert 'localdata_errors.backends._sqlclient_translations' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
