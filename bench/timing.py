"""
How a classification is timed: on first sight, and repeated.

**First sight** is what an agent meets: an error that was not the one just
classified.  Each sample times one single call, and the calls run in a
shuffled order over all the cases, so that every call is preceded by calls
on *other* errors (the interpreter and the library are warm, but not for
this error: nothing of it is in any cache the previous call filled).  Each
case is sampled once per round; its figure is the median of its rounds.
localdata-errors remembers nothing between calls, so the first call on an
exception object and a later, non-consecutive one do the same work.

Two things keep the contenders on equal terms:

- **The exception is as fresh as when it was raised.**  A driver has just
  built the exception and its text when a classifier sees it, so the
  object and its text are in the CPU's caches.  The corpus's exceptions
  were built long before they are timed: untouched, the first call on one
  would also pay for bringing it back from memory (2-3 µs on a psycopg
  error here).  So each case's *touch* (`raised`: reading the type and
  text of each exception along its chain, as raising it did) runs,
  untimed, before its contenders.  A wrapper's inner exception is part of
  what was just raised: SQLAlchemy reads the driver's exception's class and
  text to write its own message (`DBAPIError.__init__`), and a driver's
  `raise ... from` raised the inner one a moment before.
- **The contenders take turns going first.**  Whoever runs first on a case
  finds the case's data colder than whoever follows; the order rotates
  from round to round, so each contender goes first as often as the next.

**Repeated** is the same call again and again, back to back: the best case
any cache could give.

Every classifier under test and the floor (reading the exception's type
and text, which any classifier must do) are timed in the same loop, call
by call, so that they share the machine's state.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence

from localdata_errors._chain import chain

__all__ = ["first_sight", "p90", "raised", "read_exception", "repeated"]

Call = Callable[[], object]


def read_exception(exc: BaseException) -> object:
    """
    What any classifier must do, and what the driver did when it raised *exc*.

    Reading its type and its text: the floor of a classification, and the
    untimed *touch* that brings an exception back into the caches.
    """
    return type(exc), str(exc)


def raised(exc: BaseException) -> object:
    """
    What raising *exc* read: the type and text of each exception along its chain.

    The chain is the one Python's traceback shows, and SQLAlchemy's `.orig`
    (`localdata_errors._chain.chain`: bounded, each link once).  The untimed
    *touch* of `first_sight`.
    """
    return [read_exception(link) for link in chain(exc)]


def first_sight(
    calls: Sequence[Sequence[Call]],
    rounds: int = 15,
    seed: int = 0,
    touch: Sequence[Call] | None = None,
) -> list[list[float]]:
    """
    Time each call once per round, in a shuffled order of the cases.

    Args:
        calls: One row per case, one callable per contender (the same
            contenders, in the same order, in every row).
        rounds: How many samples per case.
        seed: The shuffle's seed (runs are repeatable).
        touch: One callable per case, run untimed before its contenders in
            every round: what raising the exception did to it (`raised`).

    Returns:
        Per contender, per case, the median of its samples in µs.
    """
    rng = random.Random(seed)
    cases = len(calls)
    width = len(calls[0]) if calls else 0
    samples = [[[0.0] * rounds for _ in range(cases)] for _ in range(width)]
    order = list(range(cases))
    clock = time.perf_counter_ns
    for rnd in range(rounds):
        rng.shuffle(order)
        # Round r starts with contender r mod width, then the next ones.
        turns = [(rnd + who) % width for who in range(width)]
        for index in order:
            if touch is not None:
                touch[index]()
            row = calls[index]
            for who in turns:
                fn = row[who]
                start = clock()
                fn()
                samples[who][index][rnd] = (clock() - start) / 1000
    return [[statistics.median(case) for case in per_case] for per_case in samples]


def repeated(fn: Call, loops: int = 200, repeats: int = 5) -> float:
    """The median over *repeats* of the mean time of *loops* back-to-back calls, in µs."""
    fn()
    best = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for _ in range(loops):
            fn()
        best.append((time.perf_counter_ns() - start) / loops / 1000)
    return statistics.median(best)


def p90(values: Sequence[float]) -> float:
    """The 90th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
