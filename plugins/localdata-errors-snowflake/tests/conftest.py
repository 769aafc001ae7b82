"""Every test discovers the plugins afresh (the registry is process-wide)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from localdata_errors import ErrorMapperRegistry


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    ErrorMapperRegistry.reset()
    yield
    ErrorMapperRegistry.reset()
