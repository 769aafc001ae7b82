"""
Spring's JDBC error-code translation table, held against our answers.

Every code `sql-error-codes.xml` lists for PostgreSQL, MySQL, Oracle or
Microsoft SQL Server (`tests.external.spring`) must agree with the documented
meaning of its list (`spring.MEANING`), but for the codes where the vendor's
meaning says otherwise (`spring.DISAGREEMENTS`, ours stands) and the misses
whose fix is known and not made yet (`spring.OPEN`).
"""

from __future__ import annotations

import pytest

from tests.external import spring

PRODUCTS = {"PostgreSQL", "MySQL", "Oracle", "MS-SQL"}


def _ours(loaded: spring.Loaded) -> list[spring.SpringCase]:
    return list(spring.ours(loaded.cases))


def test_the_table_is_read(spring_cases: spring.Loaded) -> None:
    cases = _ours(spring_cases)
    assert len(cases) >= 60
    assert {c.product for c in cases} == PRODUCTS
    assert {c.bucket for c in cases} >= {
        "badSqlGrammarCodes",
        "duplicateKeyCodes",
        "dataIntegrityViolationCodes",
        "dataAccessResourceFailureCodes",
        "cannotAcquireLockCodes",
        "deadlockLoserCodes",
        "cannotSerializeTransactionCodes",
    }
    for case in cases:
        if case.product == "PostgreSQL":
            assert len(case.code) == 5, case.name
        else:
            assert case.code.isdigit(), case.name
    # The other products are read too, and left out as none of ours.
    assert {c.product for c in spring_cases.cases} - PRODUCTS
    # MariaDB's texts on this machine give most MySQL codes their words.
    assert sum(1 for c in cases if c.product == "MySQL" and c.message) >= 10


def test_every_code_agrees_but_the_listed_ones(spring_cases: spring.Loaded) -> None:
    found: dict[tuple[str, str], str] = {}
    for case in _ours(spring_cases):
        resp = spring.answer(case)
        if not spring.verdict(case, resp).agrees:
            found[(case.product, case.code)] = (
                f"{case.bucket}: ours {resp.kind.value} ({resp.error_type.value}, "
                f"retryable={resp.is_retryable})"
            )
    listed = set(spring.DISAGREEMENTS) | set(spring.OPEN)
    assert {key: why for key, why in found.items() if key not in listed} == {}
    # A listed code that agrees now (or is gone from Spring's table) leaves the list.
    assert sorted(listed - set(found)) == []


def test_a_code_is_either_kept_or_open() -> None:
    assert not set(spring.DISAGREEMENTS) & set(spring.OPEN)


@pytest.mark.parametrize("bucket", sorted(spring.MEANING))
def test_every_list_has_a_meaning_in_our_terms(bucket: str) -> None:
    expected = spring.MEANING[bucket]
    assert expected.categories
    if expected.kinds is not None:
        from localdata_errors import KIND_TABLE

        assert {KIND_TABLE[k].category for k in expected.kinds} <= expected.categories
