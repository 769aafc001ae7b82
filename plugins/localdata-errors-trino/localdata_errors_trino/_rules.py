"""
The decisions: which Trino error name is which kind, and where Trino says more.

Keyed by the names of Trino's ``StandardErrorCode`` (``_codes.py``).  A name
left out (``GENERIC_USER_ERROR``, a connector's own ``HIVE_*`` or
``ICEBERG_*`` names) keeps its name as the code and lets the core's keyword
fallback read the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from localdata_errors import Kind

K = Kind


def _group(kind: Kind, *names: str) -> dict[str, Kind]:
    return dict.fromkeys(names, kind)


#: Trino error name -> kind.
KINDS: Final[Mapping[str, Kind]] = MappingProxyType(
    {
        **_group(
            K.SYNTAX_ERROR,
            "SYNTAX_ERROR",
            "MISSING_TABLE",
            "MISSING_CATALOG_NAME",
            "MISSING_SCHEMA_NAME",
            "MISSING_COLUMN_NAME",
            "MISSING_COLUMN_ALIASES",
            "MISMATCHED_COLUMN_ALIASES",
            "MISSING_ORDER_BY",
            "MISSING_OVER",
            "NESTED_AGGREGATION",
            "NESTED_WINDOW",
            "NESTED_RECURSIVE",
            "FUNCTION_NOT_WINDOW",
            "FUNCTION_NOT_AGGREGATE",
            "EXPRESSION_NOT_SCALAR",
            "EXPRESSION_NOT_CONSTANT",
            "EXPRESSION_NOT_IN_DISTINCT",
            "INVALID_WINDOW_FRAME",
            "INVALID_COLUMN_REFERENCE",
            "INVALID_RECURSIVE_REFERENCE",
            "INVALID_LIMIT_CLAUSE",
            "INVALID_ORDER_BY",
            "NULL_TREATMENT_NOT_ALLOWED",
        ),
        **_group(K.GROUPING_ERROR, "EXPRESSION_NOT_AGGREGATE", "MISSING_GROUP_BY"),
        **_group(K.UNDEFINED_TABLE, "TABLE_NOT_FOUND"),
        **_group(K.UNDEFINED_COLUMN, "COLUMN_NOT_FOUND"),
        **_group(
            K.UNDEFINED_FUNCTION, "FUNCTION_NOT_FOUND", "OPERATOR_NOT_FOUND", "PROCEDURE_NOT_FOUND"
        ),
        **_group(K.UNDEFINED_SCHEMA, "SCHEMA_NOT_FOUND"),
        # A catalog is named in the statement (catalog.schema.table): the model
        # can name another, so it is an object to fix, not the connection's database.
        **_group(
            K.UNDEFINED_OBJECT, "CATALOG_NOT_FOUND", "NOT_FOUND", "ROLE_NOT_FOUND", "TYPE_NOT_FOUND"
        ),
        **_group(K.DUPLICATE_TABLE, "TABLE_ALREADY_EXISTS"),
        **_group(K.DUPLICATE_SCHEMA, "SCHEMA_ALREADY_EXISTS"),
        **_group(K.DUPLICATE_COLUMN, "COLUMN_ALREADY_EXISTS", "DUPLICATE_COLUMN_NAME"),
        **_group(
            K.DUPLICATE_OBJECT, "ALREADY_EXISTS", "ROLE_ALREADY_EXISTS", "DUPLICATE_NAMED_QUERY"
        ),
        **_group(K.AMBIGUOUS_COLUMN, "AMBIGUOUS_NAME"),
        **_group(K.INVALID_OBJECT_DEFINITION, "INVALID_VIEW", "VIEW_IS_STALE", "VIEW_IS_RECURSIVE"),
        # Trino raises it for NOT NULL columns and CHECK constraints alike: the
        # message tells them apart (see NOT_NULL).
        **_group(K.CHECK_VIOLATION, "CONSTRAINT_VIOLATION"),
        **_group(K.DEPENDENT_OBJECTS_STILL_EXIST, "SCHEMA_NOT_EMPTY"),
        **_group(K.INSUFFICIENT_PRIVILEGE, "PERMISSION_DENIED"),
        **_group(K.READ_ONLY, "READ_ONLY_VIOLATION"),
        **_group(K.SERIALIZATION_FAILURE, "TRANSACTION_CONFLICT"),
        **_group(K.STATEMENT_TIMEOUT, "EXCEEDED_TIME_LIMIT"),
        **_group(
            K.QUERY_CANCELED,
            "USER_CANCELED",
            "ADMINISTRATIVELY_KILLED",
            "ADMINISTRATIVELY_PREEMPTED",
        ),
        **_group(K.CONNECTION_FAILURE, "NO_NODES_AVAILABLE"),
        **_group(K.CONNECTION_LOST, "ABANDONED_QUERY"),
        **_group(K.ADMIN_SHUTDOWN, "SERVER_SHUTTING_DOWN", "SERVER_STARTING_UP"),
        **_group(K.CONNECTION_MISCONFIGURED, "INCOMPATIBLE_CLIENT"),
        **_group(K.TOO_MANY_CONNECTIONS, "QUERY_QUEUE_FULL"),
        # The query's own memory limits (per node, across the cluster, of one
        # function): asking for less is the way out.  CLUSTER_OUT_OF_MEMORY is
        # other queries' doing (see OVERRIDES).
        **_group(
            K.OUT_OF_MEMORY,
            "EXCEEDED_GLOBAL_MEMORY_LIMIT",
            "EXCEEDED_LOCAL_MEMORY_LIMIT",
            "EXCEEDED_FUNCTION_MEMORY_LIMIT",
            "CLUSTER_OUT_OF_MEMORY",
        ),
        **_group(K.DISK_FULL, "OUT_OF_SPILL_SPACE"),
        **_group(
            K.CONFIGURATION_LIMIT_EXCEEDED,
            "EXCEEDED_CPU_LIMIT",
            "EXCEEDED_SCAN_LIMIT",
            "EXCEEDED_SPILL_LIMIT",
            "QUERY_TEXT_TOO_LARGE",
            "QUERY_HAS_TOO_MANY_STAGES",
            "TOO_MANY_GROUPING_SETS",
            "OPTIMIZER_TIMEOUT",
        ),
        **_group(K.DATA_CORRUPTED, "CORRUPT_PAGE", "CORRUPT_SERIALIZED_IDENTITY"),
        **_group(K.DIVISION_BY_ZERO, "DIVISION_BY_ZERO"),
        **_group(K.INVALID_TEXT_REPRESENTATION, "INVALID_CAST_ARGUMENT", "INVALID_LITERAL"),
        **_group(K.NUMERIC_VALUE_OUT_OF_RANGE, "NUMERIC_VALUE_OUT_OF_RANGE"),
        **_group(K.DATATYPE_MISMATCH, "TYPE_MISMATCH", "COLUMN_TYPE_UNKNOWN"),
        **_group(K.CARDINALITY_VIOLATION, "SUBQUERY_MULTIPLE_ROWS"),
        **_group(
            K.INVALID_PARAMETER,
            "INVALID_FUNCTION_ARGUMENT",
            "INVALID_ARGUMENTS",
            "TOO_MANY_ARGUMENTS",
            "INVALID_PARAMETER_USAGE",
            "INVALID_PROCEDURE_ARGUMENT",
            "INVALID_SESSION_PROPERTY",
            "INVALID_TABLE_PROPERTY",
            "INVALID_SCHEMA_PROPERTY",
            "INVALID_COLUMN_PROPERTY",
            "INVALID_ANALYZE_PROPERTY",
            "INVALID_SPATIAL_PARTITIONING",
            "INVALID_PRIVILEGE",
            "DUPLICATE_PROPERTY",
            "AMBIGUOUS_FUNCTION_CALL",
        ),
        **_group(K.TRANSACTION_ABORTED, "TRANSACTION_ALREADY_ABORTED"),
        **_group(K.INVALID_TRANSACTION_STATE, "UNKNOWN_TRANSACTION", "NOT_IN_TRANSACTION"),
        **_group(
            K.FEATURE_NOT_SUPPORTED,
            "NOT_SUPPORTED",
            "UNSUPPORTED_SUBQUERY",
            "UNSUPPORTED_ISOLATION_LEVEL",
            "MULTI_CATALOG_WRITE_CONFLICT",
            "AUTOCOMMIT_WRITE_CONFLICT",
            "FUNCTION_IMPLEMENTATION_MISSING",
        ),
        # Trino's internal errors.  The ones a failed worker or a lost
        # exchange cause are retried (OVERRIDES); the rest are the server's.
        **_group(
            K.INTERNAL_ERROR,
            "GENERIC_INTERNAL_ERROR",
            "COMPILER_ERROR",
            "FUNCTION_IMPLEMENTATION_ERROR",
            "INVALID_PROCEDURE_DEFINITION",
            "PROCEDURE_CALL_FAILED",
            "AMBIGUOUS_FUNCTION_IMPLEMENTATION",
            "CONFIGURATION_INVALID",
            "CONFIGURATION_UNAVAILABLE",
            "INVALID_RESOURCE_GROUP",
            "SERIALIZATION_ERROR",
            "PAGE_TOO_LARGE",
            "REMOTE_TASK_MISMATCH",
            "REMOTE_BUFFER_CLOSE_FAILED",
            "ABANDONED_TASK",
            "TOO_MANY_REQUESTS_FAILED",
            "PAGE_TRANSPORT_ERROR",
            "PAGE_TRANSPORT_TIMEOUT",
            "REMOTE_TASK_ERROR",
            "REMOTE_HOST_GONE",
        ),
    }
)

#: A worker or the network between workers failed mid-query: Trino's own
#: fault-tolerant execution retries exactly these; the same query may run on
#: the workers that are left.  A write may have been partly applied, so the
#: core makes the retry `idempotent_only`.
RETRYABLE: Final = frozenset(
    {
        "TOO_MANY_REQUESTS_FAILED",
        "PAGE_TRANSPORT_ERROR",
        "PAGE_TRANSPORT_TIMEOUT",
        "REMOTE_TASK_ERROR",
        "REMOTE_HOST_GONE",
        # The cluster ran out of memory because of all the queries on it; the
        # killed query may run once others finish ("Please try again in a few
        # minutes").
        "CLUSTER_OUT_OF_MEMORY",
    }
)

#: CONSTRAINT_VIOLATION's message for a NOT NULL column:
#: "NULL value not allowed for NOT NULL column: id".
NOT_NULL: Final = "NOT NULL column"
