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
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from bench._corpora import BACKENDS, load
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
    corpora = [
        cases for _, cases in load(tuple(args.backend or BACKENDS)) if isinstance(cases, list)
    ]
    results: dict[str, list[float]] = {}
    for variant, parts in VARIANTS.items():
        times: list[float] = []
        with _taken_out(parts):
            for cases in corpora:
                calls = [(partial(_call, case),) for case in cases]
                touch = [partial(raised, case.exception) for case in cases]
                times += first_sight(calls, max(args.rounds, 1), touch=touch)[0]
        results[variant] = times
    shipped = statistics.median(results["as shipped"]), p90(results["as shipped"])
    print(f"first sight, µs over {len(results['as shipped'])} cases: median, p90 (saved)")
    for variant, times in results.items():
        median, tail = statistics.median(times), p90(times)
        saved = f"{shipped[0] - median:+.2f} {shipped[1] - tail:+.2f}"
        print(f"{variant:14} {median:6.2f} {tail:6.2f}  ({saved})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
