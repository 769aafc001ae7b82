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
from localdata_errors._classify import (
    classify_error,
    classify_message,
    get_error_suggestion,
    is_error_retryable,
)
from localdata_errors._compat import GenericDatabaseErrorMapper
from localdata_errors._kinds import (
    KIND_TABLE,
    Action,
    ErrorCategory,
    Kind,
    KindInfo,
    RetrySafety,
    RetryStrategy,
    RollbackScope,
    ToolErrorType,
    kind_info,
)
from localdata_errors._mapper import (
    PROXY_KINDS,
    BackendMapper,
    DatabaseErrorMapper,
    ErrorInput,
    ErrorRefiner,
    MappedError,
    RefinerClaims,
    TextSign,
    driver_attr,
)
from localdata_errors._redact import (
    credentials_in,
    credentials_in_statement,
    may_hold_secret,
    normalize_secrets,
    redact,
    redact_name,
    redact_reading,
)
from localdata_errors._registry import (
    Claim,
    ErrorMapperRegistry,
    MapperInfo,
    MapperRegistry,
    NoSuchMapperError,
    default_registry,
    hookimpl,
    hookspec,
)
from localdata_errors._response import StructuredErrorResponse
from localdata_errors._version import __version__

__all__ = [
    "KIND_TABLE",
    "PROXY_KINDS",
    "Action",
    "BackendMapper",
    "Claim",
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
    "RetryStrategy",
    "RollbackScope",
    "StructuredErrorResponse",
    "TextSign",
    "ToolErrorType",
    "__version__",
    "classify_error",
    "classify_message",
    "credentials_in",
    "credentials_in_statement",
    "default_registry",
    "driver_attr",
    "get_error_suggestion",
    "hookimpl",
    "hookspec",
    "is_error_retryable",
    "kind_info",
    "may_hold_secret",
    "normalize_db_type",
    "normalize_secrets",
    "redact",
    "redact_name",
    "redact_reading",
]
