"""
A drop-in for localdata-mcp's users: its documented plugin guide and helpers run unchanged
but for the import path (docs/localdata-mcp.md shows the same file).
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from localdata_errors import (
    Action,
    ErrorCategory,
    ErrorMapperRegistry,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
    get_error_suggestion,
    is_error_retryable,
)

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "snippets" / "localdata_mcp_guide.py"


class DuplicateKeyError(Exception):
    """An exception of a driver nobody registered, as localdata-mcp's guide expects."""


@pytest.fixture
def guide() -> None:
    runpy.run_path(str(GUIDE))


@pytest.mark.usefixtures("guide")
def test_the_guides_mapper_answers_for_its_name() -> None:
    exc = DuplicateKeyError('duplicate key value violates unique constraint "users_email_key"')
    answer = classify_error(exc, db_type="mydb")
    # What the mapper said: category, message, suggestion.
    assert answer.error_type is ErrorCategory.CONSTRAINT_ERROR
    assert answer.message == str(exc)
    assert answer.suggestion == "Check for duplicate values."
    # What the core adds: a kind of that category, the next step, the backend's name.
    assert answer.kind is Kind.UNIQUE_VIOLATION
    assert answer.action is Action.FIX_QUERY
    assert answer.is_retryable is False
    assert answer.backend == "mydb"
    assert answer.to_dict()["error_type"] == "constraint_error"
    assert is_error_retryable(exc, db_type="mydb") is False
    assert get_error_suggestion(exc, db_type="mydb") == "Check for duplicate values."


@pytest.mark.usefixtures("guide")
def test_the_guides_fallback_is_the_keyword_mappers_whole_answer() -> None:
    exc = RuntimeError("deadlock detected")
    answer = classify_error(exc, db_type="mydb")
    assert (answer.error_type, answer.kind) == (
        ErrorCategory.TRANSIENT_ERROR,
        Kind.DEADLOCK_DETECTED,
    )
    assert answer.is_retryable is True
    assert is_error_retryable(exc, db_type="mydb") is True
    # The text alone reaches the mapper too.
    assert classify_message("duplicate entry 'a' for key 'email'", "mydb").suggestion == (
        "Check for duplicate values."
    )


@pytest.mark.usefixtures("guide")
def test_the_mapper_is_registered_under_the_name_it_was_given() -> None:
    assert "mydb" in ErrorMapperRegistry.names()
    assert type(ErrorMapperRegistry.get_mapper("mydb")).__name__ == "MyDBErrorMapper"


def test_localdata_mcps_helpers_keep_their_defaults() -> None:
    # localdata-mcp's helpers default to db_type="generic": the keyword mapper.
    exc = RuntimeError("Lock wait timeout exceeded; try restarting transaction")
    assert is_error_retryable(exc, db_type="generic") is True
    assert classify_error(exc, db_type="generic").error_type is ErrorCategory.TRANSIENT_ERROR
    assert get_error_suggestion(exc, db_type="generic")


def test_the_answer_is_built_as_localdata_mcp_builds_its_own() -> None:
    # Every field has a default; to_dict() has localdata-mcp's seven keys first.
    built = StructuredErrorResponse(
        error_type=ErrorCategory.AUTH_ERROR, message="denied", suggestion="Check credentials."
    )
    assert list(built.to_dict())[:7] == [
        "error",
        "error_type",
        "is_retryable",
        "message",
        "suggestion",
        "database_error_code",
        "database",
    ]


class Secretive(Exception):
    pass


def test_a_guide_style_mappers_answer_is_masked_and_never_raises() -> None:
    from localdata_errors import DatabaseErrorMapper

    class Leaky(DatabaseErrorMapper):
        def map_error(self, exception: Exception) -> StructuredErrorResponse:
            return StructuredErrorResponse(
                error_type=ErrorCategory.CONNECTION_ERROR,
                message=f"{exception} (dsn postgresql://app:hunter2@db/shop)",
                suggestion="Try postgresql://app:hunter2@db/shop again",
                is_retryable=True,
            )

    class Raising(DatabaseErrorMapper):
        def map_error(self, exception: Exception) -> StructuredErrorResponse:
            raise ValueError("bug")

    ErrorMapperRegistry.register("leaky", Leaky())
    ErrorMapperRegistry.register("raising", Raising())
    leaked = classify_error(Secretive("could not connect"), db_type="leaky")
    assert "hunter2" not in leaked.to_json()
    assert leaked.error_type is ErrorCategory.CONNECTION_ERROR
    assert leaked.is_retryable is True
    fallback = classify_error(Secretive("deadlock detected"), db_type="raising")
    assert fallback.kind is Kind.DEADLOCK_DETECTED
