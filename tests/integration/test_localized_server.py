"""
PostgreSQL's and MariaDB's messages in other languages answer as their English ones.

Each statement runs twice, with the session's `lc_messages` set to a
language and to `C`; the text psycopg gives for the first is classified
with `classify_message` and must give the kind its SQLSTATE means
(https://www.postgresql.org/docs/current/errcodes-appendix.html) and the
names the English text gives.  A language whose locale the server's
machine lacks is skipped, saying how to add it (in CI, which adds them,
it fails).  A translation written in ASCII alone (`FEHLER:  Division durch
Null`, MariaDB's German `Tabelle 'x' existiert nicht`) is read back too: the
English reading finds no kind, and two words of such translations are in it.

MariaDB's statements run with the session's `lc_messages` set to a
language and to `en_US` (its translations are built into the server: no
locale is needed); the expected kind is the error number's meaning.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import Kind, classify_message
from tests.conftest import require_module, require_tool

LANGUAGES = ["de_DE", "fr_FR", "es_ES", "ru_RU", "zh_CN", "ja_JP"]

# (statement, the SQLSTATE the server sends, the kind that SQLSTATE means).
STATEMENTS = [
    ("SELECT * FROM nosuch_t", "42P01", Kind.UNDEFINED_TABLE),
    ("SELECT nosuch_c FROM loc_t", "42703", Kind.UNDEFINED_COLUMN),
    ("INSERT INTO loc_t VALUES (1, 1)", "23505", Kind.UNIQUE_VIOLATION),
    ("INSERT INTO loc_t VALUES (NULL, 1)", "23502", Kind.NOT_NULL_VIOLATION),
    ("INSERT INTO loc_t VALUES (5, -1)", "23514", Kind.CHECK_VIOLATION),
    ("INSERT INTO loc_c VALUES (99)", "23503", Kind.FOREIGN_KEY_VIOLATION),
    ("SELEC 1", "42601", Kind.SYNTAX_ERROR),
    ("SELECT 1/0", "22012", Kind.DIVISION_BY_ZERO),
    ("SELECT 'abc'::int", "22P02", Kind.INVALID_TEXT_REPRESENTATION),
    ("SELECT nosuch_f(1)", "42883", Kind.UNDEFINED_FUNCTION),
    ("CREATE TABLE loc_t (a int)", "42P07", Kind.DUPLICATE_TABLE),
    ("DROP TABLE loc_t", "2BP01", Kind.DEPENDENT_OBJECTS_STILL_EXIST),
    ("CREATE TABLE nosuch_s.x (a int)", "3F000", Kind.UNDEFINED_SCHEMA),
]


@pytest.fixture(scope="module")
def session(pg_server: dict[str, object]) -> Iterator[Any]:
    """A connection in a schema of this module's own, dropped afterwards."""
    psycopg = require_module("psycopg")
    schema = f"loc_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(**pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
        try:
            conn.execute(f"SET search_path = {schema}")
            conn.execute(
                "CREATE TABLE loc_t (id int PRIMARY KEY, v int NOT NULL CHECK (v >= 0));"
                "INSERT INTO loc_t VALUES (1, 1);"
                "CREATE TABLE loc_c (id int REFERENCES loc_t)"
            )
            yield conn
        finally:
            conn.execute("SET lc_messages = 'C'")
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def _text_of(conn: Any, language: str, statement: str) -> tuple[str, str | None]:
    """The text psycopg gives for *statement* with the messages in *language*, and its SQLSTATE."""
    import psycopg

    conn.execute(f"SET lc_messages = '{language}'")
    try:
        conn.execute(statement)
    except psycopg.Error as err:
        return str(err), err.sqlstate
    pytest.fail(f"{statement} raised nothing")


@pytest.mark.postgresql
@pytest.mark.parametrize(
    ("language", "statement", "sqlstate", "kind"),
    [(language, *row) for row in STATEMENTS for language in LANGUAGES],
)
def test_a_localized_message_answers_as_the_english_one(
    session: Any, language: str, statement: str, sqlstate: str, kind: Kind
) -> None:
    import psycopg

    try:
        localized, state = _text_of(session, f"{language}.UTF-8", statement)
    except psycopg.errors.InvalidParameterValue:
        require_tool(
            f"the server's machine has no {language}.UTF-8 locale: "
            f"localedef -i {language} -f UTF-8 {language}.UTF-8 --no-archive adds it"
        )
    english, english_state = _text_of(session, "C", statement)
    assert state == english_state == sqlstate
    got, want = classify_message(localized), classify_message(english)
    assert got.kind is want.kind is kind, localized
    # The same names.  The detail and hint sentences are not in the table (they
    # are no primary messages): what the English ones add is not compared (the
    # referenced table of `Key (id)=(99) is not present in table "loc_t".`).
    assert got.affected_resources[:1] == want.affected_resources[:1], localized
    assert set(got.affected_resources) <= set(want.affected_resources), localized
    if want.constraint is not None and want.constraint in localized.split("\n")[0]:
        assert got.constraint == want.constraint, localized
    else:  # named by a DETAIL sentence only
        assert got.constraint in (None, want.constraint), localized
    assert got.message in localized


# -- MariaDB ---------------------------------------------------------------------

MARIADB_LANGUAGES = [
    "zh_CN",
    "de_DE",
    "ru_RU",
    "es_ES",
    "fr_FR",
    "it_IT",
    "pt_BR",
    "nl_NL",
    "sv_SE",
]

# (statement, the error number the server sends, the kind its meaning in
# MariaDB's error list is: https://mariadb.com/kb/en/mariadb-error-code-reference/).
MARIADB_STATEMENTS = [
    ("SELECT * FROM nosuch_t", 1146, Kind.UNDEFINED_TABLE),  # ER_NO_SUCH_TABLE
    ("SELECT nosuch_c FROM loc_t", 1054, Kind.UNDEFINED_COLUMN),  # ER_BAD_FIELD_ERROR
    ("INSERT INTO loc_t VALUES (1, 1)", 1062, Kind.UNIQUE_VIOLATION),  # ER_DUP_ENTRY
    ("INSERT INTO loc_t VALUES (NULL, 1)", 1048, Kind.NOT_NULL_VIOLATION),  # ER_BAD_NULL_ERROR
    ("INSERT INTO loc_t VALUES (5, -1)", 4025, Kind.CHECK_VIOLATION),  # ER_CONSTRAINT_FAILED
    ("INSERT INTO loc_c VALUES (99)", 1452, Kind.FOREIGN_KEY_VIOLATION),  # ER_NO_REFERENCED_ROW_2
    ("DELETE FROM loc_t WHERE id = 2", 1451, Kind.FOREIGN_KEY_VIOLATION),  # ER_ROW_IS_REFERENCED_2
    ("SELEC 1", 1064, Kind.SYNTAX_ERROR),  # ER_PARSE_ERROR
    ("CREATE TABLE loc_t (a int)", 1050, Kind.DUPLICATE_TABLE),  # ER_TABLE_EXISTS_ERROR
    ("USE nosuch_db", 1049, Kind.UNDEFINED_DATABASE),  # ER_BAD_DB_ERROR
    (
        "SELECT 1 FROM loc_t WHERE id = (SELECT id FROM loc_t)",
        1242,
        Kind.CARDINALITY_VIOLATION,  # ER_SUBQUERY_NO_1_ROW
    ),
]


@pytest.fixture(scope="module")
def mariadb_session(mysql_server: dict[str, object]) -> Iterator[Any]:
    """A connection in a database of this module's own, dropped afterwards."""
    pymysql = require_module("pymysql")
    settings = {**mysql_server, "database": None}
    database = f"loc_{uuid.uuid4().hex[:8]}"
    conn = pymysql.connect(**settings, autocommit=True)
    try:
        with conn.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE {database}")
            cursor.execute(f"USE {database}")
            cursor.execute(
                "CREATE TABLE loc_t (id int PRIMARY KEY, v int NOT NULL CHECK (v >= 0))"
                " ENGINE=InnoDB"
            )
            cursor.execute("INSERT INTO loc_t VALUES (1, 1), (2, 2)")
            cursor.execute(
                "CREATE TABLE loc_c (id int, FOREIGN KEY (id) REFERENCES loc_t (id)) ENGINE=InnoDB"
            )
            cursor.execute("INSERT INTO loc_c VALUES (2)")
        yield conn
    finally:
        with conn.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {database}")
        conn.close()


def _mariadb_text_of(conn: Any, language: str, statement: str) -> tuple[str, int]:
    """The server's message for *statement* in *language*, and its error number."""
    import pymysql

    with conn.cursor() as cursor:
        cursor.execute(f"SET lc_messages = '{language}'")
        try:
            cursor.execute(statement)
        except pymysql.Error as err:
            return str(err.args[1]), int(err.args[0])
    pytest.fail(f"{statement} raised nothing")


@pytest.mark.mysql
@pytest.mark.parametrize(
    ("language", "statement", "number", "kind"),
    [(language, *row) for row in MARIADB_STATEMENTS for language in MARIADB_LANGUAGES],
)
def test_a_localized_mariadb_message_answers_as_the_english_one(
    mariadb_session: Any, language: str, statement: str, number: int, kind: Kind
) -> None:
    localized, got_number = _mariadb_text_of(mariadb_session, language, statement)
    english, english_number = _mariadb_text_of(mariadb_session, "en_US", statement)
    assert got_number == english_number == number
    got, want = classify_message(localized), classify_message(english)
    assert got.kind is want.kind is kind, localized
    assert got.database_error_code == want.database_error_code, localized
    assert got.affected_resources[:1] == want.affected_resources[:1], localized
    assert got.message in localized
