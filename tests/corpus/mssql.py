"""
SQL Server cases: each error built exactly as pyodbc, pymssql or pytds builds it.

No SQL Server runs here, so every case is one ``sys.messages`` text (with its
placeholders filled as the server fills them) wrapped the way each driver
wraps a server message:

* pyodbc (and aioodbc, which re-raises it): ``Class(sqlstate,
  "[sqlstate] [Microsoft][ODBC Driver 18 for SQL Server][SQL Server]text
  (number) (SQLExecDirectW)")``, the class chosen from the SQLSTATE by
  pyodbc's own table (``errors.cpp``), further diagnostic records appended
  as ``"; [sqlstate] [...]text (number)"``;
* pymssql: ``Class(number, b"text" + DB-Library's 20018 trailer)`` from
  ``Cursor.execute`` (class by pymssql's ``prog_errors`` /
  ``integrity_errors``), ``OperationalError((number, b"..."),)`` from
  ``connect``;
* pytds: built by pytds's own ``_TdsSession.raise_db_exception`` from the
  server's message tokens.

``SERVER_CASES`` and ``CLIENT_CASES`` are the single source of truth; the
tests parametrize over them and ``collect()`` yields the same exceptions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from localdata_errors import Kind
from tests.corpus import CorpusCase, Expected

__all__ = [
    "CLIENT_CASES",
    "MESSAGE_CASES",
    "SERVER_CASES",
    "STATE_CASES",
    "ClientCase",
    "MessageCase",
    "ServerCase",
    "collect",
    "pymssql_error",
    "pyodbc_error",
    "pytds_error",
]

K = Kind
ODBC_CHAIN = "[Microsoft][ODBC Driver 18 for SQL Server]"
TERMINATED = (3621, "01000", "The statement has been terminated.")
# pymssql's numbers that Cursor.execute raises as ProgrammingError / IntegrityError.
PYMSSQL_PROG = frozenset({102, 207, 208, 2812, 4104})
PYMSSQL_INTEGRITY = frozenset({515, 547, 2601, 2627})
DBLIB_20018 = (
    "DB-Lib error message 20018, severity {sev}:\nGeneral SQL Server error: "
    "Check messages from the SQL Server\n"
)


@dataclass(frozen=True)
class ServerCase:
    """One SQL Server message and what its answer must say."""

    number: int
    sqlstate: str
    text: str
    kind: Kind
    resources: tuple[str, ...] = ()
    dependencies: tuple[str, ...] = ()
    constraint: str | None = None
    severity: int = 16
    #: Raised while connecting (pymssql wraps it in one tuple argument).
    login: bool = False
    #: Further ODBC diagnostic records: (number, sqlstate, text).
    more: tuple[tuple[int, str, str], ...] = ()
    label: str = ""
    #: The Kind table's retry decision overridden (the server said "Rerun").
    retryable: bool | None = None
    #: The drivers that carry what the answer needs (pyodbc has no severity).
    drivers: tuple[str, ...] = ("pyodbc", "pymssql", "pytds")
    #: The schema a qualified name carried (None: not checked).
    schema: str | None = None
    #: Names that must not be resources (an alias, a database or schema that places a name).
    absent: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """A readable, unique test id."""
        return f"{self.number}{'-' + self.label if self.label else ''}"

    def expected(self) -> Expected:
        """The expectation every driver shape of this message shares."""
        return Expected(
            kind=self.kind,
            code=str(self.number),
            resources=self.resources,
            dependencies=self.dependencies,
            constraint=self.constraint,
            retryable=self.retryable,
            schema=self.schema,
            absent=self.absent,
        )


def S(
    number: int,
    sqlstate: str,
    text: str,
    kind: Kind,
    *resources: str,
    deps: tuple[str, ...] = (),
    constraint: str | None = None,
    severity: int = 16,
    login: bool = False,
    more: tuple[tuple[int, str, str], ...] = (),
    label: str = "",
    retryable: bool | None = None,
    drivers: tuple[str, ...] = ("pyodbc", "pymssql", "pytds"),
    schema: str | None = None,
    absent: tuple[str, ...] = (),
) -> ServerCase:
    """Build one :class:`ServerCase` row."""
    return ServerCase(
        number,
        sqlstate,
        text,
        kind,
        resources,
        deps,
        constraint,
        severity,
        login,
        more,
        label,
        retryable,
        drivers,
        schema,
        absent,
    )


FK_INSERT = (
    'The INSERT statement conflicted with the FOREIGN KEY constraint "FK_o_c". '
    'The conflict occurred in database "db", table "dbo.customers", column \'id\'.'
)
FK_DELETE = (
    'The DELETE statement conflicted with the REFERENCE constraint "FK_o_c". '
    'The conflict occurred in database "db", table "dbo.orders", column '
    "'customer_id'."
)
CK_UPDATE = (
    'The UPDATE statement conflicted with the CHECK constraint "CK_t_qty". '
    'The conflict occurred in database "db", table "dbo.t", column \'qty\'.'
)
LOGIN_FAILED = (18456, "28000", "Login failed for user 'app'.")

SERVER_CASES: tuple[ServerCase, ...] = (
    # -- malformed SQL
    S(102, "42000", "Incorrect syntax near 'FORM'.", K.SYNTAX_ERROR, severity=15),
    S(170, "42000", "Line 1: Incorrect syntax near 'FORM'.", K.SYNTAX_ERROR, severity=15),
    S(
        544,
        "23000",
        "Cannot insert explicit value for identity column in table 'orders' when "
        "IDENTITY_INSERT is set to OFF.",
        K.SYNTAX_ERROR,
        severity=16,
    ),
    S(
        105,
        "42000",
        "Unclosed quotation mark after the character string 'abc'.",
        K.SYNTAX_ERROR,
        severity=15,
    ),
    S(
        109,
        "42000",
        "There are more columns in the INSERT statement than values specified in "
        "the VALUES clause. The number of values in the VALUES clause must match the number of "
        "columns specified in the INSERT statement.",
        K.SYNTAX_ERROR,
        severity=15,
    ),
    S(
        110,
        "42000",
        "There are fewer columns in the INSERT statement than values specified in "
        "the VALUES clause. The number of values in the VALUES clause must match the number of "
        "columns specified in the INSERT statement.",
        K.SYNTAX_ERROR,
        severity=15,
    ),
    S(156, "42000", "Incorrect syntax near the keyword 'FROM'.", K.SYNTAX_ERROR, severity=15),
    S(
        213,
        "21S01",
        "Column name or number of supplied values does not match table definition.",
        K.SYNTAX_ERROR,
    ),
    S(
        319,
        "42000",
        "Incorrect syntax near the keyword 'with'. If this statement is a common "
        "table expression, an xmlnamespaces clause or a change tracking context clause, the "
        "previous statement must be terminated with a semicolon.",
        K.SYNTAX_ERROR,
        severity=15,
    ),
    S(
        1038,
        "42000",
        "An object or column name is missing or empty. For SELECT INTO statements, "
        "verify each column has a name. For other statements, look for empty alias names. "
        'Aliases defined as "" or [] are not allowed. Change the alias to a valid name.',
        K.SYNTAX_ERROR,
        severity=15,
    ),
    S(
        4108,
        "42000",
        "Windowed functions can only appear in the SELECT or ORDER BY clauses.",
        K.SYNTAX_ERROR,
        severity=15,
    ),
    S(
        4145,
        "42000",
        "An expression of non-boolean type specified in a context where a "
        "condition is expected, near 'ORDER'.",
        K.SYNTAX_ERROR,
        severity=15,
    ),
    S(
        8155,
        "42000",
        "No column name was specified for column 1 of 'x'.",
        K.SYNTAX_ERROR,
        severity=15,
    ),
    S(
        130,
        "42000",
        "Cannot perform an aggregate function on an expression containing an "
        "aggregate or a subquery.",
        K.GROUPING_ERROR,
    ),
    S(
        147,
        "42000",
        "An aggregate may not appear in the WHERE clause unless it is in a subquery "
        "contained in a HAVING clause or a select list, and the column being aggregated is an "
        "outer reference.",
        K.GROUPING_ERROR,
        severity=15,
    ),
    S(
        8120,
        "42000",
        "Column 'orders.status' is invalid in the select list because it is not "
        "contained in either an aggregate function or the GROUP BY clause.",
        K.GROUPING_ERROR,
        "status",
    ),
    # -- missing objects
    S(
        208,
        "42S02",
        "Invalid object name 'dbo.orders'.",
        K.UNDEFINED_TABLE,
        "orders",
        schema="dbo",
        absent=("dbo",),
    ),
    S(
        208,
        "42S02",
        "Invalid object name 'Sales.Orders'.",
        K.UNDEFINED_TABLE,
        "Orders",
        label="case-kept",
        schema="Sales",
        absent=("Sales",),
    ),
    S(
        1767,
        "42000",
        "Foreign key 'FK_o_c' references invalid table 'dbo.customers'.",
        K.UNDEFINED_TABLE,
        "customers",
        "FK_o_c",
        constraint="FK_o_c",
    ),
    S(
        4902,
        "42S02",
        'Cannot find the object "dbo.orders" because it does not exist or you do '
        "not have permissions.",
        K.UNDEFINED_TABLE,
        "orders",
    ),
    S(207, "42S22", "Invalid column name 'foo'.", K.UNDEFINED_COLUMN, "foo"),
    S(
        4104,
        "42000",
        'The multi-part identifier "o.customer_id" could not be bound.',
        K.UNDEFINED_COLUMN,
        "customer_id",
        absent=("o",),  # an alias
    ),
    S(
        4104,
        "42000",
        'The multi-part identifier "dbo.Orders.nme" could not be bound.',
        K.UNDEFINED_COLUMN,
        "nme",
        "Orders",
        schema="dbo",
        absent=("dbo",),
        label="schema-qualified",
    ),
    S(
        4924,
        "42000",
        "ALTER TABLE ALTER COLUMN failed because column 'qty' does not exist in table 'orders'.",
        K.UNDEFINED_COLUMN,
        "qty",
        "orders",
    ),
    S(
        195,
        "42000",
        "'STRING_AGGX' is not a recognized built-in function name.",
        K.UNDEFINED_FUNCTION,
        "STRING_AGGX",
        severity=15,
    ),
    S(
        2812,
        "42000",
        "Could not find stored procedure 'usp_missing'.",
        K.UNDEFINED_FUNCTION,
        "usp_missing",
    ),
    S(
        4121,
        "42000",
        'Cannot find either column "dbo" or the user-defined function or aggregate '
        '"dbo.fn_total", or the name is ambiguous.',
        K.UNDEFINED_FUNCTION,
        "fn_total",
    ),
    S(
        3701,
        "42S02",
        "Cannot drop the view 'dbo.v_totals', because it does not exist or you do "
        "not have permission.",
        K.UNDEFINED_OBJECT,
        "v_totals",
        severity=11,
    ),
    S(
        3701,
        "42S02",
        "Cannot drop the table 'dbo.orders', because it does not exist or you do "
        "not have permission.",
        K.UNDEFINED_TABLE,
        "orders",
        severity=11,
        label="table",
    ),
    S(3728, "42000", "'CK_x' is not a constraint.", K.UNDEFINED_OBJECT, "CK_x", constraint="CK_x"),
    S(
        15151,
        "42000",
        "Cannot drop the user 'bob', because it does not exist or you do not have permission.",
        K.UNDEFINED_OBJECT,
        "bob",
    ),
    S(
        911,
        "42000",
        "Database 'salesdb' does not exist. Make sure that the name is entered correctly.",
        K.UNDEFINED_DATABASE,
        "salesdb",
    ),
    S(
        4060,
        "42000",
        'Cannot open database "salesdb" requested by the login. The login failed.',
        K.UNDEFINED_DATABASE,
        "salesdb",
        severity=11,
        login=True,
        more=(LOGIN_FAILED,),
    ),
    S(
        4064,
        "42000",
        "Cannot open user default database. Login failed.",
        K.UNDEFINED_DATABASE,
        severity=11,
        login=True,
        more=(LOGIN_FAILED,),
    ),
    S(
        2760,
        "42000",
        'The specified schema name "sales" either does not exist or you do not '
        "have permission to use it.",
        K.UNDEFINED_SCHEMA,
        "sales",
    ),
    # -- objects that already exist
    S(
        2705,
        "42S21",
        "Column names in each table must be unique. Column name 'email' in table "
        "'users' is specified more than once.",
        K.DUPLICATE_COLUMN,
        "email",
        "users",
    ),
    S(
        8156,
        "42000",
        "The column 'id' was specified multiple times for 'x'.",
        K.DUPLICATE_COLUMN,
        "id",
    ),
    S(
        1913,
        "42S11",
        "The operation failed because an index or statistics with name "
        "'IX_t_email' already exists on table 'dbo.t'.",
        K.DUPLICATE_OBJECT,
        "IX_t_email",
        "t",
    ),
    S(
        2714,
        "42S01",
        "There is already an object named 'orders' in the database.",
        K.DUPLICATE_OBJECT,
        "orders",
    ),
    S(
        15023,
        "42000",
        "User, group, or role 'bob' already exists in the current database.",
        K.DUPLICATE_OBJECT,
        "bob",
    ),
    S(15025, "42000", "The server principal 'bob' already exists.", K.DUPLICATE_OBJECT, "bob"),
    S(
        1801,
        "42000",
        "Database 'salesdb' already exists. Choose a different database name.",
        K.DUPLICATE_DATABASE,
        "salesdb",
    ),
    S(209, "42000", "Ambiguous column name 'id'.", K.AMBIGUOUS_COLUMN, "id"),
    S(
        1750,
        "42000",
        "Could not create constraint or index. See previous errors.",
        K.INVALID_OBJECT_DEFINITION,
    ),
    S(
        1776,
        "42000",
        "There are no primary or candidate keys in the referenced table "
        "'dbo.customers' that match the referencing column list in the foreign key 'FK_o_c'.",
        K.INVALID_OBJECT_DEFINITION,
        "customers",
        "FK_o_c",
        constraint="FK_o_c",
        more=((1750, "42000", "Could not create constraint or index. See previous errors."),),
    ),
    S(
        1778,
        "42000",
        "Column 'customers.id' is not the same data type as referencing column "
        "'orders.customer_id' in foreign key 'FK_o_c'.",
        K.INVALID_OBJECT_DEFINITION,
        "FK_o_c",
        constraint="FK_o_c",
    ),
    S(
        1785,
        "42000",
        "Introducing FOREIGN KEY constraint 'FK_o_c' on table 'orders' may cause "
        "cycles or multiple cascade paths. Specify ON DELETE NO ACTION or ON UPDATE NO ACTION, or "
        "modify other FOREIGN KEY constraints.",
        K.INVALID_OBJECT_DEFINITION,
        "orders",
        "FK_o_c",
        constraint="FK_o_c",
    ),
    S(
        4901,
        "42000",
        "ALTER TABLE only allows columns to be added that can contain nulls, or "
        "have a DEFAULT definition specified, or the column being added is an identity or "
        "timestamp column, or alternatively if none of the previous conditions are satisfied the "
        "table must be empty to allow addition of this column. Column 'status' cannot be added to "
        "non-empty table 'orders' because it does not satisfy these conditions.",
        K.INVALID_OBJECT_DEFINITION,
        "status",
        "orders",
    ),
    # -- constraints
    S(
        1505,
        "23000",
        "The CREATE UNIQUE INDEX statement terminated because a duplicate key was "
        "found for the object name 'dbo.users' and the index name 'UX_users_email'. The "
        "duplicate key value is (a@b.c).",
        K.UNIQUE_VIOLATION,
        "users",
        "UX_users_email",
    ),
    S(
        2601,
        "23000",
        "Cannot insert duplicate key row in object 'dbo.t' with unique index "
        "'IX_t_email'. The duplicate key value is (a@b.c).",
        K.UNIQUE_VIOLATION,
        "t",
        "IX_t_email",
        severity=14,
        more=(TERMINATED,),
    ),
    S(
        2627,
        "23000",
        "Violation of PRIMARY KEY constraint 'PK_t'. Cannot insert duplicate key in "
        "object 'dbo.t'. The duplicate key value is (1).",
        K.UNIQUE_VIOLATION,
        "t",
        "PK_t",
        constraint="PK_t",
        severity=14,
        more=(TERMINATED,),
    ),
    S(
        2627,
        "23000",
        "Violation of UNIQUE KEY constraint 'UQ_users_email'. Cannot insert "
        "duplicate key in object 'dbo.users'. The duplicate key value is (a@b.c).",
        K.UNIQUE_VIOLATION,
        "users",
        "UQ_users_email",
        constraint="UQ_users_email",
        severity=14,
        more=(TERMINATED,),
        label="unique-key",
    ),
    S(
        547,
        "23000",
        FK_INSERT,
        K.FOREIGN_KEY_VIOLATION,
        "FK_o_c",
        deps=("customers",),
        constraint="FK_o_c",
        more=(TERMINATED,),
    ),
    S(
        547,
        "23000",
        FK_DELETE,
        K.FOREIGN_KEY_VIOLATION,
        "FK_o_c",
        deps=("orders",),
        constraint="FK_o_c",
        more=(TERMINATED,),
        label="reference",
    ),
    S(
        547,
        "23000",
        "The INSERT statement conflicted with the FOREIGN KEY SAME TABLE constraint "
        '"FK_emp_manager". The conflict occurred in database "db", table "dbo.employees", column '
        "'id'.",
        K.FOREIGN_KEY_VIOLATION,
        "employees",
        "FK_emp_manager",
        deps=("employees",),
        constraint="FK_emp_manager",
        more=(TERMINATED,),
        label="same-table",
    ),
    S(
        547,
        "23000",
        CK_UPDATE,
        K.CHECK_VIOLATION,
        "t",
        "qty",
        "CK_t_qty",
        constraint="CK_t_qty",
        more=(TERMINATED,),
        label="check",
    ),
    S(
        515,
        "23000",
        "Cannot insert the value NULL into column 'name', table 'db.dbo.t'; column "
        "does not allow nulls. INSERT fails.",
        K.NOT_NULL_VIOLATION,
        "t",
        "name",
        more=(TERMINATED,),
    ),
    S(
        3726,
        "42000",
        "Could not drop object 'dbo.customers' because it is referenced by a "
        "FOREIGN KEY constraint.",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
        "customers",
    ),
    S(
        3729,
        "42000",
        "Cannot DROP TABLE 'dbo.customers' because it is being referenced by object "
        "'v_customer_orders'.",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
        "customers",
        deps=("v_customer_orders",),
    ),
    S(
        4712,
        "42000",
        "Cannot truncate table 'dbo.customers' because it is being referenced by a "
        "FOREIGN KEY constraint.",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
        "customers",
    ),
    S(
        4922,
        "42000",
        "ALTER TABLE DROP COLUMN qty failed because one or more objects access this column.",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
        "qty",
    ),
    S(
        5074,
        "42000",
        "The object 'DF_orders_qty' is dependent on column 'qty'.",
        K.DEPENDENT_OBJECTS_STILL_EXIST,
        "qty",
        deps=("DF_orders_qty",),
        more=(
            (
                4922,
                "42000",
                "ALTER TABLE DROP COLUMN qty failed because one or more objects "
                "access this column.",
            ),
        ),
    ),
    # -- who may do what
    S(*LOGIN_FAILED, K.INVALID_PASSWORD, severity=14, login=True, more=(LOGIN_FAILED,)),
    S(
        18452,
        "28000",
        "Login failed. The login is from an untrusted domain and cannot be used "
        "with Integrated authentication.",
        K.INVALID_AUTHORIZATION,
        severity=14,
        login=True,
    ),
    S(
        18470,
        "28000",
        "Login failed for user 'app'. Reason: The account is disabled.",
        K.INVALID_AUTHORIZATION,
        severity=14,
        login=True,
    ),
    S(
        18486,
        "28000",
        "Login failed for user 'app' because the account is currently locked out. "
        "The system administrator can unlock it.",
        K.INVALID_AUTHORIZATION,
        severity=14,
        login=True,
    ),
    S(
        18487,
        "28000",
        "Login failed for user 'app'. Reason: The password of the account has expired.",
        K.INVALID_AUTHORIZATION,
        severity=14,
        login=True,
    ),
    S(
        18488,
        "28000",
        "Login failed for user 'app'. Reason: The password of the account must be changed.",
        K.INVALID_AUTHORIZATION,
        severity=14,
        login=True,
    ),
    S(
        40615,
        "42000",
        "Cannot open server 'myserver' requested by the login. Client with IP "
        "address '203.0.113.5' is not allowed to access the server.  To enable access, use the "
        "Windows Azure Management Portal or run sp_set_firewall_rule on the master database to "
        "create a firewall rule for this IP address or address range.  It may take up to five "
        "minutes for this change to take effect.",
        K.INVALID_AUTHORIZATION,
        severity=14,
        login=True,
    ),
    S(
        229,
        "42000",
        "The SELECT permission was denied on the object 'orders', database "
        "'salesdb', schema 'dbo'.",
        K.INSUFFICIENT_PRIVILEGE,
        "orders",
        severity=14,
        schema="dbo",
        absent=("salesdb", "dbo"),
    ),
    S(
        230,
        "42000",
        "The SELECT permission was denied on the column 'salary' of the object "
        "'employees', database 'hr', schema 'dbo'.",
        K.INSUFFICIENT_PRIVILEGE,
        "employees",
        "salary",
        severity=14,
        schema="dbo",
        absent=("hr", "dbo"),
    ),
    S(
        262,
        "42000",
        "CREATE TABLE permission denied in database 'salesdb'.",
        K.INSUFFICIENT_PRIVILEGE,
        "salesdb",
        severity=14,
    ),
    S(
        297,
        "42000",
        "The user does not have permission to perform this action.",
        K.INSUFFICIENT_PRIVILEGE,
    ),
    S(
        300,
        "42000",
        "VIEW SERVER STATE permission was denied on object 'server', database 'master'.",
        K.INSUFFICIENT_PRIVILEGE,
        "server",
        severity=14,
        absent=("master",),
    ),
    S(
        916,
        "42000",
        'The server principal "app" is not able to access the database "hr" under '
        "the current security context.",
        K.INSUFFICIENT_PRIVILEGE,
        "hr",
        severity=14,
    ),
    S(
        15247,
        "42000",
        "User does not have permission to perform this action.",
        K.INSUFFICIENT_PRIVILEGE,
    ),
    S(
        3906,
        "42000",
        'Failed to update database "salesdb" because the database is read-only.',
        K.READ_ONLY,
        "salesdb",
    ),
    # -- wait and retry
    S(
        1205,
        "40001",
        "Transaction (Process ID 52) was deadlocked on lock resources with another "
        "process and has been chosen as the deadlock victim. Rerun the transaction.",
        K.DEADLOCK_DETECTED,
        severity=13,
    ),
    S(
        3960,
        "HY000",
        "Snapshot isolation transaction aborted due to update conflict. You cannot "
        "use snapshot isolation to access table 'dbo.orders' directly or indirectly in database "
        "'salesdb' to update, delete, or insert the row that has been modified or deleted by "
        "another transaction. Retry the transaction or change the isolation level for the "
        "update/delete statement.",
        K.SERIALIZATION_FAILURE,
    ),
    S(
        3961,
        "HY000",
        "Snapshot isolation transaction failed in database 'salesdb' because the "
        "object accessed by the statement has been modified by a DDL statement in another "
        "concurrent transaction since the start of this transaction.  It is disallowed because "
        "the metadata is not versioned. A concurrent update to metadata can lead to "
        "inconsistency if mixed with snapshot isolation.",
        K.SERIALIZATION_FAILURE,
        "salesdb",
    ),
    S(
        41301,
        "HY000",
        "Dependency failure: a dependency was taken on another transaction that "
        "later failed to commit.",
        K.SERIALIZATION_FAILURE,
    ),
    S(
        41302,
        "HY000",
        "The current transaction attempted to update a record that has been "
        "updated since this transaction started. The transaction was aborted.",
        K.SERIALIZATION_FAILURE,
    ),
    S(
        41305,
        "HY000",
        "The current transaction failed to commit due to a repeatable read validation failure.",
        K.SERIALIZATION_FAILURE,
    ),
    S(
        41325,
        "HY000",
        "The current transaction failed to commit due to a serializable validation failure.",
        K.SERIALIZATION_FAILURE,
    ),
    S(
        41839,
        "HY000",
        "Transaction exceeded the maximum number of commit dependencies and the "
        "last statement was aborted. Retry the statement.",
        K.SERIALIZATION_FAILURE,
    ),
    S(
        1204,
        "HY000",
        "The instance of the SQL Server Database Engine cannot obtain a LOCK "
        "resource at this time. Rerun your statement when there are fewer active users. Ask the "
        "database administrator to check the lock and memory configuration for this instance, "
        "or to check for long-running transactions.",
        K.LOCK_NOT_AVAILABLE,
        severity=19,
    ),
    S(1222, "HY000", "Lock request time out period exceeded.", K.LOCK_NOT_AVAILABLE),
    S(
        1807,
        "42000",
        "Could not obtain exclusive lock on database 'model'. Retry the operation later.",
        K.DATABASE_LOCKED,
        "model",
    ),
    S(
        3702,
        "42000",
        'Cannot drop database "salesdb" because it is currently in use.',
        K.DATABASE_LOCKED,
        "salesdb",
    ),
    S(
        8628,
        "HY000",
        "A time out occurred while waiting to optimize the query. Rerun the query.",
        K.STATEMENT_TIMEOUT,
        severity=17,
        retryable=True,  # a wait for the server's memory, not the statement's own limit
    ),
    S(
        3980,
        "HY000",
        "The request failed to run because the batch is aborted, this can be "
        "caused by abort signal sent from client, or another request is running in the same "
        "session, which makes the session busy.",
        K.QUERY_CANCELED,
    ),
    # -- the connection (server side; the client-side numbers are in CLIENT_CASES)
    S(
        4221,
        "42000",
        "Login to read-secondary failed due to long wait on "
        "'HADR_DATABASE_WAIT_FOR_TRANSITION_TO_VERSIONING'. The replica is not available for "
        "login because row versions are missing for transactions that were in-flight when the "
        "replica was recycled. The issue can be resolved by rolling back or committing the "
        "active transactions on the primary replica. Occurrences of this condition can be "
        "minimized by avoiding long write transactions on the primary.",
        K.CONNECTION_FAILURE,
        login=True,
    ),
    S(
        42108,
        "42000",
        "Can not connect to the SQL pool since it is paused. Please resume the SQL "
        "pool and try again.",
        K.CONNECTION_FAILURE,
        login=True,
    ),
    S(
        40143,
        "HY000",
        "The service has encountered an error processing your request. Please try again.",
        K.CONNECTION_LOST,
        severity=20,
    ),
    S(
        40197,
        "HY000",
        "The service has encountered an error processing your request. Please try "
        "again. Error code 4815.",
        K.CONNECTION_LOST,
        severity=20,
    ),
    S(
        40540,
        "HY000",
        "The service has encountered an error processing your request. Please try again.",
        K.CONNECTION_LOST,
        severity=20,
    ),
    S(
        40549,
        "HY000",
        "Session is terminated because you have a long-running transaction. Try "
        "shortening your transaction.",
        K.CONNECTION_LOST,
        severity=20,
    ),
    S(
        596,
        "HY000",
        "Cannot continue the execution because the session is in the kill state.",
        K.ADMIN_SHUTDOWN,
        severity=21,
    ),
    S(
        615,
        "HY000",
        "Could not find database ID 5, name 'salesdb'. The database may be offline. "
        "Wait a few minutes and try again.",
        K.ADMIN_SHUTDOWN,
        "salesdb",
        severity=21,
    ),
    S(6005, "HY000", "SHUTDOWN is in progress.", K.ADMIN_SHUTDOWN, severity=14),
    S(
        17142,
        "HY000",
        "SQL Server service has been paused. No new connections will be allowed. "
        "To resume the service, use SQL Computer Manager or the Services application in Control "
        "Panel.",
        K.ADMIN_SHUTDOWN,
        severity=14,
        login=True,
    ),
    S(
        18401,
        "28000",
        "Login failed for user 'app'. Reason: Server is in script upgrade mode. "
        "Only administrator can connect at this time.",
        K.ADMIN_SHUTDOWN,
        severity=14,
        login=True,
    ),
    S(
        18451,
        "28000",
        "Login failed for user 'app'. Only administrators may connect at this time.",
        K.ADMIN_SHUTDOWN,
        severity=14,
        login=True,
    ),
    S(
        40613,
        "HY000",
        "Database 'salesdb' on server 'myserver' is not currently available.  "
        "Please retry the connection later.  If the problem persists, contact customer support, "
        "and provide them the session tracing ID of '4E1B7C6F-2C2B-4F9A-9B7B-6A1D2C3E4F50'.",
        K.ADMIN_SHUTDOWN,
        "salesdb",
        severity=17,
        login=True,
    ),
    S(
        42109,
        "42000",
        "The SQL pool is warming up. Please try again.",
        K.ADMIN_SHUTDOWN,
        login=True,
    ),
    S(
        40532,
        "42000",
        'Cannot open server "myserver" requested by the login. The login failed.',
        K.CONNECTION_MISCONFIGURED,
        severity=11,
        login=True,
    ),
    # -- resources
    S(
        40501,
        "HY000",
        "The service is currently busy. Retry the request after 10 seconds. "
        "Incident ID: 9f7a2c1e. Code: 4294967295.",
        K.TOO_MANY_CONNECTIONS,
        severity=20,
    ),
    S(
        10928,
        "HY000",
        "Resource ID: 1. The request limit for the database is 60 and has been "
        "reached. See 'http://go.microsoft.com/fwlink/?LinkId=267637' for assistance.",
        K.TOO_MANY_CONNECTIONS,
        severity=20,
    ),
    S(
        10929,
        "HY000",
        "Resource ID: 1. The request minimum guarantee is 0, maximum limit is 60 "
        "and the current usage for the database is 60. However, the server is currently too busy "
        "to support requests greater than 60 for this database. See "
        "'http://go.microsoft.com/fwlink/?LinkId=267637' for assistance. Otherwise, please try "
        "again later.",
        K.TOO_MANY_CONNECTIONS,
        severity=20,
    ),
    S(
        10936,
        "HY000",
        "Resource ID : 1. The request limit for the elastic pool is 200 and has "
        "been reached. See 'http://go.microsoft.com/fwlink/?LinkId=267637' for assistance.",
        K.TOO_MANY_CONNECTIONS,
        severity=20,
    ),
    S(
        49918,
        "HY000",
        "Cannot process request. Not enough resources to process request. The "
        "service is currently busy.Please retry the request later.",
        K.TOO_MANY_CONNECTIONS,
    ),
    S(
        49919,
        "HY000",
        "Cannot process create or update request. Too many create or update "
        'operations in progress for subscription "1234".',
        K.TOO_MANY_CONNECTIONS,
    ),
    S(
        49920,
        "HY000",
        'Cannot process request. Too many operations in progress for subscription "1234".',
        K.TOO_MANY_CONNECTIONS,
    ),
    S(
        701,
        "HY000",
        "There is insufficient system memory in resource pool 'default' to run this query.",
        K.OUT_OF_MEMORY,
        severity=17,
    ),
    S(
        802,
        "HY000",
        "There is insufficient memory available in the buffer pool.",
        K.OUT_OF_MEMORY,
        severity=17,
    ),
    S(
        8645,
        "HY000",
        "A timeout occurred while waiting for memory resources to execute the query "
        "in resource pool 'default' (2). Rerun the query.",
        K.OUT_OF_MEMORY,
        severity=17,
        retryable=True,
    ),
    S(
        8651,
        "HY000",
        "Could not perform the operation because the requested memory grant was not "
        "available in resource pool 'default' (2).  Rerun the query, reduce the query load, or "
        "check resource governor configuration setting.",
        K.OUT_OF_MEMORY,
        severity=17,
        retryable=True,
    ),
    S(
        40553,
        "HY000",
        "The session has been terminated because of excessive memory usage. Try "
        "modifying your query to process fewer rows.",
        K.OUT_OF_MEMORY,
        severity=20,
    ),
    S(
        1101,
        "HY000",
        "Could not allocate a new page for database 'salesdb' because of "
        "insufficient disk space in filegroup 'PRIMARY'. Create the necessary space by dropping "
        "objects in the filegroup, adding additional files to the filegroup, or setting autogrowth "
        "on for existing files in the filegroup.",
        K.DISK_FULL,
        "salesdb",
        severity=17,
    ),
    S(
        1105,
        "HY000",
        "Could not allocate space for object 'dbo.orders'.'PK_orders' in database "
        "'salesdb' because the 'PRIMARY' filegroup is full. Create disk space by deleting unneeded "
        "files, dropping objects in the filegroup, adding additional files to the filegroup, or "
        "setting autogrowth on for existing files in the filegroup.",
        K.DISK_FULL,
        "orders",
        "PK_orders",
        severity=17,
        schema="dbo",
        absent=("salesdb", "PRIMARY", "dbo"),
    ),
    S(
        9002,
        "HY000",
        "The transaction log for database 'salesdb' is full due to 'LOG_BACKUP'.",
        K.DISK_FULL,
        "salesdb",
        severity=17,
    ),
    S(
        40544,
        "HY000",
        "The database 'salesdb' has reached its size quota. Partition or delete "
        "data, drop indexes, or consult the documentation for possible resolutions.",
        K.DISK_FULL,
        "salesdb",
        severity=20,
    ),
    S(
        40552,
        "HY000",
        "The session has been terminated because of excessive transaction log "
        "space usage. Try modifying fewer rows in a single transaction.",
        K.DISK_FULL,
        severity=20,
    ),
    S(
        8003,
        "42000",
        "The incoming request has too many parameters. The server supports a "
        "maximum of 2100 parameters. Reduce the number of parameters and resend the request.",
        K.CONFIGURATION_LIMIT_EXCEEDED,
    ),
    S(
        8623,
        "HY000",
        "The query processor ran out of internal resources and could not produce a "
        "query plan. This is a rare event and only expected for extremely complex queries or "
        "queries that reference a very large number of tables or partitions. Please simplify the "
        "query. If you believe you have received this message in error, contact Customer Support "
        "Services for more information.",
        K.CONFIGURATION_LIMIT_EXCEEDED,
    ),
    S(
        8632,
        "HY000",
        "Internal error: An expression services limit has been reached. Please look "
        "for potentially complex expressions in your query, and try to simplify them.",
        K.CONFIGURATION_LIMIT_EXCEEDED,
        severity=17,
    ),
    S(
        926,
        "HY000",
        "Database 'salesdb' cannot be opened. It has been marked SUSPECT by "
        "recovery. See the SQL Server errorlog for more information.",
        K.DATA_CORRUPTED,
        "salesdb",
        severity=14,
    ),
    # -- the data or the statement's execution
    S(8134, "22012", "Divide by zero error encountered.", K.DIVISION_BY_ZERO),
    S(
        245,
        "22018",
        "Conversion failed when converting the varchar value 'abc' to data type int.",
        K.INVALID_TEXT_REPRESENTATION,
    ),
    S(
        8114,
        "42000",
        "Error converting data type varchar to numeric.",
        K.INVALID_TEXT_REPRESENTATION,
    ),
    S(
        241,
        "22007",
        "Conversion failed when converting date and/or time from character string.",
        K.INVALID_DATETIME_FORMAT,
    ),
    S(
        242,
        "22007",
        "The conversion of a varchar data type to a datetime data type resulted in "
        "an out-of-range value.",
        K.INVALID_DATETIME_FORMAT,
    ),
    S(
        220,
        "22003",
        "Arithmetic overflow error for data type tinyint, value = 300.",
        K.NUMERIC_VALUE_OUT_OF_RANGE,
    ),
    S(
        232,
        "22003",
        "Arithmetic overflow error for type int, value = 4294967296.000000.",
        K.NUMERIC_VALUE_OUT_OF_RANGE,
    ),
    S(
        248,
        "22003",
        "The conversion of the varchar value '99999999999' overflowed an int column.",
        K.NUMERIC_VALUE_OUT_OF_RANGE,
    ),
    S(
        8115,
        "22003",
        "Arithmetic overflow error converting expression to data type int.",
        K.NUMERIC_VALUE_OUT_OF_RANGE,
    ),
    S(
        2628,
        "22001",
        "String or binary data would be truncated in table 'salesdb.dbo.customers', "
        "column 'name'. Truncated value: 'abc'.",
        K.STRING_DATA_RIGHT_TRUNCATION,
        "customers",
        "name",
        more=(TERMINATED,),
    ),
    S(
        8152,
        "22001",
        "String or binary data would be truncated.",
        K.STRING_DATA_RIGHT_TRUNCATION,
        more=(TERMINATED,),
    ),
    S(206, "22018", "Operand type clash: int is incompatible with date", K.DATATYPE_MISMATCH),
    S(
        257,
        "42000",
        "Implicit conversion from data type varchar to varbinary(max) is not "
        "allowed. Use the CONVERT function to run this query.",
        K.DATATYPE_MISMATCH,
    ),
    S(
        402,
        "42000",
        "The data types text and varchar are incompatible in the equal to operator.",
        K.DATATYPE_MISMATCH,
    ),
    S(
        529,
        "42000",
        "Explicit conversion from data type int to date is not allowed.",
        K.DATATYPE_MISMATCH,
    ),
    S(
        512,
        "21000",
        "Subquery returned more than 1 value. This is not permitted when the "
        "subquery follows =, !=, <, <= , >, >= or when the subquery is used as an expression.",
        K.CARDINALITY_VIOLATION,
        more=(TERMINATED,),
    ),
    S(
        8672,
        "42000",
        "The MERGE statement attempted to UPDATE or DELETE the same row more than "
        "once. This happens when a target row matches more than one source row. A MERGE "
        "statement cannot UPDATE/DELETE the same row of the target table multiple times. Refine "
        "the ON clause to ensure a target row matches at most one source row, or use the GROUP BY "
        "clause to group the source rows.",
        K.CARDINALITY_VIOLATION,
    ),
    S(137, "42000", 'Must declare the scalar variable "@id".', K.INVALID_PARAMETER, severity=15),
    S(
        201,
        "42000",
        "Procedure or function 'usp_add_order' expects parameter '@qty', which was not supplied.",
        K.INVALID_PARAMETER,
        "usp_add_order",
        severity=11,
    ),
    S(
        8144,
        "42000",
        "Procedure or function usp_add_order has too many arguments specified.",
        K.INVALID_PARAMETER,
        "usp_add_order",
    ),
    S(
        8146,
        "42000",
        "Procedure usp_ping has no parameters and arguments were supplied.",
        K.INVALID_PARAMETER,
        "usp_ping",
    ),
    S(
        8178,
        "42000",
        "The parameterized query '(@P1 int)SELECT * FROM orders WHERE id = @P1' "
        "expects the parameter '@P1', which was not supplied.",
        K.INVALID_PARAMETER,
    ),
    S(
        266,
        "25000",
        "Transaction count after EXECUTE indicates a mismatching number of BEGIN and "
        "COMMIT statements. Previous count = 0, current count = 1.",
        K.TRANSACTION_ABORTED,
    ),
    S(
        3609,
        "HY000",
        "The transaction ended in the trigger. The batch has been aborted.",
        K.TRANSACTION_ABORTED,
    ),
    S(
        3930,
        "42000",
        "The current transaction cannot be committed and cannot support operations "
        "that write to the log file. Roll back the transaction.",
        K.TRANSACTION_ABORTED,
    ),
    S(
        3998,
        "HY000",
        "Uncommittable transaction is detected at the end of the batch. The "
        "transaction is rolled back.",
        K.TRANSACTION_ABORTED,
    ),
    S(
        4406,
        "42000",
        "Update or insert of view or function 'dbo.v_totals' failed because it "
        "contains a derived or constant field.",
        K.FEATURE_NOT_SUPPORTED,
        "v_totals",
    ),
    S(
        40508,
        "42000",
        "USE statement is not supported to switch between databases. Use a new "
        "connection to connect to a different database.",
        K.FEATURE_NOT_SUPPORTED,
    ),
    S(
        40515,
        "42000",
        "Reference to database and/or server name in 'otherdb.dbo.t' is not "
        "supported in this version of SQL Server.",
        K.FEATURE_NOT_SUPPORTED,
    ),
    # -- a number outside the table: its severity (24, fatal) decides
    S(
        823,
        "HY000",
        "The operating system returned error 21(The device is not ready.) to SQL "
        "Server during a read at offset 0x00000000012000 in file 'D:\\data\\salesdb.mdf'.",
        K.CONNECTION_LOST,
        severity=24,
        label="severity-fallback",
        drivers=("pymssql", "pytds"),
    ),
)


# -- the drivers' shapes ---------------------------------------------------------------


def _pyodbc_class(module: Any, sqlstate: str) -> Any:
    """pyodbc's ExceptionFromSqlState (errors.cpp): prefix table, else Error."""
    for prefix, name in (
        ("0A000", "NotSupportedError"),
        ("40002", "IntegrityError"),
        ("22", "DataError"),
        ("23", "IntegrityError"),
        ("24", "ProgrammingError"),
        ("25", "ProgrammingError"),
        ("42", "ProgrammingError"),
        ("HYT00", "OperationalError"),
        ("HYT01", "OperationalError"),
    ):
        if sqlstate.startswith(prefix):
            return getattr(module, name)
    return module.Error


def pyodbc_error(
    sqlstate: str, records: list[tuple[str, str, int]], function: str = "SQLExecDirectW"
) -> BaseException:
    """
    Build the exception pyodbc's GetErrorFromHandle builds from ODBC diagnostic records.

    Args:
        sqlstate: The first record's SQLSTATE (it picks the class).
        records: ``(sqlstate, "[driver]...text", native)`` per record, in order.
        function: The ODBC function that failed.

    Returns:
        The pyodbc exception.
    """
    import pyodbc

    first_state, first_text, first_native = records[0]
    message = f"[{first_state}] {first_text} ({first_native}) ({function})"
    for state, text, native in records[1:]:
        message += f"; [{state}] {text} ({native})"
    exc: BaseException = _pyodbc_class(pyodbc, sqlstate)(sqlstate, message)
    return exc


def pyodbc_server_error(case: ServerCase) -> BaseException:
    """A server message as the Microsoft ODBC driver reports it through pyodbc."""
    server = ODBC_CHAIN + "[SQL Server]"
    records = [(case.sqlstate, server + case.text, case.number)]
    records += [(state, server + text, number) for number, state, text in case.more]
    return pyodbc_error(
        case.sqlstate, records, "SQLDriverConnect" if case.login else "SQLExecDirectW"
    )


def pymssql_error(case: ServerCase) -> BaseException:
    """A server message as pymssql raises it (Cursor.execute, or connect for logins)."""
    import pymssql

    payload = (case.text + DBLIB_20018.format(sev=case.severity)).encode()
    if case.login:
        # connect(): "raise OperationalError(e.args[0])", e.args[0] being (number, message).
        login_exc: BaseException = pymssql.exceptions.OperationalError((case.number, payload))
        return login_exc
    cls = (
        pymssql.exceptions.ProgrammingError
        if case.number in PYMSSQL_PROG
        else pymssql.exceptions.IntegrityError
        if case.number in PYMSSQL_INTEGRITY
        else pymssql.exceptions.OperationalError
    )
    exc: BaseException = cls(case.number, payload)
    return exc


def _tds_message(number: int, text: str, severity: int) -> dict[str, Any]:
    return {
        "marker": 0xAA,
        "msgno": number,
        "state": 1,
        "severity": severity,
        "sql_state": None,
        "priv_msg_type": 1,
        "message": text,
        "server": "mssql01",
        "proc_name": "",
        "line_number": 1,
    }


def pytds_error(case: ServerCase) -> BaseException:
    """A server message as pytds's own _TdsSession.raise_db_exception raises it."""
    from pytds import tds_session

    messages = [_tds_message(case.number, case.text, case.severity)]
    # The server's "statement has been terminated" (severity 10) follows; pytds drops it itself.
    messages += [_tds_message(n, t, 10) for n, _, t in case.more if n == 3621]
    session = SimpleNamespace(messages=messages)
    try:
        tds_session._TdsSession.raise_db_exception(session)
    except Exception as exc:
        return exc
    raise AssertionError("pytds did not raise")


@dataclass(frozen=True)
class ClientCase:
    """A driver-side error (no server message) and what its answer must say."""

    name: str
    driver: str
    build: Callable[[], BaseException]
    expected: Expected


def _odbc_client(
    sqlstate: str, text: str, native: int, function: str = "SQLExecDirectW"
) -> Callable[[], BaseException]:
    return lambda: pyodbc_error(sqlstate, [(sqlstate, ODBC_CHAIN + text, native)], function)


def _pymssql_dblib(number: int, text: str, connect: bool = True) -> Callable[[], BaseException]:
    def build() -> BaseException:
        import pymssql

        payload = text.encode()
        exc: BaseException = (
            pymssql.exceptions.OperationalError((number, payload))
            if connect
            else pymssql.exceptions.OperationalError(number, payload)
        )
        return exc

    return build


def _pyodbc_own(message: str, sqlstate: str, cls: str) -> Callable[[], BaseException]:
    def build() -> BaseException:
        import pyodbc

        exc: BaseException = getattr(pyodbc, cls)(message, sqlstate)  # RaiseErrorV's (msg, state)
        return exc

    return build


def _pytds_closed() -> BaseException:
    from pytds import tds_base

    exc: BaseException = tds_base.ClosedConnectionError()
    return exc


def _other_odbc(sqlstate: str, text: str, native: int) -> Callable[[], BaseException]:
    return lambda: pyodbc_error(sqlstate, [(sqlstate, text, native)])


def E(kind: Kind, code: str | None, *resources: str) -> Expected:
    """Build one expectation."""
    return Expected(kind=kind, code=code, resources=resources)


CLIENT_CASES: tuple[ClientCase, ...] = (
    ClientCase(
        "odbc-10054",
        "pyodbc",
        _odbc_client(
            "08S01",
            "TCP Provider: An existing connection was forcibly closed by the remote host.\r\n",
            10054,
        ),
        E(K.CONNECTION_LOST, "10054"),
    ),
    ClientCase(
        "odbc-10053",
        "pyodbc",
        _odbc_client(
            "08S01",
            "TCP Provider: An established connection was aborted by the software in your "
            "host machine.\r\n",
            10053,
        ),
        E(K.CONNECTION_LOST, "10053"),
    ),
    ClientCase(
        "odbc-10060",
        "pyodbc",
        _odbc_client(
            "08001",
            "TCP Provider: A connection attempt failed because the connected party did not "
            "properly respond after a period of time, or established connection failed because "
            "connected host has failed to respond.\r\n",
            10060,
            "SQLDriverConnect",
        ),
        E(K.CONNECTION_FAILURE, "10060"),
    ),
    ClientCase(
        "odbc-11001",
        "pyodbc",
        _odbc_client(
            "08001", "TCP Provider: No such host is known.\r\n", 11001, "SQLDriverConnect"
        ),
        E(K.CONNECTION_MISCONFIGURED, "11001"),
    ),
    ClientCase(
        "odbc-121",
        "pyodbc",
        _odbc_client("08S01", "TCP Provider: The semaphore timeout period has expired.\r\n", 121),
        E(K.CONNECTION_LOST, "121"),
    ),
    ClientCase(
        "odbc-64",
        "pyodbc",
        _odbc_client(
            "08S01",
            "TCP Provider: The specified network name is no longer available.\r\n",
            64,
            "SQLDriverConnect",
        ),
        E(K.CONNECTION_FAILURE, "64"),
    ),
    ClientCase(
        "odbc-233",
        "pyodbc",
        _odbc_client(
            "08S01",
            "Shared Memory Provider: No process is on the other end of the pipe.\r\n",
            233,
            "SQLDriverConnect",
        ),
        E(K.CONNECTION_FAILURE, "233"),
    ),
    ClientCase(
        "odbc-20",
        "pyodbc",
        _odbc_client(
            "08001",
            "The instance of SQL Server you attempted to connect to does not support encryption.",
            20,
            "SQLDriverConnect",
        ),
        E(K.CONNECTION_FAILURE, "20"),
    ),
    ClientCase(
        "odbc-os-error-not-a-number",
        "pyodbc",
        _odbc_client("08001", "TCP Provider: Error code 0x2749", 10057, "SQLDriverConnect"),
        E(K.CONNECTION_FAILURE, "08001"),
    ),
    ClientCase(
        "odbc-query-timeout",
        "pyodbc",
        _odbc_client("HYT00", "Query timeout expired", 0),
        E(K.STATEMENT_TIMEOUT, "HYT00"),
    ),
    ClientCase(
        "odbc-login-timeout",
        "pyodbc",
        _odbc_client("HYT00", "Login timeout expired", 0, "SQLDriverConnect"),
        E(K.CONNECTION_FAILURE, "HYT00"),
    ),
    ClientCase(
        "odbc-link-failure",
        "pyodbc",
        _odbc_client("08S01", "Communication link failure", 0),
        E(K.CONNECTION_LOST, "08S01"),
    ),
    ClientCase(
        "odbc-certificate",
        "pyodbc",
        _odbc_client(
            "08001",
            "SSL Provider: [error:0A000086:SSL routines::certificate verify "
            "failed:self-signed certificate]",
            -1,
            "SQLDriverConnect",
        ),
        E(K.CONNECTION_MISCONFIGURED, "08001"),
    ),
    ClientCase(
        "odbc-dsn-not-found",
        "pyodbc",
        lambda: pyodbc_error(
            "IM002",
            [
                (
                    "IM002",
                    "[unixODBC][Driver Manager]Data source name not found and no default driver "
                    "specified",
                    0,
                )
            ],
            "SQLDriverConnect",
        ),
        E(K.CONNECTION_MISCONFIGURED, "IM002"),
    ),
    ClientCase(
        "odbc-driver-not-installed",
        "pyodbc",
        lambda: pyodbc_error(
            "01000",
            [
                (
                    "01000",
                    "[unixODBC][Driver Manager]Can't open lib 'ODBC Driver 18 for SQL Server' : "
                    "file not found",
                    0,
                )
            ],
            "SQLDriverConnect",
        ),
        E(K.CONNECTION_MISCONFIGURED, "01000"),
    ),
    ClientCase(
        "odbc-own-parameter-count",
        "pyodbc",
        _pyodbc_own(
            "The SQL contains 1 parameter markers, but 2 parameters were supplied",
            "HY000",
            "ProgrammingError",
        ),
        E(K.INVALID_PARAMETER, "HY000"),
    ),
    ClientCase(
        "odbc-postgresql-chain",
        "pyodbc",
        _other_odbc(
            "42P01",
            '[PostgreSQL][ODBC][psqlODBC]ERROR: relation "orders" does not exist;\n'
            "Error while executing the query",
            1,
        ),
        E(K.UNDEFINED_TABLE, "42P01"),
    ),
    ClientCase(
        "odbc-mysql-chain",
        "pyodbc",
        _other_odbc(
            "42S02",
            "[MySQL][ODBC 8.0(w) Driver][mysqld-8.0.36]Table 'test.orders' doesn't exist",
            1146,
        ),
        E(K.UNDEFINED_TABLE, "42S02"),
    ),
    ClientCase(
        # MySQL's ER_EMPTY_QUERY: 42000 names no condition, and neither do these words.
        "odbc-mysql-42000-without-a-condition",
        "pyodbc",
        _other_odbc("42000", "[MySQL][ODBC 8.0(w) Driver][mysqld-8.0.36]Query was empty", 1065),
        E(K.UNKNOWN, "42000"),
    ),
    ClientCase(
        "odbc-oracle-chain",
        "pyodbc",
        _other_odbc(
            "08001",
            "[Oracle][ODBC][Ora]ORA-12154: TNS:could not resolve the connect identifier specified",
            12154,
        ),
        E(K.CONNECTION_FAILURE, "08001"),
    ),
    ClientCase(
        "pymssql-login-failed-then-20002",
        "pymssql",
        _pymssql_dblib(
            18456,
            "Login failed for user 'app'.DB-Lib error message 20018, severity 14:\nGeneral "
            "SQL Server error: Check messages from the SQL Server\nDB-Lib error message 20002, "
            "severity 9:\nAdaptive Server connection failed (db.example)\nDB-Lib error message "
            "20002, severity 9:\nAdaptive Server connection failed (db.example)\n",
        ),
        E(K.INVALID_PASSWORD, "18456"),
    ),
    ClientCase(
        "pymssql-20001",
        "pymssql",
        _pymssql_dblib(
            20001,
            "DB-Lib error message 20001, severity 9:\n"
            "Read attempted while out of synchronization with SQL Server.\n",
        ),
        E(K.CONNECTION_LOST, "20001"),
    ),
    ClientCase(
        "pymssql-20020",
        "pymssql",
        _pymssql_dblib(
            20020,
            "DB-Lib error message 20020, severity 9:\n"
            "Bad token from SQL Server: Data-stream processing out of sync.\n",
        ),
        E(K.CONNECTION_LOST, "20020"),
    ),
    ClientCase(
        "pymssql-20022",
        "pymssql",
        _pymssql_dblib(
            20022,
            "DB-Lib error message 20022, severity 9:\n"
            "Error in sending out-of-band data to SQL Server.\n",
        ),
        E(K.CONNECTION_LOST, "20022"),
    ),
    ClientCase(
        "pymssql-20055",
        "pymssql",
        _pymssql_dblib(
            20055,
            "DB-Lib error message 20055, severity 9:\n"
            "Unknown network type found in interface file.\n",
        ),
        E(K.CONNECTION_MISCONFIGURED, "20055"),
    ),
    ClientCase(
        "pymssql-20056",
        "pymssql",
        _pymssql_dblib(
            20056, "DB-Lib error message 20056, severity 9:\nError in closing network connection.\n"
        ),
        E(K.CONNECTION_LOST, "20056"),
    ),
    ClientCase(
        "pymssql-20146",
        "pymssql",
        _pymssql_dblib(
            20146,
            "DB-Lib error message 20146, severity 9:\n"
            "Unrecognized TDS version received from SQL Server.\n",
        ),
        E(K.CONNECTION_MISCONFIGURED, "20146"),
    ),
    ClientCase(
        "pymssql-20171",
        "pymssql",
        _pymssql_dblib(
            20171,
            "DB-Lib error message 20171, severity 9:\n"
            "Operating system login level not in range of Secure SQL Server\n",
        ),
        E(K.INVALID_AUTHORIZATION, "20171"),
    ),
    ClientCase(
        "pymssql-20172",
        "pymssql",
        _pymssql_dblib(
            20172,
            "DB-Lib error message 20172, severity 9:\n"
            "Login security level entered does not agree with operating system level\n",
        ),
        E(K.INVALID_AUTHORIZATION, "20172"),
    ),
    ClientCase(
        "pymssql-20173",
        "pymssql",
        _pymssql_dblib(
            20173,
            "DB-Lib error message 20173, severity 9:\n"
            "Program not linked with specified network library.\n",
        ),
        E(K.CONNECTION_MISCONFIGURED, "20173"),
    ),
    ClientCase(
        "pymssql-20203",
        "pymssql",
        _pymssql_dblib(
            20203,
            "DB-Lib error message 20203, severity 9:\n"
            "DB-Library capabilities not accepted by the Server.\n",
        ),
        E(K.CONNECTION_MISCONFIGURED, "20203"),
    ),
    ClientCase(
        "pymssql-20210",
        "pymssql",
        _pymssql_dblib(
            20210, "DB-Lib error message 20210, severity 9:\nNegotiated login attempt failed.\n"
        ),
        E(K.INVALID_AUTHORIZATION, "20210"),
    ),
    ClientCase(
        "pymssql-20222",
        "pymssql",
        _pymssql_dblib(
            20222, "DB-Lib error message 20222, severity 9:\nPassword Encryption failed.\n"
        ),
        E(K.CONNECTION_MISCONFIGURED, "20222"),
    ),
    ClientCase(
        "pymssql-20009",
        "pymssql",
        _pymssql_dblib(
            20009,
            "DB-Lib error message 20009, severity 9:\nUnable to connect: Adaptive Server is "
            "unavailable or does not exist (db.example)\nNet-Lib error during Connection refused "
            "(111)\n",
        ),
        E(K.CONNECTION_FAILURE, "20009"),
    ),
    ClientCase(
        "pymssql-20002",
        "pymssql",
        _pymssql_dblib(
            20002,
            "DB-Lib error message 20002, severity 9:\nAdaptive Server connection failed "
            "(db.example)\n",
        ),
        E(K.CONNECTION_FAILURE, "20002"),
    ),
    ClientCase(
        "pymssql-20003",
        "pymssql",
        _pymssql_dblib(
            20003,
            "DB-Lib error message 20003, severity 6:\nAdaptive Server connection timed out "
            "(db.example)\n",
        ),
        E(K.CONNECTION_LOST, "20003"),
    ),
    ClientCase(
        "pymssql-query-timeout-20047",
        "pymssql",
        _pymssql_dblib(
            20047,
            "DB-Lib error message 20003, severity 6:\nAdaptive Server connection timed out\n"
            "DB-Lib error message 20047, severity 9:\n"
            "DBPROCESS is dead or not enabled\n",
            connect=False,
        ),
        E(K.CONNECTION_LOST, "20003"),
    ),
    ClientCase(
        "pymssql-20047",
        "pymssql",
        _pymssql_dblib(
            20047,
            "DB-Lib error message 20047, severity 9:\nDBPROCESS is dead or not enabled\n",
            connect=False,
        ),
        E(K.CONNECTION_LOST, "20047"),
    ),
    ClientCase(
        "pymssql-20004",
        "pymssql",
        _pymssql_dblib(
            20004,
            "DB-Lib error message 20004, severity 9:\nRead from the server failed\n"
            "Net-Lib error during Connection reset by peer (104)\n",
            connect=False,
        ),
        E(K.CONNECTION_LOST, "20004"),
    ),
    ClientCase(
        "pymssql-20006",
        "pymssql",
        _pymssql_dblib(
            20006,
            "DB-Lib error message 20006, severity 9:\nWrite to the server failed\n",
            connect=False,
        ),
        E(K.CONNECTION_LOST, "20006"),
    ),
    ClientCase(
        "pymssql-20017",
        "pymssql",
        _pymssql_dblib(
            20017,
            "DB-Lib error message 20017, severity 9:\nUnexpected EOF from the server\n",
            connect=False,
        ),
        E(K.CONNECTION_LOST, "20017"),
    ),
    ClientCase(
        "pymssql-20008",
        "pymssql",
        _pymssql_dblib(
            20008,
            "DB-Lib error message 20008, severity 9:\nUnable to open socket\n",
        ),
        E(K.CONNECTION_FAILURE, "20008"),
    ),
    ClientCase(
        "pymssql-20010",
        "pymssql",
        _pymssql_dblib(
            20010, "DB-Lib error message 20010, severity 8:\nUnable to allocate sufficient memory\n"
        ),
        E(K.OUT_OF_MEMORY, "20010"),
    ),
    ClientCase(
        "pymssql-20012",
        "pymssql",
        _pymssql_dblib(
            20012,
            "DB-Lib error message 20012, severity 2:\nServer name not found in configuration "
            "files.\n",
        ),
        E(K.CONNECTION_MISCONFIGURED, "20012"),
    ),
    ClientCase(
        "pymssql-20013",
        "pymssql",
        _pymssql_dblib(
            20013, "DB-Lib error message 20013, severity 2:\nUnknown host machine name.\n"
        ),
        E(K.CONNECTION_MISCONFIGURED, "20013"),
    ),
    ClientCase(
        "pymssql-20014",
        "pymssql",
        _pymssql_dblib(
            20014,
            "DB-Lib error message 20014, severity 9:\nLogin incorrect.\n",
        ),
        E(K.INVALID_PASSWORD, "20014"),
    ),
    ClientCase("pytds-closed-connection", "pytds", _pytds_closed, E(K.CONNECTION_LOST, None)),
)


SHAPES: dict[str, Callable[[ServerCase], BaseException]] = {
    "pyodbc": pyodbc_server_error,
    "pymssql": pymssql_error,
    "pytds": pytds_error,
}


# The ODBC driver's own records (native error 0), one per SQLSTATE of ODBC 3.x's
# list (appendix A of the ODBC Programmer's Reference, worded as it words them)
# and the two real drivers report beside it.  Each expected kind is decided
# here from the SQLSTATE's class and the text's meaning: `K.UNKNOWN` where the
# SQLSTATE names no condition of its own and the message's words decide.
ODBC_STATES: tuple[tuple[str, str, Kind], ...] = (
    # 01: warnings, reported with a failure.
    ("01000", "General warning", K.UNKNOWN),
    ("01001", "Cursor operation conflict", K.UNKNOWN),
    ("01002", "Disconnect error", K.CONNECTION_LOST),  # the connection is gone either way
    ("01003", "NULL value eliminated in set function", K.UNKNOWN),
    ("01004", "String data, right-truncated", K.STRING_DATA_RIGHT_TRUNCATION),
    ("01006", "Privilege not revoked", K.INSUFFICIENT_PRIVILEGE),
    ("01007", "Privilege not granted", K.INSUFFICIENT_PRIVILEGE),
    ("01S00", "Invalid connection string attribute", K.CONNECTION_MISCONFIGURED),
    ("01S01", "Error in row", K.UNKNOWN),
    ("01S02", "Option value changed", K.UNKNOWN),
    (
        "01S06",
        "Attempt to fetch before the result set returned the first rowset",
        K.UNKNOWN,
    ),
    ("01S07", "Fractional truncation", K.UNKNOWN),
    ("01S08", "Error saving File DSN", K.CONNECTION_MISCONFIGURED),
    ("01S09", "Invalid keyword", K.CONNECTION_MISCONFIGURED),  # in the connection string
    # 07: dynamic SQL error: the parameters the statement was given.
    ("07001", "Wrong number of parameters", K.INVALID_PARAMETER),
    ("07002", "COUNT field incorrect", K.INVALID_PARAMETER),
    # No result set to describe: the statement's state, not its arguments.
    ("07005", "Prepared statement not a cursor-specification", K.INVALID_TRANSACTION_STATE),
    ("07006", "Restricted data type attribute violation", K.DATATYPE_MISMATCH),
    ("07009", "Invalid descriptor index", K.INVALID_PARAMETER),
    ("07S01", "Invalid use of default parameter", K.INVALID_PARAMETER),
    # 08: the connection never came up (failure) or went away (lost).
    ("08001", "Client unable to establish connection", K.CONNECTION_FAILURE),
    ("08002", "Connection name in use", K.CONNECTION_MISCONFIGURED),  # already connected
    ("08003", "Connection not open", K.CONNECTION_LOST),
    ("08004", "Server rejected the connection", K.CONNECTION_FAILURE),
    ("08007", "Connection failure during transaction", K.CONNECTION_LOST),
    ("08S01", "Communication link failure", K.CONNECTION_LOST),
    ("08S02", "Physical connection is not usable", K.CONNECTION_LOST),
    ("0A000", "Feature not supported", K.FEATURE_NOT_SUPPORTED),
    # 21: the statement's column lists disagree in length: fix its text.
    ("21S01", "Insert value list does not match column list", K.SYNTAX_ERROR),
    ("21S02", "Degree of derived table does not match column list", K.SYNTAX_ERROR),
    # 22: the data.
    ("22001", "String data, right-truncated", K.STRING_DATA_RIGHT_TRUNCATION),
    ("22002", "Indicator variable required but not supplied", K.INVALID_PARAMETER),
    ("22003", "Numeric value out of range", K.NUMERIC_VALUE_OUT_OF_RANGE),
    ("22007", "Invalid datetime format", K.INVALID_DATETIME_FORMAT),
    ("22008", "Datetime field overflow", K.INVALID_DATETIME_FORMAT),
    ("22012", "Division by zero", K.DIVISION_BY_ZERO),
    ("22015", "Interval field overflow", K.INVALID_DATETIME_FORMAT),
    ("22018", "Invalid character value for cast specification", K.INVALID_TEXT_REPRESENTATION),
    ("22019", "Invalid escape character", K.INVALID_TEXT_REPRESENTATION),
    ("22025", "Invalid escape sequence", K.INVALID_TEXT_REPRESENTATION),
    ("22026", "String data, length mismatch", K.STRING_DATA_RIGHT_TRUNCATION),
    # 23: some constraint; the message would say which.
    ("23000", "Integrity constraint violation", K.CHECK_VIOLATION),
    # 24, 25: a call the cursor's or the transaction's state does not allow.
    ("24000", "Invalid cursor state", K.INVALID_TRANSACTION_STATE),
    ("25000", "Invalid transaction state", K.INVALID_TRANSACTION_STATE),
    ("25S01", "Transaction state", K.STATEMENT_COMPLETION_UNKNOWN),  # the outcome is unknown
    ("25S02", "Transaction is still active", K.INVALID_TRANSACTION_STATE),
    ("25S03", "Transaction is rolled back", K.TRANSACTION_ABORTED),
    # 28: the user name or the password was refused.
    ("28000", "Invalid authorization specification", K.INVALID_PASSWORD),
    # 34, 3C, 3D, 3F: names of cursors, catalogs and schemas.
    ("34000", "Invalid cursor name", K.UNDEFINED_OBJECT),
    ("3C000", "Duplicate cursor name", K.DUPLICATE_OBJECT),
    ("3D000", "Invalid catalog name", K.UNDEFINED_DATABASE),
    ("3F000", "Invalid schema name", K.UNDEFINED_SCHEMA),
    # 40: the transaction was rolled back.
    ("40001", "Serialization failure", K.SERIALIZATION_FAILURE),
    ("40002", "Integrity constraint violation", K.CHECK_VIOLATION),  # found at COMMIT
    ("40003", "Statement completion unknown", K.STATEMENT_COMPLETION_UNKNOWN),
    # 42: the statement names something wrong, or may not do this.
    # Either, so the message decides: these words say a syntax error.
    ("42000", "Syntax error or access violation", K.SYNTAX_ERROR),
    ("42S01", "Base table or view already exists", K.DUPLICATE_TABLE),
    ("42S02", "Base table or view not found", K.UNDEFINED_TABLE),
    ("42S11", "Index already exists", K.DUPLICATE_OBJECT),
    ("42S12", "Index not found", K.UNDEFINED_OBJECT),
    ("42S21", "Column already exists", K.DUPLICATE_COLUMN),
    ("42S22", "Column not found", K.UNDEFINED_COLUMN),
    ("44000", "WITH CHECK OPTION violation", K.CHECK_VIOLATION),
    # HY: the ODBC call itself.  Most refuse an argument of the call.
    ("HY000", "General error", K.UNKNOWN),
    ("HY001", "Memory allocation error", K.OUT_OF_MEMORY),
    ("HY003", "Invalid application buffer type", K.INVALID_PARAMETER),
    ("HY004", "Invalid SQL data type", K.DATATYPE_MISMATCH),
    ("HY007", "Associated statement is not prepared", K.INVALID_TRANSACTION_STATE),
    ("HY008", "Operation canceled", K.QUERY_CANCELED),
    ("HY009", "Invalid use of null pointer", K.INVALID_PARAMETER),
    ("HY010", "Function sequence error", K.INVALID_TRANSACTION_STATE),  # calls out of order
    ("HY011", "Attribute cannot be set now", K.INVALID_TRANSACTION_STATE),
    ("HY012", "Invalid transaction operation code", K.INVALID_PARAMETER),
    ("HY013", "Memory management error", K.OUT_OF_MEMORY),
    ("HY014", "Limit on the number of handles exceeded", K.CONFIGURATION_LIMIT_EXCEEDED),
    ("HY015", "No cursor name available", K.INVALID_TRANSACTION_STATE),  # no open cursor
    ("HY016", "Cannot modify an implementation row descriptor", K.INVALID_PARAMETER),
    (
        "HY017",
        "Invalid use of an automatically allocated descriptor handle",
        K.INVALID_PARAMETER,
    ),
    ("HY018", "Server declined cancel request", K.UNKNOWN),  # the statement runs on
    ("HY019", "Non-character and non-binary data sent in pieces", K.INVALID_PARAMETER),
    ("HY020", "Attempt to concatenate a null value", K.INVALID_PARAMETER),
    ("HY021", "Inconsistent descriptor information", K.INVALID_PARAMETER),
    ("HY024", "Invalid attribute value", K.INVALID_PARAMETER),
    ("HY090", "Invalid string or buffer length", K.INVALID_PARAMETER),
    ("HY091", "Invalid descriptor field identifier", K.INVALID_PARAMETER),
    ("HY092", "Invalid attribute/option identifier", K.INVALID_PARAMETER),
    ("HY095", "Function type out of range", K.INVALID_PARAMETER),
    ("HY096", "Invalid information type", K.INVALID_PARAMETER),
    ("HY097", "Column type out of range", K.INVALID_PARAMETER),
    ("HY098", "Scope type out of range", K.INVALID_PARAMETER),
    ("HY099", "Nullable type out of range", K.INVALID_PARAMETER),
    ("HY100", "Uniqueness option type out of range", K.INVALID_PARAMETER),
    ("HY101", "Accuracy option type out of range", K.INVALID_PARAMETER),
    ("HY103", "Invalid retrieval code", K.INVALID_PARAMETER),
    ("HY104", "Invalid precision or scale value", K.INVALID_PARAMETER),
    ("HY105", "Invalid parameter type", K.INVALID_PARAMETER),
    ("HY106", "Fetch type out of range", K.INVALID_PARAMETER),
    ("HY107", "Row value out of range", K.INVALID_PARAMETER),
    ("HY109", "Invalid cursor position", K.INVALID_TRANSACTION_STATE),
    ("HY110", "Invalid driver completion", K.CONNECTION_MISCONFIGURED),  # SQLDriverConnect
    ("HY111", "Invalid bookmark value", K.INVALID_PARAMETER),
    ("HYC00", "Optional feature not implemented", K.FEATURE_NOT_SUPPORTED),
    ("HYT00", "Timeout expired", K.STATEMENT_TIMEOUT),
    ("HYT01", "Connection timeout expired", K.CONNECTION_FAILURE),
    # IM: the driver manager could not set the driver or the data source up.
    ("IM001", "Driver does not support this function", K.FEATURE_NOT_SUPPORTED),
    (
        "IM002",
        "Data source name not found and no default driver specified",
        K.CONNECTION_MISCONFIGURED,
    ),
    ("IM003", "Specified driver could not be loaded", K.CONNECTION_MISCONFIGURED),
    ("IM004", "Driver's SQLAllocHandle on SQL_HANDLE_ENV failed", K.CONNECTION_MISCONFIGURED),
    ("IM005", "Driver's SQLAllocHandle on SQL_HANDLE_DBC failed", K.CONNECTION_MISCONFIGURED),
    ("IM006", "Driver's SQLSetConnectAttr failed", K.CONNECTION_MISCONFIGURED),
    (
        "IM007",
        "No data source or driver specified; dialog prohibited",
        K.CONNECTION_MISCONFIGURED,
    ),
    ("IM008", "Dialog failed", K.CONNECTION_MISCONFIGURED),
    ("IM009", "Unable to load translation DLL", K.CONNECTION_MISCONFIGURED),
    ("IM010", "Data source name too long", K.CONNECTION_MISCONFIGURED),
    ("IM011", "Driver name too long", K.CONNECTION_MISCONFIGURED),
    ("IM012", "DRIVER keyword syntax error", K.CONNECTION_MISCONFIGURED),
    ("IM013", "Trace file error", K.CONNECTION_MISCONFIGURED),
    ("IM014", "Invalid name of File DSN", K.CONNECTION_MISCONFIGURED),
    ("IM015", "Corrupt file data source", K.CONNECTION_MISCONFIGURED),
)


def _odbc_state_case(state: str, text: str, kind: Kind) -> ClientCase:
    chain = "[unixODBC][Driver Manager]" if state.startswith("IM") else ODBC_CHAIN
    return ClientCase(
        f"odbc-state-{state}",
        "pyodbc",
        lambda: pyodbc_error(state, [(state, chain + text, 0)]),
        Expected(kind=kind, code=state),
    )


STATE_CASES: tuple[ClientCase, ...] = tuple(_odbc_state_case(*row) for row in ODBC_STATES)


@dataclass(frozen=True)
class MessageCase:
    """An error known only by its text (and code): ``classify_message`` input."""

    name: str
    text: str
    code: str | int | None
    expected: Expected


# Errors no Python driver raises as an object of its own: SqlClient's -2
# timeout, logs in SSMS's format, messages copied from pymssql's/pytds's
# ``.message`` property or from pyodbc's ``str(exc)``.
MESSAGE_CASES: tuple[MessageCase, ...] = (
    MessageCase(
        "sqlclient-timeout",
        "Execution Timeout Expired.  The timeout period elapsed "
        "prior to completion of the operation or the server is not responding.",
        -2,
        Expected(kind=K.STATEMENT_TIMEOUT, code="-2"),
    ),
    MessageCase(
        "ssms-log",
        "Msg 208, Level 16, State 1, Line 1\nInvalid object name 'dbo.orders'.",
        None,
        Expected(kind=K.UNDEFINED_TABLE, code="208", resources=("orders",)),
    ),
    MessageCase(
        # SQL Server Express's size limit (sys.messages 1827: `... licensed limit
        # of %I64d MB per %S_MSG.`), as SSMS prints it.
        "ssms-express-size-limit",
        "Msg 1827, Level 16, State 2, Line 1\nCREATE DATABASE or ALTER DATABASE failed "
        "because the resulting cumulative database size would exceed your licensed limit "
        "of 10240 MB per database.",
        None,
        Expected(kind=K.DISK_FULL, code="1827"),
    ),
    MessageCase(
        "pytds-message-property",
        "SQL Server message 2627, severity 14, state 1, line "
        "1:\nViolation of PRIMARY KEY constraint 'PK_t'. Cannot insert duplicate key in "
        "object 'dbo.t'. The duplicate key value is (1).",
        None,
        Expected(kind=K.UNIQUE_VIOLATION, code="2627", resources=("t", "PK_t"), constraint="PK_t"),
    ),
    MessageCase(
        "pyodbc-str",
        "('42S22', \"[42S22] [Microsoft][ODBC Driver 18 for SQL "
        "Server][SQL Server]Invalid column name 'foo'. (207) (SQLExecDirectW)\")",
        None,
        Expected(kind=K.UNDEFINED_COLUMN, code="207", resources=("foo",)),
    ),
    MessageCase(
        "pymssql-str",
        "(515, b\"Cannot insert the value NULL into column 'name', "
        "table 'db.dbo.t'; column does not allow nulls. INSERT fails.DB-Lib error "
        "message 20018, severity 16:\\nGeneral SQL Server error: Check messages from the "
        'SQL Server\\n")',
        None,
        Expected(kind=K.NOT_NULL_VIOLATION, code="515", resources=("t", "name")),
    ),
    # SSMS's dialog in Japanese, from Microsoft's Japanese troubleshooting page
    # (learn.microsoft.com/ja-jp/troubleshoot/sql/database-engine/connect/
    # network-related-or-instance-specific-error-occurred-while-establishing-connection):
    # the Named Pipes client's number 53 after SSMS's translated "Error" (with
    # `db_type` given, as here, the number is the caller's: the text's own is
    # read without one, see tests/test_text_signs.py).
    MessageCase(
        "ssms-dialog-ja-53",
        "provider: 名前付きパイプ プロバイダー、エラー: 40 - SQL Serverへの接続を開けませんでした "
        "(Microsoft SQL Server、エラー:53)",
        "53",
        Expected(kind=K.CONNECTION_FAILURE, code="53"),
    ),
    MessageCase(
        "code-only",
        "Invalid object name 'dbo.orders'.",
        "208",
        Expected(kind=K.UNDEFINED_TABLE, code="208", resources=("orders",)),
    ),
    MessageCase(
        "sqlstate-only",
        "Communication link failure",
        "08S01",
        Expected(kind=K.CONNECTION_LOST, code="08S01"),
    ),
)


def server_shapes(case: ServerCase) -> list[tuple[str, Callable[[ServerCase], BaseException]]]:
    """The drivers whose shapes a server message is built in."""
    return [(driver, SHAPES[driver]) for driver in case.drivers]


def collect() -> Iterator[CorpusCase]:
    """Yield every SQL Server case, once per driver shape."""
    for case in SERVER_CASES:
        for driver, build in server_shapes(case):
            yield CorpusCase(
                backend="mssql",
                driver=driver,
                name=f"{driver}-{case.name}",
                exception=build(case),
                expected=case.expected(),
            )
    for client in CLIENT_CASES + STATE_CASES:
        yield CorpusCase(
            backend="mssql",
            driver=client.driver,
            name=client.name,
            exception=client.build(),
            expected=client.expected,
        )
