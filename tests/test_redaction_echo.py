"""
A credential typed without quotes, echoed by a real engine, is masked in every field.

A server that cannot parse a statement echoes part of it: PostgreSQL and
DuckDB the whole line (`LINE 1: ALTER ROLE app PASSWORD hunter2`) and the
token it stopped at (`at or near "hunter2"`), MariaDB the statement from
that token on (`near 'hunter2' at line 1`), SQLite the token alone
(`near "hunter2"`).  The excerpt is read with the SQL tokenizer, so the
value after each credential key word is masked, quoted or bare; where the
message starts at the value, the statement itself tells (SQLAlchemy's
exceptions carry it; a caller passes `credentials_in_statement(sql)`).

Each statement below is sent to the real engine; its exception is
classified, and no five characters in a row of the secret may survive in any
field of any shape.
"""

from __future__ import annotations

import json
import secrets as random_source
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from localdata_errors import StructuredErrorResponse, _sqlread, classify_error, redact
from localdata_errors._lazy import FOLDED_LETTERS, fold
from localdata_errors._redact import credentials_in_statement
from tests.conftest import require_module

WINDOW = 5


def _secret() -> str:
    # A bare word every dialect reads as a name: a letter first, then letters and digits.
    return "hx" + random_source.token_hex(6)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key == "timestamp":
                continue
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _fields(resp: StructuredErrorResponse) -> list[object]:
    return [
        list(resp),
        resp.to_dict(),
        resp.to_tool_error(),
        resp.to_jsonrpc_error(tool_name="t"),
        resp.to_agent_response(),
        json.loads(resp.to_json()),
    ]


def assert_masked(resp: StructuredErrorResponse, *values: str) -> None:
    windows = {v[i : i + WINDOW] for v in values for i in range(len(v) - WINDOW + 1)}
    leaks = [s for s in _strings(_fields(resp)) if any(w in s for w in windows)]
    assert not leaks, leaks


def _raised(run: Any, statement: str) -> BaseException:
    try:
        run(statement)
    except Exception as exc:
        return exc
    raise AssertionError(f"accepted: {statement!r}")


# -- PostgreSQL and DuckDB: the line is echoed whole ----------------------------------

PG_STATEMENTS = [
    "ALTER ROLE app PASSWORD {0}",
    "ALTER ROLE app WITH ENCRYPTED PASSWORD {0} VALID UNTIL 'infinity'",
    "CREATE USER lde_nobody WITH LOGIN PASSWORD {0}",
    "CREATE USER lde_nobody PASSWORD '{0}' oops",
    "ALTER USER app IDENTIFIED BY {0}",
    "SELECT 1 FROM t WHERE password = {0} AND token {1}",
]


@pytest.mark.parametrize("template", PG_STATEMENTS)
def test_postgresql_echoes_are_read(pg_server: dict[str, object], template: str) -> None:
    psycopg = require_module("psycopg")
    one, two = _secret(), _secret()
    with psycopg.connect(**pg_server, autocommit=True) as conn:
        exc = _raised(conn.execute, template.format(one, two))
    assert "LINE 1" in str(exc)
    assert_masked(classify_error(exc), one, two)


DUCKDB_STATEMENTS = [
    "CREATE SECRET lde (TYPE s3, KEY_ID {0}, SECRET {1})",
    "CREATE SECRET lde (TYPE s3 KEY_ID '{0}', SECRET {1})",
    "SELECT 1 PASSWORD {0}",
    "CREATE SECRET lde (TYPE s3, CREDENTIALS {0} {1})",
]


@pytest.mark.parametrize("template", DUCKDB_STATEMENTS)
def test_duckdb_echoes_are_read(template: str) -> None:
    duckdb = require_module("duckdb")
    one, two = _secret(), _secret()
    with duckdb.connect() as conn:
        exc = _raised(conn.execute, template.format(one, two))
    assert_masked(classify_error(exc), one, two)


# -- MariaDB and SQLite: the echo starts at the value ------------------------------------

MARIADB_STATEMENTS = [
    "SET PASSWORD FOR lde_nobody = {0}",
    "SET PASSWORD FOR 'lde'@'localhost' = {0} extra",
    "CREATE USER lde_nobody IDENTIFIED BY {0}",
    "ALTER USER lde_nobody IDENTIFIED BY {0} oops",
    "CREATE USER lde_nobody IDENTIFIED VIA mysql_native_password USING {0}",
    "GRANT SELECT ON *.* TO lde_nobody IDENTIFIED BY {0}",
]


@pytest.mark.parametrize("template", MARIADB_STATEMENTS)
def test_mariadb_echo_through_sqlalchemy(mysql_server: dict[str, object], template: str) -> None:
    sa = require_module("sqlalchemy")
    require_module("pymysql")
    secret = _secret()
    url = sa.engine.URL.create(
        "mysql+pymysql",
        username=str(mysql_server["user"]),
        password=str(mysql_server["password"] or "") or None,
        host=str(mysql_server["host"]),
        port=int(str(mysql_server["port"])),
        database=str(mysql_server["database"]),
    )
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            exc = _raised(conn.exec_driver_sql, template.format(secret))
    finally:
        engine.dispose()
    assert secret in str(getattr(exc, "orig", exc))  # the server did echo it
    assert_masked(classify_error(exc), secret)


@pytest.mark.parametrize("template", MARIADB_STATEMENTS)
def test_mariadb_echo_with_the_statement_passed(
    mysql_server: dict[str, object], template: str
) -> None:
    pymysql = require_module("pymysql")
    secret = _secret()
    statement = template.format(secret)
    with pymysql.connect(**mysql_server) as conn, conn.cursor() as cursor:
        exc = _raised(cursor.execute, statement)
    assert secret in str(exc)
    assert_masked(classify_error(exc, secrets=credentials_in_statement(statement)), secret)


SQLITE_STATEMENTS = ["SELECT 1 PASSWORD {0}", "SELECT 1 AS token {0}"]


@pytest.mark.parametrize("template", SQLITE_STATEMENTS)
def test_sqlite_echo_through_sqlalchemy(template: str) -> None:
    sa = require_module("sqlalchemy")
    secret = _secret()
    engine = sa.create_engine("sqlite://")
    try:
        with engine.connect() as conn:
            exc = _raised(conn.exec_driver_sql, template.format(secret))
    finally:
        engine.dispose()
    assert secret in str(getattr(exc, "orig", exc))
    assert_masked(classify_error(exc), secret)


def test_sqlite_echo_with_the_statement_passed() -> None:
    secret = _secret()
    statement = f"SELECT 1 PASSWORD {secret}"
    exc = _raised(sqlite3.connect(":memory:").execute, statement)
    assert secret in str(exc)
    assert_masked(classify_error(exc, secrets=credentials_in_statement(statement)), secret)


class _QueryFailed(Exception):
    """An application's own wrapper that keeps the statement it ran, as SQLAlchemy's does."""

    def __init__(self, statement: str) -> None:
        super().__init__("query failed")
        self.statement = statement


@pytest.mark.parametrize("template", SQLITE_STATEMENTS)
def test_sqlite_echo_through_any_wrapper_carrying_the_statement(template: str) -> None:
    # Not SQLAlchemy: any link wrapping the driver's exception with a
    # `.statement` is read, whether its own or its wrapper's.
    secret = _secret()
    statement = template.format(secret)
    driver = _raised(sqlite3.connect(":memory:").execute, statement)
    assert secret in str(driver)
    inner = _QueryFailed(statement)
    inner.__cause__ = driver
    outer = RuntimeError("the job failed")
    outer.__cause__ = inner
    answer = classify_error(outer)
    assert answer.backend == "sqlite"
    assert_masked(answer, secret)


# -- the reading itself ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("ALTER ROLE app PASSWORD hunter2", ("hunter2",)),
        ("CREATE USER x IDENTIFIED BY 'pa ss'", ("pa ss",)),
        ("SET PASSWORD FOR 'u'@'h' = hunter2", ("hunter2",)),
        ("CREATE SECRET s (TYPE s3, KEY_ID abc123, SECRET 'xyz789')", ("abc123", "xyz789")),
        ("SELECT password FROM users", ()),
        ("CREATE TABLE t (password text, token varchar(10))", ()),
        (None, ()),
        (b"PASSWORD x", ()),
    ],
)
def test_credentials_in_a_statement(statement: object, expected: tuple[str, ...]) -> None:
    assert credentials_in_statement(statement) == expected


def test_without_sqlglot_the_excerpt_is_masked_from_its_key_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from localdata_errors import _sqlglot

    monkeypatch.setattr(_sqlglot, "sqlglot", lambda: None)
    text = 'syntax error at or near "hunter2"\nLINE 1: ALTER ROLE app PASSWORD hunter2 VALID\n'
    masked = redact(text)
    assert "hunter2" not in masked
    assert "LINE 1: ALTER ROLE app PASSWORD***" in masked
    assert "hunter2" in credentials_in_statement("ALTER ROLE app PASSWORD hunter2 VALID")


def test_an_excerpt_without_a_key_word_is_kept() -> None:
    text = 'syntax error at or near "FORM"\nLINE 1: SELECT * FORM users\n                 ^'
    assert redact(text) == text


@given(st.from_regex(_sqlread.CREDENTIAL_WORD.get(), fullmatch=True))
def test_every_credential_word_holds_one_of_the_roots(word: str) -> None:
    # The probe skips an echoed statement holding no root: it may only if
    # every word the pattern finds holds one.
    assert any(root in fold(word) for root in _sqlread.CREDENTIAL_ROOTS), word


@given(st.from_regex(_sqlread.CREDENTIAL_WORD.get(), fullmatch=True))
def test_every_key_word_of_a_statement_is_one_in_a_message(word: str) -> None:
    # The SQL reader masks the value after each of its key words in a
    # statement; a message that says `word=value` (a driver echoing an option,
    # a log line) must have it masked too.  "identified" names a value only
    # before BY (MySQL's IDENTIFIED BY), which its own test covers.
    if fold(word).endswith("identified"):
        return
    for said in (
        f"{word}='hunter2hunter2'",  # key=value
        f"{word} 'hunter2hunter2'",  # a SQL clause
        f"{word} = hunter2hunter2",
        f'"{word}": "hunter2hunter2"',  # JSON
        f"{word}: hunter2hunter2",  # YAML, a header
        f"db_{word} 'hunter2hunter2'",  # a name that ends in one
    ):
        text = f"option {said} rejected"
        assert "hunter2" not in redact(text), text


def test_an_azure_sas_key_is_masked_in_a_message() -> None:
    # Both readers' word: the statement reader knew it, the message one did not.
    for text in ("sas_key='hunter2hunter2'", "SAS_KEY=hunter2hunter2", "SasKey: hunter2hunter2"):
        assert "hunter2" not in redact(text), text


# Pieces of key words and what surrounds them, in any case, with the letters
# that case-blind matching equates with ASCII ones (the long s, the Kelvin sign...).
_WORD_PIECES = st.sampled_from(
    [*_sqlread.CREDENTIAL_ROOTS, "password", "passwd", "credentials", "key_id", "keyid",
     "_key", "key", "_", "id", "string", "connection_", "api", "access", "private",
     "account", "master", "encryption", "sas", "pass", "wd", "to", "ken", *FOLDED_LETTERS,
     "$", " ", "=", "x", "é"]
)  # fmt: skip


@given(
    st.lists(st.tuples(_WORD_PIECES, st.booleans()), max_size=8).map(
        lambda pieces: "".join(p.upper() if upper else p for p, upper in pieces)
    )
)
def test_the_key_word_search_ends_where_the_case_blind_pattern_does(text: str) -> None:
    # credential_end reads the folded text with a pattern anchored on rare
    # letters; CREDENTIAL_WORD says what a key word is, case-blind.
    found = _sqlread.CREDENTIAL_WORD.get().search(text)
    assert _sqlread.credential_end(text) == (None if found is None else found.end()), text


def test_a_key_word_after_a_long_ddl_statement_is_found() -> None:
    # "KEY" is in most DDL, and names no credential there.
    columns = ", ".join(f"c{i} INTEGER" for i in range(2000))
    statement = f"CREATE TABLE wide ({columns}, id INTEGER PRIMARY KEY, api_key TEXT)"
    assert _sqlread.credential_end(statement) == statement.index("api_key") + len("api_key")
    assert _sqlread.credential_end(statement.replace("api_key", "apikeys")) is None
