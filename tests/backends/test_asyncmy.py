"""asyncmy against the real server: its errors are MySQL's, detected from the driver."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from localdata_errors import classify_error
from localdata_errors._kinds import Action, ErrorCategory, Kind, RetrySafety
from tests.conftest import require_module


def _errors(server: dict[str, object]) -> dict[str, BaseException]:
    asyncmy = require_module("asyncmy")
    found: dict[str, BaseException] = {}

    async def run() -> None:
        settings: dict[str, Any] = dict(server)
        conn = await asyncmy.connect(**settings)
        admin = await asyncmy.connect(**settings)
        try:
            async with conn.cursor() as cursor:
                try:
                    await cursor.execute("SELECT * FROM lde_no_such_table")
                except Exception as exc:
                    found["missing table"] = exc
                await cursor.execute("SELECT CONNECTION_ID()")
                (thread,) = await cursor.fetchone()
            async with admin.cursor() as cursor:
                await cursor.execute(f"KILL {int(thread)}")
            try:
                async with conn.cursor() as cursor:
                    await cursor.execute("SELECT 1")
            except Exception as exc:
                found["killed"] = exc
        finally:
            admin.close()
            conn.close()
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        try:
            await asyncmy.connect(**{**settings, "port": port})
        except Exception as exc:
            found["refused"] = exc

    asyncio.run(run())
    return found


def test_asyncmy_errors(mysql_server: dict[str, object]) -> None:
    errors = _errors(mysql_server)
    assert set(errors) == {"missing table", "killed", "refused"}
    missing = classify_error(errors["missing table"])
    assert (missing.database, missing.kind, missing.database_error_code) == (
        "mysql",
        Kind.UNDEFINED_TABLE,
        "1146",
    )
    assert missing.driver == "asyncmy"
    killed = classify_error(errors["killed"])
    assert killed.error_type is ErrorCategory.CONNECTION_ERROR, repr(errors["killed"])
    assert killed.action is Action.RECONNECT
    refused = classify_error(errors["refused"])
    assert refused.error_type is ErrorCategory.CONNECTION_ERROR, repr(errors["refused"])
    assert refused.retry_safety is RetrySafety.SAFE
