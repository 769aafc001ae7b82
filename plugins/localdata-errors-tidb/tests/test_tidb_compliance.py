"""
The TiDB refiner passes localdata-errors' compliance suite.

Declared numbers are checked through pymysql's own ``raise_mysql_exception``
on an error packet carrying TiDB's message template, detected and named.
"""

from __future__ import annotations

import re
import struct
from typing import ClassVar

import pytest
from localdata_errors_tidb._codes import CODES

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite

pymysql = pytest.importorskip("pymysql")


class TestTiDBCompliance(MapperComplianceSuite):
    """Every check of the suite, numbers through pymysql."""

    messages: ClassVar[dict[str, str]] = {
        str(number): re.sub(r"%[-+ #0-9.]*[a-zA-Z]", "1", entry[1])
        for number, entry in CODES.items()
    }

    @pytest.fixture
    def mapper(self) -> BackendMapper:
        return ErrorMapperRegistry.get_mapper("tidb")

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        packet = b"\xff" + struct.pack("<H", int(code)) + b"#HY000" + message.encode()
        try:
            pymysql.err.raise_mysql_exception(packet)
        except pymysql.err.MySQLError as exc:
            return exc
        raise AssertionError("pymysql raised nothing")
