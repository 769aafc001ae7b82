"""
The BigQuery mapper passes localdata-errors' plugin compliance suite.

Declared reasons are checked through the exception google-cloud-bigquery
raises for a job that failed with that reason.
"""

from __future__ import annotations

import pytest
from bigquery_errors import job_error

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite


@pytest.fixture
def mapper() -> BackendMapper:
    """The BigQuery mapper, as its entry point registers it."""
    return ErrorMapperRegistry.get_mapper("bigquery")


class TestBigQueryCompliance(MapperComplianceSuite):
    """Every check of the suite, one test each."""

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        return job_error(code, message)
