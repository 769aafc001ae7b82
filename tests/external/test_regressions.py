"""
The misclassifications the outside evidence found, each proven fixed on the real text.

oslo.db's cases found them; here each is produced for real wherever this
machine can: the running MariaDB and PostgreSQL servers' own replies, the
drivers' own exceptions (a protocol reply out of step from a loopback socket,
a value the connection's encoding cannot carry), and the vendor's documented
text where no server here can send it.  The expected kind comes from the
vendor's meaning (the SQLSTATE the server sent, the symbol's documentation),
never from the table under test.
"""

from __future__ import annotations

import socket
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors import (
    Action,
    ErrorCategory,
    Kind,
    RetrySafety,
    classify_error,
    classify_message,
)
from tests.conftest import require_module

# -- MariaDB: a write conflict, an unknown command -------------------------------------------


@pytest.fixture
def mariadb(mysql_server: dict[str, Any]) -> Iterator[tuple[Any, Any, str]]:
    """Two pymysql connections and a database of their own, dropped afterwards."""
    pymysql = require_module("pymysql")
    database = f"lde_ext_{uuid.uuid4().hex[:12]}"
    settings = {k: v for k, v in mysql_server.items() if k != "database"}
    first = pymysql.connect(**settings, autocommit=True)
    second = pymysql.connect(**settings, autocommit=True)
    try:
        with first.cursor() as cur:
            cur.execute(f"CREATE DATABASE {database}")
        yield first, second, database
    finally:
        second.close()
        first.close()
        with pymysql.connect(**settings, autocommit=True) as cleanup, cleanup.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS {database}")


@pytest.mark.mysql
def test_a_row_changed_since_this_transaction_read_it_is_a_serialization_failure(
    mariadb: tuple[Any, Any, str],
) -> None:
    """MariaDB's 1020 under snapshot isolation (oslo.db's DBConsistencyError): repeat it all."""
    pymysql = require_module("pymysql")
    first, second, database = mariadb
    with first.cursor() as mine, second.cursor() as theirs:
        mine.execute(f"CREATE TABLE {database}.t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB")
        mine.execute(f"INSERT INTO {database}.t VALUES (1, 0)")
        mine.execute("SET SESSION innodb_snapshot_isolation = ON")
        mine.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT")
        mine.execute(f"SELECT v FROM {database}.t WHERE id = 1")
        theirs.execute(f"UPDATE {database}.t SET v = 2 WHERE id = 1")
        with pytest.raises(pymysql.err.OperationalError) as raised:
            mine.execute(f"UPDATE {database}.t SET v = 1 WHERE id = 1")
        mine.execute("ROLLBACK")
    assert raised.value.args[0] == 1020  # ER_CHECKREAD, the server's own number
    for answer in (
        classify_error(raised.value),
        classify_message(raised.value.args[1], "mysql", code=1020),
        classify_message(f"1020 (HY000): {raised.value.args[1]}", "mysql"),
    ):
        assert answer.kind is Kind.SERIALIZATION_FAILURE, answer
        assert answer.is_retryable
        assert answer.action is Action.RETRY
        assert answer.database_error_code == "1020"


@pytest.mark.mysql
def test_a_command_the_server_refuses_is_a_connection_failure(
    mariadb: tuple[Any, Any, str],
) -> None:
    """
    1047 "Unknown command", SQLSTATE 08S01: a Galera node outside the primary
    component answers every request so (oslo.db's DBConnectionError).
    """
    pymysql = require_module("pymysql")
    _, second, _ = mariadb
    # No public call sends a protocol command of one's choosing; these two steps
    # are pymysql's own ping(), with a command byte no server defines.
    second._execute_command(0x30, b"")
    with pytest.raises(pymysql.err.OperationalError) as raised:
        second._read_ok_packet()
    assert raised.value.args[0] == 1047
    for answer in (
        classify_error(raised.value),
        classify_message("Unknown command", "mysql", 1047),
    ):
        assert answer.kind is Kind.CONNECTION_FAILURE, answer
        assert answer.error_type is ErrorCategory.CONNECTION_ERROR
        assert answer.is_retryable
        assert answer.action is Action.RECONNECT
        # The server refused the request before running anything.
        assert answer.retry_safety is RetrySafety.SAFE


# -- pymysql: a reply out of step -----------------------------------------------------------


def test_a_reply_out_of_sequence_is_a_lost_connection() -> None:
    """pymysql closes the connection, then raises InternalError (oslo.db's DBConnectionError)."""
    pymysql = require_module("pymysql")
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]

        def reply_out_of_step() -> None:
            peer, _ = server.accept()
            with peer:
                # A one-byte packet numbered 1: the client expects its first reply as 0.
                peer.sendall(b"\x01\x00\x00\x01\x0a")
                peer.recv(64)

        thread = threading.Thread(target=reply_out_of_step, daemon=True)
        thread.start()
        with pytest.raises(pymysql.err.InternalError) as raised:
            pymysql.connect(host="127.0.0.1", port=port, user="x", connect_timeout=5)
        thread.join(5)
    assert raised.value.args[0].startswith("Packet sequence number wrong")
    for answer in (classify_error(raised.value), classify_message(raised.value.args[0], "mysql")):
        assert answer.kind is Kind.CONNECTION_LOST, answer
        assert answer.action is Action.RECONNECT
        assert answer.is_retryable


# -- MySQL: a number retired from the list -----------------------------------------------------


def test_a_retired_mysql_number_keeps_its_meaning() -> None:
    """1557, MySQL 5.1 to 5.5's ER_FOREIGN_DUPLICATE_KEY, now ..._OLD_UNUSED (SQLSTATE 23000)."""
    # The MySQL 5.5 reference manual's text for 1557, its placeholders filled.
    text = (
        "Upholding foreign key constraints for table 'orders', entry '7', key 2 would "
        "lead to a duplicate entry"
    )
    answer = classify_message(text, "mysql", code=1557)
    assert answer.kind is Kind.UNIQUE_VIOLATION
    assert answer.database_error_code == "1557"
    # MariaDB gave the number up (ER_UNUSED_4) with this text: nothing to follow there.
    assert classify_message("You should never see it", "mysql", code=1557).kind is Kind.UNKNOWN


# -- PostgreSQL: an object of a table that does not exist -------------------------------------


@pytest.fixture
def pg_schema(pg_server: dict[str, Any]) -> Iterator[tuple[Any, str]]:
    """A psycopg2 connection and a schema of its own with one table, dropped afterwards."""
    psycopg2 = require_module("psycopg2")
    schema = f"lde_ext_{uuid.uuid4().hex[:12]}"
    conn = psycopg2.connect(**pg_server)
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            cur.execute(f"CREATE SCHEMA {schema}; CREATE TABLE {schema}.orders (id int)")
        yield conn, schema
    finally:
        with conn.cursor() as cur:
            cur.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.close()


# (statement, the SQLSTATE the server must send, its kind, the missing object)
_OBJECT, _COLUMN = Kind.UNDEFINED_OBJECT, Kind.UNDEFINED_COLUMN
MISSING_OF_A_TABLE = [
    ("ALTER TABLE {s}.orders DROP CONSTRAINT orders_fk", "42704", _OBJECT, "orders_fk"),
    ("ALTER TABLE {s}.orders VALIDATE CONSTRAINT orders_ck", "42704", _OBJECT, "orders_ck"),
    ("ALTER TABLE {s}.orders RENAME CONSTRAINT orders_ck TO c2", "42704", _OBJECT, "orders_ck"),
    ("ALTER TABLE {s}.orders DROP COLUMN total", "42703", _COLUMN, "total"),
    ("DROP TRIGGER orders_audit ON {s}.orders", "42704", _OBJECT, "orders_audit"),
    ("DROP RULE orders_rule ON {s}.orders", "42704", _OBJECT, "orders_rule"),
    ("DROP POLICY orders_policy ON {s}.orders", "42704", _OBJECT, "orders_policy"),
]


@pytest.mark.postgresql
@pytest.mark.parametrize(
    ("statement", "sqlstate", "kind", "missing"),
    MISSING_OF_A_TABLE,
    ids=[
        "drop-constraint",
        "validate-constraint",
        "rename-constraint",
        "drop-column",
        "drop-trigger",
        "drop-rule",
        "drop-policy",
    ],
)
def test_a_missing_object_of_a_table_is_not_a_missing_table(
    pg_schema: tuple[Any, str], statement: str, sqlstate: str, kind: Kind, missing: str
) -> None:
    """
    The server's text alone (oslo.db's DBNonExistentConstraint): the object is
    missing, not the table.
    """
    psycopg2 = require_module("psycopg2")
    conn, schema = pg_schema
    with pytest.raises(psycopg2.Error) as raised, conn.cursor() as cur:
        cur.execute(statement.format(s=schema))
    assert raised.value.pgcode == sqlstate
    text = str(raised.value)
    for answer in (
        classify_error(raised.value),
        classify_message(text, "postgresql"),
        classify_message(f"ERROR:  {text}"),
    ):
        assert answer.kind is kind, (text, answer)
        assert missing in answer.affected_resources, (text, answer.affected_resources)
        assert "orders" in answer.affected_resources, (text, answer.affected_resources)


# -- a value the connection's encoding cannot carry ------------------------------------------


@pytest.mark.postgresql
def test_psycopg2_cannot_encode_a_parameter(pg_server: dict[str, Any]) -> None:
    """Python's UnicodeEncodeError inside the driver (oslo.db's DBInvalidUnicodeParameter)."""
    psycopg2 = require_module("psycopg2")
    conn = psycopg2.connect(**pg_server)
    try:
        conn.set_client_encoding("LATIN1")
        with pytest.raises(UnicodeEncodeError) as raised, conn.cursor() as cur:
            cur.execute("SELECT %s", ("\u2435",))
    finally:
        conn.close()
    for answer in (classify_error(raised.value, "postgresql"), classify_error(raised.value)):
        # As the server's own 22P05 (untranslatable_character) would say of it.
        assert answer.kind is Kind.INVALID_TEXT_REPRESENTATION, answer
        assert answer.action is Action.FIX_QUERY


@pytest.mark.mysql
def test_pymysql_cannot_encode_a_parameter(mysql_server: dict[str, Any]) -> None:
    """The same from pymysql on a latin1 connection."""
    pymysql = require_module("pymysql")
    with (
        pymysql.connect(**mysql_server, charset="latin1") as conn,
        conn.cursor() as cur,
        pytest.raises(UnicodeEncodeError) as raised,
    ):
        cur.execute("SELECT %s", ("\u2435",))
    for answer in (classify_error(raised.value, "mysql"), classify_error(raised.value)):
        assert answer.kind is Kind.INVALID_TEXT_REPRESENTATION, answer
