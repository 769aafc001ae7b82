"""
SQLAlchemy: a `handle_error` listener that attaches the answer to the
exception and marks the disconnects SQLAlchemy's dialect does not recognise.

```python
from sqlalchemy import create_engine
from localdata_errors.integrations.sqlalchemy import listen, answer_of

engine = create_engine("mysql+mysqlconnector://app@db/shop")
listen(engine)

try:
    with engine.connect() as conn:
        conn.exec_driver_sql("SELECT * FROM ordrs")
except Exception as exc:
    answer = answer_of(exc)  # StructuredErrorResponse, kind undefined_table
```

The answer is set as `localdata_error` on SQLAlchemy's exception and on the
driver's.  When the answer's action is `reconnect`, or its category is
`connection_error`, `ExceptionContext.is_disconnect` is set to true, so
SQLAlchemy invalidates the connection (and, by its own default, the pool)
and the next use reconnects.  The listener only ever sets it to true: a
disconnect SQLAlchemy (or an earlier listener) found stays one.

Needs the `sqlalchemy` extra.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Final, cast

from sqlalchemy import event

from localdata_errors._chain import chain
from localdata_errors._classify import classify_error
from localdata_errors._kinds import Action, ErrorCategory
from localdata_errors._response import StructuredErrorResponse

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine, ExceptionContext
    from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = ["ANSWER_ATTRIBUTE", "answer_of", "handle_error", "listen"]

#: The attribute that carries the `StructuredErrorResponse` on the exceptions.
ANSWER_ATTRIBUTE: Final = "localdata_error"


def _classify(context: ExceptionContext) -> StructuredErrorResponse:
    error = context.sqlalchemy_exception or context.original_exception
    answer = classify_error(error)
    if answer.backend == "generic":
        # A driver no backend claims: the dialect still names the database.
        by_dialect = classify_error(error, context.dialect.name)
        if by_dialect.backend != "generic":
            return by_dialect
    return answer


def handle_error(context: ExceptionContext) -> None:
    """
    The `handle_error` listener: classify, attach, and mark a disconnect.

    Register it with `listen(engine)` or
    `event.listen(engine, "handle_error", handle_error)`.  It returns
    nothing, so SQLAlchemy raises its own exception as usual.

    Args:
        context: SQLAlchemy's `ExceptionContext`.
    """
    answer = _classify(context)
    for exc in (context.sqlalchemy_exception, context.original_exception):
        if exc is not None:
            # An exception type without a __dict__ cannot carry it; the other may.
            with contextlib.suppress(AttributeError, TypeError):
                setattr(exc, ANSWER_ATTRIBUTE, answer)
    if not context.is_disconnect and (
        answer.action is Action.RECONNECT or answer.error_type is ErrorCategory.CONNECTION_ERROR
    ):
        context.is_disconnect = True


def listen(engine: Engine | AsyncEngine) -> None:
    """
    Register `handle_error` on an engine (an `AsyncEngine`'s `sync_engine` for an async one).

    Args:
        engine: The engine.
    """
    # An AsyncEngine's events are its sync_engine's; checked by attribute, so
    # that sqlalchemy.ext.asyncio (and greenlet) is not imported here.
    target: Engine = getattr(engine, "sync_engine", None) or cast("Engine", engine)
    if not event.contains(target, "handle_error", handle_error):
        event.listen(target, "handle_error", handle_error)


def answer_of(exc: BaseException) -> StructuredErrorResponse | None:
    """
    The answer the listener attached to *exc*, or to the exception it wraps or was raised from.

    Args:
        exc: SQLAlchemy's exception, the driver's, or one raised from either.

    Returns:
        The `StructuredErrorResponse`, or `None` when the listener did not
        see the error (classify it with `classify_error` then).
    """
    for link in chain(exc):
        answer = getattr(link, ANSWER_ATTRIBUTE, None)
        if isinstance(answer, StructuredErrorResponse):
            return answer
    return None
