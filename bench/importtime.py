"""
What ``import localdata_errors`` costs, and that it imports no driver.

    python -m bench.importtime

Runs ``python -X importtime -c "import localdata_errors"`` several times and
prints the median cumulative time of the package, and the same for
``import pluggy`` (its one dependency) alone.
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


def cumulative_us(module: str) -> float:
    """Median cumulative import time of *module*, in microseconds."""
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True, env=ENV)
    samples = []
    for _ in range(RUNS):
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            check=True,
            env=ENV,
        )
        for line in out.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] == module:
                samples.append(float(parts[1]))
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
