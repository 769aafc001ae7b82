"""
Classification and masking never raise, whatever each argument is.

Hypothesis draws every argument from a mix of types a caller may pass by
mistake (and a few that fight back: a __str__ or __eq__ that raises, a
float code, bytes, nested containers); the answer is always an answer and
renders to JSON.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from localdata_errors import classify_error, classify_message, redact


class _Hostile:
    def __str__(self) -> str:
        raise RuntimeError("no text")

    def __repr__(self) -> str:  # hypothesis prints the examples it draws
        return "<hostile>"

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparison")

    __hash__ = object.__hash__


ANY: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=200)
    | st.binary(max_size=100)
    | st.just(_Hostile())
    | st.builds(Exception, st.text(max_size=100))
    | st.sampled_from(["mysql", "postgresql", "sqlite", "oracle", "mssql", "duckdb", "nosuch"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def _renders(answer: Any) -> None:
    json.dumps(answer.to_tool_error())
    json.dumps(answer.to_jsonrpc_error(tool_name="t"))


@settings(max_examples=300, deadline=None)
@given(ANY, ANY, ANY, ANY, ANY)
def test_classify_message_never_raises(
    message: Any, db_type: Any, code: Any, database: Any, secrets: Any
) -> None:
    _renders(classify_message(message, db_type, code, database=database, secrets=secrets))


@settings(max_examples=300, deadline=None)
@given(ANY, ANY, ANY)
def test_classify_error_never_raises(exc: Any, db_type: Any, secrets: Any) -> None:
    _renders(classify_error(exc, db_type=db_type, secrets=secrets))


@settings(max_examples=300, deadline=None)
@given(ANY, ANY, ANY)
def test_redact_never_raises(text: Any, secrets: Any, limit: Any) -> None:
    assert isinstance(redact(text, secrets, limit), str)
