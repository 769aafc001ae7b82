"""The shared pieces: which exceptions are database errors, and the report's first line."""

from __future__ import annotations

import binascii
import sqlite3

import pytest

from localdata_errors import Kind, StructuredErrorResponse
from localdata_errors.integrations import ToolErrorReport, is_database_error, report_for


def test_database_errors_are_told_from_the_tools_own_bugs() -> None:
    conn = sqlite3.connect(":memory:")
    try:
        with pytest.raises(sqlite3.Error) as caught:
            conn.execute("SELECT * FROM nowhere")
    finally:
        conn.close()
    assert is_database_error(caught.value)
    wrapped = RuntimeError("the query failed")
    wrapped.__cause__ = caught.value  # as `raise ... from` sets it
    assert is_database_error(wrapped)
    # binascii, like csv and shutil, names its error `Error`: not a database's.
    assert not is_database_error(binascii.Error("bad padding"))
    assert not is_database_error(KeyError("sql"))


def test_a_driver_no_backend_claims_is_known_by_its_pep_249_names() -> None:
    class DatabaseError(Exception):
        pass

    class OperationalError(DatabaseError):
        pass

    OperationalError.__module__ = "somedb.errors"
    assert is_database_error(OperationalError("server went away"))


def test_the_first_line_says_what_the_code_already_did() -> None:
    lost = StructuredErrorResponse.for_kind(Kind.CONNECTION_LOST, "server closed the connection")
    withheld = ToolErrorReport(lost).instruction()
    assert withheld.startswith("reconnect: the connection was lost while the statement ran")
    assert "a write may have committed" in withheld
    exhausted = ToolErrorReport(lost, attempts=3).instruction()
    assert exhausted.startswith("reconnect: still failing after 3 attempts in code.")
    aborted = StructuredErrorResponse.for_kind(Kind.TRANSACTION_ABORTED, "transaction is aborted")
    assert ToolErrorReport(aborted).instruction().startswith("rollback: the transaction has failed")
    rolled_back = ToolErrorReport(aborted, rolled_back=True).instruction()
    assert rolled_back.startswith("rollback: the failed transaction was rolled back")
    assert report_for(KeyError("x")).answer.kind is Kind.UNKNOWN
