"""
The decisions: which ClickHouse error name is which kind, and where ClickHouse says more.

Keyed by the names of ClickHouse's ``ErrorCodes`` (``_codes.py``, generated
from the engine): names are stable across releases and say what they mean,
so the table reads as a review of the vendor's list.  A name left out keeps
its code and lets the core's keyword fallback read the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from localdata_errors import Kind, RetrySafety

K = Kind


def _group(kind: Kind, *names: str) -> dict[str, Kind]:
    return dict.fromkeys(names, kind)


#: ClickHouse error name -> kind.
KINDS: Final[Mapping[str, Kind]] = MappingProxyType(
    {
        **_group(
            K.SYNTAX_ERROR,
            "SYNTAX_ERROR",
            "MYSQL_SYNTAX_ERROR",
            "EMPTY_QUERY",
            "INCORRECT_QUERY",
            "UNKNOWN_TYPE_OF_QUERY",
            "CYCLIC_ALIASES",
            "MULTIPLE_EXPRESSIONS_FOR_ALIAS",
            "ALIAS_REQUIRED",
            "UNEXPECTED_EXPRESSION",
            "ILLEGAL_FINAL",
            "ILLEGAL_PREWHERE",
            "TOP_AND_LIMIT_TOGETHER",
            "WITH_TIES_WITHOUT_ORDER_BY",
            "ROW_AND_ROWS_TOGETHER",
            "FIRST_AND_NEXT_TOGETHER",
            "OFFSET_FETCH_WITHOUT_ORDER_BY",
            "EXPECTED_ALL_OR_ANY",
            "EXPECTED_ALL_OR_DISTINCT",
            "INVALID_LIMIT_EXPRESSION",
            "INVALID_WITH_FILL_EXPRESSION",
            "UNKNOWN_DIRECTION_OF_SORTING",
            "INVALID_JOIN_ON_EXPRESSION",
            "EMPTY_LIST_OF_COLUMNS_QUERIED",
            "INVALID_IDENTIFIER",
            "ILLEGAL_SYNTAX_FOR_DATA_TYPE",
            "CANNOT_PARSE_PROMQL_QUERY",
        ),
        **_group(K.GROUPING_ERROR, "NOT_AN_AGGREGATE", "ILLEGAL_AGGREGATION"),
        **_group(K.UNDEFINED_TABLE, "UNKNOWN_TABLE", "TABLE_IS_DROPPED"),
        **_group(
            K.UNDEFINED_COLUMN,
            "UNKNOWN_IDENTIFIER",
            "NO_SUCH_COLUMN_IN_TABLE",
            "THERE_IS_NO_COLUMN",
            "NOT_FOUND_COLUMN_IN_BLOCK",
        ),
        **_group(K.UNDEFINED_FUNCTION, "UNKNOWN_FUNCTION", "UNKNOWN_AGGREGATE_FUNCTION"),
        # A ClickHouse database is the namespace a query qualifies names with
        # (`db.table`), what other systems call a schema: the statement can
        # name another one, so the model fixes it (not `undefined_database`,
        # which is about the connection's database).
        **_group(K.UNDEFINED_SCHEMA, "UNKNOWN_DATABASE"),
        **_group(
            K.UNDEFINED_OBJECT,
            "UNKNOWN_TYPE",
            "UNKNOWN_STORAGE",
            "UNKNOWN_FORMAT",
            "UNKNOWN_DATABASE_ENGINE",
            "UNKNOWN_CODEC",
            "UNKNOWN_DISK",
            "UNKNOWN_POLICY",
            "UNKNOWN_VOLUME",
            "UNKNOWN_ROLE",
            "UNKNOWN_QUOTA",
            "UNKNOWN_ROW_POLICY",
            "UNKNOWN_MASKING_POLICY",
            "ACCESS_ENTITY_NOT_FOUND",
            "NAMED_COLLECTION_DOESNT_EXIST",
            "RESOURCE_NOT_FOUND",
            "NO_SUCH_PROJECTION_IN_TABLE",
            "BACKUP_NOT_FOUND",
            "CLUSTER_DOESNT_EXIST",
            "PARTITION_DOESNT_EXIST",
            "NO_SUCH_DATA_PART",
            "FILE_DOESNT_EXIST",
            "DIRECTORY_DOESNT_EXIST",
            "DEPENDENCIES_NOT_FOUND",
        ),
        **_group(K.DUPLICATE_TABLE, "TABLE_ALREADY_EXISTS", "TABLE_METADATA_ALREADY_EXISTS"),
        **_group(K.DUPLICATE_SCHEMA, "DATABASE_ALREADY_EXISTS"),
        **_group(K.DUPLICATE_COLUMN, "DUPLICATE_COLUMN", "COLUMN_QUERIED_MORE_THAN_ONCE"),
        **_group(
            K.DUPLICATE_OBJECT,
            "FUNCTION_ALREADY_EXISTS",
            "DICTIONARY_ALREADY_EXISTS",
            "ACCESS_ENTITY_ALREADY_EXISTS",
            "NAMED_COLLECTION_ALREADY_EXISTS",
            "PARTITION_ALREADY_EXISTS",
            "BACKUP_ALREADY_EXISTS",
            "FILE_ALREADY_EXISTS",
            "DIRECTORY_ALREADY_EXISTS",
        ),
        **_group(K.AMBIGUOUS_COLUMN, "AMBIGUOUS_COLUMN_NAME", "AMBIGUOUS_IDENTIFIER"),
        **_group(
            K.INVALID_OBJECT_DEFINITION,
            "ENGINE_REQUIRED",
            "INCORRECT_DICTIONARY_DEFINITION",
            "BAD_TTL_EXPRESSION",
            "ILLEGAL_PROJECTION",
            "INVALID_TABLE_OVERRIDE",
            "DATA_TYPE_CANNOT_BE_USED_IN_KEY",
            "DATA_TYPE_CANNOT_BE_USED_IN_TABLES",
            "INCORRECT_ACCESS_ENTITY_DEFINITION",
            "ILLEGAL_STATISTICS",
        ),
        **_group(K.CHECK_VIOLATION, "VIOLATED_CONSTRAINT"),
        **_group(K.NOT_NULL_VIOLATION, "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN"),
        **_group(K.DEPENDENT_OBJECTS_STILL_EXIST, "HAVE_DEPENDENT_OBJECTS", "DATABASE_NOT_EMPTY"),
        **_group(
            K.INVALID_PASSWORD, "AUTHENTICATION_FAILED", "WRONG_PASSWORD", "REQUIRED_PASSWORD"
        ),
        **_group(
            K.INVALID_AUTHORIZATION,
            "UNKNOWN_USER",
            "IP_ADDRESS_NOT_ALLOWED",
            "USER_EXPIRED",
            "REQUIRED_SECOND_FACTOR",
        ),
        **_group(
            K.INSUFFICIENT_PRIVILEGE,
            "ACCESS_DENIED",
            "DATABASE_ACCESS_DENIED",
            "PATH_ACCESS_DENIED",
            "DICTIONARY_ACCESS_DENIED",
            "RESOURCE_ACCESS_DENIED",
            "FILECACHE_ACCESS_DENIED",
            "INVALID_GRANT",
            "SET_NON_GRANTED_ROLE",
            "INTO_OUTFILE_NOT_ALLOWED",
        ),
        **_group(
            K.READ_ONLY,
            "READONLY",
            "TABLE_IS_READ_ONLY",
            "ACCESS_STORAGE_READONLY",
            "READONLY_SETTING",
            "TABLE_IS_PERMANENTLY_READ_ONLY",
        ),
        **_group(K.DEADLOCK_DETECTED, "DEADLOCK_AVOIDED"),
        **_group(K.SERIALIZATION_FAILURE, "SERIALIZATION_ERROR"),
        **_group(
            K.LOCK_NOT_AVAILABLE,
            "PART_IS_TEMPORARILY_LOCKED",
            "PART_IS_LOCKED",
            "SESSION_IS_LOCKED",
            "QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING",
        ),
        **_group(K.STATEMENT_TIMEOUT, "TIMEOUT_EXCEEDED"),
        **_group(K.QUERY_CANCELED, "QUERY_WAS_CANCELLED", "QUERY_WAS_CANCELLED_BY_CLIENT"),
        **_group(
            K.CONNECTION_FAILURE,
            "ALL_CONNECTION_TRIES_FAILED",
            "NO_REMOTE_SHARD_AVAILABLE",
            "NO_AVAILABLE_REPLICA",
        ),
        **_group(
            K.CONNECTION_LOST,
            "SOCKET_TIMEOUT",
            "NETWORK_ERROR",
            "CANNOT_READ_FROM_SOCKET",
            "CANNOT_WRITE_TO_SOCKET",
            "SESSION_NOT_FOUND",
            "THERE_IS_NO_SESSION",
        ),
        **_group(K.CONNECTION_MISCONFIGURED, "DNS_ERROR", "CLIENT_HAS_CONNECTED_TO_WRONG_PORT"),
        **_group(
            K.TOO_MANY_CONNECTIONS,
            "TOO_MANY_SIMULTANEOUS_QUERIES",
            "NO_FREE_CONNECTION",
            "USER_SESSION_LIMIT_EXCEEDED",
            "TCP_CONNECTION_LIMIT_REACHED",
            "HTTP_CONNECTION_LIMIT_REACHED",
            "SERVER_OVERLOADED",
            "RECEIVED_ERROR_TOO_MANY_REQUESTS",
            "QUERY_SLOT_ACQUISITION_TIMEOUT",
        ),
        **_group(
            K.OUT_OF_MEMORY,
            "MEMORY_LIMIT_EXCEEDED",
            "CANNOT_ALLOCATE_MEMORY",
            "MEMORY_RESERVATION_KILLED",
            "MEMORY_RESERVATION_FAILED",
        ),
        **_group(K.DISK_FULL, "NOT_ENOUGH_SPACE"),
        # A quota counts over an interval: used up, it resets only with time.
        **_group(K.QUOTA_EXCEEDED, "QUOTA_EXCEEDED"),
        # Limits a setting or a profile puts on one query: the model can ask
        # for less (a filter, a LIMIT, fewer columns).
        **_group(
            K.CONFIGURATION_LIMIT_EXCEEDED,
            "TOO_MANY_ROWS",
            "TOO_MANY_BYTES",
            "TOO_MANY_ROWS_OR_BYTES",
            "TOO_MANY_COLUMNS",
            "TOO_DEEP_SUBQUERIES",
            "TOO_MANY_TEMPORARY_COLUMNS",
            "TOO_MANY_TEMPORARY_NON_CONST_COLUMNS",
            "TOO_DEEP_AST",
            "TOO_BIG_AST",
            "TOO_DEEP_RECURSION",
            "TOO_SLOW",
            "TOO_LARGE_ARRAY_SIZE",
            "TOO_LARGE_DISTRIBUTED_DEPTH",
            "TOO_MANY_QUERY_PLAN_OPTIMIZATIONS",
            "TOO_MANY_PARTITIONS",
            "SET_SIZE_LIMIT_EXCEEDED",
            "LIMIT_EXCEEDED",
            "QUERY_IS_TOO_LARGE",
            "TABLE_SIZE_EXCEEDS_MAX_DROP_SIZE_LIMIT",
            "TOO_MANY_TABLES",
            "TOO_MANY_DATABASES",
            "TOO_MANY_MATERIALIZED_VIEWS",
            "RESOURCE_LIMIT_EXCEEDED",
            "TABLE_SIZE_LIMIT_EXCEEDED",
            "TOO_MANY_PARTS",
            "TOO_MANY_MUTATIONS",
        ),
        **_group(
            K.IO_ERROR,
            "CANNOT_READ_FROM_FILE_DESCRIPTOR",
            "CANNOT_WRITE_TO_FILE_DESCRIPTOR",
            "CANNOT_FSYNC",
            "CANNOT_WRITE_TO_FILE",
            "AIO_READ_ERROR",
            "AIO_WRITE_ERROR",
            "CANNOT_IO_SUBMIT",
            "CANNOT_IO_GETEVENTS",
            "CANNOT_TRUNCATE_FILE",
            "CANNOT_SEEK_THROUGH_FILE",
            "CANNOT_CREATE_DIRECTORY",
        ),
        **_group(
            K.DATA_CORRUPTED,
            "CORRUPTED_DATA",
            "CHECKSUM_DOESNT_MATCH",
            "POTENTIALLY_BROKEN_DATA_PART",
            "BACKUP_DAMAGED",
        ),
        **_group(K.DIVISION_BY_ZERO, "ILLEGAL_DIVISION"),
        **_group(
            K.INVALID_TEXT_REPRESENTATION,
            "CANNOT_PARSE_TEXT",
            "CANNOT_PARSE_NUMBER",
            "CANNOT_PARSE_QUOTED_STRING",
            "CANNOT_PARSE_ESCAPE_SEQUENCE",
            "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
            "CANNOT_PARSE_BOOL",
            "CANNOT_PARSE_UUID",
            "CANNOT_PARSE_IPV4",
            "CANNOT_PARSE_IPV6",
            "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING",
            "CANNOT_READ_ARRAY_FROM_TEXT",
            "CANNOT_READ_MAP_FROM_TEXT",
            "UNKNOWN_ELEMENT_OF_ENUM",
            "INCORRECT_DATA",
        ),
        **_group(K.INVALID_DATETIME_FORMAT, "CANNOT_PARSE_DATE", "CANNOT_PARSE_DATETIME"),
        **_group(
            K.NUMERIC_VALUE_OUT_OF_RANGE,
            "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE",
            "DECIMAL_OVERFLOW",
            "ARGUMENT_OUT_OF_BOUND",
        ),
        **_group(
            K.DATATYPE_MISMATCH,
            "TYPE_MISMATCH",
            "ILLEGAL_TYPE_OF_ARGUMENT",
            "ILLEGAL_COLUMN",
            "CANNOT_CONVERT_TYPE",
            "NO_COMMON_TYPE",
            "ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER",
            "UNION_ALL_RESULT_STRUCTURES_MISMATCH",
            "INTERSECT_OR_EXCEPT_RESULT_STRUCTURES_MISMATCH",
        ),
        **_group(K.CARDINALITY_VIOLATION, "INCORRECT_RESULT_OF_SCALAR_SUBQUERY"),
        **_group(
            K.INVALID_PARAMETER,
            "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
            "TOO_MANY_ARGUMENTS_FOR_FUNCTION",
            "TOO_FEW_ARGUMENTS_FOR_FUNCTION",
            "BAD_ARGUMENTS",
            "UNKNOWN_SETTING",
            "INVALID_SETTING_VALUE",
            "SETTING_CONSTRAINT_VIOLATION",
            "UNKNOWN_QUERY_PARAMETER",
            "BAD_QUERY_PARAMETER",
            "NUMBER_OF_COLUMNS_DOESNT_MATCH",
        ),
        **_group(K.INVALID_TRANSACTION_STATE, "INVALID_TRANSACTION"),
        **_group(
            K.FEATURE_NOT_SUPPORTED,
            "NOT_IMPLEMENTED",
            "SUPPORT_IS_DISABLED",
            "UNSUPPORTED_METHOD",
            "UNSUPPORTED_PARAMETER",
            "SAMPLING_NOT_SUPPORTED",
            "QUERY_IS_NOT_SUPPORTED_IN_MATERIALIZED_VIEW",
            "FEATURE_IS_NOT_ENABLED_AT_BUILD_TIME",
            "UNSUPPORTED_JOIN_KEYS",
            "INCOMPATIBLE_TYPE_OF_JOIN",
            "LIMIT_BY_WITH_TIES_IS_NOT_SUPPORTED",
            "EXPERIMENTAL_FEATURE_ERROR",
            "DEPRECATED_FUNCTION",
            "CONCURRENT_ACCESS_NOT_SUPPORTED",
        ),
        **_group(
            K.INTERNAL_ERROR,
            "LOGICAL_ERROR",
            "STD_EXCEPTION",
            "UNKNOWN_EXCEPTION",
            "POCO_EXCEPTION",
        ),
    }
)


class Override(NamedTuple):
    """Where ClickHouse says more than the kind: the `MappedError` overrides for a name."""

    retryable: bool | None = None
    retry_safety: RetrySafety | None = None
    retry_after_ms: int | None = None


#: ClickHouse has no multi-statement transactions: an `INSERT ... SELECT`
#: stopped by a timeout or a cancellation keeps the blocks it had written, so
#: repeating it is safe only when it is idempotent.
_PARTIAL = Override(retry_safety=RetrySafety.IDEMPOTENT_ONLY)

#: Write throttles: the server refused the insert before writing it and asks
#: the client to slow down while merges (or mutations) catch up.
_THROTTLE = Override(retryable=True, retry_safety=RetrySafety.SAFE, retry_after_ms=1000)

OVERRIDES: Final[Mapping[str, Override]] = MappingProxyType(
    {
        "TIMEOUT_EXCEEDED": _PARTIAL,
        "QUERY_WAS_CANCELLED": _PARTIAL,
        "QUERY_WAS_CANCELLED_BY_CLIENT": _PARTIAL,
        "TOO_MANY_PARTS": _THROTTLE,
        "TOO_MANY_MUTATIONS": _THROTTLE,
        # The session expired on the server between two calls: the query was
        # refused, not started, so a new session may run it again.
        "SESSION_NOT_FOUND": Override(retry_safety=RetrySafety.SAFE),
        "THERE_IS_NO_SESSION": Override(retry_safety=RetrySafety.SAFE),
    }
)

#: The server's whole memory, not this query's share, ran out: other queries
#: hold it and will release it, so the same query may run after a back-off.
#: "Memory limit (total) exceeded", as opposed to "(for query)", "(for user)"
#: and "Query memory limit exceeded".
TOTAL_MEMORY: Final = Override(retryable=True, retry_safety=RetrySafety.SAFE, retry_after_ms=2000)

#: (name, phrase in the message) -> kind, where one code covers two kinds.
BY_TEXT: Final[tuple[tuple[str, str, Kind], ...]] = (
    # "Cannot add column a: column with this name already exists."
    ("ILLEGAL_COLUMN", "already exists", K.DUPLICATE_COLUMN),
    # "Dictionary (`nodict`) not found"
    ("BAD_ARGUMENTS", "not found", K.UNDEFINED_OBJECT),
    # NETWORK_ERROR at connect time: nothing was sent.
    ("NETWORK_ERROR", "Connection refused", K.CONNECTION_FAILURE),
)
