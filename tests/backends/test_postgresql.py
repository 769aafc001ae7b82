"""
PostgreSQL backend without a server: the generated table, the decisions, the names.

The messages here are PostgreSQL's and the drivers' own texts (as the
integration tests see them from the real server); the exceptions are the
drivers' real classes.  What needs a server lives in
``tests/integration/test_postgresql_server.py``.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import (
    KIND_TABLE,
    Action,
    ErrorCategory,
    ErrorMapperRegistry,
    Kind,
    RetrySafety,
    StructuredErrorResponse,
    classify_error,
    classify_message,
)
from localdata_errors._registry import MapperRegistry, replace_default_registry
from localdata_errors.backends import _postgresql_codes as codes
from localdata_errors.backends import _postgresql_fatal as fatal_table
from localdata_errors.backends.postgresql import (
    PostgreSQLMapper,
    condition_name,
    lookup,
)
from tests.conftest import IN_CI, require_module
from tools import generate_postgresql_codes as generator
from tools import generate_postgresql_fatal as fatal_generator

ROOT = Path(__file__).resolve().parents[2]


def pg(message: str, code: str | None = None) -> StructuredErrorResponse:
    return classify_message(message, "postgresql", code=code)


# -- the generated table -----------------------------------------------------------------


@pytest.fixture
def source() -> Path:
    if not generator.SOURCE.exists():
        if IN_CI:
            pytest.fail(f"{generator.SOURCE} is missing (install postgresql-15)")
        pytest.skip(f"{generator.SOURCE} is not installed here")
    return generator.SOURCE


def test_committed_table_is_up_to_date(source: Path) -> None:
    assert generator.main(["--check", "--source", str(source)]) == 0


def test_check_fails_when_the_table_drifted(source: Path, tmp_path: Path) -> None:
    drifted = tmp_path / "_postgresql_codes.py"
    docs = tmp_path / "postgresql.md"
    docs.write_text(generator.DOCS.read_text(encoding="utf-8"), encoding="utf-8")
    text = generator.TARGET.read_text(encoding="utf-8")
    drifted.write_text(
        text.replace(
            '"42P01": "undefined_table"',
            '"42P01": "undefined_tables"',
        ),
        encoding="utf-8",
    )
    args = ["--source", str(source), "--output", str(drifted), "--docs", str(docs)]
    assert generator.main(["--check", *args]) == 1
    assert generator.main(args) == 0
    assert drifted.read_text(encoding="utf-8") == text
    assert generator.main(["--check", *args]) == 0


def test_check_fails_when_the_docs_listing_drifted(source: Path, tmp_path: Path) -> None:
    docs = tmp_path / "postgresql.md"
    page = generator.DOCS.read_text(encoding="utf-8")
    assert "| `42P01` | undefined_table |" in page
    docs.write_text(
        page.replace("| `42P01` | undefined_table |", "| `42P01` | gone |"), encoding="utf-8"
    )
    args = ["--source", str(source), "--output", str(generator.TARGET), "--docs", str(docs)]
    assert generator.main(["--check", *args]) == 1
    docs.write_text("no markers here", encoding="utf-8")
    with pytest.raises(generator.SourceError, match="lacks"):
        generator.main(["--check", *args])


def test_every_code_of_errcodes_txt_is_in_the_table(source: Path) -> None:
    parsed = generator.parse(source.read_text(encoding="utf-8"), str(source))
    assert {c.sqlstate for c in parsed} == set(codes.CONDITIONS)
    assert len(codes.CONDITIONS) > 250
    for code in parsed:
        assert codes.CONDITIONS[code.sqlstate] == code.name
        assert condition_name(code.sqlstate) == code.name


def test_header_records_source_and_version() -> None:
    text = generator.TARGET.read_text(encoding="utf-8")
    block = text[text.index(generator.START) : text.index(generator.END)]
    assert "PostgreSQL 15: /usr/share/postgresql/15/errcodes.txt (sha256 " in block


SECTION = "Section: Class 42 - Syntax Error or Access Rule Violation\n"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            SECTION + "42P01    E    ERRCODE_UNDEFINED_TABLE  undefined_table  extra\n",
            "not understood",
        ),
        (SECTION + "42P01    X    ERRCODE_UNDEFINED_TABLE  undefined_table\n", "not understood"),
        (
            SECTION + "42P01 E ERRCODE_UNDEFINED_TABLE undefined_table\n"
            "42P01 E ERRCODE_OTHER_TABLE other_table\n",
            "listed twice",
        ),
        (
            SECTION + "42P01 E ERRCODE_UNDEFINED_TABLE undefined_table\n"
            "42P02 E ERRCODE_UNDEFINED_TABLE undefined_parameter\n",
            "listed twice",
        ),
        (SECTION + "22012 E ERRCODE_DIVISION_BY_ZERO division_by_zero\n", "outside its class"),
        ("42P01 E ERRCODE_UNDEFINED_TABLE undefined_table\n", "before any section"),
        (SECTION + "42ZZZ E ERRCODE_ALIAS_ONLY\n", "has no named entry"),
        ("# only comments\n\n", "no codes"),
    ],
)
def test_generator_fails_loudly(text: str, problem: str) -> None:
    with pytest.raises(generator.SourceError, match=problem):
        generator.parse(text, "errcodes.txt")


def test_alias_macros_in_other_sections_are_accepted() -> None:
    text = (
        "Section: Class 34 - Invalid Cursor Name\n"
        "34000 E ERRCODE_INVALID_CURSOR_NAME invalid_cursor_name\n"
        + SECTION
        + "34000 E ERRCODE_UNDEFINED_CURSOR\n"
    )
    assert [c.sqlstate for c in generator.parse(text, "errcodes.txt")] == ["34000"]


def test_warnings_and_success_have_no_kind() -> None:
    assert lookup("00000") is Kind.UNKNOWN
    assert lookup("01004") is Kind.UNKNOWN  # a warning, despite its name
    assert condition_name("01004") == "string_data_right_truncation"


# -- strict and lenient lookup -----------------------------------------------------------


def test_strict_lookup_knows_only_the_table() -> None:
    assert lookup("42P01") is Kind.UNDEFINED_TABLE
    with pytest.raises(KeyError):
        lookup("42ZZZ")
    assert condition_name("42ZZZ") is None


@pytest.mark.parametrize(
    ("code", "message", "kind"),
    [
        ("08ZZZ", "", Kind.CONNECTION_FAILURE),
        ("23ZZZ", "", Kind.CHECK_VIOLATION),
        ("23ZZZ", "duplicate key value violates unique constraint", Kind.UNIQUE_VIOLATION),
        ("40ZZZ", "", Kind.SERIALIZATION_FAILURE),
        ("42ZZZ", "", Kind.SYNTAX_ERROR),
        ("42ZZZ", 'relation "x" does not exist', Kind.UNDEFINED_TABLE),
        ("42ZZZ", "permission denied for table x", Kind.INSUFFICIENT_PRIVILEGE),
        # Keywords may refine a class fallback only within its category.
        ("40ZZZ", "relation does not exist", Kind.SERIALIZATION_FAILURE),
        ("53ZZZ", "", Kind.CONFIGURATION_LIMIT_EXCEEDED),
        ("57ZZZ", "", Kind.ADMIN_SHUTDOWN),
        ("ZZ999", "", Kind.UNKNOWN),
    ],
)
def test_lenient_lookup_falls_back_by_class(code: str, message: str, kind: Kind) -> None:
    answer = classify_message(message, "postgresql", code=code)
    assert answer.kind is kind
    assert answer.database_error_code == code


def test_a_sqlstate_in_the_text_is_read() -> None:
    answer = classify_message("ERROR: SQLSTATE[40P01] deadlock", "postgresql")
    assert (answer.kind, answer.database_error_code) == (Kind.DEADLOCK_DETECTED, "40P01")
    assert classify_message("SQLSTATE: ERROR, nothing", "postgresql").database_error_code is None


def test_an_unknown_code_is_kept_when_the_keywords_decide() -> None:
    answer = classify_message(
        "something odd happened: deadlock detected", "postgresql", code="ZZ999"
    )
    assert answer.database_error_code == "ZZ999"
    assert answer.kind is Kind.DEADLOCK_DETECTED
    assert answer.backend == "postgresql"


def test_declared_codes_are_classified_so() -> None:
    declared = PostgreSQLMapper().declared_codes()
    assert declared["42P01"] is Kind.UNDEFINED_TABLE
    assert "01000" not in declared
    for code, kind in declared.items():
        answer = classify_message("", "postgresql", code=code)
        assert (answer.kind, answer.database_error_code) == (kind, code)


# -- the decisions the docs explain -----------------------------------------------------


@pytest.mark.parametrize(
    ("code", "message", "kind", "retryable"),
    [
        (
            "40001",
            "could not serialize access due to concurrent update",
            Kind.SERIALIZATION_FAILURE,
            True,
        ),
        ("40P01", "deadlock detected", Kind.DEADLOCK_DETECTED, True),
        (
            "55P03",
            'could not obtain lock on row in relation "accounts"',
            Kind.LOCK_NOT_AVAILABLE,
            True,
        ),
        ("55P03", "canceling statement due to lock timeout", Kind.LOCK_NOT_AVAILABLE, True),
        ("57014", "canceling statement due to statement timeout", Kind.STATEMENT_TIMEOUT, False),
        ("57014", "canceling statement due to user request", Kind.QUERY_CANCELED, True),
        (
            "25P02",
            "current transaction is aborted, commands ignored until end of transaction block",
            Kind.TRANSACTION_ABORTED,
            False,
        ),
        ("57P01", "terminating connection due to administrator command", Kind.ADMIN_SHUTDOWN, True),
        (
            "57P02",
            "terminating connection because of crash of another server process",
            Kind.ADMIN_SHUTDOWN,
            True,
        ),
        ("57P03", "the database system is starting up", Kind.ADMIN_SHUTDOWN, True),
        ("53300", 'too many connections for role "app"', Kind.TOO_MANY_CONNECTIONS, True),
        ("42501", "permission denied for table accounts", Kind.INSUFFICIENT_PRIVILEGE, False),
        (
            "22P02",
            'invalid input syntax for type integer: "abc"',
            Kind.INVALID_TEXT_REPRESENTATION,
            False,
        ),
        (
            "2BP01",
            "cannot drop table customers because other objects depend on it",
            Kind.DEPENDENT_OBJECTS_STILL_EXIST,
            False,
        ),
        (
            "0A000",
            "cannot truncate a table referenced in a foreign key constraint",
            Kind.DEPENDENT_OBJECTS_STILL_EXIST,
            False,
        ),
        ("0A000", "cannot use subquery in check constraint", Kind.FEATURE_NOT_SUPPORTED, False),
        ("42883", "operator does not exist: integer = text", Kind.DATATYPE_MISMATCH, False),
        ("28P01", 'password authentication failed for user "app"', Kind.INVALID_PASSWORD, False),
        ("3D000", 'database "nope" does not exist', Kind.UNDEFINED_DATABASE, False),
        # A database that takes no connection: ALLOW_CONNECTIONS false, or
        # half-dropped.  asyncpg and pg8000 report the code with the text.
        (
            "55000",
            'database "old" is not currently accepting connections',
            Kind.INVALID_AUTHORIZATION,
            False,
        ),
        ("55000", 'cannot connect to invalid database "old"', Kind.UNDEFINED_DATABASE, False),
        ("55000", "object is not in the required state", Kind.UNKNOWN, False),
        (
            "0A000",
            "unsupported frontend protocol 9.9: server supports 3.0 to 3.0",
            Kind.CONNECTION_MISCONFIGURED,
            False,
        ),
    ],
)
def test_decisions(code: str, message: str, kind: Kind, retryable: bool) -> None:
    answer = classify_message(message, "postgresql", code=code)
    assert answer.kind is kind
    assert answer.is_retryable is retryable
    assert answer.database_error_code == code


def test_categories_of_the_contested_codes() -> None:
    assert pg("", "42501").error_type is ErrorCategory.AUTH_ERROR
    assert pg("", "22P02").error_type is ErrorCategory.QUERY_EXECUTION
    assert pg("", "25P02").error_type is not ErrorCategory.TRANSIENT_ERROR
    for code in ("57P01", "57P02", "57P03"):
        assert pg("", code).error_type is ErrorCategory.CONNECTION_ERROR
    assert pg("", "25P02").suggested_actions[0].startswith("ROLLBACK")


# -- names -------------------------------------------------------------------------------


FK_CHILD = (
    'insert or update on table "sales" violates foreign key constraint '
    '"sales_customer_id_fkey"\nDETAIL:  Key (customer_id)=(42) is not present in '
    'table "customers".'
)
FK_PARENT = (
    'update or delete on table "customers" violates foreign key constraint '
    '"sales_customer_id_fkey" on table "sales"\nDETAIL:  Key (id)=(1) is still '
    'referenced from table "sales".'
)
DROP = (
    "cannot drop table customers because other objects depend on it\n"
    "DETAIL:  constraint sales_customer_id_fkey on table sales depends on table customers\n"
    "view vip_customers depends on table customers\n"
    "function customer_name(integer) depends on type customers\n"
    "HINT:  Use DROP ... CASCADE to drop the dependent objects too."
)
TRUNCATE = (
    "cannot truncate a table referenced in a foreign key constraint\nDETAIL:  Table "
    '"sales" references "customers".\nHINT:  Truncate table "sales" at the same time, '
    "or use TRUNCATE ... CASCADE."
)


def test_foreign_key_child_names_the_parent_as_dependency() -> None:
    answer = classify_message(FK_CHILD, "postgresql", code="23503")
    assert answer.affected_resources[0] == "sales"
    assert answer.dependencies == ("customers",)
    assert answer.constraint == "sales_customer_id_fkey"
    assert "customer_id" not in answer.affected_resources


def test_foreign_key_parent_names_the_child_as_dependency() -> None:
    answer = classify_message(FK_PARENT, "postgresql", code="23503")
    assert answer.affected_resources[0] == "customers"
    assert answer.dependencies == ("sales",)
    assert "id" not in answer.affected_resources


FK_CUSTOMERS = (
    'insert or update on table "orders" violates foreign key constraint '
    '"orders_customer_id_fkey"\nDETAIL:  Key (customer_id)=(9) is not present in table '
    '"customers".'
)
FK_CUSTOMERS_PARENT = (
    'update or delete on table "customers" violates foreign key constraint '
    '"orders_customer_id_fkey" on table "orders"\nDETAIL:  Key (id)=(9) is still '
    'referenced from table "orders".'
)
FK_COMPOSITE = (
    'insert or update on table "lines" violates foreign key constraint "lines_order_fkey"\n'
    'DETAIL:  Key (order_id, line_no)=(1, 2) is not present in table "order_lines".'
)


@pytest.mark.parametrize(
    ("message", "resources", "dependencies"),
    [
        (FK_CUSTOMERS, ("orders", "orders_customer_id_fkey"), ("customers",)),
        (FK_CUSTOMERS_PARENT, ("customers", "orders_customer_id_fkey"), ("orders",)),
        # Without DETAIL, the primary message still says the child.
        (
            FK_CUSTOMERS_PARENT.partition("\n")[0],
            ("customers", "orders_customer_id_fkey"),
            ("orders",),
        ),
        (FK_COMPOSITE, ("lines", "lines_order_fkey"), ("order_lines",)),
    ],
)
def test_foreign_key_from_text_alone(
    message: str, resources: tuple[str, ...], dependencies: tuple[str, ...]
) -> None:
    answer = classify_message(message, "postgresql", code="23503")
    assert (answer.affected_resources, answer.dependencies) == (resources, dependencies)


@pytest.mark.parametrize(
    ("message", "dependencies"),
    [(FK_CUSTOMERS, ("customers",)), (FK_CUSTOMERS_PARENT, ("orders",))],
)
@pytest.mark.parametrize("frame", ["{}", "ERROR:  {}"])
def test_foreign_key_from_text_without_its_sqlstate(
    message: str, dependencies: tuple[str, ...], frame: str
) -> None:
    # psql's printout, a log line: the keywords name the kind, the words the direction.
    answer = classify_message(frame.format(message), "postgresql")
    assert answer.kind is Kind.FOREIGN_KEY_VIOLATION
    assert answer.dependencies == dependencies
    assert answer.constraint == "orders_customer_id_fkey"


@pytest.mark.parametrize(
    ("message", "code", "data"),
    [
        (FK_COMPOSITE, "23503", ("order_id", "line_no", "1", "2")),
        (
            'duplicate key value violates unique constraint "t_a_b_key"\n'
            "DETAIL:  Key (a, b)=(1, 2) already exists.",
            "23505",
            ("a", "b", "1", "2"),
        ),
        (
            'conflicting key value violates exclusion constraint "no_overlap"\nDETAIL:  Key '
            '(room, during)=(1, ["2024-01-01 10:00:00","2024-01-01 13:00:00")) conflicts with '
            'existing key (room, during)=(1, ["2024-01-01 10:00:00","2024-01-01 12:00:00")).',
            "23P01",
            ("room", "during"),
        ),
    ],
)
def test_key_columns_and_values_are_data(message: str, code: str, data: tuple[str, ...]) -> None:
    answer = classify_message(message, "postgresql", code=code)
    assert not set(answer.affected_resources) & set(data), answer.affected_resources
    assert not set(answer.dependencies) & set(data), answer.dependencies


def test_drop_names_every_dependent() -> None:
    answer = classify_message(DROP, "postgresql", code="2BP01")
    assert answer.affected_resources == ("customers",)
    assert answer.dependencies == ("sales", "vip_customers", "customer_name")
    assert answer.constraint == "sales_customer_id_fkey"
    assert answer.to_tool_error()["error_type"] == "foreign_key_constraint"


def test_truncate_names_the_referencing_table() -> None:
    answer = classify_message(TRUNCATE, "postgresql", code="0A000")
    assert answer.kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST
    assert (answer.affected_resources, answer.dependencies) == (("customers",), ("sales",))


def test_drop_role_names_the_objects_it_owns() -> None:
    answer = classify_message(
        'role "app" cannot be dropped because some objects depend on it\n'
        "DETAIL:  owner of table orders\nprivileges for schema sales",
        "postgresql",
        code="2BP01",
    )
    assert answer.affected_resources == ("app",)
    assert answer.dependencies == ("orders", "sales")


@pytest.mark.parametrize(
    ("message", "code", "resources", "schema"),
    [
        ('relation "public.Orders" does not exist', "42P01", ("Orders",), "public"),
        ('relation "Sales.Order Items" does not exist', "42P01", ("Order Items",), "Sales"),
        ('relation "commandes_été" does not exist', "42P01", ("commandes_été",), None),
        ("function foo(integer) does not exist", "42883", ("foo",), None),
        ("function lde.foo(integer, text) does not exist", "42883", ("foo",), "lde"),
        ('column "x" does not exist', "42703", ("x",), None),
        # t is a table or an alias (PostgreSQL prints the one the statement used):
        # the column alone is a name.
        ("column t.x does not exist", "42703", ("x",), None),
        ("column c.nme does not exist", "42703", ("nme",), None),
        ('column "Total" of relation "Orders" does not exist', "42703", ("Total", "Orders"), None),
        ('column reference "id" is ambiguous', "42702", ("id",), None),
        ('schema "archive" does not exist', "3F000", ("archive",), None),
        ('type "mood" does not exist', "42704", ("mood",), None),
        ("permission denied for table accounts", "42501", ("accounts",), None),
        ("permission denied for schema secret", "42501", ("secret",), None),
        ("must be owner of table accounts", "42501", ("accounts",), None),
        (
            'null value in column "name" of relation "customers" violates not-null constraint',
            "23502",
            ("name", "customers"),
            None,
        ),
        (
            'new row for relation "customers" violates check constraint "customers_age_check"',
            "23514",
            ("customers", "customers_age_check"),
            None,
        ),
        ('could not obtain lock on row in relation "accounts"', "55P03", ("accounts",), None),
        ('invalid input syntax for type integer: "orders"', "22P02", (), None),
        ("value too long for type character varying(20)", "22001", (), None),
    ],
)
def test_names_from_messages(
    message: str, code: str, resources: tuple[str, ...], schema: str | None
) -> None:
    answer = classify_message(message, "postgresql", code=code)
    assert answer.affected_resources == resources
    assert answer.schema == schema


def test_context_names_functions_and_relations() -> None:
    answer = classify_message(
        "division by zero\nCONTEXT:  PL/pgSQL function lde_ratio(integer) line 1 at RETURN",
        "postgresql",
        code="22012",
    )
    assert answer.affected_resources == ("lde_ratio",)
    answer = classify_message(
        "deadlock detected\nDETAIL:  Process 1 waits for ShareLock on transaction 2; blocked by "
        'process 3.\nCONTEXT:  while updating tuple (0,1) in relation "accounts"',
        "postgresql",
        code="40P01",
    )
    assert answer.affected_resources == ("accounts",)


# -- errors without a SQLSTATE -------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "kind", "code"),
    [
        (
            'connection failed: connection to server at "127.0.0.1", port 1 failed: Connection '
            "refused\n\tIs the server running on that host and accepting TCP/IP connections?",
            Kind.CONNECTION_FAILURE,
            None,
        ),
        (
            'connection to server at "10.0.0.1", port 5432 failed: timeout expired',
            Kind.CONNECTION_FAILURE,
            None,
        ),
        (
            'could not translate host name "db.invalid" to address: Name or service not known',
            Kind.CONNECTION_MISCONFIGURED,
            None,
        ),
        ("server does not support SSL, but SSL was required", Kind.CONNECTION_MISCONFIGURED, None),
        ("SSL SYSCALL error: EOF detected", Kind.CONNECTION_LOST, None),
        (
            "server closed the connection unexpectedly\n\tThis probably means the server "
            "terminated abnormally\n\tbefore or while processing the request.",
            Kind.CONNECTION_LOST,
            None,
        ),
        ("the connection is closed", Kind.CONNECTION_LOST, None),
        (
            'connection to server at "127.0.0.1", port 5432 failed: '
            'FATAL:  password authentication failed for user "app"',
            Kind.INVALID_PASSWORD,
            "28P01",
        ),
        (
            'connection to server at "127.0.0.1", port 5432 failed: '
            'FATAL:  role "ghost" does not exist',
            Kind.INVALID_AUTHORIZATION,
            "28000",
        ),
        (
            'connection to server at "127.0.0.1", port 5432 failed: '
            'FATAL:  database "nope" does not exist',
            Kind.UNDEFINED_DATABASE,
            "3D000",
        ),
        (
            'connection to server at "127.0.0.1", port 5432 failed: '
            "FATAL:  sorry, too many clients already",
            Kind.TOO_MANY_CONNECTIONS,
            "53300",
        ),
        # The server's start-up message without libpq's FATAL (a pooler passes
        # it on as its own error's text): its kind, but no code it may not have.
        ('database "nope" does not exist', Kind.UNDEFINED_DATABASE, None),
        ('role "ghost" is not permitted to log in', Kind.INVALID_AUTHORIZATION, None),
        (
            "QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00",
            Kind.TOO_MANY_CONNECTIONS,
            None,
        ),
        ("connection pool exhausted", Kind.TOO_MANY_CONNECTIONS, None),
        ("the query has 2 placeholders but 1 parameters were passed", Kind.INVALID_PARAMETER, None),
        (
            "the server expects 2 arguments for this query, 1 was passed",
            Kind.INVALID_PARAMETER,
            None,
        ),
    ],
)
def test_client_errors_without_sqlstate(message: str, kind: Kind, code: str | None) -> None:
    answer = classify_message(message, "postgresql")
    assert answer.kind is kind
    assert answer.database_error_code == code
    assert answer.sqlstate is None


# -- the server's start-up FATAL messages ---------------------------------------------------

# What a start-up refusal of each SQLSTATE class means to the caller, from the
# class's name in errcodes.txt: (category, retryable, action).  08 connection
# exception (nothing ran), 28 invalid authorization specification (the login
# cannot succeed as asked), 3D invalid catalog name (no such database), 53
# insufficient resources (slots: back off), 57 operator intervention (the
# server's state, or it ended the session); 42 is the CONNECT privilege
# (42501), 55 a database that refuses every connection, 0A a protocol the
# server does not speak, 25 an idle transaction ended, F0/XX the server's
# own configuration or fault.
BY_CLASS: dict[str, tuple[ErrorCategory, bool, Action]] = {
    "08": (ErrorCategory.CONNECTION_ERROR, True, Action.RECONNECT),
    "28": (ErrorCategory.AUTH_ERROR, False, Action.STOP),
    "3D": (ErrorCategory.SCHEMA_ERROR, False, Action.STOP),
    "53": (ErrorCategory.RESOURCE_ERROR, True, Action.RETRY),
    "57": (ErrorCategory.CONNECTION_ERROR, True, Action.RECONNECT),
    "42": (ErrorCategory.AUTH_ERROR, False, Action.STOP),
    "0A": (ErrorCategory.CONNECTION_ERROR, False, Action.STOP),
    "25": (ErrorCategory.CONNECTION_ERROR, True, Action.RECONNECT),
    "F0": (ErrorCategory.QUERY_EXECUTION, False, Action.STOP),
    "XX": (ErrorCategory.QUERY_EXECUTION, False, Action.STOP),
}
# The database of a 55000 start-up refusal exists but takes no connection
# (ALLOW_CONNECTIONS false), or is half-dropped: either way, stop.
BY_CLASS["55"] = (ErrorCategory.AUTH_ERROR, False, Action.STOP)
HALF_DROPPED = (ErrorCategory.SCHEMA_ERROR, False, Action.STOP)


def _errcodes() -> dict[str, str]:
    """Condition name -> SQLSTATE, read from errcodes.txt (not from the table under test)."""
    path = generator.SOURCE
    if not path.exists():
        pytest.skip(f"{path} is not installed here")
    return {c.name: c.sqlstate for c in generator.parse(path.read_text("utf-8"), str(path))}


def _filled(msgid: str) -> str:
    """The message as the server prints it: each placeholder given a value."""
    return re.sub(r"%l{0,2}[sdu]", lambda m: "lde_x" if m.group().endswith("s") else "3", msgid)


def _as_libpq_prints(text: str) -> list[str]:
    """The server's FATAL as psycopg 3 and psycopg2 pass libpq's report on."""
    tcp = 'connection to server at "127.0.0.1", port 5432 failed: FATAL:  '
    unix = 'connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: FATAL:  '
    return [
        f"connection failed: {tcp}{text}",  # psycopg 3
        f"{tcp}{text}\n",  # psycopg2
        f"{unix}{text}\nDETAIL:  more",  # a Unix socket, with a DETAIL line
        f"(psycopg.OperationalError) connection failed: {tcp}{text}\n"
        "(Background on this error at: https://sqlalche.me/e/20/e3q8)",  # SQLAlchemy's text
    ]


FATAL_MESSAGES = fatal_table.MESSAGES


def test_the_start_up_table_is_not_empty() -> None:
    # The catalogue's start-up messages: every method's authentication
    # failure, pg_hba.conf, roles, databases, slots, the server's state.
    assert len(FATAL_MESSAGES) >= 45
    conditions = {condition for _, _, condition, _ in FATAL_MESSAGES}
    assert {
        "invalid_authorization_specification",
        "invalid_password",
        "invalid_catalog_name",
        "too_many_connections",
        "cannot_connect_now",
        "admin_shutdown",
    } <= conditions


@pytest.fixture
def builtin_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """
    The built-in backends without the installed plugins.

    The PgBouncer pack (a refiner of `postgresql`) claims the one text PgBouncer
    shares word for word with the server (`empty password returned by
    client`): what is tested here is the server's table.
    """
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_: [])
    replace_default_registry(MapperRegistry(plugins=False))


@pytest.mark.usefixtures("builtin_only")
@pytest.mark.parametrize(
    ("msgid", "condition"),
    [pytest.param(msgid, condition, id=msgid) for _, _, condition, msgid in FATAL_MESSAGES],
)
def test_every_start_up_fatal_gives_the_servers_code(msgid: str, condition: str) -> None:
    sqlstate = _errcodes()[condition]
    category, retryable, action = BY_CLASS[sqlstate[:2]]
    if condition == "object_not_in_prerequisite_state" and "invalid database" in msgid:
        category, retryable, action = HALF_DROPPED
    for text in _as_libpq_prints(_filled(msgid)):
        answer = classify_message(text, "postgresql")
        got = (answer.kind, answer.database_error_code, answer.error_type, answer.action)
        assert answer.database_error_code == sqlstate, (text, got)
        assert answer.sqlstate is None, got  # the driver reported none
        assert answer.error_type is category, (text, got)
        assert answer.is_retryable is retryable, (text, got)
        assert answer.action is action, (text, got)
        assert answer.message == text.strip() or answer.message in text, got


@pytest.mark.parametrize("module", ["psycopg", "psycopg2"])
def test_start_up_fatals_through_the_drivers_classes(module: str) -> None:
    driver = require_module(module)
    text = 'connection to server at "127.0.0.1", port 5432 failed: FATAL:  '
    cases = [
        ('role "app" is not permitted to log in', Kind.INVALID_AUTHORIZATION, "28000"),
        ('password authentication failed for user "app"', Kind.INVALID_PASSWORD, "28P01"),
        ('database "nope" does not exist', Kind.UNDEFINED_DATABASE, "3D000"),
        (
            'no pg_hba.conf entry for host "10.1.2.3", user "app", database "app", SSL encryption',
            Kind.INVALID_AUTHORIZATION,
            "28000",
        ),
        (
            'database "old" is not currently accepting connections',
            Kind.INVALID_AUTHORIZATION,
            "55000",
        ),
        ("the database system is not yet accepting connections", Kind.ADMIN_SHUTDOWN, "57P03"),
    ]
    for fatal, kind, code in cases:
        answer = classify_error(driver.OperationalError(text + fatal))
        assert (answer.backend, answer.kind, answer.database_error_code) == (
            "postgresql",
            kind,
            code,
        ), fatal


@pytest.mark.parametrize(
    "message",
    [
        # Not a start-up message of the server's catalogue.
        'connection to server at "h", port 1 failed: FATAL:  something else entirely',
        # The server's words, but not where libpq puts the FATAL's text.
        'connection to server at "h", port 1 failed: FATAL:  x database "a" does not exist',
        'FATAL:  role "' + "a" * 5000 + '" does not exist',
        "FATAL:  " * 3000,
    ],
)
def test_other_fatal_texts_give_no_code(message: str) -> None:
    assert classify_message(message, "postgresql").database_error_code is None


_CODES = {"invalid_password": "28P01", "invalid_catalog_name": "3D000"}
_RULES = [(r"password authentication failed ", "auth.c"), (r"database ", "postinit.c")]
_CONDITIONS = [
    ("password authentication", "invalid_password"),
    ("does not", "invalid_catalog_name"),
]
_GOOD = ['password authentication failed for user "%s"', 'database "%s" does not exist']


def _select(msgids: list[str], **changes: object) -> list[fatal_generator.Entry]:
    settings: dict[str, Any] = {"rules": _RULES, "not_sent": {}, "conditions": _CONDITIONS}
    settings.update(changes)
    return fatal_generator.select(msgids, _CODES, **settings)


def test_the_generator_selects_and_codes() -> None:
    entries = _select([*_GOOD, "unrelated message"])
    assert [(e.msgid, e.sqlstate) for e in entries] == [(_GOOD[0], "28P01"), (_GOOD[1], "3D000")]
    assert entries[1].pattern == 'database "[^\\n]{0,256}?" does not exist'
    assert re.match(entries[1].pattern, 'database "my db" does not exist')
    # A message left out on purpose is selected, then not written.
    kept = _select(_GOOD, not_sent={_GOOD[1]: "why"}, conditions=_CONDITIONS[:1])
    assert kept == entries[:1]


@pytest.mark.parametrize(
    ("msgids", "changes", "problem"),
    [
        (_GOOD, {"rules": [*_RULES, (r'database "', "again")]}, "selected twice"),
        ([*_GOOD, 'database "%s" is gone'], {}, "no condition for the selected message"),
        (
            _GOOD,
            {"conditions": [("does not", "no_such_condition"), *_CONDITIONS]},
            "is not in errcodes.txt",
        ),
        (_GOOD, {"rules": [*_RULES, (r"sorry", "proc.c")]}, "selection rule matches nothing"),
        (_GOOD, {"not_sent": {"gone": "why"}}, "NOT_SENT entry not in the catalogue"),
        (
            _GOOD,
            {"conditions": [*_CONDITIONS, ("x y z", "internal_error")]},
            "condition rule matches nothing",
        ),
        ([_GOOD[0], 'database "%s" does not exist\nline two'], {}, "several lines"),
    ],
)
def test_the_generator_fails_on_what_it_cannot_decide(
    msgids: list[str], changes: dict[str, object], problem: str
) -> None:
    with pytest.raises(fatal_generator.RuleError, match=problem):
        _select(msgids, **changes)


def test_driver_exception_classes_are_detected() -> None:
    psycopg = require_module("psycopg")
    psycopg2 = require_module("psycopg2")
    asyncpg = require_module("asyncpg")
    cases = [
        (psycopg.OperationalError("the connection is closed"), Kind.CONNECTION_LOST, None),
        (
            psycopg.errors.lookup("42P01")('relation "t" does not exist'),
            Kind.UNDEFINED_TABLE,
            "42P01",
        ),
        (psycopg2.InterfaceError("connection already closed"), Kind.CONNECTION_LOST, None),
        (
            asyncpg.exceptions.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation"
            ),
            Kind.CONNECTION_LOST,
            "08003",
        ),
        (
            asyncpg.exceptions.TooManyConnectionsError("sorry, too many clients already"),
            Kind.TOO_MANY_CONNECTIONS,
            "53300",
        ),
        (
            asyncpg.exceptions.InterfaceError("cannot perform operation: connection is closed"),
            Kind.CONNECTION_LOST,
            None,
        ),
    ]
    for exc, kind, code in cases:
        answer = classify_error(exc)
        assert (answer.backend, answer.kind, answer.database_error_code) == (
            "postgresql",
            kind,
            code,
        ), exc


def test_a_connect_that_timed_out_is_a_connection_failure() -> None:
    # The connection never came up, so nothing ran: safe to retry, after
    # reconnecting.  Not a statement timeout.
    psycopg = require_module("psycopg")
    psycopg2 = require_module("psycopg2")
    several = (
        "connection timeout expired\nMultiple connection attempts failed. All failures were:\n"
        "- host: 'db', port: '5432', hostaddr: '10.0.0.1': connection timeout expired\n"
        "- host: 'db', port: '5432', hostaddr: '10.0.0.2': connection timeout expired"
    )
    for exc in (
        psycopg.errors.ConnectionTimeout("connection timeout expired"),  # psycopg 3's own
        psycopg.errors.ConnectionTimeout(several),
        psycopg2.OperationalError(
            'connection to server at "10.0.0.1", port 5432 failed: timeout expired\n'
        ),  # libpq's
    ):
        answer = classify_error(exc)
        assert answer.kind is Kind.CONNECTION_FAILURE, exc
        assert answer.retry_safety is RetrySafety.SAFE, exc
        assert answer.action is Action.RECONNECT, exc
    # What still is a timeout of a statement, or of a pool.
    canceled = psycopg.errors.lookup("57014")("canceling statement due to statement timeout")
    assert classify_error(canceled).kind is Kind.STATEMENT_TIMEOUT
    pool_timeout = require_module("psycopg_pool").PoolTimeout(
        "couldn't get a connection after 1.00 sec"
    )
    assert classify_error(pool_timeout).kind is Kind.TOO_MANY_CONNECTIONS


def test_sqlalchemy_pool_timeout_is_too_many_connections() -> None:
    require_module("sqlalchemy")
    import sqlite3

    from sqlalchemy.pool import QueuePool

    pool = QueuePool(lambda: sqlite3.connect(":memory:"), pool_size=1, max_overflow=0, timeout=0)
    held = pool.connect()
    try:
        with pytest.raises(Exception) as info:  # noqa: PT011 - the class is SQLAlchemy's own
            pool.connect()
    finally:
        held.close()
        pool.dispose()
    for db_type in (None, "postgresql", "postgresql+psycopg"):
        answer = classify_error(info.value, db_type)
        assert answer.kind is Kind.TOO_MANY_CONNECTIONS
        assert answer.is_retryable is True


# -- robustness ----------------------------------------------------------------------------


class _Junk(Exception):
    """Attributes of the wrong type where a driver would put its fields."""

    sqlstate = 42
    pgcode = b"42P01"
    table_name = ("t",)
    detail = 3.5
    context = object()


_Junk.__module__ = "psycopg.errors"


class _LowerCase(Exception):
    sqlstate = "42p01"


_LowerCase.__module__ = "asyncpg.exceptions"


def test_junk_attributes_are_ignored() -> None:
    answer = classify_error(_Junk('relation "t" does not exist'))
    assert answer.backend == "postgresql"
    assert answer.database_error_code is None
    assert answer.kind is Kind.UNDEFINED_TABLE  # from the text
    assert classify_error(_LowerCase("boom")).database_error_code is None


@pytest.mark.parametrize(
    "message",
    [
        "x" * 20000,
        '"' * 20000,
        'relation "' + "a." * 9000,
        "column " + "a." * 9000 + "b does not exist",
        "DETAIL:  " + "\n" * 5000 + "CONTEXT:  " + "PL/pgSQL function " * 1000,
        "\ufffd\x00\udcff" * 3000,
        "cannot drop table t because other objects depend on it\nDETAIL:  " + "view v depends on "
        "table t\n" * 2000,
    ],
)
def test_adversarial_messages(message: str) -> None:
    for code in (None, "42P01", "2BP01", "23503", "ZZ999"):
        answer = classify_message(message, "postgresql", code=code)
        assert answer.message
        assert len(answer.affected_resources) <= 64


def test_declared_driver_modules_and_aliases() -> None:
    mapper = ErrorMapperRegistry.lookup("postgres")
    assert isinstance(mapper, PostgreSQLMapper)
    assert {"psycopg", "psycopg2", "asyncpg"} <= set(mapper.driver_modules)
    assert KIND_TABLE[Kind.TOO_MANY_CONNECTIONS].retryable


def test_importing_the_backend_imports_no_driver_and_no_table() -> None:
    code = (
        "import sys\n"
        "import localdata_errors.backends.postgresql as pg\n"
        "loaded = {'psycopg', 'psycopg2', 'asyncpg', 'sqlalchemy'} & set(sys.modules)\n"
        "assert not loaded, loaded\n"
        "assert 'localdata_errors.backends._postgresql_codes' not in sys.modules\n"
        "pg.lookup('42P01')\n"
        "assert 'localdata_errors.backends._postgresql_codes' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


class _Raising(Exception):
    """A driver exception whose fields raise on access (a released result's diagnostics)."""

    @property
    def sqlstate(self) -> str:
        raise RuntimeError("released")

    @property
    def diag(self) -> object:
        raise RuntimeError("released")


_Raising.__module__ = "psycopg.errors"


def test_fields_that_raise_are_absent() -> None:
    answer = classify_error(_Raising("deadlock detected"))
    assert answer.backend == "postgresql"
    assert answer.kind is Kind.DEADLOCK_DETECTED
    assert answer.database_error_code is None
