"""
Real driver errors that echo a credential, in every format, through every output.

Each format below writes a secret as it is written in the wild: SQL
credential clauses of each dialect, environment and JSON/YAML keys, bearer
tokens, AWS, Google Cloud and Azure keys, PEM blocks, URL user-info, libpq,
ODBC and JDBC values.  Each one is sent to PostgreSQL (psycopg), MariaDB
(pymysql), SQLite and DuckDB in a statement the engine echoes back in its
error: a syntax error right after the clause (PostgreSQL's and DuckDB's
`LINE 1:` excerpt), a syntax error right before it (MariaDB's `near '...'`),
a string literal left hanging (`SELECT '...' +`), a table named after it
(SQLite's `no such table: ...`).  The real exception is then classified, and
no five characters in a row of the secret may survive in any field of any shape, in
the execution history, in the command line's output, or in any log record
or warning emitted meanwhile.

The generative part draws random secrets of each format into the same
engines' error texts, captured once per engine and format, and searches
every shape and the log records for them.
"""

from __future__ import annotations

import json
import logging
import random
import re
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localdata_errors import (
    BackendMapper,
    ErrorInput,
    ErrorMapperRegistry,
    MappedError,
    StructuredErrorResponse,
    classify_error,
    classify_message,
)
from localdata_errors.history import ExecutionHistory
from localdata_errors.observability import log_classified_error, to_otel_attributes
from tests.conftest import require_module

WINDOW = 5
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
BASE64 = ALNUM + "+/"
HARD = " ,;)&'\"{}\\=:@!$%*"  # what quoting exists for


def _sql(s: str) -> str:
    return s.replace("'", "''")


def _json(s: str) -> str:
    return json.dumps(s)[1:-1]


def _libpq(s: str) -> str:
    return s.replace("\\", "\\\\").replace("'", "\\'")


@dataclass(frozen=True, repr=False)
class Format:
    """How a secret is written: a SQL clause, or text that a statement quotes."""

    name: str
    sql: bool
    alphabet: str
    write: Callable[[str], str]
    prefix: str = "Zq7"
    size: int = 24
    #: The format has exactly this size (key ids); others may be longer.
    exact: bool = False

    def __repr__(self) -> str:
        return f"<format {self.name}>"


FORMATS = [
    # SQL credential clauses, per dialect
    Format("pg_password", True, ALNUM + HARD, lambda s: f"CREATE ROLE r PASSWORD '{_sql(s)}'"),
    Format(
        "pg_encrypted_e",
        True,
        ALNUM + HARD,
        lambda s: f"ALTER USER u WITH ENCRYPTED PASSWORD E'{_libpq(s)}'",
    ),
    Format(
        "pg_dollar", True, ALNUM + " ,;)&'\"{}\\", lambda s: f"CREATE ROLE r PASSWORD $pw${s}$pw$"
    ),
    Format(
        "mysql_identified",
        True,
        ALNUM + HARD,
        lambda s: f"CREATE USER 'u'@'%' IDENTIFIED BY '{_sql(s)}'",
    ),
    Format(
        "mysql_plugin_by",
        True,
        ALNUM + HARD,
        lambda s: f"ALTER USER u IDENTIFIED WITH caching_sha2_password BY '{_sql(s)}'",
    ),
    Format(
        "mysql_replace",
        True,
        ALNUM + HARD,
        lambda s: f"ALTER USER u IDENTIFIED BY 'n3w-pass' REPLACE '{_sql(s)}'",
    ),
    Format(
        "mysql_as_hash",
        True,
        "0123456789ABCDEF",
        lambda s: f"CREATE USER u IDENTIFIED WITH mysql_native_password AS '*{s}'",
        prefix="",
        size=40,
    ),
    Format(
        "mariadb_via",
        True,
        ALNUM + HARD,
        lambda s: f"CREATE USER u IDENTIFIED VIA ed25519 USING PASSWORD('{_sql(s)}')",
    ),
    Format(
        "set_password_for",
        True,
        ALNUM + HARD,
        lambda s: f"SET PASSWORD FOR 'u'@'%' = PASSWORD('{_sql(s)}')",
    ),
    Format("oracle_bare", True, ALNUM + "_$#", lambda s: f"ALTER USER u IDENTIFIED BY {s}"),
    Format(
        "oracle_quoted",
        True,
        ALNUM + " ,;)&'{}\\=:@!$%*",
        lambda s: f'CREATE USER u IDENTIFIED BY "{s}"',
    ),
    Format(
        "mssql_login",
        True,
        ALNUM + HARD,
        lambda s: f"CREATE LOGIN l WITH PASSWORD = N'{_sql(s)}' MUST_CHANGE",
    ),
    Format(
        "duckdb_s3_secret",
        True,
        ALNUM + HARD,
        lambda s: (
            "CREATE SECRET s (TYPE s3, KEY_ID 'AKIAIOSFODNN7EXAMPLE', "
            f"SECRET '{_sql(s)}', REGION 'us-east-1')"
        ),
    ),
    Format(
        "duckdb_azure",
        True,
        ALNUM + HARD,
        lambda s: f"CREATE SECRET (TYPE azure, CONNECTION_STRING '{_sql(s)}')",
    ),
    Format(
        "redshift_keys",
        True,
        ALNUM + HARD,
        lambda s: (
            "COPY t FROM 's3://b/k' ACCESS_KEY_ID 'AKIAIOSFODNN7EXAMPLE' "
            f"SECRET_ACCESS_KEY '{_sql(s)}'"
        ),
    ),
    Format(
        "snowflake_credentials",
        True,
        ALNUM + HARD,
        lambda s: (
            f"COPY INTO t FROM @st CREDENTIALS = (AWS_KEY_ID = 'k1' AWS_SECRET_KEY = '{_sql(s)}')"
        ),
    ),
    # keys in text
    Format("env_pgpassword", False, ALNUM + ",;)&'\"{}\\=:@!$%*", lambda s: f"PGPASSWORD={s}"),
    Format("env_mysql_pwd", False, ALNUM + ",;)&'\"{}\\=:@!$%*", lambda s: f"MYSQL_PWD={s}"),
    Format(
        "env_aws",
        False,
        BASE64,
        lambda s: f"aws_access_key_id=AKIAIOSFODNN7EXAMPLE aws_secret_access_key={s}",
        size=40,
    ),
    Format(
        "json_key",
        False,
        ALNUM + HARD,
        lambda s: '{"user": "u", "client_secret": "' + _json(s) + '"}',
    ),
    Format("yaml_key", False, ALNUM + " ,;)&'\"{}\\=:@!$%*", lambda s: f"password: {s}"),
    Format("azure_sas_key", False, ALNUM + ",;)&=:@!$%*", lambda s: f"sas_key={s}"),
    Format(
        "json_connectionstring",
        False,
        ALNUM + HARD,
        lambda s: '{"ConnectionString": "' + _json(s) + '"}',
    ),
    Format("long_s_key", False, ALNUM + ",;)&=:@!$%*", lambda s: f"pa\u017f\u017fword={s}"),
    Format("kelvin_key", False, ALNUM + ",;)&=:@!$%*", lambda s: f"api_\u212aey={s}"),
    Format("bearer_header", False, ALNUM + "-._~+/", lambda s: f"Authorization: Bearer {s}"),
    Format("bearer_bare", False, ALNUM + "-._~+/", lambda s: f"request sent with Bearer {s}"),
    # cloud key shapes
    Format("aws_key_id", False, UPPER, lambda s: f"key {s} rejected", "AKIA", 20, exact=True),
    Format("aws_temporary_id", False, UPPER, lambda s: f"key {s} rejected", "ASIA", 20, exact=True),
    Format("gcp_api_key", False, ALNUM + "_-", lambda s: f"key {s} used", "AIza", 39, exact=True),
    Format(
        "gcp_service_account",
        False,
        BASE64,
        lambda s: (
            '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
            + s
            + '\\n-----END PRIVATE KEY-----\\n"}'
        ),
        size=48,
    ),
    Format(
        "azure_account_key",
        False,
        BASE64,
        lambda s: (
            "DefaultEndpointsProtocol=https;AccountName=acct;"
            f"AccountKey={s}==;EndpointSuffix=core.windows.net"
        ),
        size=40,
    ),
    Format(
        "azure_sas",
        False,
        ALNUM + "%",
        lambda s: f"https://acct.blob.core.windows.net/c?sv=2022-11-02&sig={s}&se=2030",
    ),
    Format(
        "pem_block",
        False,
        BASE64,
        lambda s: f"-----BEGIN RSA PRIVATE KEY-----\\n{s}\\n-----END RSA PRIVATE KEY-----",
        size=48,
    ),
    # connection strings
    Format(
        "url_userinfo",
        False,
        ALNUM + "@:%!$&'()*+,;=",
        lambda s: f"postgresql://app:{s}@db:5432/sales",
    ),
    Format(
        "libpq_quoted",
        False,
        ALNUM + HARD,
        lambda s: f"host=db password='{_libpq(s)}' dbname=sales",
    ),
    Format(
        "libpq_bare", False, ALNUM + ",;)&{}=:@!$%*", lambda s: f"host=db password={s} dbname=sales"
    ),
    Format(
        "odbc_braced",
        False,
        ALNUM + HARD,
        lambda s: (
            "Driver={ODBC Driver 18 for SQL Server};Server=db;UID=sa;"
            "PWD={" + s.replace("}", "}}") + "};Encrypt=yes"
        ),
    ),
    Format(
        "jdbc_sqlserver",
        False,
        ALNUM + HARD,
        lambda s: (
            "jdbc:sqlserver://db:1433;user=sa;password={" + s.replace("}", "}}") + "};encrypt=true"
        ),
    ),
    Format(
        "jdbc_query",
        False,
        ALNUM + HARD,
        lambda s: f"jdbc:mysql://db:3306/x?user=u&password={quote(s, safe='')}&useSSL=true",
    ),
]


def _example(fmt: Format) -> str:
    """A fixed secret of the format, with every hard character it allows."""
    rng = random.Random(fmt.name)
    body = [rng.choice(fmt.alphabet) for _ in range(fmt.size - len(fmt.prefix))]
    hard = [c for c in HARD if c in fmt.alphabet]
    for i, char in enumerate(hard):
        body[(3 + 2 * i) % len(body)] = char
    return fmt.prefix + "".join(body)


def _rendered(fmt: Format, secret: str) -> str:
    """How the secret appears once written (percent-encoded in a JDBC query string)."""
    return quote(secret, safe="") if fmt.name == "jdbc_query" else secret


# -- the engines ----------------------------------------------------------------------------


def _literal(text: str) -> str:
    return "'" + _sql(text) + "'"


def _mysql_literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def _identifier(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


# Statements each engine answers with an error that quotes them back, in order
# of preference: the clause itself, where the engine's parser reaches it, then
# the clause or text in a string literal left hanging, then as a table name.
# The first that echoes the secret is the case (one real error per engine and format).
CARRIERS: dict[str, list[Callable[[Format, str], str | None]]] = {
    "postgresql": [
        lambda f, t: f"{t} garbage" if f.sql else None,
        lambda f, t: f"SELECT {_literal(t)} +",
    ],
    "mysql": [
        # MariaDB quotes the statement from the token it could not parse on.
        lambda f, t: f"SELECT 1 a b {t}" if f.sql else f"SELECT 1 a b {_mysql_literal(t)}",
        lambda f, t: "SELECT * FROM `" + t.replace("`", "``") + "`",
    ],
    "duckdb": [
        lambda f, t: f"{t} garbage" if f.sql else None,
        lambda f, t: f"SELECT {_literal(t)} +",
        lambda f, t: f"SELECT * FROM {_identifier(t)}",
    ],
    "sqlite": [lambda f, t: f"SELECT * FROM {_identifier(t)}"],
}


class Engines:
    """One connection per engine for the whole module; every statement fails to parse."""

    def __init__(self, pg: dict[str, object], mysql: dict[str, object]) -> None:
        psycopg = require_module("psycopg")
        pymysql = require_module("pymysql")
        duckdb = require_module("duckdb")
        import sqlite3

        self.pg = psycopg.connect(**pg, autocommit=True)
        self.mysql = pymysql.connect(**mysql)
        self.duckdb = duckdb.connect()
        self.sqlite = sqlite3.connect(":memory:")

    def close(self) -> None:
        for conn in (self.pg, self.mysql, self.duckdb, self.sqlite):
            conn.close()

    def error(self, engine: str, statement: str) -> BaseException:
        try:
            if engine == "postgresql":
                self.pg.execute(statement)
            elif engine == "mysql":
                with self.mysql.cursor() as cursor:
                    cursor.execute(statement)
            elif engine == "duckdb":
                self.duckdb.execute(statement)
            else:
                self.sqlite.execute(statement)
        except Exception as exc:
            return exc
        raise AssertionError(f"{engine} accepted {statement!r}")


@pytest.fixture(scope="module")
def engines(pg_server: dict[str, object], mysql_server: dict[str, object]) -> Iterator[Engines]:
    opened = Engines(pg_server, mysql_server)
    yield opened
    opened.close()


# -- what may leak ------------------------------------------------------------------------


def _windows(secret: str) -> set[str]:
    if len(secret) <= WINDOW:
        return {secret}
    return {secret[i : i + WINDOW] for i in range(len(secret) - WINDOW + 1)}


# The JSON-RPC shape's "timestamp" is the clock's reading when it is rendered
# (no timestamp given), so it differs between the error and its baseline; its
# digits can spell five characters of a random secret ("80000" of
# "...9788000000...") by chance.
_CLOCK = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{6})?Z")


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            if key == "timestamp" and isinstance(item, str) and _CLOCK.fullmatch(item):
                continue
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _leaks(secret: str, value: object, baseline: object = ()) -> list[str]:
    """The strings in *value* holding part of *secret* (parts already in *baseline* aside)."""
    known = list(_strings(baseline))
    windows = {w for w in _windows(secret) if not any(w in k for k in known)}
    return [s for s in _strings(value) if any(w in s for w in windows)]


def _shapes(resp: StructuredErrorResponse, tool_name: str) -> list[object]:
    return [
        list(resp),
        resp.to_dict(),
        resp.to_tool_error(),
        resp.to_jsonrpc_error(tool_name=tool_name),
        resp.to_agent_response(),
        json.loads(resp.to_json()),
        to_otel_attributes(resp),
    ]


class _RaisingMapper(BackendMapper):
    """A plugin whose bug puts the driver's text in the log: warn_once must mask it."""

    name = "leaky"

    def map_error(self, error: ErrorInput) -> MappedError:
        raise ValueError(f"cannot map {error.message!r}")


_VOLATILE = frozenset({"created", "msecs", "relativeCreated", "thread", "process"})


@pytest.fixture
def captured() -> Iterator[list[str]]:
    """Every log record (root logger, DEBUG) and warning emitted during the test, formatted."""
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            # The clock and the process's numbers are left out: a secret's five
            # digits could match a timestamp by chance, whatever the package does.
            fields = {k: v for k, v in record.__dict__.items() if k not in _VOLATILE}
            records.append(self.format(record) + json.dumps(fields, default=str))

    handler = Keep(logging.DEBUG)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield records
        records += [str(w.message) for w in caught]
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def _everything(exc: BaseException, raw: str, engine: str, statement: str) -> list[object]:
    """Every output the package makes of one real error."""
    outputs: list[object] = []
    for resp in (
        classify_error(exc),
        classify_error(exc, engine),
        classify_message(raw, engine),
        classify_error(exc, "leaky"),
    ):
        outputs += _shapes(resp, tool_name=f"run {raw}")
    history = ExecutionHistory(db_type=engine)
    history.record("execute_sql", {"sql": statement}, error=exc)
    history.record("execute_sql", {"sql": statement}, result={"rowcount": 0})
    history.record("execute_sql", statement, error=classify_error(exc))
    outputs += [history.summary(), history.to_dict()]
    log_classified_error(logging.getLogger("tests.redaction"), exc)
    return outputs


def _real_errors(engines: Engines) -> Iterator[tuple[str, Format, str, str, BaseException]]:
    for fmt in FORMATS:
        secret = _example(fmt)
        shown = _rendered(fmt, secret)
        text = fmt.write(secret)
        for engine, carriers in CARRIERS.items():
            tried = []
            for carrier in carriers:
                statement = carrier(fmt, text)
                if statement is None:
                    continue
                exc = engines.error(engine, statement)
                tried.append(str(exc))
                if _leaks(shown, str(exc)):
                    yield engine, fmt, secret, statement, exc
                    break
            else:
                raise AssertionError(f"{engine} echoed no part of {fmt.name}: {tried}")


def test_there_are_at_least_twenty_formats() -> None:
    assert len(FORMATS) >= 20
    assert len({f.name for f in FORMATS}) == len(FORMATS)


def test_no_secret_survives_a_real_error_in_any_output(
    engines: Engines, captured: list[str]
) -> None:
    ErrorMapperRegistry.register("leaky", _RaisingMapper())
    cases = 0
    failures = []
    cli_input = []
    for engine, fmt, secret, statement, exc in _real_errors(engines):
        raw = str(exc)
        shown = _rendered(fmt, secret)
        cases += 1
        leaked = _leaks(shown, _everything(exc, raw, engine, statement))
        if leaked:
            failures.append(f"{engine} / {fmt.name}: {leaked[0]!r}")
        cli_input.append((engine, raw, shown))
    leaked_logs = [r for _, _, s in cli_input for r in captured if _leaks(s, r)]
    assert not failures, "\n".join(failures)
    assert not leaked_logs, leaked_logs[:3]
    assert cases == len(FORMATS) * len(CARRIERS)
    # The raising plugin's warning was logged, with the driver's text in it (masked).
    assert any("_RaisingMapper raised" in r for r in captured)
    _CLI_CASES.extend(cli_input)


_CLI_CASES: list[tuple[str, str, str]] = []


@pytest.mark.parametrize("shape", ["localdata", "tool", "jsonrpc", "agent"])
def test_no_secret_survives_the_command_line(engines: Engines, shape: str) -> None:
    if not _CLI_CASES:
        for engine, fmt, secret, _statement, exc in _real_errors(engines):
            _CLI_CASES.append((engine, str(exc), _rendered(fmt, secret)))
    lines = "".join(
        json.dumps({"message": raw, "db": engine}) + "\n" for engine, raw, _ in _CLI_CASES
    )
    # The tool name is the caller's text too: a message, credential and all.
    tool_name = _CLI_CASES[0][1]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "localdata_errors",
            "classify",
            "--shape",
            shape,
            "--tool-name",
            tool_name,
        ],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    outputs = done.stdout.splitlines()
    assert len(outputs) == len(_CLI_CASES)
    for (engine, _raw, secret), line in zip(_CLI_CASES, outputs, strict=True):
        assert not _leaks(secret, json.loads(line)), (engine, line)
        assert not _leaks(_CLI_CASES[0][2], json.loads(line)), line
    assert not any(_leaks(secret, done.stderr) for _, _, secret in _CLI_CASES)


# -- the generative part: random secrets in driver text captured once per engine ------------

# How the carrier at each position quotes what it carries: not at all (the clause
# inline, a table name the engine shows bare), or in a string literal.
ESCAPES: dict[str, list[str]] = {
    "postgresql": ["none", "sql"],
    "mysql": ["none", "none"],  # the literal carrier for text is "mysql": see _escape_for
    "duckdb": ["none", "sql", "none"],
    "sqlite": ["none"],
}


def _escape_for(engine: str, index: int, fmt: Format) -> str:
    if engine == "mysql" and index == 0 and not fmt.sql:
        return "mysql"
    return ESCAPES[engine][index]


def _placeholder(fmt: Format) -> str:
    size = fmt.size - len(fmt.prefix)
    filler = "QQSLOT7QQ" if all(c in fmt.alphabet for c in "QSLOT7") else "DEADBEEF"
    return fmt.prefix + (filler * size)[:size]


@dataclass(frozen=True)
class Template:
    """A real error of one engine for one format, a placeholder where the secret was."""

    engine: str
    fmt: Format
    exc_type: type[BaseException]
    args: tuple[object, ...]
    placeholder: str
    escape: str

    def __repr__(self) -> str:
        return f"<{self.engine} {self.fmt.name}>"


def _capture(engines: Engines) -> list[Template]:
    templates = []
    for fmt in FORMATS:
        placeholder = _placeholder(fmt)
        text = fmt.write(placeholder)
        for engine, carriers in CARRIERS.items():
            for index, carrier in enumerate(carriers):
                statement = carrier(fmt, text)
                if statement is None:
                    continue
                exc = engines.error(engine, statement)
                # Usable when the placeholder shows once, whole (not cut by an excerpt).
                if str(exc).count(placeholder) == 1:
                    escape = _escape_for(engine, index, fmt)
                    templates.append(
                        Template(engine, fmt, type(exc), exc.args, placeholder, escape)
                    )
                    break
    return templates


class Templates:
    """The captured templates; shown in a failure report by their count only."""

    def __init__(self, items: list[Template]) -> None:
        self.items = items

    def __repr__(self) -> str:
        return f"<{len(self.items)} templates>"


@pytest.fixture(scope="module")
def templates(engines: Engines) -> Templates:
    captured = _capture(engines)
    # Most (engine, format) pairs show the whole secret in some real error.
    assert len(captured) >= 3 * len(FORMATS)
    return Templates(captured)


def _written(fmt: Format, placeholder: str, secret: str) -> str:
    """The secret as the format writes it (quotes doubled, escapes, braces, percent-encoding)."""
    with_placeholder = fmt.write(placeholder)
    before, _, after = with_placeholder.partition(placeholder)
    written = fmt.write(secret)
    return written[len(before) : len(written) - len(after)]


def _as_shown(escape: str, written: str) -> str:
    if escape == "sql":
        return _sql(written)
    if escape == "mysql":
        return written.replace("\\", "\\\\").replace("'", "''")
    return written


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    pick=st.integers(min_value=0, max_value=10**6),
    codes=st.lists(st.integers(min_value=0, max_value=255), max_size=48),
)
def test_random_secrets_in_captured_driver_text(
    templates: Templates, captured: list[str], pick: int, codes: list[int]
) -> None:
    template = templates.items[pick % len(templates.items)]
    fmt = template.fmt
    # The drawn codes, read in the format's alphabet, to its size (exactly, for key ids).
    size = fmt.size - len(fmt.prefix)
    body = "".join(fmt.alphabet[c % len(fmt.alphabet)] for c in codes)
    body = (body + fmt.alphabet[0] * size)[: size if fmt.exact else max(size, len(body))]
    secret = fmt.prefix + body
    shown = _as_shown(template.escape, _written(fmt, template.placeholder, secret))
    args = tuple(
        a.replace(template.placeholder, shown) if isinstance(a, str) else a for a in template.args
    )
    logged = len(captured)
    exc = template.exc_type(*args)
    outputs = _outputs(exc, template.engine)
    log_classified_error(logging.getLogger("tests.redaction"), exc)
    outputs.append(captured[logged:])
    # Five characters of a random secret may spell part of the fixed text
    # ("rrors" of "localdata_errors"): what the same error shows without the
    # secret is no leak.
    logged = len(captured)
    plain = template.exc_type(*template.args)
    baseline = _outputs(plain, template.engine)
    log_classified_error(logging.getLogger("tests.redaction"), plain)
    baseline.append(captured[logged:])
    leaked = _leaks(_rendered(fmt, secret), outputs, baseline)
    assert not leaked, (template.engine, fmt.name, args, leaked[:1])


def _outputs(exc: BaseException, engine: str) -> list[Any]:
    outputs: list[Any] = []
    for resp in (classify_error(exc), classify_message(str(exc), engine)):
        outputs += _shapes(resp, tool_name="execute_sql")
    return outputs
