"""
Real errors from the running PostgreSQL server, through every PostgreSQL driver.

The cases and their expectations live in :mod:`tests.corpus.postgresql`,
shared with the accuracy benchmark; each is triggered here once per driver
(psycopg 3, psycopg2, asyncpg, and SQLAlchemy over each) and every part of
the answer a caller relies on is checked.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from localdata_errors import KIND_TABLE, Action, ErrorCategory, Kind, RetrySafety, classify_error
from localdata_errors.backends.postgresql import fatal_sqlstate
from tests.conftest import require_module
from tests.corpus import CorpusCase, score
from tests.corpus.postgresql import (
    CASES,
    CONNECT_TIMEOUT,
    DRIVERS,
    HOST,
    Context,
    Driver,
    Instance,
    PgCase,
    start_instance,
    trigger,
)

pytestmark = pytest.mark.postgresql

PAIRS = [
    pytest.param(case, driver, id=f"{case.name}-{driver.name}")
    for case in CASES
    for driver in DRIVERS
    if case.applies_to(driver)
]


@pytest.fixture(scope="module")
def ctx(pg_server: dict[str, object]) -> Iterator[Context]:
    """This module's own schema and roles (and throwaway instance), dropped afterwards."""
    require_module("psycopg")
    context = Context().open()
    try:
        yield context
    finally:
        context.close()


def _require(driver: Driver) -> None:
    require_module(driver.module)
    if driver.name.startswith("sqlalchemy"):
        require_module("sqlalchemy")
    if driver.name == "sqlalchemy+asyncpg":
        require_module("greenlet")


def test_at_least_forty_distinct_cases() -> None:
    assert len({case.name for case in CASES}) == len(CASES) >= 40


@pytest.mark.parametrize(("case", "driver"), PAIRS)
def test_real_error_is_classified(ctx: Context, case: PgCase, driver: Driver) -> None:
    _require(driver)
    exc = trigger(ctx, case, driver)
    expected = case.expected_for(driver)
    answer = classify_error(exc, db_type=case.db_type.get(driver.name))
    got = (
        answer.kind,
        answer.database_error_code,
        answer.affected_resources,
        answer.dependencies,
        answer.constraint,
        answer.schema,
        answer.message,
    )

    assert answer.kind is expected.kind, got
    info = KIND_TABLE[expected.kind]
    assert answer.error_type is info.category, got
    assert answer.is_retryable is info.retryable, got
    if expected.code is not None:
        assert answer.database_error_code == expected.code, got
    for name in expected.resources:
        assert name in answer.affected_resources, got
    for name in expected.dependencies:
        assert name in answer.dependencies, got
    # A table blocked by dependents is never its own dependency, and vice versa.
    assert not set(answer.dependencies) & set(expected.resources), got
    if expected.constraint is not None:
        assert answer.constraint == expected.constraint, got
    # The message is the driver's own text, not a paraphrase.
    assert answer.message.split("\n")[0].strip() in str(exc) or answer.message in str(exc), got
    # The scorer of the accuracy benchmark agrees.
    assert score(CorpusCase("postgresql", driver.name, case.name, exc, expected), answer).all


def test_qualified_name_keeps_case_and_reports_schema(ctx: Context) -> None:
    case = next(c for c in CASES if c.name == "undefined_table_qualified_mixed_case")
    for driver in DRIVERS:
        _require(driver)
        answer = classify_error(trigger(ctx, case, driver))
        assert answer.affected_resources == ("Orders",), driver.name
        assert answer.schema == f"{ctx.schema}_empty", driver.name


def test_detected_without_db_type_from_the_driver_module(ctx: Context) -> None:
    case = next(c for c in CASES if c.name == "foreign_key_child_insert")
    for driver in DRIVERS:
        _require(driver)
        answer = classify_error(trigger(ctx, case, driver))
        assert answer.backend == "postgresql", driver.name
        assert answer.database == "postgresql", driver.name
        assert answer.sqlstate == "23503", driver.name
        # The key columns of the DETAIL are data, not resources.
        assert "customer_id" not in answer.affected_resources, driver.name
        tool = answer.to_tool_error()
        assert tool["error_type"] == "foreign_key_constraint", driver.name
        assert tool["dependencies"] == ["customers"], driver.name


def test_fatal_start_up_errors_keep_the_servers_code(ctx: Context) -> None:
    # libpq reports a refused start-up as text; the answer still carries the
    # SQLSTATE the server sent, like asyncpg's, so every driver agrees.
    case = next(c for c in CASES if c.name == "unknown_database")
    codes = set()
    for driver in DRIVERS:
        _require(driver)
        answer = classify_error(trigger(ctx, case, driver))
        codes.add(answer.database_error_code)
        assert answer.kind is Kind.UNDEFINED_DATABASE
    assert codes == {"3D000"}


def test_transaction_aborted_says_roll_back(ctx: Context) -> None:
    case = next(c for c in CASES if c.name == "transaction_aborted")
    for driver in DRIVERS:
        _require(driver)
        answer = classify_error(trigger(ctx, case, driver))
        assert answer.error_type is not ErrorCategory.TRANSIENT_ERROR
        assert answer.suggested_actions[0].startswith("ROLLBACK")


# -- the server's start-up FATALs, for real -------------------------------------------
#
# Each refusal is triggered through psycopg 3 and psycopg2 (libpq's text, no
# SQLSTATE: the backend's table of the server's start-up messages answers),
# asyncpg and pg8000 (the server's own fields).  The expected code is the
# server's condition for the refusal (errcodes.txt), and pg8000's raw field
# shows the server sends exactly that code.

START_UP_DRIVERS = ("psycopg", "psycopg2", "asyncpg", "pg8000")
# The refusals a retry can cure (a free slot later, a server back up).
_RETRYABLE = frozenset({Kind.TOO_MANY_CONNECTIONS, Kind.ADMIN_SHUTDOWN})


def _connect(driver: str, params: Mapping[str, object]) -> None:
    """Connect (and disconnect) through *driver*; the caller expects a refusal."""
    if driver == "pg8000":
        dbapi = require_module("pg8000.dbapi")
        timeout = float(str(params.get("connect_timeout", CONNECT_TIMEOUT)))
        # Our own socket, closed here: pg8000 leaves its own open when its
        # start-up times out.
        with socket.create_connection(
            (str(params["host"]), int(str(params["port"]))), timeout
        ) as sock:
            dbapi.connect(
                user=params["user"],
                database=params["dbname"],
                password=params.get("password"),
                sock=sock,
                timeout=timeout,
            ).close()
        return
    corpus_driver = next(d for d in DRIVERS if d.name == driver)
    _require(corpus_driver)
    corpus_driver.connect(params).close()


def _refusal(driver: str, params: Mapping[str, object], says: str = "") -> BaseException:
    """
    The exception of a connect that must fail; with *says*, the one whose text says it.

    A slot freed by the previous attempt's backend (it exits after its
    FATAL) may still be taken for a moment: such a connect is tried again.
    """
    deadline = time.monotonic() + 10
    while True:
        try:
            _connect(driver, params)
        except Exception as exc:  # any driver's refusal is the result
            if says in str(exc) or time.monotonic() > deadline:
                return exc
        else:
            pytest.fail(f"{driver} connected with {dict(params)}")
        time.sleep(0.05)


def _server_code(exc: BaseException) -> str:
    """The SQLSTATE field of the server's ErrorResponse, as pg8000 keeps it."""
    fields = exc.args[0]
    assert isinstance(fields, dict), exc
    return str(fields["C"])


def _check_refusal(driver: str, exc: BaseException, code: str, kind: Kind) -> None:
    answer = classify_error(exc)
    got = (driver, answer.kind, answer.database_error_code, answer.message)
    assert answer.backend == "postgresql", got
    assert answer.database_error_code == code, got
    assert answer.kind is kind, got
    assert answer.is_retryable is (kind in _RETRYABLE), got
    if kind not in _RETRYABLE:
        assert answer.action is Action.STOP, got
    if driver in {"psycopg", "psycopg2"}:
        assert "FATAL:  " in str(exc), got  # libpq's text: the table answered
        assert answer.sqlstate is None, got
    if driver == "pg8000":
        assert _server_code(exc) == code, got  # what the server sent


@dataclass(frozen=True)
class Refused:
    """Where the refusals of the main server are triggered: its roles and databases."""

    nologin: str
    no_more: str  # CONNECTION LIMIT 0
    plain: str
    closed_db: str  # ALLOW_CONNECTIONS false
    full_db: str  # CONNECTION LIMIT 0
    private_db: str  # CONNECT revoked from PUBLIC


@pytest.fixture(scope="module")
def refused(ctx: Context) -> Iterator[Refused]:
    prefix = f"lde_pg_{ctx.run_id}"
    names = Refused(*(f"{prefix}_{n}" for n in ("nl", "nomore", "plain", "closed", "full", "priv")))
    h = ctx.helper()
    try:
        h.execute(f"CREATE ROLE {names.nologin} NOLOGIN")
        h.execute(f"CREATE ROLE {names.no_more} LOGIN CONNECTION LIMIT 0")
        h.execute(f"CREATE ROLE {names.plain} LOGIN")
        h.execute(f"CREATE DATABASE {names.closed_db} ALLOW_CONNECTIONS false")
        h.execute(f"CREATE DATABASE {names.full_db} CONNECTION LIMIT 0")
        h.execute(f"CREATE DATABASE {names.private_db}")
        h.execute(f"REVOKE CONNECT ON DATABASE {names.private_db} FROM PUBLIC")
        yield names
    finally:
        for db in (names.closed_db, names.full_db, names.private_db):
            h.execute(f"DROP DATABASE IF EXISTS {db}")
        for role in (names.nologin, names.no_more, names.plain):
            h.execute(f"DROP ROLE IF EXISTS {role}")


MAIN_SERVER_REFUSALS = {
    # name: (settings, as the fixture's names give them; SQLSTATE; kind)
    "unknown_database": (
        lambda r: {"dbname": "lde_pg_no_such_database"},
        "3D000",
        Kind.UNDEFINED_DATABASE,
    ),
    "unknown_role": (
        lambda r: {"user": "lde_pg_no_such_role"},
        "28000",
        Kind.INVALID_AUTHORIZATION,
    ),
    "role_without_login": (lambda r: {"user": r.nologin}, "28000", Kind.INVALID_AUTHORIZATION),
    "role_connection_limit_0": (
        lambda r: {"user": r.no_more},
        "53300",
        Kind.TOO_MANY_CONNECTIONS,
    ),
    "database_not_allowing_connections": (
        lambda r: {"dbname": r.closed_db},
        "55000",
        Kind.INVALID_AUTHORIZATION,
    ),
    "database_connection_limit_0": (
        lambda r: {"user": r.plain, "dbname": r.full_db},
        "53300",
        Kind.TOO_MANY_CONNECTIONS,
    ),
    "database_without_connect_privilege": (
        lambda r: {"user": r.plain, "dbname": r.private_db},
        "42501",
        Kind.INSUFFICIENT_PRIVILEGE,
    ),
}


@pytest.mark.parametrize("driver", START_UP_DRIVERS)
@pytest.mark.parametrize("name", list(MAIN_SERVER_REFUSALS))
def test_start_up_refusal_of_the_main_server(
    ctx: Context, refused: Refused, name: str, driver: str
) -> None:
    settings, code, kind = MAIN_SERVER_REFUSALS[name]
    exc = _refusal(driver, ctx.params(**settings(refused)))
    _check_refusal(driver, exc, code, kind)


# A throwaway server that refuses in the ways the main one cannot: pg_hba.conf
# rules, two connection slots (one reserved for superusers), an invalid
# database, a role that logs in with a password in clear, an expired role.
_HBA = """\
local all all trust
host lde_rejected all 127.0.0.1/32 reject
host all postgres 127.0.0.1/32 trust
host all lde_user 127.0.0.1/32 trust
host all lde_clear 127.0.0.1/32 password
host all lde_expired 127.0.0.1/32 scram-sha-256
"""


@pytest.fixture(scope="module")
def refusing(ctx: Context) -> Iterator[Instance]:
    instance = start_instance(
        f"lde_pg_{ctx.run_id}_refusing_",
        hba=_HBA,
        settings={"max_connections": 2, "superuser_reserved_connections": 1},
    )
    try:
        psycopg = require_module("psycopg")
        with psycopg.connect(
            host=HOST, port=instance.port, user="postgres", dbname="postgres", autocommit=True
        ) as admin:
            admin.execute("CREATE ROLE lde_user LOGIN")
            admin.execute("CREATE ROLE lde_clear LOGIN PASSWORD 'secret'")
            admin.execute(
                "CREATE ROLE lde_expired LOGIN PASSWORD 'secret' VALID UNTIL '2000-01-01'"
            )
            # What an interrupted DROP DATABASE leaves: the server marks it so.
            admin.execute("CREATE DATABASE lde_invalid")
            admin.execute("UPDATE pg_database SET datconnlimit = -2 WHERE datname = 'lde_invalid'")
        yield instance
    finally:
        instance.stop()


def _on(instance: Instance, **settings: object) -> dict[str, object]:
    return {
        "host": HOST,
        "port": instance.port,
        "user": "postgres",
        "dbname": "postgres",
        **settings,
    }


@contextlib.contextmanager
def _holding(instance: Instance, *users: str) -> Iterator[None]:
    """Sessions of *users* held open on *instance* (each takes a slot)."""
    psycopg = require_module("psycopg")
    held = [_when_a_slot_is_free(psycopg, instance, user) for user in users]
    try:
        yield
    finally:
        for conn in held:
            conn.close()


def _when_a_slot_is_free(psycopg: Any, instance: Instance, user: str) -> Any:
    """
    A session of *user*, once the server has freed the slots of closed ones.

    A closed session's server process ends after the client has moved on:
    on a server of two slots, the next test's first connect can still find
    them taken ("remaining connection slots are reserved ...", "sorry, too
    many clients already").
    """
    deadline = time.monotonic() + 10
    while True:
        try:
            return psycopg.connect(**_on(instance, user=user))
        except psycopg.OperationalError as err:
            busy = "connection slots" in str(err) or "too many clients" in str(err)
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


THROWAWAY_REFUSALS = {
    # name: (settings, sessions held meanwhile, the server's text, SQLSTATE, kind)
    "pg_hba_reject": (
        {"dbname": "lde_rejected"},
        (),
        "pg_hba.conf rejects connection",
        "28000",
        Kind.INVALID_AUTHORIZATION,
    ),
    "no_pg_hba_entry": (
        {"user": "lde_nobody"},
        (),
        "no pg_hba.conf entry",
        "28000",
        Kind.INVALID_AUTHORIZATION,
    ),
    # The right password of an expired role: the server tells the client
    # only that the password failed (the expiry goes to its log).
    "expired_password": (
        {"user": "lde_expired", "password": "secret"},
        (),
        'password authentication failed for user "lde_expired"',
        "28P01",
        Kind.INVALID_PASSWORD,
    ),
    "invalid_database": (
        {"dbname": "lde_invalid"},
        (),
        "cannot connect to invalid database",
        "55000",
        Kind.UNDEFINED_DATABASE,
    ),
    "reserved_slots": (
        {"user": "lde_user"},
        ("lde_user",),
        "remaining connection slots are reserved",
        "53300",
        Kind.TOO_MANY_CONNECTIONS,
    ),
    "too_many_clients": (
        {},
        ("lde_user", "postgres"),
        "sorry, too many clients already",
        "53300",
        Kind.TOO_MANY_CONNECTIONS,
    ),
}


@pytest.mark.parametrize("driver", START_UP_DRIVERS)
@pytest.mark.parametrize("name", list(THROWAWAY_REFUSALS))
def test_start_up_refusal_of_a_throwaway_server(refusing: Instance, name: str, driver: str) -> None:
    settings, held, says, code, kind = THROWAWAY_REFUSALS[name]
    with _holding(refusing, *held):
        exc = _refusal(driver, _on(refusing, **settings), says)
    assert says in str(exc), exc
    _check_refusal(driver, exc, code, kind)


def test_the_servers_state_refuses_with_57p03(ctx: Context) -> None:
    # A standby that serves no reads, then a server shutting down (smart:
    # it waits for the session held open, refusing new ones meanwhile).
    standby = start_instance(
        f"lde_pg_{ctx.run_id}_standby_", standby=True, settings={"hot_standby": "off"}
    )
    try:
        for driver in START_UP_DRIVERS:
            exc = _refusal(driver, _on(standby), "the database system is not accepting")
            _check_refusal(driver, exc, "57P03", Kind.ADMIN_SHUTDOWN)
    finally:
        standby.stop()
    stopping = start_instance(f"lde_pg_{ctx.run_id}_stopping_")
    try:
        with _holding(stopping, "postgres"):
            stopping.pg_ctl("-m", "smart", "-W", "stop")
            for driver in START_UP_DRIVERS:
                exc = _refusal(driver, _on(stopping), "the database system is shutting down")
                _check_refusal(driver, exc, "57P03", Kind.ADMIN_SHUTDOWN)
    finally:
        stopping.stop()


# What only a client that breaks the protocol meets: the server's reply read
# from the socket, then classified as libpq would print it.
_SSL_REQUEST = struct.pack("!II", 8, 80877103)


def _startup(version: int = 196608, terminated: bool = True, **params: str) -> bytes:
    body = struct.pack("!I", version)
    body += b"".join(f"{k}\0{v}\0".encode() for k, v in params.items())
    body += b"\0" if terminated else b""
    return struct.pack("!I", len(body) + 4) + body


def _password(text: bytes) -> bytes:
    return b"p" + struct.pack("!I", len(text) + 4) + text


def _server_reply(port: int, first: bytes, password: bytes | None = None) -> tuple[str, str]:
    """The (SQLSTATE, message) of the server's ErrorResponse to what the client sends."""
    data = b""
    # The server answers an SSL request with one byte ("N": no SSL here) first.
    skip = 1 if first.startswith(_SSL_REQUEST) else 0
    with socket.create_connection((HOST, port), timeout=10) as sock:
        sock.sendall(first)
        while chunk := sock.recv(65536):
            data += chunk
            if password is not None and data[:1] == b"R":  # asked for the password
                sock.sendall(password)
                password = None
    data = data[skip:]
    while data:  # the replies: a type byte, a length, the body
        kind, length = data[:1], struct.unpack("!I", data[1:5])[0]
        body, data = data[5 : 1 + length], data[1 + length :]
        if kind == b"E":
            fields = {part[:1].decode(): part[1:].decode() for part in body.split(b"\0") if part}
            return fields["C"], fields["M"]
    pytest.fail("the server sent no error")


@pytest.mark.parametrize(
    ("sends", "code"),
    [
        (_startup(terminated=False, user="postgres"), "08P01"),  # invalid startup packet layout
        (_startup(database="postgres"), "28000"),  # no user name
        (_startup(version=(9 << 16) | 9, user="postgres"), "0A000"),  # unsupported protocol
        (_SSL_REQUEST + _startup(user="postgres"), "08P01"),  # unencrypted data after SSL
    ],
    ids=["startup_packet_layout", "no_user_name", "unsupported_protocol", "data_after_ssl_request"],
)
def test_protocol_refusals_keep_the_servers_code(
    refusing: Instance, sends: bytes, code: str
) -> None:
    server_code, message = _server_reply(refusing.port, sends)
    assert server_code == code, message
    text = f'connection to server at "{HOST}", port {refusing.port} failed: FATAL:  {message}'
    assert fatal_sqlstate(text) == code, text


@pytest.mark.parametrize(
    ("password", "code"),
    [(b"\0", "28P01"), (b"ab\0cd\0", "08P01")],
    ids=["empty_password", "password_packet_size"],
)
def test_password_packet_refusals_keep_the_servers_code(
    refusing: Instance, password: bytes, code: str
) -> None:
    hello = _startup(user="lde_clear", database="postgres")
    server_code, message = _server_reply(refusing.port, hello, _password(password))
    assert server_code == code, message
    text = f'connection to server at "{HOST}", port {refusing.port} failed: FATAL:  {message}'
    assert fatal_sqlstate(text) == code, text


# -- a slow start: the same trigger, two replies ------------------------------------------
#
# A backend that takes longer to start than the client waits (a cold or
# loaded machine) turns the server's verdict into the driver's own timeout.
# `pre_auth_delay` makes the start slow for sure: the backend sleeps before
# authentication, before it looks the database up.  (`post_auth_delay` sleeps
# after every start-up check, so it cannot delay a refusal.)


@pytest.fixture(scope="module")
def slow(ctx: Context) -> Iterator[Instance]:
    instance = start_instance(f"lde_pg_{ctx.run_id}_slow_", settings={"pre_auth_delay": 4})
    try:
        yield instance
    finally:
        instance.stop()


@pytest.mark.parametrize("driver", ["psycopg", "psycopg2"])
def test_a_slow_start_times_out_as_a_connection_failure(slow: Instance, driver: str) -> None:
    unknown = _on(slow, dbname="lde_pg_no_such_database")
    # The client gives up first: a connect that never completed.
    exc = _refusal(driver, {**unknown, "connect_timeout": 2})
    answer = classify_error(exc)
    got = (answer.kind, answer.retry_safety, str(exc))
    assert "FATAL" not in str(exc), got
    assert answer.kind is Kind.CONNECTION_FAILURE, got
    assert answer.is_retryable, got
    assert answer.retry_safety is RetrySafety.SAFE, got
    # Waiting long enough, the same trigger gets the server's verdict.
    exc = _refusal(driver, unknown)
    _check_refusal(driver, exc, "3D000", Kind.UNDEFINED_DATABASE)


@pytest.mark.parametrize("driver", ["asyncpg", "pg8000"])
def test_a_connect_timeout_of_the_other_drivers_is_a_connection_failure(
    slow: Instance, driver: str
) -> None:
    # Both let the socket's TimeoutError through, raised inside connect().
    exc = _refusal(driver, {**_on(slow), "connect_timeout": 1})
    assert isinstance(exc, TimeoutError), repr(exc)
    answer = classify_error(exc, db_type="postgresql")
    assert answer.kind is Kind.CONNECTION_FAILURE, repr(exc)
    assert answer.retry_safety is RetrySafety.SAFE, repr(exc)
