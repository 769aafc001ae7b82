"""PostgreSQL's server formats and their SQLSTATEs, as its source states them."""

from __future__ import annotations

from pathlib import Path

import pytest
from extract_postgresql_sqlstates import extract

_TSV = Path(__file__).resolve().parent.parent / "tools" / "upstream" / "postgresql-sqlstates.tsv"

_ERRCODES = """\
Section: Class 00 - Successful Completion
00000    S    ERRCODE_SUCCESSFUL_COMPLETION                                  successful_completion
Section: Class 0A - Feature Not Supported
0A000    E    ERRCODE_FEATURE_NOT_SUPPORTED                                  feature_not_supported
Section: Class 42 - Syntax Error or Access Rule Violation
42501    E    ERRCODE_INSUFFICIENT_PRIVILEGE                                 insufficient_privilege
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
    ereport(LOG, (errcode_for_socket_access(), errmsg("could not send data to client: %m")));
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


_CHOSEN = r"""
void aclcheck_error(AclResult aclerr, ObjectType objtype, const char *objectname)
{
    const char *msg = "???";

    switch (objtype)
    {
        case OBJECT_TABLE:
            msg = gettext_noop("permission denied for table %s");
            break;
        case OBJECT_VIEW:
            msg = gettext_noop("permission denied for view %s");
            break;
    }
    ereport(ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg(msg, objectname)));
}

void transformSubLink(ParseState *pstate)
{
    const char *err = NULL;

    if (kind == EXPR_KIND_CHECK_CONSTRAINT)
        err = _("cannot use subquery in check constraint");
    if (err)
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg_internal("%s", err)));
}

void does_not_exist_skipping(ObjectType objtype)
{
    const char *msg = NULL;

    msg = gettext_noop("relation \"%s\" does not exist, skipping");
    ereport(NOTICE, (errmsg(msg, name)));
}

void two_codes(void)
{
    const char *msg = gettext_noop("chosen, two codes");

    if (a)
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg(msg)));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg(msg)));
}

void also_a_detail(void)
{
    const char *msg = gettext_noop("chosen, also a detail");

    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg(msg)));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg_internal("x"), errdetail(msg)));
}

void code_by_variable(int code)
{
    const char *msg = gettext_noop("chosen, code by a variable");

    ereport(FATAL, (errcode(code), errmsg(msg)));
}

void never_given(void)
{
    const char *msg = gettext_noop("chosen, given to no ereport");

    report(msg);
}

void other_function(void)
{
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg(msg)));
}
"""


def test_a_message_chosen_through_a_variable_gets_the_sqlstate_of_its_ereports() -> None:
    assert extract({"f.c": _CHOSEN}, _ERRCODES) == {
        "permission denied for table %s": "42501",  # switch, then one ereport
        "permission denied for view %s": "42501",
        "cannot use subquery in check constraint": "0A000",  # _(), as errmsg_internal's %s
        'relation "%s" does not exist, skipping': "00000",  # NOTICE: successful_completion
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
        # Chosen through a variable (aclchk.c, parse_agg.c, parse_expr.c).
        ("permission denied for table %s", "42501"),  # insufficient_privilege
        ("must be owner of table %s", "42501"),  # insufficient_privilege
        ("aggregate functions are not allowed in JOIN conditions", "42803"),  # grouping_error
        ("window functions are not allowed in JOIN conditions", "42P20"),  # windowing_error
        ("cannot use subquery in check constraint", "0A000"),  # feature_not_supported
    ],
)
def test_the_vendored_table_holds_the_appendix_sqlstate(text: str, sqlstate: str) -> None:
    rows = dict(
        line.rsplit("\t", 1)
        for line in _TSV.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    )
    assert rows[text] == sqlstate
