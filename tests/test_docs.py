"""The docs say what the code does."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from localdata_errors import KIND_TABLE

ROOT = Path(__file__).resolve().parents[1]


def test_every_kind_is_documented_with_its_decision() -> None:
    text = (ROOT / "docs" / "kinds.md").read_text()
    for kind, info in KIND_TABLE.items():
        row = next(
            (line for line in text.splitlines() if line.startswith(f"| `{kind.value}` |")), None
        )
        assert row is not None, kind
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == f"`{info.category.value}`", kind
        assert cells[2] == ("yes" if info.retryable else "no"), kind
        assert cells[3] == f"`{info.action.value}`", kind
        assert cells[4] == f"`{info.retry_safety.value}`", kind
        wait = "—" if info.retry_after_ms is None else f"{info.retry_after_ms} ms"
        assert cells[5] == wait, kind
        assert cells[6] == f"`{info.tool_error_type.value}`", kind
        assert cells[7] == str(info.jsonrpc_code), kind
        # The retry policy and what the server undid, each a column of the table.
        assert cells[8] == f"`{info.strategy}`", kind
        assert cells[9] == str(info.max_attempts), kind
        cap = "—" if not info.max_delay_ms else f"{info.max_delay_ms} ms"
        jitter = "—" if not info.jitter_ms else f"{info.jitter_ms} ms"
        assert (cells[10], cells[11]) == (cap, jitter), kind
        default, *others = cells[12].split("; ")
        assert default == f"`{info.rollback_scope.value}`", kind
        documented = {
            engine: scope.split(" on ")[0].strip("`")
            for scope in others
            for engine in scope.split(" on ")[1].split(", ")
        }
        assert documented == {e: s.value for e, s in info.rollback_scope_on.items()}, kind


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text().splitlines()
    commands = [line for line in readme if line.startswith("python3 -m venv .venv && ")]
    assert len(commands) == 2, "the README begins with exactly two commands"
    ci = (ROOT / ".ci" / "run").read_text()
    test_command = commands[1]
    _, _, after_venv = test_command.partition("python3 -m venv .venv && ")
    assert after_venv in ci
    assert "localdata-errors demo" in commands[0]


# reST that mkdocstrings would show raw on the site: roles and directives.
_REST = re.compile(
    r":(?:class|mod|func|meth|attr|data|exc|obj|ref):`"
    r"|^\s*\.\. (?:versionadded|versionchanged|deprecated|code-block|note|warning|seealso)::",
    re.MULTILINE,
)


def _docstrings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = list(ast.walk(tree))
    found = []
    for node in nodes:
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                found.append((getattr(node, "lineno", 1), doc))
    return found


def test_docstrings_are_markdown_not_rest() -> None:
    sources = [
        *(ROOT / "localdata_errors").rglob("*.py"),
        *(ROOT / "plugins").glob("*/localdata_errors_*/**/*.py"),
    ]
    assert len(sources) > 40
    raw = [
        f"{path.relative_to(ROOT)}:{line}: {match.group(0).strip()}"
        for path in sources
        for line, doc in _docstrings(path)
        for match in [_REST.search(doc)]
        if match
    ]
    assert not raw, "\n".join(raw)
