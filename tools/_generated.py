"""
What every generator here does with what it generated.

A listing is spliced between a docs page's markers; then the files are
written, or, with `--check`, compared with what is committed (exit 1 when
one differs, so that CI fails on a table that drifted from its source).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent.parent

#: The exit status of a generator whose upstream source is not on this machine
#: (a system package that is not installed): the table cannot be checked here.
SOURCE_MISSING = 3


def source_missing(message: str) -> NoReturn:
    """
    Exit with `SOURCE_MISSING`, saying what is missing and what installs it.

    Args:
        message: What is missing and how to install it.
    """
    print(message, file=sys.stderr)
    raise SystemExit(SOURCE_MISSING)


def splice(
    docs: str, start: str, end: str, listing: str, error: type[Exception] = ValueError
) -> str:
    """
    Put *listing* between the page's *start* and *end* markers.

    Args:
        docs: The docs page.
        start: The marker after which the listing begins.
        end: The marker before which it ends.
        listing: The listing, ending with its own line break.
        error: What to raise when the markers are missing (the generator's own error).

    Returns:
        The page with the listing in place.

    Raises:
        Exception: *error*, when the page lacks the markers (or has them out of order).
    """
    at, stop = docs.find(start), docs.find(end)
    if at < 0 or stop < at:
        raise error(f"the docs page lacks {start} / {end}")
    return docs[: at + len(start)] + "\n" + listing + docs[stop:]


def _shown(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def write_or_check(files: Mapping[Path, str], *, check: bool, what: str, script: str) -> int:
    """
    Write *files*, or with *check* say which differ from what is there.

    Args:
        files: Each file's path and its generated text.
        check: Compare instead of writing.
        what: What the files hold, for the message (`the libpq message table`).
        script: The generator's file name, for the message that asks to run it.

    Returns:
        0 when written or up to date; 1 when *check* finds a file that differs.
    """
    if check:
        stale = [
            path
            for path, text in files.items()
            if not path.exists() or path.read_text(encoding="utf-8") != text
        ]
        for path in stale:
            print(f"{_shown(path)} is stale: run tools/{script}")
        if not stale:
            print(f"{what} up to date")
        return 1 if stale else 0
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {_shown(path)}")
    return 0


def generate(
    doc: str,
    outputs: Callable[[], Mapping[Path, str]],
    *,
    what: str,
    script: str,
    argv: list[str] | None = None,
) -> int:
    """
    A generator's command line: `--check` alone, then `write_or_check`.

    Args:
        doc: The generator's docstring (its first paragraph describes it).
        outputs: What it writes, built once the arguments are read.
        what: What the files are, for the message.
        script: The generator's file name, for the message.
        argv: The arguments (`sys.argv`'s by default).

    Returns:
        The exit status.
    """
    parser = argparse.ArgumentParser(description=doc.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    args = parser.parse_args(argv)
    return write_or_check(outputs(), check=args.check, what=what, script=script)


def git_text(git_dir: str, *args: str) -> str:
    """What `git --git-dir <git_dir> <args>` prints, read as UTF-8 (raises when git fails)."""
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, check=True
    ).stdout.decode("utf-8")


def tsv_field(text: str) -> str:
    """A value as one TSV field: `\\`, a tab and a line break escaped, a carriage return dropped."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "").replace("\n", "\\n")


def release_rows(found: Mapping[tuple[str, str], Sequence[str]]) -> list[str]:
    """
    The lines `read_driver_strings` reads, in *found*'s order: each key and
    text once, with the releases that have it (`key<TAB>text<TAB>releases`).
    """
    return [f"{key}\t{tsv_field(text)}\t{','.join(tags)}" for (key, text), tags in found.items()]


_FIELD = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\"}


def read_driver_strings(
    path: Path, release: str, key: str
) -> tuple[list[str], dict[str, list[str]]]:
    """
    A Java driver's messages as an extractor wrote them (`key<TAB>text<TAB>releases`).

    Args:
        path: The TSV.
        release: The pattern of a `#` line naming a release read (its group 1
            the release).
        key: The pattern a key matches whole.

    Returns:
        The releases read, and key -> its texts, in the file's order.  Exits on
        a line it cannot read, a release no `#` line names, a key and text twice.
    """
    releases: list[str] = []
    found: dict[str, list[str]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("#"):
            named = re.match(release, line)
            if named is not None:
                releases.append(named.group(1))
            continue
        fields = line.split("\t")
        if len(fields) != 3 or not re.fullmatch(key, fields[0]):
            sys.exit(f"{path}:{number}: not a key<TAB>text<TAB>releases line")
        name, value, tags = fields
        if not set(tags.split(",")) <= set(releases):
            sys.exit(f"{path}:{number}: a release no # line names")
        text = _FIELD.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), value)
        if text in found.setdefault(name, []):
            sys.exit(f"{path}:{number}: {name} and its text listed twice")
        found[name].append(text)
    return releases, found


#: What a Java driver's texts are, for `render_driver_texts`'s comment.
JAVA_PATTERNS = (
    "(`java.text.MessageFormat`",
    "# patterns: `{0}`, `{1}` their values, `''` an apostrophe).",
)


def render_driver_texts(
    head: list[str], texts: Mapping[str, list[str]], patterns: tuple[str, str] = JAVA_PATTERNS
) -> str:
    """
    The module of a driver's messages: *head* (its docstring's lines), then
    `TEXTS`, each key and its wordings; *patterns* says what the texts are
    (the comment's end and its second line: a Java driver's by default).
    """
    lines = [
        '"""',
        *head,
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f"# {len(texts)} messages, each with its wordings {patterns[0]}",
        patterns[1],
        "TEXTS: Final[dict[str, tuple[str, ...]]] = {",
    ]
    for name, wordings in texts.items():
        lines.append(f'    "{name}": (')
        lines += [f"        {json.dumps(text)}," for text in wordings]
        lines.append("    ),")
    lines += ["}", ""]
    return "\n".join(lines)
