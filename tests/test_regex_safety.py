"""
No regular expression in the package backtracks super-linearly.

Every compiled pattern at module level in ``localdata_errors`` (every module,
every backend, found by walking the package, so new backends are covered as
they land) is run over adversarial inputs built from its own near-matches:
its literal fragments repeated, with quotes, dots, brackets and spaces.  The
256 KiB input must take less than 64 times the 16 KiB one (linear growth is
16 times, quadratic 256) and less than ten seconds.  The bounds are generous
on purpose: they catch quadratic and exponential behaviour, not a slow or
loaded machine.

Then the structure, which holds for every input: no pattern nests an
unbounded repetition with another where it may backtrack; the redaction's
patterns backtrack only over single character classes (every other
repetition is possessive); and the one pass that looks for credentials
starts only at literal characters.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import time
from collections.abc import Iterator
from re import _constants as sre  # the parser's node types, to read a pattern's structure
from re import _parser as sre_parse
from typing import Any

import pytest

import localdata_errors
from localdata_errors import classify_message
from localdata_errors._lazy import LazyPattern

# The text grows 16 times: linear work grows about 16 times, quadratic work
# 256 times.  The limit sits between them, far from both, so that a loaded
# machine (which slows both measurements alike) neither fails a linear pattern
# nor passes a quadratic one; the absolute bound only stops a runaway.
SMALL = 16 * 1024
LARGE = 256 * 1024
RATIO_LIMIT = 64.0
ABSOLUTE_LIMIT = 10.0
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
                if isinstance(candidate, LazyPattern):
                    candidate = candidate.get()  # noqa: PLW2901 - compiled on first use
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
    # This thread's CPU time: the time other processes take the core from it
    # (a long run is interrupted more often than a short one) is not counted.
    start = time.thread_time()
    for _match in pattern.finditer(text):
        pass
    return time.thread_time() - start


def _pattern_cases() -> Iterator[Any]:
    for name in sorted(PATTERNS):
        yield pytest.param(name, id=name.removeprefix("localdata_errors."))


@pytest.mark.parametrize("name", list(_pattern_cases()))
def test_pattern_is_linear_on_its_near_matches(name: str) -> None:
    pattern = PATTERNS[name]
    for (label, small), (_, large) in zip(
        _inputs(pattern.pattern, SMALL), _inputs(pattern.pattern, LARGE), strict=True
    ):
        t_small = _cost(pattern, small)
        if t_small > ABSOLUTE_LIMIT:
            pytest.fail(
                f"{name} = {pattern.pattern!r}: {label}: {t_small * 1000:.0f} ms already at 16 KiB"
            )
        t_large = _cost(pattern, large)
        if t_large > ABSOLUTE_LIMIT or t_large > RATIO_LIMIT * max(t_small, FLOOR):
            # Measured once more before failing: a shared machine has hiccups.
            t_small = min(t_small, _cost(pattern, small))
            t_large = min(t_large, _cost(pattern, large))
        where = (
            f"{name} = {pattern.pattern!r}: {label}: {t_small * 1000:.1f} ms at 16 KiB, "
            f"{t_large * 1000:.1f} ms at 256 KiB"
        )
        assert t_large <= ABSOLUTE_LIMIT, where
        assert t_large <= RATIO_LIMIT * max(t_small, FLOOR), where


def test_the_growth_rule_tells_quadratic_from_linear() -> None:
    # The rule above, on a pattern known to be quadratic when searched
    # (``a*b`` over a run of ``a``) and a linear one, the text growing 16 times.
    small, large = "a" * 3072, "a" * 49152
    quadratic, linear = re.compile("a*b"), re.compile("a{2}b")
    assert _cost(quadratic, large) > RATIO_LIMIT * max(_cost(quadratic, small), FLOOR)
    assert _cost(linear, large) <= RATIO_LIMIT * max(_cost(linear, small), FLOOR)


def test_the_walk_finds_the_patterns() -> None:
    # The walk itself must work, or every test above passes vacuously.
    assert "localdata_errors._redact._TRIGGER" in PATTERNS
    assert "localdata_errors._classify._SQLALCHEMY_TRAILER" in PATTERNS
    assert len(PATTERNS) > 10


@pytest.mark.parametrize(
    "db_type", [None, "postgresql", "mysql", "sqlite", "duckdb", "oracle", "mssql"]
)
def test_a_one_megabyte_adversarial_message_is_classified(db_type: str | None) -> None:
    pieces = [
        'relation "',
        "Key (",
        "a, ",
        ")=(",
        "ORA-",
        "[42S02] ",
        "[x]",
        "`a`.",
        "Duplicate entry '",
        "password=",
        "postgresql://u:",
        "@",
        '\\"',
        "'",
    ]
    message = "".join(pieces) * (1024 * 1024 // len("".join(pieces)))
    # This thread's CPU time: the time other processes take the core is not counted.
    start = time.thread_time()
    resp = classify_message(message, db_type, code="42P01")
    elapsed = time.thread_time() - start
    assert resp.message
    # Generous: the real figure (a few milliseconds) is measured by the bench.
    assert elapsed < 5.0


# -- structure: what no input can make slow --------------------------------------------
#
# The timings above catch what they try; these rules hold for every input.  A
# backtracking engine goes super-linear only where it can split one stretch of
# text between two repetitions in many ways: a repetition inside a repetition,
# or a repeated alternation whose branches can match the same text.  A
# possessive repetition (`*+`, `{0,8}+`) or an atomic group never gives back
# what it took, so nothing inside it is tried twice.

_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT}
_ONE_CHARACTER = {sre.LITERAL, sre.NOT_LITERAL, sre.IN, sre.ANY, sre.CATEGORY}


def _repeats(items: Any, unbounded: bool) -> bool:
    """Whether *items* hold a repetition (an unbounded one, when *unbounded*)."""
    for op, av in items:
        if op in _REPEATS and (av[1] == sre.MAXREPEAT if unbounded else av[1] > 1):
            return True
        if any(_repeats(sub, unbounded) for sub in _children(op, av)):
            return True
    return False


def _children(op: Any, av: Any) -> list[Any]:
    if op in _REPEATS:
        return [av[2]]
    if op is sre.SUBPATTERN:
        return [av[3]]
    if op is sre.ATOMIC_GROUP:
        return [av]
    if op is sre.BRANCH:
        return list(av[1])
    if op in {sre.ASSERT, sre.ASSERT_NOT}:
        return [av[1]]
    if op is sre.GROUPREF_EXISTS:
        return [a for a in av[1:] if a is not None]
    return []


def _delimited(body: Any, flags: int) -> bool:
    r"""
    Whether each repetition in *body* repeats one character class and is
    followed by a literal outside it (`(?:\s*,\s*\?)+`): one way to split
    the text, so nesting cannot multiply the ways.
    """
    items = list(body)
    for index, (op, av) in enumerate(items):
        if op in _REPEATS and av[1] > 1:
            inner = list(av[2])
            if len(inner) != 1 or inner[0][0] not in _ONE_CHARACTER or index + 1 == len(items):
                return False
            after_op, after = items[index + 1]
            matcher = re._compiler.compile(sre_parse.SubPattern(body.state, inner), flags)
            if after_op is not sre.LITERAL or matcher.fullmatch(chr(after)):
                return False
        elif any(_repeats(sub, unbounded=False) for sub in _children(op, av)):
            return False
    return True


def _nested_repeats(items: Any, flags: int = 0, committed: bool = False) -> Iterator[str]:
    """Each repetition that may backtrack and nests repetitions, one of them unbounded."""
    for op, av in items:
        atomic = committed or op is sre.ATOMIC_GROUP or op is sre.POSSESSIVE_REPEAT
        if op in _REPEATS and av[1] > 1 and not atomic:
            unbounded = av[1] == sre.MAXREPEAT
            if _repeats(av[2], unbounded=not unbounded) and not _delimited(av[2], flags):
                yield f"an unbounded repetition nested with another: {av!r}"[:200]
        for sub in _children(op, av):
            yield from _nested_repeats(sub, flags, atomic)


def _strict(items: Any, committed: bool = False) -> Iterator[str]:
    """Each repetition that may backtrack and repeats more than one character class."""
    for op, av in items:
        atomic = committed or op is sre.ATOMIC_GROUP or op is sre.POSSESSIVE_REPEAT
        if op in _REPEATS and av[1] > 1 and not atomic:
            body = list(av[2])
            if len(body) != 1 or body[0][0] not in _ONE_CHARACTER:
                yield f"a repetition of more than one character that may backtrack: {av!r}"[:200]
        for sub in _children(op, av):
            yield from _strict(sub, atomic)


def _parsed(pattern: re.Pattern[str]) -> Any:
    return sre_parse.parse(pattern.pattern, pattern.flags)


@pytest.mark.parametrize("name", list(_pattern_cases()))
def test_no_pattern_nests_an_unbounded_repetition(name: str) -> None:
    pattern = PATTERNS[name]
    found = list(_nested_repeats(_parsed(pattern), pattern.flags))
    assert not found, f"{name}: {found}"


REDACT_PATTERNS = sorted(n for n in PATTERNS if n.startswith("localdata_errors._redact."))


@pytest.mark.parametrize("name", REDACT_PATTERNS)
def test_redaction_backtracks_only_over_single_character_classes(name: str) -> None:
    # Stricter for the patterns that read untrusted text for credentials: a
    # repetition that may give back repeats one character class (so one match
    # attempt is linear in what it scans); every other one is possessive.
    found = list(_strict(_parsed(PATTERNS[name])))
    assert not found, f"{name}: {found}"


def test_the_credential_scan_starts_only_at_literal_characters() -> None:
    # The one pass over every message: each branch begins with a literal, so
    # the engine skips every character that cannot begin one, and the pass
    # proves the absence of credentials at the cost of that skip.
    from localdata_errors._redact import _TRIGGER

    branches = _parsed(_TRIGGER.get()).data
    assert len(branches) == 1
    assert branches[0][0] is sre.BRANCH
    firsts = [branch[0][0] for branch in branches[0][1][1]]
    assert set(firsts) == {sre.LITERAL}, firsts
    assert len(REDACT_PATTERNS) >= 15


@pytest.mark.parametrize(
    ("pattern", "nested", "strict"),
    [
        (r"(a+)+b", True, True),
        (r"(?:\s*,\s*\w+)*x", True, True),
        (r"(?:a|ab)*c", False, True),
        (r"(?:[^'\\]++|\\.|'')*+'", False, False),
        (r"(?>(?:a+)*)b", False, False),
        (r"[^\s;]*x", False, False),
        (r"(?:a{0,4}b){0,3}", False, True),
        (r"\?(?:\s*,\s*\?)+", False, True),
        (r"\?(?:\s*\s*\?)+", True, True),
        (r"(?:\w*a)+", True, True),
    ],
)
def test_the_structure_rules_catch_what_they_say(pattern: str, nested: bool, strict: bool) -> None:
    parsed = sre_parse.parse(pattern)
    assert bool(list(_nested_repeats(parsed))) is nested
    assert bool(list(_strict(parsed))) is strict
