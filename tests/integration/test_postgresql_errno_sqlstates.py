"""
A server message whose SQLSTATE PostgreSQL sets from errno names it by its strerror text.

Where a call site reports with `errcode_for_file_access()` or
`errcode_for_socket_access()`, `elog.c` sets the SQLSTATE from errno and
the message's `%m` prints `strerror(errno)` (`could not access file "x": No
such file or directory` is 58P01 undefined_file; `Is a directory` 42809).
Here the running server raises such errors on files that are missing, are
directories, or are not its to write; its own `diag.sqlstate` is the
expectation, and `classify_message` reads the driver's text alone, which
carries no SQLSTATE.  The kind is the one that SQLSTATE has alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import classify_message
from tests.conftest import require_module

pytestmark = pytest.mark.postgresql

_TABLE = "errno_sqlstates_t"

#: Statements the server refuses with a `%m` message (run as a superuser).
STATEMENTS = [
    "LOAD '/nonexistent/errno_sqlstates.so'",  # could not access file "%s": %m (ENOENT)
    f"COPY {_TABLE} FROM '/nonexistent/errno_sqlstates'",  # ... for reading: %m
    "COPY (SELECT 1) TO '/nonexistent/errno_sqlstates'",  # ... for writing: %m
    "COPY (SELECT 1) TO '/proc/version'",  # ... for writing: %m (EACCES: not the server's)
    "SELECT pg_read_file('/nonexistent/errno_sqlstates')",  # ... for reading: %m
    "SELECT pg_read_file('/')",  # could not read file "%s": %m (EISDIR)
    "SELECT pg_ls_dir('/nonexistent/errno_sqlstates')",  # could not open directory "%s": %m
    "SELECT pg_ls_dir('/etc/passwd')",  # could not open directory "%s": %m (ENOTDIR)
    "SELECT lo_import('/nonexistent/errno_sqlstates')",  # could not open server file "%s": %m
    # Up to 16: could not open extension control file "%s": %m (58P01).  Since
    # (and in later minor releases of some older ones): extension "%s" is not
    # available (0A000), its DETAIL `Could not open extension control file
    # "%s": %m.` saying the same words and no SQLSTATE of its own.
    "CREATE EXTENSION no_such_ext_errno_sqlstates",
]


@pytest.fixture(scope="module")
def session(pg_server: dict[str, object]) -> Iterator[Any]:
    require_module("psycopg")
    import psycopg  # an optional driver, imported once the test runs

    with psycopg.connect(**pg_server, autocommit=True) as conn:  # type: ignore[arg-type]
        conn.execute(f"CREATE TABLE IF NOT EXISTS {_TABLE} (a int)")
        try:
            yield conn
        finally:
            conn.execute(f"DROP TABLE IF EXISTS {_TABLE}")


@pytest.mark.parametrize("statement", STATEMENTS)
def test_the_strerror_text_names_the_sqlstate_the_server_sends(
    session: Any, statement: str
) -> None:
    import psycopg

    with pytest.raises(psycopg.Error) as raised:
        session.execute(statement)
    text, sqlstate = str(raised.value), raised.value.diag.sqlstate
    assert sqlstate is not None
    assert sqlstate not in text
    answer = classify_message(text)
    assert answer.database_error_code == sqlstate, text
    assert answer.kind is classify_message("", db_type="postgresql", code=sqlstate).kind, text
    # psql prints it after `ERROR:  `: the same reading.
    assert classify_message(f"ERROR:  {text}").database_error_code == sqlstate, text
