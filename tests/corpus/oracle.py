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
(*Oracle Database Error Messages*), with their placeholders filled in.

Errors the driver raises without a server are produced for real: a refused
and a dropped connection on the loopback interface, a missing
``tnsnames.ora`` or alias, missing credentials, and thick mode's
missing client library.
"""

from __future__ import annotations

import contextlib
import gc
import socket
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from localdata_errors import Kind
from tests.corpus import CorpusCase, Expected

__all__ = [
    "DETAIL_CASES",
    "DPI_TEXTS",
    "DPY_ARGS",
    "OFFICIAL_TEXTS",
    "RECOVERABLE_RETRYABLE",
    "DetailCase",
    "collect",
    "real_cases",
    "table_cases",
    "thick",
    "thin",
]

# -- the official texts -----------------------------------------------------------------

#: One official message per ORA- / PLS- code of the table, placeholders filled.
OFFICIAL_TEXTS: dict[str, str] = {
    "ORA-00001": "ORA-00001: unique constraint (HR.EMP_PK) violated",
    "ORA-00018": "ORA-00018: maximum number of sessions exceeded",
    "ORA-00020": "ORA-00020: maximum number of processes (300) exceeded",
    "ORA-00022": "ORA-00022: invalid session ID; access denied",
    "ORA-00028": "ORA-00028: your session has been killed",
    "ORA-00031": "ORA-00031: session marked for kill",
    "ORA-00051": "ORA-00051: timeout occurred while waiting for a resource",
    "ORA-00054": "ORA-00054: resource busy and acquire with NOWAIT specified or timeout expired",
    "ORA-00060": "ORA-00060: deadlock detected while waiting for resource",
    "ORA-00257": "ORA-00257: Archiver error. Connect AS SYSDBA only until resolved.",
    "ORA-00376": "ORA-00376: file 7 cannot be read at this time",
    "ORA-00600": "ORA-00600: internal error code, arguments: [kdsgrp1], [], [], [], [], [], [], []",
    "ORA-00603": "ORA-00603: ORACLE server session terminated by fatal error",
    "ORA-00900": "ORA-00900: invalid SQL statement",
    "ORA-00901": "ORA-00901: invalid CREATE command",
    "ORA-00902": "ORA-00902: invalid datatype",
    "ORA-00903": "ORA-00903: invalid table name",
    "ORA-00904": 'ORA-00904: "FOO": invalid identifier',
    "ORA-00905": "ORA-00905: missing keyword",
    "ORA-00906": "ORA-00906: missing left parenthesis",
    "ORA-00907": "ORA-00907: missing right parenthesis",
    "ORA-00908": "ORA-00908: missing NULL keyword",
    "ORA-00911": "ORA-00911: invalid character",
    "ORA-00913": "ORA-00913: too many values",
    "ORA-00917": "ORA-00917: missing comma",
    "ORA-00918": "ORA-00918: column ambiguously defined",
    "ORA-00920": "ORA-00920: invalid relational operator",
    "ORA-00921": "ORA-00921: unexpected end of SQL command",
    "ORA-00923": "ORA-00923: FROM keyword not found where expected",
    "ORA-00924": "ORA-00924: missing BY keyword",
    "ORA-00925": "ORA-00925: missing INTO keyword",
    "ORA-00926": "ORA-00926: missing VALUES keyword",
    "ORA-00928": "ORA-00928: missing SELECT keyword",
    "ORA-00932": "ORA-00932: inconsistent datatypes: expected NUMBER got DATE",
    "ORA-00933": "ORA-00933: SQL command not properly ended",
    "ORA-00934": "ORA-00934: group function is not allowed here",
    "ORA-00935": "ORA-00935: group function is nested too deeply",
    "ORA-00936": "ORA-00936: missing expression",
    "ORA-00937": "ORA-00937: not a single-group group function",
    "ORA-00942": "ORA-00942: table or view does not exist",
    "ORA-00947": "ORA-00947: not enough values",
    "ORA-00955": "ORA-00955: name is already used by an existing object",
    "ORA-00957": "ORA-00957: duplicate column name",
    "ORA-00959": "ORA-00959: tablespace 'DATA2' does not exist",
    "ORA-00979": "ORA-00979: not a GROUP BY expression",
    "ORA-00984": "ORA-00984: column not allowed here",
    "ORA-01000": "ORA-01000: maximum open cursors exceeded",
    "ORA-01002": "ORA-01002: fetch out of sequence",
    "ORA-01005": "ORA-01005: null password given; logon denied",
    "ORA-01012": "ORA-01012: not logged on",
    "ORA-01013": "ORA-01013: user requested cancel of current operation",
    "ORA-01017": "ORA-01017: invalid username/password; logon denied",
    "ORA-01031": "ORA-01031: insufficient privileges",
    "ORA-01033": "ORA-01033: ORACLE initialization or shutdown in progress",
    "ORA-01034": "ORA-01034: ORACLE not available",
    "ORA-01040": "ORA-01040: invalid character in password; logon denied",
    "ORA-01045": "ORA-01045: user APP lacks CREATE SESSION privilege; logon denied",
    "ORA-01089": "ORA-01089: immediate shutdown or close in progress - no operations are permitted",
    "ORA-01090": "ORA-01090: shutdown in progress - connection is not permitted",
    "ORA-01092": "ORA-01092: ORACLE instance terminated. Disconnection forced",
    "ORA-01109": "ORA-01109: database not open",
    "ORA-01115": "ORA-01115: IO error reading block from file 4 (block # 1234)",
    "ORA-01157": "ORA-01157: cannot identify/lock data file 4 - see DBWR trace file",
    "ORA-01400": 'ORA-01400: cannot insert NULL into ("HR"."EMP"."NAME")',
    "ORA-01401": "ORA-01401: inserted value too large for column",
    "ORA-01403": "ORA-01403: no data found",
    "ORA-01407": 'ORA-01407: cannot update ("HR"."EMP"."NAME") to NULL',
    "ORA-01408": "ORA-01408: such column list already indexed",
    "ORA-01410": "ORA-01410: invalid ROWID",
    "ORA-01418": "ORA-01418: specified index does not exist",
    "ORA-01422": "ORA-01422: exact fetch returns more than requested number of rows",
    "ORA-01427": "ORA-01427: single-row subquery returns more than one row",
    "ORA-01430": "ORA-01430: column being added already exists in table",
    "ORA-01438": "ORA-01438: value larger than specified precision allowed for this column",
    "ORA-01452": "ORA-01452: cannot CREATE UNIQUE INDEX; duplicate keys found",
    "ORA-01456": "ORA-01456: may not perform insert/delete/update operation inside a READ "
    "ONLY transaction",
    "ORA-01476": "ORA-01476: divisor is equal to zero",
    "ORA-01489": "ORA-01489: result of string concatenation is too long",
    "ORA-01536": "ORA-01536: space quota exceeded for tablespace 'USERS'",
    "ORA-01555": "ORA-01555: snapshot too old: rollback segment number 9 with name "
    '"_SYSSMU9_1650573970$" too small',
    "ORA-01578": "ORA-01578: ORACLE data block corrupted (file # 4, block # 1234)",
    "ORA-01652": "ORA-01652: unable to extend temp segment by 128 in tablespace TEMP",
    "ORA-01653": "ORA-01653: unable to extend table HR.EMP by 128 in tablespace USERS",
    "ORA-01654": "ORA-01654: unable to extend index HR.EMP_NAME_IX by 128 in tablespace USERS",
    "ORA-01658": "ORA-01658: unable to create INITIAL extent for segment in tablespace USERS",
    "ORA-01688": "ORA-01688: unable to extend table SH.SALES partition SALES_Q1 by 1024 in "
    "tablespace USERS",
    "ORA-01691": "ORA-01691: unable to extend lob segment HR.SYS_LOB0000073467C00002$$ by "
    "128 in tablespace USERS",
    "ORA-01722": "ORA-01722: invalid number",
    "ORA-01740": "ORA-01740: missing double quote in identifier",
    "ORA-01741": "ORA-01741: illegal zero-length identifier",
    "ORA-01747": "ORA-01747: invalid user.table.column, table.column, or column specification",
    "ORA-01756": "ORA-01756: quoted string not properly terminated",
    "ORA-01758": "ORA-01758: table must be empty to add mandatory (NOT NULL) column",
    "ORA-01760": "ORA-01760: illegal argument for function",
    "ORA-01789": "ORA-01789: query block has incorrect number of result columns",
    "ORA-01790": "ORA-01790: expression must have same datatype as corresponding expression",
    "ORA-01830": "ORA-01830: date format picture ends before converting entire input string",
    "ORA-01839": "ORA-01839: date not valid for month specified",
    "ORA-01840": "ORA-01840: input value not long enough for date format",
    "ORA-01841": "ORA-01841: (full) year must be between -4713 and +9999, and not be 0",
    "ORA-01843": "ORA-01843: not a valid month",
    "ORA-01847": "ORA-01847: day of month must be between 1 and last day of month",
    "ORA-01858": "ORA-01858: a non-numeric character was found where a numeric was expected",
    "ORA-01861": "ORA-01861: literal does not match format string",
    "ORA-01918": "ORA-01918: user 'APP' does not exist",
    "ORA-01919": "ORA-01919: role 'REPORTING' does not exist",
    "ORA-01920": "ORA-01920: user name 'APP' conflicts with another user or role name",
    "ORA-01921": "ORA-01921: role name 'REPORTING' conflicts with another user or role name",
    "ORA-01950": "ORA-01950: no privileges on tablespace 'USERS'",
    "ORA-02000": "ORA-02000: missing ALWAYS keyword",
    "ORA-02049": "ORA-02049: timeout: distributed transaction waiting for lock",
    "ORA-02091": "ORA-02091: transaction rolled back",
    "ORA-02149": "ORA-02149: Specified partition does not exist",
    "ORA-02260": "ORA-02260: table can have only one primary key",
    "ORA-02261": "ORA-02261: such unique or primary key already exists in the table",
    "ORA-02264": "ORA-02264: name already used by an existing constraint",
    "ORA-02266": "ORA-02266: unique/primary keys in table referenced by enabled foreign keys",
    "ORA-02270": "ORA-02270: no matching unique or primary key for this column-list",
    "ORA-02275": "ORA-02275: such a referential constraint already exists in the table",
    "ORA-02289": "ORA-02289: sequence does not exist",
    "ORA-02290": "ORA-02290: check constraint (HR.EMP_SALARY_CK) violated",
    "ORA-02291": "ORA-02291: integrity constraint (SCOTT.FK_EMP_DEPT) violated - parent key "
    "not found",
    "ORA-02292": "ORA-02292: integrity constraint (SCOTT.FK_EMP_DEPT) violated - child record "
    "found",
    "ORA-02293": "ORA-02293: cannot validate (HR.EMP_SALARY_CK) - check constraint violated",
    "ORA-02298": "ORA-02298: cannot validate (SCOTT.FK_EMP_DEPT) - parent keys not found",
    "ORA-02299": "ORA-02299: cannot validate (HR.EMP_EMAIL_UK) - duplicate keys found",
    "ORA-02303": "ORA-02303: cannot drop or replace a type with type or table dependents",
    "ORA-02396": "ORA-02396: exceeded maximum idle time, please connect again",
    "ORA-02429": "ORA-02429: cannot drop index used for enforcement of unique/primary key",
    "ORA-02443": "ORA-02443: Cannot drop constraint  - nonexistent constraint",
    "ORA-02449": "ORA-02449: unique/primary keys in table referenced by foreign keys",
    "ORA-03106": "ORA-03106: fatal two-task communication protocol error",
    "ORA-03113": "ORA-03113: end-of-file on communication channel",
    "ORA-03114": "ORA-03114: not connected to ORACLE",
    "ORA-03135": "ORA-03135: connection lost contact",
    "ORA-04020": "ORA-04020: deadlock detected while trying to lock object HR.EMP_PKG",
    "ORA-04021": "ORA-04021: timeout occurred while waiting to lock object HR.EMP_PKG",
    "ORA-04030": "ORA-04030: out of process memory when trying to allocate 16328 bytes "
    "(koh-kghu sessi,pmucalm coll)",
    "ORA-04031": 'ORA-04031: unable to allocate 4160 bytes of shared memory ("shared pool",'
    '"select name from obj$...","sga heap(1,0)","kglsim object batch")',
    "ORA-04036": "ORA-04036: PGA memory used by the instance exceeds PGA_AGGREGATE_LIMIT",
    "ORA-04043": "ORA-04043: object EMP_ARCHIVE does not exist",
    "ORA-04061": 'ORA-04061: existing state of package body "HR.EMP_PKG" has been invalidated',
    "ORA-04063": 'ORA-04063: view "HR.EMP_V" has errors',
    "ORA-04065": 'ORA-04065: not executed, altered or dropped package body "HR.EMP_PKG"',
    "ORA-04068": "ORA-04068: existing state of packages has been discarded",
    "ORA-04080": "ORA-04080: trigger 'EMP_BIU' does not exist",
    "ORA-04081": "ORA-04081: trigger 'EMP_BIU' already exists",
    "ORA-04091": "ORA-04091: table HR.EMP is mutating, trigger/function may not see it",
    "ORA-04098": "ORA-04098: trigger 'HR.EMP_BIU' is invalid and failed re-validation",
    "ORA-06502": "ORA-06502: PL/SQL: numeric or value error",
    "ORA-06508": 'ORA-06508: PL/SQL: could not find program unit being called: "HR.EMP_PKG"',
    "ORA-06550": "ORA-06550: line 1, column 7:\nPL/SQL: Statement ignored",
    "ORA-06576": "ORA-06576: not a valid function or procedure name",
    "ORA-08102": "ORA-08102: index key not found, obj# 73468, file 4, block 1234 (2)",
    "ORA-08177": "ORA-08177: can't serialize access for this transaction",
    "ORA-12154": "ORA-12154: TNS:could not resolve the connect identifier specified",
    "ORA-12170": "ORA-12170: TNS:Connect timeout occurred",
    "ORA-12504": "ORA-12504: TNS:listener was not given the SERVICE_NAME in CONNECT_DATA",
    "ORA-12505": "ORA-12505: TNS:listener does not currently know of SID given in connect "
    "descriptor",
    "ORA-12514": "ORA-12514: TNS:listener does not currently know of service requested in "
    "connect descriptor",
    "ORA-12516": "ORA-12516: TNS:listener could not find available handler with matching "
    "protocol stack",
    "ORA-12518": "ORA-12518: TNS:listener could not hand off client connection",
    "ORA-12519": "ORA-12519: TNS:no appropriate service handler found",
    "ORA-12520": "ORA-12520: TNS:listener could not find available handler for requested "
    "type of server",
    "ORA-12521": "ORA-12521: TNS:listener does not currently know of instance requested in "
    "connect descriptor",
    "ORA-12526": "ORA-12526: TNS:listener: all appropriate instances are in restricted mode",
    "ORA-12527": "ORA-12527: TNS:listener: all instances are in restricted mode or blocking "
    "new connections",
    "ORA-12528": "ORA-12528: TNS:listener: all appropriate instances are blocking new connections",
    "ORA-12535": "ORA-12535: TNS:operation timed out",
    "ORA-12537": "ORA-12537: TNS:connection closed",
    "ORA-12541": "ORA-12541: TNS:no listener",
    "ORA-12543": "ORA-12543: TNS:destination host unreachable",
    "ORA-12545": "ORA-12545: Connect failed because target host or object does not exist",
    "ORA-12547": "ORA-12547: TNS:lost contact",
    "ORA-12560": "ORA-12560: TNS:protocol adapter error",
    "ORA-12570": "ORA-12570: TNS:packet reader failure",
    "ORA-12571": "ORA-12571: TNS:packet writer failure",
    "ORA-12638": "ORA-12638: Credential retrieval failed",
    "ORA-12899": 'ORA-12899: value too large for column "HR"."EMP"."NAME" (actual: 30, '
    "maximum: 20)",
    "ORA-14400": "ORA-14400: inserted partition key does not map to any partition",
    "ORA-24247": "ORA-24247: network access denied by access control list (ACL)",
    "ORA-25408": "ORA-25408: can not safely replay call",
    "ORA-28000": "ORA-28000: the account is locked",
    "ORA-28001": "ORA-28001: the password has expired",
    "ORA-28009": "ORA-28009: connection as SYS should be as SYSDBA or SYSOPER",
    "ORA-28040": "ORA-28040: No matching authentication protocol",
    "ORA-30006": "ORA-30006: resource busy; acquire with WAIT timeout expired",
    "ORA-30036": "ORA-30036: unable to extend segment by 8 in undo tablespace 'UNDOTBS1'",
    # PL/SQL compilation errors arrive inside ORA-06550 (see pls_stack)
    "PLS-00103": 'PLS-00103: Encountered the symbol "END" when expecting one of the following:',
    "PLS-00201": "PLS-00201: identifier 'EMP_PKG' must be declared",
    "PLS-00302": "PLS-00302: component 'RAISE_SALARY' must be declared",
    "PLS-00306": "PLS-00306: wrong number or types of arguments in call to 'RAISE_SALARY'",
    "PLS-00382": "PLS-00382: expression is of wrong type",
    "PLS-00904": "PLS-00904: insufficient privilege to access object HR.EMP_PKG",
    "PLS-00905": "PLS-00905: object HR.EMP_PKG is invalid",
}

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


def _every_dpy_code() -> None:
    """Every DPY- code the table declares gets a case, with the arguments its format needs."""
    from localdata_errors.backends._oracledb_codes import DPY

    for number in DPY:
        code = f"DPY-{number:04d}"
        DPY_ARGS.setdefault(code, _format_args(code))


_every_dpy_code()

#: DPI- texts as ODPI-C reports them (thick mode), and whether it marks them recoverable.
DPI_TEXTS: dict[str, tuple[str, bool]] = {
    "DPI-1010": ("DPI-1010: not connected", False),
    "DPI-1047": (
        'DPI-1047: Cannot locate a 64-bit Oracle Client library: "libclntsh.so: '
        'cannot open shared object file: No such file or directory"',
        False,
    ),
    "DPI-1067": ("DPI-1067: call timeout of 5000 ms exceeded with ORA-3156", False),
    "DPI-1072": ("DPI-1072: the Oracle Client library version is unsupported", False),
    "DPI-1080": ("DPI-1080: connection was closed by ORA-3113", True),
}

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
    ``(code, shape, build)`` for every code of the table and each driver shape.

    ORA- codes: thin mode (the driver adds the Help line) and thick mode
    (no Help line); PLS- codes inside their ORA-06550 stack; DPY- codes
    through ``_create_exception``; DPI- codes through thick mode.
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
    for code, args in DPY_ARGS.items():
        yield code, "dpy", lambda c=code, a=args: dpy(c, **a)
    for code, (text, recoverable) in DPI_TEXTS.items():
        yield (
            code,
            "thick",
            lambda t=text, r=recoverable: thick(
                t, 0, isrecoverable=r, context="dpiConn_create: check connection"
            ),
        )


def table_expected(code: str) -> Expected:
    """What every table case must answer: its kind, and the code itself."""
    from localdata_errors.backends._oracle_codes import CODES

    return Expected(
        kind=CODES[code], code=code, retryable=True if code in RECOVERABLE_RETRYABLE else None
    )


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
) -> Expected:
    return Expected(
        kind=kind, code=code, resources=resources, constraint=constraint, retryable=retryable
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
        _e(Kind.UNDEFINED_COLUMN, "ORA-00904", "SALARY_X"),
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
        _e(Kind.DISK_FULL, "ORA-01653", "EMP", "USERS"),
        schema="HR",
    ),
    DetailCase(
        "partition-extend",
        lambda: thin(OFFICIAL_TEXTS["ORA-01688"], 1688),
        _e(Kind.DISK_FULL, "ORA-01688", "SALES", "SALES_Q1", "USERS"),
        schema="SH",
    ),
    DetailCase(
        "undo-full",
        lambda: thin(OFFICIAL_TEXTS["ORA-30036"], 30036),
        _e(Kind.DISK_FULL, "ORA-30036", "UNDOTBS1"),
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
        lambda: thick(*DPI_TEXTS["DPI-1080"][:1], 0, isrecoverable=True),
        _e(Kind.CONNECTION_LOST, "DPI-1080"),
    ),
    DetailCase(
        "thick-call-timeout",
        lambda: thick(DPI_TEXTS["DPI-1067"][0], 0),
        _e(Kind.STATEMENT_TIMEOUT, "DPI-1067"),
    ),
    DetailCase(
        "call-timeout-cancel",
        lambda: thick(OFFICIAL_TEXTS["ORA-01013"], 1013),
        _e(Kind.STATEMENT_TIMEOUT, "ORA-01013"),
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
        yield CorpusCase("oracle", "oracledb", case.name, case.build(), case.expected)
    for name, produce, expected in REAL_CASES:
        yield CorpusCase("oracle", "oracledb", name, produce(), expected, notes={"shape": "real"})
