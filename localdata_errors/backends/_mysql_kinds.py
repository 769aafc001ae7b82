"""
Which kind each MySQL and MariaDB error number means: the decisions, by hand, in one place.

The facts (every number MariaDB's and MySQL's lists define, the symbol each
server gives it, MariaDB's text where the two servers differ) are generated
into `_mysql_codes`; what each means for an agent is decided here, by its
symbol, so that changing a kind is a one-line edit:

- `OVERRIDES`: one symbol -> its kind;
- `PATTERNS`: symbol-name patterns, tried in order after the overrides;
- anything else is `Kind.UNKNOWN` (the number is kept and the keyword
  fallback reads the message).

A number the two servers use for different errors whose kinds differ is
ambiguous: the backend decides by MariaDB's text.  `tests/test_generated_tables.py`
checks that every symbol named here is one the upstream lists define.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["OVERRIDES", "PATTERNS", "decide", "kind_for"]

K = Kind

#: Per-symbol decisions; the docs (docs/backends/mysql.md) say why for each group.
OVERRIDES: Final[Mapping[str, Kind]] = {
    # authentication and privileges
    "ER_ACCESS_DENIED_ERROR": K.INVALID_PASSWORD,
    "ER_ACCESS_DENIED_NO_PASSWORD_ERROR": K.INVALID_PASSWORD,
    "ER_ACCESS_DENIED_CHANGE_USER_ERROR": K.INVALID_PASSWORD,
    "ER_PASSWORD_NO_MATCH": K.INVALID_AUTHORIZATION,
    "ER_HOST_NOT_PRIVILEGED": K.INVALID_AUTHORIZATION,
    "ER_HOST_IS_BLOCKED": K.INVALID_AUTHORIZATION,
    "ER_ACCOUNT_HAS_BEEN_LOCKED": K.INVALID_AUTHORIZATION,
    "ER_MUST_CHANGE_PASSWORD": K.INVALID_AUTHORIZATION,
    "ER_MUST_CHANGE_PASSWORD_LOGIN": K.INVALID_AUTHORIZATION,
    "ER_NOT_SUPPORTED_AUTH_MODE": K.INVALID_AUTHORIZATION,
    "CR_AUTH_PLUGIN_CANNOT_LOAD": K.CONNECTION_MISCONFIGURED,
    "CR_AUTH_PLUGIN_ERR": K.INVALID_AUTHORIZATION,
    "ER_PASSWORD_NOT_ALLOWED": K.INSUFFICIENT_PRIVILEGE,
    "ER_NO_PERMISSION_TO_CREATE_USER": K.INSUFFICIENT_PRIVILEGE,
    "ER_SECURE_TRANSPORT_REQUIRED": K.CONNECTION_MISCONFIGURED,
    # read-only servers and transactions (1290 is refined by its message)
    "ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION": K.READ_ONLY,
    "ER_READ_ONLY_TRANSACTION": K.READ_ONLY,
    "ER_OPTION_PREVENTS_STATEMENT": K.READ_ONLY,
    "ER_INNODB_READ_ONLY": K.READ_ONLY,
    "ER_OPEN_AS_READONLY": K.READ_ONLY,
    "ER_READ_ONLY_MODE": K.READ_ONLY,
    # connections and resources
    "ER_CON_COUNT_ERROR": K.TOO_MANY_CONNECTIONS,
    "ER_TOO_MANY_USER_CONNECTIONS": K.TOO_MANY_CONNECTIONS,
    "ER_USER_LIMIT_REACHED": K.TOO_MANY_CONNECTIONS,
    "ER_TOO_MANY_CONCURRENT_TRXS": K.TOO_MANY_CONNECTIONS,
    "ER_SERVER_SHUTDOWN": K.ADMIN_SHUTDOWN,
    "ER_NORMAL_SHUTDOWN": K.ADMIN_SHUTDOWN,
    "ER_SHUTDOWN_COMPLETE": K.ADMIN_SHUTDOWN,
    "ER_CONNECTION_KILLED": K.CONNECTION_LOST,
    # "Unknown command", SQLSTATE 08S01 (communication link failure) in MariaDB's
    # errmsg-utf8.txt: the server refused the request before running anything;
    # a Galera node outside the primary component answers every statement so
    # ("WSREP has not yet prepared node for application use") until it rejoins,
    # and a new connection (to a node that is ready) is the way on.
    "ER_UNKNOWN_COM_ERROR": K.CONNECTION_FAILURE,
    "ER_SESSION_WAS_KILLED": K.CONNECTION_LOST,
    "ER_ABORTING_CONNECTION": K.CONNECTION_LOST,
    "ER_NEW_ABORTING_CONNECTION": K.CONNECTION_LOST,
    "ER_CLIENT_INTERACTION_TIMEOUT": K.CONNECTION_LOST,
    "ER_NET_PACKET_TOO_LARGE": K.CONFIGURATION_LIMIT_EXCEEDED,
    "CR_NET_PACKET_TOO_LARGE": K.CONFIGURATION_LIMIT_EXCEEDED,
    "ER_LOCK_TABLE_FULL": K.CONFIGURATION_LIMIT_EXCEEDED,
    "ER_MAX_PREPARED_STMT_COUNT_REACHED": K.CONFIGURATION_LIMIT_EXCEEDED,
    "ER_RECORD_FILE_FULL": K.DISK_FULL,
    "ER_DISK_FULL": K.DISK_FULL,
    "ER_OUTOFMEMORY": K.OUT_OF_MEMORY,
    "ER_OUT_OF_SORTMEMORY": K.OUT_OF_MEMORY,
    "ER_OUT_OF_RESOURCES": K.OUT_OF_MEMORY,
    "ER_STACK_OVERRUN_NEED_MORE": K.OUT_OF_MEMORY,
    "CR_OUT_OF_MEMORY": K.OUT_OF_MEMORY,
    # client-side connection errors
    "CR_CONNECTION_ERROR": K.CONNECTION_FAILURE,
    "CR_CONN_HOST_ERROR": K.CONNECTION_FAILURE,
    "CR_IPSOCK_ERROR": K.CONNECTION_FAILURE,
    "CR_SOCKET_CREATE_ERROR": K.CONNECTION_FAILURE,
    "CR_SERVER_HANDSHAKE_ERR": K.CONNECTION_FAILURE,
    "CR_SSL_CONNECTION_ERROR": K.CONNECTION_FAILURE,
    "CR_UNKNOWN_HOST": K.CONNECTION_MISCONFIGURED,
    "CR_WRONG_HOST_INFO": K.CONNECTION_MISCONFIGURED,
    "CR_CONN_UNKNOWN_PROTOCOL": K.CONNECTION_MISCONFIGURED,
    "CR_VERSION_ERROR": K.CONNECTION_MISCONFIGURED,
    "CR_SERVER_GONE_ERROR": K.CONNECTION_LOST,
    "CR_SERVER_LOST": K.CONNECTION_LOST,
    "CR_SERVER_LOST_EXTENDED": K.CONNECTION_LOST,
    "CR_ERR_NET_READ": K.CONNECTION_LOST,
    "CR_ERR_NET_WRITE": K.CONNECTION_LOST,
    # "Commands out of sync; you can't run this command now": the client's
    # protocol state is lost (a result not read before the next query), and
    # the connection cannot go on: SQLAlchemy's MySQL dialect counts 2014
    # among its disconnects and discards the connection.
    "CR_COMMANDS_OUT_OF_SYNC": K.CONNECTION_LOST,
    "CR_PARAMS_NOT_BOUND": K.INVALID_PARAMETER,
    "CR_INVALID_PARAMETER_NO": K.INVALID_PARAMETER,
    "CR_INVALID_PARAMETER": K.INVALID_PARAMETER,
    "CR_BULK_WITHOUT_PARAMETERS": K.INVALID_PARAMETER,
    # locks, timeouts, transactions
    "ER_LOCK_WAIT_TIMEOUT": K.LOCK_NOT_AVAILABLE,
    "ER_LOCK_NOWAIT": K.LOCK_NOT_AVAILABLE,
    "ER_LOCK_ABORTED": K.LOCK_NOT_AVAILABLE,
    "ER_LOCK_DEADLOCK": K.DEADLOCK_DETECTED,
    "ER_XA_RBDEADLOCK": K.DEADLOCK_DETECTED,
    "ER_XA_RBTIMEOUT": K.LOCK_NOT_AVAILABLE,
    "ER_XA_RBROLLBACK": K.TRANSACTION_ABORTED,
    "ER_ROLLBACK_ONLY": K.TRANSACTION_ABORTED,
    "ER_TRANSACTION_ROLLBACK_DURING_COMMIT": K.SERIALIZATION_FAILURE,
    "ER_STATEMENT_TIMEOUT": K.STATEMENT_TIMEOUT,
    "ER_QUERY_TIMEOUT": K.STATEMENT_TIMEOUT,
    "ER_QUERY_INTERRUPTED": K.QUERY_CANCELED,
    "ER_NEED_REPREPARE": K.SERIALIZATION_FAILURE,
    # "Record has changed since last read in table '%s'; try restarting
    # transaction": a row another transaction changed after this one read it
    # (InnoDB with innodb_snapshot_isolation, MariaDB 10.6.18+ and the default
    # from 11.6): a write conflict, which the whole transaction, repeated, resolves.
    "ER_CHECKREAD": K.SERIALIZATION_FAILURE,
    # missing objects
    "ER_NO_SUCH_TABLE": K.UNDEFINED_TABLE,
    "ER_BAD_TABLE_ERROR": K.UNDEFINED_TABLE,
    "ER_UNKNOWN_TABLE": K.UNDEFINED_TABLE,
    "ER_UNKNOWN_VIEW": K.UNDEFINED_TABLE,
    "ER_BAD_FIELD_ERROR": K.UNDEFINED_COLUMN,
    "ER_KEY_COLUMN_DOES_NOT_EXIST": K.UNDEFINED_COLUMN,
    "ER_CHECK_CONSTRAINT_REFERS_UNKNOWN_COLUMN": K.UNDEFINED_COLUMN,
    "ER_BAD_DB_ERROR": K.UNDEFINED_DATABASE,
    "ER_DB_DROP_EXISTS": K.UNDEFINED_DATABASE,
    "ER_NO_DB_ERROR": K.UNDEFINED_DATABASE,
    "ER_SP_DOES_NOT_EXIST": K.UNDEFINED_FUNCTION,
    "ER_FUNCTION_NOT_DEFINED": K.UNDEFINED_FUNCTION,
    "ER_FUNC_INEXISTENT_NAME_COLLISION": K.UNDEFINED_FUNCTION,
    "ER_UNKNOWN_PROCEDURE": K.UNDEFINED_FUNCTION,
    "ER_CANT_DROP_FIELD_OR_KEY": K.UNDEFINED_OBJECT,
    "ER_UNKNOWN_ERROR": K.UNKNOWN,
    # objects that exist already
    "ER_TABLE_EXISTS_ERROR": K.DUPLICATE_TABLE,
    "ER_DB_CREATE_EXISTS": K.DUPLICATE_DATABASE,
    "ER_DUP_FIELDNAME": K.DUPLICATE_COLUMN,
    "ER_DUP_KEYNAME": K.DUPLICATE_OBJECT,
    "ER_CHECK_CONSTRAINT_DUP_NAME": K.DUPLICATE_OBJECT,
    "ER_FK_DUP_NAME": K.DUPLICATE_OBJECT,
    "ER_NON_UNIQ_ERROR": K.AMBIGUOUS_COLUMN,
    "ER_WRONG_OBJECT": K.WRONG_OBJECT_TYPE,
    "ER_VIEW_INVALID": K.INVALID_OBJECT_DEFINITION,
    "ER_CANT_CREATE_TABLE": K.INVALID_OBJECT_DEFINITION,
    "ER_CANNOT_ADD_FOREIGN": K.INVALID_OBJECT_DEFINITION,
    "ER_ERROR_ON_RENAME": K.INVALID_OBJECT_DEFINITION,
    # constraints
    "ER_DUP_ENTRY": K.UNIQUE_VIOLATION,
    "ER_DUP_ENTRY_WITH_KEY_NAME": K.UNIQUE_VIOLATION,
    "ER_DUP_KEY": K.UNIQUE_VIOLATION,
    "ER_DUP_UNIQUE": K.UNIQUE_VIOLATION,
    "ER_DUP_UNKNOWN_IN_INDEX": K.UNIQUE_VIOLATION,
    "ER_DUP_ENTRY_AUTOINCREMENT_CASE": K.UNIQUE_VIOLATION,
    "ER_FOREIGN_DUPLICATE_KEY": K.UNIQUE_VIOLATION,
    "ER_FOREIGN_DUPLICATE_KEY_WITH_CHILD_INFO": K.UNIQUE_VIOLATION,
    "ER_FOREIGN_DUPLICATE_KEY_WITHOUT_CHILD_INFO": K.UNIQUE_VIOLATION,
    "ER_ROW_IS_REFERENCED": K.FOREIGN_KEY_VIOLATION,
    "ER_ROW_IS_REFERENCED_2": K.FOREIGN_KEY_VIOLATION,
    "ER_NO_REFERENCED_ROW": K.FOREIGN_KEY_VIOLATION,
    "ER_NO_REFERENCED_ROW_2": K.FOREIGN_KEY_VIOLATION,
    "ER_ROW_IN_WRONG_PARTITION": K.CHECK_VIOLATION,
    "ER_FK_CANNOT_DROP_PARENT": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "ER_FK_COLUMN_CANNOT_DROP": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "ER_FK_COLUMN_CANNOT_DROP_CHILD": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "ER_FK_COLUMN_CANNOT_CHANGE": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "ER_FK_COLUMN_CANNOT_CHANGE_CHILD": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "ER_FK_CANNOT_DELETE_PARENT": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "ER_DROP_INDEX_FK": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "ER_TRUNCATE_ILLEGAL_FK": K.DEPENDENT_OBJECTS_STILL_EXIST,
    "ER_BAD_NULL_ERROR": K.NOT_NULL_VIOLATION,
    "ER_NO_DEFAULT_FOR_FIELD": K.NOT_NULL_VIOLATION,
    "ER_NO_DEFAULT_FOR_VIEW_FIELD": K.NOT_NULL_VIOLATION,
    "ER_CHECK_CONSTRAINT_VIOLATED": K.CHECK_VIOLATION,
    "ER_CONSTRAINT_FAILED": K.CHECK_VIOLATION,
    "ER_VIEW_CHECK_FAILED": K.CHECK_VIOLATION,
    # the statement
    "ER_PARSE_ERROR": K.SYNTAX_ERROR,
    "ER_SYNTAX_ERROR": K.SYNTAX_ERROR,
    "ER_EMPTY_QUERY": K.SYNTAX_ERROR,
    "ER_WRONG_VALUE_COUNT": K.SYNTAX_ERROR,
    "ER_WRONG_VALUE_COUNT_ON_ROW": K.SYNTAX_ERROR,
    "ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT": K.SYNTAX_ERROR,
    "ER_DERIVED_MUST_HAVE_ALIAS": K.SYNTAX_ERROR,
    "ER_WRONG_FIELD_WITH_GROUP": K.GROUPING_ERROR,
    "ER_MIX_OF_GROUP_FUNC_AND_FIELDS": K.GROUPING_ERROR,
    "ER_INVALID_GROUP_FUNC_USE": K.GROUPING_ERROR,
    "ER_WRONG_ARGUMENTS": K.INVALID_PARAMETER,
    "ER_SP_WRONG_NO_OF_ARGS": K.INVALID_PARAMETER,
    "ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT": K.INVALID_PARAMETER,
    "ER_WRONG_PARAMETERS_TO_NATIVE_FCT": K.INVALID_PARAMETER,
    "ER_WRONG_PARAMCOUNT_TO_PROCEDURE": K.INVALID_PARAMETER,
    "ER_WRONG_PARAMETERS_TO_PROCEDURE": K.INVALID_PARAMETER,
    "ER_SUBQUERY_NO_1_ROW": K.CARDINALITY_VIOLATION,
    "ER_OPERAND_COLUMNS": K.CARDINALITY_VIOLATION,
    "ER_SP_FETCH_NO_DATA": K.CARDINALITY_VIOLATION,
    # the data
    "ER_DIVISION_BY_ZERO": K.DIVISION_BY_ZERO,
    "ER_DATA_TOO_LONG": K.STRING_DATA_RIGHT_TRUNCATION,
    "ER_WARN_DATA_OUT_OF_RANGE": K.NUMERIC_VALUE_OUT_OF_RANGE,
    "ER_DATA_OUT_OF_RANGE": K.NUMERIC_VALUE_OUT_OF_RANGE,
    "ER_TRUNCATED_WRONG_VALUE": K.INVALID_TEXT_REPRESENTATION,
    "ER_TRUNCATED_WRONG_VALUE_FOR_FIELD": K.INVALID_TEXT_REPRESENTATION,
    "ER_ILLEGAL_VALUE_FOR_TYPE": K.INVALID_TEXT_REPRESENTATION,
    "ER_WRONG_VALUE_FOR_TYPE": K.INVALID_TEXT_REPRESENTATION,
    "ER_WRONG_VALUE": K.INVALID_TEXT_REPRESENTATION,
    "WARN_DATA_TRUNCATED": K.INVALID_TEXT_REPRESENTATION,
    "ER_WARN_INVALID_TIMESTAMP": K.INVALID_DATETIME_FORMAT,
    "ER_CANT_AGGREGATE_2COLLATIONS": K.DATATYPE_MISMATCH,
    "ER_CANT_AGGREGATE_3COLLATIONS": K.DATATYPE_MISMATCH,
    "ER_CANT_AGGREGATE_NCOLLATIONS": K.DATATYPE_MISMATCH,
    "ER_CANT_CREATE_GEOMETRY_OBJECT": K.INVALID_TEXT_REPRESENTATION,
    "ER_INVALID_JSON_TEXT": K.INVALID_TEXT_REPRESENTATION,
    "ER_INVALID_JSON_TEXT_IN_PARAM": K.INVALID_TEXT_REPRESENTATION,
    # storage
    "ER_CRASHED_ON_USAGE": K.DATA_CORRUPTED,
    "ER_CRASHED_ON_REPAIR": K.DATA_CORRUPTED,
    "ER_NOT_KEYFILE": K.DATA_CORRUPTED,
    "ER_ERROR_ON_READ": K.IO_ERROR,
    "ER_ERROR_ON_WRITE": K.IO_ERROR,
    "ER_ERROR_ON_CLOSE": K.IO_ERROR,
    "ER_CANT_OPEN_FILE": K.IO_ERROR,
    "ER_FILE_NOT_FOUND": K.IO_ERROR,
    "ER_TEMP_FILE_WRITE_FAILURE": K.IO_ERROR,
}

#: Name patterns, tried in order after the overrides.
PATTERNS: Final[tuple[tuple[str, Kind], ...]] = (
    (r"_ACCESS_DENIED|_DENIED_ERROR$|^ER_SPECIFIC_ACCESS_DENIED", K.INSUFFICIENT_PRIVILEGE),
    (r"DEADLOCK", K.DEADLOCK_DETECTED),
    (r"_CORRUPT|CRASHED", K.DATA_CORRUPTED),
    (r"^ER_DUP_ENTRY", K.UNIQUE_VIOLATION),
    (r"ALREADY_EXISTS?$|^ER_DUP_(?:KEYNAME|INDEX|CONSTRAINT_NAME)", K.DUPLICATE_OBJECT),
    (r"DOES_?N[O]?T_EXISTS?(?:_MYSQL)?$|_NOT_EXIST$|^ER_NO_SUCH_|^ER_UNKNOWN_", K.UNDEFINED_OBJECT),
    (
        r"_NOT_SUPPORTED|^ER_UNSUPPORTED_|NOT_IMPLEMENTED|^ER_NOT_SUPPORTED_YET$",
        K.FEATURE_NOT_SUPPORTED,
    ),
    (r"^ER_TOO_MANY_|^ER_TOO_BIG_|^ER_TOO_LONG_", K.CONFIGURATION_LIMIT_EXCEEDED),
    (r"^ER_ILLEGAL_PARAMETER_DATA_TYPE", K.DATATYPE_MISMATCH),
    (r"^ER_NET_(?:READ|WRITE|ERROR|UNCOMPRESS|FCNTL)", K.CONNECTION_LOST),
    (r"^ER_FK_", K.INVALID_OBJECT_DEFINITION),
)

_COMPILED: Final = tuple((re.compile(pattern), kind) for pattern, kind in PATTERNS)
#: Whether any pattern matches: one search for the symbols none does (most of them).
_ANY: Final = re.compile("|".join(f"(?:{pattern})" for pattern, _ in PATTERNS))
#: Symbols that mark a number no longer (or never) raised by that server.
_UNUSED: Final = re.compile(r"^OBSOLETE_|_UNUSED(?:_\d+|\d+)?(?:_|$)|^ER_UNUSED")
#: MySQL retires a number by renaming its symbol ``<SYMBOL>_OLD_UNUSED``: the
#: servers released before keep sending the number with its old meaning
#: (1557, ER_FOREIGN_DUPLICATE_KEY in MySQL 5.1 to 5.5).
RETIRED: Final = "_OLD_UNUSED"


def kind_for(symbol: str) -> Kind:
    """
    The kind of one symbol.

    Args:
        symbol: ``ER_...``, ``WARN_...`` or ``CR_...``.

    Returns:
        The override, else the first pattern's kind, else ``Kind.UNKNOWN``.
    """
    symbol = symbol.removesuffix(RETIRED)
    kind = OVERRIDES.get(symbol)
    if kind is not None:
        return kind
    if _ANY.search(symbol) is not None:
        for pattern, found in _COMPILED:
            if pattern.search(symbol):
                return found
    return K.UNKNOWN


def decide(
    symbols: Mapping[int, tuple[str, str]],
) -> tuple[dict[int, Kind], dict[int, tuple[Kind, Kind]]]:
    """
    The kind of every number, from the symbols the two servers give it.

    A symbol that marks a number unused counts only when the other server
    has none live.

    Args:
        symbols: Number -> (MariaDB's symbol, MySQL's symbol), ``""`` for none.

    Returns:
        Number -> kind where the servers agree (numbers of kind unknown left
        out), and number -> (MariaDB's kind, MySQL's kind) where they differ.
    """
    kinds: dict[int, Kind] = {}
    ambiguous: dict[int, tuple[Kind, Kind]] = {}
    for number, (mariadb, mysql) in symbols.items():
        if mariadb and mysql and mariadb != mysql:
            live = [s for s in (mariadb, mysql) if not _UNUSED.search(s)] or [mariadb, mysql]
        else:
            live = [mariadb or mysql]
        first = kind_for(live[0])
        if len(live) == 2:
            other = kind_for(live[1])
            if other is not first:
                ambiguous[number] = (first, other)
                continue
        if first is not K.UNKNOWN:
            kinds[number] = first
    return kinds, ambiguous
