"""
The server recovers where only it can, and says so: real servers, real failures.

A model cannot roll back the server's transaction nor reopen its connection.
These tests abort transactions and end the server's sessions on the database
server for real (``pg_terminate_backend``, MariaDB's ``KILL``) while a call
runs, and check what the client receives: a read runs again on a new
connection, a write is never sent twice by the server, and a failed
transaction never reaches the model as a dead end.  They also check that the
statement timeout stops the statement on the database server itself, and
that running out of pooled connections is a different answer.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from localdata_errors.mcp._sql import Database
from tests.mcp._harness import Backend, InProcessServer

# SQLSTATE class 25 "Invalid Transaction State", 25P02 in_failed_sql_transaction.
IN_FAILED_TRANSACTION = "25P02"


@pytest.fixture
def serve(shop: Backend) -> Iterator[Callable[..., InProcessServer]]:
    """Build in-process servers on the test's database; closed afterwards."""
    made: list[InProcessServer] = []

    def build(**options: Any) -> InProcessServer:
        options.setdefault("timeout", 10)
        made.append(InProcessServer(Database(shop.url, **options)))
        return made[-1]

    yield build
    for server in made:
        server.close()


def marker() -> str:
    """A text that finds one statement in the server's list of sessions."""
    return f"lde_mark_{secrets.token_hex(4)}"


class SessionKiller(threading.Thread):
    """Ends the database session that runs a statement containing *mark*, once it runs."""

    def __init__(self, backend: Backend, mark: str) -> None:
        super().__init__(daemon=True)
        self.backend = backend
        self.mark = mark
        self.killed = False

    def run(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not self.killed:
            session = running(self.backend, self.mark)
            if session is not None:
                with self.backend.engine.connect() as conn:
                    if self.backend.name == "postgresql":
                        conn.exec_driver_sql(f"SELECT pg_terminate_backend({int(session)})")
                    else:
                        conn.exec_driver_sql(f"KILL {int(session)}")
                self.killed = True
                return
            time.sleep(0.05)


def running(backend: Backend, mark: str) -> int | None:
    """The id of the session running a statement with *mark* (another than this one)."""
    with backend.engine.connect() as conn:
        if backend.name == "postgresql":
            found = conn.exec_driver_sql(
                "SELECT pid FROM pg_stat_activity WHERE state = 'active' "
                "AND strpos(query, %(mark)s) > 0 AND pid <> pg_backend_pid()",
                {"mark": mark},
            ).scalar()
        else:
            found = conn.exec_driver_sql(
                "SELECT ID FROM information_schema.PROCESSLIST "
                "WHERE INSTR(INFO, %(mark)s) > 0 AND ID <> CONNECTION_ID()",
                {"mark": mark},
            ).scalar()
    return int(found) if found is not None else None


def sleep_sql(backend: Backend, seconds: float) -> str:
    """A subquery that takes *seconds* on the database server."""
    if backend.name == "postgresql":
        return f"(SELECT pg_sleep({seconds}) AS z)"
    return f"(SELECT SLEEP({seconds}) AS z)"


# -- a lost connection -------------------------------------------------------------


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_a_read_whose_connection_is_lost_runs_again(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    server = serve()
    mark = marker()
    killer = SessionKiller(shop, mark)
    killer.start()
    out = server.ok(
        "execute_sql",
        {"sql": f"SELECT s.z, '{mark}' AS m FROM {sleep_sql(shop, 1)} s"},
    )
    killer.join()
    assert killer.killed
    assert out["data"][0]["m"] == mark
    (note,) = out["recovered"]
    # PostgreSQL ends a session with 57P01 admin_shutdown; MariaDB's KILL
    # drops the connection (2013, lost during query).
    assert note["kind"] == ("admin_shutdown" if shop.name == "postgresql" else "connection_lost")
    assert (note["action"], note["done"], note["rerun"]) == ("reconnect", "reconnected", True)
    # The broken connection was discarded: the next call works on a new one.
    assert server.ok("select_rows", {"table": "customers"})["rowCount"] == 3


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_a_write_whose_connection_is_lost_is_not_sent_again(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    server = serve()
    mark = marker()
    killer = SessionKiller(shop, mark)
    killer.start()
    payload = server.fail(
        "execute_sql",
        {
            "sql": f"INSERT INTO products (name, price) SELECT '{mark}', 1 "
            f"FROM {sleep_sql(shop, 1.5)} s"
        },
    )
    killer.join()
    assert killer.killed
    details = payload["details"]
    assert (details["action"], details["retry_safety"]) == ("reconnect", "idempotent_only")
    (note,) = details["recovery"]
    assert (note["done"], note["rerun"], note["stage"]) == ("reconnected", False, "work")
    # Lost before the commit was sent: the database rolled the transaction back.
    assert note["write_state"] == "not_committed"
    assert shop.scalar(f"SELECT count(*) FROM products WHERE name = '{mark}'") == 0


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_an_idle_connection_that_died_is_replaced_unseen(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    server = serve()
    mark = marker()
    server.ok("execute_sql", {"sql": f"SELECT '{mark}' AS m"})
    # The pooled connection's session ends between two calls.
    with shop.engine.connect() as conn:
        if shop.name == "postgresql":
            conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE strpos(query, %(mark)s) > 0 AND pid <> pg_backend_pid()",
                {"mark": mark},
            )
        else:
            ids = conn.exec_driver_sql(
                "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = DATABASE() "
                "AND ID <> CONNECTION_ID()"
            ).all()
            for (session,) in ids:
                conn.exec_driver_sql(f"KILL {int(session)}")
    out = server.ok("select_rows", {"table": "customers"})
    assert out["rowCount"] == 3
    assert "recovered" not in out


# -- a failed transaction ------------------------------------------------------------


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_each_call_starts_clean(serve: Callable[..., InProcessServer], shop: Backend) -> None:
    """A model that thinks it holds a session: BEGIN, a failure, then more work."""
    server = serve(allow_multi_statement=True)
    server.ok("execute_sql", {"sql": "BEGIN"})
    missing = f"SELECT * FROM {marker()}"
    failed = server.fail("execute_sql", {"sql": missing})
    # The real cause, never "current transaction is aborted".
    assert failed["details"]["kind"] == "undefined_table"
    assert server.ok("execute_sql", {"sql": "SELECT 1 AS one"})["data"] == [{"one": 1}]
    within = server.fail("execute_sql", {"sql": f"BEGIN; {missing}; SELECT 2"})
    assert within["details"]["kind"] == "undefined_table"
    out = server.ok("select_rows", {"table": "customers"})
    assert out["rowCount"] == 3
    assert "recovered" not in out


def abort_once(db: Database, *, first: bool) -> list[bool]:
    """Leave the next pooled connection in a failed transaction, as a foreign hook could."""
    fired: list[bool] = []

    def checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        if fired:
            return
        fired.append(True)
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT 1 / 0")
        except Exception:  # noqa: S110 - the failure is the point: the transaction aborts
            pass
        finally:
            cursor.close()

    # Before the server's own checkout guard (insert=True), or after it.
    sa.event.listen(db.engine, "checkout", checkout, insert=first)
    return fired


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_failed_transaction_on_a_pooled_connection_is_rolled_back_first(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    server = serve()
    fired = abort_once(server.db, first=True)
    out = server.ok("select_rows", {"table": "customers"})
    assert fired == [True]
    assert out["rowCount"] == 3
    assert out["recovered"] == [
        {"kind": "transaction_aborted", "action": "rollback", "done": "rolled_back", "rerun": False}
    ]


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_25p02_that_surfaces_is_rolled_back_and_the_call_runs_again(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    server = serve()
    fired = abort_once(server.db, first=False)
    out = server.ok("insert_rows", {"table": "products", "rows": [{"name": "nib", "price": 2}]})
    assert fired == [True]
    assert out["insertedCount"] == 1
    assert out["recovered"] == [
        {"kind": "transaction_aborted", "action": "rollback", "done": "rolled_back", "rerun": True}
    ]
    # Run once, committed once.
    assert shop.scalar("SELECT count(*) FROM products WHERE name = 'nib'") == 1


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_the_guard_and_the_rerun_are_what_a_bare_engine_would_meet(shop: Backend) -> None:
    """Without the server, the same pooled connection answers 25P02: the tests above are real."""
    db = Database(shop.url, timeout=10)
    try:
        abort_once(db, first=False)
        # The server's own guard ran before the hook: the hook's failure stays.
        with pytest.raises(sa.exc.DBAPIError) as caught, db.transaction(write=False) as conn:
            conn.exec_driver_sql("SELECT 1")
        assert getattr(caught.value.orig, "sqlstate", None) == IN_FAILED_TRANSACTION
    finally:
        db.dispose()


# -- the statement timeout stops the statement on the server ----------------------------

SLOW = {
    "postgresql": "SELECT pg_sleep(30), '{mark}' AS m",
    "mysql": "SELECT SLEEP(30), '{mark}' AS m",
    # These count for hours; only the server's interrupt stops them.
    "sqlite": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
    "SELECT count(*), '{mark}' AS m FROM c",
    "duckdb": "SELECT count(*), '{mark}' AS m FROM range(1000000000000000)",
}


def busy_seconds(window: float = 0.5) -> float:
    """CPU seconds this process spends in *window* seconds (every thread)."""
    start = time.process_time()
    time.sleep(window)
    return time.process_time() - start


def test_the_statement_timeout_stops_the_statement_on_the_server(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    server = serve(timeout=1)
    mark = marker()
    started = time.monotonic()
    payload = server.fail("execute_sql", {"sql": SLOW[shop.name].format(mark=mark)})
    elapsed = time.monotonic() - started
    details = payload["details"]
    # The statement's own time limit ran out: narrow it, do not send it again unchanged.
    assert (payload["error_code"], details["action"], details["retry_safety"]) == (
        "STATEMENT_TIMEOUT",
        "fix_query",
        "not_applicable",
    )
    assert elapsed < 8, elapsed
    if shop.name in ("postgresql", "mysql"):
        # The database server runs it no more (pg_stat_activity, the processlist).
        assert running(shop, mark) is None
        # Not the client giving up: the server cancelled it (its own error).
        assert details["backend"] != "mcp"
    else:
        # In-process engines: the interrupted statement no longer burns a CPU.
        assert busy_seconds() < 0.25
    assert server.ok("select_rows", {"table": "products"})["rowCount"] == 2


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_an_interrupted_sqlite_read_lets_go_of_its_lock(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    """While the query runs a writer cannot commit; once it is interrupted, it can at once."""
    server = serve(timeout=2)
    path = str(sa.make_url(shop.url).database)
    outcome: dict[str, Any] = {}

    def read() -> None:
        # Endless, and reading a table of the file all along: it holds a shared lock.
        sql = (
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
            "SELECT count(*) FROM c JOIN products ON products.id > 0"
        )
        outcome["payload"] = server.fail("execute_sql", {"sql": sql})

    reader = threading.Thread(target=read)
    reader.start()
    writer = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        # Until the read has started (however long a loaded machine takes),
        # the writer's commit goes through; from then on the read holds its
        # shared lock and the commit is refused.
        while True:
            writer.execute("BEGIN IMMEDIATE")
            writer.execute("UPDATE products SET price = price")
            try:
                writer.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                refused = str(exc)
                break
            assert reader.is_alive(), "the read ended before it was seen holding its lock"
            time.sleep(0.02)
        assert "locked" in refused
        reader.join()
        writer.execute("COMMIT")  # at once: the read is gone
    finally:
        writer.close()
    assert outcome["payload"]["error_code"] == "STATEMENT_TIMEOUT"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql", "mysql"], indirect=True)
def test_no_pooled_connection_in_time_is_not_a_statement_timeout(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    server = serve(timeout=1)
    pool = server.db.engine.pool
    assert isinstance(pool, sa.pool.QueuePool)
    held = [server.db.engine.connect() for _ in range(pool.size() + pool._max_overflow)]
    try:
        payload = server.fail("list_tables")
    finally:
        for conn in held:
            conn.close()
    details = payload["details"]
    # Nothing reached the database: safe to send again, even a write.
    assert (payload["error_code"], details["action"], details["retry_safety"]) == (
        "TOO_MANY_CONNECTIONS",
        "retry",
        "safe",
    )
    assert server.ok("list_tables")["total"] == 3
