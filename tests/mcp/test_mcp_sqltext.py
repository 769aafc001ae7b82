"""
Reading SQL without running it: statement counts, writes, placeholders.

The execute_sql tool's refusals (several statements, a write in read-only
mode) rest on this scan; a semicolon or keyword inside a literal, a quoted
identifier or a comment must count for nothing, and a real second statement
must never slip through.
"""

from __future__ import annotations

import pytest

from localdata_errors.mcp._sqltext import count_statements, split_sql, to_named_placeholders

COUNTS = [
    ("SELECT 1", "sqlite", 1),
    ("SELECT 1;", "sqlite", 1),
    ("SELECT 1; SELECT 2", "sqlite", 2),
    ("SELECT 1;;  ; SELECT 2;", "sqlite", 2),
    ("SELECT 'a;b'", "sqlite", 1),
    ("SELECT 'it''s; fine'", "postgresql", 1),
    ('SELECT 1 AS "x;y"', "postgresql", 1),
    ("SELECT 1 AS `x;y`", "mysql", 1),
    ("SELECT 1 -- ; DROP TABLE t\n", "sqlite", 1),
    ("SELECT 1 /* ; DROP TABLE t; */", "sqlite", 1),
    ("SELECT $$a; b$$", "postgresql", 1),
    ("SELECT $tag$ ; $$ ; $tag$", "postgresql", 1),
    ("SELECT 'a\\'; DROP TABLE t; --'", "mysql", 1),
    ("SELECT 1 # ; DROP TABLE t\n", "mysql", 1),
    ("SELECT 1; DROP TABLE t", "postgresql", 2),
    ("SELECT ';'; DELETE FROM t", "sqlite", 2),
    ("/* c */ SELECT 1 /* ; */; -- x\nSELECT 2", "sqlite", 2),
    # An unterminated literal swallows the rest: one statement, which the
    # database then rejects as malformed.
    ("SELECT 'abc; DROP TABLE t", "sqlite", 1),
]


@pytest.mark.parametrize(("sql", "dialect", "expected"), COUNTS)
def test_statement_count(sql: str, dialect: str, expected: int) -> None:
    statements = split_sql(sql, backslash_escapes=dialect == "mysql")
    assert count_statements(sql, dialect, statements) == expected


def test_a_disagreement_refuses() -> None:
    # Our scan treats "#" as a comment in MySQL only; for PostgreSQL it finds
    # two statements here even if another tokenizer saw one.  The larger
    # count wins, so a disagreement never lets a second statement through.
    sql = "SELECT 1 # ; DELETE FROM t"
    assert count_statements(sql, "postgresql", split_sql(sql)) == 2
    assert count_statements(sql, "mysql", split_sql(sql, backslash_escapes=True)) == 1


WRITES = [
    ("SELECT * FROM t", False),
    ("  select a from t where b = 'DELETE'", False),
    ('SELECT "update" FROM t', False),
    ("WITH x AS (SELECT 1) SELECT * FROM x", False),
    ("EXPLAIN SELECT 1", False),
    ("PRAGMA table_info(t)", False),
    ("SHOW TABLES", False),
    ("INSERT INTO t VALUES (1)", True),
    ("WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", True),
    ("EXPLAIN ANALYZE DELETE FROM t", True),
    ("SELECT * INTO backup FROM t", True),
    ("PRAGMA journal_mode = WAL", True),
    ("VACUUM", True),
    ("CALL proc()", True),
    ("GRANT ALL ON t TO bob", True),
    ("SET search_path = x", True),
]


@pytest.mark.parametrize(("sql", "writes"), WRITES)
def test_writes(sql: str, writes: bool) -> None:
    (statement,) = split_sql(sql)
    assert statement.writes() is writes


def test_placeholders_outside_literals_become_named() -> None:
    (statement,) = split_sql("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ? -- ?")
    text, names = to_named_placeholders(statement)
    assert text == "SELECT * FROM t WHERE a = :p0 AND b = '?' AND c = :p1 -- ?"
    assert names == ["p0", "p1"]


def test_scan_is_linear_on_hostile_input() -> None:
    # Many unterminated openers: each is scanned once, never re-scanned.
    sql = "SELECT " + "'$$/*\"" * 20_000
    statements = split_sql(sql, backslash_escapes=True)
    assert len(statements) == 1
    assert statements[0].first_keyword == "SELECT"
