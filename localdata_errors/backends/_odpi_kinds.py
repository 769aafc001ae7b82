"""
Which kind each of ODPI-C's errors (DPI-) means: the decisions, by hand, in one place.

The facts (every message of ODPI-C's table as compiled into python-oracledb's
thick implementation, and the DPY- error python-oracledb puts above each it
translates) are generated into `_odpi_messages`; each message gets its kind
here, by phrase, first match wins (ODPI-C's sources were read to write the
rules), so that changing a kind is a one-line edit.
`tests/test_generated_tables.py` fails (`problems`) on a message no rule
reads, on a rule that reads nothing, on a message about the connection, the
session, the client library or authentication left without a kind, and on a
translated DPI- error whose kind differs from its DPY- error's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["CONNECTION_WORDS", "RESERVED", "RULES", "decide", "kind_of", "problems"]

K = Kind

#: Numbers ODPI-C keeps in its table without an error behind them.
RESERVED: Final = frozenset({"unused", "no error"})


#: (phrase in the lower-cased message, kind); first match wins.  None: no kind
# honestly fits (ODPI-C's internal failures, a call made out of order), left
# to the keywords; a rule with None still counts as a reading of the message.
RULES: Final[tuple[tuple[str, Kind | None], ...]] = (
    # The session went away: dpiConn's handle is gone or closing (1010), or
    # an ORA- error marked the session dead (1080, the ORA- line follows).
    ("connection was closed by ora-", K.CONNECTION_LOST),
    ("not connected", K.CONNECTION_LOST),
    # dpiConn's call timeout expired (the ORA-03156 / 03136 / 12161 it
    # wraps follows); python-oracledb translates it to DPY-4024.
    ("call timeout", K.STATEMENT_TIMEOUT),
    # The Oracle Client library cannot be loaded, is too old, or its
    # environment cannot be created: no call succeeds until that changes.
    ("oracle client library", K.CONNECTION_MISCONFIGURED),
    ("oci library", K.CONNECTION_MISCONFIGURED),
    ("shared library at version", K.CONNECTION_MISCONFIGURED),
    ("odpi-c context not created", K.CONNECTION_MISCONFIGURED),
    ("environment handle", K.CONNECTION_MISCONFIGURED),
    ("nls environment variable", K.CONNECTION_MISCONFIGURED),
    # A text the session's character set cannot hold (PostgreSQL's 22P05).
    ("convert text to session character set", K.INVALID_TEXT_REPRESENTATION),
    # The encoding given when the environment is created is not one OCI knows.
    ("invalid character set", K.CONNECTION_MISCONFIGURED),
    # Authentication and connect or pool parameters that cannot work together.
    ("authentication", K.CONNECTION_MISCONFIGURED),
    ("dpiaccesstoken", K.CONNECTION_MISCONFIGURED),
    ("new password", K.CONNECTION_MISCONFIGURED),
    ("sharding key", K.CONNECTION_MISCONFIGURED),
    ("events mode", K.CONNECTION_MISCONFIGURED),
    # A close mode for pooled connections, or a close of a connection the
    # application did not create: the connection's setup, as for DPY-2023.
    ("not acquired from a session pool", K.CONNECTION_MISCONFIGURED),
    ("created from external handle", K.CONNECTION_MISCONFIGURED),
    # A handle used after it was closed: as the DPY- table has it for a
    # cursor that is not open (DPY-1006).
    ("was already closed", K.INVALID_TRANSACTION_STATE),
    # The database is too old for what the call asks (the client's version
    # is a setting of the application's machine, above).
    ("oracle database is at version", K.FEATURE_NOT_SUPPORTED),
    ("out of memory", K.OUT_OF_MEMORY),
    ("not supported", K.FEATURE_NOT_SUPPORTED),
    ("not implemented", K.FEATURE_NOT_SUPPORTED),
    ("unsupported", K.FEATURE_NOT_SUPPORTED),
    # Values.
    ("invalid date", K.INVALID_DATETIME_FORMAT),
    ("cannot be represented as an oracle number", K.NUMERIC_VALUE_OUT_OF_RANGE),
    ("not a number (nan)", K.NUMERIC_VALUE_OUT_OF_RANGE),
    ("strings converted to numbers", K.INVALID_TEXT_REPRESENTATION),
    ("invalid number", K.INVALID_TEXT_REPRESENTATION),
    ("when expecting object of type", K.DATATYPE_MISMATCH),
    ("must match the payload type", K.DATATYPE_MISMATCH),
    ("is not a collection", K.WRONG_OBJECT_TYPE),
    # The call's arguments: too large, too small, null, out of range, or the
    # wrong function for the data.
    ("value is null", K.INVALID_PARAMETER),
    ("too large", K.INVALID_PARAMETER),
    ("too small", K.INVALID_PARAMETER),
    ("cannot exceed", K.INVALID_PARAMETER),
    ("cannot be zero", K.INVALID_PARAMETER),
    ("null pointer", K.INVALID_PARAMETER),
    ("is not valid with max array size", K.INVALID_PARAMETER),
    ("is invalid", K.INVALID_PARAMETER),
    ("is not part of object type", K.INVALID_PARAMETER),
    ("does not exist", K.INVALID_PARAMETER),
    ("no object type specified", K.INVALID_PARAMETER),
    ("would go out of the result set", K.INVALID_PARAMETER),
    ("can only be used with", K.INVALID_PARAMETER),
    ("no payload provided", K.INVALID_PARAMETER),
    ("instead.", K.INVALID_PARAMETER),
    # ODPI-C's internal failures, and calls made out of order: no kind says
    # what went wrong, the keywords read the text.
    ("invalid %s handle", None),
    ("error handle is not initialized", None),
    ("unable to get error message", None),
    ("thread local storage", None),
    ("unable to get row offset", None),
    ("invalid oci number", None),
    ("unexpected oci return value", None),
    ("os error", None),
    ("fetched with error", None),
    ("no query has been executed", None),
    ("no row currently fetched", None),
    ("not a query", None),
)

#: Words that make a message a matter of the connection, the session, the
# client library or authentication: each such message needs a kind.
CONNECTION_WORDS: Final = re.compile(
    r"connect|session|pool|client|library|odpi-c|environment|authentication|password"
    r"|token|proxy|sharding|edition|character set|events mode|external handle",
    re.IGNORECASE,
)


def kind_of(text: str) -> tuple[Kind | None, bool]:
    """
    The kind the rules give a message, and whether any rule read it.

    Args:
        text: ODPI-C's message (printf placeholders unfilled).

    Returns:
        The kind (`None`: no kind fits, the keywords read the text) and
        whether a rule read the message.
    """
    lowered = text.lower()
    for phrase, kind in RULES:
        if phrase in lowered:
            return kind, True
    return None, False


def decide(messages: Mapping[int, str]) -> dict[int, Kind]:
    """
    Number -> kind, for every message the rules give one.

    Args:
        messages: ODPI-C's table, number -> message.

    Returns:
        The numbers with a kind, in the table's order.
    """
    return {
        number: kind
        for number, text in messages.items()
        if text not in RESERVED and (kind := kind_of(text)[0]) is not None
    }


def problems(
    messages: Mapping[int, str], translations: Mapping[int, int], dpy: Mapping[int, Kind]
) -> list[str]:
    """
    What in these decisions does not fit ODPI-C's table.

    Args:
        messages: ODPI-C's table, number -> message.
        translations: DPI- number -> the DPY- number python-oracledb raises instead.
        dpy: The DPY- numbers' kinds.

    Returns:
        One line per problem.
    """
    found: list[str] = []
    used: set[str] = set()
    kinds = decide(messages)
    for number, text in messages.items():
        if text in RESERVED:
            continue
        kind, read = kind_of(text)
        if not read:
            found.append(f"DPI-{number}: no rule reads {text!r}")
            continue
        used.add(next(phrase for phrase, _ in RULES if phrase in text.lower()))
        if kind is None and CONNECTION_WORDS.search(text):
            found.append(f"DPI-{number}: about the connection, without a kind: {text!r}")
    found += [f"a rule that reads no message: {p!r}" for p, _ in RULES if p not in used]
    for dpi, dpy_number in sorted(translations.items()):
        if dpy_number in dpy and kinds.get(dpi) is not dpy[dpy_number]:
            found.append(
                f"DPI-{dpi} is {kinds.get(dpi)} but DPY-{dpy_number:04d} is {dpy[dpy_number]}"
            )
    return found
