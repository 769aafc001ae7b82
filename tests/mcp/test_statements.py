"""
Reading SQL without running it: statements, the text each runs, placeholders, the allowlist.

A semicolon, keyword or ``?`` inside a literal, a quoted identifier or a
comment counts for nothing, by each dialect's own quoting rules; a real
second statement is always counted.  In read-only mode a statement runs
without its comments, and the allowlist decides from the parse.
"""

from __future__ import annotations

import time

import pytest

from localdata_errors._backends import sqlglot_dialect
from localdata_errors.mcp._readonly import is_read_only_pragma, read, refusal
from localdata_errors.mcp._statements import UnreadableSQLError, split, to_named_placeholders

COUNTS = [
    ("SELECT 1", "sqlite", 1),
    ("SELECT 1;", "sqlite", 1),
    ("SELECT 1; SELECT 2", "sqlite", 2),
    ("SELECT 1;;  ; SELECT 2;", "sqlite", 2),
    ("SELECT 'a;b'", "sqlite", 1),
    ("SELECT [a;b] FROM t", "sqlite", 1),
    ("SELECT [a'b] FROM t; DELETE FROM t; --']", "sqlite", 2),
    ("SELECT 'it''s; fine'", "postgresql", 1),
    ('SELECT 1 AS "x;y"', "postgresql", 1),
    ("SELECT 1 AS `x;y`", "mysql", 1),
    ("SELECT 1 -- ; DROP TABLE t\n", "sqlite", 1),
    ("SELECT 1 /* ; DROP TABLE t; */", "sqlite", 1),
    ("SELECT $$a; b$$", "postgresql", 1),
    ("SELECT $tag$ ; $$ ; $tag$", "postgresql", 1),
    # PostgreSQL's E'' strings take backslash escapes; its plain strings do not.
    ("SELECT E'\\''; COMMIT; DELETE FROM t; --'", "postgresql", 3),
    ("SELECT '\\'; DELETE FROM t; --'", "postgresql", 2),
    # PostgreSQL nests comments; MySQL and SQLite end one at the first */.
    ("SELECT 1 /* /* */ ; DELETE FROM t; */", "postgresql", 1),
    ("SELECT 1 /* /* */ ; DELETE FROM t; -- */", "mysql", 2),
    ("SELECT 'a\\'; DROP TABLE t; --'", "mysql", 1),
    ("SELECT 1 # ; DROP TABLE t\n", "mysql", 1),
    # In MySQL, -- starts a comment only when a space or control character follows.
    ("SELECT 1 --x; DELETE FROM t", "mysql", 2),
    ("SELECT 1 -- x; DELETE FROM t", "mysql", 1),
    ("SELECT 1; DROP TABLE t", "postgresql", 2),
    ("SELECT ';'; DELETE FROM t", "sqlite", 2),
    ("/* c */ SELECT 1 /* ; */; -- x\nSELECT 2", "sqlite", 2),
    ("EXPLAIN SELECT ';' -- x\n; DELETE FROM t", "postgresql", 2),
]


@pytest.mark.parametrize(("sql", "backend", "expected"), COUNTS)
def test_statement_count(sql: str, backend: str, expected: int) -> None:
    assert len(split(sql, sqlglot_dialect(backend))) == expected


def test_each_statement_runs_its_own_text() -> None:
    first, second = split("SELECT 1 /* a */ ; -- b\n DELETE FROM t -- c", "sqlite")
    assert (first.text, first.keyword) == ("SELECT 1", "SELECT")
    assert (second.text, second.keyword) == ("DELETE FROM t", "DELETE")


def test_read_only_text_drops_every_comment() -> None:
    (statement,) = split("SELECT /* x */ a,\n\t-- y\n b FROM t # z", "mysql", strip_comments=True)
    assert statement.text == "SELECT a, b FROM t"
    assert statement.comments == (" x ", " y", " z")
    (command,) = split("EXPLAIN /* x */ SELECT ';' -- y", "postgres", strip_comments=True)
    assert command.text == "EXPLAIN SELECT ';'"


def test_an_unterminated_literal_is_unreadable() -> None:
    with pytest.raises(UnreadableSQLError):
        split("SELECT 'abc; DROP TABLE t", "sqlite")


def test_placeholders_outside_literals_become_named() -> None:
    (statement,) = split("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ? -- ?", "sqlite")
    text, names = to_named_placeholders(statement)
    assert text == "SELECT * FROM t WHERE a = :p0 AND b = '?' AND c = :p1"
    assert names == ["p0", "p1"]
    (clean,) = split("SELECT ? /* ? */, `?`, ?", "mysql", strip_comments=True)
    # The comment becomes one space: the tokens stay apart as they were.
    assert to_named_placeholders(clean) == ("SELECT :p0 , `?`, :p1", ["p0", "p1"])


def test_reading_is_linear_on_hostile_input() -> None:
    sql = "SELECT " + ", ".join(["'$$/*\"'"] * 20_000)
    # This thread's CPU time: the time other processes take the core is not counted.
    started = time.thread_time()
    (statement,) = split(sql, "postgres", strip_comments=True)
    assert refusal(statement.text, "postgres") is None
    assert time.thread_time() - started < 10


REFUSALS = [
    ("SELECT * FROM t", "sqlite", None),
    ("WITH x AS (SELECT 1) SELECT * FROM x", "postgres", None),
    ("WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x", "postgres", "DELETE"),
    (
        "SELECT * FROM (WITH d AS (UPDATE t SET a = 1 RETURNING *) SELECT * FROM d) s",
        "postgres",
        "UPDATE",
    ),
    ("EXPLAIN ANALYZE DELETE FROM t", "postgres", "DELETE"),
    ("EXPLAIN (ANALYZE, BUFFERS) SELECT 1", "postgres", None),
    ("EXPLAIN QUERY PLAN SELECT 1", "sqlite", None),
    ("SELECT * INTO n FROM t", "postgres", "INTO"),
    ("SELECT * FROM t FOR UPDATE", "postgres", "FOR UPDATE"),
    ("SHOW search_path", "postgres", None),
    ("SHOW (search_path)", "postgres", "SHOW"),
    ("COMMIT", "postgres", "COMMIT"),
    ("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE", "postgres", "SET"),
    ("PRAGMA table_info(t)", "sqlite", None),
    ("PRAGMA query_only", "sqlite", None),
    ("PRAGMA query_only = 0", "sqlite", "query_only"),
    ("pragma QUERY_ONLY(0)", "sqlite", "QUERY_ONLY"),
    ("SELECT * FROM pragma_query_only(0)", "sqlite", "pragma_query_only"),
    ("SELECT * FROM read_csv('/etc/passwd')", "duckdb", "read_csv"),
    ("SELECT * FROM 'data.csv'", "duckdb", "names a file"),
    ("SELECT 1 /*! , 2 */", "mysql", "executable comment"),
    ("SELECT 1 /*M! , 2 */", "mysql", "executable comment"),
    ("SELECT /*+ SET_VAR(x = 1) */ 1", "mysql", "optimizer hint"),
    ("SELECT 1 INTO @x", "mysql", "INTO"),
    ("SHOW TABLES", "mysql", None),
    ("DESCRIBE t", "mysql", None),
    ("EXPLAIN DELETE FROM t", "mysql", "DELETE"),
    ("EXEC sp_who", "tsql", "EXEC"),
    ("SELECT $a(1)", "sqlite", "variables"),
    ("SELECT @a", "sqlite", "variables"),
    ("SELECT :a(1)", "sqlite", ":name"),
    ("SELECT :a, ?", "sqlite", None),
    ("SELECT s.nextval FROM dual", "oracle", "NEXTVAL"),
]


@pytest.mark.parametrize(("sql", "dialect", "reason"), REFUSALS)
def test_the_allowlist(sql: str, dialect: str, reason: str | None) -> None:
    (statement,) = split(sql, dialect, strip_comments=True)
    found = refusal(statement.text, dialect, statement.comments)
    if reason is None:
        assert found is None
    else:
        assert found is not None
        assert reason.lower() in found.lower()


# PostgreSQL: the parse proves the shape; the calls it finds go to the catalogue
# (tests/mcp/test_readonly_functions.py judges them there).  Each name as
# PostgreSQL reads it: (schema, name, attribute).
CALLS = [
    ("SELECT nextval('s')", [(None, "nextval", False)]),
    ("SELECT pg_catalog.pg_read_file('/etc/passwd')", [("pg_catalog", "pg_read_file", False)]),
    ('SELECT PG_SLEEP(1), "Pg_Sleep"(1)', [(None, "pg_sleep", False), (None, "Pg_Sleep", False)]),
    ("SELECT U&\"\\0070g_read_file\"('/etc/passwd')", [(None, "pg_read_file", False)]),
    ("SELECT u&\"\\+000070g_ls_dir\"('/')", [(None, "pg_ls_dir", False)]),
    (
        "SELECT U&\"pg_catalog\".U&\"\\0073et_config\"('a', 'b', false)",
        [("pg_catalog", "set_config", False)],
    ),
    ("SELECT pg_catalog . nextval /* x */ ('s')", [("pg_catalog", "nextval", False)]),
    ("SELECT shop.public.f(1)", [("public", "f", False)]),
    ("SELECT c.pg_ls_dir FROM pg_class c", [(None, "pg_ls_dir", True)]),
    ("SELECT x FROM f(1) AS t(x)", [(None, "f", False)]),
    ("WITH w(a) AS (SELECT 1) SELECT a FROM w", []),
    ("SELECT decode('00', 'hex')", [(None, "decode", False)]),
    ("SELECT CAST(1 AS numeric(10, 2)), 1::varchar(3)", [(None, "cast", False)]),
    ("SELECT * FROM t TABLESAMPLE SYSTEM (10) REPEATABLE (1)", []),
    ("EXPLAIN ANALYZE SELECT pg_sleep(1)", [(None, "pg_sleep", False)]),
]


@pytest.mark.parametrize(("sql", "calls"), CALLS, ids=[c[0][:40] for c in CALLS])
def test_postgresql_calls_are_read_as_the_engine_names_them(
    sql: str, calls: list[tuple[str | None, str, bool]]
) -> None:
    (statement,) = split(sql, "postgres", strip_comments=True)
    reading = read(statement.text, "postgres", statement.comments, statement.tokens)
    assert reading.reason is None
    found = [(c.schema, c.name, c.attribute) for c in reading.calls]
    # Every call exactly; a qualifier's name may count as an attribute too
    # (judged only if a volatile function had that name).
    assert [f for f in found if not f[2]] == [c for c in calls if not c[2]]
    assert {c for c in calls if c[2]} <= set(found)


def test_a_unicode_name_the_check_cannot_read_is_refused() -> None:
    for sql in (
        "SELECT U&\"d!0061t\" UESCAPE '!' (1)",
        'SELECT U&"\\D800x"(1)',
        'SELECT U&"\\zz"(1)',
    ):
        (statement,) = split(sql, "postgres", strip_comments=True)
        with pytest.raises(UnreadableSQLError):
            read(statement.text, "postgres", statement.comments, statement.tokens)


def test_unparseable_is_refused() -> None:
    with pytest.raises(UnreadableSQLError):
        refusal("SELECT FROM WHERE (", "postgres")
    with pytest.raises(UnreadableSQLError):
        refusal("SELECT " + "(" * 5000 + "1" + ")" * 5000, "postgres")


def test_pragma_allowlist_reads_only() -> None:
    assert is_read_only_pragma("sqlite", "TABLE_INFO", True)
    assert is_read_only_pragma("sqlite", "query_only", False)
    assert not is_read_only_pragma("sqlite", "query_only", True)
    assert not is_read_only_pragma("sqlite", "writable_schema", False)
    assert not is_read_only_pragma("postgres", "table_info", False)
