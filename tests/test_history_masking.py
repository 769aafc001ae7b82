"""
The history masks a statement with sqlglot's tokenizer, in the statement's
dialect, before anything reads or keeps it: every literal (each way the
dialect writes one, as its manual documents it) becomes ``?``, comments go,
names stay; a credential typed without quotes is masked too; whatever the
tokenizer cannot read is masked to the end.  A text sqlglot cannot parse is
kept as the call it was, masked, and changes nothing.
"""

from __future__ import annotations

import pytest

from localdata_errors._sqlmask import mask_statement, mask_values
from localdata_errors.history import ExecutionHistory

SECRET = "Zq7Hidden"


# (dialect, a literal as the dialect's manual writes it, holding SECRET)
LITERALS = [
    ("postgres", f"'{SECRET}'"),
    ("postgres", f"E'it\\'s {SECRET}'"),  # escape string constant
    ("postgres", f"U&'{SECRET}'"),  # Unicode escapes
    ("postgres", f"$${SECRET}$$"),  # dollar quoting
    ("postgres", f"$tag${SECRET}$tag$"),
    ("postgres", "B'1011011'"),  # bit string
    ("postgres", "X'5A71'"),
    ("postgres", "4111111111111111"),
    ("postgres", "4.2e1"),
    ("mysql", f'"{SECRET}"'),  # a string without ANSI_QUOTES
    ("mysql", f"'it\\'s {SECRET}'"),  # backslash escapes
    ("mysql", f"_utf8mb4'{SECRET}'"),  # a charset introducer
    ("mysql", f"N'{SECRET}'"),
    ("mysql", "0x5A71"),
    ("mysql", "0b1011"),
    ("mysql", "X'5A71'"),
    ("tsql", f"N'{SECRET}'"),
    ("tsql", "0x5A71"),
    ("sqlite", "X'5A71'"),
    ("sqlite", "0x5A71"),
    ("oracle", f"q'[it's {SECRET}]'"),  # alternative quoting
    ("oracle", f"q'!{SECRET}!'"),
    ("oracle", f"N'{SECRET}'"),
    ("duckdb", f"E'{SECRET}'"),
    ("duckdb", f"$${SECRET}$$"),
]


@pytest.mark.parametrize(("dialect", "literal"), LITERALS)
def test_every_literal_becomes_a_mark(dialect: str, literal: str) -> None:
    masked = mask_values(f"UPDATE t SET c = {literal} WHERE id = 7", dialect)
    assert masked == "UPDATE t SET c = ? WHERE id = ?"


@pytest.mark.parametrize(("dialect", "literal"), LITERALS)
def test_a_literal_is_masked_whatever_the_dialect_when_it_is_unknown(
    dialect: str, literal: str
) -> None:
    # Read by every dialect the package knows: what any of them takes for a value
    # goes (where they disagree on where it ends, all that follows it).
    masked = mask_values(f"UPDATE t SET c = {literal} WHERE id = 7", None)
    assert masked.startswith("UPDATE t SET c = ?")
    assert SECRET not in masked
    assert not any(digit in masked for digit in "0123456789")


@pytest.mark.parametrize(
    ("dialect", "sql"),
    [
        ("postgres", 'DROP TABLE "Order Lines", sales.orders'),
        ("mysql", "DROP TABLE `Order Lines`, sales.orders"),
        ("tsql", "DROP TABLE [dbo].[Order Lines]"),
        ("sqlite", 'DROP TABLE "Order Lines"'),
        ("sqlite", "DROP TABLE [Order Lines]"),
        ("oracle", 'DROP TABLE "Order Lines"'),
        ("postgres", "SELECT * FROM t WHERE a = $1 AND b = %s AND c = %(name)s AND d = ?"),
        ("oracle", "SELECT * FROM t WHERE a = :1 AND b = :name"),
        ("tsql", "SELECT * FROM t WHERE a = @p1"),
    ],
)
def test_names_and_parameters_stay(dialect: str, sql: str) -> None:
    assert mask_values(sql, dialect) == sql


@pytest.mark.parametrize(
    ("dialect", "sql", "masked"),
    [
        ("postgres", f"SELECT 1 -- {SECRET}\nFROM t", "SELECT ? FROM t"),
        ("postgres", f"SELECT /* {SECRET} /* nested */ */ a FROM t", "SELECT a FROM t"),
        ("mysql", f"SELECT a FROM t # {SECRET}", "SELECT a FROM t "),
        ("mysql", f"SELECT /*!50000 {SECRET} */ a FROM t", "SELECT a FROM t"),
        ("oracle", f"SELECT /*+ INDEX(t {SECRET}) */ a FROM t", "SELECT   a FROM t"),
    ],
)
def test_comments_and_hints_go(dialect: str, sql: str, masked: str) -> None:
    assert mask_values(sql, dialect) == masked


@pytest.mark.parametrize(
    ("dialect", "sql", "masked"),
    [
        # An unterminated quote: everything after it.
        (
            "postgres",
            f"SELECT a FROM t WHERE b = '{SECRET} AND c = 1",
            "SELECT a FROM t WHERE b = ?",
        ),
        ("postgres", f'SELECT a FROM t WHERE "{SECRET} = 1', "SELECT a FROM t WHERE ?"),
        ("postgres", f"SELECT a FROM t WHERE b = $${SECRET}", "SELECT a FROM t WHERE b = ?"),
        ("mysql", f"SELECT a FROM t WHERE b = `{SECRET}", "SELECT a FROM t WHERE b = ?"),
        # Typographic quotes and control characters: no name holds them.
        (
            "postgres",
            f"SELECT a FROM t WHERE b = \u2018{SECRET}\u2019 AND c = 2",
            "SELECT a FROM t WHERE b = ?",
        ),
        (
            "postgres",
            f"SELECT a FROM t WHERE b = \u201c{SECRET} x\u201d",
            "SELECT a FROM t WHERE b = ?",
        ),
        ("postgres", f"SELECT a FROM t WHERE b = \x00{SECRET}", "SELECT a FROM t WHERE b = ?"),
        # A word glued to a number is the number's.
        ("postgres", f"SELECT a FROM t WHERE b = 12{SECRET}", "SELECT a FROM t WHERE b = ?"),
        ("mysql", "SELECT a FROM t WHERE b = 4111_1111_1111_1111", "SELECT a FROM t WHERE b = ?"),
    ],
)
def test_what_the_tokenizer_cannot_read_is_masked_to_the_end(
    dialect: str, sql: str, masked: str
) -> None:
    assert mask_values(sql, dialect) == masked


@pytest.mark.parametrize(
    ("dialect", "sql", "masked"),
    [
        # Written as the engines' manuals write the clause, the value unquoted;
        # everything after the value goes too (where a bare value ends is unknown).
        ("postgres", f"ALTER ROLE app PASSWORD {SECRET}", "ALTER ROLE app PASSWORD ?"),
        (
            "postgres",
            f"ALTER ROLE app WITH LOGIN PASSWORD {SECRET} VALID UNTIL 'x'",
            "ALTER ROLE app WITH LOGIN PASSWORD ?",
        ),
        ("postgres", f"ALTER ROLE app PASSWORD hun-{SECRET}!x", "ALTER ROLE app PASSWORD ?"),
        (
            "postgres",
            f"ALTER ROLE app PASSWORD {SECRET} a, b; DROP TABLE t",
            "ALTER ROLE app PASSWORD ?",
        ),
        ("mysql", f"CREATE ROLE r PASSWORD $pw${SECRET} o,F;j)$pw$", "CREATE ROLE r PASSWORD ?"),
        ("oracle", f"CREATE USER bob IDENTIFIED BY {SECRET}", "CREATE USER bob IDENTIFIED BY ?"),
        ("oracle", "ALTER USER bob IDENTIFIED BY first", "ALTER USER bob IDENTIFIED BY ?"),
        ("mysql", f"CREATE USER u IDENTIFIED BY {SECRET}", "CREATE USER u IDENTIFIED BY ?"),
        (
            "mysql",
            f"CREATE USER u IDENTIFIED WITH mysql_native_password BY {SECRET}",
            "CREATE USER u IDENTIFIED WITH mysql_native_password BY ?",
        ),
        ("mysql", f"SET PASSWORD FOR 'u'@'h' = {SECRET}", "SET PASSWORD FOR ?@? = ?"),
        ("mysql", f"SET PASSWORD FOR bob = {SECRET}", "SET PASSWORD FOR bob = ?"),
        ("mysql", f"SET PASSWORD = {SECRET}", "SET PASSWORD = ?"),
        (
            "mysql",
            f"CHANGE MASTER TO MASTER_PASSWORD = {SECRET}, MASTER_PORT = 3306",
            "CHANGE MASTER TO MASTER_PASSWORD = ?",
        ),
        (
            "tsql",
            f"CREATE LOGIN app WITH PASSWORD = {SECRET}",
            "CREATE LOGIN app WITH PASSWORD = ?",
        ),
        (
            "tsql",
            f"CREATE CREDENTIAL c WITH IDENTITY = 'u', SECRET = {SECRET}",
            "CREATE CREDENTIAL ?",  # more than the secret, never less
        ),
        (
            "duckdb",
            f"CREATE SECRET s3c (TYPE s3, KEY_ID {SECRET}, SECRET {SECRET}x)",
            "CREATE SECRET ?",
        ),
        ("postgres", f"COPY t FROM 's3://b/k' CREDENTIALS {SECRET}", "COPY t FROM ? CREDENTIALS ?"),
        (
            "postgres",
            f"UPDATE users SET password = '{SECRET}' WHERE id = 7",
            "UPDATE users SET password = ?",
        ),
    ],
)
def test_a_credential_is_masked_quoted_or_not(dialect: str, sql: str, masked: str) -> None:
    assert mask_values(sql, dialect) == masked


@pytest.mark.parametrize(
    ("dialect", "sql"),
    [
        # A column named like a credential, declared or listed: no value follows it.
        ("postgres", "CREATE TABLE users (id int, password text, api_key varchar(40))"),
        ("mysql", "ALTER TABLE users ADD COLUMN token CHAR(64)"),
        ("postgres", "INSERT INTO users (name, password) VALUES ($1, $2)"),
        ("postgres", "SELECT password, token FROM users"),
    ],
)
def test_a_column_named_like_a_credential_keeps_the_statement(dialect: str, sql: str) -> None:
    masked = mask_values(sql, dialect)
    assert masked == sql.replace("(40)", "(?)").replace("(64)", "(?)")


def test_a_commands_text_is_read_as_tokens() -> None:
    # sqlglot's tokenizer keeps a command's text whole (RENAME, SHOW ...): read it instead.
    assert mask_values("RENAME TABLE a TO b, c TO d", "mysql") == "RENAME TABLE a TO b, c TO d"
    assert mask_values(f"SHOW TABLES LIKE '{SECRET}%'", "postgres") == "SHOW TABLES LIKE ?"


def test_sp_renames_arguments_are_names() -> None:
    sql = "EXEC sp_rename 'dbo.staging', 'report'"
    assert mask_values(sql, "tsql") == sql
    assert mask_values(f"EXEC other 'dbo.staging', '{SECRET}'", "tsql") == "EXEC other ?, ?"


@pytest.mark.parametrize(
    "dialect", ["postgres", "mysql", "tsql", "sqlite", "oracle", "duckdb", None]
)
def test_a_statement_cut_inside_a_literal_keeps_nothing_of_it(dialect: str | None) -> None:
    sql = f"UPDATE t SET note = '{SECRET * 20}' WHERE id = 1"
    for limit in range(20, len(sql), 7):
        out = mask_statement(sql[:limit], limit=limit, dialect=dialect)
        assert SECRET[:4] not in out, (limit, out)


def test_an_unparseable_statement_is_kept_masked_and_changes_nothing() -> None:
    history = ExecutionHistory(db_type="postgresql")
    entry = history.record(
        "execute_sql", {"sql": f"DROP SCHEMA a, b WHERE x = '{SECRET}'"}, result={"rowcount": 0}
    )
    assert entry.operation == "DROP SCHEMA a, b WHERE x = ?"
    assert entry.success
    assert entry.state_changes == ()
    summary = history.summary()
    assert "- execute_sql: DROP SCHEMA a, b WHERE x = ? → SUCCESS\n" in summary
    assert "State changes" not in summary
    assert SECRET not in summary + repr(history.to_dict())
