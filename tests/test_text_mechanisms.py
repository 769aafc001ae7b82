"""
The text reader's later mechanisms, each on real texts found in public threads.

Each text is quoted as its page shows it (cut to the error); the expected
backend, code and category come from the vendors' documentation: PostgreSQL's
Appendix A (errcodes), SQL Server's error 18456 page, SQLite's result codes.
"""

from __future__ import annotations

import pytest

from localdata_errors import ErrorCategory, Kind, classify_message
from localdata_errors._detect import detect
from localdata_errors._textread import SIGNS

# -- a SQLSTATE by any label, validated against errcodes.txt -----------------

# https://github.com/brianc/node-postgres/issues/1602 (node-postgres' error object)
NODE_PG = """{   error: duplicate key value violates unique constraint "ak_documento_personas"
  name: 'error',
  length: 241,
  severity: 'ERROR',
  code: '23505',
  detail: 'Key (tipo_documento_id, numero_documento)=(1, 11456963) already exists.',
  constraint: 'ak_documento_personas',
  file: 'nbtinsert.c',
  line: '424',
  routine: '_bt_check_unique' }"""


def test_a_labelled_sqlstate_is_read_and_names_postgresql() -> None:
    answer = classify_message(NODE_PG)
    assert answer.backend == "postgresql"
    assert answer.database_error_code == "23505"  # unique_violation (Appendix A)
    assert answer.error_type is ErrorCategory.CONSTRAINT_ERROR


@pytest.mark.parametrize(
    "text",
    [
        "code: '12345' while reading the file",  # no SQLSTATE errcodes.txt lists
        "ErrorCode: ABCDE",  # letters only: a word
        "status code: 40613",  # a number errcodes.txt does not list
    ],
)
def test_a_label_before_five_characters_errcodes_does_not_list_reads_nothing(text: str) -> None:
    found = detect(text)
    assert found is None or found.code is None


def test_the_labelled_state_sign_is_in_the_table() -> None:
    assert "labelled-state" in {sign.name for sign in SIGNS}


# -- SQL Server's error log ----------------------------------------------------

# https://rajapet.com/2007/04/10/understanding-sql-server-error-18456/
ERRORLOG = (
    "2007-04-10 09:54:45.14 Logon       Error: 18456, Severity: 14, State: 8.\n"
    "2007-04-10 09:54:45.14 Logon       Login failed for user 'youridhere'. [CLIENT:]"
)


def test_the_sql_server_error_log_line_carries_the_number() -> None:
    answer = classify_message(ERRORLOG)
    assert answer.backend == "mssql"
    assert answer.database_error_code == "18456"  # login failed
    assert answer.error_type is ErrorCategory.AUTH_ERROR


# https://github.com/mkleehammer/pyodbc/issues/296 (CodeIgniter's "Error Number: SQLSTATE/number");
# the number after the SQLSTATE is SQL Server's.
def test_an_error_number_after_a_sqlstate_is_the_native_number() -> None:
    text = (
        "Error Number: 42S02/208\n\n[Microsoft][ODBC Driver 13 for SQL Server][SQL Server]"
        "Invalid object name 'ci_sessions'."
    )
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == ("mssql", "208")
    assert answer.kind is Kind.UNDEFINED_TABLE


# -- SQLite's own openings, without a class before them -----------------------

# https://github.com/pawelsalawa/letos/issues/1982 (SQLiteStudio's Tcl trace)
SQLITESTUDIO = """no such column: ISMESSAGECREATED
    while executing
"::database2 eval {SELECT [DELBATCHDTLSYSID], [DELTRANSCODE] FROM [x] LIMIT 1000 OFFSET 0}\""""


def test_sqlites_opening_names_sqlite_where_a_message_starts() -> None:
    answer = classify_message(SQLITESTUDIO)
    assert answer.backend == "sqlite"
    assert answer.error_type is ErrorCategory.SCHEMA_ERROR


def test_an_opening_inside_a_sentence_is_not_sqlites() -> None:
    # PostgreSQL holds "no such column" inside one of its own messages.
    found = detect("the cast failed because there is no such column in data type x")
    assert found is not None
    assert found.backend == "postgresql"
    assert detect("we found no such column here; see the notes") is None


# https://github.com/usefathom/fathom/issues/156 (a Go log line; dev corpus sqlite-046)
def test_a_vendors_phrase_after_an_opening_quote_is_where_the_message_starts() -> None:
    text = 'time="2018-10-15T07:46:39Z" level=error msg="UNIQUE constraint failed: d.date",'
    found = detect(text)
    assert found is not None
    assert found.backend == "sqlite"
    assert found.message.startswith("UNIQUE constraint failed")
    assert classify_message(text).kind is Kind.UNIQUE_VIOLATION


# -- SSMS's connect dialog: "(Microsoft SQL Server, Error: N)" -------------------

# https://github.com/microsoft/sql-server-samples/issues/1392
SSMS_LOGIN = (
    "Cannot connect to Mubashir.\n\n"
    "Login failed for user 'sa'. (Microsoft SQL Server, Error: 18456)"
)
# https://github.com/jimm98y/MSSQLEXPRESS-M1-Install/issues/45
SSMS_NETWORK = (
    "A network-related or instance-specific error occurred while establishing a connection"
    " to SQL Server. The server was not found or was not accessible. Verify that the instance"
    " name is correct and that SQL Server is configured to allow remote connections."
    " (provider: Named Pipes Provider, error: 40 - Could not open a connection to SQL Server)"
    " (Microsoft SQL Server, Error: 2)"
)


def test_the_ssms_dialog_carries_the_message_number() -> None:
    login = classify_message(SSMS_LOGIN)
    assert (login.backend, login.database_error_code) == ("mssql", "18456")
    assert login.error_type is ErrorCategory.AUTH_ERROR
    network = classify_message(SSMS_NETWORK)
    assert (network.backend, network.database_error_code) == ("mssql", "2")
    assert network.error_type is ErrorCategory.CONNECTION_ERROR
    assert network.is_retryable


# -- pymssql: the server's message before DB-Lib's 20018 wrapper ----------------

# https://github.com/PostHog/posthog/pull/64026
PYMSSQL = (
    "SQL Server message 208, severity 16, state 1, procedure b'VentasAsesorMes', line 8:\n"
    "Invalid object name 'Imagiq.dbo.inv_cuedoc'.\n"
    "DB-Lib error message 20018, severity 16:\n"
    "General SQL Server error: Check messages from the SQL Server"
)


def test_pymssql_gives_the_server_message_number_not_db_libs() -> None:
    answer = classify_message(PYMSSQL)
    assert (answer.backend, answer.database_error_code) == ("mssql", "208")
    assert answer.error_type is ErrorCategory.SCHEMA_ERROR


# -- PEAR DB: "[nativecode=N ** message]" ---------------------------------------

# https://github.com/centreon-archive/centreon-archived/issues/1354
PEAR_DB = (
    "DB Error : INSERT INTO host_hostparent_relation (host_parent_hp_id, host_host_id)"
    " VALUES ('', '62') [nativecode=1452 ** Cannot add or update a child row: a foreign key"
    " constraint fails (`centreon/host_hostparent_relation`, CONSTRAINT"
    " `host_hostparent_relation_ibfk_1` FOREIGN KEY (`host_parent_hp_id`) REFERENCES `host`"
    " (`host_id`) ON DELETE CASCADE)]"
)


def test_pear_db_gives_the_native_code() -> None:
    answer = classify_message(PEAR_DB)
    assert (answer.backend, answer.database_error_code) == ("mysql", "1452")
    assert answer.error_type is ErrorCategory.CONSTRAINT_ERROR


# -- Node's socket error to a vendor's default port -----------------------------

# https://github.com/brianc/node-postgres/issues/2222
NODE_REFUSED = (
    "Error: connect ECONNREFUSED 127.0.0.1:5432\n"
    "    at TCPConnectWrap.afterConnect [as oncomplete] (net.js:1142:16) {\n"
    "  errno: -111,\n"
    "  code: 'ECONNREFUSED',\n"
    "  syscall: 'connect',\n"
    "  address: '127.0.0.1',\n"
    "  port: 5432\n"
    "}"
)


def test_a_refused_connection_to_a_default_port_names_its_backend() -> None:
    answer = classify_message(NODE_REFUSED)
    assert answer.backend == "postgresql"  # PostgreSQL's documented default port
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR
    assert answer.is_retryable


# -- phpMyAdmin's error box: "#N - message" on a line of its own -----------------

# https://github.com/krazzer/kikcms/issues/21
PHPMYADMIN_FK = (
    "MySQL said: Documentation\n\n"
    "#1452 - Cannot add or update a child row: a foreign key constraint fails"
    " (`newdb`.`cms_page_language`, CONSTRAINT `cms_page_language_ibfk_2` FOREIGN KEY"
    " (`page_id`) REFERENCES `cms_page` (`id`) ON DELETE CASCADE ON UPDATE CASCADE)"
)
# https://github.com/webtoolsgroup/InstantWP/issues/116
PHPMYADMIN_LOGIN = "#1045 - Access denied for user 'admin'@'localhost' (using password: YES)"


def test_the_phpmyadmin_box_carries_the_error_number() -> None:
    fk = classify_message(PHPMYADMIN_FK)
    assert (fk.backend, fk.database_error_code) == ("mysql", "1452")
    assert fk.kind is Kind.FOREIGN_KEY_VIOLATION
    login = classify_message(PHPMYADMIN_LOGIN)
    assert (login.backend, login.database_error_code) == ("mysql", "1045")
    assert login.error_type is ErrorCategory.AUTH_ERROR


def test_a_hash_number_inside_a_line_is_not_phpmyadmins() -> None:
    # An issue reference in running text is no error number.
    assert classify_message("see #1452 - it broke").database_error_code is None


# -- PHP PDO's driver number names no backend by itself ------------------------

# https://github.com/yiisoft/yii/issues/399 (pdo_oci: the number is the ORA number)
PDO_OCI = (
    "CDbException CDbCommand failed to execute the SQL statement: SQLSTATE[HY000]: General "
    'error: 1400 OCIStmtExecute: ORA-01400: cannot insert NULL into ("RECA"."RECA_P_UEBA"."ID")'
)
# https://github.com/yiisoft/yii2/issues/18769 (pdo_dblib: DB-Library's number)
PDO_DBLIB = (
    "SQLSTATE[HY000]: General error: 20018 Invalid object name 't_user'. [20018] "
    "(severity 16) [select top 10 * from t_user]"
)


def test_pdo_ocis_number_is_oracles() -> None:
    answer = classify_message(PDO_OCI)
    assert (answer.backend, answer.database_error_code) == ("oracle", "ORA-01400")
    assert answer.kind is Kind.NOT_NULL_VIOLATION  # ORA-01400: cannot insert NULL


def test_pdo_dblibs_number_leaves_the_backend_to_the_wording() -> None:
    answer = classify_message(PDO_DBLIB)
    assert answer.backend == "mssql"  # "Invalid object name" is SQL Server's 208
    assert answer.kind is Kind.UNDEFINED_TABLE


def test_sybesmsgs_number_gives_way_to_the_server_messages() -> None:
    # 20018 is SYBESMSG, "Check messages from the SQL Server" (sybdb.h): the
    # server's message that follows is the error, 208 "Invalid object name".
    assert classify_message(PDO_DBLIB).database_error_code == "208"


# https://github.com/doctrine/dbal/issues/4331 (SYBETIME, 20003 in sybdb.h)
PDO_DBLIB_TIMEOUT = (
    "PDOException: SQLSTATE[HY000]: General error: 20003 Adaptive Server connection timed out"
    " [20003] (severity 6)"
)
# https://github.com/yiisoft/yii2/issues/13395 (an older pdo_dblib: SYBESMSG's
# text, the server message's number in pdo_dblib's brackets)
PDO_DBLIB_OLD = (
    "General SQL Server error: Check messages from the SQL Server [208] (severity 16) [(null)]"
)


def test_pdo_dblibs_db_library_number_is_sql_servers_not_mysqls() -> None:
    answer = classify_message(PDO_DBLIB_TIMEOUT)
    assert (answer.backend, answer.database_error_code) == ("mssql", "20003")
    assert answer.kind is Kind.CONNECTION_LOST


def test_a_db_library_number_alone_in_pdos_form_is_sql_servers() -> None:
    # Every number sybdb.h defines is DB-Library's (pdo_dblib's), none MySQL's.
    from localdata_errors.backends import _dblib_codes

    number = _dblib_codes.ERRORS["SYBEDDNE"][0]
    answer = classify_message(f"SQLSTATE[HY000]: General error: {number} it broke")
    assert (answer.backend, answer.database_error_code) == ("mssql", str(number))
    assert answer.kind is Kind.CONNECTION_LOST


def test_pdo_dblibs_bracketed_number_is_read() -> None:
    answer = classify_message(PDO_DBLIB_OLD)
    assert (answer.backend, answer.database_error_code) == ("mssql", "208")
    assert answer.kind is Kind.UNDEFINED_TABLE


# -- a SQLSTATE gives way to the wording's code where the backend has its own --

# https://github.com/microsoft/msphpsql/issues/1272 (pdo_sqlsrv)
PDO_SQLSRV = (
    "SQLSTATE[42S02]: [Microsoft][ODBC Driver 17 for SQL Server][SQL Server]"
    "Invalid object name 'ec_user_details'."
)


def test_a_sqlstate_gives_way_to_the_message_number_its_wording_gives() -> None:
    answer = classify_message(PDO_SQLSRV)
    assert (answer.backend, answer.database_error_code) == ("mssql", "208")
    assert answer.sqlstate == "42S02"


# -- Oracle's texts from Node, Java and SQL Developer ---------------------------

# https://github.com/oracle/node-oracledb/issues/1334 (node-oracledb's Error object)
ERRORNUM = (
    "{ [Error: ORA-12514: TNS:listener does not currently know of service requested in "
    "connect descriptor] errorNum: 12514, offset: 558 }"
)
# https://github.com/oracle/node-oracledb/issues/1754 (thin mode's NJS- lines)
NJS = (
    "Error: NJS-500: connection to Oracle Database was closed or broken\n"
    "NJS-501: connection to host 100.11.117.80 port 1526 terminated unexpectedly. "
    "(CONNECTION_ID=kvQcRheRWVTpjgf8xoMOHWaDw==)\nwrite EPIPE"
)
# https://github.com/oracle/oracle-db-tools/issues/42 (SQL Developer, Oracle's JDBC driver)
SQL_DEVELOPER = (
    "Status : Failure -Test failed: IO Error: The Network Adapter could not establish the "
    "connection (CONNECTION_ID=xnQiEstFRNCH3EAi7zdv3g==)"
)
# https://github.com/netrusov/ZabbixDBA/issues/83 (DBD::Oracle, a line break escaped)
ESCAPED = (
    "Thread 1 terminated abnormally: failed to connect to "
    "'DBI:Oracle:host=localhost;port=1521;sid=dbdev':\\nORA-01017: invalid username/password; "
    "logon denied (DBD ERROR: OCISessionBegin) at /opt/zdba/lib/ZDBA/DBIx.pm line 43 thread 1."
)


def test_node_oracledbs_error_number_is_read() -> None:
    found = detect(ERRORNUM)
    assert found is not None
    assert (found.backend, found.code) == ("oracle", "ORA-12514")


def test_node_oracledbs_njs_lines_give_the_cause() -> None:
    answer = classify_message(NJS)
    assert (answer.backend, answer.database_error_code) == ("oracle", "NJS-501")
    assert answer.kind is Kind.CONNECTION_LOST  # "terminated unexpectedly"


# https://github.com/AltimateAI/vscode-dbt-power-user/issues/1750 (the corpus's duckdb-002)
DUCKDB_IO = (
    'Runtime Error\nIO Error: Could not set lock on file "/data/duckdb/foodpilled.duckdb": '
    "Conflicting lock is held in /usr/local/bin/python3.12 (PID 1637). See also "
    "https://duckdb.org/docs/stable/connect/concurrency"
)


def test_oracle_nets_connection_id_names_oracle_before_duckdbs_label() -> None:
    # "IO Error: " is DuckDB's IOException label and Oracle's JDBC driver's ORA-17002.
    assert classify_message(SQL_DEVELOPER).backend == "oracle"
    assert classify_message(DUCKDB_IO).backend == "duckdb"


def test_an_ora_code_after_an_escaped_line_break_is_read() -> None:
    answer = classify_message(ESCAPED)
    assert (answer.backend, answer.database_error_code) == ("oracle", "ORA-01017")
    assert answer.kind is Kind.INVALID_PASSWORD


# -- SqlClient's own messages -------------------------------------------------

# https://github.com/udotdevelopment/ATSPM/issues/31
SQLCLIENT_TIMEOUT = (
    "Execution Timeout Expired.  The timeout period elapsed prior to completion of the "
    "operation or the server is not responding."
)
# https://github.com/Mimetis/Dotmim.Sync/issues/1306
SQLCLIENT_TRANSPORT = (
    "Microsoft.Data.SqlClient.SqlException (0x80131904): A transport-level error has occurred "
    "when receiving results from the server. (provider: TCP Provider, error: 0 - An existing "
    "connection was forcibly closed by the remote host.)"
)


def test_sqlclients_own_messages_name_sql_server_and_their_kind() -> None:
    timeout = classify_message(SQLCLIENT_TIMEOUT)
    assert (timeout.backend, timeout.kind) == ("mssql", Kind.STATEMENT_TIMEOUT)
    lost = classify_message(SQLCLIENT_TRANSPORT)
    assert (lost.backend, lost.kind) == ("mssql", Kind.CONNECTION_LOST)


def test_sqlclients_network_layer_names_sql_server() -> None:
    assert "sqlclient-sni" in {sign.name for sign in SIGNS}
    found = detect(SQLCLIENT_TRANSPORT.partition(": ")[2])  # without the exception's class
    assert found is not None
    assert found.backend == "mssql"


def test_a_markers_letter_alone_is_no_word_of_it() -> None:
    # PgBouncer's marker `S: login failed` is two words: a PowerShell error's
    # `argument(s): "Login failed for user ...` names no PostgreSQL
    # (https://github.com/JohnRoos/PowerShell/issues/8): SQL Server's wording does.
    answer = classify_message(
        'Write-ObjectToSQL : Exception calling "Open" with "0" argument(s): '
        "\"Login failed for user 'Domain\\ACCOUNT'.\""
    )
    assert (answer.backend, answer.database_error_code) == ("mssql", "18456")
