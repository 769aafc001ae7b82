"""
The ClickHouse plugin against real ClickHouse errors.

The engine runs here, embedded in chdb: every error below is raised by
ClickHouse itself for the statement shown.  The same server text then reaches
clickhouse-connect's and clickhouse-driver's own exception builders, as a
server's HTTP reply and native-protocol exception packet would.
"""

from __future__ import annotations

import struct
import uuid
from collections.abc import Iterator

import chdb
import pytest
from chdb import session
from clickhouse_connect.driver._backend import httpcommon
from clickhouse_connect.driver.exceptions import DatabaseError, OperationalError
from clickhouse_driver.bufferedreader import CompressedBufferedReader
from clickhouse_driver.readhelpers import read_exception
from localdata_errors_clickhouse import CODES_BY_NAME, ENGINE_VERSION

from localdata_errors import (
    Action,
    ErrorMapperRegistry,
    Kind,
    RetrySafety,
    classify_error,
    classify_message,
)

# chdb runs one embedded server per process: every test shares this session.
_SESSION: session.Session | None = None


def _session() -> session.Session:
    global _SESSION  # noqa: PLW0603 - one engine per process, opened on first use
    if _SESSION is None:
        _SESSION = session.Session()
    return _SESSION


@pytest.fixture(scope="module")
def db() -> Iterator[str]:
    """A database of our own with a table ``t`` (id < 100 checked) in it."""
    name = f"ld_{uuid.uuid4().hex[:12]}"
    sess = _session()
    sess.query(f"CREATE DATABASE {name}")
    sess.query(
        f"CREATE TABLE {name}.t (id UInt32, name String, CONSTRAINT id_small CHECK id < 100)"
        " ENGINE = MergeTree ORDER BY id"
    )
    yield name
    sess.query(f"DROP DATABASE {name} SYNC")


def engine_error(sql: str) -> BaseException:
    """The exception the embedded engine raises for *sql*."""
    try:
        _session().query(sql)
    except Exception as exc:  # noqa: BLE001 - the engine's own exception is the point
        return exc
    raise AssertionError(f"no error for {sql!r}")


def test_registered_through_its_entry_point() -> None:
    info = {m.name: m for m in ErrorMapperRegistry.list_mappers()}["clickhouse"]
    assert info.source == "entry point"
    assert info.distribution == "localdata-errors-clickhouse"
    assert set(info.driver_modules) == {"chdb", "clickhouse_connect", "clickhouse_driver"}
    assert ErrorMapperRegistry.get_mapper("chdb") is info.mapper


def test_the_code_table_is_this_engines() -> None:
    # The table was generated from the engine chdb embeds; chdb is pinned to it.
    assert str(chdb.query("SELECT version()", "TSV")).strip() == ENGINE_VERSION


# (statement, ClickHouse's error name, kind, names the answer must carry)
REAL = [
    ("SELECT * FROM {db}.nosuch", "UNKNOWN_TABLE", Kind.UNDEFINED_TABLE, ("nosuch",)),
    ("DROP TABLE {db}.nosuch", "UNKNOWN_TABLE", Kind.UNDEFINED_TABLE, ("nosuch",)),
    ("SELECT * FROM nodb_ld.t", "UNKNOWN_DATABASE", Kind.UNDEFINED_SCHEMA, ("nodb_ld",)),
    ("SELECT nosuch FROM {db}.t", "UNKNOWN_IDENTIFIER", Kind.UNDEFINED_COLUMN, ("nosuch",)),
    ("SELECT x.nosuch FROM {db}.t AS x", "UNKNOWN_IDENTIFIER", Kind.UNDEFINED_COLUMN, ("nosuch",)),
    (
        "ALTER TABLE {db}.t DROP COLUMN nosuch",
        "NOT_FOUND_COLUMN_IN_BLOCK",
        Kind.UNDEFINED_COLUMN,
        ("nosuch",),
    ),
    ("SELECT nosuchfunc(1)", "UNKNOWN_FUNCTION", Kind.UNDEFINED_FUNCTION, ("nosuchfunc",)),
    ("SELEC 1", "SYNTAX_ERROR", Kind.SYNTAX_ERROR, ()),
    (
        "CREATE TABLE {db}.t (a UInt8) ENGINE = Memory",
        "TABLE_ALREADY_EXISTS",
        Kind.DUPLICATE_TABLE,
        ("t",),
    ),
    ("CREATE DATABASE {db}", "DATABASE_ALREADY_EXISTS", Kind.DUPLICATE_SCHEMA, ("{db}",)),
    (
        "CREATE TABLE {db}.d (a UInt8, a UInt8) ENGINE = Memory",
        "ILLEGAL_COLUMN",
        Kind.DUPLICATE_COLUMN,
        ("a",),
    ),
    ("SELECT intDiv(1, 0)", "ILLEGAL_DIVISION", Kind.DIVISION_BY_ZERO, ()),
    ("INSERT INTO {db}.t VALUES (1000, 'x')", "VIOLATED_CONSTRAINT", Kind.CHECK_VIOLATION, ("t",)),
    ("SELECT toUInt32('abc')", "CANNOT_PARSE_TEXT", Kind.INVALID_TEXT_REPRESENTATION, ()),
    ("SELECT 1 + 'a'", "ILLEGAL_TYPE_OF_ARGUMENT", Kind.DATATYPE_MISMATCH, ()),
    (
        "SELECT id, count() FROM {db}.t GROUP BY name",
        "NOT_AN_AGGREGATE",
        Kind.GROUPING_ERROR,
        ("id",),
    ),
    (
        "SELECT (SELECT number FROM numbers(3))",
        "INCORRECT_RESULT_OF_SCALAR_SUBQUERY",
        Kind.CARDINALITY_VIOLATION,
        (),
    ),
    ("SELECT toDecimal32(1e12, 2)", "DECIMAL_OVERFLOW", Kind.NUMERIC_VALUE_OUT_OF_RANGE, ()),
    ("SELECT plus(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", Kind.INVALID_PARAMETER, ()),
    ("SELECT 1 SETTINGS no_such_setting_ld = 1", "UNKNOWN_SETTING", Kind.INVALID_PARAMETER, ()),
    ("SELECT dictGet('nodict', 'x', 1)", "BAD_ARGUMENTS", Kind.UNDEFINED_OBJECT, ("nodict",)),
    ("SELECT * FROM {db}.t SAMPLE 0.1", "SAMPLING_NOT_SUPPORTED", Kind.FEATURE_NOT_SUPPORTED, ()),
    (
        "CREATE TABLE {db}.y (a NoSuchType) ENGINE = Memory",
        "UNKNOWN_TYPE",
        Kind.UNDEFINED_OBJECT,
        ("NoSuchType",),
    ),
    (
        "CREATE TABLE {db}.y (a UInt8) ENGINE = NoSuchEngine",
        "UNKNOWN_STORAGE",
        Kind.UNDEFINED_OBJECT,
        ("NoSuchEngine",),
    ),
    (
        "SELECT * FROM file('/nonexistent/ld.csv', 'CSV', 'a String')",
        "FILE_DOESNT_EXIST",
        Kind.UNDEFINED_OBJECT,
        (),
    ),
    (
        "SELECT * FROM numbers(100) SETTINGS max_result_rows = 10, result_overflow_mode = 'throw'",
        "TOO_MANY_ROWS_OR_BYTES",
        Kind.CONFIGURATION_LIMIT_EXCEEDED,
        (),
    ),
    (
        "SELECT * FROM numbers(10) SETTINGS max_rows_to_read = 5",
        "TOO_MANY_ROWS",
        Kind.CONFIGURATION_LIMIT_EXCEEDED,
        (),
    ),
    (
        "SELECT * FROM {db}.t SETTINGS max_columns_to_read = 1",
        "TOO_MANY_COLUMNS",
        Kind.CONFIGURATION_LIMIT_EXCEEDED,
        (),
    ),
    (
        "SELECT 1+1+1+1+1 SETTINGS max_ast_elements = 3",
        "TOO_BIG_AST",
        Kind.CONFIGURATION_LIMIT_EXCEEDED,
        (),
    ),
    (
        "SELECT groupArray(number) FROM numbers(10000000) SETTINGS max_memory_usage = 1000000",
        "MEMORY_LIMIT_EXCEEDED",
        Kind.OUT_OF_MEMORY,
        (),
    ),
    (
        "SELECT count() FROM numbers(100000000000) SETTINGS max_execution_time = 0.2",
        "TIMEOUT_EXCEEDED",
        Kind.STATEMENT_TIMEOUT,
        (),
    ),
    ("INSERT INTO {db}.t SETTINGS readonly = 1 VALUES (1, 'a')", "READONLY", Kind.READ_ONLY, ()),
    (
        "CREATE USER IF NOT EXISTS ld_nobody IDENTIFIED WITH plaintext_password BY 'x'",
        "ACCESS_DENIED",
        Kind.INSUFFICIENT_PRIVILEGE,
        (),
    ),
    (
        "SELECT * FROM remote('127.0.0.1:1', system.one)"
        " SETTINGS connect_timeout_with_failover_ms = 100",
        "NO_REMOTE_SHARD_AVAILABLE",
        Kind.CONNECTION_FAILURE,
        (),
    ),
]


@pytest.mark.parametrize(("sql", "name", "kind", "names"), REAL, ids=[r[1] for r in REAL])
def test_real_engine_errors(
    db: str, sql: str, name: str, kind: Kind, names: tuple[str, ...]
) -> None:
    exc = engine_error(sql.format(db=db))
    # The engine's own words name the error: the test's expectation is checked first.
    assert f"({name})" in str(exc), str(exc)
    answer = classify_error(exc)  # ChdbError: detected from its module
    assert answer.backend == "clickhouse"
    assert answer.driver == "chdb"
    assert answer.database_error_code == str(CODES_BY_NAME[name])
    assert answer.kind is kind, str(exc)
    for expected in names:
        assert expected.format(db=db) in answer.affected_resources, answer.affected_resources


def test_qualified_names_keep_their_database(db: str) -> None:
    answer = classify_error(engine_error(f"SELECT * FROM {db}.nosuch"))
    assert (answer.affected_resources, answer.schema) == (("nosuch",), db)
    answer = classify_error(engine_error(f"INSERT INTO {db}.t VALUES (1000, 'x')"))
    assert (answer.constraint, answer.schema) == ("id_small", db)


def test_chdb_query_raises_a_plain_runtime_error() -> None:
    # chdb.query() (no session) raises Python's own RuntimeError, from inside
    # chdb: the core finds chdb in its traceback; db_type names it too.
    with pytest.raises(RuntimeError) as info:
        chdb.query("SELECT * FROM ld_nowhere_table")
    for answer in (classify_error(info.value), classify_error(info.value, db_type="chdb")):
        assert (answer.backend, answer.kind, answer.database_error_code) == (
            "clickhouse",
            Kind.UNDEFINED_TABLE,
            "60",
        )
        assert answer.affected_resources == ("ld_nowhere_table",)


def test_next_steps_follow_clickhouse(db: str) -> None:
    memory = classify_error(
        engine_error(
            "SELECT groupArray(number) FROM numbers(10000000) SETTINGS max_memory_usage = 1000000"
        )
    )
    # This query's own limit: asking for less is the way out (the Kind table).
    assert (memory.action, memory.is_retryable) == (Action.FIX_QUERY, False)
    timeout = classify_error(
        engine_error("SELECT count() FROM numbers(100000000000) SETTINGS max_execution_time = 0.2")
    )
    # The query's own time limit: narrow it; sent again unchanged it times out again.
    assert (timeout.action, timeout.is_retryable) == (Action.FIX_QUERY, False)
    # No transactions: a timed-out INSERT ... SELECT may have written blocks.
    assert timeout.retry_safety is RetrySafety.IDEMPOTENT_ONLY
    readonly = classify_error(
        engine_error(f"INSERT INTO {db}.t SETTINGS readonly = 1 VALUES (1, 'a')")
    )
    assert readonly.action is Action.STOP
    refused = classify_error(
        engine_error(
            "SELECT * FROM remote('127.0.0.1:1', system.one)"
            " SETTINGS connect_timeout_with_failover_ms = 100"
        )
    )
    assert (refused.action, refused.retry_safety) == (Action.RECONNECT, RetrySafety.SAFE)


# -- clickhouse-connect: a server's HTTP error reply, through the driver's own builder --------


def http_error(
    code: int, text: str, *, show: bool | str = True, retried: bool = False
) -> BaseException:
    """What clickhouse-connect raises for a ClickHouse HTTP error reply."""
    body = f"{text} (version 24.8.4.13 (official build))\n"
    return httpcommon.build_http_error(
        500, str(code), body, show, "http://127.0.0.1:8123/", retried
    )


def test_clickhouse_connect_reply_carrying_a_real_engine_text(db: str) -> None:
    text = str(engine_error(f"SELECT * FROM {db}.nosuch"))
    exc = http_error(60, text)
    assert isinstance(exc, DatabaseError)
    answer = classify_error(exc)
    assert (answer.backend, answer.driver, answer.kind) == (
        "clickhouse",
        "clickhouse_connect",
        Kind.UNDEFINED_TABLE,
    )
    assert answer.affected_resources == ("nosuch",)


def test_clickhouse_connect_without_error_detail_keeps_the_code() -> None:
    # show_clickhouse_errors=False: a generic text, the code only on the attribute.
    exc = http_error(
        202,
        (
            "Code: 202. DB::Exception: Too many simultaneous queries. Maximum: 100. "
            "(TOO_MANY_SIMULTANEOUS_QUERIES)"
        ),
        show=False,
    )
    assert "Too many" not in str(exc)
    answer = classify_error(exc)
    assert (answer.kind, answer.database_error_code) == (Kind.TOO_MANY_CONNECTIONS, "202")
    assert (answer.action, answer.retry_safety) == (Action.RETRY, RetrySafety.SAFE)


# Server texts for errors the embedded engine cannot raise (a server, other
# clients, a network), as ClickHouse prints them (its ErrorCodes and messages:
# https://clickhouse.com/docs/knowledgebase and src/Common/ErrorCodes.cpp).
SERVER = [
    (
        202,
        (
            "Code: 202. DB::Exception: Too many simultaneous queries. Maximum: 100. "
            "(TOO_MANY_SIMULTANEOUS_QUERIES)"
        ),
        Kind.TOO_MANY_CONNECTIONS,
        Action.RETRY,
    ),
    (
        516,
        (
            "Code: 516. DB::Exception: default: Authentication failed: password is incorrect, "
            "or there is no user with such name. (AUTHENTICATION_FAILED)"
        ),
        Kind.INVALID_PASSWORD,
        Action.STOP,
    ),
    (
        394,
        "Code: 394. DB::Exception: Query was cancelled. (QUERY_WAS_CANCELLED)",
        Kind.QUERY_CANCELED,
        Action.RETRY,
    ),
    (
        209,
        (
            "Code: 209. DB::NetException: Timeout exceeded while reading from socket "
            "(10.0.0.5:9000, 300000 ms). (SOCKET_TIMEOUT)"
        ),
        Kind.CONNECTION_LOST,
        Action.RECONNECT,
    ),
    (
        210,
        (
            "Code: 210. DB::NetException: Connection reset by peer, while reading from socket "
            "(10.0.0.5:9000). (NETWORK_ERROR)"
        ),
        Kind.CONNECTION_LOST,
        Action.RECONNECT,
    ),
    (
        252,
        (
            "Code: 252. DB::Exception: Too many parts (3001 with average size of 12.00 KiB) "
            "in table 'default.events (4b0f2b0c-1c43-4f3e-9d2a-6c1a0d1e2f3a)'. Merges are "
            "processing significantly slower than inserts. (TOO_MANY_PARTS)"
        ),
        Kind.CONFIGURATION_LIMIT_EXCEEDED,
        Action.RETRY,
    ),
    (
        201,
        (
            "Code: 201. DB::Exception: Quota for user `default` for 3600s has been exceeded: "
            "queries = 1001/1000. Interval will end at 2024-05-01 12:00:00. Name of quota "
            "template: `default`. (QUOTA_EXCEEDED)"
        ),
        Kind.QUOTA_EXCEEDED,
        Action.STOP,
    ),
]


@pytest.mark.parametrize(
    ("code", "text", "kind", "action"), SERVER, ids=[str(s[0]) for s in SERVER]
)
def test_server_errors_through_clickhouse_connect(
    code: int, text: str, kind: Kind, action: Action
) -> None:
    answer = classify_error(http_error(code, text))
    assert (answer.kind, answer.action, answer.database_error_code) == (kind, action, str(code))


def test_total_memory_is_a_busy_server_not_a_big_query() -> None:
    text = (
        "Code: 241. DB::Exception: Memory limit (total) exceeded: would use 3.65 GiB (attempt to"
        " allocate chunk of 4219904 bytes), maximum: 3.60 GiB. (MEMORY_LIMIT_EXCEEDED)"
    )
    answer = classify_error(http_error(241, text))
    assert (answer.kind, answer.action, answer.retry_safety) == (
        Kind.OUT_OF_MEMORY,
        Action.RETRY,
        RetrySafety.SAFE,
    )


def test_retried_reply_is_an_operational_error() -> None:
    exc = http_error(
        394, "Code: 394. DB::Exception: Query was cancelled. (QUERY_WAS_CANCELLED)", retried=True
    )
    assert isinstance(exc, OperationalError)
    assert classify_error(exc).kind is Kind.QUERY_CANCELED


# -- clickhouse-driver: the native protocol's exception packet, read by the driver -------------


def _string(value: str) -> bytes:
    data = value.encode()
    size, out = len(data), bytearray()
    while True:
        byte, size = size & 0x7F, size >> 7
        out.append(byte | 0x80 if size else byte)
        if not size:
            return bytes(out) + data


def native_error(code: int, text: str) -> BaseException:
    """What clickhouse-driver raises for a server's Exception packet."""
    packet = (
        struct.pack("<i", code)
        + _string("DB::Exception")
        + _string(text)
        + _string("0. DB::Exception::Exception(...) @ 0x000000000c7b6a5b")
        + b"\x00"
    )
    chunks = [packet]
    return read_exception(CompressedBufferedReader(lambda: chunks.pop(0), len(packet)))


def test_clickhouse_driver_server_exception(db: str) -> None:
    text = str(engine_error(f"SELECT * FROM {db}.nosuch")).split(". ", 1)[1]
    answer = classify_error(native_error(60, text))
    assert (answer.backend, answer.driver, answer.kind, answer.database_error_code) == (
        "clickhouse",
        "clickhouse_driver",
        Kind.UNDEFINED_TABLE,
        "60",
    )
    assert answer.affected_resources == ("nosuch",)


def test_codes_given_by_name_or_number() -> None:
    by_name = classify_message("Table x does not exist", db_type="clickhouse", code="UNKNOWN_TABLE")
    by_number = classify_message("Table x does not exist", db_type="clickhouse", code=60)
    assert by_name.kind is by_number.kind is Kind.UNDEFINED_TABLE
    assert by_name.database_error_code == by_number.database_error_code == "60"


def test_unmapped_code_is_kept_for_the_keyword_fallback() -> None:
    text = (
        "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero."
        " (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)"
    )
    answer = classify_message(text, db_type="clickhouse")
    assert (answer.backend, answer.database_error_code) == ("clickhouse", "395")
