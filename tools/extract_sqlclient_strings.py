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

Before release 5.2 the driver had two resource files, one for .NET
(`netcore/src/Resources/Strings.resx`, `SR.resx` in 1.x) and one for .NET
Framework (`netfx/src/Resources/Strings.resx`), and they did not always say
the same: .NET's `SQL_SSPIGenerateError` is `Failed to generate SSPI
context.`, .NET Framework's (and the merged file's) `The target principal
name is incorrect.  Cannot generate SSPI context.`; .NET Framework's command
timeout is `SQL_Timeout`, `Timeout expired.  The timeout period elapsed
...`.  Users run those releases still: with `--git-dir`, both files of the
last release of each line before the merge (`RELEASES`) are read too, and
each name's every text is written once, as
`name<TAB>message<TAB>releases` (the files that have that text,
comma-separated: `main` the merged file at `--ref`, `5.1.9-netcore` one of
a release's), the merged file's texts first; a name whose text changed has
a line per text.  `--check` compares instead of writing.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generated import tsv_field, write_or_check

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
#: The merged file's name in the releases column.
MAIN = "main"
_TARGETS = "src/Microsoft.Data.SqlClient/{}/src/Resources/{}"
#: The releases read besides the merged file: the last of each line before the
#: two resource files were merged (5.2), each target's file (`name`, tag, path).
RELEASES: tuple[tuple[str, str, str], ...] = tuple(
    (f"{tag[1:]}-{target}", tag, _TARGETS.format(target, file))
    for tag, files in (
        ("v1.1.4", (("netcore", "SR.resx"), ("netfx", "Strings.resx"))),
        ("v2.1.7", (("netcore", "Strings.resx"), ("netfx", "Strings.resx"))),
        ("v3.1.7", (("netcore", "Strings.resx"), ("netfx", "Strings.resx"))),
        ("v4.1.1", (("netcore", "Strings.resx"), ("netfx", "Strings.resx"))),
        ("v5.1.9", (("netcore", "Strings.resx"), ("netfx", "Strings.resx"))),
    )
    for target, file in files
)


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
                rows.append(f"{name}\t{language}\t{tsv_field(value)}")
    return [
        *header,
        "# Extracted by tools/extract_sqlclient_strings.py. name<TAB>language<TAB>message",
        *rows,
    ]


def _commit(git_dir: str, ref: str) -> str:
    return _git(git_dir, "rev-parse", f"{ref}^{{commit}}").decode().strip()


def merged(
    files: list[tuple[str, list[tuple[str, str]]]],
) -> dict[str, dict[str, list[str]]]:
    """
    name -> text -> the files (their names) that have it, in the order read:
    the first file's names and texts first, then each other file's new ones.
    """
    found: dict[str, dict[str, list[str]]] = {}
    for file, rows in files:
        for name, text in rows:
            found.setdefault(name, {}).setdefault(text, []).append(file)
    return found


def render(header: list[str], files: list[tuple[str, list[tuple[str, str]]]]) -> str:
    """The TSV: *header*, then a `name<TAB>message<TAB>releases` line per name and text."""
    lines = [
        *header,
        "# Extracted by tools/extract_sqlclient_strings.py. name<TAB>message<TAB>releases",
    ]
    for name, texts in merged(files).items():
        lines += [f"{name}\t{tsv_field(text)}\t{','.join(where)}" for text, where in texts.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--git-dir", help="a clone of github.com/dotnet/SqlClient")
    group.add_argument("--resx", help="Strings.resx itself (its texts alone)")
    parser.add_argument("--ref", default="HEAD", help="the merged file's commit or tag")
    parser.add_argument("--source", help="how to name the source in the file's header")
    parser.add_argument("--check", action="store_true", help="exit 1 when the files differ")
    args = parser.parse_args(argv)
    header = [
        "# Microsoft.Data.SqlClient (github.com/dotnet/SqlClient): the English messages of the",
        "# SQL_, SQLCR_, Snix_, SNI_ and ADP_ families of its Strings.resx, in each file read:",
    ]
    files: list[tuple[str, list[tuple[str, str]]]] = []
    outputs = {}
    if args.git_dir is not None:
        commit = _commit(args.git_dir, args.ref)
        header.append(f"# {MAIN}: commit {commit}: {RESX}")
        rows = read(_git(args.git_dir, "show", f"{commit}:{RESX}"))
        files.append((MAIN, rows))
        for name, tag, path in RELEASES:
            tagged = _commit(args.git_dir, tag)
            header.append(f"# {name}: commit {tagged}: {path}")
            files.append((name, read(_git(args.git_dir, "show", f"{tagged}:{path}"), fewest=100)))
        translated = translations(args.git_dir, commit, dict(rows))
        outputs[TRANSLATIONS] = "\n".join(translated) + "\n"
    else:
        header.append(f"# {MAIN}: {args.source or args.resx}: {RESX}")
        files.append((MAIN, read(Path(args.resx).read_bytes())))
    header.append("# MIT License: sqlclient.LICENSE.")
    outputs = {OUTPUT: render(header, files), **outputs}
    return write_or_check(
        outputs, check=args.check, what="SqlClient's messages are", script=Path(__file__).name
    )


if __name__ == "__main__":
    raise SystemExit(main())
