"""Each adapter imports its own framework, and only when it is imported itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FRAMEWORKS = ["pydantic_ai", "langchain", "langchain_core", "langgraph", "agents", "sqlalchemy"]


def imported_after(statement: str) -> list[str]:
    code = (
        f"import sys\n{statement}\nprint(' '.join(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    )
    # This tree's package, whatever is installed.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return out.stdout.split()


def test_the_integrations_package_imports_no_framework() -> None:
    assert imported_after("import localdata_errors.integrations") == []


@pytest.mark.parametrize(
    ("module", "own"),
    [
        ("pydantic_ai", {"pydantic_ai"}),
        ("langchain", {"langchain_core", "langgraph"}),
        ("openai_agents", {"agents"}),
        ("sqlalchemy", {"sqlalchemy"}),
    ],
)
def test_each_adapter_imports_only_its_framework(module: str, own: set[str]) -> None:
    assert set(imported_after(f"import localdata_errors.integrations.{module}")) == own
