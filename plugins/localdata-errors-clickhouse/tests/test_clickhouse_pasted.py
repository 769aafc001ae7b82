"""
ClickHouse texts pasted alone, as users posted them: the pack's signs name ClickHouse.

Each text is a real one (the address above it), labelled from ClickHouse's own
documentation of the code or message (the core's `tests/text_corpus`).
"""

from __future__ import annotations

import pytest

from localdata_errors import Kind
from localdata_errors.testing import check_pasted_text

# (text, the code it carries or its wording gives, the kind its label gives)
CASES = [
    # https://github.com/getsentry/snuba/pull/1254
    (
        "snuba.clickhouse.errors.ClickhouseError: [62] DB::Exception:"
        " Syntax error: failed at position 1528: 819SAMPLE BY cityHas"
        "h64(span_id) 2. Wrong number. Stack trace:",
        "62",
        Kind.SYNTAX_ERROR,
    ),
    # https://github.com/ClickHouse/ClickHouse/issues/43815 (without its "Code: 60." lead:
    # the server's version closing the message names ClickHouse)
    (
        "Table default.table doesn't exist. (UNKNOWN_TABLE) (version 22.8.6.71 (official build))",
        "60",
        Kind.UNDEFINED_TABLE,
    ),
]


@pytest.mark.parametrize(("text", "code", "kind"), CASES)
def test_a_pasted_text_names_clickhouse(text: str, code: str | None, kind: Kind) -> None:
    assert check_pasted_text(text, "clickhouse", kind, code) == []
