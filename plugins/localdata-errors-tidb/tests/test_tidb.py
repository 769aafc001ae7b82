"""
TiDB's errors, as pymysql raises them from a TiDB server's error packet.

Each error is the byte-exact MySQL error packet (0xFF, number, ``#``,
SQLSTATE, message) turned into an exception by pymysql's own
``raise_mysql_exception``; the messages are TiDB's templates (its error code
reference) with values filled in.
"""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

from localdata_errors import ErrorMapperRegistry, Kind, classify_error, classify_message

pymysql = pytest.importorskip("pymysql")

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def tidb_error(errno: int, message: str, sqlstate: str = "HY000") -> BaseException:
    """The exception pymysql raises for this server reply."""
    packet = b"\xff" + struct.pack("<H", errno) + b"#" + sqlstate.encode() + message.encode()
    try:
        pymysql.err.raise_mysql_exception(packet)
    except pymysql.err.MySQLError as exc:
        return exc
    raise AssertionError("pymysql raised nothing")


CASES = [
    # (number, message, kind, action, retry safety)
    (9007, "Write conflict, txnStartTS=433213454156578817, conflictStartTS=433213454156578818, "
     "conflictCommitTS=433213454169686017, key={tableID=84, handle=1} primary=..., "
     "reason=Optimistic [try again later]", Kind.SERIALIZATION_FAILURE, "retry", "safe"),
    (8005, "Write conflict, txnStartTS 433213454156578817 is stale",
     Kind.SERIALIZATION_FAILURE, "retry", "safe"),
    (8002, "[433213454156578817] can not retry select for update statement",
     Kind.SERIALIZATION_FAILURE, "retry", "safe"),
    (8022, "Error: KV error safe to retry Txn(Mvcc(TxnLockNotFound)) [try again later]",
     Kind.SERIALIZATION_FAILURE, "retry", "safe"),
    (8028, "Information schema is changed during the execution of the statement(for example, "
     "table definition may be updated by other DDL ran in parallel). If you see this error "
     "often, try increasing `tidb_max_delta_schema_count`. [try again later]",
     Kind.SERIALIZATION_FAILURE, "retry", "safe"),
    (9001, "PD server timeout: start timestamp may fall behind safe point",
     Kind.STATEMENT_TIMEOUT, "retry", "idempotent_only"),
    (9002, "TiKV server timeout", Kind.STATEMENT_TIMEOUT, "retry", "idempotent_only"),
    (9003, "TiKV server is busy", Kind.QUERY_CANCELED, "retry", "safe"),
    (9004, "Resolve lock timeout", Kind.LOCK_NOT_AVAILABLE, "retry", "safe"),
    (9005, "Region is unavailable", Kind.IO_ERROR, "retry", "idempotent_only"),
    (9006, "GC life time is shorter than transaction duration, transaction start ts is "
     "433213454156578817 (2022-05-12 10:00:00), txn safe point is 433213466739490816 "
     "(2022-05-12 10:10:00)", Kind.SNAPSHOT_TOO_OLD, "retry", "safe"),
    (8175, "Your query has been cancelled due to exceeding the allowed memory limit for a "
     "single SQL query. Please try narrowing your query scope or increase the "
     "tidb_mem_quota_query limit and try again.[conn=3908025]",
     Kind.OUT_OF_MEMORY, "fix_query", "not_applicable"),
    (8004, "Transaction is too large, size: 104857600",
     Kind.CONFIGURATION_LIMIT_EXCEEDED, "fix_query", "not_applicable"),
    (8229, "TTL manager has timed out, pessimistic locks may expire, please commit or "
     "rollback this transaction", Kind.TRANSACTION_ABORTED, "rollback", "not_applicable"),
    (8223, "data inconsistency in table: t, index: k2, handle: 1, index-values:\"\" != "
     "record-values:\"handle: 1, values: [KindInt64 1]\"",
     Kind.DATA_CORRUPTED, "stop", "not_applicable"),
]  # fmt: skip


@pytest.mark.parametrize(("errno", "message", "kind", "action", "safety"), CASES)
def test_tidb_numbers(errno: int, message: str, kind: Kind, action: str, safety: str) -> None:
    exc = tidb_error(errno, message)
    answer = classify_error(exc)  # detected: TiDB's number with TiDB's text
    assert (answer.backend, answer.kind, answer.database_error_code) == ("tidb", kind, str(errno))
    assert (answer.action, answer.retry_safety) == (action, safety)
    named = classify_error(exc, db_type="tidb")
    assert (named.backend, named.kind) == ("tidb", kind)


def test_a_number_without_tidbs_text_is_not_claimed_by_detection() -> None:
    # Another MySQL-protocol server (OceanBase uses numbers in this range too)
    # may send 9003 with its own meaning: detection wants TiDB's words.
    exc = tidb_error(9003, "something else entirely")
    assert classify_error(exc).backend == "mysql"
    assert classify_error(exc, db_type="tidb").kind is Kind.QUERY_CANCELED


def test_older_out_of_memory_under_1105() -> None:
    exc = tidb_error(1105, "Out Of Memory Quota![conn_id=5]")
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.action) == ("tidb", Kind.OUT_OF_MEMORY, "fix_query")


def test_mysql_numbers_keep_the_mysql_answer_with_names() -> None:
    exc = tidb_error(1146, "Table 'test.orders' doesn't exist", "42S02")
    assert classify_error(exc).backend == "mysql"
    named = classify_error(exc, db_type="tidb")
    assert (named.backend, named.kind, named.affected_resources) == (
        "tidb",
        Kind.UNDEFINED_TABLE,
        ("orders",),
    )
    deadlock = classify_error(
        tidb_error(1213, "Deadlock found when trying to get lock; try restarting transaction")
    )
    assert deadlock.kind is Kind.DEADLOCK_DETECTED


def test_aliases() -> None:
    assert ErrorMapperRegistry.get_mapper("tidbcloud") is ErrorMapperRegistry.get_mapper("tidb")


def test_generated_codes_match_the_generator() -> None:
    result = subprocess.run(
        [sys.executable, str(TOOLS / "generate_tidb_codes.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("text", "code", "kind"),
    [
        # TiDB's `PD server timeout: %s` printed with an empty detail, and its
        # memory quota message without the `[conn=%d]` tail clients leave out.
        ("Error 9001 (HY000): PD server timeout", "9001", Kind.STATEMENT_TIMEOUT),
        (
            "ERROR 8175 (HY000): Your query has been cancelled due to exceeding the allowed"
            " memory limit for a single SQL query. Please try narrowing your query scope or"
            " increase the tidb_mem_quota_query limit and try again.",
            "8175",
            Kind.OUT_OF_MEMORY,
        ),
    ],
)
def test_tidbs_text_without_its_tail(text: str, code: str, kind: Kind) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code, answer.kind) == ("tidb", code, kind)
