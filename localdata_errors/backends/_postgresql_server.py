"""
PostgreSQL's codes and diagnostics: what the server sends with an error.

The SQLSTATE (``sqlstate`` on psycopg 3 and asyncpg, ``pgcode`` on psycopg2,
pg8000's ``C`` field) is looked up in the list generated from PostgreSQL's
own ``errcodes.txt`` (`_postgresql_codes`, loaded on first use) with the kind
decided in `_postgresql_kinds`, and a lenient fallback by SQLSTATE class for
codes newer than the list.  The server's structured fields (table, column,
constraint, schema, data type, detail, context) are read as each driver
exposes them.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final, NamedTuple

from localdata_errors._kinds import KIND_TABLE, ErrorCategory, Kind
from localdata_errors._lazy import LazyPattern, literal_trie
from localdata_errors._mapper import ErrorInput, driver_attr
from localdata_errors._response import builder
from localdata_errors.backends._postgresql_kinds import (
    BY_MESSAGE,
    CLASS_KINDS,
    KINDS,
    REFINE_CATEGORIES,
)

__all__ = [
    "Diagnostics",
    "codes",
    "condition_name",
    "errno_sqlstate",
    "kind_and_refine",
    "kind_for_sqlstate",
    "lookup",
    "read_diagnostics",
    "read_sqlstate",
]

# -- the code table (generated facts and hand-written kinds, joined on first use) ---


@cache
def codes() -> dict[str, tuple[str, Kind]]:
    """SQLSTATE -> (condition name, kind) for every code PostgreSQL lists."""
    from localdata_errors.backends._postgresql_codes import CONDITIONS  # noqa: PLC0415 - lazy

    return {
        code: (name, KINDS[code] if code in KINDS else CLASS_KINDS.get(code[:2], Kind.UNKNOWN))
        for code, name in CONDITIONS.items()
    }


@cache
def _classes() -> frozenset[str]:
    return frozenset(code[:2] for code in codes())


def lookup(sqlstate: str) -> Kind:
    """
    The kind of a SQLSTATE listed in PostgreSQL's ``errcodes.txt`` (strict).

    Args:
        sqlstate: A five-character SQLSTATE.

    Returns:
        Its kind; ``Kind.UNKNOWN`` for codes no kind fits (warnings, cursor
        and routine errors, ...).

    Raises:
        KeyError: When the code is not in the table.
    """
    return codes()[sqlstate][1]


def condition_name(sqlstate: str) -> str | None:
    """
    PostgreSQL's condition name of a SQLSTATE (``42P01`` -> ``undefined_table``).

    Args:
        sqlstate: A five-character SQLSTATE.

    Returns:
        The name, or ``None`` for a code not in the table.
    """
    entry = codes().get(sqlstate)
    return None if entry is None else entry[0]


_REFINE_BY_CATEGORY: Final[dict[ErrorCategory, frozenset[Kind]]] = {
    category: frozenset(
        kind
        for kind, info in KIND_TABLE.items()
        if info.category in REFINE_CATEGORIES.get(category, frozenset({category}))
    )
    for category in ErrorCategory
}


def _special(sqlstate: str, message: str) -> Kind | None:
    rules = BY_MESSAGE.get(sqlstate) or BY_MESSAGE.get(sqlstate[:2])
    if rules is not None:
        for phrase, at_start, kind in rules:
            if message.startswith(phrase) if at_start else phrase in message:
                return kind
    return None


def kind_for_sqlstate(sqlstate: str, message: str = "") -> Kind:
    """
    The kind of any SQLSTATE (lenient): the table, else the code's class.

    Args:
        sqlstate: A five-character SQLSTATE.
        message: The primary message; makes a few codes precise (57014
            statement timeout vs. cancel).

    Returns:
        The kind; `Kind.UNKNOWN` when neither the code nor its class is known.
    """
    return kind_and_refine(sqlstate, message)[0]


def kind_and_refine(sqlstate: str, message: str) -> tuple[Kind, frozenset[Kind] | None]:
    """The code's kind, and the kinds the keyword fallback may refine it into."""
    entry = codes().get(sqlstate)
    if entry is not None:
        return _special(sqlstate, message) or entry[1], None
    fallback = CLASS_KINDS.get(sqlstate[:2])
    if fallback is None:
        return Kind.UNKNOWN, None
    return fallback, _REFINE_BY_CATEGORY[KIND_TABLE[fallback].category]


# -- the SQLSTATE of errno ----------------------------------------------------------


def _strerror_pattern() -> str:
    from localdata_errors.backends._postgresql_errno import STRERROR  # noqa: PLC0415 - lazy

    return r": (" + literal_trie(list(STRERROR)) + r")(?!\w)"


#: `: ` and a strerror text (the longest there), as `%m` prints it.
_STRERROR: Final = LazyPattern(_strerror_pattern)


def errno_sqlstate(marker: str, text: str) -> str | None:
    """
    The SQLSTATE the server set from errno, read from the strerror text `%m` printed.

    Where a call site reports with `errcode_for_file_access()` (marker
    `errno:file`) or `errcode_for_socket_access()` (`errno:socket`),
    `elog.c` sets the SQLSTATE from errno, and the format's `%m`, after its
    `: `, prints `strerror(errno)` (glibc's or musl's text): the first such
    text names the errno, the marker's switch its SQLSTATE
    (`_postgresql_errno`, generated from both).

    Args:
        marker: `errno:file` or `errno:socket`.
        text: The message from where the format's words start, to its line's end.

    Returns:
        The SQLSTATE (`No such file or directory`: 58P01); `None` where no
        strerror text follows a `: `, or the releases' switches differ on its errno.
    """
    from localdata_errors.backends._postgresql_errno import SQLSTATES, STRERROR  # noqa: PLC0415

    cases = SQLSTATES.get(marker)
    found = _STRERROR.get().search(text) if cases is not None else None
    if cases is None or found is None:
        return None
    name = STRERROR[found.group(1)]
    return cases[name] if name in cases else cases["*"]


# -- reading the exception ------------------------------------------------------

_SQLSTATE = re.compile(r"[0-9A-Z]{5}")
# "SQLSTATE 42P01", "sqlstate: 42P01", "SQLSTATE[42P01]" as logs and tools print it.
_SQLSTATE_IN_TEXT = re.compile(r"(?i:sqlstate)\W{0,3}([0-9A-Z]{5})\b")


def _valid_sqlstate(value: object) -> str | None:
    if isinstance(value, str) and len(value) == 5 and _SQLSTATE.fullmatch(value):
        return value
    return None


def read_sqlstate(error: ErrorInput) -> str | None:
    """
    The SQLSTATE of an error, validated (five characters, digits or capitals).

    Args:
        error: The mapper's input: ``sqlstate`` (psycopg 3, asyncpg) or
            ``pgcode`` (psycopg2) on the exception, pg8000's `C` field,
            else the explicit
            ``code``, else a ``SQLSTATE xxxxx`` in the message.

    Returns:
        The SQLSTATE, or ``None``.
    """
    exc = error.exception
    if exc is not None:
        code = _attr_sqlstate(exc)
        if code is not None:
            return code
    code = _valid_sqlstate(error.code)
    if code is not None:
        return code
    if "sqlstate" in error.message[:4096].lower():
        match = _SQLSTATE_IN_TEXT.search(error.message, 0, 4096)
        # Only a code of a known class: "SQLSTATE: ERROR" names no code.
        if match is not None and match.group(1)[:2] in _classes():
            return match.group(1)
    return None


def _attr_sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE the driver put on the exception (psycopg, psycopg2, asyncpg, pg8000)."""
    listed = codes()
    for attr in ("sqlstate", "pgcode"):
        try:
            value = getattr(exc, attr, None)
        except Exception:  # noqa: BLE001, S112 - a failing attribute reads as absent
            continue
        if value is None:
            continue
        # A listed code is valid by being listed (one probe); else check its form.
        if type(value) is str and value in listed:
            return value
        code = _valid_sqlstate(value)
        if code is not None:
            return code
    fields = _pg8000_dict(exc)
    return None if fields is None else _valid_sqlstate(fields.get("C"))


def _pg8000_dict(exc: BaseException) -> dict[object, object] | None:
    """pg8000's server fields: one dict in `args[0]` ({"C": "42P01", "M": ...})."""
    args = driver_attr(exc, "args", ())
    if isinstance(args, tuple) and args and isinstance(args[0], dict):
        return args[0]
    return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


class Diagnostics(NamedTuple):
    """
    The server's structured fields, as the driver exposes them.

    Args:
        primary: The primary message (the first line).
        detail: The DETAIL field.
        context: The CONTEXT field.
        table: The table (``table_name``).
        column: The column (``column_name``).
        constraint: The constraint (``constraint_name``).
        schema: The schema (``schema_name``).
        datatype: The data type or domain (``datatype_name``).
    """

    primary: str
    detail: str | None = None
    context: str | None = None
    table: str | None = None
    column: str | None = None
    constraint: str | None = None
    schema: str | None = None
    datatype: str | None = None


# Built on every call, by keyword (see `localdata_errors._response.builder`).
_DIAGNOSTICS: Final = builder(Diagnostics)

_FIELD_LABELS: Final = (
    "\nHINT:  ",
    "\nCONTEXT:  ",
    "\nLINE ",
    "\nQUERY:  ",
    "\nSTATEMENT:  ",
    "\nLOCATION:  ",
    "\nDETAIL:  ",
)
_FIELD_LIMIT: Final = 4096


def _field_line(message: str, label: str) -> str | None:
    """
    The text of libpq's ``DETAIL:`` (or ``CONTEXT:``) field inside *message*.

    A field runs over several lines (2BP01 lists one dependent per line) up
    to the next labelled field.
    """
    start = message.find(label, 0, 16384)
    if start < 0:
        return None
    start += len(label)
    stop = min(len(message), start + _FIELD_LIMIT)
    for other in _FIELD_LABELS:
        end = message.find(other, start, stop)
        if end >= 0:
            stop = end
    return message[start:stop].rstrip()


def read_diagnostics(exc: BaseException | None, message: str) -> Diagnostics:
    """
    Read the server's diagnostics from *exc* and the message's lines.

    psycopg 3 and psycopg2 expose ``exc.diag.table_name`` etc. and repeat
    DETAIL and CONTEXT in the message; asyncpg puts ``table_name``,
    ``detail``, ``context`` ... on the exception itself; pg8000 keeps the
    protocol's fields in ``args[0]``.  Any attribute of the wrong type is
    ignored.

    Args:
        exc: The driver's exception, or ``None``.
        message: The error text.

    Returns:
        The fields found.
    """
    server = None if exc is None else _pg8000_dict(exc)
    if server is not None:
        fields = _pg8000_fields(server)
        if fields is not None:
            return fields
    newline = message.find("\n")
    if newline < 0:
        primary = (message if len(message) <= 2048 else message[:2048]).strip()
        detail = context = None
    else:
        primary = message[: min(newline, 2048)].strip()
        detail = _field_line(message, "\nDETAIL:  ")
        context = _field_line(message, "\nCONTEXT:  ")
    if exc is None:
        return _DIAGNOSTICS(primary=primary, detail=detail, context=context)
    diag = driver_attr(exc, "diag")
    # psycopg's `diag`; asyncpg has the fields on the exception itself, two
    # of them under other names.
    source: object
    if diag is None:
        source, detail_name, type_name = exc, "detail", "data_type_name"
    else:
        source, detail_name, type_name = diag, "message_detail", "datatype_name"
    return _DIAGNOSTICS(
        primary=primary,
        detail=_text(driver_attr(source, detail_name)) if detail is None else detail,
        context=_text(driver_attr(source, "context")) if context is None else context,
        table=_text(driver_attr(source, "table_name")),
        column=_text(driver_attr(source, "column_name")),
        constraint=_text(driver_attr(source, "constraint_name")),
        schema=_text(driver_attr(source, "schema_name")),
        datatype=_text(driver_attr(source, type_name)),
    )


def _pg8000_fields(fields: dict[object, object]) -> Diagnostics | None:
    """pg8000's server fields (see `_pg8000_dict`), keyed by the protocol's letters."""
    primary = fields.get("M")
    if not isinstance(primary, str):
        return None

    def text(letter: str) -> str | None:
        value = fields.get(letter)
        return value if isinstance(value, str) else None

    return _DIAGNOSTICS(
        primary=primary[:2048],
        detail=text("D"),
        context=text("W"),
        table=text("t"),
        column=text("c"),
        constraint=text("n"),
        schema=text("s"),
        datatype=text("d"),
    )
