"""
The code table is what the generator makes of Trino's StandardErrorCode enum.

No package registry ships the Java source, so the drift check against
upstream needs a checkout (``--check --source ... --commit ...``); here the
generator's parser and renderer are checked on the enum the table describes,
written back in the enum's own form.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from localdata_errors_trino import ERROR_CODES, KINDS
from localdata_errors_trino._codes import SOURCE_COMMIT

TOOL = Path(__file__).resolve().parents[1] / "tools" / "generate_trino_codes.py"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_trino_codes", TOOL)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _enum_source() -> str:
    entries = "\n".join(
        f"    {name}({code}, {kind})," for name, (code, kind) in ERROR_CODES.items()
    )
    return (
        "package io.trino.spi;\n\npublic enum StandardErrorCode\n"
        "        implements ErrorCodeSupplier\n{\n"
        f"{entries}\n\n    /**/;\n}}\n"
    )


def test_table_round_trips_through_the_generator(tmp_path: Path) -> None:
    source = tmp_path / "StandardErrorCode.java"
    source.write_text(_enum_source())
    assert _generator().main(["--check", "--source", str(source), "--commit", SOURCE_COMMIT]) == 0


def test_generator_refuses_what_it_does_not_understand(tmp_path: Path) -> None:
    source = tmp_path / "StandardErrorCode.java"
    source.write_text(
        _enum_source().replace("    SYNTAX_ERROR(1, USER_ERROR),", "    SYNTAX_ERROR(1),")
    )
    with pytest.raises(ValueError, match="not an enum entry"):
        _generator().main(["--check", "--source", str(source), "--commit", SOURCE_COMMIT])
    source.write_text(_enum_source().replace("(1, USER_ERROR)", "(0, USER_ERROR)"))
    with pytest.raises(ValueError, match="twice"):
        _generator().main(["--check", "--source", str(source), "--commit", SOURCE_COMMIT])


def test_trinos_numbering_by_error_type() -> None:
    # StandardErrorCode numbers each type from its own base: 0x0, 0x1_0000, 0x2_0000.
    bases = {"USER_ERROR": 0, "INTERNAL_ERROR": 0x1_0000, "INSUFFICIENT_RESOURCES": 0x2_0000}
    for code, kind in ERROR_CODES.values():
        assert bases[kind] <= code < bases[kind] + 0x1_0000
    assert ERROR_CODES["TABLE_NOT_FOUND"] == (46, "USER_ERROR")


def test_every_rule_names_a_standard_error() -> None:
    assert set(KINDS) <= set(ERROR_CODES)
