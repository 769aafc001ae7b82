"""The prompt guidance: short, complete, and composed without damaging the caller's prompt."""

from __future__ import annotations

import pytest

from localdata_errors.prompts import ERROR_HANDLING_GUIDANCE, with_error_guidance


def test_guidance_is_short() -> None:
    assert len(ERROR_HANDLING_GUIDANCE) <= 1500


@pytest.mark.parametrize(
    "needle",
    [
        "error_type",
        "dependencies",
        "affected_resources",
        "<TOOL_EXECUTION_SUMMARY>",
        "Possibly unblocked",
        "suggested_actions",
        "is_retryable is false, never repeat",
        "roll back",
        "Ask the user only",
        # the worked example
        "DROP TABLE customers",
        "DROP TABLE products",
        "DROP TABLE sales succeeds",
    ],
)
def test_guidance_covers_each_rule(needle: str) -> None:
    assert needle in ERROR_HANDLING_GUIDANCE


def test_guidance_names_the_fields_the_tool_shape_has() -> None:
    from localdata_errors import classify_message

    shape = (
        classify_message("no such table: t", "sqlite")
        .replace(affected_resources=("t",), dependencies=("u",))
        .to_tool_error()
    )
    for field in ("error_type", "affected_resources", "dependencies", "suggested_actions"):
        assert field in shape
        assert field in ERROR_HANDLING_GUIDANCE


def test_composition_keeps_the_callers_prompt_first() -> None:
    prompt = "You are a careful database assistant.\n"
    composed = with_error_guidance(prompt)
    assert composed == "You are a careful database assistant.\n\n" + ERROR_HANDLING_GUIDANCE
    assert with_error_guidance(composed) == composed  # not added twice
    assert with_error_guidance("") == ERROR_HANDLING_GUIDANCE
    assert with_error_guidance("   \n") == ERROR_HANDLING_GUIDANCE


def test_the_documented_text_is_the_guidance() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[1] / "docs" / "recovery.md").read_text()
    assert f"```\n{ERROR_HANDLING_GUIDANCE}\n```" in docs
