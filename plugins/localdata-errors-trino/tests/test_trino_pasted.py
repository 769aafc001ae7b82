"""
Trino texts pasted alone, as users posted them: the pack's signs name Trino.

Each text is a real one (the address above it), labelled from Trino's own
documentation of the code or message (the core's `tests/text_corpus`).
"""

from __future__ import annotations

import pytest

from localdata_errors import Kind
from localdata_errors.testing import check_pasted_text

# (text, the code it carries or its wording gives, the kind its label gives)
CASES = [
    # https://github.com/trinodb/trino/issues/27163
    (
        'trino> select * from fut.automq."oracle_test.hr.employees";\n'
        "Query 20251030_143128_00018_r9far failed: line 1:15: Table '"
        'fut.automq."oracle_test.hr.employees"\' does not exist\nselect'
        ' * from fut.automq."oracle_test.hr.employees"',
        None,
        Kind.UNDEFINED_TABLE,
    ),
    # https://github.com/StarRocks/starrocks/issues/66998
    (
        "[46] Query failed (#20251219_043112_07682_ra2bw): line 3:6: "
        "Table 'starrocks.db.table' does not exist\nio.trino.spi.Trino"
        "Exception: line 3:6: Table 'starrocks.db.table' does not exi"
        "st",
        "TABLE_NOT_FOUND",
        Kind.UNDEFINED_TABLE,
    ),
    # https://github.com/trinodb/trino/issues/25465
    (
        "io.trino.ExceededMemoryLimitException: Query exceeded per-no"
        "de memory limit of 25.80GB [Allocated: 25.79GB, Delta: 14.39"
        "MB, Top Consumers: {ScanFilterAndProjectOperator=25.78GB, Ha"
        "shAggregationOperator=7.92MB, PagePartitioner=4.08MB}]\n\tat i"
        "o.trino.ExceededMemoryLimitException.exceededLocalUserMemory"
        "Limit(ExceededMemoryLimitException.java:40)\n\tat io.trino.mem"
        "ory.QueryContext.enforceUserMemoryLimit(QueryContext.java:33"
        "0)",
        None,
        Kind.OUT_OF_MEMORY,
    ),
    # https://github.com/trinodb/trino/issues/17138
    (
        "Query exceeded per-node memory limit of 23.98GB [Allocated: "
        "23.98GB, Delta: 64kB, Top Consumers: {HashAggregationOperato"
        "r=23.50GB, HashBuilderOperator=477.14MB, MergeSortedPages=12"
        ".33MB}]",
        None,
        Kind.OUT_OF_MEMORY,
    ),
    # https://github.com/trinodb/trino/issues/23363
    (
        "trino> SELECT row('a', 'b', 'c').field;\nQuery 20240911_10364"
        "0_00175_snjt3 failed: line 1:8: Column 'null' cannot be reso"
        "lved",
        None,
        Kind.UNDEFINED_COLUMN,
    ),
    # https://github.com/trinodb/trino/issues/24020
    (
        "Query 20241104_085940_00034_7es2f failed: line 2:5: Column '"
        "t.lgl_ntwrk_grp_cd' cannot be resolved",
        None,
        Kind.UNDEFINED_COLUMN,
    ),
    # https://github.com/trinodb/trino/issues/8307
    (
        "ERROR:root:TrinoUserError(type=USER_ERROR, name=NOT_FOUND, m"
        "essage=\"Table 'default.hitexecutionview$partitions' not foun"
        'd", query_id=20210616_104957_00099_unjsj)',
        "NOT_FOUND",
        Kind.UNDEFINED_TABLE,
    ),
    # https://github.com/mage-ai/mage-ai/pull/2467
    (
        "TrinoUserError(type=USER_ERROR, name=TABLE_NOT_FOUND, messag"
        "e=\"line 1:15: Table 'hudi_ingest.etl_tmp.cwang_test_changes_"
        "yeah' does not exist\", query_id=20230420_180015_34890_xnaun)",
        "TABLE_NOT_FOUND",
        Kind.UNDEFINED_TABLE,
    ),
    # https://github.com/trinodb/trino/issues/25408
    (
        "type=INSUFFICIENT_RESOURCES, name=EXCEEDED_LOCAL_MEMORY_LIMI"
        'T, message="Query exceeded per-node memory limit of 40GB [Al'
        "located: 40.00GB, Delta: 8.71MB, Top Consumers: {FilterAndPr"
        "ojectOperator=39.94GB, ScanFilterAndProjectOperator=38.63MB,"
        " UnnestOperator=20.55MB}]",
        "EXCEEDED_LOCAL_MEMORY_LIMIT",
        Kind.OUT_OF_MEMORY,
    ),
]


@pytest.mark.parametrize(("text", "code", "kind"), CASES)
def test_a_pasted_text_names_trino(text: str, code: str | None, kind: Kind) -> None:
    assert check_pasted_text(text, "trino", kind, code) == []


def test_an_engine_name_opening_a_text_names_trino() -> None:
    # https://github.com/trinodb/trino/issues/25685: an INSUFFICIENT_RESOURCES
    # name opening the text; Trino says to try again later (RETRYABLE).
    from localdata_errors import classify_message

    answer = classify_message(
        "CLUSTER_OUT_OF_MEMORY: Query killed because the cluster is out of memory. "
        "Please try again in a few minutes."
    )
    assert (answer.backend, answer.kind, answer.database_error_code, answer.is_retryable) == (
        "trino",
        Kind.OUT_OF_MEMORY,
        "CLUSTER_OUT_OF_MEMORY",
        True,
    )


def test_a_user_error_name_opening_a_text_names_no_one() -> None:
    # USER_ERROR names (SYNTAX_ERROR, ...) are other catalogues' names too.
    from localdata_errors import classify_message

    assert classify_message("SYNTAX_ERROR: something went wrong").backend != "trino"
