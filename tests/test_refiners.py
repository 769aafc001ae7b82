"""Refiners: a system that speaks a base backend's protocol refines that backend's answer."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from localdata_errors import (
    ErrorInput,
    ErrorRefiner,
    Kind,
    MappedError,
    MapperRegistry,
    RefinerClaims,
    classify_error,
    classify_message,
)
from localdata_errors.testing import check_hostile_inputs


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
    claims = RefinerClaims(markers=("ledger",))

    def __init__(self) -> None:
        self.asked = 0

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        self.asked += 1
        if "ledger" not in error.message:
            return None
        assert base is not None
        assert base.kind is Kind.UNDEFINED_TABLE
        return base._replace(kind=Kind.LOCK_NOT_AVAILABLE, code="LF-1")


def _registry(*refiners: ErrorRefiner) -> MapperRegistry:
    registry = MapperRegistry(plugins=False)
    for refiner in refiners:
        registry.register(refiner.name, refiner)
    return registry


def test_a_detected_error_is_refined_when_the_refiner_recognises_it() -> None:
    fork = LiteFork()
    registry = _registry(fork)
    mine = classify_error(_sqlite_error("SELECT * FROM ledger"), registry=registry)
    assert (mine.kind, mine.backend, mine.database_error_code) == (
        Kind.LOCK_NOT_AVAILABLE,
        "litefork",
        "LF-1",
    )
    assert mine.action == "retry"
    # The base backend's names are kept.
    assert mine.affected_resources == ("ledger",)
    assert fork.asked == 1


def test_a_refiner_is_not_asked_about_errors_its_claims_do_not_match() -> None:
    fork = LiteFork()
    registry = _registry(fork)
    for sql in ("SELECT * FROM orders", "SELEC 1", "SELECT nope FROM sqlite_master"):
        other = classify_error(_sqlite_error(sql), registry=registry)
        assert other.backend == "sqlite"
    assert fork.asked == 0


class ByCode(ErrorRefiner):
    name = "bycode"
    refines = ("sqlite",)
    claims = RefinerClaims(codes=frozenset({"SQLITE_BUSY"}))

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        return None if base is None else base._replace(kind=Kind.SERIALIZATION_FAILURE)


def test_a_code_claim_is_looked_up_in_the_base_answer_and_the_explicit_code() -> None:
    registry = _registry(ByCode())
    busy = classify_message("database is locked", "sqlite", code="SQLITE_BUSY", registry=registry)
    assert (busy.backend, busy.kind) == ("bycode", Kind.SERIALIZATION_FAILURE)
    other = classify_message("no such table: t", "sqlite", registry=registry)
    assert other.backend == "sqlite"


def test_a_named_refiner_runs_the_base_mapper_first() -> None:
    registry = _registry(LiteFork())
    named = classify_error(
        _sqlite_error("SELECT * FROM orders"), db_type="litefork", registry=registry
    )
    assert (named.kind, named.backend) == (Kind.UNDEFINED_TABLE, "litefork")
    assert named.database_error_code == "SQLITE_ERROR"


class Broken(ErrorRefiner):
    name = "brokenfork"
    refines = ("sqlite",)
    claims = RefinerClaims(markers=("orders",))

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        raise RuntimeError("bug")


def test_a_raising_refiner_leaves_the_base_answer(caplog: pytest.LogCaptureFixture) -> None:
    registry = _registry(Broken())
    with caplog.at_level(logging.WARNING, logger="localdata_errors"):
        answer = classify_error(_sqlite_error("SELECT * FROM orders"), registry=registry)
    assert (answer.kind, answer.backend) == (Kind.UNDEFINED_TABLE, "sqlite")
    assert any("refiner" in r.getMessage() for r in caplog.records)


class RefinesItself(ErrorRefiner):
    name = "selfish"
    refines = ("selfish",)

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        return None


def test_a_refiner_must_name_another_backend() -> None:
    with pytest.raises(ValueError, match="refines"):
        MapperRegistry(plugins=False).register("selfish", RefinesItself())


class Overreaching(ErrorRefiner):
    """Answers errors its claims do not cover: the core would never ask it about them."""

    name = "overreach"
    refines = ("sqlite",)
    claims = RefinerClaims(markers=("ledger",))

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        return MappedError(Kind.LOCK_NOT_AVAILABLE) if "does not exist" in error.message else None


def test_the_compliance_suite_holds_a_refiner_to_its_claims() -> None:
    problems = check_hostile_inputs(Overreaching())
    assert any("claims do not match" in p for p in problems), problems
    assert not [p for p in check_hostile_inputs(LiteFork()) if "claims" in p]


class ByKind(ErrorRefiner):
    """Markers looked for only among the base answers of some kinds."""

    name = "bykind"
    refines = ("sqlite",)
    claims = RefinerClaims(markers=("orders",), kinds=frozenset({Kind.DATABASE_LOCKED}))

    def __init__(self) -> None:
        self.asked = 0

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        self.asked += 1
        return None if base is None else base._replace(kind=Kind.SERIALIZATION_FAILURE)


def test_markers_are_looked_for_only_among_the_claimed_base_kinds() -> None:
    refiner = ByKind()
    registry = _registry(refiner)
    # The marker is there, but the base answer's kind is not claimed: not asked.
    missing = classify_error(_sqlite_error("SELECT * FROM orders"), registry=registry)
    assert (missing.backend, refiner.asked) == ("sqlite", 0)
    locked = classify_message(
        "database is locked (orders)", "sqlite", code="SQLITE_BUSY", registry=registry
    )
    assert (locked.backend, locked.kind, refiner.asked) == (
        "bykind",
        Kind.SERIALIZATION_FAILURE,
        1,
    )
