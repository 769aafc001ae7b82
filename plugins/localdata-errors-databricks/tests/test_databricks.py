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


# Texts as users pasted them (no db_type, no code): the reader finds Databricks
# by its own signs (`TEXT_SIGNS`), and the mapper reads the class.
@pytest.mark.parametrize(
    ("text", "code", "kind"),
    [
        # Metabase over the Databricks JDBC driver (metabase/metabase#48917):
        # the driver's "SQL state: 42P01" is no PostgreSQL's.
        (
            "clojure.lang.ExceptionInfo: Error executing query: [Databricks][JDBCDriver](500051)"
            " ERROR processing query/statement. Error Code: 0, SQL state: 42P01, Query: SELECT"
            " `c`***, Error message from Server: org.apache.hive.service.cli.HiveSQLException:"
            " Error running query: [TABLE_OR_VIEW_NOT_FOUND] The table or view `s`.`t` cannot"
            " be found.",
            "TABLE_OR_VIEW_NOT_FOUND",
            Kind.UNDEFINED_TABLE,
        ),
        # pyspark in a notebook (aws/amazon-sagemaker-examples#4736).
        (
            "OperatorCustomerError: AnalysisException: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A"
            " column or function parameter with name `emp`.`var`.`rate` cannot be resolved.",
            "UNRESOLVED_COLUMN.WITH_SUGGESTION",
            Kind.UNDEFINED_COLUMN,
        ),
        # DBeaver over Simba's Spark driver (dbeaver/dbeaver#16588): "[HY000]" is a
        # SQLSTATE, the class is the bracketed name after it.
        (
            "org.jkiss.dbeaver.model.sql.DBSQLException: SQL Error [500051] [HY000]:"
            " [Simba][SparkJDBCDriver](500051) ERROR processing query/statement. Error Code: 0,"
            " SQL state: org.apache.hive.service.cli.HiveSQLException: Error running query:"
            " [MISSING_COLUMN] org.apache.spark.sql.AnalysisException: Column 'src.x' does not"
            " exist.",
            "MISSING_COLUMN",
            None,
        ),
    ],
)
def test_a_pasted_text_names_databricks(text: str, code: str, kind: Kind | None) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == ("databricks", code)
    if kind is not None:
        assert answer.kind is kind


def test_spark_analysis_error_before_error_classes() -> None:
    # Spark 3.3 and older printed no class
    # (microsoft/openhack-for-lakehouse-japanese#9): Spark's, kind by its words.
    answer = classify_message(
        "AnalysisException: Table or view not found: olist_orders_dataset_bronze; line 1 pos 14;"
    )
    assert answer.backend == "databricks"
    assert answer.error_type == "schema_error"


@pytest.mark.parametrize(
    "text",
    [
        "[HY000] general error",  # a SQLSTATE in brackets
        "[NOT_A_KNOWN_CLASS] something failed",  # in neither list
    ],
)
def test_a_bracketed_name_outside_the_lists_names_no_databricks(text: str) -> None:
    assert classify_message(text).backend != "databricks"
