"""
Many threads, one registry: answers stay right while mappers come and go.

16 threads classify real sqlite3 exceptions while another registers and
unregisters a custom mapper in a loop; every answer must equal the one the
same exception gets single-threaded.  First use from many threads at once
(lazy discovery) must not hand anyone a half-built registry either.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    ErrorMapperRegistry,
    Kind,
    MappedError,
    MapperRegistry,
    classify_error,
)

THREADS = 16
ROUNDS = 150


def _real_sqlite_errors() -> list[sqlite3.Error]:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY, email TEXT UNIQUE NOT NULL)")
    conn.execute("INSERT INTO parent VALUES (1, 'a@example.com')")
    errors: list[sqlite3.Error] = []
    for sql in (
        "SELECT * FROM no_such_table",
        "SELECT no_such_column FROM parent",
        "SELEC 1",
        "INSERT INTO parent VALUES (2, 'a@example.com')",
        "INSERT INTO parent VALUES (3, NULL)",
        "CREATE TABLE parent (id INTEGER)",
    ):
        try:
            conn.execute(sql)
        except sqlite3.Error as exc:
            errors.append(exc)
    conn.close()
    assert len(errors) == 6
    return errors


class _ThreadMapper(BackendMapper):
    name = "lde_threaddb"
    driver_modules = ("lde_threaddriver",)

    def map_error(self, error: ErrorInput) -> MappedError | None:
        return MappedError(Kind.DEADLOCK_DETECTED, code="TH-1")


def _snapshot(exc: BaseException) -> dict[str, Any]:
    return classify_error(exc).to_dict()


def _run(workers: list[Callable[[], None]]) -> list[BaseException]:
    failures: list[BaseException] = []

    def guard(fn: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                fn()
            except BaseException as exc:  # collected and re-raised by the test
                failures.append(exc)

        return run

    threads = [threading.Thread(target=guard(w)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a worker hung"
    return failures


def test_answers_stay_right_while_mappers_come_and_go() -> None:
    errors = _real_sqlite_errors()
    expected = [_snapshot(e) for e in errors]
    if "sqlite" in ErrorMapperRegistry.names():
        assert expected[0]["kind"] == Kind.UNDEFINED_TABLE.value
    thread_error = type("ThreadError", (Exception,), {"__module__": "lde_threaddriver"})
    stop = threading.Event()
    start = threading.Barrier(THREADS + 1)

    def classifier(offset: int) -> Callable[[], None]:
        def work() -> None:
            start.wait()
            for i in range(ROUNDS):
                k = (i + offset) % len(errors)
                got = _snapshot(errors[k])
                assert got == expected[k], (k, got, expected[k])
                # The custom mapper's own errors: its answer, or the fallback's when
                # it is unregistered at that instant; never anything else.
                resp = classify_error(thread_error("boom"))
                assert resp.backend in {"lde_threaddb", "generic"}
                if resp.backend == "lde_threaddb":
                    assert resp.kind is Kind.DEADLOCK_DETECTED

        return work

    def churn() -> None:
        start.wait()
        while not stop.is_set():
            ErrorMapperRegistry.register("lde_threaddb", _ThreadMapper())
            ErrorMapperRegistry.list_mappers()
            ErrorMapperRegistry.unregister("lde_threaddb")

    churner = threading.Thread(target=churn)
    churner.start()
    try:
        failures = _run([classifier(n) for n in range(THREADS)])
    finally:
        stop.set()
        churner.join(timeout=60)
    assert failures == []
    assert ErrorMapperRegistry.lookup("lde_threaddb") is None


def test_first_use_from_many_threads_sees_a_complete_registry() -> None:
    errors = _real_sqlite_errors()
    expected = [_snapshot(e) for e in errors]
    for _ in range(5):
        # A registry nobody has used, first used by every thread at once.
        registry = MapperRegistry()
        start = threading.Barrier(THREADS)

        def work(
            offset: int, registry: MapperRegistry = registry, start: threading.Barrier = start
        ) -> Callable[[], None]:
            def run() -> None:
                start.wait()
                for i in range(len(errors)):
                    k = (i + offset) % len(errors)
                    got = classify_error(errors[k], registry=registry).to_dict()
                    assert got == expected[k], (k, got["backend"], expected[k]["backend"])

            return run

        failures = _run([work(n) for n in range(THREADS)])
        assert failures == []
