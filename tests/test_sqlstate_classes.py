"""
Every SQLSTATE PostgreSQL lists, judged by its class's meaning.

The codes are read at test time from the `errcodes.txt` PostgreSQL installs
(the same file the code table is generated from), and the expectation for
each comes from what its two-character class means in the SQL standard and in
PostgreSQL's Appendix A, written down here independently of the table: a
class 23 code is a constraint problem, a class 08 code a connection problem,
a class 28 code a refused login that no retry can fix.  A generated table
that drifts from those meanings fails here, whatever the table says.
"""

from __future__ import annotations

import glob
from pathlib import Path

import pytest

from localdata_errors import classify_message
from localdata_errors._kinds import Action, ErrorCategory

C = ErrorCategory

# The categories a code of each class may fall in, by the class's meaning.
ALLOWED: dict[str, frozenset[ErrorCategory]] = {
    # 08 connection exception: the connection failed or was lost.
    "08": frozenset({C.CONNECTION_ERROR}),
    # 0L invalid grantor, 28 invalid authorization specification.
    "0L": frozenset({C.AUTH_ERROR}),
    "28": frozenset({C.AUTH_ERROR}),
    # 22 data exception: a value is wrong for its type or operation.
    "22": frozenset({C.QUERY_EXECUTION}),
    # 23 integrity constraint violation, 2B dependent privilege descriptors
    # still exist, 44 WITH CHECK OPTION violation.
    "23": frozenset({C.CONSTRAINT_ERROR}),
    "2B": frozenset({C.CONSTRAINT_ERROR}),
    "44": frozenset({C.CONSTRAINT_ERROR}),
    # 25 invalid transaction state: mostly the statement, but a read-only
    # transaction refuses (auth) and an idle-in-transaction timeout ends the
    # session (connection).
    "25": frozenset({C.QUERY_EXECUTION, C.AUTH_ERROR, C.CONNECTION_ERROR}),
    # 26 invalid SQL statement name, 34 invalid cursor name, 3D invalid
    # catalog name, 3F invalid schema name: something named does not exist.
    "26": frozenset({C.SCHEMA_ERROR}),
    "34": frozenset({C.SCHEMA_ERROR}),
    "3D": frozenset({C.SCHEMA_ERROR}),
    "3F": frozenset({C.SCHEMA_ERROR}),
    # 40 transaction rollback: a concurrency outcome, or one to check first.
    "40": frozenset({C.TRANSIENT_ERROR, C.QUERY_EXECUTION}),
    # 42 syntax error or access rule violation.
    "42": frozenset({C.SYNTAX_ERROR, C.SCHEMA_ERROR, C.AUTH_ERROR, C.QUERY_EXECUTION}),
    # 53 insufficient resources, 54 program limit exceeded.
    "53": frozenset({C.RESOURCE_ERROR}),
    "54": frozenset({C.RESOURCE_ERROR}),
    # 57 operator intervention: canceled, shut down, or the database dropped.
    "57": frozenset({C.TRANSIENT_ERROR, C.CONNECTION_ERROR, C.SCHEMA_ERROR}),
    # 58 system error (errors external to PostgreSQL itself): I/O, files.
    "58": frozenset({C.RESOURCE_ERROR, C.SCHEMA_ERROR}),
}

# Classes whose every code is about the connection, the login, or a
# constraint: the next step follows from the class alone.
ACTIONS: dict[str, frozenset[Action]] = {
    "08": frozenset({Action.RECONNECT, Action.RETRY}),
    "28": frozenset({Action.STOP}),
    "23": frozenset({Action.FIX_QUERY}),
    "22": frozenset({Action.FIX_QUERY}),
}

# Codes whose meaning, by their condition name, decides the next step.
BY_NAME: dict[str, tuple[Action, bool]] = {
    "serialization_failure": (Action.RETRY, True),
    "deadlock_detected": (Action.RETRY, True),
    "statement_completion_unknown": (Action.RETRY, True),
    "invalid_password": (Action.STOP, False),
    "insufficient_privilege": (Action.STOP, False),
    "read_only_sql_transaction": (Action.STOP, False),
    "too_many_connections": (Action.RETRY, True),
    "admin_shutdown": (Action.RECONNECT, True),
    "undefined_table": (Action.FIX_QUERY, False),
    "syntax_error": (Action.FIX_QUERY, False),
}


def _errcodes() -> list[tuple[str, str]]:
    """(SQLSTATE, condition name) for every error code PostgreSQL lists."""
    found = sorted(glob.glob("/usr/share/postgresql/*/errcodes.txt"))
    if not found:
        return []
    codes = []
    for line in Path(found[-1]).read_text(encoding="utf-8").splitlines():
        parts = line.split()
        # "23505    E    ERRCODE_UNIQUE_VIOLATION    unique_violation"
        if len(parts) >= 4 and len(parts[0]) == 5 and parts[1] == "E":
            codes.append((parts[0], parts[3]))
    return codes


CODES = _errcodes()

needs_list = pytest.mark.skipif(
    not CODES, reason="PostgreSQL's errcodes.txt is not installed (apt install postgresql)"
)


@needs_list
def test_the_list_is_postgresqls_whole_list() -> None:
    assert len(CODES) > 200
    assert ("23505", "unique_violation") in CODES


@needs_list
@pytest.mark.parametrize(("sqlstate", "name"), CODES, ids=[c for c, _ in CODES])
def test_each_code_falls_in_its_class(sqlstate: str, name: str) -> None:
    answer = classify_message(f"ERROR:  {name.replace('_', ' ')}", "postgresql", code=sqlstate)
    assert answer.database_error_code == sqlstate
    allowed = ALLOWED.get(sqlstate[:2])
    if allowed is not None:
        assert answer.error_type in allowed, (sqlstate, name, answer.kind)
    actions = ACTIONS.get(sqlstate[:2])
    if actions is not None:
        assert answer.action in actions, (sqlstate, name, answer.kind)
    if name in BY_NAME:
        action, retryable = BY_NAME[name]
        assert (answer.action, answer.is_retryable) == (action, retryable), (sqlstate, name)
    # A code the server defines is never answered as a connection problem
    # outside the classes that mean one.
    if answer.error_type is C.CONNECTION_ERROR:
        assert sqlstate[:2] in {"08", "25", "57", "HV"}, (sqlstate, name)
