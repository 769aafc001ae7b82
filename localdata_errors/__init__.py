"""
localdata-errors: any database driver exception in, one structured, actionable answer out.

```python
from localdata_errors import classify_error

try:
    cursor.execute("SELECT * FROM orders")
except Exception as exc:
    answer = classify_error(exc)
    answer.kind            # Kind.UNDEFINED_TABLE
    answer.is_retryable    # False
    answer.to_tool_error() # {"status": "error", "error_type": "resource_not_found", ...}
```
"""

from __future__ import annotations

from localdata_errors._backends import normalize_db_type
from localdata_errors._compat import GenericDatabaseErrorMapper
from localdata_errors._version import __version__
from localdata_errors.classify import (
    classify_error,
    classify_message,
    get_error_suggestion,
    is_error_retryable,
)
from localdata_errors.kinds import (
    KIND_TABLE,
    Action,
    ErrorCategory,
    Kind,
    KindInfo,
    RetrySafety,
    ToolErrorType,
    kind_info,
)
from localdata_errors.mapper import (
    PROXY_KINDS,
    BackendMapper,
    DatabaseErrorMapper,
    ErrorInput,
    ErrorRefiner,
    MappedError,
    RefinerClaims,
    driver_attr,
)
from localdata_errors.redact import redact
from localdata_errors.registry import (
    ErrorMapperRegistry,
    MapperInfo,
    MapperRegistry,
    NoSuchMapperError,
    default_registry,
    hookimpl,
    hookspec,
)
from localdata_errors.response import StructuredErrorResponse

__all__ = [
    "KIND_TABLE",
    "PROXY_KINDS",
    "Action",
    "BackendMapper",
    "DatabaseErrorMapper",
    "ErrorCategory",
    "ErrorInput",
    "ErrorMapperRegistry",
    "ErrorRefiner",
    "GenericDatabaseErrorMapper",
    "Kind",
    "KindInfo",
    "MappedError",
    "MapperInfo",
    "MapperRegistry",
    "NoSuchMapperError",
    "RefinerClaims",
    "RetrySafety",
    "StructuredErrorResponse",
    "ToolErrorType",
    "__version__",
    "classify_error",
    "classify_message",
    "default_registry",
    "driver_attr",
    "get_error_suggestion",
    "hookimpl",
    "hookspec",
    "is_error_retryable",
    "kind_info",
    "normalize_db_type",
    "redact",
]
