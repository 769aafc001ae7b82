"""
`localdata-errors catalogue --format json`: the decisions as data for other languages.

The export must be valid against the JSON Schema shipped in the package, and
a reader that has only the export must reach the same answer for every code
of every backend as `classify_message(code=...)` does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from localdata_errors import (
    Action,
    ErrorCategory,
    Kind,
    RetrySafety,
    __version__,
    classify_message,
)
from localdata_errors._catalogue import build_catalogue, load_schema
from localdata_errors._kinds import RetryStrategy, RollbackScope, ToolErrorType
from localdata_errors._registry import ErrorMapperRegistry
from tests.conftest import require_tool

ROOT = Path(__file__).resolve().parent.parent
READERS = ROOT / "docs" / "snippets" / "catalogue"


@pytest.fixture(scope="module")
def export() -> dict[str, Any]:
    return build_catalogue()


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "localdata_errors", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_export_is_valid_against_the_shipped_schema(export: dict[str, Any]) -> None:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(export)
    assert export["schema_version"] == 1
    assert export["package"] == {"name": "localdata-errors", "version": __version__}


def test_the_schema_rejects_what_a_reader_could_not_use(export: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(load_schema())
    backend = next(b for b in export["backends"] if b["codes"])
    code = next(iter(backend["codes"]))
    broken = json.loads(json.dumps(export))
    target = next(b for b in broken["backends"] if b["name"] == backend["name"])
    target["codes"][code]["action"] = "pray"
    assert not validator.is_valid(broken)
    del target["codes"][code]["action"]
    assert not validator.is_valid(broken)
    assert not validator.is_valid({**export, "schema_version": 2})


def test_the_schema_names_every_word_of_the_vocabulary() -> None:
    defs = load_schema()["$defs"]
    assert set(defs["category"]["enum"]) == {c.value for c in ErrorCategory}
    assert set(defs["action"]["enum"]) == {a.value for a in Action}
    assert set(defs["retry_safety"]["enum"]) == {s.value for s in RetrySafety}
    assert set(defs["tool_error_type"]["enum"]) == {t.value for t in ToolErrorType}
    assert set(defs["rollback_scope"]["enum"]) == {s.value for s in RollbackScope}
    strategies = defs["kind_entry"]["properties"]["retry"]["properties"]["strategy"]["enum"]
    assert set(strategies) == set(typing.get_args(RetryStrategy))


def test_every_backend_and_every_declared_code_is_exported(export: dict[str, Any]) -> None:
    by_name = {b["name"]: b for b in export["backends"]}
    assert set(by_name) == set(ErrorMapperRegistry.names())
    for info in ErrorMapperRegistry.list_mappers():
        declared = getattr(info.mapper, "declared_codes", dict)()
        assert set(by_name[info.name]["codes"]) == set(declared), info.name
    assert set(export["kinds"]) == {k.value for k in Kind}


def _rebuilt(export: dict[str, Any], backend: dict[str, Any], code: str) -> dict[str, Any]:
    """The answer for *code*, from the export alone: its entry, and its kind's row."""
    entry = backend["codes"][code]
    row = export["kinds"][entry["kind"]]
    return {
        "kind": entry["kind"],
        # A kind's category, tool type and JSON-RPC code are the Kind table's.
        "category": row["category"],
        "tool_error_type": row["tool_error_type"],
        "jsonrpc_code": row["jsonrpc_code"],
        # The next step may be the code's own (a server that says "rerun").
        "retryable": entry["retryable"],
        "action": entry["action"],
        "retry_safety": entry["retry_safety"],
        "retry_after_ms": entry["retry_after_ms"],
    }


def test_the_export_alone_gives_classifys_answer_for_every_code(export: dict[str, Any]) -> None:
    checked = 0
    wrong: list[str] = []
    for backend in export["backends"]:
        for code in backend["codes"]:
            resp = classify_message("", db_type=backend["name"], code=code)
            expected = {
                "kind": resp.kind.value,
                "category": resp.error_type.value,
                "tool_error_type": resp.info.tool_error_type.value,
                "jsonrpc_code": resp.info.jsonrpc_code,
                "retryable": resp.is_retryable,
                "action": resp.action.value,
                "retry_safety": resp.retry_safety.value,
                "retry_after_ms": resp.retry_after_ms,
            }
            rebuilt = _rebuilt(export, backend, code)
            if rebuilt != expected:
                wrong.append(f"{backend['name']} {code}: {rebuilt} != {expected}")
            # The code's entry repeats its kind's row where the code says nothing more.
            entry = backend["codes"][code]
            assert {k: entry[k] for k in ("category", "tool_error_type", "jsonrpc_code")} == {
                k: rebuilt[k] for k in ("category", "tool_error_type", "jsonrpc_code")
            }
            checked += 1
    assert not wrong, wrong[:5]
    # The six built-in backends alone declare more than a thousand codes.
    assert checked > 1000


def test_the_kind_table_says_what_the_design_decided(export: dict[str, Any]) -> None:
    # Decisions written down in the design's Kind table, not read from the code.
    kinds = export["kinds"]
    assert (kinds["syntax_error"]["category"], kinds["syntax_error"]["retryable"]) == (
        "syntax_error",
        False,
    )
    assert kinds["deadlock_detected"]["retryable"] is True
    assert kinds["deadlock_detected"]["action"] == "retry"
    assert kinds["too_many_connections"]["category"] == "resource_error"
    assert kinds["too_many_connections"]["retryable"] is True
    assert kinds["connection_misconfigured"]["category"] == "connection_error"
    assert kinds["connection_misconfigured"]["retryable"] is False
    assert kinds["foreign_key_violation"]["tool_error_type"] == "foreign_key_constraint"
    assert kinds["undefined_table"]["tool_error_type"] == "resource_not_found"
    assert kinds["undefined_table"]["error_code"] == "UNDEFINED_TABLE"
    for row in kinds.values():
        assert -32099 <= row["jsonrpc_code"] <= -32000


def test_well_known_codes_carry_their_vendors_meaning(export: dict[str, Any]) -> None:
    codes = {b["name"]: b["codes"] for b in export["backends"]}
    # PostgreSQL's errcodes: 42P01 undefined_table, 40P01 deadlock_detected.
    assert codes["postgresql"]["42P01"]["kind"] == "undefined_table"
    assert codes["postgresql"]["40P01"]["retryable"] is True
    # MySQL: 1146 ER_NO_SUCH_TABLE, 1213 ER_LOCK_DEADLOCK.
    assert codes["mysql"]["1146"]["kind"] == "undefined_table"
    assert codes["mysql"]["1213"]["action"] == "retry"
    # Oracle: ORA-00942 "table or view does not exist".
    assert codes["oracle"]["ORA-00942"]["kind"] == "undefined_table"
    # SQLite: SQLITE_BUSY, "the database file is locked".
    assert codes["sqlite"]["SQLITE_BUSY"]["retryable"] is True


def test_the_command_exports_and_describes_itself() -> None:
    out = _run("catalogue", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    jsonschema.Draft202012Validator(load_schema()).validate(data)
    schema = _run("catalogue", "--schema")
    assert json.loads(schema.stdout) == load_schema()
    text = _run("catalogue")
    assert text.returncode == 0
    lines = text.stdout.splitlines()
    assert lines[0].split() == ["NAME", "CODES", "REFINES", "FROM"]
    assert "schema version 1" in text.stdout
    bad = _run("catalogue", "--pretty")
    assert bad.returncode == 2
    assert bad.stderr.endswith("catalogue: error: --pretty applies to --format json\n")


def test_the_schema_is_package_data() -> None:
    import localdata_errors

    shipped = Path(localdata_errors.__file__).parent / "catalogue.schema.json"
    assert shipped.is_file()
    assert "catalogue.schema.json" not in (ROOT / ".gitignore").read_text()


# -- the readers the docs show ----------------------------------------------------

_QUESTIONS = [
    ("postgresql", "42P01"),
    ("PostgreSQL", "40P01"),
    ("mariadb", "1213"),
    ("oracle", "ORA-00942"),
    ("sqlite", "SQLITE_BUSY"),
    ("mysql", "not-a-code"),
]
_FIELDS = ("kind", "category", "retryable", "action", "retry_safety", "tool_error_type")


def _expected(db: str, code: str) -> dict[str, Any]:
    resp = classify_message("", db_type=db, code=code)
    return {
        "kind": resp.kind.value,
        "category": resp.error_type.value,
        "retryable": resp.is_retryable,
        "action": resp.action.value,
        "retry_safety": resp.retry_safety.value,
        "tool_error_type": resp.info.tool_error_type.value,
    }


def _ask(command: list[str], export_path: Path) -> list[dict[str, Any]]:
    answers = []
    for db, code in _QUESTIONS:
        out = subprocess.run(
            [*command, str(export_path), db, code],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        answer = json.loads(out.stdout)
        answers.append({k: answer[k] for k in _FIELDS})
    return answers


@pytest.fixture(scope="module")
def export_file(tmp_path_factory: pytest.TempPathFactory, export: dict[str, Any]) -> Path:
    path = tmp_path_factory.mktemp("catalogue") / "catalogue.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    return path


def _typescript(source: Path, out_dir: Path) -> tuple[str, Path]:
    """Compile *source* with tsc (strict); return node and the compiled file."""
    tsc, node = shutil.which("tsc"), shutil.which("node")
    if tsc is None or node is None:
        require_tool("needs Node and TypeScript: npm install -g typescript @types/node")
    types = Path(os.path.realpath(tsc)).parents[2] / "@types"
    if not (types / "node").is_dir():
        require_tool(f"needs @types/node beside tsc ({types}): npm install -g @types/node")
    subprocess.run(
        [
            *(tsc, "--strict", "--target", "es2022", "--module", "commonjs", "--types", "node"),
            *("--typeRoots", str(types), "--outDir", str(out_dir), str(source)),
        ],
        check=True,
        timeout=300,
    )
    return node, out_dir / (source.stem + ".js")


def test_the_typescript_reader_answers_as_classify(tmp_path: Path, export_file: Path) -> None:
    node, reader = _typescript(READERS / "reader.ts", tmp_path)
    answers = _ask([node, str(reader)], export_file)
    assert answers == [_expected(db, code) for db, code in _QUESTIONS]


def test_the_typescript_sidecar_gets_its_answer(tmp_path: Path) -> None:
    node, sidecar = _typescript(READERS / "sidecar.ts", tmp_path)
    command = Path(sys.executable).parent / "localdata-errors"
    if not command.is_file():
        pytest.skip(f"needs the localdata-errors script beside {sys.executable}: pip install -e .")
    out = subprocess.run(
        [node, str(sidecar)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "LOCALDATA_ERRORS": str(command)},
    )
    answer = json.loads(out.stdout)
    # MySQL's deadlock: the transaction was rolled back, retry it safely.
    assert (answer["kind"], answer["action"], answer["retry_safety"]) == (
        "deadlock_detected",
        "retry",
        "safe",
    )


def test_the_go_reader_answers_as_classify(tmp_path: Path, export_file: Path) -> None:
    go = shutil.which("go")
    if go is None:
        require_tool("needs Go (apt-get install golang-go)")
    binary = tmp_path / "reader"
    env = {**os.environ, "GOCACHE": str(tmp_path / "cache"), "GOPATH": str(tmp_path / "gopath")}
    subprocess.run(
        [go, "build", "-o", str(binary), str(READERS / "reader.go")],
        check=True,
        timeout=300,
        env=env,
    )
    answers = _ask([str(binary)], export_file)
    assert answers == [_expected(db, code) for db, code in _QUESTIONS]
