"""PostgreSQL's server formats and their SQLSTATEs, as its source states them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from extract_postgresql_sqlstates import extract, switches, why

_UPSTREAM = Path(__file__).resolve().parent.parent / "tools" / "upstream"
_TSV = _UPSTREAM / "postgresql-sqlstates.tsv"
_TSV_18 = _UPSTREAM / "postgresql-18-sqlstates.tsv"


#: Where the release sources are unpacked (`postgresql-15.18`, `postgresql-18.6`).
_SOURCES = Path(os.environ.get("POSTGRESQL_SOURCES", "/tmp/pgsrc"))  # noqa: S108 - a default


@pytest.mark.parametrize(
    ("tree", "tsv"), [("postgresql-15.18", _TSV), ("postgresql-18.6", _TSV_18)]
)
def test_the_committed_tsv_is_what_the_release_source_gives(tree: str, tsv: Path) -> None:
    if not (_SOURCES / tree).is_dir():
        pytest.skip(f"{_SOURCES / tree} is not here (set POSTGRESQL_SOURCES)")
    header = tsv.read_text(encoding="utf-8").split("\n", 1)[0]
    source = header.removeprefix("# PostgreSQL ").split(": server message formats")[0]
    done = subprocess.run(
        [
            sys.executable,
            str(_UPSTREAM.parent / "extract_postgresql_sqlstates.py"),
            *("--tree", str(_SOURCES / tree), "--source", source, "--output", str(tsv)),
            "--check",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _rows(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line and not line.startswith("#")]
    return dict(line.rsplit("\t", 1) for line in rows if line.count("\t") == 1)


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
Section: Class 28 - Invalid Authorization Specification
28000    E    ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION    invalid_authorization_specification
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
    ereport(ERROR, (errcode_for_file_access(), errmsg("could not read file \"%s\"", p)));
    ereport(ERROR, (errcode_for_file_access(), errmsg("file and socket: %m")));
    ereport(ERROR, (errcode_for_socket_access(), errmsg("file and socket: %m")));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("twice, two codes")));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("twice, two codes")));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("also in an elog")));
    elog(ERROR, "also in an elog");
    ereport(FATAL, (errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
                    errmsg("role \"%s\" does not exist", name)));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", n)));
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
        # An elog ("internal errors that should never happen") is no message a
        # user is meant to meet: the reports' SQLSTATE.
        "also in an elog": "42704",
        # Sites disagree, but every one at ERROR (what a client prints as
        # `ERROR:`) states 42704; the start-up catalogue gives the FATAL one's.
        'role "%s" does not exist': "42704",
        # The SQLSTATE follows errno (elog.c), which %m prints: a marker.
        'could not open file "%s": %m': "errno:file",
        "could not send data to client: %m": "errno:socket",  # at LOG too
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


_SOFT = r"""
bool pg_strtoint32_safe(const char *s, Node *escontext)
{
    ereturn(escontext, 0,
            (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
             errmsg("value \"%s\" is out of range for type %s", s, "integer")));
    errsave(escontext,
            (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
             errmsg("invalid input syntax for type %s: \"%s\"", "integer", s)));
    errsave_domain(escontext, TEXTDOMAIN,
                   (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("type \"%s\" does not exist", s)));
    ereturn(escontext, false, (errmsg("soft, no errcode")));
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("soft and hard, two codes")));
    errsave(escontext, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("soft and hard, two codes")));
    ereport_startup_progress("syncing data directory (fsync), elapsed time: %ld.%02d s", path);
}
"""

_SOFT_ERRCODES = (
    _ERRCODES
    + """Section: Class 22 - Data Exception
22003    E    ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE      numeric_value_out_of_range
22P02    E    ERRCODE_INVALID_TEXT_REPRESENTATION     invalid_text_representation
"""
)


def test_a_soft_error_report_is_read_as_an_ereport_of_error() -> None:
    # errsave/ereturn (elog.h, PostgreSQL 16 on) report at ERROR unless given
    # an ErrorSaveContext, which keeps the same fields for its caller.
    assert extract({"f.c": _SOFT}, _SOFT_ERRCODES) == {
        'value "%s" is out of range for type %s': "22003",
        'invalid input syntax for type %s: "%s"': "22P02",
        'type "%s" does not exist': "42704",
        "syncing data directory (fsync), elapsed time: %ld.%02d s": "00000",  # LOG
    }


def test_why_counts_the_dropped_formats_by_reason() -> None:
    assert why({"f.c": _SOURCE}, _ERRCODES) == {
        "no site states one: errcode given a variable": 1,
        "no site states one: errcode_for_file_access or errcode_for_socket_access, no %m": 1,
        "no site states one: no errcode (level ERROR or higher, or a variable)": 1,
        "sites state different SQLSTATEs": 2,  # "twice, two codes"; "file and socket: %m"
    }


_ELOG_C = r"""
int
errcode_for_file_access(void)
{
    ErrorData  *edata = &errordata[errordata_stack_depth];

    switch (edata->saved_errno)
    {
            /* Permission-denied failures */
        case EPERM:             /* Not super-user */
        case EACCES:            /* Permission denied */
#ifdef EROFS
        case EROFS:             /* Read only file system */
#endif
            edata->sqlerrcode = ERRCODE_INSUFFICIENT_PRIVILEGE;
            break;
        case ENOENT:            /* No such file or directory */
            edata->sqlerrcode = ERRCODE_UNDEFINED_FILE;
            break;
        default:
            edata->sqlerrcode = ERRCODE_INTERNAL_ERROR;
            break;
    }
    return 0;
}

int
errcode_for_socket_access(void)
{
    ErrorData  *edata = &errordata[errordata_stack_depth];

    switch (edata->saved_errno)
    {
        case ALL_CONNECTION_FAILURE_ERRNOS:
            edata->sqlerrcode = ERRCODE_CONNECTION_FAILURE;
            break;
        default:
            edata->sqlerrcode = ERRCODE_INTERNAL_ERROR;
            break;
    }
    return 0;
}
"""

_PORT_H = r"""
/* the errnos of a lost connection */
#define ALL_CONNECTION_FAILURE_ERRNOS \
    EPIPE: \
    case ECONNRESET: \
    case ETIMEDOUT
"""

_SWITCH_ERRCODES = (
    _ERRCODES
    + """Section: Class 08 - Connection Exception
08006    E    ERRCODE_CONNECTION_FAILURE                                     connection_failure
Section: Class 58 - System Error (errors external to PostgreSQL itself)
58P01    E    ERRCODE_UNDEFINED_FILE                                         undefined_file
Section: Class XX - Internal Error
XX000    E    ERRCODE_INTERNAL_ERROR                                         internal_error
"""
)


def test_the_errno_switches_are_read_case_by_case() -> None:
    # A case list of port.h's macro is read as its errnos; #ifdef lines as true.
    assert switches(_ELOG_C, _PORT_H, _SWITCH_ERRCODES) == [
        ("errno:file", "EPERM", "42501"),
        ("errno:file", "EACCES", "42501"),
        ("errno:file", "EROFS", "42501"),
        ("errno:file", "ENOENT", "58P01"),
        ("errno:file", "*", "XX000"),
        ("errno:socket", "EPIPE", "08006"),
        ("errno:socket", "ECONNRESET", "08006"),
        ("errno:socket", "ETIMEDOUT", "08006"),
        ("errno:socket", "*", "XX000"),
    ]


def test_a_switch_it_cannot_read_fails() -> None:
    head = _ELOG_C.split("int\nerrcode_for_socket_access", maxsplit=1)[0]
    with pytest.raises(ValueError, match="errcode_for_socket_access"):
        switches(head, _PORT_H, _SWITCH_ERRCODES)


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
    assert _rows(_TSV)[text] == sqlstate


# Formats PostgreSQL 18 reports only through errsave/ereturn (datatype input
# functions), or also through them, and the SQLSTATE Appendix A gives their
# condition (https://www.postgresql.org/docs/18/errcodes-appendix.html).
@pytest.mark.parametrize(
    ("text", "sqlstate"),
    [
        ("value too long for type character varying(%d)", "22001"),  # string_data_right_truncation
        ("integer out of range", "22003"),  # numeric_value_out_of_range
        ('value "%s" is out of range for type %s', "22003"),  # numeric_value_out_of_range
        ('malformed array literal: "%s"', "22P02"),  # invalid_text_representation
        ('invalid input value for enum %s: "%s"', "22P02"),  # invalid_text_representation
        ('date/time field value out of range: "%s"', "22008"),  # datetime_field_overflow
        ('function "%s" does not exist', "42883"),  # undefined_function
        ('schema "%s" does not exist', "3F000"),  # invalid_schema_name
        ("domain %s does not allow null values", "23502"),  # not_null_violation
    ],
)
def test_the_18_table_holds_the_appendix_sqlstate_of_soft_errors(text: str, sqlstate: str) -> None:
    assert _rows(_TSV_18)[text] == sqlstate
