"""
The login layer of read-only mode: a privileged login is refused at start.

Real logins on the shared servers, each created with a random name and
dropped afterwards: a superuser, and a role holding each privilege a
read-only server refuses (directly, and through another role), must make
``--read-only`` end at start with one line naming the privilege and the fix;
``--allow-privileged-login`` serves anyway and warns; a login that may only
SELECT serves.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa

from localdata_errors.mcp.server import main as server_main
from tests.mcp._harness import REPO, Backend, StdioServer

pytestmark = pytest.mark.parametrize("backend", ["postgresql", "mysql"], indirect=True)

Login = Callable[[list[str]], str]


def _admin(shop: Backend) -> sa.Engine:
    return sa.create_engine(shop.url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)


@pytest.fixture
def login(shop: Backend) -> Iterator[Login]:
    """Make a login of a random name with the statements given (``{u}`` its name); its URL."""
    made: list[tuple[str, list[str]]] = []
    admin = _admin(shop)

    def make(grants: list[str]) -> str:
        name = f"lde_login_{secrets.token_hex(4)}"
        password = f"pw-{secrets.token_hex(6)}"
        url = sa.make_url(shop.url)
        if shop.name == "postgresql":
            setup = [
                f"CREATE ROLE {name} LOGIN",
                f"GRANT CONNECT ON DATABASE {shop.db_name} TO {name}",
                f"GRANT USAGE ON SCHEMA public TO {name}",
                f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {name}",
            ]
            drops = [f"DROP OWNED BY {name}", f"DROP ROLE IF EXISTS {name}"]
            url = url.set(username=name, password=password)
        else:
            setup = [
                *(f"CREATE USER '{name}'@'{h}' IDENTIFIED BY '{password}'" for h in HOSTS),
                *(f"GRANT SELECT ON {shop.db_name}.* TO '{name}'@'{h}'" for h in HOSTS),
            ]
            drops = [f"DROP USER IF EXISTS '{name}'@'{h}'" for h in HOSTS]
            url = url.set(username=name, password=password)
        extra = [g.replace("{u}", name).replace("{db}", str(shop.db_name)) for g in grants]
        made.append((name, [*drops]))
        _run(shop, admin, [*setup, *extra])
        return url.render_as_string(hide_password=False)

    try:
        yield make
    finally:
        _run(shop, admin, [sql for _name, drops in made for sql in drops])
        admin.dispose()


def _run(shop: Backend, admin: sa.Engine, statements: list[str]) -> None:
    with admin.connect() as conn:
        for sql in statements:
            # PyMySQL reads a % of the text as a placeholder.
            conn.exec_driver_sql(sql.replace("%", "%%") if shop.name == "mysql" else sql)


# MariaDB matches a TCP login from 127.0.0.1 to 'localhost' before '%'.
HOSTS = ("%", "localhost")


def _start_here(url: str, *flags: str) -> tuple[int, str]:
    """
    The server's `main` in this process, to its refusal: the status and what went to stderr.

    The same function the command runs (``raise SystemExit(main())``), without
    starting Python for each login; `_start` runs the command itself, for the
    status the process ends with.  A login that is not refused reaches the
    stdio transport, which fails on pytest's captured stdin: a failure, not a hang.
    """
    environment = {k: v for k, v in os.environ.items() if k.startswith("LOCALDATA_ERRORS")}
    for name in environment:
        del os.environ[name]
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            status = server_main(["--url", url, *flags])
    finally:
        os.environ.update(environment)
    return status, err.getvalue()


def _start(url: str, *flags: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LOCALDATA_ERRORS")}
    return subprocess.run(
        [sys.executable, "-m", "localdata_errors.mcp.server", "--url", url, *flags],
        cwd=REPO,
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


PG_REFUSED = [
    (["ALTER ROLE {u} SUPERUSER"], "superuser"),
    (["ALTER ROLE {u} CREATEROLE"], "CREATEROLE"),
    (["GRANT pg_read_server_files TO {u}"], "membership in pg_read_server_files"),
    (["GRANT pg_write_server_files TO {u}"], "membership in pg_write_server_files"),
    (["GRANT pg_execute_server_program TO {u}"], "membership in pg_execute_server_program"),
    (["GRANT pg_signal_backend TO {u}"], "membership in pg_signal_backend"),
]
MYSQL_REFUSED = [
    ([f"GRANT SUPER ON *.* TO '{{u}}'@'{h}'" for h in HOSTS], "SUPER"),
    ([f"GRANT FILE ON *.* TO '{{u}}'@'{h}'" for h in HOSTS], "FILE"),
    ([f"GRANT PROCESS ON *.* TO '{{u}}'@'{h}'" for h in HOSTS], "PROCESS"),
    ([f"GRANT SHUTDOWN ON *.* TO '{{u}}'@'{h}'" for h in HOSTS], "SHUTDOWN"),
    ([f"GRANT CREATE USER ON *.* TO '{{u}}'@'{h}'" for h in HOSTS], "CREATE USER"),
    (
        [f"GRANT SELECT ON {{db}}.* TO '{{u}}'@'{h}' WITH GRANT OPTION" for h in HOSTS],
        "GRANT OPTION",
    ),
    ([f"GRANT ALL PRIVILEGES ON *.* TO '{{u}}'@'{h}'" for h in HOSTS], "ALL PRIVILEGES"),
]


def _refused(shop: Backend) -> list[tuple[list[str], str]]:
    return PG_REFUSED if shop.name == "postgresql" else MYSQL_REFUSED


def test_each_privilege_is_refused_at_start(shop: Backend, login: Login) -> None:
    for grants, named in _refused(shop):
        url = login(grants)
        status, stderr = _start_here(url, "--read-only")
        assert status == 2, (named, stderr)
        line = stderr.strip()
        assert "\n" not in line, stderr
        assert named in line, line
        assert "create a role with only SELECT" in line
        assert "--allow-privileged-login" in line
        assert sa.make_url(url).password not in stderr


def test_a_privilege_through_another_role_is_refused_too(shop: Backend, login: Login) -> None:
    role = f"lde_role_{secrets.token_hex(4)}"
    admin = _admin(shop)
    if shop.name == "postgresql":
        grants = [f"CREATE ROLE {role} NOLOGIN", f"GRANT pg_read_server_files TO {role}"]
        grants.append(f"GRANT {role} TO {{u}}")
        drop = f"DROP ROLE IF EXISTS {role}"
        named = "membership in pg_read_server_files"
    else:
        grants = [f"CREATE ROLE {role}", f"GRANT FILE ON *.* TO {role}"]
        grants += [f"GRANT {role} TO '{{u}}'@'{h}'" for h in HOSTS]
        grants += [f"SET DEFAULT ROLE {role} FOR '{{u}}'@'{h}'" for h in HOSTS]
        drop = f"DROP ROLE IF EXISTS {role}"
        named = "FILE"
    try:
        status, stderr = _start_here(login(grants), "--read-only")
        assert status == 2, stderr
        assert named in stderr
    finally:
        owned = [f"DROP OWNED BY {role}"] if shop.name == "postgresql" else []
        _run(shop, admin, [*owned, drop])
        admin.dispose()


def test_the_shared_servers_superuser_is_refused(shop: Backend) -> None:
    # The command itself: the process ends with status 2 and one line.
    out = _start(shop.url, "--read-only")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1, out.stderr
    assert "superuser" in out.stderr or "ALL PRIVILEGES" in out.stderr


def test_allow_privileged_login_serves_and_warns(shop: Backend, login: Login) -> None:
    grants, named = _refused(shop)[1]
    server = StdioServer(login(grants), "--read-only", "--allow-privileged-login")
    try:
        assert server.ok("select_rows", {"table": "customers"})["rowCount"] == 3
        log = server.log_text()
    finally:
        server.close()
    assert "privileged login" in log
    assert named in log


def test_a_login_that_may_only_select_serves(shop: Backend, login: Login) -> None:
    url = login([])
    server = StdioServer(url, "--read-only")
    try:
        assert server.ok("select_rows", {"table": "customers"})["rowCount"] == 3
        out = server.ok("execute_sql", {"sql": "SELECT count(*) AS n FROM sales"})
        assert out["data"] == [{"n": 2}]
        assert server.fail("execute_sql", {"sql": "DELETE FROM sales"})["error_code"] == (
            "READ_ONLY"
        )
        assert "privileged" not in server.log_text()
    finally:
        server.close()
    assert shop.scalar("SELECT count(*) FROM sales") == 2


def test_a_login_that_cannot_be_inspected_does_not_serve(shop: Backend) -> None:
    url = sa.make_url(shop.url).set(host="127.0.0.1", port=1)
    out = _start(url.render_as_string(hide_password=False), "--read-only")
    assert out.returncode == 2
    assert "could not read the login's privileges" in out.stderr
    assert out.stderr.count("\n") == 1
