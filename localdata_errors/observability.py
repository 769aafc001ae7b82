"""
Observability: OpenTelemetry attributes and a logging helper for classified errors.

`to_otel_attributes` follows OpenTelemetry's database semantic
conventions (``db.system.name``, ``db.response.status_code``, ``error.type``)
and adds the classification under the ``localdata_errors.`` namespace.
`log_classified_error` logs one line per error with the same
attributes as ``extra`` fields.  Neither imports OpenTelemetry: the
attributes are a plain dict to hand to ``span.set_attributes``.

Nothing here carries credentials: the attributes hold codes and enumerated
values only, and the log line holds the already-redacted message.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Final

from localdata_errors._backends import BACKENDS
from localdata_errors._classify import classify_error
from localdata_errors._redact import redact
from localdata_errors._response import StructuredErrorResponse

__all__ = ["DB_SYSTEM_NAMES", "OtelValue", "log_classified_error", "to_otel_attributes"]

#: An attribute value OpenTelemetry accepts.
OtelValue = str | bool | int | float

#: Backend name -> ``db.system.name``: the well-known values of the
#: conventions (``oracle.db``, ``microsoft.sql_server``, ...).  DuckDB has no
#: well-known value; the conventions allow a custom one, and ``duckdb`` is
#: what the DuckDB community's instrumentations use.
DB_SYSTEM_NAMES: Final[Mapping[str, str]] = {
    **{b.name: b.otel for b in BACKENDS.values()},
    "mariadb": "mariadb",
}

#: What ``db.system.name`` says when no backend recognised the error.
OTHER_SQL: Final = "other_sql"

#: The attribute namespace of the classification.
NAMESPACE: Final = "localdata_errors"


def _system_name(resp: StructuredErrorResponse) -> str:
    backend = resp.backend
    database = resp.database
    if backend == "generic" and database is not None and database in DB_SYSTEM_NAMES:
        # The keyword fallback answered, but the caller named the backend.
        backend = database
    if backend == "mysql" and resp.driver == "mariadb":
        # MariaDB Connector/Python only talks to MariaDB; the conventions tell the two apart.
        return "mariadb"
    return DB_SYSTEM_NAMES.get(backend or "", backend if backend != "generic" else OTHER_SQL)


def to_otel_attributes(resp: StructuredErrorResponse) -> dict[str, OtelValue]:
    """
    Render a classified error as OpenTelemetry span / log attributes.

    Args:
        resp: The classified error.

    Returns:
        ``db.system.name`` (the conventions' well-known value: ``postgresql``,
        ``mysql``, ``mariadb``, ``sqlite``, ``oracle.db``,
        ``microsoft.sql_server``; ``duckdb``; ``other_sql`` when the backend
        is unknown), ``db.response.status_code`` (the most specific native
        code, when there is one), ``error.type`` (the kind: low-cardinality
        and the same across databases), and ``localdata_errors.kind``,
        ``.category``, ``.retryable``, ``.backend``, plus ``.sqlstate`` and
        ``.driver`` when known.  Names of tables or constraints are left out:
        they are high-cardinality and belong in the log message.
    """
    attrs: dict[str, OtelValue] = {
        "db.system.name": _system_name(resp),
        "error.type": resp.kind.value,
        f"{NAMESPACE}.kind": resp.kind.value,
        f"{NAMESPACE}.category": resp.error_type.value,
        f"{NAMESPACE}.retryable": bool(resp.is_retryable),
        f"{NAMESPACE}.backend": resp.backend,
    }
    if resp.database_error_code:
        attrs["db.response.status_code"] = str(resp.database_error_code)
    if resp.sqlstate:
        attrs[f"{NAMESPACE}.sqlstate"] = resp.sqlstate
    if resp.driver:
        attrs[f"{NAMESPACE}.driver"] = resp.driver
    return attrs


def log_classified_error(
    logger: logging.Logger | logging.LoggerAdapter[logging.Logger],
    exc_or_resp: object,
    level: int = logging.WARNING,
    *,
    db_type: str | None = None,
    secrets: Iterable[object] = (),
    **extra: object,
) -> StructuredErrorResponse:
    """
    Classify (if needed) and log one database error, with its attributes as ``extra``.

    The line reads ``database error: <kind> (<code>), retryable=<bool>:
    <message>``; the record carries `to_otel_attributes` as attributes
    (``record.__dict__["db.system.name"]``, ...), which structured
    formatters (JSON, OpenTelemetry's logging handler) export.  The
    traceback is not attached: the driver's raw text may hold the very
    credentials the message had masked.

    Args:
        logger: Where to log.
        exc_or_resp: An exception (classified here) or a response.
        level: The logging level.
        db_type: Passed to `classify_error`.
        secrets: Values to mask (bound parameters, known passwords), in the
            message and in *extra*.
        extra: More fields for the record; string values are redacted.

    Returns:
        The response that was logged.
    """
    secrets = tuple(secrets)
    if isinstance(exc_or_resp, StructuredErrorResponse):
        resp = exc_or_resp
        message = redact(resp.message, secrets) if secrets else resp.message
    else:
        resp = classify_error(exc_or_resp, db_type, secrets=secrets)
        message = resp.message
    fields: dict[str, object] = {
        key: redact(value, secrets) if isinstance(value, str) else value
        for key, value in extra.items()
    }
    fields.update(to_otel_attributes(resp))
    if logger.isEnabledFor(level):
        logger.log(
            level,
            "database error: %s (%s), retryable=%s: %s",
            resp.kind.value,
            resp.database_error_code or "no code",
            resp.is_retryable,
            message,
            extra=fields,
            stacklevel=2,
        )
    return resp
