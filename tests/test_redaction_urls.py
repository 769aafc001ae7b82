"""
A password in a connection URL is masked whatever characters it holds.

The texts are the drivers' own: libpq (through psycopg and psycopg2) quotes
the piece of a URI it could not parse, which may be the password, and
SQLAlchemy and the drivers print URLs back.  Nothing here connects anywhere:
each URL fails to parse, or names a port nothing listens on.
"""

from __future__ import annotations

import json

import pytest

from localdata_errors import classify_error, classify_message, redact
from tests.conftest import require_module

PASSWORDS = ["hunter 22", "pa ss@wo/rd", "it's s3cret", "p%zzword", 'a"b c']


def _outputs(answer: object) -> str:
    return json.dumps(
        [
            answer.to_tool_error(),  # type: ignore[attr-defined]
            answer.to_dict(),  # type: ignore[attr-defined]
            answer.to_jsonrpc_error(tool_name="t"),  # type: ignore[attr-defined]
        ]
    )


@pytest.mark.parametrize("driver", ["psycopg", "psycopg2"])
@pytest.mark.parametrize("password", PASSWORDS)
def test_libpq_quoting_a_url_piece_never_shows_the_password(driver: str, password: str) -> None:
    module = require_module(driver)
    with pytest.raises(module.Error) as raised:
        module.connect(f"postgresql://app:{password}@127.0.0.1:1/x", connect_timeout=1)
    answer = classify_error(raised.value)
    for piece in password.split():
        if len(piece) >= 3:
            assert piece not in _outputs(answer), (str(raised.value), answer.message)


@pytest.mark.parametrize("password", PASSWORDS)
@pytest.mark.parametrize(
    "scheme", ["postgresql", "mysql+pymysql", "oracle+oracledb", "mssql+pyodbc", "clickhouse"]
)
def test_a_url_echoed_in_a_message_never_shows_the_password(scheme: str, password: str) -> None:
    text = f"could not connect to {scheme}://app:{password}@db.example:5432/sales (timeout)"
    shown = [redact(text), classify_message(text).message, _outputs(classify_message(text))]
    for piece in password.split():
        if len(piece) >= 3:
            assert all(piece not in out for out in shown), shown
    assert "db.example" in shown[0]  # the host is kept
