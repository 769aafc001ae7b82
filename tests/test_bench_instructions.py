"""bench.instructions' pooled row: every backend's cases, each weighing as many as it has."""

from __future__ import annotations

import pytest

from bench.instructions import Count, pooled


def test_each_backend_weighs_as_many_cases_as_it_has() -> None:
    # One case at 100 and 200 instructions, three at 200 and 300: over four
    # cases, (100 + 3 * 200) / 4 and (200 + 3 * 300) / 4.
    rows: list[list[Count]] = [
        [(100.0, 1, None), (200.0, 1, None)],
        [(200.0, 3, None), (300.0, 3, None)],
    ]
    assert pooled(rows) == [pytest.approx(175.0), pytest.approx(275.0)]


def test_the_pooled_ratio_is_not_the_mean_of_the_backends_ratios() -> None:
    # A backend with few cases and a high ratio moves the pool little.
    rows: list[list[Count]] = [
        [(500.0, 1, None), (100.0, 1, None)],
        [(100.0, 9, None), (100.0, 9, None)],
    ]
    ours, theirs = pooled(rows)
    assert ours / theirs == pytest.approx(1.4)


def test_no_backend_counted_pools_nothing() -> None:
    assert pooled([]) == []
