"""
SeekDB / OceanBase backend for localdata-errors: OceanBase's MySQL-mode error numbers and wording.

OceanBase answers MySQL clients with MySQL's own error numbers where MySQL has
one (1146 for a missing table, 1062 for a duplicate key, ...) and with its
own numbers for what only OceanBase has (4012 timeout, 4038 not master,
6005 row lock conflict, ...).  This mapper knows the latter and hands every
other number to the built-in ``mysql`` mapper.

A SeekDB or OceanBase server is reached through pymysql, whose module the
built-in mapper already claims: for those errors this mapper answers when the
caller passes `db_type="seekdb"` (or `"oceanbase"`, `"ob"`).  SeekDB's
embedded engine, `pylibseekdb`, is this mapper's own driver: its
`SeekdbError` carries the number only at the end of its text
(`Table 'test.nope' doesn't exist failed: code=1146`), which is read, cut
off, and classified like any other number.

Added in 0.1.0.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    ErrorMapperRegistry,
    Kind,
    MappedError,
    driver_attr,
    hookimpl,
)

__all__ = ["OB_CODES", "SeekDBMapper", "localdata_errors_mappers"]

#: OceanBase's own error numbers (``ob_errno``, sent to MySQL clients without the
#: sign) and their kinds.  Only numbers checked against OceanBase's error list.
OB_CODES: Final[Mapping[int, Kind]] = MappingProxyType(
    {
        4012: Kind.STATEMENT_TIMEOUT,  # OB_TIMEOUT
        4013: Kind.OUT_OF_MEMORY,  # OB_ALLOCATE_MEMORY_FAILED
        4030: Kind.OUT_OF_MEMORY,  # OB_TENANT_OUT_OF_MEM
        4038: Kind.SERIALIZATION_FAILURE,  # OB_NOT_MASTER: leader moved; retry the transaction
        4042: Kind.INVALID_AUTHORIZATION,  # OB_USER_NOT_EXIST
        4043: Kind.INVALID_PASSWORD,  # OB_PASSWORD_WRONG
        4064: Kind.CONNECTION_LOST,  # OB_SESSION_KILLED
        4078: Kind.DIVISION_BY_ZERO,  # OB_DIVISION_BY_ZERO
        4101: Kind.DEADLOCK_DETECTED,  # OB_DEAD_LOCK
        5008: Kind.DUPLICATE_COLUMN,  # OB_ERR_COLUMN_DUPLICATE
        5015: Kind.AMBIGUOUS_COLUMN,  # OB_ERR_COLUMN_AMBIGUOUS
        5019: Kind.UNDEFINED_TABLE,  # OB_TABLE_NOT_EXIST
        5020: Kind.DUPLICATE_TABLE,  # OB_ERR_TABLE_EXIST
        5024: Kind.UNIQUE_VIOLATION,  # OB_ERR_PRIMARY_KEY_DUPLICATE
        5025: Kind.DUPLICATE_OBJECT,  # OB_ERR_KEY_NAME_DUPLICATE
        6002: Kind.SERIALIZATION_FAILURE,  # OB_TRANS_ROLLBACKED: retry the transaction
        6003: Kind.LOCK_NOT_AVAILABLE,  # OB_ERR_EXCLUSIVE_LOCK_CONFLICT
        6004: Kind.LOCK_NOT_AVAILABLE,  # OB_ERR_SHARED_LOCK_CONFLICT
        6005: Kind.LOCK_NOT_AVAILABLE,  # OB_TRY_LOCK_ROW_CONFLICT
        6210: Kind.STATEMENT_TIMEOUT,  # OB_TRANS_TIMEOUT
        6211: Kind.TRANSACTION_ABORTED,  # OB_TRANS_KILLED
        6212: Kind.STATEMENT_TIMEOUT,  # OB_TRANS_STMT_TIMEOUT
    }
)


# pylibseekdb's text: "<the server's message> failed: code=<number>".
_EMBEDDED_CODE: Final = re.compile(r"\s*failed: code=(-?\d{1,6})\s*$")


def _embedded(error: ErrorInput) -> ErrorInput:
    """The error with pylibseekdb's `failed: code=N` read into `code` and cut off."""
    found = _EMBEDDED_CODE.search(error.message, max(0, len(error.message) - 64))
    if found is None:
        return error
    return error._replace(
        exception=None,
        message=error.message[: found.start()],
        code=error.code if error.code is not None else abs(int(found.group(1))),
    )


def _ob_errno(error: ErrorInput) -> int | None:
    # OceanBase's numbers are negative inside the server; a proxy or an older
    # release may pass the sign on, so both signs are read.
    # A wrapper's property can raise, or hold anything: read safely, check types.
    candidates: list[object] = [driver_attr(error.exception, "errno")]
    args = driver_attr(error.exception, "args", ())
    if isinstance(args, tuple) and args:
        candidates.append(args[0])
    candidates.append(error.code)
    for candidate in candidates:
        value = candidate
        if (
            isinstance(value, str)
            and value.lstrip("-").isdigit()
            and value.isascii()
            and len(value) <= 6
        ):
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 < abs(value) < 100_000:
            return abs(value)
    return None


class SeekDBMapper(BackendMapper):
    """
    SeekDB / OceanBase in MySQL mode: OceanBase's own numbers here, the rest as MySQL.

    Added in 0.1.0.
    """

    name = "seekdb"
    aliases = ("oceanbase", "ob")
    # OceanBase's network clients are pymysql & co., which the mysql mapper
    # claims (those errors need an explicit db_type); the embedded engine's
    # module is SeekDB's own.
    driver_modules = ("pylibseekdb",)
    display_name = "SeekDB / OceanBase (MySQL mode)"

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one OceanBase error.

        Args:
            error: The exception (pymysql's, usually) or a message with a code.

        Returns:
            OceanBase's kind for its own numbers; otherwise the built-in mysql
            mapper's answer (names read from MySQL-style messages).
        """
        error = _embedded(error)
        errno = _ob_errno(error)
        delegate = self._mysql()
        mapped = delegate.map_error(error) if delegate is not None else None
        kind = OB_CODES.get(errno) if errno is not None else None
        if kind is None:
            if mapped is None and errno is not None:
                return MappedError(kind=Kind.UNKNOWN, code=str(errno))
            return mapped
        if mapped is None:
            return MappedError(kind=kind, code=str(errno))
        return MappedError(
            kind=kind,
            code=str(errno),
            sqlstate=mapped.sqlstate,
            affected_resources=mapped.affected_resources,
            dependencies=mapped.dependencies,
            constraint=mapped.constraint,
            schema=mapped.schema,
            message=mapped.message,
        )

    @staticmethod
    def _mysql() -> BackendMapper | None:
        mapper = ErrorMapperRegistry.lookup("mysql")
        return mapper if isinstance(mapper, BackendMapper) else None

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        OceanBase's own numbers this mapper classifies.

        Returns:
            ``{"6005": Kind.LOCK_NOT_AVAILABLE, ...}``.
        """
        return {str(code): kind for code, kind in OB_CODES.items()}


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the SeekDB / OceanBase mapper.

    Returns:
        One `SeekDBMapper`.
    """
    return [SeekDBMapper()]
