"""
Extract `tools/upstream/pool-messages.tsv`: what connection pools say when they give no connection.

    python tools/extract_pool_messages.py --npm-dir DIR --git-root DIR
    python tools/extract_pool_messages.py --npm-dir DIR --git-root DIR --check
    python tools/extract_pool_messages.py --npm-dir DIR --fetch-npm ...   # npm pack into DIR first

With `--check`, a library whose source is not on this machine keeps its
committed rows (said on stderr): the installed Python packages and Go are
checked wherever the tests run.

A pool that had no connection to give within its timeout raises an error of
its own, before any request reaches the server (SQLAlchemy's `QueuePool
limit of size 5 overflow 10 reached, connection timed out, timeout 30.00`,
HikariCP's `HikariPool-1 - Connection is not available, request timed out
after 30000ms.`, Knex's `Knex: Timeout acquiring a connection. The pool is
probably full. ...`); so does a pool the program already closed.  Those
texts are read here from each pool's source, at the version or commit
`SOURCES` records:

- npm packages (`npm pack <name>@<version>`, the tarballs in `--npm-dir`):
  pg-pool, knex (tarn, under it, raises a `TimeoutError` with no text: knex
  prints its own), generic-pool, mysql2's pool, sequelize (its
  `ConnectionAcquireTimeoutError` carries its pool's `Operation timeout`
  under its own name);
- Python packages, as installed (`importlib.metadata` must report the
  recorded version): SQLAlchemy's `QueuePool`, psycopg_pool, asyncpg's pool
  (its acquire timeout is `asyncio.TimeoutError`, with no text), aiomysql's;
- git repositories (`<git-root>/<owner>+<name>/repo` or `<git-root>/<owner>+<name>`,
  a bare clone): HikariCP, Apache commons-dbcp and commons-pool (DBCP's
  `Cannot get a connection, pool error %s` carries commons-pool's
  `NoSuchElementException` text), c3p0, Npgsql (its pool's message is a C#
  interpolated string, `$"...{value}..."`; two releases, whose wordings differ);
- Go's `database/sql` (the installed toolchain's `GOROOT`): its pool has no
  acquire-timeout text of its own (a wait ends with the context's error,
  `context deadline exceeded`), only `sql: database is closed`.

TypeORM has no pool of its own (each driver's pool answers), nor text.

In each recorded file, every construction of the recorded error class is
read (`raise PoolTimeout(...)`, `new KnexTimeoutError(...)`, `throw new
SQLException(...)`), and its message rendered as a format: string literals
kept, `+` joins, any other expression (a variable, a call, `${...}`, `{...}`
of an f-string, `%` conversions) written `{}`.  `MEANINGS` says, per
library, which of those formats mean what (by class, and where the class is
a plain one, by the format's opening): `acquire_timeout` (no connection
within the timeout), `pool_exhausted` (none free and the pool may not wait
or queue more), `pool_closed` (the pool was closed, or not yet opened).  The
extraction fails on a rule that finds no format (the source changed).

Written as `library<TAB>version<TAB>file<TAB>name<TAB>format<TAB>meaning`
after `#` lines naming the sources; `name` is the error's name as the
library prints it before the message, where it gives one its own.  Read by
`tools/generate_pool_messages.py`; the sources are not needed there.  With
`--check`, nothing is written: the exit status is 1 when the committed file
differs.  Licenses: `tools/upstream/README.md`.
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata
import os
import re
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from _generated import SOURCE_MISSING, source_missing, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "pool-messages.tsv"

ACQUIRE_TIMEOUT, EXHAUSTED, CLOSED = "acquire_timeout", "pool_exhausted", "pool_closed"


class Source(NamedTuple):
    """Where one library's pool source is read."""

    library: str
    #: `npm:<package>`, `pypi:<distribution>`, `git:<owner>/<name>`, `go:`.
    origin: str
    #: The package's version, or the git tag and commit.
    version: str
    files: tuple[str, ...]


SOURCES: tuple[Source, ...] = (
    Source("pg-pool", "npm:pg-pool", "3.14.0", ("package/index.js",)),
    Source("knex", "npm:knex", "3.3.0", ("package/lib/client.js",)),
    Source(
        "generic-pool",
        "npm:generic-pool",
        "3.9.0",
        ("package/lib/ResourceRequest.js", "package/lib/Pool.js"),
    ),
    Source("mysql2", "npm:mysql2", "3.24.6", ("package/lib/base/pool.js",)),
    Source(
        "sequelize",
        "npm:sequelize",
        "6.37.8",
        ("package/lib/errors/connection/connection-acquire-timeout-error.js",),
    ),
    Source("SQLAlchemy", "pypi:SQLAlchemy", "2.1.9", ("sqlalchemy/pool/impl.py",)),
    Source(
        "psycopg_pool",
        "pypi:psycopg-pool",
        "3.3.3",
        (
            "psycopg_pool/base.py",
            "psycopg_pool/pool.py",
            "psycopg_pool/pool_async.py",
            "psycopg_pool/null_pool.py",
            "psycopg_pool/null_pool_async.py",
        ),
    ),
    Source("asyncpg", "pypi:asyncpg", "0.32.0", ("asyncpg/pool.py",)),
    Source("aiomysql", "pypi:aiomysql", "0.3.2", ("aiomysql/pool.py",)),
    Source(
        "HikariCP",
        "git:brettwooldridge/HikariCP",
        "HEAD 604d7d5838e96afbbdd4e19eedab7497cf368eb6",
        (
            "src/main/java/com/zaxxer/hikari/pool/HikariPool.java",
            "src/main/java/com/zaxxer/hikari/HikariDataSource.java",
        ),
    ),
    Source(
        "commons-dbcp",
        "git:apache/commons-dbcp",
        "rel/commons-dbcp-2.14.0 1088f44f215e684e0e3f33de9aba4019e00a533d",
        (
            "src/main/java/org/apache/commons/dbcp2/PoolingDataSource.java",
            "src/main/java/org/apache/commons/dbcp2/PoolingDriver.java",
            "src/main/java/org/apache/commons/dbcp2/BasicDataSource.java",
        ),
    ),
    Source(
        "commons-pool",
        "git:apache/commons-pool",
        "rel/commons-pool-2.13.1 33078499af82dc1bdef3680916fd0a5b9322bab3",
        (
            "src/main/java/org/apache/commons/pool2/impl/GenericObjectPool.java",
            "src/main/java/org/apache/commons/pool2/impl/BaseGenericObjectPool.java",
        ),
    ),
    Source(
        "c3p0",
        "git:swaldman/c3p0",
        "HEAD 8dd62b09a9ec577c7f2b6801bca3c3e8da9321b3",
        (
            "src/com/mchange/v2/c3p0/impl/C3P0PooledConnectionPool.java",
            "src/com/mchange/v2/resourcepool/BasicResourcePool.java",
        ),
    ),
    # Npgsql 5 and older name the setting MaxPoolSize, 6 on 'Max Pool Size'.
    Source(
        "Npgsql",
        "git:npgsql/npgsql",
        "v5.0.18 6342a44414e1c861bebb173796e1c1ebf5713d1a",
        ("src/Npgsql/ConnectorPool.cs",),
    ),
    Source(
        "Npgsql",
        "git:npgsql/npgsql",
        "v9.0.3 97dc1739c6cf5890acf450f20f04e64c14c7ffd5",
        ("src/Npgsql/PoolingDataSource.cs",),
    ),
    Source("Go database/sql", "go:", "go1.19", ("src/database/sql/sql.go",)),
)


class Meaning(NamedTuple):
    """Which of a library's formats mean what: a class, and the format's opening."""

    #: The call that builds the error (`PoolTimeout`, `new Error`, `toSQLException`).
    call: str
    #: What the format starts with (`""`: any).
    opening: str
    meaning: str
    #: The name the library prints before the message ("" where it is the class's).
    name: str = ""


MEANINGS: dict[str, tuple[Meaning, ...]] = {
    "pg-pool": (
        # A client waited in the queue past connectionTimeoutMillis.
        Meaning("new Error", "timeout exceeded when trying to connect", ACQUIRE_TIMEOUT),
        Meaning("new Error", "Cannot use a pool after calling end", CLOSED),
    ),
    "knex": (
        # tarn's TimeoutError, converted; `Unable to acquire a connection`: the
        # pool was destroyed (knex.destroy()).
        Meaning("new KnexTimeoutError", "", ACQUIRE_TIMEOUT, "KnexTimeoutError"),
        Meaning("new Error", "Unable to acquire a connection", CLOSED),
    ),
    "generic-pool": (
        Meaning("new errors.TimeoutError", "", ACQUIRE_TIMEOUT, "TimeoutError"),
        Meaning("new Error", "max waitingClients count exceeded", EXHAUSTED),
        Meaning("new Error", "pool is draining", CLOSED),
    ),
    "mysql2": (
        # waitForConnections: false, or queueLimit reached.
        Meaning("new Error", "No connections available", EXHAUSTED),
        Meaning("new Error", "Queue limit reached", EXHAUSTED),
        Meaning("new Error", "Pool is closed", CLOSED),
    ),
    # Its ConnectionAcquireTimeoutError (read by its name, `_SET_NAME`).
    "sequelize": (),
    "SQLAlchemy": (Meaning("exc.TimeoutError", "", ACQUIRE_TIMEOUT),),
    "psycopg_pool": (
        # `pool initialization incomplete after %s sec` (wait() at open) is
        # the pool failing to connect, not a wait for a free connection.
        Meaning("PoolTimeout", "couldn't get a connection", ACQUIRE_TIMEOUT),
        Meaning("TooManyRequests", "", EXHAUSTED),
        Meaning("PoolClosed", "", CLOSED),
    ),
    "asyncpg": (Meaning("exceptions.InterfaceError", "pool is clos", CLOSED),),
    "aiomysql": (Meaning("RuntimeError", "Cannot acquire connection after closing", CLOSED),),
    "HikariCP": (
        Meaning("new SQLTransientConnectionException", "{} - Connection is not", ACQUIRE_TIMEOUT),
        Meaning("new SQLException", "HikariDataSource ", CLOSED),
    ),
    "commons-dbcp": (
        # commons-pool's NoSuchElementException (timeout or exhausted) after it.
        Meaning("new SQLException", "Cannot get a connection, pool error", EXHAUSTED),
        Meaning("new SQLException", "Data source is closed", CLOSED),
    ),
    "commons-pool": (
        Meaning("new NoSuchElementException", "Timeout waiting for idle object", ACQUIRE_TIMEOUT),
        Meaning("new NoSuchElementException", "Pool exhausted", EXHAUSTED),
        Meaning("new IllegalStateException", "Pool not open", CLOSED),
    ),
    "c3p0": (
        Meaning("SqlUtils.toSQLException", "An attempt by a client to checkout", ACQUIRE_TIMEOUT),
        Meaning("new ResourcePoolException", "Attempted to use a closed", CLOSED),
    ),
    # A connection not free within the Timeout setting (Max Pool Size reached).
    "Npgsql": (
        Meaning("new NpgsqlException", "The connection pool has been exhausted", EXHAUSTED),
    ),
    "Go database/sql": (Meaning("errors.New", "sql: database is closed", CLOSED),),
}

#: Sequelize prints its pool's timeout (`Operation timeout`, sequelize-pool's)
#: under its own name, set in the class's constructor: the name is the sign.
_SET_NAME = re.compile(r"""this\.name\s*=\s*["']([A-Za-z]+)["']""")


class Row(NamedTuple):
    library: str
    version: str
    file: str
    name: str
    format: str
    meaning: str


# -- reading a message expression ------------------------------------------------

_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "`": "`", "$": "$"}


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def _argument(source: str, at: int) -> str:
    """The first argument of the call whose `(` is at *at* (to its `,` or `)`)."""
    depth, i = 0, at + 1
    while i < len(source):
        c = source[i]
        if c in "\"'`":
            i = _string_end(source, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return source[at + 1 : i]
            depth -= 1
        elif c == "," and depth == 0:
            return source[at + 1 : i]
        i += 1
    raise SystemExit(f"an unterminated call at {at}")


def _string_end(source: str, at: int) -> int:
    quote, i = source[at], at + 1
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if quote == "`" and source.startswith("${", i):
            depth, i = 1, i + 2
            while depth:
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
            continue
        if c == quote:
            return i + 1
        i += 1
    raise SystemExit(f"an unterminated string at {at}")


def _render(expression: str) -> str:
    """
    A JavaScript or Java message expression as a format: its string literals
    (a template literal's `${...}` as `{}`) joined by `+`, anything else `{}`.

    A call whose argument holds a literal (commons-pool's `appendStats("...")`)
    gives that literal and a `{}` after it (the call may add to it).
    """
    parts: list[str] = []
    for term in _terms(expression.strip()):
        if term[:1] in "\"'":
            parts.append(_unescape(term[1:-1]))
        elif term[:1] == "`":
            body = term[1:-1]
            parts.append("{}".join(_unescape(p) for p in re.split(r"\$\{[^}]*\}", body)))
        elif term[:2] == '$"':
            # A C# interpolated string: each `{...}` a value.
            body = term[2:-1]
            parts.append("{}".join(_unescape(p) for p in re.split(r"\{[^}]*\}", body)))
        elif (call := re.fullmatch(r"[\w.]+\s*\((.*)\)", term, re.S)) is not None and re.search(
            r"[\"'`]", call.group(1)
        ):
            parts.append(_render(_argument(term, term.index("("))) + "{}")
        else:
            parts.append("{}")
    return re.sub(r"(?:\{\})+", "{}", "".join(parts))


def _terms(expression: str) -> Iterator[str]:
    """The operands of a top-level `+` chain."""
    depth, start, i = 0, 0, 0
    while i < len(expression):
        c = expression[i]
        if c in "\"'`":
            i = _string_end(expression, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "+" and depth == 0:
            yield expression[start:i].strip()
            start = i + 1
        i += 1
    yield expression[start:].strip()


def read_braced(source: str, call: str) -> Iterator[str]:
    """The message formats of every `call(` in a JavaScript, Java or Go source."""
    pattern = re.compile(r"(?<![\w.])" + re.escape(call).replace(r"\ ", r"\s+") + r"\s*\(")
    for match in pattern.finditer(source):
        argument = _argument(source, match.end() - 1)
        if argument.strip():
            yield _render(argument)


def _python_format(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{}", "")
    if isinstance(node, ast.JoinedStr):
        return "".join(
            _python_format(v) if isinstance(v, ast.Constant) else "{}" for v in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _python_format(node.left) + _python_format(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        text = _python_format(node.left)
        return re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]", "{}", text)
    return "{}"


def read_python(source: str, call: str) -> Iterator[str]:
    """The message formats of every call of *call* (its dotted name) in a Python source."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        if ast.unparse(node.func) == call:
            yield re.sub(r"(?:\{\})+", "{}", _python_format(node.args[0]))


# -- the sources -------------------------------------------------------------------


def _npm_file(npm_dir: Path, package: str, version: str, path: str) -> str:
    tarball = npm_dir / f"{package}-{version}.tgz"
    if not tarball.exists():
        source_missing(
            f"{tarball} is missing: npm pack {package}@{version} --pack-destination {npm_dir}"
        )
    with tarfile.open(tarball) as archive:
        member = archive.extractfile(path)
        if member is None:
            raise SystemExit(f"{tarball}: no {path}")
        return member.read().decode("utf-8")


def _pypi_file(distribution: str, version: str, path: str) -> str:
    try:
        installed = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        source_missing(f"{distribution} is not installed: pip install {distribution}=={version}")
    if installed.version != version:
        source_missing(
            f"{distribution} {installed.version} is installed, not {version}:"
            f" pip install {distribution}=={version}"
        )
    located = installed.locate_file(path)
    return Path(str(located)).read_text(encoding="utf-8")


def _git_file(git_root: Path, repo: str, version: str, path: str) -> str:
    commit = version.rsplit(maxsplit=1)[-1]
    base = git_root / repo.replace("/", "+")
    git_dir = base / "repo" if (base / "repo").is_dir() else base
    done = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        source_missing(f"github.com/{repo} at {commit} is not in {git_dir}: {done.stderr.strip()}")
    return done.stdout


def _go_file(version: str, path: str) -> str:
    try:
        root = subprocess.run(
            ["go", "env", "GOROOT"], capture_output=True, text=True, check=True
        ).stdout.strip()
        found = subprocess.run(
            ["go", "version"], capture_output=True, text=True, check=True
        ).stdout.split()[2]
    except (OSError, subprocess.CalledProcessError):
        source_missing("no Go toolchain: install golang")
    if found.partition(".")[0] + "." + found.split(".")[1] != version:
        source_missing(f"Go {found} is installed, not {version}: install golang-{version[2:]}")
    return Path(root, path).read_text(encoding="utf-8")


def read_source(source: Source, path: str, npm_dir: Path | None, git_root: Path | None) -> str:
    kind, _, name = source.origin.partition(":")
    if kind == "npm":
        if npm_dir is None:
            source_missing("the npm packages' tarballs: give --npm-dir (and --fetch-npm)")
        return _npm_file(npm_dir, name, source.version, path)
    if kind == "pypi":
        return _pypi_file(name, source.version, path)
    if kind == "git":
        if git_root is None:
            source_missing("the git repositories: give --git-root")
        return _git_file(git_root, name, source.version, path)
    return _go_file(source.version, path)


def fetch_npm(npm_dir: Path) -> None:
    """`npm pack` each recorded npm package into *npm_dir*."""
    npm_dir.mkdir(parents=True, exist_ok=True)
    for source in SOURCES:
        kind, _, name = source.origin.partition(":")
        if kind == "npm" and not (npm_dir / f"{name}-{source.version}.tgz").exists():
            subprocess.run(
                ["npm", "pack", f"{name}@{source.version}", "--pack-destination", str(npm_dir)],
                check=True,
                capture_output=True,
            )


def extract(
    npm_dir: Path | None, git_root: Path | None, kept: dict[str, list[Row]] | None = None
) -> list[Row]:
    """
    Each library's formats that `MEANINGS` gives a meaning, in `SOURCES`' order.

    With *kept* (the committed rows, by library), a library whose source is not
    on this machine keeps its committed rows (the check then covers the others);
    without, a missing source ends the run (`SOURCE_MISSING`).
    """
    rows: list[Row] = []
    for source in SOURCES:
        if kept is None:
            rows += _extract_one(source, npm_dir, git_root)
            continue
        try:
            rows += _extract_one(source, npm_dir, git_root)
        except SystemExit as missing:
            if missing.code != SOURCE_MISSING:
                raise
            rows += [row for row in kept.get(source.library, []) if row.version == source.version]
            print(f"not checked: {source.library} (its source is not here)", file=sys.stderr)
    return rows


def _extract_one(source: Source, npm_dir: Path | None, git_root: Path | None) -> list[Row]:
    rows: list[Row] = []
    rules = MEANINGS[source.library]
    used: set[Meaning] = set()
    seen: set[str] = set()
    for path in source.files:
        text = read_source(source, path, npm_dir, git_root)
        python = path.endswith(".py")
        if source.library == "sequelize":
            # The class sets its name; its message is its pool's.
            for found in _SET_NAME.finditer(text):
                name = found.group(1)
                rows.append(Row(source.library, source.version, path, name, "{}", ACQUIRE_TIMEOUT))
                seen.add("{}")
            continue
        for rule in rules:
            formats = read_python(text, rule.call) if python else read_braced(text, rule.call)
            for form in formats:
                if not form.startswith(rule.opening) or form in seen:
                    continue
                seen.add(form)
                used.add(rule)
                rows.append(
                    Row(source.library, source.version, path, rule.name, form, rule.meaning)
                )
    if source.library != "sequelize" and used != set(rules):
        missing = [rule.opening or rule.call for rule in rules if rule not in used]
        raise SystemExit(f"{source.library}: no format found for {missing}")
    if not seen:
        raise SystemExit(f"{source.library}: nothing read")
    return rows


def committed() -> dict[str, list[Row]]:
    """The committed file's rows, by library."""
    found: dict[str, list[Row]] = {}
    if OUTPUT.exists():
        for line in OUTPUT.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                fields = [
                    re.sub(
                        r"\\(.)", lambda m: {"t": "\t", "n": "\n"}.get(m.group(1), m.group(1)), f
                    )
                    for f in line.split("\t")
                ]
                found.setdefault(fields[0], []).append(Row(*fields))
    return found


def escape(text: str) -> str:
    """A value as one TSV field."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def build(rows: list[Row]) -> str:
    lines = [
        "# Connection pools' own texts for no connection in time, none free, or a closed pool,",
        "# read from each pool's source by tools/extract_pool_messages.py:",
        *(f"#   {s.library}: {s.origin} {s.version}" for s in SOURCES),
        "# Licenses: tools/upstream/README.md.  '{}' stands for what the library fills in.",
        "# library<TAB>version<TAB>file<TAB>name<TAB>format<TAB>meaning",
        *("\t".join(escape(field) for field in row) for row in rows),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--npm-dir",
        type=Path,
        default=Path(os.environ["POOL_NPM_DIR"]) if "POOL_NPM_DIR" in os.environ else None,
        help="the npm tarballs (`npm pack`'s names; default: $POOL_NPM_DIR)",
    )
    parser.add_argument("--fetch-npm", action="store_true", help="npm pack the packages first")
    parser.add_argument(
        "--git-root",
        type=Path,
        default=Path(os.environ["POOL_GIT_ROOT"]) if "POOL_GIT_ROOT" in os.environ else None,
        help="the directory of the git clones (<owner>+<name>; default: $POOL_GIT_ROOT)",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args(argv)
    if args.fetch_npm and args.npm_dir is not None:
        fetch_npm(args.npm_dir)
    rows = extract(args.npm_dir, args.git_root, committed() if args.check else None)
    text = build(rows)
    return write_or_check(
        {OUTPUT: text},
        check=args.check,
        what=f"the pools' messages ({len(rows)} messages)",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
