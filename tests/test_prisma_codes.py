"""
Prisma's own error codes: every code its engines define is decided or said undecided,
and a text with the code, or with its message alone, gets the decision.

The facts (`localdata_errors._prisma_codes`) are generated from prisma-engines'
source; the meanings come from each code's message template and Prisma's error
reference (https://www.prisma.io/docs/orm/reference/error-reference).
"""

from __future__ import annotations

import re

import pytest

from localdata_errors import Kind, classify_message
from localdata_errors._prisma_codes import PATTERNS, TEMPLATES
from localdata_errors._prisma_kinds import KINDS, UNDECIDED


def test_every_extracted_code_is_decided_or_said_undecided() -> None:
    assert sorted(set(TEMPLATES) - set(KINDS) - set(UNDECIDED)) == []
    assert sorted(set(KINDS) & set(UNDECIDED)) == []
    assert sorted((set(KINDS) | set(UNDECIDED)) - set(TEMPLATES)) == []
    assert all(reason.strip() for reason in UNDECIDED.values())
    assert all(kind is not Kind.UNKNOWN for kind in KINDS.values())


def _filled(template: str) -> str:
    """A template's first line with every value filled in (`{database_host}` -> `x`)."""
    return re.sub(r"\{[^{}]*\}", "x", template.split("\n", 1)[0])


@pytest.mark.parametrize(
    ("code", "template"),
    [(code, one) for code, texts in sorted(TEMPLATES.items()) if code in PATTERNS for one in texts],
)
def test_a_message_without_its_code_says_the_code(code: str, template: str) -> None:
    text = f"PrismaClientKnownRequestError: \n{_filled(template)}"
    if not any(re.search(one, text) for one in PATTERNS[code]):
        pytest.skip("its first line is too short to be told apart")
    answer = classify_message(text)
    assert answer.database_error_code == code
    if code in KINDS:
        assert answer.kind is KINDS[code]


@pytest.mark.parametrize(
    ("code", "kind", "retryable"),
    [
        ("P1001", Kind.CONNECTION_FAILURE, True),
        ("P1017", Kind.CONNECTION_LOST, True),
        ("P1000", Kind.INVALID_PASSWORD, False),
        ("P2024", Kind.TOO_MANY_CONNECTIONS, True),
        ("P2034", Kind.SERIALIZATION_FAILURE, True),
    ],
)
def test_a_code_alone_gets_its_decision(code: str, kind: Kind, retryable: bool) -> None:
    answer = classify_message("", code=code)
    assert (answer.kind, answer.is_retryable, answer.database_error_code) == (kind, retryable, code)
    # Under a named backend too, and the code is not read as the backend's own.
    named = classify_message("", "postgresql", code)
    assert (named.backend, named.kind, named.database_error_code) == ("postgresql", kind, code)
    assert named.sqlstate is None


@pytest.mark.parametrize(
    ("text", "backend"),
    [
        ("Error: P1001: Can't reach database server at `localhost:5432`", "postgresql"),
        ("Error: P1001: Can't reach database server at `db`:`3306`", "mysql"),
        ("Error: P1001: Can't reach database server at `sql.example.com:1433`", "mssql"),
        ("Error: P1001: Can't reach database server at `localhost:6543`", "generic"),
    ],
)
def test_the_port_names_the_backend_not_prismas_words(text: str, backend: str) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        backend,
        Kind.CONNECTION_FAILURE,
        "P1001",
    )


def test_prismas_unique_wording_is_not_sqlites() -> None:
    # SQLite says "UNIQUE constraint failed: t.c"; Prisma's P2002 says this of any database.
    answer = classify_message(
        "Invalid `prisma.user.create()` invocation:\n\n\n"
        "Unique constraint failed on the fields: (`email`)"
    )
    assert (answer.backend, answer.kind, answer.database_error_code) == (
        "generic",
        Kind.UNIQUE_VIOLATION,
        "P2002",
    )
