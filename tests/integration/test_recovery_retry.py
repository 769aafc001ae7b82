"""
tenacity and stamina retry a real PostgreSQL deadlock loser to success, and
leave syntax errors alone; an aborted transaction's hint says roll back first.

The deadlock is deterministic: the winner takes row 2 and waits for row 1
(its ``deadlock_timeout`` is 10 s); only once the server shows it waiting does
the loser, holding row 1, ask for row 2.  The loser's ``deadlock_timeout`` is
50 ms, so its deadlock check runs first and the server aborts the loser.
``deadlock_timeout`` is set per session (superuser), never globally.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from localdata_errors import Kind, classify_error
from localdata_errors.retry import is_retryable_exception, retry_after_hint, retry_if_retryable
from tests.conftest import require_module

pytestmark = pytest.mark.postgresql


class Deadlock:
    """Two sessions and a table; :meth:`transfer` is the loser's transaction."""

    def __init__(self, settings: dict[str, object]) -> None:
        self.psycopg = require_module("psycopg")
        self.table = f"lde_recovery_retry_{uuid.uuid4().hex[:12]}"
        self.admin = self.psycopg.connect(**settings, autocommit=True)
        self.admin.execute(f"CREATE TABLE {self.table} (id int PRIMARY KEY, n int)")
        self.admin.execute(f"INSERT INTO {self.table} VALUES (1, 0), (2, 0)")
        self.loser = self.psycopg.connect(**settings, autocommit=True)
        self.loser.execute("SET deadlock_timeout = '50ms'")
        self.winner = self.psycopg.connect(**settings, autocommit=True)
        self.winner.execute("SET deadlock_timeout = '10s'")
        self.winner_pid = self.winner.info.backend_pid
        self.attempts = 0
        self.errors: list[BaseException] = []
        self._has_row_2 = threading.Event()
        self._loser_has_row_1 = threading.Event()
        self.thread = threading.Thread(target=self._win)
        self.thread.start()

    def _win(self) -> None:
        try:
            with self.winner.transaction():
                self._loser_has_row_1.wait(10)
                self.winner.execute(f"UPDATE {self.table} SET n = n + 10 WHERE id = 2")
                self._has_row_2.set()
                self.winner.execute(f"UPDATE {self.table} SET n = n + 10 WHERE id = 1")
        except Exception as exc:
            self.errors.append(exc)
            self._has_row_2.set()

    def _wait_until_winner_waits(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            row = self.admin.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (self.winner_pid,)
            ).fetchone()
            if row and row[0] == "Lock":
                return
            time.sleep(0.01)
        pytest.fail("the winning session never waited for its lock")

    def transfer(self) -> int:
        """The loser's whole transaction; the first attempt is the deadlock's victim."""
        self.attempts += 1
        with self.loser.transaction():
            self.loser.execute(f"UPDATE {self.table} SET n = n + 1 WHERE id = 1")
            if self.attempts == 1:
                self._loser_has_row_1.set()
                self._has_row_2.wait(10)
                self._wait_until_winner_waits()
            self.loser.execute(f"UPDATE {self.table} SET n = n + 1 WHERE id = 2")
        return self.attempts

    def bad_sql(self) -> None:
        self.attempts += 1
        self.loser.execute("SELEC 1")

    def totals(self) -> list[tuple[int, int]]:
        return list(self.admin.execute(f"SELECT id, n FROM {self.table} ORDER BY id"))

    def close(self) -> None:
        self._loser_has_row_1.set()
        self.thread.join(15)
        self.loser.close()
        self.winner.close()
        self.admin.execute(f"DROP TABLE IF EXISTS {self.table}")
        self.admin.close()


@pytest.fixture
def deadlock(pg_server: dict[str, object]) -> Iterator[Deadlock]:
    scenario = Deadlock(pg_server)
    yield scenario
    scenario.close()


def check_outcome(deadlock: Deadlock, run: Callable[[Callable[[], Any]], Any]) -> None:
    assert run(deadlock.transfer) == 2
    deadlock.thread.join(15)
    assert deadlock.errors == []
    # Both transactions committed exactly once: the winner's +10, the loser's +1.
    assert deadlock.totals() == [(1, 11), (2, 11)]
    deadlock.attempts = 0
    with pytest.raises(deadlock.psycopg.errors.SyntaxError):
        run(deadlock.bad_sql)
    assert deadlock.attempts == 1


def test_the_loser_error_is_a_retryable_deadlock(deadlock: Deadlock) -> None:
    with pytest.raises(deadlock.psycopg.errors.DeadlockDetected) as info:
        deadlock.transfer()
    response = classify_error(info.value)
    assert response.kind is Kind.DEADLOCK_DETECTED
    assert is_retryable_exception(info.value)
    hint = retry_after_hint(response)
    assert (hint.strategy, hint.rollback_first, hint.initial_delay_s) == ("immediate", True, 0.0)


def test_tenacity_retries_the_deadlock_loser(deadlock: Deadlock) -> None:
    tenacity = pytest.importorskip("tenacity")
    retrying = tenacity.Retrying(
        retry=retry_if_retryable("postgresql"),
        stop=tenacity.stop_after_attempt(3),
        wait=tenacity.wait_random(0, 0.05),
        reraise=True,
    )
    check_outcome(deadlock, retrying)


def test_stamina_retries_the_deadlock_loser(deadlock: Deadlock) -> None:
    stamina = pytest.importorskip("stamina")

    def run(fn: Callable[[], Any]) -> Any:
        wrapped = stamina.retry(
            on=is_retryable_exception,
            attempts=3,
            wait_initial=0.01,
            wait_max=0.05,
            wait_jitter=0.01,
        )(fn)
        return wrapped()

    check_outcome(deadlock, run)


def test_an_aborted_transaction_says_roll_back_first(pg_server: dict[str, object]) -> None:
    psycopg = require_module("psycopg")
    with psycopg.connect(**pg_server) as conn:
        with pytest.raises(psycopg.errors.UndefinedTable):
            conn.execute("SELECT * FROM lde_recovery_retry_missing")
        with pytest.raises(psycopg.errors.InFailedSqlTransaction) as info:
            conn.execute("SELECT 1")
        conn.rollback()
    response = classify_error(info.value)
    assert response.kind is Kind.TRANSACTION_ABORTED
    assert response.database_error_code == "25P02"
    hint = retry_after_hint(response)
    assert hint.rollback_first
    assert not hint.should_retry
    assert not is_retryable_exception(info.value)


def test_a_session_terminated_mid_call_is_retried_only_when_idempotent(
    pg_server: dict[str, object],
) -> None:
    """`idempotent_only`: the statement may have committed; without `idempotent=`, no retry."""
    psycopg = require_module("psycopg")
    tenacity = pytest.importorskip("tenacity")
    conn = psycopg.connect(**pg_server, autocommit=True)
    calls: list[int] = []

    def insert() -> None:
        calls.append(1)
        conn.execute("SELECT 1")

    try:
        pid = conn.info.backend_pid
        with psycopg.connect(**pg_server, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            deadline = time.monotonic() + 10
            while admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,)
            ).fetchone() != (0,):
                assert time.monotonic() < deadline, "the session was not terminated"
                time.sleep(0.02)
        retrying = tenacity.Retrying(
            retry=retry_if_retryable(),
            stop=tenacity.stop_after_attempt(3),
            wait=tenacity.wait_none(),
            reraise=True,
        )
        with pytest.raises(psycopg.OperationalError) as caught:
            retrying(insert)
    finally:
        conn.close()
    answer = classify_error(caught.value)
    assert answer.retry_safety.value == "idempotent_only"
    assert calls == [1]  # a write may have committed: not sent again by default
    assert not is_retryable_exception(caught.value)
    assert is_retryable_exception(caught.value, idempotent=True)
