"""
What ``import localdata_errors`` costs, and that it imports no driver.

    python -m bench.importtime

Times ``import localdata_errors`` in a fresh interpreter several times and
prints the median, and the same for ``import pluggy`` (its one dependency)
alone.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

RUNS = 7
DRIVERS = (
    "sqlite3",
    "duckdb",
    "psycopg",
    "psycopg2",
    "asyncpg",
    "pymysql",
    "MySQLdb",
    "mysql",
    "mariadb",
    "oracledb",
    "pyodbc",
    "pymssql",
    "pytds",
    "sqlalchemy",
)


# Measure the installed state: byte-code compiled once, as pip does at install
# time (an environment that sets PYTHONDONTWRITEBYTECODE would time compilation).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cumulative_us(module: str, runs: int = RUNS) -> float:
    """
    Median time of ``import module`` in a fresh interpreter, in microseconds.

    Timed with a clock around the import statement, not with ``-X
    importtime``, whose own bookkeeping on every module it reports would
    weigh on a package of many modules more than on one of few.
    """
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True, env=ENV)
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=ENV
        )
        samples.append(float(out.stdout.strip().splitlines()[-1]) * 1e6)
    return statistics.median(samples)


def main() -> int:
    """Print the figures."""
    package = cumulative_us("localdata_errors")
    pluggy = cumulative_us("pluggy")
    added = (package - pluggy) / 1000
    print(
        f"import localdata_errors: median {package / 1000:.1f} ms cumulative "
        f"(pluggy alone: {pluggy / 1000:.1f} ms; the package adds {added:.1f} ms; "
        f"{package / pluggy:.2f}x pluggy, target <= 1.60x)"
    )
    code = (
        f"import sys, localdata_errors; print(','.join(m for m in {DRIVERS!r} if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"drivers imported by the package: {loaded or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
