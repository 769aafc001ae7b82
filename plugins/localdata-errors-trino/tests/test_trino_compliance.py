"""
The Trino mapper passes localdata-errors' plugin compliance suite.

Declared codes are checked through the exceptions the trino client raises
for a failed query's error object (``TrinoRequest.process``).
"""

from __future__ import annotations

import pytest
from trino_errors import trino_error

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite


@pytest.fixture
def mapper() -> BackendMapper:
    """The Trino mapper, as its entry point registers it."""
    return ErrorMapperRegistry.get_mapper("trino")


class TestTrinoCompliance(MapperComplianceSuite):
    """Every check of the suite, one test each."""

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        return trino_error(code, message)
