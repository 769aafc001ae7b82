"""
The SQL tool server over streamable HTTP: loopback by default, a bearer token to leave it.

A server bound to a loopback address is reachable from this machine only.
Binding any other address needs ``allow_remote`` and a bearer token (the
settings check that: ``localdata_errors.mcp._settings.http_problem``); a
server with a token answers 401 to every request that does not carry
``Authorization: Bearer <token>`` (compared in constant time).

**DNS rebinding.**  A web page may point a name of its own at 127.0.0.1 and
have the browser send requests to a loopback server that asks for no token.
Such a request names the attacker's host: a server bound to a loopback
address serves only requests whose ``Host`` (and ``Origin``, when a browser
sends one) names the address actually bound, on its port: the bound name or
address itself, whatever its case (``127.0.0.2``, ``LOCALHOST``, ``::1``),
the addresses it resolves to, and ``localhost``, which no page can point
elsewhere.  Anything else is answered 421 (``Host``) or 403 (``Origin``)
before it reaches the MCP layer.  (The SDK's own check knows only
``127.0.0.1``, ``localhost`` and ``::1`` by their exact spelling.)
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

__all__ = ["BearerTokenMiddleware", "BoundHostMiddleware", "bound_names"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BearerTokenMiddleware:
    """
    ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``.

    Args:
        app: The application it guards.
        token: The expected token.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = token.encode()

    def _authorized(self, scope: Scope) -> bool:
        supplied = b""
        for name, value in scope.get("headers", ()):
            if name.lower() == b"authorization":
                supplied = value
        scheme, _, credentials = supplied.partition(b" ")
        # compare_digest takes as long for a near miss as for a far one.
        matches = hmac.compare_digest(credentials.strip(), self._token)
        return scheme.lower() == b"bearer" and matches

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 401 to an HTTP request without the token; pass everything else on."""
        if scope["type"] != "http" or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {
                "error": "invalid_token",
                "error_description": "This server needs Authorization: Bearer <token>.",
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", b'Bearer realm="localdata-errors"'),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _refuse(status: int, problem: str) -> list[Message]:
    body = json.dumps({"error": "invalid_request", "error_description": problem}).encode()
    return [
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        },
        {"type": "http.response.body", "body": body},
    ]


def _normal(name: str) -> str:
    """A host name or address as it compares: lower case, an IPv6 address without brackets."""
    name = name.strip().lower().strip("[]")
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name.rstrip(".")


def bound_names(host: str) -> frozenset[str]:
    """
    The names a request to a server bound to *host* may give in ``Host`` and ``Origin``.

    Args:
        host: The address the server binds (a loopback one).

    Returns:
        The bound name or address, the addresses it resolves to, and
        ``localhost``; each as `_normal` compares them.
    """
    names = {_normal(host), "localhost"}
    try:
        found: Iterable[Any] = socket.getaddrinfo(host, None)
    except OSError:
        found = ()
    names.update(_normal(str(info[4][0])) for info in found)
    return frozenset(names)


def _host_and_port(text: str) -> tuple[str, int | None] | None:
    """``host[:port]`` read as a URL's authority; ``None`` when it is not one."""
    try:
        parts = urlsplit(f"//{text}")
        port = parts.port  # reading the port checks it
    except ValueError:
        return None
    return parts.hostname or "", port


class BoundHostMiddleware:
    """
    ASGI middleware: serve only requests that name the loopback address the server bound.

    Args:
        app: The application it guards.
        host: The bound address.
        port: The bound port.
    """

    def __init__(self, app: ASGIApp, host: str, port: int) -> None:
        self.app = app
        self._names = bound_names(host)
        self._port = port

    def _names_us(self, host: str, port: int | None, default: int) -> bool:
        return _normal(host) in self._names and (port or default) == self._port

    def _problem(self, scope: Scope) -> tuple[int, str] | None:
        headers = {name.lower(): value for name, value in scope.get("headers", ())}
        host = _host_and_port(headers.get(b"host", b"").decode("latin-1"))
        if host is None or not self._names_us(*host, default=80):
            return 421, "The Host header does not name this server's address."
        origin = headers.get(b"origin")
        if origin is None:
            return None  # not a browser's cross-origin request
        try:
            parts = urlsplit(origin.decode("latin-1"))
            port = parts.port
        except ValueError:
            return 403, "The Origin header is not a URL."
        default = 443 if parts.scheme == "https" else 80
        if parts.scheme not in ("http", "https") or not self._names_us(
            parts.hostname or "", port, default=default
        ):
            return 403, "The Origin header does not name this server's address."
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 421/403 to an HTTP request naming another host; pass everything else on."""
        problem = self._problem(scope) if scope["type"] == "http" else None
        if problem is None:
            await self.app(scope, receive, send)
            return
        for message in _refuse(*problem):
            await send(message)
