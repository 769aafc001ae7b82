"""The Trino plugin against the trino client's own exceptions for Trino's error replies."""

from __future__ import annotations

import pytest
from localdata_errors_trino import ERROR_CODES
from trino import exceptions
from trino_errors import MESSAGES, trino_error

from localdata_errors import (
    Action,
    ErrorMapperRegistry,
    Kind,
    RetrySafety,
    classify_error,
    classify_message,
)


def test_registered_through_its_entry_point() -> None:
    info = {m.name: m for m in ErrorMapperRegistry.list_mappers()}["trino"]
    assert info.source == "entry point"
    assert info.distribution == "localdata-errors-trino"
    assert info.driver_modules == ("trino",)
    assert ErrorMapperRegistry.get_mapper("presto") is info.mapper


def test_the_client_raises_by_error_type() -> None:
    assert type(trino_error("TABLE_NOT_FOUND")) is exceptions.TrinoUserError
    assert type(trino_error("EXCEEDED_GLOBAL_MEMORY_LIMIT")) is exceptions.TrinoQueryError
    assert type(trino_error("GENERIC_INTERNAL_ERROR")) is exceptions.TrinoQueryError
    assert type(trino_error("HIVE_METASTORE_ERROR")) is exceptions.TrinoExternalError


# (error name, kind, action, names the answer carries, schema)
CASES = [
    ("TABLE_NOT_FOUND", Kind.UNDEFINED_TABLE, Action.FIX_QUERY, ("nosuch",), "default"),
    ("COLUMN_NOT_FOUND", Kind.UNDEFINED_COLUMN, Action.FIX_QUERY, ("nosuch",), None),
    ("SCHEMA_NOT_FOUND", Kind.UNDEFINED_SCHEMA, Action.FIX_QUERY, ("nosuch",), None),
    ("CATALOG_NOT_FOUND", Kind.UNDEFINED_OBJECT, Action.FIX_QUERY, ("nosuch",), None),
    ("FUNCTION_NOT_FOUND", Kind.UNDEFINED_FUNCTION, Action.FIX_QUERY, ("nosuch",), None),
    ("TABLE_ALREADY_EXISTS", Kind.DUPLICATE_TABLE, Action.FIX_QUERY, ("t",), "default"),
    ("AMBIGUOUS_NAME", Kind.AMBIGUOUS_COLUMN, Action.FIX_QUERY, ("id",), None),
    ("SYNTAX_ERROR", Kind.SYNTAX_ERROR, Action.FIX_QUERY, (), None),
    ("EXPRESSION_NOT_AGGREGATE", Kind.GROUPING_ERROR, Action.FIX_QUERY, (), None),
    ("PERMISSION_DENIED", Kind.INSUFFICIENT_PRIVILEGE, Action.STOP, ("orders",), "sales"),
    ("READ_ONLY_VIOLATION", Kind.READ_ONLY, Action.STOP, (), None),
    ("EXCEEDED_TIME_LIMIT", Kind.STATEMENT_TIMEOUT, Action.FIX_QUERY, (), None),
    ("EXCEEDED_GLOBAL_MEMORY_LIMIT", Kind.OUT_OF_MEMORY, Action.FIX_QUERY, (), None),
    ("EXCEEDED_LOCAL_MEMORY_LIMIT", Kind.OUT_OF_MEMORY, Action.FIX_QUERY, (), None),
    ("CLUSTER_OUT_OF_MEMORY", Kind.OUT_OF_MEMORY, Action.RETRY, (), None),
    ("QUERY_QUEUE_FULL", Kind.TOO_MANY_CONNECTIONS, Action.RETRY, (), None),
    ("NOT_SUPPORTED", Kind.FEATURE_NOT_SUPPORTED, Action.FIX_QUERY, (), None),
    ("USER_CANCELED", Kind.QUERY_CANCELED, Action.RETRY, (), None),
    ("DIVISION_BY_ZERO", Kind.DIVISION_BY_ZERO, Action.FIX_QUERY, (), None),
    ("INVALID_CAST_ARGUMENT", Kind.INVALID_TEXT_REPRESENTATION, Action.FIX_QUERY, (), None),
    ("TYPE_MISMATCH", Kind.DATATYPE_MISMATCH, Action.FIX_QUERY, (), None),
    ("SUBQUERY_MULTIPLE_ROWS", Kind.CARDINALITY_VIOLATION, Action.FIX_QUERY, (), None),
    ("TRANSACTION_CONFLICT", Kind.SERIALIZATION_FAILURE, Action.RETRY, (), None),
    ("REMOTE_HOST_GONE", Kind.INTERNAL_ERROR, Action.RETRY, (), None),
    ("SERVER_SHUTTING_DOWN", Kind.ADMIN_SHUTDOWN, Action.RECONNECT, (), None),
    ("NO_NODES_AVAILABLE", Kind.CONNECTION_FAILURE, Action.RECONNECT, (), None),
    ("CONSTRAINT_VIOLATION", Kind.NOT_NULL_VIOLATION, Action.FIX_QUERY, (), None),
]


@pytest.mark.parametrize(
    ("name", "kind", "action", "names", "schema"), CASES, ids=[c[0] for c in CASES]
)
def test_error_replies(
    name: str, kind: Kind, action: Action, names: tuple[str, ...], schema: str | None
) -> None:
    assert name in MESSAGES
    answer = classify_error(trino_error(name))
    assert (answer.backend, answer.driver) == ("trino", "trino")
    assert answer.database_error_code == name
    assert (answer.kind, answer.action) == (kind, action)
    assert answer.affected_resources == names
    assert answer.schema == schema


def test_worker_loss_is_retried_for_idempotent_statements_only() -> None:
    answer = classify_error(trino_error("REMOTE_HOST_GONE"))
    assert answer.retry_safety is RetrySafety.IDEMPOTENT_ONLY


def test_the_clients_own_cancellation() -> None:
    # The client raises TrinoUserError("Query has been cancelled", query_id): a
    # string where the error object belongs, so its properties raise.
    exc = exceptions.TrinoUserError("Query has been cancelled", "20240501_120000_00001_abcde")
    with pytest.raises(AttributeError):
        _ = exc.error_name
    answer = classify_error(exc)
    assert (answer.backend, answer.kind, answer.action) == (
        "trino",
        Kind.QUERY_CANCELED,
        Action.RETRY,
    )


def test_a_connectors_own_error_keeps_its_name() -> None:
    text = "Failed connecting to Hive metastore: [metastore:9083]"
    answer = classify_error(trino_error("HIVE_METASTORE_ERROR", text))
    assert (answer.backend, answer.database_error_code) == ("trino", "HIVE_METASTORE_ERROR")


def test_names_and_numbers_given_as_codes() -> None:
    text = "line 1:15: Table 'memory.default.nosuch' does not exist"
    by_name = classify_message(text, db_type="trino", code="TABLE_NOT_FOUND")
    by_number = classify_message(text, db_type="trino", code=ERROR_CODES["TABLE_NOT_FOUND"][0])
    assert by_name.kind is by_number.kind is Kind.UNDEFINED_TABLE
    assert by_name.database_error_code == by_number.database_error_code == "TABLE_NOT_FOUND"
