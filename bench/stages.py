"""
Where a classification's time goes, per backend: the stage table.

    python -m bench.stages [--backend NAME ...] [--loops N]

For every real exception of the corpus that a backend claims by its driver
(wrapped ones are left out: unwrapping is its own stage, timed by
`python -m compare`), each stage is timed on its own, repeated back to back
(`bench.timing.repeated`), and the table prints the median over the cases,
in µs:

- **floor**: reading the exception's type and text (any classifier does);
- **mapper**: the backend's `map_error` on the facts already read;
- **core**: the rest of `classify_error` (claiming the driver, the kind's
  decisions, the credential probe, the suggestion, the record);
- **shape**: `to_tool_error()` on the answer;
- **total**: `classify_error(exc).to_tool_error()`.

The stages are measured separately, so `core` is `classify_error` less the
floor and the mapper, and `shape` is the total less `classify_error`.
"""

from __future__ import annotations

import argparse
import statistics
from functools import partial

from bench._corpora import BACKENDS, claimed, load
from bench.timing import read_exception, repeated
from localdata_errors import ErrorInput, classify_error


def _total(exc: BaseException) -> object:
    return classify_error(exc).to_tool_error()


def main() -> int:
    """Entry point of ``python -m bench.stages``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.stages",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--loops", type=int, default=50, help="calls per timing")
    args = parser.parse_args()
    print("µs per call, median over each backend's claimed driver exceptions")
    print(f"{'backend':11} {'cases':>5} {'floor':>6} {'mapper':>7} {'core':>6} {'shape':>6} "
          f"{'total':>6}")  # fmt: skip
    for backend, cases in load(tuple(args.backend or BACKENDS)):
        if isinstance(cases, str):
            print(f"{backend:11} left out: {cases}")
            continue
        rows: list[tuple[float, float, float, float, float]] = []
        for case, claim in claimed(cases):
            exc = case.exception
            facts = ErrorInput(exc, str(exc), None, claim.driver, False)
            time = partial(repeated, loops=args.loops, repeats=3)
            floor = time(partial(read_exception, exc))
            mapper = time(partial(claim.mapper.map_error, facts))
            answer = time(partial(classify_error, exc))
            total = time(partial(_total, exc))
            rows.append((floor, mapper, answer - floor - mapper, total - answer, total))
        if not rows:
            continue
        medians = [statistics.median(column) for column in zip(*rows, strict=True)]
        print(f"{backend:11} {len(rows):5d} " + " ".join(f"{m:6.2f}" for m in medians))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
