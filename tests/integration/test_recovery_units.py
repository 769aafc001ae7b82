"""
A retry never writes twice: a unit of two statements meets a real lock wait or
deadlock, and whatever the retry loop decides, what the unit wrote is there once.

The unit, as a tool function on a shared connection runs it: INSERT a ledger
row, UPDATE the stock row another session holds, COMMIT.  When the UPDATE (or
the COMMIT) fails, MariaDB's InnoDB (1205) and SQLite (SQLITE_BUSY) undo only
that statement: the INSERT stays in the open transaction, and calling the unit
again on it commits the INSERT twice (the first test of each engine shows it
does).  The loops under test are `retry_in_code` (the one every framework
adapter shares) and the tenacity and stamina predicates, each with and without
a rollback callback, for a unit that is idempotent and one that is not.  After
the loop has succeeded or given up, `settle()` commits whatever the connection
still holds, as the tool's next call would, and the ledger is counted.

Every table carries a random suffix and is dropped afterwards; the lock wait
timeout is set per session (1 s), never globally.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import Kind, classify_error
from localdata_errors.integrations import report_for, retry_in_code
from localdata_errors.retry import RetryVerdict, retry_if_retryable, retryable_exception
from tests.conftest import require_module

PENDING = "retry: the database undid only the statement that failed"


def _wait_for(done: Callable[[], bool], what: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


def _run(loop_call: Callable[[], object]) -> BaseException | None:
    """Run the loop; return the error it gave up with, if any."""
    try:
        loop_call()
    except Exception as exc:
        return exc
    return None


class Cycle:
    """
    A peer session that takes cake, then asks for tea once the unit holds it: a deadlock.

    Args:
        take_cake: The peer's first step (it may change other rows first).
        take_tea: The peer's second step, which waits for the unit's row; it commits.
        peer_waits: Whether the server shows the peer waiting for a lock.
    """

    def __init__(
        self,
        take_cake: Callable[[], None],
        take_tea: Callable[[], None],
        peer_waits: Callable[[], bool],
    ) -> None:
        self.take_cake, self.take_tea, self.peer_waits = take_cake, take_tea, peer_waits
        self.errors: list[BaseException] = []
        self.has_cake = threading.Event()
        self.unit_has_tea = threading.Event()
        self.thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            self.take_cake()
            self.has_cake.set()
            self.unit_has_tea.wait(15)
            self.take_tea()
        except Exception as exc:
            self.errors.append(exc)
        finally:
            self.has_cake.set()

    def unit_holds_tea(self) -> None:
        """Called by the unit holding tea: wait until the peer waits for it."""
        assert self.has_cake.wait(15)
        self.unit_has_tea.set()
        _wait_for(self.peer_waits, "the peer to wait for the unit's row")

    def __enter__(self) -> Cycle:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.unit_has_tea.set()
        self.thread.join(20)


# -- MariaDB / MySQL -------------------------------------------------------------------


class MariaUnit:
    """A ledger, a stock row another session holds, and the unit on a shared connection."""

    def __init__(self, settings: dict[str, object], *, idempotent: bool = False) -> None:
        self.pymysql = require_module("pymysql")
        suffix = secrets.token_hex(4)
        self.ledger = f"lde_unit_ledger_{suffix}"
        self.stock = f"lde_unit_stock_{suffix}"
        self.admin = self.pymysql.connect(**settings, autocommit=True)
        self.admin_sql(
            f"CREATE TABLE {self.ledger} (id INT AUTO_INCREMENT PRIMARY KEY, "
            "item VARCHAR(20) NOT NULL) ENGINE=InnoDB"
        )
        self.admin_sql(
            f"CREATE TABLE {self.stock} (item VARCHAR(20) PRIMARY KEY, n INT NOT NULL) "
            "ENGINE=InnoDB"
        )
        self.admin_sql(f"INSERT INTO {self.stock} VALUES ('tea', 10), ('cake', 10)")
        # An idempotent unit: the same row, the same value, however often it runs.
        self.insert = (
            f"INSERT INTO {self.ledger} (id, item) VALUES (1, 'tea') "
            "ON DUPLICATE KEY UPDATE item = VALUES(item)"
            if idempotent
            else f"INSERT INTO {self.ledger} (item) VALUES ('tea')"
        )
        self.update = (
            f"UPDATE {self.stock} SET n = 9 WHERE item = 'tea'"
            if idempotent
            else f"UPDATE {self.stock} SET n = n - 1 WHERE item = 'tea'"
        )
        self.settings = settings
        self.conn = self.pymysql.connect(**settings)  # the tool's connection: autocommit off
        self.conn.cursor().execute("SET SESSION innodb_lock_wait_timeout = 1")
        self.holder = self.pymysql.connect(**settings)
        self.holder.cursor().execute(f"SELECT n FROM {self.stock} WHERE item = 'tea' FOR UPDATE")
        self.calls = 0
        self.rollbacks = 0

    def admin_sql(self, sql: str) -> Any:
        cursor = self.admin.cursor()
        cursor.execute(sql)
        return cursor.fetchall()

    def unit(self) -> None:
        """INSERT, UPDATE the held row, COMMIT; the holder lets go after the first refusal."""
        self.calls += 1
        cursor = self.conn.cursor()
        cursor.execute(self.insert)
        try:
            cursor.execute(self.update)
        except self.pymysql.err.OperationalError:
            self.release()
            raise
        self.conn.commit()

    def release(self) -> None:
        self.holder.commit()

    def rollback(self) -> None:
        self.rollbacks += 1
        self.conn.rollback()

    def settle(self) -> tuple[int, int]:
        """Commit what the connection holds (the tool's next call would); the ledger and stock."""
        self.conn.commit()
        ((rows,),) = self.admin_sql(f"SELECT COUNT(*) FROM {self.ledger}")
        ((n,),) = self.admin_sql(f"SELECT n FROM {self.stock} WHERE item = 'tea'")
        return int(rows), int(n)

    def close(self) -> None:
        for conn in (self.holder, self.conn):
            try:
                conn.rollback()
                conn.close()
            except self.pymysql.err.Error:
                pass
        self.admin_sql(f"DROP TABLE IF EXISTS {self.ledger}, {self.stock}")
        self.admin.close()


@pytest.fixture
def maria(mysql_server: dict[str, object]) -> Iterator[Callable[..., MariaUnit]]:
    made: list[MariaUnit] = []

    def make(*, idempotent: bool = False) -> MariaUnit:
        made.append(MariaUnit(mysql_server, idempotent=idempotent))
        return made[-1]

    yield make
    for unit in made:
        unit.close()


@pytest.mark.mysql
def test_mariadb_a_naive_retry_commits_the_insert_twice(maria: Callable[..., MariaUnit]) -> None:
    unit = maria()
    ((on_timeout,),) = unit.admin_sql("SELECT @@innodb_rollback_on_timeout")
    if on_timeout:
        pytest.skip("this server rolls the whole transaction back on a lock wait timeout")
    with pytest.raises(unit.pymysql.err.OperationalError) as caught:
        unit.unit()
    assert classify_error(caught.value).database_error_code == "1205"
    unit.unit()  # called again on the same transaction, as a naive loop does
    assert unit.settle() == (2, 9)  # the hazard is real: two ledger rows for one sale


@pytest.mark.mysql
@pytest.mark.parametrize("idempotent", [False, True], ids=["writes", "idempotent"])
@pytest.mark.parametrize("with_rollback", [False, True], ids=["no-rollback", "rollback"])
def test_mariadb_lock_wait_timeout_never_writes_twice(
    maria: Callable[..., MariaUnit], with_rollback: bool, idempotent: bool
) -> None:
    unit = maria(idempotent=idempotent)
    loop = retry_in_code(
        idempotent=idempotent,
        rollback=unit.rollback if with_rollback else None,
        max_delay_s=0.01,
    )
    error = _run(loop(unit.unit))
    ledger, stock = unit.settle()
    assert ledger == 1  # never twice
    if with_rollback or idempotent:
        assert error is None
        assert (unit.calls, stock) == (2, 9)
        assert unit.rollbacks == (1 if with_rollback else 0)
    else:
        # Not sent again: the INSERT still stands in the open transaction.
        assert error is not None
        report = report_for(error)
        assert report.answer.database_error_code == "1205"
        assert report.verdict is RetryVerdict.EARLIER_WRITES_PENDING
        assert report.instruction().startswith(PENDING)
        assert (unit.calls, stock) == (1, 10)


@pytest.mark.mysql
@pytest.mark.parametrize("with_rollback", [False, True], ids=["no-rollback", "rollback"])
def test_mariadb_tenacity_and_stamina_never_write_twice(
    maria: Callable[..., MariaUnit], with_rollback: bool
) -> None:
    tenacity = pytest.importorskip("tenacity")
    stamina = pytest.importorskip("stamina")
    for use in ("tenacity", "stamina"):
        unit = maria()
        rollback = unit.rollback if with_rollback else None
        if use == "tenacity":
            retrying = tenacity.Retrying(
                retry=retry_if_retryable(rollback=rollback),
                stop=tenacity.stop_after_attempt(3),
                wait=tenacity.wait_none(),
                reraise=True,
            )
            error = _run(lambda u=unit, r=retrying: r(u.unit))
        else:
            on = retryable_exception(rollback=rollback)
            wrapped = stamina.retry(on=on, attempts=3, wait_initial=0, wait_max=0)(unit.unit)
            error = _run(wrapped)
        assert unit.settle()[0] == 1, use
        assert (error is None) is with_rollback, use
        assert unit.calls == (2 if with_rollback else 1), use


@pytest.mark.mysql
def test_mariadb_deadlock_victim_is_retried_without_a_rollback(
    maria: Callable[..., MariaUnit],
) -> None:
    """
    InnoDB rolled the victim's whole transaction back: the unit runs again at once.

    The peer first changes a ballast of rows, so that InnoDB, which rolls back
    the lighter transaction, picks the unit.
    """
    unit = maria()
    unit.release()
    ((detect,),) = unit.admin_sql("SELECT @@innodb_deadlock_detect")
    if not detect:
        pytest.skip("this server's deadlock detection is off (innodb_deadlock_detect)")
    ballast = f"{unit.stock}_ballast"
    unit.admin_sql(f"CREATE TABLE {ballast} (id INT PRIMARY KEY, n INT) ENGINE=InnoDB")
    unit.admin_sql(f"INSERT INTO {ballast} VALUES " + ", ".join(f"({i}, 0)" for i in range(1, 51)))
    peer = unit.pymysql.connect(**unit.settings)
    cursor = peer.cursor()
    cursor.execute("SELECT CONNECTION_ID()")
    peer_id = int(cursor.fetchone()[0])

    def take_cake() -> None:
        cursor.execute(f"UPDATE {ballast} SET n = n + 1")
        cursor.execute(f"UPDATE {unit.stock} SET n = n + 100 WHERE item = 'cake'")

    def take_tea() -> None:
        cursor.execute(f"UPDATE {unit.stock} SET n = n + 100 WHERE item = 'tea'")
        peer.commit()

    def peer_waits() -> bool:
        ((waiting,),) = unit.admin_sql(
            "SELECT COUNT(*) FROM information_schema.PROCESSLIST "
            f"WHERE ID = {peer_id} AND COMMAND = 'Query' AND INFO LIKE 'UPDATE %'"
        )
        return bool(waiting)

    cycle = Cycle(take_cake, take_tea, peer_waits)

    def transfer() -> None:
        unit.calls += 1
        sql = unit.conn.cursor()
        sql.execute(f"INSERT INTO {unit.ledger} (item) VALUES ('tea')")
        sql.execute(f"UPDATE {unit.stock} SET n = n - 1 WHERE item = 'tea'")
        if unit.calls == 1:
            cycle.unit_holds_tea()
        sql.execute(f"UPDATE {unit.stock} SET n = n - 1 WHERE item = 'cake'")
        unit.conn.commit()

    try:
        with cycle:
            error = _run(retry_in_code(max_delay_s=0.01)(transfer))
    finally:
        peer.close()
        unit.admin_sql(f"DROP TABLE IF EXISTS {ballast}")
    assert cycle.errors == []
    assert error is None
    assert unit.calls == 2  # the first call was the victim
    assert unit.settle()[0] == 1
    assert unit.admin_sql(f"SELECT item, n FROM {unit.stock} ORDER BY item") == (
        ("cake", 109),
        ("tea", 109),
    )


# -- PostgreSQL -------------------------------------------------------------------------


class PgUnit:
    """The same unit on PostgreSQL, where any error aborts the whole transaction."""

    def __init__(self, settings: dict[str, object], *, idempotent: bool = False) -> None:
        self.psycopg = require_module("psycopg")
        suffix = secrets.token_hex(4)
        self.ledger = f"lde_unit_ledger_{suffix}"
        self.stock = f"lde_unit_stock_{suffix}"
        self.admin = self.psycopg.connect(**settings, autocommit=True)
        self.admin.execute(f"CREATE TABLE {self.ledger} (id serial PRIMARY KEY, item text)")
        self.admin.execute(f"CREATE TABLE {self.stock} (item text PRIMARY KEY, n int)")
        self.admin.execute(f"INSERT INTO {self.stock} VALUES ('tea', 10), ('cake', 10)")
        self.insert = (
            f"INSERT INTO {self.ledger} (id, item) VALUES (1, 'tea') "
            "ON CONFLICT (id) DO UPDATE SET item = EXCLUDED.item"
            if idempotent
            else f"INSERT INTO {self.ledger} (item) VALUES ('tea')"
        )
        self.update = (
            f"UPDATE {self.stock} SET n = 9 WHERE item = 'tea'"
            if idempotent
            else f"UPDATE {self.stock} SET n = n - 1 WHERE item = 'tea'"
        )
        self.settings = settings
        self.conn = self.psycopg.connect(**settings)  # autocommit off: the unit's transaction
        self.conn.execute("SET lock_timeout = '1s'")
        self.conn.commit()
        self.holder = self.psycopg.connect(**settings)
        self.holder.execute(f"SELECT n FROM {self.stock} WHERE item = 'tea' FOR UPDATE")
        self.calls = 0
        self.rollbacks = 0

    def unit(self) -> None:
        self.calls += 1
        self.conn.execute(self.insert)
        try:
            self.conn.execute(self.update)
        except self.psycopg.errors.LockNotAvailable:
            self.holder.commit()
            raise
        self.conn.commit()

    def rollback(self) -> None:
        self.rollbacks += 1
        self.conn.rollback()

    def settle(self) -> tuple[int, int]:
        self.conn.commit()  # on an aborted transaction, PostgreSQL answers ROLLBACK
        rows = self.admin.execute(f"SELECT count(*) FROM {self.ledger}").fetchone()
        n = self.admin.execute(f"SELECT n FROM {self.stock} WHERE item = 'tea'").fetchone()
        assert rows is not None
        assert n is not None
        return int(rows[0]), int(n[0])

    def close(self) -> None:
        self.holder.close()
        self.conn.close()
        self.admin.execute(f"DROP TABLE IF EXISTS {self.ledger}, {self.stock}")
        self.admin.close()


@pytest.fixture
def pg(pg_server: dict[str, object]) -> Iterator[Callable[..., PgUnit]]:
    made: list[PgUnit] = []

    def make(*, idempotent: bool = False) -> PgUnit:
        made.append(PgUnit(pg_server, idempotent=idempotent))
        return made[-1]

    yield make
    for unit in made:
        unit.close()


@pytest.mark.postgresql
@pytest.mark.parametrize("idempotent", [False, True], ids=["writes", "idempotent"])
@pytest.mark.parametrize("with_rollback", [False, True], ids=["no-rollback", "rollback"])
def test_postgresql_lock_timeout_never_writes_twice(
    pg: Callable[..., PgUnit], with_rollback: bool, idempotent: bool
) -> None:
    unit = pg(idempotent=idempotent)
    loop = retry_in_code(
        idempotent=idempotent,
        rollback=unit.rollback if with_rollback else None,
        max_delay_s=0.01,
    )
    error = _run(loop(unit.unit))
    ledger, stock = unit.settle()
    assert unit.calls == 2  # PostgreSQL aborted the whole transaction: nothing of it stands
    if with_rollback:
        assert error is None
        assert (ledger, stock, unit.rollbacks) == (1, 9, 1)
    else:
        # Sent again on the aborted transaction: refused (25P02), and nothing
        # of either call can commit.
        assert error is not None
        assert classify_error(error).kind is Kind.TRANSACTION_ABORTED
        assert (ledger, stock) == (0, 10)


@pytest.mark.postgresql
@pytest.mark.parametrize("with_rollback", [False, True], ids=["no-rollback", "rollback"])
def test_postgresql_deadlock_never_writes_twice(
    pg: Callable[..., PgUnit], with_rollback: bool
) -> None:
    """
    A real 40P01: the unit holds tea and asks for cake; the peer holds cake and waits for tea.

    The unit's deadlock_timeout is 50 ms, the peer's 10 s: the unit's check
    runs first and the server aborts the unit's transaction.
    """
    unit = pg()
    unit.holder.commit()
    unit.conn.execute("SET deadlock_timeout = '50ms'")
    unit.conn.commit()
    peer = unit.psycopg.connect(**unit.settings)
    peer.execute("SET deadlock_timeout = '10s'")
    peer.commit()
    peer_pid = peer.info.backend_pid

    def take_tea() -> None:
        peer.execute(f"UPDATE {unit.stock} SET n = n + 100 WHERE item = 'tea'")
        peer.commit()

    def peer_waits() -> bool:
        row = unit.admin.execute(
            "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (peer_pid,)
        ).fetchone()
        return bool(row and row[0] == "Lock")

    cycle = Cycle(
        lambda: peer.execute(f"UPDATE {unit.stock} SET n = n + 100 WHERE item = 'cake'"),
        take_tea,
        peer_waits,
    )

    def transfer() -> None:
        unit.calls += 1
        unit.conn.execute(f"INSERT INTO {unit.ledger} (item) VALUES ('tea')")
        unit.conn.execute(f"UPDATE {unit.stock} SET n = n - 1 WHERE item = 'tea'")
        if unit.calls == 1:
            cycle.unit_holds_tea()
        unit.conn.execute(f"UPDATE {unit.stock} SET n = n - 1 WHERE item = 'cake'")
        unit.conn.commit()

    try:
        with cycle:
            loop = retry_in_code(
                rollback=unit.rollback if with_rollback else None, max_delay_s=0.01
            )
            error = _run(loop(transfer))
    finally:
        peer.close()
    assert cycle.errors == []
    ledger, _ = unit.settle()
    totals = unit.admin.execute(f"SELECT item, n FROM {unit.stock} ORDER BY item").fetchall()
    assert unit.calls == 2
    if with_rollback:
        assert error is None
        assert ledger == 1
        assert totals == [("cake", 109), ("tea", 109)]
    else:
        # The second call met the aborted transaction (25P02): nothing of the
        # unit committed, the peer's changes once.
        assert error is not None
        assert classify_error(error).kind is Kind.TRANSACTION_ABORTED
        assert ledger == 0
        assert totals == [("cake", 110), ("tea", 110)]


# -- SQLite ----------------------------------------------------------------------------


class SqliteUnit:
    """
    The unit on a SQLite file in rollback-journal mode, whose COMMIT a reader refuses.

    A COMMIT needs the exclusive lock; while another connection reads, it is
    refused with SQLITE_BUSY and "the transaction remains active" (SQLite's
    transaction page): the INSERT and the UPDATE are both still pending.
    """

    def __init__(self, path: Path, *, idempotent: bool = False, atomic: bool = False) -> None:
        self.path = path
        with sqlite3.connect(path) as setup:
            setup.execute("PRAGMA journal_mode = DELETE")
            setup.execute("CREATE TABLE ledger (id INTEGER PRIMARY KEY, item TEXT)")
            setup.execute("CREATE TABLE stock (item TEXT PRIMARY KEY, n INTEGER)")
            setup.execute("INSERT INTO stock VALUES ('tea', 10)")
        setup.close()
        self.insert = (
            "INSERT OR REPLACE INTO ledger (id, item) VALUES (1, 'tea')"
            if idempotent
            else "INSERT INTO ledger (item) VALUES ('tea')"
        )
        self.update = (
            "UPDATE stock SET n = 9 WHERE item = 'tea'"
            if idempotent
            else "UPDATE stock SET n = n - 1 WHERE item = 'tea'"
        )
        self.atomic = atomic
        self.conn = sqlite3.connect(path, timeout=0, check_same_thread=False)
        self.reader = sqlite3.connect(path, isolation_level=None)
        self.reader.execute("BEGIN")
        self.reader.execute("SELECT * FROM stock").fetchall()  # holds the shared lock
        self.calls = 0
        self.rollbacks = 0

    def unit(self) -> None:
        self.calls += 1
        try:
            if self.atomic:
                with self.conn:  # rolls back when the body or the COMMIT fails
                    self.conn.execute(self.insert)
                    self.conn.execute(self.update)
            else:
                self.conn.execute(self.insert)
                self.conn.execute(self.update)
                self.conn.commit()
        except sqlite3.OperationalError:
            if self.reader.in_transaction:
                self.reader.execute("COMMIT")
            raise

    def rollback(self) -> None:
        self.rollbacks += 1
        self.conn.rollback()

    def settle(self) -> tuple[int, int]:
        self.conn.commit()
        with sqlite3.connect(self.path) as check:
            rows = check.execute("SELECT count(*) FROM ledger").fetchone()[0]
            n = check.execute("SELECT n FROM stock WHERE item = 'tea'").fetchone()[0]
        check.close()
        return int(rows), int(n)

    def close(self) -> None:
        self.reader.close()
        self.conn.close()


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Callable[..., SqliteUnit]]:
    made: list[SqliteUnit] = []

    def make(**options: bool) -> SqliteUnit:
        made.append(SqliteUnit(tmp_path / f"unit{len(made)}.db", **options))
        return made[-1]

    yield make
    for unit in made:
        unit.close()


def test_sqlite_a_naive_retry_commits_the_insert_twice(lite: Callable[..., SqliteUnit]) -> None:
    unit = lite()
    with pytest.raises(sqlite3.OperationalError) as caught:
        unit.unit()
    assert classify_error(caught.value).kind is Kind.DATABASE_LOCKED
    unit.unit()  # called again on the transaction the refused COMMIT left open
    assert unit.settle() == (2, 8)


@pytest.mark.parametrize(
    ("options", "with_rollback"),
    [
        ({}, False),
        ({}, True),
        ({"idempotent": True}, False),
        ({"idempotent": True}, True),
        ({"atomic": True}, False),
    ],
    ids=["writes", "writes-rollback", "idempotent", "idempotent-rollback", "atomic"],
)
def test_sqlite_busy_never_writes_twice(
    lite: Callable[..., SqliteUnit], options: dict[str, bool], with_rollback: bool
) -> None:
    unit = lite(**options)
    loop = retry_in_code(
        idempotent=options.get("idempotent", False),
        atomic=options.get("atomic", False),
        rollback=unit.rollback if with_rollback else None,
        max_delay_s=0.01,
    )
    error = _run(loop(unit.unit))
    ledger, stock = unit.settle()
    assert (ledger, stock) == (1, 9)  # once, whatever was decided
    if options or with_rollback:
        assert error is None
        assert unit.calls == 2
    else:
        assert error is not None
        assert report_for(error).instruction().startswith(PENDING)
        assert unit.calls == 1
