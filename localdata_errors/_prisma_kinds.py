"""
Which kind each of Prisma's own error codes means: the decisions, by hand, in one place.

Prisma (the Node ORM) prints its own codes, `P1001` to `P4002`, before or
instead of the database's: `Error: P1001: Can't reach database server at
\\`localhost:5432\\``.  Such a code is no backend's (the reader names the
backend by other signs, or none), so it is decided here, once, from the
code's message template in the generated facts (`_prisma_codes`, from
Prisma's engines' source) and Prisma's error reference
(https://www.prisma.io/docs/orm/reference/error-reference).  The keyword
fallback reads the code's kind from this table; a code left undecided, and
a text without a code, are read by its keywords.  `tests/test_prisma_codes.py`
fails on a code the facts lack, and on a code neither decided nor listed
here as undecided with its reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["KINDS", "UNDECIDED", "is_prisma_code", "prisma_kind"]

K = Kind

#: Prisma's code -> the kind its message says.
KINDS: Final[Mapping[str, Kind]] = {
    # P1xxx, common: the connection, the credentials, the database.
    "P1000": K.INVALID_PASSWORD,  # Authentication failed against database server ...
    "P1001": K.CONNECTION_FAILURE,  # Can't reach database server at ...
    # The database server ... was reached but timed out. Please try again: the
    # connect did not complete (Prisma's connect_timeout), as P1001.
    "P1002": K.CONNECTION_FAILURE,
    "P1003": K.UNDEFINED_DATABASE,  # Database `x` does not exist ...
    # Operations timed out after `{time}` / Socket timeout (the database failed
    # to respond to a query within the configured timeout).
    "P1008": K.STATEMENT_TIMEOUT,
    "P1009": K.DUPLICATE_DATABASE,  # Database `x` already exists on the database server
    "P1010": K.INSUFFICIENT_PRIVILEGE,  # User ... was denied access on the database `x`
    "P1013": K.CONNECTION_MISCONFIGURED,  # The provided database string is invalid.
    "P1014": K.UNDEFINED_TABLE,  # The underlying table for model `m` does not exist.
    # Your Prisma schema is using features that are not supported for the
    # version of the database.
    "P1015": K.FEATURE_NOT_SUPPORTED,
    "P1016": K.INVALID_PARAMETER,  # Your raw query had an incorrect number of parameters.
    "P1017": K.CONNECTION_LOST,  # Server has closed the connection.
    "P1018": K.INVALID_TRANSACTION_STATE,  # (TransactionAlreadyClosed) {message}
    "P1019": K.FEATURE_NOT_SUPPORTED,  # (UnsupportedFeatureError) {message}
    # P2xxx, the query engine.
    # The provided value for the column is too long for the column's type.
    "P2000": K.STRING_DATA_RIGHT_TRUNCATION,
    # The value stored in the database for the field is invalid for the field's type.
    "P2005": K.DATATYPE_MISMATCH,
    "P2006": K.INVALID_PARAMETER,  # The provided value ... for `m` field `f` is not valid
    "P2008": K.SYNTAX_ERROR,  # Failed to parse the query ... at ...
    "P2011": K.NOT_NULL_VIOLATION,  # Null constraint violation on the ...
    "P2002": K.UNIQUE_VIOLATION,  # Unique constraint failed on the ...
    "P2003": K.FOREIGN_KEY_VIOLATION,  # Foreign key constraint violated ...
    "P2013": K.INVALID_PARAMETER,  # Missing the required argument ...
    # The change you are trying to make would violate the required relation
    # between the `a` and `b` models: a relation's rows (Prisma's emulated
    # foreign keys, `relationMode = "prisma"`) block it.
    "P2014": K.FOREIGN_KEY_VIOLATION,
    "P2019": K.INVALID_PARAMETER,  # Input error. {details}
    "P2020": K.NUMERIC_VALUE_OUT_OF_RANGE,  # Value out of range for the type.
    "P2021": K.UNDEFINED_TABLE,  # The table `t` does not exist in the current database.
    "P2022": K.UNDEFINED_COLUMN,  # The column `c` does not exist in the current database.
    # Inconsistent column data: a value not in its type's form (the docs'
    # `Malformed ObjectID`, a UUID with an invalid character).
    "P2023": K.INVALID_TEXT_REPRESENTATION,
    # Timed out fetching a new connection from the connection pool: every
    # connection busy, nothing sent (as node-oracledb's queue timeout).
    "P2024": K.TOO_MANY_CONNECTIONS,
    # The current database provider doesn't support a feature that the query used.
    "P2026": K.FEATURE_NOT_SUPPORTED,
    "P2029": K.CONFIGURATION_LIMIT_EXCEEDED,  # Query parameter limit exceeded error
    "P2030": K.UNDEFINED_OBJECT,  # Cannot find a fulltext index to use for the search
    # Error converting field "f" of expected non-nullable type "t", found
    # incompatible value of "v".
    "P2032": K.DATATYPE_MISMATCH,
    # (ValueFitError) the docs: a number used in the query does not fit into a
    # 64 bit signed integer.
    "P2033": K.NUMERIC_VALUE_OUT_OF_RANGE,
    # Transaction failed due to a write conflict or a deadlock. Please retry
    # your transaction: one kind for both, the retryable one.
    "P2034": K.SERIALIZATION_FAILURE,
    "P2037": K.TOO_MANY_CONNECTIONS,  # Too many database connections opened: {message}
    # P3xxx, Migrate: what this database does not allow.
    "P3021": K.FEATURE_NOT_SUPPORTED,  # Foreign keys cannot be created on this database.
    "P3022": K.FEATURE_NOT_SUPPORTED,  # Direct execution of DDL ... is disabled on this database.
}

_WRAPS = "its message carries the database's own error: the keywords (or its code) read that"
_RECORDS = "about Prisma's records or relations, not the database: no kind says it"
_MIGRATE = "about Prisma Migrate's own state or files, not the database: no kind says it"

#: Prisma's codes no kind is decided for, and why: the keywords read their text.
UNDECIDED: Final[Mapping[str, str]] = {
    "P1011": "Error opening a TLS connection: {message}: a refused certificate, an absent "
    "TLS server or a missing file; the message says which",
    "P1012": "a Prisma schema file's validation errors, not the database's",
    "P2001": _RECORDS,
    "P2004": _WRAPS,
    "P2007": _WRAPS,
    "P2010": _WRAPS,
    "P2015": _RECORDS,
    "P2016": "Query interpretation error: Prisma's own, its details vary",
    "P2017": _RECORDS,
    "P2018": _RECORDS,
    "P2025": _RECORDS,
    "P2027": "several errors at once: no one kind",
    "P2028": "Transaction API error: an expired transaction, a start that timed out; "
    "the message says which",
    "P2031": "the MongoDB server must run as a replica set: a deployment's requirement",
    "P2035": _WRAPS,
    "P2036": "an error kept by a driver adapter, known only by its id",
    "P3000": _WRAPS,
    "P3001": _MIGRATE,
    "P3002": _WRAPS,
    "P3003": _MIGRATE,
    "P3004": "a system database Migrate will not alter: Prisma's own rule",
    "P3005": _MIGRATE,
    "P3006": _WRAPS,
    "P3007": _MIGRATE,
    "P3008": _MIGRATE,
    "P3009": _MIGRATE,
    "P3010": _MIGRATE,
    "P3011": _MIGRATE,
    "P3012": _MIGRATE,
    "P3013": _MIGRATE,
    "P3014": _WRAPS,
    "P3015": _MIGRATE,
    "P3016": _WRAPS,
    "P3017": _MIGRATE,
    "P3018": _WRAPS,
    "P3019": _MIGRATE,
    "P3020": "Azure SQL does not let Migrate create a shadow database: a setting to add",
    "P3023": _MIGRATE,
    "P3024": _MIGRATE,
    "P4001": "introspection found an empty database: nothing failed in it",
    "P4002": "introspection found the schema inconsistent: its explanation says how",
}


def prisma_kind(code: object) -> Kind | None:
    """
    The kind Prisma's code means, where it is decided.

    Args:
        code: A native code as the mapper was given it (`"P1001"`).

    Returns:
        The decided kind; `None` for another code and an undecided one.
    """
    return KINDS.get(code) if isinstance(code, str) else None


def is_prisma_code(code: object) -> bool:
    """
    Whether a code is one of Prisma's own (decided or not), no backend's.

    Args:
        code: A native code as the mapper was given it.

    Returns:
        Whether this module decides it or lists it as undecided.
    """
    return isinstance(code, str) and (code in KINDS or code in UNDECIDED)
