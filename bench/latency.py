"""
Median classify_error latency per backend on real exceptions.

    python -m bench.latency [--loops N] [--backend NAME ...]

Two figures per backend, because the core remembers answers (a bounded memo,
see ``localdata_errors.classify.MEMO_LIMIT``):

- **first sight**: the memo is emptied before every call, so each call maps
  the error from scratch (unwrap, native code, kind, names, redaction);
- **repeated**: the same error again, answered from the memo, as when an
  agent retries the same failing statement.

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

import localdata_errors.classify as core
from bench._corpora import BACKENDS, load
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


def first_sight(fn: Callable[[], object]) -> Callable[[], object]:
    """*fn* with the memo emptied before each call (the emptying is timed too)."""
    forget = core._MEMO.clear

    def call() -> object:
        forget()
        return fn()

    return call


MESSAGES = (
    ("sqlite", "no such table: orders", None),
    ("postgresql", 'relation "orders" does not exist', "42P01"),
    ("mysql", "Deadlock found when trying to get lock; try restarting transaction", "1213"),
    ("generic", "permission denied for table orders", None),
    ("generic", "something nobody recognises at all", None),
)


def _row(label: str, cold: list[float], warm: list[float]) -> str:
    return (f"{label:<11} {len(cold):>5} {statistics.median(cold):>10.2f} {_p99(cold):>8.2f}"
            f" {statistics.median(warm):>10.2f} {_p99(warm):>8.2f}")


def main() -> int:
    """Print the latency table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--loops", type=int, default=200)
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    args = parser.parse_args()
    print("classify_error on real exceptions, µs per call")
    print(f"{'':<11} {'':>5} {'first sight':>19} {'repeated':>19}")
    print(f"{'backend':<11} {'cases':>5} {'median':>10} {'p99':>8} {'median':>10} {'p99':>8}")
    all_cold: list[float] = []
    all_warm: list[float] = []
    for backend, cases in load(tuple(args.backend or BACKENDS)):
        if isinstance(cases, str):
            print(f"{backend:<11} left out: {cases}")
            continue
        cold: list[float] = []
        warm: list[float] = []
        for case in cases:
            call = partial(classify_error, case.exception, case.db_type)
            cold.append(per_call_ns(first_sight(call), args.loops) / 1000)
            warm.append(per_call_ns(call, args.loops) / 1000)
        all_cold += cold
        all_warm += warm
        print(_row(backend, cold, warm))
    if all_cold:
        print(_row("all", all_cold, all_warm))
    print()
    print(f"{'message-only':<40} {'db_type':<11} {'code':<6} {'first':>6} {'again':>6}")
    for db_type, text, code in MESSAGES:
        call = partial(classify_message, text, db_type, code)
        cold_us = per_call_ns(first_sight(call), args.loops * 10) / 1000
        warm_us = per_call_ns(call, args.loops * 10) / 1000
        print(f"{text[:40]:<40} {db_type:<11} {code or '-':<6} {cold_us:>6.2f} {warm_us:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
