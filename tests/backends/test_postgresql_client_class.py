"""
SQLSTATE class 08 is the clients' own: the text around it says why the connection failed.

A driver sets a class-08 code for any connection that failed or was lost,
whatever the server said: PHP's pdo_pgsql prints `SQLSTATE[08006] [7]`
before every failed connect's libpq text (`PHP_PDO_PGSQL_CONNECTION_FAILURE_SQLSTATE`
in php-src's ext/pdo_pgsql).  The server's start-up refusal in that text is
the error: its kind is the category PostgreSQL's errcodes give the server's
own code (28P01 invalid_password, 3D000 invalid_catalog_name, 53300
too_many_connections), and the code reported stays the one the text carries.
"""

from __future__ import annotations

import pytest

from localdata_errors import ErrorCategory, classify_message

CASES = [
    # https://github.com/firefly-iii/firefly-iii/issues/2668 (as a console wrapped it)
    (
        '  SQLSTATE[08006] [7] FATAL:  password authentication failed for user "firefl  \n  y"',
        ErrorCategory.AUTH_ERROR,  # 28P01, class 28: invalid authorization specification
    ),
    # https://github.com/alexjustesen/speedtest-tracker/issues/387
    (
        '  SQLSTATE[08006] [7] connection to server at "192.168.2.12", port 5432 faile  \n'
        '  d: FATAL:  password authentication failed for user "speedtest"               \n'
        '  connection to server at "192.168.2.12", port 5432 failed: FATAL:  password   \n'
        '  authentication failed for user "speedtest"',
        ErrorCategory.AUTH_ERROR,
    ),
    # https://github.com/IIC2413/Syllabus-2023-2/issues/208
    (
        "No se pudo conectar a la base de datos: PDOException: SQLSTATE[08006] [7] connection"
        ' to server at "localhost" (127.0.0.1), port 5432 failed: FATAL: password'
        ' authentication failed for user "grupo16"',
        ErrorCategory.AUTH_ERROR,
    ),
]


@pytest.mark.parametrize(("text", "category"), CASES)
def test_the_servers_refusal_under_a_client_class_08_code_decides(
    text: str, category: ErrorCategory
) -> None:
    answer = classify_message(text)
    assert answer.backend == "postgresql"
    assert answer.error_type is category
    assert answer.database_error_code == "08006"  # the code the text carries
    assert not answer.is_retryable  # the same password fails again


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # libpq's own reason under pdo_pgsql's 08006: a refused connect.
        ("SQLSTATE[08006] [7] could not connect to server: Connection refused",
         ErrorCategory.CONNECTION_ERROR),
        # The server's 53300 under it: too many connections.
        ("SQLSTATE[08006] [7] FATAL:  sorry, too many clients already",
         ErrorCategory.RESOURCE_ERROR),
        # The server's 3D000 under it: no such database.
        ('SQLSTATE[08006] [7] FATAL:  database "shop" does not exist',
         ErrorCategory.SCHEMA_ERROR),
    ],
)  # fmt: skip
def test_libpq_text_under_pdo_pgsql_decides(text: str, category: ErrorCategory) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == ("postgresql", "08006")
    assert answer.error_type is category


def test_a_class_08_code_without_a_reason_keeps_its_own_kind() -> None:
    # pgjdbc's 08006 with nothing after it saying why: the code's class decides.
    answer = classify_message("", db_type="postgresql", code="08006")
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR
