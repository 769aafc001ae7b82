"""
The vocabulary: error categories, fine-grained kinds, and the one Kind table.

Every backend maps its native codes to a `Kind`; everything else an agent
needs (category, retry decision, next step, retry safety, the retry policy,
what the server undid, tool-shape type, JSON-RPC code, suggestion) is read
from `KIND_TABLE` here, and nowhere else.  The words themselves (the enums
and `KindInfo`) are defined in `localdata_errors._vocabulary` and exported
from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from localdata_errors._vocabulary import (
    Action,
    ErrorCategory,
    Kind,
    KindInfo,
    RetrySafety,
    RetryStrategy,
    RollbackScope,
    ToolErrorType,
)

__all__ = [
    "KIND_TABLE",
    "RECOVERABLE_BY_DRIVER",
    "Action",
    "ErrorCategory",
    "Kind",
    "KindInfo",
    "RetrySafety",
    "RetryStrategy",
    "RollbackScope",
    "ToolErrorType",
    "kind_info",
    "render_suggestion",
    "rollback_scope",
]


# JSON-RPC server-error codes (the -32000..-32099 range is the server's own).
JSONRPC_VALIDATION: Final = -32000
JSONRPC_NOT_FOUND: Final = -32001
JSONRPC_PERMISSION: Final = -32002
JSONRPC_CONFLICT: Final = -32003
JSONRPC_DATABASE: Final = -32004
JSONRPC_TIMEOUT: Final = -32005
JSONRPC_CONNECTION: Final = -32006
JSONRPC_RESOURCE: Final = -32007

_C = ErrorCategory
_T = ToolErrorType
_FIX: Final = Action.FIX_QUERY
_RETRY: Final = Action.RETRY
_RECONNECT: Final = Action.RECONNECT
_ROLLBACK: Final = Action.ROLLBACK
_STOP: Final = Action.STOP
_SAFE: Final = RetrySafety.SAFE
_IDEMPOTENT: Final = RetrySafety.IDEMPOTENT_ONLY
_NA: Final = RetrySafety.NOT_APPLICABLE


# How each retried kind is retried: (strategy, calls in all, cap of the
# back-off in ms, jitter in ms).  The first wait is the row's own.
_Policy = tuple[RetryStrategy, int, int, int]
# The loser's transaction is gone (or must go): the conflict is over, so run
# it again at once; jitter keeps two losers from meeting again.
_AT_ONCE: Final[_Policy] = ("immediate", 5, 1_000, 100)
# Someone else holds the lock or every connection slot: give them seconds.
_LOCK_WAIT: Final[_Policy] = ("backoff", 5, 30_000, 500)
_SLOTS: Final[_Policy] = ("backoff", 5, 60_000, 1_000)
_ONCE_MORE: Final[_Policy] = ("backoff", 2, 10_000, 500)
_A_FEW: Final[_Policy] = ("backoff", 3, 10_000, 500)
# The connection is gone: a retry on it fails again.
_NEW_CONNECTION: Final[_Policy] = ("reconnect", 3, 30_000, 500)
_SERVER_BACK: Final[_Policy] = ("reconnect", 3, 60_000, 1_000)
_NOT_RETRIED: Final[_Policy] = ("none", 0, 0, 0)
_ROLL_BACK: Final[_Policy] = ("rollback", 0, 0, 0)

_RS = RollbackScope
# (the scope on any engine not named, {engine: its scope}).  The vendors'
# documentation for each is cited in docs/kinds.md.
_Scope = tuple[RollbackScope, Mapping[str, RollbackScope]]
# An error raised by a statement: MySQL/MariaDB (InnoDB), SQL Server (with
# XACT_ABORT off, its default), Oracle and SQLite undo that statement only;
# PostgreSQL and DuckDB abort the whole transaction at any error.
_ABORTS_ON_ERROR: Final = MappingProxyType(
    {"postgresql": _RS.TRANSACTION, "duckdb": _RS.TRANSACTION}
)
_IN_STATEMENT: Final[_Scope] = (_RS.STATEMENT, _ABORTS_ON_ERROR)
# Raised while connecting or logging in: nothing of the unit was sent.
_NOT_SENT: Final[_Scope] = (_RS.NOTHING_SENT, MappingProxyType({}))
# The whole transaction is gone on every engine: the server ended the
# session (which rolls its open transaction back), or it is already aborted.
_WHOLE_TRANSACTION: Final[_Scope] = (_RS.TRANSACTION, MappingProxyType({}))


def _row(
    what: tuple[ErrorCategory, bool, ToolErrorType, int],
    next_step: tuple[Action, RetrySafety, int | None],
    suggestion: str,
    *actions: str,
    retry: _Policy | None = None,
    rollback: _Scope = _IN_STATEMENT,
) -> KindInfo:
    if retry is None:
        # Only a kind the code retries has a policy to choose; a retried row
        # without one is a mistake in this table, caught at import.
        if next_step[0] in {_RETRY, _RECONNECT}:
            raise ValueError(f"a retried kind needs its retry policy: {suggestion!r}")
        retry = _ROLL_BACK if next_step[0] is _ROLLBACK else _NOT_RETRIED
    category, retryable, tool, jsonrpc = what
    action, safety, after_ms = next_step
    strategy, attempts, max_delay_ms, jitter_ms = retry
    scope, scope_on = rollback
    return KindInfo(
        category, retryable, tool, jsonrpc, suggestion, actions, action, safety, after_ms,
        strategy, attempts, max_delay_ms, jitter_ms, scope, scope_on,
    )  # fmt: skip


_NOT_FOUND_ACTIONS = (
    "List the existing objects (tables, columns) and check the name's spelling and case",
    "Qualify the name with its schema if it lives outside the default one",
)
_EXISTS_ACTIONS = (
    "Use IF NOT EXISTS, or pick a different name",
    "Inspect the existing object before replacing it",
)
_LOCK_ACTIONS = (
    "Retry the statement after a short back-off",
    "Keep transactions short and touch tables in a consistent order",
)
_CONNECTION_ACTIONS = (
    "Reconnect (open a new connection) and retry",
    "Check that the database server is running and reachable",
)
_DATA_ACTIONS = (
    "Check the values against the column types and constraints",
    "Bind values as parameters instead of formatting them into the SQL",
)

# Each row: (category, retryable, tool type, JSON-RPC code), (next step,
# retry safety, first wait in ms), the suggestion, the concrete actions; a
# retried kind's retry policy, and what the server undid where it is not
# the failed statement alone (PostgreSQL and DuckDB: the transaction).
# docs/kinds.md gives the reason for every decision.
KIND_TABLE: Final[MappingProxyType[Kind, KindInfo]] = MappingProxyType(
    {
        Kind.SYNTAX_ERROR: _row(
            (_C.SYNTAX_ERROR, False, _T.SYNTAX_ERROR, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "The SQL is malformed. Fix the statement; repeating it unchanged will fail again.",
            "Check the SQL near the reported position for typos, missing commas or quotes",
            "Check that keywords and functions exist in this database's dialect",
        ),
        Kind.GROUPING_ERROR: _row(
            (_C.SYNTAX_ERROR, False, _T.SYNTAX_ERROR, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "Every selected column must appear in GROUP BY or be used in an aggregate function.",
            "Add the column to GROUP BY, or wrap it in an aggregate such as MAX()",
        ),
        Kind.UNDEFINED_TABLE: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_NOT_FOUND, JSONRPC_NOT_FOUND),
            (_FIX, _NA, None),
            "The table {target}does not exist. List the tables and check the name.",
            *_NOT_FOUND_ACTIONS,
        ),
        Kind.UNDEFINED_COLUMN: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_NOT_FOUND, JSONRPC_NOT_FOUND),
            (_FIX, _NA, None),
            "The column {target}does not exist. Describe the table and check the column names.",
            "Describe the table to see its columns",
            "Check the spelling, the case and the table alias of the column",
        ),
        Kind.UNDEFINED_FUNCTION: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_NOT_FOUND, JSONRPC_NOT_FOUND),
            (_FIX, _NA, None),
            "The function {target}does not exist with these argument types in this database.",
            "Check the function name against this database's dialect",
            "Cast the arguments to the types the function expects",
        ),
        Kind.UNDEFINED_OBJECT: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_NOT_FOUND, JSONRPC_NOT_FOUND),
            (_FIX, _NA, None),
            "The object {target}does not exist.",
            *_NOT_FOUND_ACTIONS,
        ),
        Kind.UNDEFINED_DATABASE: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_NOT_FOUND, JSONRPC_NOT_FOUND),
            (_STOP, _NA, None),
            "The database {target}does not exist. Check the database name in the connection.",
            "List the available databases",
            "Create the database first if it should exist",
        ),
        Kind.UNDEFINED_SCHEMA: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_NOT_FOUND, JSONRPC_NOT_FOUND),
            (_FIX, _NA, None),
            "The schema {target}does not exist.",
            "List the schemas and check the name",
            "Create the schema first if it should exist",
        ),
        Kind.DUPLICATE_TABLE: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_EXISTS, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "The table {target}already exists.",
            *_EXISTS_ACTIONS,
        ),
        Kind.DUPLICATE_COLUMN: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_EXISTS, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "The column {target}already exists (or is named twice).",
            "Rename the column, or skip adding it",
            "Use column aliases to make selected names distinct",
        ),
        Kind.DUPLICATE_OBJECT: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_EXISTS, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "The object {target}already exists.",
            *_EXISTS_ACTIONS,
        ),
        Kind.DUPLICATE_DATABASE: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_EXISTS, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "The database {target}already exists.",
            *_EXISTS_ACTIONS,
        ),
        Kind.DUPLICATE_SCHEMA: _row(
            (_C.SCHEMA_ERROR, False, _T.RESOURCE_EXISTS, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "The schema {target}already exists.",
            *_EXISTS_ACTIONS,
        ),
        Kind.AMBIGUOUS_COLUMN: _row(
            (_C.SCHEMA_ERROR, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "The column {target}is ambiguous: more than one table in the query has it.",
            "Qualify the column with its table name or alias (t.column)",
        ),
        Kind.WRONG_OBJECT_TYPE: _row(
            (_C.SCHEMA_ERROR, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "The object {target}is not of the type the statement expects "
            "(for example a view where a table is needed).",
            "Check what kind of object the name refers to",
            "Use the statement that fits it (DROP VIEW for a view, ...)",
        ),
        Kind.INVALID_OBJECT_DEFINITION: _row(
            (_C.SCHEMA_ERROR, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "The definition of {target}is invalid.",
            "Check the column types, keys and references in the definition",
        ),
        Kind.UNIQUE_VIOLATION: _row(
            (_C.CONSTRAINT_ERROR, False, _T.UNKNOWN, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "A row with the same unique key already exists{constraint}.",
            "Look up the existing row and update it instead of inserting",
            "Use an upsert (ON CONFLICT / ON DUPLICATE KEY UPDATE) or skip duplicates",
        ),
        Kind.FOREIGN_KEY_VIOLATION: _row(
            (_C.CONSTRAINT_ERROR, False, _T.FOREIGN_KEY_CONSTRAINT, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "A foreign key{constraint} blocks this change{dependency}.",
            "Insert the referenced (parent) row first, or use an existing key",
            "Delete or update the referencing (child) rows first",
        ),
        Kind.NOT_NULL_VIOLATION: _row(
            (_C.CONSTRAINT_ERROR, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "A required column {target}was given no value (NULL).",
            "Provide a value for every NOT NULL column",
            "Describe the table to see which columns are required",
        ),
        Kind.CHECK_VIOLATION: _row(
            (_C.CONSTRAINT_ERROR, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "A value breaks a CHECK constraint{constraint}.",
            "Read the constraint's definition and change the value to satisfy it",
        ),
        Kind.EXCLUSION_VIOLATION: _row(
            (_C.CONSTRAINT_ERROR, False, _T.UNKNOWN, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "The row conflicts with an existing row under an exclusion constraint{constraint}.",
            "Find the conflicting row and change one of the two",
        ),
        Kind.DEPENDENT_OBJECTS_STILL_EXIST: _row(
            (_C.CONSTRAINT_ERROR, False, _T.FOREIGN_KEY_CONSTRAINT, JSONRPC_CONFLICT),
            (_FIX, _NA, None),
            "{target_cap}cannot be changed or removed while other objects depend on it"
            "{dependency}.",
            "Drop or change the dependent objects first, then retry this statement",
            "Or use CASCADE if removing the dependents too is intended",
        ),
        Kind.INVALID_PASSWORD: _row(
            (_C.AUTH_ERROR, False, _T.PERMISSION_DENIED, JSONRPC_PERMISSION),
            (_STOP, _NA, None),
            "Authentication failed: the user name or password is wrong.",
            "Check the credentials in the connection settings",
            "Ask the user for valid credentials; do not retry with the same ones",
            rollback=_NOT_SENT,
        ),
        Kind.INVALID_AUTHORIZATION: _row(
            (_C.AUTH_ERROR, False, _T.PERMISSION_DENIED, JSONRPC_PERMISSION),
            (_STOP, _NA, None),
            "The login was refused (unknown, locked or expired account, or not allowed "
            "from this host).",
            "Check the user name and that the account is enabled",
            "Ask an administrator to unlock or renew the account",
            rollback=_NOT_SENT,
        ),
        Kind.INSUFFICIENT_PRIVILEGE: _row(
            (_C.AUTH_ERROR, False, _T.PERMISSION_DENIED, JSONRPC_PERMISSION),
            (_STOP, _NA, None),
            "The current user lacks the privilege for this operation{on_target}.",
            "Use an object the current user may access",
            "Ask an administrator to GRANT the privilege",
        ),
        Kind.READ_ONLY: _row(
            (_C.AUTH_ERROR, False, _T.PERMISSION_DENIED, JSONRPC_PERMISSION),
            (_STOP, _NA, None),
            "The database or transaction is read-only: writes are refused.",
            "Run only read statements here",
            "Use a writable connection or transaction for changes",
        ),
        Kind.DEADLOCK_DETECTED: _row(
            (_C.TRANSIENT_ERROR, True, _T.UNKNOWN, JSONRPC_DATABASE),
            (_RETRY, _SAFE, 0),
            "The transaction was chosen as a deadlock victim; roll it back and retry it whole.",
            "Roll back, then retry the whole transaction at once, with a little random jitter",
            "Touch tables and rows in a consistent order to avoid deadlocks",
            retry=_AT_ONCE,
            # InnoDB and SQL Server roll the victim's transaction back; Oracle
            # (ORA-00060) undoes only the statement that waited.
            rollback=(
                _RS.STATEMENT,
                MappingProxyType(
                    {**_ABORTS_ON_ERROR, "mysql": _RS.TRANSACTION, "mssql": _RS.TRANSACTION}
                ),
            ),
        ),
        Kind.SERIALIZATION_FAILURE: _row(
            (_C.TRANSIENT_ERROR, True, _T.UNKNOWN, JSONRPC_DATABASE),
            (_RETRY, _SAFE, 0),
            "A concurrent transaction changed the same data; retry the whole transaction.",
            "Roll back and retry the whole transaction",
            retry=_AT_ONCE,
            # SQL Server 3960 aborts the snapshot transaction; Oracle's
            # ORA-08177 and SQLite's SQLITE_BUSY_SNAPSHOT leave it open.
            rollback=(
                _RS.STATEMENT,
                MappingProxyType({**_ABORTS_ON_ERROR, "mssql": _RS.TRANSACTION}),
            ),
        ),
        Kind.LOCK_NOT_AVAILABLE: _row(
            (_C.TRANSIENT_ERROR, True, _T.TIMEOUT, JSONRPC_TIMEOUT),
            (_RETRY, _SAFE, 1000),
            "A lock could not be obtained (another transaction holds it); retry after a back-off.",
            *_LOCK_ACTIONS,
            retry=_LOCK_WAIT,
        ),
        Kind.DATABASE_LOCKED: _row(
            (_C.TRANSIENT_ERROR, True, _T.TIMEOUT, JSONRPC_TIMEOUT),
            (_RETRY, _SAFE, 1000),
            "The database is locked by another connection or process; retry after a back-off.",
            *_LOCK_ACTIONS,
            retry=_LOCK_WAIT,
            # DuckDB's file lock is taken when the database is opened.
            rollback=(_RS.STATEMENT, MappingProxyType({"duckdb": _RS.NOTHING_SENT})),
        ),
        Kind.STATEMENT_TIMEOUT: _row(
            # The time limit the client (or the administrator) set for one
            # statement ran out: sent again unchanged, it runs as long again.
            (_C.TRANSIENT_ERROR, False, _T.TIMEOUT, JSONRPC_TIMEOUT),
            (_FIX, _NA, None),
            "The statement ran past its time limit and was cancelled; sent again unchanged "
            "it will most likely time out again. Narrow it.",
            "Narrow the query: filter on an indexed column, aggregate, or add a LIMIT",
            "If the work really needs longer, ask the user to raise the time limit",
        ),
        Kind.QUERY_CANCELED: _row(
            (_C.TRANSIENT_ERROR, True, _T.TIMEOUT, JSONRPC_TIMEOUT),
            (_RETRY, _SAFE, 1000),
            "The statement was cancelled before it finished (by another session, an "
            "administrator or the client); it may be sent again once, if that was not intended.",
            "Send it again once if the cancel was not intended; otherwise tell the user",
            retry=_ONCE_MORE,
        ),
        Kind.SNAPSHOT_TOO_OLD: _row(
            (_C.TRANSIENT_ERROR, True, _T.UNKNOWN, JSONRPC_DATABASE),
            (_RETRY, _SAFE, 1000),
            "The data the query was reading changed too much while it ran; retry it.",
            "Retry the query, ideally when fewer concurrent writes run",
            retry=_A_FEW,
        ),
        Kind.STATEMENT_COMPLETION_UNKNOWN: _row(
            (_C.TRANSIENT_ERROR, True, _T.UNKNOWN, JSONRPC_DATABASE),
            (_RETRY, _IDEMPOTENT, 1000),
            "The database cannot tell whether the statement completed (its transaction "
            "may have committed); check before repeating a write.",
            "Read back what the statement would have changed before running it again",
            "Repeat reads and idempotent writes as they are",
            retry=_A_FEW,
        ),
        Kind.CONNECTION_FAILURE: _row(
            (_C.CONNECTION_ERROR, True, _T.CONNECTION_ERROR, JSONRPC_CONNECTION),
            (_RECONNECT, _SAFE, 1000),
            "Could not connect to the database server.",
            *_CONNECTION_ACTIONS,
            retry=_NEW_CONNECTION,
            rollback=_NOT_SENT,
        ),
        Kind.CONNECTION_LOST: _row(
            (_C.CONNECTION_ERROR, True, _T.CONNECTION_ERROR, JSONRPC_CONNECTION),
            (_RECONNECT, _IDEMPOTENT, 500),
            "The connection to the database was lost; reconnect before retrying.",
            *_CONNECTION_ACTIONS,
            retry=_NEW_CONNECTION,
            rollback=_WHOLE_TRANSACTION,
        ),
        Kind.ADMIN_SHUTDOWN: _row(
            (_C.CONNECTION_ERROR, True, _T.CONNECTION_ERROR, JSONRPC_CONNECTION),
            (_RECONNECT, _IDEMPOTENT, 5000),
            "The database server is shutting down, starting up or terminated this session.",
            "Wait a few seconds, reconnect and retry",
            retry=_SERVER_BACK,
            rollback=_WHOLE_TRANSACTION,
        ),
        Kind.CONNECTION_MISCONFIGURED: _row(
            (_C.CONNECTION_ERROR, False, _T.CONNECTION_ERROR, JSONRPC_CONNECTION),
            (_STOP, _NA, None),
            "The connection settings cannot work as given (unknown host or service, "
            "or a database file that cannot be opened).",
            "Check the host, port, service name or file path in the connection settings",
            rollback=_NOT_SENT,
        ),
        Kind.TOO_MANY_CONNECTIONS: _row(
            (_C.RESOURCE_ERROR, True, _T.CONNECTION_ERROR, JSONRPC_RESOURCE),
            (_RETRY, _SAFE, 2000),
            "The server (or this user) has reached its connection limit; retry after a back-off.",
            "Close idle connections or use a connection pool",
            "Retry after a back-off of a few seconds",
            retry=_SLOTS,
            rollback=_NOT_SENT,
        ),
        Kind.OUT_OF_MEMORY: _row(
            (_C.RESOURCE_ERROR, False, _T.UNKNOWN, JSONRPC_RESOURCE),
            (_FIX, _NA, None),
            "The database ran out of memory for this statement.",
            "Process less data at once (filters, LIMIT, batches)",
            "Raise the memory limit if this workload needs it",
        ),
        Kind.DISK_FULL: _row(
            (_C.RESOURCE_ERROR, False, _T.UNKNOWN, JSONRPC_RESOURCE),
            (_STOP, _NA, None),
            "The database's storage is full.",
            "Free disk space or extend the tablespace; retrying will not help until then",
        ),
        Kind.CONFIGURATION_LIMIT_EXCEEDED: _row(
            (_C.RESOURCE_ERROR, False, _T.UNKNOWN, JSONRPC_RESOURCE),
            (_FIX, _NA, None),
            "A configured limit of the database was exceeded.",
            "Split the work into smaller pieces, or raise the limit",
        ),
        Kind.QUOTA_EXCEEDED: _row(
            (_C.RESOURCE_ERROR, False, _T.UNKNOWN, JSONRPC_RESOURCE),
            (_STOP, _NA, None),
            "A quota of this account, user or project is used up (queries, data scanned, "
            "updates per hour); it resets over time or an administrator raises it.",
            "Tell the user which quota was exceeded; do not retry until it resets",
            "Ask an administrator to raise the quota if the workload needs it",
        ),
        Kind.IO_ERROR: _row(
            (_C.RESOURCE_ERROR, False, _T.UNKNOWN, JSONRPC_RESOURCE),
            (_STOP, _NA, None),
            "The database could not read or write its storage.",
            "Check the storage (permissions, device health, free space)",
        ),
        Kind.DATA_CORRUPTED: _row(
            (_C.RESOURCE_ERROR, False, _T.UNKNOWN, JSONRPC_RESOURCE),
            (_STOP, _NA, None),
            "The database's data files are damaged.",
            "Stop writing; restore from a backup or run the database's recovery tool",
        ),
        Kind.DIVISION_BY_ZERO: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "The query divides by zero.",
            "Guard the divisor, e.g. NULLIF(divisor, 0)",
        ),
        Kind.INVALID_TEXT_REPRESENTATION: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "A value cannot be converted to the column's type.",
            *_DATA_ACTIONS,
        ),
        Kind.INVALID_DATETIME_FORMAT: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "A date or time value is not in a format the database accepts.",
            "Use ISO 8601 (YYYY-MM-DD, YYYY-MM-DD HH:MM:SS) or an explicit format function",
        ),
        Kind.NUMERIC_VALUE_OUT_OF_RANGE: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "A number is too large or too small for its column type.",
            *_DATA_ACTIONS,
        ),
        Kind.STRING_DATA_RIGHT_TRUNCATION: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "A value is too long for its column{on_target}.",
            "Shorten the value, or widen the column",
        ),
        Kind.DATATYPE_MISMATCH: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "A value or expression has the wrong type for where it is used.",
            "Cast the value to the expected type",
            "Check the values against the column types and constraints",
        ),
        Kind.CARDINALITY_VIOLATION: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "A subquery or lookup returned more (or fewer) rows than the statement allows.",
            "Make the subquery return one row (a tighter filter, LIMIT 1, or an aggregate)",
        ),
        Kind.INVALID_PARAMETER: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "The statement's parameters or arguments are invalid (count, name or value).",
            "Pass exactly one bound value per placeholder, in the driver's placeholder style",
        ),
        Kind.TRANSACTION_ABORTED: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_DATABASE),
            (_ROLLBACK, _NA, None),
            "An earlier statement failed, so the transaction is aborted; roll back first.",
            "ROLLBACK the transaction before anything else",
            "Then fix the statement that failed first and run the transaction again",
            rollback=_WHOLE_TRANSACTION,
        ),
        Kind.INVALID_TRANSACTION_STATE: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "The statement does not fit the transaction's state (none is open, or one already is).",
            "Pair each BEGIN with one COMMIT or ROLLBACK",
            "Commit or roll back the open transaction before starting another",
        ),
        Kind.FEATURE_NOT_SUPPORTED: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_VALIDATION),
            (_FIX, _NA, None),
            "This database does not support what the statement asks for.",
            "Rewrite the statement with features this database supports",
        ),
        Kind.INTERNAL_ERROR: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_DATABASE),
            (_STOP, _NA, None),
            "The database reported an internal error.",
            "Report the error to the database administrator, with the statement",
        ),
        Kind.UNKNOWN: _row(
            (_C.QUERY_EXECUTION, False, _T.UNKNOWN, JSONRPC_DATABASE),
            (_FIX, _NA, None),
            "The database reported an error that could not be classified. Read the message.",
            "Read the error message and check the statement",
        ),
    }
)


#: The row whose next step, first wait and retry policy an error takes when
#: its driver says it is recoverable although its kind is not retried
#: (Oracle's `isrecoverable`, SQL Server's "rerun the query"): whether the
#: interrupted call took effect is not known, as for SQLSTATE 40003.
RECOVERABLE_BY_DRIVER: Final = Kind.STATEMENT_COMPLETION_UNKNOWN


def rollback_scope(kind: Kind, backend: str | None = None) -> RollbackScope:
    """
    What the server undid when a statement failed with *kind* on *backend*.

    Args:
        kind: The kind.
        backend: The backend that answered (`StructuredErrorResponse.backend`);
            an engine the row does not name gets the kind's own scope, the
            narrowest the engines documented for it.

    Returns:
        The `RollbackScope`.
    """
    info = KIND_TABLE[kind]
    if backend is None:
        return info.rollback_scope
    return info.rollback_scope_on.get(backend, info.rollback_scope)


def kind_info(kind: Kind) -> KindInfo:
    """
    Return the `KindInfo` row for *kind*.

    Args:
        kind: Any `Kind`.

    Returns:
        The row of `KIND_TABLE`.
    """
    return KIND_TABLE[kind]


class _Fields(dict[str, str]):
    """A suggestion template's fields; the ones not given render as nothing."""

    def __missing__(self, key: str) -> str:
        return "The object " if key == "target_cap" else ""


# Each kind's suggestion when no name is known, rendered once.
_PLAIN: Final[dict[Kind, str]] = {
    kind: info.suggestion.format_map(_Fields()) for kind, info in KIND_TABLE.items()
}
# Templates with one field, split around it once: the common case renders
# with two concatenations.  Field -> (what the name becomes: before, after).
_AROUND: Final[dict[str, tuple[str, str]]] = {
    "target": ("'", "' "),
    "target_cap": ("'", "' "),
    "on_target": (" on '", "'"),
    "constraint": (" (", ")"),
}


def _one_field() -> dict[Kind, tuple[str, str, str, str, str]]:
    found: dict[Kind, tuple[str, str, str, str, str]] = {}
    for kind, info in KIND_TABLE.items():
        parts = info.suggestion.split("{")
        if len(parts) == 2:
            field, _, tail = parts[1].partition("}")
            if field in _AROUND:
                before, after = _AROUND[field]
                found[kind] = (field, parts[0], before, after, tail)
    return found


# Kind -> (field, text before it, before the name, after the name, text after it).
_ONE_FIELD: Final = _one_field()


def render_suggestion(
    kind: Kind,
    target: str | None = None,
    constraint: str | None = None,
    dependencies: tuple[str, ...] = (),
) -> str:
    """
    The kind's suggestion, with the names of the objects involved.

    The template is this module's own; the names are only ever substituted
    into it, never read as a template themselves, so a table named `p{0}`
    is just a name.

    Args:
        kind: The kind.
        target: The first affected object.
        constraint: The constraint's name.
        dependencies: What must change first.

    Returns:
        One sentence.
    """
    if target is None and constraint is None and not dependencies:
        return _PLAIN[kind]
    one = _ONE_FIELD.get(kind)
    if one is not None:
        field, head, before, after, tail = one
        value = constraint if field == "constraint" else target
        return _PLAIN[kind] if not value else f"{head}{before}{value}{after}{tail}"
    template = KIND_TABLE[kind].suggestion
    if "{" not in template:
        return template
    fields = _Fields()
    if target:
        fields["target"] = f"'{target}' "
        fields["target_cap"] = f"'{target}' "
        fields["on_target"] = f" on '{target}'"
    if constraint:
        fields["constraint"] = f" ({constraint})"
    if dependencies:
        fields["dependency"] = f" (change {', '.join(dependencies)} first)"
    return template.format_map(fields)
