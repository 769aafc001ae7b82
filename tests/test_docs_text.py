"""docs/text.md says what the text reader does: its format table and its example hold."""

from __future__ import annotations

import re
from pathlib import Path

from localdata_errors import Kind, classify_message
from localdata_errors._textread import SIGNS

PAGE = Path(__file__).resolve().parents[1] / "docs" / "text.md"


def test_the_format_table_lists_every_format_the_reader_has() -> None:
    listed = re.findall(r"^\| `([\w-]+)` \|", PAGE.read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(listed) == sorted(sign.name for sign in SIGNS)


def test_the_pages_example_answers_as_shown() -> None:
    text = "Error 1205 (HY000): Lock wait timeout exceeded; try restarting transaction"
    assert text in PAGE.read_text(encoding="utf-8")
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == ("mysql", "1205")
    assert answer.kind is Kind.LOCK_NOT_AVAILABLE
    assert "Kind.LOCK_NOT_AVAILABLE" in PAGE.read_text(encoding="utf-8")
