"""
A database's state, read outside the server: every table's rows and the schema.

Two dumps are equal exactly when no row, table, column, constraint, index,
view, sequence, function or grant changed: a read-only server must leave
them so whatever it is sent.
"""

from __future__ import annotations

import hashlib
import secrets
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tests.mcp._harness import Backend

# Objects beyond the shop a hostile statement may aim at: a sequence, a
# view, and (where the backend has them) routines that write.
EXTRAS: dict[str, list[str]] = {
    "sqlite": ["CREATE VIEW lde_ro_view AS SELECT name FROM customers"],
    "duckdb": [
        "CREATE SEQUENCE lde_ro_seq",
        "CREATE VIEW lde_ro_view AS SELECT name FROM customers",
    ],
    "postgresql": [
        "CREATE SEQUENCE lde_ro_seq",
        "CREATE VIEW lde_ro_view AS SELECT name FROM customers",
        "CREATE FUNCTION lde_ro_wipe() RETURNS bigint LANGUAGE sql AS "
        "'WITH d AS (DELETE FROM sales RETURNING 1) SELECT count(*) FROM d'",
        "CREATE PROCEDURE lde_ro_proc() LANGUAGE plpgsql AS "
        "$$BEGIN DELETE FROM sales; COMMIT; END$$",
        # Declared STABLE, so the catalogue check lets a call through: the
        # engine refuses its write.
        "CREATE FUNCTION lde_ro_stable_wipe() RETURNS bigint LANGUAGE plpgsql STABLE AS "
        "$$BEGIN DELETE FROM sales; RETURN 1; END$$",
    ],
    "mysql": [
        "CREATE SEQUENCE lde_ro_seq",
        "CREATE VIEW lde_ro_view AS SELECT name FROM customers",
        "CREATE FUNCTION lde_ro_wipe() RETURNS INT MODIFIES SQL DATA "
        "BEGIN DELETE FROM sales; RETURN 1; END",
    ],
}
_DROP_EXTRAS: dict[str, list[str]] = {
    "sqlite": ["DROP VIEW IF EXISTS lde_ro_view"],
    "duckdb": ["DROP VIEW IF EXISTS lde_ro_view", "DROP SEQUENCE IF EXISTS lde_ro_seq"],
    "postgresql": [
        "DROP VIEW IF EXISTS lde_ro_view",
        "DROP SEQUENCE IF EXISTS lde_ro_seq",
        "DROP FUNCTION IF EXISTS lde_ro_wipe()",
        "DROP PROCEDURE IF EXISTS lde_ro_proc()",
        "DROP FUNCTION IF EXISTS lde_ro_stable_wipe()",
    ],
    "mysql": [
        "DROP VIEW IF EXISTS lde_ro_view",
        "DROP SEQUENCE IF EXISTS lde_ro_seq",
        "DROP FUNCTION IF EXISTS lde_ro_wipe",
    ],
}

_PG_CATALOG = """
SELECT c.relname, c.relkind, c.relacl::text, obj_description(c.oid),
       (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                          || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
                          || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), ''),
                          ', ' ORDER BY a.attnum)
          FROM pg_attribute a LEFT JOIN pg_attrdef d
            ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
       (SELECT string_agg(pg_get_constraintdef(k.oid), '; ' ORDER BY k.conname)
          FROM pg_constraint k WHERE k.conrelid = c.oid),
       (SELECT string_agg(pg_get_indexdef(i.indexrelid), '; ' ORDER BY i.indexrelid::regclass::text)
          FROM pg_index i WHERE i.indrelid = c.oid),
       (SELECT string_agg(t.tgname, ', ' ORDER BY t.tgname) FROM pg_trigger t
         WHERE t.tgrelid = c.oid)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public'
 ORDER BY c.relname
"""
_PG_OTHERS = [
    "SELECT p.proname, p.prokind, pg_get_function_identity_arguments(p.oid), p.prosrc "
    "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
    "WHERE n.nspname = 'public' ORDER BY 1, 3",
    "SELECT nspname FROM pg_namespace WHERE left(nspname, 3) <> 'pg_' ORDER BY 1",
    "SELECT extname, extversion FROM pg_extension ORDER BY 1",
    "SELECT count(*) FROM pg_largeobject_metadata",
    "SELECT last_value, is_called FROM lde_ro_seq",
]


class HostileDatabase:
    """The module's database, its extra objects, its dumps, and a directory to write files in."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.name = backend.name
        self.token = str(secrets.randbelow(10**12) + 10**12)
        # Every server process (PostgreSQL's, MariaDB's) may write here: a
        # file that appears is a write that got through.
        self.out = Path(tempfile.mkdtemp(prefix="lde-ro-"))
        self.out.chmod(0o777)
        # The dumps read through one connection kept between them (a new one
        # cost more than the dump itself); checked before each use, as a
        # hostile statement may have ended it.  None for the file databases,
        # which each dump opens afresh, read-only.
        self.reader = (
            sa.create_engine(backend.url, pool_size=1, max_overflow=0, pool_pre_ping=True)
            if backend.admin_url
            else None
        )
        #: The state the last checked call left, where it changed nothing: the
        #: next call starts from it, so a change between two calls is seen too.
        self.known: Any = None
        self.restore()

    def before(self) -> Any:
        """The state a call starts from: what the last checked call left, else a new dump."""
        return self.dump() if self.known is None else self.known

    def check(self, before: Any) -> Any:
        """
        The state now; kept for the next call where it is *before*, else the database restored.

        The caller asserts the two equal.
        """
        after = self.dump()
        if after == before:
            self.known = after
        else:
            self.restore()
        return after

    def text(self, sql: str) -> str:
        """The case's text with its placeholders filled in."""
        return sql.replace("{out}", str(self.out)).replace("{token}", self.token)

    def restore(self) -> None:
        """The shop and the extra objects, as new."""
        self.known = None
        with self.backend.engine.begin() as conn:
            for ddl in _DROP_EXTRAS[self.name]:
                conn.exec_driver_sql(ddl)
        self.backend.reset_shop()
        with self.backend.engine.begin() as conn:
            for ddl in EXTRAS[self.name]:
                conn.exec_driver_sql(ddl)
        self.backend.engine.dispose()

    def files(self) -> list[str]:
        """What appeared in the output directory (and removes it)."""
        found = sorted(p.name for p in self.out.iterdir())
        for path in self.out.iterdir():
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        return found

    def close(self) -> None:
        """Close the dumps' connection; remove the output directory."""
        if self.reader is not None:
            self.reader.dispose()
        shutil.rmtree(self.out, ignore_errors=True)

    def scalar(self, sql: str) -> Any:
        """One value, read outside the server."""
        assert self.reader is not None
        with self.reader.connect() as conn:
            return conn.exec_driver_sql(sql).scalar()

    def dump(self) -> Any:
        """The database's rows and schema."""
        return getattr(self, f"_dump_{self.name}")()

    def _path(self) -> Path:
        database = sa.make_url(self.backend.url).database
        assert database
        return Path(database)

    def _dump_sqlite(self) -> Any:
        path = self._path()
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            lines = list(conn.iterdump())
        finally:
            conn.close()
        siblings = sorted(p.name for p in path.parent.iterdir())
        return lines, hashlib.sha256(path.read_bytes()).hexdigest(), siblings

    def _dump_duckdb(self) -> Any:
        import duckdb

        path = self._path()
        conn = duckdb.connect(str(path), read_only=True)
        try:
            catalog = [
                conn.execute(sql).fetchall()
                for sql in (
                    "SELECT database_name, path FROM duckdb_databases() ORDER BY 1",
                    "SELECT schema_name, table_name, sql FROM duckdb_tables() ORDER BY 1, 2",
                    "SELECT schema_name, view_name, sql FROM duckdb_views() "
                    "WHERE NOT internal ORDER BY 1, 2",
                    "SELECT sequence_name, start_value, last_value FROM duckdb_sequences() "
                    "ORDER BY 1",
                    "SELECT table_name, constraint_text FROM duckdb_constraints() ORDER BY 1, 2",
                    "SELECT index_name, sql FROM duckdb_indexes() ORDER BY 1",
                    "SELECT function_name FROM duckdb_functions() WHERE NOT internal ORDER BY 1",
                )
            ]
            tables = [row[1] for row in catalog[1]]
            rows = {t: conn.execute(f'SELECT * FROM "{t}" ORDER BY ALL').fetchall() for t in tables}
        finally:
            conn.close()
        siblings = sorted(p.name for p in path.parent.iterdir())
        return catalog, rows, hashlib.sha256(path.read_bytes()).hexdigest(), siblings

    def _dump_postgresql(self) -> Any:
        assert self.reader is not None
        with self.reader.connect() as conn:
            # A lock a hostile statement left behind fails the test, never hangs it.
            conn.exec_driver_sql("SET lock_timeout = '20s'")
            catalog = conn.exec_driver_sql(_PG_CATALOG).all()
            others = [conn.exec_driver_sql(sql).all() for sql in _PG_OTHERS]
            tables = [r[0] for r in catalog if r[1] in ("r", "p")]
            rows = {
                t: conn.exec_driver_sql(f'SELECT * FROM "{t}" ORDER BY 1').all() for t in tables
            }
        return catalog, others, rows

    def _dump_mysql(self) -> Any:
        assert self.reader is not None
        with self.reader.connect() as conn:
            # A lock a hostile statement left behind fails the test, never hangs it.
            conn.exec_driver_sql("SET SESSION lock_wait_timeout = 20")
            listing = conn.exec_driver_sql("SHOW FULL TABLES").all()
            created = {
                name: conn.exec_driver_sql(f"SHOW CREATE TABLE `{name}`").all()
                for name, _kind in listing
            }
            rows = {
                name: conn.exec_driver_sql(f"SELECT * FROM `{name}`").all()
                for name, kind in listing
                if kind != "VIEW"
            }
            routines = conn.exec_driver_sql(
                "SELECT routine_name, routine_type, routine_definition "
                "FROM information_schema.routines WHERE routine_schema = DATABASE() ORDER BY 1"
            ).all()
            triggers = conn.exec_driver_sql(
                "SELECT trigger_name FROM information_schema.triggers "
                "WHERE trigger_schema = DATABASE() ORDER BY 1"
            ).all()
        ordered = {name: sorted(map(repr, found)) for name, found in rows.items()}
        return listing, created, ordered, routines, triggers
