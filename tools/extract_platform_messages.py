"""
Extract `tools/upstream/platform-messages.tsv`: what the drivers' platforms say of their own.

    python tools/extract_platform_messages.py           # write the file
    python tools/extract_platform_messages.py --check   # exit 1 when it is stale

A driver raises its platform's messages as well as its own: tedious copies
Node's `new ConnResetException('socket hang up')`, go-sql-driver/mysql
Go's `driver: bad connection` (`bad connection`), and every driver prints
the operating system's `Connection refused`.  Any program on that platform
prints them, whatever it talks to: they name no backend.  This reads them
from the platforms installed here, at the versions `VERSIONS` records, and
writes each as `platform<TAB>version<TAB>source<TAB>message`, after `#`
lines naming the sources (placeholders `{}`, escapes as
`tools/extract_driver_messages.py` writes them):

- Node.js (`node`): its built-in modules' sources, which the binary holds
  (`process.binding('natives')`; of the bundled libraries, only undici,
  Node's `fetch`): the messages of `new <Name>Error(...)` /
  `new <Name>Exception(...)` (`ConnResetException`, `AbortError`,
  `DOMException`), as the driver extractor reads a driver's; the messages of
  `internal/errors`' table (`E('ERR_SOCKET_CLOSED', 'Socket is closed',
  Error)`), which `new ERR_...()` raises; and libuv's error texts
  (`process.binding('uv').getErrorMap()`: `connection refused`), which its
  system errors print;
- the C library (`libc`): `strerror` of every errno value (`os.strerror`)
  and `gai_strerror` of every `EAI_` value (`socket.gaierror`'s texts);
- Python (`python`): the messages of the standard library's network code
  (`socket.py`, `ssl.py`, `asyncio/`), read as the driver extractor reads a
  driver's `.py` files;
- Go (`go`): the formats of `errors.New` / `fmt.Errorf` in the standard
  library's network and database packages (`net`, `internal/poll`,
  `crypto/tls`, `database/sql`, `io`, `context`; not tests), from the
  installed Go source (`/usr/lib/go/src`).

`tools/generate_vendor_wordings.py` reads the file as a list that rules
phrases out and names no vendor.  With `--check`, nothing is written: the
exit status is 1 when the committed file differs from what the platforms
give.  Node.js, Go and Python are under permissive licences (MIT, BSD-3-Clause,
PSF); the file holds their messages only.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import errno
import fnmatch
import json
import os
import re
import socket
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

from _generated import source_missing
from extract_driver_messages import (
    _PRINTF,
    _js_arguments,
    _js_message,
    escape,
    go_messages,
    javascript_messages,
    python_messages,
)

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "platform-messages.tsv"
#: The platforms' versions read (`node --version`, glibc's, Python's, Go's `VERSION`).
VERSIONS = {"node": "v20.20.2", "libc": "glibc 2.36", "python": "3.11.7", "go": "go1.19.8"}
GO_ROOT = Path("/usr/lib/go")
#: Go's packages read (globs of paths under `src/`; `*` matches a `/` too).
GO_FILES = (
    "net/*.go",
    "internal/poll/*.go",
    "crypto/tls/*.go",
    "database/sql/*.go",
    "io/*.go",
    "context/*.go",
)
#: Go's files left out: tests, and `net`'s packages below it other than its own (`net/http`, ...).
GO_SKIP = ("*_test.go", "net/*/*")
#: Python's standard library files read (globs under its `stdlib` path).
PYTHON_FILES = ("socket.py", "ssl.py", "asyncio/*.py")
#: Node's built-in modules left out: the bundled libraries other than undici.
NODE_SKIP = ("internal/deps/*",)
NODE_KEEP = ("internal/deps/undici/*",)

_NODE_SOURCES = """
const n = process.binding('natives');
const uv = [...process.binding('uv').getErrorMap()].map(([, [, text]]) => text);
process.stdout.write(JSON.stringify({version: process.version, natives: n, uv}));
"""


def _installed(platform: str, version: str) -> None:
    if version != VERSIONS[platform]:
        source_missing(f"{platform} {version} is installed, not {VERSIONS[platform]}")


def _e_table(source: str) -> Iterator[str]:
    """The messages of `internal/errors`' `E('ERR_...', 'message', ...)` calls."""
    at = 0
    while (at := source.find("\nE('ERR_", at)) >= 0:
        at += 3
        try:
            args = _js_arguments(source, at)
        except (ValueError, IndexError):
            continue
        if len(args) > 1 and (message := _js_message(args[1])) is not None:
            yield _PRINTF.sub("{}", message.replace("%%", "\0")).replace("\0", "%")


def node_messages() -> Iterator[tuple[str, str]]:
    """Each (module, message) of Node's built-in modules, and libuv's texts."""
    try:
        done = subprocess.run(
            ["node", "-e", _NODE_SOURCES], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        source_missing("node is missing: install nodejs")
    read = json.loads(done.stdout)
    _installed("node", read["version"])
    for name, source in sorted(read["natives"].items()):
        if any(fnmatch.fnmatchcase(name, p) for p in NODE_SKIP) and not any(
            fnmatch.fnmatchcase(name, p) for p in NODE_KEEP
        ):
            continue
        for message in javascript_messages(source):
            yield name, message
        if name == "internal/errors":
            for message in _e_table(source):
                yield name, message
    for text in read["uv"]:
        yield "uv", text


def libc_messages() -> Iterator[tuple[str, str]]:
    """`strerror` of every errno value, `gai_strerror` of every `EAI_` value."""
    _installed("libc", os.confstr("CS_GNU_LIBC_VERSION") or "")
    for number in sorted(errno.errorcode):
        yield "strerror", os.strerror(number)
    name = ctypes.util.find_library("c")
    if name is None:
        source_missing("the C library is not found")
    gai_strerror = ctypes.CDLL(name).gai_strerror
    gai_strerror.restype = ctypes.c_char_p
    gai_strerror.argtypes = [ctypes.c_int]
    for value in sorted({v for k, v in vars(socket).items() if k.startswith("EAI_")}):
        yield "gai_strerror", gai_strerror(value).decode()


def python_stdlib_messages() -> Iterator[tuple[str, str]]:
    """The messages of the standard library's network modules."""
    _installed("python", ".".join(str(n) for n in sys.version_info[:3]))
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for pattern in PYTHON_FILES:
        for path in sorted(stdlib.glob(pattern)):
            name = str(path.relative_to(stdlib))
            for message, _ in python_messages(path.read_text(encoding="utf-8"), {}):
                yield name, message


def go_stdlib_messages() -> Iterator[tuple[str, str]]:
    """The formats of the Go standard library's network and database packages."""
    version = GO_ROOT / "VERSION"
    if not version.exists():
        source_missing(f"{version} is missing: install golang-go")
    _installed("go", version.read_text(encoding="utf-8").split()[0])
    src = GO_ROOT / "src"
    for path in sorted(src.rglob("*.go")):
        name = str(path.relative_to(src))
        if any(fnmatch.fnmatchcase(name, p) for p in GO_FILES) and not any(
            fnmatch.fnmatchcase(name, p) for p in GO_SKIP
        ):
            for message in go_messages(path.read_text(encoding="utf-8")):
                yield name, message


def build() -> str:
    lines = [
        "# The messages the drivers' platforms raise of their own, by"
        " tools/extract_platform_messages.py:",
        "# platform<TAB>version<TAB>source<TAB>message (placeholders `{}`).",
        f"# node: Node.js {VERSIONS['node']}'s built-in modules and libuv's error texts",
        f"# libc: {VERSIONS['libc']}'s strerror and gai_strerror",
        f"# python: Python {VERSIONS['python']}'s standard library ({', '.join(PYTHON_FILES)})",
        f"# go: Go {VERSIONS['go']}'s standard library ({', '.join(GO_FILES)})",
    ]
    sources = (
        ("node", node_messages()),
        ("libc", libc_messages()),
        ("python", python_stdlib_messages()),
        ("go", go_stdlib_messages()),
    )
    for platform, found in sources:
        seen: set[str] = set()
        for name, message in found:
            text = " ".join(message.split()) if "\n" not in message.strip() else message.strip()
            if text in seen or not re.search(r"[A-Za-z]{2}", text):
                continue
            seen.add(text)
            lines.append("\t".join((platform, VERSIONS[platform], name, escape(text))))
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args()
    text = build()
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT.relative_to(ROOT)} is stale: run tools/extract_platform_messages.py")
            return 1
        print("the platform message list up to date")
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
