"""
Real errors from the running MariaDB server, through every MySQL-family driver.

The cases and their expectations live in :mod:`tests.corpus.mysql`, shared
with the accuracy benchmark; each is triggered here once per driver.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from localdata_errors import KIND_TABLE, classify_error
from tests.conftest import require_module
from tests.corpus import score
from tests.corpus.mysql import DRIVERS, SPECS, Driver, Env, Spec, db_type_for, environment, trigger

pytestmark = pytest.mark.mysql


@pytest.fixture(scope="module")
def env(mysql_server: dict[str, object]) -> Iterator[Env]:
    """This module's own database and users, dropped afterwards."""
    require_module("pymysql")
    with environment() as created:
        yield created


def _require(driver: Driver) -> None:
    require_module(driver.module)
    if driver.url:
        require_module("sqlalchemy")
    if driver.api == "sqlalchemy-async":
        require_module("greenlet")


# Every case through one driver, then the next driver: two runs of one case
# (a deadlock) are a whole round of cases apart.
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
@pytest.mark.parametrize("driver", DRIVERS, ids=lambda d: d.name)
def test_real_error_is_classified(env: Env, driver: Driver, spec: Spec) -> None:
    _require(driver)
    exc = trigger(spec, env, driver)
    answer = classify_error(exc, db_type=db_type_for(exc))
    expected = spec.expected
    got = (
        answer.kind,
        answer.database_error_code,
        answer.affected_resources,
        answer.dependencies,
        answer.constraint,
        answer.message,
    )

    assert answer.kind is expected.kind, got
    assert answer.is_retryable is KIND_TABLE[expected.kind].retryable, got
    if expected.code is not None:
        assert answer.database_error_code == expected.code, got
    for name in expected.resources:
        assert name in answer.affected_resources, got
    for name in expected.dependencies:
        assert name in answer.dependencies, got
    if expected.constraint is not None:
        assert answer.constraint == expected.constraint, got
    assert score_all(spec, driver, exc, answer)
    if expected.code is not None:
        assert answer.backend == "mysql"
        # The driver's own words, without pymysql's tuple repr or the "1146 (42S02): " prefix.
        assert not answer.message.startswith(("(", expected.code)), answer.message


def score_all(spec: Spec, driver: Driver, exc: BaseException, answer: object) -> bool:
    """The benchmark's scorer agrees with the assertions above."""
    from localdata_errors import StructuredErrorResponse
    from tests.corpus import CorpusCase

    assert isinstance(answer, StructuredErrorResponse)
    case = CorpusCase("mysql", driver.name, spec.name, exc, spec.expected)
    return score(case, answer).all


def test_sqlstate_is_kept_where_the_driver_reports_it(env: Env) -> None:
    pymysql_driver = next(d for d in DRIVERS if d.name == "pymysql")
    require_module("pymysql")
    spec = next(s for s in SPECS if s.name == "undefined_table")
    answer = classify_error(trigger(spec, env, pymysql_driver))
    assert answer.sqlstate == "42S02"
    assert answer.schema == env.database
