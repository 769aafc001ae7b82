"""
The built-in backends, one module each.

They are registered in code (`builtin_mappers`), so that every backend is
there however the package is run: installed, from a source tree, a zip or a
frozen application.  Third-party backends register through the
`localdata_errors` entry-point group, into the same registry, with the same
standing.  No backend module imports its driver: detection works on module
names.
"""

from __future__ import annotations

from localdata_errors.mapper import DatabaseErrorMapper

__all__ = ["builtin_mappers"]


def builtin_mappers() -> list[DatabaseErrorMapper]:
    """
    One instance of each built-in backend's mapper.

    Returns:
        The mappers, in the order they are registered.
    """
    from localdata_errors.backends.duckdb import DuckdbMapper  # noqa: PLC0415 - on first use
    from localdata_errors.backends.mssql import MssqlMapper  # noqa: PLC0415
    from localdata_errors.backends.mysql import MySQLMapper  # noqa: PLC0415
    from localdata_errors.backends.oracle import OracleMapper  # noqa: PLC0415
    from localdata_errors.backends.postgresql import PostgreSQLMapper  # noqa: PLC0415
    from localdata_errors.backends.sqlite import SqliteMapper  # noqa: PLC0415

    return [
        SqliteMapper(),
        DuckdbMapper(),
        PostgreSQLMapper(),
        MySQLMapper(),
        OracleMapper(),
        MssqlMapper(),
    ]
