"""
The outside sources, read once per session: skipped where absent, a failure in CI.

oslo.db comes with the `test` extra; the Spring JDBC jar with Debian's
`libspring-jdbc-java` (`.ci/run` installs it).
"""

from __future__ import annotations

from typing import NoReturn

import pytest

from tests.conftest import IN_CI
from tests.external import oslo, spring


def _missing(why: str) -> NoReturn:
    if IN_CI:
        pytest.fail(f"CI=true and {why}", pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="session")
def oslo_cases() -> oslo.Loaded:
    """oslo.db's cases, from the installed oslo.db's test module."""
    try:
        return oslo.load()
    except oslo.Unavailable as exc:
        why = str(exc)
    _missing(why)


@pytest.fixture(scope="session")
def spring_cases() -> spring.Loaded:
    """Spring's listed codes, from the Spring JDBC jar on this machine."""
    try:
        return spring.load()
    except spring.Unavailable as exc:
        why = str(exc)
    _missing(why)
