"""
Generate ``localdata_errors_databricks/_conditions.py`` from Spark's ``error-conditions.json``.

Databricks reports errors by Spark's error classes (``[TABLE_OR_VIEW_NOT_FOUND]
... SQLSTATE: 42P01``).  Their list, with each class's SQLSTATE, is Spark's
``error/error-conditions.json``, shipped inside pyspark in the
``spark-common-utils`` jar.  The generator reads it from an installed pyspark
(``pip install pyspark``), or from ``--source`` (that jar, or the JSON file),
and keeps every class that has a SQLSTATE.

The generator fails on a class without a message, on a SQLSTATE that is not
five characters, and when the file holds no class.

Usage::

    python tools/generate_databricks_conditions.py            # rewrite the module
    python tools/generate_databricks_conditions.py --check    # exit 1 if it would change
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

TARGET: Final = (
    Path(__file__).resolve().parent.parent / "localdata_errors_databricks" / "_conditions.py"
)
MEMBER: Final = "error/error-conditions.json"
_JAR: Final = re.compile(r"spark-common-utils_[\d.]+-([\w.]+)\.jar")
_SQLSTATE: Final = re.compile(r"[0-9A-Z]{5}")


def find_source() -> Path:
    """The spark-common-utils jar of the installed pyspark."""
    spec = importlib.util.find_spec("pyspark")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("pyspark is not installed; pass --source")
    jars = sorted((Path(spec.origin).parent / "jars").glob("spark-common-utils_*.jar"))
    if not jars:
        raise FileNotFoundError("pyspark has no spark-common-utils jar; pass --source")
    return jars[0]


def read(source: Path) -> tuple[dict[str, str], str]:
    """
    The classes with a SQLSTATE, and a description of where they came from.

    Raises:
        ValueError: A malformed class, or none at all.
    """
    if source.suffix == ".jar":
        with zipfile.ZipFile(source) as jar:
            data: object = json.loads(jar.read(MEMBER))
        match = _JAR.fullmatch(source.name)
        origin = f"Spark {match.group(1) if match else '?'}: {source.name}!{MEMBER}"
    else:
        data = json.loads(source.read_text(encoding="utf-8"))
        origin = f"{source.name}"
    if not isinstance(data, Mapping) or not data:
        raise ValueError("no error class in the source")
    conditions: dict[str, str] = {}
    for name, body in data.items():
        if not isinstance(body, Mapping) or "message" not in body:
            raise ValueError(f"{name}: no message")
        state = body.get("sqlState")
        if state is None:
            continue  # Spark's _LEGACY_ERROR_TEMP_* classes carry none
        if not isinstance(state, str) or not _SQLSTATE.fullmatch(state):
            raise ValueError(f"{name}: SQLSTATE {state!r} is not five characters")
        conditions[str(name)] = state
    return conditions, origin


def render(conditions: Mapping[str, str], origin: str) -> str:
    """The generated module's text."""
    lines = [
        '"""',
        "Spark's error classes and their SQLSTATEs: generated, do not edit.",
        "",
        f"Source: {origin};",
        "regenerate with ``python tools/generate_databricks_conditions.py``.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from types import MappingProxyType",
        "from typing import Final",
        "",
        f'SOURCE: Final = "{origin}"',
        "",
        "#: Error class -> SQLSTATE.",
        "CONDITIONS: Final[Mapping[str, str]] = MappingProxyType(",
        "    {",
    ]
    lines.extend(f'        "{name}": "{state}",' for name, state in sorted(conditions.items()))
    lines += ["    }", ")", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the module, or with ``--check`` report whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--source", type=Path, help="spark-common-utils jar or the JSON file")
    parser.add_argument("--check", action="store_true", help="exit 1 if the module would change")
    args = parser.parse_args(argv)
    text = render(*read(args.source or find_source()))
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    if args.check:
        if current != text:
            print(
                f"{TARGET.name} is out of date: run tools/generate_databricks_conditions.py",
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
