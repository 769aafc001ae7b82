"""
The SQLSTATE the text path names for a server message is the one the server sends.

`tools/extract_postgresql_sqlstates.py` pairs each server format with the
SQLSTATE every call site of it states in the source, soft-error reports
(`errsave`, `ereturn`: the datatype input functions) included.  Here the
running server raises each message; its own `diag.sqlstate` is the
expectation, and `classify_message` reads the text alone (psql's
`ERROR:  ...`, which carries no SQLSTATE).  A format whose call sites state
two SQLSTATEs gets none from the text, and the server shows why: two texts
of that one format, two SQLSTATEs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import classify_message
from tests.conftest import require_module

pytestmark = pytest.mark.postgresql

#: Statements whose message one of the datatype input functions reports
#: through errsave/ereturn (and, for some, an ereport elsewhere).
SOFT_ERRORS = [
    # tsvectorin: string is too long for tsvector (%d bytes, max %d bytes)
    "SELECT (SELECT string_agg(md5(i::text), ' ') FROM generate_series(1, 40000) i)::tsvector",
    "SELECT 'abc'::int4[]",  # array_in: malformed array literal: "%s"
    "SELECT '99999999999'::int4",  # pg_strtoint32_safe: value "%s" is out of range for type %s
    "SELECT '2024-02-30'::date",  # DateTimeParseError: date/time field value out of range: "%s"
    "SELECT 'nosuch_f(int)'::regprocedure",  # regprocedurein: function "%s" does not exist
    "SELECT 'nosuch_s.t'::regclass",  # schema "%s" does not exist
    "SELECT '(1'::int4range",  # range_in: malformed range literal: "%s"
    "SELECT '1e500'::float8",  # float8in_internal: "%s" is out of range for type double precision
    "SELECT 'a b'::tsquery",  # tsquery's parser: syntax error in tsquery: "%s"
    # The scanner's `%s at or near "%s"` (42601), a phrase pg_dump's uncoded
    # `invalid table name at or near` holds too: the text's template decides.
    "SELEC 1",
]


@pytest.fixture(scope="module")
def session(pg_server: dict[str, object]) -> Iterator[Any]:
    require_module("psycopg")
    import psycopg  # an optional driver, imported once the test runs

    with psycopg.connect(**pg_server, autocommit=True) as conn:  # type: ignore[arg-type]
        yield conn


def _raised(session: Any, statement: str) -> tuple[str | None, str | None]:
    """The server's primary message for *statement* and the SQLSTATE it sent."""
    import psycopg

    with pytest.raises(psycopg.Error) as raised:
        session.execute(statement)
    diag = raised.value.diag
    return diag.message_primary, diag.sqlstate


@pytest.mark.parametrize("statement", SOFT_ERRORS)
def test_the_text_alone_names_the_sqlstate_the_server_sends(session: Any, statement: str) -> None:
    message, sqlstate = _raised(session, statement)
    answer = classify_message(f"ERROR:  {message}")
    assert answer.database_error_code == sqlstate, message


@pytest.mark.parametrize(
    ("one", "other"),
    [
        # invalid input syntax for type %s: "%s": pg_strtoint32_safe's 22P02,
        # DateTimeParseError's 22007 (datetime.c).
        ("SELECT 'abc'::int4", "SELECT 'abc'::date"),
        # type "%s" does not exist: parse_type.c's 42704, DefineType's 42710
        # (typecmds.c, CREATE TYPE with I/O functions and no shell type).
        (
            "SELECT 'nosuch_t'::regtype",
            "CREATE TYPE nosuch_t (INPUT = int4in, OUTPUT = int4out)",
        ),
    ],
)
def test_a_format_the_server_sends_with_two_sqlstates_gets_none_from_its_text(
    session: Any, one: str, other: str
) -> None:
    if (
        other.startswith("CREATE TYPE")
        and not session.execute(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone()[0]
    ):
        pytest.skip("CREATE TYPE with I/O functions needs a superuser")
    (one_message, one_state), (other_message, other_state) = (
        _raised(session, one),
        _raised(session, other),
    )
    assert one_state != other_state
    for message in (one_message, other_message):
        assert classify_message(f"ERROR:  {message}").database_error_code is None, message
