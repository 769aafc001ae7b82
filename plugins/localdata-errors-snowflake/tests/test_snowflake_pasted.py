"""
Snowflake texts pasted alone, as users posted them: the pack's signs name Snowflake.

Each text is a real one (the address above it), labelled from Snowflake's own
documentation of the code or message (the core's `tests/text_corpus`).
"""

from __future__ import annotations

import pytest

from localdata_errors import Kind
from localdata_errors.testing import check_pasted_text

# (text, the code it carries or its wording gives, the kind its label gives)
CASES = [
    # https://github.com/snowflakedb/dplyr-snowflakedb/issues/37
    (
        'Error in .verify.JDBC.result(r, "Unable to retrieve JDBC res'
        'ult set",  : \n  Unable to retrieve JDBC result set\n  JDBC ER'
        "ROR: SQL compilation error:\nObject '\"OCR_DATA.PUBLIC.FCED\"' "
        "does not exist or not authorized.\n  Statement: SELECT * FROM"
        ' "OCR_DATA.PUBLIC.FCED" AS "q05" LIMIT 0',
        None,
        Kind.UNDEFINED_TABLE,
    ),
    # https://github.com/snowflakedb/pdo_snowflake/issues/179
    (
        "SQLSTATE[57P03]: Cannot connect now: 606 No active warehouse"
        " selected in the current session. Select an active warehouse"
        " with the 'use warehouse' command.",
        "000606",
        Kind.CONNECTION_MISCONFIGURED,
    ),
    # https://github.com/airbytehq/airbyte/issues/40615
    (
        "2024-07-01 05:37:10 destination > WARN type-and-dedupe c.z.h"
        ".p.ProxyConnection(checkException):178 HikariPool-1 - Connec"
        "tion net.snowflake.client.jdbc.SnowflakeConnectionV1@d66a18f"
        " marked as broken because of SQLSTATE(57P03), ErrorCode(606)"
        " net.snowflake.client.jdbc.SnowflakeSQLException: No active "
        "warehouse selected in the current session.  Select an active"
        " warehouse with the 'use warehouse' command.",
        "000606",
        Kind.CONNECTION_MISCONFIGURED,
    ),
    # https://github.com/dbcodeio/public/issues/762
    (
        "Error:\nNo active warehouse selected in the current session. "
        " Select an active warehouse with the 'use warehouse' command"
        ".",
        None,
        Kind.CONNECTION_MISCONFIGURED,
    ),
    # https://github.com/sqitchers/sqitch/issues/520
    (
        "No active warehouse selected in the current session.  Select"
        " an active warehouse with the 'use warehouse' command.\n (SQL"
        "-57P03)",
        None,
        Kind.CONNECTION_MISCONFIGURED,
    ),
    # https://github.com/lightdash/lightdash/issues/663
    (
        "SQL compilation error: error line 13 at position 6\n\ninvalid "
        "identifier 'ORDERS_UNIQUE_ORDER_COUNT'",
        None,
        Kind.UNDEFINED_COLUMN,
    ),
    # https://github.com/dbcodeio/public/issues/956
    (
        "SQL compilation error:\nsyntax error line 89 at position 7 unexpected 'INCREMENT'.",
        None,
        Kind.SYNTAX_ERROR,
    ),
]


@pytest.mark.parametrize(("text", "code", "kind"), CASES)
def test_a_pasted_text_names_snowflake(text: str, code: str | None, kind: Kind) -> None:
    assert check_pasted_text(text, "snowflake", kind, code) == []
