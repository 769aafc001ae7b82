"""
Oracle backend: python-oracledb (thin and thick mode) and cx_Oracle errors.

It reads the driver's ``_Error`` object (``exception.args[0]``: ``message``,
``full_code``, ``code``, ``isrecoverable``), finds every code that starts a
line of the message (``ORA-``, ``PLS-``, ``DPY-``, ``DPI-``), and picks the
most specific one: the first that is not a wrapper.  So
``ORA-00604: error occurred at recursive SQL level 1`` followed by
``ORA-01653: unable to extend table ...`` is ``ORA-01653``; a PL/SQL
compilation error (``ORA-06550`` + ``PLS-00201``) is its ``PLS-`` line; a
trigger's ``ORA-06512`` / ``ORA-04088`` trailer is context; and a
python-oracledb ``DPY-`` line that translates a database or ODPI-C error
(``DPY-4011`` over ``ORA-03113``, ``DPY-1001`` over ``DPI-1010``) gives way
to the line it translates.  The code is looked up in
`localdata_errors.backends._oracle_codes`; names come from the
official message patterns of that one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from types import ModuleType
from typing import Final

from localdata_errors._backends import BACKENDS
from localdata_errors._kinds import KIND_TABLE, ErrorCategory, Kind
from localdata_errors._mapper import (
    BackendMapper,
    ErrorInput,
    MappedError,
    driver_attr,
    new_mapped_error,
)
from localdata_errors._names import column_reference, split_qualified, unique, unqualify, unquote

__all__ = ["OracleMapper"]


@cache
def _tables() -> ModuleType:
    """Import the code table on first use, not when the plugin is loaded."""
    from localdata_errors.backends import _oracle_codes  # noqa: PLC0415 - lazy by design

    return _oracle_codes


#: How much of a message is searched for codes: a stack names its cause early.
_SCAN: Final = 8192

#: A code at the start of a line.  PL/SQL compilation repeats SQL errors as
#: ``PL/SQL: ORA-00942: ...``; ``ORA-06553: PLS-306: ...`` (SQL calling a
#: PL/SQL unit that does not compile) carries its PLS- code unpadded.  A
#: python-oracledb line after a sentence's end is a line too: a log or a web
#: page joins the driver's lines with a space (``DPY-6005: cannot connect to
#: database (CONNECTION_ID=...). DPY-3010: ...``).
_CODE_LINE: Final = re.compile(
    r"(?:^|(?<=\. )(?=DP[YI]-)|(?<=Error: )(?=NJS-))(?:PL/SQL: |ORA-06553: )?"
    r"(ORA|PLS|TNS|DPY|DPI|NJS)-(\d{1,5}):",
    re.MULTILINE,
)
#: How many digits each prefix's numbers are written with.
_WIDTHS: Final = {"ORA": 5, "PLS": 5, "TNS": 5, "DPY": 4, "DPI": 4, "NJS": 3}
#: The drivers' own layers: a line of theirs gives way to the line it translates.
_DRIVER_PREFIXES: Final = frozenset({"DPY", "NJS"})
#: python-oracledb's listener refusal names the listener's own error.
_SIMILAR: Final = re.compile(r"\(Similar to ORA-(\d{1,5})\)")
#: What the operating system says when a host name does not resolve
#: (glibc, macOS/BSD, Windows); a temporary resolver failure is not among them.
_UNKNOWN_HOST: Final = (
    "Name or service not known",
    "nodename nor servname",
    "No address associated with hostname",
    "getaddrinfo failed",
    "No such host is known",
)

# -- names in the official message texts -------------------------------------------

_NAME: Final = r'"(?:[^"\n]|""){1,128}"|[A-Za-z_$#][\w$#]{0,127}'
_QUALIFIED: Final = rf"(?:{_NAME})(?:\.(?:{_NAME})){{0,3}}"

#: ``(SCHEMA.CONSTRAINT)`` of the constraint errors.
_CONSTRAINT: Final = re.compile(rf"\(({_QUALIFIED})\)")
#: The 21c+ tail of ORA-00001: ``violated on table HR.EMP columns (ID)``.
_ON_TABLE: Final = re.compile(rf"violated on table ({_QUALIFIED}) columns \(([^()\n]{{1,1024}})\)")
#: ``("HR"."EMP"."NAME")`` of ORA-01400 / ORA-01407, ``column "HR"."EMP"."NAME"`` of ORA-12899.
_COLUMN_PATH: Final = re.compile(rf"(?:\(|for column )({_QUALIFIED})(?:\)| \(actual)")
_IDENTIFIER: Final = re.compile(rf"^({_QUALIFIED}): invalid identifier")
_TABLE_OR_VIEW: Final = re.compile(rf"table or view ({_QUALIFIED}) does not exist")
#: The segment that could not grow; its tablespace only says where it is, and
#: a tablespace is neither a schema nor an object of the error (never a resource).
_EXTEND: Final = re.compile(
    rf"unable to extend (?:table|index|lob segment) ({_QUALIFIED})"
    rf"(?: (?:sub)?partition ({_NAME}))? by \d{{1,20}} in tablespace"
)
_OBJECT: Final = re.compile(rf"object ({_QUALIFIED})(?: does not exist| is invalid|$)")
_MUTATING: Final = re.compile(rf"table ({_QUALIFIED}) is mutating")
_LOCK_OBJECT: Final = re.compile(rf"to lock object ({_QUALIFIED})")
_DOUBLE_QUOTED: Final = re.compile(r'"([^"\n]{1,261})"')
_SINGLE_QUOTED: Final = re.compile(r"'([^'\n]{1,261})'")


class _Names:
    """Names found in one message line, in the order they were found."""

    __slots__ = ("constraint", "resources", "schema")

    def __init__(self) -> None:
        self.resources: list[str] = []
        self.schema: str | None = None
        self.constraint: str | None = None

    def add(self, raw: str, *, parts: int = 1) -> None:
        """Add a possibly qualified name; its last *parts* parts are resources."""
        split = split_qualified(raw) if ("." in raw or '"' in raw) else [raw]
        if not split:
            return
        self.resources.extend(split[-parts:])
        if len(split) > parts and self.schema is None:
            self.schema = split[-parts - 1]


def _constraint(line: str, names: _Names) -> None:
    match = _CONSTRAINT.search(line)
    if match is not None:
        obj, schema = unqualify(match.group(1))
        names.constraint = obj
        names.resources.append(obj)
        names.schema = schema
    tail = _ON_TABLE.search(line)
    if tail is not None:
        names.add(tail.group(1))
        names.resources.extend(unquote(c) for c in tail.group(2).split(","))


def _column_path(line: str, names: _Names) -> None:
    match = _COLUMN_PATH.search(line)
    if match is not None:
        names.add(match.group(1), parts=2)


def _identifier(line: str, names: _Names) -> None:
    match = _IDENTIFIER.match(line)
    if match is not None:
        # "E"."FOO": E is a table or an alias, not a schema; "HR"."EMP"."FOO"
        # names the schema's table.
        column, table, schema = column_reference(split_qualified(match.group(1)))
        if column:
            names.resources.append(column)
        if table is not None:
            names.resources.append(table)
            names.schema = names.schema or schema


def _search(pattern: re.Pattern[str], parts: int = 1) -> Callable[[str, _Names], None]:
    def extract(line: str, names: _Names) -> None:
        match = pattern.search(line)
        if match is not None:
            names.add(match.group(1), parts=parts)

    return extract


def _extend(line: str, names: _Names) -> None:
    match = _EXTEND.search(line)
    if match is not None:
        names.add(match.group(1))
        if match.group(2):
            names.resources.append(unquote(match.group(2)))


def _quoted_object(line: str, names: _Names) -> None:
    # ORA-04061 / 04065 / 06508 name a unit as "HR.PKG" (one quoted, dotted string).
    match = _DOUBLE_QUOTED.search(line)
    if match is not None:
        names.add(match.group(1))


_EXTRACTORS: Final[dict[str, Callable[[str, _Names], None]]] = {
    **dict.fromkeys(
        ("ORA-00001", "ORA-02290", "ORA-02291", "ORA-02292", "ORA-02293", "ORA-02298", "ORA-02299"),
        _constraint,
    ),
    **dict.fromkeys(("ORA-01400", "ORA-01407", "ORA-12899"), _column_path),
    "ORA-00904": _identifier,
    "ORA-00942": _search(_TABLE_OR_VIEW),
    # A tablespace alone (ORA-01536, ORA-01652, ORA-00959, ORA-30036, ...) names nothing.
    **dict.fromkeys(("ORA-01653", "ORA-01654", "ORA-01688", "ORA-01691"), _extend),
    "ORA-04043": _search(_OBJECT),
    "PLS-00905": _search(_OBJECT),
    "PLS-00904": _search(_OBJECT),
    "ORA-04091": _search(_MUTATING),
    "ORA-04020": _search(_LOCK_OBJECT),
    "ORA-04021": _search(_LOCK_OBJECT),
    **dict.fromkeys(("ORA-04061", "ORA-04063", "ORA-04065", "ORA-06508"), _quoted_object),
    **dict.fromkeys(
        (
            "ORA-01918",
            "ORA-01919",
            "ORA-01920",
            "ORA-01921",
            "ORA-04080",
            "ORA-04081",
            "ORA-04098",
            "PLS-00201",
            "PLS-00302",
            "PLS-00306",
        ),
        _search(_SINGLE_QUOTED),
    ),
}

# -- reading the driver's error object ---------------------------------------------------


def _format_code(prefix: str, number: int) -> str:
    return f"{prefix}-{number:0{_WIDTHS[prefix]}d}"


def _explicit_code(code: object) -> str | None:
    """Normalise a caller's code: ``942``, ``"942"``, ``"ora-942"``, ``"ORA-00942"``."""
    if isinstance(code, int) and not isinstance(code, bool):
        return _format_code("ORA", code) if 0 < code < 100000 else None
    if not isinstance(code, str):
        return None
    text = code.strip().upper()
    prefix, dash, digits = text.partition("-")
    if not dash:
        prefix, digits = "ORA", text
    if prefix in _WIDTHS and digits.isascii() and digits.isdigit() and len(digits) <= 5:
        return _format_code(prefix, int(digits))
    return None


def _line_at(message: str, start: int) -> str:
    end = message.find("\n", start, start + 2048)
    return message[start : end if end >= 0 else start + 2048].strip()


def _driver_error(error: ErrorInput) -> tuple[str, object | None]:
    """The driver's message and ``_Error`` object (``None`` for plain text)."""
    exc = error.exception
    if exc is not None:
        args = driver_attr(exc, "args")
        if isinstance(args, tuple) and args:
            obj = args[0]
            message = driver_attr(obj, "message")
            if isinstance(message, str):
                return message, obj
    return error.message, None


def _fallback_code(obj: object | None, explicit: object) -> str | None:
    """The code when no line of the message starts with one."""
    code = _explicit_code(explicit) if explicit is not None else None
    if code is not None or obj is None:
        return code
    full_code = driver_attr(obj, "full_code")
    if isinstance(full_code, str) and full_code:
        return _explicit_code(full_code)
    number = driver_attr(obj, "code")
    if isinstance(number, int) and not isinstance(number, bool) and number > 0:
        return _format_code("ORA", number)
    return None


#: Kinds whose cause lies in the request or its settings: Oracle's
#: ``isrecoverable`` (a statement about the session) does not make them retryable.
_NEVER_RECOVERABLE: Final = frozenset(
    {
        ErrorCategory.AUTH_ERROR,
        ErrorCategory.SYNTAX_ERROR,
        ErrorCategory.SCHEMA_ERROR,
        ErrorCategory.CONSTRAINT_ERROR,
    }
)


def _recoverable_override(obj: object | None, kind: Kind) -> bool | None:
    """``True`` when the driver marks the error recoverable and the kind allows it."""
    if obj is None or driver_attr(obj, "isrecoverable", False) is not True:
        return None
    info = KIND_TABLE[kind]
    if (
        info.retryable
        or kind is Kind.CONNECTION_MISCONFIGURED
        or info.category in _NEVER_RECOVERABLE
    ):
        return None
    return True


class OracleMapper(BackendMapper):
    """
    Oracle: python-oracledb (thin and thick mode) and cx_Oracle.
    """

    name = "oracle"
    aliases = BACKENDS["oracle"].aliases
    driver_modules = BACKENDS["oracle"].driver_modules
    display_name = BACKENDS["oracle"].display_name

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one python-oracledb / cx_Oracle error, or a message with an Oracle code.

        Args:
            error: The exception (its ``args[0]`` is the driver's ``_Error``)
                and its text; or a message and an explicit code.

        Returns:
            The kind, the most specific code and the names of the cause line;
            ``None`` when nothing Oracle-shaped is found.
        """
        message, obj = _driver_error(error)
        tables = _tables()
        codes: Mapping[str, Kind] = tables.CODES
        # One pass over the lines that start with a code: the cause is the first
        # code that is neither a wrapper nor a DPY- translation; failing that,
        # the last DPY- code (DPY-6005 over DPY-6001); else the first code.
        first = code = dpy = ""
        start = first_start = dpy_start = -1
        later = dpy_later = False  # whether the cause is not the message's first code
        if "-" in message:
            wrappers: frozenset[str] = tables.WRAPPERS
            for index, match in enumerate(_CODE_LINE.finditer(message, 0, _SCAN)):
                prefix, digits = match.group(1, 2)
                found = (
                    f"{prefix}-{digits}"
                    if len(digits) == _WIDTHS[prefix]
                    else _format_code(prefix, int(digits))
                )
                if not index:
                    first, first_start = found, match.end()
                if prefix in _DRIVER_PREFIXES:
                    dpy, dpy_start, dpy_later = found, match.end(), index > 0
                elif found not in wrappers:
                    code, start, later = found, match.end(), index > 0
                    break
        if not code:
            if dpy:
                code, start, later = dpy, dpy_start, dpy_later
            elif first:
                code, start = first, first_start
            else:
                code = _fallback_code(obj, error.code) or ""
                if not code:
                    # A text the reader gave to Oracle carries no code (Oracle's
                    # JDBC driver's "IO Error: The Network Adapter could not
                    # establish the connection"): the keywords choose its kind.
                    if error.exception is not None:
                        return None
                    given = error.code if isinstance(error.code, str) and error.code else None
                    return new_mapped_error(Kind.UNKNOWN, code=given)
        # Oracle Net's tools (lsnrctl, tnsping) print as TNS- what the database
        # reports as ORA- of the same number (TNS-12541 is ORA-12541, "TNS:no
        # listener"): one message, one kind.
        kind = codes.get(code) or codes.get(f"ORA{code[3:]}" if code[:4] == "TNS-" else "")
        kind = kind or Kind.UNKNOWN
        line = _line_at(message, start) if start >= 0 else ""

        if code == "DPY-6000":
            similar = _SIMILAR.search(line)
            if similar is not None:
                # The code stays the driver's; the listener's own error says why.
                kind = codes.get(_format_code("ORA", int(similar.group(1))), kind)
        elif code == "DPY-6005" and any(text in message for text in _UNKNOWN_HOST):
            kind = Kind.CONNECTION_MISCONFIGURED
        elif code == "ORA-06502":
            kind = _numeric_or_value(line, kind)
        if later and kind is Kind.CONNECTION_LOST and first == "DPY-6005":
            kind = Kind.CONNECTION_FAILURE  # closed while connecting: never connected

        extract = _EXTRACTORS.get(code)
        if extract is None or not line:
            return new_mapped_error(kind, code=code, retryable=_recoverable_override(obj, kind))
        names = _Names()
        extract(line, names)
        return new_mapped_error(
            kind,
            code=code,
            affected_resources=unique(names.resources),
            constraint=names.constraint,
            schema=names.schema,
            retryable=_recoverable_override(obj, kind),
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every code of the table.

        Returns:
            ``ORA-``, ``PLS-``, ``DPY-`` and ``DPI-`` codes and their kinds.
        """
        codes: Mapping[str, Kind] = _tables().CODES
        return codes


def _numeric_or_value(line: str, kind: Kind) -> Kind:
    """ORA-06502 says which value error it is after its colon."""
    if "buffer too small" in line:
        return Kind.STRING_DATA_RIGHT_TRUNCATION
    if "conversion error" in line:
        return Kind.INVALID_TEXT_REPRESENTATION
    return kind
