"""
The SQL tool server's settings: one object, its command-line flags, and their checks.

`ServerSettings` is what the server runs with, whoever builds it: the command
line (``localdata-errors serve`` and ``python -m localdata_errors.mcp.server``
parse the flags `add_arguments` defines into it, with `from_arguments`), or
a program (``build_server(ServerSettings(url, read_only=True))``).  The
settings belong to the server: the command line only parses arguments into
them, and nothing here imports the ``mcp`` SDK, SQLAlchemy or a driver.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_URL",
    "MIN_TOKEN_LENGTH",
    "TOKEN_ENV",
    "URL_ENV",
    "ServerSettings",
    "add_arguments",
    "from_arguments",
    "http_problem",
    "is_loopback",
]

#: The database a first run opens when no URL is given (with ``--create``).
DEFAULT_URL: Final = "sqlite:///localdata.db"
#: The environment variable read when ``--url`` is not given: a URL holding a
#: password is then not visible in the process list.
URL_ENV: Final = "LOCALDATA_ERRORS_URL"
#: The environment variable holding the HTTP transport's bearer token, read
#: when ``--auth-token`` is not given (the process list shows flags).
TOKEN_ENV: Final = "LOCALDATA_ERRORS_TOKEN"  # noqa: S105 - a variable's name, not a secret
#: The shortest bearer token accepted: a guessable token protects nothing.
MIN_TOKEN_LENGTH: Final = 16
#: The most bytes of values one call holds and returns, by default (4 MiB).
DEFAULT_MAX_BYTES: Final = 4 * 1024 * 1024
#: The fewest bytes ``--max-bytes`` accepts: one row of a few columns must fit.
MIN_MAX_BYTES: Final = 1024
_TRANSPORTS: Final = ("stdio", "http", "streamable-http")


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """
    Everything the SQL tool server runs with.

    Attributes:
        url: Any SQLAlchemy URL (not shown in the settings' repr: it may
            hold a password).
        read_only: Serve only the tools that read, on a login and a session
            that cannot write, and run only statements proven to read.
        max_rows: The most rows a call returns.
        max_bytes: The most bytes of values a call holds and returns; a
            longer value is cut and flagged, and the rows stop there.
        timeout: The statement timeout in seconds; ``None`` for none.
        allow_multi_statement: Let ``execute_sql`` run several statements.
        allow_privileged_login: Serve read-only on a login that holds
            privileges a read-only server refuses (warned on every start).
        create: Create a SQLite or DuckDB file that does not exist (by
            default such a URL is an error: a mistyped path is not a new
            empty database).
        verbose_errors: Render failures in the full JSON-RPC shape
            (`StructuredErrorResponse.to_jsonrpc_error`: the kind as a
            JSON-RPC code and a timestamp, every detail); by default they are
            compact, the tool shape and the server's own hints, which is what
            a model reads.
        transport: ``stdio`` or ``http``.
        host: The HTTP address.
        port: The HTTP port.
        allow_remote: Accept HTTP connections from other machines.
        auth_token: The bearer token every HTTP request must carry (not in
            the repr).
        name: The server's name, as clients show it.
    """

    url: str = field(default=DEFAULT_URL, repr=False)
    read_only: bool = False
    max_rows: int = 1000
    max_bytes: int = DEFAULT_MAX_BYTES
    timeout: float | None = 30.0
    allow_multi_statement: bool = False
    allow_privileged_login: bool = False
    create: bool = False
    verbose_errors: bool = False
    transport: str = "stdio"
    host: str = "127.0.0.1"
    port: int = 8000
    allow_remote: bool = False
    auth_token: str | None = field(default=None, repr=False)
    name: str = "localdata-errors-sql"

    def problem(self) -> str | None:
        """
        What makes these settings unusable, in one line; ``None`` when they are usable.

        Returns:
            The problem: an unknown transport, HTTP settings that would expose
            the server (`http_problem`), a cap below its minimum.
        """
        if self.transport not in _TRANSPORTS:
            return f"unknown transport {self.transport!r}: use 'stdio' or 'http'"
        if self.max_rows < 1:
            return "max_rows must be positive"
        if self.max_bytes < MIN_MAX_BYTES:
            return f"max_bytes must be at least {MIN_MAX_BYTES}"
        if self.transport == "stdio":
            return None
        return http_problem(self.host, allow_remote=self.allow_remote, token=self.auth_token)


def is_loopback(host: str) -> bool:
    """Whether *host* names this machine only (``127.0.0.0/8``, ``::1``, ``localhost``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def http_problem(host: str, *, allow_remote: bool, token: str | None) -> str | None:
    """
    What is wrong with the HTTP settings, in one line; ``None`` when they are usable.

    Args:
        host: The address to bind.
        allow_remote: Whether a non-loopback address was asked for on purpose.
        token: The bearer token, if any.

    Returns:
        The problem, or ``None``.
    """
    if token is not None and (len(token) < MIN_TOKEN_LENGTH or any(c.isspace() for c in token)):
        return (
            f"the bearer token must be at least {MIN_TOKEN_LENGTH} characters without spaces "
            "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    if allow_remote and token is None:
        return f"--allow-remote needs a bearer token: set {TOKEN_ENV} (or pass --auth-token)"
    if not allow_remote and not is_loopback(host):
        return f"--host {host} is not a loopback address: add --allow-remote and a bearer token"
    return None


# -- the command line ---------------------------------------------------------------


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


_UNITS: Final = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def _byte_count(text: str) -> int:
    """A number of bytes, or of KiB, MiB, GiB: ``4194304``, ``4M``, ``4 MiB``, ``512k``."""
    raw = text.strip().lower().removesuffix("b").removesuffix("i")
    unit = raw[-1:] if raw[-1:] in _UNITS else ""
    try:
        value = int(float(raw[: len(raw) - len(unit)].strip()) * _UNITS[unit])
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(
            f"not a size: {text!r} (bytes, or with K, M or G: 4M)"
        ) from None
    if value < MIN_MAX_BYTES:
        raise argparse.ArgumentTypeError(f"must be at least {MIN_MAX_BYTES} bytes: {text!r}")
    return value


def _port(text: str) -> int:
    value = _positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"not a TCP port (1-65535): {text!r}")
    return value


def _seconds(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text!r}")
    return value or None


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """
    Add the server's flags to *parser*: their one definition.

    Args:
        parser: The parser to add them to.

    Returns:
        The same parser.
    """
    parser.add_argument(
        "--url",
        default=None,
        help=f"SQLAlchemy database URL (default: ${URL_ENV}, else {DEFAULT_URL}); "
        "the environment keeps a password out of the process list",
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="serve only the tools that read, on a login that may only read; execute_sql "
        "runs only statements proven to read, in a session reset after every call",
    )
    parser.add_argument(
        "--allow-privileged-login",
        action="store_true",
        help="--read-only: serve on a login that holds privileges a read-only server refuses "
        "(superuser, file access, ...); warned on every start",
    )
    parser.add_argument(
        "--create",
        action="store_true",
        help="create the SQLite or DuckDB file when it does not exist (otherwise a missing "
        "file is an error)",
    )
    parser.add_argument(
        "--verbose-errors",
        action="store_true",
        help="render failures in the full JSON-RPC shape (a JSON-RPC code, a timestamp, every "
        "detail) instead of the compact tool shape",
    )
    parser.add_argument(
        "--max-rows", type=_positive_int, default=1000, help="row cap for results (default: 1000)"
    )
    parser.add_argument(
        "--max-bytes",
        type=_byte_count,
        default=DEFAULT_MAX_BYTES,
        help="the most bytes of values a call holds and returns, e.g. 4M (default: 4M); "
        "longer values are cut and flagged",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=30.0,
        help="statement timeout in seconds, 0 for none (default: 30)",
    )
    parser.add_argument(
        "--allow-multi-statement",
        action="store_true",
        help="allow several statements in one execute_sql call",
    )
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument(
        "--host",
        default=None,
        help="http transport: address (default: 127.0.0.1; 0.0.0.0 with --allow-remote)",
    )
    parser.add_argument(
        "--port", type=_port, default=8000, help="http transport: port (default: 8000)"
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="http transport: accept connections from other machines; needs a bearer token",
    )
    parser.add_argument(
        "--auth-token",
        default=None,
        help=f"http transport: the bearer token every request must carry (prefer ${TOKEN_ENV}: "
        "flags show in the process list)",
    )
    return parser


def from_arguments(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    environ: Mapping[str, str] | None = None,
) -> ServerSettings:
    """
    The settings the parsed flags (and the environment) say; a problem ends as argparse's do.

    Args:
        parser: The parser that parsed *args* (its ``error`` reports a problem:
            the usage and one line, exit status 2).
        args: The parsed flags of `add_arguments`.
        environ: The environment (``os.environ`` by default): ``URL_ENV``
            and ``TOKEN_ENV`` are read from it.

    Returns:
        The settings.
    """
    env = os.environ if environ is None else environ
    http = args.transport == "http"
    if not http and (args.allow_remote or args.auth_token is not None or args.host is not None):
        parser.error("--host, --allow-remote and --auth-token apply to --transport http")
    if args.allow_privileged_login and not args.read_only:
        parser.error("--allow-privileged-login applies to --read-only")
    token = args.auth_token
    if token is None and http:
        token = env.get(TOKEN_ENV) or None
    host = args.host or ("0.0.0.0" if args.allow_remote else "127.0.0.1")  # noqa: S104 - asked for
    settings = ServerSettings(
        url=args.url or env.get(URL_ENV) or DEFAULT_URL,
        read_only=args.read_only,
        max_rows=args.max_rows,
        max_bytes=args.max_bytes,
        timeout=args.timeout,
        allow_multi_statement=args.allow_multi_statement,
        allow_privileged_login=args.allow_privileged_login,
        create=args.create,
        verbose_errors=args.verbose_errors,
        transport=args.transport,
        host=host,
        port=args.port,
        allow_remote=args.allow_remote,
        auth_token=token,
    )
    problem = settings.problem()
    if problem:
        parser.error(problem)
    return settings
