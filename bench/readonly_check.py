"""
The read-only check's cost: per character, by length and shape, and what it costs other clients.

    python -m bench.readonly_check [--repeat N]

Part one times the parse layer alone (one tokenization, one parse from those
tokens, the walk and, for PostgreSQL, the reading of every call's name) on
texts of 1,000, 10,000, 20,000 and 100,000 characters, in four shapes: a
realistic analytical query repeated as a UNION ALL chain, a long IN list, a
long string literal, and nested subqueries.  A read-only server refuses a
text over `READ_ONLY_MAX_LENGTH` characters before reading it: the 100,000
character figures say what the check would cost without that bound, and the
last column what the server actually spends on such a text.

Part two runs a read-only SQLite server in process, through the real MCP
client, and measures how long other clients' ``list_tables`` calls take
while a statement at the length bound is being checked: the check runs in
a worker thread, never on the server's event loop.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import anyio
from mcp import Client

from localdata_errors.mcp import server as server_module
from localdata_errors.mcp._execute import READ_ONLY_MAX_LENGTH, statements_of
from localdata_errors.mcp._readonly import read
from localdata_errors.mcp._sql import Database
from localdata_errors.mcp._statements import split

DIALECTS = ("postgres", "mysql", "sqlite", "duckdb")
LENGTHS = (1_000, 10_000, READ_ONLY_MAX_LENGTH, 100_000)
_QUERY = (
    "SELECT c.name, sum(s.qty) AS total, row_number() OVER (PARTITION BY c.id ORDER BY s.qty) "
    "FROM sales s JOIN customers c ON c.id = s.customer_id WHERE c.name LIKE 'A%' "
    "GROUP BY c.name, c.id, s.qty"
)


def _repeat(block: str, length: int) -> str:
    """*block* as many times as fit in *length* characters, joined by UNION ALL."""
    count = max(1, (length + 11) // (len(block) + 11))
    return " UNION ALL ".join([block] * count)


def _union(length: int) -> str:
    return _repeat(_QUERY, length)


def _in_list(length: int) -> str:
    head = "SELECT name FROM customers WHERE id IN ("
    numbers: list[str] = []
    size = len(head) + 1
    while size + len(str(len(numbers))) + 2 <= length:
        numbers.append(str(len(numbers)))
        size += len(numbers[-1]) + 2
    return head + ", ".join(numbers) + ")"


def _literal(length: int) -> str:
    return "SELECT '" + "x" * (length - 14) + "' AS v"


def _nested(length: int) -> str:
    block = "SELECT 1 AS a"
    for _ in range(30):
        block = f"SELECT a FROM ({block}) AS t WHERE a > 0"
    return _repeat(block, length)


SHAPES: dict[str, Callable[[int], str]] = {
    "union": _union,
    "in-list": _in_list,
    "literal": _literal,
    "nested": _nested,
}


def _check(text: str, dialect: str) -> None:
    for statement in split(text, dialect, strip_comments=True):
        read(statement.text, dialect, statement.comments, statement.tokens)


def _best(function: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        # A refusal is a result too: its time is what is measured.
        with contextlib.suppress(Exception):
            function()
        best = min(best, time.perf_counter() - started)
    return best


def part_one(repeat: int) -> None:
    print("The parse layer alone, µs per character (best of", repeat, "runs)")
    header = "".join(f"{n:>10,}" for n in LENGTHS)
    print(f"{'dialect':<10}{'shape':<10}{header}   served at 100,000")
    refusing = Database("sqlite://", read_only=True)
    for dialect in DIALECTS:
        for shape, make in SHAPES.items():
            cells = []
            for length in LENGTHS:
                text = make(length)
                seconds = _best(functools.partial(_check, text, dialect), repeat)
                cells.append(f"{seconds * 1e6 / len(text):>10.2f}")
            text = make(100_000)
            served = _best(functools.partial(statements_of, refusing, text), repeat)
            print(f"{dialect:<10}{shape:<10}{''.join(cells)}   {served * 1e6:>8.1f} µs (refused)")
    refusing.dispose()


async def _latencies(url: str, heavy: str, rounds: int) -> tuple[list[float], list[float]]:
    settings = server_module.ServerSettings(url, read_only=True, timeout=60)
    server = server_module.build_server(settings)
    async with Client(server) as client:
        await client.call_tool("list_tables", {})
        alone: list[float] = []
        for _ in range(rounds):
            started = time.perf_counter()
            await client.call_tool("list_tables", {})
            alone.append(time.perf_counter() - started)
        during: list[float] = []

        async def check() -> None:
            for _ in range(rounds):
                await client.call_tool("execute_sql", {"sql": heavy})

        async def others() -> None:
            await anyio.sleep(0.01)
            for _ in range(rounds):
                started = time.perf_counter()
                await client.call_tool("list_tables", {})
                during.append(time.perf_counter() - started)

        async with anyio.create_task_group() as group:
            group.start_soon(check)
            group.start_soon(others)
    return alone, during


def part_two(rounds: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "shop.db"
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("CREATE TABLE sales (id INTEGER PRIMARY KEY, customer_id INT, qty INT)")
        conn.commit()
        conn.close()
        heavy = _union(READ_ONLY_MAX_LENGTH - 100)
        alone, during = anyio.run(_latencies, f"sqlite:///{path}", heavy, rounds)
    print(
        f"\nOther clients' list_tables while {len(heavy):,}-character statements are checked "
        f"(median ms): alone {statistics.median(alone) * 1e3:.1f}, "
        f"during {statistics.median(during) * 1e3:.1f} (max {max(during) * 1e3:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    part_one(args.repeat)
    part_two(args.rounds)


if __name__ == "__main__":
    main()
