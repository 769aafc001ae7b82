"""psycopg_pool against the real server: an exhausted pool is a back-off, never a rewrite."""

from __future__ import annotations

import pytest

from localdata_errors import classify_error
from localdata_errors._kinds import Action, Kind, RetrySafety
from tests.conftest import require_module


def test_an_exhausted_pool_is_retried_after_a_back_off(pg_server: dict[str, object]) -> None:
    psycopg_pool = require_module("psycopg_pool")
    conninfo = " ".join(f"{key}={value}" for key, value in pg_server.items())
    with psycopg_pool.ConnectionPool(conninfo, min_size=1, max_size=1, open=True) as pool:
        held = pool.getconn()
        try:
            with pytest.raises(psycopg_pool.PoolTimeout) as caught:
                pool.getconn(timeout=0.2)
        finally:
            pool.putconn(held)
    answer = classify_error(caught.value)
    assert answer.database == "postgresql"
    assert answer.kind is Kind.TOO_MANY_CONNECTIONS
    assert answer.action is Action.RETRY
    # Nothing reached the server: safe even for a write.
    assert answer.retry_safety is RetrySafety.SAFE
