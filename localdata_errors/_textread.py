"""
The signs an error text carries of its backend and its native code, as data.

Every language's drivers and every client print an error their own way:
go-sql-driver's `Error 1205 (HY000): ...`, pgx's `(SQLSTATE 40001)`, lib/pq's
`pq: ...`, JDBC's `SQLState: 08S01`, .NET's
`Npgsql.PostgresException (0x80004005): 42P01: ...`, Node's
`code: 'ER_NO_SUCH_TABLE'` and `errno: 1146`, PHP PDO's
`SQLSTATE[HY000] [2002]`, Ruby's `PG::UniqueViolation`, sqlcmd's
`Msg 208, Level 16`, Oracle's `ORA-00942`, a Python driver's
`(1040, 'Too many connections')`.  Each of those ways is one row of `SIGNS`:
a named pattern, the backend it belongs to (or none: a SQLSTATE is every
backend's), and what its code group holds.  `read_signs` finds them anywhere in
the text (prefixes, log lines and stack traces around them do not hide them),
in one pass of one compiled alternation, linear in the text.

Where no format names the backend, the text may still name it: a driver
module (every registered mapper's `driver_modules`), a product name (every
registered mapper's name, aliases and display name).  Those signs come from
the registry, so a plugin's backend is found by its own names.

Symbols are codes: MySQL's `ER_*`/`CR_*` names (generated from the servers'
headers) and PostgreSQL's condition and class names (`unique_violation`,
`UniqueViolation`, `PG::UniqueViolation`) are read as the numbers and
SQLSTATEs they stand for (`native_code`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Container
from typing import Final, NamedTuple

from localdata_errors import _prisma_codes, _sqlcmd_labels
from localdata_errors._lazy import LazyPattern, Literals
from localdata_errors._registry import MapperRegistry
from localdata_errors.backends import _sqlclient_texts
from localdata_errors.backends.mssql import sni_providers

__all__ = [
    "SIGNS",
    "Reading",
    "Sign",
    "is_plain",
    "native_code",
    "read_names",
    "read_plain",
    "read_signs",
]


class Sign(NamedTuple):
    """
    One way an error is printed.

    Attributes:
        name: The format's name (`go-sql-driver`, `pgx`, `pdo`).
        family: Who prints it (`go`, `jdbc`, `php`...).
        backend: The backend it belongs to; `None` when any backend prints it.
        code: What its `c` group holds: `errno` (a MySQL number), `sqlstate`,
            `oracle` (`ORA-00942`), `mssql` (a SQL Server message number),
            `sqlite` (a result name), `mysql-symbol`, `pg-class` (a
            PostgreSQL class name), `number` (a native number of a backend the
            rest of the text names), `pdo` (PHP PDO's driver number); `None`
            when it names the backend only.  Its `s` group, where it has one,
            holds a SQLSTATE.
        pattern: The regular expression (groups `c` and `s`, each optional).
        triggers: Literal text every match holds one of: a sign is tried
            only on a text that holds one (found by one pass of a pattern of
            plain literals, which the regex engine scans fast).
        cut: Whether the mapper reads the text from this sign on (what comes
            before it is a log's or a wrapper's prefix).
        shared: Whether another vendor's client prints the same form (DuckDB's
            `IO Error: ` is Oracle's JDBC driver's too): it names its backend
            only where no other sign names one.
    """

    name: str
    family: str
    backend: str | None
    code: str | None
    pattern: str
    triggers: tuple[str, ...]
    cut: bool = False
    shared: bool = False


_STATE: Final = r"(?P<s>[0-9A-Z]{5})"
#: What separates SQL Server's header fields: a comma, a full-width one, an ideographic one.
_HEADER_SEPARATOR: Final = "[" + "".join(_sqlcmd_labels.SEPARATORS) + "]"
#: DuckDB's labels, one per exception class ("Catalog Error: ", "Binder Error: "),
#: but its IOException's (`DUCKDB_SHARED_LABEL`); its shell prints the message
#: on the next line ("Binder Error:\nCannot mix values ...").
DUCKDB_LABELS: Final = (
    r"(?:Catalog|Binder|Parser|Constraint|Conversion|Invalid Input|Out of Range"
    r"|Dependency|Transaction|Permission|Serialization|Not implemented|Sequence"
    r"|Interrupt|Syntax|Type Mismatch|Out of Memory|Internal) Error:(?: |\r?\n)"
)
#: DuckDB's IOException label, which Oracle's JDBC driver prints too (its
#: ORA-17002, "IO Error: The Network Adapter could not establish the connection").
DUCKDB_SHARED_LABEL: Final = r"IO Error: "

#: Each backend's default server port, as its documentation gives it: PostgreSQL
#: (`port`, 5432), MySQL (3306), SQL Server (1433), Oracle Net's listener (1521).
DEFAULT_PORTS: Final = (
    ("postgresql", "5432"),
    ("mysql", "3306"),
    ("mssql", "1433"),
    ("oracle", "1521"),
)


def _opening(pattern: str) -> str:
    """
    The literal text a generated Prisma pattern opens with, up to its first
    value (its trigger): the whole run, so that the sign is tried only on a
    text that holds it (``The table ` `` with its backquote, not `The`).
    """
    first = pattern.split("[^\\n]", 1)[0]
    return " ".join(re.sub(r"\\(.)", r"\1", word) for word in first.split(r"\s+")).strip()


def _sqlclient_format(name: str) -> str:
    """SqlClient's format string *name* as a pattern: `{0}` the number, the others a count."""
    pattern = re.escape(_sqlclient_texts.TEXTS[name][0])
    pattern = pattern.replace(r"\{0\}", r"(?P<c>-?\d{1,6})")
    return re.sub(r"\\\{\d\\\}", r"\\d{1,3}", pattern)


#: SqlClient's names of its network layer's providers, longest first.
_SNI_PROVIDERS: Final = sni_providers()

#: Every format, most specific first (at one position the first that matches wins).
SIGNS: Final[tuple[Sign, ...]] = (
    # -- codes that name their backend --------------------------------------
    Sign(
        "oracle-code",
        "any",
        "oracle",
        "oracle",
        # node-oracledb's own NJS- numbers have three digits.  After a word, or
        # a log's escaped line break (`...sid=dbdev':\\nORA-01017: ...`).  Some
        # more of the prefixes Oracle's error messages are filed under (OCI's,
        # the Export and Import utilities', RMAN's, external tables' KUP-, PL/SQL
        # warnings' PLW-), always written with five digits; a person retyping
        # one writes it in lower case too (`ora-00942`).
        r"(?:\b|(?<=\\n))(?P<c>(?:ORA|PLS|TNS|SP2|DPY|DPI)-\d{4,5}|NJS-\d{3}"
        r"|(?:OCI|EXP|IMP|RMAN|KUP|PLW|ora|pls|tns)-\d{5})\b",
        (
            "ORA-",
            "ora-",
            "pls-",
            "tns-",
            "PLS-",
            "TNS-",
            "SP2-",
            "DPY-",
            "DPI-",
            "NJS-",
            "OCI-",
            "EXP-",
            "IMP-",
            "RMAN-",
            "KUP-",
            "PLW-",
        ),
        cut=True,
    ),
    Sign(
        "node-oracledb",
        "node",
        "oracle",
        "oracle-number",
        # node-oracledb's Error object: the Oracle error's number, its offset.
        r"\berrorNum[\"']?:[ \t]{0,2}(?P<c>[1-9]\d{0,4})\b",
        ("errorNum",),
    ),
    Sign(
        "oracle-net",
        "any",
        "oracle",
        None,
        # Oracle Net's connection id, which python-oracledb's and node-oracledb's
        # thin modes and Oracle's JDBC driver put after a connection's error.
        r"\(CONNECTION_ID=[\w+/|=-]{8,64}\)",
        ("(CONNECTION_ID=",),
    ),
    Sign(
        "mysql-client",
        "mysql-cli",
        "mysql",
        "errno",
        r"(?<![A-Za-z])(?:ERROR|Error) (?P<c>[1-9]\d{3,4})(?: \(" + _STATE + r"\))?"
        r"(?: at line \d{1,9})?(?: in file: '[^'\n]{0,256}')?: ",
        ("ERROR ", "Error "),
        cut=True,
    ),
    Sign(
        "mysql-errno-state",
        "any",
        "mysql",
        "errno",
        r"(?<![\w(])(?P<c>[1-4]\d{3}) \(" + _STATE + r"\): ",
        ("): ",),
        cut=True,
    ),
    Sign(
        "phpmyadmin",
        "gui",
        "mysql",
        "errno",
        # A line that opens with the number after a hash, then a dash.
        r"^[ \t]{0,4}#(?P<c>[1-9]\d{3,4}) - (?=\S)",
        tuple(f"#{digit}" for digit in "123456789"),
        cut=True,
    ),
    Sign(
        "workbench",
        "gui",
        "mysql",
        "errno",
        r"\bError Code: (?P<c>[1-9]\d{3,4})[.:] ",
        ("Error Code: ",),
    ),
    Sign(
        "snowflake",
        "any",
        "snowflake",
        None,
        r"(?<![\w(])\d{6} \([0-9A-Z]{5}\): ",
        ("): ",),
        cut=True,
    ),
    Sign(
        "clickhouse",
        "any",
        "clickhouse",
        None,
        r"\bCode: \d{1,4}[.,] (?:e\.displayText\(\) = )?DB::",
        ("Code: ",),
        cut=True,
    ),
    Sign("clickhouse-exception", "any", "clickhouse", None, r"\bDB::Exception\b", ("DB::",)),
    Sign(
        "sqlcmd",
        "sqlcmd",
        "mssql",
        "mssql",
        # `Msg 208, Level 16, State 1`, in any language go-sqlcmd's catalogues
        # translate it to (`Meldung 207, Ebene 16, Status 1`): the number, then
        # the level's and the state's labels (the first word is SSMS's own).
        r"(?<![\w.])(?P<c>\d{1,6})"
        + _HEADER_SEPARATOR
        + r"[ \t]?(?i:"
        + "|".join(map(re.escape, _sqlcmd_labels.LEVELS))
        + r")[ \t]?\d{1,2}"
        + _HEADER_SEPARATOR
        + r"[ \t]?(?i:"
        + "|".join(map(re.escape, _sqlcmd_labels.STATES))
        + r")[ \t]?\d{1,3}(?!\d)",
        tuple(
            dict.fromkeys(
                form
                for level in _sqlcmd_labels.LEVELS
                for form in (level, level.lower(), level.capitalize())
            )
        ),
    ),
    Sign(
        "sqlclient-number",
        "dotnet",
        "mssql",
        "mssql",
        # SqlException.ToString()'s line, in SqlClient's own words
        # (`SQL_ExErrorNumberStateClass`: `Error Number:208,State:1,Class:16`).
        r"\b" + _sqlclient_format("SQL_ExErrorNumberStateClass"),
        (_sqlclient_texts.TEXTS["SQL_ExErrorNumberStateClass"][0].partition("{")[0],),
    ),
    Sign(
        "pyodbc-number",
        "python-driver",
        "mssql",
        "mssql",
        r"\((?P<c>\d{1,6})\) \(SQL[A-Z][A-Za-z]{2,24}\)",
        (") (SQL",),
    ),
    Sign(
        "mssql-errorlog",
        "log",
        "mssql",
        "mssql",
        r"\bError: (?P<c>\d{1,6}), Severity: \d{1,2}, State: \d{1,3}\b",
        ("Error: ",),
    ),
    Sign(
        "sqlagent",
        "log",
        "mssql",
        "mssql",
        r"\[SQLSTATE " + _STATE + r"\] \(Error (?P<c>\d{1,6})\)",
        ("[SQLSTATE ",),
    ),
    Sign(
        "ssms",
        "gui",
        "mssql",
        "mssql",
        # `(Microsoft SQL Server, Error: 18456)`; in another language the word
        # is translated (`Fehler`, `ошибка`, `エラー` after an ideographic comma).
        r"\(Microsoft SQL Server"
        + _HEADER_SEPARATOR
        + r"[ \t]?[^\W\d_]{1,24}[ \t]?[:\uff1a][ \t]?(?P<c>-?\d{1,6})\)",
        ("(Microsoft SQL Server",),
    ),
    Sign(
        "tiberius",
        "rust",
        "mssql",
        "mssql",
        # tiberius's TokenError: `'...' on server S executing P on line 1 (code:
        # 102, state: 1, class: 15)`: the server's number, state and severity.
        r"\bon line \d{1,9} \(code: (?P<c>\d{1,6}), state: \d{1,3}, class: \d{1,2}\)",
        ("(code: ",),
    ),
    Sign(
        "pymssql-message",
        "python-driver",
        "mssql",
        "mssql",
        r"\bSQL Server message (?P<c>\d{1,6}), severity \d{1,2}, state \d{1,3}\b",
        ("SQL Server message ",),
    ),
    Sign("odbc-sqlserver", "any", "mssql", None, r"SQL Server\]", ("SQL Server]",)),
    Sign("dblib", "python-driver", "mssql", None, r"\bDB-Lib error message \d", ("DB-Lib",)),
    # PHP's pdo_dblib: `<text> [<number>] (severity <n>) [<statement>]`, the
    # number the one DB-Library's handlers last gave (20003; SYBESMSG's 20018
    # beside the server's text; a server message's, 208, in older releases).
    Sign(
        "pdo-dblib",
        "php",
        "mssql",
        "number",
        r"\[(?P<c>\d{1,6})\] \(severity \d{1,3}\) \[",
        ("] (severity ",),
    ),
    Sign(
        "sqlclient",
        "dotnet",
        "mssql",
        None,
        r"\b(?:Microsoft\.Data\.SqlClient|System\.Data\.SqlClient)|(?<![\w.])SqlException\b",
        ("SqlClient", "SqlException"),
    ),
    Sign(
        "sqlclient-sni",
        "dotnet",
        "mssql",
        None,
        # SqlClient's network-layer error: "... (provider: TCP Provider, error: 0 - text)".
        r"\(provider: [A-Z][A-Za-z ]{1,40}, error: \d{1,5} - ",
        ("(provider: ",),
    ),
    Sign(
        "sni-provider",
        "any",
        "mssql",
        None,
        # The ODBC and OLE DB drivers' network layer: `TCP Provider: Error code
        # 0x2746`, `SSL Provider: The certificate chain ...`: the providers'
        # names as SqlClient's own resources write them (`SNI_PN<N>`).  Other
        # programs may name a provider so: only where no other sign names one.
        r"(?<![\w-])(?:" + "|".join(map(re.escape, _SNI_PROVIDERS)) + r"): ",
        tuple(f"{name}: " for name in _SNI_PROVIDERS),
        shared=True,
    ),
    Sign(
        "tedious",
        "node",
        "mssql",
        None,
        r"\b(?:tedious|TinyTds::|mssql: )",
        ("tedious", "TinyTds", "mssql: "),
    ),
    Sign(
        "tedious-connect",
        "node",
        "mssql",
        None,
        r"\bFailed to connect to [^\s:]{1,253}:(?:\d{1,5}|undefined) (?:- |in \d{1,9}ms)"
        r"|\bconnection to [^\s:]{1,253}:\d{1,5} - failed\b",
        ("Failed to connect to ", "connection to "),
    ),
    Sign(
        "jdbc-mssql",
        "jdbc",
        "mssql",
        None,
        r"\b(?:com\.microsoft\.sqlserver|SQLServerException)\b",
        ("com.microsoft.sqlserver", "SQLServerException"),
    ),
    Sign(
        "npgsql",
        "dotnet",
        "postgresql",
        "sqlstate",
        r"\b(?:Npgsql\.)?PostgresException(?: \(0x[0-9A-Fa-f]{8}\))? ?: (?P<c>[0-9A-Z]{5}): ",
        ("PostgresException",),
    ),
    Sign(
        "npgsql-name",
        "dotnet",
        "postgresql",
        None,
        r"\b(?:Npgsql|PostgresException)\b",
        ("Npgsql", "PostgresException"),
    ),
    Sign(
        "pgx", "go", "postgresql", "sqlstate", r"\(SQLSTATE (?P<c>[0-9A-Z]{5})\)", ("(SQLSTATE ",)
    ),
    Sign("go-pg", "go", "postgresql", "sqlstate", r"\bERROR #(?P<c>[0-9A-Z]{5}) ", ("ERROR #",)),
    Sign(
        "tokio-postgres",
        "rust",
        "postgresql",
        "sqlstate",
        r"\bSqlState\(E(?P<c>[0-9A-Z]{5})\)",
        ("SqlState(E",),
    ),
    Sign(
        "datagrip-pg",
        "gui",
        "postgresql",
        "sqlstate",
        r"\[(?P<c>[0-9A-Z]{5})\] (?:ERROR|FATAL|PANIC):",
        ("] ERROR:", "] FATAL:", "] PANIC:"),
    ),
    Sign(
        "psql-verbose",
        "psql",
        "postgresql",
        "sqlstate",
        r"\b(?:ERROR|FATAL|PANIC): {1,2}(?P<c>[0-9A-Z]{5}): ",
        ("ERROR: ", "FATAL: ", "PANIC: "),
    ),
    Sign(
        "psql-state",
        "psql",
        "postgresql",
        "sqlstate",
        r"^SQLSTATE: (?P<c>[0-9A-Z]{5})\b",
        ("SQLSTATE: ",),
    ),
    Sign(
        "pgadmin",
        "pgadmin",
        "postgresql",
        "sqlstate",
        r"\bSQL state: (?P<c>[0-9A-Z]{5})\b",
        ("SQL state: ",),
    ),
    Sign(
        "dbeaver-pg",
        "dbeaver",
        "postgresql",
        "sqlstate",
        r"\bSQL Error \[(?P<c>[0-9A-Z]{5})\]: (?:ERROR|FATAL): ",
        ("SQL Error [",),
    ),
    Sign(
        "dbeaver",
        "dbeaver",
        None,
        "number",
        r"\bSQL Error \[(?P<c>-?\d{1,6})\] \[" + _STATE + r"\]",
        ("SQL Error [",),
    ),
    Sign(
        "libpq-level",
        "psql",
        "postgresql",
        None,
        r"\b(?:ERROR|FATAL|PANIC):  (?=\S)",
        ("ERROR:  ", "FATAL:  ", "PANIC:  "),
    ),
    Sign(
        "libpq-detail",
        "psql",
        "postgresql",
        None,
        r"^(?:DETAIL|HINT|CONTEXT|LINE \d{1,6}): ",
        ("DETAIL: ", "HINT: ", "CONTEXT: ", "LINE "),
    ),
    Sign("lib-pq", "go", "postgresql", None, r"(?<![\w.])pq: ", ("pq: ",)),
    Sign(
        "ruby-pg",
        "ruby",
        "postgresql",
        "pg-class",
        r"\bPG::(?P<c>[A-Z][A-Za-z]{2,64})\b",
        ("PG::",),
    ),
    Sign(
        "python-pg-class",
        "python-driver",
        "postgresql",
        "pg-class",
        r"\b(?:psycopg2?|asyncpg)\.(?:errors|exceptions)\.(?P<c>[A-Z][A-Za-z]{2,64})\b",
        ("psycopg", "asyncpg."),
    ),
    Sign(
        "jdbc-pg",
        "jdbc",
        "postgresql",
        None,
        r"\b(?:org\.postgresql\.|PSQLException\b)",
        ("org.postgresql.", "PSQLException"),
    ),
    Sign("ruby-mysql", "ruby", "mysql", None, r"\bMysql2?::", ("Mysql",)),
    Sign(
        "mariadb-node",
        "node",
        "mysql",
        "errno",
        # MariaDB Connector/Node's SqlError: `(conn:719, no: 1045, SQLState: 28000) ...`.
        r"\(conn:-?\d{1,10}, no: (?P<c>[1-9]\d{3,4}), SQLState: " + _STATE + r"\) ",
        ("(conn:",),
    ),
    Sign(
        "vitess",
        "go",
        "mysql",
        "errno",
        r"\(errno (?P<c>[1-9]\d{3,4})\) \(sqlstate " + _STATE + r"\)",
        ("(errno ",),
    ),
    Sign(
        "dotnet-mysql",
        "dotnet",
        "mysql",
        None,
        r"\b(?:MySqlConnector|MySql\.Data|MySqlException)\b",
        ("MySql",),
    ),
    Sign(
        "jdbc-mysql",
        "jdbc",
        "mysql",
        None,
        r"\b(?:com\.mysql\.|org\.mariadb\.jdbc|MySQL\w{0,40}Exception\b)",
        ("com.mysql.", "org.mariadb.jdbc", "MySQL"),
    ),
    Sign(
        "mysql-symbol",
        "node",
        "mysql",
        "mysql-symbol",
        r"\b(?P<c>(?:ER|CR)_[A-Z0-9_]{2,64})\b",
        ("ER_", "CR_"),
    ),
    Sign(
        "sqlite-result", "any", "sqlite", "sqlite", r"\b(?P<c>SQLITE_[A-Z_]{2,40})\b", ("SQLITE_",)
    ),
    Sign("ruby-sqlite", "ruby", "sqlite", None, r"\bSQLite3::", ("SQLite3::",)),
    Sign(
        "sqlite-shell",
        "sqlite-cli",
        "sqlite",
        None,
        # The sqlite3 shell reading a file or a pipe: `Parse error near line
        # 4: ...`, `Runtime error near line 56: ...` (3.38 on), `Error: near
        # line 3: ...` (before); DuckDB's shell, its fork, puts its label next.
        r"\b(?:(?:Parse|Runtime) error|Error:) near line \d{1,9}: (?!" + DUCKDB_LABELS + r")",
        ("error near line ", "Error: near line "),
        cut=True,
    ),
    Sign(
        "sqlite-number",
        "go",
        None,
        "sqlite-number",
        r"(?<=[\w)\]]) ?\((?P<c>[1-9]\d{0,4})\)(?=\s|$)",
        tuple(f"{digit})" for digit in "0123456789"),
    ),
    Sign(
        "oracle-class",
        "any",
        "oracle",
        None,
        r"\b(?:Oracle\.ManagedDataAccess|OracleException|OCIError|oracle\.jdbc\.)",
        ("Oracle.ManagedDataAccess", "OracleException", "OCIError", "oracle.jdbc."),
    ),
    Sign(
        "duckdb-class",
        "any",
        "duckdb",
        None,
        r"\b(?:DuckDBException|duckdb::)",
        ("DuckDBException", "duckdb::"),
    ),
    Sign(
        "duckdb-label",
        "any",
        "duckdb",
        None,
        r"\b" + DUCKDB_LABELS,
        (" Error: ", " Error:\n", " Error:\r\n"),
        cut=True,
    ),
    Sign(
        "duckdb-io-label",
        "any",
        "duckdb",
        None,
        r"\b" + DUCKDB_SHARED_LABEL,
        (DUCKDB_SHARED_LABEL,),
        cut=True,
        shared=True,
    ),
    Sign(
        "jdbc-sqlite",
        "jdbc",
        "sqlite",
        None,
        r"\b(?:org\.sqlite\.|SQLiteException\b)",
        ("org.sqlite.", "SQLiteException"),
    ),
    # -- Node's socket errors to a vendor's default port (its documented one) --
    *(
        Sign(
            f"node-net-{backend}",
            "node",
            backend,
            None,
            r"\bconnect (?:ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH) [\w.:\[\]-]{1,253}:" + port + r"\b",
            ("connect E",),
        )
        for backend, port in DEFAULT_PORTS
    ),
    # -- Prisma's messages to a vendor's default port (`{database_host}:{database_port}`,
    # or older `` `localhost`:`5432` ``): Prisma's words name no backend, its port does.
    *(
        Sign(
            f"prisma-port-{backend}",
            "node",
            backend,
            None,
            r"\bserver at `[\w.\[\]:-]{1,253}?(?:`:`|:)" + port + r"`",
            ("server at `",),
        )
        for backend, port in DEFAULT_PORTS
    ),
    # -- Prisma's own messages, printed without their code: its code ----------
    Sign(
        "prisma-message",
        "node",
        None,
        "prisma",
        "|".join(
            f"(?P<{code}>{'|'.join(patterns)})" for code, patterns in _prisma_codes.PATTERNS.items()
        ),
        tuple(sorted({_opening(one) for all in _prisma_codes.PATTERNS.values() for one in all})),
    ),
    # -- codes any backend prints -------------------------------------------
    Sign(
        "pdo",
        "php",
        None,
        "pdo",
        # After a word, or a JSON log's escaped line break (`\\nSQLSTATE[`).
        r"(?:\b|(?<=\\n))SQLSTATE\[" + _STATE + r"\](?:(?::[^:\n\[]{1,64}:)? \[?(?P<c>\d{1,6})\b)?",
        ("SQLSTATE[",),
        cut=True,
    ),
    Sign(
        "pear-db",
        "php",
        None,
        "number",
        r"\[nativecode=(?P<c>-?\d{1,6}) \*\* ",
        ("[nativecode=",),
    ),
    Sign(
        "hibernate",
        "jdbc",
        None,
        "number",
        r"\bSQL Error: (?P<c>-?\d{1,6}), SQLState: " + _STATE,
        ("SQL Error: ",),
    ),
    Sign(
        "datagrip",
        "gui",
        None,
        "number",
        r"\[" + _STATE + r"\]\[(?P<c>-?\d{1,6})\] ",
        ("][",),
    ),
    Sign(
        "paren-number",
        "any",
        None,
        "number",
        # HeidiSQL's `SQL Error (1064): `, mysqli's `Connect Error (2002) `,
        # Adminer's `Error in query (1215): `.
        r"\b(?:(?:SQL|Connect|[Qq]uery) Error|Error in query) \((?P<c>\d{1,6})\):? ",
        ("SQL Error (", "Connect Error (", "uery Error (", "Error in query ("),
    ),
    Sign(
        "python-tuple",
        "python-driver",
        None,
        "number",
        r"\((?P<c>[1-9]\d{3,4}), u?[\"']",
        tuple(f"({digit}" for digit in "123456789"),
    ),
    Sign(
        "error-number",
        "any",
        None,
        "number",
        r"\b(?:[Ee]rror ?[Cc]ode|ErrorCode|errno|[Ee]rror [Nn]umber|[Nn]umber|"
        r"Message Code|native ?[Ee]rror)[\"']?(?:[ \t]{0,4}[:=]|\s?\|)\s{0,2}[\"']?"
        r"(?:" + _STATE + r"/)?(?P<c>-?\d{1,6})\b",
        ("rror", "rrno", "umber", "Code", "ative"),
    ),
    Sign(
        "sqlstate",
        "any",
        None,
        "sqlstate",
        r"\b(?:SQL ?[Ss]tate|sqlstate|SQLSTATE)(?: is)?[\"']?(?:[ \t]{0,4}[:=] ?| )[\"']?"
        r"(?P<c>[0-9A-Z]{5})\b",
        ("SQLState", "SQL state", "SQLSTATE", "sqlstate", "SqlState", "SQL State"),
    ),
    Sign(
        "labelled-state",
        "any",
        None,
        "listed-state",
        r"\b(?:[A-Za-z_]{0,24}(?:[Ss]tate|STATE|[Cc]ode|CODE)|[A-Za-z]{0,24}Error)[\"']?"
        r"(?: ?[:=] ?| |\(|\[)\\?[\"'(\[]?(?P<c>[0-9A-Z]{5})(?![\w-])",
        ("tate", "TATE", "ode", "ODE", "Error"),
    ),
    Sign(
        "state-message",
        "any",
        None,
        "listed-state",
        r"(?:^|(?<=[:=>\]]))[ \t]{0,2}(?P<c>[0-9A-Z]{5}): (?=\S)",
        tuple(f"{end}: " for end in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ),
    Sign(
        "odbc-state",
        "any",
        None,
        "sqlstate",
        r"\('(?P<c>[0-9A-Z]{5})', [\"']\[[0-9A-Z]{5}\]",
        ("('",),
    ),
)

#: Each sign's pattern, compiled on first use.
_PATTERNS: Final = tuple(LazyPattern(sign.pattern, re.MULTILINE) for sign in SIGNS)
#: Every trigger, found in one pass: the signs it opens.
_TRIGGERS: Final = Literals(
    (trigger, n) for n, sign in enumerate(SIGNS) for trigger in sign.triggers
)


#: The characters every sign holds one of (a digit, a colon, an underscore, a
#: bracket, a parenthesis, a hash, a dot).
_MARKS: Final = frozenset(":[(#_.0123456789")
#: A text of words and spaces only: no mark, no punctuation (one character
#: class, which the engine scans fast; such a text has no format's sign).
_PLAIN: Final = LazyPattern(r"[:\[(#_.0-9'\",;!?/\\-]")


class Reading(NamedTuple):
    """
    What the signs of a text say.

    Attributes:
        backend: The backend they name, or `None`.
        code: The native code, in the form the backend's mapper reads.
        sqlstate: A SQLSTATE the text carries, or `None`.
        start: Where the mapper's text begins (after a prefix), else 0.
        sign: The name of the format that named the backend or the code.
    """

    backend: str | None
    code: str | None
    sqlstate: str | None
    start: int
    sign: str | None


_NOTHING: Final = Reading(None, None, None, 0, None)

# What one match says: (backend or None, code kind, code, sqlstate, start, sign index).
_Found = tuple[str | None, str | None, str | None, str | None, int, int]


def _mysql_symbol(symbol: str) -> int | None:
    from localdata_errors.backends import _mysql_symbols  # noqa: PLC0415 - on first use

    return _mysql_symbols.SYMBOLS.get(symbol)


_BY_NAME: dict[str, str] = {}
#: The SQLSTATE classes of no error: successful completion, warning, no data.
_NOT_RAISED: Final = frozenset({"00", "01", "02"})


def pg_sqlstate(name: str) -> str | None:
    """
    The SQLSTATE of a PostgreSQL condition name or class name.

    `unique_violation`, `UniqueViolation` (psycopg, Ruby's `PG::`) and
    `UniqueViolationError` (asyncpg) are `23505`: the drivers name their
    classes after errcodes.txt's condition names.  A name both a warning's
    and an error's condition have (`string_data_right_truncation`: 01004 and
    22001) is the error's: what a driver raises is an error (asyncpg's warning
    classes are never raised).
    """
    if not _BY_NAME:
        from localdata_errors.backends import _postgresql_codes  # noqa: PLC0415 - on first use

        # Errors first: classes 00, 01 and 02 (completion, warning, no data) raise nothing.
        conditions = sorted(
            _postgresql_codes.CONDITIONS.items(), key=lambda item: item[0][:2] in _NOT_RAISED
        )
        for sqlstate, condition in conditions:
            camel = "".join(part.capitalize() for part in condition.split("_"))
            for key in (condition, camel, camel + "Error"):
                _BY_NAME.setdefault(key, sqlstate)
    return _BY_NAME.get(name)


def _pdo(number: str | None, state: str | None) -> tuple[str | None, str | None, str | None]:
    """(backend, code kind, code) of PHP PDO's `SQLSTATE[...] [n]`."""
    if number is None:
        # `SQLSTATE[HYT00]: [unixODBC][Microsoft]...`: the SQLSTATE alone.
        return None, None if state is None else "sqlstate", state
    value = int(number)
    if value >= 1000:
        # The driver's own number: pdo_mysql's errno (MySQL's list holds it,
        # `_by_code`), pdo_oci's ORA number, pdo_dblib's DB-Library number.
        # The rest of the text names the backend.
        return None, "number", number
    if value == 7:
        # pdo_pgsql: libpq's PGRES_FATAL_ERROR; the SQLSTATE is PostgreSQL's.
        return "postgresql", "sqlstate", state
    if state == "HY000":
        # pdo_sqlite's "General error: 5 ...": SQLite's result code.
        return "sqlite", "sqlite-number", number
    return None, None, None


def _found(n: int, match: re.Match[str]) -> _Found | None:
    sign = SIGNS[n]
    groups = match.groupdict()
    code, state = groups.get("c"), groups.get("s")
    backend, kind = sign.backend, sign.code
    if kind == "mysql-symbol":
        number = _mysql_symbol(code or "")
        if number is None:
            return None
        kind, code = "errno", str(number)
    elif kind == "pg-class":
        kind, code = "sqlstate", pg_sqlstate(code or "")
    elif kind == "oracle-number":
        kind, code = "oracle", f"ORA-{int(code or 0):05d}"
    elif kind == "pdo":
        backend, kind, code = _pdo(code, state)
    elif kind == "prisma":
        # Prisma's own message: the code whose template it is (an ORM's own).
        return None, "orm", match.lastgroup, None, match.start(), n
    elif kind == "listed-state":
        # A SQLSTATE by any label (`code: '42P01'`, `ServerError "40001"`):
        # only one errcodes.txt lists, so that a number or a word is not one.
        if code is None:
            return None
        if not _listed(code):
            if sign.name == "labelled-state" and _PRISMA.fullmatch(code):
                # A code label holding Prisma's form (`code: 'P2002'`): an
                # ORM's own code, no backend's.
                return None, "orm", code, None, match.start(), n
            return None
        kind = "sqlstate"
        state = code
    elif kind == "sqlstate":
        state = code
    if state is not None and state.isalpha():
        # Five capitals and no digit are a word (`ERROR: ERROR:  ...`), not a
        # SQLSTATE: every code the standard, ODBC and PostgreSQL define holds one.
        if kind == "sqlstate":
            return None
        state = None
    return backend, kind, code, state, match.start(), n


def _listed(state: str) -> bool:
    """Whether PostgreSQL's errcodes.txt lists the SQLSTATE."""
    from localdata_errors.backends import _postgresql_codes  # noqa: PLC0415 - on first use

    return state in _postgresql_codes.CONDITIONS


def _postgresql_own(state: str) -> bool:
    """
    Whether a SQLSTATE is PostgreSQL's own: errcodes.txt lists it, with a
    subclass of its own (not a class's `000`), and ODBC's list does not.
    """
    if state[2:].find("P") >= 0:
        return True  # the P subclasses are PostgreSQL's own
    if state.endswith("000") or not _listed(state):
        return False
    from localdata_errors.backends import _odbc_sqlstates  # noqa: PLC0415 - on first use

    return state not in _odbc_sqlstates.TEXTS


def _by_own_state(found: list[_Found], registry: MapperRegistry) -> str | None:
    """PostgreSQL, when a SQLSTATE found is its own and its mapper is registered."""
    for one in found:
        if one[3] is not None and _postgresql_own(one[3]) and registry.lookup("postgresql"):
            return "postgresql"
    return None


#: The code kinds each built-in backend's mapper reads, most native first
#: (SQLite's mapper reads a result code's number, `(2067)`, as its name).
_ACCEPTS: Final[dict[str, tuple[str, ...]]] = {
    "postgresql": ("sqlstate",),
    "mysql": ("errno", "number", "sqlstate"),
    "mssql": ("mssql", "number", "sqlstate"),
    "oracle": ("oracle",),
    "sqlite": ("sqlite", "sqlite-number"),
}
#: Prisma's codes: P1xxx common, P2xxx query engine, P3xxx migrate, P4xxx
#: introspection, P5xxx/P6xxx its proxies (Prisma's error reference).
_PRISMA: Final = re.compile(r"P[1-6][0-9]{3}")
#: How much of a text is read for signs.
_LIMIT: Final = 16 * 1024
_MOST: Final = 64


class _PackSign(NamedTuple):
    """A mapper's own sign (`TextSign`), compiled: the backend it names."""

    backend: str
    pattern: re.Pattern[str]
    known: Container[str] | None
    #: Its literals: the pattern is tried only on a text that holds one.
    triggers: tuple[str, ...]


class _NameTable(NamedTuple):
    """The registry's module and product names, as the text's words find them."""

    #: The names' first words and the vendors' phrases' rarest words: one gate for both.
    gate: frozenset[bytes]
    #: First word -> (the name's words, its backend), longest first.
    starts: dict[bytes, tuple[tuple[tuple[bytes, ...], str], ...]]
    #: The mappers' own signs (`BackendMapper.text_signs`), and their triggers
    #: as one alternation of literals (`None`: no mapper declares one).
    signs: tuple[_PackSign, ...] = ()
    triggers: re.Pattern[str] | None = None


def _pack_signs(registry: MapperRegistry) -> tuple[tuple[_PackSign, ...], re.Pattern[str] | None]:
    """
    Every registered mapper's `text_signs`, compiled, naming its backend
    (a refiner's, the backend it refines: that mapper reads the text, and the
    refiner's claims name itself).
    """
    signs: list[_PackSign] = []
    triggers: set[str] = set()
    for info in registry.list_mappers():
        declared: object = getattr(info.mapper, "text_signs", ())
        if not isinstance(declared, tuple | list):
            continue
        refines = getattr(info.mapper, "refines", None)
        owner = str(refines[0]) if isinstance(refines, tuple | list) and refines else info.name
        for sign in declared:
            pattern = getattr(sign, "pattern", None)
            said = getattr(sign, "triggers", None)
            if not isinstance(pattern, str) or not isinstance(said, tuple | list):
                continue
            literals = [t for t in said if isinstance(t, str) and t]
            try:
                compiled = re.compile(pattern, re.MULTILINE)
            except re.error:
                continue  # the registry's check reports it; a bad sign names nothing
            if literals:
                signs.append(
                    _PackSign(owner, compiled, getattr(sign, "known", None), tuple(literals))
                )
                triggers.update(literals)
    if not signs:
        return (), None
    alternation = "|".join(re.escape(t) for t in sorted(triggers, key=len, reverse=True))
    return tuple(signs), re.compile(alternation)


def _by_pack_sign(head: str, table: _NameTable) -> tuple[int, str] | None:
    """`(start, backend)` of the first mapper's own sign in the text, else `None`."""
    if table.triggers is None or table.triggers.search(head) is None:
        return None
    best: tuple[int, str] | None = None
    for sign in table.signs:
        # Only the signs whose own literal is there (a substring test, in C):
        # a common literal of one pack ("[") costs the others nothing.
        for literal in sign.triggers:
            if literal in head:
                break
        else:
            continue
        for count, match in enumerate(sign.pattern.finditer(head)):
            if best is not None and match.start() >= best[0]:
                break
            code = match.groupdict().get("c")
            if sign.known is None or (code is not None and code in sign.known):
                best = (match.start(), sign.backend)
                break
            if count >= _MOST:
                break
    return best


def _names(registry: MapperRegistry) -> _NameTable:
    """Backends' module and product names, as words, -> backend; refiners' markers -> base."""
    starts: dict[bytes, list[tuple[tuple[bytes, ...], str]]] = {}
    for info in registry.list_mappers():
        display = getattr(info.mapper, "display_name", None)
        names = [info.name, *info.aliases, *info.driver_modules]
        if isinstance(display, str):
            for segment in display.split(" / "):
                part = segment.partition("(")[0].strip()
                names.append(part)
                if " " in part:
                    names.append(part.partition(" ")[2])
        owned = [(name, info.name) for name in names]
        # A refiner's markers (its own wordings: "Tenant or user not found")
        # name the backend it refines: that mapper reads the text, and the
        # refiner, asked for its markers, names itself.
        refines = getattr(info.mapper, "refines", None)
        claims = getattr(info.mapper, "claims", None)
        markers = getattr(claims, "markers", ())
        if isinstance(refines, tuple | list) and refines and isinstance(markers, tuple | list):
            # Only a marker that says something alone: three words or more,
            # as a vendor's phrase (`tools/generate_vendor_wordings.py`), or one
            # long name (an error class, `TransactionRetryWithProtoRefreshError`):
            # "quota" alone names no product, nor "not allowed" or "is disabled",
            # which every vendor's messages say.  A letter alone is no word of
            # it: PgBouncer's `S: login failed` is two words, which a
            # PowerShell error's `argument(s): "Login failed for user ...` holds.
            owned += [
                (m, str(refines[0]))
                for m in markers
                if isinstance(m, str)
                and (
                    sum(len(word) > 1 for word in _words(m.lower())) > 2
                    or (" " not in m.strip() and len(m) >= 16)
                )
            ]
        for name, owner in owned:
            lowered = name.lower().strip()
            if len(lowered) < 4 or lowered == "generic":
                continue
            words = tuple(_words(lowered))
            if not words:
                continue
            entries = starts.setdefault(words[0], [])
            if all(known != words for known, _ in entries):
                entries.append((words, owner))
    return _NameTable(
        frozenset(starts) | _wording_index()[0],
        {
            first: tuple(sorted(entries, key=lambda e: -len(e[0])))
            for first, entries in starts.items()
        },
        *_pack_signs(registry),
    )


#: Every byte but a lower-case letter and a digit -> a space.
_SPACES: Final = bytes(
    c if chr(c).isascii() and (chr(c).islower() or chr(c).isdigit()) else 32 for c in range(256)
)
#: The marks, as bytes.
_MARK_BYTES: Final = "".join(sorted(_MARKS)).encode()


def _words(lowered: str) -> list[bytes]:
    """
    A lowered text's words: its runs of ASCII letters and digits.

    Any other character parts them, a non-ASCII one too: HeidiSQL's
    Chinese label, its number between full-width parentheses and a
    full-width colon before MySQL's `No database selected`, holds the words
    `1046`, `no`, `database`, `selected`, not `1046no`.

    Bytes, because `bytes.translate` and `bytes.split` are the cheapest
    tokenizer the standard library has (no regex state, no per-character
    dictionary): the names' gate costs little on a text that has none.
    """
    return lowered.encode("ascii", "replace").translate(_SPACES).split()


_NAMES: dict[int, tuple[object, _NameTable]] = {}


def _name_table(registry: MapperRegistry) -> _NameTable:
    # The registry's tables are rebuilt on every change: their identity is the key.
    tables = registry._current()
    entry = _NAMES.get(id(tables))
    if entry is None or entry[0] is not tables:
        if len(_NAMES) > 8:  # registries that change keep a few, not all
            _NAMES.clear()
        entry = _NAMES[id(tables)] = (tables, _names(registry))
    return entry[1]


def _by_names(words: list[bytes], table: _NameTable, registry: MapperRegistry) -> str | None:
    """The backend a module or product name among the words names (a refiner before its base)."""
    first: str | None = None
    for at, word in enumerate(words):
        entries = table.starts.get(word)
        if entries is None:
            continue
        name = next(
            (owner for seq, owner in entries if tuple(words[at : at + len(seq)]) == seq), None
        )
        if name is None:
            continue
        if first is None:
            first = name
        elif name != first and _refines(registry, name, first):
            return name
    return first


def _refines(registry: MapperRegistry, name: str, base: str) -> bool:
    refines: object = getattr(registry.lookup(name), "refines", None)
    return isinstance(refines, tuple | list) and base in refines


def is_plain(text: str) -> bool:
    """
    Whether the text is words and spaces only (no digit, no punctuation).

    Such a text carries no format's sign and no leading form (every one
    holds a digit, a colon, a dot, a bracket...): only a name can name its
    backend (`read_plain`).  One character class, scanned fast: the cost of a
    plain message.
    """
    return _PLAIN.get().search(text, 0, _LIMIT) is None


def read_names(text: str, registry: MapperRegistry) -> str | None:
    """
    The backend a product or module name among the text's words names.

    Args:
        text: A text of words (`is_plain`).
        registry: The registered mappers (their names are the signs).

    Returns:
        The backend's name, or `None`.
    """
    return _named_by_words(_words(text[:_LIMIT].lower()), registry)


def _named_by_words(words: list[bytes], registry: MapperRegistry) -> str | None:
    table = _name_table(registry)
    if table.gate.isdisjoint(words):
        return None
    return _by_names(words, table, registry) or _by_wording(words, registry)


def read_plain(text: str, registry: MapperRegistry) -> Reading:
    """
    What a text of words alone says: the backend its names or its vendor's
    wording name, the code that backend's wording gives (its template's),
    and where the message starts (a line a log put before it is not the
    backend's).

    Args:
        text: A text of words (`is_plain`).
        registry: The registered mappers.

    Returns:
        The reading; every field `None` (start 0) when nothing names a backend.
    """
    head = text[:_LIMIT]
    words = _words(head.lower())
    named = _named_by_words(words, registry)
    if named is None:
        return _NOTHING
    worded = _worded(head, words, registry, backend_base(registry, named))
    return Reading(named, worded.code, None, worded.start, None)


class _Phrase(NamedTuple):
    """A vendor's phrase as the index holds it."""

    #: Its runs, each as `b" w w "`, found in order; a first `b""` where its
    #: template opens with a placeholder (another message goes there).
    runs: tuple[bytes, ...]
    backend: str
    #: The code of its template, codes of a few (blanks between), or `None`.
    codes: str | None
    #: Its length, the longest found winning.
    size: int


#: A vendor's phrase, by its rarest word: (the gate's keys, word -> phrases).
_WORDING: list[tuple[frozenset[bytes], dict[bytes, tuple[_Phrase, ...]]]] = []


#: An exception's class before its message: "SqliteError: ", "x.OperationalError: ".
_RAISED: Final = LazyPattern(r"(?<![\w.])[A-Za-z_][\w.]{0,128}[a-z0-9](?:Error|Exception): ")


def _phrase(text: str, backend: str, codes: str | None) -> _Phrase:
    runs = tuple(f" {run} ".encode() if run else b"" for run in text.split("|"))
    return _Phrase(runs, backend, codes, len(text))


def _wording_index() -> tuple[frozenset[bytes], dict[bytes, tuple[_Phrase, ...]]]:
    if not _WORDING:
        from localdata_errors._vendor_wordings import WORDINGS  # noqa: PLC0415 - on first use

        index = {
            word.encode(): tuple(_phrase(*entry) for entry in entries)
            for word, entries in WORDINGS.items()
        }
        _WORDING.append((frozenset(index), index))
    return _WORDING[0]


#: Most words a placeholder between two runs of a phrase holds (a name, a
#: value, a quoted statement's head): runs farther apart are two messages'.
_GAP: Final = 16


def _at(joined: bytes, runs: tuple[bytes, ...], start: int = 0) -> tuple[int, int]:
    """
    Where the runs are found in order (first run's start, last run's end), else `(-1, -1)`.

    Each run follows the one before within `_GAP` words (a placeholder's
    value between them); the first run is tried at each place it is found.
    """
    present = [run for run in runs if run]
    if not present:
        return -1, -1
    head, rest = present[0], present[1:]
    first = joined.find(head, start)
    while first >= 0:
        at = first + len(head) - 1
        for run in rest:
            found = joined.find(run, at)
            if found < 0:
                return -1, -1
            if joined.count(b" ", at, found) > _GAP:
                break
            at = found + len(run) - 1
        else:
            return first, at
        first = joined.find(head, first + 1)
    return -1, -1


class _Worded(NamedTuple):
    """A vendor's phrase found: its backend, its first run's words, the code it gives."""

    backend: str
    words: bytes
    code: str | None


def _by_wording(words: list[bytes], registry: MapperRegistry) -> str | None:
    """The backend whose own wording the text holds (`no such table` is SQLite's), else `None`."""
    found = _wording(words, registry)
    return None if found is None else found.backend


def _wording(
    words: list[bytes], registry: MapperRegistry, only: str | None = None, head: str = ""
) -> _Worded | None:
    """
    The longest vendor's phrase among the words, else `None`.

    With *only*, that backend's phrases alone are looked for, and the first
    (where its message starts: a later one may be a hint or a detail under
    it).

    The phrases are generated from the vendors' message lists, each unique
    to its vendor (`tools/generate_vendor_wordings.py`); a text is searched
    for them only when it holds one of their rarest words (one set
    intersection: a text without one costs next to nothing).  A phrase of
    one code's template gives that code; of a few codes' templates, the
    code of the one template whose runs the text holds (all of them, the
    most words).  A phrase of a template that opens where another message
    goes (MySQL's `%s near '%-.80T' at line %d`), found after the phrase
    chosen, gives its code: that message is the other's frame.  A phrase of
    no code (libpq's frame around the server's message, a hint) leaves the
    code to the longest of its backend's phrases that give one; with *only*,
    where none does, to the backend's own templates (`_known`).  A phrase
    of a format whose SQLSTATE PostgreSQL's server sets from errno gives the
    SQLSTATE the strerror text after it names (`_errno_code`, in *head*);
    where none follows, it counts as a phrase of no code.
    """
    keys, index = _wording_index()
    if keys.isdisjoint(words):
        return None
    joined = b" " + b" ".join(words) + b" "
    best: _Phrase | None = None
    frame: _Phrase | None = None
    # Each backend's longest phrase that gives a code (where the one chosen gives none).
    coded: dict[str, _Phrase] = {}
    first, framed = len(joined), -1
    for word in keys.intersection(words):
        for phrase in index[word]:
            if only is not None and phrase.backend != only:
                continue
            at, _end = _at(joined, phrase.runs)
            if at < 0 or (only is None and registry.lookup(phrase.backend) is None):
                continue
            if not phrase.runs[0]:
                if frame is None or phrase.size > frame.size:
                    frame, framed = phrase, at
                continue
            if _unmarked(phrase.codes) is not None:
                known = coded.get(phrase.backend)
                if known is None or phrase.size > known.size:
                    coded[phrase.backend] = phrase
            if (
                only is not None
                and (at < first or (at == first and best is not None and phrase.size > best.size))
            ) or (only is None and (best is None or phrase.size > best.size)):
                first, best = at, phrase
    if best is None:
        best, frame = frame, None
    if best is None:
        return None
    codes, by = best.codes, best
    if frame is not None and frame.backend == best.backend and framed > joined.find(best.runs[0]):
        codes, by = frame.codes, frame
    first_run = next(run for run in best.runs if run)
    stated = _errno_code(codes, head, next(run for run in by.runs if run))
    if stated is not None:
        return _Worded(best.backend, first_run.strip(), stated)
    if by is best and _unmarked(codes) is None and best.backend in coded:
        # A phrase of no code around or beside one that gives it: libpq's
        # `connection to server at ... failed: %s` around the server's
        # `password authentication failed for user ...` (28P01).
        codes = coded[best.backend].codes
    if _unmarked(codes) is None:
        # A phrase of no code (a hint, a detail, or of templates some of which
        # have none): the backend's own templates may give one.
        return _Worded(best.backend, first_run.strip(), _known(words, only or best.backend, head))
    return _Worded(best.backend, first_run.strip(), _plain(_code(joined, best.backend, codes)))


#: A code standing for the templates that have none, among a phrase's codes.
UNCODED: Final = "-"
#: What a phrase's code starts with where PostgreSQL's server sets the
#: SQLSTATE from errno (`errno:file`, `errno:socket`: the marker
#: `tools/extract_postgresql_sqlstates.py` gives such a format).
_ERRNO: Final = "errno:"


def _plain(code: str | None) -> str | None:
    """The code, `None` for a marker (no strerror text said the errno)."""
    return None if code is not None and code.startswith(_ERRNO) else code


def _unmarked(codes: str | None) -> str | None:
    """The codes without markers, and `None` where none is left (or `-` alone)."""
    if codes is None or _ERRNO not in codes:
        return codes
    left = " ".join(code for code in codes.split() if not code.startswith(_ERRNO))
    return left if left and left != UNCODED else None


def _errno_code(codes: str | None, head: str, run: bytes) -> str | None:
    """
    The SQLSTATE PostgreSQL's server set from errno, where the phrase's
    codes name one marker: read from the strerror text after a `: ` on the
    line where the phrase (its first run, *run*) is written as a primary
    message writes it, not capitalized (a detail that says its words again,
    `Could not open file "%s": %m.`, reports its primary message's SQLSTATE).

    Returns:
        The SQLSTATE, else `None` (no marker, no such line, no strerror text).
    """
    if not head or codes is None or _ERRNO not in codes:
        return None
    markers = {code for code in codes.split() if code.startswith(_ERRNO)}
    if len(markers) != 1:
        return None
    from localdata_errors.backends._postgresql_server import errno_sqlstate  # noqa: PLC0415

    phrase = r"[^a-z0-9]{1,8}".join(re.escape(w) for w in run.decode().split())
    for at in re.finditer(r"(?<![a-z0-9])" + phrase, head, re.IGNORECASE):
        if head[at.start()].isupper():
            continue
        end = head.find("\n", at.end())
        state = errno_sqlstate(next(iter(markers)), head[at.end() : end if end >= 0 else None])
        if state is not None:
            return state
    return None


def _code(joined: bytes, backend: str, codes: str | None) -> str | None:
    """
    The code a phrase gives: its own, or of its codes the one whose template
    the text holds (all its runs in order, and a word after them where the
    template ends with a placeholder), the most words.
    """
    if codes is None or " " not in codes:
        return codes
    from localdata_errors._vendor_wordings import TEMPLATES  # noqa: PLC0415 - on first use

    forms = TEMPLATES.get(backend, {})
    best: tuple[int, str | None] = (0, None)
    for code in codes.split():
        for form in forms.get(code, ()):
            runs = tuple(f" {run} ".encode() for run in form.split("|") if run)
            at, end = _at(joined, runs)
            if at < 0:
                continue
            size = sum(len(run) for run in runs)
            if form.endswith("|"):
                # Its value follows (1452's `... constraint fails (%s)`), else
                # the text is another template's (1216's, the same words alone).
                if end + 1 >= len(joined):
                    continue
                size += 1
            if size > best[0]:
                best = size, code
            elif size == best[0] and code != best[1]:
                best = size, None  # two codes' templates alike: neither
    return None if best[1] == UNCODED else best[1]  # templates that have no code


class _Form(NamedTuple):
    """A backend's template as the known templates' index holds it."""

    #: Its runs, each as `b" w w "`, found in order.
    runs: tuple[bytes, ...]
    #: The codes of its vendor's templates of this form (blanks between).
    codes: str
    #: Whether it opens where another message goes (`%s at or near "%s"`).
    framing: bool
    #: Its runs' length, the fullest found winning.
    size: int


#: Backend -> (the gate's keys, word -> its templates), built on first use.
_KNOWN: dict[str, tuple[frozenset[bytes], dict[bytes, tuple[_Form, ...]]]] = {}


def _known_index(backend: str) -> tuple[frozenset[bytes], dict[bytes, tuple[_Form, ...]]]:
    if not _KNOWN:
        from localdata_errors._vendor_wordings import KNOWN  # noqa: PLC0415 - on first use

        for name, entries in KNOWN.items():
            forms = []
            for form, codes in entries:
                runs = tuple(f" {run} ".encode() for run in form.split("|") if run)
                forms.append(_Form(runs, codes, form.startswith("|"), sum(map(len, runs))))
            # Each template filed under its word the fewest of the backend's hold.
            held = Counter(w for one in forms for w in set(b"".join(one.runs).split()))
            index: dict[bytes, list[_Form]] = {}
            for one in forms:
                word = min(b"".join(one.runs).split(), key=lambda w: (held[w], -len(w), w))
                index.setdefault(word, []).append(one)
            _KNOWN[name] = (frozenset(index), {w: tuple(f) for w, f in index.items()})
        _KNOWN.setdefault("", (frozenset(), {}))
    return _KNOWN.get(backend, _KNOWN[""])


def _known(words: list[bytes], backend: str, head: str = "") -> str | None:
    """
    The code the backend's own template the text holds gives, though no
    phrase names its vendor (shared with another vendor, or short:
    PostgreSQL's `deadlock detected`, 40P01).

    The fullest template found gives its code; two codes' alike, or one its
    vendor's list gives several codes or none, none.  A template that opens
    where another message goes (`%s at or near "%s"`, 42601), found after
    the one chosen ends, gives its code: that message is the other's frame.
    A template whose SQLSTATE PostgreSQL's server sets from errno gives the
    one the strerror text after it names (`_errno_code`, in *head*).
    """
    keys, index = _known_index(backend)
    if keys.isdisjoint(words):
        return None
    joined = b" " + b" ".join(words) + b" "
    best: tuple[int, int, str | None] = (0, -1, None)  # size, end, code
    frame: tuple[int, int, str | None] = (0, -1, None)  # size, start, code
    for word in keys.intersection(words):
        for form in index[word]:
            at, end = _at(joined, form.runs)
            if at < 0:
                continue
            code = _errno_code(form.codes, head, form.runs[0]) or (
                None if " " in form.codes else _plain(form.codes)
            )
            chosen = frame if form.framing else best
            if form.size > chosen[0]:
                chosen = (form.size, end if not form.framing else at, code)
            elif form.size == chosen[0] and code != chosen[2]:
                chosen = (form.size, chosen[1], None)  # two codes' templates alike: neither
            if form.framing:
                frame = chosen
            else:
                best = chosen
    if frame[0] and (not best[0] or frame[1] >= best[1]):
        best = frame
    return None if best[2] == UNCODED else best[2]  # templates that have no code


def _worded(
    head: str, words: list[bytes], registry: MapperRegistry, only: str | None = None
) -> Reading:
    """
    What a vendor's wording says: its backend, the code, and where its message starts.

    With *only* (a backend other signs named), that backend's phrases alone
    are looked for: where its message starts; where neither they nor its
    openings give a code, its templates no phrase names do (`_known`): a
    phrase shared with another vendor names no backend, but says the code
    of the one already named.

    The message starts after the last exception class before the phrase on
    its line (`SqliteError: `, `sqlite3.OperationalError: `: what the mapper
    reads follows it), else where the text does.
    """
    found = _wording(words, registry, only, head)
    if found is None:
        headed = _headed(head, registry, only)
        if only is None or headed.code is not None:
            return headed
        # No phrase, no opening: the backend's templates a phrase cannot name.
        code = _known(words, only, head)
        return headed if code is None else Reading(only, code, None, headed.start, None)
    phrase = r"[^a-z0-9]{1,8}".join(re.escape(w) for w in found.words.decode().split())
    at = re.search(r"(?<![a-z0-9])" + phrase, head, re.IGNORECASE)
    start = 0
    if at is not None:
        line = head.rfind("\n", 0, at.start()) + 1
        for raised in _RAISED.get().finditer(head, line, at.start()):
            start = raised.end()
        if start == 0 and _opens(head, at.start(), labels=line == 0):
            # No class before it, but a message starts with it (`msg="UNIQUE ...`);
            # after a label only on the first line (on a later one, `HINT:  `
            # or `DETAIL:  ` is a field of the message above).
            start = at.start()
    return Reading(found.backend, found.code, None, start, None)


#: What a message follows: a line's start, `=`, and (after a label) a colon, a bracket.
_BEFORE_MESSAGE: Final = frozenset("\n=")
_AFTER_LABEL: Final = frozenset(":]>|-")
_QUOTES: Final = frozenset("\"'`")


def _opens(head: str, at: int, *, labels: bool = True) -> bool:
    """
    Whether a message starts at *at*: the text's or a line's start, after `=`
    or an opening quote (`msg="...`), or, with *labels*, after a label's colon
    or a bracket (`Error: ...`, `[x] ...`).
    """
    before = head[:at].rstrip(" \t")
    if not before or before[-1] in _BEFORE_MESSAGE or (labels and before[-1] in _AFTER_LABEL):
        return True
    if before[-1] in _QUOTES:
        # An opening quote: an odd count of it on the line (a closing one ends a name).
        line = before[before.rfind("\n") + 1 :]
        return line.count(before[-1]) % 2 == 1
    return False


#: The runs only one vendor's messages open with, found anywhere (then checked where they are).
_HEADS: Final = LazyPattern(
    lambda: (
        r"(?i)(?<![a-z0-9])(?:"
        + "|".join(r"[^a-z0-9]{1,8}".join(run.split()) for run in sorted(_heads(), key=len)[::-1])
        + r")(?![a-z0-9])"
    )
)


def _heads() -> dict[str, tuple[str, str | None]]:
    from localdata_errors._vendor_wordings import HEADS  # noqa: PLC0415 - on first use

    return HEADS


def _headed(head: str, registry: MapperRegistry, only: str | None = None) -> Reading:
    """
    The vendor whose messages open with a run the text starts a message with.

    With *only*, that backend's runs alone are looked for.

    `no such column: x` is SQLite's where a message starts with it, though
    PostgreSQL holds the phrase inside one of its own.
    """
    for match in _HEADS.get().finditer(head):
        if not _opens(head, match.start()):
            continue
        owner = _heads().get(b" ".join(_words(match.group().lower())).decode())
        if owner is None or (only is not None and owner[0] != only):
            continue
        if registry.lookup(owner[0]) is not None:
            joined = b" " + b" ".join(_words(head[match.start() :].lower())) + b" "
            run = b" ".join(_words(match.group().lower()))
            code = _errno_code(owner[1], head, run) or _plain(_code(joined, *owner))
            return Reading(owner[0], code, None, match.start(), None)
    return _NOTHING


def read_signs(text: str, registry: MapperRegistry, backend: str | None = None) -> Reading:
    """
    The backend and the native code the text's signs name.

    Args:
        text: The error text.
        registry: The registered mappers (their names and modules are signs).
        backend: The backend, when already known: only its codes are read.

    Returns:
        What the signs say; every field `None` when the text has none.
    """
    head = text if len(text) <= _LIMIT else text[:_LIMIT]
    table = _name_table(registry)
    lowered = head.lower().encode("ascii", "replace")
    marked = len(lowered.translate(None, _MARK_BYTES)) < len(lowered)
    words = lowered.translate(_SPACES).split()
    # A mapper's own sign (`[Databricks][JDBCDriver]`): one scan of their triggers.
    pack = _by_pack_sign(head, table) if backend is None else None
    if not marked and pack is None and table.gate.isdisjoint(words):
        # No mark, no name, no vendor's phrase: no sign (the cost of a message without one).
        return _NOTHING if backend is None else Reading(backend, None, None, 0, None)
    found: list[_Found] = []
    opened = _TRIGGERS.found(head) if marked else set()
    for n in sorted(opened):
        for count, match in enumerate(_PATTERNS[n].get().finditer(text, 0, _LIMIT)):
            one = _found(n, match)
            if one is not None:
                found.append(one)
            if count >= _MOST:
                break
    found.sort(key=lambda one: one[4])
    named, sign = (backend, None) if backend is not None else _first_named(found, pack)
    if named is None:
        named = _by_names(words, table, registry)
    elif backend is None:
        # A product name may name a system that speaks this backend's protocol.
        refiner = _by_names(words, table, registry)
        if refiner is not None and _refines(registry, refiner, named):
            named = refiner
    sqlstate = next((one[3] for one in found if one[3] is not None), None)
    # An ORM's own code (Prisma's) is no backend's: its wording is the ORM's.
    orm = next((one for one in found if one[1] == "orm"), None)
    # Then the vendor's own wording (the phrase's rarest word gates the search),
    # before a bare number one vendor's list holds: vendors' numbers overlap
    # (1205 is SQL Server's deadlock and MySQL's lock wait timeout), phrases not.
    worded = _worded(head, words, registry) if named is None and orm is None else _NOTHING
    if named is None and orm is None and worded.backend is None:
        worded = _labelled(head, words, registry)
    # Last, that number, a SQLSTATE only PostgreSQL lists (`code: "23505"`), and
    # PHP PDO's driver number (a MySQL-protocol server's: TiDB's 9007 through pdo_mysql).
    named = (
        named
        or worded.backend
        or _by_code(found)
        or _by_own_state(found, registry)
        or _by_pdo_number(found)
    )
    accepts = _ACCEPTS.get(backend_base(registry, named) if named is not None else "", ())
    # The ORM's code where the backend's own is not printed: the keyword
    # fallback decides it (`_prisma_kinds`) under the backend other signs named.
    chosen = _chosen(found, named, accepts) or orm
    code: str | None = None
    start = 0
    if chosen is not None:
        code, start = chosen[2], chosen[4] if SIGNS[chosen[5]].cut else 0
        sign = sign if sign is not None else chosen[5]
    state_only = chosen is not None and chosen[1] == "sqlstate" and accepts[0] != "sqlstate"
    deferring = (
        code is not None and named is not None and _defers(backend_base(registry, named), code)
    )
    if code is None or state_only or deferring:
        # No code printed, or only a SQLSTATE where the backend has codes of its
        # own (`SQLSTATE[42S02]: ...Invalid object name 'x'` is message 208), or
        # a code that only points at the server's message (pdo_dblib's
        # `20018 Invalid object name 'x'.`): the wording's (its template's
        # code), where it gives one.
        worded_start, worded_code = (
            (worded.start, worded.code)
            if worded.backend is not None
            else _start(head, words, registry, found, named)
        )
        if code is None:
            start, code = worded_start, worded_code
        elif worded_code is not None:
            code = worded_code
    if chosen is None and named is not None and backend_base(registry, named) == "postgresql":
        # A wording's SQLSTATE is its message's as an ERROR; sent as a FATAL
        # while a connection starts, the start-up catalogue's says it (`role
        # "x" does not exist`: 42704 in a statement, 28000 at login).
        code = _start_up_state(head) or code
    return Reading(named, code, sqlstate, start, None if sign is None else SIGNS[sign].name)


def _start_up_state(head: str) -> str | None:
    """The SQLSTATE of a start-up FATAL of PostgreSQL's server in the text, else `None`."""
    if "FATAL:" not in head:
        return None
    from localdata_errors.backends._postgresql_client import fatal_sqlstate  # noqa: PLC0415

    return fatal_sqlstate(head)


#: PostgreSQL's severity label as its clients other than libpq print it (one
#: space; libpq's two are a sign of their own): upper case, then the primary
#: message, which PostgreSQL's message style starts in lower case.
_SEVERITY: Final = LazyPattern(r"(?:^|\n|: )(?:ERROR|FATAL|PANIC): (?=[a-z])")


def _labelled(head: str, words: list[bytes], registry: MapperRegistry) -> Reading:
    """
    PostgreSQL, by its severity label and a message one of its own coded
    templates is (`ERROR: deadlock detected`, 40P01; `ERROR: schema "x" does
    not exist`, 3F000): a message no phrase of its names, short or worded as
    another vendor's too.  The label alone names nothing (any program may
    print `ERROR: `); an uncoded template neither.
    """
    if registry.lookup("postgresql") is None:
        return _NOTHING
    label = _SEVERITY.get().search(head)
    if label is None:
        return _NOTHING
    code = _known(words, "postgresql")
    return _NOTHING if code is None else Reading("postgresql", code, None, label.end(), None)


def _first_named(
    found: list[_Found], pack: tuple[int, str] | None
) -> tuple[str | None, int | None]:
    """
    The backend the first format that names one names, and that format; a
    mapper's own sign before it names its backend (the Databricks driver's
    `[Databricks][JDBCDriver] ... SQL state: 42P01`).
    """
    shared: _Found | None = None
    for one in found:
        if one[0] is not None:
            if SIGNS[one[5]].shared:
                shared = shared or one
                continue
            if pack is None or one[4] <= pack[0]:
                return one[0], one[5]
            break
    else:
        if shared is not None and (pack is None or shared[4] <= pack[0]):
            return shared[0], shared[5]
    return (None, None) if pack is None else (pack[1], None)


def _start(
    head: str, words: list[bytes], registry: MapperRegistry, found: list[_Found], named: str | None
) -> tuple[int, str | None]:
    """
    Where the mapper's text starts, without a code (a sign's cut, else the
    wording's), and the code the backend's own wording gives.
    """
    cut = next((one[4] for one in found if SIGNS[one[5]].cut and one[0] == named), 0)
    if named is None:
        return cut, None
    # Named by a name or a class: the mapper reads the message from where the
    # backend's own wording starts, as the driver's exception holds it.
    worded = _worded(head, words, registry, backend_base(registry, named))
    return cut or worded.start, worded.code


def _chosen(found: list[_Found], named: str | None, accepts: tuple[str, ...]) -> _Found | None:
    """The code the named backend's mapper reads: of the kind it reads first, the first."""
    for kind in accepts:
        for one in found:
            if (
                one[1] == kind
                and one[2] is not None
                and (one[0] is None or one[0] == named or kind == "sqlstate")
            ):
                return one
    return None


def backend_base(registry: MapperRegistry, name: str) -> str:
    """A refiner's base backend (whose codes its texts carry), else the name itself."""
    refines: object = getattr(registry.lookup(name), "refines", None)
    if isinstance(refines, tuple | list) and refines and isinstance(refines[0], str):
        return refines[0]
    return name


def _by_code(found: list[_Found]) -> str | None:
    """The backend a code's own form names, where no other sign does."""
    for _backend, kind, code, state, _start, _n in found:
        if state is not None and state[2:].find("P") >= 0:
            return "postgresql"  # the P subclasses are PostgreSQL's own
        if kind == "number" and code is not None and code.isdigit() and _is_mysql_number(code):
            return "mysql"
    return None


def _by_pdo_number(found: list[_Found]) -> str | None:
    """
    The backend of PHP PDO's driver number where nothing else named one.

    A number DB-Library defines (FreeTDS's `sybdb.h`) is pdo_dblib's, which
    talks to SQL Server; another of 1000 and up, pdo_mysql's errno (of MySQL,
    whose list `_by_code` reads first, or of a server speaking its protocol:
    TiDB's 9007).  pdo_oci's texts name their backend otherwise.
    """
    for _backend, kind, code, _state, _start, n in found:
        if kind == "number" and SIGNS[n].code == "pdo" and code is not None and code.isdigit():
            if _is_dblib_number(code):
                return "mssql"
            return "mysql" if int(code) >= 1000 else None
    return None


def _is_dblib_number(code: str) -> bool:
    """Whether DB-Library defines the number (`_dblib_codes`, from FreeTDS's `sybdb.h`)."""
    from localdata_errors.backends import _dblib_codes  # noqa: PLC0415 - on first use

    if not _DBLIB:
        _DBLIB.update(number for number, _text in _dblib_codes.ERRORS.values())
    return int(code) in _DBLIB


_DBLIB: set[int] = set()


def _defers(backend: str, code: str) -> bool:
    """
    Whether *code* is no error of its own but says the server's message is the error.

    DB-Library's SYBESMSG ("General SQL Server error: Check messages from the
    SQL Server") is raised for every message the server sends; PHP's
    pdo_dblib prints its number with the server's text
    (`General error: 20018 Invalid object name 't_user'. [20018] (severity 16)`),
    whose own number the wording gives.
    """
    if backend != "mssql":
        return False
    from localdata_errors.backends import _dblib_codes  # noqa: PLC0415 - on first use

    return code == str(_dblib_codes.ERRORS["SYBESMSG"][0])


def _is_mysql_number(code: str) -> bool:
    from localdata_errors.backends import _mysql_symbols  # noqa: PLC0415 - on first use

    if not _NUMBERS:
        _NUMBERS.update(_mysql_symbols.SYMBOLS.values())
    return int(code) in _NUMBERS


_NUMBERS: set[int] = set()

#: A symbol given as a code, per backend: what it stands for.
_SYMBOLS: Final[dict[str, Callable[[str], str | None]]] = {
    "mysql": lambda s: None if (n := _mysql_symbol(s)) is None else str(n),
    "postgresql": pg_sqlstate,
}


def native_code(backend: str, code: str) -> str:
    """
    The native code a symbol stands for (`ER_NO_SUCH_TABLE` -> `1146`), else the code.

    Args:
        backend: The backend's canonical name.
        code: The code as given.

    Returns:
        The number or SQLSTATE the mapper reads.
    """
    reader = _SYMBOLS.get(backend)
    if reader is None or not code[:1].isalpha():
        return code
    name = code.rpartition("::")[2].rpartition(".")[2]
    return reader(name) or code
