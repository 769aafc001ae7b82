"""
The server's settings: one object the command line parses into, and what it refuses.

The settings belong to the server (``localdata_errors.mcp._settings``): the
server module never imports the command line, and both entries parse the
same flags.  A SQLite or DuckDB URL names a file that exists, unless
``--create`` says to make one.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from localdata_errors._cli import main as cli_main
from localdata_errors.mcp._settings import (
    DEFAULT_MAX_BYTES,
    ServerSettings,
    add_arguments,
    from_arguments,
)
from localdata_errors.mcp._sql import Database, DatabaseURLError
from localdata_errors.mcp.server import main as server_main
from tests.mcp._harness import REPO, StdioServer


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LOCALDATA_ERRORS")}
    return subprocess.run(
        [sys.executable, *args],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_server_module_does_not_import_the_command_line() -> None:
    code = (
        "import sys, localdata_errors.mcp.server; "
        "assert 'localdata_errors._cli' not in sys.modules, sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60, cwd=REPO)


def _parse(*flags: str, environ: dict[str, str] | None = None) -> ServerSettings:
    parser = add_arguments(argparse.ArgumentParser(prog="t", exit_on_error=False))
    return from_arguments(parser, parser.parse_args(flags), environ or {})


def test_flags_parse_into_the_settings() -> None:
    settings = _parse(
        "--url",
        "sqlite:///x.db",
        "--read-only",
        "--allow-privileged-login",
        "--max-bytes",
        "2M",
        "--timeout",
        "0",
    )
    assert settings == ServerSettings(
        "sqlite:///x.db",
        read_only=True,
        allow_privileged_login=True,
        max_bytes=2 * 1024 * 1024,
        timeout=None,
    )
    assert _parse().max_bytes == DEFAULT_MAX_BYTES
    assert _parse(environ={"LOCALDATA_ERRORS_URL": "duckdb:///y"}).url == "duckdb:///y"
    # Neither the URL (a password) nor the token is in the settings' repr.
    shown = repr(ServerSettings("postgresql://u:hunter22@h/db", auth_token="t" * 20))
    assert "hunter22" not in shown
    assert "t" * 20 not in shown


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--max-bytes", "10"], "must be at least 1024 bytes"),
        (["--max-bytes", "lots"], "not a size"),
        (["--allow-privileged-login"], "applies to --read-only"),
    ],
)
def test_bad_settings_end_like_argparse(
    flags: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Refused while parsing, before anything is served or logged: both entries'
    # main functions are called here (test_mcp_http runs each command for the
    # status its process ends with).
    for entry in (server_main, lambda argv: cli_main(["serve", *argv])):
        with pytest.raises(SystemExit) as ended:
            entry(flags)
        err = capsys.readouterr().err
        assert ended.value.code == 2, err
        assert err.startswith("usage: ")
        assert words in err


def test_serve_hands_its_arguments_to_the_server() -> None:
    out = _run(["-m", "localdata_errors", "serve", "--help"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: localdata-errors serve ")
    assert "--allow-privileged-login" in out.stdout
    assert "--max-bytes" in out.stdout
    assert "serve" in _run(["-m", "localdata_errors", "--help"]).stdout


# -- a file that does not exist --------------------------------------------------------


@pytest.mark.parametrize("scheme", ["sqlite", "duckdb"])
def test_a_mistyped_path_is_an_error_not_a_new_database(
    tmp_path: Path, scheme: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if scheme == "duckdb":
        pytest.importorskip("duckdb_engine")
    missing = tmp_path / "typo.db"
    url = f"{scheme}:///{missing}"
    with pytest.raises(DatabaseURLError, match="does not exist; check the path, or pass --create"):
        Database(url)
    # The module's command, run; the CLI's entry hands its main the same arguments.
    out = _run(["-m", "localdata_errors.mcp.server", "--url", url])
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1
    assert "does not exist" in out.stderr
    assert cli_main(["serve", "--url", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "does not exist" in err
    assert not missing.exists()
    created = Database(url, create=True)
    try:
        with created.transaction(write=True) as conn:
            conn.exec_driver_sql("CREATE TABLE t (a INTEGER)")
    finally:
        created.dispose()
    assert missing.exists()


def test_sqlite_itself_refuses_to_create_the_file(tmp_path: Path) -> None:
    """The check is SQLite's own (mode=rw): a file removed after the server started stays gone."""
    path = tmp_path / "gone.db"
    path.touch()
    db = Database(f"sqlite:///{path}")
    try:
        path.unlink()
        with (
            pytest.raises(sa.exc.OperationalError, match="unable to open database file"),
            db.transaction(write=False) as conn,
        ):
            conn.exec_driver_sql("SELECT 1")
        assert not path.exists()
    finally:
        db.dispose()


def test_create_makes_the_file_through_the_server(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    server = StdioServer(f"sqlite:///{path}", "--create")
    try:
        assert server.ok("list_tables")["tables"] == []
    finally:
        server.close()
    assert path.exists()
