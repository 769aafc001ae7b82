"""
Fuzz target: the classifier and every registered backend's ``map_error``.

Run with atheris (libFuzzer options apply)::

    python fuzz/fuzz_classify.py -runs=100000
    python fuzz/fuzz_classify.py -max_total_time=60 corpus_dir/

Without atheris, the same target runs under hypothesis (``-runs=N`` is
honoured, other options are ignored), so the target is never dead code.

Each input picks a driver module for the exception's class (so detection
hands it to each backend), attributes of any type, a message, an explicit
code and a ``db_type``; the answer must render to every shape as JSON, and
each mapper must return ``MappedError | None`` without raising.  A finding
becomes a regression test in ``tests/test_properties.py``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

DRIVER_MODULES = (
    "psycopg.errors",
    "psycopg2.errors",
    "asyncpg.exceptions",
    "pymysql.err",
    "MySQLdb._exceptions",
    "mysql.connector.errors",
    "mariadb",
    "sqlite3",
    "aiosqlite",
    "duckdb",
    "oracledb.exceptions",
    "cx_Oracle",
    "pyodbc",
    "pymssql._mssql",
    "pytds.tds_base",
    "sqlalchemy.exc",
    "builtins",
)
DB_TYPES = (
    None,
    "postgresql",
    "mysql",
    "mariadb",
    "sqlite",
    "duckdb",
    "oracle",
    "mssql",
    "generic",
    "unknowndb",
)
ATTRIBUTES = (
    "sqlstate",
    "pgcode",
    "errno",
    "msg",
    "errmsg",
    "code",
    "full_code",
    "number",
    "msg_no",
    "severity",
    "sqlite_errorcode",
    "sqlite_errorname",
    "offset",
    "diag",
)


class _Provider:
    """The subset of atheris.FuzzedDataProvider the target uses, over plain bytes."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def ConsumeIntInRange(self, low: int, high: int) -> int:  # noqa: N802 - atheris's name
        if self._pos >= len(self._data):
            return low
        value = self._data[self._pos]
        self._pos += 1
        return low + value % (high - low + 1)

    def ConsumeUnicodeNoSurrogates(self, count: int) -> str:  # noqa: N802 - atheris's name
        chunk = self._data[self._pos : self._pos + count]
        self._pos += len(chunk)
        return chunk.decode("utf-8", "replace")

    def ConsumeBytes(self, count: int) -> bytes:  # noqa: N802 - atheris's name
        chunk = self._data[self._pos : self._pos + count]
        self._pos += len(chunk)
        return chunk

    def ConsumeInt(self, size: int) -> int:  # noqa: N802 - atheris's name
        return int.from_bytes(self.ConsumeBytes(size), "little", signed=True)


def _value(fdp: Any) -> object:
    choice = fdp.ConsumeIntInRange(0, 6)
    if choice == 0:
        return None
    if choice == 1:
        return fdp.ConsumeInt(8)
    if choice == 2:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 64))
    if choice == 3:
        return object()
    if choice == 4:
        return [fdp.ConsumeInt(2)]
    return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 64))


def fuzz_one_input(data: bytes, provider: Callable[[bytes], Any] = _Provider) -> None:
    """Classify one fuzzed error; raise on any contract violation."""
    from localdata_errors import (  # noqa: PLC0415 - imported under atheris's instrumentation
        ErrorInput,
        ErrorMapperRegistry,
        MappedError,
        classify_error,
        classify_message,
    )

    fdp = provider(data)
    module = DRIVER_MODULES[fdp.ConsumeIntInRange(0, len(DRIVER_MODULES) - 1)]
    namespace: dict[str, object] = {"__module__": module}
    for _ in range(fdp.ConsumeIntInRange(0, 4)):
        namespace[ATTRIBUTES[fdp.ConsumeIntInRange(0, len(ATTRIBUTES) - 1)]] = _value(fdp)
    klass = type("FuzzError", (Exception,), namespace)
    args = tuple(_value(fdp) for _ in range(fdp.ConsumeIntInRange(0, 3)))
    message = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 4096))
    exc = klass(message, *args) if fdp.ConsumeIntInRange(0, 1) else klass(*args)
    if fdp.ConsumeIntInRange(0, 3) == 0:
        exc.__cause__ = exc  # a cycle
    db_type = DB_TYPES[fdp.ConsumeIntInRange(0, len(DB_TYPES) - 1)]
    code = _value(fdp)
    for resp in (
        classify_error(exc, db_type),
        classify_message(message, db_type, code if isinstance(code, str | int) else None),
    ):
        json.dumps(
            [
                resp.to_dict(),
                resp.to_tool_error(),
                resp.to_jsonrpc_error("fuzz"),
                resp.to_agent_response(),
            ],
            allow_nan=False,
        )
    error = ErrorInput(exc, message, code if isinstance(code, str | int) else None, None)
    for info in ErrorMapperRegistry.list_mappers():
        result = info.mapper.map_error(error)
        if result is not None and not isinstance(result, MappedError):
            raise TypeError(f"{info.name} returned {type(result).__name__}")


def _runs(argv: list[str], default: int) -> int:
    for arg in argv:
        if arg.startswith("-runs="):
            return int(arg.partition("=")[2])
    return default


def main(argv: list[str]) -> None:
    """Run under atheris when installed, else under hypothesis."""
    try:
        import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: PLC0415 - optional
    except ImportError:
        atheris = None
    if atheris is not None:
        with atheris.instrument_imports():
            import localdata_errors  # noqa: PLC0415 - instrumented for coverage

            # The backends load on first use: load them here, under instrumentation.
            localdata_errors.ErrorMapperRegistry.list_mappers()

        atheris.Setup(argv, lambda data: fuzz_one_input(data, atheris.FuzzedDataProvider))
        atheris.Fuzz()
        return
    from hypothesis import given, settings  # noqa: PLC0415 - fallback only
    from hypothesis import strategies as st  # noqa: PLC0415 - fallback only

    @settings(max_examples=_runs(argv, 1000), deadline=None, database=None)
    @given(st.binary(max_size=8192))
    def run(data: bytes) -> None:
        fuzz_one_input(data)

    run()
    print(f"fuzz_classify: {_runs(argv, 1000)} runs under hypothesis, no finding")


if __name__ == "__main__":
    main(sys.argv)
