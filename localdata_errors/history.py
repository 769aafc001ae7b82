"""
Recovery across steps: a short, bounded history of tool executions that shows
an agent what changed and which failed operations may now succeed.

A structured error helps with one failure; most recoveries span several calls.
``DROP TABLE customers`` fails (``sales`` references it), ``DROP TABLE sales``
succeeds, and an agent should now see that ``customers`` can be dropped:

.. code-block:: python

    from localdata_errors.history import ExecutionHistory

    history = ExecutionHistory(max_entries=5)
    history.record("execute_sql", {"sql": "DROP TABLE customers"}, error=exc)
    history.record("execute_sql", {"sql": "DROP TABLE sales"}, result={"rowcount": 0})
    prompt_block = history.summary()
    history.reset()  # a new user request starts fresh

The history decides nothing and retries nothing; it only shows.  It is not
imported by ``import localdata_errors``; sqlglot (the ``history`` extra) is
used when installed, and imported on first use.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from localdata_errors._statechange import (
    Name,
    ParsedStatement,
    Parser,
    StateChange,
    fold_name,
    parse_statement,
    sql_dialect,
)
from localdata_errors.classify import classify_error
from localdata_errors.kinds import Kind, ToolErrorType
from localdata_errors.names import unqualify
from localdata_errors.redact import MASK, redact
from localdata_errors.response import StructuredErrorResponse

__all__ = ["DEFAULT_MAX_CHARS", "ExecutionHistory", "HistoryEntry", "StateChange"]

#: The summary's size budget for the default five entries.
DEFAULT_MAX_CHARS: Final = 1200

_OPEN: Final = "<TOOL_EXECUTION_SUMMARY>"
_CLOSE: Final = "</TOOL_EXECUTION_SUMMARY>"
_SQL_KEYS: Final = ("sql", "query", "statement", "sql_query", "command")
_PARAM_KEYS: Final = frozenset(
    {"params", "parameters", "args", "bindings", "values", "bind", "binds"}
)
_SECRET_KEY: Final = re.compile(
    r"pass|pwd|secret|token|key|credential|auth|dsn|conn", re.IGNORECASE
)
# Literals a statement gives as credentials: PASSWORD 'x', IDENTIFIED BY 'x'.
_SQL_SECRET: Final = re.compile(
    r"((?:PASSWORD|IDENTIFIED\s{1,16}BY)\s{0,16}(?:=\s{0,16})?)('[^'\n]{0,512}'|\"[^\"\n]{0,512}\"|\S{1,512})",
    re.IGNORECASE,
)
_SPACE: Final = re.compile(r"\s+")
_STORED_SQL: Final = 240
_SQL_LIMITS: Final = (96, 64, 40, 24)
_MAX_CHANGES: Final = 8  # state changes listed in the summary
_MAX_UNBLOCKED: Final = 6  # operations listed as possibly unblocked
_RESULT_ROW_KEYS: Final = (
    "rowcount",
    "affectedRows",
    "affected_rows",
    "rows_affected",
    "inserted",
    "changes",
    "row_count",
)

# Which changes take a dependency out of the way.
_GONE: Final = frozenset({"dropped", "renamed"})
_ROWS_GONE: Final = frozenset({"deleted", "truncated"})
_GONE_VERBS: Final = frozenset({"DROP", "DELETE", "TRUNCATE", "ALTER"})
_ROWS_VERBS: Final = frozenset({"INSERT", "REPLACE", "MERGE", "UPSERT"})


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """
    One recorded tool execution.

    Args:
        sequence: Its position in the history (1, 2, ...).
        tool: The tool's name.
        operation: The statement (shortened, parameters and credentials
            masked) or, for a tool without SQL, its arguments in short form.
        success: Whether it succeeded.
        kind: The error's :class:`~localdata_errors.Kind` value.
        error_type: The error's tool-shape type (``foreign_key_constraint``...).
        is_retryable: Whether the error said a retry may succeed.
        error_code: The backend's native code.
        affected_resources: The error's affected resources.
        dependencies: The error's dependencies.
        state_changes: What the success changed.
    """

    sequence: int
    tool: str
    operation: str
    success: bool
    kind: str | None = None
    error_type: str | None = None
    is_retryable: bool | None = None
    error_code: str | None = None
    affected_resources: tuple[str, ...] = ()
    dependencies: tuple[str, ...] = ()
    state_changes: tuple[StateChange, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """
        Render the entry as JSON-serialisable data.

        Returns:
            A dict; error fields are present only for failures.
        """
        out: dict[str, Any] = {
            "sequence": self.sequence,
            "tool": self.tool,
            "operation": self.operation,
            "outcome": "success" if self.success else "failed",
        }
        if self.success:
            out["state_changes"] = [_change_dict(c) for c in self.state_changes]
        else:
            out.update(
                kind=self.kind,
                error_type=self.error_type,
                is_retryable=self.is_retryable,
                error_code=self.error_code,
                affected_resources=list(self.affected_resources),
                dependencies=list(self.dependencies),
            )
        return out

    def detail(self) -> str:
        """
        The parenthesised detail of the summary line.

        Returns:
            ``table sales dropped`` or ``foreign_key_constraint: depends on sales``;
            ``""`` for a success that changed nothing.
        """
        if self.success:
            parts = [c.describe() for c in self.state_changes[:3]]
            if len(self.state_changes) > 3:
                parts.append(f"+{len(self.state_changes) - 3} more")
            return ", ".join(parts)
        label = self.error_type if self.error_type and self.error_type != "unknown" else self.kind
        text = label or "error"
        if self.dependencies:
            text += ": depends on " + ", ".join(self.dependencies[:3])
        elif self.affected_resources:
            text += ": " + ", ".join(self.affected_resources[:3])
        if self.is_retryable:
            text += ", retryable"
        return text


def _change_dict(change: StateChange) -> dict[str, Any]:
    return {
        "action": change.action,
        "object_type": change.object_type,
        "name": change.name.name,
        "new_name": change.new_name.name if change.new_name else None,
        "rows": change.rows,
        "detail": change.detail,
        "description": change.describe(),
    }


@dataclass(slots=True)
class _Requirement:
    """What must happen before a failed operation may succeed."""

    mode: str  # gone | rows | any | exists | absent
    names: tuple[Name, ...]  # any of these; empty: the error named nothing
    exclude: tuple[Name, ...]  # the failed operation's own tables
    reason: str | None = None  # set once satisfied
    # Folded once (and again if the backend's dialect becomes known later).
    keys: frozenset[str] = frozenset()
    exclude_keys: frozenset[str] = frozenset()


@dataclass(slots=True)
class _Pending:
    """A failure whose blockers the history watches."""

    key: int
    tool: str
    operation: str
    sequence: int
    verb: str
    targets: tuple[Name, ...]
    requirements: list[_Requirement] = field(default_factory=list)
    target_keys: frozenset[str] = frozenset()
    unblocked: bool = False


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 1)].rstrip() + "…"


def _result_rows(result: object) -> int | None:
    """The row count a result reports (``rowcount``, ``affectedRows``, ``inserted``...)."""
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


def _mask_sql(sql: str, params: object) -> str:
    secrets: list[object] = []
    if isinstance(params, Mapping):
        secrets = list(params.values())
    elif isinstance(params, list | tuple):
        secrets = list(params)
    elif params is not None:
        secrets = [params]
    text = redact(
        sql, [s for s in secrets if isinstance(s, str | int | float) and not isinstance(s, bool)]
    )
    if "ass" in text or "ASS" in text or "dentified" in text.lower():
        text = _SQL_SECRET.sub(r"\1" + MASK, text)
    return text


def _short_arguments(arguments: Mapping[str, Any] | str | None) -> tuple[str | None, str]:
    """The statement (unmasked, for parsing) and the short, masked form to keep."""
    if isinstance(arguments, str):
        arguments = {"sql": arguments}  # a bare statement
    if not isinstance(arguments, Mapping) or not arguments:
        return None, ""
    sql: str | None = None
    for key in _SQL_KEYS:
        value = arguments.get(key)
        if isinstance(value, str):
            sql = value
            break
    params = next((arguments[k] for k in arguments if k in _PARAM_KEYS), None)
    if sql is not None:
        shown = _SPACE.sub(" ", _mask_sql(sql[:4096], params)).strip()
        return sql, _short(shown, _STORED_SQL)
    parts = []
    for key, value in list(arguments.items())[:6]:
        if _SECRET_KEY.search(str(key)):
            parts.append(f"{key}={MASK}")
        elif key in _PARAM_KEYS:
            parts.append(f"{key}=[masked]")
        else:
            parts.append(f"{key}={_short(redact(str(value)), 40)}")
    return None, _short(_SPACE.sub(" ", ", ".join(parts)), _STORED_SQL)


def _compose(
    rows: list[tuple[str, str, str, str]],
    changes: list[str],
    groups: list[tuple[str, list[str]]],
    limit: int,
    omitted: int,
) -> str:
    """Render the block with statements shortened to *limit* characters."""
    lines = [_OPEN, "Recent tool executions:"]
    for tool, operation, outcome, detail in rows:
        tail = f" ({_short(detail, limit + 40)})" if detail else ""
        lines.append(f"- {tool}: {_short(operation, limit)} → {outcome}{tail}")
    if omitted:
        lines.append(f"- ({omitted} older execution{'s' if omitted > 1 else ''} omitted)")
    if changes:
        lines.append(f"State changes: {_short(', '.join(changes), 4 * limit)}.")
    if groups:
        parts = []
        count = 0
        for reason, operations in groups:
            count += len(operations)
            shown = ", ".join(_short(op, limit) for op in operations)
            parts.append(f"{shown} ({reason})" if reason else shown)
        verb = "them" if count > 1 else "it"
        lines.append(f"Possibly unblocked: {'; '.join(parts)} — retry {verb}.")
    lines.append(_CLOSE)
    return "\n".join(lines)


class ExecutionHistory:
    """
    A bounded, thread-safe record of recent tool executions and what they changed.

    Args:
        max_entries: How many executions :meth:`summary` shows (newest first).
        max_chars: The summary's hard size budget; by default 1,200
            characters for five entries, scaled with *max_entries*.
        max_pending: How many failed operations are watched for something
            that unblocks them, including failures older than the
            *max_entries* window (the oldest is forgotten first).
        db_type: The backend, for SQL dialect and name case folding; when
            omitted, taken from each call's *db_type*, else from the backend
            that classified an error.
        parser: ``"auto"`` (default), ``"sqlglot"`` or ``"regex"``; see
            :func:`~localdata_errors._statechange.parse_statement`.

    .. versionadded:: 0.1.0
    """

    def __init__(
        self,
        max_entries: int = 5,
        *,
        max_chars: int | None = None,
        max_pending: int = 20,
        db_type: str | None = None,
        parser: Parser = "auto",
    ) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self.max_entries = max_entries
        self.max_chars = (
            max_chars if max_chars is not None else max(DEFAULT_MAX_CHARS * max_entries // 5, 400)
        )
        self.max_pending = max(max_pending, 1)
        self.db_type = db_type
        self.parser: Parser = parser
        self._lock = threading.Lock()
        self._entries: deque[HistoryEntry] = deque(maxlen=max_entries)
        # What each entry contributes to the summary, rendered once when recorded.
        self._rows: deque[tuple[tuple[str, str, str, str], tuple[str, ...]]] = deque(
            maxlen=max_entries
        )
        self._pending: OrderedDict[int, _Pending] = OrderedDict()
        self._sequence = 0
        self._dialect: str | None = sql_dialect(db_type)
        self._cached: str | None = None

    # -- recording -------------------------------------------------------------

    def record(
        self,
        tool: str,
        arguments: Mapping[str, Any] | str | None = None,
        *,
        result: object = None,
        error: BaseException | StructuredErrorResponse | None = None,
        db_type: str | None = None,
    ) -> HistoryEntry:
        """
        Record one tool execution.

        Args:
            tool: The tool's name (``execute_sql``).
            arguments: Its arguments (or a bare statement); the statement is read from ``sql``,
                ``query`` or ``statement``, bound values from ``params`` /
                ``parameters`` (masked wherever they appear).  Credentials
                are never kept.
            result: The success's result, for row counts: a dict with
                ``rowcount`` / ``affectedRows`` / ``inserted``, a cursor, an int.
            error: The failure: an exception (classified with
                :func:`~localdata_errors.classify_error`) or an already
                classified :class:`~localdata_errors.StructuredErrorResponse`.
                ``None`` means success.
            db_type: The backend, for classification and the SQL dialect.

        Returns:
            The recorded :class:`HistoryEntry`.
        """
        tool = tool if isinstance(tool, str) else str(tool)
        sql, operation = _short_arguments(arguments)
        dialect_hint = db_type or self.db_type
        response: StructuredErrorResponse | None = None
        if isinstance(error, StructuredErrorResponse):
            response = error
        elif error is not None:
            response = classify_error(error, dialect_hint)
        if dialect_hint is None and response is not None and response.backend != "generic":
            dialect_hint = response.backend
        parsed = (
            parse_statement(sql, dialect_hint, self.parser)
            if sql is not None
            else ParsedStatement("", (), (), "none")
        )
        key = hash(
            (tool, _SPACE.sub(" ", (sql or operation).strip().rstrip(";").strip()).casefold())
        )
        with self._lock:
            dialect = sql_dialect(dialect_hint)
            if dialect is not None and dialect != self._dialect:
                self._dialect = dialect
                for pending in self._pending.values():
                    self._fold(pending)
            self._sequence += 1
            self._cached = None
            if response is None:
                entry = HistoryEntry(
                    self._sequence,
                    tool,
                    operation or tool,
                    True,
                    state_changes=self._with_rows(parsed.changes, result),
                )
                self._apply_success(key, parsed, entry.state_changes)
            else:
                entry = HistoryEntry(
                    self._sequence,
                    tool,
                    operation or tool,
                    False,
                    kind=response.kind.value,
                    error_type=response.info.tool_error_type.value,
                    is_retryable=response.is_retryable,
                    error_code=response.database_error_code,
                    affected_resources=response.affected_resources,
                    dependencies=response.dependencies,
                )
                self._apply_failure(key, tool, entry, parsed, response)
            self._entries.append(entry)
            self._rows.append(
                (
                    (
                        entry.tool,
                        entry.operation,
                        "SUCCESS" if entry.success else "FAILED",
                        entry.detail(),
                    ),
                    tuple(c.describe() for c in entry.state_changes),
                )
            )
            return entry

    @staticmethod
    def _with_rows(changes: tuple[StateChange, ...], result: object) -> tuple[StateChange, ...]:
        rows = _result_rows(result)
        row_changes = [c for c in changes if c.action in {"inserted", "updated", "deleted"}]
        if rows is None or len(row_changes) != 1:
            return changes
        return tuple(c._replace(rows=rows) if c is row_changes[0] else c for c in changes)

    def reset(self) -> None:
        """Forget everything: a new user request starts fresh."""
        with self._lock:
            self._entries.clear()
            self._rows.clear()
            self._pending.clear()
            self._sequence = 0
            self._cached = None

    # -- unblocking ------------------------------------------------------------

    def _key(self, name: Name) -> str:
        return fold_name(name.name, name.quoted, self._dialect)

    def _fold(self, pending: _Pending) -> None:
        pending.target_keys = frozenset(self._key(t) for t in pending.targets)
        for req in pending.requirements:
            req.keys = frozenset(self._key(n) for n in req.names)
            req.exclude_keys = frozenset(self._key(n) for n in req.exclude)

    def _apply_failure(
        self,
        key: int,
        tool: str,
        entry: HistoryEntry,
        parsed: ParsedStatement,
        response: StructuredErrorResponse,
    ) -> None:
        self._pending.pop(key, None)
        requirements = self._requirements(parsed, response)
        if not requirements:
            return
        targets = tuple(c.name for c in parsed.changes) or parsed.tables[:1]
        pending = _Pending(
            key, tool, entry.operation, entry.sequence, parsed.verb, targets, requirements
        )
        self._fold(pending)
        self._pending[key] = pending
        while len(self._pending) > self.max_pending:
            self._pending.popitem(last=False)

    def _requirements(
        self, parsed: ParsedStatement, response: StructuredErrorResponse
    ) -> list[_Requirement]:
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
                mode = "any"  # UPDATE, or a tool without SQL: parent or child side
            own_keys = {self._key(n) for n in own}
            deps = [n for n in stored if self._key(n) not in own_keys]
            if not deps:
                return [_Requirement(mode, (), own)]
            return [_Requirement(mode, (d,), own) for d in deps]
        if kind in {Kind.UNDEFINED_TABLE, Kind.DUPLICATE_TABLE}:
            named = [Name(unqualify(n)[0], True) for n in response.affected_resources if n]
            if kind is Kind.UNDEFINED_TABLE:
                names = tuple(named[:1]) or parsed.tables
                return [_Requirement("exists", names, ())] if names else []
            names = tuple(named[:1]) or own
            return [_Requirement("absent", names, ())] if names else []
        return []

    def _satisfies(self, req: _Requirement, verb: str, change: StateChange) -> bool:
        action = change.action
        if req.mode in {"gone", "rows", "any"}:
            if change.object_type != "table":
                return action == "dropped" and change.object_type == "schema" and not req.names
            name_key = self._key(change.name)
            if req.keys:
                if name_key not in req.keys:
                    return False
            elif name_key in req.exclude_keys:
                return False
            gone = (
                action in _GONE
                or (action == "altered" and change.detail is not None)
                # SQLite's DROP TABLE deletes the rows first, so only referencing
                # rows block it; elsewhere the foreign key itself does.
                or (action in _ROWS_GONE and (verb != "DROP" or self._dialect in {"sqlite", None}))
            )
            rows = action == "inserted" and change.rows != 0
            if req.mode == "gone":
                return gone and change.rows != 0
            if req.mode == "rows":
                return rows
            return gone or rows
        if req.mode == "exists":
            if action == "created":
                return self._key(change.name) in req.keys
            return (
                action == "renamed"
                and change.new_name is not None
                and self._key(change.new_name) in req.keys
            )
        if req.mode == "absent":
            return action in _GONE and self._key(change.name) in req.keys
        return False

    @staticmethod
    def _reason(req: _Requirement, change: StateChange) -> str:
        name = change.name.name
        if req.mode == "exists":
            return f"table {change.new_name.name if change.new_name else name} now exists"
        if req.mode == "absent":
            return f"table {name} no longer exists"
        if not req.names:
            return f"{change.describe()} since {{pron}} failed"
        if change.action == "inserted":
            return f"{{poss}} parent table {name} has new rows"
        if change.action in _GONE:
            return f"{{poss}} dependency {name} no longer exists"
        if change.action == "altered":
            return f"a constraint on {{poss}} dependency {name} was dropped"
        return f"rows were removed from {{poss}} dependency {name}"

    def _apply_success(
        self, key: int, parsed: ParsedStatement, changes: tuple[StateChange, ...]
    ) -> None:
        self._pending.pop(key, None)  # the retried operation succeeded
        if not changes:
            return
        dropped = {self._key(c.name) for c in changes if c.action in _GONE}
        for pending_key, pending in list(self._pending.items()):
            if pending.verb == "DROP" and pending.target_keys and pending.target_keys <= dropped:
                del self._pending[pending_key]  # what it meant to drop is gone
                continue
            if pending.unblocked:
                continue
            for req in pending.requirements:
                if req.reason is not None:
                    continue
                for change in changes:
                    if self._satisfies(req, pending.verb, change):
                        req.reason = self._reason(req, change)
                        break
            pending.unblocked = all(r.reason is not None for r in pending.requirements)

    # -- rendering -------------------------------------------------------------

    def summary(self) -> str:
        """
        Render the ``<TOOL_EXECUTION_SUMMARY>`` block for a prompt.

        Returns:
            The block (newest execution first, within :attr:`max_chars`), or
            ``""`` when nothing has been recorded.
        """
        with self._lock:
            if self._cached is None:
                self._cached = self._render()
            return self._cached

    def _unblocked(self) -> list[_Pending]:
        # Insertion order is failure order: a failure that repeats is re-inserted.
        return [p for p in self._pending.values() if p.unblocked]

    def _render(self) -> str:
        if not self._entries:
            return ""
        # The parts are worked out once; only their shortening varies below.
        rows = [row for row, _ in reversed(self._rows)]
        changes = [c for _, described in self._rows for c in described]
        if len(changes) > _MAX_CHANGES:
            changes = [*changes[:_MAX_CHANGES], f"+{len(changes) - _MAX_CHANGES} more"]
        groups = self._unblocked_groups()
        budget = self.max_chars
        text = ""
        for limit in _SQL_LIMITS:
            text = _compose(rows, changes, groups, limit, 0)
            if len(text) <= budget:
                return text
        for omitted in range(1, len(rows)):
            text = _compose(rows[:-omitted], changes, groups, _SQL_LIMITS[-1], omitted)
            if len(text) <= budget:
                return text
        # Still too long (a tiny budget, or very many names): cut, keep the tags.
        room = max(budget - len(_CLOSE) - 1, len(_OPEN) + 2)
        return _short(text[: -len(_CLOSE) - 1], room) + "\n" + _CLOSE

    def _unblocked_groups(self) -> list[tuple[str, list[str]]]:
        """(reason, operations) pairs, oldest failure first; at most a few operations."""
        unblocked = self._unblocked()
        groups: dict[str, list[str]] = {}
        for pending in unblocked[:_MAX_UNBLOCKED]:
            reasons = [r.reason for r in pending.requirements if r.reason]
            groups.setdefault("; ".join(dict.fromkeys(reasons)), []).append(pending.operation)
        out = []
        for reason, operations in groups.items():
            many = len(operations) > 1
            out.append(
                (
                    reason.format(poss="their" if many else "its", pron="they" if many else "it"),
                    operations,
                )
            )
        if len(unblocked) > _MAX_UNBLOCKED:
            out.append(("", [f"+{len(unblocked) - _MAX_UNBLOCKED} more"]))
        return out

    def to_dict(self) -> dict[str, Any]:
        """
        The history as data, for programs.

        Returns:
            ``entries`` (newest first), ``state_changes`` (oldest first, of the
            shown entries), ``possibly_unblocked`` and ``pending`` (failures
            still watched), all JSON-serialisable.
        """
        with self._lock:
            unblocked = self._unblocked()
            return {
                "entries": [e.to_dict() for e in reversed(self._entries)],
                "state_changes": [c.describe() for e in self._entries for c in e.state_changes],
                "possibly_unblocked": [
                    {
                        "tool": p.tool,
                        "operation": p.operation,
                        "failed_at": p.sequence,
                        "reasons": [
                            (r.reason or "").format(poss="its", pron="it") for r in p.requirements
                        ],
                    }
                    for p in unblocked
                ],
                "pending": [
                    {"tool": p.tool, "operation": p.operation, "failed_at": p.sequence}
                    for p in self._pending.values()
                    if not p.unblocked
                ],
            }

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
