"""
Compile the classification path with mypyc, in place (beside the sources).

    python tools/build_compiled.py            # build the extension modules
    python tools/build_compiled.py --clean    # remove them again

The modules are listed in `localdata_errors/_compiled.py`; a wheel built by
`pip wheel .` compiles the same ones when a C compiler is there (see
`hatch_build.py`).  With the extension modules in place, Python imports
them instead of the `.py` files; `LOCALDATA_ERRORS_PURE_PYTHON=1` makes
the package import the `.py` files anyway.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import runpy
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUP = "localdata_errors"


def modules() -> tuple[str, ...]:
    """The compiled modules' paths, relative to the repository root."""
    found: tuple[str, ...] = runpy.run_path(str(ROOT / "localdata_errors" / "_compiled.py"))[
        "MODULES"
    ]
    return found


def built_files() -> list[Path]:
    """The extension modules and the shared runtime library now in the tree."""
    candidates = [
        ROOT / (path.removesuffix(".py") + suffix)
        for path in modules()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    ]
    found = [p for p in candidates if p.exists()]
    found += [p for p in ROOT.glob(f"{GROUP}__mypyc*") if p.is_file()]
    return sorted(set(found))


def clean() -> int:
    """Remove every extension module and the build directory."""
    for path in built_files():
        path.unlink()
        print(f"removed {path.relative_to(ROOT)}")
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    return 0


def build() -> int:
    """Compile the modules in place."""
    from mypyc.build import mypycify  # noqa: PLC0415 - only the build needs mypy
    from setuptools import Distribution  # type: ignore[import-untyped]  # noqa: PLC0415

    start = time.perf_counter()
    os.chdir(ROOT)
    extensions = mypycify(list(modules()), opt_level="3", group_name=GROUP)
    dist = Distribution({"name": "localdata-errors", "ext_modules": extensions})
    command = dist.get_command_obj("build_ext")
    command.inplace = True
    command.ensure_finalized()
    command.run()
    print(f"compiled {len(modules())} modules in {time.perf_counter() - start:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args(argv)
    return clean() if args.clean else build()


if __name__ == "__main__":
    sys.exit(main())
