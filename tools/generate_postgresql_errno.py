"""
Generate `localdata_errors/backends/_postgresql_errno.py`: the SQLSTATE PostgreSQL sets from errno.

    python tools/generate_postgresql_errno.py           # write the module
    python tools/generate_postgresql_errno.py --check   # exit 1 when it is stale

Where a call site reports with `errcode_for_file_access()` or
`errcode_for_socket_access()`, PostgreSQL's `elog.c` sets the SQLSTATE from
`errno` by a switch (`ENOENT` is 58P01 undefined_file, `ENOSPC` 53100
disk_full, any other errno XX000), and the message's `%m` prints
`strerror(errno)`: the text says which errno it was.  Two facts are joined:

- each switch, as `tools/extract_postgresql_sqlstates.py` read it from each
  release's `elog.c` (the errno section of `tools/upstream/postgresql*-sqlstates.tsv`,
  marker `errno:file` or `errno:socket`); where the releases give an errno
  different SQLSTATEs (`ENAMETOOLONG`: 15's default XX000, 18's 58P03), it
  gets none;
- the C libraries' strerror texts, which `%m` prints: glibc's, from the
  system this runs on (`os.strerror` of every errno Python's `errno` module
  names; the English texts, whatever the locale, as Python does not set
  `LC_MESSAGES`), and musl's (Alpine's C library, which the `postgres:*-alpine`
  images run on: `tools/upstream/musl-strerror.h`, musl v1.2.5's
  `src/errno/__strerror.h`, MIT License, `musl.LICENSE`).  A text the two
  give different errnos is left out.  Windows' texts (PostgreSQL there
  prints the C runtime's or `FormatMessage`'s) are not here: no list of them
  is on this machine.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from _generated import generate

TOOLS: Final = Path(__file__).resolve().parent
ROOT: Final = TOOLS.parent
OUTPUT: Final = ROOT / "localdata_errors" / "backends" / "_postgresql_errno.py"
UPSTREAM: Final = TOOLS / "upstream"
#: The extractor's TSVs, one per release's source (15.18's, 18.6's).
PG_SQLSTATES: Final = sorted(UPSTREAM.glob("postgresql*-sqlstates.tsv"))
MUSL: Final = UPSTREAM / "musl-strerror.h"
#: The errno a switch's `default` stands for (the extractor's `ANY_ERRNO`).
ANY_ERRNO: Final = "*"

_ENTRY = re.compile(r'^E\((\w+),\s*"((?:[^"\\]|\\.)*)"\)', re.MULTILINE)


def switches(paths: Iterable[Path]) -> dict[str, dict[str, str | None]]:
    """
    Marker -> errno name -> the SQLSTATE every release's switch gives it
    (its own case, else the default), `None` where they differ;
    `ANY_ERRNO` -> the default's.

    Raises:
        ValueError: A file has no errno section, or a marker no default.
    """
    releases: list[dict[str, dict[str, str]]] = []
    for path in paths:
        rows: dict[str, dict[str, str]] = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("errno:") and line.count("\t") == 2:
                marker, name, state = line.split("\t")
                rows.setdefault(marker, {})[name] = state
        if not rows or any(ANY_ERRNO not in cases for cases in rows.values()):
            raise ValueError(f"{path.name}: no errno section, or a switch without its default")
        releases.append(rows)
    markers = sorted({marker for rows in releases for marker in rows})
    found: dict[str, dict[str, str | None]] = {}
    for marker in markers:
        names = {name for rows in releases for name in rows.get(marker, {})}
        table: dict[str, str | None] = {}
        for name in [*sorted(names - {ANY_ERRNO}), ANY_ERRNO]:
            given = {rows[marker].get(name, rows[marker][ANY_ERRNO]) for rows in releases}
            table[name] = given.pop() if len(given) == 1 else None
        found[marker] = table
    return found


def glibc_texts() -> dict[str, str]:
    """Errno name -> this system's strerror text, for every errno Python's `errno` names."""
    found = {}
    for number, name in sorted(errno.errorcode.items()):
        text = os.strerror(number)
        if not text.startswith("Unknown error"):
            found[name] = text
    return found


def musl_texts(header: str) -> dict[str, str]:
    """Errno name -> musl's strerror text (`E(ENOENT, "No such file or directory")`)."""
    return {name: text for name, text in _ENTRY.findall(header) if name != "0"}


def strerror_texts(*platforms: dict[str, str]) -> dict[str, str]:
    """
    Strerror text -> errno name, of every platform's list; a text two names
    have (on one platform or two) is left out, unless they are one errno
    here (`EWOULDBLOCK` is `EAGAIN`).
    """
    named: dict[str, set[str]] = {}
    for texts in platforms:
        for name, text in texts.items():
            named.setdefault(text, set()).add(name)
    found = {}
    for text, names in sorted(named.items()):
        numbers = {getattr(errno, name, name) for name in names}
        if len(numbers) == 1:
            found[text] = min(names, key=lambda n: (n not in errno.errorcode.values(), n))
    return found


def build() -> str:
    table = switches(PG_SQLSTATES)
    glibc = glibc_texts()
    musl = musl_texts(MUSL.read_text(encoding="utf-8"))
    texts = strerror_texts(glibc, musl)
    lines = [
        '"""',
        "The SQLSTATE PostgreSQL derives from errno, and the strerror texts that name the errno.",
        "",
        "Generated by `tools/generate_postgresql_errno.py` from `elog.c`'s switches",
        "(`tools/upstream/postgresql*-sqlstates.tsv`) and the C libraries' strerror",
        "texts (glibc's, of the system it ran on; musl's); do not edit.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "# marker -> errno name -> SQLSTATE ('*': any other errno; None: the releases differ).",
        "SQLSTATES: Final[dict[str, dict[str, str | None]]] = {",
    ]
    for marker, cases in table.items():
        lines.append(f'    "{marker}": {{')
        lines.extend(
            f'        "{name}": {"None" if state is None else json.dumps(state)},'
            for name, state in cases.items()
        )
        lines.append("    },")
    lines += [
        "}",
        "",
        f"# {len(texts)} strerror texts: glibc's {len(glibc)}, musl's {len(musl)}"
        " (a text of two errnos left out).",
        "# strerror text -> errno name.",
        "STRERROR: Final[dict[str, str]] = {",
        *(f"    {json.dumps(text)}: {json.dumps(name)}," for text, name in texts.items()),
        "}",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return generate(
        __doc__,
        lambda: {OUTPUT: build()},
        what="the PostgreSQL errno table",
        script="generate_postgresql_errno.py",
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
