"""
Microsoft's mssql-python: its `Driver Error:` texts, read from the driver, and real errors.

The driver keeps the ODBC SQLSTATE out of its message and writes a text
that stands for it; its `exceptions.sqlstate_to_exception` lists them all.
Each text, shown as the driver shows it, must come back with that SQLSTATE
and an answer fitting the SQLSTATE's class (ODBC 3.x: 08 connection, 23
integrity constraint, 28 authorization, 42 syntax or access rule, HYT
timeouts).  A bare 23000 names no constraint: the server's text decides
which, else it is a check violation.
"""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path

import pytest

from localdata_errors import classify_error, classify_message
from localdata_errors._kinds import Action, ErrorCategory, RetrySafety
from tests.conftest import require_module

ROOT = Path(__file__).resolve().parents[2]

C = ErrorCategory
BY_CLASS: dict[str, set[ErrorCategory]] = {
    "08": {C.CONNECTION_ERROR},
    "23": {C.CONSTRAINT_ERROR},
    "28": {C.AUTH_ERROR},
    "42": {C.SYNTAX_ERROR, C.SCHEMA_ERROR, C.AUTH_ERROR},
    "HYT": {C.TRANSIENT_ERROR, C.CONNECTION_ERROR},
}


def _driver_texts() -> list[tuple[str, str]]:
    spec = importlib.util.find_spec("mssql_python")
    if spec is None or spec.origin is None:
        return []
    tool_spec = importlib.util.spec_from_file_location(
        "generate_mssql_python_texts", ROOT / "tools" / "generate_mssql_python_texts.py"
    )
    assert tool_spec is not None
    assert tool_spec.loader is not None
    tool = importlib.util.module_from_spec(tool_spec)
    tool_spec.loader.exec_module(tool)
    texts: dict[str, str] = tool.read_texts(Path(spec.origin).with_name("exceptions.py"))
    firsts: dict[str, str] = {}
    for state, text in sorted(texts.items()):
        firsts.setdefault(text, state)  # a text shared by two SQLSTATEs: the first
    return sorted((state, text) for text, state in firsts.items())


TEXTS = _driver_texts()


def test_the_list_is_the_drivers() -> None:
    require_module("mssql_python")
    assert len(TEXTS) > 100
    assert ("08001", "Client unable to establish connection") in TEXTS


@pytest.mark.parametrize(("sqlstate", "text"), TEXTS, ids=[s for s, _ in TEXTS])
def test_each_driver_text_stands_for_its_sqlstate(sqlstate: str, text: str) -> None:
    shown = f"Driver Error: {text}; DDBC Error: [Microsoft][SQL Server]The statement failed."
    answer = classify_message(shown, "mssql")
    assert answer.database_error_code == sqlstate
    allowed = BY_CLASS.get(sqlstate[:3]) or BY_CLASS.get(sqlstate[:2])
    if allowed is not None:
        assert answer.error_type in allowed, (sqlstate, text, answer.kind)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_real_refused_connect() -> None:
    mssql_python = require_module("mssql_python")
    url = f"Server=127.0.0.1,{_closed_port()};UID=sa;PWD=x;Encrypt=no"
    with pytest.raises(mssql_python.Error) as caught:
        mssql_python.connect(url, timeout=3)
    answer = classify_error(caught.value)
    assert answer.database == "mssql"
    assert answer.database_error_code == "08001"
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR
    assert answer.retry_safety is RetrySafety.SAFE


def test_real_bad_connection_string_stops() -> None:
    mssql_python = require_module("mssql_python")
    parse_error = mssql_python.exceptions.ConnectionStringParseError
    with pytest.raises(parse_error) as caught:
        mssql_python.connect("Server=127.0.0.1;Timeout=3")
    answer = classify_error(caught.value)
    assert answer.database == "mssql"
    assert answer.action is Action.STOP
    assert not answer.is_retryable
