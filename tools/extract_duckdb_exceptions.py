"""
Extract `tools/upstream/duckdb-exceptions.tsv`: DuckDB's message formats and their exception types.

    python tools/extract_duckdb_exceptions.py --git-dir PATH/duckdb.git --ref COMMIT \\
        --library PATH/_duckdb.cpython-311-x86_64-linux-gnu.so --source "..."
    python tools/extract_duckdb_exceptions.py --tree PATH/duckdb --library ... --source "..."

DuckDB throws each error as one of its exception classes, the message a
format and its arguments:

    throw CatalogException("Catalog with name %s does not exist!", name);
    throw BinderException(node, "Referenced column %s not found in FROM clause!", name);
    return CatalogException(extra_info,
                            StringUtil::Format("%s with name %s does not exist%s!%s", ...));

Each class is read as the `ExceptionType` its constructor gives `Exception`
(`CatalogException::CatalogException(const string &msg) : Exception(ExceptionType::CATALOG, msg)`,
`src/common/exception*.cpp`): the type names the label DuckDB prints
(`Catalog Error: `).  At every call of a class's constructor (thrown or
not), the first argument that holds a string literal is the message: its
literals (adjacent ones joined, C escapes read), each other operand of a `+`
a placeholder (`%s`), a `StringUtil::Format(...)` read as its own first
literal argument.  A message given through a variable names no format and is
left out.

With `--library` (the engine's compiled library, e.g. the installed Python
wheel's extension module), a format is kept only when each of its literals
is in the library's strings (whole, or as the tail of a longer one the
linker merged it with): the formats are then those the installed engine
prints, whichever source revision named their types.

The output is a TSV, one format and type a line (`\\`, a tab and a line break
written `\\\\`, `\\t`, `\\n`), sorted, after `#` lines naming the source.  It
is read by `tools/generate_vendor_wordings.py`; the source tree is not needed
there.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "duckdb-exceptions.tsv"
#: The engine's source folders (the core, and the extensions a build links in).
FOLDERS = ("src", "extension")
SUFFIXES = (".cpp", ".hpp", ".c", ".h", ".y")
#: How many of a string's last characters index it (a literal may be the tail of a longer one).
TAIL = 16

_CONSTRUCTOR = re.compile(
    r"\b(\w+Exception)::\1\s*\([^;{]*?\)\s*:\s*(?:\w+Exception|Exception)\s*\("
    r"[^;{]*?ExceptionType::([A-Z_]+)"
)
#: `Exception::ExceptionTypeToString`'s table: each type and the label printed before its messages.
_LABEL = re.compile(r'\{ExceptionType::([A-Z_]+),\s*"([^"]+)"\}')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "?": "?", "a": "\a"}
#: Calls whose first argument is the text they give (a format, or the string itself).
_FORMATTERS = frozenset(
    {"StringUtil::Format", "duckdb::StringUtil::Format", "string", "std::string", "duckdb::string"}
)


def tokens(source: str) -> Iterator[tuple[str, str]]:
    """
    The source's tokens that matter here: `("str", text)` for a string literal
    (escapes read), `("id", name)`, `("punct", char)`; comments and char literals dropped.
    """
    at, end = 0, len(source)
    ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*")
    while at < end:
        c = source[at]
        if c.isspace():
            at += 1
        elif source.startswith("//", at):
            at = source.find("\n", at)
            at = end if at < 0 else at
        elif source.startswith("/*", at):
            at = source.find("*/", at + 2)
            at = end if at < 0 else at + 2
        elif c == '"':
            text, at = _literal(source, at + 1)
            yield "str", text
        elif c == "'":
            stop = at + 1
            while stop < end and source[stop] != "'":
                stop += 2 if source[stop] == "\\" else 1
            at = stop + 1
        elif c == "R" and source.startswith('R"', at):
            close = source.find("(", at)
            delimiter = ")" + source[at + 2 : close] + '"'
            stop = source.find(delimiter, close)
            stop = end if stop < 0 else stop
            yield "str", source[close + 1 : stop]
            at = stop + len(delimiter)
        elif (m := ident.match(source, at)) is not None:
            yield "id", m.group()
            at = m.end()
        else:
            yield "punct", c
            at += 1


def _literal(source: str, at: int) -> tuple[str, int]:
    """The literal that starts at *at* (after its quote), escapes read, and where it ends."""
    out: list[str] = []
    end = len(source)
    while at < end and source[at] != '"':
        c = source[at]
        if c == "\\" and at + 1 < end:
            nxt = source[at + 1]
            if nxt == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", source[at + 2 :])
                digits = m.group() if m else "0"
                out.append(chr(int(digits, 16)))
                at += 2 + len(digits)
                continue
            if nxt in "01234567":
                m = re.match(r"[0-7]{1,3}", source[at + 1 :])
                digits = m.group() if m else nxt
                out.append(chr(int(digits, 8)))
                at += 1 + len(digits)
                continue
            out.append(_ESCAPES.get(nxt, nxt))
            at += 2
            continue
        out.append(c)
        at += 1
    return "".join(out), at + 1


def calls(toks: list[tuple[str, str]], classes: set[str]) -> Iterator[tuple[str, str, list[str]]]:
    """Each call of a class's constructor: the class, its message, and the message's literals."""
    for n, (kind, text) in enumerate(toks):
        name = text.rsplit("::", 1)[-1]
        if kind != "id" or name not in classes or toks[n + 1 : n + 2] != [("punct", "(")]:
            continue
        if n > 0 and toks[n - 1] in (("punct", "~"), ("id", "class")):
            continue
        for argument in arguments(toks, n + 2):
            found = message(argument)
            if found is not None:
                yield name, found[0], found[1]
                break


def arguments(toks: list[tuple[str, str]], at: int) -> list[list[tuple[str, str]]]:
    """The arguments of the call whose `(` is just before *at*, each its tokens."""
    found: list[list[tuple[str, str]]] = [[]]
    depth = 0
    for kind, text in toks[at:]:
        if kind == "punct" and text in "([{":
            depth += 1
        elif kind == "punct" and text in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif kind == "punct" and text in ";" and depth == 0:
            return []  # not a call: a declaration's parameters run on
        elif kind == "punct" and text == "," and depth == 0:
            found.append([])
            continue
        found[-1].append((kind, text))
    return [argument for argument in found if argument]


def message(argument: list[tuple[str, str]]) -> tuple[str, list[str]] | None:
    """
    The format an argument gives (its operands of `+` at the top level, each a
    literal or a placeholder), and its literals; `None` where it holds no literal.
    """
    operands: list[list[tuple[str, str]]] = [[]]
    depth = 0
    for kind, text in argument:
        if kind == "punct" and text in "([{":
            depth += 1
        elif kind == "punct" and text in ")]}":
            depth -= 1
        elif kind == "punct" and text == "+" and depth == 0:
            operands.append([])
            continue
        operands[-1].append((kind, text))
    parts: list[str] = []
    literals: list[str] = []
    for operand in operands:
        if operand and all(kind == "str" for kind, _ in operand):
            joined = "".join(text for _, text in operand)
            parts.append(joined)
            literals.append(joined)
            continue
        if (
            len(operand) > 2
            and operand[0][0] == "id"
            and operand[0][1] in _FORMATTERS
            and operand[1] == ("punct", "(")
        ):
            # StringUtil::Format("...", ...): its first argument's format.
            inner = arguments(operand, 2)
            found = message(inner[0]) if inner else None
            if found is not None:
                parts.append(found[0])
                literals.extend(found[1])
                continue
        parts.append("%s")
    if not literals:
        return None
    return "".join(parts), literals


def exception_types(files: dict[str, str]) -> dict[str, str]:
    """Exception class -> the `ExceptionType` its constructor gives `Exception`."""
    found: dict[str, set[str]] = {}
    for path, source in files.items():
        if "/common/exception" in path or path.endswith("exception.cpp"):
            for m in _CONSTRUCTOR.finditer(source):
                found.setdefault(m.group(1), set()).add(m.group(2))
    return {name: types.pop() for name, types in found.items() if len(types) == 1}


def labels(files: dict[str, str]) -> dict[str, str]:
    """ExceptionType -> the label DuckDB prints before its messages (`Catalog Error: `)."""
    return {
        m.group(1): m.group(2)
        for path, source in files.items()
        if path.endswith("common/exception.cpp")
        for m in _LABEL.finditer(source)
    }


def library_strings(path: Path) -> tuple[set[str], dict[str, list[str]]]:
    """
    The library's NUL-terminated strings of printable text: their tails of
    `TAIL` characters or fewer, and each string by its last `TAIL` characters.
    """
    data = path.read_bytes()
    short: set[str] = set()
    by_tail: dict[str, list[str]] = {}
    for raw in re.findall(rb"[\t\n\r\x20-\x7e]{4,}(?=\x00)", data):
        text = raw.decode("ascii")
        for n in range(1, min(TAIL, len(text)) + 1):
            short.add(text[-n:])
        if len(text) >= TAIL:
            by_tail.setdefault(text[-TAIL:], []).append(text)
    return short, by_tail


def shipped(literal: str, strings: tuple[set[str], dict[str, list[str]]]) -> bool:
    """Whether the literal is one of the library's strings or the tail of one."""
    short, by_tail = strings
    if len(literal) <= TAIL:
        return literal in short
    return any(text.endswith(literal) for text in by_tail.get(literal[-TAIL:], ()))


def read_git(git_dir: Path, ref: str) -> dict[str, str]:
    listing = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", ref, "--", *FOLDERS],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\n")
    paths = [p for p in listing if p.endswith(SUFFIXES) and "/test" not in p]
    batch = subprocess.run(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
        input="".join(f"{ref}:{p}\n" for p in paths).encode(),
        check=True,
        capture_output=True,
    ).stdout
    files: dict[str, str] = {}
    at = 0
    for path in paths:
        header_end = batch.index(b"\n", at)
        header = batch[at:header_end].split()
        if header[-1] == b"missing":
            at = header_end + 1
            continue
        size = int(header[2])
        files[path] = batch[header_end + 1 : header_end + 1 + size].decode("utf-8", "replace")
        at = header_end + 1 + size + 1
    return files


def read_tree(tree: Path) -> dict[str, str]:
    return {
        str(p.relative_to(tree)): p.read_text(encoding="utf-8", errors="replace")
        for folder in FOLDERS
        for p in sorted((tree / folder).rglob("*"))
        if p.suffix in SUFFIXES and "/test" not in str(p.relative_to(tree))
    }


def extract(files: dict[str, str], library: Path | None) -> dict[str, str]:
    """Format -> its exception type, for the formats every call site gives one type."""
    types = exception_types(files)
    strings = library_strings(library) if library is not None else None
    found: dict[str, set[str]] = {}
    for source in files.values():
        if "Exception" not in source:
            continue
        toks = list(tokens(source))
        for name, text, literals in calls(toks, set(types)):
            if strings is not None and not all(shipped(lit, strings) for lit in literals):
                continue
            found.setdefault(text, set()).add(types[name])
    return {text: kinds.pop() for text, kinds in found.items() if len(kinds) == 1}


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--git-dir", type=Path, help="a clone of github.com/duckdb/duckdb")
    where.add_argument("--tree", type=Path, help="an unpacked source tree")
    parser.add_argument("--ref", default="HEAD", help="the commit to read (with --git-dir)")
    parser.add_argument("--library", type=Path, help="the engine's compiled library")
    parser.add_argument("--source", required=True, help="what the formats are read from")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    files = read_git(args.git_dir, args.ref) if args.git_dir else read_tree(args.tree)
    formats = extract(files, args.library)
    printed = labels(files)
    lines = [
        f"# DuckDB {args.source}: message formats, each with the ExceptionType",
        "# of the exception class every call site throws it as, and the label DuckDB",
        "# prints before it (`Catalog Error: `). MIT License: duckdb.LICENSE.",
        "# Extracted by tools/extract_duckdb_exceptions.py. format<TAB>exception type<TAB>label",
        *(
            f"{escape(text)}\t{kind}\t{printed.get(kind, '')}"
            for text, kind in sorted(formats.items())
        ),
    ]
    args.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{args.output}: {len(formats)} formats")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
