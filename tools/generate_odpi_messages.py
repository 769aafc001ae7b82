"""
Generate `localdata_errors/backends/_odpi_messages.py` from ODPI-C's message table.

    python tools/generate_odpi_messages.py           # write the module
    python tools/generate_odpi_messages.py --check   # exit 1 when it is stale

python-oracledb in thick mode runs on ODPI-C, whose own errors arrive as
`DPI-NNNN: text`.  ODPI-C's message table (`dpiErrorMessages.h`) is compiled
into python-oracledb's thick implementation, `oracledb/thick_impl*.so`, one
NUL-terminated C string per message.  This reads those strings from the
installed binary (bytes, no import of the module) and gives each message a
kind by the explicit rules below, on its text, first match wins; ODPI-C's
sources were read to write them.  The generator fails on a duplicate or
unreadable entry, on a gap in the numbering (a message the reader missed), on
a message no rule covers, on a rule that matches nothing, when a message about
the connection, the session, the client library or authentication is left
without a kind, and when a DPI- error python-oracledb translates to a DPY- one
(`ERR_DPI_ERROR_XREF`) would get a kind other than the DPY- table's.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import re
import sys
from importlib.metadata import version
from pathlib import Path

from _generated import splice, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "localdata_errors" / "backends" / "_odpi_messages.py"
DOCS = ROOT / "docs" / "backends" / "oracle.md"
DOCS_START = "<!-- odpi: start -->"
DOCS_END = "<!-- odpi: end -->"

#: A message as the binary holds it: the start of a C string, up to its NUL.
ENTRY = re.compile(rb"DPI-(\d{4}): ")
TEXT = re.compile(rb"([\x20-\x7e]{1,300})\x00")
#: ODPI-C's default driver name, `"ODPI-C : " DPI_VERSION_STRING`.
ODPI_VERSION = re.compile(rb"\x00ODPI-C : (\d{1,3}\.\d{1,3}\.\d{1,3})\x00")
#: Numbers ODPI-C keeps in its table without an error behind them.
RESERVED = frozenset({"unused", "no error"})

LOST = "CONNECTION_LOST"
MISCONFIGURED = "CONNECTION_MISCONFIGURED"
PARAMETER = "INVALID_PARAMETER"
CLOSED = "INVALID_TRANSACTION_STATE"
UNSUPPORTED = "FEATURE_NOT_SUPPORTED"

# (phrase in the lower-cased message, kind); first match wins.  None: no kind
# honestly fits (ODPI-C's internal failures, a call made out of order), left
# to the keywords; a rule with None still counts as a reading of the message.
RULES: tuple[tuple[str, str | None], ...] = (
    # The session went away: dpiConn's handle is gone or closing (1010), or
    # an ORA- error marked the session dead (1080, the ORA- line follows).
    ("connection was closed by ora-", LOST),
    ("not connected", LOST),
    # dpiConn's call timeout expired (the ORA-03156 / 03136 / 12161 it
    # wraps follows); python-oracledb translates it to DPY-4024.
    ("call timeout", "STATEMENT_TIMEOUT"),
    # The Oracle Client library cannot be loaded, is too old, or its
    # environment cannot be created: no call succeeds until that changes.
    ("oracle client library", MISCONFIGURED),
    ("oci library", MISCONFIGURED),
    ("shared library at version", MISCONFIGURED),
    ("odpi-c context not created", MISCONFIGURED),
    ("environment handle", MISCONFIGURED),
    ("nls environment variable", MISCONFIGURED),
    # A text the session's character set cannot hold (PostgreSQL's 22P05).
    ("convert text to session character set", "INVALID_TEXT_REPRESENTATION"),
    # The encoding given when the environment is created is not one OCI knows.
    ("invalid character set", MISCONFIGURED),
    # Authentication and connect or pool parameters that cannot work together.
    ("authentication", MISCONFIGURED),
    ("dpiaccesstoken", MISCONFIGURED),
    ("new password", MISCONFIGURED),
    ("sharding key", MISCONFIGURED),
    ("events mode", MISCONFIGURED),
    # A close mode for pooled connections, or a close of a connection the
    # application did not create: the connection's setup, as for DPY-2023.
    ("not acquired from a session pool", MISCONFIGURED),
    ("created from external handle", MISCONFIGURED),
    # A handle used after it was closed: as the DPY- table has it for a
    # cursor that is not open (DPY-1006).
    ("was already closed", CLOSED),
    # The database is too old for what the call asks (the client's version
    # is a setting of the application's machine, above).
    ("oracle database is at version", UNSUPPORTED),
    ("out of memory", "OUT_OF_MEMORY"),
    ("not supported", UNSUPPORTED),
    ("not implemented", UNSUPPORTED),
    ("unsupported", UNSUPPORTED),
    # Values.
    ("invalid date", "INVALID_DATETIME_FORMAT"),
    ("cannot be represented as an oracle number", "NUMERIC_VALUE_OUT_OF_RANGE"),
    ("not a number (nan)", "NUMERIC_VALUE_OUT_OF_RANGE"),
    ("strings converted to numbers", "INVALID_TEXT_REPRESENTATION"),
    ("invalid number", "INVALID_TEXT_REPRESENTATION"),
    ("when expecting object of type", "DATATYPE_MISMATCH"),
    ("must match the payload type", "DATATYPE_MISMATCH"),
    ("is not a collection", "WRONG_OBJECT_TYPE"),
    # The call's arguments: too large, too small, null, out of range, or the
    # wrong function for the data.
    ("value is null", PARAMETER),
    ("too large", PARAMETER),
    ("too small", PARAMETER),
    ("cannot exceed", PARAMETER),
    ("cannot be zero", PARAMETER),
    ("null pointer", PARAMETER),
    ("is not valid with max array size", PARAMETER),
    ("is invalid", PARAMETER),
    ("is not part of object type", PARAMETER),
    ("does not exist", PARAMETER),
    ("no object type specified", PARAMETER),
    ("would go out of the result set", PARAMETER),
    ("can only be used with", PARAMETER),
    ("no payload provided", PARAMETER),
    ("instead.", PARAMETER),
    # ODPI-C's internal failures, and calls made out of order: no kind says
    # what went wrong, the keywords read the text.
    ("invalid %s handle", None),
    ("error handle is not initialized", None),
    ("unable to get error message", None),
    ("thread local storage", None),
    ("unable to get row offset", None),
    ("invalid oci number", None),
    ("unexpected oci return value", None),
    ("os error", None),
    ("fetched with error", None),
    ("no query has been executed", None),
    ("no row currently fetched", None),
    ("not a query", None),
)

# Words that make a message a matter of the connection, the session, the
# client library or authentication: each such message needs a kind.
CONNECTION_WORDS = re.compile(
    r"connect|session|pool|client|library|odpi-c|environment|authentication|password"
    r"|token|proxy|sharding|edition|character set|events mode|external handle",
    re.IGNORECASE,
)


def package_dir() -> Path:
    """The installed driver's directory, located by the import system."""
    spec = importlib.util.find_spec("oracledb")
    if spec is None or spec.origin is None:
        sys.exit("python-oracledb is not installed (pip install oracledb)")
    return Path(spec.origin).parent


def binary() -> Path:
    """The thick implementation's compiled module (read as bytes, never imported)."""
    found = sorted(package_dir().glob("thick_impl*.so")) + sorted(
        package_dir().glob("thick_impl*.pyd")
    )
    if len(found) != 1:
        sys.exit(f"expected one oracledb/thick_impl module, found {found}")
    return found[0]


def read_messages(path: Path) -> tuple[dict[int, str], str]:
    """Number -> message text of every `DPI-` string of *path*; and ODPI-C's version."""
    data = path.read_bytes()
    found: dict[int, str] = {}
    for match in ENTRY.finditer(data):
        number = int(match.group(1))
        text = TEXT.match(data, match.end())
        if match.start() == 0 or data[match.start() - 1] != 0 or text is None:
            sys.exit(f"{path.name}: DPI-{number} at byte {match.start()} is not a C string")
        if number in found:
            sys.exit(f"{path.name}: DPI-{number} appears twice")
        found[number] = text.group(1).decode("ascii")
    if len(found) < 80:
        sys.exit(f"{path.name}: only {len(found)} DPI- messages found")
    expected = set(range(min(found), max(found) + 1))
    if set(found) != expected:
        missing = ", ".join(f"DPI-{n}" for n in sorted(expected - set(found)))
        sys.exit(f"{path.name}: the numbering has gaps (unreadable entries?): {missing}")
    odpi = ODPI_VERSION.search(data)
    return dict(sorted(found.items())), odpi.group(1).decode() if odpi else "unknown"


def kind_of(text: str) -> tuple[str | None, bool]:
    """The kind the rules give *text*, and whether any rule read it."""
    lowered = text.lower()
    for phrase, kind in RULES:
        if phrase in lowered:
            return kind, True
    return None, False


def dpy_translations() -> dict[int, int]:
    """DPI- number -> the DPY- number python-oracledb puts above it (`ERR_DPI_ERROR_XREF`)."""
    path = package_dir() / "errors.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants: dict[str, int] = {}
    xref: ast.Dict | None = None
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
            continue
        name = node.targets[0].id
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, int):
            constants[name] = node.value.value
        elif name == "ERR_DPI_ERROR_XREF" and isinstance(node.value, ast.Dict):
            xref = node.value
    if xref is None:
        sys.exit(f"{path}: no ERR_DPI_ERROR_XREF")
    found: dict[int, int] = {}
    for key, value in zip(xref.keys, xref.values, strict=True):
        target = value.elts[0] if isinstance(value, ast.Tuple) else value
        if not (
            isinstance(key, ast.Constant)
            and isinstance(key.value, int)
            and isinstance(target, ast.Name)
            and target.id in constants
        ):
            sys.exit(f"{path}: an ERR_DPI_ERROR_XREF entry this does not understand")
        found[key.value] = constants[target.id]
    return found


def check_translations(kinds: dict[int, str]) -> None:
    """A translated DPI- error is answered by its DPI- line: it must agree with the DPY- table."""
    sys.path.insert(0, str(ROOT))
    from localdata_errors.backends._oracledb_codes import ERRORS  # noqa: PLC0415 - its own run
    from localdata_errors.backends._oracledb_kinds import decide  # noqa: PLC0415 - its own run

    dpy_kinds = decide(ERRORS)

    wrong = []
    for dpi, dpy in sorted(dpy_translations().items()):
        dpy_kind = dpy_kinds[dpy].name if dpy in dpy_kinds else None
        if dpy_kind is not None and kinds.get(dpi) != dpy_kind:
            wrong.append(f"DPI-{dpi} is {kinds.get(dpi)} but DPY-{dpy:04d} is {dpy_kind}")
    if wrong:
        sys.exit("DPI- errors that disagree with their DPY- translation:\n" + "\n".join(wrong))


def docs_table(messages: dict[int, str], kinds: dict[int, str]) -> str:
    """The docs' table of every DPI- message, with its kind or a dash."""
    sys.path.insert(0, str(ROOT))
    from localdata_errors.kinds import KIND_TABLE, Kind  # noqa: PLC0415 - the generator's own run

    lines = [
        "| code | kind | retryable | ODPI-C's message |",
        "|---|---|---|---|",
    ]
    for number, text in messages.items():
        if text in RESERVED:
            continue
        shown = text.replace("|", "\\|").replace("*", "\\*")
        if len(shown) > 90:
            shown = shown[:87] + "..."
        kind = kinds.get(number)
        if kind is None:
            lines.append(f"| DPI-{number} | — | | {shown} |")
            continue
        retryable = "yes" if KIND_TABLE[Kind[kind]].retryable else "no"
        lines.append(f"| `DPI-{number}` | `{Kind[kind].value}` | {retryable} | {shown} |")
    return "\n".join(lines)


def literal(text: str) -> str:
    """*text* as a Python literal, quoted as ruff format would quote it."""
    if '"' in text and "'" not in text:
        return repr(text)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build() -> tuple[str, str]:
    """The module's text and the docs' text."""
    path = binary()
    messages, odpi_version = read_messages(path)
    kinds: dict[int, str] = {}
    unread: list[str] = []
    unmapped: list[str] = []
    used: set[str] = set()
    for number, text in messages.items():
        if text in RESERVED:
            continue
        kind, read = kind_of(text)
        if not read:
            unread.append(f"DPI-{number}: {text}")
            continue
        used.add(next(p for p, _ in RULES if p in text.lower()))
        if kind is None:
            if CONNECTION_WORDS.search(text):
                unmapped.append(f"DPI-{number}: {text}")
            continue
        kinds[number] = kind
    if unread:
        sys.exit("messages no rule reads:\n" + "\n".join(unread))
    if unmapped:
        sys.exit("connection messages without a kind:\n" + "\n".join(unmapped))
    stale = [phrase for phrase, _ in RULES if phrase not in used]
    if stale:
        sys.exit("rules for messages the catalogue no longer has: " + ", ".join(stale))
    check_translations(kinds)
    counts: dict[str, int] = {}
    for kind in kinds.values():
        counts[kind] = counts.get(kind, 0) + 1
    reserved = sum(1 for text in messages.values() if text in RESERVED)
    lines = [
        '"""',
        "ODPI-C's errors (DPI-), raised by python-oracledb in thick mode, and their kinds.",
        "",
        "Generated by `tools/generate_odpi_messages.py` from ODPI-C's message table as",
        f"compiled into `oracledb/thick_impl` (python-oracledb {version('oracledb')},",
        f"ODPI-C {odpi_version}, DPI-{min(messages)} to DPI-{max(messages)}); do not edit.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "from localdata_errors.kinds import Kind",
        "",
        "K = Kind",
        "",
        f"# {len(kinds)} of the {len(messages) - reserved} messages have a kind: "
        + ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))
        + f"; {reserved} numbers are reserved.",
        "DPI: Final[dict[int, Kind]] = {",
    ]
    lines += [
        f"    {number}: K.{kind},  # {messages[number]}" for number, kind in sorted(kinds.items())
    ]
    lines += [
        "}",
        "",
        "#: Every message of the table, as ODPI-C's format (printf placeholders unfilled).",
        "MESSAGES: Final[dict[int, str]] = {",
    ]
    lines += [f"    {number}: {literal(text)}," for number, text in messages.items()]
    lines += ["}", ""]
    docs = splice(
        DOCS.read_text(encoding="utf-8"), DOCS_START, DOCS_END, docs_table(messages, kinds) + "\n"
    )
    return "\n".join(lines), docs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    args = parser.parse_args(argv)
    module, docs = build()
    return write_or_check(
        {OUTPUT: module, DOCS: docs},
        check=args.check,
        what="the ODPI-C message table and its listing are",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
