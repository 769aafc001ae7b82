"""
What was called, as the execution history keeps it.

A call of a tool that takes structured arguments is kept as the call it was:
``delete_rows(table="customers", filters=[{"column": "id", "value": 7}])``
becomes ``delete_rows(customers, where id = ?)``: the tool, the table, the
columns and operators of its filters, never the values.  What the call changed
comes from the call itself (a ``delete_rows`` deleted rows of ``customers``),
not from SQL made up to describe it.

A statement an agent sent is cut, masked (values, bound parameters,
credentials) and only then read.  Any other tool's arguments are kept as a
call too, read by the names the table tools use: ``table`` names a table, a
list of filters (``column``, ``operator``) gives the conditions, ``columns``
the columns; every other argument is shown by its name, its value as ``?``:
``lookup_customer(card=?)``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from localdata_errors._sqlmask import LITERAL, compact_values, mask_statement
from localdata_errors._statechange import (
    PARSE_LIMIT,
    Name,
    ParsedStatement,
    StateChange,
    read_statement,
)

__all__ = [
    "STORED_OPERATION",
    "Condition",
    "Effect",
    "KeptCall",
    "StructuredCall",
    "argument_call",
    "call_identity",
    "one_line",
    "quote_name",
    "read_arguments",
    "result_rows",
    "shorten",
]

#: What a successful call changed (``None``: nothing, as for a read).
Effect = Literal["created", "dropped", "altered", "truncated", "inserted", "updated", "deleted"]

_VERBS: Final = {
    "created": "CREATE",
    "dropped": "DROP",
    "altered": "ALTER",
    "truncated": "TRUNCATE",
    "inserted": "INSERT",
    "updated": "UPDATE",
    "deleted": "DELETE",
}
_OPERATORS: Final = {
    "=": "= ?",
    "==": "= ?",
    "!=": "!= ?",
    "<>": "<> ?",
    "<": "< ?",
    "<=": "<= ?",
    ">": "> ?",
    ">=": ">= ?",
    "like": "like ?",
    "not_like": "not like ?",
    "ilike": "ilike ?",
    "in": "in (?)",
    "not_in": "not in (?)",
    "between": "between ? and ?",
    "is_null": "is null",
    "not_null": "is not null",
    "is_not_null": "is not null",
}
_PLAIN_NAME: Final = re.compile(r"[^\W\d][\w$]{0,63}")
# An operator outside the tools' own words is shown only when it is made of
# comparison signs: a word could be anything the caller put there.
_SAFE_OPERATOR: Final = re.compile(r"[<>=!~]{1,3}")
# A parameter's name, as a tool's signature spells one; any other key of a
# mapping may be data (an address, a card number), and is shown as ?.
_PARAMETER_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
# Whitespace and control characters: a name must never start a new line of
# the summary, and the summary's own tags must never appear inside it.
_BREAKS: Final = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_TAG: Final = re.compile(r"<(/?)(tool_execution_summary)>", re.IGNORECASE)
_NAME_CHARS: Final = 64
_MAX_LISTED: Final = 8
# A per-process key: an identity tells calls apart in this process only, and
# cannot be turned back into the values it was made from.
_IDENTITY_KEY: Final = os.urandom(16)
_FINGERPRINT_TEXT: Final = 1024  # characters read at each end of a long text
_FINGERPRINT_ITEMS: Final = 32  # items read at each end of a long list
_FINGERPRINT_DEPTH: Final = 6
_SQL_KEYS: Final = ("sql", "query", "statement", "sql_query", "command")
_PARAM_KEYS: Final = frozenset(
    {"params", "parameters", "args", "bindings", "values", "bind", "binds"}
)
_RESULT_ROW_KEYS: Final = (
    "rowcount",
    "affectedRows",
    "affected_rows",
    "rows_affected",
    "insertedCount",
    "inserted",
    "changes",
    "row_count",
)
_SPACE: Final = re.compile(r"\s+")
#: The most characters of an operation (a statement, a rendered call) the history keeps.
STORED_OPERATION: Final = 240
_REPR_TEXT: Final = 40  # characters of a value a fingerprint keeps of an unknown object


def _bounded_repr() -> reprlib.Repr:
    # Python 3.11's Repr takes no keyword arguments: set the limits one by one.
    shown = reprlib.Repr()
    shown.maxstring = shown.maxother = _REPR_TEXT
    shown.maxlevel = 2
    return shown


_REPR: Final = _bounded_repr()


def one_line(text: str) -> str:
    """
    *text* on one line: whitespace and control characters become one space.

    Args:
        text: Any text that came from a user, a statement or an error.

    Returns:
        The text, which can neither start a line nor open or close the
        summary's ``<TOOL_EXECUTION_SUMMARY>`` block.
    """
    if not text.isprintable():  # every line break and control character is unprintable
        text = _BREAKS.sub(" ", text)
    if "<" in text and ">" in text:
        # Angle quotation marks: the text still reads as the tag, but is none.
        text = _TAG.sub("\u2039\\1\\2\u203a", text)
    return text


def quote_name(name: object) -> str:
    """
    A table or column name as a rendered call shows it.

    Args:
        name: The name, as the caller gave it.

    Returns:
        The name as it is when it is a plain word (``customers``), else in
        double quotes with quotes doubled (``"order lines"``, ``"p{0}"``);
        on one line, at most 64 characters.
    """
    text = one_line(name if isinstance(name, str) else str(name))
    if _PLAIN_NAME.fullmatch(text):
        return text
    if len(text) > _NAME_CHARS:
        text = text[: _NAME_CHARS - 1] + "…"
    return '"' + text.replace('"', '""') + '"'


def call_identity(arguments: object) -> str:
    """
    An opaque digest of a call's arguments, values included.

    Two calls that render alike (``delete_rows(customers, where id = ?)``)
    but differ in their values have different identities, so a later call
    with other values is not taken for a retry of an earlier one.  The
    digest is keyed per process and never rendered.  Its cost is bounded:
    of a long text it reads the length, the first and the last kilobyte; of
    a long list, the length and the first and last 32 items (two calls that
    differ only in between are taken for one, which at worst hides that an
    earlier failure is unblocked).

    Args:
        arguments: The call's arguments (anything JSON can render; other
            objects by their ``repr``, bounded).

    Returns:
        A hex digest.
    """
    text = json.dumps(_fingerprint(arguments, 0), ensure_ascii=False)
    digest = hashlib.blake2b(text.encode("utf-8", "replace"), key=_IDENTITY_KEY, digest_size=16)
    return digest.hexdigest()


def _fingerprint(value: object, depth: int) -> object:
    """A bounded, JSON-ready stand-in for *value* that tells most values apart."""
    if isinstance(value, str):
        if len(value) <= 2 * _FINGERPRINT_TEXT:
            return value
        return [len(value), value[:_FINGERPRINT_TEXT], value[-_FINGERPRINT_TEXT:]]
    if value is None or isinstance(value, bool | int | float):
        return [type(value).__name__, value]
    if depth >= _FINGERPRINT_DEPTH:
        return _REPR.repr(value)
    if isinstance(value, Mapping):
        items = sorted(value.items(), key=lambda kv: str(kv[0]))
        kept = items if len(items) <= 2 * _FINGERPRINT_ITEMS else items[:_FINGERPRINT_ITEMS]
        return [len(items), [[str(k), _fingerprint(v, depth + 1)] for k, v in kept]]
    if isinstance(value, list | tuple):
        kept = list(value)
        if len(kept) > 2 * _FINGERPRINT_ITEMS:
            kept = kept[:_FINGERPRINT_ITEMS] + kept[-_FINGERPRINT_ITEMS:]
        return [len(value), [_fingerprint(v, depth + 1) for v in kept]]
    return _REPR.repr(value)


class Condition(NamedTuple):
    """
    One filter of a structured call: a column and an operator, never the value.

    Attributes:
        column: The column.
        operator: ``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``, ``like``,
            ``in``, ``is_null``, ``not_null``, ...
    """

    column: str
    operator: str = "="

    def shown_operator(self) -> str:
        """
        The operator as the history shows it.

        Returns:
            The operator, lower case, when it is one of the tools' own
            (``=``, ``like``, ``is_null``...) or made of comparison signs;
            ``(operator)`` otherwise: a word there could be anything the
            caller put in it.
        """
        op = str(self.operator).strip().lower()
        return op if op in _OPERATORS or _SAFE_OPERATOR.fullmatch(op) else "(operator)"

    def render(self) -> str:
        """
        The condition as a rendered call shows it.

        Returns:
            ``id = ?``, ``name like ?``, ``id in (?)``, ``joined is null``.
        """
        op = self.shown_operator()
        return f"{quote_name(self.column)} {_OPERATORS.get(op, op + ' ?')}"


def _listed(names: tuple[str, ...], separator: str = ", ") -> str:
    shown = [quote_name(n) for n in names[:_MAX_LISTED]]
    if len(names) > _MAX_LISTED:
        shown.append(f"+{len(names) - _MAX_LISTED} more")
    return separator.join(shown)


@dataclass(frozen=True, slots=True)
class StructuredCall:
    """
    The arguments of a structured tool call, as the execution history keeps them.

    Record one with `ExecutionHistory.record(tool, StructuredCall(...))`.  It
    holds the call's shape, never its values: the history renders it as
    what was called (`delete_rows(customers, where id = ?)`) and takes what
    it changed from *effect*, not from a statement.

    Args:
        table: The table the call works on; ``None`` for a call on none
            (``list_tables``).
        effect: What the call changes when it succeeds: ``inserted``,
            ``updated`` or ``deleted`` (rows of *table*; the count comes from
            the result), ``truncated``, ``dropped``, ``created``, ``altered``;
            ``None`` for a call that changes nothing.
        filters: The filters' columns and operators, as `Condition`s or
            ``(column, operator)`` pairs; kept as `Condition`s, an operator
            other than the tools' own (or comparison signs) as ``(operator)``.
        columns: The columns the call sets (``update_rows``), inserts
            (``insert_rows``) or reads (``select_rows``).
        rows: How many rows the call sent (``insert_rows``).
        all_rows: Whether the call asked for every row, without filters.
        options: Further settings shown as given, e.g. ``"mode drop_table"``,
            ``"limit 5"``; they must hold no values.
        object_type: What *effect* applies to (``table`` by default).
        identity: Tells apart calls that render alike but differ in their
            values, e.g. `call_identity(arguments)`; never rendered.
    """

    table: str | None = None
    effect: Effect | None = None
    filters: tuple[Condition | tuple[str, str], ...] = ()
    columns: tuple[str, ...] = ()
    rows: int | None = None
    all_rows: bool = False
    options: tuple[str, ...] = ()
    object_type: str = "table"
    identity: str = ""

    def __post_init__(self) -> None:
        # An operator outside the tools' own is not kept: it could hold a value.
        conditions = tuple(Condition(*f) for f in self.filters)
        safe = tuple(Condition(str(c.column), c.shown_operator()) for c in conditions)
        object.__setattr__(self, "filters", safe)

    def render(self, tool: str) -> str:
        """
        The call as the history shows it.

        Args:
            tool: The tool's name.

        Returns:
            ``delete_rows(customers, where id = ?)``,
            ``insert_rows(orders, 3 rows: id, customer_id, total)``,
            ``update_rows(customers, set email where id = ?)``.
        """
        parts = [quote_name(self.table)] if self.table is not None else []
        body = []
        if self.rows is not None:
            count = f"{self.rows} row{'' if self.rows == 1 else 's'}"
            body.append(f"{count}: {_listed(self.columns)}" if self.columns else count)
        elif self.columns:
            verb = "set" if self.effect == "updated" else "columns"
            body.append(f"{verb} {_listed(self.columns)}")
        conditions = [Condition(*f).render() for f in self.filters[:_MAX_LISTED]]
        if len(self.filters) > _MAX_LISTED:
            conditions.append(f"+{len(self.filters) - _MAX_LISTED} more")
        if conditions:
            body.append("where " + " and ".join(conditions))
        if body:
            parts.append(" ".join(body))
        if self.all_rows and not self.filters:
            parts.append("all rows")
        parts += [one_line(str(o))[:_NAME_CHARS] for o in self.options]
        return f"{one_line(tool)[:_NAME_CHARS]}({', '.join(parts)})"

    def statement(self) -> ParsedStatement:
        """
        What the call changes if it succeeds, in the terms SQL is read in.

        Returns:
            A `ParsedStatement` whose parser is ``call``.
        """
        verb = _VERBS.get(self.effect or "", "")
        if self.table is None:
            return ParsedStatement(verb, (), (), "call")
        # The tools name tables as they are stored: compare them as quoted names.
        name = Name(self.table, True)
        changes = (StateChange(self.effect, self.object_type, name),) if self.effect else ()
        return ParsedStatement(
            verb, changes, (name,) if self.object_type == "table" else (), "call"
        )

    def to_dict(self) -> dict[str, Any]:
        """
        The call's shape as JSON-serialisable data.

        Returns:
            ``table``, ``effect``, ``filters`` (column and operator, an
            unknown operator as ``(operator)``),
            ``columns``, ``rows``, ``all_rows``, ``options``.
        """
        return {
            "table": self.table,
            "effect": self.effect,
            "filters": [
                {"column": c.column, "operator": c.shown_operator()}
                for c in (Condition(*f) for f in self.filters)
            ],
            "columns": list(self.columns),
            "rows": self.rows,
            "all_rows": self.all_rows,
            "options": list(self.options),
        }


def result_rows(result: object) -> int | None:
    """
    The row count a call's result reports.

    Args:
        result: A mapping with ``rowcount``, ``affectedRows``,
            ``insertedCount``... (a list there counts its items), an object
            with a ``rowcount`` (a cursor), or an int.

    Returns:
        The count, or ``None`` when the result says none.
    """
    value: object = None
    if isinstance(result, bool):
        return None
    if isinstance(result, int):
        value = result
    elif isinstance(result, Mapping):
        for key in _RESULT_ROW_KEYS:
            if key in result:
                value = result[key]
                break
    elif result is not None:
        value = getattr(result, "rowcount", None)
    if isinstance(value, list | tuple):
        value = len(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


# -- what the history keeps of any call ------------------------------------------


@dataclass(frozen=True, slots=True)
class KeptCall:
    """What the history takes from one call's arguments."""

    operation: str  # as shown
    parsed: ParsedStatement
    key: str  # tells this call from others, values included; never shown
    call: StructuredCall | None = None


def shorten(text: str, limit: int) -> str:
    """*text*, cut to *limit* characters with an ellipsis when it is longer."""
    return text if len(text) <= limit else text[: max(limit - 1, 1)].rstrip() + "…"


def _digest(*parts: str) -> str:
    # Keyed like a call's identity: equal statements meet, nothing is recoverable.
    text = "\x1f".join(parts).encode("utf-8", "replace")
    return hashlib.blake2b(text, key=_IDENTITY_KEY, digest_size=16).hexdigest()


def _param_values(params: object) -> list[object]:
    if isinstance(params, Mapping):
        return list(params.values())
    if isinstance(params, list | tuple):
        return list(params)
    return [] if params is None else [params]


def _conditions(value: object) -> tuple[Condition, ...] | None:
    """A list of filters (mappings with a ``column``, and an ``operator`` or a ``value``)."""
    if not isinstance(value, list | tuple) or not value:
        return None
    found = []
    for item in value[: 2 * _MAX_LISTED]:
        if not isinstance(item, Mapping) or not isinstance(item.get("column"), str):
            return None
        operator = item.get("operator", "=")
        if "operator" not in item and "value" not in item:
            return None  # an ordering term ({"column", "direction"}), not a condition
        found.append(Condition(item["column"], operator if isinstance(operator, str) else "?"))
    return tuple(found)


def _names(value: object) -> tuple[str, ...] | None:
    """A list of names (``columns``)."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return None
    return tuple(dict.fromkeys(value))


def argument_call(arguments: Mapping[Any, Any]) -> StructuredCall:
    """
    A tool's arguments as the call it was, no value kept.

    Read by the names the table tools use: ``table`` (a string) names the
    table, a list of filters (mappings with a ``column`` and an
    ``operator`` or a ``value``) gives the conditions, ``columns`` (a list
    of strings) the columns.  Every other argument is shown as
    ``name=?``; a key that is not a parameter's name (it may be data: an
    address, a card number) as ``?``.

    Args:
        arguments: The call's arguments.

    Returns:
        A `StructuredCall` with no effect (what another tool changes is not
        known), whose identity tells its values apart.
    """
    table: str | None = None
    filters: list[Condition] = []
    columns: tuple[str, ...] = ()
    shown: list[str] = []
    items = list(arguments.items())
    for key, value in items[: 2 * _MAX_LISTED]:
        name = key if isinstance(key, str) and _PARAMETER_NAME.fullmatch(key) else None
        if name == "table" and isinstance(value, str) and table is None:
            table = value
        elif name == "columns" and (listed := _names(value)) is not None:
            columns = listed
        elif name is not None and (conditions := _conditions(value)) is not None:
            filters += conditions
        else:
            shown.append(LITERAL if name is None else f"{name}={LITERAL}")
    if len(items) > 2 * _MAX_LISTED:
        shown.append(f"+{len(items) - 2 * _MAX_LISTED} more")
    return StructuredCall(
        table,
        None,
        tuple(filters),
        columns,
        options=tuple(dict.fromkeys(shown)),
        identity=call_identity(arguments),
    )


def read_arguments(tool: str, arguments: object, dialect: str | None) -> KeptCall:
    """
    What was called, as the history keeps it.

    Args:
        tool: The tool's name.
        arguments: A `StructuredCall`, a mapping (with the statement in
            ``sql``, ``query``... and its parameters in ``params``...), a bare
            statement, or anything else.
        dialect: The sqlglot dialect the statement is masked and read in;
            ``None`` when unknown.

    Returns:
        The shown operation, what it changes, and the key that tells it
        from other calls.

    Raises:
        ImportError: sqlglot is not installed (a statement cannot be read).
    """
    if isinstance(arguments, str):
        arguments = {"sql": arguments}  # a bare statement
    if arguments is None:
        return KeptCall("", ParsedStatement("", (), (), "none"), _digest("tool", tool))
    sql = None
    if isinstance(arguments, Mapping):
        sql = next((v for k in _SQL_KEYS if isinstance(v := arguments.get(k), str)), None)
    if sql is not None and isinstance(arguments, Mapping):
        params = next((arguments[k] for k in arguments if k in _PARAM_KEYS), None)
        # Mask first, then parse: no value reaches the parser, its cache or the summary.
        masked = mask_statement(
            sql, limit=PARSE_LIMIT, dialect=dialect, secrets=_param_values(params)
        )
        shown = shorten(_SPACE.sub(" ", masked[: 4 * STORED_OPERATION]).strip(), STORED_OPERATION)
        cut = len(sql) > PARSE_LIMIT
        # The same statement written otherwise ("drop table t;") is the same call.
        head = _SPACE.sub(" ", sql[:PARSE_LIMIT]).strip().rstrip(";").strip().casefold()
        # Values bound or beyond the parsed head tell calls apart too (bounded).
        rest = call_identity([len(sql), sql[-1024:], params]) if cut or params else ""
        key = _digest("sql", tool, head, rest)
        parsed = read_statement(compact_values(masked), dialect, cut=cut)
        return KeptCall(shown, parsed, key)
    if not isinstance(arguments, StructuredCall):
        # Any other tool: its arguments by name, or one value of unknown shape.
        arguments = (
            argument_call(arguments)
            if isinstance(arguments, Mapping)
            else StructuredCall(options=(LITERAL,), identity=call_identity(arguments))
        )
    shown = arguments.render(tool)
    return KeptCall(
        shorten(shown, STORED_OPERATION),
        arguments.statement(),
        _digest("call", tool, arguments.identity or shown),
        arguments,
    )
