"""
localdata-mcp's names for what this library does, so its users' code runs unchanged.

localdata-mcp's plugin guide falls back to `GenericDatabaseErrorMapper` for
what its own mapper does not recognise; here that is the keyword fallback's
whole answer.
"""

from __future__ import annotations

from localdata_errors._classify import classify_error
from localdata_errors._mapper import DatabaseErrorMapper
from localdata_errors._response import StructuredErrorResponse

__all__ = ["GenericDatabaseErrorMapper"]


class GenericDatabaseErrorMapper(DatabaseErrorMapper):
    """The keyword fallback, as a localdata-mcp-style mapper: the exception in, the answer out."""

    def map_error(self, exception: Exception) -> StructuredErrorResponse:
        """
        Classify *exception* by its text alone (`db_type="generic"`).

        Args:
            exception: Any exception.

        Returns:
            The keyword fallback's answer.
        """
        return classify_error(exception, "generic")
