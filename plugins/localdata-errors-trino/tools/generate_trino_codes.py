"""
Generate ``localdata_errors_trino/_codes.py`` from Trino's ``StandardErrorCode.java``.

``io.trino.spi.StandardErrorCode`` is the enum every Trino error name, number
and type comes from (``TABLE_NOT_FOUND(46, USER_ERROR)``).  No package
registry ships it, so the generator reads it from a checkout of
trinodb/trino (``--source``) and records the commit it was given
(``--commit``) in the generated module.

The generator fails on an enum entry it does not understand, on a name or a
number listed twice, and on an error type Trino does not define.

Usage::

    python tools/generate_trino_codes.py --source .../StandardErrorCode.java --commit 029c93b6...
    python tools/generate_trino_codes.py --check --source ... --commit ...  # exit 1 on a change
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final, NamedTuple

TARGET: Final = Path(__file__).resolve().parent.parent / "localdata_errors_trino" / "_codes.py"
UPSTREAM: Final = "trinodb/trino core/trino-spi/src/main/java/io/trino/spi/StandardErrorCode.java"
TYPES: Final = frozenset({"USER_ERROR", "INTERNAL_ERROR", "INSUFFICIENT_RESOURCES", "EXTERNAL"})

_ENTRY: Final = re.compile(r"^\s{4}([A-Z][A-Z0-9_]*)\((\d+), ([A-Z_]+)\),\s*(?://.*)?$")
_ENUM_START: Final = re.compile(r"^public enum StandardErrorCode\b")
_ENUM_END: Final = re.compile(r"^\s{4}/\*\*/;\s*$")


class ErrorCode(NamedTuple):
    """One entry of the enum."""

    name: str
    code: int
    type: str


def parse(text: str) -> list[ErrorCode]:
    """
    Read the enum's entries.

    Raises:
        ValueError: A line inside the enum that is neither an entry, a blank,
            a brace nor the closing ``/**/;``; a duplicate; an unknown type.
    """
    entries: list[ErrorCode] = []
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if not inside:
            inside = bool(_ENUM_START.match(line))
            continue
        if _ENUM_END.match(line):
            break
        if not line.strip() or line.strip() in {"{", "implements ErrorCodeSupplier"}:
            continue
        match = _ENTRY.match(line)
        if match is None:
            raise ValueError(f"line {number}: not an enum entry: {line!r}")
        name, code, kind = match.group(1), int(match.group(2)), match.group(3)
        if kind not in TYPES:
            raise ValueError(f"line {number}: unknown error type {kind}")
        entries.append(ErrorCode(name, code, kind))
    else:
        raise ValueError("the enum StandardErrorCode was not found, or not closed")
    names = [e.name for e in entries]
    codes = [e.code for e in entries]
    if len(set(names)) != len(names) or len(set(codes)) != len(codes):
        raise ValueError("a name or a number is listed twice")
    return entries


def render(entries: Sequence[ErrorCode], commit: str) -> str:
    """The generated module's text."""
    lines = [
        '"""',
        "Trino's standard error names, numbers and types: generated, do not edit.",
        "",
        f"Source: {UPSTREAM}",
        f"at commit {commit};",
        "regenerate with ``python tools/generate_trino_codes.py``.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from types import MappingProxyType",
        "from typing import Final",
        "",
        f'SOURCE_COMMIT: Final = "{commit}"',
        "",
        "#: Error name -> (error code, error type), as a query's error JSON carries them.",
        "ERROR_CODES: Final[Mapping[str, tuple[int, str]]] = MappingProxyType(",
        "    {",
    ]
    lines.extend(f'        "{e.name}": ({e.code}, "{e.type}"),' for e in entries)
    lines += ["    }", ")", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the module, or with ``--check`` report whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--source", type=Path, required=True, help="StandardErrorCode.java")
    parser.add_argument("--commit", required=True, help="the trinodb/trino commit it is from")
    parser.add_argument("--check", action="store_true", help="exit 1 if the module would change")
    args = parser.parse_args(argv)
    text = render(parse(args.source.read_text(encoding="utf-8")), args.commit)
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    if args.check:
        if current != text:
            print(
                f"{TARGET.name} is out of date: run tools/generate_trino_codes.py", file=sys.stderr
            )
            return 1
        print(f"{TARGET.name} is up to date")
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
