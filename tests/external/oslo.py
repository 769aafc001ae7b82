"""
oslo.db's own classifications, read from the test module of the installed oslo.db.

oslo.db (OpenStack) turns driver exceptions into its own by dialect
(`oslo_db/sqlalchemy/exc_filters.py`), and its test module
`oslo_db/tests/sqlalchemy/test_exc_filters.py` (shipped in the wheel) states,
case by case, which driver error becomes which oslo.db exception, and often
the table, constraint or columns oslo.db reads from it.

The module is parsed with `ast`, never imported, and its test methods are
read the way they run: the helpers they call are followed with their
arguments bound (`_run_dupe_constraint_test(dialect, message)` raises
`self.IntegrityError(message)` through `_run_test` and expects
`exception.DBDuplicateEntry`), loops over literal lists are unrolled, and
the assertions on the raised error (`assertInnerException`, `assertEqual(...,
matched.table)`, `assertEqual(1452, matched.inner_exception.orig.args[0])`)
give the text, number and names of the errors that hit a real database.

Each case is then rebuilt with the real driver classes installed here, as
oslo.db's dialect would have raised them (pymysql for `mysql`, its message
as pymysql renders `(errno, "text")`; mysql-connector for
`errno (sqlstate): text`; psycopg2 for `postgresql`; sqlite3), wrapped by
SQLAlchemy exactly as the engine wraps it (the test's `is_disconnect` is
SQLAlchemy's `connection_invalidated`), and classified.  A case known by its
text or number alone is classified with `classify_message`.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from localdata_errors import (
    ErrorCategory,
    Kind,
    StructuredErrorResponse,
    classify_error,
    classify_message,
)
from tests.external.meaning import (
    DATA_KINDS,
    TRANSIENT_KINDS,
    Expectation,
    NameCheck,
    Verdict,
    expect,
    judge,
    named_in,
)

__all__ = [
    "DISAGREEMENTS",
    "MEANING",
    "OsloCase",
    "Unavailable",
    "answer",
    "load",
    "verdict",
]

DISTRIBUTION: Final = "oslo.db"
TEST_MODULE: Final = "oslo_db/tests/sqlalchemy/test_exc_filters.py"

C = ErrorCategory
K = Kind

#: oslo.db's exceptions, as its `oslo_db/exception.py` documents them, in our terms.
#: `DBDeadlock`: "concurrent access conflicts, including traditional deadlocks where
#: two or more database sessions have conflicting locks, as well as other transient
#: concurrency issues ... typically resolved by retrying the transaction";
#: `DBConnectionError` is what oslo.db's `wrap_db_retry(retry_on_disconnect=True)`
#: and its connect loop retry; `DBDataError`: "problems with the processed data.
#: E.g. division by zero, numeric value out of range, incorrect data type".
MEANING: Final[dict[str, Expectation]] = {
    "DBDuplicateEntry": expect(C.CONSTRAINT_ERROR, {K.UNIQUE_VIOLATION}, retryable=False),
    "DBReferenceError": expect(C.CONSTRAINT_ERROR, {K.FOREIGN_KEY_VIOLATION}, retryable=False),
    "DBConstraintError": expect(C.CONSTRAINT_ERROR, {K.CHECK_VIOLATION}, retryable=False),
    "DBNonExistentTable": expect(C.SCHEMA_ERROR, {K.UNDEFINED_TABLE}, retryable=False),
    "DBNonExistentConstraint": expect(C.SCHEMA_ERROR, {K.UNDEFINED_OBJECT}, retryable=False),
    "DBNonExistentDatabase": expect(C.SCHEMA_ERROR, {K.UNDEFINED_DATABASE}, retryable=False),
    "DBDeadlock": expect(C.TRANSIENT_ERROR, TRANSIENT_KINDS, retryable=True),
    "DBConsistencyError": expect(C.TRANSIENT_ERROR, {K.SERIALIZATION_FAILURE}, retryable=True),
    "DBConnectionError": expect(C.CONNECTION_ERROR, retryable=True),
    "DBDataError": expect(C.QUERY_EXECUTION, DATA_KINDS, retryable=False),
    "DBInvalidUnicodeParameter": expect(C.QUERY_EXECUTION, DATA_KINDS, retryable=False),
    "DBNotSupportedError": expect(C.QUERY_EXECUTION, {K.FEATURE_NOT_SUPPORTED}, retryable=False),
}

#: oslo.db's dialect names, as our backends.
BACKENDS: Final = {"mysql": "mysql", "postgresql": "postgresql", "sqlite": "sqlite"}

#: Where each name oslo.db reads from an error must be in our answer.
_NAME_FIELDS: Final = {
    "table": "affected_resources",
    "columns": "affected_resources",
    "constraint": "constraint",
    "check_name": "constraint",
    "key_table": "dependencies",
    "database": "affected_resources",
}

#: Cases where oslo.db's verdict and the vendor's documented meaning part, and ours
#: follows the vendor: case name -> why.  The tests hold each to its disagreement.
DISAGREEMENTS: Final[dict[str, str]] = {
    "TestNonExistentDatabase.test_raise": (
        "SQLite's 'unable to open database file' (SQLITE_CANTOPEN) says a file could not "
        "be opened: a missing directory, a path that is a directory, a missing file under "
        "mode=ro; SQLite creates a database file that does not exist, so no database is "
        "missing: connection_misconfigured, not retried (docs/backends/sqlite.md)"
    ),
    "TestDBConnectRetry.test_connect_retry_stops_infailure": (
        "a text no MySQL driver writes ('Error: (NNNN) ...'): oslo.db's filter takes a "
        "2002/2003/2006/2013/1047 in parentheses anywhere in the text for the error "
        "number; no driver puts its number there and the words name no connection "
        "problem, so no number is read out of free text"
    ),
}


class Unavailable(RuntimeError):
    """oslo.db, or its test module, is not installed."""


class NotUnderstood(ValueError):
    """A construct of the test module this reader does not know: it must be taught, not skipped."""


# -- what the test module's expressions evaluate to ------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A dotted name the reader does not evaluate further: `exception.DBDeadlock`, `self.Error`."""

    dotted: str

    @property
    def last(self) -> str:
        """The last part: the class or attribute name."""
        return self.dotted.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class Raise:
    """An exception the test raises: the DB-API class it names and the arguments it passes."""

    cls: str
    args: tuple[object, ...]

    def __str__(self) -> str:
        return str(self.args[0]) if len(self.args) == 1 else str(self.args)


@dataclass(frozen=True)
class Attr:
    """An attribute path read from a raised oslo.db exception: `matched.table`."""

    case: OsloCase
    path: str


@dataclass(frozen=True)
class Fixture:
    """The arguments of a `_fixture(...)` context that makes the engine raise."""

    args: dict[str, object]


class _Opaque:
    """Something the reader has no need to evaluate (an engine, a session, a mock)."""


OPAQUE: Final = _Opaque()


@dataclass(eq=False)
class OsloCase:
    """
    One driver error and oslo.db's verdict on it.

    Attributes:
        name: `Class.test_method`, with `#n` when the method has several.
        dialect: oslo.db's dialect name (`mysql`, `postgresql`, `sqlite`, ...).
        expected: The exception oslo.db raises (`DBDuplicateEntry`), or the
            SQLAlchemy class it lets through (`OperationalError`), or what
            else the test expects.
        raised: What the test raises: a DB-API class and its arguments, or a
            real Python exception (a `UnicodeEncodeError`).
        dbapi_class: The DB-API class an assertion names, for an error the
            test did not build (one a real database raised).
        message: The error's text as an assertion states it.
        code: The error number as an assertion states it.
        names: The names oslo.db read from the error (`table`, `columns`, ...).
        is_disconnect: Whether SQLAlchemy judged it a disconnect.
        statement: The statement the test executes, where it gives one.
    """

    name: str
    dialect: str
    expected: str
    raised: Raise | BaseException | None = None
    dbapi_class: str | None = None
    message: str | None = None
    code: int | None = None
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    is_disconnect: bool = False
    statement: str | None = None

    @property
    def backend(self) -> str | None:
        """Our backend for the dialect, `None` for a dialect we do not have."""
        return BACKENDS.get(self.dialect)

    @property
    def text(self) -> str:
        """The error's text, as far as the test gives it."""
        if isinstance(self.raised, Raise | BaseException):
            return str(self.raised)
        return self.message or ""

    @property
    def skip_reason(self) -> str | None:
        """Why the case is no evidence about our answer, or `None` when it is."""
        if self.expected not in MEANING:
            return f"oslo.db says only {self.expected}"
        if self.backend is None:
            return f"dialect {self.dialect!r} is none of ours"
        if self.raised is None and self.message is None and self.code is None:
            return "the test states no error text or number"
        return None

    def name_checks(self) -> tuple[NameCheck, ...]:
        """The names oslo.db read that the error's own text states (see `named_in`)."""
        text = self.text
        return tuple(
            NameCheck(key, value, _NAME_FIELDS[key])
            for key, values in self.names.items()
            if key in _NAME_FIELDS
            for value in values
            if named_in(text, value)
        )


# -- reading the module -----------------------------------------------------------------------

# The test case bases that say which real database a class runs on.
_DIALECT_BASES: Final = (
    ("_PostgreSQLOpportunisticTestCase", "postgresql"),
    ("_MySQLOpportunisticTestCase", "mysql"),
    ("_DbTestCase", "sqlite"),
)
_ASSERTION_NAMES: Final = frozenset(
    {"table", "constraint", "key", "key_table", "columns", "check_name", "database"}
)


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


class _Reader:
    """Walks the test methods of the module, following its helpers, collecting cases."""

    def __init__(self, tree: ast.Module) -> None:
        self.classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        # The DB-API exception classes the tests define and raise (self.IntegrityError).
        self.dbapi = {
            inner.name
            for cls in self.classes.values()
            for inner in cls.body
            if isinstance(inner, ast.ClassDef)
        }
        self.cases: list[OsloCase] = []
        self.silent: list[str] = []  # test methods that state no driver error

    # -- classes and methods

    def _bases(self, cls: ast.ClassDef) -> list[str]:
        return [d for d in (_dotted(b) for b in cls.bases) if d is not None]

    def mro(self, name: str) -> list[ast.ClassDef]:
        order: list[ast.ClassDef] = []

        def visit(cls_name: str) -> None:
            cls = self.classes.get(cls_name)
            if cls is None or cls in order:
                return
            order.append(cls)
            for base in self._bases(cls):
                visit(base.rsplit(".", 1)[-1])

        visit(name)
        return order

    def method(self, cls_name: str, name: str) -> ast.FunctionDef | None:
        for cls in self.mro(cls_name):
            for node in cls.body:
                if isinstance(node, ast.FunctionDef) and node.name == name:
                    return node
        return None

    def dialect(self, cls_name: str) -> str | None:
        bases = {b.rsplit(".", 1)[-1] for c in self.mro(cls_name) for b in self._bases(c)}
        for base, dialect in _DIALECT_BASES:
            if base in bases:
                return dialect
        return None

    # -- running a test method

    def read(self) -> None:
        for cls in self.classes.values():
            for node in cls.body:
                if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                    before = len(self.cases)
                    test = f"{cls.name}.{node.name}"
                    self.run(node.body, _Frame(self, cls.name, test, {}))
                    found = self.cases[before:]
                    if not found:
                        self.silent.append(test)
                    elif len(found) > 1:
                        for number, case in enumerate(found, 1):
                            case.name = f"{test}#{number}"

    def run(self, body: Sequence[ast.stmt], frame: _Frame) -> None:
        for stmt in body:
            self.statement(stmt, frame)

    def statement(self, stmt: ast.stmt, frame: _Frame) -> None:
        if isinstance(stmt, ast.Assign):
            value = frame.eval(stmt.value)
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    frame.env[target.id] = value
        elif isinstance(stmt, ast.Expr):
            frame.eval(stmt.value)
        elif isinstance(stmt, ast.For):
            items = frame.eval(stmt.iter)
            if not isinstance(stmt.target, ast.Name) or not isinstance(items, list | tuple):
                return
            for item in items:
                frame.env[stmt.target.id] = item
                self.run(stmt.body, frame)
        elif isinstance(stmt, ast.With):
            fixture = None
            for item in stmt.items:
                value = frame.eval(item.context_expr)
                if isinstance(value, Fixture):
                    fixture = value
            saved = frame.fixture
            frame.fixture = fixture or saved
            self.run(stmt.body, frame)
            frame.fixture = saved
        elif isinstance(stmt, ast.Try):
            try:
                self.run(stmt.body, frame)
            except Exception as exc:  # only what the module's own code raises
                for handler in stmt.handlers:
                    caught = _dotted(handler.type) if handler.type is not None else None
                    if caught is None or caught.rsplit(".", 1)[-1] in {
                        c.__name__ for c in type(exc).__mro__
                    }:
                        if handler.name:
                            frame.env[handler.name] = exc
                        self.run(handler.body, frame)
                        break
                else:
                    raise
            self.run(stmt.finalbody, frame)


class _Frame:
    """The evaluation state of one method body: its names and its fixture."""

    def __init__(self, reader: _Reader, cls_name: str, test: str, env: dict[str, object]) -> None:
        self.reader = reader
        self.cls_name = cls_name
        self.test = test
        self.env = env
        self.fixture: Fixture | None = None

    def eval(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.env.get(node.id, Ref(node.id))
        if isinstance(node, ast.Attribute):
            base = self.eval(node.value)
            if isinstance(base, Ref):
                return Ref(f"{base.dotted}.{node.attr}")
            if isinstance(base, OsloCase):
                return Attr(base, node.attr)
            if isinstance(base, Attr):
                return Attr(base.case, f"{base.path}.{node.attr}")
            return OPAQUE
        if isinstance(node, ast.Subscript):
            base = self.eval(node.value)
            index = self.eval(node.slice)
            if isinstance(base, Attr) and isinstance(index, int):
                return Attr(base.case, f"{base.path}[{index}]")
            return OPAQUE
        if isinstance(node, ast.List | ast.Tuple):
            items = [self.eval(e) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            left, right = self.eval(node.left), self.eval(node.right)
            if isinstance(left, str) and not isinstance(right, _Opaque | Ref):
                return left % right
            return OPAQUE
        if isinstance(node, ast.Call):
            return self.call(node)
        return OPAQUE

    def call(self, node: ast.Call) -> Any:
        func = node.func
        # '\u2435'.encode('ascii'): the module's own code, run as written.
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)
            and func.attr == "encode"
        ):
            encoding = self.eval(node.args[0]) if node.args else "utf-8"
            return func.value.value.encode(encoding)
        if isinstance(func, ast.Name) and func.id == "str" and len(node.args) == 1:
            value = self.eval(node.args[0])
            return str(value) if isinstance(value, str | Raise) else OPAQUE
        callee = self.eval(func)
        if not isinstance(callee, Ref):
            return OPAQUE
        args = [self.eval(a) for a in node.args if not isinstance(a, ast.Starred)]
        kwargs = {k.arg: self.eval(k.value) for k in node.keywords if k.arg is not None}
        if callee.last in self.reader.dbapi:
            return Raise(callee.last, tuple(args))
        if callee.dotted in _BUILTIN_EXCEPTIONS:
            return Raise(callee.dotted, tuple(args))
        if not callee.dotted.startswith("self."):
            return OPAQUE
        name = callee.dotted[len("self.") :]
        if name == "assertRaises":
            return self.assert_raises(args)
        if name in {"assertInnerException", "assertSQLAException"}:
            self.assert_inner(args)
            return None
        if name == "assertEqual" and len(args) >= 2:
            self.assert_equal(args[0], args[1])
            return None
        if name == "assertIn" and len(node.args) >= 2:
            self.assert_in(node.args[0], node.args[1])
            return None
        function = self.reader.method(self.cls_name, name)
        if function is None:
            return OPAQUE
        bound = self.bind(function, args, kwargs)
        params = [a.arg for a in function.args.args]
        if name == "_run_test" and "raises" in params:
            return self.emit(bound, bound["expected"], bound["raises"])
        if name == "_fixture":
            return Fixture(bound)
        if name.startswith("_") and not name.startswith("__"):
            # A helper of the module: run its body with the arguments bound.
            inner = _Frame(self.reader, self.cls_name, self.test, bound)
            inner.fixture = self.fixture
            self.reader.run(function.body, inner)
            return None
        return OPAQUE

    def bind(
        self, function: ast.FunctionDef, args: list[object], kwargs: dict[str, object]
    ) -> dict[str, object]:
        params = [a.arg for a in function.args.args][1:]  # without self
        defaults = function.args.defaults
        bound: dict[str, object] = {}
        first_default = len(params) - len(defaults)
        for index, param in enumerate(params):
            if index < len(args):
                bound[param] = args[index]
            elif param in kwargs:
                bound[param] = kwargs[param]
            elif index >= first_default:
                bound[param] = self.eval(defaults[index - first_default])
            else:
                raise NotUnderstood(f"{self.test}: {function.name}() misses {param}")
        return bound

    def emit(self, bound: dict[str, object], expected: object, raised: object) -> OsloCase:
        dialect = bound.get("dialect_name")
        if not isinstance(dialect, str):
            raise NotUnderstood(f"{self.test}: no dialect name")
        if not isinstance(raised, Raise | BaseException):
            raise NotUnderstood(f"{self.test}: raises {raised!r}")
        statement = bound.get("statement")
        case = OsloCase(
            name=self.test,
            dialect=dialect,
            expected=_expected_name(expected),
            raised=raised,
            is_disconnect=bool(bound.get("is_disconnect", False)),
            statement=statement if isinstance(statement, str) else None,
        )
        self.reader.cases.append(case)
        return case

    def assert_raises(self, args: list[object]) -> object:
        if not args:
            return OPAQUE
        expected = args[0]
        target = args[1] if len(args) > 1 else None
        if isinstance(target, Ref) and target.dotted == "self._run_test":
            # TestDBConnectRetry's _run_test(dialect_name, exception, count, retries).
            function = self.reader.method(self.cls_name, "_run_test")
            if function is None:
                raise NotUnderstood(f"{self.test}: no _run_test")
            bound = self.bind(function, list(args[2:]), {})
            return self.emit(bound, expected, bound.get("exception"))
        if self.fixture is not None:
            bound = dict(self.fixture.args)
            return self.emit(bound, expected, bound.get("exception"))
        dialect = self.reader.dialect(self.cls_name)
        if dialect is None:
            return OPAQUE
        case = OsloCase(name=self.test, dialect=dialect, expected=_expected_name(expected))
        self.reader.cases.append(case)
        return case

    def assert_inner(self, args: list[object]) -> None:
        if len(args) < 3 or not isinstance(args[0], OsloCase):
            return
        case, cls, message = args[0], args[1], args[2]
        if case.raised is not None:
            return  # the test built it: the assertion only restates it
        case.dbapi_class = (
            cls.last if isinstance(cls, Ref) else cls if isinstance(cls, str) else None
        )
        if isinstance(message, str):
            case.message = message

    def assert_equal(self, first: object, second: object) -> None:
        attr, value = (first, second) if isinstance(first, Attr) else (second, first)
        if not isinstance(attr, Attr):
            return
        if attr.path == "inner_exception.orig.args[0]" and isinstance(value, int):
            attr.case.code = value
        elif attr.path in _ASSERTION_NAMES:
            if isinstance(value, str):
                attr.case.names[attr.path] = (value,)
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                attr.case.names[attr.path] = tuple(value)

    def assert_in(self, needle: ast.expr, haystack: ast.expr) -> None:
        # assertIn('fatal:  database "x" does not exist', str(matched.inner_exception).lower())
        text = self.eval(needle)
        if not isinstance(text, str):
            return
        for name, value in self.env.items():
            if isinstance(value, OsloCase) and _mentions(haystack, name) and value.raised is None:
                value.message = text


_BUILTIN_EXCEPTIONS: Final = frozenset({"AttributeError", "ValueError", "TypeError", "Exception"})


def _expected_name(expected: object) -> str:
    if isinstance(expected, Ref):
        # oslo.db's own (exception.DBDeadlock) or SQLAlchemy's, let through unwrapped.
        return (
            expected.last
            if expected.dotted.startswith("exception.")
            else f"{expected.last} (let through)"
        )
    if isinstance(expected, tuple):
        return " or ".join(_expected_name(e) for e in expected)
    return repr(expected)


@dataclass(frozen=True)
class Loaded:
    """
    The cases of one oslo.db installation.

    Attributes:
        version: oslo.db's version.
        path: The test module read.
        cases: Every case found.
        silent: The test methods that state no driver error.
    """

    version: str
    path: Path
    cases: tuple[OsloCase, ...]
    silent: tuple[str, ...]


def locate() -> tuple[str, Path]:
    """
    oslo.db's version and its test module's path, without importing either.

    Raises:
        Unavailable: oslo.db is not installed, or ships no test module.
    """
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError as exc:
        raise Unavailable(
            "oslo.db is not installed (pip install 'localdata-errors[test]')"
        ) from exc
    path = Path(str(dist.locate_file(TEST_MODULE)))
    if not path.is_file():
        raise Unavailable(f"oslo.db {dist.version} ships no {TEST_MODULE}")
    return dist.version, path


def load() -> Loaded:
    """
    Read every case of the installed oslo.db's exception-filter tests.

    Raises:
        Unavailable: oslo.db is not installed.
        NotUnderstood: The module holds a construct this reader does not know.
    """
    version, path = locate()
    reader = _Reader(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    reader.read()
    return Loaded(version, path, tuple(reader.cases), tuple(reader.silent))


# -- rebuilding the driver's exception ---------------------------------------------------------

# pymysql's and mysqlclient's rendering, "(1062, \"Duplicate entry ...\")", and
# mysql-connector's, "1062 (23000): Duplicate entry ...".
_ARGS_REPR = re.compile(r"""^\((?P<errno>\d{1,5}), (?P<q>['"])(?P<text>.*)(?P=q)\)?$""", re.DOTALL)
_CONNECTOR = re.compile(
    r"^(?P<errno>\d{1,5}) \((?P<sqlstate>[0-9A-Z]{5})\): (?P<text>.*)$", re.DOTALL
)


def _pymysql_args(message: str) -> tuple[object, ...]:
    """The arguments pymysql gave the exception whose text is *message*."""
    for candidate in (message, message + ")"):
        try:
            value = ast.literal_eval(candidate)
        except (ValueError, SyntaxError):
            continue
        if (
            isinstance(value, tuple)
            and len(value) == 2
            and isinstance(value[0], int)
            and isinstance(value[1], str)
        ):
            return value
    match = _ARGS_REPR.match(message)
    if match is not None:
        # A text no literal holds (a quote inside that is not escaped): as
        # printed, between the literal's quotes.
        return int(match.group("errno")), match.group("text")
    return (message,)


def _mysql(cls: str, args: tuple[object, ...]) -> tuple[BaseException, type[Exception]]:
    if len(args) == 1 and isinstance(args[0], str):
        connector = _CONNECTOR.match(args[0])
        if connector is not None:
            errors = importlib.import_module("mysql.connector.errors")
            exc = getattr(errors, cls)(
                msg=connector.group("text"),
                errno=int(connector.group("errno")),
                sqlstate=connector.group("sqlstate"),
            )
            return exc, errors.Error
        args = _pymysql_args(args[0])
    err = importlib.import_module("pymysql.err")
    return getattr(err, cls)(*args), err.Error


def _postgresql(cls: str, args: tuple[object, ...]) -> tuple[BaseException, type[Exception]]:
    psycopg2 = importlib.import_module("psycopg2")
    if cls == "TransactionRollbackError":
        extensions = importlib.import_module("psycopg2.extensions")
        return extensions.TransactionRollbackError(*args), psycopg2.Error
    return getattr(psycopg2, cls)(*args), psycopg2.Error


def _sqlite(cls: str, args: tuple[object, ...]) -> tuple[BaseException, type[Exception]]:
    sqlite3 = importlib.import_module("sqlite3")
    return getattr(sqlite3, cls)(*args), sqlite3.Error


_DRIVERS: Final = {"mysql": _mysql, "postgresql": _postgresql, "sqlite": _sqlite}


def driver_exception(case: OsloCase) -> BaseException | None:
    """
    The exception the test's dialect raises for *case*, wrapped as SQLAlchemy wraps it.

    Returns:
        The exception, or `None` for a case known by its text or number only.
    """
    if isinstance(case.raised, BaseException):
        # Raised by the driver while encoding a parameter: SQLAlchemy lets it through.
        return case.raised
    if isinstance(case.raised, Raise):
        cls, args = case.raised.cls, case.raised.args
    elif case.dbapi_class is not None and case.message is not None:
        cls, args = case.dbapi_class, (case.message,)
    else:
        return None
    if cls in _BUILTIN_EXCEPTIONS:
        return None
    orig, base = _DRIVERS[case.dialect](cls, args)
    sqlalchemy_exc = importlib.import_module("sqlalchemy.exc")
    wrapped: BaseException = sqlalchemy_exc.DBAPIError.instance(
        case.statement,
        None,
        orig,
        base,
        connection_invalidated=case.is_disconnect,
    )
    return wrapped


def answer(case: OsloCase) -> StructuredErrorResponse:
    """Our answer to *case*: the rebuilt exception classified, or its text and number."""
    backend = case.backend
    exc = driver_exception(case)
    if exc is not None:
        return classify_error(exc, db_type=backend)
    return classify_message(case.message or "", backend, code=case.code)


def verdict(case: OsloCase, resp: StructuredErrorResponse) -> Verdict:
    """*resp* judged against oslo.db's verdict on *case* (which must be evidence)."""
    return judge(resp, MEANING[case.expected], case.name_checks())


def evidence(cases: Sequence[OsloCase]) -> Iterator[OsloCase]:
    """The cases that are evidence about our answer."""
    return (c for c in cases if c.skip_reason is None)
