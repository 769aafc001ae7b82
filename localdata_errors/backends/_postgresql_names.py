"""
The names a PostgreSQL error involves, and what must change first.

From the server's diagnostics first, the message second, including the
direction of a foreign key: the referenced table for a child row, the
referencing table for a parent that cannot be deleted, dropped or truncated.
"""

from __future__ import annotations

import re
from typing import Final

from localdata_errors._kinds import Kind
from localdata_errors._names import column_reference, split_qualified
from localdata_errors.backends._postgresql_server import Diagnostics

__all__ = ["Names", "extract_names", "text_names"]

# -- names -----------------------------------------------------------------------

_Q = r'"(?:[^"]|""){1,256}"'
_BARE = r"[^\W\d][\w$]{0,127}"
_NAME = rf"(?:{_Q}|{_BARE})(?:\.(?:{_Q}|{_BARE})){{0,2}}"


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern.replace("NAME", _NAME))


_QUOTED = re.compile(
    r'"[^"]{1,256}(?:""[^"]{0,256}){0,4}"(?:\.(?:"[^"]{1,256}"|[^\W\d][\w$]{0,127})){0,2}'
)
# The words before a quoted name that make it an object's name; a quoted value
# ("invalid input syntax for type integer: "a"") has none of them before it.
_NOUNS: Final = frozenset(
    {
        "relation",
        "table",
        "column",
        "function",
        "procedure",
        "index",
        "schema",
        "database",
        "view",
        "sequence",
        "type",
        "role",
        "constraint",
        "trigger",
        "extension",
        "tablespace",
        "savepoint",
        "cursor",
        "statement",
        "reference",
        "operator",
        "domain",
        "collation",
        "publication",
        "subscription",
        "server",
        "policy",
        "rule",
        "aggregate",
    }
)
# Names PostgreSQL prints bare at the start of a message: functions with their
# argument types, "column t.x", and the objects of privilege and DROP errors.
_LEAD_BARE = re.compile(
    r"(?:(?:permission denied for|must be owner of|cannot drop|cannot alter)"
    r" (?:materialized view|foreign table|table|view|schema|sequence|function|procedure"
    r"|database|index|type|large object)|function|procedure|column)"
    r" (?P<name>[^\W\d][\w$]{0,127}(?:\.[^\W\d][\w$]{0,127}){0,2})(?P<args>\()?"
)
_NOT_NAMES: Final = frozenset(
    {
        "does",
        "is",
        "of",
        "for",
        "on",
        "in",
        "with",
        "because",
        "cannot",
        "must",
        "already",
        "reference",
        "that",
        "by",
        "to",
        "and",
        "or",
        "not",
        "at",
        "as",
        "the",
        "a",
        "an",
        "name",
        "specified",
        "was",
        "has",
        "exists",
        "violates",
        "would",
    }
)
_COLUMN_KINDS: Final = frozenset(
    {
        Kind.UNDEFINED_COLUMN,
        Kind.NOT_NULL_VIOLATION,
        Kind.AMBIGUOUS_COLUMN,
        Kind.DUPLICATE_COLUMN,
        Kind.GROUPING_ERROR,
    }
)

_FK_PARENT = _re(
    r"^update or delete on table (?P<parent>NAME) violates foreign key constraint "
    r"(?P<c>NAME) on table (?P<child>NAME)"
)
_FK_CHILD = _re(
    r"^insert or update on table (?P<child>NAME) violates foreign key constraint "
    r"(?P<c>NAME)"
)
_FK_NOT_PRESENT = _re(r"is not present in table (?P<t>NAME)")
_FK_REFERENCED = _re(r"is still referenced from table (?P<t>NAME)")
_TRUNCATE = _re(r"Table (?P<child>NAME) references (?P<parent>NAME)\.")
_CANNOT_DROP = _re(
    r"^cannot drop (?:(?:materialized |foreign )?[a-z]{1,24}) (?P<name>NAME)"
    r"(?:\([^()]{0,256}\))? because other objects depend on it"
)
_ROLE_IN_USE = _re(r"^role (?P<name>NAME) cannot be dropped because some objects depend on it")
# One line of 2BP01's DETAIL: "constraint c on table sales depends on table customers",
# "view v depends on table customers", "owner of table t", "privileges for table t".
_DEPENDENT = _re(
    r"^(?:(?:owner of|privileges for|default value for column NAME of) )?"
    r"(?:materialized |foreign )?(?P<type>[a-z]{1,24}) (?P<name>NAME)"
    r"(?:\([^()]{0,256}\))?(?: on (?:table|view|materialized view) (?P<on>NAME))?"
    r"(?: depends on|$)"
)
_CONTEXT_FUNCTION = _re(r"(?:PL/pgSQL function|SQL function) (?P<name>NAME)(?:\(|\s|$)")
_CONTEXT_RELATION = _re(r"in relation (?P<name>NAME)")
_SCAN: Final = 2048


def _message_name(raw: str) -> tuple[str, str | None]:
    """
    ``(object, qualifier)`` of a name as a primary message prints it.

    PostgreSQL prints a qualified name the user typed inside one pair of
    quotes (``relation "public.Orders"``): its dots separate the parts.
    """
    if raw[0] == '"' and raw[-1] == '"' and '"."' not in raw:
        inner = raw[1:-1]
        if "." not in inner and '""' not in inner:
            return inner, None  # the common case: one plain name
        parts = [p for p in inner.replace('""', '"').split(".") if p]
    else:
        parts = split_qualified(raw)
    if not parts:
        return raw, None
    return parts[-1], (parts[-2] if len(parts) > 1 else None)


def _described_name(raw: str) -> tuple[str, str | None]:
    """``(object, qualifier)`` of a name as an object description prints it (quoted parts)."""
    parts = split_qualified(raw)
    if not parts:
        return raw, None
    return parts[-1], (parts[-2] if len(parts) > 1 else None)


class Names:
    """
    Names read from one error.

    Args:
        constraint: The constraint's name, when already known.
        schema: The schema, when already known.

    Attributes:
        resources: Affected objects, in order.
        dependencies: What must change first.
    """

    __slots__ = ("constraint", "dependencies", "resources", "schema")

    def __init__(self, constraint: str | None = None, schema: str | None = None) -> None:
        self.resources: list[str] = []
        self.dependencies: list[str] = []
        self.constraint = constraint
        self.schema = schema

    def add(
        self, raw: str | None, *, described: bool = False, dependency: bool = False
    ) -> str | None:
        """Add a possibly qualified name; returns the bare object name."""
        if not raw:
            return None
        obj, qualifier = (_described_name if described else _message_name)(raw)
        if qualifier is not None and self.schema is None and not dependency:
            self.schema = qualifier
        (self.dependencies if dependency else self.resources).append(obj)
        return obj


def _foreign_key(names: Names, diag: Diagnostics) -> None:
    parent = _FK_PARENT.match(diag.primary)
    if parent is not None:
        # A parent row that rows of another table still reference.
        names.add(parent.group("parent"))
        names.add(parent.group("child"), dependency=True)
        names.constraint = names.constraint or _message_name(parent.group("c"))[0]
    else:
        child = _FK_CHILD.match(diag.primary)
        if child is not None:
            names.add(child.group("child"))
            names.constraint = names.constraint or _message_name(child.group("c"))[0]
        elif diag.table is not None:
            names.add(diag.table)
    detail = diag.detail or ""
    present = _FK_NOT_PRESENT.search(detail, 0, _SCAN)
    if present is not None:
        names.add(present.group("t"), dependency=True)
    referenced = _FK_REFERENCED.search(detail, 0, _SCAN)
    if referenced is not None:
        names.add(referenced.group("t"), dependency=True)
    if names.constraint:
        names.resources.append(names.constraint)


def _dependents(names: Names, diag: Diagnostics) -> None:
    detail = diag.detail or ""
    truncate = _TRUNCATE.search(detail, 0, _SCAN)
    if truncate is not None:
        names.add(truncate.group("parent"))
        names.add(truncate.group("child"), dependency=True)
        return
    drop = _CANNOT_DROP.match(diag.primary) or _ROLE_IN_USE.match(diag.primary)
    if drop is not None:
        names.add(drop.group("name"), described=drop.re is _CANNOT_DROP)
    for line in detail[:_SCAN].split("\n")[:32]:
        match = _DEPENDENT.match(line.strip())
        if match is None:
            continue
        on = match.group("on")
        if match.group("type") == "constraint" and names.constraint is None:
            names.constraint = _described_name(match.group("name"))[0]
        names.add(on or match.group("name"), described=True, dependency=True)


def _quoted_names(primary: str) -> list[tuple[str, str]]:
    """(noun, quoted name) for each quoted name an object noun introduces."""
    found: list[tuple[str, str]] = []
    pos = primary.find('"')
    while pos > 0 and len(found) < 8:
        match = _QUOTED.match(primary, pos)
        if match is None:
            break
        noun = primary[max(0, pos - 24) : pos].rstrip().rpartition(" ")[2]
        if noun in _NOUNS:
            found.append((noun, match.group()))
        pos = primary.find('"', match.end())
    return found


def _from_message(names: Names, diag: Diagnostics, kind: Kind) -> None:
    primary = diag.primary
    lead = _LEAD_BARE.match(primary)
    if lead is not None and lead.group("name").lower() not in _NOT_NAMES:
        raw = lead.group("name")
        if primary.startswith("column ") and "." in raw and lead.group("args") is None:
            # "column c.x does not exist": c is a table or an alias (PostgreSQL
            # prints the one the statement used, without its schema).
            column, table, schema = column_reference(raw.split("."))
            names.resources.append(column)
            if table is not None:
                names.resources.append(table)
                names.schema = names.schema or schema
        else:
            names.add(raw, described=True)
    for noun, raw in _quoted_names(primary):
        if noun == "constraint":
            names.constraint = names.constraint or _message_name(raw)[0]
        else:
            names.add(raw)
    if kind in _COLUMN_KINDS and diag.column is not None:
        names.resources.insert(0, diag.column)
    if diag.table is not None:
        names.resources.append(diag.table)
    if diag.column is not None and kind not in _COLUMN_KINDS:
        names.resources.append(diag.column)
    if diag.datatype is not None:  # a domain's check or not-null constraint
        names.resources.append(diag.datatype)
    if names.constraint is None:
        names.constraint = diag.constraint
    if names.constraint:
        names.resources.append(names.constraint)


def _from_context(names: Names, context: str | None) -> None:
    if not context:
        return
    for match in _CONTEXT_FUNCTION.finditer(context, 0, _SCAN):
        names.add(match.group("name"))
    for match in _CONTEXT_RELATION.finditer(context, 0, _SCAN):
        names.add(match.group("name"))


def extract_names(kind: Kind, diag: Diagnostics) -> Names:
    """
    Name the objects an error involves, and what must change first.

    Args:
        kind: The error's kind (decides how a foreign key is read).
        diag: The server's diagnostics and the primary message.

    Returns:
        The names, unqualified and unquoted, case kept.
    """
    names = Names(constraint=diag.constraint, schema=diag.schema)
    if kind is Kind.FOREIGN_KEY_VIOLATION:
        _foreign_key(names, diag)
    elif kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST:
        _dependents(names, diag)
    else:
        _from_message(names, diag, kind)
    _from_context(names, diag.context)
    return names


def text_names(diag: Diagnostics) -> Names:
    """
    Names of a message without a SQLSTATE: only a foreign key's, whose direction its words say.

    The server's 23503 text alone (psql's ``ERROR:  insert or update on table
    ...``, a log line): the keyword fallback names the kind, and the table
    on the other side of the key is read here, as for 23503.  Other texts
    without a SQLSTATE (a refused connection) name nothing.
    """
    primary = diag.primary.removeprefix("ERROR:  ")
    if _FK_CHILD.match(primary) is None and _FK_PARENT.match(primary) is None:
        return Names()
    return extract_names(Kind.FOREIGN_KEY_VIOLATION, diag._replace(primary=primary))
