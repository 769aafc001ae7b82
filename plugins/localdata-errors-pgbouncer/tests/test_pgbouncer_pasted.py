"""
PgBouncer texts pasted alone, as users posted them: the pack's signs name PgBouncer.

Each text is a real one (the address above it), labelled from PgBouncer's own
documentation of the code or message (the core's `tests/text_corpus`).
"""

from __future__ import annotations

import pytest

from localdata_errors import Kind, classify_message
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
    # https://www.fixwikihub.com/articles/fix-pgbouncer-connection-pool-exhausted
    # (the severity with one blank, as pgjdbc and logs print it)
    ("ERROR: no more connections allowed (max_client_conn)", None, Kind.TOO_MANY_CONNECTIONS),
    # PgBouncer's own log lines (its log_*/slog_* formats, generated from its source).
    # https://github.com/pgbouncer/pgbouncer/issues/46 (up to 1.7: "<pid> LEVEL <message>")
    (
        '2015-04-20 19:36:42.886 29835 WARNING server login failed: FATAL database "iii" '
        "does not exist",
        None,
        Kind.UNDEFINED_DATABASE,
    ),
    # https://github.com/pgbouncer/pgbouncer/issues/988
    (
        "2023-11-28 20:26:37.397 UTC [14907] LOG C-0x56384fed3ea0: (nodb)/(nouser)"
        "@10.23.34.56:54596 no such user: this-is-my-db",
        None,
        Kind.INVALID_AUTHORIZATION,
    ),
    # https://github.com/pgbouncer/pgbouncer/issues/423 ("closing because: <its reason>")
    (
        "2019-10-30 11:14:58.916 EDT [1195] LOG C-0x562873edaf90: dbcred/devel@127.0.0.1:50486 "
        "closing because: pgbouncer cannot connect to server (age=0s)",
        None,
        Kind.CONNECTION_FAILURE,
    ),
]


# The reason PgBouncer closes a server connection for, sent to the client
# linked to it (disconnect_server -> unlink_server in src/objects.c).
RELAYED_CASES = [
    # https://github.com/pgbouncer/pgbouncer/issues/1355: the server connection
    # failed under a running query; PgBouncer's maintainers read "server conn
    # crashed?" as the connection to PostgreSQL dropped (#1239, #1092).
    (
        "FATAL:  server conn crashed?\nserver closed the connection unexpectedly",
        Kind.CONNECTION_LOST,
        "idempotent_only",
    ),
    # https://github.com/pgbouncer/pgbouncer/issues/714 (Npgsql prints "SQLSTATE: message")
    ("Npgsql.PostgresException (0x80004005): 08P01: server conn crashed?", Kind.CONNECTION_LOST,
     "idempotent_only"),
    # https://github.com/brianc/node-postgres/issues/2005 (node-postgres, code 08P01)
    (
        "Error: server conn crashed?\n    at /srv/node_modules/pg/lib/native/client.js:210:25",
        Kind.CONNECTION_LOST,
        "idempotent_only",
    ),
    # https://github.com/pgbouncer/pgbouncer/issues/347 (PgBouncer's log of the client it closed)
    (
        "2018-12-10 20:56:59.349 8659 WARNING C-0x1b44e68: ckandb/ckandb_user@127.0.0.1:46198 "
        "pooler error: server conn crashed?",
        Kind.CONNECTION_LOST,
        "idempotent_only",
    ),
    # https://github.com/pgbouncer/pgbouncer/issues/22: query_timeout (config.html)
    # cancels a query running longer, by closing the connection (#385).
    ("SQL: select 1\nERROR:  query timeout\nERROR:  query timeout", Kind.CONNECTION_LOST,
     "idempotent_only"),
    # https://github.com/pgbouncer/pgbouncer/issues/125: idle_transaction_timeout
    # (config.html) disconnects a client "idle in transaction": no statement ran.
    ("psql:/var/lib/pgsql/test-idle.sql:2: ERROR:  idle transaction timeout",
     Kind.CONNECTION_LOST, "safe"),
    # https://github.com/pgjdbc/pgjdbc/issues/2423: pool_mode statement (config.html),
    # "transactions spanning multiple statements are disallowed in this mode".
    ("org.postgresql.util.PSQLException: FATAL: transaction blocks not allowed in statement "
     "pooling mode", Kind.FEATURE_NOT_SUPPORTED, "not_applicable"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kind", "safety"), RELAYED_CASES)
def test_a_relayed_reason_names_pgbouncer(text: str, kind: Kind, safety: str) -> None:
    assert check_pasted_text(text, "pgbouncer", kind) == []
    assert classify_message(text).retry_safety == safety


@pytest.mark.parametrize(("text", "code", "kind"), CASES)
def test_a_pasted_text_names_pgbouncer(text: str, code: str | None, kind: Kind) -> None:
    assert check_pasted_text(text, "pgbouncer", kind, code) == []


# Supavisor's wording before it coded its errors (its client_handler.ex and
# helpers.ex at 357ca080), as users posted it.
SUPAVISOR_CASES = [
    # https://github.com/supabase/cli/issues/2440
    (
        "2024-07-02 12:26:39 16:26:39.435 region=local [error] ClientHandler: User not found: "
        '"Either external_id or sni_hostname must be provided" {:single, "supabase_admin", nil}',
        Kind.INVALID_AUTHORIZATION,
    ),
    # https://github.com/ski043/airbnb-yt/issues/1
    (
        'Error querying the database: FATAL: Authentication error, reason: "There is no user '
        "'p ostgres' in the database. Please create it or change the user in the config\"",
        Kind.INVALID_AUTHORIZATION,
    ),
]


@pytest.mark.parametrize(("text", "kind"), SUPAVISOR_CASES)
def test_a_pasted_text_names_supavisor(text: str, kind: Kind) -> None:
    assert check_pasted_text(text, "supavisor", kind) == []


def test_a_postgresql_log_line_is_not_pgbouncer() -> None:
    # PostgreSQL's own log prints "LOG:  " (a colon): not PgBouncer's format.
    text = '2024-01-01 10:00:00.000 UTC [42] FATAL:  database "iii" does not exist'
    assert check_pasted_text(text, "postgresql", Kind.UNDEFINED_DATABASE) == []
