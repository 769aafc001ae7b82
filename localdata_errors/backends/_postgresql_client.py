"""
PostgreSQL errors without a SQLSTATE: libpq's, the server's start-up and the drivers' messages.

libpq reports a refused start-up as text only, so psycopg and psycopg2 have
no ``sqlstate`` there: the server's start-up messages (generated from its
message catalogue, `_postgresql_fatal`) give the SQLSTATE it sent; libpq's
own messages (generated from libpq's catalogue, `_libpq_messages`) give a
kind; then the drivers' and pools' own phrases.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final, TypeVar

from localdata_errors._kinds import Kind
from localdata_errors.backends._postgresql_server import kind_for_sqlstate

__all__ = ["HANDLE_CLOSED", "client_kind", "fatal_sqlstate", "libpq_kind"]

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
    # Each alternative ends in an empty group (the messages' own patterns hold
    # none): the group that matched says which message it is.  Ending it, not
    # wrapping it, lets the engine reject an alternative by its first
    # character without entering it: 18 times faster on libpq's catalogue.
    # The alternatives are grouped by that first character, in order within
    # each group: two that begin differently never match at one place, so
    # the first to match is the same, and a place is tried against one
    # group, not every message (a refused login's reading: 11 to 7.5 µs).
    groups: dict[str, list[tuple[str, _V]]] = {}
    if all(_STANDS_ALONE.match(message) for message, _ in messages):
        for message, value in messages:
            groups.setdefault(message[:1], []).append((message, value))
    else:
        # A message that begins otherwise (a class, a group) may match where
        # others do: the messages stay in one flat alternation, in order.
        groups[""] = messages
    branches = []
    for first, group in groups.items():
        rests = "|".join(f"{message[len(first) :]}()" for message, _ in group)
        branches.append(f"{first}(?:{rests})")
    ordered = [value for group in groups.values() for _, value in group]
    return re.compile("|".join(branches)), tuple(ordered)


# A pattern's first character that is a literal of its own: a letter, a
# digit or a blank that no quantifier follows.
_STANDS_ALONE: Final = re.compile(r"[\w ](?![*+?{])")

_WILDCARD = r"[^\n]{0,256}?"


@cache
def _libpq_catalogue() -> _Catalogue[Kind]:
    from localdata_errors.backends._libpq_kinds import kind_of  # noqa: PLC0415 - lazy
    from localdata_errors.backends._libpq_messages import MESSAGES  # noqa: PLC0415 - lazy

    judged = [(p, kind) for line, p in MESSAGES if (kind := kind_of(line)) is not None]
    # The longest lead first: of two messages that begin alike, the one that says more.
    return _catalogue(sorted(judged, key=lambda m: -len(m[0].split(_WILDCARD)[0])))


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
            # The server's 53300 for the last slots, in every version's words
            # (14-15: "... for non-replication superuser connections", 16-17:
            # "... for roles with the SUPERUSER attribute", "... with privileges
            # of the "pg_use_reserved_connections" role"; postmaster.c).
            "remaining connection slots are reserved for",
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
@cache
def _start_up_catalogue() -> _Catalogue[str]:
    from localdata_errors.backends._postgresql_fatal import MESSAGES  # noqa: PLC0415 - lazy

    return _catalogue([(pattern, sqlstate) for pattern, sqlstate, _, _ in MESSAGES])


#: The server's FATAL label as libpq prints it (two spaces) or a driver does (one).
_FATAL_LABEL: Final = re.compile(r"FATAL: {1,2}(?=\S)")


def fatal_sqlstate(message: str) -> str | None:
    """
    The SQLSTATE the server sent with a start-up FATAL that libpq reports as text.

    Args:
        message: The error text (`... failed: FATAL:  database "x" does not exist`).

    Returns:
        The SQLSTATE, or `None` when the message carries no FATAL the server's
        catalogue lists among its start-up messages.
    """
    for count, label in enumerate(_FATAL_LABEL.finditer(message, 0, 2048)):
        found = _found(_start_up_catalogue(), message, label.end(), label.end() + 1024)
        if found is not None:
            return found[1]
        if count >= 3:
            break
    return None


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
HANDLE_CLOSED: Final = (
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


# -- a connection string quoted back ----------------------------------------------
#
# libpq's parser of connection strings and URIs quotes the piece it could not
# read ('invalid percent-encoded token: "%s"', 'unexpected spaces found in
# "%s", use percent-encoded spaces (%20) instead'), and that piece may be the
# password (`postgresql://app:hunter 22@db/x`).  The parser's messages are
# those of its catalogue that speak of a URI, a percent-encoded value or a
# connection string; the wording of newer libpq versions than the catalogue
# read here is added by its own words.  Every quoted value of such a message
# is masked: the password cannot be told from the rest of what was quoted.

_NEWER_PARSER_WORDS: Final = ("unexpected spaces found in",)
_QUOTED: Final = re.compile(r'"[^"\n]*"')


@cache
def _conninfo_pattern() -> re.Pattern[str]:
    from localdata_errors.backends._libpq_messages import MESSAGES  # noqa: PLC0415 - lazy

    parser = [
        pattern
        for line, pattern in MESSAGES
        if '"%s"' in line
        and any(w in line for w in ("URI", "percent-encoded", "connection info string"))
    ]
    parser += [re.escape(words) for words in _NEWER_PARSER_WORDS]
    return re.compile("|".join(f"(?:{p})" for p in parser))


def conninfo_masked(message: str) -> str | None:
    """
    The message with every quoted value masked, when it is libpq's parser
    quoting a piece of a connection string; else `None`.
    """
    if '"' not in message or _conninfo_pattern().search(message) is None:
        return None
    return _QUOTED.sub('"***"', message)
