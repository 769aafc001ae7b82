"""
Both refiners pass localdata-errors' plugin compliance suite.

Supavisor's declared codes are checked through the exceptions asyncpg builds
from Supavisor's reply (``FATAL``, ``XX000``, ``(CODE) message``), detected
(no ``db_type``) and named.  PgBouncer declares no codes (its errors share
08P01); its messages are checked in ``test_pgbouncer_messages.py``.
"""

from __future__ import annotations

from typing import ClassVar

import pytest
from localdata_errors_pgbouncer import _messages

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite

asyncpg = pytest.importorskip("asyncpg")


class TestPgBouncerCompliance(MapperComplianceSuite):
    """Every check of the suite on the PgBouncer refiner."""

    @pytest.fixture
    def mapper(self) -> BackendMapper:
        return ErrorMapperRegistry.get_mapper("pgbouncer")


class TestSupavisorCompliance(MapperComplianceSuite):
    """Every check of the suite on the Supavisor refiner, codes through asyncpg."""

    messages: ClassVar[dict[str, str]] = {
        code: f"({code}) " + (templates[0] if templates else "error").replace("%s", "x")
        for code, (_, templates) in _messages.SUPAVISOR_ERRORS.items()
    }

    @pytest.fixture
    def mapper(self) -> BackendMapper:
        return ErrorMapperRegistry.get_mapper("supavisor")

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        exc: BaseException = asyncpg.exceptions.PostgresError.new(
            {"S": "FATAL", "V": "FATAL", "C": "XX000", "M": message}
        )
        return exc
