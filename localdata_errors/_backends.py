"""
The one table of the built-in backends: names, aliases, drivers and dialects.

Everything that turns a backend's name into something else reads it here:
``db_type`` normalisation (the registry), the SQL dialect sqlglot parses in
(the history and the SQL tool server), the OpenTelemetry ``db.system.name``,
and the extra that installs a SQLAlchemy driver.  A backend's mapper takes
its ``aliases`` and ``driver_modules`` from here too.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each
# string annotation into a ForwardRef (about 1 ms of the package's import in all).

from types import MappingProxyType
from typing import Final, NamedTuple

__all__ = [
    "BACKENDS",
    "PYTHONS_OWN_MODULES",
    "Backend",
    "extra_for_driver",
    "normalize_db_type",
    "sqlglot_dialect",
]


#: The modules of Python's own exceptions (the network ones among them): a
#: driver's class is never one of these, so such an exception names no backend
#: by its class; the driver is found on its way (its traceback, its cause).
PYTHONS_OWN_MODULES: Final = frozenset({"builtins", "socket", "ssl", "asyncio.exceptions"})


class Backend(NamedTuple):
    """
    One built-in backend.

    Attributes:
        name: The canonical name (``postgresql``).
        display_name: For listings and docs.
        aliases: Other spellings of ``db_type`` (lower case): SQLAlchemy
            dialect names, driver names, common abbreviations.
        driver_modules: Module prefixes of the drivers whose exceptions the
            backend reads (``psycopg``, ``mysql.connector``).
        sqlglot: The sqlglot dialect of its SQL.
        otel: OpenTelemetry's ``db.system.name`` for it.
        extra: The extra that installs its common drivers.
        driver_extras: SQLAlchemy driver name -> the extra that installs that
            driver, where it is not ``extra``.
    """

    name: str
    display_name: str
    aliases: tuple[str, ...]
    driver_modules: tuple[str, ...]
    sqlglot: str
    otel: str
    extra: str | None
    driver_extras: tuple[tuple[str, str], ...] = ()


_TABLE: Final = (
    Backend(
        "sqlite",
        "SQLite",
        ("sqlite3", "aiosqlite", "pysqlite", "sqlcipher"),
        ("sqlite3", "_sqlite3", "aiosqlite", "pysqlite2", "pysqlite3", "sqlcipher3"),
        "sqlite",
        "sqlite",
        None,
        (("aiosqlite", "sqlalchemy"),),
    ),
    Backend(
        "duckdb",
        "DuckDB",
        ("duck", "motherduck", "duckdb_engine"),
        ("duckdb", "_duckdb"),
        "duckdb",
        "duckdb",
        "duckdb",
    ),
    Backend(
        "postgresql",
        "PostgreSQL",
        ("postgres", "pg", "pgsql", "psql", "psycopg", "psycopg2", "asyncpg", "pg8000"),
        ("psycopg", "psycopg2", "psycopg_pool", "asyncpg", "pg8000"),
        "postgres",
        "postgresql",
        "postgresql",
    ),
    Backend(
        "mysql",
        "MySQL / MariaDB",
        (
            "mariadb",
            "mysqldb",
            "mysqlclient",
            "pymysql",
            "aiomysql",
            "asyncmy",
            "mysqlconnector",
            "mysql_connector",
        ),
        (
            "pymysql",
            "aiomysql",
            "asyncmy",
            "MySQLdb",
            "_mysql_exceptions",
            "mysql.connector",
            "_mysql_connector",
            "mariadb",
        ),
        "mysql",
        "mysql",
        "mysql",
        (("mysqldb", "mysqlclient"), ("mariadbconnector", "mariadb")),
    ),
    Backend(
        "oracle",
        "Oracle",
        ("oracledb", "cx_oracle", "ora", "oracle.db"),
        ("oracledb", "cx_Oracle"),
        "oracle",
        "oracle.db",
        "oracle",
    ),
    Backend(
        "mssql",
        "Microsoft SQL Server",
        (
            "sqlserver",
            "sql_server",
            "sql server",
            "microsoft sql server",
            "microsoft.sql_server",
            "tsql",
            "azure_sql",
            "azuresql",
            "pyodbc",
            "pymssql",
            "pytds",
            "aioodbc",
            "mssql_python",
        ),
        ("pyodbc", "aioodbc", "pymssql", "_mssql", "pytds", "mssql_python"),
        "tsql",
        "microsoft.sql_server",
        "mssql",
    ),
)

#: Canonical name -> its row.
BACKENDS: Final[MappingProxyType[str, Backend]] = MappingProxyType({b.name: b for b in _TABLE})

_CANONICAL: Final[dict[str, str]] = {
    **{alias: b.name for b in _TABLE for alias in b.aliases},
    **{b.name: b.name for b in _TABLE},
    "generic": "generic",
    "": "generic",
}


def normalize_db_type(db_type: object) -> str:
    """
    Normalise a backend name: ``"PostgreSQL"``, ``"postgresql+psycopg"`` and
    ``"postgres"`` all become ``"postgresql"``.

    Anything after ``+`` (SQLAlchemy's driver part) or ``:`` (a URL's rest) is
    dropped first.

    Args:
        db_type: Any value; non-strings normalise to ``"generic"``.

    Returns:
        The canonical name of a built-in backend, else the lower-cased name
        (for the registry to resolve against plugins' aliases).
    """
    if not isinstance(db_type, str):
        return "generic"
    name = db_type.strip().lower().split("+", 1)[0].split(":", 1)[0].strip()
    return _CANONICAL.get(name, name)


def sqlglot_dialect(db_type: object) -> str | None:
    """
    The sqlglot dialect of a backend name (``"postgresql+psycopg"`` -> ``"postgres"``).

    Args:
        db_type: A backend name, as ``classify_error`` takes it.

    Returns:
        The dialect, or ``None`` for a backend not built in.
    """
    backend = BACKENDS.get(normalize_db_type(db_type))
    return None if backend is None else backend.sqlglot


def extra_for_driver(backend: str, driver: str | None) -> str | None:
    """
    The extra that installs a SQLAlchemy URL's driver.

    Args:
        backend: The URL's backend (``mysql``).
        driver: The URL's driver part (``mysqldb`` in ``mysql+mysqldb://``),
            or ``None`` for the dialect's default driver.

    Returns:
        The extra's name (``mysqlclient``), or ``None`` when no extra of this
        package installs it.
    """
    row = BACKENDS.get(normalize_db_type(backend))
    if row is None:
        return None
    if driver:
        for name, extra in row.driver_extras:
            if name == driver.lower():
                return extra
    return row.extra
