"""
The SeekDB / OceanBase plugin: registration through its entry point, and real client-side errors.

Each error is the byte-exact MySQL error packet an OceanBase server sends
(0xFF, errno, ``#``, SQLSTATE, message), turned into an exception by
pymysql's own ``raise_mysql_exception``: what a client of a real server gets.
"""

from __future__ import annotations

import struct

import pytest

from localdata_errors import ErrorMapperRegistry, Kind, classify_error, classify_message

pymysql = pytest.importorskip("pymysql")


def ob_error(errno: int, sqlstate: str, message: str) -> BaseException:
    """The exception pymysql raises for this server reply."""
    packet = b"\xff" + struct.pack("<H", errno) + b"#" + sqlstate.encode() + message.encode()
    try:
        pymysql.err.raise_mysql_exception(packet)
    except pymysql.err.MySQLError as exc:
        return exc
    raise AssertionError("pymysql raised nothing")


def test_registered_through_its_entry_point() -> None:
    info = {m.name: m for m in ErrorMapperRegistry.list_mappers()}["seekdb"]
    assert info.source == "entry point"
    assert info.distribution == "localdata-errors-seekdb"
    assert set(info.aliases) == {"oceanbase", "ob"}
    assert info.driver_modules == ("pylibseekdb",)  # the embedded engine
    for alias in ("seekdb", "oceanbase", "OB", "OceanBase"):
        assert ErrorMapperRegistry.get_mapper(alias) is info.mapper


@pytest.mark.parametrize(
    ("errno", "sqlstate", "message", "kind"),
    [
        (6005, "HY000", "Try lock row conflict", Kind.LOCK_NOT_AVAILABLE),
        (
            6003,
            "HY000",
            "Lock wait timeout exceeded; try restarting transaction",
            Kind.LOCK_NOT_AVAILABLE,
        ),
        (4012, "HY000", "Timeout", Kind.STATEMENT_TIMEOUT),
        (6212, "HY000", "Statement is timeout", Kind.STATEMENT_TIMEOUT),
        (4038, "HY000", "Not master", Kind.SERIALIZATION_FAILURE),
        (4101, "HY000", "Deadlock", Kind.DEADLOCK_DETECTED),
        (6002, "HY000", "transaction is rolled back", Kind.SERIALIZATION_FAILURE),
        (5019, "42S02", "Table doesn't exist", Kind.UNDEFINED_TABLE),
        (4078, "22012", "Divided by zero", Kind.DIVISION_BY_ZERO),
    ],
)
def test_oceanbase_codes(errno: int, sqlstate: str, message: str, kind: Kind) -> None:
    answer = classify_error(ob_error(errno, sqlstate, message), db_type="oceanbase")
    assert answer.backend == "seekdb"
    assert answer.kind is kind
    assert answer.database_error_code == str(errno)


def test_retry_decisions_follow_the_kind_table() -> None:
    conflict = classify_error(ob_error(6005, "HY000", "Try lock row conflict"), db_type="ob")
    missing = classify_error(ob_error(5019, "42S02", "Table doesn't exist"), db_type="ob")
    assert conflict.is_retryable is True
    assert missing.is_retryable is False


def test_drop_referenced_parent_in_oceanbase_wording() -> None:
    exc = ob_error(
        3730,
        "HY000",
        "Cannot drop table 'customers' referenced by foreign key"
        " constraint 'sales_OBFK_1692342343213' on table 'sales'.",
    )
    answer = classify_error(exc, db_type="seekdb")
    assert answer.kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST
    assert answer.affected_resources[0] == "customers"
    assert answer.dependencies == ("sales",)
    assert answer.constraint == "sales_OBFK_1692342343213"


def test_mysql_numbers_are_delegated_with_their_names() -> None:
    exc = ob_error(1146, "42S02", "Table 'test.orders' doesn't exist")
    answer = classify_error(exc, db_type="seekdb")
    assert (answer.backend, answer.kind, answer.affected_resources, answer.schema) == (
        "seekdb",
        Kind.UNDEFINED_TABLE,
        ("orders",),
        "test",
    )


def test_without_db_type_pymysql_errors_stay_mysql() -> None:
    answer = classify_error(ob_error(1146, "42S02", "Table 'test.orders' doesn't exist"))
    assert answer.backend == "mysql"


def test_negative_code_in_message_only_input() -> None:
    answer = classify_message("Try lock row conflict", db_type="seekdb", code=-6005)
    assert (answer.kind, answer.database_error_code) == (Kind.LOCK_NOT_AVAILABLE, "6005")


def test_declared_codes_classify_as_declared() -> None:
    mapper = ErrorMapperRegistry.get_mapper("seekdb")
    for code, kind in mapper.declared_codes().items():
        assert classify_message("", db_type="seekdb", code=code).kind is kind, code
