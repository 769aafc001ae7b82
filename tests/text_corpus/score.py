"""
Scoring the text reader against the corpus: what `classify_message(text)`
got right, per case and summed per group.

Each text is classified with no `db_type` (the reader must find the backend
itself).  Four parts are judged:

- category: `error_type` equals the label.
- retry: `is_retryable` equals the label.
- code: Only for texts whose label carries a code: `database_error_code`
  equals it once both are normalised (`normalise_code`).  A Databricks label
  with a subclass (`UNRESOLVED_COLUMN.WITH_SUGGESTION`) is also found by its
  main class alone.
- backend: Only for texts with a backend label whose mapper is installed (a
  pack's backend counts when the pack is): `backend` equals it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from localdata_errors import ErrorMapperRegistry, StructuredErrorResponse, classify_message

from . import TextCase

__all__ = [
    "PARTS",
    "Figures",
    "Tally",
    "Verdict",
    "code_matches",
    "judge",
    "measure",
    "normalise_code",
]

#: The judged parts, in report order.
PARTS: Final = ("category", "retry", "code", "backend")

_NUMBERED: Final = re.compile(r"(?P<prefix>[A-Z][A-Z0-9]*-)?0*(?P<number>[0-9]+)")


def normalise_code(code: str) -> str:
    """The comparable form of a code: upper case, a number without leading zeros.

    `ORA-942` and `ora-00942` both become `ORA-942`; `000606` becomes
    `606`; `42p01` becomes `42P01`; `notFound` becomes `NOTFOUND`.
    """
    upper = code.strip().upper()
    match = _NUMBERED.fullmatch(upper)
    if match is None:
        return upper
    return f"{match['prefix'] or ''}{int(match['number'])}"


def code_matches(label: str, got: str | None) -> bool:
    """Whether the answer's code *got* is the labelled code."""
    if got is None:
        return False
    want, have = normalise_code(label), normalise_code(got)
    if want == have:
        return True
    # A Databricks error class found without its subclass.
    main, dot, _ = want.partition(".")
    return bool(dot) and have == main


@dataclass(frozen=True, slots=True)
class Verdict:
    """One case, the answer's parts, and which of them were right."""

    case: TextCase
    category: str
    retryable: bool
    code: str | None
    backend: str

    @property
    def category_right(self) -> bool:
        """The category equals the label."""
        return self.category == self.case.category

    @property
    def retry_right(self) -> bool:
        """The retry decision equals the label."""
        return self.retryable == self.case.retryable

    @property
    def code_right(self) -> bool | None:
        """The code was found; None where the label carries none."""
        if self.case.code is None:
            return None
        return code_matches(self.case.code, self.code)

    def backend_right(self, installed: Collection[str]) -> bool | None:
        """The backend was found; None where unlabelled or its mapper is absent."""
        if self.case.backend is None or self.case.backend not in installed:
            return None
        return self.backend == self.case.backend

    def parts(self, installed: Collection[str]) -> dict[str, bool | None]:
        """Each judged part's outcome (None: not judged for this case)."""
        return {
            "category": self.category_right,
            "retry": self.retry_right,
            "code": self.code_right,
            "backend": self.backend_right(installed),
        }


def judge(case: TextCase) -> Verdict:
    """Classify *case*'s text with no db_type and keep the answer's parts."""
    resp: StructuredErrorResponse = classify_message(case.text)
    return Verdict(
        case=case,
        category=resp.error_type.value,
        retryable=resp.is_retryable,
        code=resp.database_error_code,
        backend=resp.backend,
    )


@dataclass
class Tally:
    """Right and judged counts of each part, for one group of cases."""

    cases: int = 0
    right: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))
    judged: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))

    def add(self, outcome: Mapping[str, bool | None]) -> None:
        """Count one case's outcome."""
        self.cases += 1
        for part in PARTS:
            value = outcome[part]
            if value is None:
                continue
            self.judged[part] += 1
            self.right[part] += int(value)

    def percent(self, part: str) -> float | None:
        """The share right, in percent; None where nothing was judged."""
        if not self.judged[part]:
            return None
        return 100.0 * self.right[part] / self.judged[part]

    def as_dict(self) -> dict[str, object]:
        """The counts and percentages, for JSON."""
        return {
            "cases": self.cases,
            **{
                part: {
                    "right": self.right[part],
                    "judged": self.judged[part],
                    "percent": None if (p := self.percent(part)) is None else round(p, 1),
                }
                for part in PARTS
            },
        }


@dataclass
class Figures:
    """The tallies: overall and per family, backend, language and vendor."""

    installed: frozenset[str]
    overall: Tally = field(default_factory=Tally)
    family: dict[str, Tally] = field(default_factory=dict)
    backend: dict[str, Tally] = field(default_factory=dict)
    language: dict[str, Tally] = field(default_factory=dict)
    vendor: dict[str, Tally] = field(default_factory=dict)
    verdicts: list[Verdict] = field(default_factory=list)

    def add(self, verdict: Verdict) -> None:
        """Count one verdict in every group it belongs to."""
        case = verdict.case
        outcome = verdict.parts(self.installed)
        self.verdicts.append(verdict)
        self.overall.add(outcome)
        groups: list[tuple[dict[str, Tally], str]] = [
            (self.family, case.family),
            (self.backend, case.backend or "(none)"),
            (self.language, case.language),
        ]
        if case.localized:
            groups.append((self.language, "localized (all)"))
        if case.vendor is not None:
            groups.append((self.vendor, case.vendor))
        for table, key in groups:
            table.setdefault(key, Tally()).add(outcome)

    def misses(self) -> list[tuple[Verdict, list[str]]]:
        """Each verdict with a wrong part, and the names of its wrong parts."""
        out: list[tuple[Verdict, list[str]]] = []
        for verdict in self.verdicts:
            wrong = [part for part, ok in verdict.parts(self.installed).items() if ok is False]
            if wrong:
                out.append((verdict, wrong))
        return out


def measure(
    cases: Iterable[TextCase],
    classify: Callable[[TextCase], Verdict] = judge,
    installed: Collection[str] | None = None,
) -> Figures:
    """Classify every case and tally the verdicts.

    Args:
        cases: The corpus (`tests.text_corpus.load`).
        classify: Builds a case's verdict; `judge` by default.
        installed: The backends whose mappers are present; the registry's
            names by default.

    Returns:
        The figures.
    """
    names = frozenset(ErrorMapperRegistry.names() if installed is None else installed)
    figures = Figures(installed=names)
    for case in cases:
        figures.add(classify(case))
    return figures
