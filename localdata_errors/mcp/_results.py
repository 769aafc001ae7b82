"""
The payloads of failed tool calls: database errors, invalid arguments, crashes.

Every payload has the MCP / JSON-RPC shape of
:meth:`~localdata_errors.StructuredErrorResponse.to_jsonrpc_error`, so a
client reads one structure whatever went wrong.  Nothing here imports the
``mcp`` SDK: the payloads are plain dicts, wrapped into a ``CallToolResult``
by :mod:`localdata_errors.mcp`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from localdata_errors.classify import classify_error
from localdata_errors.kinds import KIND_TABLE, Kind
from localdata_errors.redact import redact
from localdata_errors.response import StructuredErrorResponse

__all__ = [
    "JSONRPC_INTERNAL_ERROR",
    "ToolInputError",
    "anticipated_error_payload",
    "database_error_payload",
    "internal_error_payload",
    "is_database_error",
    "make_response",
    "tool_error_payload",
    "validation_error_payload",
]

JSONDict = dict[str, Any]

#: JSON-RPC's own code for an internal error: a crash, not a database answer.
JSONRPC_INTERNAL_ERROR: Final = -32603

#: The backend named by responses the tool layer builds itself (a column that
#: the introspected schema lacks, a write refused in read-only mode, ...).
TOOL_BACKEND: Final = "mcp"

# PEP 249 names every driver's exception hierarchy the same way; a class of
# one of these names in the MRO marks a database exception even when no
# backend claims the driver's module.
_DBAPI_CLASS_NAMES: Final = frozenset(
    {"DatabaseError", "InterfaceError", "OperationalError", "IntegrityError",
     "ProgrammingError", "DataError", "NotSupportedError", "InternalError"}
)
_DATABASE_MODULE_PREFIXES: Final = ("sqlalchemy.", "sqlite3", "_sqlite3", "django.db")


class ToolInputError(Exception):
    """
    A call the tool layer refuses itself, already classified.

    Raised for what the database would refuse too, but is cheaper and safer
    to refuse before any SQL runs: a table or column the introspected schema
    lacks, a value that cannot become the column's type, a write in read-only
    mode, several statements where one is allowed.

    Args:
        response: The classified answer.
        details: Extra keys for the payload's ``details`` (e.g. ``column``).

    .. versionadded:: 0.1.0
    """

    def __init__(self, response: StructuredErrorResponse, details: JSONDict | None = None):
        super().__init__(response.message)
        self.response = response
        self.details = dict(details or {})


def _render(template: str, target: str | None, dependencies: Sequence[str]) -> str:
    # Mirrors how classification fills the Kind table's suggestion template.
    if "{" not in template:
        return template
    deps = ", ".join(dependencies)
    return template.format_map({
        "target": f"'{target}' " if target else "",
        "target_cap": f"'{target}' " if target else "The object ",
        "on_target": f" on '{target}'" if target else "",
        "constraint": "",
        "dependency": f" (change {deps} first)" if deps else "",
        "near": "",
    })


def make_response(  # noqa: PLR0913 - keyword-only fields of the response
    kind: Kind,
    message: str,
    *,
    affected_resources: Iterable[str] = (),
    dependencies: Iterable[str] = (),
    database: str | None = None,
    actions: Sequence[str] | None = None,
) -> StructuredErrorResponse:
    """
    Build a response for a refusal of the tool layer, with the Kind table's decisions.

    Args:
        kind: The reason.
        message: What was refused, in the words a model should read.
        affected_resources: The tables and columns involved.
        dependencies: What must change first.
        database: The backend's name, reported in ``database``.
        actions: Concrete next steps; the Kind table's by default.

    Returns:
        The response, as classification would have built it.
    """
    info = KIND_TABLE[kind]
    resources = tuple(affected_resources)
    deps = tuple(dependencies)
    return StructuredErrorResponse(
        error_type=info.category,
        kind=kind,
        is_retryable=info.retryable,
        message=message,
        suggestion=_render(info.suggestion, resources[0] if resources else None, deps),
        suggested_actions=tuple(actions) if actions is not None else info.actions,
        database=database,
        backend=TOOL_BACKEND,
        affected_resources=resources,
        dependencies=deps,
    )


def is_database_error(
    exc: BaseException, extra_types: tuple[type[BaseException], ...] = ()
) -> bool:
    """
    Tell a database exception from any other, without importing a driver.

    A database exception is one raised by SQLAlchemy, Django's database
    layer, ``sqlite3``, or any DB-API driver (PEP 249 names its classes
    ``DatabaseError``, ``OperationalError``, ...), or one of *extra_types*.

    Args:
        exc: The exception.
        extra_types: More classes to treat as database exceptions.

    Returns:
        Whether the exception should be classified as a database error.
    """
    if extra_types and isinstance(exc, extra_types):
        return True
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 8:
        for cls in type(current).__mro__:
            module = cls.__module__ or ""
            if cls.__name__ in _DBAPI_CLASS_NAMES or module.startswith(_DATABASE_MODULE_PREFIXES):
                return True
        current = current.__cause__
        seen += 1
    return False


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def database_error_payload(
    exc: BaseException,
    tool_name: str | None,
    *,
    db_type: str | None = None,
    secrets: Iterable[object] = (),
) -> JSONDict:
    """
    Classify a database exception into the JSON-RPC payload.

    Args:
        exc: The exception (a driver's, or SQLAlchemy's wrapping it).
        tool_name: The tool that failed.
        db_type: The backend, when known.
        secrets: Values to mask in every field.

    Returns:
        :meth:`StructuredErrorResponse.to_jsonrpc_error`'s dict.
    """
    return classify_error(exc, db_type, secrets=secrets).to_jsonrpc_error(tool_name=tool_name)


def tool_error_payload(
    error: ToolInputError, tool_name: str | None, *, secrets: Iterable[object] = ()
) -> JSONDict:
    """
    Render a refusal of the tool layer.

    Args:
        error: The refusal.
        tool_name: The tool that refused.
        secrets: Values to mask in the message.

    Returns:
        The JSON-RPC payload; the refusal's extra details merged into ``details``.
    """
    response = error.response
    secrets = tuple(secrets)
    if secrets:
        response = response.replace(message=redact(response.message, secrets))
    payload = response.to_jsonrpc_error(tool_name=tool_name)
    payload["details"].update(error.details)
    return payload


def validation_error_payload(
    errors: Sequence[JSONDict], tool_name: str | None
) -> JSONDict:
    """
    Render arguments that fail the tool's input schema.

    Args:
        errors: pydantic's ``ValidationError.errors()`` (``loc``, ``msg``,
            ``type``); the rejected ``input`` values are left out, as they
            are the caller's data.
        tool_name: The tool whose arguments were rejected.

    Returns:
        The JSON-RPC payload of kind ``invalid_parameter`` (-32000), the
        offending fields in ``details.fields``.
    """
    fields: list[JSONDict] = []
    for err in errors[:50]:
        loc = ".".join(str(part) for part in err.get("loc", ()))
        fields.append({"field": loc or "(arguments)", "problem": str(err.get("msg", ""))[:300],
                       "type": str(err.get("type", ""))})
    names = sorted({f["field"] for f in fields})
    message = (f"Invalid arguments for tool {tool_name or '?'}: "
               + "; ".join(f"{f['field']}: {f['problem']}" for f in fields[:5]))
    response = make_response(
        Kind.INVALID_PARAMETER, message, affected_resources=(),
        actions=("Read the tool's input schema and correct the named fields",
                 "Send every required field with the type the schema states"),
    )
    payload = response.to_jsonrpc_error(tool_name=tool_name)
    payload["details"]["fields"] = fields
    payload["details"]["invalid_fields"] = names
    return payload


def internal_error_payload(exc: BaseException, tool_name: str | None) -> JSONDict:
    """
    Render a crash: a generic message and the exception's class name, nothing else.

    The exception's text may hold anything (paths, values, secrets), so it
    stays on the server.

    Args:
        exc: The exception.
        tool_name: The tool that crashed.

    Returns:
        A payload of the JSON-RPC shape with code -32603.
    """
    name = type(exc).__name__
    return {
        "success": False,
        "error_type": "internal_error",
        "error_code": "INTERNAL_ERROR",
        "jsonrpc_error_code": JSONRPC_INTERNAL_ERROR,
        "message": f"The tool failed with an unexpected internal error ({name}).",
        "details": {"exception_type": name, "is_retryable": False},
        "suggestions": ["This is not a database error: report it to the tool's maintainers",
                        "Do not retry the same call unchanged"],
        "tool_name": tool_name,
        "timestamp": _now(),
    }


def anticipated_error_payload(message: str, tool_name: str | None) -> JSONDict:
    """
    Render a failure the tool raised on purpose (the SDK's ``ToolError``).

    Args:
        message: The tool's own text, meant for the model.
        tool_name: The tool.

    Returns:
        A payload of the JSON-RPC shape with code -32000.
    """
    prefix = f"Error executing tool {tool_name}: "
    text = message[len(prefix):] if tool_name and message.startswith(prefix) else message
    return {
        "success": False,
        "error_type": "tool_error",
        "error_code": "TOOL_ERROR",
        "jsonrpc_error_code": KIND_TABLE[Kind.INVALID_PARAMETER].jsonrpc_code,
        "message": redact(text[:2000]),
        "details": {"is_retryable": False},
        "suggestions": ["Read the message and change the call accordingly"],
        "tool_name": tool_name,
        "timestamp": _now(),
    }
