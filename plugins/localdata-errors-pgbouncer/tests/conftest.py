"""
Fixtures: a fresh registry per test, and real PgBouncer processes in front of the local PostgreSQL.

Each PgBouncer gets its own port, directory and configuration (transaction
pooling, trust authentication, the limits the test asks for) and is stopped
after the test.  Without a ``pgbouncer`` binary (Debian's ``pgbouncer``
package) or a PostgreSQL server the tests that need them skip, except under
``CI=true``, where they fail.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from localdata_errors.testing import fresh_default_registry

PG_HOST = os.environ.get("LOCALDATA_ERRORS_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("LOCALDATA_ERRORS_PG_PORT", "5432"))
PG_USER = os.environ.get("LOCALDATA_ERRORS_PG_USER", "postgres")


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: required)")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    with fresh_default_registry():
        yield


class Bouncer(NamedTuple):
    """A running PgBouncer."""

    port: int
    process: subprocess.Popen[bytes]

    def dsn(self, dbname: str = "test") -> str:
        """A libpq connection string through this PgBouncer."""
        return f"host=127.0.0.1 port={self.port} user={PG_USER} dbname={dbname} connect_timeout=10"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _binary() -> str:
    found = shutil.which("pgbouncer") or next(
        (p for p in ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer") if Path(p).exists()), None
    )
    if found is None:
        _missing("no pgbouncer binary (apt-get install pgbouncer)")
    assert found is not None
    return found


def _postgresql_up() -> None:
    try:
        socket.create_connection((PG_HOST, PG_PORT), timeout=3).close()
    except OSError:
        _missing(f"no PostgreSQL server at {PG_HOST}:{PG_PORT}")


@pytest.fixture
def pgbouncer() -> Iterator[Callable[..., Bouncer]]:
    """Start PgBouncers with the given settings; all are stopped after the test."""
    binary = _binary()
    _postgresql_up()
    started: list[tuple[subprocess.Popen[bytes], str]] = []

    def start(*, wildcard: bool = True, server_port: int = PG_PORT, **settings: object) -> Bouncer:
        # A world-readable directory: as root, PgBouncer runs as "nobody" (it
        # refuses to run as root) and must read its configuration.
        workdir = tempfile.mkdtemp(prefix="ldepgb-")
        os.chmod(workdir, 0o755)  # noqa: S103 - read by the unprivileged pgbouncer
        port = _free_port()
        config = {
            "listen_addr": "127.0.0.1",
            "listen_port": port,
            "unix_socket_dir": "",
            "auth_type": "trust",
            "auth_file": f"{workdir}/users.txt",
            "pool_mode": "transaction",
            "max_client_conn": 20,
            "default_pool_size": 2,
            **settings,
        }
        databases = [f"test = host={PG_HOST} port={server_port} dbname=test"]
        if wildcard:
            databases.append(f"* = host={PG_HOST} port={server_port}")
        ini = "\n".join(
            ["[databases]", *databases, "[pgbouncer]", *(f"{k} = {v}" for k, v in config.items())]
        )
        Path(workdir, "users.txt").write_text(f'"{PG_USER}" ""\n')
        Path(workdir, "pgbouncer.ini").write_text(ini + "\n")
        for name in ("users.txt", "pgbouncer.ini"):
            os.chmod(Path(workdir, name), 0o644)
        command = [binary, f"{workdir}/pgbouncer.ini"]
        if os.geteuid() == 0:
            command[1:1] = ["-u", "nobody"]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        started.append((process, workdir))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if process.poll() is not None:
                output = process.stdout.read().decode(errors="replace") if process.stdout else ""
                pytest.fail(f"pgbouncer exited with {process.returncode}:\n{output}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return Bouncer(port, process)
            except OSError:
                time.sleep(0.05)
        pytest.fail("pgbouncer did not listen within 10 s")

    yield start
    for process, workdir in started:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
        shutil.rmtree(workdir, ignore_errors=True)


class Relay:
    """
    A TCP relay in front of PostgreSQL that can cut every connection it carries.

    PgBouncer, pointed at it, sees its server connections end without a word,
    as when the server crashes or the network between them breaks.
    """

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self._listener.accept()
            except OSError:
                return  # closed
            far = socket.create_connection((PG_HOST, PG_PORT))
            with self._lock:
                self._sockets += [near, far]
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=_pipe, args=(source, sink), daemon=True).start()

    def cut(self) -> None:
        """End every connection carried so far, both ways."""
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):  # already gone
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def close(self) -> None:
        """Stop listening and cut what is left."""
        self._listener.close()
        self.cut()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass  # cut


@pytest.fixture
def relay() -> Iterator[Relay]:
    """A `Relay` to the local PostgreSQL, closed after the test."""
    _postgresql_up()
    relay = Relay()
    yield relay
    relay.close()
