"""A vendor's own wording names its backend when nothing else in the text does."""

from __future__ import annotations

import pytest

from localdata_errors import ErrorCategory, classify_message
from localdata_errors._detect import detect
from tests.text_holdout import load as load_holdout


# Texts as the vendors print them (their manuals' and message lists' wording),
# with no code, no driver's module and no product name.
@pytest.mark.parametrize(
    ("text", "backend"),
    [
        ("no such table: users", "sqlite"),
        ("attempt to write a readonly database", "sqlite"),
        ("SqliteError: attempt to write a readonly database", "sqlite"),
        ("UNIQUE constraint failed: users.email", "sqlite"),
        ("Invalid column name 'Tenantd'.", "mssql"),
        (
            "Transaction (Process ID 268) was deadlocked on lock resources with another"
            " process and has been chosen as the deadlock victim. Rerun the transaction.",
            "mssql",
        ),
        (
            "remaining connection slots are reserved for non-replication superuser connections",
            "postgresql",
        ),
        ("You have an error in your SQL syntax; check the manual", "mysql"),
        ("Error: Catalog Error: Table with name t does not exist!", "duckdb"),
        # DuckDB's formats from its throw sites, without their label.
        ("Catalog with name some_catalog does not exist!", "duckdb"),
        ("Cannot mix values of type VARCHAR and BIGINT in CASE expression", "duckdb"),
    ],
)
def test_the_wording_names_the_backend(text: str, backend: str) -> None:
    found = detect(text)
    assert found is not None
    assert found.backend == backend
    assert classify_message(text).backend == backend


def test_a_text_without_a_vendors_phrase_names_nothing() -> None:
    assert detect("something went wrong while saving the record") is None
    assert detect("Error: something went wrong (attempt 3)") is None


def test_the_mapper_reads_from_the_exception_class_before_the_phrase() -> None:
    found = detect("[worker] SqliteError: attempt to write a readonly database")
    assert found is not None
    assert found.message == "attempt to write a readonly database"


# Real texts that print no code: the code is their template's in the vendor's
# list (the `doc` pages: MariaDB's error codes, MySQL's client error reference,
# SQLite's result codes, SQL Server's database engine errors).
_MARIADB = "https://mariadb.com/kb/en/mariadb-error-codes/"
_MYSQL_CLIENT = "https://dev.mysql.com/doc/mysql-errors/8.0/en/client-error-reference.html"
_SQLITE = "https://www.sqlite.org/rescode.html"
_MSSQL = "https://learn.microsoft.com/en-us/sql/relational-databases/errors-events/"


@pytest.mark.parametrize(
    ("text", "backend", "code", "source", "doc"),
    [
        (
            "Error: Access denied for user 'root'@'localhost' (using password: NO)",
            "mysql",
            "1045",  # ER_ACCESS_DENIED_ERROR
            "https://github.com/xpf0000/FlyEnv/issues/632",
            _MARIADB,
        ),
        (
            "You have an error in your SQL syntax; check the manual that corresponds to your"
            " MySQL server version for the right syntax to use near 'LIMIT 100' at line 58",
            "mysql",
            "1064",  # ER_PARSE_ERROR: "%s near '%-.80T' at line %d"
            "https://github.com/lazzyfu/goInsight/issues/196",
            _MARIADB,
        ),
        (
            "MySqlConnector.MySqlException (0x80004005): Duplicate entry '364293' for key"
            " 'PRIMARY'\n   at MySqlConnector.Core.ServerSession.ReceiveReplyAsync(IOBehavior"
            " ioBehavior, CancellationToken cancellationToken) in"
            " /_/src/MySqlConnector/Core/ServerSession.cs:line 894",
            "mysql",
            "1062",  # ER_DUP_ENTRY
            "https://github.com/gaseous-project/gaseous-server/issues/374",
            _MARIADB,
        ),
        (
            "Cause: com.mysql.jdbc.exceptions.jdbc4.MySQLTransactionRollbackException:"
            " Lock wait timeout exceeded; try restarting transaction",
            "mysql",
            "1205",  # ER_LOCK_WAIT_TIMEOUT
            "https://github.com/yifanzheng/cs-notes/issues/82",
            _MARIADB,
        ),
        (
            "mysql2-0.3.21/lib/mysql2/client.rb:70:in `connect': Can't connect to local MySQL"
            " server through socket '/tmp/mysql.sock' (2) (Mysql2::Error)",
            "mysql",
            "2002",  # CR_CONNECTION_ERROR
            "https://github.com/brianmario/mysql2/issues/808",
            _MYSQL_CLIENT,
        ),
        # SQLite prints a PRIMARY KEY's conflict (SQLITE_CONSTRAINT_PRIMARYKEY)
        # as a UNIQUE index's: the text says only SQLITE_CONSTRAINT, which both are.
        (
            "sqlite3.IntegrityError: UNIQUE constraint failed: users.username",
            "sqlite",
            "SQLITE_CONSTRAINT",
            "https://github.com/mikeizbicki/cmc-csci040/issues/231",
            _SQLITE,
        ),
        (
            "    cursor.executemany(SQL_INSERT_JOB, rows)\n"
            "sqlite3.OperationalError: database is locked",
            "sqlite",
            "SQLITE_BUSY",
            "https://github.com/medialab/minet/issues/867",
            _SQLITE,
        ),
        (
            "sqlite> PRAGMA foreign_keys = ON;\nsqlite> delete from locations_pipeline;\n"
            "Error: FOREIGN KEY constraint failed",
            "sqlite",
            "SQLITE_CONSTRAINT_FOREIGNKEY",
            "https://github.com/artefactual/archivematica-storage-service/issues/387",
            _SQLITE,
        ),
        (
            "Microsoft.Data.SqlClient.SqlException (0x80131904): Invalid object name 'Companies'.",
            "mssql",
            "208",
            "https://github.com/kodlamaio-projects/nArchitecture/issues/134",
            _MSSQL + "database-engine-events-and-errors-0-to-999",
        ),
        (
            "Login failed for user 'someuser'. Reason: Password did not match that for the"
            " login provided. [CLIENT: 127.0.0.1]",
            "mssql",
            "18456",
            "https://github.com/denisenkom/go-mssqldb/issues/174",
            _MSSQL + "database-engine-events-and-errors-18000-to-18999",
        ),
        (
            "Error querying database.  Cause: com.microsoft.sqlserver.jdbc.SQLServerException:"
            " Transaction (Process ID XX) was deadlocked on lock resources with another process"
            " and has been chosen as the deadlock victim. Rerun the transaction.",
            "mssql",
            "1205",
            "https://github.com/Activiti/Activiti/issues/4730",
            _MSSQL + "database-engine-events-and-errors-1000-to-1999",
        ),
    ],
)
def test_the_wording_gives_its_templates_code(
    text: str, backend: str, code: str, source: str, doc: str
) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == (backend, code), (source, doc)
    # The mapper read that code: the kind is the code's, as the exception path gives it.
    assert answer.kind == classify_message(text, backend, code).kind


# What FreeTDS's DB-Library prints (its dblib.c table, not sybdb.h's older
# wordings), as tiny_tds and ctds raise it: no number, no `DB-Lib` label.
_FREETDS = "https://www.freetds.org/reference/a00341.html"


@pytest.mark.parametrize(
    ("text", "code", "source"),
    [
        (
            "TinyTds::Error: Adaptive Server connection timed out",
            "20003",  # SYBETIME
            "https://github.com/rails-sqlserver/tiny_tds/issues/383",
        ),
        (
            "ActiveRecord::StatementInvalid: Adaptive Server connection timed out",
            "20003",
            "https://github.com/rails-sqlserver/activerecord-sqlserver-adapter/issues/525",
        ),
        (
            "_tds.DatabaseError: DBPROCESS is dead or not enabled",
            "20047",  # SYBEDDNE
            "https://github.com/opensafely-core/cohort-extractor/issues/514",
        ),
        (
            "TinyTds::Error: Unable to connect: Adaptive Server is unavailable or does not exist",
            "20009",  # SYBECONN
            "https://github.com/rails-sqlserver/tiny_tds/issues/28",
        ),
    ],
)
def test_db_librarys_printed_text_names_sql_server_and_its_number(
    text: str, code: str, source: str
) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == ("mssql", code), (source, _FREETDS)
    assert answer.error_type.value == "connection_error"
    assert answer.is_retryable


@pytest.mark.parametrize(
    ("text", "code", "source"),
    [
        # The wording alone is SQLITE_CONSTRAINT_UNIQUE's; the printed code wins.
        (
            "[Error: SQLITE_CONSTRAINT: UNIQUE constraint failed: user_data.user\n"
            "Emitted 'error' event on Statement instance at:\n] {\n  errno: 19,\n"
            "  code: 'SQLITE_CONSTRAINT'\n}",
            "SQLITE_CONSTRAINT",
            "https://github.com/VeryBigSad/unnamedBot/issues/13",
        ),
        # Cut before "at line": the wording alone is ER_SYNTAX_ERROR's (1149).
        (
            "ERROR 1064 (42000): You have an error in your SQL syntax; \ncheck the manual that"
            " corresponds to your MySQL server version \nfor the right syntax to use near '-",
            "1064",
            "https://github.com/aces/Loris/pull/4205",
        ),
    ],
)
def test_a_printed_code_wins_over_the_wordings(text: str, code: str, source: str) -> None:
    assert classify_message(text).database_error_code == code, source


# Real PostgreSQL texts that print no SQLSTATE: the SQLSTATE is the one
# PostgreSQL's Appendix A (and its `errcodes.txt`) gives the condition the
# message reports.
_PG_APPENDIX = "https://www.postgresql.org/docs/15/errcodes-appendix.html"

_PG_WORDED = [
    (
        'relation "users" does not exist\nLINE 1: SELECT * from users;',
        "42P01",  # undefined_table
        "https://github.com/psycopg/psycopg2/issues/593",
    ),
    (
        'relation "information_schema.tables" does not exist at character 15',
        "42P01",  # undefined_table
        "https://github.com/electric-sql/pglite/issues/13",
    ),
    (
        'ERROR:  relation "cluster_events" does not exist at character 116',
        "42P01",  # undefined_table
        "https://github.com/pantsel/konga/issues/592",
    ),
    (
        "psql:<stdin>:1: ERROR:  column con.consrc does not exist\nLINE 1: ...ent(cn.nspname)"
        " || '.' || quote_ident(c.relname), con.consrc...\n",
        "42703",  # undefined_column
        "https://github.com/darold/pgcluu/issues/107",
    ),
    (
        'error: null value in column "to_address" violates not-null constraint',
        "23502",  # not_null_violation
        "https://github.com/lamassu/lamassu-server/issues/27",
    ),
    (
        'Failed to insert file to database with error: null value in column "userid"'
        " violates not-null constraint",
        "23502",  # not_null_violation
        "https://github.com/inabahare/lewd2/issues/75",
    ),
    (
        "org.postgresql.util.PSQLException: ERROR: could not serialize access due to"
        " concurrent update",
        "40001",  # serialization_failure
        "https://github.com/lukas-krecan/ShedLock/issues/364",
    ),
    (
        "the current transaction is aborted, commands ignored until end of transaction block",
        "25P02",  # in_failed_sql_transaction
        "https://github.com/gicait/geoserver-rest/issues/15",
    ),
    (
        "postgres FATAL: sorry, too many clients already",
        "53300",  # too_many_connections
        "https://github.com/zillionare/omicron/issues/6",
    ),
    (
        "2023-01-25 11:47:36 UTC [1629-1] 172.16.105.4(43224) test3@test3 FATAL:  database"
        ' "test3" does not exist',
        "3D000",  # invalid_catalog_name
        "https://github.com/autobase-tech/autobase/issues/246",
    ),
    # Messages the source chooses through a variable (aclcheck_error's
    # `msg = gettext_noop("permission denied for table %s")`, then
    # `errmsg(msg, objectname)` in an ereport of ERRCODE_INSUFFICIENT_PRIVILEGE).
    (
        "pg_dump: error: query failed: ERROR:  permission denied for table users",
        "42501",  # insufficient_privilege
        "https://github.com/supabase/supabase/issues/2619",
    ),
    (
        "error: while executing migrations: error returned from database: permission denied"
        " for table pg_database",
        "42501",  # insufficient_privilege
        "https://github.com/transact-rs/sqlx/issues/694",
    ),
    (
        "Error: db error: ERROR: must be owner of table invoices @pg_executor.rs:552:19"
        " @datatable_migrations.rs:222:20 @datatable_migrations.rs:446:17",
        "42501",  # insufficient_privilege
        "https://github.com/windmill-labs/windmill/issues/11022",
    ),
    # A refusal whose call site sets the code through a variable: the
    # start-up catalogue's condition.
    (
        'psql: error: FATAL:  password authentication failed for user "postgres"',
        "28P01",  # invalid_password
        "https://github.com/MIT-LCP/mimic-code/issues/1060",
    ),
    (
        "2020-02-14 17:26:38.505 UTC [62] FATAL:  password authentication failed for user"
        ' "postgres"\n2020-02-14 17:26:38.505 UTC [62] DETAIL:  Password does not match for'
        ' user "postgres".',
        "28P01",  # invalid_password
        "https://github.com/docker-library/postgres/issues/679",
    ),
]


@pytest.mark.parametrize(("text", "sqlstate", "source"), _PG_WORDED)
def test_a_postgresql_wording_gives_its_sqlstate(text: str, sqlstate: str, source: str) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == ("postgresql", sqlstate), (
        source,
        _PG_APPENDIX,
    )
    # The mapper read that SQLSTATE: the kind is the one the exception path gives it.
    assert answer.kind == classify_message(text, "postgresql", sqlstate).kind


def test_the_postgresql_texts_are_not_in_the_holdout() -> None:
    def norm(text: str) -> str:
        return " ".join(text.lower().split())

    holdout = [norm(case.text) for case in load_holdout()]
    for text, _, source in _PG_WORDED:
        mine = norm(text)
        assert not any(mine in other or other in mine for other in holdout), source


@pytest.mark.parametrize(
    ("text", "code", "source"),
    [
        # The wording is 42P01's (relation ... does not exist); the SQLSTATE is printed too.
        (
            'ERROR: relation "NULL" does not exist\nSQLSTATE: 42P01',
            "42P01",
            "https://github.com/cockroachdb/cockroach/issues/145411",
        ),
        # The class names 23505 (unique_violation); the text also holds "cursor"
        # and "already exists", 42P03's (duplicate_cursor) runs, far apart.
        (
            '"/Users/godseye/PycharmProjects/Python/pythonProject/Test_File.py", line 29, in'
            ' <module>\n    cursor.execute(f"INSERT INTO richpeople (ID, NAME, NETWORTH)'
            " VALUES({ID}, 'Ali Zafar', '{NET}')\")\npsycopg2.errors.UniqueViolation: duplicate"
            ' key value violates unique constraint "richpeople_pkey"\nDETAIL:  Key (id)=(0)'
            " already exists.",
            "23505",
            "https://github.com/zulip/zulip/issues/19622",
        ),
    ],
)
def test_a_printed_sqlstate_wins_over_the_wordings(text: str, code: str, source: str) -> None:
    assert classify_message(text).database_error_code == code, source


# Real texts whose backend a driver's class or prefix names, and whose wording
# is shared with another vendor (DuckDB prints PostgreSQL's `syntax error at
# or near`) or short (`deadlock detected`, `Unknown database`): no phrase
# names a vendor, but the named backend's own template gives the code
# (PostgreSQL's Appendix A; MySQL's server error reference).
_MYSQL_SERVER = "https://dev.mysql.com/doc/mysql-errors/8.0/en/server-error-reference.html"

_KNOWN_WORDED = [
    (
        "Caused by: org.postgresql.util.PSQLException: ERROR: deadlock detected\n"
        "  Detail: Process 28650 waits for ShareLock on transaction 1717053; blocked by"
        " process 29063.\nProcess 29063 waits for ShareLock on transaction 1717052; blocked"
        " by process 28650.\n  Hint: See server log for query details.\n  Where: while"
        ' locking tuple (14,73) in relation "user_attrs"',
        "postgresql",
        "40P01",  # deadlock_detected
        "https://github.com/NationalSecurityAgency/skills-service/issues/456",
        _PG_APPENDIX,
    ),
    (
        'pq: syntax error at or near "FROM"\nLINE 1: SELECT * FROM FROM items;',
        "postgresql",
        "42601",  # syntax_error
        "https://github.com/lib/pq/pull/521",
        _PG_APPENDIX,
    ),
    (
        '*pq.Error: syntax error at or near ")"\n  File "/home/imagemonkey/src/imagedb.go",'
        " line 621, in export\n    raven.CaptureError(err, nil)\n...\n(11 additional"
        ' frame(s) were not displayed)\n\npq: syntax error at or near ")"',
        "postgresql",
        "42601",  # syntax_error
        "https://github.com/ImageMonkey/imagemonkey-core/issues/129",
        _PG_APPENDIX,
    ),
    (
        "com.mysql.jdbc.exceptions.jdbc4.MySQLSyntaxErrorException: Unknown database"
        " 'dbtest'\n    at sun.reflect.NativeConstructorAccessorImpl.newInstance0(Native"
        " Method)",
        "mysql",
        "1049",  # ER_BAD_DB_ERROR
        "https://github.com/alibaba/cobar/issues/20",
        _MYSQL_SERVER,
    ),
    (
        "MySqlException: Unknown database 'testdb'\n"
        "System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw()",
        "mysql",
        "1049",  # ER_BAD_DB_ERROR
        "https://github.com/PomeloFoundation/Pomelo.EntityFrameworkCore.MySql/issues/438",
        _MYSQL_SERVER,
    ),
    (
        "_mysql_connector.MySQLInterfaceError: Unknown database 'mediathekview'",
        "mysql",
        "1049",  # ER_BAD_DB_ERROR
        "https://github.com/mediathekview/plugin.video.mediathekview/issues/160",
        _MYSQL_SERVER,
    ),
]


@pytest.mark.parametrize(("text", "backend", "code", "source", "doc"), _KNOWN_WORDED)
def test_a_named_backends_own_template_gives_its_code(
    text: str, backend: str, code: str, source: str, doc: str
) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == (backend, code), (source, doc)
    # The mapper read that code: the kind is the code's, as the exception path gives it.
    assert answer.kind == classify_message(text, backend, code).kind


def test_a_wording_duckdb_shares_names_it_only_after_its_label() -> None:
    # PostgreSQL's scanner's message, which DuckDB's parser prints too, but
    # always after its label (`Parser Error: `), read before any wording; without
    # it the text is PostgreSQL's (https://github.com/vitaly-t/pg-promise/issues/522,
    # a PostgreSQL client's issue).
    found = detect('syntax error at or near "as"')
    assert found is not None
    assert found.backend == "postgresql"
    assert classify_message('Parser Error: syntax error at or near "as"').backend == "duckdb"


def test_the_named_backends_texts_are_not_in_the_holdout() -> None:
    def norm(text: str) -> str:
        return " ".join(text.lower().split())

    holdout = [norm(case.text) for case in load_holdout()]
    for text, _, _, source, _ in _KNOWN_WORDED:
        mine = norm(text)
        assert not any(mine in other or other in mine for other in holdout), source


@pytest.mark.parametrize(
    ("text", "backend", "code"),
    [
        # MySQL's error reference: ER_HOST_NOT_PRIVILEGED (1130) and
        # ER_NOT_SUPPORTED_AUTH_MODE (1251), in MySQL's words; MariaDB's own
        # texts name MariaDB where MySQL's name MySQL.
        ("Host '172.17.0.1' is not allowed to connect to this MySQL server", "mysql", "1130"),
        ("Host '172.17.0.1' is not allowed to connect to this MariaDB server", "mysql", "1130"),
        (
            "Client does not support authentication protocol requested by server; "
            "consider upgrading MySQL client",
            "mysql",
            "1251",
        ),
        # SQL Server's 18470, "Login failed for user '%.*ls'. Reason: The account
        # is disabled.": a rule pack's marker of two common words ("is
        # disabled", a PgBouncer message's) names no backend.
        ("Login failed for user 'app'. Reason: The account is disabled.", "mssql", "18470"),
    ],
)
def test_the_vendors_words_name_it_not_a_packs_two_common_words(
    text: str, backend: str, code: str
) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == (backend, code)


# Messages drivers raise of their own (`tools/upstream/driver-messages.tsv`,
# from each driver's source), filled in as the driver fills them: no server
# code, no module or class name of the driver.
@pytest.mark.parametrize(
    ("text", "backend", "driver"),
    [
        ("Error: Connection terminated unexpectedly", "postgresql", "node-postgres"),
        ("Connection terminated due to connection timeout", "postgresql", "pg-pool"),
        (
            "Release called on client which has already been released to the pool.",
            "postgresql",
            "pg-pool",
        ),
        ("An I/O error occurred while sending to the backend.", "postgresql", "pgjdbc"),
        ("This connection has been closed.", "postgresql", "pgjdbc"),
        ("can't execute an empty query", "postgresql", "psycopg2"),
        ("cannot perform operation: another operation is in progress", "postgresql", "asyncpg"),
        ("pq: unknown response for simple query: 'x'", "postgresql", "lib/pq"),
        ("Error: Can't add new command when connection is in closed state", "mysql", "mysql2"),
        ("Error: Cannot enqueue Query after fatal error.", "mysql", "mysqljs"),
        ("commands out of sync. You can't run this command now", "mysql", "go-sql-driver/mysql"),
        ("Failed to connect to db01:1433 in 15000ms", "mssql", "tedious"),
        (
            "RequestError: Requests can only be made in the LoggedIn state,"
            " not the SentClientRequest state",
            "mssql",
            "tedious",
        ),
    ],
)
def test_a_drivers_own_message_names_its_backend(text: str, backend: str, driver: str) -> None:
    found = detect(text)
    assert found is not None, driver
    assert found.backend == backend, driver
    assert classify_message(text).backend == backend, driver


# pgjdbc raises its own messages with a `PSQLState` (org/postgresql/util/
# PSQLState.java): the text alone gives that SQLSTATE, and its class the category.
@pytest.mark.parametrize(
    ("text", "sqlstate", "category"),
    [
        # QueryExecutorImpl: PSQLState.CONNECTION_UNABLE_TO_CONNECT (08001).
        ("org.postgresql.util.PSQLException: Connection attempt timed out.", "08001",
         ErrorCategory.CONNECTION_ERROR),
        # CopyManager: PSQLState.CONNECTION_FAILURE (08006).
        ("Database connection failed when writing to copy", "08006",
         ErrorCategory.CONNECTION_ERROR),
        # PgResultSet.checkClosed: PSQLState.OBJECT_NOT_IN_STATE (55000).
        ("org.postgresql.util.PSQLException: This ResultSet is closed.", "55000",
         ErrorCategory.QUERY_EXECUTION),
    ],
)  # fmt: skip
def test_pgjdbc_own_message_gives_the_sqlstate_it_is_raised_with(
    text: str, sqlstate: str, category: ErrorCategory
) -> None:
    answer = classify_message(text)
    assert (answer.backend, answer.database_error_code) == ("postgresql", sqlstate)
    assert answer.error_type is category


@pytest.mark.parametrize(
    "text",
    [
        # node-mssql's `Connection is closed.`; pg8000's and asyncpg's `connection is closed`.
        "Error: Connection is closed.",
        # Words any program writes, in several drivers' messages.
        "dial tcp: connection refused",
        "value out of range",
        # psycopg2's, in words each of which twenty templates of other
        # vendors hold: English any program may print, no phrase.
        "connection already closed",
    ],
)
def test_a_message_drivers_of_two_backends_share_or_anyone_writes_names_none(text: str) -> None:
    assert detect(text) is None


# Messages of the drivers' platforms (`tools/upstream/platform-messages.tsv`),
# which a driver may copy: any program on that platform prints them.
@pytest.mark.parametrize(
    "text",
    [
        # Node's `_http_client` (`new ConnResetException('socket hang up')`),
        # which tedious copies.
        "Error: socket hang up",
        # Go's `database/sql/driver.ErrBadConn`; go-sql-driver/mysql says `bad connection`.
        "driver: bad connection",
        # Go's `database/sql`, which go-sql-driver/mysql copies.
        "sql: driver does not support the use of Named Parameters",
        # The C library's strerror(EISDIR), as Python raises it.
        "IsADirectoryError: [Errno 21] Is a directory: '/var/lib/data'",
    ],
)
def test_a_platforms_message_a_driver_copies_names_none(text: str) -> None:
    assert detect(text) is None
    assert classify_message(text).backend == "generic"
