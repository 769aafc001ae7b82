"""
TiDB texts pasted alone, as users posted them: the pack's signs name TiDB.

Each text is a real one (the address above it), labelled from TiDB's own
documentation of the code or message (the core's `tests/text_corpus`).
"""

from __future__ import annotations

import pytest

from localdata_errors import Kind
from localdata_errors.testing import check_pasted_text

# (text, the code it carries or its wording gives, the kind its label gives)
CASES = [
    # https://github.com/pingcap/tidb/issues/26543
    (
        "[2021/07/24 13:49:21.449 +00:00] [WARN] [txn.go:65] [RunInNe"
        'wTxn] ["retry txn"=426543562392862727] ["original txn"=42654'
        '3549076733953] [error="[kv:9007]Write conflict, txnStartTS=4'
        "26543562392862727, conflictStartTS=426543562419339273, confl"
        "ictCommitTS=426543562458660866, key=[]byte{0x6d, 0x44, 0x42,"
        " 0x3a, 0x36, 0x35, 0x35, 0x39, 0x0, 0xfe, 0x0, 0x0, 0x0, 0x0"
        ", 0x0, 0x0, 0x0, 0x48} primary=[]byte{0x6d, 0x44, 0x42, 0x3a"
        ", 0x36, 0x35, 0x35, 0x39, 0x0, 0xfe, 0x0, 0x0, 0x0, 0x0, 0x0"
        ', 0x0, 0x0, 0x48} [try again later]"]',
        "9007",
        Kind.SERIALIZATION_FAILURE,
    ),
    # https://github.com/tikv/tikv/issues/11612
    (
        '"FATAL: mysql_stmt_execute() returned error 9007 (Write conf'
        "lict, txnStartTS=429686608989258006, conflictStartTS=4296866"
        "08989257901, conflictCommitTS=429686609054793967, key={table"
        "ID=111, indexID=1, indexValues={4768979, 1, }} primary={tabl"
        "eID=111, handle=7375652} [try again later]) for query 'COMMI"
        "T'\\r\\n\"",
        "9007",
        Kind.SERIALIZATION_FAILURE,
    ),
    # https://github.com/pingcap/tidb/issues/18954
    (
        "Error 8028: Information schema is changed during the executi"
        "on of the statement(for example, table definition may be upd"
        "ated by other DDL ran in parallel). If you see this error of"
        "ten, try increasing `tidb_max_delta_schema_count`. [try agai"
        "n later] .",
        "8028",
        Kind.SERIALIZATION_FAILURE,
    ),
    # https://github.com/pingcap/tidb/issues/18954
    (
        '[2020/08/03 13:40:15.520 +00:00] [WARN] [session.go:471] ["c'
        'an not retry txn"] [conn=1657] [label=general] [error="[doma'
        "in:8028]Information schema is changed during the execution o"
        "f the statement(for example, table definition may be updated"
        " by other DDL ran in parallel). If you see this error often,"
        " try increasing `tidb_max_delta_schema_count`. [try again la"
        'ter]"]',
        "8028",
        Kind.SERIALIZATION_FAILURE,
    ),
    # https://github.com/pingcap/tidb/pull/47980
    (
        "tidb> select sum(a) from t group by a;\nERROR 8175 (HY000): Y"
        "our query has been cancelled due to exceeding the allowed me"
        "mory limit for a single SQL query. Please try narrowing your"
        " query scope or increase the tidb_mem_quota_query limit and "
        "try again.[conn=2097156]",
        "8175",
        Kind.OUT_OF_MEMORY,
    ),
]


@pytest.mark.parametrize(("text", "code", "kind"), CASES)
def test_a_pasted_text_names_tidb(text: str, code: str | None, kind: Kind) -> None:
    assert check_pasted_text(text, "tidb", kind, code) == []
