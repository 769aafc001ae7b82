"""
The ClickHouse mapper passes localdata-errors' plugin compliance suite.

Declared codes are checked through the exception clickhouse-connect raises
for a server's error reply (its own ``build_http_error``), with the text a
ClickHouse server sends: ``Code: N. DB::Exception: ... (NAME)``.
"""

from __future__ import annotations

import pytest
from clickhouse_connect.driver._backend import httpcommon
from localdata_errors_clickhouse import ERROR_NAMES

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite


@pytest.fixture
def mapper() -> BackendMapper:
    """The ClickHouse mapper, as its entry point registers it."""
    return ErrorMapperRegistry.get_mapper("clickhouse")


class TestClickHouseCompliance(MapperComplianceSuite):
    """Every check of the suite, one test each."""

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        body = f"Code: {code}. DB::Exception: {message}. ({ERROR_NAMES[int(code)]})\n"
        return httpcommon.build_http_error(500, code, body, True, "http://127.0.0.1:8123", False)
