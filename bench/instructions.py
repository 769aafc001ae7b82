"""
Instructions per classification, counted by valgrind: figures the machine's load does not move.

    python -m bench.instructions [--backend NAME ...] [--jobs N]

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
- **theirs**: localdata-mcp's `classify_error(exc, db_type)`, when installed;
- **ratio**: ours / theirs.

Instructions are not time: a first-sight call also pays for the caches it
misses, which `python -m compare` measures.  They say which change made the
work smaller, whatever else the machine was doing.  Needs valgrind and an
interpreter whose symbols name `_operator_call` (CPython built from source,
as pyenv builds it); `LOCALDATA_ERRORS_PURE_PYTHON=1` counts the pure-Python
build.
"""

from __future__ import annotations

import argparse
import operator
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from bench._corpora import BACKENDS, claimed, load

CONTENDERS = ("floor", "ours", "theirs")
_COLLECTED = re.compile(r"Collected : (\d+)")
_CASES = re.compile(r"^cases (\d+)$", re.MULTILINE)


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
        from localdata_mcp.error_classification import (  # type: ignore[import-not-found]
            classify_error as theirs,
        )

        def one(exc: BaseException) -> object:
            return theirs(exc, backend)

    def loop() -> None:
        for exc in excs:
            one(exc)

    loop()  # first use: lazy tables and patterns are built outside the count
    print(f"cases {len(excs)}", file=sys.stderr)
    operator.call(loop)  # the only part counted
    return 0


def _count(who: str, backend: str) -> float | str:
    """Instructions per case of one contender on one backend, or why there is none."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
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
    return int(collected.group(1)) / max(int(cases.group(1)), 1)


def main() -> int:
    """Entry point of ``python -m bench.instructions``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.instructions",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--jobs", type=int, default=2, help="valgrind runs at once")
    parser.add_argument("--child", nargs=2, metavar=("WHO", "BACKEND"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return _child(*args.child)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count", file=sys.stderr)
        return 1
    try:
        import localdata_mcp  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        contenders: tuple[str, ...] = CONTENDERS[:2]
        print("localdata-mcp is not installed: its column is left out", file=sys.stderr)
    else:
        contenders = CONTENDERS
    backends = tuple(args.backend or BACKENDS)
    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        futures = {
            (backend, who): pool.submit(_count, who, backend)
            for backend in backends
            for who in contenders
        }
        counts = {key: future.result() for key, future in futures.items()}
    build = "pure Python" if _pure() else "compiled"
    print(f"instructions per call, per case, counted by callgrind ({build})")
    print(f"{'backend':11} " + " ".join(f"{who:>9}" for who in contenders) + "    ratio")
    for backend in backends:
        row = [counts[backend, who] for who in contenders]
        failed = next((value for value in row if isinstance(value, str)), None)
        if failed is not None:
            print(f"{backend:11} {failed}")
            continue
        cells = " ".join(f"{value:9.0f}" for value in row)
        ratio = f"{row[1] / row[2]:8.2f}" if len(row) == 3 and row[2] else ""  # type: ignore[operator]
        print(f"{backend:11} {cells} {ratio}")
    return 0


def _pure() -> bool:
    import localdata_errors.classify as core

    return core.__file__ is not None and core.__file__.endswith(".py")


if __name__ == "__main__":
    raise SystemExit(main())
