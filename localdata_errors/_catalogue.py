"""
The decisions as data, for programs that cannot import Python: every
registered backend's native codes with what follows from each, and the Kind
table itself (`localdata-errors catalogue --format json`).

Each code's decision is what `classify_message("", db_type=backend,
code=code)` answers, so the export says what the library does, never what a
second table claims it does.  The export is described by the JSON Schema
shipped beside this module (`catalogue.schema.json`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from importlib import resources
from typing import Any, Final, TextIO

from localdata_errors._classify import classify_message
from localdata_errors._kinds import KIND_TABLE, Kind, render_suggestion
from localdata_errors._registry import DISTRIBUTION, MapperInfo, MapperRegistry, default_registry
from localdata_errors._response import StructuredErrorResponse
from localdata_errors._version import __version__

__all__ = ["SCHEMA_VERSION", "build_catalogue", "load_schema", "render_text"]

#: The export's format version: raised when a key changes meaning or goes away
#: (added keys do not raise it; readers ignore keys they do not know).
SCHEMA_VERSION: Final = 1
_SCHEMA_FILE: Final = "catalogue.schema.json"
_log = logging.getLogger("localdata_errors")


def load_schema() -> dict[str, Any]:
    """
    The JSON Schema of the export, as shipped inside the package.

    Returns:
        The schema, parsed.
    """
    text = resources.files("localdata_errors").joinpath(_SCHEMA_FILE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _decision(resp: StructuredErrorResponse) -> dict[str, Any]:
    """The decisions one answer carries, under the export's names."""
    info = resp.info
    return {
        "kind": resp.kind.value,
        "category": resp.error_type.value,
        "retryable": resp.is_retryable,
        "action": resp.action.value,
        "retry_safety": resp.retry_safety.value,
        "retry_after_ms": resp.retry_after_ms,
        "tool_error_type": info.tool_error_type.value,
        "jsonrpc_code": info.jsonrpc_code,
    }


def _kinds() -> dict[str, dict[str, Any]]:
    kinds: dict[str, dict[str, Any]] = {}
    for kind, info in KIND_TABLE.items():
        kinds[kind.value] = {
            "category": info.category.value,
            "retryable": info.retryable,
            "action": info.action.value,
            "retry_safety": info.retry_safety.value,
            "retry_after_ms": info.retry_after_ms,
            "tool_error_type": info.tool_error_type.value,
            "jsonrpc_code": info.jsonrpc_code,
            "error_code": kind.upper(),
            "suggestion": render_suggestion(kind),
            "suggested_actions": list(info.actions),
            "retry": {
                "strategy": info.strategy,
                "max_attempts": info.max_attempts,
                "max_delay_ms": info.max_delay_ms,
                "jitter_ms": info.jitter_ms,
            },
            "rollback_scope": info.rollback_scope.value,
            "rollback_scope_on": {k: v.value for k, v in info.rollback_scope_on.items()},
        }
    return kinds


def _declared(info: MapperInfo) -> Mapping[str, Kind]:
    declared = getattr(info.mapper, "declared_codes", None)
    if declared is None:
        return {}  # a mapper written to localdata-mcp's contract declares nothing
    try:
        codes = dict(declared())
    except Exception as exc:  # noqa: BLE001 - one plugin's fault leaves its codes out
        _log.warning("%s: declared_codes() raised %r; its codes are left out", info.name, exc)
        return {}
    return {code: kind for code, kind in codes.items() if isinstance(code, str)}


def _backend(info: MapperInfo, registry: MapperRegistry) -> dict[str, Any]:
    codes: dict[str, dict[str, Any]] = {}
    differ: list[str] = []
    for code, declared in _declared(info).items():
        resp = classify_message("", db_type=info.name, code=code, registry=registry)
        codes[code] = _decision(resp)
        kept = resp.database_error_code == code
        if not kept or (declared is not Kind.UNKNOWN and resp.kind is not declared):
            differ.append(f"{code} ({resp.kind.value}, declared {getattr(declared, 'value', '?')})")
    if differ:
        _log.warning(
            "%s: %d of its %d declared codes are not classified as declared from the code "
            "alone, e.g. %s; the export gives what classification gives",
            info.name,
            len(differ),
            len(codes),
            differ[0],
        )
    mapper = info.mapper
    return {
        "name": info.name,
        "display_name": getattr(mapper, "display_name", "") or info.name,
        "aliases": list(info.aliases),
        "driver_modules": list(info.driver_modules),
        "refines": list(getattr(mapper, "refines", ())),
        "source": info.source,
        "distribution": info.distribution,
        "version": info.version,
        "codes": codes,
    }


def build_catalogue(registry: MapperRegistry | None = None) -> dict[str, Any]:
    """
    Export every registered backend's codes and the Kind table.

    Args:
        registry: Whose backends to export; the default registry (built-ins
            and installed plugins) when omitted.

    Returns:
        The export, a JSON-serialisable dict valid against `load_schema()`.
    """
    reg = registry or default_registry()
    return {
        "schema_version": SCHEMA_VERSION,
        "package": {"name": DISTRIBUTION, "version": __version__},
        "kinds": _kinds(),
        "backends": [_backend(info, reg) for info in reg.list_mappers()],
    }


def render_text(export: dict[str, Any], out: TextIO) -> None:
    """
    Write a summary of *export* for a person: each backend and how many codes it declares.

    Args:
        export: What `build_catalogue` returned.
        out: Where to write.
    """
    backends = export["backends"]
    rows = [("NAME", "CODES", "REFINES", "FROM")] + [
        (
            b["name"],
            str(len(b["codes"])),
            ", ".join(b["refines"]) or "-",
            f"{b['distribution']} {b['version']}" if b["distribution"] else b["source"],
        )
        for b in backends
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for name, count, refines, origin in rows:
        cells = (name.ljust(widths[0]), count.rjust(widths[1]), refines.ljust(widths[2]), origin)
        out.write("  ".join(cells) + "\n")
    codes = sum(len(b["codes"]) for b in backends)
    out.write(
        f"\n{len(backends)} backends, {codes} codes, {len(export['kinds'])} kinds. "
        f"--format json exports each code's decisions and the Kind table "
        f"(schema version {export['schema_version']}; --schema prints the JSON Schema).\n"
    )
