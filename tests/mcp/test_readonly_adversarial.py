"""
A read-only server under attack: hostile statements change nothing, on every engine.

Every case of ``_readonly_corpus`` goes through the real MCP client to a
``--read-only --allow-multi-statement`` server on a real database, and the
database is dumped before and after: rows and schema must be identical, and
no file may appear.  The cases the parser layer must refuse are checked to
be refused by it (before the database sees them).

Then the engine layer alone: each case the shared servers can safely take
is sent straight to a read-only ``Database``'s execution path, bypassing the
parser, and the dump must still be identical.  Last, the parse-only checks
for SQL Server and Oracle, which do not run here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from localdata_errors.mcp._readonly import refusal
from localdata_errors.mcp._sql import Database
from localdata_errors.mcp._statements import Statement, UnreadableSQLError, split
from tests.mcp._harness import Backend, StdioServer
from tests.mcp._readonly_corpus import CORPUS, ORACLE, TSQL, Case
from tests.mcp._readonly_dump import HostileDatabase

# Files a superuser's read-only transaction may still write on the server's
# machine (the docs say so and recommend a login that may only read).
ENGINE_FILE_WRITES = {
    "postgresql": ("COPY sales TO", "COPY (SELECT 1) TO"),
    "mysql": ("INTO OUTFILE", "INTO DUMPFILE"),
}


def _ids(cases: list[Case]) -> list[str]:
    return [
        f"{i:03d}-" + re.sub(r"[^A-Za-z0-9]+", "_", c.sql[:40]).strip("_")
        for i, c in enumerate(cases)
    ]


@pytest.fixture(scope="module")
def hostile(backend: Backend) -> Iterator[HostileDatabase]:
    """The module's database with its extra objects, and a directory files must not appear in."""
    db = HostileDatabase(backend)
    try:
        yield db
    finally:
        db.close()


def _refused_by_parser(payload: dict[str, Any]) -> bool:
    code = payload["error_code"]
    by_server = payload["details"].get("backend") == "mcp"
    if code == "READ_ONLY":
        return by_server and "not proven to only read" in payload["message"]
    return by_server and code == "SYNTAX_ERROR"


# What a session holds that a call could have changed, read through the server
# by the next call: it must read as it did before any attack.
SESSION_PROBE = {
    "postgresql": "SELECT current_setting('search_path') AS sp, "
    "current_setting('statement_timeout') AS st, current_setting('application_name') AS an, "
    "current_setting('default_transaction_read_only') AS ro, "
    "(SELECT count(*) FROM pg_listening_channels()) AS lc, "
    "(SELECT count(*) FROM pg_class WHERE relpersistence = 't') AS tt",
    "mysql": "SELECT @lde_v AS v, @@SESSION.sql_mode AS m, "
    "@@SESSION.max_statement_time AS t, @@SESSION.tx_read_only AS ro",
    "sqlite": "PRAGMA query_only",
    "duckdb": "SELECT current_setting('enable_external_access') AS ea",
}


@pytest.fixture(scope="module")
def session_before(readonly_server: StdioServer, hostile: HostileDatabase) -> Any:
    """The session as a call finds it before any attack."""
    return readonly_server.ok("execute_sql", {"sql": SESSION_PROBE[hostile.name]})["data"]


def _locks_held(db: HostileDatabase) -> int:
    """Locks some session of the server still holds after its call ended."""
    if db.name == "postgresql":
        return int(
            db.scalar(
                "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
                "WHERE l.locktype = 'advisory' AND d.datname = current_database()"
            )
        )
    if db.name == "mysql":
        return int(db.scalar(f"SELECT 1 - IS_FREE_LOCK('lde_{db.token}')"))
    return 0


def _attack(server: StdioServer, db: HostileDatabase, case: Case, session: Any) -> None:
    before = db.before()
    result = server.call("execute_sql", {"sql": db.text(case.sql)})
    after = db.check(before)
    files = db.files()
    assert after == before, f"the database changed: {case.sql[:200]!r}"
    assert not files, f"files appeared: {files}"
    assert _locks_held(db) == 0, f"a lock outlived its call: {case.sql[:200]!r}"
    probe = server.ok("execute_sql", {"sql": SESSION_PROBE[db.name]})["data"]
    assert probe == session, f"the next call's session changed: {case.sql[:200]!r}"
    if case.refuse:
        assert result.is_error, result.structured_content
        payload = result.structured_content
        assert isinstance(payload, dict)
        assert _refused_by_parser(payload), payload


def _cases(name: str) -> list[Case]:
    return CORPUS[name]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("case", _cases("sqlite"), ids=_ids(_cases("sqlite")))
def test_sqlite_attack(
    readonly_server: StdioServer, hostile: HostileDatabase, session_before: Any, case: Case
) -> None:
    _attack(readonly_server, hostile, case, session_before)


@pytest.mark.parametrize("backend", ["duckdb"], indirect=True)
@pytest.mark.parametrize("case", _cases("duckdb"), ids=_ids(_cases("duckdb")))
def test_duckdb_attack(
    readonly_server: StdioServer, hostile: HostileDatabase, session_before: Any, case: Case
) -> None:
    _attack(readonly_server, hostile, case, session_before)


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
@pytest.mark.parametrize("case", _cases("postgresql"), ids=_ids(_cases("postgresql")))
def test_postgresql_attack(
    readonly_server: StdioServer, hostile: HostileDatabase, session_before: Any, case: Case
) -> None:
    _attack(readonly_server, hostile, case, session_before)


@pytest.mark.parametrize("backend", ["mysql"], indirect=True)
@pytest.mark.parametrize("case", _cases("mysql"), ids=_ids(_cases("mysql")))
def test_mariadb_attack(
    readonly_server: StdioServer, hostile: HostileDatabase, session_before: Any, case: Case
) -> None:
    _attack(readonly_server, hostile, case, session_before)


def test_every_dialect_has_enough_cases() -> None:
    for name, cases in CORPUS.items():
        assert len(cases) >= 60, name
        assert len({c.sql for c in cases}) == len(cases), f"{name} repeats a case"


# -- the engine layer alone --------------------------------------------------------


@pytest.fixture(scope="module")
def engine_only(backend: Backend) -> Iterator[Database]:
    """A read-only Database on the module's database, used without its parser layer."""
    db = Database(backend.url, read_only=True, allow_multi_statement=True, timeout=5)
    try:
        yield db
    finally:
        db.dispose()


def _engine_alone(db: Database, hostile: HostileDatabase, case: Case) -> None:
    before = hostile.before()
    text = hostile.text(case.sql)
    try:
        # The parser layer is bypassed: the text goes to the driver whole,
        # several statements, comments and all.
        with db.transaction(write=False) as conn:
            db.execute(conn, Statement(text=text, keyword=""))
    except Exception:  # noqa: S110 - refused or failed: only the state matters here
        pass
    after = hostile.check(before)
    files = hostile.files()
    assert after == before, f"the database changed: {case.sql[:200]!r}"
    allowed = ENGINE_FILE_WRITES.get(hostile.name, ())
    if not any(marker in case.sql for marker in allowed):
        assert not files, f"files appeared: {files}"


def _engine_cases(name: str) -> list[Case]:
    return [c for c in CORPUS[name] if c.engine]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("case", _engine_cases("sqlite"), ids=_ids(_engine_cases("sqlite")))
def test_sqlite_engine_alone(engine_only: Database, hostile: HostileDatabase, case: Case) -> None:
    _engine_alone(engine_only, hostile, case)


@pytest.mark.parametrize("backend", ["duckdb"], indirect=True)
@pytest.mark.parametrize("case", _engine_cases("duckdb"), ids=_ids(_engine_cases("duckdb")))
def test_duckdb_engine_alone(engine_only: Database, hostile: HostileDatabase, case: Case) -> None:
    _engine_alone(engine_only, hostile, case)


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
@pytest.mark.parametrize("case", _engine_cases("postgresql"), ids=_ids(_engine_cases("postgresql")))
def test_postgresql_engine_alone(
    engine_only: Database, hostile: HostileDatabase, case: Case
) -> None:
    _engine_alone(engine_only, hostile, case)


@pytest.mark.parametrize("backend", ["mysql"], indirect=True)
@pytest.mark.parametrize("case", _engine_cases("mysql"), ids=_ids(_engine_cases("mysql")))
def test_mariadb_engine_alone(engine_only: Database, hostile: HostileDatabase, case: Case) -> None:
    _engine_alone(engine_only, hostile, case)


# -- SQL Server and Oracle: the parser layer only -------------------------------------


def _parser_refuses(sql: str, dialect: str) -> bool:
    try:
        statements = split(sql, dialect, strip_comments=True)
        return not statements or any(
            refusal(s.text, dialect, s.comments) is not None for s in statements
        )
    except UnreadableSQLError:
        return True


@pytest.mark.parametrize(("sql", "refused"), TSQL, ids=[s[:40] for s, _ in TSQL])
def test_tsql_parse_only(sql: str, refused: bool) -> None:
    assert _parser_refuses(sql, "tsql") is refused


@pytest.mark.parametrize(("sql", "refused"), ORACLE, ids=[s[:40] for s, _ in ORACLE])
def test_oracle_parse_only(sql: str, refused: bool) -> None:
    assert _parser_refuses(sql, "oracle") is refused
