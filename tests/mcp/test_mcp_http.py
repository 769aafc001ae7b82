"""
The server over HTTP: loopback by default, a bearer token to go further, 401 without it.

Real servers on free loopback ports, called with plain HTTP and with the
``mcp`` SDK's own streamable-HTTP client; and the one command line both
entries share, refusing what it should before anything listens.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from anyio.from_thread import start_blocking_portal
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from localdata_errors._cli import main as cli_main
from localdata_errors.mcp.server import main as server_main
from tests.mcp._harness import REPO

TOKEN = "lde-test-token-0123456789abcdef"
ENTRIES = [
    [sys.executable, "-m", "localdata_errors.mcp.server"],
    [sys.executable, "-m", "localdata_errors", "serve"],
]
INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "lde-test", "version": "1"},
        },
    }
).encode()
# Requests to this machine must not go through a proxy from the environment.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _own_addresses() -> set[str]:
    """This machine's non-loopback IPv4 addresses (none on a machine without a network)."""
    found: set[str] = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("198.51.100.1", 9))  # a UDP "connect" sends nothing
            found.add(sock.getsockname()[0])
        except OSError:
            pass
    return {a for a in found if not a.startswith("127.")}


class HttpServer:
    """A server subprocess on the http transport, and what it logged."""

    def __init__(
        self,
        tmp: Path,
        *flags: str,
        env: dict[str, str] | None = None,
        address: str = "127.0.0.1",
    ) -> None:
        self.port = _free_port()
        self.address = address
        shown = f"[{address}]" if ":" in address else address
        self.url = f"http://{shown}:{self.port}/mcp"
        self.log = tmp / f"server-{self.port}.log"
        environment = {k: v for k, v in os.environ.items() if not k.startswith("LOCALDATA_ERRORS")}
        environment.update(env or {})
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [
                    *ENTRIES[0],
                    "--url",
                    f"sqlite:///{tmp / 'http.db'}",
                    "--transport",
                    "http",
                    "--port",
                    str(self.port),
                    *flags,
                ],
                cwd=REPO,
                env=environment,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                with socket.create_connection((self.address, self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"the server did not listen: {self.log.read_text()}")

    def post(self, headers: dict[str, str]) -> tuple[int, Any, bytes]:
        """POST an initialize request; the status, headers and the start of the body."""
        request = urllib.request.Request(  # noqa: S310 - a loopback http URL built here
            self.url,
            data=INITIALIZE,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                **headers,
            },
        )
        try:
            with _OPENER.open(request, timeout=30) as response:
                return response.status, response.headers, response.read(200)
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def close(self) -> str:
        """Stop the server; what it logged."""
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=20)
        return self.log.read_text()


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Path:
    """A small database for the server to read."""
    import sqlite3

    conn = sqlite3.connect(tmp_path / "http.db")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('hello')")
    conn.commit()
    conn.close()
    return tmp_path


@pytest.fixture
def token_server(sqlite_file: Path) -> Iterator[HttpServer]:
    """A read-only server whose token comes from the environment."""
    server = HttpServer(sqlite_file, "--read-only", env={"LOCALDATA_ERRORS_TOKEN": TOKEN})
    try:
        yield server
    finally:
        server.close()


def test_requests_without_the_token_get_401(token_server: HttpServer) -> None:
    for headers in (
        {},
        {"Authorization": "Bearer wrong-token-0123456789abcdef"},
        {"Authorization": f"Bearer {TOKEN}x"},
        {"Authorization": f"Basic {TOKEN}"},
        {"Authorization": TOKEN},
    ):
        status, answer_headers, body = token_server.post(headers)
        assert status == 401, headers
        assert answer_headers.get("WWW-Authenticate", "").startswith("Bearer")
        assert json.loads(body)["error"] == "invalid_token"
    status, _, body = token_server.post({"Authorization": f"Bearer {TOKEN}"})
    assert status == 200
    assert b"serverInfo" in body or b"event" in body


# -- DNS rebinding: a loopback server serves only requests naming its address ---------


def _rebinding(server: HttpServer, own: list[str]) -> None:
    port = server.port
    for host in own:
        assert server.post({"Host": f"{host}:{port}"})[0] == 200, host
    for host in ("attacker.example", "attacker.example.", "127.0.0.1.nip.io", "localhost.evil"):
        status, _, body = server.post({"Host": f"{host}:{port}"})
        assert status == 421, host
        assert b"Host header" in body
    assert server.post({"Host": f"{own[0]}:{port + 1}"})[0] == 421
    assert server.post({"Host": f"{own[0]}:{port}", "Origin": "http://attacker.example"})[0] == 403
    same_origin = {"Host": f"{own[0]}:{port}", "Origin": f"http://{own[0]}:{port}"}
    assert server.post(same_origin)[0] == 200


@pytest.mark.parametrize(
    ("bound", "own"),
    [
        ("127.0.0.2", ["127.0.0.2", "localhost"]),
        ("LOCALHOST", ["localhost", "LOCALHOST", "127.0.0.1"]),
        ("127.0.0.1", ["127.0.0.1", "localhost", "LocalHost"]),
    ],
)
def test_a_loopback_server_serves_only_requests_naming_its_address(
    sqlite_file: Path, bound: str, own: list[str]
) -> None:
    """Any loopback alias counts as loopback (no token): its Host/Origin check follows it."""
    address = "127.0.0.1" if bound.lower() == "localhost" else bound
    server = HttpServer(sqlite_file, "--host", bound, address=address)
    try:
        _rebinding(server, own)
    finally:
        server.close()


def test_ipv6_loopback_is_checked_too(sqlite_file: Path) -> None:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("this machine has no IPv6 loopback; the check is the same as IPv4's")
    server = HttpServer(sqlite_file, "--host", "::1", address="::1")
    try:
        _rebinding(server, ["[::1]", "localhost"])
    finally:
        server.close()


def _call_over_http(url: str, token: str) -> tuple[set[str], dict[str, Any]]:
    async def session() -> tuple[set[str], dict[str, Any]]:
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx2.AsyncClient(headers=headers, trust_env=False, timeout=30) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            tools = {tool.name for tool in (await client.list_tools()).tools}
            result = await client.call_tool("select_rows", {"table": "notes"})
            assert isinstance(result.structured_content, dict)
            return tools, result.structured_content

    with start_blocking_portal() as portal:
        return portal.call(session)


def test_the_sdk_client_works_with_the_token(token_server: HttpServer) -> None:
    tools, rows = _call_over_http(token_server.url, TOKEN)
    assert tools == {"list_tables", "describe_table", "select_rows", "execute_sql"}
    assert rows["data"] == [{"id": 1, "body": "hello"}]


def test_the_default_is_loopback_only(sqlite_file: Path) -> None:
    server = HttpServer(sqlite_file)
    try:
        # No token on loopback: this machine's clients need none.
        status, _, _ = server.post({})
        assert status == 200
        for address in _own_addresses():
            with (
                pytest.raises(ConnectionRefusedError),
                socket.create_connection((address, server.port), timeout=2),
            ):
                pass
    finally:
        log = server.close()
    assert f"http://127.0.0.1:{server.port}" in log
    assert "no token: this machine only" in log


def test_allow_remote_with_a_token_flag(sqlite_file: Path) -> None:
    everywhere = "0.0.0.0"  # noqa: S104 - what --allow-remote is for; the token guards it
    server = HttpServer(sqlite_file, "--allow-remote", "--host", everywhere, "--auth-token", TOKEN)
    try:
        assert server.post({})[0] == 401
        assert server.post({"Authorization": f"Bearer {TOKEN}"})[0] == 200
    finally:
        log = server.close()
    assert "bearer token required" in log
    assert TOKEN not in log


def _run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LOCALDATA_ERRORS")}
    environment.update(env or {})
    return subprocess.run(
        args,
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


REFUSED = [
    (["--transport", "http", "--host", "0.0.0.0"], {}, "not a loopback address"),  # noqa: S104
    (["--transport", "http", "--host", "192.0.2.10"], {}, "not a loopback address"),
    (["--transport", "http", "--allow-remote"], {}, "needs a bearer token"),
    (["--transport", "http", "--auth-token", "short"], {}, "at least 16 characters"),
    (["--transport", "http"], {"LOCALDATA_ERRORS_TOKEN": "short"}, "at least 16 characters"),
    (["--allow-remote", "--auth-token", TOKEN], {}, "apply to --transport http"),
    (["--max-rows", "-5"], {}, "argument --max-rows: must be positive"),
    (["--max-rows", "many"], {}, "argument --max-rows: not a whole number"),
    (["--timeout", "-1"], {}, "argument --timeout: must not be negative"),
    (["--port", "70000"], {}, "argument --port: not a TCP port"),
    (["--transport", "carrier-pigeon"], {}, "argument --transport: invalid choice"),
]


def _module_main(flags: list[str]) -> object:
    return server_main(flags)


def _cli_main(flags: list[str]) -> object:
    return cli_main(["serve", *flags])


# Both entries parse with the same function; the CLI's own entry is checked
# on a sample, the module's (which used to drift) on every case.  The flags
# are refused while they are parsed, before anything is served or logged: the
# entries' main functions are called here, and each command is run once
# (`test_bad_flags_end_the_process_like_argparse`) for what the process does.
_BOTH = [(_module_main, case) for case in REFUSED] + [
    (_cli_main, case)
    for case in REFUSED
    if case[2].startswith(("not a", "needs", "argument --max"))
]


@pytest.mark.parametrize(
    ("entry", "case"),
    _BOTH,
    ids=[f"{'cli' if e is _cli_main else 'module'}: {' '.join(c[0])}" for e, c in _BOTH],
)
def test_bad_flags_end_like_argparse(
    entry: Callable[[list[str]], object],
    case: tuple[list[str], dict[str, str], str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags, env, words = case
    for name in [k for k in os.environ if k.startswith("LOCALDATA_ERRORS")]:
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as ended:
        entry(flags)
    out = capsys.readouterr()
    assert ended.value.code == 2, out.err
    assert out.err.startswith("usage: ")
    assert words in out.err
    assert out.out == ""


@pytest.mark.parametrize("entry", ENTRIES, ids=["module", "cli"])
def test_bad_flags_end_the_process_like_argparse(entry: list[str]) -> None:
    out = _run([*entry, "--max-rows", "many"])
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("usage: ")
    assert "argument --max-rows: not a whole number" in out.stderr
    assert "Traceback" not in out.stderr
    assert out.stdout == ""


BAD_URLS = [
    ("nonsense", "not a database URL"),
    ("nosuch://x", "knows no dialect or driver 'nosuch'"),
    ("mysql+nodriver://u:hunter22@h/db", "knows no dialect or driver"),
]


# Each URL through the module's entry; the CLI's hands the same function the
# same arguments, and is run with the URL that carries a password.
@pytest.mark.parametrize(
    ("entry", "url", "words"),
    [(ENTRIES[0], url, words) for url, words in BAD_URLS] + [(ENTRIES[1], *BAD_URLS[2])],
    ids=[f"module-{url}" for url, _ in BAD_URLS] + [f"cli-{BAD_URLS[2][0]}"],
)
def test_a_bad_url_is_one_line_without_the_password(entry: list[str], url: str, words: str) -> None:
    out = _run([*entry, "--url", url])
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert words in lines[0]
    assert "--url" in lines[0]
    assert "hunter22" not in out.stderr


def test_a_bad_url_from_the_environment_is_masked_too() -> None:
    out = _run(ENTRIES[0], {"LOCALDATA_ERRORS_URL": "nosuch://u:hunter22@h/db"})
    assert out.returncode == 2
    assert "hunter22" not in out.stderr
    assert "u:***@h" in out.stderr
