"""
What an outside project's verdict means in our vocabulary, and how an answer is judged.

An outside project says, of one error, "this is a duplicate key" (oslo.db's
`DBDuplicateEntry`, Spring's `duplicateKeyCodes`).  `Expectation` writes what
that verdict allows of our answer: the categories, the kinds where the verdict
is specific enough to name some, and the retry decision where the project's
documentation states one.  `judge` compares one answer with one expectation,
and the names the project read from the error's text with ours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from localdata_errors import ErrorCategory, Kind, StructuredErrorResponse

__all__ = [
    "DATA_KINDS",
    "TRANSIENT_KINDS",
    "Expectation",
    "NameCheck",
    "Verdict",
    "expect",
    "judge",
    "named_in",
]

#: The kinds of a problem with the data a statement processed: a value that does
#: not parse, fit or convert, a division by zero, an argument of the wrong form.
DATA_KINDS = frozenset(
    {
        Kind.DIVISION_BY_ZERO,
        Kind.INVALID_TEXT_REPRESENTATION,
        Kind.INVALID_DATETIME_FORMAT,
        Kind.NUMERIC_VALUE_OUT_OF_RANGE,
        Kind.STRING_DATA_RIGHT_TRUNCATION,
        Kind.DATATYPE_MISMATCH,
        Kind.INVALID_PARAMETER,
    }
)

#: The kinds of a conflict between concurrent transactions: the loser is rolled
#: back (or refused its lock) and the same transaction succeeds when repeated.
TRANSIENT_KINDS = frozenset(
    {
        Kind.DEADLOCK_DETECTED,
        Kind.SERIALIZATION_FAILURE,
        Kind.LOCK_NOT_AVAILABLE,
    }
)


@dataclass(frozen=True)
class Expectation:
    """
    What one outside verdict allows of our answer.

    Attributes:
        categories: The categories that agree with the verdict.
        kinds: The kinds that agree with it, or `None` where the verdict
            names a category of trouble and no finer reason.
        retryable: The retry decision the project documents for the
            verdict, or `None` where it states none.
    """

    categories: frozenset[ErrorCategory]
    kinds: frozenset[Kind] | None = None
    retryable: bool | None = None


def expect(
    categories: ErrorCategory | Iterable[ErrorCategory],
    kinds: Iterable[Kind] | None = None,
    retryable: bool | None = None,
) -> Expectation:
    """An `Expectation` from one category or several, and the kinds, if any."""
    cats = (categories,) if isinstance(categories, ErrorCategory) else tuple(categories)
    return Expectation(frozenset(cats), None if kinds is None else frozenset(kinds), retryable)


@dataclass(frozen=True)
class NameCheck:
    """
    One name the outside project read from the error, and where ours must have it.

    Attributes:
        field: The project's attribute (`table`, `constraint`, `columns`, ...).
        value: The name it holds.
        where: Our field that must hold it: `affected_resources`,
            `dependencies` or `constraint`.
    """

    field: str
    value: str
    where: str


@dataclass(frozen=True)
class Verdict:
    """
    How one answer compares with one outside verdict.

    Attributes:
        category: Our category is one the verdict allows.
        kind: Our kind is one the verdict allows (`None`: the verdict names none).
        retry: Our retry decision is the documented one (`None`: none documented).
        names: Every name we can be held to is where it belongs (`None`: none).
        missing: The names that are not.
    """

    category: bool
    kind: bool | None
    retry: bool | None
    names: bool | None
    missing: tuple[NameCheck, ...] = field(default=())

    @property
    def agrees(self) -> bool:
        """Every part that is evidence agrees."""
        return (
            self.category
            and self.kind is not False
            and self.retry is not False
            and self.names is not False
        )


def _holds(resp: StructuredErrorResponse, check: NameCheck) -> bool:
    if check.where == "constraint":
        return resp.constraint == check.value or check.value in resp.affected_resources
    if check.where == "dependencies":
        return check.value in resp.dependencies
    return check.value in resp.affected_resources


def judge(
    resp: StructuredErrorResponse,
    expected: Expectation,
    names: Iterable[NameCheck] = (),
) -> Verdict:
    """
    Compare one answer with what the outside verdict allows.

    Args:
        resp: Our answer.
        expected: What the verdict allows.
        names: The names we can be held to (see `named_in`).

    Returns:
        The comparison, part by part.
    """
    checks = tuple(names)
    missing = tuple(c for c in checks if not _holds(resp, c))
    return Verdict(
        category=resp.error_type in expected.categories,
        kind=None if expected.kinds is None else resp.kind in expected.kinds,
        retry=None if expected.retryable is None else resp.is_retryable is expected.retryable,
        names=None if not checks else not missing,
        missing=missing,
    )


# The parts of a message that are data, not names: PostgreSQL's "Key (a, b)=(1, 2)"
# detail (whose columns the project's design treats as data) and MySQL's
# "Duplicate entry '...'" value.
_DATA_SPANS = re.compile(
    r"Key \([^)]*\)=\([^)]*\)|Duplicate entry (?:\\?'.*?\\?' for key)",
    re.IGNORECASE | re.DOTALL,
)


def named_in(text: str, name: str) -> bool:
    """
    Whether *text* names *name* itself, as a whole identifier outside its data.

    An outside project may derive a name from a naming convention (oslo.db
    reads the columns `a`, `b` out of the constraint name `uniq_t0a0b`); our
    answer can only be held to names the error's own text states.
    """
    if not name:
        return False
    stripped = _DATA_SPANS.sub(" ", text)
    return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", stripped) is not None


def checkable(text: str, wanted: Mapping[str, tuple[str, str]]) -> tuple[NameCheck, ...]:
    """
    The name checks of *wanted* (field -> (name, our field)) that *text* states.

    Args:
        text: The error's text.
        wanted: The outside project's names and where ours must have each.

    Returns:
        One check per name the text itself states.
    """
    return tuple(
        NameCheck(key, value, where)
        for key, (value, where) in wanted.items()
        if named_in(text, value)
    )
