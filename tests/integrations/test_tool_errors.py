"""The shared pieces: which exceptions are database errors, and the report's first line."""

from __future__ import annotations

import binascii
import dataclasses
import sqlite3
from typing import Any

import pytest

from localdata_errors import Kind, StructuredErrorResponse
from localdata_errors.integrations import (
    CodeRetry,
    RetryOptions,
    ToolErrorReport,
    is_database_error,
    report_for,
    retry_in_code,
)


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
    assert exhausted.startswith("reconnect: still failing after the code retried it.")
    # LangChain's middleware counts its own attempts: the predicate marks what it retried.
    assert ToolErrorReport(lost, retried=True).instruction() == exhausted
    aborted = StructuredErrorResponse.for_kind(Kind.TRANSACTION_ABORTED, "transaction is aborted")
    assert ToolErrorReport(aborted).instruction().startswith("rollback: the transaction has failed")
    rolled_back = ToolErrorReport(aborted, rolled_back=True).instruction()
    assert rolled_back.startswith("rollback: the failed transaction was rolled back")
    assert report_for(KeyError("x")).answer.kind is Kind.UNKNOWN


def test_the_adapters_and_the_sql_tool_server_ask_one_question() -> None:
    from localdata_errors import dbapi
    from localdata_errors.mcp import _results

    assert is_database_error is dbapi.is_database_error
    assert _results.is_database_error is dbapi.is_database_error


def _sqlite_error() -> sqlite3.Error:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("SELECT * FROM nowhere")
    except sqlite3.Error as exc:
        return exc
    finally:
        conn.close()
    raise AssertionError("the statement did not fail")


def _raised_while_handling(db: BaseException, *, hide: bool) -> RuntimeError:
    try:
        try:
            raise db
        except sqlite3.Error:
            if hide:
                raise RuntimeError("the query failed") from None
            raise RuntimeError("the query failed")  # noqa: B904 - the implicit context is the case
    except RuntimeError as exc:
        return exc
    raise AssertionError("nothing was raised")


def test_a_chain_is_read_as_pythons_traceback_reads_it() -> None:
    db = _sqlite_error()
    # Raised while handling it: its context is the database error ...
    assert is_database_error(_raised_while_handling(db, hide=False))
    # ... unless `from None` says it is not the cause.
    assert not is_database_error(_raised_while_handling(db, hide=True))


def test_sqlalchemy_errors_are_database_errors_whatever_their_name() -> None:
    sqlalchemy = pytest.importorskip("sqlalchemy")
    pool = sqlalchemy.create_engine(
        "sqlite://", poolclass=sqlalchemy.pool.QueuePool, pool_size=1, max_overflow=0,
        pool_timeout=0.01,
    )  # fmt: skip
    held = pool.connect()
    try:
        with pytest.raises(sqlalchemy.exc.TimeoutError) as caught:
            pool.connect()
    finally:
        held.close()
        pool.dispose()
    assert is_database_error(caught.value)
    # SQLAlchemy's wrapper keeps the driver's error as `.orig`.
    wrapper = RuntimeError("wrapped")
    wrapper.orig = _sqlite_error()  # type: ignore[attr-defined]
    assert is_database_error(wrapper)


def test_a_caller_names_more_database_errors() -> None:
    class StoreError(Exception):
        pass

    assert not is_database_error(StoreError("x"))
    assert is_database_error(StoreError("x"), (StoreError,))


def test_a_cycle_or_a_broken_property_is_no_database_error() -> None:
    first, second = ValueError("a"), ValueError("b")
    first.__cause__, second.__cause__ = second, first
    assert not is_database_error(first)

    class Broken(Exception):
        @property
        def orig(self) -> BaseException:
            raise RuntimeError("no")

    assert not is_database_error(Broken())


def test_the_decorators_options_are_the_loops_own() -> None:
    # One list of options: the loop's fields, less what an adapter sets itself.
    fields = {field.name for field in dataclasses.fields(CodeRetry)} - {"passthrough"}
    assert set(RetryOptions.__annotations__) == fields


@pytest.mark.parametrize("option", ["idempotnt", "passthrough"])
def test_an_option_that_is_not_one_is_refused_when_the_decorator_is_made(option: str) -> None:
    # passthrough is the loop's, set by an adapter for its framework's own signals.
    options: Any = {option: True}
    with pytest.raises(TypeError, match=rf"unknown option {option} \(the options: .*idempotent"):
        retry_in_code(**options)


def test_the_options_reach_the_loop() -> None:
    calls: list[int] = []

    @retry_in_code(idempotent=True, max_attempts=2, max_delay_s=0.0)
    def locked() -> int:
        calls.append(1)
        if len(calls) < 3:
            raise sqlite3.OperationalError("database is locked")
        return len(calls)

    # A busy database is retried (the kind's own limit is higher): two calls, then the report.
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        locked()
    assert len(calls) == 2
