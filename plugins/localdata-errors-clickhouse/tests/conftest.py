"""Every test gets a new default registry, which discovers the plugins afresh."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from localdata_errors.testing import fresh_default_registry


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    with fresh_default_registry():
        yield
