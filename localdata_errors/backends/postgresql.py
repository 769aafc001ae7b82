"""
PostgreSQL backend: every SQLSTATE, through psycopg 3, psycopg2, asyncpg and pg8000.

Recognises the exceptions of psycopg 3 (and ``psycopg_pool``), psycopg2 and
asyncpg, directly or wrapped by SQLAlchemy.  The SQLSTATE (``sqlstate`` on
psycopg 3 and asyncpg, ``pgcode`` on psycopg2) is the code: it is looked up
in a table generated from PostgreSQL's own ``errcodes.txt``
(`localdata_errors.backends._postgresql_codes`, loaded on first use)
and given the kind decided in `localdata_errors.backends._postgresql_kinds`,
with a lenient fallback by SQLSTATE class for codes newer than the table.
Errors the client library raises without a SQLSTATE (refused or lost
connections, unknown hosts, bad passwords at connect, exhausted pools,
parameter-count mistakes) are recognised by their messages.

The names involved come from the server's diagnostics first (psycopg's
``diag``, asyncpg's attributes: table, column, constraint, schema, detail,
context) and from the message second, including the direction of a foreign
key: the referenced table for a child row, the referencing table for a
parent that cannot be deleted, dropped or truncated.

The work is split by concern: `_postgresql_server` (codes and diagnostics),
`_postgresql_client` (errors without a SQLSTATE: libpq's and the server's
start-up messages, the drivers' own words), `_postgresql_names` (names);
this module holds the mapper and the public functions.
"""

from __future__ import annotations

from collections.abc import Mapping

from localdata_errors._backends import BACKENDS
from localdata_errors._kinds import Kind, RetrySafety
from localdata_errors._mapper import BackendMapper, ErrorInput, MappedError, new_mapped_error
from localdata_errors._names import unique
from localdata_errors.backends._postgresql_client import (
    HANDLE_CLOSED,
    client_kind,
    conninfo_masked,
    fatal_sqlstate,
    libpq_kind,
)
from localdata_errors.backends._postgresql_names import extract_names, text_names
from localdata_errors.backends._postgresql_server import (
    codes,
    condition_name,
    kind_and_refine,
    kind_for_sqlstate,
    lookup,
    read_diagnostics,
    read_sqlstate,
)

__all__ = [
    "PostgreSQLMapper",
    "condition_name",
    "fatal_sqlstate",
    "kind_for_sqlstate",
    "libpq_kind",
    "lookup",
    "read_sqlstate",
]


# -- the mapper ------------------------------------------------------------------


class PostgreSQLMapper(BackendMapper):
    """
    PostgreSQL errors from psycopg 3, psycopg2 and asyncpg (and SQLAlchemy over each).
    """

    name = "postgresql"
    aliases = BACKENDS["postgresql"].aliases
    driver_modules = BACKENDS["postgresql"].driver_modules
    display_name = BACKENDS["postgresql"].display_name

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one PostgreSQL error by its SQLSTATE, then name what it involves.

        Args:
            error: The exception (psycopg, psycopg2, asyncpg; or a pool's or
                SQLAlchemy's when ``db_type`` chose this backend) or a message
                with an explicit ``code``.

        Returns:
            The kind and details.  ``Kind.UNKNOWN`` (keeping the SQLSTATE) when
            no kind fits, so the keyword fallback decides.
        """
        sqlstate = read_sqlstate(error)
        if sqlstate is None and error.message.startswith(HANDLE_CLOSED):
            # A closed connection or cursor used again: the driver refused
            # before anything was sent.
            return new_mapped_error(Kind.CONNECTION_LOST, retry_safety=RetrySafety.SAFE)
        diag = read_diagnostics(error.exception, error.message)
        code = sqlstate
        refine: frozenset[Kind] | None = None
        if sqlstate is not None:
            kind, refine = kind_and_refine(sqlstate, diag.primary)
            if sqlstate.startswith("08"):
                # Class 08 is the clients' own: a driver sets it for any
                # connection that failed or was lost (pdo_pgsql's 08006 before
                # every failed connect's libpq text), so the text says why, as
                # for an error without a SQLSTATE (the server's start-up
                # refusal, libpq's reason); the code stays the one reported.
                said = client_kind(error.message)
                kind = kind if said is Kind.UNKNOWN else said
        else:
            # A start-up FATAL is the server's verdict, whatever the client's
            # text around it says; libpq's own message decides otherwise.
            code = fatal_sqlstate(error.message)
            kind = kind_for_sqlstate(code, error.message) if code else Kind.UNKNOWN
            if kind is Kind.UNKNOWN:
                kind = client_kind(error.message)
            if kind is Kind.CONNECTION_FAILURE and error.exception is not None:
                # pg8000's "Can't create a connection to host ..." names no
                # reason; the OS error it was raised from does.
                from localdata_errors.backends.network import cause_kind  # noqa: PLC0415 - rare

                kind = cause_kind(error.exception) or kind
        # libpq's parser quoting a piece of the connection string (perhaps the
        # password) has it masked before anything reads the message.
        shown = None if sqlstate is not None else conninfo_masked(error.message)
        if shown is not None:
            return new_mapped_error(kind, code=code, message=shown)
        names = extract_names(kind, diag) if kind is not Kind.UNKNOWN or code else text_names(diag)
        resources = names.resources
        dependencies = names.dependencies
        return new_mapped_error(
            kind,
            code=code,
            sqlstate=sqlstate,
            affected_resources=unique(resources) if resources else (),
            dependencies=unique(dependencies) if dependencies else (),
            constraint=names.constraint,
            schema=names.schema,
            refine=refine,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Every SQLSTATE with a kind in the generated table.

        Returns:
            ``{"42P01": Kind.UNDEFINED_TABLE, ...}``; codes of kind unknown
            (warnings, cursor and routine errors, ...) are left out.
        """
        return {code: kind for code, (_, kind) in codes().items() if kind is not Kind.UNKNOWN}
