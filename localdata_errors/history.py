"""
Recovery across steps: a short, bounded history of tool executions that shows
an agent what changed and which failed calls may now succeed.

A structured error helps with one failure; most recoveries span several calls.
``DROP TABLE customers`` fails (``sales`` references it), ``DROP TABLE sales``
succeeds, and an agent should now see that ``customers`` can be dropped:

```python
from localdata_errors.history import ExecutionHistory, StructuredCall

history = ExecutionHistory(max_entries=5)
history.record("execute_sql", {"sql": "DROP TABLE customers"}, error=exc)
history.record(
    "delete_rows",
    StructuredCall("sales", "dropped", options=("mode drop_table",)),
    result={"dropped": True},
)
prompt_block = history.summary()
history.reset()  # a new user request starts fresh
```

The history records what was called: a statement an agent sent, with its
values masked, or a structured call (`StructuredCall`) as the call it was,
never as SQL made up to describe it, and never with its values.  It decides
nothing and retries nothing; it only shows.  It is not imported by ``import
localdata_errors``.  sqlglot (the ``history`` extra) masks and reads the
statements: it is required, and imported when a history is created.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from localdata_errors import _sqlglot
from localdata_errors._backends import sqlglot_dialect
from localdata_errors._calls import (
    STORED_OPERATION,
    Condition,
    Effect,
    StructuredCall,
    call_identity,
    one_line,
    read_arguments,
    result_rows,
    shorten,
)
from localdata_errors._classify import classify_error
from localdata_errors._names import unqualify
from localdata_errors._response import StructuredErrorResponse
from localdata_errors._statechange import (
    Name,
    ParsedStatement,
    StateChange,
    fold_name,
)
from localdata_errors._unblocking import (
    GONE,
    Pending,
    Reason,
    reason,
    requirements,
    satisfies,
)

__all__ = [
    "DEFAULT_MAX_CHARS",
    "Condition",
    "Effect",
    "ExecutionHistory",
    "HistoryEntry",
    "StateChange",
    "StructuredCall",
    "call_identity",
]

#: The summary's size budget for the default five entries.
DEFAULT_MAX_CHARS: Final = 1200

_OPEN: Final = "<TOOL_EXECUTION_SUMMARY>"
_CLOSE: Final = "</TOOL_EXECUTION_SUMMARY>"
# Operations are shown whole when the budget allows, else shortened step by step.
_SQL_LIMITS: Final = (STORED_OPERATION, 96, 64, 40, 24)
_MAX_CHANGES: Final = 8  # state changes listed in the summary
_MAX_UNBLOCKED: Final = 6  # operations listed as possibly unblocked
# What to do about a call that keeps failing unchanged, by the error's next step.
_LOOP_ADVICE: Final = {
    "fix_query": "change it before sending it again",
    "stop": "stop and tell the user; no change of the call can fix it",
    "retry": "the code retries it after a back-off; if it keeps failing, tell the user",
    "reconnect": "reconnect first, and check whether it already took effect before resending",
    "rollback": "roll back first, then fix the statement that failed first",
}
_MAX_REPEATS: Final = 3  # repeated calls named in the summary
_NO_SQLGLOT: Final = (
    "ExecutionHistory reads SQL with sqlglot, which is not installed: "
    "pip install 'localdata-errors[history]'"
)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """
    One recorded tool execution.

    Args:
        sequence: Its position in the history (1, 2, ...).
        tool: The tool's name.
        operation: What was called, as the summary shows it: the statement
            (values, parameters and credentials masked, shortened) or the
            rendered call (``delete_rows(customers, where id = ?)``,
            ``lookup_customer(card=?)``), never a value.
        success: Whether it succeeded.
        kind: The error's `Kind` value.
        error_type: The error's tool-shape type (``foreign_key_constraint``...).
        is_retryable: Whether the error said a retry may succeed.
        error_code: The backend's native code.
        affected_resources: The error's affected resources.
        dependencies: The error's dependencies.
        state_changes: What the success changed.
        call: The call's shape, for a call recorded with structured
            arguments (a `StructuredCall`, or a mapping read as one).
        action: The error's next step (``fix_query``, ``retry``, ``stop``...).
        repeats: How many times this same call, unchanged (values included),
            had already failed before this one, since it last succeeded.
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
    call: StructuredCall | None = None
    action: str | None = None
    repeats: int = 0

    def to_dict(self) -> dict[str, Any]:
        """
        Render the entry as JSON-serialisable data.

        Returns:
            A dict; error fields are present only for failures, ``call`` only
            for a structured call.
        """
        out: dict[str, Any] = {
            "sequence": self.sequence,
            "tool": self.tool,
            "operation": self.operation,
            "outcome": "success" if self.success else "failed",
        }
        if self.call is not None:
            out["call"] = self.call.to_dict()
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
                action=self.action,
                repeats=self.repeats,
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
            return one_line(", ".join(parts))
        label = self.error_type if self.error_type and self.error_type != "unknown" else self.kind
        text = label or "error"
        if self.dependencies:
            text += ": depends on " + ", ".join(self.dependencies[:3])
        elif self.affected_resources:
            text += ": " + ", ".join(self.affected_resources[:3])
        if self.is_retryable:
            text += ", retryable"
        return one_line(text)


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
class _Repeat:
    """A call that failed, and how often it failed unchanged since it last succeeded."""

    tool: str
    operation: str
    failures: int
    sequence: int  # of its latest failure
    kind: str
    action: str


@dataclass(slots=True)
class _Shown:
    """An entry among the shown ones, with what the summary and the relevance rule read."""

    entry: HistoryEntry
    row: tuple[str, str, str, str]  # prefix, operation, outcome, detail
    changes: tuple[str, ...]  # its state changes, described
    key: str  # the call's identity
    names: tuple[Name, ...]  # what it names: see ExecutionHistory.summary_for


def _named(parsed: ParsedStatement, response: StructuredErrorResponse | None) -> tuple[Name, ...]:
    """The tables and objects a call names or changes, and those its error names."""
    names = [*parsed.tables]
    for change in parsed.changes:
        names.append(change.name)
        if change.new_name is not None:
            names.append(change.new_name)
    if response is not None:
        names += [Name(unqualify(n)[0], True) for n in response.dependencies if n]
        if not names:  # a call that names nothing: what its error names
            names += [Name(unqualify(n)[0], True) for n in response.affected_resources if n]
    return tuple(dict.fromkeys(names))


def _loop_line(repeat: _Repeat, limit: int) -> str:
    advice = _LOOP_ADVICE.get(repeat.action, "change it before sending it again")
    return (
        f"you have sent `{shorten(repeat.operation, limit)}` {repeat.failures} times unchanged; "
        f"it fails with {repeat.action} ({repeat.kind}): {advice}"
    )


def _compose(  # noqa: PLR0913 - the parts of the block, worked out once
    rows: list[tuple[str, str, str, str]],
    changes: list[str],
    groups: list[tuple[Reason | None, list[str]]],
    repeats: list[_Repeat],
    *,
    limit: int,
    omitted: int,
) -> str:
    """Render the block with operations shortened to *limit* characters."""
    lines = [_OPEN, "Recent tool executions:"] if rows else [_OPEN]
    for prefix, operation, outcome, detail in rows:
        tail = f" ({shorten(detail, limit + 40)})" if detail else ""
        lines.append(f"- {prefix}{shorten(operation, limit)} → {outcome}{tail}")
    if omitted:
        lines.append(f"- ({omitted} older execution{'s' if omitted > 1 else ''} omitted)")
    if changes:
        lines.append(f"State changes: {shorten(', '.join(changes), 4 * limit)}.")
    if groups:
        parts = []
        for reason, operations in groups:
            if reason is None:
                parts.append(operations[0])
                continue
            named = ", ".join(f"`{shorten(op, limit)}`" for op in operations)
            why = reason.plural if len(operations) > 1 else reason.singular
            parts.append(f"retry {named} unchanged ({why})")
        lines.append(f"Possibly unblocked: {'; '.join(parts)}.")
    if repeats:
        said = "; ".join(one_line(_loop_line(r, limit)) for r in repeats)
        lines.append(f"Repeated failures: {said}.")
    lines.append(_CLOSE)
    return "\n".join(lines)


class ExecutionHistory:
    """
    A bounded, thread-safe record of recent tool executions and what they changed.

    Args:
        max_entries: How many executions `summary` shows (newest first).
        max_chars: The summary's hard size budget; by default 1,200
            characters for five entries, scaled with *max_entries*.
        max_pending: How many failed operations are watched for something
            that unblocks them, including failures older than the
            *max_entries* window (the oldest is forgotten first).
        db_type: The backend, for the SQL dialect and name case folding;
            when omitted, taken from each call's *db_type*, else from the
            backend that classified an error.

    Raises:
        ValueError: *max_entries* is less than 1.
        ImportError: sqlglot, which masks and reads the statements, is not
            installed (``pip install 'localdata-errors[history]'``).
    """

    def __init__(
        self,
        max_entries: int = 5,
        *,
        max_chars: int | None = None,
        max_pending: int = 20,
        db_type: str | None = None,
    ) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        if not _sqlglot.available():
            raise ImportError(_NO_SQLGLOT)
        self.max_entries = max_entries
        self.max_chars = (
            max_chars if max_chars is not None else max(DEFAULT_MAX_CHARS * max_entries // 5, 400)
        )
        self.max_pending = max(max_pending, 1)
        self.db_type = db_type
        self._lock = threading.Lock()
        # The shown entries, each with what it contributes to the summary,
        # rendered once when recorded.
        self._shown: deque[_Shown] = deque(maxlen=max_entries)
        self._pending: OrderedDict[str, Pending] = OrderedDict()
        # Failed calls by key, for the loop guard (oldest forgotten first).
        self._failures: OrderedDict[str, _Repeat] = OrderedDict()
        self._sequence = 0
        self._dialect: str | None = sqlglot_dialect(db_type)
        self._cached: str | None = None

    # -- recording -------------------------------------------------------------

    def record(
        self,
        tool: str,
        arguments: StructuredCall | Mapping[str, Any] | str | None = None,
        *,
        result: object = None,
        error: BaseException | StructuredErrorResponse | None = None,
        db_type: str | None = None,
    ) -> HistoryEntry:
        """
        Record one tool execution.

        Args:
            tool: The tool's name (``execute_sql``, ``delete_rows``).
            arguments: What was called:

                - a `StructuredCall`, for a tool that takes structured
                  arguments: kept and shown as the call it was
                  (``delete_rows(customers, where id = ?)``); what it
                  changed comes from its ``effect``;
                - a mapping with the statement in ``sql``, ``query`` or
                  ``statement`` (or a bare statement): its values,
                  bound parameters (``params`` / ``parameters``) and
                  credentials are masked before it is read or kept;
                - any other mapping: kept as a call by its arguments'
                  names (``lookup_customer(card=?)``; ``table``, filters
                  and ``columns`` read as the table tools name them),
                  never a value.
            result: The success's result, for row counts: a dict with
                ``rowcount`` / ``affectedRows`` / ``insertedCount``, a cursor,
                an int.
            error: The failure: an exception (classified with
                `classify_error`) or an already classified
                `StructuredErrorResponse`.  ``None`` means success.
            db_type: The backend, for classification and the SQL dialect.

        Returns:
            The recorded `HistoryEntry`.
        """
        tool = one_line(tool if isinstance(tool, str) else str(tool))[:64]
        dialect_hint = db_type or self.db_type
        response: StructuredErrorResponse | None = None
        if isinstance(error, StructuredErrorResponse):
            response = error
        elif error is not None:
            response = classify_error(error, dialect_hint)
        if dialect_hint is None and response is not None and response.backend != "generic":
            dialect_hint = response.backend
        # The dialect named for this call, else the one an earlier call revealed.
        read = read_arguments(tool, arguments, sqlglot_dialect(dialect_hint) or self._dialect)
        operation = read.operation or tool
        with self._lock:
            dialect = sqlglot_dialect(dialect_hint)
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
                    operation,
                    True,
                    state_changes=self._with_rows(read.parsed.changes, result),
                    call=read.call,
                )
                self._apply_success(read.key, read.parsed, entry.state_changes)
                self._failures.pop(read.key, None)
            else:
                repeats = self._count_failure(read.key, tool, operation, response)
                entry = HistoryEntry(
                    self._sequence,
                    tool,
                    operation,
                    False,
                    kind=response.kind.value,
                    error_type=response.info.tool_error_type.value,
                    is_retryable=response.is_retryable,
                    error_code=response.database_error_code,
                    affected_resources=response.affected_resources,
                    dependencies=response.dependencies,
                    call=read.call,
                    action=response.action.value,
                    repeats=repeats,
                )
                self._apply_failure(read.key, entry, read.parsed, response)
            # A structured call's rendering names its tool; a statement's does not.
            prefix = "" if entry.call is not None else f"{entry.tool}: "
            self._shown.append(
                _Shown(
                    entry,
                    (
                        prefix,
                        entry.operation,
                        "SUCCESS" if entry.success else "FAILED",
                        entry.detail(),
                    ),
                    tuple(one_line(c.describe()) for c in entry.state_changes),
                    read.key,
                    _named(read.parsed, response),
                )
            )
            return entry

    def _count_failure(
        self, key: str, tool: str, operation: str, response: StructuredErrorResponse
    ) -> int:
        """Count one more failure of the call *key*; return how many came before it."""
        known = self._failures.pop(key, None)
        before = known.failures if known is not None else 0
        self._failures[key] = _Repeat(
            tool,
            operation,
            before + 1,
            self._sequence,
            response.kind.value,
            response.action.value,
        )
        while len(self._failures) > self.max_pending:
            self._failures.popitem(last=False)
        return before

    def _repeats(self) -> list[_Repeat]:
        """The calls failing unchanged at least twice, whose latest failure is still shown."""
        oldest_shown = self._sequence - len(self._shown) + 1
        found = [
            r for r in self._failures.values() if r.failures >= 2 and r.sequence >= oldest_shown
        ]
        return sorted(found, key=lambda r: -r.sequence)[:_MAX_REPEATS]

    @staticmethod
    def _with_rows(changes: tuple[StateChange, ...], result: object) -> tuple[StateChange, ...]:
        rows = result_rows(result)
        row_changes = [c for c in changes if c.action in {"inserted", "updated", "deleted"}]
        if rows is None or len(row_changes) != 1:
            return changes
        return tuple(c._replace(rows=rows) if c is row_changes[0] else c for c in changes)

    def reset(self) -> None:
        """Forget everything: a new user request starts fresh."""
        with self._lock:
            self._shown.clear()
            self._pending.clear()
            self._failures.clear()
            self._sequence = 0
            self._cached = None

    # -- unblocking ------------------------------------------------------------

    def _key(self, name: Name) -> str:
        return fold_name(name.name, name.quoted, self._dialect)

    def _fold(self, pending: Pending) -> None:
        pending.target_keys = frozenset(self._key(t) for t in pending.targets)
        for req in pending.requirements:
            req.keys = frozenset(self._key(n) for n in req.names)
            req.exclude_keys = frozenset(self._key(n) for n in req.exclude)

    def _apply_failure(
        self,
        key: str,
        entry: HistoryEntry,
        parsed: ParsedStatement,
        response: StructuredErrorResponse,
    ) -> None:
        self._pending.pop(key, None)
        needed = requirements(parsed, response, self._key)
        if not needed:
            return
        targets = tuple(c.name for c in parsed.changes) or parsed.tables[:1]
        pending = Pending(
            key, entry.tool, entry.operation, entry.sequence, parsed.verb, targets, needed
        )
        self._fold(pending)
        self._pending[key] = pending
        while len(self._pending) > self.max_pending:
            self._pending.popitem(last=False)

    def _apply_success(
        self, key: str, parsed: ParsedStatement, changes: tuple[StateChange, ...]
    ) -> None:
        self._pending.pop(key, None)  # the retried operation succeeded
        if not changes:
            return
        dropped = {self._key(c.name) for c in changes if c.action in GONE}
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
                    if satisfies(req, pending.verb, change, self._key, self._dialect):
                        req.reason = reason(req, change)
                        break
            pending.unblocked = all(r.reason is not None for r in pending.requirements)

    # -- rendering -------------------------------------------------------------

    def summary(self) -> str:
        """
        Render the ``<TOOL_EXECUTION_SUMMARY>`` block for a prompt.

        Returns:
            The block (newest execution first, within `max_chars`), or
            ``""`` when nothing has been recorded.
        """
        with self._lock:
            if self._cached is None:
                self._cached = self._render()
            return self._cached

    def _unblocked(self) -> list[Pending]:
        # Insertion order is failure order: a failure that repeats is re-inserted.
        return [p for p in self._pending.values() if p.unblocked]

    def _render(self) -> str:
        if not self._shown:
            return ""
        # The parts are worked out once; only their shortening varies in _fit.
        rows = [shown.row for shown in reversed(self._shown)]
        changes = [c for shown in self._shown for c in shown.changes]
        return self._fit(rows, changes, self._unblocked_groups(self._unblocked()), self._repeats())

    def _fit(
        self,
        rows: list[tuple[str, str, str, str]],
        changes: list[str],
        groups: list[tuple[Reason | None, list[str]]],
        repeats: list[_Repeat],
    ) -> str:
        """The block of these parts within `max_chars`: shortened, then the oldest rows left out."""
        if len(changes) > _MAX_CHANGES:
            changes = [*changes[:_MAX_CHANGES], f"+{len(changes) - _MAX_CHANGES} more"]
        budget = self.max_chars
        text = ""
        for limit in _SQL_LIMITS:
            text = _compose(rows, changes, groups, repeats, limit=limit, omitted=0)
            if len(text) <= budget:
                return text
        for omitted in range(1, len(rows)):
            text = _compose(
                rows[:-omitted], changes, groups, repeats, limit=_SQL_LIMITS[-1], omitted=omitted
            )
            if len(text) <= budget:
                return text
        # Still too long (a tiny budget, or very many names): cut, keep the tags.
        room = max(budget - len(_CLOSE) - 1, len(_OPEN) + 2)
        return shorten(text[: -len(_CLOSE) - 1], room) + "\n" + _CLOSE

    @staticmethod
    def _unblocked_groups(unblocked: list[Pending]) -> list[tuple[Reason | None, list[str]]]:
        """(reason, operations) pairs, oldest failure first; at most a few operations."""
        groups: dict[str, tuple[Reason, list[str]]] = {}
        for pending in unblocked[:_MAX_UNBLOCKED]:
            reasons = [r.reason for r in pending.requirements if r.reason is not None]
            reason = Reason(
                "; ".join(dict.fromkeys(r.singular for r in reasons)),
                "; ".join(dict.fromkeys(r.plural for r in reasons)),
            )
            groups.setdefault(reason.singular, (reason, []))[1].append(pending.operation)
        out: list[tuple[Reason | None, list[str]]] = list(groups.values())
        if len(unblocked) > _MAX_UNBLOCKED:
            out.append((None, [f"+{len(unblocked) - _MAX_UNBLOCKED} more"]))
        return out

    def summary_for(self, entry: HistoryEntry) -> str:
        """
        The block of what bears on one failed call, for its error; ``""`` when nothing does.

        Where `summary` shows every recent call, this shows only what
        concerns *entry*, so that a note about one call is never attached to
        the error of another:

        - the shown calls that name one of its objects: a table or other
          object the failed call names or would change, or a dependency its
          error names (for a call that names none, what its error names);
          its own earlier failures are left to the loop guard's line;
        - that the same call, unchanged, has failed before (the loop
          guard's line, from its second failure on);
        - the state changes of those objects;
        - the failed calls that a change since makes worth repeating
          ("Possibly unblocked"), when it is this call or one that names one
          of its objects.

        Nothing else: an unrelated failure, another call's loop, changes of
        other tables.  Names compare as the unblocking rules compare them
        (the backend's case rules, schema ignored).

        Args:
            entry: A failed entry, as `record` returned it.

        Returns:
            A ``<TOOL_EXECUTION_SUMMARY>`` block (newest first, within
            `max_chars`), or ``""`` for a success, an entry no longer shown,
            or a failure nothing bears on.
        """
        with self._lock:
            target = next((shown for shown in self._shown if shown.entry == entry), None)
            if target is None or target.entry.success:
                return ""
            keys = {self._key(n) for n in target.names}
            rows = [
                shown.row
                for shown in reversed(self._shown)
                if shown is not target
                and not (shown.key == target.key and not shown.entry.success)
                and not keys.isdisjoint(self._key(n) for n in shown.names)
            ]
            changes = [
                described
                for shown in self._shown
                for change, described in zip(shown.entry.state_changes, shown.changes, strict=True)
                if self._key(change.name) in keys
                or (change.new_name is not None and self._key(change.new_name) in keys)
            ]
            unblocked = [
                p
                for p in self._unblocked()
                if p.key == target.key
                or not keys.isdisjoint(p.target_keys.union(*(r.keys for r in p.requirements)))
            ]
            repeat = self._failures.get(target.key)
            repeats = [repeat] if repeat is not None and repeat.failures >= 2 else []
            if not (rows or changes or unblocked or repeats):
                return ""
            return self._fit(rows, changes, self._unblocked_groups(unblocked), repeats)

    def to_dict(self) -> dict[str, Any]:
        """
        The history as data, for programs.

        Returns:
            ``entries`` (newest first), ``state_changes`` (oldest first, of the
            shown entries), ``possibly_unblocked`` and ``pending`` (failures
            still watched), all JSON-serialisable.  `repeated` gives the
            calls that failed unchanged at least twice.
        """
        with self._lock:
            unblocked = self._unblocked()
            return {
                "entries": [s.entry.to_dict() for s in reversed(self._shown)],
                "state_changes": [c.describe() for s in self._shown for c in s.entry.state_changes],
                "possibly_unblocked": [
                    {
                        "tool": p.tool,
                        "operation": p.operation,
                        "failed_at": p.sequence,
                        "reasons": [r.reason.singular for r in p.requirements if r.reason],
                    }
                    for p in unblocked
                ],
                "pending": [
                    {"tool": p.tool, "operation": p.operation, "failed_at": p.sequence}
                    for p in self._pending.values()
                    if not p.unblocked
                ],
            }

    def repeated(self) -> list[dict[str, Any]]:
        """
        The loop guard's findings: calls that failed at least twice, unchanged.

        A call is the same when it is sent again with the same arguments,
        values included (a statement, or a structured call's identity); a
        success of that call forgets its failures.  Only calls whose latest
        failure is among the shown entries are listed, newest first.

        Returns:
            ``tool``, ``operation`` (as shown), ``times`` (failures since it
            last succeeded), ``kind`` and ``action`` (the next step the
            latest error named), ``last_failed_at``; JSON-serialisable.
        """
        with self._lock:
            return [
                {
                    "tool": r.tool,
                    "operation": r.operation,
                    "times": r.failures,
                    "kind": r.kind,
                    "action": r.action,
                    "last_failed_at": r.sequence,
                }
                for r in self._repeats()
            ]

    def __len__(self) -> int:
        with self._lock:
            return len(self._shown)
