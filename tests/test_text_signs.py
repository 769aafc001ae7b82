"""
The text reader's signs on real printings, and symbols read as codes.

Expected codes are the vendors' (MySQL's error reference, PostgreSQL's
Appendix A, Oracle's and SQL Server's message lists), not the tables'.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from localdata_errors import Kind, classify_message, default_registry


@pytest.mark.parametrize(
    ("text", "backend", "code"),
    [
        (
            "Error 1205 (HY000): Lock wait timeout exceeded; try restarting transaction",
            "mysql",
            "1205",
        ),
        ('pq: relation "users" does not exist', "postgresql", None),
        (
            "ERROR: could not serialize access due to concurrent update (SQLSTATE 40001)",
            "postgresql",
            "40001",
        ),
        (
            'Npgsql.PostgresException (0x80004005): 42P01: relation "x" does not exist',
            "postgresql",
            "42P01",
        ),
        (
            "Microsoft.Data.SqlClient.SqlException (0x80131904): Login failed for user 'sa'.",
            "mssql",
            None,
        ),
        ("Error: ER_NO_SUCH_TABLE: Table 'test.x' doesn't exist", "mysql", "1146"),
        ("SQLITE_BUSY: database is locked", "sqlite", "SQLITE_BUSY"),
        (
            "PHP Fatal error:  Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused",
            "mysql",
            "2002",
        ),
        (
            'SQLSTATE[08006] [7] FATAL:  password authentication failed for user "x"',
            "postgresql",
            "08006",
        ),
        (
            'PG::UniqueViolation: ERROR:  duplicate key value violates unique constraint "k"',
            "postgresql",
            "23505",
        ),
        (
            'Exception in thread "main" java.sql.SQLSyntaxErrorException: '
            "ORA-00942: table or view does not exist",
            "oracle",
            "ORA-00942",
        ),
        ("OperationalError: (1040, 'Too many connections')", "mysql", "1040"),
        ("Msg 208, Level 16, State 1, Line 1\nInvalid object name 'x'.", "mssql", "208"),
        # Oracle's other message prefixes (Oracle Database Error Messages: OCI,
        # the Export utility, external tables' KUP-), with their five digits.
        ("OCI-22053: overflow error", "oracle", "OCI-22053"),
        ("EXP-00056: ORACLE error 12154 encountered", "oracle", "EXP-00056"),
        ("KUP-04040: file data.csv in EXT_DIR not found", "oracle", "KUP-04040"),
        # SqlException.ToString()'s line in SqlClient's own words (its resource
        # SQL_ExErrorNumberStateClass): the number is SQL Server's message number.
        (
            "Microsoft.Data.SqlClient.SqlException (0x80131904): ...\n"
            "ClientConnectionId:0b1c\nError Number:4060,State:1,Class:11",
            "mssql",
            "4060",
        ),
        # node-mssql's RequestError with tedious's `number: 1205`: SQL Server's
        # deadlock by its wording, though MySQL's list holds 1205 too.
        (
            "RequestError: Transaction (Process ID 52) was deadlocked on lock resources with "
            "another process and has been chosen as the deadlock victim. Rerun the "
            "transaction.\n  number: 1205,",
            "mssql",
            "1205",
        ),
        # Retyped in lower case; the code is Oracle's (ORA-00942) all the same.
        ("getting ora-00942: table or view does not exist", "oracle", "ORA-00942"),
    ],
)
def test_sign_names_backend_and_code(text: str, backend: str, code: str | None) -> None:
    answer = classify_message(text)
    assert answer.backend == backend
    if code is not None:
        assert answer.database_error_code == code


@pytest.mark.parametrize(
    ("db_type", "symbol", "number"),
    [
        ("mysql", "ER_NO_SUCH_TABLE", 1146),
        ("mysql", "ER_LOCK_DEADLOCK", 1213),
        ("mysql", "CR_SERVER_GONE_ERROR", 2006),
        ("postgresql", "unique_violation", "23505"),
        ("postgresql", "UniqueViolation", "23505"),
        ("postgresql", "PG::UniqueViolation", "23505"),
        ("postgresql", "UndefinedTableError", "42P01"),
    ],
)
def test_symbol_is_its_code(db_type: str, symbol: str, number: int | str) -> None:
    by_symbol = classify_message("", db_type=db_type, code=symbol)
    by_number = classify_message("", db_type=db_type, code=number)
    assert by_symbol.kind == by_number.kind
    assert by_symbol.database_error_code == by_number.database_error_code


def _texts() -> list[str]:
    from tests.text_corpus import load

    texts = [case.text for case in load()]
    return [*texts, *(text.upper() for text in texts), *(text.lower() for text in texts)]


def test_the_trigger_search_finds_every_trigger_the_text_holds() -> None:
    # The one-pass search (overlaps included) against the plain loop of `in`.
    from localdata_errors import _textread

    pairs = [(t, n) for n, sign in enumerate(_textread.SIGNS) for t in sign.triggers]
    for text in _texts():
        head = text[: _textread._LIMIT]
        want = {n for trigger, n in pairs if trigger in head}
        assert _textread._TRIGGERS.found(head) == want, text[:80]


@given(
    st.lists(st.text(alphabet="abc-", min_size=1, max_size=4), max_size=8),
    st.text(alphabet="abc- ", max_size=40),
)
def test_literals_finds_what_a_loop_of_in_finds(literals: list[str], text: str) -> None:
    # Nested, overlapping and repeated literals alike: every one the text holds.
    from localdata_errors._lazy import Literals

    pairs = [(literal, n % 3) for n, literal in enumerate(literals)]
    assert Literals(pairs).found(text) == {n for literal, n in pairs if literal in text}


def test_a_text_of_words_has_no_leading_form_and_no_sign() -> None:
    # What lets `detect` read a plain text for names only.
    from localdata_errors import _textread
    from localdata_errors._detect import _leading
    from localdata_errors._registry import default_registry

    registry = default_registry()
    plain = [text for text in _texts() if _textread.is_plain(text)]
    assert plain  # the corpus has some
    for text in plain:
        assert _leading(text, registry) is None, text[:80]
        reading = _textread.read_signs(text, registry)
        assert reading.backend == _textread.read_names(text, registry), text[:80]
        # No sign's code: only the wording's (its template's), as `detect` reads it.
        assert reading.code == _textread.read_plain(text, registry).code, text[:80]


@pytest.mark.parametrize(
    ("text", "backend"),
    [
        ("MySQL server has gone away", "mysql"),
        ("SQLite database is locked", "sqlite"),
        ("lost connection to the PostgreSQL server", "postgresql"),
        ("Microsoft SQL Server refused the login", "mssql"),
        ("connection refused while reading the table list", None),
    ],
)
def test_a_plain_text_is_named_by_its_product(text: str, backend: str | None) -> None:
    from localdata_errors._registry import default_registry
    from localdata_errors._textread import read_names

    assert read_names(text, default_registry()) == backend


def test_a_sqlstate_holds_a_digit_so_a_word_is_not_read_as_one() -> None:
    # The rule the reader relies on, held against the lists that define codes.
    errcodes = sorted(Path("/usr/share/postgresql").glob("*/errcodes.txt"))
    if not errcodes:
        pytest.skip("PostgreSQL's errcodes.txt is not installed")
    codes = [
        line.split()[0]
        for line in errcodes[-1].read_text().splitlines()
        if line[:5].isalnum() and len(line.split()[0]) == 5
    ]
    assert len(codes) > 200
    assert all(any(ch.isdigit() for ch in code) for code in codes)
    answer = classify_message(
        'production.ERROR: ERROR:  duplicate key value violates unique constraint "u"'
    )
    assert answer.database_error_code != "ERROR"
    assert answer.kind is Kind.UNIQUE_VIOLATION


def test_a_packs_own_wording_names_its_backend() -> None:
    # Supavisor's "Tenant or user not found" (its ENOTFOUND, see the pack's
    # tests for the source), with no other sign: the base's mapper reads it
    # and the pack, asked for its markers, names itself.
    if default_registry().lookup("supavisor") is None:
        pytest.skip("the Supavisor pack is not installed: pip install -r plugins/requirements.txt")
    answer = classify_message("Tenant or user not found")
    assert (answer.backend, answer.kind) == ("supavisor", Kind.INVALID_AUTHORIZATION)
    # A one-word marker says nothing alone ("quota" is Neon's, and BigQuery's word too).
    assert classify_message("quota").backend != "postgresql"


# SQL Server's header in the language of the tools that print it, and the
# connectors whose form holds the server's number whatever the language.
@pytest.mark.parametrize(
    ("text", "sign", "code", "kind"),
    [
        # sqlcmd/SSMS in German (Meldung/Ebene/Status), from
        # https://github.com/BrentOzarULTD/SQL-Server-First-Responder-Kit/issues/1465
        (
            "Meldung 207, Ebene 16, Status 1, Prozedur sp_Blitz, Zeile 4841 "
            "Ungültiger Spaltenname 'database_id'.",
            "sqlcmd",
            "207",
            Kind.UNDEFINED_COLUMN,
        ),
        # In Russian, from Microsoft's Russian page of error 18456:
        # https://learn.microsoft.com/ru-ru/previous-versions/sql/sql-server-2008-r2/cc645917(v=sql.105)
        (
            "«Сообщение 18456, уровень 14, состояние 1, сервер <имя_компьютера>, строка 1»\n"
            '«Ошибка имени входа пользователя "<имя_пользователя>".»',
            "sqlcmd",
            "18456",
            Kind.INVALID_PASSWORD,
        ),
        # SSMS's dialog, the word "Error" translated, from the same page
        (
            "Ошибка имени входа пользователя '<имя_пользователя>'. "
            "(Microsoft SQL Server, ошибка: 18456)",
            "ssms",
            "18456",
            Kind.INVALID_PASSWORD,
        ),
        # and in Japanese, after an ideographic comma, from
        # https://learn.microsoft.com/ja-jp/troubleshoot/sql/database-engine/connect/network-related-or-instance-specific-error-occurred-while-establishing-connection
        (
            "プロバイダー: TCP プロバイダー、エラー: 0 - このようなホストは認識されていません。 "
            "(Microsoft SQL Server、エラー: 11001)",
            "ssms",
            "11001",
            None,
        ),
        (
            "provider: 名前付きパイプ プロバイダー、エラー: 40 - "
            "SQL Serverへの接続を開けませんでした (Microsoft SQL Server、エラー:53)",
            "ssms",
            "53",
            Kind.CONNECTION_FAILURE,
        ),
        # tiberius (Rust) around a Chinese server text, from
        # https://github.com/t8y2/dbx/issues/1415
        (
            "连接失败：Token error: ''OFFSET' 附近有语法错误。' on server "  # noqa: RUF001
            "WIN-GGVLTJ9M6LT\\JSQL2008 executing on line 1 (code: 102, state: 1, class: 15)",
            "tiberius",
            "102",
            Kind.SYNTAX_ERROR,
        ),
        # MariaDB Connector/Node around a French server text, from
        # https://github.com/dbcodeio/public/issues/179
        (
            "Error:\n(conn:719, no: 1045, SQLState: 28000) Accès refusé pour l'utilisateur: "
            "'root'@'@localhost' (mot de passe: OUI)",
            "mariadb-node",
            "1045",
            Kind.INVALID_PASSWORD,
        ),
    ],
)
def test_a_localized_header_or_a_connectors_form_gives_the_number(
    text: str, sign: str, code: str, kind: Kind | None
) -> None:
    from localdata_errors._textread import read_signs

    reading = read_signs(text, default_registry())
    assert (reading.sign, reading.code) == (sign, code)
    answer = classify_message(text)
    assert answer.database_error_code == code
    if kind is not None:
        assert answer.kind is kind


def test_the_header_labels_are_go_sqlcmds_translations() -> None:
    # The labels come from go-sqlcmd's catalogues (tools/generate_sqlcmd_labels.py);
    # an English header is read as before, and a number beside the word alone is not one.
    from localdata_errors import _sqlcmd_labels

    assert {"Level", "Ebene", "уровень", "级别", "レベル", "수준"} <= set(_sqlcmd_labels.LEVELS)
    assert {"State", "Status", "состояние", "状态"} <= set(_sqlcmd_labels.STATES)
    english = classify_message("Msg 208, Level 16, State 1, Line 1\nInvalid object name 'x'.")
    assert (english.database_error_code, english.kind) == ("208", Kind.UNDEFINED_TABLE)
    assert classify_message("raised to 3, level 2 of the tree").database_error_code is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # Oracle Net's tools print TNS- what the database reports as ORA- of the
        # same number (Oracle Database Error Messages, "TNS-12541: TNS:no
        # listener": no listener at the address, a refused connect).
        ("TNS-12541: TNS:no listener", Kind.CONNECTION_FAILURE),
        (
            "TNS-12541: TNS:no listener\n TNS-12560: TNS:protocol adapter error\n"
            "  TNS-00511: No listener\n   Linux Error: 111: Connection refused",
            Kind.CONNECTION_FAILURE,
        ),
        # "Connect failed because target host or object does not exist": the
        # address names no host; the same call cannot succeed.
        (
            "TNS-12545: Connect failed because target host or object does not exist",
            Kind.CONNECTION_MISCONFIGURED,
        ),
    ],
)
def test_an_oracle_net_code_is_its_ora_twin(text: str, kind: Kind) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.kind) == ("oracle", kind)
    assert answer.database_error_code is not None
    assert answer.database_error_code.startswith("TNS-")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # PostgreSQL's Appendix A: deadlock_detected, invalid_schema_name,
        # division_by_zero, read_only_sql_transaction.  A client other than
        # libpq prints the label with one space; the message is PostgreSQL's own.
        ("ERROR: deadlock detected", "40P01"),
        ('ERROR: schema "billing" does not exist', "3F000"),
        ("org.example.Job: ERROR: division by zero", "22012"),
        ("ERROR: cannot execute CREATE TABLE in a read-only transaction", "25006"),
    ],
)
def test_postgresqls_label_and_own_message_name_it(text: str, code: str) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == ("postgresql", code)


@pytest.mark.parametrize(
    "text", ["ERROR: something went wrong", "ERROR: Could not find file", "deadlock detected"]
)
def test_the_label_alone_or_the_message_alone_names_nothing(text: str) -> None:
    assert classify_message(text).backend == "generic"
