"""
Generate ``localdata_errors_clickhouse/_codes.py``: ClickHouse's error codes and names.

The list is ClickHouse's own ``ErrorCodes`` table, read at run time from the
engine embedded in chdb: ``errorCodeToName(code)`` names every code the
engine knows (``system.errors`` lists only the errors that occurred since
start).  The generated module records chdb's version and the engine's, so a
table made from another release is told apart at once.

The generator fails when the engine names a code twice or names none.

Usage::

    python tools/generate_clickhouse_codes.py            # rewrite the module
    python tools/generate_clickhouse_codes.py --check    # exit 1 if it would change
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

TARGET: Final = Path(__file__).resolve().parent.parent / "localdata_errors_clickhouse" / "_codes.py"
#: Every code ClickHouse has used so far is below 2000; the scan goes far past it.
SCAN_LIMIT: Final = 100_000
QUERY: Final = (
    "SELECT number, errorCodeToName(number) FROM numbers({limit}) "
    "WHERE errorCodeToName(number) != '' ORDER BY number"
)
_NAME: Final = re.compile(r"[A-Z][A-Z0-9_]*")


def read_codes() -> tuple[dict[int, str], str, str]:
    """
    Ask the embedded engine for its error codes.

    Returns:
        ``(code -> name, chdb version, engine version)``.
    """
    # Imported here: only the generator needs the engine (its API is untyped).
    chdb: Any = importlib.import_module("chdb")
    result = chdb.query(QUERY.format(limit=SCAN_LIMIT), "TSV")
    codes: dict[int, str] = {}
    seen: set[str] = set()
    for line in str(result).splitlines():
        number, _, name = line.partition("\t")
        if not number.isdigit() or not _NAME.fullmatch(name):
            raise ValueError(f"unexpected row from the engine: {line!r}")
        if name in seen:
            raise ValueError(f"the engine names {name} twice")
        seen.add(name)
        codes[int(number)] = name
    codes.pop(0, None)  # 0 is OK, not an error
    if not codes:
        raise ValueError("the engine named no error code")
    engine = str(chdb.query("SELECT version()", "TSV")).strip()
    return codes, str(chdb.__version__), engine


def render(codes: dict[int, str], chdb_version: str, engine_version: str) -> str:
    """The generated module's text."""
    lines = [
        '"""',
        "ClickHouse's error codes and their names (``ErrorCodes``): generated, do not edit.",
        "",
        f"Source: ``errorCodeToName()`` of ClickHouse {engine_version}, embedded in",
        f"chdb {chdb_version}; regenerate with ``python tools/generate_clickhouse_codes.py``.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from types import MappingProxyType",
        "from typing import Final",
        "",
        f'CHDB_VERSION: Final = "{chdb_version}"',
        f'ENGINE_VERSION: Final = "{engine_version}"',
        "",
        "#: Error code -> name, as the server prints it in ``(NAME)`` after the message.",
        "ERROR_NAMES: Final[Mapping[int, str]] = MappingProxyType(",
        "    {",
    ]
    lines.extend(f'        {code}: "{name}",' for code, name in sorted(codes.items()))
    lines += ["    }", ")", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the module, or with ``--check`` report whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--check", action="store_true", help="exit 1 if the module would change")
    args = parser.parse_args(argv)
    text = render(*read_codes())
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    if args.check:
        if current != text:
            print(
                f"{TARGET.name} is out of date: run tools/generate_clickhouse_codes.py",
                file=sys.stderr,
            )
            return 1
        print(f"{TARGET.name} is up to date")
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
