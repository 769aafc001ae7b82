"""
Which kind each PostgreSQL SQLSTATE means: the decisions, by hand, in one place.

The facts (every SQLSTATE PostgreSQL lists and its condition name) are
generated from `errcodes.txt` into `_postgresql_codes`; what each code means
for an agent is decided here, so that changing a kind is a one-line edit:

- `KINDS`: one SQLSTATE -> its kind, where its class's kind does not fit;
- `CLASS_KINDS`: the two-character class -> the kind of its codes, also the
  lenient fallback for codes newer than the table (success, warning and
  no-data classes have none: their codes are `Kind.UNKNOWN`);
- `BY_MESSAGE`: codes (or classes) whose primary message makes them precise;
- `REFINE_CATEGORIES`: which categories the keyword fallback may move a
  class fallback into.

`tests/test_generated_tables.py` checks that every code named here is one
PostgreSQL lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import ErrorCategory, Kind
from localdata_errors.backends._sqlstate_classes import STANDARD_CLASSES

__all__ = ["BY_MESSAGE", "CLASS_KINDS", "KINDS", "REFINE_CATEGORIES"]

K = Kind

#: The kind of every code of a class, unless `KINDS` says otherwise.
#: Classes left out (warnings, cursors, routines, FDW, ...) have no kind that
#: fits all of their codes: ``Kind.UNKNOWN``, the keyword fallback decides.
CLASS_KINDS: Final[Mapping[str, Kind]] = {
    **STANDARD_CLASSES,
    "0L": K.INSUFFICIENT_PRIVILEGE,
    "2B": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "53": K.CONFIGURATION_LIMIT_EXCEEDED,
    "54": K.CONFIGURATION_LIMIT_EXCEEDED,
    # Operator intervention: the session was cancelled or terminated.
    "57": K.ADMIN_SHUTDOWN,
    "58": K.IO_ERROR,
    "72": K.SNAPSHOT_TOO_OLD,
    "F0": K.INTERNAL_ERROR,
    "XX": K.INTERNAL_ERROR,
}

#: One SQLSTATE -> its kind, where the class's kind does not fit.
KINDS: Final[Mapping[str, Kind]] = {
    # 08: a connection that existed and is gone, vs. one that never came up.
    "08003": K.CONNECTION_LOST,  # connection_does_not_exist
    "08006": K.CONNECTION_LOST,  # connection_failure (of an established connection)
    "08007": K.CONNECTION_LOST,  # transaction_resolution_unknown
    # 22: data exceptions with a more precise kind.
    "22001": K.STRING_DATA_RIGHT_TRUNCATION,
    "22026": K.STRING_DATA_RIGHT_TRUNCATION,  # string_data_length_mismatch
    "22003": K.NUMERIC_VALUE_OUT_OF_RANGE,
    "22022": K.NUMERIC_VALUE_OUT_OF_RANGE,  # indicator_overflow
    "22P01": K.NUMERIC_VALUE_OUT_OF_RANGE,  # floating_point_exception
    "2200H": K.NUMERIC_VALUE_OUT_OF_RANGE,  # sequence_generator_limit_exceeded
    "22012": K.DIVISION_BY_ZERO,
    "22007": K.INVALID_DATETIME_FORMAT,
    "22008": K.INVALID_DATETIME_FORMAT,  # datetime_field_overflow
    "22009": K.INVALID_DATETIME_FORMAT,  # invalid_time_zone_displacement_value
    "22015": K.INVALID_DATETIME_FORMAT,  # interval_field_overflow
    "2200G": K.DATATYPE_MISMATCH,  # most_specific_type_mismatch
    "22004": K.INVALID_PARAMETER,  # null_value_not_allowed (an argument, not a column)
    "22023": K.INVALID_PARAMETER,  # invalid_parameter_value
    "22010": K.INVALID_PARAMETER,  # invalid_indicator_parameter_value
    "22013": K.INVALID_PARAMETER,  # invalid_preceding_or_following_size
    "22014": K.INVALID_PARAMETER,  # invalid_argument_for_ntile_function
    "22016": K.INVALID_PARAMETER,  # invalid_argument_for_nth_value_function
    "2201E": K.INVALID_PARAMETER,  # invalid_argument_for_logarithm
    "2201F": K.INVALID_PARAMETER,  # invalid_argument_for_power_function
    "2201G": K.INVALID_PARAMETER,  # invalid_argument_for_width_bucket_function
    "2201W": K.INVALID_PARAMETER,  # invalid_row_count_in_limit_clause
    "2201X": K.INVALID_PARAMETER,  # invalid_row_count_in_result_offset_clause
    "2202G": K.INVALID_PARAMETER,  # invalid_tablesample_repeat
    "2202H": K.INVALID_PARAMETER,  # invalid_tablesample_argument
    "22031": K.INVALID_PARAMETER,  # invalid_argument_for_sql_json_datetime_function
    # 23: integrity constraints.
    "23001": K.FOREIGN_KEY_VIOLATION,  # restrict_violation
    "23502": K.NOT_NULL_VIOLATION,
    "23503": K.FOREIGN_KEY_VIOLATION,
    "23505": K.UNIQUE_VIOLATION,
    "23514": K.CHECK_VIOLATION,
    "23P01": K.EXCLUSION_VIOLATION,
    # 25: invalid transaction state.
    # active_sql_transaction: "... cannot run inside a transaction block"
    "25001": K.FEATURE_NOT_SUPPORTED,
    "25006": K.READ_ONLY,  # read_only_sql_transaction
    "25P02": K.TRANSACTION_ABORTED,  # in_failed_sql_transaction: roll back first
    "25P03": K.CONNECTION_LOST,  # idle_in_transaction_session_timeout: the session is gone
    # Names that do not exist.
    "26000": K.UNDEFINED_OBJECT,  # invalid_sql_statement_name (prepared statement)
    "34000": K.UNDEFINED_OBJECT,  # invalid_cursor_name
    "3B001": K.UNDEFINED_OBJECT,  # invalid_savepoint_specification
    # 28: authentication.
    "28P01": K.INVALID_PASSWORD,
    # 40: transaction rollback.
    "40001": K.SERIALIZATION_FAILURE,
    "40P01": K.DEADLOCK_DETECTED,
    # A deferred constraint failed at COMMIT: repeating blindly fails again.
    "40002": K.UNKNOWN,  # transaction_integrity_constraint_violation
    # The connection went during COMMIT: it may have committed; check first.
    "40003": K.STATEMENT_COMPLETION_UNKNOWN,
    # 42: the statement names something wrong, or may not do this.
    "42501": K.INSUFFICIENT_PRIVILEGE,  # an auth decision, not a schema one
    "42601": K.SYNTAX_ERROR,
    "42803": K.GROUPING_ERROR,
    "42P20": K.GROUPING_ERROR,  # windowing_error: window functions in GROUP BY/WHERE
    "42846": K.DATATYPE_MISMATCH,  # cannot_coerce
    "42804": K.DATATYPE_MISMATCH,
    "42P18": K.DATATYPE_MISMATCH,  # indeterminate_datatype
    "42P21": K.DATATYPE_MISMATCH,  # collation_mismatch
    "42P22": K.DATATYPE_MISMATCH,  # indeterminate_collation
    "42725": K.DATATYPE_MISMATCH,  # ambiguous_function: cast the arguments
    "42P08": K.DATATYPE_MISMATCH,  # ambiguous_parameter
    "42809": K.WRONG_OBJECT_TYPE,
    "42830": K.INVALID_OBJECT_DEFINITION,  # invalid_foreign_key
    "42611": K.INVALID_OBJECT_DEFINITION,  # invalid_column_definition
    "42P11": K.INVALID_OBJECT_DEFINITION,  # invalid_cursor_definition
    "42P12": K.INVALID_OBJECT_DEFINITION,  # invalid_database_definition
    "42P13": K.INVALID_OBJECT_DEFINITION,  # invalid_function_definition
    "42P14": K.INVALID_OBJECT_DEFINITION,  # invalid_prepared_statement_definition
    "42P15": K.INVALID_OBJECT_DEFINITION,  # invalid_schema_definition
    "42P16": K.INVALID_OBJECT_DEFINITION,  # invalid_table_definition
    "42P17": K.INVALID_OBJECT_DEFINITION,  # invalid_object_definition
    "42703": K.UNDEFINED_COLUMN,
    "42883": K.UNDEFINED_FUNCTION,
    "42P01": K.UNDEFINED_TABLE,
    "42P02": K.INVALID_PARAMETER,  # undefined_parameter ($3 with two parameters)
    "42704": K.UNDEFINED_OBJECT,
    "42701": K.DUPLICATE_COLUMN,
    "42P03": K.DUPLICATE_OBJECT,  # duplicate_cursor
    "42P04": K.DUPLICATE_DATABASE,
    "42723": K.DUPLICATE_OBJECT,  # duplicate_function
    "42P05": K.DUPLICATE_OBJECT,  # duplicate_prepared_statement
    "42P06": K.DUPLICATE_SCHEMA,
    "42P07": K.DUPLICATE_TABLE,  # any relation: table, index, view, sequence
    "42712": K.DUPLICATE_OBJECT,  # duplicate_alias
    "42710": K.DUPLICATE_OBJECT,
    "42702": K.AMBIGUOUS_COLUMN,
    # 53: insufficient resources.
    "53100": K.DISK_FULL,
    "53200": K.OUT_OF_MEMORY,
    "53300": K.TOO_MANY_CONNECTIONS,  # retryable after a back-off
    "53400": K.CONFIGURATION_LIMIT_EXCEEDED,
    # 55: object not in prerequisite state.
    "55006": K.LOCK_NOT_AVAILABLE,  # object_in_use: another session uses it
    "55P02": K.INVALID_PARAMETER,  # cant_change_runtime_param
    "55P03": K.LOCK_NOT_AVAILABLE,  # NOWAIT and lock_timeout
    "55P04": K.FEATURE_NOT_SUPPORTED,  # unsafe_new_enum_value_usage
    # 57: the backend refines 57014 by its message (statement timeout vs. cancel).
    "57000": K.QUERY_CANCELED,  # operator_intervention
    "57014": K.QUERY_CANCELED,
    "57P04": K.UNDEFINED_DATABASE,  # database_dropped: reconnecting cannot help
    "57P05": K.CONNECTION_LOST,  # idle_session_timeout
    # 58: system errors.
    "58P01": K.UNDEFINED_OBJECT,  # undefined_file
    "58P02": K.DUPLICATE_OBJECT,  # duplicate_file
    # XX: internal errors.
    "XX001": K.DATA_CORRUPTED,
    "XX002": K.DATA_CORRUPTED,  # index_corrupted
    # Foreign data wrappers: the few with a precise kind.
    "HV001": K.OUT_OF_MEMORY,
    "HV004": K.DATATYPE_MISMATCH,
    "HV005": K.UNDEFINED_COLUMN,
    "HV007": K.UNDEFINED_COLUMN,
    "HV00N": K.CONNECTION_FAILURE,
    "HV00Q": K.UNDEFINED_SCHEMA,
    "HV00R": K.UNDEFINED_TABLE,
    # PL/pgSQL: SELECT INTO STRICT that found no row, or more than one.
    "P0002": K.CARDINALITY_VIOLATION,
    "P0003": K.CARDINALITY_VIOLATION,
}

#: Codes whose meaning the primary message makes precise: code (or class) ->
#: (phrase, at the start of the message?, kind), tried in order after the
#: code's own kind.
BY_MESSAGE: Final[Mapping[str, tuple[tuple[str, bool, Kind], ...]]] = {
    "57014": (("statement timeout", False, K.STATEMENT_TIMEOUT),),
    "0A000": (
        ("cannot truncate a table referenced", False, K.DEPENDENT_OBJECTS_STILL_EXIST),
        # A start-up refusal: the client speaks a protocol the server does not.
        ("unsupported frontend protocol", False, K.CONNECTION_MISCONFIGURED),
    ),
    # A database that refuses every connection: ALLOW_CONNECTIONS false (an
    # administrator's decision, template0), or left invalid by an interrupted
    # DROP DATABASE (it must be dropped).  Retrying cannot help either.
    "55000": (
        ("is not currently accepting connections", False, K.INVALID_AUTHORIZATION),
        ("cannot connect to invalid database", False, K.UNDEFINED_DATABASE),
    ),
    # No operator for these operand types: the fix is a cast.
    "42883": (("operator does not exist", True, K.DATATYPE_MISMATCH),),
    # asyncpg's 08003 "connection was closed in the middle of operation:
    # terminating connection due to administrator command".
    "08": (("due to administrator command", False, K.ADMIN_SHUTDOWN),),
}

#: A class fallback may be refined by the message's keywords, into these
#: categories (default: the class's own): a new 42xxx code that says "does not
#: exist" is a schema error, not a syntax error.
REFINE_CATEGORIES: Final[Mapping[ErrorCategory, frozenset[ErrorCategory]]] = {
    ErrorCategory.SYNTAX_ERROR: frozenset(
        {ErrorCategory.SYNTAX_ERROR, ErrorCategory.SCHEMA_ERROR, ErrorCategory.AUTH_ERROR}
    ),
}
