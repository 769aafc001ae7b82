"""
Real error texts, as users pasted them or vendors print them, with labels.

Each `<backend>.jsonl` file here holds one JSON object a line: an error text
copied verbatim from a public issue thread, Q&A page or vendor manual, the
address it was found at, the family that printed it (a driver, a wrapper, a
command-line client, a log) and a label set decided from the vendor's
documentation of the code or message (the `doc` address), never from this
library's answer.  `nobackend.jsonl` holds the texts that carry no sign of
their backend.

`load` reads and validates every file; a malformed entry raises `CorpusError`
naming the file and line.  `python -m bench.text` classifies every text with
`classify_message(text)` and prints the figures.

Fields of an entry:

- `id`: `<file stem>-NNN`, stable: entries are appended, never renumbered.
- `text`: The error text, verbatim (cut to the error and the lines around it
  a user would paste).  Real-looking secrets are masked with `***` and the
  `note` says so.
- `source`: The address the text was found at.
- `family`: What printed it: one of `FAMILIES`.
- `backend`: The canonical backend the text belongs to (`BACKENDS`), or
  `null` when the text carries no sign of it.  MySQL and MariaDB are both
  `mysql`.
- `code`: The native code the text itself carries, in the form the library
  reports it (`CODE_FORMATS`; an ORM's own, Prisma's `P1001`, under any
  backend where the backend's is not printed), or `null`: printed, or by its wording alone
  where the vendor's documentation gives that wording one code (SQL Server's
  `Invalid object name 'x'.` is message 208).
- `category`, `retryable`: One of the eight categories and the retry
  decision, from the vendor's documented meaning and DESIGN.md's Kind table.
- `doc`: The vendor documentation page that gives that meaning.
- `kind` (optional): The Kind name, where the vendor's meaning pins it
  (`KINDS`).
- `language` (optional): The ISO 639-1 code of a localized text; absent
  means English.
- `vendor` (optional): The product, where it differs from the backend's own
  server (`mariadb`, `azure-sql`, `supabase`, `vitess`, `aws-rds`...).
- `note` (optional): Free text: the code's name, what was masked, where the
  wording comes from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = [
    "BACKENDS",
    "CATEGORIES",
    "CODE_FORMATS",
    "DIRECTORY",
    "FAMILIES",
    "KINDS",
    "CorpusError",
    "TextCase",
    "load",
    "parse_entry",
]

#: Where the data files live.
DIRECTORY: Final = Path(__file__).resolve().parent

#: The eight ErrorCategory values.
CATEGORIES: Final = frozenset(
    {
        "auth_error",
        "schema_error",
        "syntax_error",
        "transient_error",
        "resource_error",
        "constraint_error",
        "connection_error",
        "query_execution",
    }
)

#: What printed a text.
FAMILIES: Final = frozenset(
    {
        # Drivers and wrappers, by language.
        "python-driver",
        "sqlalchemy",
        "django",
        "go",
        "jdbc",
        "dotnet",
        "node",
        "php",
        "ruby",
        "rust",
        # Any other language's driver or framework (Qt, Haskell, Nim...).
        "other",
        # Command-line clients.
        "psql",
        "mysql-cli",
        "sqlcmd",
        "sqlplus",
        "sqlite-cli",
        "duckdb-cli",
        "cockroach-cli",
        "clickhouse-cli",
        "snowsql",
        "bq-cli",
        "trino-cli",
        # Graphical clients.
        "pgadmin",
        "dbeaver",
        "gui",
        # A server's or an application's log line.
        "log",
        # The message alone, as a vendor page or a title prints it.
        "plain",
    }
)

_SQLSTATE: Final = re.compile(r"[0-9A-Z]{5}")
_NUMBER: Final = re.compile(r"[1-9][0-9]*")

#: The form of a code, per backend (None: that backend's texts carry none).
CODE_FORMATS: Final[Mapping[str | None, re.Pattern[str] | None]] = {
    "postgresql": _SQLSTATE,
    "cockroachdb": _SQLSTATE,
    "neon": _SQLSTATE,
    "supavisor": _SQLSTATE,
    "pgbouncer": _SQLSTATE,
    # errno: the server's (1000-...) or the client library's (2000-...).
    "mysql": re.compile(r"[1-9][0-9]{3,4}"),
    "tidb": re.compile(r"[1-9][0-9]{3,4}"),
    "sqlite": re.compile(r"SQLITE_[A-Z]+(?:_[A-Z]+)*"),
    "duckdb": None,
    # Oracle's error prefixes: the server, SQL*Plus, python-oracledb, ODPI-C,
    # node-oracledb.
    "oracle": re.compile(
        r"(?:ORA-[0-9]{5}|SP2-[0-9]{4}|DPY-[0-9]{4}|DPI-[0-9]{4}|TNS-[0-9]{5}|NJS-[0-9]{3})"
    ),
    "mssql": _NUMBER,
    "clickhouse": _NUMBER,
    "snowflake": re.compile(r"[0-9]{6}"),
    # The reason of Google's error object: quotaExceeded, notFound...
    "bigquery": re.compile(r"[a-z]+(?:[A-Z][a-z]*)+|[a-z]+"),
    # An error class, with its subclass where the text gives one.
    "databricks": re.compile(r"[A-Z][A-Z0-9_]*(?:\.[A-Z][A-Z0-9_]*)?"),
    # StandardErrorCode's names.
    "trino": re.compile(r"[A-Z][A-Z0-9_]*"),
    # No backend: an ORM's own code (Prisma's P2002).
    None: re.compile(r"P[0-9]{4}"),
}
#: An ORM's own code (Prisma's `P1001`), which a text of any backend may carry
#: where the backend's own is not printed.
ORM_CODE: Final = re.compile(r"P[1-6][0-9]{3}")

#: The canonical backends a text may be labelled with.
BACKENDS: Final = frozenset(name for name in CODE_FORMATS if name is not None)

#: The Kind names of DESIGN.md's table.
KINDS: Final = frozenset(
    {
        "syntax_error",
        "undefined_table",
        "undefined_column",
        "undefined_function",
        "undefined_object",
        "undefined_database",
        "undefined_schema",
        "duplicate_table",
        "duplicate_column",
        "duplicate_object",
        "duplicate_database",
        "duplicate_schema",
        "ambiguous_column",
        "unique_violation",
        "foreign_key_violation",
        "not_null_violation",
        "check_violation",
        "exclusion_violation",
        "dependent_objects_still_exist",
        "invalid_password",
        "invalid_authorization",
        "insufficient_privilege",
        "read_only",
        "deadlock_detected",
        "serialization_failure",
        "lock_not_available",
        "database_locked",
        "statement_timeout",
        "connection_failure",
        "connection_lost",
        "admin_shutdown",
        "connection_misconfigured",
        "too_many_connections",
        "out_of_memory",
        "disk_full",
        "configuration_limit_exceeded",
        "division_by_zero",
        "invalid_text_representation",
        "numeric_value_out_of_range",
        "string_data_right_truncation",
        "datatype_mismatch",
        "invalid_parameter",
        "transaction_aborted",
        "feature_not_supported",
    }
)

_REQUIRED: Final = (
    "id",
    "text",
    "source",
    "family",
    "backend",
    "code",
    "category",
    "retryable",
    "doc",
)
_OPTIONAL: Final = ("kind", "language", "vendor", "note")
_ADDRESS: Final = re.compile(r"https?://[^\s/]+\.[^\s/]+(?:/\S*)?")
_ID: Final = re.compile(r"(?P<stem>[a-z]+)-[0-9]{3}")
_LANGUAGE: Final = re.compile(r"[a-z]{2}")
_VENDOR: Final = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_NO_BACKEND: Final = "nobackend"


class CorpusError(ValueError):
    """A malformed entry: the message names the file, the line and the fault."""


@dataclass(frozen=True, slots=True)
class TextCase:
    """One real error text and the labels the vendor's documentation gives it."""

    id: str
    text: str
    source: str
    family: str
    backend: str | None
    code: str | None
    category: str
    retryable: bool
    doc: str
    kind: str | None = None
    #: ISO 639-1; "en" where the entry gives none.
    language: str = "en"
    vendor: str | None = None
    note: str | None = None

    @property
    def localized(self) -> bool:
        """Whether the text is in a language other than English."""
        return self.language != "en"


def _string(entry: Mapping[str, object], key: str, *, optional: bool = False) -> str | None:
    value = entry.get(key)
    if value is None:
        if optional:
            return None
        raise CorpusError(f"{key!r} is missing or null")
    if not isinstance(value, str) or not value.strip():
        raise CorpusError(f"{key!r} must be a non-empty string, not {value!r}")
    if value != value.strip() and key != "text":
        raise CorpusError(f"{key!r} has surrounding whitespace: {value!r}")
    return value


def _required(entry: Mapping[str, object], key: str) -> str:
    value = _string(entry, key)
    if value is None:  # pragma: no cover - _string raises first
        raise CorpusError(f"{key!r} is missing")
    return value


def _address(entry: Mapping[str, object], key: str) -> str:
    value = _required(entry, key)
    if not _ADDRESS.fullmatch(value):
        raise CorpusError(f"{key!r} must be an http(s) address, not {value!r}")
    return value


def parse_entry(entry: object, stem: str) -> TextCase:
    """Validate one decoded line of `<stem>.jsonl` and build its case.

    Args:
        entry: The decoded JSON value of one line.
        stem: The file's stem: the backend, or `nobackend`.

    Returns:
        The case.

    Raises:
        CorpusError: A field is missing, unknown, of the wrong type, outside
            its allowed values, or disagrees with the file it is in.
    """
    if not isinstance(entry, dict):
        raise CorpusError(f"an entry must be a JSON object, not {type(entry).__name__}")
    missing = [key for key in _REQUIRED if key not in entry]
    if missing:
        raise CorpusError(f"missing fields: {', '.join(missing)}")
    unknown = sorted(set(entry) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise CorpusError(f"unknown fields: {', '.join(unknown)}")

    case_id = _required(entry, "id")
    id_match = _ID.fullmatch(case_id)
    if id_match is None or id_match["stem"] != stem:
        raise CorpusError(f"id {case_id!r} must be {stem}-NNN in {stem}.jsonl")

    text = _required(entry, "text")
    family = _required(entry, "family")
    if family not in FAMILIES:
        raise CorpusError(f"{case_id}: unknown family {family!r}")

    backend = _string(entry, "backend", optional=True)
    if backend is not None and backend not in BACKENDS:
        raise CorpusError(f"{case_id}: unknown backend {backend!r}")
    if (backend or _NO_BACKEND) != stem:
        raise CorpusError(
            f"{case_id}: backend {backend!r} belongs in {backend or _NO_BACKEND}.jsonl"
        )

    code = _string(entry, "code", optional=True)
    if code is not None:
        pattern = CODE_FORMATS[backend]
        if pattern is None:
            raise CorpusError(f"{case_id}: {backend} texts carry no code, not {code!r}")
        if not pattern.fullmatch(code) and not ORM_CODE.fullmatch(code):
            raise CorpusError(f"{case_id}: {code!r} is not a {backend or 'backend-less'} code")

    category = _required(entry, "category")
    if category not in CATEGORIES:
        raise CorpusError(f"{case_id}: unknown category {category!r}")
    retryable = entry["retryable"]
    if not isinstance(retryable, bool):
        raise CorpusError(f"{case_id}: retryable must be true or false, not {retryable!r}")

    kind = _string(entry, "kind", optional=True)
    if kind is not None and kind not in KINDS:
        raise CorpusError(f"{case_id}: unknown kind {kind!r}")
    language = _string(entry, "language", optional=True)
    if language is not None and (not _LANGUAGE.fullmatch(language) or language == "en"):
        raise CorpusError(f"{case_id}: language must be a two-letter code other than en")
    vendor = _string(entry, "vendor", optional=True)
    if vendor is not None and not _VENDOR.fullmatch(vendor):
        raise CorpusError(f"{case_id}: vendor must be a lower-case name, not {vendor!r}")

    return TextCase(
        id=case_id,
        text=text,
        source=_address(entry, "source"),
        family=family,
        backend=backend,
        code=code,
        category=category,
        retryable=retryable,
        doc=_address(entry, "doc"),
        kind=kind,
        language=language or "en",
        vendor=vendor,
        note=_string(entry, "note", optional=True),
    )


def _read(path: Path) -> Iterable[tuple[int, TextCase]]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            raise CorpusError(f"{path.name}:{number}: blank line")
        try:
            entry = json.loads(line)
            yield number, parse_entry(entry, path.stem)
        except json.JSONDecodeError as exc:
            raise CorpusError(f"{path.name}:{number}: not JSON: {exc}") from exc
        except CorpusError as exc:
            raise CorpusError(f"{path.name}:{number}: {exc}") from exc


def load(directory: Path = DIRECTORY) -> list[TextCase]:
    """Read and validate every `*.jsonl` file in *directory*.

    Args:
        directory: Where the files are; this package's own by default.

    Returns:
        Every case, file by file (sorted by name), in file order.

    Raises:
        CorpusError: An entry is malformed, or two entries share an id or a
            text (compared without surrounding whitespace).
    """
    cases: list[TextCase] = []
    ids: dict[str, str] = {}
    texts: dict[str, str] = {}
    for path in sorted(directory.glob("*.jsonl")):
        for number, case in _read(path):
            where = f"{path.name}:{number}"
            if case.id in ids:
                raise CorpusError(f"{where}: id {case.id} already used at {ids[case.id]}")
            key = case.text.strip()
            if key in texts:
                raise CorpusError(f"{where}: {case.id}'s text is already at {texts[key]}")
            ids[case.id] = where
            texts[key] = where
            cases.append(case)
    return cases
