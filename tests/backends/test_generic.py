"""
The keyword fallback's names: what it reads from a text no backend claimed.

The texts are the engines' own (PostgreSQL 15's, SQLite's), given without a
backend, as a caller with only a log line would.
"""

from __future__ import annotations

import pytest

from localdata_errors import Kind, classify_message


@pytest.mark.parametrize(
    ("message", "resources", "schema"),
    [
        # "column c.x": c is a table or an alias, never a schema.
        ("column c.nme does not exist", ("nme",), None),
        ("Unknown column 'c.nme' in 'field list'", ("nme",), None),
        # Two qualifiers: a schema and its table, which no alias can be.
        ("column shop.orders.nme does not exist", ("nme", "orders"), "shop"),
        # A table's qualifier is its schema.
        ("table public.orders already exists", ("orders",), "public"),
        # A qualified name printed inside one pair of quotes.
        ('relation "shop.orders" does not exist', ("orders",), "shop"),
        ("Table 'shop.orders' doesn't exist", ("orders",), "shop"),
    ],
)
def test_qualifiers_are_not_resources(
    message: str, resources: tuple[str, ...], schema: str | None
) -> None:
    answer = classify_message(message, "generic")
    assert (answer.affected_resources, answer.schema) == (resources, schema)


@pytest.mark.parametrize(
    ("message", "dependencies"),
    [
        (
            'insert or update on table "orders" violates foreign key constraint "orders_cid_fkey"'
            '\nDETAIL:  Key (customer_id)=(9) is not present in table "customers".',
            ("customers",),
        ),
        (
            'update or delete on table "customers" violates foreign key constraint '
            '"orders_cid_fkey" on table "orders"\nDETAIL:  Key (id)=(9) is still referenced '
            'from table "orders".',
            ("orders",),
        ),
    ],
)
def test_foreign_key_names_the_other_table(message: str, dependencies: tuple[str, ...]) -> None:
    # SQLAlchemy's rendering of a psycopg error, read without the exception.
    answer = classify_message(f"(psycopg.errors.ForeignKeyViolation) {message}", "generic")
    assert answer.kind is Kind.FOREIGN_KEY_VIOLATION
    assert answer.dependencies == dependencies
    assert not {"customer_id", "id", "9"} & set(answer.affected_resources)


def test_no_dependencies_without_a_foreign_key() -> None:
    answer = classify_message('relation "customers" does not exist', "generic")
    assert answer.dependencies == ()


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        # Node's system errors (https://nodejs.org/api/errors.html#common-system-errors):
        # ECONNREFUSED "No connection could be made because the target machine
        # actively refused it"; ENOTFOUND "a DNS failure"; ECONNRESET "A
        # connection was forcibly closed by a peer".
        ("Error: connect ECONNREFUSED 127.0.0.1:3306", Kind.CONNECTION_FAILURE),
        (
            "{ [Error: connect ECONNREFUSED] code: 'ECONNREFUSED', errno: 'ECONNREFUSED', "
            "syscall: 'connect', fatal: true }",
            Kind.CONNECTION_FAILURE,
        ),
        (
            "ConnectionError: Failed to connect to locahost:1433 - getaddrinfo ENOTFOUND locahost",
            Kind.CONNECTION_MISCONFIGURED,
        ),
        ("Error: read ECONNRESET", Kind.CONNECTION_LOST),
        # MySQL Connector/J's CommunicationsException
        # (https://dev.mysql.com/doc/connector-j/en/connector-j-reference-error-sqlstates.html,
        # SQLSTATE 08S01): no packet ever received is a failed connect; one
        # received long ago, a link lost under an open connection.
        (
            "com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure "
            "The last packet sent successfully to the server was 0 milliseconds ago. The driver "
            "has not received any packets from the server.",
            Kind.CONNECTION_FAILURE,
        ),
        (
            "com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure "
            "The last packet successfully received from the server was 3,600,089 milliseconds ago.",
            Kind.CONNECTION_LOST,
        ),
        # ODBC's 08S01 (https://learn.microsoft.com/en-us/sql/odbc/reference/appendixes/
        # appendix-a-odbc-error-codes): "Communication link failure".
        (
            "[08S01] [Microsoft][ODBC Driver 17 for SQL Server]Communication link failure",
            Kind.CONNECTION_LOST,
        ),
        # MySQL's CR_CONNECTION_ERROR 2002
        # (https://dev.mysql.com/doc/refman/8.0/en/can-not-connect-to-server.html):
        # no server listens on the socket; the same as a refused TCP connect.
        (
            "Can't connect to local MySQL server through socket '/var/lib/mysql/mysql.sock' "
            '(2 "No such file or directory")',
            Kind.CONNECTION_FAILURE,
        ),
        (
            "dial unix /vt/socket/mysql.sock: connect: no such file or directory",
            Kind.CONNECTION_FAILURE,
        ),
        # SqlClient's error 26/40 text and mssql-jdbc's connect failures
        # (https://learn.microsoft.com/en-us/troubleshoot/sql/database-engine/connect/
        # network-related-or-instance-specific-error-occurred-while-establishing-connection).
        (
            "A network-related or instance-specific error occurred while establishing a "
            "connection to SQL Server. The server was not found or was not accessible.",
            Kind.CONNECTION_FAILURE,
        ),
        (
            "The connection to the host localhost, named instance sqlexpress failed. Error: "
            '"java.net.SocketTimeoutException: Receive timed out".',
            Kind.CONNECTION_FAILURE,
        ),
        # PgJDBC's "Connection to {0} refused. Check that the hostname and port
        # are correct and that the postmaster is accepting TCP/IP connections."
        # (pgjdbc's messages, PSQLState.CONNECTION_UNABLE_TO_CONNECT, 08001).
        (
            "Connection to 127.0.0.1:5433 refused. Check that the hostname and port are "
            "correct and that the postmaster is accepting TCP/IP connections.",
            Kind.CONNECTION_FAILURE,
        ),
        # Oracle's JDBC driver's ORA-17002 ("Io exception"), as it prints it
        # without the number (https://docs.oracle.com/en/database/oracle/
        # oracle-database/19/jjdbc/JDBC-error-messages.html): a connect that
        # found no listener.  Its "IO Error" is no file's input or output.
        (
            "java.sql.SQLRecoverableException: IO Error: The Network Adapter could not "
            "establish the connection",
            Kind.CONNECTION_FAILURE,
        ),
        # BigQuery's quotaExceeded (https://cloud.google.com/bigquery/docs/error-messages):
        # "your project exceeds a BigQuery quota".
        (
            "Quota exceeded: Your project exceeded quota for free query bytes scanned.",
            Kind.QUOTA_EXCEEDED,
        ),
        # Snowflake's 002003 is SQLSTATE 42S02, base table or view not found.
        (
            "SQL compilation error: Object 'MYSNIPPE' does not exist or not authorized.",
            Kind.UNDEFINED_OBJECT,
        ),
    ],
)
def test_vendor_wordings(message: str, kind: Kind) -> None:
    assert classify_message(message, "generic").kind is kind


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        # PostgreSQL's 42P01 and 42703 (errcodes.txt): the noun before the
        # name says what is missing, whatever the name reads as.
        ('relation "role" does not exist', Kind.UNDEFINED_TABLE),
        ('column "user" does not exist', Kind.UNDEFINED_COLUMN),
        # Its 42704 for a login name: still an authorization failure.
        ('role "reporting" does not exist', Kind.INVALID_AUTHORIZATION),
    ],
)
def test_the_noun_before_a_missing_name_decides(message: str, kind: Kind) -> None:
    assert classify_message(message, "generic").kind is kind


@pytest.mark.parametrize("db_type", ["postgresql", "generic"])
@pytest.mark.parametrize(
    "message",
    [
        # PostgreSQL 16's and 17's wordings of 53300 too_many_connections
        # (src/backend/utils/init/postinit.c; errcodes.txt: 53300).
        "remaining connection slots are reserved for roles with the SUPERUSER attribute",
        "remaining connection slots are reserved for roles with privileges of the "
        '"pg_use_reserved_connections" role',
        # PostgreSQL 14's and 15's.
        "remaining connection slots are reserved for non-replication superuser connections",
    ],
)
def test_reserved_connection_slots(message: str, db_type: str) -> None:
    answer = classify_message(f"pq: {message}", db_type)
    assert (answer.kind, answer.is_retryable) == (Kind.TOO_MANY_CONNECTIONS, True)
