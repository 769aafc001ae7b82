"""
Reading a log as records: the lines of one logged event, streamed, in bounded memory.

A log is a sequence of records.  In a log whose lines carry timestamps, a
record starts at each timestamped line and takes every following line that
has none (a Python traceback, a Java stack trace with its `Caused by:`
lines); PostgreSQL's server log writes its `DETAIL:`/`HINT:`/`STATEMENT:`
lines with timestamps of their own, and they join the record before them.
In a log without timestamps (a program's standard error, psql's output), a
line continues the record before it when its form says so: indented, a
traceback's or a psql error's own lines (`Traceback ...`, `Caused by: `,
`LINE 1: `, `DETAIL: `, ...), or anything up to the exception line that ends
an open Python traceback.  Blank lines neither start nor end a record.

Only records that look like errors (`error`, `exception`, `fatal`, a code
form such as `ORA-`, `SQLSTATE`...) are yielded: the others cost the reader
a line read and a pattern search, nothing more.

Memory is bounded whatever the input: a line is read at most `LINE_LIMIT`
bytes at a time (the rest of a longer line is skipped), a record keeps at
most `HEAD_CHARS` of its start and `TAIL_CHARS` of its end (a traceback's
exception line is at its end), and stack frame lines (`File "..."`,
`at ...`) are not kept at all: they name code, not the error.
"""

from __future__ import annotations

import gzip
import re
import typing
from collections import deque
from collections.abc import Callable, Iterator
from typing import IO, BinaryIO, Final, NamedTuple

from localdata_errors._registry import default_registry
from localdata_errors._textread import read_signs

__all__ = [
    "HEAD_CHARS",
    "LINE_LIMIT",
    "TAIL_CHARS",
    "LogRecord",
    "below_error",
    "open_log",
    "read_records",
]

#: The longest line read at once, in bytes; the rest of a longer line is skipped.
LINE_LIMIT: Final = 64 * 1024
#: Characters kept from the start of a record.
HEAD_CHARS: Final = 4 * 1024
#: Characters kept from the end of a record (where a traceback's exception is).
TAIL_CHARS: Final = 12 * 1024

# A timestamp at the start of a line, perhaps in brackets: ISO 8601 and its
# kin (`2024-05-01 12:00:00,123`, `2024/05/01 12:00:00`, `...T12:00:00.1Z`,
# PostgreSQL's `... UTC`), syslog's `May  1 12:00:00`, or a time alone
# (logback's `12:00:00.123`).
_TIMESTAMP: Final = re.compile(
    r"""\[?(?P<ts>
        \d{4}[-/]\d\d[-/]\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?
            (?:\ ?(?:Z|[+-]\d\d:?\d\d|UTC|GMT|[A-Z]{2,3}T)(?![\w]))?
      | (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\ [ \d]\d\ \d\d:\d\d:\d\d
      | \d\d:\d\d:\d\d[.,]\d{1,9}
    )\]?(?:[ \t]+|$)""",
    re.VERBOSE,
)
# Lines that continue a record in a log without timestamps.
_CONTINUATION: Final = re.compile(
    r"Traceback \(most recent call last\):|Caused by: |During handling of the above"
    r"|The above exception was|LINE \d+: |DETAIL: |HINT: |CONTEXT: |QUERY: |WHERE: "
    r"|LOCATION: |SQLSTATE: |\[SQL: |\[parameters: |\(Background on this error at: "
)
# PostgreSQL's server log: the lines after an error, each with its own prefix.
_PG_DETAIL: Final = re.compile(r"\b(?:DETAIL|HINT|CONTEXT|STATEMENT|QUERY|LOCATION):  ")
# A line indented under its source's tag (Heroku's `app[web.1]:     at cb (...)`,
# each line of a stack trace stamped on its own): it goes on with the record.
# Three blanks or more: two follow a severity (PostgreSQL's `ERROR:  `).
_TAGGED_INDENT: Final = re.compile(r"[\w.-]{1,64}(?:\[[^\]\n]{0,64}\])?:[ \t]{3,}\S")
# Stack frames: Python's `File "..."`, Java's, .NET's and Node's `at ...`,
# Java's `... 12 more`; and the marker lines under a source line.
_FRAME: Final = re.compile(
    r"\A(?:[ \t]+(?:File \"|at [\w$<.]|\.\.\. \d+ (?:more|common frames omitted))"
    r"|[ \t]*[\^~]+[ \t]*$)"
)
# What makes a record worth classifying, in a line lowered to lower case (a
# case-blind pattern is several times slower to search).
_ERRORISH: Final = re.compile(
    r"error|exception|fatal|panic|fail|denied|deadlock|violat|refused|timeout|timed out|invalid"
    r"|could not|cannot|can't|unable to|no such|does not exist|doesn't exist|too many"
    r"|ora-\d|tns-\d|sqlstate|sqlite_|msg \d"
)
_TRACEBACK: Final = "Traceback (most recent call last):"


_BELOW_ERROR: Final = re.compile(r"\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING)\b")
_ERROR_LEVEL: Final = re.compile(r"\b(?:ERROR|FATAL|CRITICAL|SEVERE|PANIC|ALERT|EMERG)\b")


def below_error(first: str) -> bool:
    """Whether a record's first line says it was logged at a level below an error."""
    head = first[:64]
    low = _BELOW_ERROR.search(head)
    if low is None:
        return False
    high = _ERROR_LEVEL.search(head)
    return high is None or high.start() > low.start()


def _errorish(text: str, *, below: bool) -> bool:
    """
    Whether a line looks like part of an error: an error word (English), or,
    unless it is a record's first line logged below an error level, a sign
    the text reader knows, in any language: a native code in a known format
    (`1046 (3D000): ...`, `Meldung 207, Ebene 16`), a driver's prefix (`pq:
    `), a backend's name.  (A one-line record logged at INFO is no error for
    its signs alone: most of a log's lines are such records, and are passed
    over at the words' cost; a line under it may be an error it carries.)
    """
    if _ERRORISH.search(text.lower()) is not None:
        return True
    if below:
        return False
    signs = read_signs(text, default_registry())
    return signs.code is not None or signs.backend is not None


class LogRecord(NamedTuple):
    """
    One record of a log that looks like an error.

    Attributes:
        line: The line number of its first line (1-based).
        timestamp: The timestamp its first line carries, as written; `None`
            when it carries none.
        first: Its first line, without the timestamp.
        rest: Its other lines as kept (frames left out; bounded), joined
            with line breaks; empty for a record of one line.
    """

    line: int
    timestamp: str | None
    first: str
    rest: str


def open_log(path: str) -> tuple[BinaryIO, BinaryIO]:
    """
    Open a log for reading as bytes; a `.gz` file is decompressed on the fly.

    Args:
        path: The file.

    Returns:
        `(lines, raw)`: the stream to read lines from, and the file itself
        (whose position says how much of the file has been read).

    Raises:
        OSError: The file cannot be opened.
    """
    raw = open(path, "rb")  # noqa: SIM115 - the caller closes it
    if path.endswith(".gz"):
        # GzipFile is a binary stream; typeshed does not say it is a BinaryIO.
        return typing.cast(BinaryIO, gzip.GzipFile(fileobj=raw, mode="rb")), raw
    return raw, raw


class _More:
    """A record's lines after its first, as kept within the bounds."""

    __slots__ = (
        "dropped",
        "errorish",
        "head",
        "head_chars",
        "open_traceback",
        "tail",
        "tail_chars",
    )

    def __init__(self, errorish: bool, open_traceback: bool) -> None:
        self.errorish = errorish
        self.open_traceback = open_traceback
        self.head: list[str] = []
        self.head_chars = 0
        self.tail: deque[str] = deque()
        self.tail_chars = 0
        self.dropped = 0

    def add(self, text: str) -> None:
        if (self.open_traceback and text[:1].isspace()) or _FRAME.match(text) is not None:
            # Frames and the source lines under them name code, not the error;
            # but the code's path names its driver (site-packages/psycopg,
            # node_modules/tedious): kept in the head, within its bound.
            if self.head_chars + len(text) <= HEAD_CHARS and not self.tail:
                self.head.append(text)
                self.head_chars += len(text) + 1
            return
        if not self.errorish:
            self.errorish = _errorish(text, below=False)
        if text.startswith(_TRACEBACK):
            self.open_traceback = True
        elif self.open_traceback and not text[:1].isspace():
            self.open_traceback = False  # the exception line ends the traceback
        if self.head_chars + len(text) <= HEAD_CHARS and not self.tail:
            self.head.append(text)
            self.head_chars += len(text) + 1
            return
        self.tail.append(text)
        self.tail_chars += len(text) + 1
        while self.tail_chars > TAIL_CHARS and len(self.tail) > 1:
            self.tail_chars -= len(self.tail.popleft()) + 1
            self.dropped += 1

    def text(self) -> str:
        lines = self.head
        if self.tail:
            cut = [f"... ({self.dropped} lines left out)"] if self.dropped else []
            lines = [*lines, *cut, *self.tail]
        return "\n".join(lines)


def _continues(text: str, first: LogRecord, more: _More | None, timestamped: bool) -> bool:
    """Whether a line without a timestamp continues the record before it."""
    return (
        timestamped
        or text[:1].isspace()
        or (more.open_traceback if more else first.first.startswith(_TRACEBACK))
        or _CONTINUATION.match(text) is not None
    )


def read_records(
    stream: IO[bytes],
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[LogRecord]:
    """
    Read *stream* as a log; yield the records that look like errors.

    Args:
        stream: The log, as bytes (decoded as UTF-8, bad bytes replaced).
        progress: Called now and then with (lines read, bytes read).

    Yields:
        Each record that looks like an error, when it ends.
    """
    # The record being read: its first line, whether that looks like an
    # error, and its other lines (most records have none: built on demand).
    first: LogRecord | None = None
    errorish = False
    more: _More | None = None
    timestamped = False
    number = 0
    done = 0
    whole = True  # whether the previous read ended its line
    readline = stream.readline
    while True:
        raw = readline(LINE_LIMIT)
        if not raw:
            break
        done += len(raw)
        part_of_long_line = not whole
        whole = raw.endswith(b"\n")
        if part_of_long_line:
            continue  # the rest of a line longer than LINE_LIMIT
        number += 1
        if progress is not None and not number & 0x3FFF:
            progress(number, done)
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not text.strip():
            continue
        stamp = _TIMESTAMP.match(text) if text[:1].isdigit() or text[:1] in "[JFMASOND" else None
        if stamp is not None:
            timestamped = True
            text, timestamp = text[stamp.end() :], stamp.group("ts")
            detail = _PG_DETAIL.search(text, 0, 120) if ":  " in text[:128] else None
            # A detail line, or one indented under its tag, goes on with the record.
            new_record = first is None or (detail is None and _TAGGED_INDENT.match(text) is None)
            if detail is not None:
                text = text[detail.start() :]
        else:
            timestamp = None
            new_record = first is None or not _continues(text, first, more, timestamped)
        if not new_record:
            if more is None:
                assert first is not None  # a continuation follows a first line  # noqa: S101
                more = _More(errorish, first.first.startswith(_TRACEBACK))
            more.add(text)
            continue
        if first is not None and (more.errorish if more else errorish):
            yield first._replace(rest=more.text()) if more else first
        first = LogRecord(number, timestamp, text, "")
        errorish = _errorish(text, below=below_error(text))
        more = None
    if progress is not None:
        progress(number, done)
    if first is not None and (more.errorish if more else errorish):
        yield first._replace(rest=more.text()) if more else first
