"""Refiners: a system that speaks a base backend's protocol refines that backend's answer."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from localdata_errors import (
    ErrorMapperRegistry,
    ErrorRefiner,
    Kind,
    MappedError,
    classify_error,
)
from localdata_errors.mapper import ErrorInput


def _sqlite_error(sql: str) -> sqlite3.Error:
    try:
        sqlite3.connect(":memory:").execute(sql)
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("no error")


class LiteFork(ErrorRefiner):
    """A made-up system over SQLite's driver whose missing 'ledger' table means a lock."""

    name = "litefork"
    refines = ("sqlite",)

    def __init__(self) -> None:
        self.asked = 0

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        self.asked += 1
        if "ledger" not in error.message:
            return None
        assert base is not None
        assert base.kind is Kind.UNDEFINED_TABLE
        return base._replace(kind=Kind.LOCK_NOT_AVAILABLE, code="LF-1")


def test_a_detected_error_is_refined_when_the_refiner_recognises_it() -> None:
    fork = LiteFork()
    ErrorMapperRegistry.register("litefork", fork)
    mine = classify_error(_sqlite_error("SELECT * FROM ledger"))
    assert (mine.kind, mine.backend, mine.database_error_code) == (
        Kind.LOCK_NOT_AVAILABLE,
        "litefork",
        "LF-1",
    )
    assert mine.action == "retry"
    # The base backend's names are kept, and other errors stay the base's.
    assert mine.affected_resources == ("ledger",)
    other = classify_error(_sqlite_error("SELECT * FROM orders"))
    assert (other.kind, other.backend) == (Kind.UNDEFINED_TABLE, "sqlite")
    assert fork.asked == 2


def test_a_named_refiner_runs_the_base_mapper_first() -> None:
    ErrorMapperRegistry.register("litefork", LiteFork())
    named = classify_error(_sqlite_error("SELECT * FROM orders"), db_type="litefork")
    assert (named.kind, named.backend) == (Kind.UNDEFINED_TABLE, "litefork")
    assert named.database_error_code == "SQLITE_ERROR"


class Broken(ErrorRefiner):
    name = "brokenfork"
    refines = ("sqlite",)

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        raise RuntimeError("bug")


def test_a_raising_refiner_leaves_the_base_answer(caplog: pytest.LogCaptureFixture) -> None:
    ErrorMapperRegistry.register("brokenfork", Broken())
    with caplog.at_level(logging.WARNING, logger="localdata_errors"):
        answer = classify_error(_sqlite_error("SELECT * FROM orders"))
    assert (answer.kind, answer.backend) == (Kind.UNDEFINED_TABLE, "sqlite")
    assert any("refiner" in r.getMessage() for r in caplog.records)


class RefinesItself(ErrorRefiner):
    name = "selfish"
    refines = ("selfish",)

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        return None


def test_a_refiner_must_name_another_backend() -> None:
    with pytest.raises(ValueError, match="refines"):
        ErrorMapperRegistry.register("selfish", RefinesItself())
