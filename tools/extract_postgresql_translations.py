"""
Extract `tools/upstream/postgresql-translations.tsv`: other PostgreSQL releases' translations.

    python tools/extract_postgresql_translations.py --locale 13=PATH/usr/share/locale \\
        --locale 17=PATH/usr/share/locale --source "13: ..." --source "17: ..."

A server's translation changes between releases (PostgreSQL 12's zh_CN wrote
`duplicate key value violates unique constraint "%s"` as `重复键违反唯一约束"%s"`
and `column "%s" does not exist` as `字段 "%s" 不存在`; 15's writes
`重复键值违反唯一约束 "%s"` and `列 "%s" 不存在`), and a text pasted from a
server of another release is written in that release's words.  This machine
installs one release's catalogues (PostgreSQL 15's: `postgres-15.mo`,
`libpq5-15.mo`); the binary packages of other releases carry theirs
(`apt-get download postgresql-13 libpq5`, `dpkg-deb -x`), and with them
translations last brought up to date for older releases still (the
catalogue's `Project-Id-Version`: Debian 11's `zh_CN/postgres-13.mo` and
Debian unstable's `zh_CN/postgres-18.mo` are PostgreSQL 12's, `id` 9.4's,
`pl` 9.5's), whose msgids are that release's English wordings too (12's
`null value in column "%s" violates not-null constraint`).

Every catalogue is read, whatever its release: each (msgid, msgstr) pair
that `tools/generate_localized_messages.py` keeps (labels and primary
messages: `generate_localized_messages.kept`) and whose msgstr, its quotes
read as one (`_localized._QUOTES`), is not a msgstr the installed catalogue
of the same language already writes.  A pair that several releases' packages
ship is written once, with those releases.

The output is a TSV after `#` lines naming the sources and each catalogue's
header: `catalogue<TAB>language<TAB>majors<TAB>msgid<TAB>msgstr`, with `\\`,
a tab and a line break written `\\\\`, `\\t`, `\\n`.  It is read by
`tools/generate_localized_messages.py` with the installed catalogues; the
packages are not needed there.
"""

from __future__ import annotations

import glob
import re
import sys
from pathlib import Path
from typing import Final

TOOLS: Final = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:  # run as a script: find the sibling tools
    sys.path.insert(0, str(TOOLS))

from extract_postgresql_msgids import arguments, catalogues, escape, header  # noqa: E402 - needs the sys.path line
from generate_libpq_messages import read_catalogue  # noqa: E402
from generate_localized_messages import CATALOGUES, UPSTREAM_TRANSLATIONS, kept  # noqa: E402

from localdata_errors import _localized  # noqa: E402 - after the tools' own imports

#: The catalogues read, by their name's start.


def normal(msgstr: str) -> str:
    """*msgstr* as the read-back compares it: its quotes read as `"`, no final line break."""
    return msgstr.translate(_localized._QUOTES).removesuffix("\n")


def installed() -> dict[str, set[str]]:
    """Each language's msgstrs in the installed catalogues (`normal`)."""
    found: dict[str, set[str]] = {}
    for pattern in CATALOGUES:
        for path in sorted(glob.glob(pattern)):
            into = found.setdefault(Path(path).parts[-3], set())
            into.update(normal(msgstr) for _, msgstr in read_catalogue(path) if msgstr)
    return found


def release(path: Path) -> str:
    """The release a catalogue's header names (`PostgreSQL 12`, `current`), or its header's name."""
    version = re.search(r"Project-Id-Version:([^\n]*)", header(path))
    return version.group(1).strip() if version is not None else "?"


def extract(
    locales: dict[str, Path], headers: list[str] | None = None
) -> dict[tuple[str, str, str, str], list[str]]:
    """
    (catalogue, language, msgid, msgstr) -> the majors whose packages ship it.

    Each catalogue read is named with its header's release in *headers*.
    """
    known = installed()
    found: dict[tuple[str, str, str, str], list[str]] = {}
    for major, path in catalogues(locales):
        language = path.parts[-3]
        catalogue = path.name.rsplit("-", 1)[0]
        if headers is not None:
            headers.append(f"{language}/{path.name} ({release(path)})")
        written = known.get(language, set())
        for msgid, msgstr in read_catalogue(str(path)):
            if (
                not msgstr
                or msgstr == msgid
                or not kept(msgid, catalogue == "libpq5")
                or normal(msgstr) in written
            ):
                continue
            majors = found.setdefault((catalogue, language, msgid, msgstr), [])
            if major not in majors:
                majors.append(major)
    return dict(sorted(found.items()))


def main() -> int:
    locales, sources, output = arguments(__doc__, UPSTREAM_TRANSLATIONS)
    headers: list[str] = []
    found = extract(locales, headers)
    lines = [
        "# PostgreSQL's server (postgres) and libpq (libpq5) message catalogues' translations",
        "# that the installed (15) catalogue of the same language does not write:",
        *(f"#   {source}" for source in sources),
        "# The catalogues read (each header's Project-Id-Version):",
        *(f"#   {' '.join(headers[at : at + 4])}" for at in range(0, len(headers), 4)),
        "# PostgreSQL License: postgresql.LICENSE.",
        "# Extracted by tools/extract_postgresql_translations.py.",
        "# catalogue<TAB>language<TAB>majors<TAB>msgid<TAB>msgstr",
        *(
            f"{catalogue}\t{language}\t{' '.join(majors)}\t{escape(msgid)}\t{escape(msgstr)}"
            for (catalogue, language, msgid, msgstr), majors in found.items()
        ),
    ]
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{output}: {len(found)} translations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
