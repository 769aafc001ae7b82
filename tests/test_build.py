"""The compiled and the pure-Python builds: which one runs, and that both are the same code."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import localdata_errors
from localdata_errors._compiled import MODULES, PURE_PYTHON_ENV

ROOT = Path(__file__).resolve().parents[1]
NAMES = [path.removesuffix(".py").replace("/", ".") for path in MODULES]


def _is_compiled(name: str) -> bool:
    return not str(importlib.import_module(name).__file__).endswith(".py")


def test_the_build_under_test_is_the_one_ci_asked_for() -> None:
    # CI runs the whole suite twice and says which build each run must be.
    expected = os.environ.get("LOCALDATA_ERRORS_EXPECT_BUILD")
    if expected is None:
        pytest.skip("LOCALDATA_ERRORS_EXPECT_BUILD is not set (CI sets it: pure or compiled)")
    compiled = {name: _is_compiled(name) for name in NAMES}
    if expected == "compiled":
        assert all(compiled.values()), compiled
    else:
        assert expected == "pure"
        assert not any(compiled.values()), compiled


def test_every_listed_module_exists_and_nothing_else_is_compiled() -> None:
    for path in MODULES:
        assert (ROOT / path).is_file(), path
    # Neither the registry (pluggy's markers) nor the plugins' base classes.
    assert "localdata_errors/registry.py" not in MODULES
    assert "localdata_errors/mapper.py" not in MODULES
    assert "localdata_errors/__init__.py" not in MODULES


def test_the_environment_variable_forces_the_pure_python_modules() -> None:
    code = (
        "import localdata_errors, importlib;"
        f"print(all(str(importlib.import_module(n).__file__).endswith('.py') for n in {NAMES!r}))"
    )
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "True", out.stderr
    assert localdata_errors.__version__
