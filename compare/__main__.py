"""
Run both classifiers over the real-error corpus and write the comparison table.

    python -m compare [--backend NAME ...] [--output PATH | --no-write] [--rounds N]

localdata-mcp's ``classify_error(exception, db_type)`` needs the backend
name (it does not detect it); it is given the corpus's backend name.
localdata-errors is called as users call it: ``classify_error(exception)``,
detecting the backend from the driver.

Each side is timed up to what its tool hands an agent: a dict, ready for
``json.dumps``.  localdata-mcp's tools return
``json.dumps(classify_error(e, db_type).to_dict())``
(``server/database_manager.py``); localdata-errors' is
``classify_error(e).to_tool_error()``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.metadata
import json
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from bench._corpora import BACKENDS, load
from bench.importtime import cumulative_us
from bench.theirs import MODULE as THEIR_MODULE
from bench.theirs import classifier, tool_call
from bench.timing import first_sight, p90, raised, read_exception, repeated
from localdata_errors import KIND_TABLE, classify_error
from tests.corpus import CorpusCase

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "comparison.md"


@dataclass
class Tally:
    """Right answers of one classifier on one backend."""

    cases: int = 0
    category: int = 0
    retryable: int = 0
    code_cases: int = 0
    code: int = 0
    name_cases: int = 0
    names: int = 0
    raised: int = 0
    #: µs per call on first sight (see bench.timing), one per case.
    first: list[float] = field(default_factory=list)
    #: µs per call repeated back to back, one per case.
    again: list[float] = field(default_factory=list)
    #: Characters of the driver's own message (`str(exception)`), one per case.
    raw_chars: list[int] = field(default_factory=list)
    #: Characters of the answer an agent reads (`to_tool_error()` as JSON), one per case.
    answer_chars: list[int] = field(default_factory=list)


def _expected(case: CorpusCase) -> tuple[str, bool]:
    info = KIND_TABLE[case.expected.kind]
    retryable = info.retryable if case.expected.retryable is None else case.expected.retryable
    return info.category.value, retryable


def _score(tally: Tally, case: CorpusCase, resp: Any) -> None:
    category, retryable = _expected(case)
    exp = case.expected
    tally.cases += 1
    error_type = getattr(resp, "error_type", None)
    tally.category += getattr(error_type, "value", error_type) == category
    tally.retryable += getattr(resp, "is_retryable", None) is retryable
    if exp.code is not None:
        tally.code_cases += 1
        code = getattr(resp, "database_error_code", None)
        tally.code += code is not None and str(code) == exp.code
    wanted = (*exp.resources, *exp.dependencies)
    if wanted:
        tally.name_cases += 1
        found = (*getattr(resp, "affected_resources", ()), *getattr(resp, "dependencies", ()))
        tally.names += all(name in found for name in wanted)


def _import_time(module: str) -> float | None:
    """Seconds to import *module* in a fresh interpreter (median of 3, see bench.importtime)."""
    try:
        return cumulative_us(module, runs=3) / 1e6
    except (subprocess.CalledProcessError, OSError):
        return None


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _pct(right: int, total: int) -> str:
    return f"{right}/{total} ({100 * right / total:.0f} %)" if total else "n/a"


def run(backends: tuple[str, ...], rounds: int) -> str:
    """Classify every case with both classifiers; return the markdown report."""
    their_classify = classifier()
    rows: list[tuple[str, Tally, Tally, list[float]]] = []
    left_out: list[str] = []
    for backend, cases in load(backends):
        if isinstance(cases, str):
            left_out.append(f"{backend}: {cases}")
            continue
        ours_t, theirs_t = Tally(), Tally()
        calls = []
        touch = []
        for case in cases:
            answer = classify_error(case.exception, case.db_type)
            _score(ours_t, case, answer)
            ours_t.raw_chars.append(len(str(case.exception)))
            ours_t.answer_chars.append(len(json.dumps(answer.to_tool_error(), ensure_ascii=False)))
            try:
                _score(theirs_t, case, their_classify(case.exception, case.db_type or backend))
            except Exception:  # noqa: BLE001 - a classifier that raises scores nothing
                theirs_t.cases += 1
                theirs_t.raised += 1
            ours = partial(_ours, case.exception, case.db_type)
            mine = tool_call(their_classify, case.exception, case.db_type or backend)
            reading = partial(read_exception, case.exception)
            calls.append((ours, mine, reading))
            touch.append(partial(raised, case.exception))
            ours_t.again.append(repeated(ours))
            theirs_t.again.append(repeated(mine))
        ours_first, theirs_first, floor = first_sight(calls, rounds, touch=touch)
        ours_t.first, theirs_t.first = ours_first, theirs_first
        rows.append((backend, ours_t, theirs_t, floor))
    return _report(rows, left_out, rounds)


def _ours(exc: BaseException, db_type: str | None) -> object:
    return classify_error(exc, db_type).to_tool_error()


def _report(
    rows: list[tuple[str, Tally, Tally, list[float]]], left_out: list[str], rounds: int
) -> str:
    ours_v, theirs_v = _version("localdata-errors"), _version("localdata-mcp")
    lines = [
        "# localdata-errors and localdata-mcp, side by side",
        "",
        f"Generated by `python -m compare` on {dt.date.today().isoformat()}: "
        f"localdata-errors {ours_v}, localdata-mcp {theirs_v}, "
        f"Python {platform.python_version()}.",
        "",
        "Both classifiers see the same exceptions: the real-error corpus "
        "(`tests.corpus`).  localdata-mcp is told the backend (it cannot detect "
        "it); localdata-errors detects it from the driver.  Each cell is "
        "localdata-errors / localdata-mcp.",
        "",
        "| backend | cases | category right | retry decision right | native code kept "
        "| names extracted | raised |",
        "|---|---|---|---|---|---|---|",
    ]
    total_ours, total_theirs = Tally(), Tally()
    all_floor: list[float] = []
    for backend, ours, theirs, floor in rows:
        lines.append(
            f"| {backend} | {ours.cases} | {_pct(ours.category, ours.cases)} / "
            f"{_pct(theirs.category, theirs.cases)} | {_pct(ours.retryable, ours.cases)} / "
            f"{_pct(theirs.retryable, theirs.cases)} | {_pct(ours.code, ours.code_cases)} / "
            f"{_pct(theirs.code, theirs.code_cases)} | {_pct(ours.names, ours.name_cases)} / "
            f"{_pct(theirs.names, theirs.name_cases)} | {ours.raised} / {theirs.raised} |"
        )
        all_floor += floor
        for total, part in ((total_ours, ours), (total_theirs, theirs)):
            for name in (
                "cases",
                "category",
                "retryable",
                "code_cases",
                "code",
                "name_cases",
                "names",
                "raised",
            ):
                setattr(total, name, getattr(total, name) + getattr(part, name))
            total.first += part.first
            total.again += part.again
            total.raw_chars += part.raw_chars
            total.answer_chars += part.answer_chars
    lines.append(
        f"| **all** | {total_ours.cases} | {_pct(total_ours.category, total_ours.cases)} / "
        f"{_pct(total_theirs.category, total_theirs.cases)} | "
        f"{_pct(total_ours.retryable, total_ours.cases)} / "
        f"{_pct(total_theirs.retryable, total_theirs.cases)} | "
        f"{_pct(total_ours.code, total_ours.code_cases)} / "
        f"{_pct(total_theirs.code, total_theirs.code_cases)} | "
        f"{_pct(total_ours.names, total_ours.name_cases)} / "
        f"{_pct(total_theirs.names, total_theirs.name_cases)} | "
        f"{total_ours.raised} / {total_theirs.raised} |"
    )
    lines += [
        "",
        "## Time per call",
        "",
        "µs per call, measured in the same run, call by call (see `bench/timing.py`): "
        "*first sight* is one call on an error that is not the one just classified "
        "(one backend's cases at a time, in a shuffled order, as an agent working against one "
        f"database meets them; median of {rounds} rounds per case; the exception is read once, "
        "untimed, as raising it did: the type and text of each exception along its chain, "
        "SQLAlchemy's `.orig` included; and the contenders take turns going "
        "first); *repeated* is the same "
        "call back to back.  localdata-errors is `classify_error(exc).to_tool_error()`; "
        "localdata-mcp is its `classify_error(exc, db_type).to_dict()`, as its tools call it "
        "(each side up to the dict its tool sends); the floor is reading the "
        "exception's type and text.",
        "",
        "| backend | first sight median | ratio | first sight p90 | ratio | repeated median "
        "| floor |",
        "|---|---|---|---|---|---|---|",
    ]
    for backend, ours, theirs, floor in [*rows, ("**all**", total_ours, total_theirs, all_floor)]:
        if not ours.first:
            continue
        om, tm = statistics.median(ours.first), statistics.median(theirs.first)
        op, tp = p90(ours.first), p90(theirs.first)
        lines.append(
            f"| {backend} | {om:.2f} / {tm:.2f} | {om / tm:.2f} | {op:.2f} / {tp:.2f} | "
            f"{op / tp:.2f} | {statistics.median(ours.again):.2f} / "
            f"{statistics.median(theirs.again):.2f} | {statistics.median(floor):.2f} |"
        )
    lines += _size_section(rows, total_ours)
    ours_imp, theirs_imp = _import_time("localdata_errors"), _import_time(THEIR_MODULE)
    pluggy_imp = _import_time("pluggy")
    lines += [
        "",
        "Import time (median of 3, fresh interpreter, byte-code compiled): "
        f"`import localdata_errors` {_ms(ours_imp)} (pluggy alone {_ms(pluggy_imp)}), "
        f"`import {THEIR_MODULE}` {_ms(theirs_imp)} (it imports the whole localdata_mcp "
        "package).",
    ]
    if left_out:
        lines += ["", "Left out:", "", *(f"- {why}" for why in left_out)]
    return "\n".join(lines) + "\n"


def _size_section(rows: list[tuple[str, Tally, Tally, list[float]]], total: Tally) -> list[str]:
    """What an agent reads: the tool shape's size beside the driver's own message."""
    lines = [
        "",
        "## Answer size",
        "",
        "Characters an agent reads per error: the driver's own message (`str(exception)`) "
        "and localdata-errors' tool shape (`json.dumps(classify_error(exc).to_tool_error())`, "
        "which carries that message too).  About four characters make a token.",
        "",
        "| backend | message median | message p90 | tool shape median | tool shape p90 "
        "| ratio of medians |",
        "|---|---|---|---|---|---|",
    ]
    for backend, ours in [*((b, o) for b, o, _, _ in rows), ("**all**", total)]:
        if not ours.raw_chars:
            continue
        raw_m, answer_m = statistics.median(ours.raw_chars), statistics.median(ours.answer_chars)
        lines.append(
            f"| {backend} | {raw_m:.0f} | {p90(ours.raw_chars):.0f} | {answer_m:.0f} | "
            f"{p90(ours.answer_chars):.0f} | {answer_m / raw_m:.1f} |"
        )
    return lines


def _ms(seconds: float | None) -> str:
    return "failed" if seconds is None else f"{seconds * 1000:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m compare``."""
    parser = argparse.ArgumentParser(
        prog="python -m compare", description="localdata-errors vs localdata-mcp"
    )
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--rounds", type=int, default=15, help="first-sight samples per case")
    args = parser.parse_args(argv)
    try:
        classifier()
    except ImportError as exc:
        print(
            f"localdata-mcp is not importable here ({exc}); install it in this "
            "environment (tox -e compare does) and run again.",
            file=sys.stderr,
        )
        return 2
    report = run(tuple(args.backend or BACKENDS), max(args.rounds, 1))
    sys.stdout.write(report)
    if not args.no_write:
        args.output.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
