"""
Generate `localdata_errors/backends/_njs_codes.py` from node-oracledb's error module.

    python tools/generate_njs_codes.py           # write the module
    python tools/generate_njs_codes.py --check   # exit 1 when it is stale
    python tools/generate_njs_codes.py --source PATH/TO/oracledb

node-oracledb (Oracle's Node.js driver) lists every error it raises itself
(`NJS-`) in `lib/errors.js`: a `const ERR_<NAME> = <number>;` constant and a
`messages.set(ERR_<NAME>, '<format>');` for each.  This reads that source
(parsed as text, not run) from the npm package (`npm install -g
--ignore-scripts oracledb`, found under `npm root -g`, or `--source`) and
writes every messaged constant's name, number and format: upstream facts
only.  Its thin mode is python-oracledb's, ported: most names are
python-oracledb's too, and which kind each means is decided by hand in
`localdata_errors/backends/_njs_kinds.py` (python-oracledb's decisions,
then node-oracledb's own names).  The generator fails on a constant
defined twice, a message for an unknown constant, a message whose
`// NJS-NNN` comment disagrees with its constant, and a call it cannot read.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from _generated import source_missing, splice, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "localdata_errors" / "backends" / "_njs_codes.py"
DOCS = ROOT / "docs" / "backends" / "oracle.md"
DOCS_START = "<!-- njs: start -->"
DOCS_END = "<!-- njs: end -->"

_CONSTANT = re.compile(r"^const ((?:ERR|WRN)_[A-Z0-9_]+) = (\d+);", re.M)
_CALL = re.compile(r"^messages\.set\(((?:ERR|WRN)_[A-Z0-9_]+),", re.M)
_COMMENT = re.compile(r"//[ \t]*(?:(NJS)-(\d+))?[^\n]*")
_LITERAL = re.compile(r"""'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`""")
_ESCAPES = {"n": "\n", "t": "\t", "'": "'", '"': '"', "\\": "\\", "`": "`"}


def source(given: str | None) -> tuple[Path, str]:
    """node-oracledb's `lib/errors.js` and the package's version."""
    if given is not None:
        package = Path(given)
    else:
        npm = shutil.which("npm")
        if npm is None:
            source_missing("npm is missing: node-oracledb's error list cannot be found")
        root = subprocess.run(
            [npm, "root", "-g"], capture_output=True, text=True, check=False, timeout=60
        ).stdout.strip()
        package = Path(root) / "oracledb"
    if package.name == "errors.js":
        package = package.parent.parent
    errors, manifest = package / "lib" / "errors.js", package / "package.json"
    if not errors.exists() or not manifest.exists():
        source_missing(
            f"node-oracledb is missing ({package}): npm install -g --ignore-scripts oracledb"
        )
    return errors, str(json.loads(manifest.read_text(encoding="utf-8"))["version"])


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def _message(text: str, at: int, where: str) -> tuple[str, str | None]:
    """The string literals from *at* (joined by `+`) up to `)`, and a `// NJS-NNN` seen."""
    parts: list[str] = []
    njs: str | None = None
    while at < len(text):
        if text[at].isspace() or text[at] == "+":
            at += 1
        elif text.startswith("//", at):
            comment = _COMMENT.match(text, at)
            if comment is None:  # pragma: no cover - _COMMENT matches any `//`
                break
            njs = comment.group(2) or njs
            at = comment.end()
        elif (literal := _LITERAL.match(text, at)) is not None:
            parts.append(_unescape(next(g for g in literal.groups() if g is not None)))
            at = literal.end()
        elif text[at] == ")":
            if not parts:
                sys.exit(f"{where}: a message without a string literal")
            rest = _COMMENT.match(text, at + 2)
            if rest is not None and rest.group(2):
                njs = rest.group(2)
            return "".join(parts), njs
        else:
            sys.exit(f"{where}: cannot read {text[at : at + 40]!r}")
    sys.exit(f"{where}: an unterminated messages.set(...)")


def read_errors(path: Path) -> tuple[dict[str, int], dict[int, str]]:
    """Every messaged constant's number (source order), and each number's format."""
    text = path.read_text(encoding="utf-8")
    constants: dict[str, int] = {}
    for match in _CONSTANT.finditer(text):
        if match.group(1) in constants:
            sys.exit(f"{path}: {match.group(1)} defined twice")
        constants[match.group(1)] = int(match.group(2))
    names: dict[str, int] = {}
    messages: dict[int, str] = {}
    for call in _CALL.finditer(text):
        name = call.group(1)
        where = f"{path}:{text.count(chr(10), 0, call.start()) + 1}"
        if name not in constants:
            sys.exit(f"{where}: a message for the unknown constant {name}")
        number = constants[name]
        message, njs = _message(text, call.end(), where)
        if njs is not None and int(njs) != number:
            sys.exit(f"{where}: {name} is {number}, its comment says NJS-{njs}")
        if number in messages:
            sys.exit(f"{where}: NJS-{number:03d} has two messages")
        names[name] = number
        messages[number] = message
    if len(messages) < 100:
        sys.exit(f"{path}: only {len(messages)} messages found")
    return names, messages


def docs_table(names: dict[str, int], messages: dict[int, str]) -> str:
    """The docs' table of every NJS- code and its message."""
    lines = ["| code | constant | the driver's message |", "|---|---|---|"]
    for name, number in sorted(names.items(), key=lambda item: item[1]):
        text = " ".join(messages[number].split()).replace("|", "\\|")
        if len(text) > 90:
            text = text[:87] + "..."
        lines.append(f"| `NJS-{number:03d}` | `{name}` | {text} |")
    return "\n".join(lines) + "\n"


def build(given: str | None) -> tuple[str, str]:
    """The module's text and the docs' text."""
    path, package_version = source(given)
    names, messages = read_errors(path)
    lines = [
        '"""',
        "node-oracledb's own errors (NJS-): each constant's name, number and message.",
        "",
        "Generated by `tools/generate_njs_codes.py` from `lib/errors.js` of the npm",
        f"package oracledb {package_version} ({len(names)} errors); do not edit.  The kind",
        "of each is decided in `_njs_kinds`.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "#: `ERR_<NAME>` -> its number, in the source's order.",
        "ERRORS: Final[dict[str, int]] = {",
        *(f'    "{name}": {number},' for name, number in names.items()),
        "}",
        "",
        "#: Number -> the driver's message format (`%s`, `%d`: its values).",
        "MESSAGES: Final[dict[int, str]] = {",
        *(f"    {number}: {json.dumps(text)}," for number, text in sorted(messages.items())),
        "}",
        "",
    ]
    docs = splice(
        DOCS.read_text(encoding="utf-8"), DOCS_START, DOCS_END, docs_table(names, messages)
    )
    return "\n".join(lines), docs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    parser.add_argument("--source", help="node-oracledb's package directory (or its errors.js)")
    args = parser.parse_args(argv)
    module, docs = build(args.source)
    return write_or_check(
        {OUTPUT: module, DOCS: docs},
        check=args.check,
        what="the node-oracledb code table and its listing are",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
