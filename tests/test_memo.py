"""
The memo of answers: a repeated error is answered from memory, and never wrongly.

The core remembers answers keyed on the mapper, the exception's class, its
text, the explicit code and what the mapper's ``cache_key`` says it reads.
Whatever the memo holds, the answer must be the one a fresh classification
gives.
"""

from __future__ import annotations

import sqlite3

import pytest

import localdata_errors.classify as core
from localdata_errors import (
    DatabaseErrorMapper,
    ErrorMapperRegistry,
    Kind,
    classify_error,
    classify_message,
)
from localdata_errors.mapper import ErrorInput, MappedError


def _sqlite_errors() -> list[sqlite3.Error]:
    con = sqlite3.connect(":memory:")
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("CREATE TABLE p (id INTEGER PRIMARY KEY)")
    con.execute("CREATE TABLE c (id INTEGER PRIMARY KEY, p_id INTEGER NOT NULL REFERENCES p(id),"
                " n TEXT CHECK (length(n) < 3) UNIQUE)")
    con.execute("INSERT INTO p VALUES (1)")
    con.execute("INSERT INTO c VALUES (1, 1, 'a')")
    found = []
    for sql in ("SELECT * FROM nope", "SELECT nope FROM p", "SELEC 1",
                "INSERT INTO c VALUES (2, 1, 'a')", "INSERT INTO c VALUES (1, 1, 'b')",
                "INSERT INTO c VALUES (3, NULL, 'c')", "INSERT INTO c VALUES (4, 9, 'd')",
                "INSERT INTO c VALUES (5, 1, 'long')", "CREATE TABLE p (x)"):
        try:
            con.execute(sql)
        except sqlite3.Error as exc:
            found.append(exc)
    assert len(found) == 9
    return found


def test_a_remembered_answer_is_the_fresh_answer() -> None:
    for exc in _sqlite_errors():
        core._MEMO.clear()
        fresh = classify_error(exc)
        again = classify_error(exc)
        assert again is fresh  # from memory
        core._MEMO.clear()
        assert classify_error(exc) == fresh


def test_same_text_other_code_is_another_answer() -> None:
    # Two exceptions with one text: the extended result code decides the kind.
    busy = sqlite3.OperationalError("the same words")
    busy.sqlite_errorcode = 5  # type: ignore[attr-defined]  # SQLITE_BUSY
    full = sqlite3.OperationalError("the same words")
    full.sqlite_errorcode = 13  # type: ignore[attr-defined]  # SQLITE_FULL
    first = classify_error(busy)
    second = classify_error(full)
    assert first.database_error_code == "SQLITE_BUSY"
    assert first.kind is Kind.DATABASE_LOCKED
    assert second.database_error_code == "SQLITE_FULL"
    assert second.kind is Kind.DISK_FULL


def test_same_text_other_db_type_code_database_or_secret_is_another_answer() -> None:
    text = "Deadlock found when trying to get lock; try restarting transaction"
    mysql = classify_message(text, "mysql", 1213)
    assert mysql.database_error_code == "1213"
    assert classify_message(text, "mysql", 1205).database_error_code == "1205"
    assert classify_message(text, "generic").backend == "generic"
    assert classify_message(text, "mysql", 1213, database="shop").database == "shop"
    assert "restarting" not in classify_message(text, "mysql", 1213,
                                                secrets=["restarting"]).message
    assert classify_message(text, "mysql", 1213) == mysql


class _Counting(DatabaseErrorMapper):
    name = "lde_countdb"
    driver_modules = ("lde_count",)

    def __init__(self, kind: Kind = Kind.UNDEFINED_TABLE) -> None:
        self.calls = 0
        self.kind = kind

    def map_error(self, error: ErrorInput) -> MappedError | None:
        self.calls += 1
        return MappedError(kind=self.kind, code="C1")


class _CountingCacheable(_Counting):
    def cache_key(self, error: ErrorInput) -> tuple[()]:
        return ()


def test_a_mapper_without_cache_key_is_asked_every_time() -> None:
    mapper = _Counting()
    ErrorMapperRegistry.register("lde_countdb", mapper)
    for _ in range(3):
        assert classify_message("boom", "lde_countdb").kind is Kind.UNDEFINED_TABLE
    assert mapper.calls == 3


def test_a_mapper_with_cache_key_is_asked_once_per_error() -> None:
    mapper = _CountingCacheable()
    ErrorMapperRegistry.register("lde_countdb", mapper)
    for _ in range(3):
        classify_message("boom", "lde_countdb")
    classify_message("another boom", "lde_countdb")
    assert mapper.calls == 2


def test_a_new_registration_is_never_answered_by_the_old_mapper() -> None:
    ErrorMapperRegistry.register("lde_countdb", _CountingCacheable(Kind.UNDEFINED_TABLE))
    assert classify_message("boom", "lde_countdb").kind is Kind.UNDEFINED_TABLE
    ErrorMapperRegistry.register("lde_countdb", _CountingCacheable(Kind.DEADLOCK_DETECTED))
    assert classify_message("boom", "lde_countdb").kind is Kind.DEADLOCK_DETECTED


class _BadKey(_Counting):
    def cache_key(self, error: ErrorInput) -> object:
        raise RuntimeError("bug in cache_key")


@pytest.mark.parametrize("secrets", [[["unhashable"]], [{"a": 1}]])
def test_unhashable_inputs_and_broken_keys_are_not_remembered(secrets: list[object]) -> None:
    mapper = _BadKey()
    ErrorMapperRegistry.register("lde_countdb", mapper)
    assert classify_message("boom", "lde_countdb").kind is Kind.UNDEFINED_TABLE
    assert classify_message("boom", "lde_countdb").kind is Kind.UNDEFINED_TABLE
    assert mapper.calls == 2
    resp = classify_message("no such table: t", "sqlite", secrets=secrets)
    assert resp.kind is Kind.UNDEFINED_TABLE


def test_the_memo_is_bounded() -> None:
    core._MEMO.clear()
    for i in range(core.MEMO_LIMIT + 50):
        classify_message(f"no such table: t{i}", "sqlite")
    assert 0 < len(core._MEMO) <= core.MEMO_LIMIT


def test_long_messages_are_not_remembered() -> None:
    core._MEMO.clear()
    classify_message("no such table: t " + "x" * core.MEMO_TEXT_LIMIT, "sqlite")
    assert len(core._MEMO) == 0


@pytest.mark.parametrize("backend", ["sqlite", "duckdb", "oracle", "mssql"])
def test_every_corpus_error_is_remembered_exactly(backend: str) -> None:
    # The embedded engines' real errors and the driver-built Oracle / SQL Server
    # ones: the remembered answer, the fresh one, and the one after forgetting agree.
    if backend == "duckdb":
        pytest.importorskip("duckdb", reason="the duckdb extra is not installed")
    from bench._corpora import load

    ((_, cases),) = list(load((backend,)))
    assert not isinstance(cases, str), cases
    assert len(cases) > 50
    fresh = []
    for case in cases:
        core._MEMO.clear()
        fresh.append(classify_error(case.exception, case.db_type))
    # All of them remembered at once: no two errors may share an answer wrongly.
    core._MEMO.clear()
    for _ in range(2):
        for case, expected in zip(cases, fresh, strict=True):
            assert classify_error(case.exception, case.db_type) == expected, case.name
