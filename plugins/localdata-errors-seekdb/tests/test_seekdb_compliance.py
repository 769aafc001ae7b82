"""
The SeekDB mapper passes localdata-errors' plugin compliance suite.

Declared codes are checked through the exceptions a client of a real server
gets: pymysql's own ``raise_mysql_exception`` on OceanBase's error packet.
"""

from __future__ import annotations

import struct

import pytest

from localdata_errors import DatabaseErrorMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite

pymysql = pytest.importorskip("pymysql")


@pytest.fixture
def mapper() -> DatabaseErrorMapper:
    """The SeekDB mapper, as its entry point registers it."""
    return ErrorMapperRegistry.get_mapper("seekdb")


class TestSeekDBCompliance(MapperComplianceSuite):
    """Every check of the suite, one test each."""

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        packet = b"\xff" + struct.pack("<H", int(code)) + b"#HY000" + message.encode()
        try:
            pymysql.err.raise_mysql_exception(packet)
        except pymysql.err.MySQLError as exc:
            return exc
        raise AssertionError("pymysql raised nothing")
