"""
The readable text form of an answer, shared by the commands that print one
for a person (`classify`, `demo`, `scan`): one place decides how an answer
reads on a terminal.
"""

from __future__ import annotations

from collections.abc import Callable

from localdata_errors._kinds import RetrySafety
from localdata_errors._response import StructuredErrorResponse

__all__ = ["Paint", "answer_lines", "field", "next_step", "style"]

#: Colours a text by a style name (`bold`, `dim`, `red`, ...); the identity without colour.
Paint = Callable[[str, str], str]

_CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}
#: The labels' column: every value starts at the same place.
_LABEL_WIDTH = 13


def style(color: bool) -> Paint:
    """
    A painter: ANSI colours when *color*, the text unchanged otherwise.

    Args:
        color: Whether to colour.

    Returns:
        `paint(text, style_name)`.
    """

    def paint(text: str, name: str) -> str:
        return f"\x1b[{_CODES[name]}m{text}\x1b[0m" if color else text

    return paint


def field(label: str, value: str, indent: str = "") -> str:
    """
    One labelled line; a value's own line breaks continue under the value's column.

    Args:
        label: The label (`kind`, `suggestion`, ...).
        value: The value.
        indent: Spaces before the label.

    Returns:
        The line (several, for a value that spans lines).
    """
    pad = indent + " " * _LABEL_WIDTH
    return f"{indent}{label:<{_LABEL_WIDTH - 1}} " + value.replace("\n", "\n" + pad)


def next_step(resp: StructuredErrorResponse) -> str:
    """
    The next step in words: the action, and for a retry its safety and first wait.

    Args:
        resp: The answer.

    Returns:
        `fix_query`, or `retry (safe, after 1000 ms)`, ...
    """
    details = []
    if resp.retry_safety is not RetrySafety.NOT_APPLICABLE:
        details.append(resp.retry_safety.value)
    if resp.retry_after_ms is not None:
        details.append(f"after {resp.retry_after_ms} ms")
    return resp.action.value + (f" ({', '.join(details)})" if details else "")


def answer_lines(resp: StructuredErrorResponse, paint: Paint, indent: str = "") -> list[str]:
    """
    What the answer says, one labelled line per fact; facts it does not know are left out.

    Args:
        resp: The answer.
        paint: The painter (see `style`).
        indent: Spaces before each label.

    Returns:
        The lines, without line breaks at their ends.
    """
    retry = paint("yes", "green") if resp.is_retryable else paint("no", "red")
    lines = [
        field(
            "kind",
            f"{paint(resp.kind.value, 'yellow')} ({resp.error_type.value}), retry: {retry}",
            indent,
        ),
        field("next step", next_step(resp), indent),
        field(
            "code",
            f"{resp.database_error_code or '-'}    tool type: {resp.info.tool_error_type.value}",
            indent,
        ),
    ]
    if resp.affected_resources:
        lines.append(field("involves", ", ".join(resp.affected_resources), indent))
    if resp.dependencies:
        lines.append(field("change first", ", ".join(resp.dependencies), indent))
    if resp.constraint:
        lines.append(field("constraint", resp.constraint, indent))
    lines.append(field("suggestion", resp.suggestion, indent))
    return lines
