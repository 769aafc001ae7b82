"""
Real errors from the running PostgreSQL server, through every PostgreSQL driver.

The cases and their expectations live in :mod:`tests.corpus.postgresql`,
shared with the accuracy benchmark; each is triggered here once per driver
(psycopg 3, psycopg2, asyncpg, and SQLAlchemy over each) and every part of
the answer a caller relies on is checked.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from localdata_errors import KIND_TABLE, ErrorCategory, Kind, classify_error
from tests.conftest import require_module
from tests.corpus import CorpusCase, score
from tests.corpus.postgresql import CASES, DRIVERS, Context, Driver, PgCase, trigger

pytestmark = pytest.mark.postgresql

PAIRS = [
    pytest.param(case, driver, id=f"{case.name}-{driver.name}")
    for case in CASES
    for driver in DRIVERS
    if case.applies_to(driver)
]


@pytest.fixture(scope="module")
def ctx(pg_server: dict[str, object]) -> Iterator[Context]:
    """This module's own schema and roles (and throwaway instance), dropped afterwards."""
    require_module("psycopg")
    context = Context().open()
    try:
        yield context
    finally:
        context.close()


def _require(driver: Driver) -> None:
    require_module(driver.module)
    if driver.name.startswith("sqlalchemy"):
        require_module("sqlalchemy")
    if driver.name == "sqlalchemy+asyncpg":
        require_module("greenlet")


def test_at_least_forty_distinct_cases() -> None:
    assert len({case.name for case in CASES}) == len(CASES) >= 40


@pytest.mark.parametrize(("case", "driver"), PAIRS)
def test_real_error_is_classified(ctx: Context, case: PgCase, driver: Driver) -> None:
    _require(driver)
    exc = trigger(ctx, case, driver)
    expected = case.expected_for(driver)
    answer = classify_error(exc, db_type=case.db_type.get(driver.name))
    got = (
        answer.kind,
        answer.database_error_code,
        answer.affected_resources,
        answer.dependencies,
        answer.constraint,
        answer.schema,
        answer.message,
    )

    assert answer.kind is expected.kind, got
    info = KIND_TABLE[expected.kind]
    assert answer.error_type is info.category, got
    assert answer.is_retryable is info.retryable, got
    if expected.code is not None:
        assert answer.database_error_code == expected.code, got
    for name in expected.resources:
        assert name in answer.affected_resources, got
    for name in expected.dependencies:
        assert name in answer.dependencies, got
    # A table blocked by dependents is never its own dependency, and vice versa.
    assert not set(answer.dependencies) & set(expected.resources), got
    if expected.constraint is not None:
        assert answer.constraint == expected.constraint, got
    # The message is the driver's own text, not a paraphrase.
    assert answer.message.split("\n")[0].strip() in str(exc) or answer.message in str(exc), got
    # The scorer of the accuracy benchmark agrees.
    assert score(CorpusCase("postgresql", driver.name, case.name, exc, expected), answer).all


def test_qualified_name_keeps_case_and_reports_schema(ctx: Context) -> None:
    case = next(c for c in CASES if c.name == "undefined_table_qualified_mixed_case")
    for driver in DRIVERS:
        _require(driver)
        answer = classify_error(trigger(ctx, case, driver))
        assert answer.affected_resources == ("Orders",), driver.name
        assert answer.schema == f"{ctx.schema}_empty", driver.name


def test_detected_without_db_type_from_the_driver_module(ctx: Context) -> None:
    case = next(c for c in CASES if c.name == "foreign_key_child_insert")
    for driver in DRIVERS:
        _require(driver)
        answer = classify_error(trigger(ctx, case, driver))
        assert answer.backend == "postgresql", driver.name
        assert answer.database == "postgresql", driver.name
        assert answer.sqlstate == "23503", driver.name
        # The key columns of the DETAIL are data, not resources.
        assert "customer_id" not in answer.affected_resources, driver.name
        tool = answer.to_tool_error()
        assert tool["error_type"] == "foreign_key_constraint", driver.name
        assert tool["dependencies"] == ["customers"], driver.name


def test_fatal_start_up_errors_keep_the_servers_code(ctx: Context) -> None:
    # libpq reports a refused start-up as text; the answer still carries the
    # SQLSTATE the server sent, like asyncpg's, so every driver agrees.
    case = next(c for c in CASES if c.name == "unknown_database")
    codes = set()
    for driver in DRIVERS:
        _require(driver)
        answer = classify_error(trigger(ctx, case, driver))
        codes.add(answer.database_error_code)
        assert answer.kind is Kind.UNDEFINED_DATABASE
    assert codes == {"3D000"}


def test_transaction_aborted_says_roll_back(ctx: Context) -> None:
    case = next(c for c in CASES if c.name == "transaction_aborted")
    for driver in DRIVERS:
        _require(driver)
        answer = classify_error(trigger(ctx, case, driver))
        assert answer.error_type is not ErrorCategory.TRANSIENT_ERROR
        assert answer.suggested_actions[0].startswith("ROLLBACK")
