"""
Worst-case inputs: 1 MB messages made of near-matches of every pattern.

    python -m bench.adversarial

No pattern may backtrack super-linearly; the target is ≤ 10 ms per 1 MB
message.  Prints the median per message kind and the ratio between a 1 MB
and a 256 KB input (≈ 4 for linear cost; the classifier reads a bounded
prefix, so expect less).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

from localdata_errors import classify_error, classify_message, redact

FRAGMENTS = {
    "quotes and dots": 'relation "a.b.""c\' `x`.[y] table \'a.',
    "near-keywords": "lock clock block nearby near table tables does not exis already exist ",
    "credential shapes": "password= pwd: x://u: u/p@ user:pass@ token=",
    "oracle-ish": 'ORA-0 ORA-00604: ORA-x ( "HR"."EMP".',
    "mysql-ish": "Duplicate entry ' for key ' CONSTRAINT `fk` FOREIGN KEY (`a",
    "sqlserver-ish": "[42S02] [Microsoft][ODBC Driver 18 for SQL Server][SQL Server] (208 (",
    "no spaces": "a" * 64,
}


def _median_ms(fn: Callable[[], object], repeats: int = 5) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> int:
    """Print the figures."""
    print(f"{'input':<20} {'classify 1 MB':>14} {'redact 1 MB':>12} {'ratio 1MB/256KB':>16}")
    for name, fragment in FRAGMENTS.items():
        big = (fragment * (1_048_576 // len(fragment) + 1))[:1_048_576]
        quarter = big[:262_144]
        exc, small = RuntimeError(big), RuntimeError(quarter)
        t_big = _median_ms(partial(classify_error, exc))
        t_quarter = _median_ms(partial(classify_error, small))
        t_redact = _median_ms(partial(redact, big))
        ratio = t_big / max(t_quarter, 1e-6)
        print(f"{name:<20} {t_big:>11.2f} ms {t_redact:>9.2f} ms {ratio:>16.2f}")
    big = (FRAGMENTS["quotes and dots"] * 40_000)[:1_048_576]
    for db in ("postgresql", "mysql", "oracle", "mssql", "sqlite", "duckdb"):
        t = _median_ms(partial(classify_message, big, db))
        print(f"classify_message 1 MB, db_type={db:<11} {t:8.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
