"""
localdata-mcp, called as its tools call it: the contender the timings compare against.

localdata-mcp's tools send `json.dumps(classify_error(e, db_type).to_dict())`
(`server/database_manager.py`); its side is timed up to that dict, as ours is
up to `classify_error(exc).to_tool_error()`.  It is not a dependency of
this project: `python -m compare` needs it (`tox -e compare` installs it), and
`bench.proof` and `bench.instructions` add its column when it is installed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

__all__ = ["MODULE", "classifier", "tool_call"]

#: The module that holds localdata-mcp's classifier.
MODULE: Final = "localdata_mcp.error_classification"


def classifier() -> Callable[..., Any]:
    """
    localdata-mcp's `classify_error(exception, db_type)`.

    Raises:
        ImportError: localdata-mcp is not installed here.
    """
    return importlib.import_module(MODULE).classify_error  # type: ignore[no-any-return]


def tool_call(classify: Callable[..., Any], exc: BaseException, db_type: str) -> Callable[[], Any]:
    """
    One call as localdata-mcp's tools make it: the dict they send, `None` when it raises.

    Args:
        classify: `classifier()`.
        exc: The exception.
        db_type: The backend's name (localdata-mcp does not detect it).
    """

    def call() -> Any:
        try:
            return classify(exc, db_type).to_dict()
        except Exception:  # noqa: BLE001 - a classifier that raises scores nothing
            return None

    return call
