"""
No value a call sent reaches any output of the history: a tool's arguments are
kept as the call it was (``lookup_customer(card=?)``), the table tools'
tables, filter columns and operators read by name, every value ``?``.

Each call is recorded failing (twice, so the loop guard names it) and
succeeding, and every output is searched: the summary, the entries and their
``repr``, the calls, ``to_dict()`` as JSON, ``repeated()``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localdata_errors import Kind, StructuredErrorResponse
from localdata_errors.history import ExecutionHistory, HistoryEntry

CARD = "4111111111111111"
CARD_SPACED = "4111 1111 1111 1111"
EMAIL = "ann.lee@example.com"
SSN = "078-05-1120"
TOKEN = "Zq7HiddenToken"
BYTES = b"\x00\xffZq7HiddenBytes"
SQLISH = "1; DROP TABLE users; --"
_IDENTITY = re.compile(r"\b[0-9a-f]{32}\b")
VALUES = (CARD, CARD_SPACED, "4111", EMAIL, "ann.lee", SSN, TOKEN, "Zq7Hidden", "DROP TABLE users")

# (tool, arguments, how the history shows the call): written from the calls.
CALLS: list[tuple[str, Any, str]] = [
    ("lookup_customer", {"card": CARD}, "lookup_customer(card=?)"),
    ("lookup_customer", {"card": int(CARD)}, "lookup_customer(card=?)"),
    ("lookup_customer", {"card": CARD_SPACED, "email": EMAIL}, "lookup_customer(card=?, email=?)"),
    (
        "select_rows",
        {
            "table": "customers",
            "columns": ["id", "email"],
            "filters": [
                {"column": "email", "operator": "=", "value": EMAIL},
                {"column": "card", "operator": "in", "value": [CARD, CARD_SPACED]},
            ],
            "order_by": [{"column": "id", "direction": "desc"}],
            "limit": 5,
        },
        "select_rows(customers, columns id, email where email = ? and card in (?), order_by=?, "
        "limit=?)",
    ),
    (
        "update_rows",
        {
            "table": "customers",
            "values": {"email": EMAIL, "card": CARD},
            "filters": [{"column": "ssn", "value": SSN}],
        },
        "update_rows(customers, where ssn = ?, values=?)",
    ),
    (
        "insert_rows",
        {"table": "cards", "rows": [{"number": CARD, "owner": EMAIL}]},
        "insert_rows(cards, rows=?)",
    ),
    (
        "store",
        {"payload": {"ssn": SSN, "nested": [{"deep": [CARD, {"token": TOKEN}]}]}},
        "store(payload=?)",
    ),
    ("store", {"blob": BYTES, "text": BYTES.decode("latin-1")}, "store(blob=?, text=?)"),
    ("search", {"filter": SQLISH, "where": f"email = '{EMAIL}'"}, "search(filter=?, where=?)"),
    # Keys that are data: an address, a card number.
    ("tag", {EMAIL: 1, CARD: "x", "ok": TOKEN}, "tag(?, ok=?)"),
    # A value where a name or an operator belongs.
    (
        "delete_rows",
        {"table": [CARD], "filters": [{"column": "card", "operator": TOKEN, "value": 1}]},
        "delete_rows(where card (operator) ?, table=?)",
    ),
    (
        "delete_rows",
        {"filters": [{"column": "card", "operator": CARD}]},
        "delete_rows(where card (operator) ?)",
    ),
    ("lookup", [CARD, EMAIL], "lookup(?)"),
    ("lookup", (CARD,), "lookup(?)"),
    ("lookup", BYTES, "lookup(?)"),
    ("lookup", 4111111111111111, "lookup(?)"),
]


def _failure() -> StructuredErrorResponse:
    return StructuredErrorResponse.for_kind(Kind.INVALID_PARAMETER, "bad argument")


def _outputs(history: ExecutionHistory, entries: list[HistoryEntry]) -> str:
    """Every output of the history, as one text."""
    parts = [
        history.summary(),
        json.dumps(history.to_dict()),
        json.dumps(history.repeated()),
        *(repr(e) for e in entries),
        *(str(e.call.to_dict()) for e in entries if e.call is not None),
        *(json.dumps(e.to_dict()) for e in entries),
    ]
    return "\n".join(parts)


def _assert_no_value(text: str) -> None:
    # A call's identity is a keyed digest (32 hex digits, a new key each
    # process): it may hold "4111" by chance, and holds no value.
    text = _IDENTITY.sub("<identity>", text)
    for value in VALUES:
        assert value not in text, value
    assert "Zq7" not in text
    assert "\\x00" not in text


@pytest.mark.parametrize(("tool", "arguments", "shown"), CALLS)
def test_a_call_is_kept_without_its_values(tool: str, arguments: Any, shown: str) -> None:
    history = ExecutionHistory(max_entries=5, max_chars=10_000)
    entries = [
        history.record(tool, arguments, error=_failure()),
        history.record(tool, arguments, error=_failure()),
        history.record(tool, arguments, result={"rowcount": 1}),
    ]
    assert [e.operation for e in entries] == [shown] * 3
    assert entries[1].repeats == 1
    assert f"- {shown} → FAILED" in history.summary()
    _assert_no_value(_outputs(history, entries))


def test_calls_of_other_values_are_other_calls() -> None:
    # Values are gone from what is shown, not from what tells calls apart.
    history = ExecutionHistory()
    first = history.record("lookup_customer", {"card": CARD}, error=_failure())
    other = history.record("lookup_customer", {"card": "5500000000000004"}, error=_failure())
    same = history.record("lookup_customer", {"card": CARD}, error=_failure())
    assert first.operation == other.operation == same.operation
    assert (first.repeats, other.repeats, same.repeats) == (0, 0, 1)


def test_the_table_tools_shapes_are_kept() -> None:
    history = ExecutionHistory()
    entry = history.record(
        "select_rows",
        {
            "table": "Order Lines",
            "filters": [{"column": "e-mail", "operator": "like", "value": "%@x"}],
        },
    )
    assert entry.operation == 'select_rows("Order Lines", where "e-mail" like ?)'
    assert entry.call is not None
    assert entry.call.to_dict()["filters"] == [{"column": "e-mail", "operator": "like"}]
    assert entry.state_changes == ()  # what another tool changes is not known


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.binary(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
SENTINEL = "Qx9Sentinel"


def _with_sentinel(value: Any) -> Any:
    """*value* with the sentinel hidden in each of its texts and each dict key."""
    if isinstance(value, str):
        return value + SENTINEL
    if isinstance(value, bytes):
        return value + SENTINEL.encode()
    if isinstance(value, list):
        return [_with_sentinel(v) for v in value] + [SENTINEL]
    if isinstance(value, dict):
        return {f"{k}{SENTINEL}": _with_sentinel(v) for k, v in value.items()} | {"k": SENTINEL}
    return [value, SENTINEL]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    arguments=st.dictionaries(
        # Not "table" nor "columns": their strings are names, kept by design.
        st.sampled_from(["filters", "card", "payload", "where", "x-y", "1a", "values"]),
        JSON_VALUES,
        max_size=5,
    )
)
def test_no_value_of_any_shape_is_kept(arguments: dict[str, Any]) -> None:
    sent = {key: _with_sentinel(value) for key, value in arguments.items()}
    # And filters as the table tools write them, their values and operators odd.
    sent["filters"] = [
        {
            "column": "c",
            "operator": _with_sentinel(arguments.get("card", "")),
            "value": sent.get("card"),
        },
        {"column": "d", "value": _with_sentinel(arguments.get("payload"))},
    ]
    history = ExecutionHistory(max_chars=10_000)
    entries = [history.record("tool", sent, error=_failure()) for _ in range(2)]
    entries.append(history.record("tool", sent, result=1))
    assert SENTINEL not in _outputs(history, entries)
