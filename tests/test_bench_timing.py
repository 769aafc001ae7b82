"""The timing harness's touch: what raising an exception read, along its whole chain."""

from __future__ import annotations

import itertools
import sqlite3

import pytest

from bench.timing import first_sight, raised
from localdata_errors._chain import CHAIN_LIMIT


class _Texted(Exception):
    """Counts how often its text is read."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.reads = 0

    def __str__(self) -> str:
        self.reads += 1
        return str(self.args[0])


def test_a_sqlalchemy_wrappers_driver_exception_is_read_as_sqlalchemy_read_it() -> None:
    sqlalchemy = pytest.importorskip("sqlalchemy")
    engine = sqlalchemy.create_engine("sqlite://")
    with engine.connect() as connection, pytest.raises(sqlalchemy.exc.DBAPIError) as caught:
        connection.exec_driver_sql("SELECT * FROM no_such_table")
    wrapper = caught.value
    assert isinstance(wrapper.orig, sqlite3.OperationalError)
    assert raised(wrapper) == [
        (type(wrapper), str(wrapper)),
        (sqlite3.OperationalError, "no such table: no_such_table"),
    ]


def test_each_link_of_a_raise_from_chain_is_read_once() -> None:
    inner, outer = _Texted("inner"), _Texted("outer")
    outer.__cause__ = inner
    inner.__context__ = outer  # a cycle: read each once
    assert raised(outer) == [(_Texted, "outer"), (_Texted, "inner")]
    assert (outer.reads, inner.reads) == (1, 1)


def test_a_context_suppressed_by_raise_from_none_is_not_read() -> None:
    hidden, shown = _Texted("hidden"), _Texted("shown")
    shown.__context__ = hidden
    shown.__suppress_context__ = True
    assert raised(shown) == [(_Texted, "shown")]
    assert hidden.reads == 0


def test_a_long_chain_is_read_to_its_bound() -> None:
    links = [_Texted(str(n)) for n in range(CHAIN_LIMIT + 5)]
    for outer, inner in itertools.pairwise(links):
        outer.__cause__ = inner
    read = raised(links[0])
    assert isinstance(read, list)
    assert len(read) == CHAIN_LIMIT


def test_first_sight_touches_each_case_before_its_contenders_in_every_round() -> None:
    events: list[str] = []
    calls = [
        (lambda n=n: events.append(f"a{n}"), lambda n=n: events.append(f"b{n}")) for n in range(3)
    ]
    touch = [lambda n=n: events.append(f"t{n}") for n in range(3)]
    times = first_sight(calls, rounds=2, touch=touch)
    assert [len(per_case) for per_case in times] == [3, 3]
    assert len(events) == 2 * 3 * 3
    for at in range(0, len(events), 3):
        case = events[at][1:]
        assert events[at] == f"t{case}"
        assert sorted(events[at + 1 : at + 3]) == [f"a{case}", f"b{case}"]
