"""
No regular expression in the package backtracks super-linearly.

Every compiled pattern at module level in ``localdata_errors`` (every module,
every backend, found by walking the package, so new backends are covered as
they land) is run over adversarial inputs built from its own near-matches:
its literal fragments repeated, with quotes, dots, brackets and spaces.  The
256 KiB input must take less than 20 times the 64 KiB one (linear growth is
4 times) and less than a second.  The bounds are generous on purpose: they
catch quadratic and exponential behaviour, not a slow machine.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

import localdata_errors
from localdata_errors import classify_message

SMALL = 64 * 1024
LARGE = 256 * 1024
RATIO_LIMIT = 20.0
ABSOLUTE_LIMIT = 1.0
# Below this, timings are noise; the ratio is taken against at least this much.
FLOOR = 0.005


def _modules() -> Iterator[Any]:
    yield localdata_errors
    for info in pkgutil.walk_packages(localdata_errors.__path__, "localdata_errors."):
        if info.name.endswith("__main__"):
            continue  # running it is the command line, not a module of patterns
        try:
            yield importlib.import_module(info.name)
        except ImportError:  # an optional integration whose dependency is absent
            continue


def _patterns() -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}
    for module in _modules():
        for name, value in vars(module).items():
            candidates: list[tuple[str, object]] = [(name, value)]
            # One level into module-level tables of patterns, too.
            if isinstance(value, dict):
                candidates += [(f"{name}[{k!r}]", v) for k, v in value.items()]
            elif isinstance(value, tuple | list):
                candidates += [(f"{name}[{i}]", v) for i, v in enumerate(value)]
            for label, candidate in candidates:
                if isinstance(candidate, re.Pattern) and isinstance(candidate.pattern, str):
                    found.setdefault(f"{module.__name__}.{label}", candidate)
    return found


PATTERNS = _patterns()

_META = re.compile(
    r"\\[A-Za-z]|\[[^\]]{0,64}\]|\{\d{0,6},?\d{0,6}\}|\(\?[:=!<>P]{1,2}(?:<\w{1,32}>)?|[()|*+?^$]"
)


def _fragments(pattern: str) -> list[str]:
    """The literal text of a pattern: the runs between its operators."""
    parts = [p.replace("\\", "") for p in _META.split(pattern)]
    return [p for p in parts if p.strip()][:12] or ["a"]


def _inputs(pattern: str, size: int) -> Iterator[tuple[str, str]]:
    fragments = _fragments(pattern)
    joined = "".join(fragments)
    units = {
        "literal": joined + " ",
        "literal quoted": f"'{joined}\"",
        "literal dotted": f"`{joined}`.",
        "literal bracketed": f"[{joined}](",
        "fragments spaced": " ".join(fragments) + "  ",
        "word": "a",
        "spaces": " ",
        "quotes": "'`\"",
        "dots": "a.",
        "key equals at slash": "=a;a/b@",
    }
    for fragment in fragments[:3]:
        units[f"fragment {fragment[:20]!r}"] = fragment
    for label, unit in units.items():
        # A trailing NUL: the last attempt fails, as a near-match does.
        yield label, (unit * (size // max(len(unit), 1) + 1))[: size - 1] + "\x00"


def _cost(pattern: re.Pattern[str], text: str) -> float:
    start = time.perf_counter()
    for _match in pattern.finditer(text):
        pass
    return time.perf_counter() - start


def _pattern_cases() -> Iterator[Any]:
    for name in sorted(PATTERNS):
        yield pytest.param(name, id=name.removeprefix("localdata_errors."))


@pytest.mark.parametrize("name", list(_pattern_cases()))
def test_pattern_is_linear_on_its_near_matches(name: str) -> None:
    pattern = PATTERNS[name]
    for (label, small), (_, large) in zip(_inputs(pattern.pattern, SMALL),
                                          _inputs(pattern.pattern, LARGE), strict=True):
        t_small = _cost(pattern, small)
        if t_small > ABSOLUTE_LIMIT:
            pytest.fail(f"{name} = {pattern.pattern!r}: {label}: "
                        f"{t_small * 1000:.0f} ms already at 64 KiB")
        t_large = _cost(pattern, large)
        if t_large > ABSOLUTE_LIMIT or t_large > RATIO_LIMIT * max(t_small, FLOOR):
            # Measured once more before failing: a shared machine has hiccups.
            t_small = min(t_small, _cost(pattern, small))
            t_large = min(t_large, _cost(pattern, large))
        where = (f"{name} = {pattern.pattern!r}: {label}: {t_small * 1000:.1f} ms at 64 KiB, "
                 f"{t_large * 1000:.1f} ms at 256 KiB")
        assert t_large <= ABSOLUTE_LIMIT, where
        assert t_large <= RATIO_LIMIT * max(t_small, FLOOR), where


def test_the_walk_finds_the_patterns() -> None:
    # The walk itself must work, or every test above passes vacuously.
    assert "localdata_errors.redact._KEY_VALUE" in PATTERNS
    assert "localdata_errors.classify._SQLALCHEMY_TRAILER" in PATTERNS
    assert len(PATTERNS) > 10


@pytest.mark.parametrize("db_type", [None, "postgresql", "mysql", "sqlite", "duckdb",
                                     "oracle", "mssql"])
def test_a_one_megabyte_adversarial_message_is_classified(db_type: str | None) -> None:
    pieces = ["relation \"", "Key (", "a, ", ")=(", "ORA-", "[42S02] ", "[x]", "`a`.",
              "Duplicate entry '", "password=", "postgresql://u:", "@", "\\\"", "'"]
    message = "".join(pieces) * (1024 * 1024 // len("".join(pieces)))
    start = time.perf_counter()
    resp = classify_message(message, db_type, code="42P01")
    elapsed = time.perf_counter() - start
    assert resp.message
    # Generous: the real figure (a few milliseconds) is measured by the bench.
    assert elapsed < 5.0
