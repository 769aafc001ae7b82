"""A vendor's own wording names its backend when nothing else in the text does."""

from __future__ import annotations

import pytest

from localdata_errors import classify_message
from localdata_errors._detect import detect


# Texts as the vendors print them (their manuals' and message lists' wording),
# with no code, no driver's module and no product name.
@pytest.mark.parametrize(
    ("text", "backend"),
    [
        ("no such table: users", "sqlite"),
        ("attempt to write a readonly database", "sqlite"),
        ("SqliteError: attempt to write a readonly database", "sqlite"),
        ("UNIQUE constraint failed: users.email", "sqlite"),
        ("Invalid column name 'Tenantd'.", "mssql"),
        (
            "Transaction (Process ID 268) was deadlocked on lock resources with another"
            " process and has been chosen as the deadlock victim. Rerun the transaction.",
            "mssql",
        ),
        (
            "remaining connection slots are reserved for non-replication superuser connections",
            "postgresql",
        ),
        ("You have an error in your SQL syntax; check the manual", "mysql"),
        ("Error: Catalog Error: Table with name t does not exist!", "duckdb"),
    ],
)
def test_the_wording_names_the_backend(text: str, backend: str) -> None:
    found = detect(text)
    assert found is not None
    assert found.backend == backend
    assert classify_message(text).backend == backend


def test_a_text_without_a_vendors_phrase_names_nothing() -> None:
    assert detect("something went wrong while saving the record") is None
    assert detect("Error: something went wrong (attempt 3)") is None


def test_the_mapper_reads_from_the_exception_class_before_the_phrase() -> None:
    found = detect("[worker] SqliteError: attempt to write a readonly database")
    assert found is not None
    assert found.message == "attempt to write a readonly database"
