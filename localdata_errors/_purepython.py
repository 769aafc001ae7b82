"""
Import the pure-Python modules even where compiled ones are installed.

Python imports an extension module before a `.py` file of the same name.
When `LOCALDATA_ERRORS_PURE_PYTHON` is set (to anything but `0` or an empty
string), the package puts this finder first on `sys.meta_path`, and it
answers for the compiled modules with their `.py` files.  The package's
`__init__` installs it before importing anything else of the package.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec, SourceFileLoader
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

from localdata_errors._compiled import MODULES, PURE_PYTHON_ENV

__all__ = ["install_if_asked", "wanted"]

_ROOT = Path(__file__).resolve().parent.parent
_NAMES = {path.removesuffix(".py").replace("/", "."): _ROOT / path for path in MODULES}


def wanted() -> bool:
    """Whether the environment asks for the pure-Python modules."""
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


class _PureFinder:
    """Finds the `.py` file of each compiled module."""

    @staticmethod
    def find_spec(
        fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = _NAMES.get(fullname)
        if source is None or not source.is_file():
            return None
        return spec_from_file_location(
            fullname, source, loader=SourceFileLoader(fullname, str(source))
        )


def install_if_asked() -> None:
    """Put the finder first on `sys.meta_path` when the environment asks for it."""
    if wanted() and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())
