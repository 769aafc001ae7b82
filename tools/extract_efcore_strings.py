"""
Extract `tools/upstream/efcore-strings.tsv`: EF Core's SQL Server provider's own messages.

    python tools/extract_efcore_strings.py --git-dir PATH/efcore.git
    python tools/extract_efcore_strings.py --git-dir PATH/efcore.git --check

Entity Framework Core raises errors of its own around the driver's: when its
SQL Server provider judges the driver's exception transient and no retrying
strategy is configured, it raises `An exception has been raised that is
likely due to a transient failure. Consider enabling transient error
resiliency by adding 'EnableRetryOnFailure' to the 'UseSqlServer' call.`,
the driver's exception inside.  Its texts are the provider's resource file,
`src/EFCore.SqlServer/Properties/SqlServerStrings.resx`: this reads the
entries `NAMES` lists of it in each release of `RELEASES` (the last of each
line users still run, and `--ref`, `main` in the file) and writes each name
and text once, one a line as `name<TAB>text<TAB>releases` (the releases that
have that text, comma-separated; a name whose text changed has a line per
text; `\\`, a tab and a line break written `\\\\`, `\\t`, `\\n`), after `#`
lines naming the source.  It is read by `tools/generate_efcore_texts.py`;
the provider's source is not needed there.  EF Core is MIT-licensed
(`efcore.LICENSE`).  `--check` compares instead of writing.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generated import git_text, release_rows, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "efcore-strings.tsv"
RESX = "src/EFCore.SqlServer/Properties/SqlServerStrings.resx"
#: The entries read: those that say how an operation against the server ended.
NAMES = ("TransientExceptionDetected",)
#: The releases read: the last of each line since 2.1 (2.0's provider had no such file).
RELEASES = (
    "v2.1.33",
    "v3.1.32",
    "v5.0.17",
    "v6.0.36",
    "v7.0.20",
    "v8.0.30",
    "v9.0.19",
    "v10.0.105",
)
MAIN = "main"


def read(resx: str) -> dict[str, str]:
    """The entries of `NAMES` the resource file has: name -> text."""
    found: dict[str, str] = {}
    for data in ET.fromstring(resx).iter("data"):  # noqa: S314 - the provider's own resource file
        name = data.get("name") or ""
        value = data.find("value")
        if name in NAMES and value is not None and value.text:
            found[name] = value.text
    return found


def render(git_dir: str, ref: str) -> str:
    """The TSV: the `#` lines naming the source, then a line per name and text."""
    header = [
        f"# EF Core's SQL Server provider (github.com/dotnet/efcore): {RESX},",
        f"# the entries {', '.join(NAMES)} in each release read:",
    ]
    texts: dict[tuple[str, str], list[str]] = {}
    for release in (MAIN, *RELEASES):
        tag = ref if release == MAIN else release
        commit = git_text(git_dir, "rev-parse", f"{tag}^{{commit}}").strip()
        header.append(f"# {release}: commit {commit}")
        for name, text in read(git_text(git_dir, "show", f"{commit}:{RESX}")).items():
            texts.setdefault((name, text), []).append(release)
    missing = sorted(set(NAMES) - {name for name, _ in texts})
    if missing:
        raise SystemExit(f"not in any release read: {', '.join(missing)}")
    lines = [
        *header,
        "# MIT License: efcore.LICENSE.",
        "# Extracted by tools/extract_efcore_strings.py. name<TAB>text<TAB>releases",
        *release_rows(dict(sorted(texts.items(), key=lambda e: NAMES.index(e[0][0])))),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", required=True, help="a clone of github.com/dotnet/efcore")
    parser.add_argument("--ref", default="HEAD", help="the commit read as `main`")
    parser.add_argument("--check", action="store_true", help="exit 1 when the file differs")
    args = parser.parse_args(argv)
    return write_or_check(
        {OUTPUT: render(args.git_dir, args.ref)},
        check=args.check,
        what="EF Core's messages are",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
