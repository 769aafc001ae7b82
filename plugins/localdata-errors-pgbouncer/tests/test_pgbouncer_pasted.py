"""
PgBouncer texts pasted alone, as users posted them: the pack's signs name PgBouncer.

Each text is a real one (the address above it), labelled from PgBouncer's own
documentation of the code or message (the core's `tests/text_corpus`).
"""

from __future__ import annotations

import pytest

from localdata_errors import Kind
from localdata_errors.testing import check_pasted_text

# (text, the code it carries or its wording gives, the kind its label gives)
CASES = [
    # https://github.com/pgbouncer/pgbouncer/issues/189
    (
        "PG::ConnectionBad: ERROR:  No such database: postgres",
        None,
        Kind.UNDEFINED_DATABASE,
    ),
    # https://github.com/pgbouncer/pgbouncer/issues/150
    (
        "2016-10-12 14:51:49.945 27782 WARNING C-0x74d9a0: (nodb)/(no"
        "user)@127.0.0.1:48680 Pooler Error: No such database: josh",
        None,
        Kind.UNDEFINED_DATABASE,
    ),
    # https://github.com/pgbouncer/pgbouncer/issues/937
    (
        'psql: error: connection to server at "external-pgbouncer-ip"'
        ", port nodeport failed: FATAL:  no such database: db_test",
        None,
        Kind.UNDEFINED_DATABASE,
    ),
]


@pytest.mark.parametrize(("text", "code", "kind"), CASES)
def test_a_pasted_text_names_pgbouncer(text: str, code: str | None, kind: Kind) -> None:
    assert check_pasted_text(text, "pgbouncer", kind, code) == []
