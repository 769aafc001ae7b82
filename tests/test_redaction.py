"""
Never leak: credentials and bound parameters never reach any output field, in any shape.

Random secrets are generated in each format a driver message may carry them
in (URL user-info, libpq and ODBC key=value pairs, Oracle connect strings,
query-string tokens), embedded in realistic messages of each backend's
drivers, classified through exceptions claiming those drivers, and searched
for in the JSON dump of every shape, the OpenTelemetry attributes and the
log line.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from localdata_errors import StructuredErrorResponse, classify_error, classify_message, redact
from localdata_errors._redact import MASK
from localdata_errors.observability import log_classified_error, to_otel_attributes

PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _secret(extra: str, min_size: int = 6) -> st.SearchStrategy[str]:
    """A secret: a marker no message contains, then characters legal in the format."""
    body = st.text(alphabet=ALNUM + extra, min_size=min_size, max_size=40)
    return body.map(lambda s: f"Zq7{s}")


# Each format: (characters a secret may use there, how the secret is written).
FORMATS: dict[str, tuple[str, Callable[[str], str]]] = {
    "url": ("-._~!$*+,;=%@:", lambda s: f"postgresql://app_user:{s}@db.internal:5432/sales"),
    "url_driver": ("-._~!$*+,=%", lambda s: f"mysql+pymysql://root:{s}@127.0.0.1:3306/test"),
    "libpq": (
        "-._~!$*+:<>?[]^_{|}#",
        lambda s: f"host=db port=5432 user=app password={s} dbname=sales",
    ),
    "libpq_quoted": (
        " -._~!$*+;&,)'\\\"=:",
        lambda s: (
            "host=db password='" + s.replace("\\", "\\\\").replace("'", "\\'") + "' dbname=sales"
        ),
    ),
    "odbc": (
        "-._~!$*+:<>?[]^_|#",
        lambda s: f"DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=db;UID=sa;PWD={s};Encrypt=yes",
    ),
    "odbc_braced": (
        " -._~!$*+;&,)'\"=:{}",
        lambda s: (
            "Driver={ODBC Driver 18 for SQL Server};"
            "Server=db;Uid=sa;Pwd={" + s.replace("}", "}}") + "};Encrypt=yes"
        ),
    ),
    "odbc_password": ("-._~!$*+:<>?[]^_|#", lambda s: f"Server=db;User Id=sa;Password={s};"),
    "oracle": ("-._~!$*+#%^", lambda s: f"scott/{s}@orclpdb1"),
    "oracle_easy": ("-._~!$*+#%^", lambda s: f"scott/{s}@//dbhost:1521/orclpdb1"),
    "oracle_quoted": (" -._~!$*+#%^@/;", lambda s: f'scott/"{s}"@orclpdb1'),
    "query_token": ("-._~%", lambda s: f"https://api.internal/v1/q?token={s}&limit=10"),
    "query_sig": ("-._~%", lambda s: f"https://store/o?X-Amz-Signature={s}&X-Amz-Date=1"),
    "json": ("-._~!$*+:<>?[]^_{|}# ", lambda s: '{"user": "app", "password": "' + s + '"}'),
}

# Where a connection string shows up in real drivers' messages, per backend.
TEMPLATES: dict[str, tuple[str, tuple[str, ...]]] = {
    "postgresql": (
        "psycopg",
        (
            'connection to server at "db" (10.0.0.5), port 5432 failed: FATAL:  password '
            'authentication failed for user "app" (dsn: {dsn})',
            'invalid connection option "pasword" in {dsn}',
        ),
    ),
    "mysql": (
        "pymysql.err",
        (
            "(2003, \"Can't connect to MySQL server on 'db' ([Errno 111] Connection refused)\") "
            "url={dsn}",
            "Access denied for user 'root'@'10.0.0.5' (using password: YES) while using {dsn}",
        ),
    ),
    "sqlite": ("sqlite3", ("unable to open database file: {dsn}",)),
    "duckdb": ("duckdb", ('IO Error: Cannot open database "{dsn}": No such file',)),
    "oracle": (
        "oracledb.exceptions",
        (
            "ORA-12154: TNS:could not resolve the connect identifier specified ({dsn})",
            "DPY-6005: cannot connect to database (CONNECTION_ID=x). {dsn}",
        ),
    ),
    "mssql": (
        "pyodbc",
        (
            "('08001', '[08001] [Microsoft][ODBC Driver 18 for SQL Server]TCP Provider: "
            "Error code 0x2749 (10057) (SQLDriverConnect)') connecting with {dsn}",
            "[28000] [Microsoft][ODBC Driver 18 for SQL Server][SQL Server]Login failed for "
            "user 'sa'. (18456) {dsn}",
        ),
    ),
}


def _exception(module: str, message: str) -> BaseException:
    if module == "sqlite3":
        return sqlite3.OperationalError(message)
    klass = type("OperationalError", (Exception,), {"__module__": module})
    return klass(message)


def _everything(resp: StructuredErrorResponse) -> str:
    when = datetime(2024, 1, 1, tzinfo=UTC)
    return json.dumps(
        [
            resp.to_dict(),
            resp.to_tool_error(),
            resp.to_jsonrpc_error("q", timestamp=when),
            resp.to_agent_response(),
            to_otel_attributes(resp),
            resp.to_json(),
        ],
        ensure_ascii=False,
    )


@st.composite
def secret_in_message(draw: st.DrawFn) -> tuple[str, str, str, str]:
    """(backend, driver module, message, secret)."""
    fmt = draw(st.sampled_from(sorted(FORMATS)))
    alphabet, write = FORMATS[fmt]
    secret = draw(_secret(alphabet))
    backend = draw(st.sampled_from(sorted(TEMPLATES)))
    module, templates = TEMPLATES[backend]
    template = draw(st.sampled_from(templates))
    return backend, module, template.replace("{dsn}", write(secret)), secret


@PROPERTY
@given(case=secret_in_message())
def test_credentials_never_reach_any_shape(case: tuple[str, str, str, str]) -> None:
    backend, module, message, secret = case
    exc = _exception(module, message)
    for resp in (
        classify_error(exc),
        classify_error(exc, backend),
        classify_message(message, backend),
    ):
        assert secret not in _everything(resp)
        assert MASK in resp.message


@PROPERTY
# Quotes are left out of the values: a value ending in one is masked whole,
# but its JSON rendering ("...\"") would look like a leak to the substring search.
@given(value=_secret(" -_.@%", min_size=0), backend=st.sampled_from(sorted(TEMPLATES)))
def test_bound_parameters_are_masked_where_the_caller_asks(value: str, backend: str) -> None:
    assume(value.strip() == value)
    module, _ = TEMPLATES[backend]
    messages = [
        f'duplicate key value violates unique constraint "users_email_key"\n'
        f"DETAIL:  Key (email)=({value}) already exists.",
        f"Duplicate entry '{value}' for key 'users.email'",
        f'relation "{value}" does not exist',
        f"Cannot insert duplicate key row in object 'dbo.users' with unique index "
        f"'ix_email'. The duplicate key value is ({value}). (2601)",
    ]
    for message in messages:
        exc = _exception(module, message)
        resp = classify_error(exc, secrets=[value])
        dumped = _everything(resp)
        # The mask may itself be part of the value; look for the value elsewhere only.
        assert value not in dumped.replace(MASK, "\x00")


def test_log_line_and_record_never_hold_the_secret(caplog: pytest.LogCaptureFixture) -> None:
    exc = _exception(
        "psycopg",
        "could not connect: postgresql://app:Zq7-hunter2@db/sales "
        "password=Zq7-other; bound value Zq7-card-4111",
    )
    logger = logging.getLogger("lde_redaction_test")
    with caplog.at_level(logging.WARNING, logger="lde_redaction_test"):
        log_classified_error(logger, exc, secrets=["Zq7-card-4111"])
    mine = [r for r in caplog.records if r.name == "lde_redaction_test"]
    assert len(mine) == 1
    text = mine[0].getMessage() + json.dumps(mine[0].__dict__, default=str)
    assert "Zq7" not in text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("postgresql://u:secret@h/db", "secret"),
        ("postgresql://u:sec@ret@h/db", "sec@ret"),
        ("mysql+pymysql://root:p%40ss:w0rd@127.0.0.1:3306/test", "p%40ss:w0rd"),
        ("host=db password='s3 \\'cr et' user=x", "cr et"),
        ("DRIVER={x};UID=sa;PWD={ab;c}}d};X=1", "c}}d"),
        ('Server=x;User Id=sa;Password = "Pa;55word";', "55word"),
        ("scott/tiger1@//host:1521/svc", "tiger1"),
        ('scott/"ti ger"@orcl', "ti ger"),
        ('{"user": "u", "password": "hunter22"}', "hunter22"),
        ("{'password': 'hunter22'}", "hunter22"),
        ("https://h/x?token=abc123&sig=zzz999&x=1", "zzz999"),
        ("password='unterminated value", "unterminated"),
        ("token=" + "a1" * 3000, "a1a1a1"),
    ],
)
def test_redact_formats(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "Access denied for user 'root'@'localhost' (using password: YES)",
        "Access denied for user 'root'@'localhost' (using password: NO)",
        'relation "users" does not exist',
        'duplicate key value violates unique constraint "users_pkey"',
        "ORA-00942: table or view does not exist",
    ],
)
def test_redact_leaves_ordinary_messages_alone(text: str) -> None:
    assert redact(text) == text


def test_secrets_of_any_type() -> None:
    # Each named value masks the whole token it occurs in (see redact's docstring).
    text = "values (12345, b'raw', 'plain') ab"
    assert redact(text, [12345, b"raw", "plain", None, "ab"]) == "values *** *** *** ab"
