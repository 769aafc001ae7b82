"""
A connection pool's own "no connection in time" text is pool exhaustion, not a statement timeout.

The texts are each pool's own (`tools/upstream/pool-messages.tsv`, read from
its source by `tools/extract_pool_messages.py`); what each means is the
pool's documented behaviour: the wait for a free connection ended, or the
pool was closed, before any request reached the server.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from localdata_errors import Kind, RetrySafety, classify_message
from localdata_errors.backends import generic
from localdata_errors.backends._pool_messages import PHRASES
from localdata_errors.backends.generic import POOL_KINDS, keyword_answer, keyword_kind

ROOT = Path(__file__).resolve().parents[1]
TSV = ROOT / "tools" / "upstream" / "pool-messages.tsv"
sys.path.insert(0, str(ROOT / "tools"))

from extract_pool_messages import read_braced, read_python  # noqa: E402 - tools/ on the path
from generate_pool_messages import phrase  # noqa: E402

#: What a library fills in, in order of its placeholders (a pool's name, counts, a wait).
SAMPLES = ("HikariPool-1", "30000", "10", "3", "0", "7")


def _rows() -> list[tuple[str, str, str, str]]:
    rows = []
    for line in TSV.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            library, _, _, name, form, meaning = line.split("\t")
            rows.append((library, name, form, meaning))
    return rows


def _filled(form: str) -> str:
    values = iter(SAMPLES)
    # A value a call adds at the end of a word (commons-pool's appendStats:
    # `Pool exhausted, NumActive=...`) follows a separator of its own.
    form = re.sub(r"(?<=[A-Za-z])\{\}$", ", {}", form)
    return re.sub(r"\{\}", lambda _: next(values), form)


@pytest.mark.parametrize(("library", "name", "form", "meaning"), _rows())
def test_every_extracted_pool_message_gets_its_kind(
    library: str, name: str, form: str, meaning: str
) -> None:
    # As the library prints it: its error's name before the message, where it sets one.
    text = f"{name}: {_filled(form)}" if name else _filled(form)
    kind, safety = POOL_KINDS[meaning]
    answer = classify_message(text)
    assert answer.kind == kind.value, (library, text)
    assert answer.is_retryable is True
    assert answer.retry_safety == (safety or RetrySafety.SAFE).value


@pytest.mark.parametrize(
    "text",
    [
        # The wait for a free connection: too_many_connections, retried after a back-off.
        "KnexTimeoutError: Knex: Timeout acquiring a connection. The pool is probably full. "
        "Are you missing a .transacting(trx) call?",
        "java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, "
        "request timed out after 30000ms.",
        "Error: timeout exceeded when trying to connect",
        "TimeoutError: ResourceRequest timed out",
        "Cannot get a connection, pool error Timeout waiting for idle object",
        "SequelizeConnectionAcquireTimeoutError: Operation timeout",
    ],
)
def test_a_pool_wait_is_not_a_statement_timeout(text: str) -> None:
    answer = classify_message(text)
    assert answer.kind == "too_many_connections"
    assert answer.error_type == "resource_error"
    assert answer.action == "retry"
    assert answer.retry_safety == "safe"


def test_a_closed_pool_is_a_lost_connection_that_sent_nothing() -> None:
    answer = classify_message("Error: Cannot use a pool after calling end on the pool")
    assert (answer.kind, answer.action, answer.retry_safety) == (
        "connection_lost",
        "reconnect",
        "safe",
    )
    # A connection lost otherwise keeps its kind's safety: a write may have committed.
    assert classify_message("server closed the connection unexpectedly").retry_safety == (
        "idempotent_only"
    )


def test_a_named_backend_leaves_a_pool_text_to_the_fallback() -> None:
    answer = classify_message("asyncpg.exceptions._base.InterfaceError: pool is closing")
    assert (answer.backend, answer.kind, answer.retry_safety) == (
        "postgresql",
        "connection_lost",
        "safe",
    )


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("canceling statement due to statement timeout", "statement_timeout"),
        ("Query timeout expired", "statement_timeout"),
        ("Lock wait timeout exceeded; try restarting transaction", "lock_not_available"),
        ("connect ETIMEDOUT 10.0.0.1:5432", "connection_failure"),
    ],
)
def test_other_timeouts_keep_their_kinds(text: str, kind: str) -> None:
    assert classify_message(text).kind == kind


def test_the_pool_phrases_come_before_every_keyword_rule() -> None:
    assert keyword_kind("Knex: Timeout acquiring a connection") is POOL_KINDS["acquire_timeout"][0]
    assert keyword_answer("statement timeout") == (keyword_kind("statement timeout"), None)
    index = generic._index()
    pools = [entry for entries in index.values() for entry in entries if entry[0] < 0]
    assert len(pools) == len(PHRASES)


def test_a_text_without_a_pool_word_tests_no_pool_phrase() -> None:
    # Each phrase is filed under its rarest word: a text holding none of those
    # words looks up none of the pools' phrases (the rarest-word gate).
    index = generic._index()
    keys = {word for word, entries in index.items() if any(e[0] < 0 for e in entries)}
    assert "timeout" not in keys
    assert "connection" not in keys
    text = "canceling statement due to statement timeout"
    assert keys.isdisjoint(re.findall(r"[0-9a-z_]+", text))


@pytest.mark.parametrize(
    ("form", "name", "expected"),
    [
        # The head: before a later sentence, a parenthesis, a label=.
        (
            "Knex: Timeout acquiring a connection. The pool is probably full.",
            "KnexTimeoutError",
            "knex timeout acquiring a connection",
        ),
        (
            "{} - Connection is not available, request timed out after {}ms (total={})",
            "",
            "connection is not available request timed out after",
        ),
        (
            "Timeout waiting for idle object, maxWaitDuration={}",
            "",
            "timeout waiting for idle object",
        ),
        ("the pool {} is closed", "", "the pool * is closed"),
        # No words of its own: the name the library prints before it.
        ("{}", "SequelizeConnectionAcquireTimeoutError", "sequelizeconnectionacquiretimeouterror"),
        ("{}", "", None),
    ],
)
def test_a_format_becomes_its_heads_phrase(form: str, name: str, expected: str | None) -> None:
    assert phrase(form, name) == expected


def test_the_extractor_renders_javascript_java_and_python_messages() -> None:
    js = "throw new Error(`pool ${name} is closed`); x = new Error('a ' + b + \"c\")"
    assert list(read_braced(js, "new Error")) == ["pool {} is closed", "a {}c"]
    java = 'throw new X(poolName + " - timed out after " + elapsed(start) + "ms", state);'
    assert list(read_braced(java, "new X")) == ["{} - timed out after {}ms"]
    wrapped = 'new NoSuchElementException(appendStats("Timeout, wait=" + d));'
    assert list(read_braced(wrapped, "new NoSuchElementException")) == ["Timeout, wait={}"]
    python = (
        'raise PoolTimeout(f"couldn\'t get a connection after {t:.2f} sec")\n'
        'raise exc.TimeoutError("limit %d reached, timeout %0.2f" % (a, b), code="x")\n'
    )
    assert list(read_python(python, "PoolTimeout")) == ["couldn't get a connection after {} sec"]
    assert list(read_python(python, "exc.TimeoutError")) == ["limit {} reached, timeout {}"]


@pytest.mark.parametrize(
    "text",
    [
        # Npgsql 5's and 9's own words (src/Npgsql/ConnectorPool.cs,
        # PoolingDataSource.cs): no connection free within Timeout.
        "Npgsql.NpgsqlException (0x80004005): The connection pool has been exhausted, either"
        " raise MaxPoolSize (currently 100) or Timeout (currently 15 seconds)",
        "Npgsql.NpgsqlException (0x80004005): The connection pool has been exhausted, either"
        " raise 'Max Pool Size' (currently 100) or 'Timeout' (currently 15 seconds) in your"
        " connection string.",
    ],
)
def test_npgsqls_exhausted_pool(text: str) -> None:
    answer = classify_message(text)
    assert (answer.kind, answer.is_retryable) == (Kind.TOO_MANY_CONNECTIONS, True)
