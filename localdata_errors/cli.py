"""
The ``localdata-errors`` command line: classify, backends, demo, serve.

Every failure the user can cause ends in one line on stderr and a non-zero
exit status, never a traceback.  Exit status 0: success; 1: some input could
not be processed; 2: usage error (argparse's convention); 130: interrupted.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from localdata_errors import __version__
from localdata_errors.classify import classify_message
from localdata_errors.registry import ErrorMapperRegistry, normalize_db_type
from localdata_errors.response import StructuredErrorResponse

__all__ = ["main"]

PROG = "localdata-errors"
SHAPES: dict[str, Callable[[StructuredErrorResponse], dict[str, Any]]] = {
    "localdata": StructuredErrorResponse.to_dict,
    "tool": StructuredErrorResponse.to_tool_error,
    "jsonrpc": lambda r: r.to_jsonrpc_error(tool_name=None),
    "agent": StructuredErrorResponse.to_agent_response,
}


class UsageError(Exception):
    """Bad input the user can fix; printed as one line."""


def _dump(obj: object, pretty: bool) -> str:
    return json.dumps(obj, indent=2 if pretty else None, ensure_ascii=False)


# -- classify -------------------------------------------------------------------


def _stdin_records(stream: TextIO) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """Yield (line number, record or error text) for each non-blank line."""
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, f"not valid JSON ({exc.msg} at column {exc.colno})"
            continue
        if isinstance(value, str):
            value = {"message": value}
        if not isinstance(value, dict) or not isinstance(value.get("message"), str):
            yield number, 'expected a JSON string or an object with a "message" string'
            continue
        yield number, value


def _backend_name(db: str) -> str:
    """
    *db* if a backend answers to it.

    The library falls back to the keywords quietly; a person who typed a
    backend's name wants to hear that it is not one.
    """
    if normalize_db_type(db) != "generic" and ErrorMapperRegistry.lookup(db) is None:
        known = ", ".join(["generic", *ErrorMapperRegistry.names()])
        raise UsageError(f"unknown backend {db!r} (known: {known})")
    return db


def _db_argument(db: str) -> str:
    try:
        return _backend_name(db)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _classify_record(record: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    db = record.get("db", record.get("db_type", args.db))
    code = record.get("code", args.code)
    if db is not None and not isinstance(db, str):
        raise UsageError('"db" must be a string')
    if db is not None:
        db = _backend_name(db)
    if code is not None and not isinstance(code, str | int):
        raise UsageError('"code" must be a string or an integer')
    resp = classify_message(record["message"], db_type=db, code=code)
    if args.shape == "jsonrpc":
        return resp.to_jsonrpc_error(tool_name=args.tool_name)
    return SHAPES[args.shape](resp)


def _cmd_classify(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.message:
        record = {"message": " ".join(args.message)}
        out.write(_dump(_classify_record(record, args), args.pretty) + "\n")
        return 0
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("give a message, or JSON lines on standard input "
                         f"(try: {PROG} classify 'no such table: t' --db sqlite)")
    failed = 0
    for number, item in _stdin_records(sys.stdin):
        if isinstance(item, str):
            failed += 1
            sys.stderr.write(f"{PROG}: line {number}: {item}\n")
            continue
        try:
            out.write(_dump(_classify_record(item, args), args.pretty) + "\n")
        except UsageError as exc:
            failed += 1
            sys.stderr.write(f"{PROG}: line {number}: {exc}\n")
    return 1 if failed else 0


# -- backends -------------------------------------------------------------------


def _cmd_backends(args: argparse.Namespace) -> int:
    infos = ErrorMapperRegistry.list_mappers()
    rows: list[dict[str, Any]] = [
        {
            "name": info.name,
            "display_name": info.mapper.display_name or info.name,
            "aliases": list(info.aliases),
            "driver_modules": list(info.driver_modules),
            "source": info.source,
            "distribution": info.distribution,
            "version": info.version,
        }
        for info in infos
    ]
    if args.format == "json":
        for row in rows:
            sys.stdout.write(json.dumps(row) + "\n")
        return 0
    header: tuple[str, ...] = ("NAME", "ALIASES", "DRIVERS", "FROM")
    table: list[tuple[str, ...]] = [header] + [
        (
            str(row["name"]),
            ", ".join(row["aliases"]) or "-",
            ", ".join(row["driver_modules"]) or "-",
            (f"{row['distribution']} {row['version']}" if row["distribution"]
             else str(row["source"])),
        )
        for row in rows
    ]
    widths = [max(len(r[i]) for r in table) for i in range(len(header) - 1)]
    for line in table:
        cells = [cell.ljust(width) for cell, width in zip(line, widths, strict=False)]
        sys.stdout.write("  ".join([*cells, line[-1]]).rstrip() + "\n")
    if not rows:
        sys.stdout.write("(no backends registered: only the generic fallback answers)\n")
    return 0


# -- demo -----------------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace) -> int:
    from localdata_errors._demo import run_demo  # noqa: PLC0415 - only the demo needs it

    return run_demo(sys.stdout, fmt=args.format, color=_use_color(args))


def _use_color(args: argparse.Namespace) -> bool:
    if args.format != "text" or args.no_color or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(sys.stdout, "isatty", lambda: False)())


# -- serve ----------------------------------------------------------------------


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from localdata_errors.mcp._sql import DatabaseURLError  # noqa: PLC0415 - optional extra
        from localdata_errors.mcp.server import run_server  # noqa: PLC0415 - optional extra
    except ImportError as exc:
        raise UsageError(
            "the SQL tool server needs the 'mcp' extra: "
            f"pip install 'localdata-errors[mcp]' ({exc})"
        ) from None
    try:
        run_server(
            args.url,
            read_only=args.read_only,
            max_rows=args.max_rows,
            timeout=args.timeout,
            allow_multi_statement=args.allow_multi_statement,
            transport=args.transport,
            host=args.host,
            port=args.port,
        )
    except DatabaseURLError as exc:
        sys.stderr.write(f"{PROG} serve: --url: {exc}\n")
        return 2
    return 0


# -- parser ---------------------------------------------------------------------


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


def _seconds(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text!r}")
    return value or None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for the docs and tests)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Turn database driver errors into structured, actionable answers.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "classify",
        help="classify an error message (from arguments, or JSON lines on stdin)",
        description="Classify an error message given as arguments, or one per line on "
        'standard input as JSON: a string, or {"message": ..., "db": ..., "code": ...}.',
    )
    p.add_argument("message", nargs="*", help="the error text (joined with spaces)")
    p.add_argument("--db", type=_db_argument,
                   help="the backend: postgresql, mysql, sqlite, ... (default: generic)")
    p.add_argument("--code", help="the native code: SQLSTATE, errno, ORA-00942, ...")
    p.add_argument("--shape", choices=sorted(SHAPES), default="localdata",
                   help="output shape (default: localdata)")
    p.add_argument("--tool-name", help="tool name for the jsonrpc shape")
    p.add_argument("--pretty", action="store_true", help="indent the JSON output")
    p.set_defaults(func=_cmd_classify)

    p = sub.add_parser("backends", help="list the registered backends and where they came from")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=_cmd_backends)

    p = sub.add_parser("demo", help="a tour of real errors on embedded SQLite (and DuckDB)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text for a terminal (default), json for JSON lines")
    p.add_argument("--no-color", action="store_true", help="never colour the text output")
    p.set_defaults(func=_cmd_demo)

    p = sub.add_parser("serve", help="run the MCP SQL tool server (extra: mcp)")
    default_url = os.environ.get("LOCALDATA_ERRORS_URL", "sqlite:///localdata.db")
    p.add_argument("--url", default=default_url,
                   help="SQLAlchemy database URL (default: $LOCALDATA_ERRORS_URL, else "
                   "sqlite:///localdata.db); the environment keeps a password out of ps")
    p.add_argument("--read-only", action="store_true", help="refuse every write")
    p.add_argument("--max-rows", type=_positive_int, default=1000,
                   help="row cap for results (default: 1000)")
    p.add_argument("--timeout", type=_seconds, default=30.0,
                   help="statement timeout in seconds, 0 for none (default: 30)")
    p.add_argument("--allow-multi-statement", action="store_true",
                   help="allow several statements in one execute_sql call")
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    p.add_argument("--host", default="127.0.0.1",
                   help="http transport: address (default: 127.0.0.1)")
    p.add_argument("--port", type=_positive_int, default=8000,
                   help="http transport: port (default: 8000)")
    p.set_defaults(func=_cmd_serve)
    return parser


def _log_warnings_to_stderr() -> logging.Handler:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{PROG}: warning: %(message)s"))
    handler.setLevel(logging.WARNING)
    logger = logging.getLogger("localdata_errors")
    logger.addHandler(handler)
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    """
    Run the command line.

    Args:
        argv: The arguments (``sys.argv[1:]`` by default).

    Returns:
        The exit status.
    """
    args = build_parser().parse_args(argv)
    handler = _log_warnings_to_stderr()
    try:
        status: int = args.func(args)
    except UsageError as exc:
        sys.stderr.write(f"{PROG}: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (| head); exit quietly like other Unix tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    finally:
        logging.getLogger("localdata_errors").removeHandler(handler)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
