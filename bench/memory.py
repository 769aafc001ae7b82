"""
Memory: the deep size of one response, and the growth over many classifications.

    python -m bench.memory [--calls N]

The deep size counts the response and everything it holds that is not shared
(enum members and the Kind table's tuples of actions are shared by every
response, so they are left out).  The growth is measured with tracemalloc
over N classifications of distinct real SQLite errors and message-only
errors (every text differs, so the memo of answers fills, empties and fills
again): sampled ten times after the first 10,000 calls, the traced memory
stays in one band and does not drift upwards.
"""

from __future__ import annotations

import argparse
import gc
import sqlite3
import statistics
import sys
import tracemalloc
from collections.abc import Iterator

from localdata_errors import (
    KIND_TABLE,
    ErrorCategory,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
)

_SHARED: set[int] = {id(m) for m in (*Kind, *ErrorCategory)}
_SHARED |= {id(info.actions) for info in KIND_TABLE.values()}
_SHARED |= {id(a) for info in KIND_TABLE.values() for a in info.actions}
_SHARED |= {id(info.suggestion) for info in KIND_TABLE.values()}


def deep_size(obj: object, seen: set[int] | None = None) -> int:
    """``sys.getsizeof`` of *obj* and of what it holds, each object once, shared ones left out."""
    seen = set() if seen is None else seen
    if id(obj) in seen or id(obj) in _SHARED or obj is None or isinstance(obj, bool):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, tuple | list):
        size += sum(deep_size(item, seen) for item in obj)
    return size


def _sqlite_errors() -> list[BaseException]:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n TEXT NOT NULL UNIQUE)")
    con.execute("INSERT INTO t VALUES (1, 'a')")
    found: list[BaseException] = []
    for sql in (
        "SELECT * FROM nope",
        "SELECT nope FROM t",
        "INSERT INTO t VALUES (1, 'b')",
        "INSERT INTO t VALUES (2, 'a')",
        "INSERT INTO t VALUES (3, NULL)",
        "SELEC 1",
    ):
        try:
            con.execute(sql)
        except sqlite3.Error as exc:
            found.append(exc)
    return found


def _calls(n: int) -> Iterator[None]:
    errors = _sqlite_errors()
    for i in range(n):
        if i % 2:
            classify_error(errors[i % len(errors)])
        else:
            classify_message(f'relation "t{i}" does not exist', "postgresql", "42P01")
        yield None


def main() -> int:
    """Print the sizes and the growth."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--calls", type=int, default=1_000_000)
    args = parser.parse_args()

    sizes = [deep_size(classify_error(exc)) for exc in _sqlite_errors()]
    fresh: StructuredErrorResponse = classify_message(
        'duplicate key value violates unique constraint "orders_pkey"', "postgresql", "23505"
    )
    sizes.append(deep_size(fresh))
    print(
        f"deep size of one response: median {statistics.median(sizes):.0f} bytes, "
        f"max {max(sizes)} bytes ({len(sizes)} real errors)"
    )

    # The memo fills to its bound and starts over, so memory saws up and
    # down by a few hundred KiB: the figure is the band after warming up,
    # sampled ten times, which must not drift upwards.
    warm_up = min(10_000, args.calls)
    step = max(1, (args.calls - warm_up) // 10)
    tracemalloc.start()
    samples: list[int] = []
    for i, _ in enumerate(_calls(args.calls), 1):
        if i >= warm_up and (i - warm_up) % step == 0:
            samples.append(tracemalloc.get_traced_memory()[0])
    gc.collect()
    samples.append(tracemalloc.get_traced_memory()[0])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    kib = [f"{s / 1024:.0f}" for s in samples]
    print(
        f"{args.calls:,} classifications: traced KiB from call {warm_up:,} on, "
        f"sampled {len(samples)} times: {' '.join(kib)}; "
        f"first half max {max(samples[: len(samples) // 2]) / 1024:.0f}, "
        f"second half max {max(samples[len(samples) // 2 :]) / 1024:.0f}, "
        f"peak {peak / 1024:.0f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
