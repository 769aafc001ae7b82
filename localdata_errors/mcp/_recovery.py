"""
The server recovers from what only the server can recover from, and says so.

A model cannot roll back the server's transaction nor open the server's
connection again: a ``transaction_aborted`` (PostgreSQL's 25P02) or a lost
connection reaching it would be a dead end.  So each tool call runs through
`run`:

- **Each call starts clean.**  It runs in its own transaction on a pooled
  connection that is rolled back when it returns to the pool and checked
  when it is taken from it (`Database`'s checkout guard: a PostgreSQL
  connection still in a transaction, failed or not, is rolled back first;
  one in an unknown state is replaced).  Whatever a call leaves behind, the
  next one does not inherit it.
- **A failed transaction is rolled back and the call runs once more**, when
  a ``rollback`` error (25P02) surfaces anyway: an aborted transaction
  committed nothing, so running the call again cannot do anything twice.
- **A broken connection is discarded and a read runs once more** on a new
  one (``reconnect`` errors).  A write runs again only when it provably
  never reached the server (the connection failed while it was being
  opened or set up); otherwise the error is returned with what the server
  knows of the write: ``details.recovery.write_state`` is
  ``not_committed`` when the connection was lost before the commit was
  sent (the database rolls an open transaction back), ``unknown`` when it
  was lost during the commit or the statement commits by itself (DDL on
  MySQL/MariaDB, a ``COMMIT`` in the text).  The classified
  ``retry_safety`` (``idempotent_only``) is left as it is: check first.

What was done is reported: a success carries ``recovered`` (a list of
``kind``, ``action``, ``done``, ``rerun``), a failure carries
``details.recovery``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors._classify import classify_error
from localdata_errors._kinds import Action, Kind, RetrySafety
from localdata_errors._response import StructuredErrorResponse
from localdata_errors.mcp._results import ClassifiedError, make_response
from localdata_errors.mcp._sql import CallState, Database, StatementTimeoutError
from localdata_errors.retry import RetryVerdict, retry_verdict

__all__ = ["ClassifiedDatabaseError", "run"]

JSONDict = dict[str, Any]
_T = TypeVar("_T")

# Stages at which nothing of the call's own work had reached the server.
_NOTHING_SENT: Final = frozenset({"connect", "setup"})


class ClassifiedDatabaseError(ClassifiedError):
    """
    A database error of a tool call, classified once, with what the server did about it.

    Args:
        response: The classified answer.
        details: Extra keys for the payload's ``details`` (``recovery``, hints...).
        state: Where the call was when it failed.
    """

    def __init__(
        self, response: StructuredErrorResponse, details: JSONDict | None, state: CallState
    ) -> None:
        super().__init__(response, details)
        self.state = state


@dataclass(frozen=True, slots=True)
class Call:
    """
    What the recovery needs to know of a call.

    Args:
        write: Whether the call may write (refused in read-only mode).
        reads_only: Whether the call provably only reads; asked only when a
            connection is lost mid-call.
        self_committing: Whether a statement of the call commits by itself
            (DDL on MySQL/MariaDB, transaction control in the text); asked
            only when a write's connection is lost.
    """

    write: bool
    reads_only: Callable[[], bool] = field(default=lambda: False)
    self_committing: Callable[[], bool] = field(default=lambda: False)


def _note(response: StructuredErrorResponse, done: str, rerun: bool) -> JSONDict:
    return {
        "kind": response.kind.value,
        "action": response.action.value,
        "done": done,
        "rerun": rerun,
    }


def _classify(db: Database, exc: BaseException) -> StructuredErrorResponse:
    if isinstance(exc, StatementTimeoutError):
        # The server's own timer interrupted the statement: its own timeout.
        return make_response(Kind.STATEMENT_TIMEOUT, str(exc), database=db.dialect)
    return classify_error(exc, db.db_type)


def _write_state(call: Call, state: CallState) -> str:
    if state.stage == "commit" or call.self_committing():
        return "unknown"
    return "not_committed"


def run(
    db: Database, call: Call, work: Callable[[Connection, CallState], _T]
) -> tuple[_T, list[JSONDict]]:
    """
    Run one tool call's *work* in a transaction, recovering once where the server can.

    Args:
        db: The database.
        call: What the call is (write or read).
        work: The call's work, on the connection of its transaction; it may
            record what it runs in the `CallState` it is given.

    Returns:
        What *work* returned, and the notes of what the server recovered
        from (empty when nothing happened).

    Raises:
        ClassifiedDatabaseError: The database's error, classified, with
            ``details.recovery`` when the server rolled back, reconnected or
            decided not to run the call again.
        ToolInputError: What the tool layer refused (raised by *work*).
    """
    notes: list[JSONDict] = []
    for attempt in (1, 2):
        state = CallState()
        try:
            with db.transaction(write=call.write, state=state) as conn:
                result = work(conn, state)
        except (sa.exc.SQLAlchemyError, StatementTimeoutError) as exc:
            response = _classify(db, exc)
            notes += state.notes
            done = _recovery(response, call, state)
            if done is not None and attempt == 1:
                notes.append(_note(response, done, rerun=True))
                continue
            details: JSONDict = {}
            if notes or response.action in (Action.ROLLBACK, Action.RECONNECT):
                details["recovery"] = [*notes, _refusal_note(response, call, state)]
            raise ClassifiedDatabaseError(response, details, state) from exc
        return result, [*notes, *state.notes]
    raise AssertionError("unreachable: the second attempt returns or raises")  # pragma: no cover


def _recovery(response: StructuredErrorResponse, call: Call, state: CallState) -> str | None:
    """What the server may do before running the call again; ``None``: nothing."""
    if response.action is Action.ROLLBACK:
        # The failed transaction was rolled back as the call ended: it
        # committed nothing, so the call can run again on a clean one.
        return "rolled_back"
    if response.action is not Action.RECONNECT:
        return None
    # The call is one transaction the server always rolls back when it fails,
    # and the stage it failed at proves whether any of it reached the server:
    # the one retry rule (`retry_verdict`) decides on that, not the guess a
    # driver's message allows.
    reached = state.stage not in _NOTHING_SENT
    judged = response.replace(
        retry_safety=RetrySafety.IDEMPOTENT_ONLY if reached else RetrySafety.SAFE
    )
    idempotent = not reached or not call.write or call.reads_only()
    if retry_verdict(judged, idempotent=idempotent, rolled_back=True) is RetryVerdict.RETRY:
        # The pool discarded the broken connection; the next one is new.
        return "reconnected"
    return None


def _refusal_note(response: StructuredErrorResponse, call: Call, state: CallState) -> JSONDict:
    """What the server did about an error it returns (it does not run the call again)."""
    done = {Action.ROLLBACK: "rolled_back", Action.RECONNECT: "reconnected"}.get(
        response.action, "none"
    )
    note = {**_note(response, done, rerun=False), "stage": state.stage}
    if (
        response.action is Action.RECONNECT
        and call.write
        and state.stage not in _NOTHING_SENT
        and not call.reads_only()
    ):
        # A write the server does not send again by itself: what it knows of it.
        note["write_state"] = _write_state(call, state)
    return note
