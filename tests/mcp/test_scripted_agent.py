"""
A scripted agent proves that an agent can act on the answers alone.

`Agent` is a deterministic policy standing in for a model and the code
around it.  It reads ONLY the structured fields of the tool results, in the server's
default (compact) form: ``action``, ``retry_safety``, ``retry_after_ms``,
``dependencies``, ``dependency_role``, ``did_you_mean``,
``required_arguments``, ``affected_resources``, ``kind``, and the data of a
success.  It never reads a
message or a suggestion.  It runs against real servers (SQLite, PostgreSQL,
MariaDB) through the real MCP client and counts, per scenario:

- **calls**: tool calls sent;
- **model turns**: failures a model must think about (``fix_query``: the
  call has to change);
- **retries in code**: calls the code sends again by itself, without a
  model turn (``retry``, ``reconnect``: a read, or a write whose
  ``retry_safety`` is ``safe``; any other write only once a check showed it
  missing);
- **retries avoided**: failures after which a retry-everything loop would
  have sent the same call again and the policy did not (``stop``;
  ``fix_query``; a write whose outcome was unknown, checked first);
- **server recoveries**: what the server recovered from by itself
  (``recovered`` in a success).

The scenarios: dropping a referenced table, a transient deadlock (on SQLite,
which has no deadlock detector, its lock conflict), an aborted PostgreSQL
transaction, a wrong password (on SQLite, a database file that cannot be
opened), and a connection lost in the middle of an INSERT.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import pytest
import sqlalchemy as sa

from localdata_errors.mcp._sql import Database
from tests.corpus.postgresql import Context as PgContext
from tests.mcp._harness import Backend, InProcessServer
from tests.mcp.test_mcp_recovery import SessionKiller, abort_once, marker, sleep_sql

JSONDict = dict[str, Any]


@dataclass
class Tally:
    """What one scenario cost."""

    calls: int = 0
    model_turns: int = 0
    retries_in_code: int = 0
    retries_avoided: int = 0
    checks: int = 0
    server_recoveries: int = 0


@dataclass
class Agent:
    """A policy that completes steps from the structured fields of the results alone."""

    server: InProcessServer
    tally: Tally = field(default_factory=Tally)
    stopped: JSONDict | None = None
    seen: list[str] = field(default_factory=list)  # error_code of every failure, in order
    max_retries: int = 3

    def send(self, tool: str, arguments: JSONDict) -> tuple[bool, JSONDict]:
        self.tally.calls += 1
        result = self.server.call(tool, arguments)
        content = result.structured_content
        assert isinstance(content, dict)
        if not result.is_error:
            self.tally.server_recoveries += len(content.get("recovered", []))
        else:
            # The compact form leaves `kind` out when it only repeats `error_type`.
            self.seen.append(str(content.get("kind", content["error_type"])).upper())
        return not result.is_error, content

    def do(
        self,
        tool: str,
        arguments: JSONDict,
        *,
        writes: bool,
        check: Callable[[], bool] | None = None,
    ) -> JSONDict | None:
        """Complete one step: its success, or ``None`` once the policy stops."""
        retries = 0
        while True:
            ok, out = self.send(tool, arguments)
            if ok:
                return out
            details = out
            action = details.get("action")
            if action in ("retry", "reconnect", "rollback") and retries < self.max_retries:
                if not writes or details.get("retry_safety") == "safe":
                    # The code's own loop: no model turn.
                    retries += 1
                    self.tally.retries_in_code += 1
                    time.sleep(min(int(details.get("retry_after_ms") or 0), 2000) / 1000)
                    continue
                # A write that may have committed: never re-sent blindly.
                self.tally.retries_avoided += 1
                if check is None:
                    self.stopped = out
                    return None
                self.tally.checks += 1
                if check():
                    return {"success": True, "found_by_check": True}
                retries += 1
                self.tally.retries_in_code += 1
                continue
            if action == "fix_query":
                self.tally.model_turns += 1
                self.tally.retries_avoided += 1
                fixed = self.fix(tool, arguments, details)
                if fixed is None:
                    self.stopped = out
                    return None
                tool, arguments = fixed
                continue
            if action == "stop":
                self.tally.retries_avoided += 1
            self.stopped = out
            return None

    def fix(self, tool: str, arguments: JSONDict, details: JSONDict) -> tuple[str, JSONDict] | None:
        """The model's turn: change the call, from the structured fields alone."""
        required = details.get("required_arguments")
        if required:
            return tool, {**arguments, **required}
        dependencies = details.get("dependencies") or []
        if dependencies and details.get("dependency_role") == "child" and tool == "delete_rows":
            # What references the table goes first, the same way.
            for dependency in dependencies:
                first = {**arguments, "table": dependency}
                if self.do(tool, first, writes=True) is None:
                    return None
            return tool, arguments
        hints = details.get("did_you_mean") or []
        missing = (details.get("affected_resources") or [None])[0]
        if hints and missing:
            if "table" in arguments:
                return tool, {**arguments, "table": hints[0]}
            if "sql" in arguments:
                word = re.compile(rf"\b{re.escape(missing)}\b")
                return tool, {**arguments, "sql": word.sub(hints[0], arguments["sql"], count=1)}
        return None


def record(scenario: str, backend: str, tally: Tally) -> None:
    """Show the scenario's figures (``pytest -s``)."""
    print(f"\nAGENT {scenario} [{backend}] {asdict(tally)}")


@pytest.fixture
def serve(shop: Backend) -> Iterator[Callable[..., InProcessServer]]:
    made: list[InProcessServer] = []

    def build(url: str | None = None, **options: Any) -> InProcessServer:
        options.setdefault("timeout", 10)
        made.append(InProcessServer(Database(url or shop.url, **options), compact=True))
        return made[-1]

    yield build
    for server in made:
        server.close()


AGENT_BACKENDS = pytest.mark.parametrize(
    "backend", ["sqlite", "postgresql", "mysql"], indirect=True
)


# -- 1. drop a parent table --------------------------------------------------------------


@AGENT_BACKENDS
def test_drop_order(serve: Callable[..., InProcessServer], shop: Backend) -> None:
    agent = Agent(serve())
    # The model's first call forgets confirm, and sales still references customers.
    done = agent.do("delete_rows", {"table": "customers", "mode": "drop_table"}, writes=True)
    assert done is not None
    assert done["dropped"] is True
    assert not {"customers", "sales"} & shop.tables()
    assert "products" in shop.tables()
    t = agent.tally
    assert (t.calls, t.model_turns, t.retries_in_code) == (4, 2, 0)
    assert agent.seen[0] == "INVALID_PARAMETER"
    record("drop-order", shop.name, t)


# -- 2. a transient deadlock, retried in code ------------------------------------------------


def _wait_for(predicate: Callable[[], bool], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the server's session never waited for the lock")
        time.sleep(0.05)


def _server_waits_for_a_lock(shop: Backend, other: int) -> bool:
    with shop.engine.connect() as conn:
        if shop.name == "postgresql":
            sql = (
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                f"AND wait_event_type = 'Lock' AND pid <> {other}"
            )
        else:
            # A session of this test's database (the server is shared) running
            # the update of the row the peer holds: it cannot finish before the
            # peer does, so it waits.  INNODB_TRX is no witness: MariaDB 10.11
            # leaves a waiting transaction out of it at times.
            sql = (
                "SELECT count(*) FROM information_schema.PROCESSLIST "
                f"WHERE DB = DATABASE() AND ID <> {other} AND COMMAND = 'Query' "
                "AND INFO LIKE 'UPDATE products SET price = price + 1 WHERE id = 1%%'"
            )
        return bool(conn.exec_driver_sql(sql).scalar())


@contextlib.contextmanager
def deadlocking_peer(shop: Backend) -> Iterator[None]:
    """
    A second session: it locks row 1 of products, and row 2 once the server waits for row 1.

    PostgreSQL: the peer's deadlock_timeout is long, so the server's session
    (1 s, the default) detects the cycle and is the victim.  MariaDB: InnoDB
    rolls back the lighter transaction, and the peer has changed more rows.
    """
    raw = shop.engine.raw_connection()
    cursor = raw.cursor()
    cursor.execute(
        "SELECT pg_backend_pid()" if shop.name == "postgresql" else "SELECT CONNECTION_ID()"
    )
    peer_id = int(cursor.fetchone()[0])
    if shop.name == "postgresql":
        cursor.execute("SET deadlock_timeout = '20s'")
    else:
        cursor.execute("UPDATE customers SET name = CONCAT(name, '~')")
    cursor.execute("UPDATE products SET price = price + 10 WHERE id = 1")

    def close_the_cycle() -> None:
        _wait_for(lambda: _server_waits_for_a_lock(shop, peer_id))
        cursor.execute("UPDATE products SET price = price + 10 WHERE id = 2")
        raw.commit()

    peer = threading.Thread(target=close_the_cycle, daemon=True)
    peer.start()
    try:
        yield
    finally:
        peer.join(30)
        cursor.close()
        raw.close()


@contextlib.contextmanager
def locking_peer(shop: Backend) -> Iterator[None]:
    """SQLite: a second connection holds the write lock for 0.6 s."""
    path = str(sa.make_url(shop.url).database)
    peer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    peer.execute("BEGIN IMMEDIATE")
    peer.execute("UPDATE products SET price = price + 10 WHERE id = 1")
    timer = threading.Timer(0.6, lambda: peer.execute("COMMIT"))
    timer.start()
    try:
        yield
    finally:
        timer.join()
        peer.close()


@AGENT_BACKENDS
def test_a_transient_deadlock_is_retried_in_code(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    if shop.name == "sqlite":
        # A short busy timeout: the server's write gives up while the peer holds the lock.
        server = serve(f"{shop.url}?timeout=0.2", allow_multi_statement=True)
        peer = locking_peer(shop)
        expected = "DATABASE_LOCKED"
    else:
        server = serve(allow_multi_statement=True)
        peer = deadlocking_peer(shop)
        expected = "DEADLOCK_DETECTED"
    agent = Agent(server)
    swap = (
        "UPDATE products SET price = price - 1 WHERE id = 2; "
        "UPDATE products SET price = price + 1 WHERE id = 1"
    )
    with peer:
        done = agent.do("execute_sql", {"sql": swap}, writes=True)
    assert done is not None, agent.stopped
    assert agent.seen == [expected]
    t = agent.tally
    assert (t.calls, t.model_turns, t.retries_in_code, t.retries_avoided) == (2, 0, 1, 0)
    # The peer's changes and the agent's, each once.
    peer_on_2 = 0 if shop.name == "sqlite" else 10
    assert float(shop.scalar("SELECT price FROM products WHERE id = 1")) == 1.5 + 10 + 1
    assert float(shop.scalar("SELECT price FROM products WHERE id = 2")) == 7.25 + peer_on_2 - 1
    record("transient-deadlock", shop.name, t)


# -- 3. an aborted PostgreSQL transaction --------------------------------------------------


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_an_aborted_transaction_is_recovered(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    server = serve()
    agent = Agent(server)
    # Something left the next pooled connection in a failed transaction (25P02).
    abort_once(server.db, first=False)
    added = agent.do("insert_rows", {"table": "customers", "rows": [{"name": "Dee"}]}, writes=True)
    assert added is not None
    assert added["insertedCount"] == 1
    # The model believes it holds a session: BEGIN, a mistake, the next step.
    assert agent.do("execute_sql", {"sql": "BEGIN"}, writes=True) is not None
    counted = agent.do("execute_sql", {"sql": "SELECT count(*) AS n FROM customer"}, writes=False)
    assert counted is not None
    assert counted["data"] == [{"n": 4}]
    assert agent.seen == ["UNDEFINED_TABLE"]  # never TRANSACTION_ABORTED
    t = agent.tally
    assert (t.calls, t.model_turns, t.retries_in_code, t.server_recoveries) == (4, 1, 0, 1)
    assert shop.scalar("SELECT count(*) FROM customers WHERE name = 'Dee'") == 1
    record("aborted-transaction", shop.name, t)


# -- 4. a wrong password --------------------------------------------------------------------


@pytest.fixture
def wrong_password_url(shop: Backend) -> Iterator[str]:
    """A URL the server refuses at login; on SQLite, a file that cannot be opened."""
    if shop.name == "sqlite":
        yield f"sqlite:////nonexistent-{secrets.token_hex(3)}/shop.db"
        return
    if shop.name == "postgresql":
        # The shared server trusts every local login: a throwaway one checks passwords.
        context = PgContext()
        try:
            host, port = context.instance()
            yield f"postgresql+psycopg://postgres:wrong-password@{host}:{port}/postgres"
        finally:
            context.close()
        return
    user = f"lde_mcp_{secrets.token_hex(3)}"
    with shop.engine.begin() as conn:
        conn.exec_driver_sql(f"CREATE USER '{user}'@'%%' IDENTIFIED BY 'right-password'")
        conn.exec_driver_sql(f"CREATE USER '{user}'@'localhost' IDENTIFIED BY 'right-password'")
    url = sa.make_url(shop.url).set(username=user, password="wrong-password")
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with shop.engine.begin() as conn:
            conn.exec_driver_sql(f"DROP USER '{user}'@'%%'")
            conn.exec_driver_sql(f"DROP USER '{user}'@'localhost'")


@AGENT_BACKENDS
def test_a_wrong_password_stops_after_one_call(
    serve: Callable[..., InProcessServer], shop: Backend, wrong_password_url: str
) -> None:
    # create: a SQLite file in a directory that does not exist cannot be made either.
    agent = Agent(serve(wrong_password_url, create=True))
    assert agent.do("list_tables", {}, writes=False) is None
    assert agent.stopped is not None
    details = agent.stopped
    assert details["action"] == "stop"
    # PostgreSQL 28P01 and MariaDB 1045 are a wrong password; SQLite cannot open the file.
    expected = "CONNECTION_MISCONFIGURED" if shop.name == "sqlite" else "INVALID_PASSWORD"
    assert agent.seen == [expected]
    assert "wrong-password" not in str(agent.stopped)
    t = agent.tally
    assert (t.calls, t.model_turns, t.retries_in_code, t.retries_avoided) == (1, 0, 0, 1)
    record("wrong-password", shop.name, t)


# -- 5. a connection lost in the middle of an INSERT ------------------------------------------


@pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)
def test_a_lost_insert_is_checked_before_it_is_sent_again(
    serve: Callable[..., InProcessServer], shop: Backend
) -> None:
    agent = Agent(serve())
    mark = marker()
    insert = {
        "sql": f"INSERT INTO products (id, name, price) SELECT 99, '{mark}', 1 "
        f"FROM {sleep_sql(shop, 1.5)} s"
    }

    def exists() -> bool:
        found = agent.do(
            "select_rows",
            {"table": "products", "filters": [{"column": "id", "value": 99}]},
            writes=False,
        )
        return found is not None and found["rowCount"] == 1

    killer = SessionKiller(shop, mark)
    killer.start()
    done = agent.do("execute_sql", insert, writes=True, check=exists)
    killer.join()
    assert killer.killed
    assert done is not None
    assert agent.seen == ["ADMIN_SHUTDOWN" if shop.name == "postgresql" else "CONNECTION_LOST"]
    t = agent.tally
    assert (t.calls, t.model_turns, t.retries_in_code, t.retries_avoided, t.checks) == (
        3,
        0,
        1,
        1,
        1,
    )
    assert shop.scalar(f"SELECT count(*) FROM products WHERE name = '{mark}'") == 1
    record("lost-insert", shop.name, t)
