"""
Accuracy on the real-error corpus, per backend and driver.

    python -m bench.accuracy [--backend NAME ...] [--failures]

For each case (a real error from a real engine or server, or for Oracle and
SQL Server an exception built exactly as the driver builds it) it checks the
kind, the category, the retry decision, the native code kept, and the names
extracted.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from bench._corpora import BACKENDS, load
from localdata_errors import classify_error
from tests.corpus import score

FIELDS = ("kind", "category", "retryable", "code", "names", "all")


def main() -> int:
    """Print the accuracy table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--failures", action="store_true", help="list every wrong answer")
    args = parser.parse_args()
    totals: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    failures: list[str] = []
    distinct: dict[str, set[str]] = defaultdict(set)
    for backend, cases in load(tuple(args.backend or BACKENDS)):
        if isinstance(cases, str):
            print(f"{backend}: left out: {cases}")
            continue
        for case in cases:
            resp = classify_error(case.exception, db_type=case.db_type)
            result = score(case, resp)
            row = totals[(backend, case.driver)]
            row["cases"] += 1
            distinct[backend].add(case.name)
            for field in FIELDS:
                row[field] += int(getattr(result, field))
            if not result.all:
                failures.append(
                    f"{backend}/{case.driver}/{case.name}: expected {case.expected.kind.value} "
                    f"code={case.expected.code} names={case.expected.resources}"
                    f" deps={case.expected.dependencies}; got {resp.kind.value} "
                    f"code={resp.database_error_code} names={resp.affected_resources}"
                    f" deps={resp.dependencies} constraint={resp.constraint}"
                )
    header = f"{'backend':<11} {'driver':<24} {'cases':>5} " + " ".join(f"{f:>9}" for f in FIELDS)
    print(header)
    print("-" * len(header))
    grand: dict[str, int] = defaultdict(int)
    for (backend, driver), row in sorted(totals.items()):
        cells = " ".join(f"{100 * row[f] / row['cases']:8.1f}%" for f in FIELDS)
        print(f"{backend:<11} {driver:<24} {row['cases']:>5} {cells}")
        for key, value in row.items():
            grand[key] += value
    if grand["cases"]:
        cells = " ".join(f"{100 * grand[f] / grand['cases']:8.1f}%" for f in FIELDS)
        print("-" * len(header))
        print(f"{'all':<11} {'':<24} {grand['cases']:>5} {cells}")
    print("distinct real cases: " + ", ".join(f"{b} {len(n)}" for b, n in sorted(distinct.items())))
    if args.failures:
        print("\n".join(failures) if failures else "no wrong answers")
    else:
        print(f"{len(failures)} wrong answers (--failures lists them)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
