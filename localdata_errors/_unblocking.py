"""
The execution history's unblocking rules: what must happen before a failed
call may succeed, and which later change makes it worth repeating.

Used by `localdata_errors.history`; the rules are documented in
docs/recovery.md ("Unblocking rules").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from localdata_errors._calls import one_line
from localdata_errors._kinds import Kind, ToolErrorType
from localdata_errors._names import unqualify
from localdata_errors._response import StructuredErrorResponse
from localdata_errors._statechange import Name, ParsedStatement, StateChange

__all__ = [
    "GONE",
    "Pending",
    "Reason",
    "Requirement",
    "reason",
    "requirements",
    "satisfies",
]

# Which changes take a dependency out of the way.
GONE: Final = frozenset({"dropped", "renamed"})
_ROWS_GONE: Final = frozenset({"deleted", "truncated"})
_GONE_VERBS: Final = frozenset({"DROP", "DELETE", "TRUNCATE", "ALTER"})
_ROWS_VERBS: Final = frozenset({"INSERT", "REPLACE", "MERGE", "UPSERT"})


class Reason:
    """Why a requirement is met, in the singular and the plural (one failure or several)."""

    __slots__ = ("plural", "singular")

    def __init__(self, singular: str, plural: str | None = None) -> None:
        # Built by concatenation, never str.format: the names in it are user text.
        self.singular = one_line(singular)
        self.plural = one_line(plural if plural is not None else singular)


@dataclass(slots=True)
class Requirement:
    """What must happen before a failed operation may succeed."""

    mode: str  # gone | rows | any | exists | absent
    names: tuple[Name, ...]  # any of these; empty: the error named nothing
    exclude: tuple[Name, ...]  # the failed operation's own tables
    reason: Reason | None = None  # set once satisfied
    # Whether removing the dependency's rows can help: not when the error said
    # an object (a foreign key, a view) depends on it, whatever its rows.
    rows_help: bool = True
    # Folded once (and again if the backend's dialect becomes known later).
    keys: frozenset[str] = frozenset()
    exclude_keys: frozenset[str] = frozenset()


@dataclass(slots=True)
class Pending:
    """A failure whose blockers the history watches."""

    key: str
    tool: str
    operation: str
    sequence: int
    verb: str
    targets: tuple[Name, ...]
    requirements: list[Requirement] = field(default_factory=list)
    target_keys: frozenset[str] = frozenset()
    unblocked: bool = False


def requirements(
    parsed: ParsedStatement, response: StructuredErrorResponse, key: Callable[[Name], str]
) -> list[Requirement]:
    """
    What must happen before a failed call may succeed, by its error; ``[]`` for none.

    Args:
        parsed: What the failed call would have changed, and the tables it names.
        response: Its error.
        key: How names compare (the backend's case folding).

    Returns:
        The requirements, one per dependency the error names (one with no
        names when it names none).
    """
    kind = response.kind
    own = tuple(c.name for c in parsed.changes) or parsed.tables[:1]
    stored = [Name(unqualify(n)[0], True) for n in response.dependencies if n]
    if kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST or (
        response.info.tool_error_type is ToolErrorType.FOREIGN_KEY_CONSTRAINT
    ):
        if kind is Kind.DEPENDENT_OBJECTS_STILL_EXIST or parsed.verb in _GONE_VERBS:
            mode = "gone"
        elif parsed.verb in _ROWS_VERBS:
            mode = "rows"
        else:
            mode = "any"  # UPDATE, or a call that names no change: parent or child side
        own_keys = {key(n) for n in own}
        deps = [n for n in stored if key(n) not in own_keys]
        rows_help = kind is not Kind.DEPENDENT_OBJECTS_STILL_EXIST
        if not deps:
            return [Requirement(mode, (), own, rows_help=rows_help)]
        return [Requirement(mode, (d,), own, rows_help=rows_help) for d in deps]
    if kind in {Kind.UNDEFINED_TABLE, Kind.DUPLICATE_TABLE}:
        named = [Name(unqualify(n)[0], True) for n in response.affected_resources if n]
        if kind is Kind.UNDEFINED_TABLE:
            names = tuple(named[:1]) or parsed.tables
            return [Requirement("exists", names, ())] if names else []
        names = tuple(named[:1]) or own
        return [Requirement("absent", names, ())] if names else []
    return []


def satisfies(
    req: Requirement,
    verb: str,
    change: StateChange,
    key: Callable[[Name], str],
    dialect: str | None,
) -> bool:
    """
    Whether *change* meets *req*, for a failed call of *verb*.

    Args:
        req: The requirement.
        verb: The failed call's verb (``DROP``, ``INSERT``...).
        change: A change a later success made.
        key: How names compare.
        dialect: The backend's sqlglot dialect (SQLite's DROP deletes rows first).

    Returns:
        Whether the failed call may now succeed as far as *req* goes.
    """
    action = change.action
    if req.mode in {"gone", "rows", "any"}:
        if change.object_type != "table":
            return action == "dropped" and change.object_type == "schema" and not req.names
        name_key = key(change.name)
        if req.keys:
            if name_key not in req.keys:
                return False
        elif name_key in req.exclude_keys:
            return False
        gone = (
            action in GONE
            or (action == "altered" and change.detail is not None)
            # SQLite's DROP TABLE deletes the rows first, so only referencing
            # rows block it; elsewhere the foreign key itself does.
            or (
                action in _ROWS_GONE
                and req.rows_help
                and (verb != "DROP" or dialect in {"sqlite", None})
            )
        )
        rows = action == "inserted" and change.rows != 0
        if req.mode == "gone":
            return gone and change.rows != 0
        if req.mode == "rows":
            return rows
        return gone or rows
    if req.mode == "exists":
        if action == "created":
            return key(change.name) in req.keys
        return (
            action == "renamed" and change.new_name is not None and key(change.new_name) in req.keys
        )
    if req.mode == "absent":
        return action in GONE and key(change.name) in req.keys
    return False


def reason(req: Requirement, change: StateChange) -> Reason:
    """Why *change* met *req*, as the summary says it."""
    name = change.name.name
    if req.mode == "exists":
        return Reason(f"table {change.new_name.name if change.new_name else name} now exists")
    if req.mode == "absent":
        return Reason(f"table {name} no longer exists")
    if not req.names:
        what = change.describe()
        return Reason(what + " since it failed", what + " since they failed")
    if change.action == "inserted":
        tail = " parent table " + name + " has new rows"
    elif change.action in GONE:
        tail = " dependency " + name + " no longer exists"
    elif change.action == "altered":
        return Reason(
            "a constraint on its dependency " + name + " was dropped",
            "a constraint on their dependency " + name + " was dropped",
        )
    else:
        return Reason(
            "rows were removed from its dependency " + name,
            "rows were removed from their dependency " + name,
        )
    return Reason("its" + tail, "their" + tail)
