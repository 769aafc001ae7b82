"""
The Oracle backend's code table: ``ORA-``, ``PLS-``, ``DPY-``, ``DPI-`` and ``NJS-`` codes to kinds.

Oracle publishes no machine-readable list of its database messages, so the
``ORA-`` and ``PLS-`` rows are curated: each is a code whose meaning the
*Oracle Database Error Messages* reference states unambiguously.  The
``DPY-`` and ``DPI-`` rows are generated from what the driver ships:
python-oracledb's ``errors.py`` and ODPI-C's message table compiled into its
thick implementation; the ``NJS-`` rows from node-oracledb's ``lib/errors.js``.  The tests build every row's exception through
python-oracledb's own error machinery with the official text, and check the
kind against an expectation read from that text, never from this table.

Imported lazily, on the first classification, by
`localdata_errors.backends.oracle`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from localdata_errors._kinds import Kind
from localdata_errors.backends import (
    _njs_codes,
    _njs_kinds,
    _odpi_kinds,
    _odpi_messages,
    _oracledb_codes,
    _oracledb_kinds,
)

__all__ = ["CODES", "WRAPPERS"]

_K = Kind

_ORA: Final[dict[int, Kind]] = {
    # constraints
    1: _K.UNIQUE_VIOLATION,
    1400: _K.NOT_NULL_VIOLATION,
    1407: _K.NOT_NULL_VIOLATION,
    1452: _K.UNIQUE_VIOLATION,
    1758: _K.NOT_NULL_VIOLATION,
    2290: _K.CHECK_VIOLATION,
    2291: _K.FOREIGN_KEY_VIOLATION,
    2292: _K.FOREIGN_KEY_VIOLATION,
    2293: _K.CHECK_VIOLATION,
    2298: _K.FOREIGN_KEY_VIOLATION,
    2299: _K.UNIQUE_VIOLATION,
    14400: _K.CHECK_VIOLATION,
    # what blocks a DROP / TRUNCATE
    2266: _K.DEPENDENT_OBJECTS_STILL_EXIST,
    2303: _K.DEPENDENT_OBJECTS_STILL_EXIST,
    2429: _K.DEPENDENT_OBJECTS_STILL_EXIST,
    2449: _K.DEPENDENT_OBJECTS_STILL_EXIST,
    # malformed SQL
    900: _K.SYNTAX_ERROR,
    901: _K.SYNTAX_ERROR,
    902: _K.SYNTAX_ERROR,
    903: _K.SYNTAX_ERROR,
    905: _K.SYNTAX_ERROR,
    906: _K.SYNTAX_ERROR,
    907: _K.SYNTAX_ERROR,
    908: _K.SYNTAX_ERROR,
    911: _K.SYNTAX_ERROR,
    913: _K.SYNTAX_ERROR,
    917: _K.SYNTAX_ERROR,
    920: _K.SYNTAX_ERROR,
    921: _K.SYNTAX_ERROR,
    923: _K.SYNTAX_ERROR,
    924: _K.SYNTAX_ERROR,
    925: _K.SYNTAX_ERROR,
    926: _K.SYNTAX_ERROR,
    928: _K.SYNTAX_ERROR,
    933: _K.SYNTAX_ERROR,
    936: _K.SYNTAX_ERROR,
    947: _K.SYNTAX_ERROR,
    984: _K.SYNTAX_ERROR,
    1740: _K.SYNTAX_ERROR,
    1741: _K.SYNTAX_ERROR,
    1747: _K.SYNTAX_ERROR,
    1756: _K.SYNTAX_ERROR,
    1789: _K.SYNTAX_ERROR,
    2000: _K.SYNTAX_ERROR,
    6550: _K.SYNTAX_ERROR,
    934: _K.GROUPING_ERROR,
    935: _K.GROUPING_ERROR,
    937: _K.GROUPING_ERROR,
    979: _K.GROUPING_ERROR,
    # missing objects
    904: _K.UNDEFINED_COLUMN,
    942: _K.UNDEFINED_TABLE,
    959: _K.UNDEFINED_OBJECT,
    1418: _K.UNDEFINED_OBJECT,
    1918: _K.UNDEFINED_OBJECT,
    1919: _K.UNDEFINED_OBJECT,
    2149: _K.UNDEFINED_OBJECT,
    2289: _K.UNDEFINED_OBJECT,
    2443: _K.UNDEFINED_OBJECT,
    4043: _K.UNDEFINED_OBJECT,
    4080: _K.UNDEFINED_OBJECT,
    6508: _K.UNDEFINED_FUNCTION,
    6576: _K.UNDEFINED_FUNCTION,
    17006: _K.UNDEFINED_COLUMN,  # JDBC: Invalid column name
    # objects that exist already, or are defined wrongly
    918: _K.AMBIGUOUS_COLUMN,
    955: _K.DUPLICATE_OBJECT,
    957: _K.DUPLICATE_COLUMN,
    1408: _K.DUPLICATE_OBJECT,
    1430: _K.DUPLICATE_COLUMN,
    1920: _K.DUPLICATE_OBJECT,
    1921: _K.DUPLICATE_OBJECT,
    2261: _K.DUPLICATE_OBJECT,
    2264: _K.DUPLICATE_OBJECT,
    2275: _K.DUPLICATE_OBJECT,
    4081: _K.DUPLICATE_OBJECT,
    2260: _K.INVALID_OBJECT_DEFINITION,
    2270: _K.INVALID_OBJECT_DEFINITION,
    4063: _K.INVALID_OBJECT_DEFINITION,
    4098: _K.INVALID_OBJECT_DEFINITION,
    # who may do what
    1005: _K.INVALID_PASSWORD,
    1017: _K.INVALID_PASSWORD,
    1040: _K.INVALID_PASSWORD,
    1045: _K.INVALID_AUTHORIZATION,
    12638: _K.INVALID_AUTHORIZATION,
    28000: _K.INVALID_AUTHORIZATION,
    28001: _K.INVALID_AUTHORIZATION,
    28009: _K.INVALID_AUTHORIZATION,
    1031: _K.INSUFFICIENT_PRIVILEGE,
    1950: _K.INSUFFICIENT_PRIVILEGE,
    24247: _K.INSUFFICIENT_PRIVILEGE,
    1456: _K.READ_ONLY,
    # wait and retry
    60: _K.DEADLOCK_DETECTED,
    4020: _K.DEADLOCK_DETECTED,
    8177: _K.SERIALIZATION_FAILURE,
    # a concurrent recompilation discarded the session's package state: the
    # next call re-instantiates it, so the call succeeds when repeated
    4061: _K.SERIALIZATION_FAILURE,
    4065: _K.SERIALIZATION_FAILURE,
    4068: _K.SERIALIZATION_FAILURE,
    51: _K.LOCK_NOT_AVAILABLE,
    54: _K.LOCK_NOT_AVAILABLE,
    2049: _K.LOCK_NOT_AVAILABLE,
    4021: _K.LOCK_NOT_AVAILABLE,
    30006: _K.LOCK_NOT_AVAILABLE,
    # "user requested cancel of current operation": a cancel (Connection.cancel(),
    # ALTER SYSTEM CANCEL SQL, a JDBC query timeout).  python-oracledb reports
    # its own call_timeout as DPY-4024 (thin) or DPI-1067 (thick) instead.
    1013: _K.QUERY_CANCELED,
    1555: _K.SNAPSHOT_TOO_OLD,
    2091: _K.TRANSACTION_ABORTED,
    # the connection
    12170: _K.CONNECTION_FAILURE,
    12518: _K.CONNECTION_FAILURE,
    12535: _K.CONNECTION_FAILURE,
    12541: _K.CONNECTION_FAILURE,
    12543: _K.CONNECTION_FAILURE,
    12560: _K.CONNECTION_FAILURE,
    22: _K.CONNECTION_LOST,
    603: _K.CONNECTION_LOST,
    1012: _K.CONNECTION_LOST,
    2396: _K.CONNECTION_LOST,
    3106: _K.CONNECTION_LOST,
    3113: _K.CONNECTION_LOST,
    3114: _K.CONNECTION_LOST,
    3135: _K.CONNECTION_LOST,
    # "end-of-file on communication channel for database link": ORA-03113's
    # cause on a database link ("the connection between the client and the
    # remote server process was broken").
    3150: _K.CONNECTION_LOST,
    12537: _K.CONNECTION_LOST,
    12547: _K.CONNECTION_LOST,
    12570: _K.CONNECTION_LOST,
    12571: _K.CONNECTION_LOST,
    25408: _K.CONNECTION_LOST,
    # Oracle's JDBC driver's own (in a Java application's log): 'Io exception', and
    # 'OALL8 is in an inconsistent state' (the driver's protocol state is broken)
    17002: _K.CONNECTION_LOST,
    17447: _K.CONNECTION_LOST,
    28: _K.ADMIN_SHUTDOWN,
    31: _K.ADMIN_SHUTDOWN,
    1033: _K.ADMIN_SHUTDOWN,
    1034: _K.ADMIN_SHUTDOWN,
    1089: _K.ADMIN_SHUTDOWN,
    1090: _K.ADMIN_SHUTDOWN,
    1092: _K.ADMIN_SHUTDOWN,
    1109: _K.ADMIN_SHUTDOWN,
    12526: _K.ADMIN_SHUTDOWN,
    12527: _K.ADMIN_SHUTDOWN,
    # "all appropriate instances are blocking new connections": an instance
    # that is starting (or restricted), not one that has too many sessions
    12528: _K.ADMIN_SHUTDOWN,
    12154: _K.CONNECTION_MISCONFIGURED,
    # "TNS:net service name is incorrectly specified": the connect descriptor
    # for the name is wrong; correct it (no retry helps).
    12162: _K.CONNECTION_MISCONFIGURED,
    12504: _K.CONNECTION_MISCONFIGURED,
    12505: _K.CONNECTION_MISCONFIGURED,
    12514: _K.CONNECTION_MISCONFIGURED,
    12521: _K.CONNECTION_MISCONFIGURED,
    12545: _K.CONNECTION_MISCONFIGURED,
    28040: _K.CONNECTION_MISCONFIGURED,
    # resources
    18: _K.TOO_MANY_CONNECTIONS,
    20: _K.TOO_MANY_CONNECTIONS,
    12516: _K.TOO_MANY_CONNECTIONS,
    12519: _K.TOO_MANY_CONNECTIONS,
    12520: _K.TOO_MANY_CONNECTIONS,
    4030: _K.OUT_OF_MEMORY,
    4031: _K.OUT_OF_MEMORY,
    4036: _K.OUT_OF_MEMORY,
    257: _K.DISK_FULL,
    1536: _K.DISK_FULL,
    1652: _K.DISK_FULL,
    1653: _K.DISK_FULL,
    1654: _K.DISK_FULL,
    1658: _K.DISK_FULL,
    1688: _K.DISK_FULL,
    1691: _K.DISK_FULL,
    30036: _K.DISK_FULL,
    1000: _K.CONFIGURATION_LIMIT_EXCEEDED,
    376: _K.IO_ERROR,
    1115: _K.IO_ERROR,
    1157: _K.IO_ERROR,
    1578: _K.DATA_CORRUPTED,
    8102: _K.DATA_CORRUPTED,
    # the data or the statement's execution
    1476: _K.DIVISION_BY_ZERO,
    17003: _K.INVALID_PARAMETER,  # JDBC: Invalid column index
    1410: _K.INVALID_TEXT_REPRESENTATION,
    1722: _K.INVALID_TEXT_REPRESENTATION,
    1830: _K.INVALID_DATETIME_FORMAT,
    1839: _K.INVALID_DATETIME_FORMAT,
    1840: _K.INVALID_DATETIME_FORMAT,
    1841: _K.INVALID_DATETIME_FORMAT,
    1843: _K.INVALID_DATETIME_FORMAT,
    1847: _K.INVALID_DATETIME_FORMAT,
    1858: _K.INVALID_DATETIME_FORMAT,
    1861: _K.INVALID_DATETIME_FORMAT,
    1438: _K.NUMERIC_VALUE_OUT_OF_RANGE,
    6502: _K.NUMERIC_VALUE_OUT_OF_RANGE,
    1401: _K.STRING_DATA_RIGHT_TRUNCATION,
    1489: _K.STRING_DATA_RIGHT_TRUNCATION,
    12899: _K.STRING_DATA_RIGHT_TRUNCATION,
    932: _K.DATATYPE_MISMATCH,
    1790: _K.DATATYPE_MISMATCH,
    1403: _K.CARDINALITY_VIOLATION,
    1422: _K.CARDINALITY_VIOLATION,
    1427: _K.CARDINALITY_VIOLATION,
    1760: _K.INVALID_PARAMETER,
    # no Kind says "invalid cursor state"; the fix is to restructure the fetch
    # loop (no COMMIT while fetching FOR UPDATE), which this kind's advice covers
    1002: _K.FEATURE_NOT_SUPPORTED,
    4091: _K.FEATURE_NOT_SUPPORTED,
    600: _K.INTERNAL_ERROR,
}

_PLS: Final[dict[int, Kind]] = {
    103: _K.SYNTAX_ERROR,
    201: _K.UNDEFINED_OBJECT,
    302: _K.UNDEFINED_OBJECT,
    306: _K.UNDEFINED_FUNCTION,
    382: _K.DATATYPE_MISMATCH,
    904: _K.INSUFFICIENT_PRIVILEGE,
    905: _K.INVALID_OBJECT_DEFINITION,
}

# python-oracledb's own errors (thin and thick mode): listed from the driver's
# error module by tools/generate_oracledb_codes.py, their kinds decided in
# _oracledb_kinds.
_DPY: Final[dict[int, Kind]] = _oracledb_kinds.decide(_oracledb_codes.ERRORS)

# ODPI-C's errors (thick mode): listed from the message table compiled into
# python-oracledb's thick implementation by tools/generate_odpi_messages.py,
# their kinds decided in _odpi_kinds.
_DPI: Final[dict[int, Kind]] = _odpi_kinds.decide(_odpi_messages.MESSAGES)

# node-oracledb's own errors: listed from the npm package's lib/errors.js by
# tools/generate_njs_codes.py, their kinds decided in _njs_kinds (python-oracledb's
# decisions for the names the two drivers share).
_NJS: Final[dict[int, Kind]] = _njs_kinds.decide(_njs_codes.ERRORS)


def _format(prefix: str, table: dict[int, Kind], width: int) -> dict[str, Kind]:
    return {f"{prefix}-{number:0{width}d}": kind for number, kind in sorted(table.items())}


#: Every code this backend classifies, as it appears in ``database_error_code``.
CODES: Final[MappingProxyType[str, Kind]] = MappingProxyType(
    {
        **_format("ORA", _ORA, 5),
        **_format("PLS", _PLS, 5),
        **_format("DPY", _DPY, 4),
        **_format("DPI", _DPI, 4),
        **_format("NJS", _NJS, 3),
    }
)

#: Codes that wrap the real cause, named on a following line of the stack:
#: recursive SQL, PL/SQL compilation and call-stack lines, trigger and
#: database-link wrappers, deferred-constraint rollbacks, detail lines.  Each
#: is the answer only when nothing else follows it (those in `CODES`
#: then keep their own kind).
WRAPPERS: Final = frozenset(
    {
        "ORA-00604",  # error occurred at recursive SQL level N
        "ORA-01110",  # data file N: 'path' (names the file of the error before it)
        "ORA-02063",  # preceding line from DBLINK
        "ORA-02091",  # transaction rolled back (the deferred constraint follows)
        "ORA-03301",  # (ORA-00001 details) row with column values ... already exists
        "ORA-04088",  # error during execution of trigger
        "ORA-06512",  # at line N / at "OWNER.UNIT", line N
        "ORA-06550",  # line N, column M: (the PLS- or PL/SQL: ORA- cause follows)
        "ORA-12801",  # error signaled in parallel query server
        "ORA-29273",  # HTTP request failed
    }
)
