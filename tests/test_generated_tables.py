"""
The generated tables in the package are what their sources on this machine give.

Each generator reads a list its upstream ships (PostgreSQL's `errcodes.txt`,
MariaDB's and MySQL's error lists, libpq's and the PostgreSQL server's
message catalogues (msgids, and translations), mssql-python's and
python-oracledb's error modules, FreeTDS's `sybdb.h`) and its `--check`
fails when the committed module (or docs listing) differs.  The kinds are
decided by hand in the package, one table per backend; each decision must
name a code the generated facts know, so that a typo fails here rather than
deciding nothing.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from _generated import SOURCE_MISSING

from localdata_errors.backends import (
    _connectorj_kinds,
    _connectorj_texts,
    _dblib_codes,
    _dblib_kinds,
    _efcore_kinds,
    _efcore_texts,
    _libpq_kinds,
    _libpq_messages,
    _mssql_jdbc_kinds,
    _mssql_jdbc_texts,
    _mysql_codes,
    _mysql_kinds,
    _njs_codes,
    _njs_kinds,
    _odbc_kinds,
    _odbc_sqlstates,
    _odpi_kinds,
    _odpi_messages,
    _oracledb_codes,
    _oracledb_kinds,
    _postgresql_codes,
    _postgresql_kinds,
    _sqlclient_kinds,
    _sqlclient_texts,
    _sqlstate_classes,
)
from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[1]

GENERATORS = [
    "generate_postgresql_codes.py",
    "generate_mysql_codes.py",
    "generate_libpq_messages.py",
    "generate_postgresql_fatal.py",
    "generate_postgresql_errno.py",
    "generate_mssql_python_texts.py",
    "generate_odbc_sqlstates.py",
    "generate_oracledb_codes.py",
    "generate_odpi_messages.py",
    "generate_dblib_codes.py",
    "generate_njs_codes.py",
    "generate_sqlclient_texts.py",
    "generate_mssql_jdbc_texts.py",
    "generate_efcore_texts.py",
    "generate_connectorj_texts.py",
    "generate_vendor_wordings.py",
    "generate_localized_messages.py",
    "generate_sqlcmd_labels.py",
    "generate_prisma_codes.py",
    "generate_pool_messages.py",
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


def test_the_pool_messages_are_what_the_pools_sources_give() -> None:
    # The sources on this machine (installed Python packages, Go; the npm
    # tarballs and git clones where $POOL_NPM_DIR / $POOL_GIT_ROOT name them).
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "extract_pool_messages.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "up to date" in done.stdout


def test_the_postgresql_decisions_name_only_listed_codes() -> None:
    listed = set(_postgresql_codes.CONDITIONS)
    classes = {code[:2] for code in listed}
    assert sorted(set(_postgresql_kinds.KINDS) - listed) == []
    assert sorted(set(_postgresql_kinds.CLASS_KINDS) - classes) == []
    assert sorted(set(_sqlstate_classes.STANDARD_CLASSES) - classes) == []
    for key in _postgresql_kinds.BY_MESSAGE:
        assert key in listed or (len(key) == 2 and key in classes), key
    # Success, warning and no-data codes are never an error's kind.
    assert {"00", "01", "02"}.isdisjoint(_postgresql_kinds.CLASS_KINDS)
    assert not any(code[:2] in {"00", "01", "02"} for code in _postgresql_kinds.KINDS)


def test_the_mysql_decisions_name_only_defined_symbols() -> None:
    defined = {symbol for pair in _mysql_codes.SYMBOLS.values() for symbol in pair if symbol}
    defined |= {symbol.removesuffix(_mysql_kinds.RETIRED) for symbol in defined}
    assert sorted(set(_mysql_kinds.OVERRIDES) - defined) == []
    for pattern, _ in _mysql_kinds.PATTERNS:
        assert any(re.search(pattern, symbol) for symbol in defined), pattern


def test_every_mysql_number_the_servers_disagree_on_can_be_told_apart() -> None:
    _, ambiguous = _mysql_kinds.decide(_mysql_codes.SYMBOLS)
    assert ambiguous
    for number in ambiguous:
        mariadb = _mysql_codes.SYMBOLS[number][0]
        # Connector/C's client texts are not in MariaDB's server message file.
        assert number in _mysql_codes.MARIADB_TEXT or mariadb.startswith("CR_"), number


def test_the_odbc_decisions_fit_the_listed_sqlstates() -> None:
    assert _odbc_kinds.problems(_odbc_sqlstates.TEXTS) == []


def test_every_libpq_message_about_the_connection_has_a_kind() -> None:
    lines = [line for line, _ in _libpq_messages.MESSAGES]
    assert _libpq_kinds.unjudged(lines) == []
    # Every rule still decides some message of the catalogue.
    for phrase, _ in _libpq_kinds.RULES:
        assert any(phrase in line.lower() for line in lines), phrase


def test_the_dblib_decisions_name_only_symbols_sybdb_h_defines() -> None:
    assert sorted(set(_dblib_kinds.KINDS) - set(_dblib_codes.ERRORS)) == []


def test_the_dblib_texts_are_what_freetds_prints() -> None:
    # dblib.c's table (not sybdb.h's comments, Sybase's wordings), and for
    # SYBESMSG the text dbutil.c hands the error handler itself.
    assert sorted(set(_dblib_codes.MESSAGES) - set(_dblib_codes.ERRORS)) == []
    assert _dblib_codes.ERRORS["SYBETIME"][1] == "SQL Server connection timed out."
    assert _dblib_codes.MESSAGES["SYBETIME"] == (6, "Adaptive Server connection timed out")
    assert _dblib_codes.MESSAGES["SYBESMSG"][1] == (
        "General SQL Server error: Check messages from the SQL Server"
    )


def test_every_oracledb_error_about_the_connection_has_a_kind() -> None:
    assert _oracledb_kinds.unjudged(_oracledb_codes.ERRORS) == []
    assert sorted(set(_oracledb_kinds.OVERRIDES) - set(_oracledb_codes.ERRORS)) == []


def test_the_njs_decisions_name_only_node_oracledbs_own_constants() -> None:
    # Every connection error gets a kind; a decision names a constant the driver
    # has, and one python-oracledb lacks (a shared name takes its decision).
    assert _njs_kinds.unjudged(_njs_codes.ERRORS) == []
    assert sorted(set(_njs_kinds.OVERRIDES) - set(_njs_codes.ERRORS)) == []
    assert sorted(set(_njs_kinds.OVERRIDES) & set(_oracledb_codes.ERRORS)) == []


def test_the_sqlclient_decisions_name_only_sqlclients_messages() -> None:
    assert sorted(set(_sqlclient_kinds.KINDS) - set(_sqlclient_texts.TEXTS)) == []
    assert sorted(set(_sqlclient_kinds.DETAILS) - set(_sqlclient_texts.TEXTS)) == []
    assert sorted(set(_sqlclient_kinds.DETAILS) & set(_sqlclient_kinds.KINDS)) == []


def test_the_efcore_decisions_name_only_efcores_messages() -> None:
    assert sorted(set(_efcore_kinds.KINDS) - set(_efcore_texts.TEXTS)) == []


def test_the_mssql_jdbc_decisions_name_only_mssql_jdbcs_messages() -> None:
    assert sorted(set(_mssql_jdbc_kinds.KINDS) - set(_mssql_jdbc_texts.TEXTS)) == []


def test_the_connectorj_decisions_name_only_connectorjs_messages() -> None:
    assert sorted(set(_connectorj_kinds.KINDS) - set(_connectorj_texts.TEXTS)) == []


def test_the_odpi_decisions_fit_odpis_table() -> None:
    dpy = _oracledb_kinds.decide(_oracledb_codes.ERRORS)
    found = _odpi_kinds.problems(_odpi_messages.MESSAGES, _odpi_messages.TRANSLATIONS, dpy)
    assert found == []
