"""
Fixtures for the framework adapters: a SQLite shop database, a write lock
another connection holds until the tool has been refused once, and helpers
that wait until a server has really ended a session.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def shop_db(tmp_path: Path) -> Path:
    """A SQLite file with an `orders` table holding two rows."""
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT NOT NULL)")
        conn.executemany("INSERT INTO orders (item) VALUES (?)", [("tea",), ("cake",)])
    conn.close()
    return path


class WriteLock:
    """
    Another connection holds SQLite's write lock until `release()` (or `hold_s`), then commits.

    A test's tool calls `release()` when the lock has refused it, so the
    holder commits after the first refusal and before the code's retry,
    however slow the machine.
    """

    def __init__(self, path: Path, hold_s: float = 10.0) -> None:
        self.path = path
        self.hold_s = hold_s
        self.taken = threading.Event()
        self.released = threading.Event()
        self.committed = threading.Event()
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self) -> None:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO orders (item) VALUES ('held')")
                self.taken.set()
                self.released.wait(self.hold_s)
                conn.execute("COMMIT")
                self.committed.set()
            finally:
                conn.close()
        except Exception as exc:
            self.errors.append(exc)
        finally:
            self.taken.set()
            self.released.set()

    def release(self) -> None:
        """Let the holder commit, and wait until it has."""
        self.released.set()
        self.committed.wait(10)

    def __enter__(self) -> WriteLock:
        self.thread.start()
        assert self.taken.wait(10)
        assert not self.errors, self.errors
        return self

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        self.thread.join(10)
        assert not self.errors, self.errors


@pytest.fixture
def write_lock(shop_db: Path) -> Iterator[WriteLock]:
    """A write lock on `shop_db`, taken once entered."""
    lock = WriteLock(shop_db)
    yield lock
    lock.released.set()
    if lock.thread.is_alive():
        lock.thread.join(10)


def wait_until(done: Callable[[], bool], what: str, timeout_s: float = 10.0) -> None:
    """Poll *done* until it is true; fail after *timeout_s*."""
    deadline = time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def terminate_pg_backend(psycopg: Any, settings: dict[str, object], pid: int) -> None:
    """`pg_terminate_backend(pid)`, then wait until the server has ended the session."""
    with psycopg.connect(**settings, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))

        def gone() -> bool:
            row = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,)
            ).fetchone()
            return row is not None and row[0] == 0

        wait_until(gone, f"PostgreSQL backend {pid} to exit")
