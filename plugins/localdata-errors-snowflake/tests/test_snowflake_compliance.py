"""
The Snowflake mapper passes localdata-errors' plugin compliance suite.

Declared numbers are checked through the exception snowflake-connector-python
makes of its core's error message for that number.
"""

from __future__ import annotations

import pytest
from snowflake_errors import query_error

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite


@pytest.fixture
def mapper() -> BackendMapper:
    """The Snowflake mapper, as its entry point registers it."""
    return ErrorMapperRegistry.get_mapper("snowflake")


class TestSnowflakeCompliance(MapperComplianceSuite):
    """Every check of the suite, one test each."""

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        return query_error(code, message)
