"""
What the credential proof costs an error seen for the first time.

    python -m bench.proof [--backend NAME ...] [--rounds N]

Times `classify_error(exc).to_tool_error()` on first sight, as
`python -m compare` does (`bench.timing.first_sight`, one backend's cases at
a time), with the proof as shipped and with parts of it taken out: the
trigger pattern (`_redact._search` finds no place), the token gate
(`_redact._token_spans` finds no token), and the whole proof
(`may_hold_secret` says no).  Taken out, nothing is masked: these variants
exist only here, to show where the time goes.  Prints the median and p90 in
µs over all cases, and what each part costs.

Where localdata-mcp is installed (`bench.theirs`), it is timed beside each
variant, call by call in the same loop as `python -m compare` times it, and
each variant's ratios to it are printed: what the speed budget (first-sight
median at most 2x localdata-mcp's, p90 at most 2.5x) would read with that
part of the proof taken out.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from bench._corpora import BACKENDS, load
from bench.theirs import classifier, tool_call
from bench.timing import first_sight, p90, raised
from localdata_errors import _classify, _redact, classify_error
from tests.corpus import CorpusCase

#: Each variant: what is taken out, as (module, attribute, stand-in).
VARIANTS: dict[str, tuple[tuple[Any, str, Callable[..., Any]], ...]] = {
    "as shipped": (),
    "no trigger": ((_redact, "_search", lambda folded, pos: None),),
    "no token gate": ((_redact, "_token_spans", lambda *args, **kwargs: []),),
    "no proof": ((_classify, "may_hold_secret", lambda text: False),),
}


@contextmanager
def _taken_out(parts: tuple[tuple[Any, str, Callable[..., Any]], ...]) -> Iterator[None]:
    saved = [(module, name, getattr(module, name)) for module, name, _ in parts]
    try:
        for module, name, stand_in in parts:
            setattr(module, name, stand_in)
        yield
    finally:
        for module, name, original in saved:
            setattr(module, name, original)


def _call(case: CorpusCase) -> object:
    return classify_error(case.exception, case.db_type).to_tool_error()


def main() -> int:
    """Entry point of ``python -m bench.proof``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.proof",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--rounds", type=int, default=7, help="first-sight samples per case")
    args = parser.parse_args()
    try:
        theirs: Callable[..., Any] | None = classifier()
    except ImportError:
        theirs = None
        print("localdata-mcp is not installed: no ratios to it")
    corpora = [
        (backend, cases)
        for backend, cases in load(tuple(args.backend or BACKENDS))
        if isinstance(cases, list)
    ]
    results: dict[str, tuple[list[float], list[float]]] = {}
    for variant, parts in VARIANTS.items():
        ours_times: list[float] = []
        their_times: list[float] = []
        with _taken_out(parts):
            for backend, cases in corpora:
                calls = [
                    (partial(_call, case),)
                    if theirs is None
                    else (
                        partial(_call, case),
                        tool_call(theirs, case.exception, case.db_type or backend),
                    )
                    for case in cases
                ]
                touch = [partial(raised, case.exception) for case in cases]
                timed = first_sight(calls, max(args.rounds, 1), touch=touch)
                ours_times += timed[0]
                their_times += timed[1] if theirs is not None else []
        results[variant] = ours_times, their_times
    shipped = results["as shipped"][0]
    base = statistics.median(shipped), p90(shipped)
    print(f"first sight, µs over {len(shipped)} cases: median, p90 (saved)", end="")
    print(", and the ratios to localdata-mcp in the same loop" if theirs is not None else "")
    for variant, (times, their_times) in results.items():
        median, tail = statistics.median(times), p90(times)
        saved = f"{base[0] - median:+.2f} {base[1] - tail:+.2f}"
        line = f"{variant:14} {median:6.2f} {tail:6.2f}  ({saved})"
        if their_times:
            line += (
                f"  {median / statistics.median(their_times):.2f}x {tail / p90(their_times):.2f}x"
            )
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
