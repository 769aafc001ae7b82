"""
A result read within the call's bounds: rows by the row cap, values and rows by bytes.

``--max-rows`` bounds how many rows a call returns; ``--max-bytes`` bounds
what it holds and returns.  The rows are read as they come, a batch at a
time (psycopg 3 streams a query itself, `Streamed`; other PostgreSQL
drivers and MySQL/MariaDB's read through SQLAlchemy's server-side cursors;
SQLite steps row by row), and each value is converted to JSON within what the call's `Budget`
still allows: a longer value is cut (text to its first characters, bytes to
their first bytes in hex, a structure to the start of its JSON text) and
listed in ``cut_values``; once the budget is spent no further row is read.
So what a call holds stays within a small multiple of the limit, whatever
the result: a 10^7-row result is read as far as the budget goes, and a value
the driver hands over whole (a 60 MB text) is cut before it is converted,
encoded or sent.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors.mcp._sql import jsonable

__all__ = ["Budget", "Result", "Rows", "Streamed", "read_rows", "stream_options", "streams_itself"]

JSONDict = dict[str, Any]

# What a value costs the call besides its JSON text: the object that holds it
# while the answer is built (a str or int and its slot in the row's dict,
# about 50 bytes in CPython), and its key's quotes, colon and comma in the JSON.
_PER_VALUE: Final = 56
# The most cut values a result lists one by one.
_MAX_LISTED: Final = 100


@dataclass
class Budget:
    """
    The bytes of values a call may still hold and return.

    Attributes:
        limit: The call's limit (``--max-bytes``).
        used: What the values read so far take, as UTF-8 JSON (about).
    """

    limit: int
    used: int = 0

    @property
    def left(self) -> int:
        """What is left of the limit."""
        return max(0, self.limit - self.used)


@dataclass
class Rows:
    """
    What `read_rows` read of a result.

    Attributes:
        columns: The result's columns.
        data: The rows, as JSON objects.
        more: Rows remained unread (the row cap or the byte budget stopped).
        by_bytes: The byte budget stopped the rows, or cut values.
        cut: The values that were cut: ``row``, ``column``, ``length`` (the
            whole value's length, in characters or bytes).
    """

    columns: list[str]
    data: list[JSONDict] = field(default_factory=list)
    more: bool = False
    by_bytes: bool = False
    cut: list[JSONDict] = field(default_factory=list)

    def report(self, out: JSONDict, budget: Budget) -> None:
        """Add what was cut by bytes to a result's JSON: ``cut_values``, ``max_bytes``."""
        if not self.by_bytes:
            return
        out["truncated"] = True
        out["max_bytes"] = budget.limit
        if self.cut:
            out["cut_values"] = self.cut[:_MAX_LISTED]
        what = "values were cut" if self.cut else "rows were left out"
        out["warning"] = (
            f"The result was cut at the server's limit of {budget.limit:,} bytes ({what}); "
            "select fewer or shorter columns (substr(), left()), or fewer rows."
        )


def _text(value: str, left: int) -> tuple[str, int, bool]:
    """*value* within *left* bytes of UTF-8: cut by characters first (never more bytes)."""
    cut = len(value) > left
    if cut:
        value = value[:left]
    size = len(value.encode("utf-8", "surrogatepass"))
    if size > left:
        value = value.encode("utf-8", "surrogatepass")[:left].decode("utf-8", "ignore")
        size, cut = len(value.encode("utf-8", "surrogatepass")), True
    return value, size, cut


def _bounded(value: Any, left: int) -> tuple[Any, int, int | None]:
    """
    A value as JSON within *left* bytes: the value, its size, and its whole length if cut.

    Bytes are cut before they are written in hex, and text before it is
    copied: a 60 MB value costs no more than the part kept.
    """
    if isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value[: left // 2 + 1])
        whole = len(value)
        if whole * 2 <= left:
            return raw.hex(), whole * 2, None
        return raw[: left // 2].hex(), (left // 2) * 2, whole
    if isinstance(value, str):
        kept, size, cut = _text(value, left)
        return kept, size, len(value) if cut else None
    converted = jsonable(value)
    if isinstance(converted, str):
        kept, size, cut = _text(converted, left)
        return kept, size, len(converted) if cut else None
    if isinstance(converted, list | dict):
        text = json.dumps(converted, ensure_ascii=False, default=str)
        if len(text) <= left and len(text.encode("utf-8", "surrogatepass")) <= left:
            return converted, len(text), None
        kept, size, _cut = _text(text, left)
        return kept, size, len(text)
    return converted, len(str(converted)), None


def _row(columns: list[str], values: Any, index: int, budget: Budget, rows: Rows) -> JSONDict:
    out: JSONDict = {}
    for name, value in zip(columns, values, strict=False):
        if value is None:
            out[name] = None
            budget.used += _PER_VALUE + len(name)
            continue
        kept, size, whole = _bounded(value, budget.left)
        out[name] = kept
        budget.used += size + _PER_VALUE + len(name)
        if whole is not None:
            rows.by_bytes = True
            rows.cut.append({"row": index, "column": name, "length": whole})
    return out


class Result(Protocol):
    """What `read_rows` reads: SQLAlchemy's result, or a `Streamed` one."""

    def keys(self) -> Any:
        """The columns."""

    def __iter__(self) -> Iterator[Any]:
        """The rows."""

    def close(self) -> None:
        """Release what is left."""


def read_rows(result: Result, max_rows: int, budget: Budget) -> Rows:
    """
    Read a result's rows as JSON, within the row cap and the call's byte budget.

    Args:
        result: The result (streamed from the server where the backend can).
        max_rows: The most rows to return.
        budget: What the call may still hold; what is read is taken from it.

    Returns:
        The rows read; the result is closed (a server-side cursor released).
    """
    rows = Rows(columns=list(result.keys()))
    try:
        for index, values in enumerate(result):
            if index >= max_rows:
                rows.more = True
                break
            if budget.left <= 0:
                rows.more = rows.by_bytes = True
                break
            rows.data.append(_row(rows.columns, values, index, budget, rows))
    finally:
        result.close()
    return rows


# Rows a streamed result reads from the server at a time: one row may be large.
_BATCH: Final = 100


def stream_options(dialect: str) -> Mapping[str, Any]:
    """
    SQLAlchemy's execution options that read a result as it comes (a server-side cursor).

    PostgreSQL and MySQL/MariaDB drivers otherwise fetch a whole result
    into memory before the first row is read; SQLite steps row by row
    anyway.  (psycopg 3 streams without a cursor: `psycopg_stream`.)
    """
    if dialect in ("postgresql", "mysql", "mariadb"):
        return {"stream_results": True, "max_row_buffer": _BATCH}
    return {}


class Streamed:
    """
    A query's rows as psycopg 3 streams them, read as `read_rows` reads a result.

    The statement runs as itself (``pg_stat_activity`` shows it, and its
    errors quote it), not wrapped in a ``DECLARE ... CURSOR``; closing it
    early cancels the rest.  The driver's errors are SQLAlchemy's, as for any
    statement the server runs.
    """

    returns_rows = True
    rowcount = -1

    def __init__(self, conn: Connection, query: str, params: Any) -> None:
        self._conn = conn
        self._query, self._params = query, params
        raw: Any = conn.connection.driver_connection
        self._cursor = raw.cursor()
        self._rows: Iterator[Any] = iter(())
        self.columns: list[str] = []
        size = _BATCH if psycopg_chunks(raw) else 1
        rows = self._cursor.stream(query, params, size=size)
        first = self._next(rows)
        self.columns = [c.name for c in self._cursor.description or ()]
        self._source = rows
        self._rows = itertools.chain(first, self._guarded(rows))

    def _next(self, rows: Iterator[Any]) -> list[Any]:
        try:
            return [next(rows)]
        except StopIteration:
            return []
        except Exception as exc:
            raise self._wrapped(exc) from exc

    def _guarded(self, rows: Iterator[Any]) -> Iterator[Any]:
        try:
            yield from rows
        except Exception as exc:
            raise self._wrapped(exc) from exc

    def _wrapped(self, exc: Exception) -> BaseException:
        dialect = self._conn.dialect
        base = dialect.loaded_dbapi.Error
        if not isinstance(exc, base):
            return exc
        lost = dialect.is_disconnect(exc, self._conn.connection.dbapi_connection, self._cursor)
        if lost:
            self._conn.invalidate(exc)
        return sa.exc.DBAPIError.instance(
            self._query, self._params, exc, base, connection_invalidated=lost, dialect=dialect
        )

    def keys(self) -> list[str]:
        """The columns."""
        return self.columns

    def __iter__(self) -> Iterator[Any]:
        return self._rows

    def close(self) -> None:
        """Stop reading: psycopg cancels what the server still sends."""
        with contextlib.suppress(Exception):
            close = getattr(self._source, "close", None)
            if close is not None:
                close()
        with contextlib.suppress(Exception):
            self._cursor.close()


def psycopg_chunks(raw: Any) -> bool:
    """Whether a psycopg 3 connection's libpq streams rows in chunks (libpq 17+)."""
    module = sys.modules.get(type(raw).__module__.split(".")[0])
    capabilities = getattr(module, "capabilities", None)
    try:
        return bool(capabilities.has_stream_chunked()) if capabilities is not None else False
    except Exception:  # noqa: BLE001 - an older psycopg: one row at a time
        return False


def streams_itself(conn: Connection) -> bool:
    """Whether the driver streams a query's rows itself: psycopg 3 (``Cursor.stream``)."""
    raw = conn.connection.driver_connection
    return type(raw).__module__.split(".")[0] == "psycopg"
