"""
Python's own network exceptions, raised from inside a driver call.

Some drivers let the operating system's error through unwrapped: asyncpg
raises `ConnectionRefusedError` from `connect()`, `socket.gaierror` for a
host that does not resolve, `TimeoutError` when its own timeout fires.
Such an exception belongs to no driver's module, so the core finds the
driver in its traceback (the first frame of a module a backend claims) and
the backend answers; what the exception means is the same for every
backend, and is decided here.

Where in the call it was raised decides whether anything reached the
server: in the connect phase (a frame of a function named `connect`, or of
a driver module for connecting) nothing did, so a retry is safe even for a
write; mid-statement, a write may have committed.
"""

from __future__ import annotations

import errno
import sys
from functools import cache
from types import ModuleType, TracebackType
from typing import Final

from localdata_errors._backends import PYTHONS_OWN_MODULES as _PYTHONS_OWN
from localdata_errors._chain import chain
from localdata_errors._kinds import Kind, RetrySafety
from localdata_errors._mapper import MappedError, new_mapped_error

__all__ = ["NETWORK_ERRORS", "cause_kind", "in_connect_phase", "network_error"]

#: The exception classes this module answers for (and their subclasses).
NETWORK_ERRORS: Final = (OSError, EOFError)

_SAFE: Final = RetrySafety.SAFE
_IDEMPOTENT: Final = RetrySafety.IDEMPOTENT_ONLY

# errno -> kind, for OSErrors without a more specific class.
_ERRNO_KINDS: Final[dict[int, Kind]] = {
    code: kind
    for name, kind in (
        ("ECONNREFUSED", Kind.CONNECTION_FAILURE),
        ("EHOSTUNREACH", Kind.CONNECTION_FAILURE),
        ("ENETUNREACH", Kind.CONNECTION_FAILURE),
        ("EHOSTDOWN", Kind.CONNECTION_FAILURE),
        ("ENETDOWN", Kind.CONNECTION_FAILURE),
        ("EADDRNOTAVAIL", Kind.CONNECTION_MISCONFIGURED),
        ("ETIMEDOUT", Kind.CONNECTION_FAILURE),
        ("ECONNRESET", Kind.CONNECTION_LOST),
        ("ECONNABORTED", Kind.CONNECTION_LOST),
        ("EPIPE", Kind.CONNECTION_LOST),
        ("ENOTCONN", Kind.CONNECTION_LOST),
        ("ESHUTDOWN", Kind.CONNECTION_LOST),
        ("ENOENT", Kind.CONNECTION_MISCONFIGURED),  # a Unix socket path that is not there
        ("EACCES", Kind.CONNECTION_MISCONFIGURED),
    )
    if (code := getattr(errno, name, None)) is not None
}

# `socket` and `ssl` are not imported here: an exception of a module that was
# never imported cannot have been raised, so they are read from sys.modules
# when an answer needs them (and importing the package does not load them).


@cache
def _getaddrinfo_codes(socket: ModuleType) -> tuple[frozenset[int], dict[int, str]]:
    """
    getaddrinfo's answers that mean "this name does not exist" (the same call
    cannot succeed, as opposed to EAI_AGAIN, a resolver that may answer later),
    and its error numbers by name, for the native code ("EAI_NONAME").
    """
    no_such_host = frozenset(
        code
        for name in ("EAI_NONAME", "EAI_NODATA", "EAI_SERVICE", "EAI_FAMILY", "EAI_ADDRFAMILY")
        if isinstance(code := getattr(socket, name, None), int)
    )
    names = {
        value: name
        for name in dir(socket)
        if name.startswith("EAI_") and isinstance(value := getattr(socket, name), int)
    }
    return no_such_host, names


_CONNECT_WORDS: Final = ("connect", "_connect", "__connect", "open_connection", "create_connection")
_FRAME_LIMIT: Final = 64


def in_connect_phase(tb: TracebackType | None) -> bool:
    """
    Whether a traceback passes through a function that opens a connection.

    Args:
        tb: The exception's traceback.

    Returns:
        `True` when a frame's function is named like `connect` (asyncpg's
        `connect_utils`, psycopg's `connect`, `asyncio`'s
        `create_connection`, ...).
    """
    for _ in range(_FRAME_LIMIT):
        if tb is None:
            return False
        code = tb.tb_frame.f_code
        name = code.co_name
        if name.startswith(_CONNECT_WORDS) or "connect_utils" in code.co_filename:
            return True
        tb = tb.tb_next
    return False


#: Drivers whose connection is unusable after a socket timeout mid-statement:
#: pg8000 reads through the socket's file object, which refuses every later
#: read ("cannot read from timed out object"), while asyncpg cancels the
#: statement and keeps its connection.
_TIMEOUT_BREAKS_CONNECTION: Final = frozenset({"pg8000"})
#: Python's own words (socket.SocketIO) for a stream used after a timeout.
_TIMED_OUT_STREAM: Final = "cannot read from timed out object"


def network_error(exc: BaseException, driver: str | None = None) -> MappedError | None:
    """
    The answer for one of Python's network exceptions.

    Args:
        exc: An `OSError` (refused, reset, unreachable, timed out, a
            `socket.gaierror`, an `ssl.SSLError`) or an `EOFError` (the
            peer closed the stream).
        driver: The driver it was raised in, where known: a timeout
            mid-statement leaves some drivers' connections unusable.

    Returns:
        The kind, its retry safety for the phase it was raised in, and the
        errno or the class as the native code; `None` for other exceptions.
    """
    if not isinstance(exc, NETWORK_ERRORS):
        return None
    connecting = in_connect_phase(exc.__traceback__)
    code: str | None = type(exc).__name__
    kind: Kind | None = None
    socket, ssl = sys.modules.get("socket"), sys.modules.get("ssl")
    if socket is not None and isinstance(exc, socket.gaierror):
        no_such_host, eai_names = _getaddrinfo_codes(socket)
        number = exc.errno
        kind = Kind.CONNECTION_MISCONFIGURED if number in no_such_host else Kind.CONNECTION_FAILURE
        code = eai_names.get(number, code) if isinstance(number, int) else code
        connecting = True
    elif ssl is not None and isinstance(exc, ssl.SSLCertVerificationError):
        kind, connecting = Kind.CONNECTION_MISCONFIGURED, True
    elif ssl is not None and isinstance(exc, ssl.SSLError):
        kind = Kind.CONNECTION_FAILURE if connecting else Kind.CONNECTION_LOST
    elif isinstance(exc, TimeoutError):
        if connecting:
            kind = Kind.CONNECTION_FAILURE
        elif driver in _TIMEOUT_BREAKS_CONNECTION:
            kind = Kind.CONNECTION_LOST
        else:
            kind = Kind.STATEMENT_TIMEOUT
    elif isinstance(exc, ConnectionRefusedError):
        kind, connecting = Kind.CONNECTION_FAILURE, True
    elif isinstance(exc, ConnectionError | EOFError):
        kind = Kind.CONNECTION_FAILURE if connecting else Kind.CONNECTION_LOST
    else:
        number = exc.errno
        if isinstance(number, int):
            kind = _ERRNO_KINDS.get(number)
            code = errno.errorcode.get(number, code)
        elif exc.args == (_TIMED_OUT_STREAM,):
            kind = Kind.CONNECTION_LOST  # the connection's stream, after a timeout
        if kind is Kind.CONNECTION_LOST and connecting:
            kind = Kind.CONNECTION_FAILURE
        if kind is Kind.CONNECTION_FAILURE:
            connecting = True
    if kind is None:
        return None
    if isinstance(exc, OSError) and isinstance(exc.errno, int) and code == type(exc).__name__:
        code = errno.errorcode.get(exc.errno, code)
    # Nothing reached the server while connecting; mid-statement, a write may have.
    safety = _SAFE if connecting or kind is Kind.CONNECTION_MISCONFIGURED else _IDEMPOTENT
    if kind is Kind.CONNECTION_MISCONFIGURED:
        safety = RetrySafety.NOT_APPLICABLE
    return new_mapped_error(kind, code=code, retry_safety=safety)


def cause_kind(exc: BaseException | None) -> Kind | None:
    """
    What the operating system's error a driver raised its own exception from says.

    Some drivers name no reason in their text and raise `from` the
    exception that has it: pg8000's "Can't create a connection to host
    ..." and aiomysql's "Can't connect to MySQL server on ..." come from a
    `socket.gaierror` for a host that does not resolve just as from a
    `ConnectionRefusedError`.

    Args:
        exc: The driver's exception, or `None`.

    Returns:
        The kind of the first of Python's own network exceptions in the
        chain it was raised from (`localdata_errors._chain.chain`); `None`
        when there is none.
    """
    if exc is None:
        return None
    for link in chain(exc):
        if link is not exc and type(link).__module__ in _PYTHONS_OWN:
            mapped = network_error(link)
            if mapped is not None:
                return mapped.kind
    return None
