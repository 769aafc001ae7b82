"""
Generate `localdata_errors/backends/_odpi_messages.py` from ODPI-C's message table.

    python tools/generate_odpi_messages.py           # write the module
    python tools/generate_odpi_messages.py --check   # exit 1 when it is stale

python-oracledb in thick mode runs on ODPI-C, whose own errors arrive as
`DPI-NNNN: text`.  ODPI-C's message table (`dpiErrorMessages.h`) is compiled
into python-oracledb's thick implementation, `oracledb/thick_impl*.so`, one
NUL-terminated C string per message.  This reads those strings from the
installed binary (bytes, no import of the module) and writes every message,
with the DPY- error python-oracledb translates each to (`ERR_DPI_ERROR_XREF`):
upstream facts only.  Which kind each means is decided by hand in
`localdata_errors/backends/_odpi_kinds.py`.  The generator fails on a
duplicate or unreadable entry and on a gap in the numbering (a message the
reader missed).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import re
import sys
from importlib.metadata import version
from pathlib import Path

from _generated import splice, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "localdata_errors" / "backends" / "_odpi_messages.py"
DOCS = ROOT / "docs" / "backends" / "oracle.md"
DOCS_START = "<!-- odpi: start -->"
DOCS_END = "<!-- odpi: end -->"

#: A message as the binary holds it: the start of a C string, up to its NUL.
ENTRY = re.compile(rb"DPI-(\d{4}): ")
TEXT = re.compile(rb"([\x20-\x7e]{1,300})\x00")
#: ODPI-C's default driver name, `"ODPI-C : " DPI_VERSION_STRING`.
ODPI_VERSION = re.compile(rb"\x00ODPI-C : (\d{1,3}\.\d{1,3}\.\d{1,3})\x00")


def package_dir() -> Path:
    """The installed driver's directory, located by the import system."""
    spec = importlib.util.find_spec("oracledb")
    if spec is None or spec.origin is None:
        sys.exit("python-oracledb is not installed (pip install oracledb)")
    return Path(spec.origin).parent


def binary() -> Path:
    """The thick implementation's compiled module (read as bytes, never imported)."""
    found = sorted(package_dir().glob("thick_impl*.so")) + sorted(
        package_dir().glob("thick_impl*.pyd")
    )
    if len(found) != 1:
        sys.exit(f"expected one oracledb/thick_impl module, found {found}")
    return found[0]


def read_messages(path: Path) -> tuple[dict[int, str], str]:
    """Number -> message text of every `DPI-` string of *path*; and ODPI-C's version."""
    data = path.read_bytes()
    found: dict[int, str] = {}
    for match in ENTRY.finditer(data):
        number = int(match.group(1))
        text = TEXT.match(data, match.end())
        if match.start() == 0 or data[match.start() - 1] != 0 or text is None:
            sys.exit(f"{path.name}: DPI-{number} at byte {match.start()} is not a C string")
        if number in found:
            sys.exit(f"{path.name}: DPI-{number} appears twice")
        found[number] = text.group(1).decode("ascii")
    if len(found) < 80:
        sys.exit(f"{path.name}: only {len(found)} DPI- messages found")
    expected = set(range(min(found), max(found) + 1))
    if set(found) != expected:
        missing = ", ".join(f"DPI-{n}" for n in sorted(expected - set(found)))
        sys.exit(f"{path.name}: the numbering has gaps (unreadable entries?): {missing}")
    odpi = ODPI_VERSION.search(data)
    return dict(sorted(found.items())), odpi.group(1).decode() if odpi else "unknown"


def dpy_translations() -> dict[int, int]:
    """DPI- number -> the DPY- number python-oracledb puts above it (`ERR_DPI_ERROR_XREF`)."""
    path = package_dir() / "errors.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants: dict[str, int] = {}
    xref: ast.Dict | None = None
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
            continue
        name = node.targets[0].id
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, int):
            constants[name] = node.value.value
        elif name == "ERR_DPI_ERROR_XREF" and isinstance(node.value, ast.Dict):
            xref = node.value
    if xref is None:
        sys.exit(f"{path}: no ERR_DPI_ERROR_XREF")
    found: dict[int, int] = {}
    for key, value in zip(xref.keys, xref.values, strict=True):
        target = value.elts[0] if isinstance(value, ast.Tuple) else value
        if not (
            isinstance(key, ast.Constant)
            and isinstance(key.value, int)
            and isinstance(target, ast.Name)
            and target.id in constants
        ):
            sys.exit(f"{path}: an ERR_DPI_ERROR_XREF entry this does not understand")
        found[key.value] = constants[target.id]
    return found


def docs_table(messages: dict[int, str]) -> str:
    """The docs' table of every DPI- message."""
    lines = [
        "| code | ODPI-C's message |",
        "|---|---|",
    ]
    for number, text in messages.items():
        shown = text.replace("|", "\\|").replace("*", "\\*")
        if len(shown) > 90:
            shown = shown[:87] + "..."
        lines.append(f"| `DPI-{number}` | {shown} |")
    return "\n".join(lines)


def literal(text: str) -> str:
    """*text* as a Python literal, quoted as ruff format would quote it."""
    if '"' in text and "'" not in text:
        return repr(text)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build() -> tuple[str, str]:
    """The module's text and the docs' text."""
    path = binary()
    messages, odpi_version = read_messages(path)
    translations = dpy_translations()
    lines = [
        '"""',
        "ODPI-C's errors (DPI-), raised by python-oracledb in thick mode: their messages.",
        "",
        "Generated by `tools/generate_odpi_messages.py` from ODPI-C's message table as",
        f"compiled into `oracledb/thick_impl` (python-oracledb {version('oracledb')},",
        f"ODPI-C {odpi_version}, DPI-{min(messages)} to DPI-{max(messages)}); do not edit.",
        "The kind of each is decided in `_odpi_kinds`.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "#: Every message of the table, as ODPI-C's format (printf placeholders unfilled).",
        "MESSAGES: Final[dict[int, str]] = {",
    ]
    lines += [f"    {number}: {literal(text)}," for number, text in messages.items()]
    lines += [
        "}",
        "",
        "#: DPI- number -> the DPY- number python-oracledb raises above it",
        "#: (`ERR_DPI_ERROR_XREF` in `oracledb/errors.py`).",
        "TRANSLATIONS: Final[dict[int, int]] = {",
    ]
    lines += [f"    {dpi}: {dpy}," for dpi, dpy in sorted(translations.items())]
    lines += ["}", ""]
    docs = splice(
        DOCS.read_text(encoding="utf-8"), DOCS_START, DOCS_END, docs_table(messages) + "\n"
    )
    return "\n".join(lines), docs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    args = parser.parse_args(argv)
    module, docs = build()
    return write_or_check(
        {OUTPUT: module, DOCS: docs},
        check=args.check,
        what="the ODPI-C message table and its listing are",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
