"""
The condition table is what the generator makes of Spark's error-conditions.json.

The drift check against Spark's file needs pyspark (the ``codes`` extra:
``python tools/generate_databricks_conditions.py --check``); here the generator's reader
and renderer are checked on the classes the table holds, written back in
Spark's JSON form.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
from localdata_errors_databricks import CONDITIONS, SOURCE

TOOL = Path(__file__).resolve().parents[1] / "tools" / "generate_databricks_conditions.py"
MODULE = Path(__file__).resolve().parents[1] / "localdata_errors_databricks" / "_conditions.py"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_conditions", TOOL)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_table_round_trips_through_the_generator(tmp_path: Path) -> None:
    source = tmp_path / "error-conditions.json"
    body = {name: {"message": ["..."], "sqlState": state} for name, state in CONDITIONS.items()}
    body["_LEGACY_ERROR_TEMP_0001"] = {"message": ["no SQLSTATE"]}
    source.write_text(json.dumps(body))
    generator = _generator()
    conditions, _ = generator.read(source)
    assert conditions == dict(CONDITIONS)
    assert generator.render(conditions, SOURCE) == MODULE.read_text(encoding="utf-8")


def test_generator_refuses_a_malformed_state(tmp_path: Path) -> None:
    source = tmp_path / "error-conditions.json"
    source.write_text(json.dumps({"X": {"message": ["x"], "sqlState": "4201"}}))
    with pytest.raises(ValueError, match="five characters"):
        _generator().read(source)
