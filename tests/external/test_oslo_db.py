"""
oslo.db's own verdicts on driver errors, held against our answers.

The cases are read from the installed oslo.db's `test_exc_filters.py`
(`tests.external.oslo`): every one that is evidence must agree with
oslo.db's documented meaning (`oslo.MEANING`), but for the disagreements
`oslo.DISAGREEMENTS` lists with the reason ours stands.
"""

from __future__ import annotations

import ast

import pytest

from tests.external import oslo
from tests.external.meaning import named_in

# The driver each dialect's rebuilt exceptions come from.
DRIVERS = {
    "mysql": {"pymysql", "mysql"},
    "postgresql": {"psycopg2"},
    "sqlite": {"sqlite3"},
}

# The verdicts the module gives on errors of each sort; each must be read.
VERDICTS = {
    "DBDuplicateEntry",
    "DBReferenceError",
    "DBConstraintError",
    "DBNonExistentTable",
    "DBNonExistentConstraint",
    "DBNonExistentDatabase",
    "DBDeadlock",
    "DBConsistencyError",
    "DBConnectionError",
    "DBDataError",
    "DBInvalidUnicodeParameter",
}


def _evidence(loaded: oslo.Loaded) -> list[oslo.OsloCase]:
    return list(oslo.evidence(loaded.cases))


def test_the_test_module_is_read(oslo_cases: oslo.Loaded) -> None:
    cases = _evidence(oslo_cases)
    assert len(cases) >= 60, [c.name for c in cases]
    assert {c.backend for c in cases} == set(DRIVERS)
    assert {c.expected for c in cases} >= VERDICTS
    # The names oslo.db reads from the errors' texts are read too.
    assert sum(1 for c in cases if c.name_checks()) >= 10
    # What is no evidence is kept and says why, never dropped.
    reasons = {c.skip_reason for c in oslo_cases.cases} - {None}
    assert any(r is not None and "DBError" in r for r in reasons)
    assert len({c.name for c in oslo_cases.cases}) == len(oslo_cases.cases)


def test_every_error_is_rebuilt_with_the_dialects_driver(oslo_cases: oslo.Loaded) -> None:
    for case in _evidence(oslo_cases):
        exc = oslo.driver_exception(case)
        if exc is None:
            # A real database's error the test states by its text or number only.
            assert case.raised is None
            assert case.message is not None or case.code is not None
            continue
        if isinstance(case.raised, BaseException):
            # Python's own error, raised by the driver and let through by SQLAlchemy.
            assert exc is case.raised
            continue
        assert type(exc).__module__ == "sqlalchemy.exc", case.name
        orig = exc.orig  # type: ignore[attr-defined]
        assert type(orig).__module__.partition(".")[0] in DRIVERS[case.dialect], case.name
        assert exc.connection_invalidated is case.is_disconnect  # type: ignore[attr-defined]


def test_every_verdict_agrees_but_the_reasoned_disagreements(oslo_cases: oslo.Loaded) -> None:
    found: dict[str, str] = {}
    for case in _evidence(oslo_cases):
        resp = oslo.answer(case)
        verdict = oslo.verdict(case, resp)
        if not verdict.agrees:
            found[case.name] = (
                f"oslo.db: {case.expected}; ours: {resp.kind.value} ({resp.error_type.value}, "
                f"retryable={resp.is_retryable}); names missing: {verdict.missing}"
            )
    unexpected = {name: why for name, why in found.items() if name not in oslo.DISAGREEMENTS}
    assert unexpected == {}
    # A listed disagreement that agrees now (or is gone from oslo.db) leaves the list.
    assert sorted(set(oslo.DISAGREEMENTS) - set(found)) == []


def test_names_are_held_only_where_the_text_states_them(oslo_cases: oslo.Loaded) -> None:
    checked = [(c, check) for c in _evidence(oslo_cases) for check in c.name_checks()]
    assert checked
    for case, check in checked:
        assert named_in(case.text, check.value)


# -- the reader, on modules of our own ----------------------------------------------------


_HELPERS = """
class TestsExceptionFilter:
    class IntegrityError(Exception):
        pass

    class OperationalError(Exception):
        pass

    def _run_test(self, dialect_name, statement, raises, expected,
                  is_disconnect=False, params=None):
        pass


class TestSome(TestsExceptionFilter):
    def _dupe(self, dialect_name, message, expected_columns=['a'],
              orig_exception_cls=TestsExceptionFilter.IntegrityError):
        matched = self._run_test(dialect_name, "insert", orig_exception_cls(message),
                                 exception.DBDuplicateEntry)
        self.assertEqual(expected_columns, matched.columns)

    def test_loop(self):
        for code in [1, 2]:
            self._dupe("mysql", "(%d, 'x')" % code)

    def test_keyword(self):
        self._run_test("postgresql", "select", self.OperationalError("gone"),
                       exception.DBConnectionError, is_disconnect=True)
"""


def _read(source: str) -> list[oslo.OsloCase]:
    reader = oslo._Reader(ast.parse(source))
    reader.read()
    return reader.cases


def test_the_reader_follows_helpers_loops_and_defaults() -> None:
    cases = {c.name: c for c in _read(_HELPERS)}
    assert set(cases) == {"TestSome.test_loop#1", "TestSome.test_loop#2", "TestSome.test_keyword"}
    first = cases["TestSome.test_loop#1"]
    assert first.dialect == "mysql"
    assert first.expected == "DBDuplicateEntry"
    assert first.raised == oslo.Raise("IntegrityError", ("(1, 'x')",))
    assert first.names == {"columns": ("a",)}
    keyword = cases["TestSome.test_keyword"]
    assert (keyword.expected, keyword.is_disconnect) == ("DBConnectionError", True)


def test_the_reader_refuses_what_it_cannot_read() -> None:
    source = _HELPERS.replace('self._run_test("postgresql"', "self._run_test(dialect")
    with pytest.raises(oslo.NotUnderstood):
        _read(source)


def test_a_database_backed_case_takes_its_text_from_the_assertions() -> None:
    source = """
class TestMissing(db_test_base._PostgreSQLOpportunisticTestCase):
    def test_raise(self):
        matched = self.assertRaises(exception.DBNonExistentTable, conn.execute, stmt)
        self.assertInnerException(matched, "ProgrammingError", 'table "t" does not exist')
        self.assertEqual("t", matched.table)
"""
    (case,) = _read(source)
    assert (case.dialect, case.expected, case.dbapi_class) == (
        "postgresql",
        "DBNonExistentTable",
        "ProgrammingError",
    )
    assert case.message == 'table "t" does not exist'
    assert case.names == {"table": ("t",)}


@pytest.mark.parametrize(
    ("message", "args"),
    [
        # pymysql's rendering of (errno, text)
        ("(1062, \"Duplicate entry '1' for key 'k'\")", (1062, "Duplicate entry '1' for key 'k'")),
        # the same with its closing parenthesis lost
        ('(1366, "Incorrect string value")', (1366, "Incorrect string value")),
        ('(1366, "Incorrect string value"', (1366, "Incorrect string value")),
        # a quote inside the text that no literal holds: as printed
        ("(1062, 'Duplicate entry ''x' for key 'k'')", (1062, "Duplicate entry ''x' for key 'k'")),
        # no number: one argument, as pymysql raises its own errors
        ("Packet sequence number wrong", ("Packet sequence number wrong",)),
    ],
)
def test_pymysql_arguments_are_read_back(message: str, args: tuple[object, ...]) -> None:
    assert oslo._pymysql_args(message) == args
