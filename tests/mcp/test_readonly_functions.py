"""
PostgreSQL read-only mode judges every call by the catalogue, as the engine resolves it.

Through the real MCP client against a read-only server on the shared
PostgreSQL (its superuser login allowed, so that only the parse and the
catalogue stand between a statement and the files): names resolved through
the session's own ``search_path`` (a schema that shadows ``pg_catalog``'s
``lower``), overloaded names (one volatile overload refuses the name), the
allowlist (only ``pg_catalog``'s ``random``, not a shadow of it), and
operators or casts backed by a volatile function (which no text names).
Each attack is followed by a check that nothing changed.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from localdata_errors.mcp._functions import ALLOWED_VOLATILE
from tests.mcp._harness import Backend, StdioServer

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def _ddl(shop: Backend, *statements: str) -> None:
    with shop.engine.begin() as conn:
        for sql in statements:
            conn.exec_driver_sql(sql)


def _server(shop: Backend) -> StdioServer:
    return StdioServer(shop.url, "--read-only", "--allow-privileged-login", "--timeout", "30")


@pytest.fixture
def shadow(shop: Backend) -> Iterator[str]:
    """A schema first on the database's search_path, its own (volatile) lower and random."""
    schema = f"lde_shadow_{secrets.token_hex(4)}"
    _ddl(
        shop,
        f"CREATE SCHEMA {schema}",
        f"CREATE FUNCTION {schema}.lower(text) RETURNS text LANGUAGE sql VOLATILE AS 'SELECT $1'",
        f"CREATE FUNCTION {schema}.random() RETURNS double precision LANGUAGE sql VOLATILE "
        "AS 'SELECT 4.0::float8'",
        f"ALTER DATABASE {shop.db_name} SET search_path = {schema}, public",
    )
    try:
        yield schema
    finally:
        _ddl(
            shop,
            f"ALTER DATABASE {shop.db_name} RESET search_path",
            f"DROP SCHEMA {schema} CASCADE",
        )


def _refused(server: StdioServer, sql: str, words: str) -> None:
    payload = server.fail("execute_sql", {"sql": sql})
    assert payload["error_code"] == "READ_ONLY", payload
    assert payload["details"]["backend"] == "mcp"
    assert words in payload["message"], payload["message"]


def test_names_are_resolved_through_the_sessions_search_path(shop: Backend, shadow: str) -> None:
    server = _server(shop)
    try:
        # The session's search_path puts the shadow schema first (pg_catalog
        # is searched before it, but an overload there counts too).
        _refused(server, "SELECT lower(name) FROM customers", "lower()")
        _refused(server, "SELECT random()", "random()")
        # Qualified in pg_catalog, the same names are the engine's own.
        out = server.ok("execute_sql", {"sql": "SELECT pg_catalog.lower('A') AS a"})
        assert out["data"] == [{"a": "a"}]
        assert server.ok("execute_sql", {"sql": "SELECT pg_catalog.random() < 2 AS r"})["data"]
        _refused(server, f"SELECT {shadow}.lower('A')", "lower()")
    finally:
        server.close()


def test_an_overloaded_name_needs_every_overload_to_be_safe(shop: Backend) -> None:
    name = f"lde_over_{secrets.token_hex(3)}"
    _ddl(
        shop,
        f"CREATE FUNCTION {name}(integer) RETURNS integer LANGUAGE sql STABLE AS 'SELECT $1'",
        f"CREATE FUNCTION {name}(text) RETURNS text LANGUAGE sql VOLATILE AS 'SELECT $1'",
        f"CREATE FUNCTION {name}_ok(integer) RETURNS integer LANGUAGE sql STABLE AS 'SELECT $1'",
    )
    server = _server(shop)
    try:
        _refused(server, f"SELECT {name}(1)", "volatile")
        assert server.ok("execute_sql", {"sql": f"SELECT {name}_ok(1) AS v"})["data"] == [{"v": 1}]
        _refused(server, "SELECT lde_no_such_function_at_all(1)", "no function the session")
    finally:
        server.close()
        _ddl(shop, f"DROP FUNCTION {name}(integer), {name}(text), {name}_ok(integer)")


def test_a_volatile_operator_or_cast_refuses_every_statement(shop: Backend) -> None:
    function = f"lde_op_{secrets.token_hex(3)}"
    _ddl(
        shop,
        f"CREATE FUNCTION {function}(integer, integer) RETURNS boolean LANGUAGE sql "
        "VOLATILE AS 'SELECT $1 = $2'",
        f"CREATE OPERATOR public.=== (LEFTARG = integer, RIGHTARG = integer, "
        f"FUNCTION = {function})",
    )
    server = _server(shop)
    try:
        # sqlglot cannot parse === (refused as unreadable); a statement that
        # does not name it may still reach it: every statement is refused.
        assert server.fail("execute_sql", {"sql": "SELECT 1 === 1"})["details"]["backend"] == (
            "mcp"
        )
        _refused(server, "SELECT 1 AS one", "volatile operators ===")
    finally:
        server.close()
        _ddl(shop, "DROP OPERATOR public.=== (integer, integer)", f"DROP FUNCTION {function}")
    server = _server(shop)
    try:
        assert server.ok("execute_sql", {"sql": "SELECT 1 AS one"})["data"] == [{"one": 1}]
    finally:
        server.close()


def test_the_allowlist_is_pg_catalogs_own_harmless_volatile_functions(shop: Backend) -> None:
    with shop.engine.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT p.proname, p.provolatile FROM pg_proc p "
                "JOIN pg_namespace n ON n.oid = p.pronamespace "
                "WHERE n.nspname = 'pg_catalog' AND p.proname = ANY (:names)"
            ),
            {"names": list(ALLOWED_VOLATILE)},
        ).all()
    # Each is volatile (else it need not be listed) and exists on this server
    # (random_normal from PostgreSQL 16 on).
    assert {volatility for _name, volatility in rows} == {"v"}
    assert {name for name, _v in rows} >= set(ALLOWED_VOLATILE) - {"random_normal"}
    server = _server(shop)
    try:
        out = server.ok(
            "execute_sql",
            {
                "sql": "SELECT random() < 2 AS r, clock_timestamp() IS NOT NULL AS c, "
                "gen_random_uuid() IS NOT NULL AS u, pg_relation_size('customers') >= 0 AS s"
            },
        )
        assert out["data"] == [{"r": True, "c": True, "u": True, "s": True}]
    finally:
        server.close()
