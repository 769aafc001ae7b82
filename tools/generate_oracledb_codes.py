"""
Generate `localdata_errors/backends/_oracledb_codes.py` from python-oracledb's error module.

    python tools/generate_oracledb_codes.py           # write the module
    python tools/generate_oracledb_codes.py --check   # exit 1 when it is stale

python-oracledb lists every error it raises itself (`DPY-`) in
`oracledb/errors.py`: an `ERR_<NAME> = <number>` constant and a message
format for each.  This reads that source (parsed, not imported) and gives
each number a kind by the explicit rules below, on the constant's name, first
match wins; the message formats were read to write them.  Every number whose
name speaks of a connection, a pool, the network, a listener, a session, TLS
or credentials must get a kind, or the generator fails.
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
OUTPUT = ROOT / "localdata_errors" / "backends" / "_oracledb_codes.py"
DOCS = ROOT / "docs" / "backends" / "oracle.md"
DOCS_START = "<!-- oracledb: start -->"
DOCS_END = "<!-- oracledb: end -->"

# Per-name decisions, then name patterns (first match wins).  None: the
# application's use of the API or of a data type, left to the keywords.
OVERRIDES: dict[str, str | None] = {
    "ERR_NOT_CONNECTED": "CONNECTION_LOST",
    "ERR_CONNECTION_CLOSED": "CONNECTION_LOST",
    "ERR_EXCEEDED_IDLE_TIME": "CONNECTION_LOST",
    "ERR_UNEXPECTED_END_OF_DATA": "CONNECTION_LOST",
    "ERR_UNEXPECTED_REFUSE": "CONNECTION_FAILURE",
    "ERR_LISTENER_REFUSED_CONNECTION": "CONNECTION_FAILURE",
    "ERR_CONNECTION_FAILED": "CONNECTION_FAILURE",
    "ERR_PROXY_FAILURE": "CONNECTION_FAILURE",
    "ERR_CALL_TIMEOUT_EXCEEDED": "STATEMENT_TIMEOUT",
    "ERR_POOL_NO_CONNECTION_AVAILABLE": "TOO_MANY_CONNECTIONS",
    "ERR_POOL_NOT_OPEN": "CONNECTION_LOST",
    "ERR_POOL_HAS_BUSY_CONNECTIONS": "INVALID_TRANSACTION_STATE",
    "ERR_CURSOR_HAS_BEEN_CLOSED": "INVALID_TRANSACTION_STATE",
    "ERR_CURSOR_NOT_OPEN": "INVALID_TRANSACTION_STATE",
    "ERR_THIN_CONNECTION_ALREADY_CREATED": "CONNECTION_MISCONFIGURED",
    "ERR_NO_CREDENTIALS": "INVALID_PASSWORD",
    "ERR_EXPIRED_ACCESS_TOKEN": "INVALID_AUTHORIZATION",
    "ERR_INVALID_ACCESS_TOKEN_RETURNED": "INVALID_AUTHORIZATION",
    "ERR_PASSWORD_TYPE_HANDLER_FAILED": "CONNECTION_MISCONFIGURED",
    "ERR_PLAINTEXT_PASSWORD_IN_CONFIG": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_PASSWORD_TYPE": "CONNECTION_MISCONFIGURED",
    "ERR_UNSUPPORTED_VERIFIER_TYPE": "CONNECTION_MISCONFIGURED",
    "ERR_SERVER_VERSION_NOT_SUPPORTED": "CONNECTION_MISCONFIGURED",
    "ERR_SERVER_VERIFY_FAILED": "CONNECTION_MISCONFIGURED",
    "ERR_SERVER_REFUSED_EZTLS": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_SERVER_RESPONSE": "CONNECTION_LOST",
    "ERR_MISSING_ENDING_SINGLE_QUOTE": "SYNTAX_ERROR",
    "ERR_MISSING_ENDING_DOUBLE_QUOTE": "SYNTAX_ERROR",
    "ERR_INVALID_BIND_NAME": "INVALID_PARAMETER",
    "ERR_WRONG_NUMBER_OF_POSITIONAL_BINDS": "INVALID_PARAMETER",
    "ERR_MISSING_BIND_VALUE": "INVALID_PARAMETER",
    "ERR_TNS_ENTRY_NOT_FOUND": "CONNECTION_MISCONFIGURED",
    "ERR_MISSING_FILE": "CONNECTION_MISCONFIGURED",
    "ERR_NO_CONFIG_DIR": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_SERVICE_NAME": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_SERVER_CERT_DN": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_SID": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_SERVER_NAME": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_CONNECT_DESCRIPTOR": "CONNECTION_MISCONFIGURED",
    "ERR_CANNOT_PARSE_CONNECT_STRING": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_SSL_VERSION": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_NETWORK_NAME": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_REDIRECT_DATA": "CONNECTION_LOST",
    "ERR_INVALID_PROTOCOL": "CONNECTION_MISCONFIGURED",
    "ERR_WALLET_FILE_MISSING": "CONNECTION_MISCONFIGURED",
    "ERR_MISSING_CONNECT_DESCRIPTOR": "CONNECTION_MISCONFIGURED",
    "ERR_MISSING_ADDRESS": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_CONNECT_PARAMS": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_POOL_PARAMS": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_CONN_CLASS": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_POOL_CLASS": "CONNECTION_MISCONFIGURED",
    "ERR_POOL_MAX_LESS_THAN_MIN": "CONNECTION_MISCONFIGURED",
    "ERR_NAMED_POOL_MISSING": "CONNECTION_MISCONFIGURED",
    "ERR_NAMED_POOL_EXISTS": "CONNECTION_MISCONFIGURED",
    "ERR_HTTPS_PROXY_REQUIRES_TCPS": "CONNECTION_MISCONFIGURED",
    "ERR_ACCESS_TOKEN_REQUIRES_TCPS": "CONNECTION_MISCONFIGURED",
    "ERR_INVALID_ACCESS_TOKEN_PARAM": "CONNECTION_MISCONFIGURED",
    "ERR_END_USER_SECURITY_CONTEXT_REQUIRES_TCPS": "CONNECTION_MISCONFIGURED",
    "ERR_ANO_STATUS_FAILURE": "CONNECTION_MISCONFIGURED",
    "ERR_NO_CRYPTOGRAPHY_PACKAGE": "CONNECTION_MISCONFIGURED",
    "ERR_INIT_ORACLE_CLIENT_NOT_CALLED": "CONNECTION_MISCONFIGURED",
    "ERR_LIBRARY_ALREADY_INITIALIZED": "CONNECTION_MISCONFIGURED",
    "ERR_THICK_MODE_ENABLED": "CONNECTION_MISCONFIGURED",
    "ERR_PROTOCOL_HANDLER_FAILED": "CONNECTION_MISCONFIGURED",
    "ERR_IFILE_CYCLE_DETECTED": "CONNECTION_MISCONFIGURED",
    "ERR_UNKNOWN_TRANSACTION_STATE": "STATEMENT_COMPLETION_UNKNOWN",
    # "internal error: pipeline token number N does not match expected token
    # number M": a pipelined response's token, not one of a connect string.
    "ERR_MISMATCHED_TOKEN": "INTERNAL_ERROR",
    "ERR_INVALID_SERVER_TYPE": "CONNECTION_MISCONFIGURED",  # in a connect string
    "ERR_CURSOR_DIFF_CONNECTION": "INVALID_PARAMETER",  # a REF CURSOR of another connection
    "ERR_INTEGER_TOO_LARGE": None,
    "ERR_NUMBER_TOO_LARGE": None,
}
PATTERNS: tuple[tuple[str, str | None], ...] = (
    (r"_NOT_SUPPORTED|_UNSUPPORTED|ERR_UNSUPPORTED_|ERR_NOT_IMPLEMENTED", "FEATURE_NOT_SUPPORTED"),
    (r"^ERR_INVALID_NUMBER$|^ERR_NUMBER_|_INVALID_EXPONENT|_EMPTY_EXPONENT|AFTER_NUMBER", None),
)
# Names about the connection: each needs a kind.
CONNECTION_NAME = re.compile(
    r"CONN|POOL|NETWORK|LISTENER|SESSION|TLS|SSL|CREDENTIAL|PASSWORD|TOKEN|WALLET|TNS"
    r"|SERVER|PROXY|PROTOCOL|ADDRESS|SID|SERVICE|TIMEOUT|IDLE|REFUSE|END_OF_DATA"
)
# Session-less transactions and the like: a state of the API, not of the connection.
NOT_CONNECTION = re.compile(r"SESSIONLESS|PIGGYBACK|TRANSACTION_SYNC|SUBSCR|ARROW")


def source() -> tuple[Path, str]:
    """The installed driver's `errors.py` and its version."""
    spec = importlib.util.find_spec("oracledb")
    if spec is None or spec.origin is None:
        sys.exit("python-oracledb is not installed (pip install oracledb)")
    return Path(spec.origin).with_name("errors.py"), version("oracledb")


def read_codes(path: Path) -> dict[str, int]:
    """`ERR_<NAME> = <number>` of the driver's own errors (DPY-), in source order."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: dict[str, int] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id.startswith("ERR_")
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, int)
            and not isinstance(node.value.value, bool)
        ):
            name = node.targets[0].id
            if name in found:
                sys.exit(f"{path}: {name} defined twice")
            found[name] = node.value.value
    if len(found) < 100:
        sys.exit(f"{path}: only {len(found)} ERR_ constants found")
    return found


def kind_of(name: str) -> str | None:
    if name in OVERRIDES:
        return OVERRIDES[name]
    for pattern, kind in PATTERNS:
        if re.search(pattern, name):
            return kind
    return None


def read_formats(path: Path, codes: dict[str, int]) -> dict[int, str]:
    """Number -> the driver's message format (`ERR_MESSAGE_FORMATS`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "ERR_MESSAGE_FORMATS"
            and isinstance(node.value, ast.Dict)
        ):
            found: dict[int, str] = {}
            for key, value in zip(node.value.keys, node.value.values, strict=True):
                if isinstance(key, ast.Name) and key.id in codes:
                    text = "".join(
                        part.value
                        for part in ast.walk(value)
                        if isinstance(part, ast.Constant) and isinstance(part.value, str)
                    )
                    found[codes[key.id]] = text
            return found
    sys.exit(f"{path}: no ERR_MESSAGE_FORMATS")


def docs_table(rows: list[tuple[int, str, str]], formats: dict[int, str]) -> str:
    """The docs' table of every DPY- code with a kind."""
    sys.path.insert(0, str(ROOT))
    from localdata_errors.kinds import KIND_TABLE, Kind  # noqa: PLC0415 - the generator's own run

    lines = [
        "| code | kind | retryable | the driver's message |",
        "|---|---|---|---|",
    ]
    for number, kind, _name in sorted(rows):
        info = KIND_TABLE[Kind[kind]]
        text = formats.get(number, "").replace("|", "\\|").replace("\n", " ")
        if len(text) > 90:
            text = text[:87] + "..."
        lines.append(
            f"| `DPY-{number:04d}` | `{Kind[kind].value}` | "
            f"{'yes' if info.retryable else 'no'} | {text} |"
        )
    return "\n".join(lines)


def build() -> tuple[str, str]:
    """The module's text and the docs' text."""
    path, driver_version = source()
    codes = read_codes(path)
    rows: list[tuple[int, str, str]] = []
    unmapped: list[str] = []
    for name, number in codes.items():
        kind = kind_of(name)
        if kind is None:
            if CONNECTION_NAME.search(name) and not NOT_CONNECTION.search(name):
                unmapped.append(name)
            continue
        rows.append((number, kind, name))
    if unmapped:
        sys.exit("connection errors without a kind: " + ", ".join(unmapped))
    unknown = sorted(set(OVERRIDES) - set(codes))
    if unknown:
        sys.exit("rules for names the driver no longer has: " + ", ".join(unknown))
    lines = [
        '"""',
        "python-oracledb's own errors (DPY-) and their kinds.",
        "",
        "Generated by `tools/generate_oracledb_codes.py` from `oracledb/errors.py`",
        f"(python-oracledb {driver_version}, {len(codes)} errors); do not edit.",
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
        f"# {len(rows)} of the driver's {len(codes)} errors have a kind.",
        "DPY: Final[dict[int, Kind]] = {",
    ]
    lines += [f"    {number}: K.{kind},  # {name}" for number, kind, name in sorted(rows)]
    lines += ["}", ""]
    docs = splice(
        DOCS.read_text(encoding="utf-8"),
        DOCS_START,
        DOCS_END,
        docs_table(rows, read_formats(path, codes)) + "\n",
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
        what="the python-oracledb code table and its listing are",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
