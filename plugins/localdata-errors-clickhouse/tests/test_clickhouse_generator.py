"""The code table is ClickHouse's own list, as the pinned engine reports it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from localdata_errors_clickhouse import CODES_BY_NAME, ERROR_NAMES, KINDS

TOOL = Path(__file__).resolve().parents[1] / "tools" / "generate_clickhouse_codes.py"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_codes", TOOL)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_table_matches_the_engine() -> None:
    assert _generator().main(["--check"]) == 0


def test_the_engine_names_the_codes_the_brief_lists() -> None:
    # ClickHouse's documented numbers for the errors agents meet most.
    for code, name in {
        60: "UNKNOWN_TABLE",
        47: "UNKNOWN_IDENTIFIER",
        62: "SYNTAX_ERROR",
        159: "TIMEOUT_EXCEEDED",
        164: "READONLY",
        202: "TOO_MANY_SIMULTANEOUS_QUERIES",
        209: "SOCKET_TIMEOUT",
        210: "NETWORK_ERROR",
        241: "MEMORY_LIMIT_EXCEEDED",
        394: "QUERY_WAS_CANCELLED",
        497: "ACCESS_DENIED",
        516: "AUTHENTICATION_FAILED",
    }.items():
        assert ERROR_NAMES[code] == name


def test_every_rule_names_a_code_the_engine_has() -> None:
    assert set(KINDS) <= set(CODES_BY_NAME)
