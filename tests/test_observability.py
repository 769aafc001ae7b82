"""OpenTelemetry attributes and the logging helper, on real errors."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from localdata_errors import (
    ErrorMapperRegistry,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
)
from localdata_errors.observability import (
    DB_SYSTEM_NAMES,
    log_classified_error,
    to_otel_attributes,
)


def _sqlite_error(sql: str) -> sqlite3.Error:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        conn.execute(sql)
    except sqlite3.Error as exc:
        return exc
    finally:
        conn.close()
    raise AssertionError(f"{sql!r} did not fail")


def _mine(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    # Discovery may log about backends that are not importable; those are not ours.
    return [r for r in caplog.records if r.name == "lde_observability_test"]


def test_attributes_of_a_real_sqlite_error() -> None:
    resp = classify_error(_sqlite_error("SELECT * FROM missing_table"))
    attrs = to_otel_attributes(resp)
    assert attrs["error.type"] == resp.kind.value == attrs["localdata_errors.kind"]
    assert attrs["localdata_errors.category"] == resp.error_type.value
    assert attrs["localdata_errors.retryable"] is resp.is_retryable
    assert attrs["localdata_errors.driver"] == "sqlite3"
    if "sqlite" in ErrorMapperRegistry.names():
        assert attrs["db.system.name"] == "sqlite"
        assert attrs["db.response.status_code"] == resp.database_error_code
        assert resp.kind is Kind.UNDEFINED_TABLE
    # Only codes and enumerated values: no message, no names.
    assert "missing_table" not in json.dumps(attrs)


@pytest.mark.parametrize(("backend", "system"), sorted(DB_SYSTEM_NAMES.items()))
def test_db_system_name_follows_the_conventions(backend: str, system: str) -> None:
    resp = StructuredErrorResponse(
        *classify_message('relation "t" does not exist')[:2],
        False,
        "m",
        "s",
        backend=backend,
        database_error_code="X1",
    )
    attrs = to_otel_attributes(resp)
    assert attrs["db.system.name"] == system
    assert attrs["db.response.status_code"] == "X1"


def test_well_known_values_are_the_specs() -> None:
    # The conventions' well-known identifiers (semantic-conventions 1.26+, db.system.name).
    assert DB_SYSTEM_NAMES["oracle"] == "oracle.db"
    assert DB_SYSTEM_NAMES["mssql"] == "microsoft.sql_server"
    assert DB_SYSTEM_NAMES["postgresql"] == "postgresql"


def test_mariadb_driver_and_unknown_backend() -> None:
    base = classify_message("Deadlock found when trying to get lock")
    assert (
        to_otel_attributes(base.replace(backend="mysql", driver="mariadb"))["db.system.name"]
        == "mariadb"
    )
    assert (
        to_otel_attributes(base.replace(backend="mysql", driver="pymysql"))["db.system.name"]
        == "mysql"
    )
    generic = base.replace(backend="generic", database=None, database_error_code=None)
    attrs = to_otel_attributes(generic)
    assert attrs["db.system.name"] == "other_sql"
    assert "db.response.status_code" not in attrs
    named = base.replace(backend="generic", database="oracle")
    assert to_otel_attributes(named)["db.system.name"] == "oracle.db"


def test_attribute_values_are_valid_for_opentelemetry() -> None:
    otel_attributes = pytest.importorskip("opentelemetry.attributes")
    resp = classify_error(_sqlite_error("INSERT INTO parent VALUES (1), (1)"))
    attrs = to_otel_attributes(resp)
    bounded = otel_attributes.BoundedAttributes(attributes=attrs, immutable=True)
    # BoundedAttributes drops any value OpenTelemetry would not export.
    assert dict(bounded) == attrs


def test_log_classified_error_from_an_exception(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("lde_observability_test")
    exc = _sqlite_error("SELECT nope FROM parent")
    with caplog.at_level(logging.INFO, logger="lde_observability_test"):
        resp = log_classified_error(logger, exc, logging.ERROR, request_id="r-17")
    (record,) = _mine(caplog)
    assert record.levelno == logging.ERROR
    assert record.__dict__["localdata_errors.kind"] == resp.kind.value
    assert record.__dict__["error.type"] == resp.kind.value
    assert record.__dict__["request_id"] == "r-17"
    assert record.exc_info is None
    assert "no such column: nope" in record.getMessage()
    assert record.filename == "test_observability.py"  # stacklevel points at the caller


def test_log_classified_error_never_logs_credentials(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("lde_observability_test")
    exc = sqlite3.OperationalError(
        "unable to open database postgresql://app:S3cr3t-pw@db.internal/prod "
        "with password=hunter22 for value 'card-4111111111111111'"
    )
    with caplog.at_level(logging.WARNING, logger="lde_observability_test"):
        log_classified_error(
            logger,
            exc,
            secrets=["card-4111111111111111"],
            dsn="Server=db;User Id=sa;Password={p;w;d};",
        )
        resp = classify_error(exc, secrets=["card-4111111111111111"])
        log_classified_error(logger, resp)
    assert len(_mine(caplog)) == 2
    for record in _mine(caplog):
        dumped = record.getMessage() + json.dumps(record.__dict__, default=str)
        for secret in ("S3cr3t-pw", "hunter22", "4111111111111111", "p;w;d"):
            assert secret not in dumped


def test_disabled_level_logs_nothing_but_still_classifies(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("lde_observability_test")
    with caplog.at_level(logging.ERROR, logger="lde_observability_test"):
        resp = log_classified_error(logger, _sqlite_error("SELEC 1"), logging.DEBUG)
    assert _mine(caplog) == []
    assert resp.kind is Kind.SYNTAX_ERROR
