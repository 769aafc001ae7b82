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
