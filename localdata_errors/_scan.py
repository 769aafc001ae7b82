"""
The `scan` command: every database error in a log, counted per backend and
kind, with when it was first and last seen and what to do about it.

Each record that looks like an error (see `_logread`) is classified with
`classify_message`, read from where its error starts, in turn: the last
`Caused by:` of a Java stack trace (the root cause); the first line from
after its first separator (`ERROR app.db: psycopg.errors.UndefinedTable:
...` reads from `psycopg.errors...`); the whole record (a Python traceback
is read from its exception line); the lines under the first (a Java
exception logged under its message); the first line from after its next
separators.  The first reading that names a backend or a native code wins.
A record whose text names neither is counted only when the keyword fallback
still recognises a kind, under the backend `generic` and apart from the
others (its words say database, nothing else does), and not when it was
logged at a level below an error (a warning that a call "failed" is no
database error by its words alone).

Aggregates are bounded: per group (backend, kind, next step) a count, the
first and last sightings, at most `CODES_KEPT` codes, `NAMES_KEPT` names and
`EXAMPLES_KEPT` example messages.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO, Any, Final, TextIO

from localdata_errors._classify import classify_message
from localdata_errors._detect import detect
from localdata_errors._kinds import Kind, render_suggestion
from localdata_errors._logread import LogRecord, below_error, open_log, read_records
from localdata_errors._registry import MapperRegistry, default_registry
from localdata_errors._render import Paint, next_step
from localdata_errors._render import field as labelled
from localdata_errors._response import StructuredErrorResponse

__all__ = ["Scan", "Sighting", "Summary", "error_line", "write_summary"]

#: Distinct codes, names and example messages kept per group.
CODES_KEPT: Final = 16
NAMES_KEPT: Final = 32
EXAMPLES_KEPT: Final = 3
#: The longest example message kept, in characters.
EXAMPLE_CHARS: Final = 300
#: How many of a first line's separators are tried as the error's start.
_STARTS_TRIED: Final = 4
#: How many readings the keyword fallback (or the backend given) is asked about.
_FALLBACK_TRIED: Final = 1
# Where an error may start inside a log line: after "logger: ", "] ", " - ", " | ".
_SEPARATOR: Final = re.compile(r": |\] | - | \| ")
_CAUSED_BY: Final = "Caused by: "
# The log levels below an error, as loggers print them near the start of a
# line (Python, Java, syslog, Go's log/slog): a record at one of them counts
# only when its text names a database.
#: Inputs at least this large get a progress bar (on a terminal).
PROGRESS_BYTES: Final = 8 * 1024 * 1024


@dataclass(frozen=True)
class Sighting:
    """Where an error was seen: the file, the line, the timestamp its line carries."""

    source: str
    line: int
    timestamp: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.source, "line": self.line, "timestamp": self.timestamp}


@dataclass
class Group:
    """Every error of one backend and kind with one next step, aggregated."""

    backend: str
    answer: StructuredErrorResponse
    first: Sighting
    last: Sighting
    count: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    names: Counter[str] = field(default_factory=Counter)
    other_names: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, resp: StructuredErrorResponse, seen: Sighting) -> None:
        self.count += 1
        self.last = seen
        code = resp.database_error_code
        if code is not None and (code in self.codes or len(self.codes) < CODES_KEPT):
            self.codes[code] += 1
        for name in (*resp.affected_resources, *resp.dependencies):
            if name in self.names or len(self.names) < NAMES_KEPT:
                self.names[name] += 1
            else:
                self.other_names += 1
        # The first line says what the error is; the lines under it (psql's
        # LINE and DETAIL) differ from one occurrence to the next.
        example = resp.message.partition("\n")[0][:EXAMPLE_CHARS]
        if len(self.examples) < EXAMPLES_KEPT and example not in self.examples:
            self.examples.append(example)

    @property
    def suggestion(self) -> str:
        """The answer's own advice, where it has some; else the kind's sentence without names."""
        resp = self.answer
        # The tool shape keeps a suggestion only when it is not the kind's sentence.
        own = "suggestion" in resp.to_tool_error()
        return resp.suggestion if own else render_suggestion(resp.kind)

    def to_dict(self) -> dict[str, Any]:
        resp = self.answer
        return {
            "backend": self.backend,
            "kind": resp.kind.value,
            "category": resp.error_type.value,
            "count": self.count,
            "codes": dict(self.codes.most_common()),
            "action": resp.action.value,
            "retry_safety": resp.retry_safety.value,
            "is_retryable": resp.is_retryable,
            "retry_after_ms": resp.retry_after_ms,
            "suggestion": self.suggestion,
            "suggested_actions": list(resp.suggested_actions),
            "first_seen": self.first.to_dict(),
            "last_seen": self.last.to_dict(),
            "names": dict(self.names.most_common()),
            "other_names": self.other_names,
            "examples": list(self.examples),
        }


@dataclass
class Source:
    """One input: its name, how much of it was read, and why not all of it."""

    name: str
    lines: int = 0
    bytes: int = 0
    problem: str | None = None


@dataclass
class Summary:
    """What a scan found."""

    sources: list[Source] = field(default_factory=list)
    groups: dict[tuple[str, Kind, str], Group] = field(default_factory=dict)
    #: Records that looked like errors but that no reading recognised.
    other_records: int = 0

    @property
    def database_errors(self) -> int:
        """Errors whose text named a backend or a code."""
        return sum(g.count for g in self.groups.values() if g.backend != "generic")

    @property
    def keyword_errors(self) -> int:
        """Errors recognised by their words alone (backend `generic`)."""
        return sum(g.count for g in self.groups.values() if g.backend == "generic")

    def ranked(self) -> list[Group]:
        """Groups with a backend first, then the keyword-only ones; most frequent first."""
        return sorted(
            self.groups.values(),
            key=lambda g: (g.backend == "generic", -g.count, g.backend, g.answer.kind.value),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": [
                {"name": s.name, "lines": s.lines, "bytes": s.bytes, "problem": s.problem}
                for s in self.sources
            ],
            "lines": sum(s.lines for s in self.sources),
            "bytes": sum(s.bytes for s in self.sources),
            "database_errors": self.database_errors,
            "keyword_errors": self.keyword_errors,
            "other_error_records": self.other_records,
            "groups": [g.to_dict() for g in self.ranked()],
        }


def _readings(record: LogRecord) -> Iterable[str]:
    """
    The texts to classify for *record*, in the order they are tried.

    The root cause of a Java stack trace first; then the first line from
    after its first separator (the message without the log's prefix), the
    whole record, the lines after the first (an exception logged under its
    message), and the first line from after its next separators.
    """
    rest = f"\n{record.rest}" if record.rest else ""
    cause = record.rest.rfind(_CAUSED_BY)
    if cause >= 0 and (cause == 0 or record.rest[cause - 1] == "\n"):
        yield record.rest[cause + len(_CAUSED_BY) :]
    first = record.first
    starts = [m.end() for m in _SEPARATOR.finditer(first, 0, 512)][:_STARTS_TRIED]
    if starts:
        yield first[starts[0] :] + rest
    yield first + rest
    if record.rest:
        # The lines after a log message: a Java exception logged with its message.
        yield record.rest
    for start in starts[1:]:
        yield first[start:] + rest


def _named(resp: StructuredErrorResponse) -> bool:
    # A backend's code, or its name with a kind: a line that only names a
    # product ("connected to PostgreSQL 16") is no error.
    return resp.database_error_code is not None or (
        resp.backend != "generic" and resp.kind is not Kind.UNKNOWN
    )


def classify_record(
    record: LogRecord, db_type: str | None, registry: MapperRegistry | None = None
) -> StructuredErrorResponse | None:
    """
    The answer for one record, or `None` when it is not recognised as a database error.

    Without *db_type*, the readings are first shown to `detect`, which finds
    a form that names the backend (a driver's exception class, psql's
    `ERROR:  `, `ORA-`, ...); the first reading it claims with a code is
    classified, else the first it claims.  Else, unless the record was logged at a level
    below an error (`INFO`, `WARNING`, ...), the keyword fallback reads the
    first reading (a log's lines are mostly not database errors: each costs
    one classification).

    Args:
        record: The record.
        db_type: The backend every error of this log comes from, if known.
        registry: The mappers; the default registry when omitted.

    Returns:
        The answer, or `None`.
    """
    reg = registry or default_registry()
    readings = list(_readings(record))
    if db_type is None:
        named: StructuredErrorResponse | None = None
        for text in readings:
            if detect(text, reg) is not None:
                resp = classify_message(text, registry=reg)
                # A later reading may carry the code too, of the backend the
                # first one named (a fragment of the message naming another's
                # wording is not this error's).
                same = named is None or resp.backend == named.backend
                if _named(resp) and resp.database_error_code is not None and same:
                    return resp
                if named is None and _named(resp):
                    named = resp
        if named is not None:
            return named
        if below_error(record.first):
            return None  # a warning's words alone do not make it a database error
    for text in readings[:_FALLBACK_TRIED]:
        resp = classify_message(text, db_type=db_type, registry=reg)
        if resp.kind is not Kind.UNKNOWN or resp.database_error_code is not None:
            return resp
    return None


class Progress:
    """A plain progress bar on a terminal: percent, megabytes, speed, errors found."""

    def __init__(self, out: TextIO, label: str, total: int | None) -> None:
        self._out = out
        self._label = label
        self._total = total
        self._start = time.monotonic()
        self._shown = 0.0
        self.errors = 0

    def __call__(self, lines: int, done: int) -> None:
        now = time.monotonic()
        if now - self._shown < 0.2:
            return
        self._shown = now
        rate = done / max(now - self._start, 1e-9) / 1e6
        if self._total:
            share = min(done / self._total, 1.0)
            bar = "#" * int(share * 20)
            where = f"[{bar:<20}] {share:4.0%}  {done / 1e6:,.0f}/{self._total / 1e6:,.0f} MB"
        else:
            where = f"{done / 1e6:,.0f} MB"
        line = f"{self._label}  {where}  {rate:,.0f} MB/s  {self.errors:,} errors"
        self._out.write("\r" + line[:200] + "\x1b[K")
        self._out.flush()

    def close(self) -> None:
        self._out.write("\r\x1b[K")
        self._out.flush()


@dataclass
class Scan:
    """
    How to scan: the backend if known, and where each error goes as it is found.

    Attributes:
        db_type: The backend every error comes from (`--db`), or `None` to detect it.
        on_error: Called with each error found (`--format jsonl`), or `None`.
        progress: Whether to show a progress bar on *progress_out*.
        progress_out: Where the progress bar goes (a terminal).
    """

    db_type: str | None = None
    on_error: Callable[[StructuredErrorResponse, Sighting], None] | None = None
    progress: bool = False
    progress_out: TextIO = field(default_factory=lambda: sys.stderr)

    def run(self, names: list[str], stdin: IO[bytes] | None = None) -> Summary:
        """
        Scan each file of *names* (`-`: *stdin*) in turn.

        A file that cannot be opened or read is noted in its `Source.problem`
        and the others are still scanned; an error in writing (`on_error`)
        is raised.

        Returns:
            The summary.
        """
        summary = Summary()
        for name in names:
            source = Source("<stdin>" if name == "-" else name)
            summary.sources.append(source)
            self._one(name, source, summary, stdin)
        return summary

    def _one(self, name: str, source: Source, summary: Summary, stdin: IO[bytes] | None) -> None:
        raw: IO[bytes] | None = None
        if name == "-":
            if stdin is None:
                source.problem = "no standard input"
                return
            stream, total = stdin, None
        else:
            try:
                stream, raw = open_log(name)
                total = _size(raw)
            except OSError as exc:
                source.problem = exc.strerror or str(exc)
                return
        bar = None
        if self.progress and (total is None or total >= PROGRESS_BYTES):
            bar = Progress(self.progress_out, source.name, total)

        def progress(lines: int, done: int) -> None:
            source.lines, source.bytes = lines, done
            if bar is not None:
                # A compressed file's progress is how much of the file was read.
                bar(lines, raw.tell() if raw is not None and raw is not stream else done)

        records = read_records(stream, progress)
        try:
            while True:
                try:
                    record = next(records)
                except StopIteration:
                    break
                except (OSError, EOFError) as exc:  # EOFError: a truncated .gz file
                    source.problem = getattr(exc, "strerror", None) or str(exc)
                    break
                self._record(record, source.name, summary)
                if bar is not None:
                    bar.errors = summary.database_errors + summary.keyword_errors
        finally:
            if bar is not None:
                bar.close()
            if raw is not None:
                stream.close()
                raw.close()

    def _record(self, record: LogRecord, name: str, summary: Summary) -> None:
        resp = classify_record(record, self.db_type)
        if resp is None:
            summary.other_records += 1
            return
        seen = Sighting(name, record.line, record.timestamp)
        if self.on_error is not None:
            self.on_error(resp, seen)
        key = (resp.backend, resp.kind, resp.action.value)
        group = summary.groups.get(key)
        if group is None:
            group = summary.groups[key] = Group(resp.backend, resp, seen, seen)
        group.add(resp, seen)


def _size(raw: IO[bytes]) -> int | None:
    try:
        return raw.seek(0, 2) or None
    finally:
        raw.seek(0)


# -- rendering ------------------------------------------------------------------


def _where(seen: Sighting) -> str:
    stamp = f"  {seen.timestamp}" if seen.timestamp else ""
    return f"{seen.source}:{seen.line}{stamp}"


def _counted(counter: Counter[str], limit: int) -> str:
    parts = [f"{key} ({n:,})" for key, n in counter.most_common(limit)]
    more = len(counter) - limit
    return ", ".join(parts) + (f", and {more} more" if more > 0 else "")


def render_text(summary: Summary, out: TextIO, paint: Paint) -> None:
    """Write the summary for a person."""
    files = [s for s in summary.sources if s.problem is None]
    lines = sum(s.lines for s in files)
    size = sum(s.bytes for s in files)
    names = ", ".join(s.name for s in files) or "nothing"
    head = (
        f"Scanned {names}: {lines:,} lines, {_megabytes(size)}; "
        f"{summary.database_errors:,} database errors"
    )
    if summary.keyword_errors:
        head += f", {summary.keyword_errors:,} more by their words alone"
    out.write(paint(head + ".", "bold") + "\n")
    if summary.other_records == 1:
        out.write("1 other record looked like an error but names no database error.\n")
    elif summary.other_records:
        out.write(
            f"{summary.other_records:,} other records looked like errors "
            "but name no database error.\n"
        )
    keyword_heading = False
    for group in summary.ranked():
        if group.backend == "generic" and not keyword_heading:
            keyword_heading = True
            out.write(
                "\n"
                + paint("By their words alone (the text names no backend and no code):", "dim")
                + "\n"
            )
        out.write("\n" + "\n".join(_group_lines(group, paint)) + "\n")


def _group_lines(group: Group, paint: Paint) -> list[str]:
    resp = group.answer
    noun = "error" if group.count == 1 else "errors"
    codes = ""
    if group.codes:
        codes = f"; code{'s' if len(group.codes) > 1 else ''} {_counted(group.codes, 4)}"
    lines = [
        f"{paint(group.backend, 'bold')}  {paint(resp.kind.value, 'yellow')}  "
        f"{group.count:,} {noun}{codes}",
        labelled("what to do", f"{next_step(resp)}: {group.suggestion}", "  "),
        labelled("first seen", _where(group.first), "  "),
    ]
    if group.count > 1:
        lines.append(labelled("last seen", _where(group.last), "  "))
    if group.names:
        lines.append(labelled("names", _counted(group.names, 6), "  "))
    for i, example in enumerate(group.examples):
        lines.append(labelled("example" if i == 0 else "", example, "  "))
    return lines


def _megabytes(size: int) -> str:
    if size >= 1e9:
        return f"{size / 1e9:.2f} GB"
    if size >= 1e6:
        return f"{size / 1e6:.1f} MB"
    return f"{size:,} bytes"


def write_summary(summary: Summary, out: TextIO, fmt: str, pretty: bool, paint: Paint) -> None:
    """
    Write the summary: for a person (`text`), or as one JSON document (`json`).

    Args:
        summary: What the scan found.
        out: Where to write.
        fmt: `text` or `json`.
        pretty: Indent the JSON.
        paint: The painter of the text (see `_render.style`).
    """
    if fmt == "json":
        out.write(json.dumps(summary.to_dict(), indent=2 if pretty else None, ensure_ascii=False))
        out.write("\n")
    else:
        render_text(summary, out, paint)


def error_line(resp: StructuredErrorResponse, seen: Sighting) -> str:
    """One error as a JSON line: where it was seen, then the LocalData shape."""
    return json.dumps({**seen.to_dict(), **resp.to_dict()}, ensure_ascii=False)
