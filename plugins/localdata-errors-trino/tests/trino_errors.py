"""
Trino's error replies, turned into exceptions by the trino client itself.

A failed query's response (``GET /v1/statement/...``) carries an ``error``
object; ``TrinoRequest.process`` raises what ``_process_error`` makes of it.
The messages are Trino's own, as its analyzer and execution engine word
them (io.trino.sql.analyzer.SemanticExceptions, io.trino.ExceededTimeLimit,
io.trino.memory.ClusterMemoryManager; quoted on https://trino.io/docs/current/).
"""

from __future__ import annotations

import json
from typing import Any

import requests
from localdata_errors_trino import ERROR_CODES
from trino.client import ClientSession, TrinoRequest

#: (error name, message) -> as the coordinator words them.
MESSAGES: dict[str, str] = {
    "TABLE_NOT_FOUND": "line 1:15: Table 'memory.default.nosuch' does not exist",
    "COLUMN_NOT_FOUND": "line 1:8: Column 'nosuch' cannot be resolved",
    "SCHEMA_NOT_FOUND": "line 1:15: Schema 'nosuch' does not exist",
    "CATALOG_NOT_FOUND": "line 1:15: Catalog 'nosuch' not found",
    "FUNCTION_NOT_FOUND": "line 1:8: Function 'nosuch' not registered",
    "TABLE_ALREADY_EXISTS": "line 1:1: Table 'memory.default.t' already exists",
    "AMBIGUOUS_NAME": "line 1:8: Column 'id' is ambiguous",
    "SYNTAX_ERROR": "line 1:1: mismatched input 'SELEC'. Expecting: 'ALTER', 'ANALYZE', 'CALL'",
    "EXPRESSION_NOT_AGGREGATE": (
        "line 1:8: 'name' must be an aggregate expression or appear in GROUP BY clause"
    ),
    "PERMISSION_DENIED": "Access Denied: Cannot select from table hive.sales.orders",
    "EXCEEDED_TIME_LIMIT": "Query exceeded the maximum execution time limit of 1.00m",
    "EXCEEDED_GLOBAL_MEMORY_LIMIT": "Query exceeded distributed user memory limit of 1GB",
    "EXCEEDED_LOCAL_MEMORY_LIMIT": (
        "Query exceeded per-node memory limit of 512MB [Allocated: 511.98MB, Delta: 1.02MB]"
    ),
    "CLUSTER_OUT_OF_MEMORY": (
        "Query killed because the cluster is out of memory. Please try again in a few minutes."
    ),
    "QUERY_QUEUE_FULL": 'Too many queued queries for "global"',
    "NOT_SUPPORTED": "This connector does not support updates",
    "USER_CANCELED": "Query was canceled",
    "DIVISION_BY_ZERO": "Division by zero",
    "INVALID_CAST_ARGUMENT": "Cannot cast 'abc' to INT",
    "TYPE_MISMATCH": "line 1:10: Cannot apply operator: integer + varchar(1)",
    "SUBQUERY_MULTIPLE_ROWS": "Scalar sub-query has returned multiple rows",
    "TRANSACTION_CONFLICT": (
        "Failed to commit the transaction: a conflicting transaction committed first"
    ),
    "REMOTE_HOST_GONE": (
        "The node may have crashed or be under too much load. This is probably a "
        "transient issue, so please retry your query in a few minutes."
    ),
    "SERVER_SHUTTING_DOWN": "Server is shutting down",
    "NO_NODES_AVAILABLE": "No nodes available to run query",
    "CONSTRAINT_VIOLATION": "NULL value not allowed for NOT NULL column: id",
    "READ_ONLY_VIOLATION": "Cannot execute write in a read-only transaction",
}


def error_object(name: str, message: str | None = None) -> dict[str, Any]:
    """The ``error`` object of a failed query, as the coordinator sends it."""
    # A connector's own names (HIVE_*, ICEBERG_*) are EXTERNAL, numbered from 0x0100_0000.
    code, error_type = ERROR_CODES.get(name, (0x0100_0000, "EXTERNAL"))
    text = MESSAGES.get(name, f"error {name}") if message is None else message
    return {
        "message": text,
        "errorCode": code,
        "errorName": name,
        "errorType": error_type,
        "errorLocation": {"lineNumber": 1, "columnNumber": 1},
        "failureInfo": {
            "type": "io.trino.spi.TrinoException",
            "message": text,
            "suppressed": [],
            "stack": ["io.trino.sql.analyzer.SemanticExceptions.semanticException(...)"],
        },
    }


def trino_error(name: str, message: str | None = None) -> BaseException:
    """What the trino client raises for a query that failed with *name*."""
    response = requests.Response()
    response.status_code = 200
    response._content = json.dumps(
        {
            "id": "20240501_120000_00001_abcde",
            "stats": {"state": "FAILED"},
            "error": error_object(name, message),
        }
    ).encode()
    request = TrinoRequest("127.0.0.1", 8080, ClientSession(user="agent"))
    try:
        request.process(response)
    except Exception as exc:  # noqa: BLE001 - the client's exception is the point
        return exc
    raise AssertionError("the trino client raised nothing")
