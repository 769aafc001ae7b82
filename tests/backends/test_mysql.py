"""
The MySQL/MariaDB backend without a server: the generated table, message shapes, robustness.

Message texts are the servers' own (MariaDB 10.11 as observed; MySQL 8's from
its error reference), classified as a caller with only the text would.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from localdata_errors import Kind, classify_error, classify_message, default_registry
from localdata_errors._mapper import ErrorInput
from localdata_errors.backends.mysql import MySQLMapper
from tests.conftest import require_module

ROOT = Path(__file__).resolve().parents[2]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_mysql_codes", ROOT / "tools" / "generate_mysql_codes.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while defining
    spec.loader.exec_module(module)
    return module


# -- the generated table ---------------------------------------------------------


def test_generated_table_is_up_to_date() -> None:
    if not Path("/usr/include/mariadb/mysqld_error.h").exists():
        pytest.skip("MariaDB's headers are not installed here")
    require_module("mysql.connector")
    assert _generator().main(["--check"]) == 0


def test_generator_rejects_unknown_lines(tmp_path: Path) -> None:
    header = tmp_path / "mysqld_error.h"
    header.write_text("#define ER_A 1000\nint surprise = 1;\n", encoding="utf-8")
    gen = _generator()
    with pytest.raises(gen.SourceError, match="cannot parse"):
        gen.parse_c_header(header)


@pytest.mark.parametrize(
    "text",
    [
        "#define ER_A 1000\n#define ER_A 1001\n",
        "#define ER_A 1000\n#define ER_B 1000\n",
    ],
)
def test_generator_rejects_duplicates(tmp_path: Path, text: str) -> None:
    header = tmp_path / "mysqld_error.h"
    header.write_text(text, encoding="utf-8")
    gen = _generator()
    with pytest.raises(gen.SourceError, match="twice"):
        gen.parse_c_header(header)


def test_generator_rejects_duplicate_python_symbols(tmp_path: Path) -> None:
    source = tmp_path / "errorcode.py"
    source.write_text("_MYSQL_VERSION = (8, 0, 27)\nER_A = 1000\nER_A = 1001\n", encoding="utf-8")
    gen = _generator()
    with pytest.raises(gen.SourceError, match="twice"):
        gen.parse_connector_errorcode(source)


REQUIRED = {
    "1213": Kind.DEADLOCK_DETECTED,
    "1205": Kind.LOCK_NOT_AVAILABLE,
    "3572": Kind.LOCK_NOT_AVAILABLE,
    "1451": Kind.FOREIGN_KEY_VIOLATION,
    "1452": Kind.FOREIGN_KEY_VIOLATION,
    "1217": Kind.FOREIGN_KEY_VIOLATION,
    "3730": Kind.DEPENDENT_OBJECTS_STILL_EXIST,
    "1050": Kind.DUPLICATE_TABLE,
    "1091": Kind.UNDEFINED_OBJECT,
    "1049": Kind.UNDEFINED_DATABASE,
    "1048": Kind.NOT_NULL_VIOLATION,
    "1142": Kind.INSUFFICIENT_PRIVILEGE,
    "1143": Kind.INSUFFICIENT_PRIVILEGE,
    "1044": Kind.INSUFFICIENT_PRIVILEGE,
    "1227": Kind.INSUFFICIENT_PRIVILEGE,
    "1045": Kind.INVALID_PASSWORD,
    "1040": Kind.TOO_MANY_CONNECTIONS,
    "1203": Kind.TOO_MANY_CONNECTIONS,
    "1226": Kind.TOO_MANY_CONNECTIONS,
    "1792": Kind.READ_ONLY,
    "1290": Kind.READ_ONLY,
    "3024": Kind.STATEMENT_TIMEOUT,
    "1969": Kind.STATEMENT_TIMEOUT,
    "2006": Kind.CONNECTION_LOST,
    "2013": Kind.CONNECTION_LOST,
    "2055": Kind.CONNECTION_LOST,
    "2002": Kind.CONNECTION_FAILURE,
    "2003": Kind.CONNECTION_FAILURE,
    "2005": Kind.CONNECTION_MISCONFIGURED,
    "1062": Kind.UNIQUE_VIOLATION,
    "1586": Kind.UNIQUE_VIOLATION,
    "1406": Kind.STRING_DATA_RIGHT_TRUNCATION,
    "1264": Kind.NUMERIC_VALUE_OUT_OF_RANGE,
    "1366": Kind.INVALID_TEXT_REPRESENTATION,
    "1292": Kind.INVALID_TEXT_REPRESENTATION,
    "1365": Kind.DIVISION_BY_ZERO,
    "1054": Kind.UNDEFINED_COLUMN,
    "1146": Kind.UNDEFINED_TABLE,
    "1052": Kind.AMBIGUOUS_COLUMN,
    "1305": Kind.UNDEFINED_FUNCTION,
    "1064": Kind.SYNTAX_ERROR,
    "1136": Kind.SYNTAX_ERROR,
    "1210": Kind.INVALID_PARAMETER,
    "1242": Kind.CARDINALITY_VIOLATION,
    "3819": Kind.CHECK_VIOLATION,
    "1701": Kind.DEPENDENT_OBJECTS_STILL_EXIST,
    "1553": Kind.DEPENDENT_OBJECTS_STILL_EXIST,
}


@pytest.mark.parametrize(("code", "kind"), sorted(REQUIRED.items()))
def test_required_codes_are_mapped_and_kept(code: str, kind: Kind) -> None:
    answer = classify_message("", db_type="mysql", code=code)
    assert (answer.kind, answer.database_error_code, answer.backend) == (kind, code, "mysql")


def test_every_declared_code_classifies_as_declared() -> None:
    declared = MySQLMapper().declared_codes()
    assert len(declared) > 300
    wrong = {
        code: (kind, classify_message("", db_type="mariadb", code=code).kind)
        for code, kind in declared.items()
        if classify_message("", db_type="mariadb", code=code).kind is not kind
    }
    assert wrong == {}


def test_codes_only_one_server_has_are_covered() -> None:
    declared = MySQLMapper().declared_codes()
    for mysql_only in ("3730", "3819", "3024", "3572"):
        assert mysql_only in declared
    for mariadb_only in ("1969", "4092", "1927"):
        assert mariadb_only in declared


# -- message shapes (MySQL 8 wording, and MariaDB's where no server case covers it) --------


def _mysql(message: str, code: str) -> tuple[object, ...]:
    a = classify_message(message, db_type="mysql", code=code)
    return a.kind, a.affected_resources, a.dependencies, a.constraint, a.schema


def test_mysql8_drop_referenced_parent() -> None:
    kind, res, deps, constraint, _ = _mysql(
        "Cannot drop table 'customers' referenced by a foreign key constraint 'sales_ibfk_1'"
        " on table 'sales'.",
        "3730",
    )
    assert kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST
    assert res[0] == "customers"
    assert deps == ("sales",)
    assert constraint == "sales_ibfk_1"


def test_mysql8_duplicate_entry_names_table_and_key() -> None:
    kind, res, _, constraint, _ = _mysql("Duplicate entry '1' for key 'orders.PRIMARY'", "1062")
    assert kind is Kind.UNIQUE_VIOLATION
    assert constraint == "PRIMARY"
    assert "orders" in res
    assert "1" not in res  # the value is data


def test_duplicate_entry_value_that_looks_like_a_key_is_not_a_name() -> None:
    _, res, _, constraint, _ = _mysql("Duplicate entry 'for key 'x'' for key 'uq_email'", "1062")
    assert constraint == "uq_email"
    assert "x" not in res


def test_mysql8_check_constraint() -> None:
    kind, _, _, constraint, _ = _mysql("Check constraint 'chk_price' is violated.", "3819")
    assert (kind, constraint) == (Kind.CHECK_VIOLATION, "chk_price")


def test_mysql8_fk_child_row_with_qualified_names() -> None:
    kind, res, deps, constraint, schema = _mysql(
        "Cannot add or update a child row: a foreign key constraint fails (`test`.`orders`,"
        " CONSTRAINT `fk_c` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`))",
        "1452",
    )
    assert (kind, res[0], deps, constraint, schema) == (
        Kind.FOREIGN_KEY_VIOLATION,
        "orders",
        ("customers",),
        "fk_c",
        "test",
    )


def test_mysql8_unknown_column_in_where_clause() -> None:
    kind, res, *_ = _mysql("Unknown column 't.x' in 'where clause'", "1054")
    assert kind is Kind.UNDEFINED_COLUMN
    assert res[0] == "x"


def test_number_prefixes_of_message_only_input() -> None:
    cli = classify_message(
        "ERROR 1146 (42S02) at line 1: Table 'test.x' doesn't exist", db_type="mysql"
    )
    assert (
        cli.kind,
        cli.database_error_code,
        cli.sqlstate,
        cli.affected_resources,
        cli.schema,
    ) == (Kind.UNDEFINED_TABLE, "1146", "42S02", ("x",), "test")
    connector = classify_message(
        "1213 (40001): Deadlock found when trying to get lock; try restarting transaction",
        db_type="mariadb",
    )
    assert (connector.kind, connector.is_retryable) == (Kind.DEADLOCK_DETECTED, True)


def test_unknown_host_through_pymysql_is_misconfiguration() -> None:
    # pymysql reports a failed name lookup as 2003 "can't connect"; retrying cannot help.
    answer = classify_message(
        "Can't connect to MySQL server on 'nonexistent.invalid'"
        " ([Errno -2] Name or service not known)",
        db_type="mysql",
        code=2003,
    )
    assert (answer.kind, answer.is_retryable) == (Kind.CONNECTION_MISCONFIGURED, False)
    mariadb = classify_message(
        "Unknown server host 'nonexistent.invalid' (-2)", db_type="mariadb", code=2005
    )
    assert mariadb.kind is Kind.CONNECTION_MISCONFIGURED


def test_option_prevents_statement_only_read_only_is_read_only() -> None:
    read_only = classify_message(
        "The MariaDB server is running with the --read-only option"
        " so it cannot execute this statement",
        db_type="mysql",
        code=1290,
    )
    other = classify_message(
        "The MySQL server is running with the --secure-file-priv option"
        " so it cannot execute this statement",
        db_type="mysql",
        code=1290,
    )
    assert read_only.kind is Kind.READ_ONLY
    assert other.kind is not Kind.READ_ONLY
    assert other.database_error_code == "1290"


def test_hourly_user_limit_is_not_a_connection_limit() -> None:
    answer = classify_message(
        "User 'u' has exceeded the 'max_questions' resource (current value: 10)",
        db_type="mysql",
        code=1226,
    )
    # A per-user hourly allowance, used up: it resets only with time (stop).
    assert answer.kind is Kind.QUOTA_EXCEEDED


def test_ambiguous_number_is_decided_by_the_message() -> None:
    mariadb = classify_message("CONSTRAINT `chk` failed for `test`.`t`", db_type="mysql", code=4025)
    mysql = classify_message(
        "Client interaction timeout; the connection was closed", db_type="mysql", code=4031
    )
    assert (mariadb.kind, mariadb.constraint) == (Kind.CHECK_VIOLATION, "chk")
    assert mysql.kind is Kind.CONNECTION_LOST


# -- names that are names --------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "code", "resources", "schema"),
    [
        # 'c.nme': c is a table or an alias; the text cannot say which.
        ("Unknown column 'c.nme' in 'field list'", "1054", ("nme",), None),
        ("Unknown column 'c.nme' in 'SELECT'", "1054", ("nme",), None),  # MariaDB 10.11
        # A database's table: no alias has a database.
        ("Unknown column 'shop.orders.nme' in 'field list'", "1054", ("nme", "orders"), "shop"),
        ("Table 'shop.orders' doesn't exist", "1146", ("orders",), "shop"),
        ("Unknown table 'shop.orders'", "1051", ("orders",), "shop"),
    ],
)
def test_qualifiers_are_not_resources(
    message: str, code: str, resources: tuple[str, ...], schema: str | None
) -> None:
    _, res, _, _, got_schema = _mysql(message, code)
    assert (res, got_schema) == (resources, schema)


@pytest.mark.parametrize(
    ("message", "code", "resources", "constraint", "schema"),
    [
        # The server prints a quote inside a quoted name bare (MariaDB 10.11, observed):
        # `no'such`, a key `k'ey` holding 'O''Brien', a column `zz'z`.
        ("Table 'test.no'such' doesn't exist", "1146", ("no'such",), None, "test"),
        ("Duplicate entry 'O'Brien' for key 'k'ey'", "1062", ("k'ey",), "k'ey", None),
        ("Unknown column 'zz'z' in 'SELECT'", "1054", ("zz'z",), None, None),
        # Copied out of a string literal, the quotes are backslash-escaped.
        (
            "Duplicate entry 'O\\'Brien' for key 'users.name'",
            "1062",
            ("users", "name"),
            "name",
            None,
        ),
        ("Table 'test.we\\'ird' doesn't exist", "1146", ("we'ird",), None, "test"),
    ],
)
def test_quotes_inside_names_and_values(
    message: str,
    code: str,
    resources: tuple[str, ...],
    constraint: str | None,
    schema: str | None,
) -> None:
    _, res, _, got_constraint, got_schema = _mysql(message, code)
    assert (res, got_constraint, got_schema) == (resources, constraint, schema)


def test_pymysql_text_with_both_quotes_is_unescaped() -> None:
    # str() of pymysql's exception is its args' repr: a message holding both kinds
    # of quote comes out with \' and \\ escapes.
    pymysql = require_module("pymysql")
    exc = pymysql.err.ProgrammingError(1146, "Table 'test.we\"i'rd' doesn't exist")
    assert "\\'" in str(exc)
    answer = classify_message(str(exc), "mysql")
    assert (answer.database_error_code, answer.affected_resources, answer.schema) == (
        "1146",
        ("we\"i'rd",),
        "test",
    )
    assert answer.message == "Table 'test.we\"i'rd' doesn't exist"


@pytest.mark.parametrize(
    ("message", "code", "resources", "constraint"),
    [
        # A mysql-connector text cut out of a repr keeps the repr's end.
        ("1062 (23000): Duplicate entry '5' for key 'k'ey'\")", None, ("k'ey",), "k'ey"),
        ("1146 (42S02): Table 'test.orders' doesn't exist\")", None, ("orders",), None),
        # The C extension's exception, as a log line or a traceback's chain shows it.
        (
            "MySQLInterfaceError(\"Duplicate entry 'O'Brien' for key 'k'ey'\")",
            "1062",
            ("k'ey",),
            "k'ey",
        ),
    ],
)
def test_a_stray_closing_parenthesis_is_not_part_of_a_name(
    message: str, code: str | None, resources: tuple[str, ...], constraint: str | None
) -> None:
    answer = classify_message(message, "mysql", code=code)
    assert (answer.affected_resources, answer.constraint) == (resources, constraint)
    assert not answer.message.endswith('")')


def test_a_message_that_opens_its_own_quote_keeps_its_end() -> None:
    text = (
        'Can\'t create table `test`.`x` (errno: 150 "Foreign key constraint is incorrectly formed")'
    )
    answer = classify_message("1005 (HY000): " + text, "mysql")
    assert answer.message == text
    assert (answer.affected_resources, answer.schema) == (("x",), "test")


_CEXT_ERRORS = r"""
import sys
try:
    # First of all: the wheel's own libssl and libcrypto, before Python's ssl or
    # hashlib (which secrets imports) load the system's.
    import _mysql_connector
    import mysql.connector
except ImportError:
    sys.exit(3)
import json, secrets
host, port, user, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
db = "lde_cext_" + secrets.token_hex(4)
conn = mysql.connector.connect(host=host, port=port, user=user, password=password, use_pure=False)
conn.autocommit = True
raw = conn._cmysql  # the C extension's own connection
out = []
try:
    for sql in (
        f"CREATE DATABASE {db}",
        f"CREATE TABLE {db}.`we'ird` (id INT PRIMARY KEY, `na'me` VARCHAR(20),"
        " UNIQUE KEY `k'ey` (`na'me`))",
        f"INSERT INTO {db}.`we'ird` VALUES (1, 'O''Brien')",
    ):
        raw.query(sql.encode())
    for sql in (
        f"SELECT * FROM {db}.`no'such`",
        f"INSERT INTO {db}.`we'ird` VALUES (2, 'O''Brien')",
        f"SELECT c.nme FROM {db}.`we'ird` c",
    ):
        try:
            raw.query(sql.encode())
        except _mysql_connector.MySQLInterfaceError as exc:
            out.append({"errno": exc.errno, "repr": repr(exc), "db": db})
finally:
    raw.query(f"DROP DATABASE IF EXISTS {db}".encode())
    conn.close()
print(json.dumps(out))
"""


@pytest.mark.mysql
def test_the_c_extensions_exception_text_through_its_repr(mysql_server: dict[str, object]) -> None:
    # mysql-connector's C extension raises MySQLInterfaceError; its repr ends in '")'.
    # Its module needs its wheel's own libssl, loaded before Python's: a process of its own.
    require_module("mysql.connector")
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            _CEXT_ERRORS,
            str(mysql_server["host"]),
            str(mysql_server["port"]),
            str(mysql_server["user"]),
            str(mysql_server["password"]),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if run.returncode == 3:
        pytest.skip("mysql-connector's C extension cannot be imported here")
    assert run.returncode == 0, run.stderr
    missing, duplicate, aliased = json.loads(run.stdout)
    assert missing["repr"].endswith("doesn't exist\")")
    answer = classify_message(missing["repr"], "mysql", code=missing["errno"])
    assert (answer.kind, answer.affected_resources, answer.schema) == (
        Kind.UNDEFINED_TABLE,
        ("no'such",),
        missing["db"],
    )
    answer = classify_message(duplicate["repr"], "mysql", code=duplicate["errno"])
    assert (answer.kind, answer.affected_resources, answer.constraint) == (
        Kind.UNIQUE_VIOLATION,
        ("k'ey",),
        "k'ey",
    )
    answer = classify_message(aliased["repr"], "mysql", code=aliased["errno"])
    assert (answer.kind, answer.affected_resources) == (Kind.UNDEFINED_COLUMN, ("nme",))


# -- driver exceptions built by the drivers' own classes --------------------------------


def test_pymysql_exception_message_is_the_driver_text() -> None:
    pymysql = require_module("pymysql")
    exc = pymysql.err.ProgrammingError(1146, "Table 'test.orders' doesn't exist")
    answer = classify_error(exc)
    assert answer.message == "Table 'test.orders' doesn't exist"
    assert (answer.affected_resources, answer.schema) == (("orders",), "test")


def test_driver_module_detection() -> None:
    names = {
        "pymysql.err",
        "MySQLdb._exceptions",
        "MySQLdb",
        "mysql.connector.errors",
        "mariadb",
        "aiomysql",
    }
    for module in names:
        assert default_registry().name_for_module(module) == "mysql", module


# -- robustness -----------------------------------------------------------------


class _Junk(Exception):
    errno = "not a number"
    sqlstate = 42
    msg = b"bytes"


@pytest.mark.parametrize(
    "args",
    [
        (),
        (None,),
        ("1146", 42),
        (True, "x"),
        (10**9, "x"),
        (b"\xff\xfe", b"\x00"),
        (1062, "Duplicate entry '" + "'" * 16_000),
        (1452, "a foreign key constraint fails (" + "`a`." * 4000),
        (1054, "Unknown column " + "'" * 16_000),
    ],
)
def test_junk_never_raises(args: tuple[object, ...]) -> None:
    answer = classify_error(_Junk(*args), db_type="mysql")
    assert answer.backend in {"mysql", "generic"}
    assert isinstance(answer.kind, Kind)


def test_wrongly_typed_pymysql_exception() -> None:
    pymysql = require_module("pymysql")
    answer = classify_error(pymysql.err.OperationalError("2013", 42))
    assert answer.database_error_code == "2013"
    assert answer.kind is Kind.CONNECTION_LOST


def _raises(*_args: object) -> object:
    raise RuntimeError("attribute access raised")


def _hostile_pymysql_classes() -> list[type[Exception]]:
    """pymysql's real class, subclassed with raising and wrongly typed attributes."""
    pymysql = require_module("pymysql")
    base = pymysql.err.OperationalError
    # pymysql's __init__ sets .sqlstate: the setters accept and drop the value.
    raising = type(
        "RaisingAttributesError",
        (base,),
        {
            name: property(_raises, lambda _self, _value: None)
            for name in ("errno", "sqlstate", "msg", "errmsg")
        },
    )
    wrong = type(
        "WrongTypedAttributesError",
        (base,),
        {"errno": "x", "sqlstate": 42, "msg": b"bytes", "errmsg": None},
    )
    # args itself raising, or not a tuple: str(exc) still shows the driver's tuple.
    raising_args = type("RaisingArgsError", (base,), {"args": property(_raises)})
    list_args = type("ListArgsError", (base,), {"args": property(lambda _: [1213, "x"])})
    return [raising, wrong, raising_args, list_args]


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize(
    ("errno", "text", "kind"),
    [
        (
            1213,
            "Deadlock found when trying to get lock; try restarting transaction",
            Kind.DEADLOCK_DETECTED,
        ),
        (1146, "Table 'test.orders' doesn't exist", Kind.UNDEFINED_TABLE),
    ],
)
def test_hostile_pymysql_attributes_fall_back_on_args_and_message(
    index: int, errno: int, text: str, kind: Kind
) -> None:
    cls = _hostile_pymysql_classes()[index]
    exc = cls(errno, text)
    mapped = MySQLMapper().map_error(ErrorInput(exc, str(exc), None, "pymysql"))
    assert mapped is not None
    assert mapped.kind is kind
    assert mapped.code == str(errno)
    resp = classify_error(exc)
    assert resp.backend == "mysql"  # answered by the mapper, not the fallback
    assert resp.kind is kind
    assert resp.database_error_code == str(errno)


def test_unicode_digits_are_not_an_error_number() -> None:
    # "²".isdigit() is True, but int("²") raises.
    text = "Deadlock found when trying to get lock; try restarting transaction"
    mapped = MySQLMapper().map_error(ErrorInput(None, text, "²"))
    assert mapped is None or mapped.code is None
    assert classify_message(text, "mysql", code="²").kind is Kind.DEADLOCK_DETECTED


def test_import_is_lazy_and_driver_free() -> None:
    code = (
        "import sys, localdata_errors.backends.mysql\n"
        "assert 'localdata_errors.backends._mysql_codes' not in sys.modules\n"
        "bad = [m for m in ('pymysql', 'MySQLdb', 'mysql.connector', 'mariadb', 'aiomysql',"
        " 'sqlalchemy') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_commands_out_of_sync_is_a_lost_connection_by_code_or_exception() -> None:
    # SQLAlchemy's MySQL dialect lists 2014 (Commands out of sync) among its
    # disconnects (is_disconnect) and discards the connection, as we do
    # (tests/test_sqlalchemy_disconnects.py holds every code of that list).
    alone = classify_message("", db_type="mysql", code=2014)
    assert alone.kind is Kind.CONNECTION_LOST
    pymysql = pytest.importorskip("pymysql")
    raised = classify_error(pymysql.err.InterfaceError(2014, "Command Out of Sync"))
    assert raised.kind is alone.kind
