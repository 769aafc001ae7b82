"""
Extract `tools/upstream/postgresql-msgids.tsv`: other PostgreSQL releases' English messages.

    python tools/extract_postgresql_msgids.py --locale 17=PATH/usr/share/locale \\
        --locale 18=PATH/usr/share/locale --source "17: ..." --source "18: ..."

The server's and libpq's message catalogues (`postgres-<major>.mo`,
`libpq5-<major>.mo`, one per language) hold each message's English text as
a msgid.  This machine installs one release's (PostgreSQL 15: Debian 12's
`postgresql-15` and `libpq5`); a text pasted from a later release may be
worded otherwise (16 and later: `remaining connection slots are reserved
for roles with the %s attribute`).  The catalogues of other releases, as
Debian's binary packages ship them (`apt-get download postgresql-17 libpq5`,
`dpkg-deb -x`), are read here: every distinct msgid of each catalogue of
every language, with the catalogue (`postgres`, `libpq5`) and the majors
that ship it.  A release ships some translations that were last brought up
to date for an old release (Debian 13's `id/postgres-17.mo` is PostgreSQL
9.4's, `zh_CN/postgres-18.mo` 12's), whose msgids are that release's
wordings (12's `null value in column "%s" violates not-null constraint`, not
13's `... of relation "%s" ...`): only the catalogues whose header
(`Project-Id-Version`) names release 14 or later, or `current`, are read.
The complete ones (`de`, `ja`, `sv`) hold every msgid.

The output is a TSV, one msgid a line (`\\`, a tab and a line break written
`\\\\`, `\\t`, `\\n`), after `#` lines naming the sources:
`catalogue<TAB>majors<TAB>msgid`.  It is read by
`tools/generate_vendor_wordings.py` and `tools/generate_libpq_messages.py`
with the installed catalogues; the packages are not needed there.
"""

from __future__ import annotations

import argparse
import re
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate_libpq_messages import read_msgids

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "postgresql-msgids.tsv"
CATALOGUES = ("postgres", "libpq5")
#: The oldest release whose wordings are read.
OLDEST = 14


def header(path: Path) -> str:
    """A GNU gettext `.mo` file's header (the msgstr of its empty msgid)."""
    data = path.read_bytes()
    order = "<" if struct.unpack("<I", data[:4])[0] == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    for i in range(count):
        length, _ = struct.unpack(order + "2I", data[originals + 8 * i : originals + 8 * i + 8])
        if length == 0:
            length, offset = struct.unpack(
                order + "2I", data[translations + 8 * i : translations + 8 * i + 8]
            )
            return data[offset : offset + length].decode("utf-8")
    return ""


def current(path: Path) -> bool:
    """Whether the catalogue's header names release `OLDEST` or later, or `current`."""
    text = header(path)
    version = re.search(r"Project-Id-Version:([^\n]*)", text)
    if version is None:
        return False
    if "current" in version.group(1):
        return True
    release = re.search(r"(\d+)(?:\.\d+)?", version.group(1))
    return release is not None and int(release.group(1)) >= OLDEST


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def extract(
    locales: dict[str, Path], skipped: list[str] | None = None
) -> dict[tuple[str, str], list[str]]:
    """
    (catalogue, msgid) -> the majors whose current catalogues hold it; the
    catalogues that are not current go to *skipped*.
    """
    found: dict[tuple[str, str], list[str]] = {}
    for major, path in catalogues(locales):
        if not current(path):
            if skipped is not None:
                skipped.append(f"{path.parts[-3]}/{path.name}")
            continue
        catalogue = path.name.rsplit("-", 1)[0]
        for msgid in read_msgids(str(path)):
            majors = found.setdefault((catalogue, msgid), [])
            if major not in majors:
                majors.append(major)
    return dict(sorted(found.items()))


def catalogues(locales: dict[str, Path]) -> Iterator[tuple[str, Path]]:
    """Each release's server and libpq catalogues, (major, path), oldest release first."""
    for major, locale in sorted(locales.items(), key=lambda item: int(item[0])):
        paths = sorted(
            path for name in CATALOGUES for path in locale.glob(f"*/LC_MESSAGES/{name}-{major}.mo")
        )
        if not paths:
            raise SystemExit(f"no postgres-{major}.mo or libpq5-{major}.mo under {locale}")
        for path in paths:
            yield major, path


def arguments(doc: str, output: Path) -> tuple[dict[str, Path], list[str], Path]:
    """The releases' unpacked locale folders by major, what their packages are, and the output."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n", 1)[0])
    parser.add_argument(
        "--locale",
        action="append",
        required=True,
        help="MAJOR=DIR: a release's unpacked usr/share/locale",
    )
    parser.add_argument(
        "--source", action="append", required=True, help="what each major's packages are"
    )
    parser.add_argument("--output", type=Path, default=output)
    args = parser.parse_args()
    locales = {}
    for given in args.locale:
        major, _, folder = given.partition("=")
        locales[major] = Path(folder)
    return locales, args.source, args.output


def main() -> int:
    locales, sources, output = arguments(__doc__, OUTPUT)
    skipped: list[str] = []
    found = extract(locales, skipped)
    lines = [
        "# PostgreSQL's server (postgres) and libpq (libpq5) message catalogues' msgids:",
        *(f"#   {source}" for source in sources),
        f"# Not read (their header names a release before {OLDEST}, or none):",
        *(f"#   {' '.join(skipped[at : at + 8])}" for at in range(0, len(skipped), 8)),
        "# PostgreSQL License: postgresql.LICENSE.",
        "# Extracted by tools/extract_postgresql_msgids.py. catalogue<TAB>majors<TAB>msgid",
        *(
            f"{catalogue}\t{' '.join(majors)}\t{escape(msgid)}"
            for (catalogue, msgid), majors in found.items()
        ),
    ]
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{output}: {len(found)} msgids")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
