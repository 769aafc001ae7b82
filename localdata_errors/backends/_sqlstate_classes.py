"""
The SQL standard's SQLSTATE classes whose every code means one kind, wherever they occur.

PostgreSQL's `errcodes.txt` and ODBC 3.x's list both file their codes under
the standard's two-character classes; a class below means the same in both,
so both backends' decision tables start from this one and add their own
classes (PostgreSQL's `53` insufficient resources, ODBC's `HY` and `IM`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["STANDARD_CLASSES"]

K = Kind

STANDARD_CLASSES: Final[Mapping[str, Kind]] = {
    # Connection exception: the connection could not be made.
    "08": K.CONNECTION_FAILURE,
    "0A": K.FEATURE_NOT_SUPPORTED,
    # Invalid transaction initiation, invalid cursor state, invalid
    # transaction state, invalid transaction termination, savepoint exception:
    # a statement the transaction's (or the cursor's) state does not allow.
    "0B": K.INVALID_TRANSACTION_STATE,
    "24": K.INVALID_TRANSACTION_STATE,
    "25": K.INVALID_TRANSACTION_STATE,
    "2D": K.INVALID_TRANSACTION_STATE,
    "3B": K.INVALID_TRANSACTION_STATE,
    "21": K.CARDINALITY_VIOLATION,
    # Data exception: a value the type or function cannot take.
    "22": K.INVALID_TEXT_REPRESENTATION,
    # Integrity constraint violation: any constraint (the code says which).
    "23": K.CHECK_VIOLATION,
    "28": K.INVALID_AUTHORIZATION,
    "3D": K.UNDEFINED_DATABASE,  # invalid catalog name
    "3F": K.UNDEFINED_SCHEMA,
    # Transaction rollback: the server rolled the transaction back; run it again.
    "40": K.SERIALIZATION_FAILURE,
    # Syntax error or access rule violation: fix the statement.
    "42": K.SYNTAX_ERROR,
    "44": K.CHECK_VIOLATION,  # WITH CHECK OPTION violation
}
