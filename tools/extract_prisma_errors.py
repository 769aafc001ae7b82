"""
Extract `tools/upstream/prisma-errors.tsv`: Prisma's own error codes and their messages.

    python tools/extract_prisma_errors.py --git-dir PATH/prisma-engines.git --ref OLD --ref NEW
    python tools/extract_prisma_errors.py --git-dir PATH/prisma-engines.git --ref OLD --ref NEW \
        --check

Prisma's engines define each of their user-facing errors in
`libs/user-facing-errors/src/` with its code and its message template:

    #[user_facing(code = "P1001", message = "Can't reach database server at ...")]

or, where the message is built at run time, an `impl UserFacingError` whose
`const ERROR_CODE: &'static str = "P1003";` is followed by a `fn message`
returning `format!("...")` (one literal for each variant the function can
return; a literal bound by a `let` is a piece of another, not a message).
Templates keep Rust's format syntax: `{database_host}` is a value filled in
where the error is raised.

Prisma reworded some templates in 2025 (`Can't reach database server at
`{database_host}`:`{database_port}`` became `... at `{database_location}``),
and the texts users paste come from both: each `--ref` is read, and every
code's template at each commit is written as
`code<TAB>commit<TAB>path<TAB>template` (`\\`, a tab and a line break
written `\\\\`, `\\t`, `\\n`), after `#` lines naming the source.  It is
read by `tools/generate_prisma_codes.py`; the engines' source is not needed
there.  With `--check`, nothing is written: the exit status is 1 when the
committed file differs from what the source gives.  prisma-engines is
Apache-2.0 licensed (`prisma-engines.LICENSE`); the file holds its messages
only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

from _generated import source_missing, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "prisma-errors.tsv"
SOURCE_DIR = "libs/user-facing-errors/src/"

_STRING = r'"((?:[^"\\]|\\.|\\\n)*)"'
_ATTRIBUTE = re.compile(
    r'#\[user_facing\(\s*code\s*=\s*"(P\d{4})"\s*,\s*message\s*=\s*' + _STRING, re.S
)
_CONST = re.compile(r'const ERROR_CODE: &\'static str = "(P\d{4})";')
_FORMAT = re.compile(r"format!\(\s*" + _STRING, re.S)
# `let x = ...;`: a piece of a message (`format!("Error code: {}\n", ...)`), not one.
_LET = re.compile(r"\blet \w+(?::[^=]+)? = .*?;\n", re.S)
_ESCAPE = re.compile(r"\\(\n\s*|.)")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


def escape(text: str) -> str:
    """A value as one TSV field."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _rust_string(body: str) -> str:
    """The value of a Rust string literal's body (`\\` and a line break: skipped, indent too)."""

    def one(match: re.Match[str]) -> str:
        escaped = match.group(1)
        if escaped.startswith("\n"):
            return ""
        if escaped not in _ESCAPES:
            raise SystemExit(f"an escape this reader does not know: {match.group()!r}")
        return _ESCAPES[escaped]

    return _ESCAPE.sub(one, body)


def read(source: str) -> list[tuple[str, str]]:
    """Each code one Rust source file defines, with each message template it gives it."""
    found: list[tuple[str, str]] = [
        (match.group(1), _rust_string(match.group(2))) for match in _ATTRIBUTE.finditer(source)
    ]
    for match in _CONST.finditer(source):
        # The impl block: up to the next item at the file's top level.
        end = source.find("\n}\n", match.end())
        block = _LET.sub("", source[match.end() : end if end >= 0 else len(source)])
        templates = [_rust_string(one.group(1)) for one in _FORMAT.finditer(block)]
        if not templates:
            raise SystemExit(
                f"{match.group(1)}: no format! in its impl; the source's form changed?"
            )
        found.extend((match.group(1), template) for template in dict.fromkeys(templates))
    return found


def _git(git_dir: str, *args: str) -> str:
    done = subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        source_missing(f"git {' '.join(args)} failed in {git_dir}: {done.stderr.strip()}")
    return done.stdout


def extract(git_dir: str, refs: list[str]) -> list[tuple[str, str, str, str]]:
    """`(code, commit, path, template)` for every ref, in each file's order."""
    rows: list[tuple[str, str, str, str]] = []
    for ref in refs:
        commit = _git(git_dir, "rev-parse", f"{ref}^{{commit}}").strip()
        listing = _git(git_dir, "ls-tree", "-r", "--name-only", commit, SOURCE_DIR)
        paths = sorted(path for path in listing.split("\n") if path.endswith(".rs"))
        seen: set[tuple[str, str]] = set()
        for path in paths:
            for code, template in read(_git(git_dir, "show", f"{commit}:{path}")):
                if (code, template) not in seen:
                    seen.add((code, template))
                    rows.append((code, commit, path, template))
        codes = {code for code, *_ in rows}
        if len(codes) < 70:
            raise SystemExit(f"{commit}: {len(codes)} codes read; the source's form changed?")
    return rows


def build(rows: list[tuple[str, str, str, str]]) -> str:
    commits = list(dict.fromkeys(commit for _, commit, _, _ in rows))
    lines = [
        "# Prisma's user-facing errors: github.com/prisma/prisma-engines, "
        + ", ".join(f"commit {commit}" for commit in commits)
        + ",",
        f"# the `code`/`message` of each `#[user_facing(...)]` and each `ERROR_CODE`'s"
        f" `format!` under {SOURCE_DIR}.",
        "# Apache License 2.0: prisma-engines.LICENSE.",
        "# Extracted by tools/extract_prisma_errors.py. code<TAB>commit<TAB>path<TAB>template",
        *(f"{c}\t{commit}\t{path}\t{escape(t)}" for c, commit, path, t in rows),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", required=True, help="a clone of prisma/prisma-engines")
    parser.add_argument(
        "--ref", action="append", required=True, help="a commit to read (repeat: oldest first)"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args(argv)
    rows = extract(args.git_dir, args.ref)
    text = build(rows)
    return write_or_check(
        {OUTPUT: text},
        check=args.check,
        what=f"Prisma's error templates ({len(rows)} templates)",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
