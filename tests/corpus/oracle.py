"""
Oracle cases: python-oracledb exceptions, built by the driver's own error machinery.

No Oracle server runs here, so each server error is built exactly as
python-oracledb builds it: thin mode turns the server's error packet into
``errors._Error(message, code=number, offset=position)`` and raises
``error.exc_type(error)``; thick mode builds the same object from ODPI-C's
``dpiErrorInfo`` (message, ``"function: action"`` context, code, offset,
``isRecoverable``) while ``is_thin_mode()`` is false.  The driver itself
then adds the ``Help:`` line, prefixes ``DPY-`` translations and picks the
exception class (IntegrityError, OperationalError, ...).  ``DPY-`` errors come
from ``errors._create_exception``.  The messages are Oracle's official texts
(*Oracle Database Error Messages*), with their placeholders filled in, and
ODPI-C's messages as python-oracledb's thick implementation carries them.

What each case must answer comes from the text, never from the backend's
tables: beside each official ORA- / PLS- text the kind its documented meaning
calls for (`OFFICIAL`), beside each python-oracledb error the kind its message
calls for (`DPY_KINDS`), and for ODPI-C's messages the corpus's own reading
of their words (`dpi_reading`).

Errors the driver raises without a server are produced for real: a refused
and a dropped connection on the loopback interface, a missing
``tnsnames.ora`` or alias, missing credentials, and thick mode's
missing client library.
"""

from __future__ import annotations

import contextlib
import gc
import re
import socket
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from localdata_errors import Kind
from tests.corpus import CorpusCase, Expected

K = Kind

__all__ = [
    "DETAIL_CASES",
    "DPI_CONNECTION_WORDS",
    "DPI_TEXTS",
    "DPY_ARGS",
    "DPY_KINDS",
    "NJS_KINDS",
    "OFFICIAL",
    "OFFICIAL_TEXTS",
    "RECOVERABLE_RETRYABLE",
    "VENDOR_KINDS",
    "DetailCase",
    "collect",
    "dpi_reading",
    "dpi_thick",
    "dpy",
    "njs_text",
    "real_cases",
    "table_cases",
    "table_expected",
    "thick",
    "thin",
]

# -- the official texts -----------------------------------------------------------------

#: One official message per ORA- / PLS- code of the backend, placeholders filled,
#: and the kind its meaning in *Oracle Database Error Messages* calls for.  The
#: kinds are written here, from the text and Oracle's documented cause and
#: action, never read from the table under test; where no kind says exactly
#: what the message does, the comment gives the choice and its reason.
OFFICIAL: tuple[tuple[str, Kind], ...] = (
    ("ORA-00001: unique constraint (HR.EMP_PK) violated", K.UNIQUE_VIOLATION),
    ("ORA-00018: maximum number of sessions exceeded", K.TOO_MANY_CONNECTIONS),
    ("ORA-00020: maximum number of processes (300) exceeded", K.TOO_MANY_CONNECTIONS),
    # The session is gone (python-oracledb and ODPI-C treat the session as dead).
    ("ORA-00022: invalid session ID; access denied", K.CONNECTION_LOST),
    # Killed by an administrator: PostgreSQL's admin_shutdown (57P01).
    ("ORA-00028: your session has been killed", K.ADMIN_SHUTDOWN),
    ("ORA-00031: session marked for kill", K.ADMIN_SHUTDOWN),
    ("ORA-00051: timeout occurred while waiting for a resource", K.LOCK_NOT_AVAILABLE),
    (
        "ORA-00054: resource busy and acquire with NOWAIT specified or timeout expired",
        K.LOCK_NOT_AVAILABLE,
    ),
    ("ORA-00060: deadlock detected while waiting for resource", K.DEADLOCK_DETECTED),
    ("ORA-00257: Archiver error. Connect AS SYSDBA only until resolved.", K.DISK_FULL),
    ("ORA-00376: file 7 cannot be read at this time", K.IO_ERROR),
    # python-oracledb closes the session on it and marks it recoverable
    # (RECOVERABLE_RETRYABLE).
    (
        "ORA-00600: internal error code, arguments: [kdsgrp1], [], [], [], [], [], [], []",
        K.INTERNAL_ERROR,
    ),
    ("ORA-00603: ORACLE server session terminated by fatal error", K.CONNECTION_LOST),
    ("ORA-00900: invalid SQL statement", K.SYNTAX_ERROR),
    ("ORA-00901: invalid CREATE command", K.SYNTAX_ERROR),
    ("ORA-00902: invalid datatype", K.SYNTAX_ERROR),
    ("ORA-00903: invalid table name", K.SYNTAX_ERROR),
    ('ORA-00904: "FOO": invalid identifier', K.UNDEFINED_COLUMN),
    ("ORA-00905: missing keyword", K.SYNTAX_ERROR),
    ("ORA-00906: missing left parenthesis", K.SYNTAX_ERROR),
    ("ORA-00907: missing right parenthesis", K.SYNTAX_ERROR),
    ("ORA-00908: missing NULL keyword", K.SYNTAX_ERROR),
    ("ORA-00911: invalid character", K.SYNTAX_ERROR),
    # Too many or too few values for the column list: malformed SQL, as
    # PostgreSQL's 42601 says of the same INSERT.
    ("ORA-00913: too many values", K.SYNTAX_ERROR),
    ("ORA-00917: missing comma", K.SYNTAX_ERROR),
    ("ORA-00918: column ambiguously defined", K.AMBIGUOUS_COLUMN),
    ("ORA-00920: invalid relational operator", K.SYNTAX_ERROR),
    ("ORA-00921: unexpected end of SQL command", K.SYNTAX_ERROR),
    ("ORA-00923: FROM keyword not found where expected", K.SYNTAX_ERROR),
    ("ORA-00924: missing BY keyword", K.SYNTAX_ERROR),
    ("ORA-00925: missing INTO keyword", K.SYNTAX_ERROR),
    ("ORA-00926: missing VALUES keyword", K.SYNTAX_ERROR),
    ("ORA-00928: missing SELECT keyword", K.SYNTAX_ERROR),
    ("ORA-00932: inconsistent datatypes: expected NUMBER got DATE", K.DATATYPE_MISMATCH),
    ("ORA-00933: SQL command not properly ended", K.SYNTAX_ERROR),
    ("ORA-00934: group function is not allowed here", K.GROUPING_ERROR),
    ("ORA-00935: group function is nested too deeply", K.GROUPING_ERROR),
    ("ORA-00936: missing expression", K.SYNTAX_ERROR),
    ("ORA-00937: not a single-group group function", K.GROUPING_ERROR),
    ("ORA-00942: table or view does not exist", K.UNDEFINED_TABLE),
    ("ORA-00947: not enough values", K.SYNTAX_ERROR),
    ("ORA-00955: name is already used by an existing object", K.DUPLICATE_OBJECT),
    ("ORA-00957: duplicate column name", K.DUPLICATE_COLUMN),
    ("ORA-00959: tablespace 'DATA2' does not exist", K.UNDEFINED_OBJECT),
    ("ORA-00979: not a GROUP BY expression", K.GROUPING_ERROR),
    ("ORA-00984: column not allowed here", K.SYNTAX_ERROR),
    ("ORA-01000: maximum open cursors exceeded", K.CONFIGURATION_LIMIT_EXCEEDED),
    # "Fetch out of sequence" is an invalid cursor state, which no kind names;
    # the fix is to restructure the fetch loop (no COMMIT while fetching FOR
    # UPDATE), which feature_not_supported's advice covers.
    ("ORA-01002: fetch out of sequence", K.FEATURE_NOT_SUPPORTED),
    ("ORA-01005: null password given; logon denied", K.INVALID_PASSWORD),
    ("ORA-01012: not logged on", K.CONNECTION_LOST),
    # A cancel (Connection.cancel(), ALTER SYSTEM CANCEL SQL): PostgreSQL's
    # query_canceled (57014).  python-oracledb's own call timeout is DPY-4024 /
    # DPI-1067.
    ("ORA-01013: user requested cancel of current operation", K.QUERY_CANCELED),
    ("ORA-01017: invalid username/password; logon denied", K.INVALID_PASSWORD),
    ("ORA-01031: insufficient privileges", K.INSUFFICIENT_PRIVILEGE),
    ("ORA-01033: ORACLE initialization or shutdown in progress", K.ADMIN_SHUTDOWN),
    ("ORA-01034: ORACLE not available", K.ADMIN_SHUTDOWN),
    ("ORA-01040: invalid character in password; logon denied", K.INVALID_PASSWORD),
    ("ORA-01045: user APP lacks CREATE SESSION privilege; logon denied", K.INVALID_AUTHORIZATION),
    (
        "ORA-01089: immediate shutdown or close in progress - no operations are permitted",
        K.ADMIN_SHUTDOWN,
    ),
    ("ORA-01090: shutdown in progress - connection is not permitted", K.ADMIN_SHUTDOWN),
    ("ORA-01092: ORACLE instance terminated. Disconnection forced", K.ADMIN_SHUTDOWN),
    ("ORA-01109: database not open", K.ADMIN_SHUTDOWN),
    ("ORA-01115: IO error reading block from file 4 (block # 1234)", K.IO_ERROR),
    ("ORA-01157: cannot identify/lock data file 4 - see DBWR trace file", K.IO_ERROR),
    ('ORA-01400: cannot insert NULL into ("HR"."EMP"."NAME")', K.NOT_NULL_VIOLATION),
    ("ORA-01401: inserted value too large for column", K.STRING_DATA_RIGHT_TRUNCATION),
    # Fewer rows than SELECT INTO needs: PL/pgSQL's no_data_found (P0002).
    ("ORA-01403: no data found", K.CARDINALITY_VIOLATION),
    ('ORA-01407: cannot update ("HR"."EMP"."NAME") to NULL', K.NOT_NULL_VIOLATION),
    ("ORA-01408: such column list already indexed", K.DUPLICATE_OBJECT),
    ("ORA-01410: invalid ROWID", K.INVALID_TEXT_REPRESENTATION),
    ("ORA-01418: specified index does not exist", K.UNDEFINED_OBJECT),
    ("ORA-01422: exact fetch returns more than requested number of rows", K.CARDINALITY_VIOLATION),
    ("ORA-01427: single-row subquery returns more than one row", K.CARDINALITY_VIOLATION),
    ("ORA-01430: column being added already exists in table", K.DUPLICATE_COLUMN),
    (
        "ORA-01438: value larger than specified precision allowed for this column",
        K.NUMERIC_VALUE_OUT_OF_RANGE,
    ),
    ("ORA-01452: cannot CREATE UNIQUE INDEX; duplicate keys found", K.UNIQUE_VIOLATION),
    (
        "ORA-01456: may not perform insert/delete/update operation inside a READ ONLY transaction",
        K.READ_ONLY,
    ),
    ("ORA-01476: divisor is equal to zero", K.DIVISION_BY_ZERO),
    ("ORA-01489: result of string concatenation is too long", K.STRING_DATA_RIGHT_TRUNCATION),
    # A tablespace quota: space an administrator grants, not an allowance that
    # resets with time (quota_exceeded); as SQL Server's size quota (40544).
    ("ORA-01536: space quota exceeded for tablespace 'USERS'", K.DISK_FULL),
    (
        "ORA-01555: snapshot too old: rollback segment number 9 with name "
        '"_SYSSMU9_1650573970$" too small',
        K.SNAPSHOT_TOO_OLD,
    ),
    ("ORA-01578: ORACLE data block corrupted (file # 4, block # 1234)", K.DATA_CORRUPTED),
    ("ORA-01652: unable to extend temp segment by 128 in tablespace TEMP", K.DISK_FULL),
    ("ORA-01653: unable to extend table HR.EMP by 128 in tablespace USERS", K.DISK_FULL),
    ("ORA-01654: unable to extend index HR.EMP_NAME_IX by 128 in tablespace USERS", K.DISK_FULL),
    ("ORA-01658: unable to create INITIAL extent for segment in tablespace USERS", K.DISK_FULL),
    (
        "ORA-01688: unable to extend table SH.SALES partition SALES_Q1 by 1024 in tablespace USERS",
        K.DISK_FULL,
    ),
    (
        "ORA-01691: unable to extend lob segment HR.SYS_LOB0000073467C00002$$ by "
        "128 in tablespace USERS",
        K.DISK_FULL,
    ),
    ("ORA-01722: invalid number", K.INVALID_TEXT_REPRESENTATION),
    ("ORA-01740: missing double quote in identifier", K.SYNTAX_ERROR),
    ("ORA-01741: illegal zero-length identifier", K.SYNTAX_ERROR),
    ("ORA-01747: invalid user.table.column, table.column, or column specification", K.SYNTAX_ERROR),
    ("ORA-01756: quoted string not properly terminated", K.SYNTAX_ERROR),
    # Existing rows would be NULL in the new column: PostgreSQL's 23502.
    ("ORA-01758: table must be empty to add mandatory (NOT NULL) column", K.NOT_NULL_VIOLATION),
    ("ORA-01760: illegal argument for function", K.INVALID_PARAMETER),
    ("ORA-01789: query block has incorrect number of result columns", K.SYNTAX_ERROR),
    (
        "ORA-01790: expression must have same datatype as corresponding expression",
        K.DATATYPE_MISMATCH,
    ),
    (
        "ORA-01830: date format picture ends before converting entire input string",
        K.INVALID_DATETIME_FORMAT,
    ),
    ("ORA-01839: date not valid for month specified", K.INVALID_DATETIME_FORMAT),
    ("ORA-01840: input value not long enough for date format", K.INVALID_DATETIME_FORMAT),
    (
        "ORA-01841: (full) year must be between -4713 and +9999, and not be 0",
        K.INVALID_DATETIME_FORMAT,
    ),
    ("ORA-01843: not a valid month", K.INVALID_DATETIME_FORMAT),
    ("ORA-01847: day of month must be between 1 and last day of month", K.INVALID_DATETIME_FORMAT),
    (
        "ORA-01858: a non-numeric character was found where a numeric was expected",
        K.INVALID_DATETIME_FORMAT,
    ),
    ("ORA-01861: literal does not match format string", K.INVALID_DATETIME_FORMAT),
    ("ORA-01918: user 'APP' does not exist", K.UNDEFINED_OBJECT),
    ("ORA-01919: role 'REPORTING' does not exist", K.UNDEFINED_OBJECT),
    ("ORA-01920: user name 'APP' conflicts with another user or role name", K.DUPLICATE_OBJECT),
    (
        "ORA-01921: role name 'REPORTING' conflicts with another user or role name",
        K.DUPLICATE_OBJECT,
    ),
    ("ORA-01950: no privileges on tablespace 'USERS'", K.INSUFFICIENT_PRIVILEGE),
    ("ORA-02000: missing ALWAYS keyword", K.SYNTAX_ERROR),
    ("ORA-02049: timeout: distributed transaction waiting for lock", K.LOCK_NOT_AVAILABLE),
    # A wrapper (the deferred constraint follows); alone, the rollback itself.
    ("ORA-02091: transaction rolled back", K.TRANSACTION_ABORTED),
    ("ORA-02149: Specified partition does not exist", K.UNDEFINED_OBJECT),
    ("ORA-02260: table can have only one primary key", K.INVALID_OBJECT_DEFINITION),
    ("ORA-02261: such unique or primary key already exists in the table", K.DUPLICATE_OBJECT),
    ("ORA-02264: name already used by an existing constraint", K.DUPLICATE_OBJECT),
    (
        "ORA-02266: unique/primary keys in table referenced by enabled foreign keys",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
    ),
    (
        "ORA-02270: no matching unique or primary key for this column-list",
        K.INVALID_OBJECT_DEFINITION,
    ),
    ("ORA-02275: such a referential constraint already exists in the table", K.DUPLICATE_OBJECT),
    ("ORA-02289: sequence does not exist", K.UNDEFINED_OBJECT),
    ("ORA-02290: check constraint (HR.EMP_SALARY_CK) violated", K.CHECK_VIOLATION),
    (
        "ORA-02291: integrity constraint (SCOTT.FK_EMP_DEPT) violated - parent key not found",
        K.FOREIGN_KEY_VIOLATION,
    ),
    (
        "ORA-02292: integrity constraint (SCOTT.FK_EMP_DEPT) violated - child record found",
        K.FOREIGN_KEY_VIOLATION,
    ),
    (
        "ORA-02293: cannot validate (HR.EMP_SALARY_CK) - check constraint violated",
        K.CHECK_VIOLATION,
    ),
    (
        "ORA-02298: cannot validate (SCOTT.FK_EMP_DEPT) - parent keys not found",
        K.FOREIGN_KEY_VIOLATION,
    ),
    ("ORA-02299: cannot validate (HR.EMP_EMAIL_UK) - duplicate keys found", K.UNIQUE_VIOLATION),
    (
        "ORA-02303: cannot drop or replace a type with type or table dependents",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
    ),
    ("ORA-02396: exceeded maximum idle time, please connect again", K.CONNECTION_LOST),
    (
        "ORA-02429: cannot drop index used for enforcement of unique/primary key",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
    ),
    ("ORA-02443: Cannot drop constraint  - nonexistent constraint", K.UNDEFINED_OBJECT),
    (
        "ORA-02449: unique/primary keys in table referenced by foreign keys",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
    ),
    ("ORA-03106: fatal two-task communication protocol error", K.CONNECTION_LOST),
    ("ORA-03113: end-of-file on communication channel", K.CONNECTION_LOST),
    ("ORA-03114: not connected to ORACLE", K.CONNECTION_LOST),
    ("ORA-03135: connection lost contact", K.CONNECTION_LOST),
    # Cause: "The connection between the client and the remote server process
    # was broken" (over a database link; Oracle Database Error Messages,
    # https://docs.oracle.com/en/error-help/db/ora-03150).
    ("ORA-03150: end-of-file on communication channel for database link", K.CONNECTION_LOST),
    # Oracle's JDBC driver's own, as a Java application's log prints them.
    ("ORA-17002: Io exception", K.CONNECTION_LOST),
    ("ORA-17003: Invalid column index", K.INVALID_PARAMETER),
    ("ORA-17006: Invalid column name", K.UNDEFINED_COLUMN),
    ("ORA-17447: OALL8 is in an inconsistent state", K.CONNECTION_LOST),
    ("ORA-04020: deadlock detected while trying to lock object HR.EMP_PKG", K.DEADLOCK_DETECTED),
    ("ORA-04021: timeout occurred while waiting to lock object HR.EMP_PKG", K.LOCK_NOT_AVAILABLE),
    (
        "ORA-04030: out of process memory when trying to allocate 16328 bytes "
        "(koh-kghu sessi,pmucalm coll)",
        K.OUT_OF_MEMORY,
    ),
    (
        'ORA-04031: unable to allocate 4160 bytes of shared memory ("shared pool",'
        '"select name from obj$...","sga heap(1,0)","kglsim object batch")',
        K.OUT_OF_MEMORY,
    ),
    ("ORA-04036: PGA memory used by the instance exceeds PGA_AGGREGATE_LIMIT", K.OUT_OF_MEMORY),
    ("ORA-04043: object EMP_ARCHIVE does not exist", K.UNDEFINED_OBJECT),
    # A concurrent recompilation discarded the session's package state; Oracle's
    # action is to run the call again, which re-instantiates the package.
    (
        'ORA-04061: existing state of package body "HR.EMP_PKG" has been invalidated',
        K.SERIALIZATION_FAILURE,
    ),
    ('ORA-04063: view "HR.EMP_V" has errors', K.INVALID_OBJECT_DEFINITION),
    (
        'ORA-04065: not executed, altered or dropped package body "HR.EMP_PKG"',
        K.SERIALIZATION_FAILURE,
    ),
    ("ORA-04068: existing state of packages has been discarded", K.SERIALIZATION_FAILURE),
    ("ORA-04080: trigger 'EMP_BIU' does not exist", K.UNDEFINED_OBJECT),
    ("ORA-04081: trigger 'EMP_BIU' already exists", K.DUPLICATE_OBJECT),
    # A trigger reading its own table: no kind says so; the statement or trigger
    # must be restructured, which feature_not_supported's advice covers.
    (
        "ORA-04091: table HR.EMP is mutating, trigger/function may not see it",
        K.FEATURE_NOT_SUPPORTED,
    ),
    (
        "ORA-04098: trigger 'HR.EMP_BIU' is invalid and failed re-validation",
        K.INVALID_OBJECT_DEFINITION,
    ),
    # The generic text; the detail after the colon refines it (DETAIL_CASES).
    ("ORA-06502: PL/SQL: numeric or value error", K.NUMERIC_VALUE_OUT_OF_RANGE),
    (
        'ORA-06508: PL/SQL: could not find program unit being called: "HR.EMP_PKG"',
        K.UNDEFINED_FUNCTION,
    ),
    # A wrapper (the PLS- cause follows); alone, a block that does not compile.
    ("ORA-06550: line 1, column 7:\nPL/SQL: Statement ignored", K.SYNTAX_ERROR),
    ("ORA-06576: not a valid function or procedure name", K.UNDEFINED_FUNCTION),
    ("ORA-08102: index key not found, obj# 73468, file 4, block 1234 (2)", K.DATA_CORRUPTED),
    ("ORA-08177: can't serialize access for this transaction", K.SERIALIZATION_FAILURE),
    (
        "ORA-12154: TNS:could not resolve the connect identifier specified",
        K.CONNECTION_MISCONFIGURED,
    ),
    # Cause: "The connect descriptor corresponding to the net service name in
    # TNSNAMES.ORA or in the directory server ... is incorrectly specified";
    # Action: correct its syntax (https://docs.oracle.com/en/error-help/db/ora-12162).
    ("ORA-12162: TNS:net service name is incorrectly specified", K.CONNECTION_MISCONFIGURED),
    ("ORA-12170: TNS:Connect timeout occurred", K.CONNECTION_FAILURE),
    (
        "ORA-12504: TNS:listener was not given the SERVICE_NAME in CONNECT_DATA",
        K.CONNECTION_MISCONFIGURED,
    ),
    (
        "ORA-12505: TNS:listener does not currently know of SID given in connect descriptor",
        K.CONNECTION_MISCONFIGURED,
    ),
    (
        "ORA-12514: TNS:listener does not currently know of service requested in "
        "connect descriptor",
        K.CONNECTION_MISCONFIGURED,
    ),
    # No handler free for the service: in practice the instance's PROCESSES
    # or SESSIONS limit (also 12519, 12520).
    (
        "ORA-12516: TNS:listener could not find available handler with matching protocol stack",
        K.TOO_MANY_CONNECTIONS,
    ),
    ("ORA-12518: TNS:listener could not hand off client connection", K.CONNECTION_FAILURE),
    ("ORA-12519: TNS:no appropriate service handler found", K.TOO_MANY_CONNECTIONS),
    (
        "ORA-12520: TNS:listener could not find available handler for requested type of server",
        K.TOO_MANY_CONNECTIONS,
    ),
    (
        "ORA-12521: TNS:listener does not currently know of instance requested in "
        "connect descriptor",
        K.CONNECTION_MISCONFIGURED,
    ),
    # Restricted or blocking instances: starting, stopping or in maintenance.
    ("ORA-12526: TNS:listener: all appropriate instances are in restricted mode", K.ADMIN_SHUTDOWN),
    (
        "ORA-12527: TNS:listener: all instances are in restricted mode or blocking new connections",
        K.ADMIN_SHUTDOWN,
    ),
    (
        "ORA-12528: TNS:listener: all appropriate instances are blocking new connections",
        K.ADMIN_SHUTDOWN,
    ),
    ("ORA-12535: TNS:operation timed out", K.CONNECTION_FAILURE),
    ("ORA-12537: TNS:connection closed", K.CONNECTION_LOST),
    ("ORA-12541: TNS:no listener", K.CONNECTION_FAILURE),
    ("ORA-12543: TNS:destination host unreachable", K.CONNECTION_FAILURE),
    (
        "ORA-12545: Connect failed because target host or object does not exist",
        K.CONNECTION_MISCONFIGURED,
    ),
    ("ORA-12547: TNS:lost contact", K.CONNECTION_LOST),
    ("ORA-12560: TNS:protocol adapter error", K.CONNECTION_FAILURE),
    ("ORA-12570: TNS:packet reader failure", K.CONNECTION_LOST),
    ("ORA-12571: TNS:packet writer failure", K.CONNECTION_LOST),
    ("ORA-12638: Credential retrieval failed", K.INVALID_AUTHORIZATION),
    (
        'ORA-12899: value too large for column "HR"."EMP"."NAME" (actual: 30, maximum: 20)',
        K.STRING_DATA_RIGHT_TRUNCATION,
    ),
    # No partition takes the row: PostgreSQL's 23514 for the same case.
    ("ORA-14400: inserted partition key does not map to any partition", K.CHECK_VIOLATION),
    ("ORA-24247: network access denied by access control list (ACL)", K.INSUFFICIENT_PRIVILEGE),
    # The connection was lost during the call; whether it ran is unknown,
    # which connection_lost's idempotent-only retry already says.
    ("ORA-25408: can not safely replay call", K.CONNECTION_LOST),
    ("ORA-28000: the account is locked", K.INVALID_AUTHORIZATION),
    ("ORA-28001: the password has expired", K.INVALID_AUTHORIZATION),
    ("ORA-28009: connection as SYS should be as SYSDBA or SYSOPER", K.INVALID_AUTHORIZATION),
    ("ORA-28040: No matching authentication protocol", K.CONNECTION_MISCONFIGURED),
    ("ORA-30006: resource busy; acquire with WAIT timeout expired", K.LOCK_NOT_AVAILABLE),
    ("ORA-30036: unable to extend segment by 8 in undo tablespace 'UNDOTBS1'", K.DISK_FULL),
    # PL/SQL compilation errors arrive inside ORA-06550 (see pls_stack).
    (
        'PLS-00103: Encountered the symbol "END" when expecting one of the following:',
        K.SYNTAX_ERROR,
    ),
    ("PLS-00201: identifier 'EMP_PKG' must be declared", K.UNDEFINED_OBJECT),
    ("PLS-00302: component 'RAISE_SALARY' must be declared", K.UNDEFINED_OBJECT),
    # No unit of that name takes these arguments: PostgreSQL's 42883.
    (
        "PLS-00306: wrong number or types of arguments in call to 'RAISE_SALARY'",
        K.UNDEFINED_FUNCTION,
    ),
    ("PLS-00382: expression is of wrong type", K.DATATYPE_MISMATCH),
    ("PLS-00904: insufficient privilege to access object HR.EMP_PKG", K.INSUFFICIENT_PRIVILEGE),
    ("PLS-00905: object HR.EMP_PKG is invalid", K.INVALID_OBJECT_DEFINITION),
)

#: The official texts by code.
OFFICIAL_TEXTS: dict[str, str] = {text.split(":", 1)[0]: text for text, _ in OFFICIAL}
#: The kind each official text calls for, by code.
VENDOR_KINDS: dict[str, Kind] = {text.split(":", 1)[0]: kind for text, kind in OFFICIAL}

#: The arguments of each DPY- code's message format (the driver formats the text).
DPY_ARGS: dict[str, dict[str, Any]] = {
    "DPY-1001": {},
    "DPY-2041": {},
    "DPY-2042": {},
    "DPY-3010": {},
    "DPY-3015": {"verifier_type": 0x939},
    "DPY-4000": {"name": "orclpdb", "file_name": "/opt/oracle/network/admin/tnsnames.ora"},
    "DPY-4001": {},
    "DPY-4005": {},
    "DPY-4008": {"name": "emp_id"},
    "DPY-4009": {"expected_num": 2, "actual_num": 1},
    "DPY-4010": {"name": "emp_id"},
    "DPY-4011": {},
    "DPY-4017": {"data": "(DESCRIPTION=(ADDRESS=(PROTOCOL=tcp)))"},
    "DPY-4018": {"data": "orcl?host"},
    "DPY-4024": {"timeout": 5000},
    "DPY-4026": {"file_name": "/opt/oracle/network/admin/tnsnames.ora"},
    "DPY-4027": {},
    "DPY-4033": {},
    "DPY-6000": {"error_code": 12541},  # TNS:no listener
    "DPY-6001": {"service_name": "orclpdb", "host": "db.example.com", "port": 1521},
    "DPY-6002": {"expected_dn": "CN=db.example.com"},
    "DPY-6003": {"sid": "ORCL", "host": "db.example.com", "port": 1521},
    "DPY-6005": {"connection_id": "r8kZs0pSQ3qBz1Y0pF2kqg=="},
    "DPY-6006": {"expected_name": "db.example.com"},
}


def _format_args(code: str) -> dict[str, Any]:
    """Arguments for a DPY- code's message format, read from the format itself."""
    import string

    try:
        from oracledb import errors
    except ImportError:
        return {}
    text = errors.ERR_MESSAGE_FORMATS.get(int(code[4:]), "")
    return {
        field: 2 if spec in {"d", "x"} else "x"
        for _, field, spec, _ in string.Formatter().parse(text)
        if field
    }


_L = K.CONNECTION_LOST
_M = K.CONNECTION_MISCONFIGURED
_U = K.FEATURE_NOT_SUPPORTED

#: The kind each python-oracledb error with a kind calls for, written from the
#: driver's message (``ERR_MESSAGE_FORMATS``, quoted where it decides), not read
#: from the generated table.  The others are left to the keywords.
DPY_KINDS: dict[str, Kind] = {
    # "not connected to database", "connection pool is not open"
    "DPY-1001": _L,
    "DPY-1002": _L,
    # "connection pool cannot be closed because connections are busy",
    # "cursor is not open", "cursor has been closed by the database": the
    # object's state does not allow the call
    "DPY-1005": K.INVALID_TRANSACTION_STATE,
    "DPY-1006": K.INVALID_TRANSACTION_STATE,
    "DPY-2046": K.INVALID_TRANSACTION_STATE,
    # thick / thin mode chosen twice, or init_oracle_client() missing: the
    # application's setup
    "DPY-2017": _M,
    "DPY-2019": _M,
    "DPY-2021": _M,
    "DPY-2053": _M,
    # wallet, connect, pool and token parameters that cannot work
    "DPY-2018": _M,
    "DPY-2023": _M,
    "DPY-2025": _M,
    "DPY-2026": _M,
    "DPY-2027": _M,
    "DPY-2029": _M,
    "DPY-2031": _M,
    "DPY-2034": _M,
    "DPY-2049": _M,
    "DPY-2054": _M,
    "DPY-2055": _M,
    "DPY-2056": _M,
    "DPY-2057": _M,
    "DPY-2058": _M,
    "DPY-2059": _M,
    "DPY-2064": _M,
    "DPY-2073": _M,
    # "invalid access token returned from callable", "access token has expired"
    "DPY-2032": K.INVALID_AUTHORIZATION,
    "DPY-2033": K.INVALID_AUTHORIZATION,
    # "missing ending quote": a statement python-oracledb cannot parse
    "DPY-2041": K.SYNTAX_ERROR,
    "DPY-2042": K.SYNTAX_ERROR,
    # "internal error: pipeline token number ... does not match ..."
    "DPY-2052": K.INTERNAL_ERROR,
    # "... is not supported", "unsupported ...", "not implemented"
    "DPY-2068": _U,
    "DPY-2077": _U,
    "DPY-3000": _U,
    "DPY-3001": _U,
    "DPY-3002": _U,
    "DPY-3003": _U,
    "DPY-3004": _U,
    "DPY-3006": _U,
    "DPY-3007": _U,
    "DPY-3008": _U,
    "DPY-3009": _U,
    "DPY-3012": _U,
    "DPY-3013": _U,
    "DPY-3017": _U,
    "DPY-3018": _U,
    "DPY-3019": _U,
    "DPY-3021": _U,
    "DPY-3022": _U,
    "DPY-3023": _U,
    "DPY-3024": _U,
    "DPY-3025": _U,
    "DPY-3028": _U,
    "DPY-3030": _U,
    "DPY-3031": _U,
    "DPY-3032": _U,
    "DPY-3033": _U,
    "DPY-3037": _U,
    "DPY-3040": _U,
    "DPY-3041": _U,
    "DPY-3042": _U,
    "DPY-3043": _U,
    "DPY-3044": _U,
    "DPY-5012": _U,
    # what thin mode cannot connect to: a server version, a password verifier,
    # a missing cryptography package
    "DPY-3010": _M,
    "DPY-3015": _M,
    "DPY-3016": _M,
    # "binding a cursor from a different connection is not supported": the
    # argument, not the feature
    "DPY-3027": K.INVALID_PARAMETER,
    # '"{name}" includes characters that are not allowed' (a network name)
    "DPY-3029": _M,
    # connect strings, tnsnames.ora and its directory, TLS and password settings
    "DPY-4000": _M,
    "DPY-4017": _M,
    "DPY-4018": _M,
    "DPY-4021": _M,
    "DPY-4026": _M,
    "DPY-4027": _M,
    "DPY-4028": _M,
    "DPY-4030": _M,
    "DPY-4032": _M,
    "DPY-4034": _M,
    "DPY-5016": _M,
    # "no credentials specified"
    "DPY-4001": K.INVALID_PASSWORD,
    # "timed out waiting for the connection pool to return a connection"
    "DPY-4005": K.TOO_MANY_CONNECTIONS,
    # bind names and counts
    "DPY-4008": K.INVALID_PARAMETER,
    "DPY-4009": K.INVALID_PARAMETER,
    "DPY-4010": K.INVALID_PARAMETER,
    # "the database or network closed the connection", the idle time, a broken
    # redirect or reply, "unexpected end of data"
    "DPY-4011": _L,
    "DPY-4019": _L,
    "DPY-4033": _L,
    "DPY-4035": _L,
    "DPY-5006": _L,
    # "call timeout of {timeout} ms exceeded"
    "DPY-4024": K.STATEMENT_TIMEOUT,
    # "internal error: unknown transaction state": whether it committed is unknown
    "DPY-5010": K.STATEMENT_COMPLETION_UNKNOWN,
    # the listener refused, a proxy failed, "cannot connect to database"
    "DPY-5005": K.CONNECTION_FAILURE,
    "DPY-6000": K.CONNECTION_FAILURE,
    "DPY-6004": K.CONNECTION_FAILURE,
    "DPY-6005": K.CONNECTION_FAILURE,
    # a service or SID the listener does not know, a server certificate that
    # does not match, EZTLS refused
    "DPY-6001": _M,
    "DPY-6002": _M,
    "DPY-6003": _M,
    "DPY-6006": _M,
    "DPY-6008": _M,
    "DPY-6009": _M,
}

for _code in DPY_KINDS:
    DPY_ARGS.setdefault(_code, _format_args(_code))

# -- ODPI-C's messages (thick mode) ------------------------------------------------------

#: The corpus's own reading of an ODPI-C message: (words, kind), the first
#: that the lower-cased text contains decides.  Written from what each message
#: says, independently of tools/generate_odpi_messages.py; the two must agree.
_DPI_READING: tuple[tuple[tuple[str, ...], Kind], ...] = (
    (("not connected", "connection was closed"), K.CONNECTION_LOST),
    (("timeout",), K.STATEMENT_TIMEOUT),
    # the client library, its version, environment and character set
    (("client library", "oci library", "shared library", "odpi-c context"), _M),
    (("environment",), _M),
    (("convert text",), K.INVALID_TEXT_REPRESENTATION),
    (("character set",), _M),
    # how a connection or pool authenticates or is set up
    (("authentication", "accesstoken", "password", "sharding", "events mode"), _M),
    (("session pool", "external handle"), _M),
    (("already closed",), K.INVALID_TRANSACTION_STATE),
    (("memory",), K.OUT_OF_MEMORY),
    (("database is at version", "not supported", "unsupported", "not implemented"), _U),
    (("invalid date",), K.INVALID_DATETIME_FORMAT),
    (("as an oracle number", "(nan)"), K.NUMERIC_VALUE_OUT_OF_RANGE),
    (("invalid number", "converted to numbers"), K.INVALID_TEXT_REPRESENTATION),
    (("expecting object of type", "payload type"), K.DATATYPE_MISMATCH),
    (("not a collection",), K.WRONG_OBJECT_TYPE),
    # an argument out of bounds, missing or of the wrong sort
    (("too large", "too small", "cannot exceed", "cannot be zero", "null"), K.INVALID_PARAMETER),
    (("is not valid", "is invalid", "not part of", "does not exist"), K.INVALID_PARAMETER),
    (
        ("no object type", "no payload", "out of the result set", "can only be used"),
        K.INVALID_PARAMETER,
    ),
    (("instead.",), K.INVALID_PARAMETER),
)

#: Words that make an ODPI-C message one about the connection, the session,
#: the client library or authentication.
DPI_CONNECTION_WORDS: tuple[str, ...] = (
    "connect",
    "session",
    "pool",
    "client",
    "library",
    "authentication",
    "password",
    "token",
    "proxy",
    "sharding",
    "edition",
    "environment",
    "odpi-c",
)


def dpi_reading(text: str) -> Kind:
    """The kind an ODPI-C message calls for by the corpus's reading (UNKNOWN: none fits)."""
    lowered = text.split("\n", 1)[0].lower()  # its own line, not an ORA- error it wraps
    if re.search(r"\boci\b", lowered) and "library" not in lowered:
        return K.UNKNOWN  # ODPI-C's dealings with OCI's handles and return values
    for words, kind in _DPI_READING:
        if any(word in lowered for word in words):
            return kind
    return K.UNKNOWN


#: Arguments for ODPI-C's printf formats, where a realistic text needs them.
_DPI_ARGS: dict[int, tuple[object, ...]] = {
    1002: ("dpiConn",),
    1022: ("DEPTNO", "HR", "EMP_T"),
    1023: ("HR", "EMP_T"),
    1026: ("LATIN9X",),
    1046: ("value",),
    1047: (
        "64",
        "libclntsh.so: cannot open shared object file: No such file or directory",
        "https://python-oracledb.readthedocs.io/en/latest/user_guide/initialization.html",
    ),
    1049: ("OCIStmtPrepare2",),
    1050: (11, 2, 0, 12, 1, 0),
    1053: ("value",),
    1056: ("HR", "DEPT_T", "HR", "EMP_T"),
    1062: (-2, "OCIStmtExecute"),
    1066: (11, 2, 0, 12, 1, 0),
    1067: (5000, 3156),
    1075: ("No such file or directory",),
    1079: (19, 3, 0, 19, 14, 0, 21, 0, 0),
    1080: (3113,),
    1088: ("name", 2048, 1024),
}
#: The error ODPI-C keeps below the one it wraps (``dpiError__wrap``).
_DPI_WRAPPED: dict[int, str] = {
    1067: "ORA-03156: OCI call timed out",
    1080: "ORA-03113: end-of-file on communication channel",
}
_CONVERSION = re.compile(r"%(\.\*)?(\d*)([sdu])")


def _dpi_text(number: int, template: str) -> str:
    """ODPI-C's message with its placeholders filled, as ``dpiError__set`` formats it."""
    given = iter(_DPI_ARGS.get(number, ()))
    args: list[object] = []
    for conversion in _CONVERSION.finditer(template):
        value = next(given, None)
        if conversion.group(3) != "s":
            args.append(5 if value is None else value)
        elif conversion.group(1):
            name = "HR" if value is None else str(value)
            args += [len(name), name]
        else:
            args.append("x" if value is None else value)
    text = f"DPI-{number}: {template % tuple(args)}"
    wrapped = _DPI_WRAPPED.get(number)
    return text if wrapped is None else f"{text}\n{wrapped}"


def _dpi_texts() -> dict[str, tuple[str, bool]]:
    # The catalogue's texts are what the driver ships (the generator's --check
    # compares them with the binary); only the texts are read here.
    from localdata_errors.backends._odpi_messages import MESSAGES

    return {
        f"DPI-{number}": (_dpi_text(number, template), number == 1080)
        for number, template in MESSAGES.items()
        if template not in {"unused", "no error"}
    }


#: Every ODPI-C message as thick mode reports it, and whether it is marked
#: recoverable (ODPI-C clears the flag for its own errors; a wrapper keeps the
#: flag of the ORA- error it wraps, here ORA-03113's).
DPI_TEXTS: dict[str, tuple[str, bool]] = _dpi_texts()

# -- node-oracledb's own errors (NJS-) -----------------------------------------------------

#: The kind each NJS- code of node-oracledb's `lib/errors.js` calls for, read from
#: its message.  node-oracledb's thin mode is python-oracledb's, ported: where
#: the two drivers' constants share a name, the message is python-oracledb's
#: and so is the expectation (`DPY_KINDS`); the others are written here.
_NJS_OWN: dict[str, Kind] = {
    "NJS-002": _L,  # invalid pool (closed)
    "NJS-003": _L,  # invalid or closed connection
    "NJS-010": _U,  # unsupported data type %d in column %d
    "NJS-040": K.TOO_MANY_CONNECTIONS,  # connection request timeout ... "queueTimeout"
    "NJS-046": _M,  # pool alias already exists in the connection pool cache
    "NJS-047": _M,  # pool alias not found in connection pool cache
    "NJS-064": _L,  # connection pool is closing
    "NJS-065": _L,  # connection pool was closed
    "NJS-075": _M,  # only one of "connectString" and "connectionString" can be used
    "NJS-076": K.TOO_MANY_CONNECTIONS,  # Pool queue length "queueMax" reached
    "NJS-078": _U,  # unsupported data type in JSON value
    "NJS-082": K.CONNECTION_FAILURE,  # connection pool is being reconfigured
    "NJS-083": _M,  # pool statistics are not enabled
    "NJS-084": K.INVALID_AUTHORIZATION,  # invalid access token
    "NJS-085": _M,  # invalid connection pool configuration with token-based authentication
    "NJS-086": _M,  # invalid standalone configuration with token-based authentication
    "NJS-087": K.INVALID_AUTHORIZATION,  # access token has expired
    "NJS-092": _M,  # "poolMax" must be greater than or equal to "poolMin"
    "NJS-101": K.INVALID_PASSWORD,  # no credentials specified
    "NJS-119": _U,  # conversion from type to type is not supported
    "NJS-125": _M,  # "connectString" cannot be empty or undefined
    "NJS-140": _M,  # user name must be enclosed in [] with external authentication
    "NJS-168": K.INVALID_AUTHORIZATION,  # access token function failed
    "NJS-178": _U,  # Unsupported pipeline operation type
    "NJS-179": K.INTERNAL_ERROR,  # Pipeline internal error: token number does not match
    "NJS-180": _U,  # Oracle Database Object types are not supported in pipeline mode
    "NJS-181": _U,  # PL/SQL blocks ... greater than 32k are not supported in pipeline mode
    "NJS-182": _U,  # Execute option is not supported in pipeline mode
    "NJS-188": _U,  # Unsupported encryption key length
    "NJS-192": _U,  # Character set id is not supported by node-oracledb in Thin mode
    "NJS-194": _U,  # Unsupported JavaScript type in JSON value
    "NJS-196": _U,  # Unsupported JSON field name
    "NJS-197": _U,  # The current database version does not support Oracle Database OpenTelemetry
    "NJS-201": _U,  # TIMESTAMP WITH LOCAL TIME ZONE is not supported in Thin mode
    "NJS-501": _L,  # connection to host terminated unexpectedly
    "NJS-503": K.CONNECTION_FAILURE,  # connection to host could not be established
    "NJS-504": K.CONNECTION_FAILURE,  # connection through a web proxy failed
    "NJS-505": _M,  # unable to initiate TLS connection: check the wallet credentials
    "NJS-506": _M,  # TLS handshake failure
    "NJS-507": _M,  # invalid certificate: the server DN does not match
    "NJS-508": _M,  # invalid certificate: the host is not present in it
    "NJS-510": K.CONNECTION_FAILURE,  # connection to host timed out
    "NJS-511": K.CONNECTION_FAILURE,  # connection to listener was refused
    "NJS-512": _M,  # invalid connection string parameters
    "NJS-513": _L,  # error received through in-band notification
    "NJS-514": _M,  # syntax error in connection string
    "NJS-515": _M,  # error in Easy Connect connection string
    "NJS-520": _M,  # File tnsnames.ora not found
    "NJS-521": _L,  # received end-of-file on communication channel
    "NJS-522": _M,  # connection string exceeds supported descriptor limit
    "NJS-529": _U,  # Invalid wallet content format. Supported format is PEM
    "NJS-530": _M,  # host addresses ... incorrect or unresolvable
    "NJS-533": _M,  # native network encryption is only supported in thick mode
    "NJS-537": _U,  # Server does not support changing the transaction priority
}


def _njs_kinds() -> dict[str, Kind]:
    from localdata_errors.backends._njs_codes import ERRORS
    from localdata_errors.backends._oracledb_codes import ERRORS as DPY_ERRORS

    kinds = dict(_NJS_OWN)
    for name, number in ERRORS.items():
        dpy_code = f"DPY-{DPY_ERRORS[name]:04d}" if name in DPY_ERRORS else None
        if dpy_code in DPY_KINDS:
            kinds[f"NJS-{number:03d}"] = DPY_KINDS[dpy_code]
    return kinds


#: Every NJS- code with the kind its message calls for.
NJS_KINDS: dict[str, Kind] = _njs_kinds()


def njs_text(code: str) -> str:
    """The error as Node prints node-oracledb's `Error`: `Error: NJS-NNN: message`."""
    from localdata_errors.backends._njs_codes import MESSAGES

    template = MESSAGES[int(code[4:])]
    text = re.sub(r"%[sd]", lambda m: "x" if m.group() == "%s" else "1", template)
    return f"Error: {code}: {text}"


#: Codes whose table kind is not retryable but which python-oracledb marks
#: recoverable (``isrecoverable``): the answer follows the driver.
RECOVERABLE_RETRYABLE: frozenset[str] = frozenset({"ORA-00376", "ORA-00600", "ORA-01115"})

# -- building exceptions as the driver does ----------------------------------------------


def _errors() -> Any:
    import importlib

    # oracledb does not export its errors module as an attribute of the package.
    return importlib.import_module("oracledb.errors")


def _raised(exc: BaseException) -> BaseException:
    """Raise and catch *exc*, so it carries a traceback like a real one."""
    try:
        raise exc  # noqa: TRY301 - raised here only to be caught with a traceback
    except BaseException as caught:
        return caught


def thin(message: str, code: int, offset: int = 0) -> BaseException:
    """A server error as thin mode raises it (``Message._check_and_raise_exception``)."""
    error = _errors()._Error(message, code=code, offset=offset)
    return _raised(error.exc_type(error))


@contextlib.contextmanager
def _thick_mode() -> Iterator[None]:
    # In thick mode python-oracledb's is_thin_mode() is false; the Oracle
    # Client library (not the driver) then adds any Help line itself.
    errors = _errors()
    saved = errors.is_thin_mode
    errors.is_thin_mode = lambda: False
    try:
        yield
    finally:
        errors.is_thin_mode = saved


def thick(
    message: str,
    code: int,
    *,
    isrecoverable: bool = False,
    offset: int = 0,
    context: str = "dpiStmt_execute: execute",
) -> BaseException:
    """An error as thick mode raises it (``_create_new_from_info`` of a dpiErrorInfo)."""
    with _thick_mode():
        error = _errors()._Error(
            message, context, code=code, offset=offset, isrecoverable=isrecoverable
        )
    return _raised(error.exc_type(error))


def dpy(code: str, cause: BaseException | None = None, **args: Any) -> BaseException:
    """A python-oracledb error, as ``errors._raise_err`` raises it."""
    return _raised(_errors()._create_exception(int(code[4:]), cause=cause, **args))


def pls_stack(pls_line: str) -> str:
    """The ORA-06550 stack a PL/SQL block that does not compile returns."""
    return (
        f"ORA-06550: line 1, column 7:\n{pls_line}\n"
        "ORA-06550: line 1, column 7:\nPL/SQL: Statement ignored"
    )


def _ora_number(code: str) -> int:
    return int(code[4:])


# -- the code table, every row ------------------------------------------------------------


def table_cases() -> Iterator[tuple[str, str, Callable[[], BaseException]]]:
    """
    ``(code, shape, build)`` for every code with a kind and each driver shape.

    ORA- codes: thin mode (the driver adds the Help line) and thick mode
    (no Help line); PLS- codes inside their ORA-06550 stack; DPY- codes
    through ``_create_exception``; DPI- codes through thick mode, every
    message the corpus's reading gives a kind.
    """
    for code, text in OFFICIAL_TEXTS.items():
        if code.startswith("PLS"):
            stack = pls_stack(text)
            yield code, "thin", lambda s=stack: thin(s, 6550)
            yield code, "thick", lambda s=stack: thick(s, 6550)
            continue
        number = _ora_number(code)
        yield code, "thin", lambda t=text, n=number: thin(t, n)
        yield code, "thick", lambda t=text, n=number: thick(t, n)
    for code in DPY_KINDS:
        yield code, "dpy", lambda c=code: dpy(c, **DPY_ARGS[c])
    for code, (text, recoverable) in DPI_TEXTS.items():
        if dpi_reading(text) is not K.UNKNOWN:
            yield code, "thick", lambda t=text, r=recoverable: dpi_thick(t, r)


def dpi_thick(text: str, recoverable: bool = False) -> BaseException:
    """An ODPI-C error as thick mode raises it: ``code`` 0, the message ODPI-C formatted."""
    return thick(text, 0, isrecoverable=recoverable, context="dpiConn_create: check connection")


def table_expected(code: str) -> Expected:
    """
    What every case of *code* must answer: the kind its text calls for, and the code.

    The kind comes from the vendor's text: `VENDOR_KINDS` (ORA-, PLS-),
    `DPY_KINDS` and the corpus's reading of ODPI-C's messages; never from
    the backend's tables.
    """
    if code.startswith("DPY"):
        kind = DPY_KINDS[code]
    elif code.startswith("DPI"):
        kind = dpi_reading(DPI_TEXTS[code][0])
    else:
        kind = VENDOR_KINDS[code]
    return Expected(kind=kind, code=code, retryable=True if code in RECOVERABLE_RETRYABLE else None)


# -- detail cases: names, stacks, wrappers ------------------------------------------------


@dataclass(frozen=True)
class DetailCase:
    """One error whose names, cause or retry decision is checked."""

    name: str
    build: Callable[[], BaseException]
    expected: Expected
    schema: str | None = None


def _e(
    kind: Kind,
    code: str,
    *resources: str,
    constraint: str | None = None,
    retryable: bool | None = None,
    absent: tuple[str, ...] = (),
) -> Expected:
    return Expected(
        kind=kind,
        code=code,
        resources=resources,
        constraint=constraint,
        retryable=retryable,
        absent=absent,
    )


DETAIL_CASES: tuple[DetailCase, ...] = (
    DetailCase(
        "fk-parent-missing",
        lambda: thin(OFFICIAL_TEXTS["ORA-02291"], 2291),
        _e(Kind.FOREIGN_KEY_VIOLATION, "ORA-02291", "FK_EMP_DEPT", constraint="FK_EMP_DEPT"),
        schema="SCOTT",
    ),
    DetailCase(
        "fk-child-found",
        lambda: thin(OFFICIAL_TEXTS["ORA-02292"], 2292),
        _e(Kind.FOREIGN_KEY_VIOLATION, "ORA-02292", constraint="FK_EMP_DEPT"),
        schema="SCOTT",
    ),
    DetailCase(
        "value-too-large",
        lambda: thin(OFFICIAL_TEXTS["ORA-12899"], 12899),
        _e(Kind.STRING_DATA_RIGHT_TRUNCATION, "ORA-12899", "EMP", "NAME"),
        schema="HR",
    ),
    DetailCase(
        "invalid-identifier",
        lambda: thin(OFFICIAL_TEXTS["ORA-00904"], 904, offset=7),
        _e(Kind.UNDEFINED_COLUMN, "ORA-00904", "FOO"),
    ),
    DetailCase(
        "invalid-identifier-aliased",
        lambda: thin('ORA-00904: "E"."SALARY_X": invalid identifier', 904, offset=9),
        _e(Kind.UNDEFINED_COLUMN, "ORA-00904", "SALARY_X", absent=("E",)),  # E: an alias
    ),
    DetailCase(
        "invalid-identifier-alias-c",
        lambda: thin('ORA-00904: "C"."NME": invalid identifier', 904, offset=9),
        _e(Kind.UNDEFINED_COLUMN, "ORA-00904", "NME", absent=("C",)),
    ),
    DetailCase(
        "invalid-identifier-schema-table",
        lambda: thin('ORA-00904: "HR"."EMP"."NME": invalid identifier', 904, offset=9),
        _e(Kind.UNDEFINED_COLUMN, "ORA-00904", "NME", "EMP", absent=("HR",)),
        schema="HR",
    ),
    DetailCase(
        "insert-null",
        lambda: thin(OFFICIAL_TEXTS["ORA-01400"], 1400),
        _e(Kind.NOT_NULL_VIOLATION, "ORA-01400", "EMP", "NAME"),
        schema="HR",
    ),
    DetailCase(
        "update-to-null",
        lambda: thick(OFFICIAL_TEXTS["ORA-01407"], 1407),
        _e(Kind.NOT_NULL_VIOLATION, "ORA-01407", "EMP", "NAME"),
        schema="HR",
    ),
    DetailCase(
        "unique",
        lambda: thin(OFFICIAL_TEXTS["ORA-00001"], 1),
        _e(Kind.UNIQUE_VIOLATION, "ORA-00001", constraint="EMP_PK"),
        schema="HR",
    ),
    DetailCase(
        "unique-21c",
        lambda: thin(
            "ORA-00001: unique constraint (HR.EMP_PK) violated on table "
            "HR.EMP columns (ID)\nORA-03301: (ORA-00001 details) row with "
            "column values (ID:7369) already exists",
            1,
        ),
        _e(Kind.UNIQUE_VIOLATION, "ORA-00001", "EMP", "ID", constraint="EMP_PK"),
        schema="HR",
    ),
    DetailCase(
        "unique-21c-two-columns",
        lambda: thick(
            "ORA-00001: unique constraint (SALES.ORDER_LINE_UK) violated on "
            "table SALES.ORDER_LINES columns (ORDER_ID, LINE_NO)",
            1,
        ),
        _e(
            Kind.UNIQUE_VIOLATION,
            "ORA-00001",
            "ORDER_LINES",
            "ORDER_ID",
            "LINE_NO",
            constraint="ORDER_LINE_UK",
        ),
        schema="SALES",
    ),
    DetailCase(
        "check",
        lambda: thin(OFFICIAL_TEXTS["ORA-02290"], 2290),
        _e(Kind.CHECK_VIOLATION, "ORA-02290", constraint="EMP_SALARY_CK"),
        schema="HR",
    ),
    DetailCase(
        "table-missing",
        lambda: thin(OFFICIAL_TEXTS["ORA-00942"], 942, offset=14),
        _e(Kind.UNDEFINED_TABLE, "ORA-00942"),
    ),
    DetailCase(
        "table-missing-23ai",
        lambda: thin('ORA-00942: table or view "HR"."EMP_ARCHIVE" does not exist', 942),
        _e(Kind.UNDEFINED_TABLE, "ORA-00942", "EMP_ARCHIVE"),
        schema="HR",
    ),
    DetailCase(
        "name-used",
        lambda: thin(OFFICIAL_TEXTS["ORA-00955"], 955),
        _e(Kind.DUPLICATE_OBJECT, "ORA-00955"),
    ),
    DetailCase(
        "recursive-sql-cause",
        lambda: thin(
            "ORA-00604: error occurred at recursive SQL level 1\n" + OFFICIAL_TEXTS["ORA-01653"],
            604,
        ),
        _e(Kind.DISK_FULL, "ORA-01653", "EMP", absent=("USERS", "HR")),
        schema="HR",
    ),
    DetailCase(
        "index-extend",
        lambda: thin(OFFICIAL_TEXTS["ORA-01654"], 1654),
        _e(Kind.DISK_FULL, "ORA-01654", "EMP_NAME_IX", absent=("USERS", "HR")),
        schema="HR",
    ),
    DetailCase(
        "partition-extend",
        lambda: thin(OFFICIAL_TEXTS["ORA-01688"], 1688),
        _e(Kind.DISK_FULL, "ORA-01688", "SALES", "SALES_Q1", absent=("USERS", "SH")),
        schema="SH",
    ),
    # A tablespace is no object of the error: the undo tablespace names nothing.
    DetailCase(
        "undo-full",
        lambda: thin(OFFICIAL_TEXTS["ORA-30036"], 30036),
        _e(Kind.DISK_FULL, "ORA-30036", absent=("UNDOTBS1",)),
    ),
    DetailCase(
        "trigger-stack",
        lambda: thin(
            OFFICIAL_TEXTS["ORA-01400"] + '\nORA-06512: at "HR.EMP_BIU", '
            "line 3\nORA-04088: error during execution of trigger "
            "'HR.EMP_BIU'",
            1400,
        ),
        _e(Kind.NOT_NULL_VIOLATION, "ORA-01400", "EMP", "NAME"),
        schema="HR",
    ),
    DetailCase(
        "plsql-undeclared",
        lambda: thin(pls_stack(OFFICIAL_TEXTS["PLS-00201"]), 6550),
        _e(Kind.UNDEFINED_OBJECT, "PLS-00201", "EMP_PKG"),
    ),
    DetailCase(
        "plsql-sql-error",
        lambda: thin(
            "ORA-06550: line 2, column 17:\nPL/SQL: ORA-00942: table or view "
            "does not exist\nORA-06550: line 2, column 3:\nPL/SQL: SQL "
            "Statement ignored",
            6550,
        ),
        _e(Kind.UNDEFINED_TABLE, "ORA-00942"),
    ),
    DetailCase(
        "sql-calls-bad-plsql",
        lambda: thin(
            "ORA-06553: PLS-306: wrong number or types of arguments in call to 'RAISE_SALARY'", 6553
        ),
        _e(Kind.UNDEFINED_FUNCTION, "PLS-00306", "RAISE_SALARY"),
    ),
    DetailCase(
        "user-defined-with-trailer",
        lambda: thin(
            'ORA-20001: salary must not decrease\nORA-06512: at "HR.EMP_BIU", line 5', 20001
        ),
        Expected(kind=Kind.UNKNOWN, code="ORA-20001"),
    ),
    DetailCase(
        "package-state-discarded",
        lambda: thin(
            "ORA-04068: existing state of packages has been discarded\n"
            + OFFICIAL_TEXTS["ORA-04061"]
            + "\n"
            + OFFICIAL_TEXTS["ORA-04065"]
            + "\n"
            + OFFICIAL_TEXTS["ORA-06508"]
            + "\nORA-06512: at line 1",
            4068,
        ),
        _e(Kind.SERIALIZATION_FAILURE, "ORA-04068"),
    ),
    DetailCase(
        "deferred-fk-at-commit",
        lambda: thin("ORA-02091: transaction rolled back\n" + OFFICIAL_TEXTS["ORA-02291"], 2091),
        _e(Kind.FOREIGN_KEY_VIOLATION, "ORA-02291", constraint="FK_EMP_DEPT"),
        schema="SCOTT",
    ),
    DetailCase(
        "mutating",
        lambda: thin(
            OFFICIAL_TEXTS["ORA-04091"] + '\nORA-06512: at "HR.EMP_AIU", '
            "line 4\nORA-04088: error during execution of trigger "
            "'HR.EMP_AIU'",
            4091,
        ),
        _e(Kind.FEATURE_NOT_SUPPORTED, "ORA-04091", "EMP"),
        schema="HR",
    ),
    DetailCase(
        "lock-object-timeout",
        lambda: thin(OFFICIAL_TEXTS["ORA-04021"], 4021),
        _e(Kind.LOCK_NOT_AVAILABLE, "ORA-04021", "EMP_PKG"),
        schema="HR",
    ),
    DetailCase(
        "view-has-errors",
        lambda: thin(OFFICIAL_TEXTS["ORA-04063"], 4063),
        _e(Kind.INVALID_OBJECT_DEFINITION, "ORA-04063", "EMP_V"),
        schema="HR",
    ),
    DetailCase(
        "buffer-too-small",
        lambda: thin(
            "ORA-06502: PL/SQL: numeric or value error: character string "
            "buffer too small\nORA-06512: at line 4",
            6502,
        ),
        _e(Kind.STRING_DATA_RIGHT_TRUNCATION, "ORA-06502"),
    ),
    DetailCase(
        "char-to-number",
        lambda: thin(
            "ORA-06502: PL/SQL: numeric or value error: character to number "
            "conversion error\nORA-06512: at line 3",
            6502,
        ),
        _e(Kind.INVALID_TEXT_REPRESENTATION, "ORA-06502"),
    ),
    DetailCase(
        "account-locked-not-retryable",
        lambda: thick(OFFICIAL_TEXTS["ORA-28000"], 28000, context="dpiConn_create: create session"),
        _e(Kind.INVALID_AUTHORIZATION, "ORA-28000", retryable=False),
    ),
    DetailCase(
        "service-unknown-recoverable-flag-ignored",
        lambda: thick(OFFICIAL_TEXTS["ORA-12514"], 12514, context="dpiConn_create: create session"),
        _e(Kind.CONNECTION_MISCONFIGURED, "ORA-12514", retryable=False),
    ),
    DetailCase(
        "recoverable-flag-from-client",
        lambda: thick(
            "ORA-01578: ORACLE data block corrupted (file # 4, block # 1234)",
            1578,
            isrecoverable=True,
        ),
        _e(Kind.DATA_CORRUPTED, "ORA-01578", retryable=True),
    ),
    DetailCase(
        "recoverable-flag-not-for-syntax",
        lambda: thick(OFFICIAL_TEXTS["ORA-00933"], 933, isrecoverable=True),
        _e(Kind.SYNTAX_ERROR, "ORA-00933", retryable=False),
    ),
    DetailCase(
        "internal-error-closes-session",
        lambda: thin(OFFICIAL_TEXTS["ORA-00600"], 600),
        _e(Kind.INTERNAL_ERROR, "ORA-00600", retryable=True),
    ),
    DetailCase(
        "eof-under-dpy-4011",
        lambda: thin(
            OFFICIAL_TEXTS["ORA-03113"] + "\nProcess ID: 21743\nSession ID: 96 Serial number: 5121",
            3113,
        ),
        _e(Kind.CONNECTION_LOST, "ORA-03113"),
    ),
    DetailCase(
        "thick-connection-closed",
        lambda: dpi_thick(*DPI_TEXTS["DPI-1080"]),
        _e(Kind.CONNECTION_LOST, "DPI-1080"),
    ),
    DetailCase(
        "thick-call-timeout",
        lambda: dpi_thick(*DPI_TEXTS["DPI-1067"]),
        _e(Kind.STATEMENT_TIMEOUT, "DPI-1067"),
    ),
    DetailCase(
        "user-cancel",
        lambda: thick(
            OFFICIAL_TEXTS["ORA-01013"] + '\nORA-06512: at "SYS.DBMS_SESSION", line 38',
            1013,
        ),
        _e(Kind.QUERY_CANCELED, "ORA-01013"),
    ),
    DetailCase(
        "listener-refused-similar",
        lambda: dpy("DPY-6000", error_code=12516),
        _e(Kind.TOO_MANY_CONNECTIONS, "DPY-6000"),
    ),
    DetailCase(
        "listener-refused-unknown-service",
        lambda: dpy("DPY-6000", error_code=12514),
        _e(Kind.CONNECTION_MISCONFIGURED, "DPY-6000"),
    ),
    DetailCase(
        "connect-service-not-registered",
        lambda: dpy(
            "DPY-6005", cause=dpy("DPY-6001", **DPY_ARGS["DPY-6001"]), **DPY_ARGS["DPY-6005"]
        ),
        _e(Kind.CONNECTION_MISCONFIGURED, "DPY-6001"),
    ),
    DetailCase(
        "connect-unknown-host",
        lambda: dpy(
            "DPY-6005",
            cause=socket.gaierror(-2, "Name or service not known"),
            **DPY_ARGS["DPY-6005"],
        ),
        _e(Kind.CONNECTION_MISCONFIGURED, "DPY-6005"),
    ),
    DetailCase(
        "connect-dns-temporary",
        lambda: dpy(
            "DPY-6005",
            cause=socket.gaierror(-3, "Temporary failure in name resolution"),
            **DPY_ARGS["DPY-6005"],
        ),
        _e(Kind.CONNECTION_FAILURE, "DPY-6005"),
    ),
    DetailCase(
        "connect-timeout",
        lambda: dpy("DPY-6005", cause=TimeoutError("timed out"), **DPY_ARGS["DPY-6005"]),
        _e(Kind.CONNECTION_FAILURE, "DPY-6005"),
    ),
)


# -- real errors, no server needed --------------------------------------------------------


def _oracledb() -> Any:
    import oracledb

    return oracledb


def _attempt(action: Callable[[], object]) -> BaseException:
    try:
        action()
    except Exception as exc:
        return exc
    raise AssertionError("the driver did not raise")


#: The password of connects that fail before any login.
_DUMMY = "lde_oracle_dummy"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def _refused() -> BaseException:
    ora = _oracledb()
    return _attempt(
        lambda: ora.connect(
            user="lde_oracle",
            password=_DUMMY,
            dsn=f"127.0.0.1:{_closed_port()}/lde_oracle",
            tcp_connect_timeout=5,
        )
    )


def _dropped() -> BaseException:
    """A listener that accepts and closes at once: the connect dies mid-handshake."""
    ora = _oracledb()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(10)
    port = server.getsockname()[1]

    def serve() -> None:
        with contextlib.suppress(OSError):
            conn, _ = server.accept()
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        # The driver leaves its half-open socket to the garbage collector;
        # collect it here, where its ResourceWarning is expected, with the
        # traceback frames that still hold it.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            exc = _attempt(
                lambda: ora.connect(
                    user="lde_oracle",
                    password=_DUMMY,
                    dsn=f"127.0.0.1:{port}/lde_oracle",
                    tcp_connect_timeout=5,
                )
            )
            chained: BaseException | None = exc
            while chained is not None:
                chained.__traceback__ = None
                chained = chained.__cause__ or chained.__context__
            gc.collect()
        return exc
    finally:
        thread.join(10)
        server.close()


def _no_config_dir() -> BaseException:
    ora = _oracledb()
    return _attempt(lambda: ora.connect(user="lde_oracle", password=_DUMMY, dsn="lde_oracle_alias"))


def _missing_tnsnames() -> BaseException:
    ora = _oracledb()
    with tempfile.TemporaryDirectory(prefix="lde_oracle_") as empty:
        return _attempt(
            lambda: ora.connect(
                user="lde_oracle", password=_DUMMY, dsn="lde_oracle_alias", config_dir=empty
            )
        )


def _alias_not_found() -> BaseException:
    ora = _oracledb()
    with tempfile.TemporaryDirectory(prefix="lde_oracle_") as config:
        Path(config, "tnsnames.ora").write_text(
            "lde_other = (DESCRIPTION=(ADDRESS=(PROTOCOL=tcp)(HOST=127.0.0.1)(PORT=1))"
            "(CONNECT_DATA=(SERVICE_NAME=lde)))\n",
            encoding="utf-8",
        )
        return _attempt(
            lambda: ora.connect(
                user="lde_oracle", password=_DUMMY, dsn="lde_oracle_alias", config_dir=config
            )
        )


def _no_credentials() -> BaseException:
    ora = _oracledb()
    return _attempt(
        lambda: ora.connect(user="lde_oracle", dsn=f"127.0.0.1:{_closed_port()}/lde_oracle")
    )


def _no_client_library() -> BaseException:
    # A failed init_oracle_client() leaves the driver's mode undecided, so
    # thin-mode cases built afterwards in the same process are unaffected.
    ora = _oracledb()
    with tempfile.TemporaryDirectory(prefix="lde_oracle_") as empty:
        return _attempt(lambda: ora.init_oracle_client(lib_dir=empty))


#: Real driver errors: (name, producer, expected).
REAL_CASES: tuple[tuple[str, Callable[[], BaseException], Expected], ...] = (
    ("connect-refused", _refused, Expected(Kind.CONNECTION_FAILURE, "DPY-6005")),
    ("connect-dropped", _dropped, Expected(Kind.CONNECTION_FAILURE, "DPY-4011")),
    ("no-config-dir", _no_config_dir, Expected(Kind.CONNECTION_MISCONFIGURED, "DPY-4027")),
    ("missing-tnsnames", _missing_tnsnames, Expected(Kind.CONNECTION_MISCONFIGURED, "DPY-4026")),
    ("alias-not-found", _alias_not_found, Expected(Kind.CONNECTION_MISCONFIGURED, "DPY-4000")),
    ("no-credentials", _no_credentials, Expected(Kind.INVALID_PASSWORD, "DPY-4001")),
    ("no-client-library", _no_client_library, Expected(Kind.CONNECTION_MISCONFIGURED, "DPI-1047")),
)


def real_cases() -> Iterator[tuple[str, Callable[[], BaseException], Expected]]:
    """The real driver errors: name, producer, expected."""
    yield from REAL_CASES


def collect() -> Iterator[CorpusCase]:
    """Every Oracle case: the whole code table, the detail cases and the real errors."""
    for code, shape, build in table_cases():
        yield CorpusCase(
            "oracle",
            "oracledb",
            f"{code}-{shape}",
            build(),
            table_expected(code),
            notes={"shape": shape},
        )
    for case in DETAIL_CASES:
        expected = case.expected
        if case.schema is not None:
            expected = replace(expected, schema=case.schema)
        yield CorpusCase("oracle", "oracledb", case.name, case.build(), expected)
    for name, produce, expected in REAL_CASES:
        yield CorpusCase("oracle", "oracledb", name, produce(), expected, notes={"shape": "real"})
