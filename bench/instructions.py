"""
Instructions per classification, counted by valgrind: figures the machine's load does not move.

    python -m bench.instructions [--backend NAME ...] [--jobs N] [--breakdown]

(About 15 minutes for the six backends with two jobs: valgrind runs the
interpreter some 50 times slower, corpus-making included.)

Wall-clock medians on a shared machine move by 10 to 30 % from one run to the
next; the number of machine instructions a call executes does not (callgrind
counts the same total twice for the same binary and inputs).  For every
backend, the same cases as `python -m bench.stages` (the real exceptions of
the corpus a backend claims by its driver) are classified in one loop that
runs inside `operator.call`, and callgrind counts only what runs inside it
(`--toggle-collect=_operator_call`: the corpus's making, the imports and a
first warming pass are left out).  It prints, per backend and per case:

- **floor**: reading the exception's type and text;
- **ours**: `classify_error(exc).to_tool_error()`;
- **theirs**: localdata-mcp's `classify_error(exc, db_type).to_dict()`, as its tools
  call it, when installed;
- **ratio**: ours / theirs.

A last row, **all**, pools every backend's cases, each backend weighing as
many cases as it has (as `python -m compare` pools them).

With `--breakdown`, each backend's own instructions are also split by where
they run, read from callgrind's profile (`callgrind_annotate`, by the C
source file of each function): the regex engine (`_sre`), allocation and
freeing, dictionaries, `str` methods, the rest of the object protocol, the
interpreter's loop.  The regex engine, `str` methods, dictionaries and
allocation are C already: they show what a classification costs that no
rewrite of the Python around them removes.

Instructions are not time: a first-sight call also pays for the caches it
misses, which `python -m compare` measures.  They say which change made the
work smaller, whatever else the machine was doing.  Needs valgrind and an
interpreter whose symbols name `_operator_call` (CPython built from source,
as pyenv builds it).
"""

from __future__ import annotations

import argparse
import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from bench._corpora import BACKENDS, claimed, load
from bench.theirs import classifier

CONTENDERS = ("floor", "ours", "theirs")
_COLLECTED = re.compile(r"Collected : (\d+)")
_CASES = re.compile(r"^cases (\d+)$", re.MULTILINE)
# One row of `callgrind_annotate --inclusive=no`: "1,234 (5.6%)  file:function [object]".
_ROW = re.compile(r"^ *([\d,]+) \( *[\d.]+%\) +(.+)$", re.MULTILINE)
#: Where an instruction runs, by the C source file (or object) that holds its
#: function; the first that matches names it.
PLACES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("regex", re.compile(r"/_sre/")),
    ("interpreter", re.compile(r"/Python/ceval\.c:")),
    ("alloc", re.compile(r"obmalloc\.c:|/malloc/|dealloc|gcmodule\.c:|_Free\b|_Malloc\b")),
    ("dict", re.compile(r"dictobject\.c:")),
    ("str", re.compile(r"unicodeobject\.c:|/stringlib/|unicodectype\.c:|bytesobject\.c:")),
    ("objects", re.compile(r"/Objects/|/Python/|/Include/")),
)


def _child(who: str, backend: str) -> int:
    """Run one contender's loop over one backend's cases (under callgrind)."""
    from localdata_errors import classify_error

    cases = dict(load((backend,)))[backend]
    if isinstance(cases, str):
        print(f"left out: {cases}", file=sys.stderr)
        return 2
    excs = [case.exception for case, _ in claimed(cases)]
    one: Callable[[BaseException], object]
    if who == "floor":

        def one(exc: BaseException) -> object:
            return type(exc), str(exc)

    elif who == "ours":

        def one(exc: BaseException) -> object:
            return classify_error(exc).to_tool_error()

    else:
        theirs = classifier()

        def one(exc: BaseException) -> object:
            return theirs(exc, backend).to_dict()  # as its tools send it

    def loop() -> None:
        for exc in excs:
            one(exc)

    loop()  # first use: lazy tables and patterns are built outside the count
    print(f"cases {len(excs)}", file=sys.stderr)
    operator.call(loop)  # the only part counted
    return 0


def places(annotated: str) -> dict[str, int]:
    """
    Sum a `callgrind_annotate --inclusive=no` listing by `PLACES` (the rest is `other`).

    Args:
        annotated: The listing's text.

    Returns:
        Instructions per place, in `PLACES`' order, then `other`.
    """
    found = dict.fromkeys([name for name, _ in PLACES], 0)
    found["other"] = 0
    for count, where in _ROW.findall(annotated):
        if "PROGRAM TOTALS" in where:
            continue
        name = next((name for name, pattern in PLACES if pattern.search(where)), "other")
        found[name] += int(count.replace(",", ""))
    return found


#: Instructions per case, the number of cases, and where ours ran (with `--breakdown`).
Count = tuple[float, int, dict[str, float] | None]


def pooled(rows: list[list[Count]]) -> list[float]:
    """
    Instructions per case over every backend's cases, per contender.

    Each backend weighs as many cases as it has, as `python -m compare`
    pools its cases: the figure a budget over all cases reads.

    Args:
        rows: Per backend, one count per contender (the same contenders in each).

    Returns:
        Per contender, its instructions over all cases divided by their number.
    """
    cases = sum(row[0][1] for row in rows)
    return [
        sum(row[who][0] * row[who][1] for row in rows) / max(cases, 1)
        for who in range(len(rows[0]) if rows else 0)
    ]


def _count(who: str, backend: str, breakdown: bool = False) -> Count | str:
    """Instructions per case of one contender on one backend (and where they run), or why not."""
    with tempfile.TemporaryDirectory() as tmp:
        profile = os.path.join(tmp, "callgrind.out") if breakdown else "/dev/null"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={profile}",
            "--toggle-collect=_operator_call",
            sys.executable,
            "-m",
            "bench.instructions",
            "--child",
            who,
            backend,
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        collected = _COLLECTED.search(done.stderr)
        cases = _CASES.search(done.stderr)
        if done.returncode != 0 or collected is None or cases is None:
            last = done.stderr.strip().splitlines()[-1:] or ["no output"]
            return f"failed: {last[0][:80]}"
        if int(collected.group(1)) == 0:
            return "no symbol _operator_call in this interpreter"
        per_case = max(int(cases.group(1)), 1)
        if not breakdown:
            return int(collected.group(1)) / per_case, per_case, None
        tool = shutil.which("callgrind_annotate") or "callgrind_annotate"
        annotated = subprocess.run(
            [tool, "--inclusive=no", "--auto=no", "--threshold=100", profile],
            capture_output=True,
            text=True,
            check=False,
        )
        if annotated.returncode != 0:
            return f"callgrind_annotate failed: {annotated.stderr.strip()[:80]}"
        split = {name: count / per_case for name, count in places(annotated.stdout).items()}
        return int(collected.group(1)) / per_case, per_case, split


def main() -> int:
    """Entry point of ``python -m bench.instructions``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.instructions",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--jobs", type=int, default=2, help="valgrind runs at once")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also split our instructions by where they run (regex engine, dicts, ...)",
    )
    parser.add_argument("--child", nargs=2, metavar=("WHO", "BACKEND"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return _child(*args.child)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count", file=sys.stderr)
        return 1
    try:
        classifier()
    except ImportError:
        contenders: tuple[str, ...] = CONTENDERS[:2]
        print("localdata-mcp is not installed: its column is left out", file=sys.stderr)
    else:
        contenders = CONTENDERS
    backends = tuple(args.backend or BACKENDS)
    if args.breakdown and shutil.which("callgrind_annotate") is None:
        print("callgrind_annotate is not installed: no breakdown", file=sys.stderr)
        return 1
    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        futures = {
            (backend, who): pool.submit(_count, who, backend, args.breakdown and who == "ours")
            for backend in backends
            for who in contenders
        }
        counts = {key: future.result() for key, future in futures.items()}
    print("instructions per call, per case, counted by callgrind")
    print(f"{'backend':11} " + " ".join(f"{who:>9}" for who in contenders) + "    ratio")
    counted: list[list[Count]] = []
    for backend in backends:
        row = [counts[backend, who] for who in contenders]
        failed = next((value for value in row if isinstance(value, str)), None)
        if failed is not None:
            print(f"{backend:11} {failed}")
            continue
        counted.append([value for value in row if not isinstance(value, str)])
        _print_row(backend, [value[0] for value in counted[-1]])
    if len(counted) > 1:
        _print_row("all", pooled(counted))
    if args.breakdown:
        _print_breakdown(backends, counts)
    return 0


def _print_row(name: str, totals: list[float]) -> None:
    cells = " ".join(f"{value:9.0f}" for value in totals)
    ratio = f"{totals[1] / totals[2]:8.2f}" if len(totals) == 3 and totals[2] else ""
    print(f"{name:11} {cells} {ratio}")


def _print_breakdown(backends: tuple[str, ...], counts: dict[tuple[str, str], Count | str]) -> None:
    names = [*(name for name, _ in PLACES), "other"]
    print()
    print("ours, per case, by where the instructions run (`theirs` for scale)")
    print(f"{'backend':11} " + " ".join(f"{name:>11}" for name in names) + f" {'theirs':>9}")
    for backend in backends:
        ours = counts[backend, "ours"]
        if isinstance(ours, str) or ours[2] is None:
            continue
        theirs = counts.get((backend, "theirs"))
        scale = f"{theirs[0]:9.0f}" if isinstance(theirs, tuple) else f"{'':>9}"
        print(f"{backend:11} " + " ".join(f"{ours[2][name]:11.0f}" for name in names) + f" {scale}")


if __name__ == "__main__":
    raise SystemExit(main())
