"""
TiDB rule pack for localdata-errors: TiDB's own error numbers over MySQL's protocol.

TiDB answers MySQL clients with MySQL's numbers where MySQL has one (1146,
1062, 1213, ...) and with its own, 8000-9999, for what only TiDB has: write
conflicts (9007, 8005), retryable KV errors (8022), schema changes during a
statement (8028), PD/TiKV timeouts and busy stores (9001-9013), memory quotas
(8175).  The built-in ``mysql`` mapper reads the number first; this refiner
recognises TiDB's numbers, generated with their names and message templates
from TiDB's ``pkg/errno`` into ``_codes``.

Detected (``classify_error(exc)`` on a pymysql error), a number counts as
TiDB's when the message is TiDB's text for it too; named
(``db_type="tidb"``), the number alone decides.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    ErrorRefiner,
    Kind,
    MappedError,
    RefinerClaims,
    driver_attr,
    hookimpl,
)
from localdata_errors_tidb._codes import CODES

__all__ = ["MARKERS", "TiDBRefiner", "localdata_errors_mappers"]

_SCAN: Final = 4096
_VERB: Final = re.compile(r"%[-+ #0-9.]*[a-zA-Z]")
_BRACKET: Final = re.compile(r"[\[\]()]")
#: TiDB's older out-of-memory answer, under MySQL's generic 1105.
_OOM_1105: Final = "Out Of Memory Quota!"


def _signatures(template: str) -> tuple[str, ...]:
    """
    The longest fixed part of a message template: enough to tell TiDB's text.

    Also the longest once cut at a bracket (TiDB's `[conn=%d]` tail, which a
    client's print leaves out) and without the punctuation at its ends (`PD
    server timeout: %s` is printed `PD server timeout` where the detail is empty).
    """
    parts = _VERB.split(template)
    whole = max(parts, key=len).strip()
    cut = max((p.strip(" \t:;,=") for part in parts for p in _BRACKET.split(part)), key=len)
    return (whole,) if cut in whole and cut == whole else (whole, cut)


_SIGNATURES: Final[dict[int, tuple[str, ...]]] = {n: _signatures(e[1]) for n, e in CODES.items()}
#: The signatures of three words or more: TiDB's own wording, a marker of its
#: messages where no number reaches the MySQL mapper (`[kv:9007]Write
#: conflict, txnStartTS=...` in TiDB's log, `Error 8028: Information schema
#: is changed ...` through Go's driver).
MARKERS: Final = tuple(
    sorted(
        {
            s
            for forms in _SIGNATURES.values()
            for s in forms
            if len(re.findall(r"[A-Za-z]+", s)) >= 3
        }
    )
)
#: A signature -> its number, where only one number's template holds it.
_WORDED: Final[dict[str, int]] = {
    s: n
    for n, forms in _SIGNATURES.items()
    for s in forms
    if sum(s in others for others in _SIGNATURES.values()) == 1
}
#: TiDB's number as its own errors print it (`[kv:9007]`, `[domain:8028]`) and
#: as clients do (`Error 8028: `, `ERROR 8028 (HY000)`, `returned error 9007 (`).
_PRINTED: Final = re.compile(r"(?:\[[a-z]{1,20}:|\b[Ee]rror:? |\bERROR )(\d{4})\b")


def _errno(error: ErrorInput, base: MappedError | None) -> int | None:
    for value in (
        base.code if base is not None else None,
        error.code,
        driver_attr(error.exception, "errno"),
    ):
        if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 100_000:
            return value
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 5:
            return int(value)
    args = driver_attr(error.exception, "args", ())
    if isinstance(args, tuple) and args and isinstance(args[0], int):
        return args[0] if 0 < args[0] < 100_000 else None
    if error.exception is None:
        # A pasted text: TiDB's number where it prints one, else its wording's.
        head = error.message[:_SCAN]
        for match in _PRINTED.finditer(head):
            if int(match.group(1)) in CODES:
                return int(match.group(1))
        return next((n for s, n in _WORDED.items() if s in head), None)
    return None


def _answer(base: MappedError | None, errno: int, kind: Kind) -> MappedError:
    answer = MappedError(kind, code=str(errno)) if base is None else base
    return answer._replace(kind=kind, code=str(errno), refine=None)


class TiDBRefiner(ErrorRefiner):
    """
    TiDB over MySQL's drivers: its own error numbers.
    """

    name = "tidb"
    aliases = ("tidbcloud", "tidb_cloud")
    refines = ("mysql",)
    display_name = "TiDB"
    # Its own numbers, and MySQL's generic 1105 under which older TiDB reports
    # memory; its own wording where the MySQL mapper found no number.
    claims = RefinerClaims(
        codes=frozenset({*map(str, CODES), "1105"}),
        markers=MARKERS,
        kinds=frozenset({Kind.UNKNOWN}),
    )

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Recognise TiDB's numbers (with TiDB's text) in the MySQL mapper's answer.

        Args:
            error: The exception and its text.
            base: The MySQL mapper's answer.

        Returns:
            The refined answer, or ``None`` for an error that is not TiDB's.
        """
        return self._refine(error, base, named=False)

    def refine_named(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Named `tidb`: TiDB's numbers decide without their text.

        Args:
            error: The exception and its text.
            base: The MySQL mapper's answer.

        Returns:
            The refined answer, or `None` to keep the MySQL mapper's.
        """
        return self._refine(error, base, named=True)

    def _refine(
        self, error: ErrorInput, base: MappedError | None, *, named: bool
    ) -> MappedError | None:
        errno = _errno(error, base)
        if errno is None:
            return None
        entry = CODES.get(errno)
        if entry is None:
            if errno == 1105 and _OOM_1105 in error.message[:_SCAN]:
                return _answer(base, errno, Kind.OUT_OF_MEMORY)
            return None
        # Another MySQL-protocol server may use the same number for its own
        # error: detected, TiDB's text must be there too.
        if not named and not any(s in error.message[:_SCAN] for s in _SIGNATURES[errno]):
            return None
        _, _, kind, retryable, safety, after_ms = entry
        return _answer(base, errno, kind)._replace(
            retryable=retryable, retry_safety=safety, retry_after_ms=after_ms
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        TiDB's own numbers this pack classifies.

        Returns:
            ``{"9007": Kind.SERIALIZATION_FAILURE, ...}``.
        """
        return {str(n): entry[2] for n, entry in CODES.items()}


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the TiDB refiner.

    Returns:
        One `TiDBRefiner`.
    """
    return [TiDBRefiner()]
