"""
Generate `localdata_errors/_sqlcmd_labels.py`: sqlcmd's `Msg N, Level N, State N` in each language.

    python tools/generate_sqlcmd_labels.py --check
    python tools/generate_sqlcmd_labels.py --git-dir PATH/go-sqlcmd.git --ref COMMIT

SQL Server's tools print a server message under a header of numbers: `Msg
208, Level 16, State 1, Line 1`.  In another language the labels are
translated (`Meldung 207, Ebene 16, Status 1`, `Сообщение 18456, уровень 14,
состояние 1`, `消息 208` and `级别 16` after a full-width comma).  Microsoft's go-sqlcmd
(github.com/microsoft/go-sqlcmd, MIT, `tools/upstream/go-sqlcmd.LICENSE`)
ships that header's translations in its message catalogues
(`internal/translations/locales/<locale>/out.gotext.json`, the message `Msg
{Number}, Level {Class}, State {State}, Server {ServerName}, Line
{LineNo}{SqlcmdEol}`).  Each locale's translation is kept as published in
`tools/upstream/go-sqlcmd-labels.tsv` (`--git-dir` and `--ref` extract it
from a checkout's commit; the default reads the committed file), and the
module lists the words each translation writes before `{Class}` (the
level) and before `{State}`, with the separator between the fields (a comma,
a full-width comma U+FF0C, an ideographic comma U+3001).  The word before
`{Number}` is not kept: SQL Server Management Studio writes its own (`消息`
where go-sqlcmd keeps `Msg`), so the header is read by the number and the two labels after it.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from _generated import source_missing, write_or_check

ROOT: Final = Path(__file__).resolve().parent.parent
OUTPUT: Final = ROOT / "localdata_errors" / "_sqlcmd_labels.py"
SOURCE: Final = ROOT / "tools" / "upstream" / "go-sqlcmd-labels.tsv"
#: The header message of go-sqlcmd's catalogues.
MESSAGE: Final = (
    "Msg {Number}, Level {Class}, State {State}, Server {ServerName}, Line {LineNo}{SqlcmdEol}"
)
LOCALES: Final = "internal/translations/locales"
#: A translation's fields: a label, its placeholder, a separator.
_FIELD: Final = re.compile(r"(?P<label>[^\W\d_]+) ?\{(?P<name>\w+)\}(?P<separator>[^{\w]*)")


def extract(git_dir: Path, ref: str) -> str:
    """The TSV of each locale's translation of `MESSAGE` at *ref* of the go-sqlcmd checkout."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", f"--git-dir={git_dir}", *args],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    commit = git("rev-parse", f"{ref}^{{commit}}").strip()
    rows: list[str] = []
    for path in sorted(git("ls-tree", "-r", "--name-only", commit, LOCALES).split()):
        if not path.endswith("/out.gotext.json"):
            continue
        document = json.loads(git("show", f"{commit}:{path}"))
        rows.extend(
            f"{document['language']}\t{message['translation']}"
            for message in document["messages"]
            if message["id"] == MESSAGE and message.get("translation")
        )
    header = [
        f"# go-sqlcmd (github.com/microsoft/go-sqlcmd, commit {commit}), MIT: go-sqlcmd.LICENSE.",
        f"# Each locale's translation of {MESSAGE!r} in {LOCALES}/*/out.gotext.json.",
        "# Extracted by tools/generate_sqlcmd_labels.py --git-dir. locale<TAB>translation",
    ]
    return "\n".join([*header, *rows]) + "\n"


def labels(tsv: str) -> tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The source line, and the level words, state words and separators the translations write."""
    levels: set[str] = set()
    states: set[str] = set()
    separators: set[str] = set()
    source = ""
    for line in tsv.splitlines():
        if line.startswith("#"):
            source = source or line.removeprefix("# ")
            continue
        locale, _, translation = line.partition("\t")
        fields = {m["name"]: m for m in _FIELD.finditer(translation)}
        if not {"Number", "Class", "State"} <= set(fields):
            raise ValueError(f"{locale}: no level and state in {translation!r}")
        levels.add(fields["Class"]["label"])
        states.add(fields["State"]["label"])
        for name in ("Number", "Class"):
            separators.add(fields[name]["separator"].strip() or fields[name]["separator"])
    return source, tuple(sorted(levels)), tuple(sorted(states)), tuple(sorted(separators))


def render(
    source: str, levels: Sequence[str], states: Sequence[str], separators: Sequence[str]
) -> str:
    def listing(name: str, words: Sequence[str], *, ascii_only: bool = False) -> list[str]:
        # Double quotes, as the formatter writes them; punctuation a linter
        # would take for ASCII's is written as its escape.
        quoted = (json.dumps(word, ensure_ascii=ascii_only) for word in words)
        return [f"{name}: Final = (", *(f"    {word}," for word in quoted), ")"]

    return "\n".join(
        [
            '"""',
            "SQL Server's message header (`Msg N, Level N, State N`): its labels in each language.",
            "",
            "Generated by `tools/generate_sqlcmd_labels.py` from go-sqlcmd's message",
            "catalogues; do not edit.",
            '"""',
            "",
            "from __future__ import annotations",
            "",
            "from typing import Final",
            "",
            "# Source:",
            *(f"#   {part}" for part in textwrap.wrap(source, 90)),
            "#: The word before the level (`Level`, `Ebene`, `级别`).",
            *listing("LEVELS", levels),
            "#: The word before the state (`State`, `Status`, `状态`).",
            *listing("STATES", states),
            "#: What separates the fields (a comma, a full-width one, an ideographic one).",
            *listing("SEPARATORS", separators, ascii_only=True),
            "",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    parser.add_argument("--git-dir", type=Path, help="a go-sqlcmd checkout's git directory")
    parser.add_argument("--ref", default="HEAD", help="the commit to extract (with --git-dir)")
    args = parser.parse_args(argv)
    if args.git_dir is not None:
        SOURCE.write_text(extract(args.git_dir, args.ref), encoding="utf-8")
        print(f"wrote {SOURCE.relative_to(ROOT)}")
    if not SOURCE.exists():
        source_missing(f"no {SOURCE.relative_to(ROOT)} (extract it with --git-dir)")
    text = render(*labels(SOURCE.read_text(encoding="utf-8")))
    return write_or_check(
        {OUTPUT: text},
        check=args.check,
        what="the sqlcmd label table is",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    sys.exit(main())
