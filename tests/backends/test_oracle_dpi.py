"""
ODPI-C's catalogue: every DPI- message through thick mode's own error machinery.

Each message of ODPI-C's table (as python-oracledb's thick implementation
carries it, read by `tools/generate_odpi_messages.py`) is formatted as
``dpiError__set`` formats it and built as thick mode builds its errors:
``errors._Error(message, context, code=0, ...)`` while ``is_thin_mode()`` is
false, so the driver itself puts its ``DPY-`` translation above those it
translates.  The kind each must get is the corpus's own reading of the text
(`tests.corpus.oracle.dpi_reading`), never the generated table.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from localdata_errors import KIND_TABLE, Kind, classify_error
from localdata_errors._mapper import ErrorInput
from localdata_errors.backends.oracle import OracleMapper
from tests.conftest import require_module
from tests.corpus import oracle as corpus

MESSAGES = [
    pytest.param(code, text, recoverable, id=code)
    for code, (text, recoverable) in corpus.DPI_TEXTS.items()
]


@pytest.fixture(autouse=True)
def _driver() -> None:
    require_module("oracledb")


def _mapped_kind(exc: BaseException) -> Kind:
    """What the backend itself decides, before the keyword fallback."""
    mapped = OracleMapper().map_error(ErrorInput(exc, str(exc), None, "oracledb"))
    assert mapped is not None
    return mapped.kind


@pytest.mark.parametrize(("code", "text", "recoverable"), MESSAGES)
def test_every_message_through_thick_mode(code: str, text: str, recoverable: bool) -> None:
    exc = corpus.dpi_thick(text, recoverable)
    assert type(exc).__module__ == "oracledb.exceptions"
    error: Any = exc.args[0]
    assert error.code == 0
    assert code in error.message
    resp = classify_error(exc)
    assert resp.database_error_code == code
    assert resp.backend == "oracle"
    expected = corpus.dpi_reading(text)
    if expected is Kind.UNKNOWN:
        # No kind says what went wrong: the backend says so and the keywords decide.
        assert _mapped_kind(exc) is Kind.UNKNOWN
    else:
        assert resp.kind is expected, resp.message
        assert resp.error_type is KIND_TABLE[expected].category
        assert resp.is_retryable is (KIND_TABLE[expected].retryable or recoverable)


def test_no_connection_message_is_unknown() -> None:
    about_connection = {
        code: text
        for code, (text, _) in corpus.DPI_TEXTS.items()
        if any(word in text.split("\n", 1)[0].lower() for word in corpus.DPI_CONNECTION_WORDS)
    }
    assert len(about_connection) >= 20
    unknown = {
        code: text
        for code, text in about_connection.items()
        if _mapped_kind(corpus.dpi_thick(text)) is Kind.UNKNOWN
    }
    assert unknown == {}


def test_the_catalogue_is_complete() -> None:
    # ODPI-C numbers its messages from DPI-1000 on, without gaps.
    numbers = sorted(int(code[4:]) for code in corpus.DPI_TEXTS)
    assert len(numbers) >= 80
    declared = {code for code in OracleMapper().declared_codes() if code.startswith("DPI")}
    assert declared <= set(corpus.DPI_TEXTS)
    assert {"DPI-1010", "DPI-1047", "DPI-1067", "DPI-1072", "DPI-1080"} <= declared


@pytest.mark.parametrize(
    ("code", "dpy"),
    [("DPI-1010", "DPY-1001"), ("DPI-1067", "DPY-4024"), ("DPI-1080", "DPY-4011")],
)
def test_a_translated_message_is_answered_by_its_dpi_line(code: str, dpy: str) -> None:
    text, recoverable = corpus.DPI_TEXTS[code]
    exc = corpus.dpi_thick(text, recoverable)
    error: Any = exc.args[0]
    # The driver names its own code and puts its line first ...
    assert error.full_code == dpy
    assert error.message.startswith(f"{dpy}: ")
    # ... and the answer is the ODPI-C line beneath it, with the same meaning.
    resp = classify_error(exc)
    assert resp.database_error_code == code
    errors = importlib.import_module("oracledb.errors")
    dpy_resp = classify_error(errors._create_exception(int(dpy[4:]), timeout=5000))
    assert resp.kind is dpy_resp.kind
