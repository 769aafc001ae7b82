"""
Texts command-line and graphical clients print, and messages pasted alone,
read by the mechanisms that give their backend and code: each client's
printing as a sign, the vendors' wordings as data.

Every text is a real one (the text corpus holds each with its source);
the expected codes are the vendors' (MySQL's error reference, PostgreSQL's
Appendix A and its server source's SQLSTATE at every call site of the
message, SQLite's result codes).
"""

from __future__ import annotations

import pytest

from localdata_errors import classify_message


@pytest.mark.parametrize(
    ("text", "backend", "code"),
    [
        # The sqlite3 shell reading a file: its own prefix, whatever precedes it.
        (
            "Runtime error near line 56: database is locked (5)",
            "sqlite",
            "SQLITE_BUSY",
        ),
        ("Error: Error: near line 44372: database is locked", "sqlite", "SQLITE_BUSY"),
        (
            " Failed to open database 'e:\\CS50\\SQLlite\\shows.db': Parse error near line 4:"
            " no such column: table\n  aster                                 WHERE"
            ' (type="table" OR type="view")     \n'
            "                                      error here ---^\n   ",
            "sqlite",
            "SQLITE_ERROR",
        ),
        # Adminer's query error: the driver's number in parentheses.
        ("Error in query (1215): Cannot add foreign key constraint", "mysql", "1215"),
        # DuckDB's shell, the sqlite3 shell's fork, puts its own label next.
        (
            'Error: Binder Error: Referenced column "c" not found in FROM clause!\n'
            'Candidate bindings: "temp1.a", "temp1.b"',
            "duckdb",
            "BinderException",
        ),
        # Its newer shell prints the label on a line of its own
        # (https://github.com/duckdb/duckdb/issues/23720).
        (
            "Conversion Error:\nCould not convert string 'x' to INT32\n\n"
            "LINE 1: SELECT id, l::INTEGER[] FROM t WHERE id > 1 ORDER BY id;\n"
            "                    ^",
            "duckdb",
            "ConversionException",
        ),
    ],
)
def test_a_clients_printing_names_its_backend(text: str, backend: str, code: str) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == (backend, code)


@pytest.mark.parametrize(
    ("text", "backend", "code"),
    [
        # A template ending with a placeholder needs its value: 1452 is 1216's
        # words with the constraint after them.
        (
            "Cannot add or update a child row: a foreign key constraint fails"
            " (`ourhr_app`.`users_groups`, CONSTRAINT `fk_users_groups_groups1` FOREIGN KEY"
            " (`group_id`) REFERENCES `groups` (`id`) ON DELETE CASCADE ON UPDATE NO ACTION)",
            "mysql",
            "1452",
        ),
        (
            "Error: Cannot delete or update a parent row: a foreign key constraint fails"
            " (`karunanivas`.`fcms_changelog`, CONSTRAINT `fcms_changelog_ibfk_1` FOREIGN KEY"
            " (`user`) REFERENCES `fcms_users` (`id`))",
            "mysql",
            "1451",
        ),
        # A three-word template is its code's own where a longer one of
        # another code holds its words (`column ... of relation ... already exists`).
        (
            "psql:/var/folders/63/wlxrc7ds36s2mhyddjpg56_80000gn/T/tmprzrao_gq.sql:14:"
            ' ERROR:  relation "art_type" already exists',
            "postgresql",
            "42P07",
        ),
        # libpq's frame names no code; the server's message inside it does
        # (pgAdmin's dialog shows libpq's `FATAL:  ` with one space).
        (
            'connection to server at "localhost" (::1), port 5432 failed: FATAL: password'
            ' authentication failed for user "Postgres"',
            "postgresql",
            "28P01",
        ),
        # A non-ASCII character parts words: HeidiSQL's Chinese label (full-width
        # parentheses and colon).
        ("SQL错误\uff081046\uff09\uff1aNo database selected */", "mysql", "1046"),
    ],
)
def test_a_vendors_wording_gives_its_code(text: str, backend: str, code: str) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == (backend, code)


def test_the_same_words_without_the_value_are_the_other_template() -> None:
    # MySQL's 1216 (ER_NO_REFERENCED_ROW): its errmsg-utf8.txt text, the same words alone.
    text = "Cannot add or update a child row: a foreign key constraint fails"
    assert classify_message(text).database_error_code == "1216"
