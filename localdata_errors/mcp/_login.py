"""
The login layer of read-only mode: what the server's own login may do, read from the server.

A read-only server is first a login that may only read.  At start, a
``--read-only`` server asks the database what its login holds and refuses
to start on one that holds what a read-only transaction cannot contain:

- **PostgreSQL**: superuser; ``CREATEROLE``; membership, direct or
  inherited, in ``pg_read_server_files``, ``pg_write_server_files``,
  ``pg_execute_server_program`` or ``pg_signal_backend`` (read from
  ``pg_roles`` and ``pg_has_role(..., 'MEMBER')``: any role the login may
  become counts, since ``SET ROLE`` would give its attributes).
- **MySQL / MariaDB**: ``SUPER``, ``FILE``, ``PROCESS``, ``SHUTDOWN``,
  ``CREATE USER``, ``CONNECTION ADMIN`` (MariaDB's and MySQL's successor of
  ``SUPER`` for ending other sessions) or ``ALL PRIVILEGES`` at the global
  level, and ``GRANT OPTION`` at any level: read from the server's own
  ``SHOW GRANTS`` for the login and for every role it may enable
  (``information_schema.APPLICABLE_ROLES``), each line read with the SQL
  tokenizer.

``--allow-privileged-login`` serves anyway, with a warning on every start.
SQLite and DuckDB have no logins: the file's permissions are the login.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from localdata_errors._classify import classify_error
from localdata_errors.mcp._statements import UnreadableSQLError, pieces

if TYPE_CHECKING:
    from localdata_errors.mcp._sql import Database

__all__ = ["LoginError", "check_login", "privileges"]

logger = logging.getLogger("localdata_errors.mcp.server")

#: PostgreSQL's predefined roles a read-only login must not be a member of.
PG_ROLES: Final = (
    "pg_read_server_files",
    "pg_write_server_files",
    "pg_execute_server_program",
    "pg_signal_backend",
)
#: MySQL/MariaDB global privileges a read-only login must not hold.
MYSQL_PRIVILEGES: Final = frozenset(
    {"SUPER", "FILE", "PROCESS", "SHUTDOWN", "CREATE USER", "CONNECTION ADMIN", "CONNECTION_ADMIN"}
)

_PG_LOGIN: Final = """
SELECT r.rolname,
       r.rolsuper OR EXISTS (SELECT 1 FROM pg_roles s WHERE s.rolsuper
                             AND pg_has_role(session_user, s.oid, 'MEMBER')),
       r.rolcreaterole OR EXISTS (SELECT 1 FROM pg_roles c WHERE c.rolcreaterole
                                  AND pg_has_role(session_user, c.oid, 'MEMBER')),
       ARRAY(SELECT p.rolname::text FROM pg_roles p
              WHERE p.rolname = ANY (:roles)
                AND pg_has_role(session_user, p.oid, 'MEMBER') ORDER BY 1)
  FROM pg_roles r WHERE r.rolname = session_user
"""
_FIX: Final = (
    "create a role with only SELECT for the server (see the docs' read-only section: "
    "CREATE ROLE ...; GRANT SELECT ...), or pass --allow-privileged-login"
)


class LoginError(Exception):
    """A read-only server cannot serve on its login: privileged, or not to be inspected."""


def privileges(db: Database, conn: Connection) -> list[str]:
    """
    What the server's login holds that a read-only server refuses, as the server reports it.

    Args:
        db: The database.
        conn: A connection of the server's login.

    Returns:
        The privileges, named as the database names them (empty for SQLite,
        DuckDB and other backends without a check).
    """
    if db.dialect == "postgresql":
        return _postgresql(conn)
    if db.dialect in ("mysql", "mariadb"):
        return _mysql(conn)
    return []


def _postgresql(conn: Connection) -> list[str]:
    row = conn.execute(sa.text(_PG_LOGIN), {"roles": list(PG_ROLES)}).first()
    if row is None:
        return []
    _name, superuser, createrole, members = row
    found = ["superuser"] if superuser else []
    if createrole:
        found.append("CREATEROLE")
    found += [f"membership in {role}" for role in members]
    return found


def _mysql(conn: Connection) -> list[str]:
    roles = [
        str(r[0])
        for r in conn.exec_driver_sql(
            "SELECT DISTINCT ROLE_NAME FROM information_schema.APPLICABLE_ROLES"
        ).all()
    ]
    lines = [str(r[0]) for r in conn.exec_driver_sql("SHOW GRANTS").all()]
    for role in roles:
        quoted = "`" + role.replace("`", "``") + "`"
        lines += [str(r[0]) for r in conn.exec_driver_sql(f"SHOW GRANTS FOR {quoted}").all()]
    found: dict[str, None] = {}
    for line in lines:
        for privilege in _refused_in_grant(line):
            found[privilege] = None
    return list(found)


def _refused_in_grant(line: str) -> Iterable[str]:
    """The refused privileges one line of ``SHOW GRANTS`` gives."""
    try:
        words = [p for p in pieces(line, "mysql") if p.type != "SEMICOLON"]
    except UnreadableSQLError:
        # A grant the tokenizer cannot read is not proven harmless.
        yield f"a grant the server could not be read for ({line[:60]}...)"
        return
    upper = [p.text.upper() for p in words]
    if not upper or upper[0] != "GRANT":
        return
    if upper[-3:] == ["WITH", "GRANT", "OPTION"]:
        yield "GRANT OPTION"
    if "ON" not in upper:
        return  # GRANT role TO user: the role's own grants are read on their own
    on = upper.index("ON")
    named: list[str] = []
    current: list[str] = []
    for word in [*upper[1:on], ","]:
        if word == ",":
            named.append(" ".join(current))
            current = []
        else:
            current.append(word)
    if "GRANT OPTION" in named:
        yield "GRANT OPTION"
    if "".join(p.text for p in words[on + 1 : on + 4]) != "*.*":
        return  # the other privileges matter at the global level only
    for privilege in named:
        if privilege in ("ALL", "ALL PRIVILEGES"):
            yield "ALL PRIVILEGES"
        elif privilege in MYSQL_PRIVILEGES:
            yield privilege


def check_login(db: Database, *, allow: bool) -> None:
    """
    Refuse to serve read-only on a privileged login, or warn when *allow*.

    Args:
        db: A read-only database.
        allow: ``--allow-privileged-login``: warn instead of refusing.

    Raises:
        LoginError: One line naming the login's privileges and the fix, or
            why they could not be read (the password masked).
    """
    if db.dialect not in ("postgresql", "mysql", "mariadb"):
        return
    try:
        with db.engine.connect() as conn:
            found = privileges(db, conn)
    except sa.exc.SQLAlchemyError as exc:
        said = " ".join(classify_error(exc, db.db_type).message.split())
        raise LoginError(
            f"--read-only could not read the login's privileges ({said}); "
            "a read-only server does not start on a login it cannot inspect"
        ) from None
    if not found:
        return
    held = ", ".join(found)
    if allow:
        logger.warning(
            "read-only mode on a privileged login (%s), as --allow-privileged-login says: "
            "the engine's privileges do not hold this server to reading",
            held,
        )
        return
    raise LoginError(
        f"--read-only refuses this login: it holds {held}, which a read-only transaction "
        f"does not contain; {_FIX}"
    )
