"""
Databricks' error replies, raised as databricks-sql-connector raises them.

The Thrift backend raises ``ServerOperationError(displayMessage, {"operation-id":
..., "diagnostic-info": ...})`` when an operation ends in ERROR_STATE; the
statement-execution backend ``ServerOperationError("Command failed: {error_code}
- {message}", ...)``; the kernel backend forwards ``code``, ``sql_state`` and
``error_code`` onto the exception.  The display messages are Databricks', from
its error-class reference (https://docs.databricks.com/en/error-messages/
error-classes.html and the per-class pages it links).
"""

from __future__ import annotations

from databricks.sql.exc import ServerOperationError

OPERATION_ID = "01ef2f6a-9a3b-1c4d-8e5f-0a1b2c3d4e5f"

#: error class -> the display message Databricks sends.
MESSAGES: dict[str, str] = {
    "TABLE_OR_VIEW_NOT_FOUND": (
        "[TABLE_OR_VIEW_NOT_FOUND] The table or view `main`.`sales`.`orders` cannot be found."
        " Verify the spelling and correctness of the schema and catalog.\nIf you did not qualify"
        " the name with a schema, verify the current_schema() output, or qualify the name with"
        " the correct schema and catalog.\nTo tolerate the error on drop use DROP VIEW IF EXISTS"
        " or DROP TABLE IF EXISTS. SQLSTATE: 42P01; line 1 pos 14;\n'Project [*]\n"
        "+- 'UnresolvedRelation [main, sales, orders], [], false\n"
    ),
    "UNRESOLVED_COLUMN.WITH_SUGGESTION": (
        "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with name"
        " `nosuch` cannot be resolved. Did you mean one of the following? [`id`, `name`]."
        " SQLSTATE: 42703; line 1 pos 7"
    ),
    "PARSE_SYNTAX_ERROR": (
        "[PARSE_SYNTAX_ERROR] Syntax error at or near 'SELEC'. SQLSTATE: 42601 (line 1, pos 0)"
    ),
    "DIVIDE_BY_ZERO": (
        "[DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and"
        ' return NULL instead. If necessary set "ansi_mode" to "false" to bypass this error.'
        " SQLSTATE: 22012"
    ),
    "DELTA_CONCURRENT_APPEND": (
        "[DELTA_CONCURRENT_APPEND] ConcurrentAppendException: Files were added to the root of the"
        " table by a concurrent update. Please try the operation again.\nRefer to"
        " https://docs.databricks.com/delta/concurrency-control.html for more details."
        " SQLSTATE: 2D521"
    ),
    "INSUFFICIENT_PERMISSIONS": (
        "[INSUFFICIENT_PERMISSIONS] Insufficient privileges:\nUser does not have SELECT on Table"
        " 'main.sales.orders'. SQLSTATE: 42501"
    ),
    "SCHEMA_NOT_FOUND": (
        "[SCHEMA_NOT_FOUND] The schema `main`.`nosuch` cannot be found. Verify the spelling and"
        " correctness of the schema and catalog. SQLSTATE: 42704"
    ),
    "TABLE_OR_VIEW_ALREADY_EXISTS": (
        "[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create table or view `main`.`sales`.`orders`"
        " because it already exists. Choose a different name, drop or replace the existing"
        " object, or add the IF NOT EXISTS clause to tolerate pre-existing objects."
        " SQLSTATE: 42P07"
    ),
    "UNRESOLVED_ROUTINE": (
        "[UNRESOLVED_ROUTINE] Cannot resolve routine `nosuch` on search path [`system`.`builtin`,"
        " `system`.`session`, `main`.`default`]. SQLSTATE: 42883"
    ),
    "CAST_INVALID_INPUT": (
        '[CAST_INVALID_INPUT] The value \'abc\' of the type "STRING" cannot be cast to "INT"'
        " because it is malformed. Correct the value as per the syntax, or change its target"
        " type. SQLSTATE: 22018"
    ),
    "MISSING_AGGREGATION": (
        '[MISSING_AGGREGATION] The non-aggregating expression "name" is based on columns which'
        " are not participating in the GROUP BY clause. SQLSTATE: 42803"
    ),
    "QUERY_EXECUTION_TIMEOUT_EXCEEDED": (
        "[QUERY_EXECUTION_TIMEOUT_EXCEEDED] Query execution was cancelled due to exceeding the"
        " timeout (60s). You can increase the limit in seconds by setting"
        " `SET STATEMENT_TIMEOUT = value`. SQLSTATE: 57KD0"
    ),
}


def thrift_error(error_class: str, message: str | None = None) -> BaseException:
    """What the Thrift backend raises for an operation in ERROR_STATE."""
    text = MESSAGES.get(error_class, f"[{error_class}] error") if message is None else message
    return ServerOperationError(
        text, {"operation-id": OPERATION_ID, "diagnostic-info": "org.apache.spark.sql..."}
    )


def sea_error(error_class: str, message: str) -> BaseException:
    """What the statement-execution backend raises for a FAILED statement."""
    return ServerOperationError(
        f"Command failed: {error_class} - {message}", {"operation-id": OPERATION_ID}
    )


def kernel_error(error_class: str, sqlstate: str, message: str) -> BaseException:
    """What the kernel backend re-raises: the kernel error's attributes forwarded."""
    exc = ServerOperationError(message, {"operation-id": OPERATION_ID, "diagnostic-info": None})
    for attr, value in (
        ("code", "SqlError"),
        ("sql_state", sqlstate),
        ("error_code", error_class),
        ("vendor_code", None),
        ("http_status", None),
        ("retryable", False),
        ("query_id", OPERATION_ID),
    ):
        setattr(exc, attr, value)
    return exc
