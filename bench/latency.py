"""
classify_error latency per backend on real exceptions, first sight and repeated.

    python -m bench.latency [--rounds N] [--backend NAME ...]

Per backend: the median and p90 of `classify_error(exc).to_tool_error()`
on first sight (one call on an error that is not the one just classified,
see `bench/timing.py`) and repeated (the same call back to back), and the
floor (reading the exception's type and text).  Also: message-only
classification (with the text's own form naming the backend, and with an
explicit `db_type`) and the generic fallback.  `python -m compare` prints
the same figures beside localdata-mcp's.
"""

from __future__ import annotations

import argparse
import statistics
from functools import partial

from bench._corpora import BACKENDS, load
from bench.timing import first_sight, p90, raised, read_exception, repeated
from localdata_errors import classify_error, classify_message

MESSAGES = (
    ("sqlite", "no such table: orders", None),
    ("postgresql", 'relation "orders" does not exist', "42P01"),
    ("mysql", "Deadlock found when trying to get lock; try restarting transaction", "1213"),
    (None, "ERROR 1146 (42S02): Table 'shop.orders' doesn't exist", None),
    (None, "ORA-00942: table or view does not exist", None),
    ("generic", "permission denied for table orders", None),
    ("generic", "something nobody recognises at all", None),
)


def _ours(exc: BaseException, db_type: str | None) -> object:
    return classify_error(exc, db_type).to_tool_error()


def _row(label: str, first: list[float], again: list[float], floor: list[float]) -> str:
    return (
        f"{label:<11} {len(first):>5} {statistics.median(first):>8.2f} {p90(first):>8.2f}"
        f" {statistics.median(again):>9.2f} {statistics.median(floor):>7.2f}"
    )


def main() -> int:
    """Print the latency table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--rounds", type=int, default=15, help="first-sight samples per case")
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    args = parser.parse_args()
    print("classify_error(exc).to_tool_error() on real exceptions, µs per call")
    print(f"{'':<11} {'':>5} {'first sight':>17} {'repeated':>9} {'floor':>7}")
    print(f"{'backend':<11} {'cases':>5} {'median':>8} {'p90':>8} {'median':>9} {'median':>7}")
    all_first: list[float] = []
    all_again: list[float] = []
    all_floor: list[float] = []
    for backend, cases in load(tuple(args.backend or BACKENDS)):
        if isinstance(cases, str):
            print(f"{backend:<11} left out: {cases}")
            continue
        calls = [
            (partial(_ours, c.exception, c.db_type), partial(read_exception, c.exception))
            for c in cases
        ]
        touch = [partial(raised, c.exception) for c in cases]
        first, floor = first_sight(calls, args.rounds, touch=touch)
        again = [repeated(call[0]) for call in calls]
        all_first += first
        all_again += again
        all_floor += floor
        print(_row(backend, first, again, floor))
    if all_first:
        print(_row("all", all_first, all_again, all_floor))
    print()
    print(f"{'message-only':<48} {'db_type':<11} {'first':>6} {'again':>6}")
    for db_type, text, code in MESSAGES:
        call = partial(classify_message, text, db_type, code)
        (first,) = first_sight([(call,)], args.rounds)
        print(f"{text[:48]:<48} {db_type or '(text)':<11} {first[0]:>6.2f} {repeated(call):>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
