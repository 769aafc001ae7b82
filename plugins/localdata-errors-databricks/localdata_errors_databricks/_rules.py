"""
The decisions: which Databricks error class is which kind.

Every Spark error class carries a SQLSTATE (``_conditions.py``, generated
from Spark's own list), and Spark picked them after the SQL standard and
PostgreSQL (``42P01`` for a missing table, ``42703`` for a missing column).
So a class's kind is its SQLSTATE's: the exact state first
(`SQLSTATE_KINDS`), then its two-character class (`CLASS_KINDS`).  Classes
that Databricks adds to Spark's (Delta Lake's, Unity Catalog's) are listed
with their SQLSTATE from Databricks' error-class reference
(https://docs.databricks.com/en/error-messages/error-classes.html), and a
few classes whose SQLSTATE is too coarse have their own kind (`CLASS_OVERRIDES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from localdata_errors import Kind

K = Kind

#: Databricks' own classes, absent from Spark's list, with the SQLSTATE
#: Databricks documents for each.
DATABRICKS_CONDITIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "INSUFFICIENT_PERMISSIONS": "42501",
        # Delta Lake's optimistic concurrency: a concurrent commit won; the
        # transaction wrote nothing and "the operation" is to be tried again.
        "DELTA_CONCURRENT_APPEND": "2D521",
        "DELTA_CONCURRENT_DELETE_DELETE": "2D521",
        "DELTA_CONCURRENT_DELETE_READ": "2D521",
        "DELTA_CONCURRENT_TRANSACTION": "2D521",
        "DELTA_CONCURRENT_WRITE": "2D521",
        "DELTA_METADATA_CHANGED": "2D521",
        "DELTA_PROTOCOL_CHANGED": "2D521",
        "DELTA_TABLE_NOT_FOUND": "42P01",
        "QUERY_EXECUTION_TIMEOUT_EXCEEDED": "57KD0",
    }
)

#: Exact SQLSTATE -> kind.
SQLSTATE_KINDS: Final[Mapping[str, Kind]] = MappingProxyType(
    {
        "42P01": K.UNDEFINED_TABLE,
        "42703": K.UNDEFINED_COLUMN,
        "42883": K.UNDEFINED_FUNCTION,
        "42704": K.UNDEFINED_OBJECT,
        "42P08": K.UNDEFINED_OBJECT,  # catalog not found: named in the statement
        "42K02": K.UNDEFINED_OBJECT,  # data source not found
        "42K03": K.UNDEFINED_OBJECT,  # file not found
        "3F000": K.UNDEFINED_SCHEMA,
        "42P06": K.DUPLICATE_SCHEMA,
        "42P07": K.DUPLICATE_TABLE,
        "42710": K.DUPLICATE_OBJECT,
        "42701": K.DUPLICATE_COLUMN,
        "42711": K.DUPLICATE_COLUMN,
        "42702": K.AMBIGUOUS_COLUMN,
        "42KD0": K.AMBIGUOUS_COLUMN,  # ambiguous name reference
        "42803": K.GROUPING_ERROR,
        "42601": K.SYNTAX_ERROR,
        "42602": K.SYNTAX_ERROR,
        "42501": K.INSUFFICIENT_PRIVILEGE,
        "42KD1": K.READ_ONLY,  # operation not supported in READ ONLY session mode
        "42804": K.DATATYPE_MISMATCH,
        "42846": K.DATATYPE_MISMATCH,
        "42K09": K.DATATYPE_MISMATCH,
        "22012": K.DIVISION_BY_ZERO,
        "22003": K.NUMERIC_VALUE_OUT_OF_RANGE,
        "22018": K.INVALID_TEXT_REPRESENTATION,
        "22007": K.INVALID_DATETIME_FORMAT,
        "22008": K.INVALID_DATETIME_FORMAT,
        "22001": K.STRING_DATA_RIGHT_TRUNCATION,
        "22023": K.INVALID_PARAMETER,
        "21000": K.CARDINALITY_VIOLATION,
        "23502": K.NOT_NULL_VIOLATION,
        "23503": K.FOREIGN_KEY_VIOLATION,
        "23505": K.UNIQUE_VIOLATION,
        "0A000": K.FEATURE_NOT_SUPPORTED,
        "40001": K.SERIALIZATION_FAILURE,
        "2D521": K.SERIALIZATION_FAILURE,
        "25000": K.INVALID_TRANSACTION_STATE,
        "57014": K.QUERY_CANCELED,
        "57KD0": K.STATEMENT_TIMEOUT,
        "53200": K.OUT_OF_MEMORY,
        "53100": K.DISK_FULL,
        "XX000": K.INTERNAL_ERROR,
    }
)

#: SQLSTATE class -> kind, for states not in `SQLSTATE_KINDS`.  Classes left
#: out (``KD`` data-source errors, ``38`` external routines, ``HY``, ...)
#: have no kind that fits all their states: the keyword fallback decides.
CLASS_KINDS: Final[Mapping[str, Kind]] = MappingProxyType(
    {
        "07": K.INVALID_PARAMETER,  # dynamic SQL: wrong parameters
        "08": K.CONNECTION_FAILURE,
        "0A": K.FEATURE_NOT_SUPPORTED,
        "21": K.CARDINALITY_VIOLATION,
        "22": K.INVALID_TEXT_REPRESENTATION,  # data exceptions
        "23": K.CHECK_VIOLATION,
        "28": K.INVALID_AUTHORIZATION,
        "2B": K.DEPENDENT_OBJECTS_STILL_EXIST,
        "3F": K.UNDEFINED_SCHEMA,
        "40": K.SERIALIZATION_FAILURE,
        "42": K.SYNTAX_ERROR,  # syntax error or access rule violation: fix the statement
        "53": K.CONFIGURATION_LIMIT_EXCEEDED,
        "54": K.CONFIGURATION_LIMIT_EXCEEDED,
        "58": K.IO_ERROR,
        "F0": K.INTERNAL_ERROR,
        "XX": K.INTERNAL_ERROR,
    }
)

#: Classes whose SQLSTATE says less than the class.
CLASS_OVERRIDES: Final[Mapping[str, Kind]] = MappingProxyType(
    {
        "NOT_NULL_CONSTRAINT_VIOLATION": K.NOT_NULL_VIOLATION,  # 42000
        "SCHEMA_NOT_FOUND": K.UNDEFINED_SCHEMA,  # 42704
        "TABLE_OR_VIEW_ALREADY_EXISTS": K.DUPLICATE_TABLE,
        "DIVIDE_BY_ZERO": K.DIVISION_BY_ZERO,
    }
)


def kind_for(sqlstate: str | None) -> Kind:
    """The kind of a SQLSTATE: exact first, then its class; `Kind.UNKNOWN` else."""
    if sqlstate is None:
        return K.UNKNOWN
    return SQLSTATE_KINDS.get(sqlstate) or CLASS_KINDS.get(sqlstate[:2], K.UNKNOWN)
