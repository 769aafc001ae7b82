"""
Extract `tools/upstream/driver-messages.tsv`: what database drivers say of their own.

    python tools/extract_driver_messages.py --npm-dir DIR --git-dir pgjdbc/pgjdbc=PATH ...
    python tools/extract_driver_messages.py ... --check

A driver raises messages of its own beside the server's: node-postgres's
`Connection terminated unexpectedly`, pgjdbc's `An I/O error occurred while
sending to the backend.`, mysql2's `Can't add new command when connection is
in closed state`.  They carry no server code and, where no driver's module
or class name is printed with them, only their wording says the backend.
This reads each driver's source at the version `DRIVERS` records and writes
each message as
`driver<TAB>backend<TAB>version<TAB>file<TAB>code<TAB>message`, after `#`
lines naming the sources.  A message's placeholders (whatever the driver
fills in: a format's `%s`, `%v`, `{0}`, a template literal's `${...}`, an
f-string's `{...}`, an expression concatenated to a literal) are written
`{}`; `\\`, a tab and a line break are written `\\\\`, `\\t`, `\\n`.  The code
is the driver's own client error number where its call names one (PyMySQL's
`CR.CR_SERVER_LOST`: 2013), or the SQLSTATE the driver raises the message
with (pgjdbc's `PSQLState.CONNECTION_FAILURE`: 08006), else `-`.

Which calls hold a message, by the driver's language:

- JavaScript (the npm packages' `.js` files): the first argument of
  `new <Name>Error(...)` / `new <Name>Exception(...)` (also `new
  errors.ConnectionError(...)`; `AggregateError`'s second), and a literal
  assigned to a variable named `message`, where the argument is literals and
  expressions joined by `+`, holding a literal;
- Python (the installed packages' `.py` files, read with `ast`): the first
  argument of a call of a name ending in `Error` or `Exception` that is a
  string (a literal, an f-string, `"..." % x`, `"...".format(x)`, those
  joined by `+`), or its `msg=` / `message=`;
- Go (`.go` files, not tests): the format of `errors.New`, `fmt.Errorf`
  and a package's own `errorf`;
- Java (pgjdbc's `pgjdbc/src/main/java`): the message of `GT.tr(...)`, the
  driver's translated messages (MessageFormat: `''` is one quote), with the
  `PSQLState` constant after it in the exception's construction, read as
  its SQLSTATE from `PSQLState.java`;
- C (psycopg2's `psycopg/` sources): the message of `PyErr_SetString`,
  `PyErr_Format` and `psyco_set_error`.

The npm packages are unpacked from `npm pack <name>@<version>` (into
`--npm-dir`, where a tarball already there is read as it is); the Python
packages must be installed at the recorded versions (`pip install
psycopg==...`); the GitHub repositories are read from their git directories at
the recorded commits (`--git-dir owner/name=PATH`).  mysql-connector-python's
English client texts (`locales/eng/client_error.py`, with their CR numbers)
are read by `tools/generate_vendor_wordings.py` itself, with the server's
list.  asyncpg's Cython sources (`.pyx`) are not read.  With `--check`,
nothing is written: the exit status is 1 when the committed file differs
from what the sources give.  The drivers' licences are listed in
`driver-messages.LICENSE`; the file holds their messages only.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import importlib
import importlib.metadata
import re
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from _generated import source_missing

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "driver-messages.tsv"


@dataclass(frozen=True)
class Driver:
    """A driver: where its source is, at which version, and what to read of it."""

    name: str
    backend: str
    origin: str  # "npm", "pypi" or "git"
    #: The npm or PyPI version, or the git commit.
    version: str
    #: The files read, as `fnmatch` patterns of their paths under the package or
    #: repository root (`*` matches a `/` too).
    files: tuple[str, ...]
    #: npm/PyPI: the package's name; git: the repository (`owner/name`).
    package: str = ""
    #: Files left out (globs).
    skip: tuple[str, ...] = ()
    #: git: what `git describe` says of the commit.
    described: str = ""


DRIVERS: tuple[Driver, ...] = (
    Driver("node-postgres", "postgresql", "npm", "8.23.1", ("lib/*.js",), "pg"),
    Driver("pg-pool", "postgresql", "npm", "3.14.0", ("*.js",), "pg-pool"),
    Driver("mysql2", "mysql", "npm", "3.24.6", ("lib/*.js", "index.js"), "mysql2"),
    Driver("mysqljs", "mysql", "npm", "2.18.1", ("lib/*.js", "index.js"), "mysql"),
    Driver("tedious", "mssql", "npm", "20.3.9", ("lib/*.js",), "tedious"),
    Driver("node-mssql", "mssql", "npm", "12.7.14", ("lib/*.js",), "mssql"),
    Driver("psycopg", "postgresql", "pypi", "3.3.9", ("psycopg/*.py",), "psycopg"),
    Driver("pg8000", "postgresql", "pypi", "1.31.6", ("pg8000/*.py",), "pg8000"),
    Driver("asyncpg", "postgresql", "pypi", "0.32.0", ("asyncpg/*.py",), "asyncpg"),
    Driver("PyMySQL", "mysql", "pypi", "1.2.4", ("pymysql/*.py",), "PyMySQL"),
    Driver(
        "mysql-connector-python",
        "mysql",
        "pypi",
        "26.10.0",
        ("mysql/connector/*.py",),
        "mysql-connector-python",
        skip=("mysql/connector/locales/*", "mysql/connector/errorcode.py"),
    ),
    Driver(
        "pgjdbc",
        "postgresql",
        "git",
        "3a699d57d957ca0c2b86e619d001a8763a130027",
        ("pgjdbc/src/main/java/*.java",),
        "pgjdbc/pgjdbc",
        described="REL42.7.13-13-g3a699d57d",
    ),
    Driver(
        "psycopg2",
        "postgresql",
        "git",
        "3a6d9d6ddc6b53eaa80b712f5fa6b23abbdc38db",
        ("psycopg/*.c", "psycopg/*.h"),
        "psycopg/psycopg2",
        described="2.9.12",
    ),
    Driver(
        "lib/pq",
        "postgresql",
        "git",
        "f4654a41a62bc974ea825de270c44f577721205e",
        ("*.go",),
        "lib/pq",
        skip=("*_test.go",),
        described="v1.12.3-13-gf4654a4",
    ),
    Driver(
        "go-sql-driver/mysql",
        "mysql",
        "git",
        "416cd99d463949ca51faf4f84d674de2fc1aa54b",
        ("*.go",),
        "go-sql-driver/mysql",
        skip=("*_test.go",),
        described="v1.10.0-8-g416cd99",
    ),
    Driver(
        "go-mssqldb",
        "mssql",
        "git",
        "46b5c6acf6bac5ff9836e6ac1dab45f39ecbd881",
        ("*.go",),
        "microsoft/go-mssqldb",
        skip=("*_test.go", "examples/*"),
        described="v1.10.0-40-g46b5c6a",
    ),
)

#: A printf-style placeholder (C's, Go's, Python's `%` formatting).
_PRINTF = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:l|ll|z|h)?[a-zA-Z]")
#: A `{...}` placeholder (Java's MessageFormat, Python's `str.format`).
_BRACED = re.compile(r"\{[^{}]{0,40}\}")


def escape(text: str) -> str:
    """A value as one TSV field."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


# --- JavaScript ---------------------------------------------------------------

_JS_NEW = re.compile(r"\bnew\s+(?:[\w$]+\.)*([\w$]*(?:Error|Exception))\s*\(")
_JS_MESSAGE = re.compile(r"(?:\b(?:const|let|var)\s+|[^\w$.])message\s*=(?!=)\s*")
_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f", "v": "\v"}


def _js_string(source: str, at: int) -> tuple[str, int]:
    """The quoted literal at *at* (its value, placeholders `{}`), and where it ends."""
    quote = source[at]
    out: list[str] = []
    i = at + 1
    while i < len(source):
        c = source[i]
        if c == "\\":
            nxt = source[i + 1]
            if nxt == "u" and source[i + 2] == "{":
                end = source.index("}", i)
                out.append(chr(int(source[i + 3 : end], 16)))
                i = end + 1
                continue
            if nxt == "u":
                out.append(chr(int(source[i + 2 : i + 6], 16)))
                i += 6
                continue
            if nxt == "x":
                out.append(chr(int(source[i + 2 : i + 4], 16)))
                i += 4
                continue
            if nxt == "\n":
                i += 2
                continue
            out.append(_JS_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        if c == quote:
            return "".join(out), i + 1
        if quote == "`" and source.startswith("${", i):
            out.append("{}")
            i = _js_skip(source, i + 2, "}")
            continue
        if c == "\n" and quote != "`":
            break
        out.append(c)
        i += 1
    raise ValueError(f"an unterminated literal at {at}")


def _js_skip(source: str, at: int, close: str) -> int:
    """Where the bracket opened before *at* closes (past it), skipping literals and brackets."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [close]
    i = at
    while i < len(source):
        c = source[i]
        if c in "'\"`":
            _, i = _js_string(source, i)
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if c != stack[-1]:
                raise ValueError(f"unbalanced {c!r} at {i}")
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    raise ValueError(f"unclosed {close!r} from {at}")


def _js_arguments(source: str, at: int) -> list[str]:
    """The arguments of the call whose `(` is right before *at*, as source text."""
    end = _js_skip(source, at, ")")
    inner = source[at : end - 1]
    args: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(inner):
        c = inner[i]
        if c in "'\"`":
            _, i = _js_string(inner, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(inner[start:i])
            start = i + 1
        i += 1
    args.append(inner[start:])
    return [a.strip() for a in args]


def _js_message(expression: str) -> str | None:
    """
    The message an expression of literals and other expressions joined by `+`
    makes, each other expression a `{}`; `None` where it holds no literal
    (or is anything else: a conditional, a call on a literal).
    """
    parts: list[str] = []
    literal = False
    i, start, depth = 0, 0, 0
    pieces: list[str] = []
    while i < len(expression):
        c = expression[i]
        if c in "'\"`":
            _, i = _js_string(expression, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c in "?" and depth == 0:
            return None
        elif c == "+" and depth == 0:
            pieces.append(expression[start:i])
            start = i + 1
        i += 1
    pieces.append(expression[start:])
    for piece in (p.strip() for p in pieces):
        if piece[:1] in ("'", '"', "`"):
            value, end = _js_string(piece, 0)
            if piece[end:].strip():
                return None  # a literal's method called (`'a'.concat(b)`)
            parts.append(value)
            literal = True
        elif piece:
            parts.append("{}")
    return "".join(parts) if literal else None


def javascript_messages(source: str) -> Iterator[str]:
    """The messages a JavaScript file creates errors with (the module's docstring says which)."""
    for match in _JS_NEW.finditer(source):
        try:
            args = _js_arguments(source, match.end())
        except (ValueError, IndexError):
            continue
        index = 1 if match.group(1) == "AggregateError" else 0
        if len(args) > index and (message := _js_message(args[index])) is not None:
            yield message
    for match in _JS_MESSAGE.finditer(source):
        rest = source[match.end() :]
        end = re.search(r";|\n\s*\n|\n(?=\s*(?:const|let|var|if|return|this)\b)", rest)
        expression = rest[: end.start() if end else len(rest)]
        try:
            message = _js_message(expression)
        except (ValueError, IndexError):
            continue
        if message is not None:
            yield message


# --- Python -------------------------------------------------------------------


def _py_message(node: ast.expr) -> str | None:
    """The message a string expression makes, its placeholders `{}`; `None` where it is none."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
            for v in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = _py_message(node.left)
        return (
            None if left is None else _PRINTF.sub("{}", left.replace("%%", "\0")).replace("\0", "%")
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _py_message(node.left), _py_message(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):
        return _BRACED.sub("{}", node.func.value.value)
    return None


def _called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def python_messages(source: str, codes: dict[str, int]) -> Iterator[tuple[str, int | None]]:
    """
    The messages a Python module creates exceptions with, and the client error
    number a `CR.<name>` argument before the message names (*codes*).
    """
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not _called(node).endswith(("Error", "Exception")):
            continue
        code: int | None = None
        for arg in node.args:
            if (
                isinstance(arg, ast.Attribute)
                and isinstance(arg.value, ast.Name)
                and arg.value.id == "CR"
            ):
                code = codes.get(arg.attr)
            message = _py_message(arg)
            if message is not None:
                yield message, code
                break
        else:
            for keyword in node.keywords:
                if keyword.arg in ("msg", "message"):
                    message = _py_message(keyword.value)
                    if message is not None:
                        yield message, None


# --- Go, Java, C ----------------------------------------------------------------

_GO_STRING = r'"(?:[^"\\\n]|\\.)*"|`[^`]*`'
_GO_CALL = re.compile(rf"\b(?:errors\.New|fmt\.Errorf|errorf)\(\s*({_GO_STRING})")
_JAVA_CALL = re.compile(r'\bGT\.tr\(\s*((?:"(?:[^"\\\n]|\\.)*"\s*\+?\s*)+)')
_C_CALL = re.compile(
    r"\b(?:PyErr_SetString|PyErr_Format)\(\s*\w+\s*,\s*((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+)"
    r"|\bpsyco_set_error\(\s*\w+\s*,\s*[^,()]+,\s*((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+)"
)
_QUOTED = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)")


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        e = match.group(1)
        if e[0] in "ux" and len(e) > 1:
            return chr(int(e[1:], 16))
        return _JS_ESCAPES.get(e, e)

    return _ESCAPE.sub(one, text)


def _literals(text: str) -> str:
    """The value of adjacent (or `+`-joined) double-quoted literals."""
    return "".join(_unescape(m.group(1)) for m in _QUOTED.finditer(text))


def go_messages(source: str) -> Iterator[str]:
    """The formats of a Go file's `errors.New`, `fmt.Errorf` and `errorf` calls."""
    for match in _GO_CALL.finditer(source):
        literal = match.group(1)
        text = literal[1:-1] if literal[0] == "`" else _unescape(literal[1:-1])
        yield _PRINTF.sub("{}", text.replace("%%", "\0")).replace("\0", "%")


# One of pgjdbc's `PSQLState` constants: `CONNECTION_FAILURE("08006"),`.
_PSQLSTATE_CONSTANT = re.compile(r'^\s*([A-Z][A-Z0-9_]*)\("([0-9A-Z]{5})"\)', re.MULTILINE)
_PSQLSTATE_ARGUMENT = re.compile(r"\s*,\s*PSQLState\.([A-Z][A-Z0-9_]*)\b")
_JAVA_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[()]')


def psql_states(files: dict[str, str]) -> dict[str, str]:
    """pgjdbc's `PSQLState` constants and their SQLSTATEs, from `PSQLState.java`."""
    source = next((s for n, s in files.items() if n.endswith("/util/PSQLState.java")), "")
    return dict(_PSQLSTATE_CONSTANT.findall(source))


def _call_end(source: str, opening: int) -> int:
    """Where the call whose `(` is at *opening* ends (past its `)`), string literals skipped."""
    depth = 0
    for token in _JAVA_TOKEN.finditer(source, opening):
        if token.group() == "(":
            depth += 1
        elif token.group() == ")":
            depth -= 1
            if depth == 0:
                return token.end()
    return len(source)


def java_messages(source: str, states: dict[str, str]) -> Iterator[tuple[str, str | None]]:
    """
    The messages of a Java file's `GT.tr` calls (MessageFormat's `''` read as `'`).

    Each with the SQLSTATE of the `PSQLState` constant the exception is
    raised with, where it is the argument after the message
    (`new PSQLException(GT.tr("..."), PSQLState.CONNECTION_FAILURE, e)`).
    """
    for match in _JAVA_CALL.finditer(source):
        message = _BRACED.sub("{}", _literals(match.group(1))).replace("''", "'")
        state = _PSQLSTATE_ARGUMENT.match(source, _call_end(source, match.start() + 5))
        yield message, None if state is None else states.get(state.group(1))


def c_messages(source: str) -> Iterator[str]:
    """The messages of a C file's `PyErr_SetString`, `PyErr_Format`, `psyco_set_error` calls."""
    for match in _C_CALL.finditer(source):
        text = _literals(match.group(1) or match.group(2))
        yield _PRINTF.sub("{}", text.replace("%%", "\0")).replace("\0", "%")


# --- Sources ------------------------------------------------------------------


def _selected(driver: Driver, names: list[str]) -> list[str]:
    def matches(name: str, patterns: tuple[str, ...]) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in patterns)

    return sorted(n for n in names if matches(n, driver.files) and not matches(n, driver.skip))


def npm_files(driver: Driver, npm_dir: Path) -> dict[str, str]:
    """The package's files (paths under `package/`), from its tarball."""
    tarball = npm_dir / f"{driver.package}-{driver.version}.tgz"
    if not tarball.exists():
        done = subprocess.run(
            ["npm", "pack", f"{driver.package}@{driver.version}", "--pack-destination", npm_dir],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not tarball.exists():
            source_missing(f"npm pack {driver.package}@{driver.version} failed: {done.stderr}")
    with tarfile.open(tarball) as archive:
        members = {m.name.removeprefix("package/"): m for m in archive.getmembers() if m.isfile()}
        return {
            name: archive.extractfile(members[name]).read().decode("utf-8")  # type: ignore[union-attr]
            for name in _selected(driver, list(members))
        }


def pypi_files(driver: Driver) -> dict[str, str]:
    """The installed package's files, where the installed version is the recorded one."""
    try:
        installed = importlib.metadata.distribution(driver.package)
    except importlib.metadata.PackageNotFoundError:
        source_missing(
            f"{driver.package} is missing: pip install {driver.package}=={driver.version}"
        )
    if installed.version != driver.version:
        source_missing(
            f"{driver.package} {installed.version} is installed, not {driver.version}:"
            f" pip install {driver.package}=={driver.version}"
        )
    names = [str(f) for f in installed.files or ()]
    return {
        name: Path(str(installed.locate_file(name))).read_text(encoding="utf-8")
        for name in _selected(driver, names)
    }


def git_files(driver: Driver, git_dir: Path) -> dict[str, str]:
    """The repository's files at the recorded commit."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "--git-dir", str(git_dir), *args],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    try:
        names = git("ls-tree", "-r", "--name-only", driver.version).splitlines()
    except subprocess.CalledProcessError:
        source_missing(f"{git_dir} has no commit {driver.version} of {driver.package}")
    return {name: git("show", f"{driver.version}:{name}") for name in _selected(driver, names)}


def _mysql_client_codes() -> dict[str, int]:
    from pymysql.constants import CR  # noqa: PLC0415 - read only for PyMySQL

    return {name: value for name, value in vars(CR).items() if name.startswith("CR_")}


def messages(driver: Driver, files: dict[str, str]) -> Iterator[tuple[str, str, int | str | None]]:
    """Each (file, message, code) of the driver's files."""
    codes = _mysql_client_codes() if driver.package == "PyMySQL" else {}
    states = psql_states(files)
    for name, source in files.items():
        found: Iterator[tuple[str, int | str | None]]
        if name.endswith(".py"):
            found = python_messages(source, codes)
        elif name.endswith(".js"):
            found = ((m, None) for m in javascript_messages(source))
        elif name.endswith(".go"):
            found = ((m, None) for m in go_messages(source))
        elif name.endswith(".java"):
            found = java_messages(source, states)
        else:
            found = ((m, None) for m in c_messages(source))
        for message, code in found:
            if re.search(r"[A-Za-z]{2}", message):
                yield name, message, code


def build(npm_dir: Path, git_dirs: dict[str, Path]) -> str:
    lines = [
        "# The messages database drivers raise of their own, by tools/extract_driver_messages.py:",
        "# driver<TAB>backend<TAB>version<TAB>file<TAB>code<TAB>message (placeholders `{}`).",
    ]
    rows: list[str] = []
    for driver in DRIVERS:
        if driver.origin == "npm":
            files = npm_files(driver, npm_dir)
            where = f"npm {driver.package}@{driver.version}"
        elif driver.origin == "pypi":
            files = pypi_files(driver)
            where = f"PyPI {driver.package}=={driver.version}"
        else:
            if driver.package not in git_dirs:
                source_missing(f"no --git-dir {driver.package}=PATH (github.com/{driver.package})")
            files = git_files(driver, git_dirs[driver.package])
            where = f"github.com/{driver.package} {driver.described} (commit {driver.version})"
        lines.append(f"# {driver.name} ({driver.backend}): {where}, {len(files)} files")
        version = driver.described or driver.version
        seen: set[tuple[str, str | None]] = set()
        for name, message, code in messages(driver, files):
            text = " ".join(message.split()) if "\n" not in message.strip() else message.strip()
            if (text, str(code)) in seen:
                continue
            seen.add((text, str(code)))
            rows.append(
                "\t".join(
                    (
                        driver.name,
                        driver.backend,
                        version,
                        name,
                        "-" if code is None else str(code),
                        escape(text),
                    )
                )
            )
    return "\n".join(lines + rows) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--npm-dir", type=Path, help="where the npm tarballs are (or go)")
    parser.add_argument(
        "--git-dir",
        action="append",
        default=[],
        metavar="OWNER/NAME=PATH",
        help="a driver repository's git directory",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args()
    git_dirs = {}
    for given in args.git_dir:
        repo, _, path = given.partition("=")
        git_dirs[repo] = Path(path)
    with tempfile.TemporaryDirectory() as temporary:
        npm_dir = args.npm_dir or Path(temporary)
        npm_dir.mkdir(parents=True, exist_ok=True)
        text = build(npm_dir, git_dirs)
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT.relative_to(ROOT)} is stale: run tools/extract_driver_messages.py")
            return 1
        print("the driver message list up to date")
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
