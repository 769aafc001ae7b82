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
"""

from __future__ import annotations

import argparse
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "sqlclient-strings.tsv"
RESX = "src/Microsoft.Data.SqlClient/src/Resources/Strings.resx"
#: The resource names' families kept (the part before the first `_`).
FAMILIES = frozenset({"SQL", "SQLCR", "Snix", "SNI", "ADP"})


def escape(text: str) -> str:
    """A value as one TSV field."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "").replace("\n", "\\n")


def read(resx: bytes) -> list[tuple[str, str]]:
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
    if len(found) < 200:
        raise SystemExit(f"only {len(found)} entries found: not SqlClient's Strings.resx?")
    return found


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
        resx = subprocess.run(
            ["git", "--git-dir", args.git_dir, "show", f"{commit}:{RESX}"],
            capture_output=True,
            check=True,
        ).stdout
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
