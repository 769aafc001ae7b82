"""
The payloads of failed tool calls: database errors, invalid arguments, crashes.

Every payload has the MCP / JSON-RPC shape of
`StructuredErrorResponse.to_jsonrpc_error`, so a client reads one structure
whatever went wrong.  A failure is classified once, into a
`StructuredErrorResponse`, and that answer is what the payload, the
execution history and the server's recovery read: nothing here turns a
payload's text back into an exception to classify it again.  Nothing here
imports the ``mcp`` SDK: the payloads are plain dicts, wrapped into a
``CallToolResult`` by `localdata_errors.mcp`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from localdata_errors._kinds import KIND_TABLE, Action, Kind, RetrySafety, render_suggestion
from localdata_errors._redact import redact
from localdata_errors._response import StructuredErrorResponse
from localdata_errors.dbapi import is_database_error

__all__ = [
    "JSONRPC_INTERNAL_ERROR",
    "ClassifiedError",
    "ToolInputError",
    "anticipated_error_payload",
    "classified_payload",
    "compact_payload",
    "internal_error_payload",
    "is_database_error",
    "make_response",
    "response_from_payload",
    "validation_error_payload",
    "validation_response",
]

JSONDict = dict[str, Any]

#: JSON-RPC's own code for an internal error: a crash, not a database answer.
JSONRPC_INTERNAL_ERROR: Final = -32603

#: The backend named by responses the tool layer builds itself (a column that
#: the introspected schema lacks, a write refused in read-only mode, ...).
TOOL_BACKEND: Final = "mcp"


class ClassifiedError(Exception):
    """
    A failure of a tool call, already classified: rendered as it is, never classified again.

    The SQL tool server raises it for a database error it classified once
    (and perhaps explained with the schema's help, or recovered from), so
    that the payload, the execution history and the recovery all read the
    same answer.

    Args:
        response: The classified answer.
        details: Extra keys for the payload's ``details`` (e.g. ``did_you_mean``).
    """

    def __init__(self, response: StructuredErrorResponse, details: JSONDict | None = None):
        super().__init__(response.message)
        self.response = response
        self.details = dict(details or {})


class ToolInputError(ClassifiedError):
    """
    A call the tool layer refuses itself, already classified.

    Raised for what the database would refuse too, but is cheaper and safer
    to refuse before any SQL runs: a table or column the introspected schema
    lacks, a value that cannot become the column's type, a write in read-only
    mode, several statements where one is allowed.

    Args:
        response: The classified answer.
        details: Extra keys for the payload's ``details`` (e.g. ``column``).
    """


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
    return StructuredErrorResponse.for_kind(
        kind,
        message,
        suggestion=render_suggestion(kind, resources[0] if resources else None, None, deps),
        suggested_actions=tuple(actions) if actions is not None else info.actions,
        database=database,
        backend=TOOL_BACKEND,
        affected_resources=resources,
        dependencies=deps,
    )


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def classified_payload(
    response: StructuredErrorResponse,
    tool_name: str | None,
    details: JSONDict | None = None,
    *,
    secrets: Iterable[object] = (),
) -> JSONDict:
    """
    Render a classified answer as the JSON-RPC payload.

    Args:
        response: The answer, from classification or from the tool layer.
        tool_name: The tool that failed.
        details: Extra keys merged into the payload's ``details``.
        secrets: Values to mask in the message (a classified message is
            already masked; a refusal's may quote the caller).

    Returns:
        `StructuredErrorResponse.to_jsonrpc_error`'s dict, *details* merged.
    """
    secrets = tuple(secrets)
    if secrets:
        response = response.replace(message=redact(response.message, secrets))
    payload = response.to_jsonrpc_error(tool_name=tool_name)
    if details:
        payload["details"].update(details)
    return payload


# What `StructuredErrorResponse.to_jsonrpc_error` puts in `details` from the
# answer itself; any other key there is what a tool added (hints, fields).
_ANSWER_DETAILS: Final = frozenset(
    {
        "kind",
        "is_retryable",
        "action",
        "retry_safety",
        "database_error_code",
        "backend",
        "retry_after_ms",
        "sqlstate",
        "database",
        "constraint",
        "schema",
        "affected_resources",
        "dependencies",
    }
)


def compact_payload(payload: JSONDict, response: StructuredErrorResponse) -> JSONDict:
    """
    The compact form of a failure: the tool shape, and what the tool added.

    The JSON-RPC shape names the kind three times (`error_type`,
    `error_code`, `details.kind`) and adds a JSON-RPC code, a timestamp, the
    tool's name and both `backend` and `database`.  The compact form is
    `StructuredErrorResponse.to_tool_error` (nothing empty, nothing that only
    restates another field), with the keys a tool added to `details` (the
    names it suggests, the fields an invalid call got wrong, the argument it
    asks for) beside them.

    Args:
        payload: The JSON-RPC payload (`classified_payload`).
        response: The answer it was rendered from.

    Returns:
        The compact payload.
    """
    out = response.to_tool_error()
    details = payload.get("details")
    if isinstance(details, dict):
        for key, value in details.items():
            if key not in _ANSWER_DETAILS and key not in out and value not in (None, "", [], {}):
                out[key] = value
    return out


def response_from_payload(payload: object) -> StructuredErrorResponse | None:
    """
    Read back the classified answer a JSON-RPC payload carries, without classifying again.

    For a failure a tool rendered itself (a `CallToolResult` with
    ``isError``): its ``details`` hold the kind and the decisions that were
    made, and they are taken as they are.

    Args:
        payload: A payload of the shape `StructuredErrorResponse.to_jsonrpc_error` renders.

    Returns:
        The answer, or ``None`` when *payload* carries no kind.
    """
    if not isinstance(payload, dict):
        return None
    details = payload.get("details")
    if not isinstance(details, dict):
        return None
    try:
        kind = Kind(str(details.get("kind")))
    except ValueError:
        return None
    fields: JSONDict = {}
    for name, kind_of in _PAYLOAD_FIELDS.items():
        value = details.get(name)
        if value is None:
            continue
        try:
            fields[name] = kind_of(value)
        except (TypeError, ValueError):
            continue
    suggestions = payload.get("suggestions")
    if isinstance(suggestions, list) and suggestions:
        fields["suggestion"] = str(suggestions[0])
        fields["suggested_actions"] = tuple(str(s) for s in suggestions[1:])
    return StructuredErrorResponse.for_kind(kind, str(payload.get("message", "")), **fields)


def _names(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise TypeError("not a list of names")
    return tuple(str(v) for v in value)


def _text(value: object) -> str:
    return str(value)


# The details keys read back into a response, with their conversions.
_PAYLOAD_FIELDS: Final[dict[str, Any]] = {
    "is_retryable": bool,
    "action": Action,
    "retry_safety": RetrySafety,
    "retry_after_ms": int,
    "database_error_code": _text,
    "sqlstate": _text,
    "database": _text,
    "backend": _text,
    "constraint": _text,
    "schema": _text,
    "affected_resources": _names,
    "dependencies": _names,
}


def validation_response(errors: Sequence[JSONDict], tool_name: str | None) -> ClassifiedError:
    """
    Classify arguments that fail the tool's input schema.

    Args:
        errors: pydantic's ``ValidationError.errors()`` (``loc``, ``msg``,
            ``type``); the rejected ``input`` values are left out, as they
            are the caller's data.
        tool_name: The tool whose arguments were rejected.

    Returns:
        An ``invalid_parameter`` refusal (-32000), the offending fields in
        ``details.fields`` and ``details.invalid_fields``.
    """
    fields: list[JSONDict] = []
    for err in errors[:50]:
        loc = ".".join(str(part) for part in err.get("loc", ()))
        fields.append(
            {
                "field": loc or "(arguments)",
                "problem": str(err.get("msg", ""))[:300],
                "type": str(err.get("type", "")),
            }
        )
    names = sorted({f["field"] for f in fields})
    message = f"Invalid arguments for tool {tool_name or '?'}: " + "; ".join(
        f"{f['field']}: {f['problem']}" for f in fields[:5]
    )
    response = make_response(
        Kind.INVALID_PARAMETER,
        message,
        affected_resources=(),
        actions=(
            "Read the tool's input schema and correct the named fields",
            "Send every required field with the type the schema states",
        ),
    )
    return ToolInputError(response, {"fields": fields, "invalid_fields": names})


def validation_error_payload(errors: Sequence[JSONDict], tool_name: str | None) -> JSONDict:
    """
    Render arguments that fail the tool's input schema.

    Args:
        errors: pydantic's ``ValidationError.errors()``.
        tool_name: The tool whose arguments were rejected.

    Returns:
        The JSON-RPC payload of `validation_response`.
    """
    refusal = validation_response(errors, tool_name)
    return classified_payload(refusal.response, tool_name, refusal.details)


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
        "suggestions": [
            "This is not a database error: report it to the tool's maintainers",
            "Do not retry the same call unchanged",
        ],
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
    text = message[len(prefix) :] if tool_name and message.startswith(prefix) else message
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
