"""
Build the wheel with the classification path compiled by mypyc, when it can.

A wheel is compiled when a C compiler is there and
`LOCALDATA_ERRORS_PURE_PYTHON` is not set; otherwise (or if compiling fails
for any reason) it is the pure-Python wheel, which works everywhere.
Editable installs are never compiled: a compiled module would hide the
source being edited.  The compiled modules are listed in
`localdata_errors/_compiled.py`; the `.py` files ship beside them.
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

GROUP = "localdata_errors"


def _compiler() -> str | None:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


class CompiledBuildHook(BuildHookInterface):  # type: ignore[misc]  # hatchling ships no types
    """Compile the listed modules into the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile, or leave the wheel pure."""
        root = Path(self.root)
        compiled = runpy.run_path(str(root / "localdata_errors" / "_compiled.py"))
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get(compiled["PURE_PYTHON_ENV"], "") not in ("", "0"):
            self.app.display_info("pure-Python wheel: asked for by the environment")
            return
        if _compiler() is None:
            self.app.display_info("pure-Python wheel: no C compiler")
            return
        try:
            built = self._compile(root, compiled["MODULES"])
        except Exception as exc:  # noqa: BLE001 - any failure leaves the wheel pure
            self.app.display_warning(f"pure-Python wheel: compiling failed ({exc!r})")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for source, target in built:
            build_data["force_include"][source] = target
        self.app.display_info(f"compiled {len(built)} extension modules with mypyc")

    def _compile(self, root: Path, modules: tuple[str, ...]) -> list[tuple[str, str]]:
        from mypyc.build import mypycify  # noqa: PLC0415 - a build requirement
        from setuptools import Distribution  # noqa: PLC0415 - a build requirement

        out = Path(tempfile.mkdtemp(prefix="localdata-errors-mypyc-"))
        cwd = Path.cwd()
        os.chdir(root)
        try:
            extensions = mypycify(list(modules), opt_level="3", group_name=GROUP)
            dist = Distribution({"name": "localdata-errors", "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(out)
            command.build_temp = str(out / "temp")
            command.ensure_finalized()
            command.run()
        finally:
            os.chdir(cwd)
        built = [p for p in out.rglob("*") if p.is_file() and p.suffix in {".so", ".pyd"}]
        if len(built) < len(modules):
            raise RuntimeError(f"expected {len(modules)} extension modules, got {len(built)}")
        return [(str(p), p.relative_to(out).as_posix()) for p in built]


if __name__ == "__main__":
    sys.exit("hatchling runs this hook; see tools/build_compiled.py for an in-place build")
