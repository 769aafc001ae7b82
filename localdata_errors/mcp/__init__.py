"""
Structured tool errors for any MCP server built on the official ``mcp`` SDK.

A tool that fails returns a tool result with ``isError: true`` whose JSON
text content and structured content are the same MCP / JSON-RPC payload
(`StructuredErrorResponse.to_jsonrpc_error`): the model reads what went
wrong, whether to retry and what to change.  Tool failures stay tool
results, so the model sees them; only protocol faults (the SDK's
``MCPError``) become JSON-RPC errors.

```python
from mcp.server.mcpserver import MCPServer
from localdata_errors.mcp import install_structured_errors, structured_errors

server = MCPServer("orders")
install_structured_errors(server)  # every tool, argument validation included


@server.tool()
@structured_errors(db_type="postgresql")  # or per tool, without install
def count_orders(customer_id: int) -> dict: ...
```

Importing `localdata_errors` never imports ``mcp``; this module does.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, NamedTuple, Protocol, TypeVar, cast, overload

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, PrivateAttr, ValidationError

from localdata_errors._classify import classify_error
from localdata_errors._kinds import Kind
from localdata_errors._redact import redact
from localdata_errors._response import StructuredErrorResponse
from localdata_errors.mcp._results import (
    JSONRPC_INTERNAL_ERROR,
    ClassifiedError,
    ToolInputError,
    anticipated_error_payload,
    classified_payload,
    compact_payload,
    internal_error_payload,
    is_database_error,
    make_response,
    response_from_payload,
    validation_response,
)

__all__ = [
    "JSONRPC_INTERNAL_ERROR",
    "ClassifiedError",
    "HistoryLike",
    "ToolInputError",
    "error_payload",
    "error_result",
    "install_structured_errors",
    "make_response",
    "structured_errors",
]

logger = logging.getLogger("localdata_errors.mcp")

JSONDict = dict[str, Any]
_F = TypeVar("_F", bound=Callable[..., Any])


class HistoryLike(Protocol):
    """What an execution history offers (`localdata_errors.history.ExecutionHistory`)."""

    def record(
        self,
        tool_name: str,
        arguments: Any,
        *,
        error: Any = None,
        result: dict[str, Any] | None = None,
        db_type: str | None = None,
    ) -> Any:
        """Record one tool call."""

    def summary(self) -> str:
        """Summarise the recent calls; empty when there are none."""


#: A history, or a function giving the history of the call's session
#: (it receives the SDK's request context, ``None`` outside a request).
HistorySource = HistoryLike | Callable[[Any], HistoryLike | None] | None


def _innermost(exc: BaseException) -> BaseException:
    # The SDK wraps what a tool raised in ToolError/UnexpectedToolError (nested
    # tool calls wrap again); the original is at the end of the __cause__ chain.
    current = exc
    for _ in range(8):
        cause = current.__cause__
        if not isinstance(current, ToolError) or cause is None:
            break
        current = cause
    return current


class _Failure(NamedTuple):
    """A failed call, classified once: the payload the client reads and the answer behind it."""

    payload: JSONDict
    response: StructuredErrorResponse


def _failure(
    exc: BaseException,
    tool_name: str | None,
    *,
    db_type: str | None,
    database_errors: tuple[type[BaseException], ...],
    secrets: Iterable[object],
) -> _Failure:
    inner = _innermost(exc)
    if isinstance(inner, ClassifiedError):
        payload = classified_payload(inner.response, tool_name, inner.details, secrets=secrets)
        return _Failure(payload, inner.response)
    if isinstance(inner, ValidationError):
        refusal = validation_response(cast(list[JSONDict], inner.errors()), tool_name)
        return _Failure(
            classified_payload(refusal.response, tool_name, refusal.details), refusal.response
        )
    if is_database_error(inner, database_errors):
        response = classify_error(inner, db_type, secrets=secrets)
        return _Failure(response.to_jsonrpc_error(tool_name=tool_name), response)
    if isinstance(inner, ToolError) and not isinstance(inner, UnexpectedToolError):
        payload = anticipated_error_payload(str(inner), tool_name)
        return _Failure(payload, make_response(Kind.INVALID_PARAMETER, payload["message"]))
    payload = internal_error_payload(inner, tool_name)
    return _Failure(payload, make_response(Kind.UNKNOWN, payload["message"]))


def error_payload(
    exc: BaseException,
    tool_name: str | None = None,
    *,
    db_type: str | None = None,
    database_errors: tuple[type[BaseException], ...] = (),
    secrets: Iterable[object] = (),
) -> JSONDict:
    """
    Render any exception a tool call raised as the JSON-RPC payload.

    Args:
        exc: The exception: a database exception (classified), a
            `ToolInputError` or another already classified error (rendered
            as it is), pydantic's ``ValidationError`` (invalid arguments,
            -32000, the fields in ``details.fields``), the SDK's
            ``ToolError`` (its own text), or anything else (-32603, the
            class name only).
        tool_name: The tool that failed.
        db_type: The backend, when known (otherwise detected).
        database_errors: More exception classes to classify as database errors.
        secrets: Values to mask in every field.

    Returns:
        The payload: ``success, error_type, error_code, jsonrpc_error_code,
        message, details, suggestions, tool_name, timestamp``.
    """
    return _failure(
        exc, tool_name, db_type=db_type, database_errors=database_errors, secrets=secrets
    ).payload


class _ErrorResult(CallToolResult):
    """A failed call's result that keeps, on the server, the answer it was rendered from."""

    _response: StructuredErrorResponse | None = PrivateAttr(default=None)


def error_result(
    payload: JSONDict,
    history_summary: str = "",
    *,
    response: StructuredErrorResponse | None = None,
    repeated: JSONDict | None = None,
) -> CallToolResult:
    """
    Wrap a payload into the tool result the model receives.

    Args:
        payload: The JSON-RPC payload.
        history_summary: The execution history's summary, attached as
            ``history`` when not empty.
        response: The classified answer the payload was rendered from; kept
            on the result (never sent), so that whoever records the call
            reads that answer instead of classifying the text again.
        repeated: How often this same call has failed unchanged, attached as
            ``repeated_call`` (``times``, ``action``) when given.

    Returns:
        ``CallToolResult(isError=True)`` with the payload as compact JSON
        text and as structured content.
    """
    if history_summary:
        payload = {**payload, "history": history_summary}
    if repeated:
        payload = {**payload, "repeated_call": repeated}
    text = json.dumps(payload, default=str, separators=(",", ":"))
    result = _ErrorResult(
        content=[TextContent(type="text", text=text)], structured_content=payload, is_error=True
    )
    result._response = response
    return result


def _jsonable_arguments(arguments: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in arguments.items():
        if isinstance(value, BaseModel):
            out[key] = value.model_dump(mode="json")
        elif isinstance(value, str | int | float | bool | list | dict | type(None)):
            out[key] = value
    return out


def _resolve_history(source: HistorySource, context: Any) -> HistoryLike | None:
    if source is None:
        return None
    if hasattr(source, "record"):
        return cast(HistoryLike, source)
    return source(context)


class _Recorded(NamedTuple):
    summary: str = ""
    repeated: JSONDict | None = None


def _record(  # noqa: PLR0913 - mirrors ExecutionHistory.record's keywords
    history: HistoryLike | None,
    tool_name: str,
    arguments: Any,
    *,
    error: StructuredErrorResponse | None = None,
    result: dict[str, Any] | None = None,
    db_type: str | None = None,
) -> _Recorded:
    """
    Record one call; return the summary and, for a call repeated unchanged, how often.

    A failing history never fails the call.  *arguments* are the call's own
    (made JSON-ready) or what ``history_arguments`` made of them, e.g. a
    ``StructuredCall``, passed on as it is.
    """
    if history is None:
        return _Recorded()
    if isinstance(arguments, dict):
        arguments = _jsonable_arguments(arguments)
    try:
        entry = history.record(tool_name, arguments, error=error, result=result, db_type=db_type)
        # A failure carries only what bears on it (ExecutionHistory.summary_for),
        # never notes about other calls; a history without that method, all of it.
        bearing = getattr(history, "summary_for", None)
        summary = bearing(entry) if error is not None and bearing else history.summary()
    except Exception:  # the history is an aid; the tool's answer matters more
        logger.warning("execution history failed while recording %s", tool_name, exc_info=True)
        return _Recorded()
    repeats = getattr(entry, "repeats", 0)
    if error is not None and isinstance(repeats, int) and repeats >= 1:
        return _Recorded(summary, {"times": repeats + 1, "action": error.action.value})
    return _Recorded(summary)


@overload
def structured_errors(fn: _F, /) -> _F: ...


@overload
def structured_errors(
    fn: None = None,
    /,
    *,
    tool_name: str | None = None,
    db_type: str | None = None,
    history: HistorySource = None,
    database_errors: tuple[type[BaseException], ...] = (),
) -> Callable[[_F], _F]: ...


def structured_errors(
    fn: _F | None = None,
    /,
    *,
    tool_name: str | None = None,
    db_type: str | None = None,
    history: HistorySource = None,
    database_errors: tuple[type[BaseException], ...] = (),
) -> _F | Callable[[_F], _F]:
    """
    Turn what a tool function raises into a structured error result.

    Use it bare (``@structured_errors``) or with options; put it *below* the
    server's ``@server.tool()`` so the SDK sees the function's own signature.
    Sync and async functions are both supported.

    Args:
        fn: The tool function (when used bare).
        tool_name: The name echoed in ``tool_name``; the function's name by default.
        db_type: The backend, when known (otherwise detected per exception).
        history: An execution history (or a function of the request context
            returning one) that records each call; its summary is attached
            to error results as ``history``.
        database_errors: More exception classes to classify as database errors.

    Returns:
        The wrapped function: it returns the function's own result on
        success, and ``CallToolResult(isError=True)`` on failure.  The SDK's
        ``MCPError`` (a protocol fault) is re-raised unchanged.
    """

    def decorate(func: _F) -> _F:
        name = tool_name or func.__name__

        def fail(exc: BaseException, kwargs: dict[str, Any]) -> CallToolResult:
            failure = _failure(
                exc, name, db_type=db_type, database_errors=database_errors, secrets=()
            )
            if failure.payload["jsonrpc_error_code"] == JSONRPC_INTERNAL_ERROR:
                logger.exception("tool %s raised an unexpected exception", name, exc_info=exc)
            recorded = _record(
                _resolve_history(history, None),
                name,
                kwargs,
                error=failure.response,
                db_type=db_type,
            )
            return error_result(
                failure.payload,
                recorded.summary,
                response=failure.response,
                repeated=recorded.repeated,
            )

        def succeed(value: Any, kwargs: dict[str, Any]) -> Any:
            if history is not None:
                result = value if isinstance(value, dict) else None
                _record(
                    _resolve_history(history, None), name, kwargs, result=result, db_type=db_type
                )
            return value

        if inspect.iscoroutinefunction(func):
            async_func = cast(Callable[..., Awaitable[Any]], func)

            @functools.wraps(func)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    value = await async_func(*args, **kwargs)
                except MCPError:
                    raise
                except Exception as exc:  # noqa: BLE001 - every failure becomes a tool result
                    return fail(exc, kwargs)
                return succeed(value, kwargs)

            return cast(_F, async_wrapper)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                value = func(*args, **kwargs)
            except MCPError:
                raise
            except Exception as exc:  # noqa: BLE001 - every failure becomes a tool result
                return fail(exc, kwargs)
            return succeed(value, kwargs)

        return cast(_F, wrapper)

    if fn is not None:
        return decorate(fn)
    return decorate


def _session_id(context: Any) -> str | None:
    # Over stdio the process serves one client: one session.  Over HTTP the
    # client names its session in the Mcp-Session-Id header.
    try:
        request = context.request_context.request if context is not None else None
    except (AttributeError, ValueError, LookupError):
        return None
    headers = getattr(request, "headers", None)
    value = headers.get("mcp-session-id") if headers is not None else None
    return value if isinstance(value, str) and value else None


def _session_histories(
    factory: Callable[[], HistoryLike], max_sessions: int = 256
) -> Callable[[Any], HistoryLike]:
    """One history per client session, created on first use; the oldest sessions forgotten."""
    by_session: OrderedDict[str | None, HistoryLike] = OrderedDict()
    lock = threading.Lock()

    def history_for(context: Any) -> HistoryLike:
        key = _session_id(context)
        with lock:
            found = by_session.get(key)
            if found is None:
                found = by_session[key] = factory()
                while len(by_session) > max_sessions:
                    by_session.popitem(last=False)
            else:
                by_session.move_to_end(key)
            return found

    return history_for


def install_structured_errors(  # noqa: PLR0913 - keyword-only settings of one installation
    server: MCPServer[Any],
    *,
    db_type: str | None = None,
    history: HistorySource = None,
    history_per_session: Callable[[], HistoryLike] | None = None,
    database_errors: tuple[type[BaseException], ...] = (),
    secrets: Iterable[object] = (),
    history_arguments: Callable[[str, dict[str, Any]], Any] | None = None,
    compact: bool = False,
) -> MCPServer[Any]:
    """
    Make every tool of an ``MCPServer`` fail with structured errors.

    It wraps the server's ``call_tool``, the boundary where the SDK raises
    ``ToolError`` (invalid arguments, a deliberate failure) and
    ``UnexpectedToolError`` (anything else, the original as ``__cause__``):
    argument validation failures are covered too, which a decorator on the
    function cannot see.

    Args:
        server: The server; changed in place.
        db_type: The backend, when known (otherwise detected per exception).
        history: An execution history, or a function of the request context
            returning one.
        history_per_session: A factory (e.g. ``ExecutionHistory``): each
            client session gets its own history.  Overrides *history*.
        database_errors: More exception classes to classify as database errors.
        secrets: Values to mask in every field of every error (passwords).
        history_arguments: Maps a call's name and arguments to what the history
            records, e.g. a ``localdata_errors.history.StructuredCall``, so the
            history shows what was called (never the values) and knows what
            the call changed.
        compact: Render failures in the compact form (`compact_payload`: the
            tool shape and what the tool added) instead of the JSON-RPC shape.

    Returns:
        The same server, for chaining.
    """
    source: HistorySource = (
        _session_histories(history_per_session) if history_per_session is not None else history
    )
    original = server.call_tool
    masked = tuple(secrets)

    async def call_tool(name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        current = _resolve_history(source, context)
        recorded: Any = arguments
        if current is not None and history_arguments is not None:
            try:
                recorded = history_arguments(name, arguments)
            except Exception:  # a description for the history never fails the call
                logger.warning("history_arguments failed for %s", name, exc_info=True)
                recorded = {}  # the tool's name only: its raw arguments may hold values
        try:
            result = await original(name, arguments, context)
        except MCPError:
            raise
        except Exception as exc:
            failure = _failure(
                exc, name, db_type=db_type, database_errors=database_errors, secrets=masked
            )
            if failure.payload["jsonrpc_error_code"] == JSONRPC_INTERNAL_ERROR:
                logger.exception(
                    "tool %s raised an unexpected exception", name, exc_info=_innermost(exc)
                )
            recorded_call = _record(
                current, name, recorded, error=failure.response, db_type=db_type
            )
            payload = (
                compact_payload(failure.payload, failure.response) if compact else failure.payload
            )
            return error_result(
                payload,
                redact(recorded_call.summary, masked) if masked else recorded_call.summary,
                response=failure.response,
                repeated=recorded_call.repeated,
            )
        if isinstance(result, CallToolResult) and result.is_error:
            # A decorated tool already rendered its failure: record the answer
            # it was rendered from, and attach the summary.
            structured = result.structured_content
            response = _rendered_response(result)
            rendered = (
                _record(current, name, recorded, error=response, db_type=db_type)
                if current is not None
                else None
            )
            summary = "" if rendered is None else rendered.summary
            if isinstance(structured, dict) and (summary or compact):
                payload = compact_payload(structured, response) if compact else dict(structured)
                return error_result(
                    payload,
                    redact(summary, masked) if masked else summary,
                    response=response,
                    repeated=None if rendered is None else rendered.repeated,
                )
        elif isinstance(result, CallToolResult) and current is not None:
            structured = result.structured_content
            _record(
                current,
                name,
                recorded,
                result=structured if isinstance(structured, dict) else None,
                db_type=db_type,
            )
        return result

    # The SDK's own handler calls ``self.call_tool``: an instance attribute is
    # the seam, and the documented place to tell crashes from ToolErrors.
    server.call_tool = call_tool  # type: ignore[method-assign]  # see the comment above
    return server


def _rendered_response(result: CallToolResult) -> StructuredErrorResponse:
    """The answer a failed result was rendered from: kept on it, else read from its payload."""
    kept = result._response if isinstance(result, _ErrorResult) else None
    if kept is not None:
        return kept
    structured = result.structured_content
    read = response_from_payload(structured)
    if read is not None:
        return read
    # A tool of someone else's that failed with text only: nothing was classified.
    message = structured.get("message") if isinstance(structured, dict) else None
    if message is None:
        message = next((getattr(c, "text", None) for c in result.content), None)
    return make_response(Kind.UNKNOWN, str(message or "tool error")[:2000])
