"""
PostgreSQL backend: every SQLSTATE, through psycopg 3, psycopg2, asyncpg and pg8000.

Recognises the exceptions of psycopg 3 (and ``psycopg_pool``), psycopg2 and
asyncpg, directly or wrapped by SQLAlchemy.  The SQLSTATE (``sqlstate`` on
psycopg 3 and asyncpg, ``pgcode`` on psycopg2) is the code: it is looked up
in a table generated from PostgreSQL's own ``errcodes.txt``
(`localdata_errors.backends._postgresql_codes`, loaded on first use)
and given the kind decided in `localdata_errors.backends._postgresql_kinds`,
with a lenient fallback by SQLSTATE class for codes newer than the table.
Errors the client library raises without a SQLSTATE (refused or lost
connections, unknown hosts, bad passwords at connect, exhausted pools,
parameter-count mistakes) are recognised by their messages.

The names involved come from the server's diagnostics first (psycopg's
``diag``, asyncpg's attributes: table, column, constraint, schema, detail,
context) and from the message second, including the direction of a foreign
key: the referenced table for a child row, the referencing table for a
parent that cannot be deleted, dropped or truncated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final, NamedTuple, TypeVar

from localdata_errors._backends import BACKENDS
from localdata_errors.backends._postgresql_kinds import (
    BY_MESSAGE,
    CLASS_KINDS,
    KINDS,
    REFINE_CATEGORIES,
)
from localdata_errors.kinds import KIND_TABLE, ErrorCategory, Kind, RetrySafety
from localdata_errors.mapper import BackendMapper, ErrorInput, MappedError, driver_attr
from localdata_errors.names import column_reference, split_qualified, unique

__all__ = [
    "PostgreSQLMapper",
    "condition_name",
    "kind_for_sqlstate",
    "lookup",
    "read_sqlstate",
]


# -- the code table (generated facts and hand-written kinds, joined on first use) ---

_CODES: dict[str, tuple[str, Kind]] | None = None


def _codes() -> dict[str, tuple[str, Kind]]:
    """SQLSTATE -> (condition name, kind) for every code PostgreSQL lists."""
    global _CODES  # noqa: PLW0603 - a lazily filled, read-only table
    if _CODES is None:
        from localdata_errors.backends._postgresql_codes import CONDITIONS  # noqa: PLC0415 - lazy

        _CODES = {
            code: (name, KINDS[code] if code in KINDS else CLASS_KINDS.get(code[:2], Kind.UNKNOWN))
            for code, name in CONDITIONS.items()
        }
    return _CODES


_CLASSES: frozenset[str] = frozenset()


def _classes() -> frozenset[str]:
    global _CLASSES  # noqa: PLW0603 - a lazily filled, read-only cache
    if not _CLASSES:
        _CLASSES = frozenset(code[:2] for code in _codes())
    return _CLASSES


def lookup(sqlstate: str) -> Kind:
    """
    The kind of a SQLSTATE listed in PostgreSQL's ``errcodes.txt`` (strict).

    Args:
        sqlstate: A five-character SQLSTATE.

    Returns:
        Its kind; ``Kind.UNKNOWN`` for codes no kind fits (warnings, cursor
        and routine errors, ...).

    Raises:
        KeyError: When the code is not in the table.
    """
    return _codes()[sqlstate][1]


def condition_name(sqlstate: str) -> str | None:
    """
    PostgreSQL's condition name of a SQLSTATE (``42P01`` -> ``undefined_table``).

    Args:
        sqlstate: A five-character SQLSTATE.

    Returns:
        The name, or ``None`` for a code not in the table.
    """
    entry = _codes().get(sqlstate)
    return None if entry is None else entry[0]


_REFINE_BY_CATEGORY: Final[dict[ErrorCategory, frozenset[Kind]]] = {
    category: frozenset(
        kind
        for kind, info in KIND_TABLE.items()
        if info.category in REFINE_CATEGORIES.get(category, frozenset({category}))
    )
    for category in ErrorCategory
}


def _special(sqlstate: str, message: str) -> Kind | None:
    rules = BY_MESSAGE.get(sqlstate) or BY_MESSAGE.get(sqlstate[:2])
    if rules is not None:
        for phrase, at_start, kind in rules:
            if message.startswith(phrase) if at_start else phrase in message:
                return kind
    return None


def kind_for_sqlstate(sqlstate: str, message: str = "") -> Kind:
    """
    The kind of any SQLSTATE (lenient): the table, else the code's class.

    Args:
        sqlstate: A five-character SQLSTATE.
        message: The primary message; makes a few codes precise (57014
            statement timeout vs. cancel).

    Returns:
        The kind; `Kind.UNKNOWN` when neither the code nor its class is known.
    """
    return _lookup(sqlstate, message)[0]


def _lookup(sqlstate: str, message: str) -> tuple[Kind, frozenset[Kind] | None]:
    """The code's kind, and the kinds the keyword fallback may refine it into."""
    entry = _codes().get(sqlstate)
    if entry is not None:
        return _special(sqlstate, message) or entry[1], None
    fallback = CLASS_KINDS.get(sqlstate[:2])
    if fallback is None:
        return Kind.UNKNOWN, None
    return fallback, _REFINE_BY_CATEGORY[KIND_TABLE[fallback].category]


# -- reading the exception ------------------------------------------------------

_SQLSTATE = re.compile(r"[0-9A-Z]{5}")
# "SQLSTATE 42P01", "sqlstate: 42P01", "SQLSTATE[42P01]" as logs and tools print it.
_SQLSTATE_IN_TEXT = re.compile(r"(?i:sqlstate)\W{0,3}([0-9A-Z]{5})\b")


def _valid_sqlstate(value: object) -> str | None:
    if isinstance(value, str) and len(value) == 5 and _SQLSTATE.fullmatch(value):
        return value
    return None


def read_sqlstate(error: ErrorInput) -> str | None:
    """
    The SQLSTATE of an error, validated (five characters, digits or capitals).

    Args:
        error: The mapper's input: ``sqlstate`` (psycopg 3, asyncpg) or
            ``pgcode`` (psycopg2) on the exception, pg8000's `C` field,
            else the explicit
            ``code``, else a ``SQLSTATE xxxxx`` in the message.

    Returns:
        The SQLSTATE, or ``None``.
    """
    exc = error.exception
    if exc is not None:
        code = _attr_sqlstate(exc)
        if code is not None:
            return code
    code = _valid_sqlstate(error.code)
    if code is not None:
        return code
    if "sqlstate" in error.message[:4096].lower():
        match = _SQLSTATE_IN_TEXT.search(error.message, 0, 4096)
        # Only a code of a known class: "SQLSTATE: ERROR" names no code.
        if match is not None and match.group(1)[:2] in _classes():
            return match.group(1)
    return None


def _attr_sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE the driver put on the exception (psycopg, psycopg2, asyncpg, pg8000)."""
    codes = _codes()
    for attr in ("sqlstate", "pgcode"):
        try:
            value = getattr(exc, attr, None)
        except Exception:  # noqa: BLE001, S112 - a failing attribute reads as absent
            continue
        if value is None:
            continue
        # A listed code is valid by being listed (one probe); else check its form.
        if type(value) is str and value in codes:
            return value
        code = _valid_sqlstate(value)
        if code is not None:
            return code
    fields = _pg8000_dict(exc)
    return None if fields is None else _valid_sqlstate(fields.get("C"))


def _pg8000_dict(exc: BaseException) -> dict[object, object] | None:
    """pg8000's server fields: one dict in `args[0]` ({"C": "42P01", "M": ...})."""
    args = driver_attr(exc, "args", ())
    if isinstance(args, tuple) and args and isinstance(args[0], dict):
        return args[0]
    return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


class Diagnostics(NamedTuple):
    """
    The server's structured fields, as the driver exposes them.

    Args:
        primary: The primary message (the first line).
        detail: The DETAIL field.
        context: The CONTEXT field.
        table: The table (``table_name``).
        column: The column (``column_name``).
        constraint: The constraint (``constraint_name``).
        schema: The schema (``schema_name``).
        datatype: The data type or domain (``datatype_name``).
    """

    primary: str
    detail: str | None = None
    context: str | None = None
    table: str | None = None
    column: str | None = None
    constraint: str | None = None
    schema: str | None = None
    datatype: str | None = None


_FIELD_LABELS: Final = (
    "\nHINT:  ",
    "\nCONTEXT:  ",
    "\nLINE ",
    "\nQUERY:  ",
    "\nSTATEMENT:  ",
    "\nLOCATION:  ",
    "\nDETAIL:  ",
)
_FIELD_LIMIT: Final = 4096


def _field_line(message: str, label: str) -> str | None:
    """
    The text of libpq's ``DETAIL:`` (or ``CONTEXT:``) field inside *message*.

    A field runs over several lines (2BP01 lists one dependent per line) up
    to the next labelled field.
    """
    start = message.find(label, 0, 16384)
    if start < 0:
        return None
    start += len(label)
    stop = min(len(message), start + _FIELD_LIMIT)
    for other in _FIELD_LABELS:
        end = message.find(other, start, stop)
        if end >= 0:
            stop = end
    return message[start:stop].rstrip()


def read_diagnostics(exc: BaseException | None, message: str) -> Diagnostics:
    """
    Read the server's diagnostics from *exc* and the message's lines.

    psycopg 3 and psycopg2 expose ``exc.diag.table_name`` etc. and repeat
    DETAIL and CONTEXT in the message; asyncpg puts ``table_name``,
    ``detail``, ``context`` ... on the exception itself; pg8000 keeps the
    protocol's fields in ``args[0]``.  Any attribute of the wrong type is
    ignored.

    Args:
        exc: The driver's exception, or ``None``.
        message: The error text.

    Returns:
        The fields found.
    """
    server = None if exc is None else _pg8000_dict(exc)
    if server is not None:
        fields = _pg8000_fields(server)
        if fields is not None:
            return fields
    newline = message.find("\n")
    if newline < 0:
        primary = (message if len(message) <= 2048 else message[:2048]).strip()
        detail = context = None
    else:
        primary = message[: min(newline, 2048)].strip()
        detail = _field_line(message, "\nDETAIL:  ")
        context = _field_line(message, "\nCONTEXT:  ")
    if exc is None:
        return Diagnostics(primary=primary, detail=detail, context=context)
    diag = driver_attr(exc, "diag")
    if diag is None:  # asyncpg: the fields are the exception's own attributes
        return Diagnostics(
            primary=primary,
            detail=_text(driver_attr(exc, "detail")) if detail is None else detail,
            context=_text(driver_attr(exc, "context")) if context is None else context,
            table=_text(driver_attr(exc, "table_name")),
            column=_text(driver_attr(exc, "column_name")),
            constraint=_text(driver_attr(exc, "constraint_name")),
            schema=_text(driver_attr(exc, "schema_name")),
            datatype=_text(driver_attr(exc, "data_type_name")),
        )
    return Diagnostics(
        primary=primary,
        detail=_text(driver_attr(diag, "message_detail")) if detail is None else detail,
        context=_text(driver_attr(diag, "context")) if context is None else context,
        table=_text(driver_attr(diag, "table_name")),
        column=_text(driver_attr(diag, "column_name")),
        constraint=_text(driver_attr(diag, "constraint_name")),
        schema=_text(driver_attr(diag, "schema_name")),
        datatype=_text(driver_attr(diag, "datatype_name")),
    )


def _pg8000_fields(fields: dict[object, object]) -> Diagnostics | None:
    """pg8000's server fields (see `_pg8000_dict`), keyed by the protocol's letters."""
    primary = fields.get("M")
    if not isinstance(primary, str):
        return None

    def text(letter: str) -> str | None:
        value = fields.get(letter)
        return value if isinstance(value, str) else None

    return Diagnostics(
        primary=primary[:2048],
        detail=text("D"),
        context=text("W"),
        table=text("t"),
        column=text("c"),
        constraint=text("n"),
        schema=text("s"),
        datatype=text("d"),
    )


# -- errors without a SQLSTATE ---------------------------------------------------

# libpq's own messages and the server's start-up messages (each generated from
# a message catalogue), each catalogue one compiled alternation in the order
# its messages are tried: a message starts the text, a line, or follows a
# ": " (libpq's "connection to server at ... failed: " prefix, a driver's
# class name), so only those few places are looked at.  Each alternation is
# built on the first error without a SQLSTATE.
_V = TypeVar("_V")
#: (every message as one alternative of one pattern, what each means, in order)
_Catalogue = tuple["re.Pattern[str]", tuple[_V, ...]]


def _catalogue(messages: list[tuple[str, _V]]) -> _Catalogue[_V]:
    """One pattern for *messages* (a pattern and what it means, in the order they are tried)."""
    # Each alternative is one group (the messages' own patterns hold none):
    # the group that matched says which message it is.
    pattern = re.compile("|".join(f"({message})" for message, _ in messages))
    return pattern, tuple([value for _, value in messages])


_LIBPQ: _Catalogue[Kind] | None = None
_WILDCARD = r"[^\n]{0,256}?"


def _libpq_catalogue() -> _Catalogue[Kind]:
    global _LIBPQ  # noqa: PLW0603 - a lazily built, read-only table
    if _LIBPQ is None:
        from localdata_errors.backends._libpq_messages import MESSAGES  # noqa: PLC0415 - lazy

        # The longest lead first: of two messages that begin alike, the one
        # that says more.
        _LIBPQ = _catalogue(sorted(MESSAGES, key=lambda m: -len(m[0].split(_WILDCARD)[0])))
    return _LIBPQ


def _found(catalogue: _Catalogue[_V], text: str, at: int, end: int) -> tuple[str, _V] | None:
    """The first of the catalogue's messages that begins at *at* in *text*, and what it means."""
    pattern, values = catalogue
    match = pattern.match(text, at, end)
    if match is None or match.lastindex is None:
        return None
    return match.group(), values[match.lastindex - 1]


def _message_starts(text: str) -> list[int]:
    """
    Where a message may begin in *text*, in order.

    At the text's start, after each ": " and each line break (white space
    skipped); libpq's message is among the first few, so a text of many
    ": " costs no more than 32 of them.
    """
    starts = [0]
    for mark in (": ", "\n"):
        at = text.find(mark)
        while at >= 0:
            starts.append(at + len(mark))
            at = text.find(mark, at + len(mark))
    found: list[int] = []
    for start in sorted(starts)[:32]:
        at = start
        while at < len(text) and text[at] in " \t":
            at += 1
        found.append(at)
    return found


# libpq's frame around another message: "connection to server at ... failed: "
# says only that the connect failed; the message after it says why.
_FRAMES = ("connection to server", "could not connect to server", "Is the server running")


def _libpq(text: str, starts: list[int]) -> tuple[Kind | None, Kind | None]:
    """(the kind of the first libpq message that says why, the kind of its frame)."""
    catalogue = _libpq_catalogue()
    framing: Kind | None = None
    for at in starts:
        found = _found(catalogue, text, at, len(text))
        if found is None:
            continue
        message, kind = found
        if not message.startswith(_FRAMES):
            if framing is not None and kind is Kind.CONNECTION_LOST:
                # Lost while connecting: nothing had run yet.
                return Kind.CONNECTION_FAILURE, framing
            return kind, framing
        framing = framing or kind
    return None, framing


def libpq_kind(message: str) -> Kind | None:
    """
    The kind of one of libpq's own messages, found in the text.

    Args:
        message: The error text, as psycopg or psycopg2 report it.

    Returns:
        The kind libpq's message catalogue gives the message found at the
        start of the text, of a line, or after a `": "` (the one that says
        why, rather than libpq's "connection to server ... failed" frame
        around it); `None` when there is none.
    """
    head = message[:2048]
    specific, framing = _libpq(head, _message_starts(head))
    return specific or framing


# (kind, phrases) in priority order, matched in the lower-cased head of the
# message: what the drivers and pools say in their own words (psycopg,
# asyncpg, pg8000, psycopg_pool), beside libpq's catalogue above.
_CLIENT_RULES: Final[tuple[tuple[Kind, tuple[str, ...]], ...]] = (
    (
        Kind.TOO_MANY_CONNECTIONS,
        (
            "queuepool limit",
            "couldn't get a connection after",
            "connection pool exhausted",
            "too many clients",
            "too many connections",
            "pool exhausted",
        ),
    ),
    (
        Kind.INVALID_PASSWORD,
        (
            "password authentication failed",
            "no password supplied",
            "password is required",
            "password was not supplied",
        ),
    ),
    (Kind.INVALID_AUTHORIZATION, ("no pg_hba.conf entry",)),
    (
        Kind.ADMIN_SHUTDOWN,
        (
            "terminating connection due to administrator command",
            "the database system is shutting down",
            "the database system is starting up",
            "the database system is in recovery mode",
        ),
    ),
    (
        Kind.CONNECTION_MISCONFIGURED,
        (
            "name or service not known",
            "nodename nor servname",
            "invalid dsn",
            "certificate verify failed",
        ),
    ),
    (
        Kind.CONNECTION_LOST,
        (
            "connection is closed",
            "connection already closed",
            "connection was closed",
            "connection is lost",
            "the connection is closed",
            "network error",  # pg8000's InterfaceError on a broken socket
            "eof detected",
            "consuming input failed",
            "connection has been released",
            "connection is bad",
            "cannot perform operation: connection is closed",
        ),
    ),
    (
        Kind.CONNECTION_FAILURE,
        (
            "connection refused",
            "connection timed out",
            # psycopg 3's ConnectionTimeout: connect() gave up before the server
            # answered (a slow start, an unreachable host).  The connection never
            # came up, so nothing ran: not a statement timeout.
            "connection timeout expired",
            "connection failed",
            "network is unreachable",
            "no route to host",
            "connect call failed",
            "can't create a connection to host",  # pg8000
        ),
    ),
    (
        Kind.INVALID_PARAMETER,
        (
            "placeholders but",
            "arguments for this query",
            "not all arguments converted",
            "tuple index out of range",
            "not enough arguments for format string",
            "query parameter missing",
            "the query contains a null character",
        ),
    ),
    (Kind.INVALID_TEXT_REPRESENTATION, ("invalid input for query argument",)),
)
# The server's start-up FATAL messages (generated from its message catalogue),
# with the SQLSTATE the server sends with each, matched where libpq's
# "FATAL:  " ends.  libpq reports a failed start-up as text only, so psycopg
# and psycopg2 have no ``sqlstate`` there.  Built on the first such error.
_FATAL = "FATAL:  "
_START_UP: _Catalogue[str] | None = None


def _start_up_catalogue() -> _Catalogue[str]:
    global _START_UP  # noqa: PLW0603 - a lazily built, read-only table
    if _START_UP is None:
        from localdata_errors.backends._postgresql_fatal import MESSAGES  # noqa: PLC0415 - lazy

        _START_UP = _catalogue([(pattern, sqlstate) for pattern, sqlstate, _, _ in MESSAGES])
    return _START_UP


def fatal_sqlstate(message: str) -> str | None:
    """
    The SQLSTATE the server sent with a start-up FATAL that libpq reports as text.

    Args:
        message: The error text (`... failed: FATAL:  database "x" does not exist`).

    Returns:
        The SQLSTATE, or `None` when the message carries no FATAL the server's
        catalogue lists among its start-up messages.
    """
    start = message.find(_FATAL, 0, 2048)
    if start < 0:
        return None
    at = start + len(_FATAL)
    found = _found(_start_up_catalogue(), message, at, at + 1024)
    return None if found is None else found[1]


def _start_up_kind(text: str, starts: list[int]) -> Kind:
    """
    The kind of a start-up message of the server's found without libpq's `FATAL:  `.

    A pooler passes the server's refusal on as its own error's text
    (PgBouncer: `database "x" does not exist` under its 08P01).  Only the
    kind is taken: the text alone does not prove which code the server sent.
    """
    catalogue = _start_up_catalogue()
    for at in starts:
        found = _found(catalogue, text, at, at + 1024)
        if found is not None:
            return kind_for_sqlstate(found[1], text)
    return Kind.UNKNOWN


#: The drivers' refusals to use a closed connection or cursor: psycopg's,
#: psycopg2's, pg8000's and asyncpg's own words, raised before anything is sent.
_HANDLE_CLOSED: Final = (
    "the connection is closed",
    "the cursor is closed",
    "connection already closed",
    "cursor already closed",
    "Cursor closed",
    "connection is closed",
    "cannot perform operation: connection is closed",
)
#: glibc's gai_strerror(EAI_AGAIN): a resolver that may answer later.
_RESOLVER_LATER: Final = "Temporary failure in name resolution"


def client_kind(message: str) -> Kind:
    """
    The kind of an error the client library raised without a SQLSTATE.

    Args:
        message: The error text.

    Returns:
        The kind, or ``Kind.UNKNOWN`` (the keyword fallback decides).
    """
    head = message[:2048]
    if _RESOLVER_LATER in head:
        # getaddrinfo's EAI_AGAIN: the resolver did not answer, which says
        # nothing about the name (the same call may succeed once it does), as
        # a bare socket.gaierror says too (see backends/network.py).  Whatever
        # libpq or the driver wrote around it.
        return Kind.CONNECTION_FAILURE
    # libpq's message first (a driver may put its own words around it:
    # psycopg's "connection is bad: invalid sslmode value"), then the server's
    # start-up message, then the drivers' and pools' own phrases, then libpq's
    # frame alone.
    starts = _message_starts(head)
    specific, framing = _libpq(head, starts)
    if specific is not None:
        return specific
    # The server's own start-up message decides before the drivers' generic
    # words around it ("connection failed").
    server = _start_up_kind(head, starts)
    if server is not Kind.UNKNOWN:
        return server
    lower = head.lower()
    for kind, phrases in _CLIENT_RULES:
        for phrase in phrases:
            if phrase in lower:
                return kind
    return framing or Kind.UNKNOWN


# -- names -----------------------------------------------------------------------

_Q = r'"(?:[^"]|""){1,256}"'
_BARE = r"[^\W\d][\w$]{0,127}"
_NAME = rf"(?:{_Q}|{_BARE})(?:\.(?:{_Q}|{_BARE})){{0,2}}"


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern.replace("NAME", _NAME))


_QUOTED = re.compile(
    r'"[^"]{1,256}(?:""[^"]{0,256}){0,4}"(?:\.(?:"[^"]{1,256}"|[^\W\d][\w$]{0,127})){0,2}'
)
# The words before a quoted name that make it an object's name; a quoted value
# ("invalid input syntax for type integer: "a"") has none of them before it.
_NOUNS: Final = frozenset(
    {
        "relation",
        "table",
        "column",
        "function",
        "procedure",
        "index",
        "schema",
        "database",
        "view",
        "sequence",
        "type",
        "role",
        "constraint",
        "trigger",
        "extension",
        "tablespace",
        "savepoint",
        "cursor",
        "statement",
        "reference",
        "operator",
        "domain",
        "collation",
        "publication",
        "subscription",
        "server",
        "policy",
        "rule",
        "aggregate",
    }
)
# Names PostgreSQL prints bare at the start of a message: functions with their
# argument types, "column t.x", and the objects of privilege and DROP errors.
_LEAD_BARE = re.compile(
    r"(?:(?:permission denied for|must be owner of|cannot drop|cannot alter)"
    r" (?:materialized view|foreign table|table|view|schema|sequence|function|procedure"
    r"|database|index|type|large object)|function|procedure|column)"
    r" (?P<name>[^\W\d][\w$]{0,127}(?:\.[^\W\d][\w$]{0,127}){0,2})(?P<args>\()?"
)
_NOT_NAMES: Final = frozenset(
    {
        "does",
        "is",
        "of",
        "for",
        "on",
        "in",
        "with",
        "because",
        "cannot",
        "must",
        "already",
        "reference",
        "that",
        "by",
        "to",
        "and",
        "or",
        "not",
        "at",
        "as",
        "the",
        "a",
        "an",
        "name",
        "specified",
        "was",
        "has",
        "exists",
        "violates",
        "would",
    }
)
_COLUMN_KINDS: Final = frozenset(
    {
        Kind.UNDEFINED_COLUMN,
        Kind.NOT_NULL_VIOLATION,
        Kind.AMBIGUOUS_COLUMN,
        Kind.DUPLICATE_COLUMN,
        Kind.GROUPING_ERROR,
    }
)

_FK_PARENT = _re(
    r"^update or delete on table (?P<parent>NAME) violates foreign key constraint "
    r"(?P<c>NAME) on table (?P<child>NAME)"
)
_FK_CHILD = _re(
    r"^insert or update on table (?P<child>NAME) violates foreign key constraint "
    r"(?P<c>NAME)"
)
_FK_NOT_PRESENT = _re(r"is not present in table (?P<t>NAME)")
_FK_REFERENCED = _re(r"is still referenced from table (?P<t>NAME)")
_TRUNCATE = _re(r"Table (?P<child>NAME) references (?P<parent>NAME)\.")
_CANNOT_DROP = _re(
    r"^cannot drop (?:(?:materialized |foreign )?[a-z]{1,24}) (?P<name>NAME)"
    r"(?:\([^()]{0,256}\))? because other objects depend on it"
)
_ROLE_IN_USE = _re(r"^role (?P<name>NAME) cannot be dropped because some objects depend on it")
# One line of 2BP01's DETAIL: "constraint c on table sales depends on table customers",
# "view v depends on table customers", "owner of table t", "privileges for table t".
_DEPENDENT = _re(
    r"^(?:(?:owner of|privileges for|default value for column NAME of) )?"
    r"(?:materialized |foreign )?(?P<type>[a-z]{1,24}) (?P<name>NAME)"
    r"(?:\([^()]{0,256}\))?(?: on (?:table|view|materialized view) (?P<on>NAME))?"
    r"(?: depends on|$)"
)
_CONTEXT_FUNCTION = _re(r"(?:PL/pgSQL function|SQL function) (?P<name>NAME)(?:\(|\s|$)")
_CONTEXT_RELATION = _re(r"in relation (?P<name>NAME)")
_SCAN: Final = 2048


def _message_name(raw: str) -> tuple[str, str | None]:
    """
    ``(object, qualifier)`` of a name as a primary message prints it.

    PostgreSQL prints a qualified name the user typed inside one pair of
    quotes (``relation "public.Orders"``): its dots separate the parts.
    """
    if raw[0] == '"' and raw[-1] == '"' and '"."' not in raw:
        inner = raw[1:-1]
        if "." not in inner and '""' not in inner:
            return inner, None  # the common case: one plain name
        parts = [p for p in inner.replace('""', '"').split(".") if p]
    else:
        parts = split_qualified(raw)
    if not parts:
        return raw, None
    return parts[-1], (parts[-2] if len(parts) > 1 else None)


def _described_name(raw: str) -> tuple[str, str | None]:
    """``(object, qualifier)`` of a name as an object description prints it (quoted parts)."""
    parts = split_qualified(raw)
    if not parts:
        return raw, None
    return parts[-1], (parts[-2] if len(parts) > 1 else None)


class Names:
    """
    Names read from one error.

    Args:
        constraint: The constraint's name, when already known.
        schema: The schema, when already known.

    Attributes:
        resources: Affected objects, in order.
        dependencies: What must change first.
    """

    __slots__ = ("constraint", "dependencies", "resources", "schema")

    def __init__(self, constraint: str | None = None, schema: str | None = None) -> None:
        self.resources: list[str] = []
        self.dependencies: list[str] = []
        self.constraint = constraint
        self.schema = schema

    def add(
        self, raw: str | None, *, described: bool = False, dependency: bool = False
    ) -> str | None:
        """Add a possibly qualified name; returns the bare object name."""
        if not raw:
            return None
        obj, qualifier = (_described_name if described else _message_name)(raw)
        if qualifier is not None and self.schema is None and not dependency:
            self.schema = qualifier
        (self.dependencies if dependency else self.resources).append(obj)
        return obj


def _foreign_key(names: Names, diag: Diagnostics) -> None:
    parent = _FK_PARENT.match(diag.primary)
    if parent is not None:
        # A parent row that rows of another table still reference.
        names.add(parent.group("parent"))
        names.add(parent.group("child"), dependency=True)
        names.constraint = names.constraint or _message_name(parent.group("c"))[0]
    else:
        child = _FK_CHILD.match(diag.primary)
        if child is not None:
            names.add(child.group("child"))
            names.constraint = names.constraint or _message_name(child.group("c"))[0]
        elif diag.table is not None:
            names.add(diag.table)
    detail = diag.detail or ""
    present = _FK_NOT_PRESENT.search(detail, 0, _SCAN)
    if present is not None:
        names.add(present.group("t"), dependency=True)
    referenced = _FK_REFERENCED.search(detail, 0, _SCAN)
    if referenced is not None:
        names.add(referenced.group("t"), dependency=True)
    if names.constraint:
        names.resources.append(names.constraint)


def _dependents(names: Names, diag: Diagnostics) -> None:
    detail = diag.detail or ""
    truncate = _TRUNCATE.search(detail, 0, _SCAN)
    if truncate is not None:
        names.add(truncate.group("parent"))
        names.add(truncate.group("child"), dependency=True)
        return
    drop = _CANNOT_DROP.match(diag.primary) or _ROLE_IN_USE.match(diag.primary)
    if drop is not None:
        names.add(drop.group("name"), described=drop.re is _CANNOT_DROP)
    for line in detail[:_SCAN].split("\n")[:32]:
        match = _DEPENDENT.match(line.strip())
        if match is None:
            continue
        on = match.group("on")
        if match.group("type") == "constraint" and names.constraint is None:
            names.constraint = _described_name(match.group("name"))[0]
        names.add(on or match.group("name"), described=True, dependency=True)


def _quoted_names(primary: str) -> list[tuple[str, str]]:
    """(noun, quoted name) for each quoted name an object noun introduces."""
    found: list[tuple[str, str]] = []
    pos = primary.find('"')
    while pos > 0 and len(found) < 8:
        match = _QUOTED.match(primary, pos)
        if match is None:
            break
        noun = primary[max(0, pos - 24) : pos].rstrip().rpartition(" ")[2]
        if noun in _NOUNS:
            found.append((noun, match.group()))
        pos = primary.find('"', match.end())
    return found


def _from_message(names: Names, diag: Diagnostics, kind: Kind) -> None:
    primary = diag.primary
    lead = _LEAD_BARE.match(primary)
    if lead is not None and lead.group("name").lower() not in _NOT_NAMES:
        raw = lead.group("name")
        if primary.startswith("column ") and "." in raw and lead.group("args") is None:
            # "column c.x does not exist": c is a table or an alias (PostgreSQL
            # prints the one the statement used, without its schema).
            column, table, schema = column_reference(raw.split("."))
            names.resources.append(column)
            if table is not None:
                names.resources.append(table)
                names.schema = names.schema or schema
        else:
            names.add(raw, described=True)
    for noun, raw in _quoted_names(primary):
        if noun == "constraint":
            names.constraint = names.constraint or _message_name(raw)[0]
        else:
            names.add(raw)
    if kind in _COLUMN_KINDS and diag.column is not None:
        names.resources.insert(0, diag.column)
    if diag.table is not None:
        names.resources.append(diag.table)
    if diag.column is not None and kind not in _COLUMN_KINDS:
        names.resources.append(diag.column)
    if diag.datatype is not None:  # a domain's check or not-null constraint
        names.resources.append(diag.datatype)
    if names.constraint is None:
        names.constraint = diag.constraint
    if names.constraint:
        names.resources.append(names.constraint)


def _from_context(names: Names, context: str | None) -> None:
    if not context:
        return
    for match in _CONTEXT_FUNCTION.finditer(context, 0, _SCAN):
        names.add(match.group("name"))
    for match in _CONTEXT_RELATION.finditer(context, 0, _SCAN):
        names.add(match.group("name"))


def extract_names(kind: Kind, diag: Diagnostics) -> Names:
    """
    Name the objects an error involves, and what must change first.

    Args:
        kind: The error's kind (decides how a foreign key is read).
        diag: The server's diagnostics and the primary message.

    Returns:
        The names, unqualified and unquoted, case kept.
    """
    names = Names(constraint=diag.constraint, schema=diag.schema)
    if kind is Kind.FOREIGN_KEY_VIOLATION:
        _foreign_key(names, diag)
    elif kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST:
        _dependents(names, diag)
    else:
        _from_message(names, diag, kind)
    _from_context(names, diag.context)
    return names


def _text_names(diag: Diagnostics) -> Names:
    """
    Names of a message without a SQLSTATE: only a foreign key's, whose direction its words say.

    The server's 23503 text alone (psql's ``ERROR:  insert or update on table
    ...``, a log line): the keyword fallback names the kind, and the table
    on the other side of the key is read here, as for 23503.  Other texts
    without a SQLSTATE (a refused connection) name nothing.
    """
    primary = diag.primary.removeprefix("ERROR:  ")
    if _FK_CHILD.match(primary) is None and _FK_PARENT.match(primary) is None:
        return Names()
    return extract_names(Kind.FOREIGN_KEY_VIOLATION, diag._replace(primary=primary))


# -- the mapper ------------------------------------------------------------------


class PostgreSQLMapper(BackendMapper):
    """
    PostgreSQL errors from psycopg 3, psycopg2 and asyncpg (and SQLAlchemy over each).
    """

    name = "postgresql"
    aliases = BACKENDS["postgresql"].aliases
    driver_modules = BACKENDS["postgresql"].driver_modules
    display_name = BACKENDS["postgresql"].display_name

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one PostgreSQL error by its SQLSTATE, then name what it involves.

        Args:
            error: The exception (psycopg, psycopg2, asyncpg; or a pool's or
                SQLAlchemy's when ``db_type`` chose this backend) or a message
                with an explicit ``code``.

        Returns:
            The kind and details.  ``Kind.UNKNOWN`` (keeping the SQLSTATE) when
            no kind fits, so the keyword fallback decides.
        """
        sqlstate = read_sqlstate(error)
        if sqlstate is None and error.message.startswith(_HANDLE_CLOSED):
            # A closed connection or cursor used again: the driver refused
            # before anything was sent.
            return MappedError(Kind.CONNECTION_LOST, retry_safety=RetrySafety.SAFE)
        diag = read_diagnostics(error.exception, error.message)
        code = sqlstate
        refine: frozenset[Kind] | None = None
        if sqlstate is not None:
            kind, refine = _lookup(sqlstate, diag.primary)
        else:
            # A start-up FATAL is the server's verdict, whatever the client's
            # text around it says; libpq's own message decides otherwise.
            code = fatal_sqlstate(error.message)
            kind = kind_for_sqlstate(code, error.message) if code else Kind.UNKNOWN
            if kind is Kind.UNKNOWN:
                kind = client_kind(error.message)
            if kind is Kind.CONNECTION_FAILURE and error.exception is not None:
                # pg8000's "Can't create a connection to host ..." names no
                # reason; the OS error it was raised from does.
                from localdata_errors.backends.network import cause_kind  # noqa: PLC0415 - rare

                kind = cause_kind(error.exception) or kind
        names = extract_names(kind, diag) if kind is not Kind.UNKNOWN or code else _text_names(diag)
        resources = names.resources
        dependencies = names.dependencies
        return MappedError(
            kind,
            code=code,
            sqlstate=sqlstate,
            affected_resources=unique(resources) if resources else (),
            dependencies=unique(dependencies) if dependencies else (),
            constraint=names.constraint,
            schema=names.schema,
            refine=refine,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every SQLSTATE with a kind in the generated table.

        Returns:
            ``{"42P01": Kind.UNDEFINED_TABLE, ...}``; codes of kind unknown
            (warnings, cursor and routine errors, ...) are left out.
        """
        return {code: kind for code, (_, kind) in _codes().items() if kind is not Kind.UNKNOWN}
