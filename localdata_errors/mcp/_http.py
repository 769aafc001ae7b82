"""
The SQL tool server over streamable HTTP: loopback by default, a bearer token to leave it.

A server bound to a loopback address is reachable from this machine only.
Binding any other address needs ``allow_remote`` and a bearer token (the
command line checks that: ``localdata_errors.cli.http_problem``); a server
with a token answers 401 to every request that does not carry
``Authorization: Bearer <token>`` (compared in constant time).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["BearerTokenMiddleware"]

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
