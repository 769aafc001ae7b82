"""classify_error's own behaviour: the keyword fallback, unwrapping, never raising."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from localdata_errors import (
    BackendMapper,
    ErrorCategory,
    ErrorInput,
    ErrorMapperRegistry,
    Kind,
    MappedError,
    classify_error,
    classify_message,
    get_error_suggestion,
    is_error_retryable,
)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # words, not substrings
        (
            "current transaction is aborted, commands ignored until end of transaction block",
            Kind.TRANSACTION_ABORTED,
        ),
        ("clock skew detected between nodes", Kind.UNKNOWN),
        ("select fullname from users failed", Kind.UNKNOWN),
        ("the nearby replica answered", Kind.UNKNOWN),
        ('near "FORM": syntax error', Kind.SYNTAX_ERROR),
        ("Connection not found in pool", Kind.CONNECTION_FAILURE),
        ("database or disk is full", Kind.DISK_FULL),
        ("Lock wait timeout exceeded; try restarting transaction", Kind.LOCK_NOT_AVAILABLE),
        ("Deadlock found when trying to get lock", Kind.DEADLOCK_DETECTED),
        ("the account is locked", Kind.INVALID_AUTHORIZATION),
        ("connection timed out", Kind.CONNECTION_FAILURE),
        (
            "QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00",
            Kind.TOO_MANY_CONNECTIONS,
        ),
        ("permission denied for table orders", Kind.INSUFFICIENT_PRIVILEGE),
        ("division by zero", Kind.DIVISION_BY_ZERO),
        ('relation "orders" does not exist', Kind.UNDEFINED_TABLE),
        ("no such table: orders", Kind.UNDEFINED_TABLE),
        ("Table 'orders' already exists", Kind.DUPLICATE_TABLE),
        ("table orders already exists", Kind.DUPLICATE_TABLE),
    ],
)
def test_generic_fallback_matches_words(text: str, kind: Kind) -> None:
    assert classify_message(text, db_type="generic").kind is kind


def test_generic_names_the_object() -> None:
    resp = classify_message("table public.orders already exists", db_type="generic")
    assert resp.affected_resources == ("orders",)
    assert resp.schema == "public"


def test_localdata_calling_style() -> None:
    resp = classify_error(RuntimeError("deadlock detected"), db_type="generic")
    assert resp.error_type is ErrorCategory.TRANSIENT_ERROR
    assert resp.is_retryable is True
    assert is_error_retryable(RuntimeError("deadlock detected")) is True
    assert "syntax" not in get_error_suggestion(RuntimeError("deadlock detected"))


class _BadStr(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


class _BadBoth(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no")

    def __repr__(self) -> str:
        raise RuntimeError("no")


def _cyclic() -> BaseException:
    a = RuntimeError("a: deadlock detected")
    b = RuntimeError("b")
    a.__cause__ = b
    b.__cause__ = a
    return a


@pytest.mark.parametrize(
    "value",
    [
        None,
        42,
        object(),
        "plain text",
        b"\xff\xfe bytes",
        ["a"],
        _BadStr(),
        _BadBoth(),
        _cyclic(),
        Exception(b"no such table: x"),
        Exception("x" * 10_000_000),
        Exception("\x00\x01\x02 control"),
        KeyboardInterrupt(),
    ],
)
def test_never_raises_and_is_json_safe(value: object) -> None:
    resp = classify_error(value)
    json.dumps(resp.to_dict())
    json.dumps(resp.to_tool_error())
    json.dumps(resp.to_jsonrpc_error(tool_name="t"))
    json.dumps(resp.to_agent_response())
    assert len(resp.message) < 10_000


def test_huge_message_is_bounded_and_says_so() -> None:
    resp = classify_error(Exception("deadlock detected " + "x" * 2_000_000))
    assert resp.kind is Kind.DEADLOCK_DETECTED
    assert resp.message.endswith("characters in all]")


def test_chain_is_followed_to_the_driver_exception() -> None:
    conn = sqlite3.connect(":memory:")
    try:
        try:
            conn.execute("SELECT * FROM missing_table")
        except sqlite3.Error as exc:
            raise RuntimeError("repository failed") from exc
    except RuntimeError as wrapped:
        resp = classify_error(wrapped)
    assert resp.kind is Kind.UNDEFINED_TABLE
    assert resp.message == "no such table: missing_table"
    assert resp.driver == "sqlite3"


class _BrokenOrig(RuntimeError):
    """A wrapper whose `.orig` property raises (a wrapper's own bug)."""

    @property
    def orig(self) -> BaseException:
        raise RuntimeError("no")


def test_a_wrapper_whose_orig_raises_is_followed_by_its_cause() -> None:
    conn = sqlite3.connect(":memory:")
    try:
        try:
            conn.execute("SELECT * FROM missing_table")
        except sqlite3.Error as exc:
            raise _BrokenOrig("repository failed") from exc
    except _BrokenOrig as wrapped:
        resp = classify_error(wrapped)
    assert resp.kind is Kind.UNDEFINED_TABLE
    assert resp.driver == "sqlite3"


def test_sqlalchemy_trailer_is_not_classified() -> None:
    sa = pytest.importorskip("sqlalchemy")
    engine = sa.create_engine("sqlite://")
    with engine.connect() as conn, pytest.raises(sa.exc.OperationalError) as info:
        conn.execute(sa.text("SELECT * FROM t_deadlock_lock_timeout"))
    resp = classify_error(info.value)
    assert "[SQL:" not in resp.message
    assert "sqlalche.me" not in resp.message
    assert resp.kind is Kind.UNDEFINED_TABLE


def test_sqlalchemy_connection_invalidated_means_connection_lost() -> None:
    sa = pytest.importorskip("sqlalchemy")
    err = sa.exc.OperationalError(
        "SELECT 1", {}, sqlite3.OperationalError("some odd failure"), connection_invalidated=True
    )
    resp = classify_error(err)
    assert resp.kind is Kind.CONNECTION_LOST
    assert resp.is_retryable is True


def test_importing_the_package_imports_no_driver() -> None:
    drivers = [
        "sqlite3",
        "duckdb",
        "psycopg",
        "psycopg2",
        "asyncpg",
        "pymysql",
        "MySQLdb",
        "mysql",
        "mariadb",
        "aiomysql",
        "oracledb",
        "cx_Oracle",
        "pyodbc",
        "pymssql",
        "pytds",
        "sqlalchemy",
        "sqlglot",
        "mcp",
        # the agent frameworks of localdata_errors.integrations
        "pydantic_ai",
        "langchain",
        "langchain_core",
        "langgraph",
        "agents",
        "openai",
    ]
    code = (
        "import sys, localdata_errors\n"
        "from localdata_errors import classify_message\n"
        "classify_message('no such table: t', db_type='sqlite')\n"
        f"print([m for m in {drivers!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_importing_the_package_compiles_only_small_patterns() -> None:
    # The import stays cheap: the credential scan, the pasted-error forms and
    # the keyword fallback's name patterns are compiled by their first use.
    # What the import itself compiles (re's cache shows) is a few short ones.
    code = (
        "import re, pluggy\n"
        "before = set(re._cache)\n"
        "import localdata_errors\n"
        "print(max((len(key[1]) for key in set(re._cache) - before), default=0))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) <= 100
    # ... and the fallback still finds the names with them once it is asked.
    answer = classify_message('relation "orders" does not exist', db_type="generic")
    assert answer.affected_resources == ("orders",)


class _CodeOnlyMapper(BackendMapper):
    """A third party's mapper that knows its own code but not what it means."""

    name = "codeonlydb"

    def map_error(self, error: ErrorInput) -> MappedError | None:
        return MappedError(Kind.UNKNOWN, code="CO-7")


def test_the_fallback_keeps_the_backends_code_and_adds_every_name_it_finds() -> None:
    # The backend knows the code, not the kind: the keyword fallback decides the
    # kind, and every name the words give (the other table of a foreign key
    # included) joins the answer.
    ErrorMapperRegistry.register("codeonlydb", _CodeOnlyMapper())
    answer = classify_message(
        'insert or update on table "orders" violates foreign key constraint "orders_cid_fkey"'
        '\nDETAIL:  Key (customer_id)=(9) is not present in table "customers".',
        "codeonlydb",
    )
    assert (answer.kind, answer.database_error_code) == (Kind.FOREIGN_KEY_VIOLATION, "CO-7")
    assert answer.dependencies == ("customers",)
    assert answer.backend == "codeonlydb"


@pytest.mark.parametrize("module", [None, 42, "", ("a",), "builtins", "socket", "__main__"])
@pytest.mark.parametrize(
    "text",
    [
        'relation "orders" does not exist',
        "no such table: orders",
        "Deadlock found when trying to get lock; try restarting transaction",
        'duplicate key value violates unique constraint "users_email_key"',
    ],
)
def test_a_class_whatever_its_module_says_is_answered_by_its_text(
    module: object, text: str
) -> None:
    # A class made at run time may carry any __module__: it names no backend,
    # and the same text answers as it does on a plain ValueError.
    klass = type("OddError", (Exception,), {})
    klass.__module__ = module  # type: ignore[assignment]
    odd, plain = classify_error(klass(text)), classify_error(ValueError(text))
    assert (odd.kind, odd.error_type, odd.affected_resources) == (
        plain.kind,
        plain.error_type,
        plain.affected_resources,
    )
    assert odd.kind.value != "unknown"


@pytest.mark.parametrize(
    ("code", "expected"),
    [(1213, "deadlock_detected"), (1213.0, "deadlock_detected"), ("1213", "deadlock_detected"),
     (" 1213 ", "deadlock_detected"), (1213.5, "unknown"), (True, "unknown"), ([1213], "unknown"),
     (b"1213", "unknown"), (float("nan"), "unknown"), (2**80, "unknown")],
)  # fmt: skip
def test_an_explicit_code_of_any_type_never_raises(code: object, expected: str) -> None:
    # MySQL's 1213 is ER_LOCK_DEADLOCK; a value that is not a whole number is no code.
    answer = classify_message("", db_type="mysql", code=code)  # type: ignore[arg-type]
    assert answer.kind.value == expected
