"""
The SeekDB mapper passes localdata-errors' plugin compliance suite.

Declared codes are checked through the exceptions SeekDB's embedded engine
raises: pylibseekdb's own `SeekdbError`, with the number at the end of its
text as the engine writes it (`... failed: code=6005`), so that the mapper is
also found without a `db_type`, by the driver's module.
"""

from __future__ import annotations

import os

import pytest

from localdata_errors import BackendMapper, ErrorMapperRegistry
from localdata_errors.testing import MapperComplianceSuite

if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
    import pylibseekdb
else:
    pylibseekdb = pytest.importorskip("pylibseekdb")


@pytest.fixture
def mapper() -> BackendMapper:
    """The SeekDB mapper, as its entry point registers it."""
    return ErrorMapperRegistry.get_mapper("seekdb")


class TestSeekDBCompliance(MapperComplianceSuite):
    """Every check of the suite, one test each."""

    def exception_factory(self, code: str, message: str) -> BaseException | None:
        error: BaseException = pylibseekdb.SeekdbError(f"{message} failed: code={code}")
        return error
