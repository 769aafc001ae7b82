"""
Agreement with other projects' own classifications, per source and backend.

    python -m bench.external [--source oslo.db|spring] [--all]

The sources are read from what is installed here (`tests.external`): oslo.db's
exception-filter tests (the driver error each case raises and the oslo.db
exception it must become) and Spring's JDBC `sql-error-codes.xml` (vendor codes
per translation list).  For each case that is evidence about our answer it
prints whether the category, the kind (where the source is specific), the retry
decision (where the source documents one) and the names the source read are
right, then lists the misses: the known, reasoned disagreements apart from the
rest.  `--all` prints every case.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from localdata_errors import StructuredErrorResponse
from tests.external import oslo, spring
from tests.external.meaning import Verdict

PARTS = ("category", "kind", "retry", "names")


@dataclass
class Row:
    """The figures of one source and backend."""

    cases: int = 0
    right: Counter[str] = field(default_factory=Counter)
    judged: Counter[str] = field(default_factory=Counter)

    def add(self, verdict: Verdict) -> None:
        """Count one judged case."""
        self.cases += 1
        for part in PARTS:
            value = getattr(verdict, part)
            if value is None:
                continue
            self.judged[part] += 1
            self.right[part] += int(value)
        self.judged["all"] += 1
        self.right["all"] += int(verdict.agrees)

    def cell(self, part: str) -> str:
        """`right/judged` for one part, `-` where nothing was judged."""
        if not self.judged[part]:
            return "-"
        return f"{self.right[part]}/{self.judged[part]}"


def _describe(resp: StructuredErrorResponse, verdict: Verdict) -> str:
    got = f"{resp.kind.value} ({resp.error_type.value}, retryable={resp.is_retryable})"
    missing = ", ".join(f"{m.field}={m.value!r}" for m in verdict.missing)
    return got + (f"; names missing: {missing}" if missing else "")


def _print_table(title: str, rows: dict[str, Row], skipped: Counter[str]) -> None:
    print(f"\n{title}")
    header = f"{'backend':<11} {'cases':>5} " + " ".join(f"{p:>9}" for p in (*PARTS, "all"))
    print(header)
    print("-" * len(header))
    total = Row()
    for backend, row in sorted(rows.items()):
        print(
            f"{backend:<11} {row.cases:>5} "
            + " ".join(f"{row.cell(p):>9}" for p in (*PARTS, "all"))
        )
        total.cases += row.cases
        total.right.update(row.right)
        total.judged.update(row.judged)
    print("-" * len(header))
    print(
        f"{'all':<11} {total.cases:>5} " + " ".join(f"{total.cell(p):>9}" for p in (*PARTS, "all"))
    )
    if skipped:
        print("not evidence: " + "; ".join(f"{why} ({n})" for why, n in sorted(skipped.items())))


@dataclass(frozen=True)
class Judged:
    """One case judged: where it stands and what we answered."""

    backend: str
    name: str
    expected: str
    resp: StructuredErrorResponse
    verdict: Verdict
    kept: str | None = None  # why ours stands against the source
    open: str | None = None  # the known fix not made yet


def _report(title: str, judged: Iterable[Judged], skipped: Counter[str], show_all: bool) -> None:
    rows: dict[str, Row] = defaultdict(Row)
    misses: list[str] = []
    known: list[str] = []
    still_open: list[str] = []
    every: list[str] = []
    for case in judged:
        rows[case.backend].add(case.verdict)
        got = _describe(case.resp, case.verdict)
        line = f"  {case.backend}: {case.name}: {case.expected}; got {got}"
        every.append(("  ok " if case.verdict.agrees else "  -- ") + line.strip())
        if case.verdict.agrees:
            continue
        if case.kept is not None:
            known.append(f"{line}\n      kept: {case.kept}")
        elif case.open is not None:
            still_open.append(f"{line}\n      open: {case.open}")
        else:
            misses.append(line)
    _print_table(title, rows, skipped)
    print(f"misses ({len(misses)}):")
    print("\n".join(misses) if misses else "  none")
    print(f"known disagreements, ours kept ({len(known)}):")
    print("\n".join(known) if known else "  none")
    if still_open:
        print(f"open misses, fix known ({len(still_open)}):")
        print("\n".join(still_open))
    if show_all:
        print("every case:")
        print("\n".join(every))


def run_oslo(show_all: bool) -> None:
    """Judge every oslo.db case that is evidence."""
    try:
        loaded = oslo.load()
    except oslo.Unavailable as exc:
        print(f"\noslo.db: left out: {exc}")
        return
    skipped: Counter[str] = Counter()
    judged: list[Judged] = []
    for case in loaded.cases:
        why = case.skip_reason
        if why is not None:
            skipped[why] += 1
            continue
        resp = oslo.answer(case)
        verdict = oslo.verdict(case, resp)
        assert case.backend is not None
        judged.append(
            Judged(case.backend, case.name, case.expected, resp, verdict,
                   kept=oslo.DISAGREEMENTS.get(case.name))
        )  # fmt: skip
    if loaded.silent:
        skipped["test methods that raise no driver error"] += len(loaded.silent)
    _report(f"oslo.db {loaded.version} ({loaded.path.name})", judged, skipped, show_all)


def run_spring(show_all: bool) -> None:
    """Judge every Spring code listed for a product we support."""
    try:
        loaded = spring.load()
    except spring.Unavailable as exc:
        print(f"\nSpring: left out: {exc}")
        return
    skipped: Counter[str] = Counter()
    judged: list[Judged] = []
    for case in loaded.cases:
        if case.backend is None:
            skipped[f"{case.product}: none of ours"] += 1
            continue
        resp = spring.answer(case)
        verdict = spring.verdict(case, resp)
        key = (case.product, case.code)
        judged.append(
            Judged(case.backend, case.name, case.bucket, resp, verdict,
                   kept=spring.DISAGREEMENTS.get(key), open=spring.OPEN.get(key))
        )  # fmt: skip
    _report(f"Spring JDBC {loaded.version} ({loaded.path.name})", judged, skipped, show_all)


def main() -> int:
    """Print the agreement figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--source", action="append", choices=("oslo.db", "spring"))
    parser.add_argument("--all", action="store_true", help="print every case, not only the misses")
    args = parser.parse_args()
    sources = args.source or ["oslo.db", "spring"]
    if "oslo.db" in sources:
        run_oslo(args.all)
    if "spring" in sources:
        run_spring(args.all)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
