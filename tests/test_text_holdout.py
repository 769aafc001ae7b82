"""
The held-out texts are well formed and held out.

Format only, never accuracy: every entry parses with the corpus's own
validator (fields, vocabulary, code forms, addresses), its kind agrees with
the category and retry decision DESIGN.md's Kind table gives it, and no text
is also in `tests/text_corpus`.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.text_corpus import BACKENDS, FAMILIES, TextCase
from tests.text_corpus import load as load_corpus
from tests.text_holdout import DIRECTORY, load

# DESIGN.md's Kind table: kind -> (category, retryable).
_SCHEMA = (
    "undefined_table undefined_column undefined_function undefined_object undefined_database"
    " undefined_schema duplicate_table duplicate_column duplicate_object duplicate_database"
    " duplicate_schema ambiguous_column"
)
_CONSTRAINT = (
    "unique_violation foreign_key_violation not_null_violation check_violation"
    " exclusion_violation dependent_objects_still_exist"
)
_QUERY = (
    "division_by_zero invalid_text_representation numeric_value_out_of_range"
    " string_data_right_truncation datatype_mismatch invalid_parameter transaction_aborted"
    " feature_not_supported"
)
_TRANSIENT = (
    "deadlock_detected serialization_failure lock_not_available database_locked statement_timeout"
)
DESIGN_KINDS: dict[str, tuple[str, bool]] = {
    "syntax_error": ("syntax_error", False),
    **dict.fromkeys(_SCHEMA.split(), ("schema_error", False)),
    **dict.fromkeys(_CONSTRAINT.split(), ("constraint_error", False)),
    **dict.fromkeys(
        ["invalid_password", "invalid_authorization", "insufficient_privilege", "read_only"],
        ("auth_error", False),
    ),
    **dict.fromkeys(_TRANSIENT.split(), ("transient_error", True)),
    **dict.fromkeys(
        ["connection_failure", "connection_lost", "admin_shutdown"], ("connection_error", True)
    ),
    "connection_misconfigured": ("connection_error", False),
    "too_many_connections": ("resource_error", True),
    **dict.fromkeys(
        ["out_of_memory", "disk_full", "configuration_limit_exceeded"], ("resource_error", False)
    ),
    **dict.fromkeys(_QUERY.split(), ("query_execution", False)),
}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


@pytest.fixture(scope="module")
def cases() -> list[TextCase]:
    return load()


def test_every_file_parses_and_is_not_empty(cases: list[TextCase]) -> None:
    files = sorted(DIRECTORY.glob("*.jsonl"))
    assert files
    per_file = Counter(case.id.rsplit("-", 1)[0] for case in cases)
    for path in files:
        assert per_file[path.stem] > 0, path.name


def test_every_line_has_every_required_field() -> None:
    required = {"id", "text", "source", "family", "backend", "code", "category", "retryable"}
    for path in DIRECTORY.glob("*.jsonl"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            entry = json.loads(line)
            assert required | {"doc"} <= set(entry), f"{path.name}:{number}"
            assert entry["source"].startswith(("http://", "https://")), f"{path.name}:{number}"


def test_ids_are_numbered_in_order() -> None:
    for path in DIRECTORY.glob("*.jsonl"):
        ids = [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]
        assert ids == [f"{path.stem}-{n:03d}" for n in range(1, len(ids) + 1)], path.name


def test_labels_are_in_the_vocabulary(cases: list[TextCase]) -> None:
    for case in cases:
        assert case.family in FAMILIES, case.id
        assert case.backend is None or case.backend in BACKENDS, case.id


def test_kind_agrees_with_the_design_table(cases: list[TextCase]) -> None:
    for case in cases:
        if case.kind is None:
            continue
        assert (case.category, case.retryable) == DESIGN_KINDS[case.kind], case.id


def test_no_text_is_also_in_the_corpus(cases: list[TextCase]) -> None:
    # Not the same text, not a fragment of a corpus text, and not a corpus
    # text with only a short wrapper around it (the corpus text is at most
    # 60% of it).
    corpus = {_norm(case.text) for case in load_corpus()}
    for case in cases:
        text = _norm(case.text)
        assert text not in corpus, case.id
        for other in corpus:
            if len(other) <= 20:
                continue
            assert text not in other, (case.id, other)
            assert not (other in text and len(other) > 0.6 * len(text)), (case.id, other)


def test_no_text_is_twice_in_the_holdout(cases: list[TextCase]) -> None:
    counts = Counter(_norm(case.text) for case in cases)
    assert [text for text, n in counts.items() if n > 1] == []
