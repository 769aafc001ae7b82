"""
`StructuredErrorResponse`, the one answer, and the shapes it renders to.

The response is a record: it imports the vocabulary (`kinds`) and nothing
that reads it (retry policies, OpenTelemetry attributes, the MCP server):
those import it.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each
# string annotation into a ForwardRef (about 1 ms of the package's import in all).

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final, NamedTuple, ParamSpec, TypeVar, cast

from localdata_errors._kinds import (
    KIND_TABLE,
    Action,
    ErrorCategory,
    Kind,
    KindInfo,
    RetrySafety,
    render_suggestion,
)
from localdata_errors._redact import redact

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["StructuredErrorResponse", "builder"]

_P = ParamSpec("_P")
_T = TypeVar("_T")


def builder(record: Callable[_P, _T]) -> Callable[_P, _T]:
    """
    Build a named tuple by keyword, as calling its class does, at a third of the cost.

    A class called with keywords hands them to the named tuple's `__new__` as
    a dict built for the call (`type.__call__`, then `__new__` unpacking it);
    the same `__new__`, bound to its class, takes them as they are.  The
    records built on every classification (the answer, the mapper's answer,
    its input) are built with it.
    """
    # The class's own signature, checked at every call like the class's.
    new: Any = getattr(record, "__new__")  # noqa: B009 - a class's own, read as a plain value
    return cast("Callable[_P, _T]", partial(new, record))


JSONDict = dict[str, Any]

# Read on every rendering: dicts of plain strings, built once (an enum's
# `.value` is a descriptor call, several times dearer than a look-up), keyed
# by the members themselves, which a look-up then finds by identity (a plain
# string finds its member's entry too, by equality).
_TOOL_TYPE: Final[dict[str, str]] = {k: i.tool_error_type.value for k, i in KIND_TABLE.items()}
_JSONRPC: Final[dict[str, int]] = {k: i.jsonrpc_code for k, i in KIND_TABLE.items()}
# An enum's member read from its class goes through EnumType's __getattr__
# hook on Python 3.11 (some 70 ns): the ones read on every call are module names.
_NOTHING_TO_RETRY: Final = RetrySafety.NOT_APPLICABLE
_TEXT: Final[dict[str, str]] = {
    member: member.value for enum in (Kind, Action, RetrySafety, ErrorCategory) for member in enum
}


class StructuredErrorResponse(NamedTuple):
    """
    One database error, classified: what went wrong, whether to retry, what to do next.

    Frozen, slotted, picklable and JSON-serialisable (`to_json`).  It is a
    named tuple: built on every classification, it must be cheap to build,
    and a tuple is the cheapest immutable record Python has.  Build it with
    `classify_error`; every string field is already redacted.  To build one
    by hand (a tool's own refusal, say), use `for_kind`, which fills the
    kind's decisions from the Kind table.  Every field has a default, so a
    mapper written to localdata-mcp's contract builds it as it builds its
    own (`StructuredErrorResponse(error_type=..., message=...,
    suggestion=...)`); the core completes such an answer.

    Attributes:
        error_type: The coarse category.
        kind: The fine-grained reason.
        is_retryable: Whether repeating the same call may succeed.
        message: The driver's own text (redacted; the `[SQL: ...]` trailer
            SQLAlchemy appends is removed).
        suggestion: One sentence on what to do next.
        suggested_actions: Concrete next steps, in order.
        database_error_code: The most specific native code: the SQLSTATE for
            PostgreSQL, the errno for MySQL/MariaDB, `ORA-00942`, the SQL
            Server number, the SQLite extended result name.
        sqlstate: The SQLSTATE, where the driver reported one.
        database: The database name the caller passed, else the backend.
        backend: The name of the mapper that answered (`generic` for the
            keyword fallback).
        affected_resources: Tables, columns, constraints, indexes, functions,
            schemas or databases the error names, unqualified and unquoted.
        dependencies: What must change first (the parent table of a missing
            key, the child table that blocks a DROP).
        constraint: The constraint's name, where known.
        schema: The schema (or database) a qualified name carried, where known.
        driver: The top-level module of the driver that raised, where known.
        action: The next step: `fix_query`, `retry`, `reconnect`, `rollback`
            or `stop` (see `Action`).
        retry_safety: Whether calling again unchanged is safe for a write:
            `safe`, `idempotent_only` or `not_applicable` (see `RetrySafety`).
        retry_after_ms: How long to wait before retrying, where the kind or
            the server says; `None` otherwise.
    """

    error_type: ErrorCategory = ErrorCategory.QUERY_EXECUTION
    kind: Kind = Kind.UNKNOWN
    is_retryable: bool = False
    message: str = ""
    suggestion: str = ""
    suggested_actions: tuple[str, ...] = ()
    database_error_code: str | None = None
    sqlstate: str | None = None
    database: str | None = None
    backend: str = "generic"
    affected_resources: tuple[str, ...] = ()
    dependencies: tuple[str, ...] = ()
    constraint: str | None = None
    schema: str | None = None
    driver: str | None = None
    action: Action = Action.FIX_QUERY
    retry_safety: RetrySafety = RetrySafety.NOT_APPLICABLE
    retry_after_ms: int | None = None

    @classmethod
    def for_kind(cls, kind: Kind, message: str, **fields: Any) -> "StructuredErrorResponse":
        """
        Build a response of *kind* with the Kind table's decisions.

        Args:
            kind: The kind.
            message: The message (already redacted: nothing here masks it).
            **fields: Any other field; these win over the table's values.

        Returns:
            The response.

        Raises:
            TypeError: A name in *fields* is not a field.
        """
        info = KIND_TABLE[kind]
        base = cls(
            info.category,
            kind,
            info.retryable,
            message,
            render_suggestion(kind),
            info.actions,
            action=info.action,
            retry_safety=info.retry_safety,
            retry_after_ms=info.retry_after_ms,
        )
        return base.replace(**fields) if fields else base

    def replace(self, **changes: Any) -> "StructuredErrorResponse":
        """
        Return a copy with some fields changed.

        Raises:
            TypeError: A name in *changes* is not a field.
        """
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"not a field: {', '.join(sorted(unknown))}")
        return self._replace(**changes)

    @property
    def info(self) -> KindInfo:
        """The `KIND_TABLE` row of this response's kind."""
        return KIND_TABLE[self.kind]

    @property
    def error_code(self) -> str:
        """The kind as UPPER_SNAKE (`UNDEFINED_TABLE`), as the MCP shape names it."""
        return self.kind.upper()

    # -- shapes ---------------------------------------------------------------

    def to_dict(self) -> JSONDict:
        """
        Render LocalData's shape: its seven keys first, then additive keys only.

        Returns:
            A JSON-serialisable dict.
        """
        return {
            "error": True,
            "error_type": _TEXT[self.error_type],
            "is_retryable": self.is_retryable,
            "message": self.message,
            "suggestion": self.suggestion,
            "database_error_code": self.database_error_code,
            "database": self.database,
            "kind": _TEXT[self.kind],
            "sqlstate": self.sqlstate,
            "backend": self.backend,
            "suggested_actions": list(self.suggested_actions),
            "affected_resources": list(self.affected_resources),
            "dependencies": list(self.dependencies),
            "constraint": self.constraint,
            "schema": self.schema,
            "action": _TEXT[self.action],
            "retry_safety": _TEXT[self.retry_safety],
            "retry_after_ms": self.retry_after_ms,
        }

    def to_tool_error(self) -> JSONDict:
        """
        Render the tool shape: every key says something the others do not.

        `status`, `error`, `error_type`, `is_retryable` and `action` are
        always there.  The others are left out when they have nothing to
        say, rather than sent as `null` or `[]`: `error_code` when no native
        code is known; `affected_resources`, `dependencies` and
        `suggested_actions` when empty; `kind` when it only repeats
        `error_type` (`syntax_error`, `unknown`); `retry_safety` when it is
        `not_applicable` (nothing to retry); `retry_after_ms` when no wait is
        known; `suggestion` when it is the kind's own sentence about the
        names already listed (the kind and `suggested_actions` carry it).

        Returns:
            `{"status": "error", "error", "error_code", "error_type",
            "is_retryable", "action", ...}`, a JSON-serialisable dict.
        """
        # One unpacking reads every field (a field's property costs as much as a look-up).
        (_, kind, retryable, message, suggestion, actions, code, _, _, _,
         resources, dependencies, constraint, _, _, action, safety, after_ms) = self  # fmt: skip
        text = _TEXT
        tool_type = _TOOL_TYPE[kind]
        # The keys every answer has, in one literal: the dict is sized for
        # the rest once, not grown key by key.
        out: JSONDict = {
            "status": "error",
            "error": message,
            "error_code": code,
            "error_type": tool_type,
            "is_retryable": retryable,
            "action": text[action],
        }
        if code is None:
            del out["error_code"]
        if safety is not _NOTHING_TO_RETRY:
            out["retry_safety"] = text[safety]
        if after_ms is not None:
            out["retry_after_ms"] = after_ms
        if text[kind] != tool_type:
            out["kind"] = text[kind]
        if suggestion and actions:
            # The kind's own sentence about the names listed: the kind and the actions say it.
            target = resources[0] if resources else None
            if suggestion != render_suggestion(kind, target, constraint, dependencies):
                out["suggestion"] = suggestion
        elif suggestion:
            out["suggestion"] = suggestion
        if resources:
            out["affected_resources"] = list(resources)
        if dependencies:
            out["dependencies"] = list(dependencies)
        if actions:
            out["suggested_actions"] = list(actions)
        return out

    def to_jsonrpc_error(
        self, tool_name: str | None = None, *, timestamp: "datetime | None" = None
    ) -> JSONDict:
        """
        Render the MCP / JSON-RPC shape.

        Args:
            tool_name: The tool that failed, echoed back (masked like the message).
            timestamp: When it failed; now (UTC) by default.

        Returns:
            `{"success": false, "error_type", "error_code", "jsonrpc_error_code",
            "message", "details", "suggestions", "tool_name", "timestamp"}`.
        """
        from datetime import UTC, datetime  # noqa: PLC0415 - only this shape needs it

        when = (timestamp or datetime.now(UTC)).astimezone(UTC)
        return {
            "success": False,
            "error_type": _TEXT[self.error_type],
            "error_code": self.error_code,
            "jsonrpc_error_code": _JSONRPC[self.kind],
            "message": self.message,
            "details": self._details(),
            "suggestions": [self.suggestion, *self.suggested_actions],
            # The caller's text, echoed: masked like every other field.
            "tool_name": redact(tool_name) if isinstance(tool_name, str) else tool_name,
            "timestamp": when.isoformat().replace("+00:00", "Z"),
        }

    def to_agent_response(self) -> JSONDict:
        """
        Render the agent-tool shape (n8n style): `success, error, errorType, details`.

        Returns:
            A JSON-serialisable dict; `details` carries the suggestion and the
            next step, and no credentials.
        """
        details = self._details()
        details["suggestion"] = self.suggestion
        return {
            "success": False,
            "error": self.message,
            "errorType": _TEXT[self.error_type],
            "details": details,
        }

    def to_json(self, **dumps_kwargs: Any) -> str:
        """Serialise `to_dict` with `json.dumps`."""
        import json  # noqa: PLC0415 - imported on use, to keep the package's import cheap

        return json.dumps(self.to_dict(), **dumps_kwargs)

    def _details(self) -> JSONDict:
        details: JSONDict = {
            "kind": _TEXT[self.kind],
            "is_retryable": self.is_retryable,
            "action": _TEXT[self.action],
            "retry_safety": _TEXT[self.retry_safety],
            "database_error_code": self.database_error_code,
            "backend": self.backend,
        }
        optional = {
            "retry_after_ms": self.retry_after_ms,
            "sqlstate": self.sqlstate,
            "database": self.database,
            "constraint": self.constraint,
            "schema": self.schema,
        }
        details.update({k: v for k, v in optional.items() if v is not None})
        if self.affected_resources:
            details["affected_resources"] = list(self.affected_resources)
        if self.dependencies:
            details["dependencies"] = list(self.dependencies)
        return details
