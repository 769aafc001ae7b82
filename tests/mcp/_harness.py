"""
Helpers to drive the SQL tool server with the ``mcp`` SDK's real client.

`StdioServer` starts the server as a user does (a subprocess over stdio);
`InProcessServer` builds it in the test's process on a `Database` the test
can reach (its pool, its sessions on the database server).  Either way the
client runs on an event loop in a background thread (an anyio blocking
portal), so the tests themselves stay synchronous, and any thread may call.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult

from localdata_errors.mcp import server as server_module
from localdata_errors.mcp._sql import Database

REPO = Path(__file__).resolve().parents[2]
#: A password the PostgreSQL URL carries (trust auth ignores it): it must never
#: appear in a response or a log line.
PG_PASSWORD = "lde-mcp-Pw-7731"

SHOP_DDL = {
    "sqlite": [
        "CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR(50) NOT NULL UNIQUE, "
        "joined DATE)",
        "CREATE TABLE products (id INTEGER PRIMARY KEY, name VARCHAR(50) NOT NULL, "
        "price NUMERIC(10, 2))",
        "CREATE TABLE sales (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL "
        "REFERENCES customers(id), product_id INTEGER NOT NULL REFERENCES products(id), "
        "qty INTEGER NOT NULL)",
    ],
    "postgresql": [
        "CREATE TABLE customers (id SERIAL PRIMARY KEY, name VARCHAR(50) NOT NULL UNIQUE, "
        "joined DATE)",
        "CREATE TABLE products (id SERIAL PRIMARY KEY, name VARCHAR(50) NOT NULL, "
        "price NUMERIC(10, 2))",
        "CREATE TABLE sales (id SERIAL PRIMARY KEY, customer_id INTEGER NOT NULL "
        "REFERENCES customers(id), product_id INTEGER NOT NULL REFERENCES products(id), "
        "qty INTEGER NOT NULL)",
    ],
    "duckdb": [
        "CREATE SEQUENCE customers_id_seq",
        "CREATE SEQUENCE products_id_seq",
        "CREATE SEQUENCE sales_id_seq",
        "CREATE TABLE customers (id INTEGER PRIMARY KEY DEFAULT nextval('customers_id_seq'), "
        "name VARCHAR(50) NOT NULL UNIQUE, joined DATE)",
        "CREATE TABLE products (id INTEGER PRIMARY KEY DEFAULT nextval('products_id_seq'), "
        "name VARCHAR(50) NOT NULL, price NUMERIC(10, 2))",
        "CREATE TABLE sales (id INTEGER PRIMARY KEY DEFAULT nextval('sales_id_seq'), "
        "customer_id INTEGER NOT NULL REFERENCES customers(id), "
        "product_id INTEGER NOT NULL REFERENCES products(id), qty INTEGER NOT NULL)",
    ],
    "mysql": [
        "CREATE TABLE customers (id INTEGER AUTO_INCREMENT PRIMARY KEY, "
        "name VARCHAR(50) NOT NULL UNIQUE, joined DATE) ENGINE=InnoDB",
        "CREATE TABLE products (id INTEGER AUTO_INCREMENT PRIMARY KEY, "
        "name VARCHAR(50) NOT NULL, price NUMERIC(10, 2)) ENGINE=InnoDB",
        "CREATE TABLE sales (id INTEGER AUTO_INCREMENT PRIMARY KEY, customer_id INTEGER NOT NULL, "
        "product_id INTEGER NOT NULL, qty INTEGER NOT NULL, "
        "FOREIGN KEY (customer_id) REFERENCES customers(id), "
        "FOREIGN KEY (product_id) REFERENCES products(id)) ENGINE=InnoDB",
    ],
}
SHOP_DATA = [
    "INSERT INTO customers (name, joined) VALUES ('Ann', '2024-01-05'), ('Bob', '2024-02-11'), "
    "('Cid', NULL)",
    "INSERT INTO products (name, price) VALUES ('pen', 1.50), ('ink', 7.25)",
    "INSERT INTO sales (customer_id, product_id, qty) VALUES (1, 1, 3), (2, 2, 1)",
]
EXTRA_TABLES = ("audit_log", "notes")


class _Calls:
    """Calling tools and checking their results, for both kinds of server."""

    portal: BlockingPortal
    client: Client

    def call(self, tool: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        """Call a tool; the result as the client received it."""
        result = self.portal.call(self.client.call_tool, tool, arguments or {})
        assert isinstance(result, CallToolResult)
        return result

    def ok(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call a tool that must succeed; its structured content."""
        result = self.call(tool, arguments)
        assert not result.is_error, result.content
        assert isinstance(result.structured_content, dict)
        assert result.structured_content["success"] is True
        return result.structured_content

    def fail(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call a tool that must fail; its payload, checked to be the same as text and structure."""
        result = self.call(tool, arguments)
        assert result.is_error, result.structured_content
        payload = result.structured_content
        assert isinstance(payload, dict)
        text = result.content[0]
        assert json.loads(getattr(text, "text", "")) == payload
        if "success" in payload:  # --verbose-errors: the JSON-RPC shape
            assert payload["success"] is False
            assert payload["tool_name"] == tool
        else:  # the compact form: the tool shape, nothing empty
            assert payload["status"] == "error"
            assert not [k for k, v in payload.items() if v in (None, "", [], {})], payload
        return payload


class InProcessServer(_Calls):
    """
    The SQL tool server built in this process on *db*, and a client session to it.

    Failures come in the JSON-RPC shape unless `compact=True`, as with `StdioServer`.
    """

    def __init__(self, db: Database, *, compact: bool = False) -> None:
        self.db = db
        self._portal_cm = start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        server = server_module._serve(db, verbose_errors=not compact)
        self._client_cm = self.portal.wrap_async_context_manager(Client(server))
        self.client = self._client_cm.__enter__()

    def close(self) -> None:
        """Stop the client and the event loop; close the database's connections."""
        try:
            self._client_cm.__exit__(None, None, None)
        finally:
            self._portal_cm.__exit__(None, None, None)
            self.db.dispose()


class StdioServer(_Calls):
    """
    A server subprocess and an initialised client session, usable from sync tests.

    Failures come in the JSON-RPC shape (`--verbose-errors`: every detail,
    for tests of what the server decided); `compact=True` runs the server's
    default form, the one a model reads.
    """

    def __init__(self, url: str, *flags: str, compact: bool = False) -> None:
        self.url = url
        flags = flags if compact else ("--verbose-errors", *flags)
        self.flags = flags
        self.errlog = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed in close()
        self._portal_cm = start_blocking_portal()
        self.portal: BlockingPortal = self._portal_cm.__enter__()
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "localdata_errors.mcp.server", "--url", url, *flags],
            cwd=str(REPO),
        )
        self._client_cm = self.portal.wrap_async_context_manager(
            Client(stdio_client(params, errlog=self.errlog), read_timeout_seconds=60)
        )
        self.client: Client = self._client_cm.__enter__()

    def list_tools(self) -> Any:
        """The server's tools."""
        return self.portal.call(self.client.list_tools)

    def log_text(self) -> str:
        """What the subprocess wrote to stderr so far."""
        self.errlog.flush()
        self.errlog.seek(0)
        return self.errlog.read()

    def close(self) -> None:
        """Stop the client, the subprocess and the event loop."""
        try:
            self._client_cm.__exit__(None, None, None)
        finally:
            self._portal_cm.__exit__(None, None, None)
            self.errlog.close()


class Backend:
    """One database for the module: its URL, a direct engine, and the shop schema."""

    def __init__(self, name: str, url: str, admin_url: str | None, db_name: str | None) -> None:
        self.name = name
        self.url = url
        self.admin_url = admin_url
        self.db_name = db_name
        self.engine = sa.create_engine(url, poolclass=sa.pool.NullPool)

    def reset_shop(self) -> None:
        """Drop whatever the previous test left, and create the shop with its rows."""
        with self.engine.begin() as conn:
            names = set(sa.inspect(conn).get_table_names())
            for table in (*EXTRA_TABLES, "sales", "customers", "products"):
                if table in names:
                    conn.exec_driver_sql(f"DROP TABLE {table}")
            if self.name == "duckdb":
                for table in ("sales", "customers", "products"):
                    conn.exec_driver_sql(f"DROP SEQUENCE IF EXISTS {table}_id_seq")
            for ddl in SHOP_DDL[self.name]:
                conn.exec_driver_sql(ddl)
            for dml in SHOP_DATA:
                conn.exec_driver_sql(dml)

    def tables(self) -> set[str]:
        """The tables that exist now."""
        with self.engine.connect() as conn:
            return set(sa.inspect(conn).get_table_names())

    def scalar(self, sql: str) -> Any:
        """One value, read directly (not through the server)."""
        with self.engine.connect() as conn:
            return conn.exec_driver_sql(sql).scalar()

    def drop(self) -> None:
        """Drop the module's database."""
        self.engine.dispose()
        if self.admin_url and self.db_name:
            admin = sa.create_engine(
                self.admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool
            )
            with admin.connect() as conn:
                if self.name == "postgresql":
                    conn.exec_driver_sql(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        f"WHERE datname = '{self.db_name}' AND pid <> pg_backend_pid()"
                    )
                conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {self.db_name}")
            admin.dispose()
