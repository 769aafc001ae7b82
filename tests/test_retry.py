"""
Retry helpers: the hint table, and tenacity / stamina retrying a real SQLite
``database is locked`` to success while never retrying a syntax error.

The PostgreSQL deadlock case lives in ``tests/integration/test_recovery_retry.py``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import (
    KIND_TABLE,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
)
from localdata_errors.retry import (
    RETRY_HINTS,
    RetryHint,
    is_retryable_exception,
    retry_after_hint,
    retry_if_retryable,
    retryable_exception,
)


def response_of(kind: Kind) -> StructuredErrorResponse:
    base = classify_message("error", "generic")
    info = KIND_TABLE[kind]
    return base.replace(kind=kind, error_type=info.category, is_retryable=info.retryable)


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_has_a_hint_consistent_with_its_retry_decision(kind: Kind) -> None:
    hint = retry_after_hint(response_of(kind))
    assert isinstance(hint, RetryHint)
    if KIND_TABLE[kind].retryable:
        assert hint.should_retry
        assert hint.strategy in {"immediate", "backoff", "reconnect"}
    else:
        assert not hint.should_retry
        assert hint.max_attempts == 0


@pytest.mark.parametrize(
    ("kind", "strategy", "reconnect", "rollback"),
    [
        (Kind.DEADLOCK_DETECTED, "immediate", False, True),
        (Kind.SERIALIZATION_FAILURE, "immediate", False, True),
        # The server undid only the statement that waited (InnoDB, SQLite):
        # the transaction it leaves open is rolled back before the retry.
        (Kind.LOCK_NOT_AVAILABLE, "backoff", False, True),
        (Kind.DATABASE_LOCKED, "backoff", False, True),
        (Kind.TOO_MANY_CONNECTIONS, "backoff", False, False),
        (Kind.CONNECTION_LOST, "reconnect", True, False),
        (Kind.CONNECTION_FAILURE, "reconnect", True, False),
        (Kind.ADMIN_SHUTDOWN, "reconnect", True, False),
        (Kind.TRANSACTION_ABORTED, "rollback", False, True),
        (Kind.SYNTAX_ERROR, "none", False, False),
        (Kind.FOREIGN_KEY_VIOLATION, "none", False, False),
    ],
)
def test_hint_table(kind: Kind, strategy: str, reconnect: bool, rollback: bool) -> None:
    hint = retry_after_hint(response_of(kind))
    assert (hint.strategy, hint.reconnect_first, hint.rollback_first) == (
        strategy,
        reconnect,
        rollback,
    )


def test_immediate_retries_wait_less_than_back_offs() -> None:
    deadlock = RETRY_HINTS[Kind.DEADLOCK_DETECTED]
    for kind in (Kind.LOCK_NOT_AVAILABLE, Kind.DATABASE_LOCKED, Kind.TOO_MANY_CONNECTIONS):
        assert RETRY_HINTS[kind].initial_delay_s >= 1.0
        assert RETRY_HINTS[kind].max_delay_s > RETRY_HINTS[kind].initial_delay_s
    assert deadlock.initial_delay_s == 0.0
    assert 0.0 < deadlock.jitter_s < 1.0


@pytest.mark.parametrize(
    ("db_type", "code", "text"),
    [
        (
            "postgresql",
            "25P02",
            "current transaction is aborted, commands ignored until end of transaction block",
        ),
        (
            "mssql",
            3930,
            "The current transaction cannot be committed and cannot support operations "
            "that write to the log file. Roll back the transaction.",
        ),
    ],
)
def test_an_aborted_transaction_says_roll_back_first(
    db_type: str, code: str | int, text: str
) -> None:
    response = classify_message(text, db_type, code=code)
    assert response.kind is Kind.TRANSACTION_ABORTED
    hint = retry_after_hint(response)
    assert hint.rollback_first
    assert not hint.should_retry


class Locked:
    """A SQLite file whose write lock another connection holds until released."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.holder = sqlite3.connect(path, isolation_level=None)
        self.holder.execute("CREATE TABLE t (x INTEGER)")
        self.holder.execute("BEGIN IMMEDIATE")
        self.holder.execute("INSERT INTO t VALUES (0)")
        self.attempts = 0

    def write(self) -> int:
        """Try to write (no busy wait); the lock is released after the first refusal."""
        self.attempts += 1
        conn = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            conn.execute("INSERT INTO t VALUES (1)")
        except sqlite3.OperationalError:
            if self.holder.in_transaction:
                self.holder.execute("COMMIT")
            raise
        finally:
            conn.close()
        return self.attempts

    def bad_sql(self) -> None:
        self.attempts += 1
        conn = sqlite3.connect(self.path)
        try:
            conn.execute("SELEC 1")
        finally:
            conn.close()


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Locked]:
    lock = Locked(tmp_path / "locked.db")
    yield lock
    lock.holder.close()


def test_the_real_lock_error_is_retried_only_for_a_unit_that_cannot_write_twice(
    locked: Locked,
) -> None:
    with pytest.raises(sqlite3.OperationalError) as info:
        locked.write()
    # SQLite undoes only the statement that met the lock: a function that wrote
    # before it in the same transaction would write that again.  By default
    # the predicate does not retry it; it does for a function that ends its
    # own transaction (atomic) or whose writes may be repeated (idempotent).
    assert not is_retryable_exception(info.value)
    assert is_retryable_exception(info.value, atomic=True)
    assert is_retryable_exception(info.value, idempotent=True)
    assert retry_after_hint(classify_error(info.value)).strategy == "backoff"


def test_tenacity_retries_a_lock_to_success_and_not_a_syntax_error(locked: Locked) -> None:
    tenacity = pytest.importorskip("tenacity")
    retrying = tenacity.Retrying(
        # write() opens its own connection and writes one row in autocommit.
        retry=retry_if_retryable(atomic=True),
        stop=tenacity.stop_after_attempt(4),
        wait=tenacity.wait_none(),
        reraise=True,
    )
    assert retrying(locked.write) == 2
    locked.attempts = 0
    with pytest.raises(sqlite3.OperationalError, match="syntax error"):
        retrying(locked.bad_sql)
    assert locked.attempts == 1


@pytest.fixture
def stamina_testing() -> Iterator[Any]:
    stamina = pytest.importorskip("stamina")
    stamina.set_testing(True, attempts=4)  # no waiting between attempts
    yield stamina
    stamina.set_testing(False)


def test_stamina_retries_a_lock_to_success_and_not_a_syntax_error(
    locked: Locked, stamina_testing: Any
) -> None:
    stamina = stamina_testing
    on = retryable_exception(atomic=True)  # write() opens and closes its own connection
    write = stamina.retry(on=on, attempts=4)(locked.write)
    assert write() == 2
    locked.attempts = 0
    bad = stamina.retry(on=on, attempts=4)(locked.bad_sql)
    with pytest.raises(sqlite3.OperationalError, match="syntax error"):
        bad()
    assert locked.attempts == 1


def test_the_documented_hint_table_is_the_code() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "recovery.md").read_text()
    rows = {
        line.split("|")[1].strip().strip("`"): [c.strip() for c in line.strip("|").split("|")[1:]]
        for line in docs.splitlines()
        if line.startswith("| `")
    }
    for kind, hint in RETRY_HINTS.items():
        assert rows[kind.value] == [
            hint.strategy,
            f"{hint.initial_delay_s:g}",
            str(hint.max_attempts),
            "yes" if hint.reconnect_first else "no",
            "yes" if hint.rollback_first else "no",
            f"{hint.jitter_s:g}",
            f"{hint.max_delay_s:g}",
            f"`{hint.rollback_scope.value}`",
        ], kind


def test_the_documented_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("tenacity")
    pytest.importorskip("stamina")
    docs = (Path(__file__).resolve().parents[1] / "docs" / "recovery.md").read_text()
    section = docs[docs.index("## Retry helpers") :]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    exec(compile(example, "docs/recovery.md", "exec"), namespace)  # noqa: S102 - the docs' own code
    namespace["conn"].close()
    with sqlite3.connect(tmp_path / "shop.db") as conn:
        assert conn.execute("SELECT item FROM orders").fetchall() == [("tea",)]
        assert conn.execute("SELECT n FROM stock").fetchall() == [(9,)]
    conn.close()
