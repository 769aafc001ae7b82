"""
A call holds a bounded amount of memory, whatever its result: bounded by bytes, not only rows.

The server runs as a user starts it (a subprocess over stdio, ``--max-bytes
4M`` and a row cap too high to matter); its peak resident memory (Linux's
``VmHWM``, from ``/proc/<pid>/status``) is read before and after one call
returning a 10^7-row result, and one returning a 60 MB value, on
PostgreSQL and SQLite.  The growth must stay within a small multiple of the
limit (the rows as objects, their JSON text, the protocol's message: about
7.5 times, measured); for a value the driver hands over whole, plus a small
multiple of that value: the engine's and the driver's copies (libpq holds a
message twice, SQLite its function's result) and the one text made of it,
about 3 to 3.5 times; nothing more of it is made, it is cut first.  The
figures are printed with ``pytest -s``.  Memory is asserted, never time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.mcp._harness import Backend, StdioServer

pytestmark = [
    pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True),
    pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc"),
]

MAX_BYTES = 4 * 1024 * 1024
MiB = 1024 * 1024
VALUE = 60_000_000
ROWS = {
    "postgresql": "SELECT g AS n, repeat('x', 100) AS pad FROM generate_series(1, 10000000) AS g",
    "sqlite": "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c "
    "WHERE n < 10000000) SELECT n, hex(zeroblob(50)) AS pad FROM c",
}
BIG_VALUE = {
    "postgresql": f"SELECT repeat('x', {VALUE}) AS big",
    "sqlite": f"SELECT hex(zeroblob({VALUE // 2})) AS big",
}
# The multiple of the limit a call may hold: the rows as objects, their JSON
# text, the MCP message made of both (text and structured content).
MULTIPLE = 10
# The multiple of a value handed over whole: the engine's and driver's copies.
WHOLE = 4


def _server_pid(url: str) -> int:
    """The server subprocess started by this test process for *url*."""
    me = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        parent = next((ln.split()[1] for ln in status.splitlines() if ln.startswith("PPid:")), "")
        if parent == me and b"localdata_errors.mcp.server" in command and url.encode() in command:
            return int(entry.name)
    raise AssertionError(f"no server process for {url}")


def _peak(pid: int) -> int:
    """The process's peak resident memory so far, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def _growth(server: StdioServer, sql: str) -> tuple[int, dict[str, Any]]:
    pid = _server_pid(server.url)
    # The same kind of call first, small: imports and caches are not the call's.
    server.ok("execute_sql", {"sql": "SELECT 1 AS n, 'x' AS pad"})
    before = _peak(pid)
    out = server.ok("execute_sql", {"sql": sql})
    return _peak(pid) - before, out


@pytest.fixture
def bounded(shop: Backend) -> Any:
    server = StdioServer(
        shop.url, "--max-bytes", str(MAX_BYTES), "--max-rows", "100000000", "--timeout", "300"
    )
    try:
        yield server
    finally:
        server.close()


def test_a_ten_million_row_result_is_read_within_the_limit(
    bounded: StdioServer, shop: Backend
) -> None:
    growth, out = _growth(bounded, ROWS[shop.name])
    print(f"\nMEMORY [{shop.name}] 10^7 rows: peak RSS +{growth / MiB:.1f} MiB")
    assert out["truncated"] is True
    assert out["max_bytes"] == MAX_BYTES
    assert 10_000 < out["rowCount"] < 10_000_000
    assert growth <= MULTIPLE * MAX_BYTES, f"{growth / MiB:.1f} MiB"


def test_a_sixty_megabyte_value_is_cut_within_the_limit(
    bounded: StdioServer, shop: Backend
) -> None:
    growth, out = _growth(bounded, BIG_VALUE[shop.name])
    print(f"\nMEMORY [{shop.name}] a 60 MB value: peak RSS +{growth / MiB:.1f} MiB")
    (row,) = out["data"]
    assert len(row["big"]) <= MAX_BYTES
    assert out["cut_values"] == [{"row": 0, "column": "big", "length": VALUE}]
    assert out["truncated"] is True
    # The engine and the driver hand the value over whole; nothing more of it
    # is made: it is cut before it is converted, encoded or sent.
    assert growth <= WHOLE * VALUE + MULTIPLE * MAX_BYTES, f"{growth / MiB:.1f} MiB"


def test_values_and_rows_are_cut_by_bytes_and_flagged(shop: Backend) -> None:
    """select_rows and execute_sql alike: a long value cut and listed, no row past the limit."""
    with shop.engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE lde_big (id INTEGER PRIMARY KEY, body TEXT)")
        for i in range(1, 6):
            conn.exec_driver_sql(f"INSERT INTO lde_big VALUES ({i}, '{'é' * 3000}')")
    server = StdioServer(shop.url, "--max-bytes", "4K")
    try:
        for out in (
            server.ok("select_rows", {"table": "lde_big", "order_by": [{"column": "id"}]}),
            server.ok("execute_sql", {"sql": "SELECT id, body FROM lde_big ORDER BY id"}),
        ):
            assert out["truncated"] is True
            assert out["max_bytes"] == 4096
            assert "4,096 bytes" in out["warning"]
            # The first value takes what is left of the limit, in UTF-8 bytes;
            # no further row is read once the limit is spent.
            (first, *rest) = out["data"]
            assert first["id"] == 1
            assert len(first["body"].encode()) < 4096
            assert rest == []
            assert out["cut_values"] == [{"row": 0, "column": "body", "length": 3000}]
    finally:
        server.close()
        with shop.engine.begin() as conn:
            conn.exec_driver_sql("DROP TABLE lde_big")
