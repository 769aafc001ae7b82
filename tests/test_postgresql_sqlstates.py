"""PostgreSQL's server formats and their SQLSTATEs, as its source states them."""

from __future__ import annotations

from pathlib import Path

import pytest
from extract_postgresql_sqlstates import extract

_TSV = Path(__file__).resolve().parent.parent / "tools" / "upstream" / "postgresql-sqlstates.tsv"

_ERRCODES = """\
Section: Class 00 - Successful Completion
00000    S    ERRCODE_SUCCESSFUL_COMPLETION                                  successful_completion
Section: Class 42 - Syntax Error or Access Rule Violation
42P01    E    ERRCODE_UNDEFINED_TABLE                                        undefined_table
42703    E    ERRCODE_UNDEFINED_COLUMN                                       undefined_column
42704    E    ERRCODE_UNDEFINED_OBJECT                                       undefined_object
"""

_SOURCE = r"""
/* errmsg("in a comment") is no call */
void f(void)
{
    ereport(ERROR,
            (errcode(ERRCODE_UNDEFINED_TABLE),
             errmsg("relation \"%s\" does not exist",
                    relname)));
    ereport(ERROR,
            (errcode(ERRCODE_UNDEFINED_COLUMN),
             errmsg("column \"%s\" "
                    "does not exist", name)));
    ereport(ERROR, (errcode(code), errmsg("given by a variable")));
    ereport(ERROR, (errcode_for_file_access(), errmsg("could not open file \"%s\": %m", p)));
    ereport(ERROR, (errmsg("no errcode at ERROR")));
    ereport(NOTICE, (errmsg("relation \"%s\" does not exist, skipping", name)));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("twice, two codes")));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("twice, two codes")));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("also in an elog")));
    elog(ERROR, "also in an elog");
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg_internal("internal")));
    ereport(ERROR,
            (errcode(ERRCODE_UNDEFINED_OBJECT),
             errmsg_plural("%d object", "%d objects", n, n)));
}
"""


def test_each_format_gets_the_sqlstate_every_call_site_states() -> None:
    assert extract({"f.c": _SOURCE}, _ERRCODES) == {
        'relation "%s" does not exist': "42P01",  # multi-line call
        'column "%s" does not exist': "42703",  # adjacent literals joined
        'relation "%s" does not exist, skipping': "00000",  # NOTICE: successful_completion
        "%d object": "42704",
        "%d objects": "42704",
    }


# The vendored formats, and the SQLSTATE PostgreSQL's Appendix A gives the
# condition each reports (https://www.postgresql.org/docs/15/errcodes-appendix.html).
@pytest.mark.parametrize(
    ("text", "sqlstate"),
    [
        ('relation "%s" does not exist', "42P01"),  # undefined_table
        ('column "%s" does not exist', "42703"),  # undefined_column
        ('duplicate key value violates unique constraint "%s"', "23505"),  # unique_violation
        ("deadlock detected", "40P01"),  # deadlock_detected
        ("canceling statement due to statement timeout", "57014"),  # query_canceled
        ('database "%s" does not exist', "3D000"),  # invalid_catalog_name
    ],
)
def test_the_vendored_table_holds_the_appendix_sqlstate(text: str, sqlstate: str) -> None:
    rows = dict(
        line.rsplit("\t", 1)
        for line in _TSV.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    )
    assert rows[text] == sqlstate
