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
    "SQL_Timeout": K.STATEMENT_TIMEOUT,  # .NET Framework's "Timeout expired.  The timeout ..."
    "SQL_FatalTimeout": K.CONNECTION_LOST,  # ... The connection has been broken as a result.
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
    "Snix_PreLoginBeforeSuccessfullWrite": K.CONNECTION_FAILURE,
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
    "SQLCR_TDSVestionNotPreserved": K.CONNECTION_LOST,
}
#: The details a network-layer message frames, each a connection that cannot
#: be made as configured.
DETAILS: dict[str, Kind] = dict.fromkeys(
    [
        "SQL_SSPIGenerateError",  # Cannot generate SSPI context / Failed to generate ...
        "SQL_SSPIInitializeError",  # Cannot initialize SSPI package.
        "SQL_KerberosTicketMissingError",  # Cannot authenticate using Kerberos ...
        "SNI_ERROR_12",  # No server name supplied
        "SNI_ERROR_21",  # Encryption is enforced but there is no valid certificate
        "SNI_ERROR_25",  # Connection string is not valid
        "SNI_ERROR_31",  # Encryption(ssl/tls) handshake failed
        "SNI_ERROR_44",  # Could not compose Service Principal Name (SPN) ...
        "SNI_ERROR_47",  # ... MultiSubnetFailover ... more than 64 IP addresses ...
        "SNI_ERROR_48",
        "SNI_ERROR_49",
        "SNI_ERROR_50",  # Local Database Runtime error occurred.
        "SNI_ERROR_51",
        "SNI_ERROR_52",
        "SNI_ERROR_53",
        "SNI_ERROR_54",
        "SNI_ERROR_55",
        "SNI_ERROR_56",
        "SNI_ERROR_57",
    ],
    K.CONNECTION_MISCONFIGURED,
)


def _text(name: str, wording: int = 0) -> str:
    return re.sub(r"\{\d+\}", "x", _sqlclient_texts.TEXTS[name][wording])


def _wordings() -> list[tuple[str, int]]:
    """Each decided message's every wording (the releases' files did not always agree)."""
    return [
        (name, at) for name in sorted(EXPECTED) for at in range(len(_sqlclient_texts.TEXTS[name]))
    ]


def test_every_decision_is_expected_here() -> None:
    assert set(EXPECTED) == set(_sqlclient_kinds.KINDS)
    assert set(DETAILS) == set(_sqlclient_kinds.DETAILS)
    assert dict(_sqlclient_kinds.DETAILS) == DETAILS


@pytest.mark.parametrize(("name", "wording"), _wordings())
def test_the_message_after_the_exception_class(name: str, wording: int) -> None:
    text = _text(name, wording)
    answer = classify_message(f"Microsoft.Data.SqlClient.SqlException (0x80131904): {text}")
    assert (answer.backend, answer.kind) == ("mssql", EXPECTED[name])


@pytest.mark.parametrize(("name", "wording"), _wordings())
def test_the_message_alone_names_sql_server(name: str, wording: int) -> None:
    answer = classify_message(_text(name, wording))
    assert (answer.backend, answer.kind) == ("mssql", EXPECTED[name])


def test_the_releases_wordings_are_read() -> None:
    # .NET's resource file before 5.2 said "Failed to generate SSPI context.";
    # .NET Framework's (and the merged file's) "The target principal name ...".
    assert _sqlclient_texts.TEXTS["SQL_SSPIGenerateError"] == (
        "The target principal name is incorrect.  Cannot generate SSPI context.",
        "Failed to generate SSPI context.",
    )


@pytest.mark.parametrize("name", sorted(DETAILS))
def test_a_detail_decides_before_its_frame(name: str) -> None:
    # SqlClient's "{0} (provider: {1}, error: {2} - {3})" (TdsParser.cs): the
    # frame says the connection failed; the detail says why it cannot work.
    frame = _text("Snix_Connect")
    text = f"{frame} (provider: SQL Network Interfaces, error: 50 - {_text(name)})"
    answer = classify_message(f"Microsoft.Data.SqlClient.SqlException (0x80131904): {text}")
    assert (answer.backend, answer.kind) == ("mssql", DETAILS[name])


@pytest.mark.parametrize("name", sorted(DETAILS))
def test_a_detail_alone(name: str) -> None:
    answer = classify_message(f"Microsoft.Data.SqlClient.SqlException: {_text(name)}")
    assert (answer.backend, answer.kind) == ("mssql", DETAILS[name])


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
    # A name the merged file lacks (a release's before 5.2) has none.
    decided = [*_sqlclient_kinds.DETAILS, *_sqlclient_kinds.KINDS]
    merged = [name for name in decided if "main" in _releases(name)]
    assert list(TRANSLATIONS) == merged
    assert all(len(texts) >= 12 for texts in TRANSLATIONS.values())


def _releases(name: str) -> set[str]:
    """The files of `tools/upstream/sqlclient-strings.tsv` that have *name*."""
    from pathlib import Path

    source = Path(__file__).resolve().parents[2] / "tools" / "upstream" / "sqlclient-strings.tsv"
    return {
        release
        for line in source.read_text(encoding="utf-8").splitlines()
        if line.startswith(f"{name}\t")
        for release in line.rsplit("\t", 1)[1].split(",")
    }


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
        if (answer.backend, answer.kind) != ("mssql", {**EXPECTED, **DETAILS}[name]):
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


# -- the ODBC and OLE DB drivers' network layer ----------------------------------------


def test_a_provider_name_names_sql_server_where_nothing_else_does() -> None:
    # The OLE DB driver (MSOLEDBSQL19) names neither SQL Server nor itself:
    # the SSL provider's name, as SqlClient's resources write it, does
    # (https://github.com/dotnet/SqlClient/issues/1827); "is not trusted" is
    # also PostgreSQL's wording.
    answer = classify_message(
        "Client unable to establish connection SSL Provider: The certificate chain was issued"
        " by an authority that is not trusted."
    )
    assert (answer.backend, answer.kind) == ("mssql", K.CONNECTION_MISCONFIGURED)


def test_a_provider_name_gives_way_to_another_sign() -> None:
    answer = classify_message("Session Provider: ORA-00942: table or view does not exist")
    assert answer.backend == "oracle"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # 0x2746 is 10054, the connection reset; alone it says nothing of the phase.
        (
            "[unixODBC][Microsoft][ODBC Driver 13 for SQL Server]TCP Provider: Error code 0x2746",
            K.CONNECTION_LOST,
        ),
        # The ODBC driver's own words say the connection was never made.
        (
            "[Microsoft][ODBC Driver 17 for SQL Server]TCP Provider: Error code 0x2746"
            "[Microsoft][ODBC Driver 17 for SQL Server]Client unable to establish connection",
            K.CONNECTION_FAILURE,
        ),
        # 0x274C is 10060, the connection attempt timed out.
        (
            "[Microsoft][ODBC Driver 17 for SQL Server]TCP Provider: Error code 0x274C",
            K.CONNECTION_FAILURE,
        ),
    ],
)
def test_the_providers_operating_system_error(text: str, kind: Kind) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.kind) == ("mssql", kind)


# -- EF Core's SQL Server provider -----------------------------------------------------

_TRANSIENT = (
    "An exception has been raised that is likely due to a transient failure. Consider enabling"
    " transient error resiliency by adding 'EnableRetryOnFailure' to the 'UseSqlServer' call."
)


def test_ef_cores_transient_failure_alone() -> None:
    # https://github.com/nminaya/grammar-nazi-bot/issues/700: the provider judged
    # the driver's exception transient; a commit may have been applied.
    answer = classify_message(f"Application Exception: {_TRANSIENT}")
    assert (answer.backend, answer.kind) == ("mssql", K.STATEMENT_COMPLETION_UNKNOWN)
    assert answer.is_retryable


@pytest.mark.parametrize(
    ("inner", "kind"),
    [
        (
            "Transaction (Process ID 66) was deadlocked on lock resources with another process"
            " and has been chosen as the deadlock victim. Rerun the transaction.",
            K.DEADLOCK_DETECTED,
        ),
        (_text("Snix_Connect"), K.CONNECTION_FAILURE),
    ],
)
def test_the_drivers_message_inside_ef_cores_decides(inner: str, kind: Kind) -> None:
    text = (
        f"System.InvalidOperationException: {_TRANSIENT}\n"
        f" ---> Microsoft.Data.SqlClient.SqlException (0x80131904): {inner}"
    )
    assert classify_message(text).kind is kind
