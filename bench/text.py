"""
The text reader against real error texts, per family, backend and language.

    python -m bench.text [--misses] [--format text|json]

Every text of the corpus (`tests.text_corpus`: real texts from public issue
threads, Q&A pages and vendor manuals, labelled from the vendors'
documentation) is classified with `classify_message(text)`, no `db_type`.
For each printing family, each backend, each language, each vendor variant and
overall it prints the share of texts whose category is right, whose retry
decision is right, whose code was found (of the texts that carry one) and whose
backend was found (of the texts with a backend label whose mapper is
installed).  `--misses` lists every text with a wrong part, by id.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from typing import Any

from tests.text_corpus import load
from tests.text_corpus.score import PARTS, Figures, Tally, Verdict, measure

_HEADERS: dict[str, str] = {
    "category": "category",
    "retry": "retry",
    "code": "code found",
    "backend": "backend found",
}


def _cell(tally: Tally, part: str) -> str:
    percent = tally.percent(part)
    if percent is None:
        return "-"
    return f"{percent:5.1f}% {tally.right[part]:>3}/{tally.judged[part]:<3}"


def _table(title: str, rows: Mapping[str, Tally], overall: Tally | None = None) -> None:
    print(f"\n{title}")
    width = max([len(key) for key in rows] + [len("overall"), 14])
    header = f"  {'':<{width}} {'texts':>5}  " + "  ".join(f"{_HEADERS[p]:<16}" for p in PARTS)
    print(header.rstrip())
    ordered = sorted(rows.items(), key=lambda item: (-item[1].cases, item[0]))
    if overall is not None:
        ordered.append(("overall", overall))
    for key, tally in ordered:
        cells = "  ".join(f"{_cell(tally, p):<16}" for p in PARTS)
        print(f"  {key:<{width}} {tally.cases:>5}  {cells}".rstrip())


def _miss_line(verdict: Verdict, wrong: list[str]) -> str:
    case = verdict.case
    want = (
        f"{case.category}/{'retry' if case.retryable else 'no retry'}"
        f" code={case.code} backend={case.backend}"
    )
    got = (
        f"{verdict.category}/{'retry' if verdict.retryable else 'no retry'}"
        f" code={verdict.code} backend={verdict.backend}"
    )
    text = " ".join(case.text.split())
    if len(text) > 110:
        text = text[:107] + "..."
    return (
        f"  {case.id} [{case.family}] wrong: {', '.join(wrong)}\n"
        f"      label {want}\n      got   {got}\n      {text}"
    )


def _print_text(figures: Figures, show_misses: bool) -> None:
    print(
        f"{figures.overall.cases} texts; installed backends: {', '.join(sorted(figures.installed))}"
    )
    _table("per family", figures.family, figures.overall)
    _table("per backend", figures.backend, figures.overall)
    _table("per language", figures.language)
    _table("per vendor variant", figures.vendor)
    misses = figures.misses()
    print(f"\ntexts with a wrong part: {len(misses)}")
    if show_misses:
        for verdict, wrong in misses:
            print(_miss_line(verdict, wrong))


def _as_json(figures: Figures, show_misses: bool) -> dict[str, object]:
    out: dict[str, object] = {
        "texts": figures.overall.cases,
        "installed_backends": sorted(figures.installed),
        "overall": figures.overall.as_dict(),
        "family": {k: v.as_dict() for k, v in sorted(figures.family.items())},
        "backend": {k: v.as_dict() for k, v in sorted(figures.backend.items())},
        "language": {k: v.as_dict() for k, v in sorted(figures.language.items())},
        "vendor": {k: v.as_dict() for k, v in sorted(figures.vendor.items())},
    }
    if show_misses:
        out["misses"] = [
            {
                "id": verdict.case.id,
                "family": verdict.case.family,
                "wrong": wrong,
                "label": {
                    "category": verdict.case.category,
                    "retryable": verdict.case.retryable,
                    "code": verdict.case.code,
                    "backend": verdict.case.backend,
                },
                "got": {
                    "category": verdict.category,
                    "retryable": verdict.retryable,
                    "code": verdict.code,
                    "backend": verdict.backend,
                },
            }
            for verdict, wrong in figures.misses()
        ]
    return out


def main(cases: Callable[[], Any] = load, doc: str | None = __doc__) -> int:
    """Print the figures of *cases* (the corpus by default), as the command line asks."""
    parser = argparse.ArgumentParser(description=(doc or "").strip().splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list every text with a wrong part")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    figures = measure(cases())
    if args.format == "json":
        print(json.dumps(_as_json(figures, args.misses), indent=2, ensure_ascii=False))
    else:
        _print_text(figures, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
