"""
libpq's own messages, read from the catalogue libpq ships, and real ones.

The messages come from the `libpq5` message catalogues at test time (their
msgids are the English texts), filled in as libpq fills its placeholders and
wrapped as psycopg and psycopg2 show them.  What each must be answered with
is decided here by what the message says (its words), not by the generated
table: a lost session is reconnected and only an idempotent call repeated, a
connection that never started is safe to retry, settings that cannot work
stop.  Then the same messages, raised for real by psycopg and psycopg2
against the local server.
"""

from __future__ import annotations

import glob
import importlib.util
import re
import socket
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import classify_error, classify_message
from localdata_errors._kinds import Action, ErrorCategory, RetrySafety
from localdata_errors.backends import _postgresql_client as client
from localdata_errors.backends._libpq_kinds import kind_of
from localdata_errors.backends._libpq_messages import MESSAGES as LIBPQ
from localdata_errors.backends._postgresql_fatal import MESSAGES as FATAL
from localdata_errors.backends.postgresql import libpq_kind
from tests.conftest import require_module

ROOT = Path(__file__).resolve().parents[2]


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location(
        "generate_libpq_messages", ROOT / "tools" / "generate_libpq_messages.py"
    )
    assert spec is not None
    assert spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def _msgids() -> list[str]:
    tool = _generator()
    found: set[str] = set()
    for path in sorted(glob.glob("/usr/share/locale/*/LC_MESSAGES/libpq5-*.mo")):
        found.update(tool.read_msgids(path))
    return sorted(found)


MSGIDS = _msgids()
needs_catalogue = pytest.mark.skipif(
    not MSGIDS, reason="libpq's message catalogue is not installed (apt install libpq5)"
)

# What the message says, in its own words -> what must follow.
LOST = re.compile(
    r"closed the connection unexpectedly|has been closed unexpectedly|SSL SYSCALL"
    r"|could not (?:receive|send) data|write to server failed|lost synchronization"
    r"|no connection to the server|connection not open"
)
NEVER_STARTED = re.compile(
    r"could not connect to server|Is the server running|could not send startup packet"
    r"|^timeout expired|could not create socket|during startup|hot standby mode"
)
CANNOT_WORK = re.compile(
    r"certificate|private key|sslmode|channel binding|service file|LDAP|\bURI\b"
    r"|invalid connection option|invalid port number|not supported\n?$|SCRAM|SASL"
    r"|must be specified|compiled in|requirepeer|does not exist",
    re.IGNORECASE,
)
CONNECTION_WORDS = re.compile(
    r"\b(?:server|connection|socket|SSL|authentication|timeout)\b", re.IGNORECASE
)
# The application's use of libpq's API, not the connection: not judged here.
API_USE = re.compile(
    r"COPY|pipeline|lo_|PQ|large object|password file|encrypt password|row description"
    r"|result from server|too much data|memory corruption|oversize|\(\"[DTt]\" message\)"
    r"|password_encryption|password encryption",
)


def _filled(msgid: str) -> str:
    """The message as libpq prints it: placeholders filled, first line kept whole."""
    text = re.sub(r"%(?:\d+\$)?[-0-9.]*(?:l|ll|z|h)?[sdiucmxXp]", "x1", msgid)
    return text.replace("%%", "%").strip()


JUDGED = [
    m
    for m in MSGIDS
    if CONNECTION_WORDS.search(m.split("\n")[0]) and not API_USE.search(m) and len(m) > 16
]


@needs_catalogue
def test_the_catalogue_is_libpqs() -> None:
    assert len(MSGIDS) > 250
    assert "no connection to the server\n" in MSGIDS
    assert len(JUDGED) > 60


@needs_catalogue
@pytest.mark.parametrize("msgid", JUDGED, ids=[m[:50] for m in JUDGED])
@pytest.mark.parametrize("framing", ["{}", "psycopg.OperationalError: {}", "{}\n"])
def test_each_connection_message_of_libpq(msgid: str, framing: str) -> None:
    text = framing.format(_filled(msgid))
    answer = classify_message(text, "postgresql")
    assert answer.error_type in {
        ErrorCategory.CONNECTION_ERROR,
        ErrorCategory.AUTH_ERROR,
        ErrorCategory.RESOURCE_ERROR,
    }, (text, answer.kind)
    if LOST.search(msgid):
        assert answer.action is Action.RECONNECT, text
        assert answer.retry_safety is RetrySafety.IDEMPOTENT_ONLY, text
    elif NEVER_STARTED.search(msgid):
        assert answer.is_retryable, text
        assert answer.retry_safety is RetrySafety.SAFE, text
    elif CANNOT_WORK.search(msgid):
        assert answer.action is Action.STOP, text
        assert not answer.is_retryable, text


@needs_catalogue
def test_a_message_after_libpqs_connect_prefix_is_a_failed_connect() -> None:
    # A lost connection during start-up never ran anything: safe to retry.
    text = (
        'connection to server at "db.internal" (10.0.0.5), port 5432 failed: '
        "server closed the connection unexpectedly\n\tThis probably means the server "
        "terminated abnormally\n\tbefore or while processing the request."
    )
    answer = classify_message(text, "postgresql")
    assert answer.retry_safety is RetrySafety.SAFE


@needs_catalogue
@pytest.mark.parametrize(
    "frame",
    ["{}", "psycopg.OperationalError: {}", "could not do it\n{}", "x: y: {}"],
)
def test_every_message_the_generator_keeps_is_found_where_libpq_prints_it(frame: str) -> None:
    # Where a message can begin: the text's start, after a ": ", a line's start.
    # Whatever its first word holds (setsockopt(%s) failed: %s has a
    # placeholder inside it), each message the generator keeps and a rule
    # judges is found.
    tool = _generator()
    kept = [
        m
        for m in MSGIDS
        if tool.pattern_of(m) is not None and kind_of(tool.first_line(m)) is not None
    ]
    assert len(kept) > 200
    missed = [m for m in kept if libpq_kind(frame.format(_filled(m))) is None]
    assert missed == []


@needs_catalogue
@pytest.mark.parametrize("catalogue", ["libpq", "start-up"])
def test_a_catalogue_finds_the_first_of_its_messages_in_order(catalogue: str) -> None:
    # The compiled catalogue (its alternatives grouped by first character)
    # answers as the plain alternation of its messages in order does: the
    # first message, in the catalogue's order, that matches at the place.
    build = client._libpq_catalogue if catalogue == "libpq" else client._start_up_catalogue
    pattern, values = build()
    if catalogue == "libpq":
        judged = [(p, k) for line, p in LIBPQ if (k := kind_of(line)) is not None]
        messages = sorted(judged, key=lambda m: -len(m[0].split(client._WILDCARD)[0]))
    else:
        messages = [(p, sqlstate) for p, sqlstate, _, _ in FATAL]
    plain = [re.compile(p) for p, _ in messages]
    texts = [_filled(m) for m in MSGIDS] + [t for _, _, _, t in FATAL]
    texts += [t.replace("%s", "x").replace("%u", "1") for t in texts]
    for text in texts:
        first = next((messages[i][1] for i, p in enumerate(plain) if p.match(text)), None)
        match = pattern.match(text)
        found = None if match is None or match.lastindex is None else values[match.lastindex - 1]
        assert found == first, text


def test_a_socket_option_libpq_could_not_set_is_a_failed_connect() -> None:
    # libpq sets its keepalive and user-timeout options while it connects.
    answer = classify_message("setsockopt(TCP_KEEPIDLE) failed: Invalid argument", "postgresql")
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR
    assert answer.retry_safety is RetrySafety.SAFE


def test_text_of_many_separators_is_read_in_bounded_time() -> None:
    # Not a timing assertion: the answer is found or not, and it returns.
    answer = classify_message("x: " * 5000 + "no connection to the server", "postgresql")
    assert answer.error_type is not None


# -- real errors ----------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


DRIVERS = ["psycopg", "psycopg2"]


def _connect(driver: str, **kwargs: Any) -> Any:
    module = require_module(driver)
    return module.connect(**kwargs)


def _error(driver: str) -> type[Exception]:
    """The driver's base exception class (PEP 249's `Error`)."""
    base: type[Exception] = require_module(driver).Error
    return base


@pytest.mark.parametrize("driver", DRIVERS)
def test_real_refused_connect(driver: str) -> None:
    with pytest.raises(_error(driver)) as caught:
        _connect(driver, host="127.0.0.1", port=_closed_port(), dbname="test", user="postgres")
    answer = classify_error(caught.value)
    assert answer.database == "postgresql"
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR
    assert answer.retry_safety is RetrySafety.SAFE


@pytest.mark.parametrize("driver", DRIVERS)
def test_real_bad_connection_option(driver: str, pg_server: dict[str, object]) -> None:
    with pytest.raises(_error(driver)) as caught:
        _connect(driver, **pg_server, sslmode="sometimes")
    answer = classify_error(caught.value)
    assert "sslmode" in str(caught.value)
    assert answer.action is Action.STOP
    assert not answer.is_retryable


@pytest.mark.parametrize("driver", DRIVERS)
def test_real_role_without_login_stops(driver: str, pg_server: dict[str, object]) -> None:
    role = f"lde_nologin_{uuid.uuid4().hex[:8]}"
    admin = _connect(driver, **pg_server)
    admin.autocommit = True
    try:
        admin.cursor().execute(f"CREATE ROLE {role} NOLOGIN")
        with pytest.raises(_error(driver)) as caught:
            _connect(driver, **{**pg_server, "user": role})
        assert "is not permitted to log in" in str(caught.value)
        answer = classify_error(caught.value)
        assert answer.error_type is ErrorCategory.AUTH_ERROR
        assert answer.action is Action.STOP
        assert not answer.is_retryable
    finally:
        admin.cursor().execute(f"DROP ROLE IF EXISTS {role}")
        admin.close()


@pytest.mark.parametrize("driver", DRIVERS)
def test_real_session_terminated_mid_use(driver: str, pg_server: dict[str, object]) -> None:
    victim = _connect(driver, **pg_server)
    admin = _connect(driver, **pg_server)
    admin.autocommit = True
    try:
        cur = victim.cursor()
        cur.execute("SELECT pg_backend_pid()")
        pid = cur.fetchone()[0]
        victim.commit()
        admin.cursor().execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(_error(driver)) as caught:
            victim.cursor().execute("SELECT 1")
        answer = classify_error(caught.value)
        assert answer.error_type is ErrorCategory.CONNECTION_ERROR, str(caught.value)
        assert answer.action is Action.RECONNECT
        assert answer.retry_safety is RetrySafety.IDEMPOTENT_ONLY
        # And the same connection, used again: libpq's "no connection" or the
        # driver's own "closed" in its words.
        with pytest.raises(_error(driver)) as again:
            victim.cursor().execute("SELECT 1")
        answer = classify_error(again.value)
        assert answer.error_type is ErrorCategory.CONNECTION_ERROR, str(again.value)
        assert answer.action is Action.RECONNECT
    finally:
        admin.close()
        victim.close()


@pytest.mark.parametrize("driver", DRIVERS)
def test_real_idle_in_transaction_timeout(driver: str, pg_server: dict[str, object]) -> None:
    conn = _connect(driver, **pg_server)
    try:
        cursor = conn.cursor()
        cursor.execute("SET idle_in_transaction_session_timeout = '200ms'")
        cursor.execute("SELECT 1")  # a transaction is open, and left idle
        time.sleep(0.8)
        with pytest.raises(_error(driver)) as caught:
            cursor.execute("SELECT 1")
        answer = classify_error(caught.value)
        # The server ended the session: 25P03 when its FATAL reaches the
        # driver, libpq's "server closed the connection" otherwise.
        assert answer.error_type is ErrorCategory.CONNECTION_ERROR, str(caught.value)
        assert answer.action is Action.RECONNECT
        assert answer.retry_safety is RetrySafety.IDEMPOTENT_ONLY
    finally:
        conn.close()
