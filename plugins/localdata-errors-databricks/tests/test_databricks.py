"""The Databricks plugin against databricks-sql-connector's own exceptions."""

from __future__ import annotations

import pytest
from databricks_errors import MESSAGES, kernel_error, sea_error, thrift_error
from localdata_errors_databricks import ALL_CONDITIONS, CONDITIONS

from localdata_errors import (
    Action,
    ErrorMapperRegistry,
    Kind,
    RetrySafety,
    classify_error,
    classify_message,
)


def test_registered_through_its_entry_point() -> None:
    info = {m.name: m for m in ErrorMapperRegistry.list_mappers()}["databricks"]
    assert info.source == "entry point"
    assert info.distribution == "localdata-errors-databricks"
    assert info.driver_modules == ("databricks.sql",)


def test_spark_classes_carry_the_states_databricks_prints() -> None:
    for error_class, text in MESSAGES.items():
        main = error_class.partition(".")[0]
        assert f"SQLSTATE: {ALL_CONDITIONS[main]}" in text, error_class


# (error class, kind, action, names, schema)
CASES = [
    ("TABLE_OR_VIEW_NOT_FOUND", Kind.UNDEFINED_TABLE, Action.FIX_QUERY, ("orders",), "sales"),
    (
        "UNRESOLVED_COLUMN.WITH_SUGGESTION",
        Kind.UNDEFINED_COLUMN,
        Action.FIX_QUERY,
        ("nosuch",),
        None,
    ),
    ("PARSE_SYNTAX_ERROR", Kind.SYNTAX_ERROR, Action.FIX_QUERY, (), None),
    ("DIVIDE_BY_ZERO", Kind.DIVISION_BY_ZERO, Action.FIX_QUERY, (), None),
    ("DELTA_CONCURRENT_APPEND", Kind.SERIALIZATION_FAILURE, Action.RETRY, (), None),
    ("INSUFFICIENT_PERMISSIONS", Kind.INSUFFICIENT_PRIVILEGE, Action.STOP, (), None),
    ("SCHEMA_NOT_FOUND", Kind.UNDEFINED_SCHEMA, Action.FIX_QUERY, ("nosuch",), None),
    ("TABLE_OR_VIEW_ALREADY_EXISTS", Kind.DUPLICATE_TABLE, Action.FIX_QUERY, ("orders",), "sales"),
    ("UNRESOLVED_ROUTINE", Kind.UNDEFINED_FUNCTION, Action.FIX_QUERY, ("nosuch",), None),
    ("CAST_INVALID_INPUT", Kind.INVALID_TEXT_REPRESENTATION, Action.FIX_QUERY, (), None),
    ("MISSING_AGGREGATION", Kind.GROUPING_ERROR, Action.FIX_QUERY, (), None),
    ("QUERY_EXECUTION_TIMEOUT_EXCEEDED", Kind.STATEMENT_TIMEOUT, Action.FIX_QUERY, (), None),
]


@pytest.mark.parametrize(
    ("error_class", "kind", "action", "names", "schema"), CASES, ids=[c[0] for c in CASES]
)
def test_thrift_backend_errors(
    error_class: str, kind: Kind, action: Action, names: tuple[str, ...], schema: str | None
) -> None:
    answer = classify_error(thrift_error(error_class))
    assert (answer.backend, answer.driver) == ("databricks", "databricks")
    assert answer.database_error_code == error_class
    assert answer.sqlstate == ALL_CONDITIONS[error_class.partition(".")[0]]
    assert (answer.kind, answer.action) == (kind, action)
    assert (answer.affected_resources, answer.schema) == (names, schema)


def test_concurrent_append_is_a_safe_retry() -> None:
    answer = classify_error(thrift_error("DELTA_CONCURRENT_APPEND"))
    assert answer.retry_safety is RetrySafety.SAFE


def test_statement_execution_backend() -> None:
    text = MESSAGES["TABLE_OR_VIEW_NOT_FOUND"].removeprefix("[TABLE_OR_VIEW_NOT_FOUND] ")
    answer = classify_error(sea_error("TABLE_OR_VIEW_NOT_FOUND", text))
    assert (answer.kind, answer.database_error_code, answer.sqlstate) == (
        Kind.UNDEFINED_TABLE,
        "TABLE_OR_VIEW_NOT_FOUND",
        "42P01",
    )


def test_kernel_backend_attributes_win() -> None:
    text = "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead."
    answer = classify_error(kernel_error("DIVIDE_BY_ZERO", "22012", text))
    assert (answer.kind, answer.database_error_code, answer.sqlstate) == (
        Kind.DIVISION_BY_ZERO,
        "DIVIDE_BY_ZERO",
        "22012",
    )


def test_a_class_newer_than_the_table_goes_by_its_sqlstate() -> None:
    text = "[SOME_FUTURE_TABLE_ERROR] The table `t` cannot be found. SQLSTATE: 42P01"
    assert "SOME_FUTURE_TABLE_ERROR" not in ALL_CONDITIONS
    answer = classify_error(thrift_error("SOME_FUTURE_TABLE_ERROR", text))
    assert (answer.kind, answer.database_error_code) == (
        Kind.UNDEFINED_TABLE,
        "SOME_FUTURE_TABLE_ERROR",
    )


def test_the_spark_list_is_large() -> None:
    # Spark's list has hundreds of classes with a SQLSTATE; Databricks' own are added.
    assert len(CONDITIONS) > 500
    assert "DELTA_CONCURRENT_APPEND" not in CONDITIONS


def test_class_given_as_code() -> None:
    answer = classify_message(
        "cannot be found", db_type="databricks", code="TABLE_OR_VIEW_NOT_FOUND"
    )
    assert (answer.kind, answer.sqlstate) == (Kind.UNDEFINED_TABLE, "42P01")
