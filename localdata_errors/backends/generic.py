"""
The generic keyword fallback: classifies any message by whole words and phrases.

It answers when no backend is known, and when a backend's table has no row
for a code.  It matches *words*, never substrings: the message is split into
lower-case words once, and each rule is a phrase that must appear as
consecutive words.  So "clock skew" is not a lock, "select fullname" is not
"disk full", "nearby" is not "near", and "end of transaction block" is not a
lock either.  The cost is one pass of a linear regular expression plus a few
substring tests on the normalised text: no backtracking, whatever the input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from localdata_errors._kinds import Kind, RetrySafety
from localdata_errors._lazy import LazyPattern
from localdata_errors._mapper import BackendMapper, ErrorInput, MappedError, new_mapped_error
from localdata_errors._names import column_reference, split_qualified, unique, unqualify_parts
from localdata_errors._prisma_kinds import prisma_kind

__all__ = [
    "GENERIC_MAPPER",
    "POOL_KINDS",
    "GenericMapper",
    "generic_answer",
    "keyword_answer",
    "keyword_kind",
    "normalise_words",
]


_WORD: Final = LazyPattern(r"[0-9a-z_]+")

# The rules, highest priority first.  Each phrase is written naturally and
# normalised to words the same way messages are ("doesn't" -> "doesn t").
_RULES: Final[Sequence[tuple[Kind, tuple[str, ...]]]] = (
    (
        Kind.TRANSACTION_ABORTED,
        (
            "current transaction is aborted",
            "in failed sql transaction",
            "transaction is aborted",
            "transaction has been aborted",
        ),
    ),
    (Kind.DEADLOCK_DETECTED, ("deadlock", "deadlocked", "deadlock detected")),
    (
        Kind.SERIALIZATION_FAILURE,
        (
            "could not serialize access",
            "serialization failure",
            "write conflict",
            "transaction conflict",
            "conflict on tuple",
        ),
    ),
    # Operating-system error names that name their cause in any language, as
    # Node (libuv), Go and Rust print them: "connect ECONNREFUSED 127.0.0.1:3306",
    # "getaddrinfo ENOTFOUND db", "read ECONNRESET"
    # (https://nodejs.org/api/errors.html#common-system-errors); and the
    # connect-phase wordings of the drivers that say nothing was sent: MySQL
    # Connector/J's "The driver has not received any packets from the
    # server", CR_CONNECTION_ERROR's "Can't connect to local MySQL server
    # through socket" (no server listening there), Go's "dial unix ...:
    # connect: no such file or directory" (the same, said by the system).
    (
        Kind.CONNECTION_FAILURE,
        (
            "econnrefused",
            "ehostunreach",
            "enetunreach",
            "connect etimedout",
            "driver has not received any packets from the server",
            "can t connect to local mysql server through socket",
            "connect no such file or directory",
        ),
    ),
    (Kind.CONNECTION_MISCONFIGURED, ("getaddrinfo enotfound", "eai_noname")),
    (Kind.CONNECTION_LOST, ("econnreset", "epipe")),
    # The noun before a missing object's name says what is missing, whatever
    # the name is: 'relation "role" does not exist' is a table, 'column "user"
    # does not exist' a column (not a login's role or user, below).
    # PostgreSQL names the table an object belongs to: "column "x" of relation
    # "t" does not exist" (ALTER TABLE ... DROP COLUMN), "constraint "c" of
    # relation "t"" / "for table "t"" (DROP, RENAME, VALIDATE CONSTRAINT),
    # "trigger ... for table", "rule ... for relation", "policy ... for table":
    # the object is missing, not the table (its 42703 and 42704).
    (Kind.UNDEFINED_COLUMN, ("column * of relation * does not exist",)),
    (
        Kind.UNDEFINED_OBJECT,
        (
            "constraint * of relation * does not exist",
            "constraint * for table * does not exist",
            "trigger * for table * does not exist",
            "rule * for relation * does not exist",
            "policy * for table * does not exist",
        ),
    ),
    (Kind.UNDEFINED_TABLE, ("relation * does not exist", "table * does not exist")),
    (Kind.UNDEFINED_COLUMN, ("column * does not exist",)),
    # Snowflake's "Object 'X' does not exist or not authorized" (002003,
    # SQLSTATE 42S02): a missing object first, whatever its privileges.
    (Kind.UNDEFINED_OBJECT, ("does not exist or not authorized",)),
    (
        Kind.INVALID_PASSWORD,
        (
            "password authentication failed",
            "invalid password",
            "wrong password",
            "incorrect password",
            "invalid username password",
            "invalid username or password",
            "access denied for user",
            "login failed for user",
            "authentication failed",
            "bad password",
        ),
    ),
    (
        Kind.INVALID_AUTHORIZATION,
        (
            "account is locked",
            "account locked",
            "account has expired",
            "password has expired",
            "password expired",
            "role does not exist",
            "user does not exist",
            "no pg_hba conf entry",
            "host is not allowed to connect",
            "role * does not exist",
            "user * does not exist",
        ),
    ),
    (
        Kind.TOO_MANY_CONNECTIONS,
        (
            "too many connections",
            "too many clients",
            "connection limit exceeded",
            "too many connections for role",
            # PostgreSQL's 53300 for the last slots (14-17, every wording).
            "remaining connection slots are reserved for",
            "pool limit",
            "queuepool limit",
            "connection pool exhausted",
            "pool exhausted",
        ),
    ),
    # getaddrinfo's EAI_AGAIN: the resolver did not answer, which says nothing
    # about the name (the same call may succeed once it does), whatever frame
    # ("could not translate host name ...") is around it.
    (Kind.CONNECTION_FAILURE, ("temporary failure in name resolution",)),
    (
        Kind.CONNECTION_MISCONFIGURED,
        (
            "unknown host",
            "could not translate host name",
            "name or service not known",
            "nodename nor servname provided",
            "no such host",
            "unable to open database file",
            "could not resolve host",
            "unknown mysql server host",
            "no such file or directory",
        ),
    ),
    (
        Kind.ADMIN_SHUTDOWN,
        (
            "terminating connection due to administrator command",
            "database system is shutting down",
            "database system is starting up",
            "server is shutting down",
            "shutdown in progress",
            "server shutdown in progress",
        ),
    ),
    (
        Kind.CONNECTION_LOST,
        (
            "server closed the connection",
            "connection reset",
            "connection was reset",
            "connection closed",
            "connection is closed",
            "connection already closed",
            "connection lost",
            "lost connection",
            "server has gone away",
            "broken pipe",
            "connection was killed",
            # ODBC's 08S01 "Communication link failure" and Connector/J's
            # CommunicationsException: the link failed under an open connection.
            "communication link failure",
            "communications link failure",
            "connection was closed",
            "connection has been closed",
            "connection not open",
            "connection terminated",
            "connection was terminated",
            "connection aborted",
            "ssl connection has been closed unexpectedly",
            "cannot operate on a closed database",
            "not connected",
            # A socket's read or write that got no answer: mid-statement.
            "read timed out",
            "operation timed out",
        ),
    ),
    (
        Kind.CONNECTION_FAILURE,
        (
            "connection refused",
            "could not connect",
            "can t connect",
            "cannot connect",
            "unable to connect",
            "failed to connect",
            "connection failed",
            "connection timed out",
            "connect timed out",
            "timed out connecting",
            "connection attempt timed out",
            "connect timeout",
            "connection not found in pool",
            "connection not found",
            "no route to host",
            "network is unreachable",
            "host is unreachable",
            "ssl error",
            "ssl handshake",
            "ssl syscall error",
            "connection error",
            "unable to establish connection",
            "could not establish connection",
            # Oracle's JDBC driver: "IO Error: The Network Adapter could not
            # establish the connection" (its ORA-17002, printed without the number).
            "could not establish the connection",
            # SqlClient's "A network-related or instance-specific error occurred
            # while establishing a connection to SQL Server".
            "error occurred while establishing a connection",
            # mssql-jdbc's "The TCP/IP connection to the host h, port 1433 has
            # failed", "The connection to the host h, named instance i failed";
            # PgJDBC's "Connection to 127.0.0.1:5433 refused".
            "connection to the host * failed",
            "connection to the host * has failed",
            "connection to * refused",
        ),
    ),
    (
        Kind.READ_ONLY,
        (
            "read only transaction",
            "readonly database",
            "read only database",
            "attempt to write a readonly database",
            "read only mode",
            "is read only",
            "database is read only",
            "read only",
            "readonly",
        ),
    ),
    (
        Kind.INSUFFICIENT_PRIVILEGE,
        (
            "permission denied",
            "insufficient privilege",
            "insufficient privileges",
            "not authorized",
            "access denied",
            "command denied",
            "privilege",
            "privileges",
            "unauthorized",
        ),
    ),
    (
        Kind.DATABASE_LOCKED,
        (
            "database is locked",
            "database table is locked",
            "table is locked",
            "database is busy",
            "could not set lock on file",
            "conflicting lock is held",
        ),
    ),
    (
        Kind.LOCK_NOT_AVAILABLE,
        (
            "lock wait timeout",
            "lock request time out",
            "lock timeout",
            "could not obtain lock",
            "lock not available",
            "resource busy",
            "could not obtain a lock",
            "lock timed out",
        ),
    ),
    (
        Kind.STATEMENT_TIMEOUT,
        (
            "statement timeout",
            "query timeout",
            "canceling statement due to statement timeout",
            "maximum statement execution time exceeded",
            "execution time exceeded",
            "timed out",
            "timeout expired",
            "timeout",
            "time out",
        ),
    ),
    (
        Kind.QUERY_CANCELED,
        (
            "interrupted",
            "canceling statement due to user request",
            "query was canceled",
            "query canceled",
            "operation cancelled",
            "operation canceled",
            "query execution was interrupted",
        ),
    ),
    (
        Kind.OUT_OF_MEMORY,
        (
            "out of memory",
            "memory limit",
            "cannot allocate memory",
            "could not allocate",
            "memoryerror",
            "insufficient memory",
            "out of shared memory",
        ),
    ),
    (
        Kind.DISK_FULL,
        (
            "disk full",
            "disk is full",
            "database or disk is full",
            "no space left on device",
            "disk quota exceeded",
            "could not extend file",
            "tablespace is full",
        ),
    ),
    # A quota of the account or project, used up (BigQuery's quotaExceeded:
    # "Quota exceeded: Your project exceeded quota for ...").
    (Kind.QUOTA_EXCEEDED, ("quota exceeded", "exceeded quota")),
    (
        Kind.DATA_CORRUPTED,
        (
            "database disk image is malformed",
            "file is not a database",
            "data corrupted",
            "corrupt",
            "corrupted",
            "checksum mismatch",
        ),
    ),
    (Kind.IO_ERROR, ("disk i o error", "i o error", "io error", "input output error")),
    (
        Kind.FOREIGN_KEY_VIOLATION,
        (
            "foreign key constraint",
            "foreign key violation",
            "foreign key mismatch",
            "violates foreign key",
            "referential integrity",
            "child record found",
            "parent key not found",
            "foreign key",
        ),
    ),
    (
        Kind.DEPENDENT_OBJECTS_STILL_EXIST,
        (
            "other objects depend on it",
            "depends on",
            "is referenced by",
            "dependent objects",
            "still referenced",
            "cannot drop",
        ),
    ),
    (
        Kind.UNIQUE_VIOLATION,
        (
            "unique constraint",
            "duplicate key",
            "duplicate entry",
            "unique violation",
            "violates unique",
            "primary key constraint",
            "not unique",
            "already exists in index",
            "duplicate value",
        ),
    ),
    (
        Kind.NOT_NULL_VIOLATION,
        (
            "not null constraint",
            "null value in column",
            "cannot be null",
            "cannot insert null",
            "may not be null",
            "must not be null",
            "not null violation",
            "cannot insert the value null",
        ),
    ),
    (Kind.CHECK_VIOLATION, ("check constraint", "violates check")),
    (Kind.EXCLUSION_VIOLATION, ("exclusion constraint",)),
    (
        Kind.UNDEFINED_TABLE,
        (
            "no such table",
            "unknown table",
            "invalid object name",
            "table or view does not exist",
            "table * doesn t exist",
            "table not found",
            "base table or view not found",
            "undefined table",
        ),
    ),
    (
        Kind.UNDEFINED_COLUMN,
        (
            "no such column",
            "unknown column",
            "invalid column name",
            "column not found",
            "invalid identifier",
            "undefined column",
        ),
    ),
    (
        Kind.UNDEFINED_FUNCTION,
        (
            "no such function",
            "unknown function",
            "function does not exist",
            "undefined function",
            "is not a recognized built in function name",
            "function * does not exist",
        ),
    ),
    (
        Kind.UNDEFINED_DATABASE,
        (
            "unknown database",
            "database * does not exist",
            "cannot open database",
            "database not found",
        ),
    ),
    (Kind.UNDEFINED_SCHEMA, ("schema * does not exist", "unknown schema", "no such schema")),
    (Kind.DUPLICATE_TABLE, ("table * already exists", "relation * already exists")),
    (Kind.DUPLICATE_COLUMN, ("duplicate column", "column * already exists")),
    (Kind.DUPLICATE_DATABASE, ("database exists", "database * already exists")),
    (Kind.DUPLICATE_SCHEMA, ("schema * already exists",)),
    (Kind.DUPLICATE_OBJECT, ("already exists",)),
    (Kind.UNDEFINED_OBJECT, ("does not exist", "doesn t exist", "not found", "no such")),
    (Kind.AMBIGUOUS_COLUMN, ("ambiguous", "ambiguously")),
    (
        Kind.DIVISION_BY_ZERO,
        (
            "division by zero",
            "divide by zero",
            "divided by zero",
            "divisor is zero",
        ),
    ),
    (Kind.NUMERIC_VALUE_OUT_OF_RANGE, ("out of range", "overflow", "arithmetic overflow")),
    (
        Kind.STRING_DATA_RIGHT_TRUNCATION,
        (
            "too long",
            "value too large",
            "would be truncated",
            "string data right truncation",
            "data truncated",
        ),
    ),
    (
        Kind.INVALID_DATETIME_FORMAT,
        (
            "invalid date",
            "invalid time",
            "invalid timestamp",
            "date time field value out of range",
            "not a valid month",
            "literal does not match format string",
        ),
    ),
    (
        Kind.INVALID_TEXT_REPRESENTATION,
        (
            "invalid input syntax",
            "invalid input value",
            "could not convert",
            "conversion failed",
            "invalid number",
            "incorrect integer value",
            "incorrect decimal value",
            "invalid literal",
            "conversion error",
            # Python's UnicodeEncodeError / UnicodeDecodeError inside a driver
            # call: a value the connection's encoding cannot carry, as the
            # server's own 22P05 and 22021 say of it.
            "codec can t encode",
            "codec can t decode",
        ),
    ),
    (Kind.DATATYPE_MISMATCH, ("datatype mismatch", "type mismatch", "operator does not exist")),
    (
        Kind.INVALID_PARAMETER,
        (
            "incorrect number of bindings",
            "wrong number of arguments",
            "wrong number of parameters",
            "number of parameters",
            "not all arguments converted",
            "bind parameter",
            "invalid parameter",
            "missing parameter",
        ),
    ),
    (Kind.CARDINALITY_VIOLATION, ("more than one row", "subquery returns more than 1 row")),
    (Kind.FEATURE_NOT_SUPPORTED, ("not supported", "not implemented", "unsupported")),
    (Kind.GROUPING_ERROR, ("group by clause", "must appear in the group by")),
    (
        Kind.SYNTAX_ERROR,
        (
            "syntax error",
            "error in your sql syntax",
            "parse error",
            "parser error",
            "incomplete input",
            "unexpected token",
            "unexpected end",
            "incorrect syntax",
            "missing keyword",
            "unrecognized token",
            "near",
        ),
    ),
)


# A connection pool's own texts (`_pool_messages`, generated from each
# pool's source) come before every rule: a pool that gave no connection in
# time says "timed out" of its wait, not of a statement, and nothing reached
# the server.  What each meaning is:
#: A pool text's meaning -> its kind, and its retry safety where the kind's is not it.
POOL_KINDS: Final[dict[str, tuple[Kind, RetrySafety | None]]] = {
    # No connection within the timeout, or none free and no more may wait:
    # the server was never asked (the Kind table: retry after a back-off, safe).
    "acquire_timeout": (Kind.TOO_MANY_CONNECTIONS, None),
    "pool_exhausted": (Kind.TOO_MANY_CONNECTIONS, None),
    # The program closed its pool (or never opened it): as python-oracledb's
    # ERR_POOL_NOT_OPEN and node-oracledb's ERR_POOL_CLOSED, a connection that
    # is gone (`reconnect`: a new pool), but closed on the client side, so
    # nothing was sent (`safe`, as a closed connection used again).
    "pool_closed": (Kind.CONNECTION_LOST, RetrySafety.SAFE),
}


def normalise_words(text: str) -> str:
    """
    Lower-case *text*, keep its words, and join them with single spaces,
    padded with one space on each side: ``" a b c "``.
    """
    return " " + " ".join(_WORD.get().findall(text.lower())) + " "


# A "*" in a phrase stands for up to this many characters of other words
# (typically the object's name): "table * does not exist".
_GAP: Final = 96

_Phrase = tuple[str, ...]


def _compile(phrase: str) -> _Phrase:
    # Each part is padded so that "in" / find on the padded text tests whole words.
    return tuple(normalise_words(part) for part in phrase.split("*"))


def _matches(parts: _Phrase, words: str) -> bool:
    first = parts[0]
    if len(parts) == 1:
        return first in words
    start = words.find(first)
    while start >= 0:
        pos = start + len(first) - 1
        for part in parts[1:]:
            found = words.find(part, pos, pos + _GAP + len(part))
            if found < 0:
                break
            pos = found + len(part) - 1
        else:
            return True
        start = words.find(first, start + 1)
    return False


#: An indexed phrase: its priority, its kind, its parts, its retry safety (`None`: the kind's).
_Entry = tuple[int, Kind, _Phrase, RetrySafety | None]


def _rules() -> list[tuple[int, Kind, str, RetrySafety | None]]:
    """Every rule's phrases with their priorities: the pools' texts first, then `_RULES`."""
    from localdata_errors.backends._pool_messages import PHRASES  # noqa: PLC0415 - on first use

    # Each meaning a priority of its own, in `POOL_KINDS`' order, before `_RULES`' 0.
    priorities = {meaning: n - len(POOL_KINDS) for n, meaning in enumerate(POOL_KINDS)}
    pools = [
        (priorities[meaning], *POOL_KINDS[meaning], phrase)
        for phrase, (_, meaning) in PHRASES.items()
    ]
    return [(priority, kind, phrase, safety) for priority, kind, safety, phrase in pools] + [
        (priority, kind, phrase, None)
        for priority, (kind, phrases) in enumerate(_RULES)
        for phrase in phrases
    ]


def _index() -> dict[str, tuple[_Entry, ...]]:
    # Each phrase is filed under its rarest word (across all phrases), so a
    # message only tests the few phrases that share such a word with it: the
    # cost follows the message's length, not the number of rules.
    compiled = [
        (priority, kind, _compile(phrase), safety) for priority, kind, phrase, safety in _rules()
    ]
    frequency: dict[str, int] = {}
    for _, _, parts, _ in compiled:
        for word in " ".join(parts).split():
            frequency[word] = frequency.get(word, 0) + 1
    index: dict[str, list[_Entry]] = {}
    for entry in compiled:
        key = min(" ".join(entry[2]).split(), key=lambda w: (frequency[w], -len(w)))
        index.setdefault(key, []).append(entry)
    return {word: tuple(entries) for word, entries in index.items()}


# Built by the first keyword_kind() call: importing the package stays cheap.
_INDEX: dict[str, tuple[_Entry, ...]] = {}


def _build_index() -> dict[str, tuple[_Entry, ...]]:
    _INDEX.update(_index())
    return _INDEX


def keyword_answer(text: str) -> tuple[Kind, RetrySafety | None]:
    """
    Return the `Kind` the keyword rules give *text*, and the rule's retry safety.

    Args:
        text: Any message.

    Returns:
        The kind of the first rule (by priority) any of whose phrases occurs
        in *text* as whole words (``Kind.UNKNOWN`` when none does), and the
        retry safety that rule states where its kind's is not it (a closed
        pool's text: `RetrySafety.SAFE`), else `None`.
    """
    tokens = _WORD.get().findall(text.lower())
    words = " " + " ".join(tokens) + " "
    best_priority = len(_RULES)
    best = Kind.UNKNOWN
    best_safety: RetrySafety | None = None
    index = _INDEX or _build_index()
    for token in set(tokens):
        entries = index.get(token)
        if entries is None:
            continue
        for priority, kind, phrase, safety in entries:
            if priority >= best_priority:
                continue
            # Most phrases have no gap: test those inline, without a call.
            if phrase[0] in words if len(phrase) == 1 else _matches(phrase, words):
                best_priority, best, best_safety = priority, kind, safety
    return best, best_safety


def keyword_kind(text: str) -> Kind:
    """
    Return the `Kind` the keyword rules give *text*, or ``Kind.UNKNOWN``.

    Args:
        text: Any message.

    Returns:
        The kind of the first rule (by priority) any of whose phrases occurs
        in *text* as whole words.
    """
    return keyword_answer(text)[0]


# The nouns that introduce a name ("table orders", "column \"x\""), and the
# name that follows one: quoted, or bare and possibly dotted.
_NOUNS: Final = (
    "table",
    "relation",
    "view",
    "column",
    "function",
    "index",
    "database",
    "schema",
    "constraint",
    "trigger",
    "rule",
    "policy",
)
# Compiled on first use, as every pattern of the fallback's names: a driver's
# error with a code rarely comes here, and `import localdata_errors` stays cheap.
_NAME_AFTER: Final = LazyPattern(
    r"""\s{1,4}(?P<name>"(?:[^"]|""){1,128}"|`(?:[^`]|``){1,128}`|'[^']{1,128}'|\[[^\]]{1,128}\]
        |[A-Za-z_][\w$]{0,127}(?:\.[A-Za-z_][\w$]{0,127}){0,3})""",
    re.VERBOSE,
)
_NOT_NAMES: Final = frozenset(
    {
        "or",
        "and",
        "does",
        "doesn",
        "is",
        "not",
        "already",
        "with",
        "in",
        "on",
        "of",
        "the",
        "name",
        "a",
        "an",
        "to",
        "has",
        "exists",
        "violates",
        "constraint",
        "failed",
        "for",
    }
)
_NAME_WINDOW: Final = 2048
# The words of a foreign-key message that name the table on the other side
# of the key (PostgreSQL's DETAIL): the parent a child row needs, the child
# that still references a parent row.
_OTHER_TABLE: Final = LazyPattern(
    r"""(?:is\ not\ present\ in|is\ still\ referenced\ from)\ table""" + _NAME_AFTER.pattern,
    re.VERBOSE,
)


def _parts(raw: str) -> list[str]:
    """The parts of a name; a qualified name in one pair of quotes is split too."""
    parts = split_qualified(raw)
    if len(parts) == 1 and raw[:1] in "\"'" and "." in parts[0]:
        # Engines print a qualified name as the statement wrote it, inside one
        # pair of quotes: PostgreSQL's "shop.orders", MySQL's 'shop.orders'.
        parts = [part for part in parts[0].split(".") if part]
    return parts or [raw]


def _other_table(text: str) -> tuple[str, ...]:
    """The table on the other side of a foreign key, where the message says which."""
    match = _OTHER_TABLE.get().search(text, 0, _NAME_WINDOW)
    if match is None:
        return ()
    return (_parts(match.group("name"))[-1],)


def _named_objects(text: str) -> list[tuple[int, str, str]]:
    """(position, noun, raw name) for each noun followed by a name, in text order."""
    head = text[:_NAME_WINDOW]
    lower = head.lower()
    found: list[tuple[int, str, str]] = []
    name_after = _NAME_AFTER.get()
    for noun in _NOUNS:
        start = lower.find(noun)
        while start >= 0:
            end = start + len(noun)
            # Whole words only: "tables" and "subtable" introduce nothing.
            if (start == 0 or not lower[start - 1].isalnum()) and (
                end == len(lower) or not lower[end].isalnum()
            ):
                match = name_after.match(head, end)
                if match is not None:
                    found.append((start, noun, match.group("name")))
            start = lower.find(noun, end)
    found.sort()
    return found


class GenericMapper(BackendMapper):
    """
    Keyword fallback for any backend.
    """

    name = "generic"
    display_name = "Generic (keyword fallback)"

    def map_error(self, error: ErrorInput) -> MappedError:
        """
        Classify by keywords; name the first quoted or bare object after its noun.

        An ORM's own code (Prisma's `P1001`, which the text reader keeps where
        no backend's code is printed) says its kind where it is decided
        (`localdata_errors._prisma_kinds`), before the keywords.
        """
        kind, safety = keyword_answer(error.message)
        decided = prisma_kind(error.code)
        if decided is not None:
            kind, safety = decided, None
        names: list[str] = []
        dependencies: tuple[str, ...] = ()
        schema: str | None = None
        constraint: str | None = None
        if kind is not Kind.UNKNOWN:
            for _, noun, raw in _named_objects(error.message):
                parts = _parts(raw)
                if noun == "column":
                    # "column c.x": c is a table or an alias, never a schema.
                    obj, table, qualifier = column_reference(parts)
                else:
                    obj, qualifier = unqualify_parts(parts)
                    table = None
                if obj.lower() in _NOT_NAMES:
                    continue
                if noun == "constraint":
                    constraint = constraint or obj
                schema = schema or qualifier
                names.append(obj)
                if table is not None:
                    names.append(table)
                if len(names) >= 4:
                    break
            if kind is Kind.FOREIGN_KEY_VIOLATION:
                dependencies = _other_table(error.message)
        code = None if error.code is None else str(error.code)
        return new_mapped_error(
            kind,
            code=code,
            affected_resources=unique(names) if names else (),
            dependencies=dependencies,
            constraint=constraint,
            schema=schema,
            retry_safety=safety,
        )


GENERIC_MAPPER: Final = GenericMapper()


def generic_answer(error: ErrorInput) -> MappedError:
    """
    The keyword fallback's answer: the kind its rules give the text, and the names.

    Args:
        error: The mapper's input.

    Returns:
        Never `None`; `Kind.UNKNOWN` when no rule matches.
    """
    return GENERIC_MAPPER.map_error(error)
