"""
The Databricks mapper passes localdata-errors' plugin compliance suite.

Every declared error class (hundreds: Spark's list and Databricks' own) is
checked through the ``ServerOperationError`` the Thrift backend raises, with
Databricks' message shape: ``[CLASS] message SQLSTATE: xxxxx``.
"""

from __future__ import annotations

import pytest
from databricks_errors import thrift_error
from localdata_errors_databricks import ALL_CONDITIONS

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite


@pytest.fixture
def mapper() -> BackendMapper:
    """The Databricks mapper, as its entry point registers it."""
    return ErrorMapperRegistry.get_mapper("databricks")


class TestDatabricksCompliance(MapperComplianceSuite):
    """Every check of the suite, one test each."""

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        return thrift_error(code, f"[{code}] {message}. SQLSTATE: {ALL_CONDITIONS[code]}")
