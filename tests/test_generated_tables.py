"""
The client catalogues in the package are what their sources on this machine give.

Each generator reads a list its upstream ships (libpq's and the PostgreSQL
server's message catalogues, mssql-python's and python-oracledb's error
modules, FreeTDS's `sybdb.h`) and its `--check` fails when the committed
module (or docs listing) differs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from _generated import SOURCE_MISSING

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[1]

GENERATORS = [
    "generate_libpq_messages.py",
    "generate_postgresql_fatal.py",
    "generate_mssql_python_texts.py",
    "generate_odbc_sqlstates.py",
    "generate_oracledb_codes.py",
    "generate_odpi_messages.py",
    "generate_dblib_codes.py",
    "generate_vendor_wordings.py",
]


@pytest.mark.parametrize("generator", GENERATORS)
def test_the_committed_table_is_up_to_date(generator: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / generator), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    if done.returncode == SOURCE_MISSING:
        message = f"the upstream list of {generator} is not on this machine: {done.stderr.strip()}"
        if IN_CI:
            pytest.fail(f"CI=true and {message}", pytrace=False)
        pytest.skip(message)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "up to date" in done.stdout
