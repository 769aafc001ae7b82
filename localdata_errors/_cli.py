"""
The ``localdata-errors`` command line: classify, backends, demo, serve.

Every failure the user can cause ends in one line on stderr and a non-zero
exit status, never a traceback.  Exit status 0: success; 1: some input could
not be processed; 2: usage error (argparse's convention); 130: interrupted.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from localdata_errors import __version__
from localdata_errors._backends import normalize_db_type
from localdata_errors._classify import classify_message
from localdata_errors._redact import redact
from localdata_errors._registry import ErrorMapperRegistry
from localdata_errors._render import Paint, answer_lines, field, style
from localdata_errors._response import StructuredErrorResponse

__all__ = ["build_parser", "main"]

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
    """
    Yield (line number, record or error text) for the standard input.

    JSON lines (a string, or an object with a "message") when the first
    non-blank line is JSON, each read and answered as it arrives, so that
    another program can keep the command running beside it and ask one
    question at a time; otherwise the whole input is one message, as an
    error pasted from a terminal is (a psql error with its LINE lines, a
    Python traceback).

    Raises:
        UsageError: The input is empty.
    """
    lines = iter(stream.readline, "")
    skipped = 0
    for first in lines:
        if first.strip():
            break
        skipped += 1
    else:
        raise UsageError("no error text on standard input (give a message, or pipe one in)")
    try:
        json.loads(first)
    except json.JSONDecodeError:
        yield skipped + 1, {"message": (first + stream.read()).strip("\n")}
        return
    for number, line in enumerate(itertools.chain([first], lines), start=skipped + 1):
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
        raise UsageError(f"unknown backend {redact(db)!r} (known: {known})")
    return db


def _db_argument(db: str) -> str:
    try:
        return _backend_name(db)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _classify_record(record: dict[str, Any], args: argparse.Namespace) -> StructuredErrorResponse:
    db = record.get("db", record.get("db_type", args.db))
    code = record.get("code", args.code)
    if db is not None and not isinstance(db, str):
        raise UsageError('"db" must be a string')
    if db is not None:
        db = _backend_name(db)
    if code is not None and not isinstance(code, str | int):
        raise UsageError('"code" must be a string or an integer')
    return classify_message(record["message"], db_type=db, code=code)


def _render(resp: StructuredErrorResponse, args: argparse.Namespace, paint: Paint) -> str:
    """One answer as the chosen format prints it, without the final line break."""
    if args.format == "text":
        lines = [field("message", resp.message), field("backend", resp.backend)]
        return "\n".join([*lines, *answer_lines(resp, paint)])
    shape = args.shape or "localdata"
    if shape == "jsonrpc":
        return _dump(resp.to_jsonrpc_error(tool_name=args.tool_name), args.pretty)
    return _dump(SHAPES[shape](resp), args.pretty)


def _classify_format(args: argparse.Namespace) -> None:
    """Settle `--format`: JSON when a JSON option asks for it, text otherwise."""
    json_options = [
        flag
        for flag, value in (
            ("--shape", args.shape),
            ("--tool-name", args.tool_name),
            ("--pretty", args.pretty or None),
        )
        if value is not None
    ]
    if args.format is None:
        args.format = "json" if json_options else "text"
    elif args.format == "text" and json_options:
        verb = "applies" if len(json_options) == 1 else "apply"
        args.command_parser.error(f"{', '.join(json_options)} {verb} to --format json")


def _answer(
    item: dict[str, Any] | str, args: argparse.Namespace, paint: Paint
) -> tuple[str | None, str]:
    """One record's rendered answer, or `None` and what is wrong with the record."""
    if isinstance(item, str):
        return None, item
    try:
        return _render(_classify_record(item, args), args, paint), ""
    except UsageError as exc:
        return None, redact(str(exc))


def _cmd_classify(args: argparse.Namespace) -> int:
    _classify_format(args)
    out = sys.stdout
    paint = style(_use_color(args))
    # Text answers are separated by a blank line; JSON answers are one a line.
    between = "\n" if args.format == "text" else ""
    if args.message:
        record = {"message": " ".join(args.message)}
        out.write(_render(_classify_record(record, args), args, paint) + "\n")
        return 0
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError(
            "give a message, or JSON lines on standard input "
            f"(try: {PROG} classify 'no such table: t' --db sqlite)"
        )
    failed = 0
    written = 0
    for number, item in _stdin_records(sys.stdin):
        rendered, problem = _answer(item, args, paint)
        if rendered is None:
            failed += 1
            sys.stderr.write(f"{PROG}: line {number}: {problem}\n")
            if args.format != "json":
                continue
            # One output line per input line, so that a program reading the
            # answers in step with its questions never loses count.
            rendered = _dump({"input_error": problem, "line": number}, args.pretty)
        out.write((between if written else "") + rendered + "\n")
        out.flush()  # each answer as its record comes: a program may be waiting for it
        written += 1
    return 1 if failed else 0


# -- backends -------------------------------------------------------------------


def _cmd_backends(args: argparse.Namespace) -> int:
    infos = ErrorMapperRegistry.list_mappers()
    rows: list[dict[str, Any]] = [
        {
            "name": info.name,
            "display_name": getattr(info.mapper, "display_name", "") or info.name,
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
            (
                f"{row['distribution']} {row['version']}"
                if row["distribution"]
                else str(row["source"])
            ),
        )
        for row in rows
    ]
    for line in _columns(table, shutil.get_terminal_size((100, 24)).columns):
        sys.stdout.write(line + "\n")
    if not rows:
        sys.stdout.write("(no backends registered: only the generic fallback answers)\n")
    return 0


def _columns(table: list[tuple[str, ...]], width: int) -> Iterator[str]:
    """
    Lay *table* out in columns within *width* (at least 80) characters.

    The first and last columns keep their widths; the middle ones share what
    is left and wrap their comma-separated lists onto more lines.
    """
    width = max(width, 80)
    first = max(len(row[0]) for row in table)
    last = max(len(row[-1]) for row in table)
    middle = len(table[0]) - 2
    share = max(12, (width - first - last - 2 * (middle + 1)) // max(middle, 1))
    for row in table:
        cells = [
            textwrap.wrap(cell, share, break_on_hyphens=False, break_long_words=False) or [""]
            for cell in row[1:-1]
        ]
        height = max(len(c) for c in cells)
        for i in range(height):
            parts = [row[0] if i == 0 else ""] + [c[i] if i < len(c) else "" for c in cells]
            parts.append(row[-1] if i == 0 else "")
            padded = [parts[0].ljust(first)] + [p.ljust(share) for p in parts[1:-1]]
            yield "  ".join([*padded, parts[-1]]).rstrip()


# -- scan -----------------------------------------------------------------------


def _cmd_scan(args: argparse.Namespace) -> int:
    from localdata_errors import _scan  # noqa: PLC0415 - only this command needs it

    logs: list[str] = args.logs
    if not logs:
        if sys.stdin is None or sys.stdin.isatty():
            args.command_parser.error("give log files, or - for standard input")
        logs = ["-"]
    if args.pretty and args.format != "json":
        args.command_parser.error("--pretty applies to --format json")
    out = sys.stdout

    def each_error(resp: StructuredErrorResponse, seen: _scan.Sighting) -> None:
        out.write(_scan.error_line(resp, seen) + "\n")

    stderr_is_terminal = bool(getattr(sys.stderr, "isatty", lambda: False)())
    stdin = sys.stdin.buffer if sys.stdin is not None else None
    summary = _scan.Scan(
        db_type=args.db,
        on_error=each_error if args.format == "jsonl" else None,
        progress=stderr_is_terminal and not args.no_progress,
    ).run(logs, stdin)
    for source in summary.sources:
        if source.problem is not None:
            sys.stderr.write(f"{PROG}: scan: cannot read {source.name}: {source.problem}\n")
    if args.format != "jsonl":
        _scan.write_summary(summary, out, args.format, args.pretty, style(_use_color(args)))
    return 1 if any(s.problem is not None for s in summary.sources) else 0


# -- catalogue ------------------------------------------------------------------


def _cmd_catalogue(args: argparse.Namespace) -> int:
    from localdata_errors._catalogue import (  # noqa: PLC0415 - only this command needs it
        build_catalogue,
        load_schema,
        render_text,
    )

    if args.schema:
        sys.stdout.write(_dump(load_schema(), pretty=True) + "\n")
        return 0
    if args.pretty and args.format != "json":
        args.command_parser.error("--pretty applies to --format json")
    export = build_catalogue()
    if args.format == "json":
        sys.stdout.write(_dump(export, args.pretty) + "\n")
        return 0
    render_text(export, sys.stdout)
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


def _cmd_serve(argv: Sequence[str]) -> int:
    """
    Run the SQL tool server with *argv*, the arguments after ``serve``.

    The server's flags and settings are the server's own
    (`localdata_errors.mcp._settings`): they are parsed there, as for
    ``python -m localdata_errors.mcp.server``.  The server is an optional
    extra, imported only when it is asked for.
    """
    try:
        from localdata_errors.mcp import server  # noqa: PLC0415 - the optional mcp extra
    except ImportError as exc:
        raise UsageError(
            "the SQL tool server needs the 'mcp' extra: "
            f"pip install 'localdata-errors[mcp]' ({exc})"
        ) from None
    return server.main(argv, prog=f"{PROG} serve")


# -- parser ---------------------------------------------------------------------


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
        help="classify an error message (from arguments, or standard input)",
        description="Classify an error message given as arguments, or read from standard "
        "input: plain text is one message (a pasted psql error, a traceback); JSON lines "
        '(each a string, or {"message": ..., "db": ..., "code": ...}) are answered one '
        "line at a time, as each arrives.",
    )
    p.add_argument("message", nargs="*", help="the error text (joined with spaces)")
    p.add_argument(
        "--db",
        type=_db_argument,
        help="the backend: postgresql, mysql, sqlite, ... or an alias; when omitted, the "
        "backend the text's own form names (psql's 'ERROR:  ...', the mysql client's "
        "'ERROR 1146 (42S02): ...', a driver's exception class, ORA-00942, ...), else the "
        "keyword fallback; 'generic' asks for the keyword fallback",
    )
    p.add_argument(
        "--code", help="the native code: SQLSTATE, errno, ORA-00942, ... (give --db with it)"
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default=None,
        help="text for a person (default), json for one JSON object a line "
        "(the default when --shape, --tool-name or --pretty is given)",
    )
    p.add_argument(
        "--shape",
        choices=sorted(SHAPES),
        default=None,
        help="the JSON shape (default: localdata)",
    )
    p.add_argument("--tool-name", help="tool name for the jsonrpc shape")
    p.add_argument("--pretty", action="store_true", help="indent the JSON output")
    p.add_argument("--no-color", action="store_true", help="never colour the text output")
    p.set_defaults(func=_cmd_classify, command_parser=p)

    p = sub.add_parser("backends", help="list the registered backends and where they came from")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=_cmd_backends, command_parser=p)

    p = sub.add_parser(
        "scan",
        help="find the database errors in log files and summarise them",
        description="Read logs (files, .gz files, or - for standard input), find every "
        "database error in them (tracebacks and stack traces spanning lines included), "
        "classify each, and summarise them per backend and kind: how many, first and last "
        "seen, what to do, a few examples. Exit status 0 when the logs were read, whatever "
        "was found in them.",
    )
    p.add_argument(
        "logs",
        nargs="*",
        metavar="LOG",
        help="a log file; - (or nothing, when piped) for standard input",
    )
    p.add_argument(
        "--db",
        type=_db_argument,
        help="the backend every error in these logs comes from (default: read from each "
        "error's text)",
    )
    p.add_argument(
        "--format",
        choices=("text", "json", "jsonl"),
        default="text",
        help="text: the summary for a person (default); json: the summary as one JSON "
        "document; jsonl: each error as a JSON line as it is found (no summary)",
    )
    p.add_argument("--pretty", action="store_true", help="indent the JSON summary")
    p.add_argument("--no-color", action="store_true", help="never colour the text output")
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (shown on a terminal for inputs of 8 MB or more)",
    )
    p.set_defaults(func=_cmd_scan, command_parser=p)

    p = sub.add_parser(
        "catalogue",
        help="every backend's codes and the Kind table, as data for other languages",
        description="Export every registered backend's native codes, each with its kind, "
        "category, next step, retry safety, tool type and JSON-RPC code (what classify "
        "answers for the code alone), and the Kind table. The JSON export is versioned "
        "(schema_version) and described by a JSON Schema shipped with the package.",
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: a summary per backend (default); json: the export",
    )
    p.add_argument("--pretty", action="store_true", help="indent the JSON output")
    p.add_argument("--schema", action="store_true", help="print the export's JSON Schema")
    p.set_defaults(func=_cmd_catalogue, command_parser=p)

    p = sub.add_parser("demo", help="a tour of real errors on embedded SQLite (and DuckDB)")
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text for a terminal (default), json for JSON lines",
    )
    p.add_argument("--no-color", action="store_true", help="never colour the text output")
    p.set_defaults(func=_cmd_demo, command_parser=p)

    # The server parses its own flags (`localdata_errors.mcp._settings`): what
    # follows "serve" is handed to it whole, --help included.
    p = sub.add_parser("serve", help="run the MCP SQL tool server (extra: mcp)", add_help=False)
    p.set_defaults(func=None, command_parser=p)
    return parser


def _serve(argv: Sequence[str]) -> int:
    try:
        return _cmd_serve(argv)
    except UsageError as exc:
        sys.stderr.write(f"{PROG}: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130


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
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, extra = parser.parse_known_args(arguments)
    if args.command == "serve":
        return _serve(arguments[arguments.index("serve") + 1 :])
    if extra:
        # The subcommand's own usage, as argparse gives for its other mistakes.
        getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    handler = _log_warnings_to_stderr()
    try:
        status: int = args.func(args)
    except UsageError as exc:
        sys.stderr.write(f"{PROG}: {redact(str(exc))}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (| head); exit quietly like other Unix tools.
        _silence_stdout()
        return 1
    except OSError as exc:
        return _unwritable(exc)
    finally:
        logging.getLogger("localdata_errors").removeHandler(handler)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except OSError as exc:
        return _unwritable(exc)
    return status


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _unwritable(exc: OSError) -> int:
    """The output cannot be written (a full disk, /dev/full): one line, status 1."""
    sys.stderr.write(f"{PROG}: cannot write the output: {exc.strerror or exc}\n")
    _silence_stdout()  # the interpreter's own flush at exit must not fail again
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
