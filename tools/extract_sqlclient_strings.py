"""
Extract `tools/upstream/sqlclient-strings.tsv`: Microsoft.Data.SqlClient's own messages.

    python tools/extract_sqlclient_strings.py --git-dir PATH/SqlClient.git --ref main
    python tools/extract_sqlclient_strings.py --resx PATH/Strings.resx --source "..."

SqlClient, .NET's SQL Server driver, raises errors of its own beside the
server's: a command timeout (`Execution Timeout Expired.  The timeout period
elapsed prior to completion of the operation or the server is not
responding.`), a broken connection (`A transport-level error has occurred when
receiving results from the server.`), a refused handshake (`A connection was
successfully established with the server, but then an error occurred during
the pre-login handshake.`).  Their English texts are the driver's resource
file, `src/Microsoft.Data.SqlClient/src/Resources/Strings.resx`: this reads
its `<data name="..."><value>...</value></data>` entries whose names are of
the families that report a command's or a connection's failure (`SQL_`,
`SQLCR_` connection recovery, `Snix_` and `SNI_` the network layer, `ADP_`)
and writes them, one a line (`\\`, a tab and a line break written `\\\\`,
`\\t`, `\\n`), after `#` lines naming the source.  It is read by
`tools/generate_sqlclient_texts.py` and `tools/generate_vendor_wordings.py`;
the driver's source is not needed there.  SqlClient is MIT-licensed
(`sqlclient.LICENSE`).

The driver ships the same resources translated, `Strings.<language>.resx`
beside the English one (`cs`, `de`, `es`, `fr`, `it`, `ja`, `ko`, `pl`,
`pt-BR`, `ru`, `tr`, `zh-Hans`, `zh-Hant`): with `--git-dir`, each
translation of a message the English file keeps (and that differs from its
English text) is written to `tools/upstream/sqlclient-translations.tsv`,
one a line as `name<TAB>language<TAB>message` (the same escapes), after one
`#` line per file naming its repository, path, commit and licence.  It is
read by `tools/generate_sqlclient_texts.py`.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "sqlclient-strings.tsv"
TRANSLATIONS = ROOT / "tools" / "upstream" / "sqlclient-translations.tsv"
RESX = "src/Microsoft.Data.SqlClient/src/Resources/Strings.resx"
#: A translation of it: `Strings.de.resx`, `Strings.zh-Hans.resx`.
TRANSLATED_RESX = re.compile(
    r"src/Microsoft\.Data\.SqlClient/src/Resources/Strings\.([A-Za-z-]+)\.resx"
)
#: The resource names' families kept (the part before the first `_`).
FAMILIES = frozenset({"SQL", "SQLCR", "Snix", "SNI", "ADP"})


def escape(text: str) -> str:
    """A value as one TSV field."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "").replace("\n", "\\n")


def read(resx: bytes, fewest: int = 200) -> list[tuple[str, str]]:
    """`(name, value)` of every entry of the kept families, in the file's order."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for data in ET.fromstring(resx).iter("data"):  # noqa: S314 - the driver's own resource file
        name = data.get("name") or ""
        value = data.find("value")
        if name.partition("_")[0] not in FAMILIES or value is None or not (value.text or ""):
            continue
        if name in seen:
            raise SystemExit(f"{name} is defined twice")
        seen.add(name)
        found.append((name, value.text or ""))
    if len(found) < fewest:
        raise SystemExit(f"only {len(found)} entries found: not SqlClient's Strings.resx?")
    return found


def _git(git_dir: str, *args: str) -> bytes:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, check=True
    ).stdout


def translations(git_dir: str, commit: str, english: dict[str, str]) -> list[str]:
    """
    The translations file's lines: a `#` line per language's file, then each
    translation of an English message kept (not the English text itself),
    by language, in the English file's order.
    """
    listing = _git(git_dir, "ls-tree", "--name-only", commit, RESX.rsplit("/", 1)[0] + "/")
    paths = [p for p in listing.decode().splitlines() if TRANSLATED_RESX.fullmatch(p)]
    if not paths:
        raise SystemExit(f"no translated Strings.<language>.resx beside {RESX}")
    header: list[str] = []
    rows: list[str] = []
    for path in sorted(paths):
        language = TRANSLATED_RESX.fullmatch(path)[1]  # type: ignore[index]
        header.append(
            f"# {language}: github.com/dotnet/SqlClient, commit {commit}: {path};"
            " MIT License: sqlclient.LICENSE."
        )
        local = dict(read(_git(git_dir, "show", f"{commit}:{path}"), fewest=1))
        for name, text in english.items():
            value = local.get(name)
            if value and value != text:
                rows.append(f"{name}\t{language}\t{escape(value)}")
    return [
        *header,
        "# Extracted by tools/extract_sqlclient_strings.py. name<TAB>language<TAB>message",
        *rows,
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--git-dir", help="a clone of github.com/dotnet/SqlClient")
    group.add_argument("--resx", help="Strings.resx itself")
    parser.add_argument("--ref", default="HEAD", help="the commit or tag (with --git-dir)")
    parser.add_argument("--source", help="how to name the source in the file's header")
    args = parser.parse_args(argv)
    if args.git_dir is not None:
        commit = subprocess.run(
            ["git", "--git-dir", args.git_dir, "rev-parse", args.ref],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        resx = _git(args.git_dir, "show", f"{commit}:{RESX}")
        source = args.source or f"github.com/dotnet/SqlClient, commit {commit}"
    else:
        resx = Path(args.resx).read_bytes()
        source = args.source or args.resx
    rows = read(resx)
    lines = [
        f"# Microsoft.Data.SqlClient ({source}): {RESX},",
        "# the English messages of the SQL_, SQLCR_, Snix_, SNI_ and ADP_ families.",
        "# MIT License: sqlclient.LICENSE.",
        "# Extracted by tools/extract_sqlclient_strings.py. name<TAB>message",
        *(f"{name}\t{escape(value)}" for name, value in rows),
    ]
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)} ({len(rows)} messages)")
    if args.git_dir is not None:
        translated = translations(args.git_dir, commit, dict(rows))
        TRANSLATIONS.write_text("\n".join(translated) + "\n", encoding="utf-8")
        count = sum(1 for line in translated if not line.startswith("#"))
        print(f"wrote {TRANSLATIONS.relative_to(ROOT)} ({count} translations)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
