"""
The history's cost is linear, and bounded past its cut, on adversarial input:
100,000 characters of quotes, comments, nested parentheses, dollar signs,
backslashes, values.

Work is counted, not timed: the characters handed to sqlglot (its tokenizer
and its parser), and the Python function calls one ``record`` makes
(``sys.setprofile``), which grow with the work the tokenizer and the parser
do.  Wall-clock figures are in ``python -m bench.bench_history``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from localdata_errors import _sqlglot, _sqlmask, _statechange
from localdata_errors.history import ExecutionHistory

BODIES: dict[str, Callable[[int], str]] = {
    "quotes": lambda n: "'" * n,
    "doubled quotes": lambda n: "''" * (n // 2),
    "double quotes": lambda n: '"' * n,
    "open comments": lambda n: "/*" * (n // 2),
    "closed comments": lambda n: "/**/" * (n // 4),
    "line comments": lambda n: "--\n" * (n // 3),
    "nested parentheses": lambda n: "(" * (n // 2) + ")" * (n // 2),
    "dollars": lambda n: "$" * n,
    "backslashes": lambda n: "\\" * n,
    "values": lambda n: ", ".join(["('x', 1)"] * (n // 10)),
}
# The most characters of a statement sqlglot is handed: the parsed head and
# the masking's margin past it (the redaction's reach and the longest secret).
MOST_READ = _statechange.PARSE_LIMIT + 1024 + 64


def calls(step: Callable[[], object]) -> int:
    """How many Python (and C) function calls *step* makes."""
    count = 0

    def profile(_frame: Any, _event: str, _arg: Any) -> None:
        nonlocal count
        count += 1

    _statechange._glot.cache_clear()  # every parse a first one
    sys.setprofile(profile)
    try:
        step()
    finally:
        sys.setprofile(None)
    return count


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The length of every text handed to sqlglot's tokenizer or parser."""
    lengths: list[int] = []
    tokens = _sqlmask._tokens
    parse = _sqlglot.parse

    def counted_tokens(sql: str, *args: Any) -> Any:
        lengths.append(len(sql))
        return tokens(sql, *args)

    def counted_parse(sql: str, *args: Any, **kwargs: Any) -> Any:
        lengths.append(len(sql))
        return parse(sql, *args, **kwargs)

    monkeypatch.setattr(_sqlmask, "_tokens", counted_tokens)
    monkeypatch.setattr(_sqlglot, "parse", counted_parse)
    _statechange._glot.cache_clear()
    yield lengths
    _statechange._glot.cache_clear()


@pytest.mark.parametrize("db_type", ["postgresql", "mysql", None])
@pytest.mark.parametrize("body", list(BODIES))
def test_sqlglot_reads_a_bounded_head_of_any_statement(
    body: str, db_type: str | None, read: list[int]
) -> None:
    history = ExecutionHistory(db_type=db_type)
    sql = "INSERT INTO t VALUES " + BODIES[body](100_000)
    entry = history.record("execute_sql", {"sql": sql}, result=1)
    assert read
    assert max(read) <= MOST_READ
    assert len(entry.operation) <= 240
    assert len(history.summary()) <= history.max_chars


@pytest.mark.parametrize("db_type", ["postgresql", "mysql"])
@pytest.mark.parametrize("body", list(BODIES))
def test_the_work_is_linear_in_the_text_read(body: str, db_type: str | None) -> None:
    history = ExecutionHistory(db_type=db_type)
    history.record("execute_sql", {"sql": "SELECT 1"})  # imports, tables built on first use

    def work(n: int) -> int:
        sql = "INSERT INTO t VALUES " + BODIES[body](n)
        return calls(lambda: history.record("execute_sql", {"sql": sql}, result=1))

    small, large = work(2_000), work(8_000)
    # Four times the text, at most about four times the work (quadratic would be 16).
    # Past the cut more text is no more work: sqlglot reads a bounded head (above).
    assert large <= 4.5 * small, (small, large)


@pytest.mark.parametrize("body", ["nested parentheses", "open comments", "backslashes"])
def test_an_unknown_dialect_costs_a_reading_per_known_dialect_linear_all_the_same(
    body: str,
) -> None:
    history = ExecutionHistory()
    history.record("execute_sql", {"sql": "SELECT 1"})

    def work(n: int) -> int:
        sql = "INSERT INTO t VALUES " + BODIES[body](n)
        return calls(lambda: history.record("execute_sql", {"sql": sql}, result=1))

    small, large = work(1_000), work(4_000)
    assert large <= 4.5 * small, (small, large)


def test_a_calls_arguments_cost_is_bounded_whatever_their_size() -> None:
    history = ExecutionHistory()

    def work(n: int) -> int:
        arguments = {"payload": list(range(n)), "text": "x" * (10 * n), "blob": b"\0" * n}
        return calls(lambda: history.record("tool", arguments, result=1))

    work(10)  # what is built on first use
    small = work(20_000)
    assert work(200_000) <= 1.05 * small
