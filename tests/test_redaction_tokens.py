"""
Every token shape of the generated rule table is masked when a real engine echoes it.

The table (`localdata_errors/_token_rules.py`) is generated from gitleaks'
rule set by `tools/generate_token_rules.py`.  For each rule, examples are
drawn from the rule's own expression (hypothesis' `from_regex`), sent to
SQLite, DuckDB, PostgreSQL and MariaDB as an unknown column's name, and the
engine's real exception is classified: no eight characters in a row of the
token may survive in the message, the suggestion, or any other field.
PostgreSQL and MariaDB cut a name at 63 and 64 characters: longer tokens
are sent to SQLite and DuckDB only.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from generate_token_rules import match_keywords, secret_groups_only
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localdata_errors import _token_rules, classify_error, redact
from localdata_errors._redact import may_hold_secret
from tests.conftest import require_module

ROOT = Path(__file__).resolve().parents[1]
WINDOW = 8
RULES = [
    pytest.param(rule, pattern, id=rule)
    for rule, pattern in zip(_token_rules.RULE_IDS, _token_rules.PATTERNS, strict=True)
]


# Printable ASCII but the quotes: what a column name may hold on every engine.
_NAME = re.compile(r"[ !#-&(-~]+")


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "timestamp":
                yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _leaks(token: str, value: object) -> list[str]:
    windows = {token[i : i + WINDOW] for i in range(max(len(token) - WINDOW + 1, 1))}
    return [s for s in _strings(value) if any(w in s for w in windows)]


def _every_field(exc: BaseException) -> list[object]:
    resp = classify_error(exc)
    return [
        list(resp),
        resp.to_dict(),
        resp.to_tool_error(),
        resp.to_jsonrpc_error(tool_name="t"),
        resp.to_agent_response(),
        json.loads(resp.to_json()),
    ]


def _secret(pattern: re.Pattern[str], text: str) -> str:
    match = pattern.search(text)
    assert match is not None
    group = next((g for g in range(1, pattern.groups + 1) if match.start(g) >= 0), 0)
    return match.group(group)


@pytest.fixture(scope="module")
def connections(
    pg_server: dict[str, object], mysql_server: dict[str, object]
) -> Iterator[dict[str, Any]]:
    psycopg = require_module("psycopg")
    pymysql = require_module("pymysql")
    duckdb = require_module("duckdb")
    opened = {
        "sqlite": sqlite3.connect(":memory:"),
        "duckdb": duckdb.connect(),
        "postgresql": psycopg.connect(**pg_server, autocommit=True),
        "mysql": pymysql.connect(**mysql_server),
    }
    yield opened
    for conn in opened.values():
        conn.close()


def _echo(engine: str, conn: Any, name: str) -> BaseException:
    quote = "`" if engine == "mysql" else '"'
    statement = f"SELECT t.{quote}{name}{quote} FROM (SELECT 1 AS one) AS t"
    try:
        if engine == "mysql":
            with conn.cursor() as cursor:
                # pymysql formats a statement only when given arguments: a "%" goes as it is.
                cursor.execute(statement)
        else:
            conn.execute(statement)
    except Exception as exc:
        return exc
    raise AssertionError(f"{engine} accepted {statement!r}")


def test_the_table_covers_the_shapes_agents_hold() -> None:
    for rule in (
        "github-pat",
        "github-fine-grained-pat",
        "openai-api-key",
        "anthropic-api-key",
        "slack-bot-token",
        "stripe-access-token",
        "jwt",
        "aws-access-token",
        "gcp-api-key",
    ):
        assert rule in _token_rules.RULE_IDS, rule


@pytest.mark.parametrize(("rule", "lazy"), RULES)
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_rule_echoed_by_a_real_engine_is_masked(
    connections: dict[str, Any], rule: str, lazy: Any, data: st.DataObject
) -> None:
    pattern = lazy.get()
    text = data.draw(st.from_regex(pattern))
    token = _secret(pattern, text)
    if not _NAME.fullmatch(token):
        # A character no quoted name can hold here: the text itself, masked.
        assert not _leaks(token, redact(text)), rule
        return
    assert may_hold_secret(token), rule
    for engine, conn in connections.items():
        if engine in ("postgresql", "mysql") and len(token) > 63:
            continue  # the engine cuts the name
        exc = _echo(engine, conn, token)
        if engine == "postgresql":
            conn.rollback() if not conn.autocommit else None
        leaks = _leaks(token, _every_field(exc))
        assert not leaks, (rule, engine, leaks)


@pytest.mark.parametrize(("rule", "lazy"), RULES)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_match_holds_its_rules_key_word_and_run(
    rule: str, lazy: Any, data: st.DataObject
) -> None:
    # A rule runs only on a text that holds one of its key words (a rule
    # without any: a run of token characters as long as its matches' least),
    # and an echoed token stands alone: the match itself must hold them.
    index = _token_rules.RULE_IDS.index(rule)
    keywords = _token_rules.KEYWORDS[index]
    pattern = lazy.get()
    match = pattern.search(data.draw(st.from_regex(pattern)))
    assert match is not None
    if keywords:
        assert any(k in match.group().lower() for k in keywords), (rule, keywords)
    runs = re.findall(r"[A-Za-z0-9_-]+", match.group())
    assert max(map(len, runs)) >= _token_rules.LEAST_RUNS[index] >= _token_rules.MIN_RUN, rule
    assert redact(match.group()) != match.group(), rule


def test_a_message_without_a_long_run_costs_one_gate() -> None:
    assert not may_hold_secret('relation "order_items" does not exist')
    assert redact("no such column: sk_live_") == "no such column: sk_live_"


def test_the_generator_reproduces_the_table() -> None:
    # gitleaks' file as published (tools/upstream), or another checkout's.
    source = os.environ.get("LOCALDATA_ERRORS_GITLEAKS_TOML") or str(
        ROOT / "tools" / "upstream" / "gitleaks.toml"
    )
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "generate_token_rules.py"),
            "--source",
            source,
            "--check",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_rules_key_words_are_what_its_matches_hold() -> None:
    # gitleaks' own where every match holds one; else the literals the
    # expression requires, joined across groups and small sets; none where a
    # match may be a bare run.
    assert match_keywords(r"(?:pat|sat)\.[a-z]{22}", ["pat.", "sat."]) == ("pat.", "sat.")
    assert match_keywords(r"\b(pat[a-zA-Z0-9]{14}\.[a-f0-9]{64})\b", ["airtable"]) == ("pat",)
    assert match_keywords(r"(?i)xoxe.xox[bp]-\d-[A-Z0-9]{163}", ["xoxe.xoxb-"]) == (
        "xoxb-",
        "xoxp-",
    )
    assert match_keywords(r"\b((?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z2-7]{16})\b", ["akia", "asia"]) == (
        "a3t",
        "akia",
        "asia",
    )
    assert match_keywords(r"\d{15}(\||%)[0-9a-z]{27}", ["facebook"]) == ("%", "|")
    assert match_keywords(r"ab(?:c|d[0-9]{3})ef", ["zz"]) == ("abc", "abd")
    assert match_keywords(r"(?:sgp_[a-f0-9]{40}|[a-f0-9]{40})", ["sgp_"]) == ()


def test_a_repeated_group_does_not_stand_for_the_secret() -> None:
    # A group repeated captures its last copy: it becomes non-capturing, the
    # others keep their order; a "(" escaped or inside a set is no group.
    rewritten = secret_groups_only(r"u([a-z]{4}-){3}(?P<k>[(\]]\(x)(y)+(z)")
    assert rewritten == r"u(?:[a-z]{4}-){3}(?P<k>[(\]]\(x)(?:y)+(z)"
    match = re.fullmatch(rewritten, "uabcd-efgh-ijkl-](xyyz")
    assert match is not None
    assert match.groups() == ("](x", "z")
    assert secret_groups_only(r"(a)(b)?") == r"(a)(b)?"
