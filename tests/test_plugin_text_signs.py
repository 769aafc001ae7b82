"""A mapper's own signs (`BackendMapper.text_signs`) name its backend in a pasted text."""

from __future__ import annotations

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    Kind,
    MappedError,
    MapperRegistry,
    TextSign,
    classify_message,
)
from localdata_errors._registry import mapper_problems


class _Acme(BackendMapper):
    """A backend whose driver prints `[Acme][Driver]` and whose codes are `ACME_*` names."""

    name = "acmedb"
    text_signs = (
        TextSign(r"\[Acme\]\[\w{1,40}\]", ("[Acme][",)),
        TextSign(r"\((?P<c>ACME_[A-Z]{1,20})\)", ("(ACME_",), frozenset({"ACME_GONE"})),
    )

    def map_error(self, error: ErrorInput) -> MappedError | None:
        if "(ACME_GONE)" in error.message:
            return MappedError(Kind.UNDEFINED_TABLE, code="ACME_GONE")
        return MappedError(Kind.UNKNOWN)


def _registry() -> MapperRegistry:
    registry = MapperRegistry(plugins=False)
    registry.register("acmedb", _Acme())
    return registry


def test_a_declared_sign_names_the_backend() -> None:
    answer = classify_message("[Acme][Driver] the table is gone (ACME_GONE)", registry=_registry())
    assert (answer.backend, answer.kind) == ("acmedb", Kind.UNDEFINED_TABLE)


def test_a_sign_before_another_backends_format_wins() -> None:
    # The driver prints a PostgreSQL-like "SQL state: " after its own prefix.
    text = "[Acme][Driver] failed. SQL state: 42P01, relation x does not exist"
    assert classify_message(text, registry=_registry()).backend == "acmedb"


def test_a_code_outside_the_known_set_is_no_sign() -> None:
    answer = classify_message("it failed (ACME_OTHER)", registry=_registry())
    assert answer.backend != "acmedb"
    assert classify_message("it failed (ACME_GONE)", registry=_registry()).backend == "acmedb"


def test_the_registry_reports_a_bad_sign() -> None:
    class Bad(_Acme):
        text_signs = (TextSign(r"(unclosed", ("x",)), TextSign(r"ok", ()))

    problems = mapper_problems(Bad())
    assert any("does not compile" in p for p in problems)
    assert any("needs a tuple of triggers" in p for p in problems)
