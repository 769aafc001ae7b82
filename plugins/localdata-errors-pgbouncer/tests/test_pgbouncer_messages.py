"""
Every message PgBouncer's source sends, as psycopg and asyncpg raise it; Supavisor's coded errors.

PgBouncer sends its errors under SQLSTATE 08P01: at connect time libpq
reports them as text (``... failed: FATAL:  <message>``), afterwards the
driver raises its 08P01 class with the message.  Supavisor sends
``(CODE) message`` under XX000 (or the SQLSTATE it names).  The exceptions are
built as the drivers build them from the server's reply.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from localdata_errors_pgbouncer import _messages

from localdata_errors import Kind, classify_error, classify_message

psycopg = pytest.importorskip("psycopg")
asyncpg = pytest.importorskip("asyncpg")

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def _connect_failure(message: str) -> BaseException:
    # psycopg's text for a refused connection: libpq's, with the server's FATAL.
    return psycopg.OperationalError(
        f'connection failed: connection to server at "127.0.0.1", port 6432 failed: '
        f"FATAL:  {message}"
    )


def _asyncpg(code: str, message: str, severity: str = "FATAL") -> BaseException:
    exc: BaseException = asyncpg.exceptions.PostgresError.new(
        {"S": severity, "V": severity, "C": code, "M": message}
    )
    return exc


def _filled(template: str) -> str:
    return template.replace("%s", "x")


@pytest.mark.parametrize("template", sorted(_messages.RULES))
def test_every_classified_message_is_recognised(template: str) -> None:
    kind, safety, after_ms = _messages.RULES[template]
    message = _filled(template)
    for exc in (
        psycopg.errors.lookup("08P01")(message),
        _connect_failure(message),
        _asyncpg("08P01", message),
    ):
        answer = classify_error(exc)
        assert (answer.backend, answer.kind) == ("pgbouncer", kind), exc
        if safety is not None:
            assert answer.retry_safety == safety
        if after_ms is not None:
            assert answer.retry_after_ms == after_ms


@pytest.mark.parametrize(
    "template",
    sorted(m for m in {*_messages.MESSAGES, *_messages.SERVER_REASONS} if m not in _messages.RULES),
)
def test_messages_left_to_postgresql_stay_there(template: str) -> None:
    answer = classify_error(psycopg.errors.lookup("08P01")(_filled(template)))
    assert answer.backend == "postgresql"


def test_every_message_of_the_source_has_a_decision() -> None:
    # The generator refuses to write a table with an undecided message; the
    # generated table and the rules in the generator agree.
    result = subprocess.run(
        [sys.executable, str(TOOLS / "generate_messages.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_messages", TOOLS / "generate_messages.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generator_reads_the_reasons_servers_are_closed_for(tmp_path: Path) -> None:
    # disconnect_server(server, send_term, reason, ...): the reason is what the
    # linked client is told, whatever send_term says; its definition, a
    # variable reason and a bare "%s" are no messages.
    (tmp_path / "configure.ac").write_text("AC_INIT([PgBouncer], [1.99.0], [x])\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "objects.c").write_text(
        "void disconnect_server(PgSocket *server, bool send_term, const char *reason, ...)\n"
        "{ }\n"
        'static void f(void) { disconnect_server(server, false, "server conn crashed?");\n'
        '  disconnect_server(server, true, "expected 2 columns, not %hu", columns);\n'
        '  disconnect_server(server, true, "%s", reason);\n'
        "  disconnect_server(server, true, reason);\n"
        '  disconnect_client(client, true, "query_wait_timeout"); }\n'
    )
    release, messages, reasons = _generator().pgbouncer_messages(tmp_path)
    assert (release, messages) == ("1.99.0", {"query_wait_timeout"})
    assert reasons == {"server conn crashed?", "expected 2 columns, not %s"}


def test_relayed_login_failure_is_read_as_postgresql_would() -> None:
    # PgBouncer passes a server's refusal to waiting clients under its 08P01.
    exc = psycopg.errors.lookup("08P01")('database "gone" does not exist')
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.action) == (
        "pgbouncer",
        Kind.UNDEFINED_DATABASE,
        "stop",
    )
    # A protocol violation PostgreSQL itself reports stays PostgreSQL's.
    plain = classify_error(psycopg.errors.lookup("08P01")("invalid frontend message type 0"))
    assert plain.backend == "postgresql"


def test_older_pgbouncer_wording() -> None:
    answer = classify_error(_connect_failure("pgbouncer cannot connect to server"))
    assert (answer.kind, answer.action, answer.retry_safety) == (
        Kind.CONNECTION_FAILURE,
        "reconnect",
        "safe",
    )
    assert answer.retry_after_ms == 15000  # server_login_retry's default


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # PgBouncer 1.9 to 1.17's own words (src/client.c at their tags): a login
        # its auth_file does not list, a database paused with DISABLE, TLS refused.
        ('psql: error: connection to server at "db", port 6432 failed: FATAL:  no such user: app',
         Kind.INVALID_AUTHORIZATION),
        ("ERROR:  database does not allow connections: app", Kind.INVALID_AUTHORIZATION),
        ("FATAL:  TLS connection required", Kind.CONNECTION_MISCONFIGURED),
    ],
)  # fmt: skip
def test_the_wording_of_releases_before_1_18(text: str, kind: Kind) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.kind) == ("pgbouncer", kind)
    assert set(_messages.MESSAGES[_template(text)]) <= {"1.9.0", "1.12.0", "1.15.0", "1.17.0"}


def _template(text: str) -> str:
    """The message template a text's tail fills."""
    return next(t for t in _messages.MESSAGES if text.endswith(t.replace("%s", "app")))


# -- Supavisor --------------------------------------------------------------------------------

SUPAVISOR_CASES: list[tuple[str, str, Kind, str, str]] = [
    # (SQLSTATE, message as Supavisor sends it, kind, action, retry safety)
    ("XX000", "(EMAXCONN) max client connections reached, limit: 200",
     Kind.TOO_MANY_CONNECTIONS, "retry", "safe"),
    ("XX000", "(EMAXCONNSESSION) max clients reached in session mode - max clients are "
     "limited to pool_size: 15", Kind.TOO_MANY_CONNECTIONS, "retry", "safe"),
    ("XX000", "(ENOTFOUND) tenant/user postgres.abcdefghij not found",
     Kind.INVALID_AUTHORIZATION, "stop", "not_applicable"),
    ("28P01", '(EWRONGPASSWORD) password authentication failed for user "postgres"',
     Kind.INVALID_PASSWORD, "stop", "not_applicable"),
    ("XX000", "(ECHECKOUTTIMEOUT) unable to check out connection from the pool after "
     "5000ms in Transaction mode", Kind.TOO_MANY_CONNECTIONS, "retry", "safe"),
    ("42P05", '(EPREPAREDDUP) prepared statement "s1" already exists',
     Kind.CONNECTION_MISCONFIGURED, "stop", "not_applicable"),
    ("XX000", "(EDBHANDLEREXITED) connection to database closed. Check logs for more "
     "information", Kind.CONNECTION_LOST, "reconnect", "idempotent_only"),
    ("XX000", "(ENOIDENTIFIER) no tenant identifier provided (external_id or sni_hostname "
     "required)", Kind.CONNECTION_MISCONFIGURED, "stop", "not_applicable"),
    # Supavisor's wording before it coded its errors.
    ("XX000", "Max client connections reached", Kind.TOO_MANY_CONNECTIONS, "retry", "safe"),
    ("XX000", "Tenant or user not found", Kind.INVALID_AUTHORIZATION, "stop", "not_applicable"),
]  # fmt: skip


@pytest.mark.parametrize(("state", "message", "kind", "action", "safety"), SUPAVISOR_CASES)
def test_supavisor(state: str, message: str, kind: Kind, action: str, safety: str) -> None:
    for exc in (_connect_failure(message), _asyncpg(state, message)):
        answer = classify_error(exc)
        assert (answer.backend, answer.kind) == ("supavisor", kind), exc
        assert (answer.action, answer.retry_safety) == (action, safety)
    code = message[1:].split(")", maxsplit=1)[0] if message.startswith("(") else None
    if code is not None:
        assert classify_error(_asyncpg(state, message)).database_error_code == code


def test_supavisor_named_takes_pooled_prepared_statements() -> None:
    exc = psycopg.errors.lookup("26000")('prepared statement "s0" does not exist')
    assert classify_error(exc).backend == "postgresql"  # Prisma's name: not detected
    named = classify_error(exc, db_type="supavisor")
    assert (named.backend, named.kind, named.action) == (
        "supavisor",
        Kind.CONNECTION_MISCONFIGURED,
        "stop",
    )


def test_plain_postgresql_errors_are_left_alone() -> None:
    for code, message in (
        ("42P01", 'relation "orders" does not exist'),
        ("40001", "could not serialize access due to concurrent update"),
        ("53300", "sorry, too many clients already"),
    ):
        assert classify_message(message, "postgresql", code=code).backend == "postgresql"


def test_message_only_input() -> None:
    answer = classify_message("no more connections allowed (max_client_conn)", "pgbouncer")
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.TOO_MANY_CONNECTIONS)


@pytest.mark.parametrize(
    ("text", "code", "kind"),
    [
        # Supavisor's messages as PostgreSQL clients print them
        # (https://supabase.com/docs/guides/database/supavisor; the texts of
        # supabase/supavisor's lib/supavisor/errors): pgx and Prisma's one-space
        # "FATAL: ", node-postgres's "error: ", a wrapper's prefix, none.
        ("FATAL: Tenant or user not found", "ENOTFOUND", Kind.INVALID_AUTHORIZATION),
        (
            "Error querying the database: FATAL: Tenant or user not found",
            "ENOTFOUND",
            Kind.INVALID_AUTHORIZATION,
        ),
        (
            "server error (FATAL: Tenant or user not found (SQLSTATE XX000))",
            "ENOTFOUND",
            Kind.INVALID_AUTHORIZATION,
        ),
        ("Error: FATAL: Tenant not found", "ENOTFOUND", Kind.INVALID_AUTHORIZATION),
        (
            "FATAL: Address not in tenant allow_list: {14, 191, 33, 93}",
            "EADDRNOTALLOWED",
            Kind.INVALID_AUTHORIZATION,
        ),
        (
            "error: Max client connections reached\n    at Parser.parseErrorMessage",
            "EMAXCONN",
            Kind.TOO_MANY_CONNECTIONS,
        ),
    ],
)
def test_supavisor_as_clients_print_it(text: str, code: str, kind: Kind) -> None:
    answer = classify_message(text, "postgresql")
    assert (answer.backend, answer.database_error_code, answer.kind) == ("supavisor", code, kind)


def test_supavisor_wording_inside_a_word_is_not_claimed() -> None:
    answer = classify_message('relation "xtenant or user not found" does not exist', "postgresql")
    assert answer.backend == "postgresql"


def test_pgbouncer_log_line_of_a_disconnected_client() -> None:
    # PgBouncer logs "pooler error: <reason>" for a client it disconnects;
    # client_login_timeout: the client did not log in within that time
    # (https://www.pgbouncer.org/config.html#client_login_timeout).
    line = (
        "2019-12-11 10:19:10.557 24802 WARNING C-0x1ee0ef0: (nodb)/(nouser)@10.11.1.107:11048 "
        "Pooler Error: client_login_timeout"
    )
    answer = classify_message(line, "postgresql")
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.CONNECTION_FAILURE)


@pytest.mark.parametrize("code", sorted(_messages.SUPAVISOR_RULES))
def test_a_supavisor_code_alone_is_answered_as_its_printed_error(code: str) -> None:
    # Supavisor prints "(CODE) message"; given only the code (a log's field, a
    # client's error code), the answer is the same, the code kept.
    printed = classify_message(f"FATAL: ({code}) the pooler refused", "postgresql")
    for given in (code, code.lower(), f" {code} "):
        alone = classify_message("", db_type="supavisor", code=given)
        assert alone.database_error_code == code
        assert (alone.backend, alone.kind, alone.action, alone.retry_safety) == (
            printed.backend,
            printed.kind,
            printed.action,
            printed.retry_safety,
        )


def test_pasted_through_psycopg2() -> None:
    # libpq's "ERROR:  " (two spaces) before PgBouncer's message
    # (pgbouncer/pgbouncer#293).
    answer = classify_message(
        "psycopg2.OperationalError: ERROR:  no more connections allowed (max_client_conn)"
    )
    assert (answer.backend, answer.kind) == ("pgbouncer", Kind.TOO_MANY_CONNECTIONS)
