"""
The words every answer is made of: categories, kinds, next steps, retry
safety, what a failed statement left behind, and the shape of one row of the
Kind table.

`localdata_errors._kinds` re-exports every name here beside the table itself
(`KIND_TABLE`); import them from there.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each
# string annotation into a ForwardRef (about 1 ms of the package's import in all).

from collections.abc import Mapping
from enum import StrEnum
from typing import Literal, NamedTuple

__all__ = [
    "Action",
    "ErrorCategory",
    "Kind",
    "KindInfo",
    "RetrySafety",
    "RetryStrategy",
    "RollbackScope",
    "ToolErrorType",
]


class ErrorCategory(StrEnum):
    """The coarse category: LocalData's eight values, so existing consumers keep working."""

    AUTH_ERROR = "auth_error"
    SCHEMA_ERROR = "schema_error"
    SYNTAX_ERROR = "syntax_error"
    TRANSIENT_ERROR = "transient_error"
    RESOURCE_ERROR = "resource_error"
    CONSTRAINT_ERROR = "constraint_error"
    CONNECTION_ERROR = "connection_error"
    QUERY_EXECUTION = "query_execution"


class ToolErrorType(StrEnum):
    """The `error_type` of the tool shape (`StructuredErrorResponse.to_tool_error`)."""

    FOREIGN_KEY_CONSTRAINT = "foreign_key_constraint"
    SYNTAX_ERROR = "syntax_error"
    PERMISSION_DENIED = "permission_denied"
    RESOURCE_NOT_FOUND = "resource_not_found"
    RESOURCE_EXISTS = "resource_exists"
    CONNECTION_ERROR = "connection_error"
    TIMEOUT = "timeout"
    UNKNOWN = "unknown"


class Action(StrEnum):
    """
    The next step after an error: who acts, and how.

    - `fix_query`: the model must change the statement or its arguments
      (syntax, unknown object, constraint, data).
    - `retry`: the code backs off and calls again, unchanged, without
      spending a model turn (deadlock, lock wait, too many connections).
    - `reconnect`: the code discards the connection, opens a new one, then
      calls again (the connection was lost).
    - `rollback`: the session is in a failed transaction: roll it back, then
      continue (and fix the statement that failed first).
    - `stop`: neither the model nor the code can help (credentials,
      privileges, read-only, quota, misconfiguration): tell the user.
    """

    FIX_QUERY = "fix_query"
    RETRY = "retry"
    RECONNECT = "reconnect"
    ROLLBACK = "rollback"
    STOP = "stop"


class RetrySafety(StrEnum):
    """
    Whether calling again unchanged is safe for a statement that writes.

    - `safe`: the failed statement provably had no effect: it never reached
      the server (refused connect, DNS failure, pool timeout, login phase) or
      the server undid it (deadlock victim, lock wait).  Safe even for a
      non-idempotent write.  It speaks of the statement only: what the
      statements before it in the same transaction left behind is the
      `RollbackScope`'s to say.
    - `idempotent_only`: the connection was lost or timed out mid-statement;
      a write may have committed.  Retry reads and idempotent writes only,
      or check first.
    - `not_applicable`: the same call will not succeed; do not retry it.
    """

    SAFE = "safe"
    IDEMPOTENT_ONLY = "idempotent_only"
    NOT_APPLICABLE = "not_applicable"


class RollbackScope(StrEnum):
    """
    What the server undid when a statement failed: the statement, the transaction, or nothing.

    A retry loop calls again a *unit* (a tool function, a transaction
    function) that may have run several statements before the one that
    failed; this says whether their effects are gone.

    - `nothing_sent`: nothing of the unit reached the server (the
      connection or the login failed): there is nothing to undo.
    - `statement`: only the failed statement was undone; the statements
      before it in the same transaction stand, and commit with the next
      `COMMIT`.  Calling the unit again on that transaction repeats them.
    - `transaction`: the whole transaction is gone: rolled back by the
      server (an InnoDB or SQL Server deadlock victim, a session the server
      ended), or aborted so that nothing in it can commit (PostgreSQL and
      DuckDB, after any error, until the client's `ROLLBACK`).
    """

    NOTHING_SENT = "nothing_sent"
    STATEMENT = "statement"
    TRANSACTION = "transaction"


#: How a kind is retried: `immediate` (at once, with a little jitter),
#: `backoff` (wait, doubling the wait each time), `reconnect` (open a new
#: connection first), `rollback` (roll back, then fix the statement: the same
#: call will not succeed) or `none` (not retried).
RetryStrategy = Literal["immediate", "backoff", "reconnect", "rollback", "none"]


class Kind(StrEnum):
    """The fine-grained reason, named after PostgreSQL's SQLSTATE condition names."""

    # fix the SQL
    SYNTAX_ERROR = "syntax_error"
    GROUPING_ERROR = "grouping_error"
    # missing objects
    UNDEFINED_TABLE = "undefined_table"
    UNDEFINED_COLUMN = "undefined_column"
    UNDEFINED_FUNCTION = "undefined_function"
    UNDEFINED_OBJECT = "undefined_object"
    UNDEFINED_DATABASE = "undefined_database"
    UNDEFINED_SCHEMA = "undefined_schema"
    # objects that already exist, or are not what the statement expects
    DUPLICATE_TABLE = "duplicate_table"
    DUPLICATE_COLUMN = "duplicate_column"
    DUPLICATE_OBJECT = "duplicate_object"
    DUPLICATE_DATABASE = "duplicate_database"
    DUPLICATE_SCHEMA = "duplicate_schema"
    AMBIGUOUS_COLUMN = "ambiguous_column"
    WRONG_OBJECT_TYPE = "wrong_object_type"
    INVALID_OBJECT_DEFINITION = "invalid_object_definition"
    # constraints
    UNIQUE_VIOLATION = "unique_violation"
    FOREIGN_KEY_VIOLATION = "foreign_key_violation"
    NOT_NULL_VIOLATION = "not_null_violation"
    CHECK_VIOLATION = "check_violation"
    EXCLUSION_VIOLATION = "exclusion_violation"
    DEPENDENT_OBJECTS_STILL_EXIST = "dependent_objects_still_exist"
    # who may do what
    INVALID_PASSWORD = "invalid_password"  # noqa: S105 - a condition name, not a secret
    INVALID_AUTHORIZATION = "invalid_authorization"
    INSUFFICIENT_PRIVILEGE = "insufficient_privilege"
    READ_ONLY = "read_only"
    # wait and retry
    DEADLOCK_DETECTED = "deadlock_detected"
    SERIALIZATION_FAILURE = "serialization_failure"
    LOCK_NOT_AVAILABLE = "lock_not_available"
    DATABASE_LOCKED = "database_locked"
    STATEMENT_TIMEOUT = "statement_timeout"
    QUERY_CANCELED = "query_canceled"
    SNAPSHOT_TOO_OLD = "snapshot_too_old"
    STATEMENT_COMPLETION_UNKNOWN = "statement_completion_unknown"
    # the connection
    CONNECTION_FAILURE = "connection_failure"
    CONNECTION_LOST = "connection_lost"
    ADMIN_SHUTDOWN = "admin_shutdown"
    CONNECTION_MISCONFIGURED = "connection_misconfigured"
    # resources
    TOO_MANY_CONNECTIONS = "too_many_connections"
    OUT_OF_MEMORY = "out_of_memory"
    DISK_FULL = "disk_full"
    CONFIGURATION_LIMIT_EXCEEDED = "configuration_limit_exceeded"
    QUOTA_EXCEEDED = "quota_exceeded"
    IO_ERROR = "io_error"
    DATA_CORRUPTED = "data_corrupted"
    # the data or the statement's execution
    DIVISION_BY_ZERO = "division_by_zero"
    INVALID_TEXT_REPRESENTATION = "invalid_text_representation"
    INVALID_DATETIME_FORMAT = "invalid_datetime_format"
    NUMERIC_VALUE_OUT_OF_RANGE = "numeric_value_out_of_range"
    STRING_DATA_RIGHT_TRUNCATION = "string_data_right_truncation"
    DATATYPE_MISMATCH = "datatype_mismatch"
    CARDINALITY_VIOLATION = "cardinality_violation"
    INVALID_PARAMETER = "invalid_parameter"
    TRANSACTION_ABORTED = "transaction_aborted"
    INVALID_TRANSACTION_STATE = "invalid_transaction_state"
    FEATURE_NOT_SUPPORTED = "feature_not_supported"
    INTERNAL_ERROR = "internal_error"
    UNKNOWN = "unknown"


class KindInfo(NamedTuple):
    """
    What follows from a `Kind`: one row of `KIND_TABLE`.

    Attributes:
        category: The coarse category.
        retryable: Whether the same call may succeed if repeated (after the
            back-off `retry_after_ms` says).
        tool_error_type: The tool shape's `error_type`.
        jsonrpc_code: The JSON-RPC error code (-32000..-32099).
        suggestion: A template; `{target}`, `{target_cap}`, `{on_target}`,
            `{constraint}` and `{dependency}` are filled from the response's
            names when known.
        actions: Concrete next steps, in order.
        action: The next step (`Action`).
        retry_safety: Whether repeating a write is safe (`RetrySafety`).
        retry_after_ms: How long to wait before the first retry, where the
            kind says; `None` for kinds not retried.
        strategy: How to retry (`RetryStrategy`).
        max_attempts: Calls in all that make sense (0: do not retry).
        max_delay_ms: The cap of the back-off, in ms.
        jitter_ms: Up to this much random wait to add, in ms, so that
            competing clients do not collide again.
        rollback_scope: What the server undid (`RollbackScope`), on an
            engine `rollback_scope_on` does not name.
        rollback_scope_on: The engines (backend names) whose documentation
            says otherwise, each with its scope.  Read both with
            `rollback_scope(kind, backend)`.
    """

    category: ErrorCategory
    retryable: bool
    tool_error_type: ToolErrorType
    jsonrpc_code: int
    suggestion: str
    actions: tuple[str, ...]
    action: Action
    retry_safety: RetrySafety
    retry_after_ms: int | None
    strategy: RetryStrategy
    max_attempts: int
    max_delay_ms: int
    jitter_ms: int
    rollback_scope: RollbackScope
    rollback_scope_on: Mapping[str, RollbackScope]
