"""
Which kind each ODBC SQLSTATE means: the decisions, by hand, in one place.

The facts (ODBC 3.x's SQLSTATEs and their texts, and the few real drivers
report beside them) are generated into `_odbc_sqlstates`; what each means
for an agent is decided here, so that changing a kind is a one-line edit,
in psycopg's order: the exact SQLSTATE (`KINDS`), else its two-character
class (`CLASS_KINDS`).  `FAMILIES` names the SQLSTATEs that stand for a
family of conditions (`23000` is any integrity constraint): their kind is a
default the message's keywords may refine within the family.

`tests/test_generated_tables.py` checks the table against the facts
(`problems`): every SQLSTATE decided, no rule for one nobody lists, each
family holding its SQLSTATE's own kind, no connection SQLSTATE left unknown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from localdata_errors._kinds import Kind
from localdata_errors.backends._sqlstate_classes import STANDARD_CLASSES

__all__ = [
    "CLASS_KINDS",
    "CONNECTION_STATES",
    "FAMILIES",
    "FAMILY_KINDS",
    "KINDS",
    "is_connection_state",
    "kind_of",
    "problems",
]

K = Kind

#: The kind of every SQLSTATE of a class, unless `KINDS` says otherwise.
#: Class 01 (warnings) has no default: each warning is decided by its code.
CLASS_KINDS: Final[Mapping[str, Kind]] = {
    **STANDARD_CLASSES,
    # Dynamic SQL error: the statement's parameters and descriptors.
    "07": K.INVALID_PARAMETER,
    "34": K.UNDEFINED_OBJECT,  # invalid cursor name
    "3C": K.DUPLICATE_OBJECT,  # duplicate cursor name
    # ODBC's own: an argument of an ODBC call that the driver refused.
    "HY": K.INVALID_PARAMETER,
    # The driver manager: the driver or the data source cannot be set up as configured.
    "IM": K.CONNECTION_MISCONFIGURED,
}

#: One SQLSTATE -> its kind, where its class's kind does not fit (or there is none).
KINDS: Final[Mapping[str, Kind]] = {
    # 01: warnings.  The call went through; a driver that reports one with a
    # failure reports it first, so each is read by its own meaning.
    "01000": K.UNKNOWN,  # General warning: no condition of its own, the message decides
    "01001": K.UNKNOWN,  # Cursor operation conflict: a positioned change hit 0 or 2+ rows
    "01002": K.CONNECTION_LOST,  # Disconnect error: the connection is closed anyway
    "01003": K.UNKNOWN,  # NULL value eliminated in set function: information only
    "01004": K.STRING_DATA_RIGHT_TRUNCATION,  # String data, right-truncated (as 22001)
    "01006": K.INSUFFICIENT_PRIVILEGE,  # Privilege not revoked
    "01007": K.INSUFFICIENT_PRIVILEGE,  # Privilege not granted
    "01S00": K.CONNECTION_MISCONFIGURED,  # Invalid connection string attribute
    "01S01": K.UNKNOWN,  # Error in row: the row's own record says why
    "01S02": K.UNKNOWN,  # Option value changed: the driver substituted a similar value
    "01S06": K.UNKNOWN,  # Attempt to fetch before the result set returned the first rowset
    "01S07": K.UNKNOWN,  # Fractional truncation: a value was rounded
    "01S08": K.CONNECTION_MISCONFIGURED,  # Error saving File DSN (the SAVEFILE keyword)
    "01S09": K.CONNECTION_MISCONFIGURED,  # Invalid keyword (in the connection string)
    # 07: not a parameter's fault.
    "07005": K.INVALID_TRANSACTION_STATE,  # the statement has no result set to describe
    "07006": K.DATATYPE_MISMATCH,  # Restricted data type attribute violation
    # 08: a connection that existed and is gone, vs. one that never came up.
    "08002": K.CONNECTION_MISCONFIGURED,  # Connection name in use: the handle is connected
    "08003": K.CONNECTION_LOST,  # Connection not open
    "08007": K.CONNECTION_LOST,  # Connection failure during transaction (PostgreSQL's too)
    "08S01": K.CONNECTION_LOST,  # Communication link failure
    "08S02": K.CONNECTION_LOST,  # Physical connection is not usable
    # 21: ODBC's two are column-count mismatches in the statement's own text
    # (SQL Server's 109, 110 and 213 are syntax errors).
    "21S01": K.SYNTAX_ERROR,  # Insert value list does not match column list
    "21S02": K.SYNTAX_ERROR,  # Degree of derived table does not match column list
    # 22: data exceptions with a more precise kind (PostgreSQL's choices).
    "22001": K.STRING_DATA_RIGHT_TRUNCATION,
    "22002": K.INVALID_PARAMETER,  # Indicator variable required: the application's binding
    "22003": K.NUMERIC_VALUE_OUT_OF_RANGE,
    "22007": K.INVALID_DATETIME_FORMAT,
    "22008": K.INVALID_DATETIME_FORMAT,  # Datetime field overflow
    "22012": K.DIVISION_BY_ZERO,
    "22015": K.INVALID_DATETIME_FORMAT,  # Interval field overflow
    "22026": K.STRING_DATA_RIGHT_TRUNCATION,  # String data, length mismatch
    # 25: SQLEndTran's outcomes.
    "25S01": K.STATEMENT_COMPLETION_UNKNOWN,  # Transaction state: the outcome is unknown
    "25S03": K.TRANSACTION_ABORTED,  # Transaction is rolled back
    # 28: ODBC has no password SQLSTATE of its own (PostgreSQL's 28P01): the
    # user name or the password was refused.
    "28000": K.INVALID_PASSWORD,
    # 40: a constraint checked at COMMIT fails again if repeated blindly.
    "40002": K.CHECK_VIOLATION,  # Integrity constraint violation (the transaction rolled back)
    # The connection failed during the call: the transaction may have
    # committed; check before repeating a write (PostgreSQL's 40003 too).
    "40003": K.STATEMENT_COMPLETION_UNKNOWN,
    # 42: SQL Server's driver gives 42000 to any server error it has no
    # SQLSTATE for (RAISERROR's 50000 included): the message decides.
    "42000": K.UNKNOWN,
    "42S01": K.DUPLICATE_TABLE,  # Base table or view already exists
    "42S02": K.UNDEFINED_TABLE,  # Base table or view not found
    "42S11": K.DUPLICATE_OBJECT,  # Index already exists
    "42S12": K.UNDEFINED_OBJECT,  # Index not found
    "42S21": K.DUPLICATE_COLUMN,
    "42S22": K.UNDEFINED_COLUMN,
    # HY: what is not an argument's fault.
    "HY000": K.UNKNOWN,  # General error: the message decides
    "HY001": K.OUT_OF_MEMORY,  # Memory allocation error
    "HY004": K.DATATYPE_MISMATCH,  # Invalid SQL data type (of a parameter)
    "HY007": K.INVALID_TRANSACTION_STATE,  # Associated statement is not prepared
    "HY008": K.QUERY_CANCELED,  # Operation canceled
    # Function sequence error: a call the handle's state does not allow (a
    # fetch on a closed cursor, a call after a failed transaction).
    "HY010": K.INVALID_TRANSACTION_STATE,
    "HY011": K.INVALID_TRANSACTION_STATE,  # Attribute cannot be set now (a transaction is open)
    "HY013": K.OUT_OF_MEMORY,  # Memory management error (low memory)
    "HY014": K.CONFIGURATION_LIMIT_EXCEEDED,  # Limit on the number of handles exceeded
    "HY015": K.INVALID_TRANSACTION_STATE,  # No cursor name available: no open cursor
    "HY018": K.UNKNOWN,  # Server declined cancel request: the statement runs on
    "HY109": K.INVALID_TRANSACTION_STATE,  # Invalid cursor position (as 24000)
    "HY110": K.CONNECTION_MISCONFIGURED,  # Invalid driver completion (SQLDriverConnect)
    "HYC00": K.FEATURE_NOT_SUPPORTED,  # Optional feature not implemented
    "HYT00": K.STATEMENT_TIMEOUT,  # Timeout expired (the backend reads a login timeout)
    "HYT01": K.CONNECTION_FAILURE,  # Connection timeout expired
    # IM: a function the driver lacks is not the configuration's fault.
    "IM001": K.FEATURE_NOT_SUPPORTED,
}


#: Families of conditions: the kinds the message's keywords may choose instead.
FAMILY_KINDS: Final[Mapping[str, frozenset[Kind]]] = {
    "constraint": frozenset(
        {
            K.UNIQUE_VIOLATION,
            K.FOREIGN_KEY_VIOLATION,
            K.NOT_NULL_VIOLATION,
            K.CHECK_VIOLATION,
            K.EXCLUSION_VIOLATION,
        }
    ),
}

#: SQLSTATE -> its family: the SQLSTATE names the family, the message the member.
FAMILIES: Final[Mapping[str, str]] = {
    "23000": "constraint",  # Integrity constraint violation: unique, foreign key, NULL, ...
    "40002": "constraint",  # the same, found at COMMIT
}

#: SQLSTATEs about the connection outside class 08 and the driver manager's class IM.
CONNECTION_STATES: Final = frozenset({"01002", "01S00", "01S08", "01S09", "HY110", "HYT01"})


def is_connection_state(sqlstate: str) -> bool:
    """
    Whether *sqlstate* says the connection failed or cannot be made as configured.

    Args:
        sqlstate: A SQLSTATE.

    Returns:
        True for class 08, the driver manager's class IM (but `IM001`, a
        function the driver lacks) and `CONNECTION_STATES`.
    """
    return (
        sqlstate[:2] == "08"
        or (sqlstate[:2] == "IM" and sqlstate != "IM001")
        or sqlstate in CONNECTION_STATES
    )


def kind_of(sqlstate: str) -> Kind:
    """
    The kind of one SQLSTATE.

    Args:
        sqlstate: A SQLSTATE.

    Returns:
        Its own kind, else its class's, else `Kind.UNKNOWN`.
    """
    if sqlstate in KINDS:
        return KINDS[sqlstate]
    return CLASS_KINDS.get(sqlstate[:2], K.UNKNOWN)


def problems(listed: Iterable[str]) -> list[str]:
    """
    What in these decisions does not fit the SQLSTATEs the facts list.

    Args:
        listed: Every SQLSTATE of the generated list.

    Returns:
        One line per problem: a SQLSTATE no rule decides, a rule for a
        SQLSTATE nobody lists, a family without its SQLSTATE's own kind, a
        connection SQLSTATE whose kind is unknown.
    """
    states = set(listed)
    found = [f"{s}: a rule for a SQLSTATE nobody lists" for s in sorted(set(KINDS) - states)]
    found += [f"{s}: a family for a SQLSTATE nobody lists" for s in sorted(set(FAMILIES) - states)]
    for sqlstate in sorted(states):
        if sqlstate not in KINDS and sqlstate[:2] not in CLASS_KINDS:
            found.append(f"{sqlstate}: no rule decides its kind")
            continue
        kind = kind_of(sqlstate)
        family = FAMILIES.get(sqlstate)
        if family is not None and kind not in FAMILY_KINDS[family]:
            found.append(f"{sqlstate}: its kind {kind.value} is not of its {family} family")
        if kind is K.UNKNOWN and is_connection_state(sqlstate):
            found.append(f"{sqlstate}: about the connection, and its kind is unknown")
    return found
