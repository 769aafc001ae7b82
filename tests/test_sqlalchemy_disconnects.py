"""
SQLAlchemy's disconnect detection, read from its source, is a connection problem here too.

Each dialect's `is_disconnect` lists the messages and error numbers after
which SQLAlchemy throws a connection away.  Read from the installed
SQLAlchemy at test time (string and integer literals inside each
`is_disconnect`), every one must classify as a connection problem for the
dialect's backend, with `reconnect` or `retry` as the next step.
"""

from __future__ import annotations

import ast
import importlib
import inspect

import pytest

from localdata_errors import classify_message
from localdata_errors._kinds import Action, ErrorCategory
from tests.conftest import require_module

DIALECTS = {
    "postgresql": [
        "sqlalchemy.dialects.postgresql.psycopg2",
        "sqlalchemy.dialects.postgresql.psycopg",
        "sqlalchemy.dialects.postgresql.asyncpg",
        "sqlalchemy.dialects.postgresql.pg8000",
    ],
    "mysql": [
        "sqlalchemy.dialects.mysql.base",
        "sqlalchemy.dialects.mysql.pymysql",
        "sqlalchemy.dialects.mysql.mysqldb",
        "sqlalchemy.dialects.mysql.mysqlconnector",
        "sqlalchemy.dialects.mysql.aiomysql",
        "sqlalchemy.dialects.mysql.asyncmy",
        "sqlalchemy.dialects.mysql.mariadbconnector",
    ],
    "mssql": [
        "sqlalchemy.dialects.mssql.base",
        "sqlalchemy.dialects.mssql.pyodbc",
        "sqlalchemy.dialects.mssql.pymssql",
    ],
    "oracle": [
        "sqlalchemy.dialects.oracle.cx_oracle",
        "sqlalchemy.dialects.oracle.oracledb",
    ],
}


def _literals(module: str) -> tuple[list[str], list[int]]:
    """The phrases and numbers inside the module's `is_disconnect` methods."""
    source = inspect.getsource(importlib.import_module(module))
    phrases: list[str] = []
    numbers: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "is_disconnect":
            for item in ast.walk(node):
                if isinstance(item, ast.Constant):
                    if isinstance(item.value, str) and " " in item.value.strip():
                        phrases.append(item.value)
                    elif (
                        isinstance(item.value, int)
                        and not isinstance(item.value, bool)
                        and item.value > 1000
                    ):
                        numbers.append(item.value)
    return phrases, numbers


def _cases() -> list[tuple[str, str, str | int]]:
    try:
        importlib.import_module("sqlalchemy")
    except ImportError:
        return []
    cases: list[tuple[str, str, str | int]] = []
    for backend, modules in DIALECTS.items():
        for module in modules:
            try:
                phrases, numbers = _literals(module)
            except ImportError:
                continue
            cases += [(backend, module, p) for p in dict.fromkeys(phrases)]
            cases += [(backend, module, n) for n in dict.fromkeys(numbers)]
    return cases


CASES = _cases()


def test_the_lists_were_read() -> None:
    require_module("sqlalchemy")
    backends = {backend for backend, _, _ in CASES}
    assert backends == set(DIALECTS)
    assert len(CASES) > 40


@pytest.mark.parametrize(
    ("backend", "module", "said"), CASES, ids=[f"{m.rsplit('.', 1)[1]}-{s}" for _, m, s in CASES]
)
def test_each_disconnect_is_a_connection_problem(
    backend: str, module: str, said: str | int
) -> None:
    if isinstance(said, int):
        if backend == "oracle":
            answer = classify_message(f"ORA-{said:05d}: connection error", backend)
        else:
            answer = classify_message("the connection failed", backend, code=said)
    elif said.startswith("message ") and module.endswith("pymssql"):
        # SQLAlchemy looks for part of FreeTDS's "DB-Lib error message N, severity S:".
        answer = classify_message(f"DB-Lib error {said}, severity 9:\n", backend)
    else:
        answer = classify_message(said, backend)
    assert answer.error_type is ErrorCategory.CONNECTION_ERROR, (said, answer.kind)
    assert answer.action in {Action.RECONNECT, Action.RETRY}, (said, answer.action)
