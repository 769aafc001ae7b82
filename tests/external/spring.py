"""
Spring's JDBC error-code translation table, read from the Spring JDBC jar on this machine.

Spring's `SQLErrorCodeSQLExceptionTranslator` turns a vendor's error code into
one of its `DataAccessException` classes by the lists of
`org/springframework/jdbc/support/sql-error-codes.xml`, one bean per database
product: `badSqlGrammarCodes`, `duplicateKeyCodes`, `deadlockLoserCodes`, ...
Debian's `libspring-jdbc-java` ships it inside `/usr/share/java/spring*-jdbc*.jar`;
it is read from the jar with `zipfile`, never copied.

Every code listed for a product we support (PostgreSQL: SQLSTATEs; MySQL:
error numbers; Oracle: `ORA-` numbers; Microsoft SQL Server: message numbers)
is one case: the code is classified with `classify_message`, with MariaDB's
English text for a MySQL number where MariaDB's message list on this machine
(`errmsg-utf8.txt`) has the number under the symbol MySQL gives it too, and
with no text otherwise, and the answer is compared with the documented
meaning of Spring's list (`MEANING`).
"""

from __future__ import annotations

import glob
import os
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from xml.etree import ElementTree

from localdata_errors import (
    ErrorCategory,
    Kind,
    StructuredErrorResponse,
    classify_message,
)
from tests.external.meaning import DATA_KINDS, Expectation, Verdict, expect, judge

__all__ = [
    "DISAGREEMENTS",
    "MEANING",
    "OPEN",
    "SpringCase",
    "Unavailable",
    "answer",
    "load",
    "verdict",
]

JARS: Final = "/usr/share/java/spring*-jdbc*.jar"
ENTRY: Final = "org/springframework/jdbc/support/sql-error-codes.xml"

C = ErrorCategory
K = Kind

#: Spring's lists, as the Javadoc of the exception each one raises documents it.
#: `BadSqlGrammarException`: "SQL specified is invalid ... subclasses for no such
#: table, no such column etc."; `InvalidResultSetAccessException`: "an invalid
#: ResultSet column index or name has been specified"; `DuplicateKeyException`:
#: "violation of a primary key or unique constraint"; `DataIntegrityViolationException`:
#: "violation of an integrity constraint ... not purely a relational concept" (Spring
#: lists data that does not fit a column there too); `DataAccessResourceFailureException`:
#: "a resource fails completely: for example, if we can't connect to a database"
#: (Spring calls it non-transient, where this project retries a lost connection:
#: the design records the choice, so the retry decision is not compared);
#: `TransientDataAccessResourceException`: "a resource fails temporarily and the
#: operation can be retried"; `CannotAcquireLockException`, `DeadlockLoserDataAccessException`,
#: `CannotSerializeTransactionException`: the pessimistic-locking failures, all
#: transient; `PermissionDeniedDataAccessException`: "the underlying resource denied
#: a permission to access a specific element".
MEANING: Final[dict[str, Expectation]] = {
    "badSqlGrammarCodes": expect({C.SYNTAX_ERROR, C.SCHEMA_ERROR}, retryable=False),
    "invalidResultSetAccessCodes": expect(
        {C.SCHEMA_ERROR, C.QUERY_EXECUTION},
        {K.UNDEFINED_COLUMN, K.INVALID_PARAMETER},
        retryable=False,
    ),
    "duplicateKeyCodes": expect(C.CONSTRAINT_ERROR, {K.UNIQUE_VIOLATION}, retryable=False),
    "dataIntegrityViolationCodes": expect(
        {C.CONSTRAINT_ERROR, C.QUERY_EXECUTION},
        {
            K.UNIQUE_VIOLATION,
            K.FOREIGN_KEY_VIOLATION,
            K.NOT_NULL_VIOLATION,
            K.CHECK_VIOLATION,
            K.EXCLUSION_VIOLATION,
            K.DEPENDENT_OBJECTS_STILL_EXIST,
            *DATA_KINDS,
        },
        retryable=False,
    ),
    "dataAccessResourceFailureCodes": expect({C.CONNECTION_ERROR, C.RESOURCE_ERROR}),
    "transientDataAccessResourceCodes": expect(
        {C.TRANSIENT_ERROR, C.CONNECTION_ERROR, C.RESOURCE_ERROR}, retryable=True
    ),
    "cannotAcquireLockCodes": expect(C.TRANSIENT_ERROR, {K.LOCK_NOT_AVAILABLE}, retryable=True),
    "deadlockLoserCodes": expect(C.TRANSIENT_ERROR, {K.DEADLOCK_DETECTED}, retryable=True),
    "cannotSerializeTransactionCodes": expect(
        C.TRANSIENT_ERROR, {K.SERIALIZATION_FAILURE}, retryable=True
    ),
    "permissionDeniedCodes": expect(C.AUTH_ERROR, {K.INSUFFICIENT_PRIVILEGE}, retryable=False),
}

#: Spring's bean properties that are no list of codes.
_SETTINGS: Final = frozenset(
    {"databaseProductName", "databaseProductNames", "useSqlStateForTranslation"}
)

#: Spring's products, as our backends (the others are none of ours).
BACKENDS: Final = {
    "PostgreSQL": "postgresql",
    "MySQL": "mysql",
    "Oracle": "oracle",
    "MS-SQL": "mssql",
}

_NDB = (
    "an NDB API error code of MySQL Cluster (its 'Constraint violation' list), not a "
    "server or client error number: no MySQL or MariaDB list here defines it (perror: "
    "'Illegal error code'), and the SQL node reports it under a MySQL number (1022 / "
    "1062 for 630 and 893, HA_ERR_FOUND_DUPP_KEY; the default 1296 for 839 and 840), "
    "which is classified; the bare number is left unknown"
)

#: Codes whose Spring list and the vendor's documented meaning part, and ours
#: follows the vendor: (product, code) -> why.  The tests hold each to its disagreement.
DISAGREEMENTS: Final[dict[tuple[str, str], str]] = {
    ("PostgreSQL", "03000"): (
        "sql_statement_not_yet_complete: the SQL standard's class, which nothing in "
        "PostgreSQL raises; the condition names no fault of the statement's grammar, so "
        "no kind is claimed (unknown, the code kept)"
    ),
    ("PostgreSQL", "42804"): (
        "datatype_mismatch is a kind of its own, in query_execution by the Kind table: an "
        "expression of the wrong type, fixed in the statement either way (fix_query); "
        "Spring groups by the SQLSTATE class 42"
    ),
    ("MySQL", "630"): _NDB,
    ("MySQL", "839"): _NDB,
    ("MySQL", "840"): _NDB,
    ("MySQL", "893"): _NDB,
    ("MySQL", "1"): (
        "no MySQL or MariaDB error list here defines 1 (perror: OS error code 1, "
        "'Operation not permitted'): no meaning to follow, the code is kept"
    ),
    ("MySQL", "1215"): (
        "ER_CANNOT_ADD_FOREIGN, 'Cannot add foreign key constraint': CREATE or ALTER TABLE "
        "cannot define the key (no index on the referenced columns, types that differ, no "
        "parent table); no row violates anything (existing rows that do give 1452): "
        "invalid_object_definition"
    ),
    ("MS-SQL", "544"): (
        "'Cannot insert explicit value for identity column in table ... when "
        "IDENTITY_INSERT is set to OFF': the statement must leave the column out (or the "
        "session switch IDENTITY_INSERT on); no row conflicts with another: syntax_error "
        "(fix_query), as PostgreSQL's 428C9 generated_always; Spring files it under data "
        "integrity"
    ),
    ("MS-SQL", "4060"): (
        "'Cannot open database \"%.*ls\" requested by the login': the database does not "
        "exist or the login may not use it; undefined_database (stop), as PostgreSQL's "
        "3D000 at connect; retrying does not fix a wrong name (docs/backends/mssql.md)"
    ),
}

#: Misses whose fix is known and left to a later change: (product, code) -> the
#: fix.  The tests hold each to its miss, so that the fix removes it from here.
OPEN: Final[dict[tuple[str, str], str]] = {}


class Unavailable(RuntimeError):
    """No Spring JDBC jar on this machine."""


@dataclass(frozen=True)
class SpringCase:
    """
    One vendor code on one of Spring's lists.

    Attributes:
        product: Spring's bean id (`PostgreSQL`, `MySQL`, `Oracle`, `MS-SQL`, ...).
        bucket: The list (`badSqlGrammarCodes`, ...).
        code: The code as Spring writes it (`42P01`, `1146`, `942`).
        message: The vendor's text for the code where a list on this machine has it.
    """

    product: str
    bucket: str
    code: str
    message: str = ""

    @property
    def backend(self) -> str | None:
        """Our backend for the product, `None` for a product we do not have."""
        return BACKENDS.get(self.product)

    @property
    def name(self) -> str:
        """`product/bucket/code`."""
        return f"{self.product}/{self.bucket}/{self.code}"


@dataclass(frozen=True)
class Loaded:
    """
    The cases of one Spring JDBC jar.

    Attributes:
        version: Spring JDBC's version (the jar's manifest).
        path: The jar read.
        cases: Every listed code of every product.
    """

    version: str
    path: Path
    cases: tuple[SpringCase, ...]


def locate() -> Path:
    """
    The Spring JDBC jar on this machine.

    Raises:
        Unavailable: There is none.
    """
    found = sorted({os.path.realpath(p) for p in glob.glob(JARS)})
    for candidate in found:
        with zipfile.ZipFile(candidate) as jar:
            if ENTRY in jar.namelist():
                return Path(candidate)
    raise Unavailable(f"no {JARS} holding {ENTRY} (apt-get install libspring-jdbc-java)")


def _version(jar: zipfile.ZipFile) -> str:
    manifest = jar.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    for line in manifest.splitlines():
        if line.startswith("Implementation-Version:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def _mysql_texts() -> dict[int, str]:
    """MariaDB's English text of each number MySQL gives the same symbol."""
    # Only MySQL's cases need the generator's reading of MariaDB's list.
    from tools import generate_mysql_codes as mysql

    try:
        english = mysql.mariadb_english()
        sources = mysql.load_sources(mysql.MARIADB_INCLUDE)
    except (mysql.SourceError, OSError):
        return {}  # no list on this machine: the codes go without words
    rows = mysql.build_rows(sources)
    return {
        row.number: english[row.mariadb]
        for row in rows
        if row.mariadb and row.mariadb == row.mysql and row.mariadb in english
    }


def load() -> Loaded:
    """
    Read every listed code of `sql-error-codes.xml` from the Spring JDBC jar.

    Raises:
        Unavailable: There is no Spring JDBC jar.
        ValueError: A list the reader does not know (it must be given a meaning).
    """
    path = locate()
    with zipfile.ZipFile(path) as jar:
        version = _version(jar)
        # The file is the vendor's, from a Debian package; expat resolves no
        # external entity, so its DOCTYPE's DTD address is never fetched.
        root = ElementTree.fromstring(jar.read(ENTRY))  # noqa: S314 - see above
    texts: dict[int, str] | None = None
    cases: list[SpringCase] = []
    for bean in root.iter("bean"):
        product = bean.get("id", "")
        for prop in bean.iter("property"):
            bucket = prop.get("name", "")
            if bucket in _SETTINGS:
                continue
            if bucket not in MEANING:
                raise ValueError(f"{ENTRY}: {product} has a list {bucket!r} with no meaning here")
            value = prop.find("value")
            raw = "" if value is None or value.text is None else value.text
            codes = [c.strip() for c in raw.split(",") if c.strip()]
            seen: set[str] = set()
            for code in codes:
                if code in seen:  # Hana lists 278 twice
                    continue
                seen.add(code)
                message = ""
                if BACKENDS.get(product) == "mysql":
                    texts = _mysql_texts() if texts is None else texts
                    message = texts.get(int(code), "")
                cases.append(SpringCase(product, bucket, code, message))
    return Loaded(version, path, tuple(cases))


def answer(case: SpringCase) -> StructuredErrorResponse:
    """Our answer to *case*: its code (and the vendor's text, if any) classified."""
    return classify_message(case.message, case.backend, code=case.code)


def verdict(case: SpringCase, resp: StructuredErrorResponse) -> Verdict:
    """*resp* judged against the meaning of *case*'s Spring list."""
    return judge(resp, MEANING[case.bucket])


def ours(cases: tuple[SpringCase, ...]) -> Iterator[SpringCase]:
    """The cases of the products we support."""
    return (c for c in cases if c.backend is not None)
