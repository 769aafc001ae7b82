"""
Median classify_error latency per backend on real exceptions.

    python -m bench.latency [--loops N]

Each case is timed over N calls, five times; the per-call median of the
repeats is that case's figure.  Per backend: the median and p99 across its
cases.  Also: message-only classification and the generic fallback.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from bench._corpora import load
from localdata_errors import classify_error, classify_message


def per_call_ns(fn: Callable[[], object], loops: int, repeats: int = 5) -> float:
    """The median over *repeats* of the mean time of one call, in nanoseconds."""
    fn()  # warm caches: discovery, lazy tables
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for _ in range(loops):
            fn()
        samples.append((time.perf_counter_ns() - start) / loops)
    return statistics.median(samples)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


MESSAGES = (
    ("sqlite", "no such table: orders", None),
    ("postgresql", 'relation "orders" does not exist', "42P01"),
    ("mysql", "Deadlock found when trying to get lock; try restarting transaction", "1213"),
    ("generic", "permission denied for table orders", None),
    ("generic", "something nobody recognises at all", None),
)


def main() -> int:
    """Print the latency table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--loops", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'backend':<11} {'cases':>5} {'median µs':>10} {'p99 µs':>8}"
          "   (classify_error, real exceptions)")
    all_cases: list[float] = []
    for backend, cases in load():
        if isinstance(cases, str):
            print(f"{backend:<11} left out: {cases}")
            continue
        figures = []
        for case in cases:
            call = partial(classify_error, case.exception, case.db_type)
            figures.append(per_call_ns(call, args.loops) / 1000)
        all_cases += figures
        print(f"{backend:<11} {len(figures):>5} {statistics.median(figures):>10.2f} "
              f"{_p99(figures):>8.2f}")
    if all_cases:
        print(f"{'all':<11} {len(all_cases):>5} {statistics.median(all_cases):>10.2f} "
              f"{_p99(all_cases):>8.2f}")
    print()
    print(f"{'message-only':<40} {'db_type':<11} {'code':<6} {'µs':>6}")
    for db_type, text, code in MESSAGES:
        us = per_call_ns(partial(classify_message, text, db_type, code), args.loops) / 1000
        print(f"{text[:40]:<40} {db_type:<11} {code or '-':<6} {us:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
