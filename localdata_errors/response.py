"""
:class:`StructuredErrorResponse`, the one answer, and the shapes it renders to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from localdata_errors.kinds import KIND_TABLE, ErrorCategory, Kind, KindInfo

if TYPE_CHECKING:
    from datetime import datetime

    from localdata_errors.retry import RetryHint

__all__ = ["StructuredErrorResponse"]

JSONDict = dict[str, Any]


class StructuredErrorResponse(NamedTuple):
    """
    One database error, classified: what went wrong, whether to retry, what to do next.

    Frozen, slotted, picklable and JSON-serialisable (:meth:`to_json`).  It is
    a named tuple: built on every classification, it must be cheap to build,
    and a tuple is the cheapest immutable record Python has.  Build
    it with :func:`~localdata_errors.classify_error`; every string field is
    already redacted.

    Attributes:
        error_type: The coarse category.
        kind: The fine-grained reason.
        is_retryable: Whether repeating the same call may succeed.
        message: The driver's own text (redacted; the ``[SQL: ...]`` trailer
            SQLAlchemy appends is removed).
        suggestion: One sentence on what to do next.
        suggested_actions: Concrete next steps, in order.
        database_error_code: The most specific native code: the SQLSTATE for
            PostgreSQL, the errno for MySQL/MariaDB, ``ORA-00942``, the SQL
            Server number, the SQLite extended result name.
        sqlstate: The SQLSTATE, where the driver reported one.
        database: The database name the caller passed, else the backend.
        backend: The name of the mapper that answered (``generic`` for the
            keyword fallback).
        affected_resources: Tables, columns, constraints, indexes, functions,
            schemas or databases the error names, unqualified and unquoted.
        dependencies: What must change first (the parent table of a missing
            key, the child table that blocks a DROP).
        constraint: The constraint's name, where known.
        schema: The schema (or database) a qualified name carried, where known.
        driver: The top-level module of the driver that raised, where known.

    .. versionadded:: 0.1.0
    """

    error_type: ErrorCategory
    kind: Kind
    is_retryable: bool
    message: str
    suggestion: str
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

    def replace(self, **changes: Any) -> StructuredErrorResponse:
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
        """The :data:`~localdata_errors.KIND_TABLE` row of this response's kind."""
        return KIND_TABLE[self.kind]

    @property
    def retry_after_hint(self) -> RetryHint:
        """
        How to retry, if at all: strategy, first delay, attempts, reconnect or
        roll back first (see :func:`localdata_errors.retry.retry_after_hint`).

        .. versionadded:: 0.1.0
        """
        from localdata_errors.retry import retry_after_hint  # noqa: PLC0415 - avoids a cycle

        return retry_after_hint(self)

    def to_otel_attributes(self) -> dict[str, str | bool | int | float]:
        """
        Render OpenTelemetry attributes (database semantic conventions):
        ``db.system.name``, ``db.response.status_code``, ``error.type``, ...

        .. versionadded:: 0.1.0
        """
        from localdata_errors.observability import to_otel_attributes  # noqa: PLC0415

        return to_otel_attributes(self)

    @property
    def error_code(self) -> str:
        """The kind as UPPER_SNAKE (``UNDEFINED_TABLE``), as the MCP shape names it."""
        return self.kind.value.upper()

    # -- shapes ---------------------------------------------------------------

    def to_dict(self) -> JSONDict:
        """
        Render LocalData's shape: its seven keys first, then additive keys only.

        Returns:
            A JSON-serialisable dict.
        """
        return {
            "error": True,
            "error_type": self.error_type.value,
            "is_retryable": self.is_retryable,
            "message": self.message,
            "suggestion": self.suggestion,
            "database_error_code": self.database_error_code,
            "database": self.database,
            "kind": self.kind.value,
            "sqlstate": self.sqlstate,
            "backend": self.backend,
            "suggested_actions": list(self.suggested_actions),
            "affected_resources": list(self.affected_resources),
            "dependencies": list(self.dependencies),
            "constraint": self.constraint,
            "schema": self.schema,
        }

    def to_tool_error(self) -> JSONDict:
        """
        Render the tool shape.

        ``affected_resources``, ``dependencies`` and ``suggested_actions`` are
        omitted, not empty, when nothing was found.

        Returns:
            ``{"status": "error", "error", "error_code", "error_type", ...}``.
        """
        out: JSONDict = {
            "status": "error",
            "error": self.message,
            "error_code": self.database_error_code,
            "error_type": self.info.tool_error_type.value,
        }
        if self.affected_resources:
            out["affected_resources"] = list(self.affected_resources)
        if self.dependencies:
            out["dependencies"] = list(self.dependencies)
        if self.suggested_actions:
            out["suggested_actions"] = list(self.suggested_actions)
        return out

    def to_jsonrpc_error(
        self, tool_name: str | None = None, *, timestamp: datetime | None = None
    ) -> JSONDict:
        """
        Render the MCP / JSON-RPC shape.

        Args:
            tool_name: The tool that failed, echoed back.
            timestamp: When it failed; now (UTC) by default.

        Returns:
            ``{"success": false, "error_type", "error_code", "jsonrpc_error_code",
            "message", "details", "suggestions", "tool_name", "timestamp"}``.
        """
        from datetime import UTC, datetime  # noqa: PLC0415 - only this shape needs it

        when = (timestamp or datetime.now(UTC)).astimezone(UTC)
        return {
            "success": False,
            "error_type": self.error_type.value,
            "error_code": self.error_code,
            "jsonrpc_error_code": self.info.jsonrpc_code,
            "message": self.message,
            "details": self._details(),
            "suggestions": [self.suggestion, *self.suggested_actions],
            "tool_name": tool_name,
            "timestamp": when.isoformat().replace("+00:00", "Z"),
        }

    def to_agent_response(self) -> JSONDict:
        """
        Render the agent-tool shape (n8n style): ``success, error, errorType, details``.

        Returns:
            A JSON-serialisable dict; ``details`` carries no credentials.
        """
        return {
            "success": False,
            "error": self.message,
            "errorType": self.error_type.value,
            "details": self._details(),
        }

    def to_json(self, **dumps_kwargs: Any) -> str:
        """Serialise :meth:`to_dict` with :func:`json.dumps`."""
        import json  # noqa: PLC0415 - imported on use, to keep the package's import cheap

        return json.dumps(self.to_dict(), **dumps_kwargs)

    def _details(self) -> JSONDict:
        details: JSONDict = {
            "kind": self.kind.value,
            "is_retryable": self.is_retryable,
            "database_error_code": self.database_error_code,
            "backend": self.backend,
        }
        optional = {
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
