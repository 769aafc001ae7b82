"""The SQLSTATE PostgreSQL sets from errno, read from the strerror text `%m` printed."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from generate_postgresql_errno import musl_texts, strerror_texts, switches

from localdata_errors import classify_message
from localdata_errors.backends._postgresql_errno import SQLSTATES, STRERROR
from localdata_errors.backends._postgresql_server import errno_sqlstate

_15 = """\
# a format section
could not open file "%s": %m\terrno:file
# the errno section
errno:file\tENOENT\t58P01
errno:file\t*\tXX000
errno:socket\tEPIPE\t08006
errno:socket\t*\tXX000
"""
_18 = """\
errno:file\tENOENT\t58P01
errno:file\tENAMETOOLONG\t58P03
errno:file\t*\tXX000
errno:socket\tEPIPE\t08006
errno:socket\t*\tXX000
"""


def test_the_releases_switches_join_and_an_errno_they_differ_on_gets_none(
    tmp_path: Path,
) -> None:
    paths = [tmp_path / "postgresql-sqlstates.tsv", tmp_path / "postgresql-18-sqlstates.tsv"]
    paths[0].write_text(_15, encoding="utf-8")
    paths[1].write_text(_18, encoding="utf-8")
    assert switches(paths) == {
        # 15 has no case for it: its default, XX000; 18's 58P03.
        "errno:file": {"ENAMETOOLONG": None, "ENOENT": "58P01", "*": "XX000"},
        "errno:socket": {"EPIPE": "08006", "*": "XX000"},
    }


def test_a_file_without_its_errno_section_fails(tmp_path: Path) -> None:
    path = tmp_path / "postgresql-sqlstates.tsv"
    path.write_text('could not open file "%s": %m\terrno:file\n', encoding="utf-8")
    with pytest.raises(ValueError, match="no errno section"):
        switches([path])


def test_a_text_two_errnos_have_is_left_out() -> None:
    musl = musl_texts(
        'E(0, "No error information")\nE(EIO, "I/O error")\nE(ENOMEM, "Out of memory")'
    )
    assert musl == {"EIO": "I/O error", "ENOMEM": "Out of memory"}
    texts = strerror_texts({"EIO": "Input/output error"}, musl, {"EPERM": "I/O error"})
    assert texts == {"Input/output error": "EIO", "Out of memory": "ENOMEM"}


def test_the_table_holds_this_systems_texts_and_musls() -> None:
    assert STRERROR[os.strerror(errno.ENOENT)] == "ENOENT"
    assert STRERROR["I/O error"] == "EIO"  # musl's; glibc's is "Input/output error"
    assert SQLSTATES["errno:file"]["ENOENT"] == "58P01"
    assert SQLSTATES["errno:file"]["ENAMETOOLONG"] is None  # 15: XX000, 18: 58P03


@pytest.mark.parametrize(
    ("marker", "text", "sqlstate"),
    [
        ("errno:file", ' "x": No such file or directory', "58P01"),
        ("errno:file", ' "x": Too many open files in system', "53000"),  # the longest text
        ("errno:file", ' "x": Invalid argument', "XX000"),  # any other errno: the default
        ("errno:file", ' "x": File name too long', None),  # the releases differ
        ("errno:file", ' "x": not an errno', None),
        ("errno:socket", ": Connection reset by peer", "08006"),
        ("errno:nothing", ": Connection reset by peer", None),
    ],
)
def test_the_strerror_text_names_the_sqlstate(marker: str, text: str, sqlstate: str | None) -> None:
    assert errno_sqlstate(marker, text) == sqlstate


def test_a_detail_saying_the_words_again_reports_its_primary_messages_sqlstate() -> None:
    # PostgreSQL 17's refusal of a missing extension: 0A000 (its DETAIL, in the
    # style guide's capital and full stop, says the older primary message's words).
    text = (
        'ERROR:  extension "vector" is not available\n'
        'DETAIL:  Could not open extension control file "/usr/share/postgresql/17/extension/'
        'vector.control": No such file or directory.\n'
        "HINT:  The extension must first be installed on the system where PostgreSQL is running."
    )
    assert classify_message(text).database_error_code == "0A000"
    assert classify_message(text.split("\n", 1)[1]).database_error_code is None
