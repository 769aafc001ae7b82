"""
The modules of the classification path that are compiled with mypyc, when a
C compiler is there at build time.

Each is plain, typed Python first: the pure-Python modules are always
shipped beside the compiled ones, and `LOCALDATA_ERRORS_PURE_PYTHON=1`
makes the package import them instead.  Left out on purpose: the package's
`__init__` (it chooses), the registry (pluggy's markers are attributes set
on functions, which compiled functions cannot carry), `mapper` (its base
classes are subclassed by plugins, which are interpreted), the generated
code tables (data, imported once), and everything beyond classification.

This module imports nothing: the build reads it by path.
"""

MODULES = (
    "localdata_errors/_backends.py",
    "localdata_errors/_lazy.py",
    "localdata_errors/kinds.py",
    "localdata_errors/response.py",
    "localdata_errors/redact.py",
    "localdata_errors/names.py",
    "localdata_errors/detect.py",
    "localdata_errors/classify.py",
    "localdata_errors/backends/generic.py",
    "localdata_errors/backends/network.py",
    "localdata_errors/backends/sqlite.py",
    "localdata_errors/backends/duckdb.py",
    "localdata_errors/backends/postgresql.py",
    "localdata_errors/backends/mysql.py",
    "localdata_errors/backends/oracle.py",
    "localdata_errors/backends/mssql.py",
)

#: The environment variable that makes the package import the pure-Python modules.
PURE_PYTHON_ENV = "LOCALDATA_ERRORS_PURE_PYTHON"
