"""The Neon refiner passes localdata-errors' compliance suite."""

from __future__ import annotations

import pytest

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite


class TestNeonCompliance(MapperComplianceSuite):
    """Every check of the suite (Neon declares no codes: its proxy's texts carry its rules)."""

    @pytest.fixture
    def mapper(self) -> BackendMapper:
        return ErrorMapperRegistry.get_mapper("neon")
