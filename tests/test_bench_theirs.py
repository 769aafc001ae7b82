"""localdata-mcp's side of the timings: called as its tools call it."""

from __future__ import annotations

from typing import Any

from bench.theirs import tool_call


class _Answer:
    def __init__(self, exc: BaseException, db_type: str) -> None:
        self.seen = (exc, db_type)

    def to_dict(self) -> dict[str, Any]:
        return {"message": str(self.seen[0]), "database": self.seen[1]}


def _raising(exc: BaseException, db_type: str) -> Any:
    raise RuntimeError("no pattern for " + db_type)


def test_a_call_sends_the_dict_its_tools_send_for_the_backend_it_is_told() -> None:
    call = tool_call(_Answer, ValueError("boom"), "postgresql")
    assert call() == {"message": "boom", "database": "postgresql"}


def test_a_classifier_that_raises_answers_nothing_instead_of_stopping_the_run() -> None:
    assert tool_call(_raising, ValueError("boom"), "mysql")() is None
