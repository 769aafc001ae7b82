"""The CockroachDB refiner passes localdata-errors' compliance suite, codes through psycopg."""

from __future__ import annotations

from typing import ClassVar

import pytest

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite

pytest.importorskip("psycopg")

from test_cockroachdb import RETRY_ERRORS, psycopg_error


class TestCockroachDBCompliance(MapperComplianceSuite):
    """Every check of the suite; declared codes detected and named, through psycopg."""

    # 40001 and 40003 are PostgreSQL's codes too: CockroachDB's own texts tell them apart.
    messages: ClassVar[dict[str, str]] = {
        "40001": RETRY_ERRORS[0],
        "40003": "result is ambiguous (error=rpc error: code = Unavailable)",
    }

    @pytest.fixture
    def mapper(self) -> BackendMapper:
        return ErrorMapperRegistry.get_mapper("cockroachdb")

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        return psycopg_error(code, message)
