"""
Cost of one ``record()`` + ``summary()`` on a full five-entry execution history.

    python -m bench.bench_history [--loops N]

Each figure is the median, over five repeats, of the mean cost of one
record-and-render step, in microseconds.  Statements are distinct on every
call (no parse cache helps: each is a first parse) unless the row says
"repeated".  Failures are real SQLite exceptions, classified on every call.
Statements are masked (sqlglot's tokenizer) before they are parsed (sqlglot's
parser); structured calls are neither.
"""

from __future__ import annotations

import argparse
import itertools
import sqlite3
import statistics
import time
from collections.abc import Callable

from localdata_errors.history import Condition, ExecutionHistory, StructuredCall


def per_call_us(step: Callable[[int], object], loops: int, repeats: int = 5) -> float:
    """The median over *repeats* of the mean time of one *step*, in microseconds."""
    counter = itertools.count()
    for _ in range(min(50, loops)):
        step(next(counter))  # warm: registry discovery, lazy tables, imports
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for _ in range(loops):
            step(next(counter))
        samples.append((time.perf_counter_ns() - start) / loops / 1000)
    return statistics.median(samples)


def _fk_error() -> sqlite3.Error:
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.executescript(
        "CREATE TABLE customers (id INTEGER PRIMARY KEY);"
        "CREATE TABLE sales (id INTEGER, c INTEGER REFERENCES customers(id));"
        "INSERT INTO customers VALUES (1); INSERT INTO sales VALUES (1, 1);"
    )
    try:
        conn.execute("DROP TABLE customers")
    except sqlite3.Error as exc:
        return exc
    raise RuntimeError("the foreign key did not block the DROP")


def _adversarial_rows(known: ExecutionHistory) -> list[tuple[str, Callable[[int], object], int]]:
    """Statements of 100,000 characters, in *known*'s dialect and in none."""
    # The cost is that of the head the history reads (16 KiB), whatever follows it.
    adversarial = {
        "quotes": "'" * 100_000,
        "comments": "/*" * 50_000,
        "nested parentheses": "(" * 50_000 + ")" * 50_000,
        "backslashes": "\\" * 100_000,
    }
    unknown = ExecutionHistory(max_entries=5)  # no dialect: every known one reads it

    def record(history: ExecutionHistory, text: str) -> Callable[[int], str]:
        def step(i: int) -> str:
            history.record("execute_sql", {"sql": f"SELECT {i}, {text}"}, result=1)
            return history.summary()

        return step

    rows: list[tuple[str, Callable[[int], object], int]] = []
    for name, text in adversarial.items():
        rows.append((f"100,000 chars of {name}, SQLite", record(known, text), 5))
    for name, text in adversarial.items():
        rows.append((f"100,000 chars of {name}, no dialect", record(unknown, text), 3))
    return rows


def main() -> int:
    """Print the cost table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--loops", type=int, default=2000)
    args = parser.parse_args()
    error = _fk_error()

    def history() -> ExecutionHistory:
        h = ExecutionHistory(max_entries=5)
        for i in range(5):
            h.record("execute_sql", {"sql": f"DROP TABLE warmup_{i}"}, error=error)
        return h

    success = history()
    failure = history()
    mixed = history()
    glot = history()
    glot_repeat = history()
    insert = history()
    calls = history()
    long_sql = history()
    long_args = history()
    values = ", ".join(f"({i}, 'name-{i}')" for i in range(5000))  # about 100 KB
    blob = "x" * 1_000_000

    def record_success(i: int) -> str:
        success.record("execute_sql", {"sql": f"DROP TABLE sales_{i}"}, result={"rowcount": 0})
        return success.summary()

    def record_failure(i: int) -> str:
        failure.record("execute_sql", {"sql": f"DROP TABLE customers_{i}"}, error=error)
        return failure.summary()

    def drop_scenario(i: int) -> str:
        # fail, fail, succeed (which unblocks both), as in the documented example
        if i % 3 == 2:
            mixed.record("execute_sql", {"sql": f"DROP TABLE sales_{i}"}, result={"rowcount": 0})
        else:
            mixed.record("execute_sql", {"sql": f"DROP TABLE customers_{i}"}, error=error)
        return mixed.summary()

    def record_sqlglot(i: int) -> str:
        sql = f"WITH d AS (DELETE FROM t_{i} RETURNING *) SELECT * FROM d"
        glot.record("execute_sql", {"sql": sql}, result={"rowcount": 1})
        return glot.summary()

    def record_sqlglot_repeated(i: int) -> str:
        sql = f"WITH d AS (DELETE FROM t_{i % 50} RETURNING *) SELECT * FROM d"
        glot_repeat.record("execute_sql", {"sql": sql}, result={"rowcount": 1})
        return glot_repeat.summary()

    def record_insert(i: int) -> str:
        insert.record("execute_sql", {"sql": f"INSERT INTO orders_{i} VALUES (1)"}, result=1)
        return insert.summary()

    def record_call(i: int) -> str:
        call = StructuredCall(f"customers_{i}", "deleted", (Condition("id"),))
        calls.record("delete_rows", call, result={"affectedRows": 1})
        return calls.summary()

    def record_long_statement(i: int) -> str:
        long_sql.record("execute_sql", {"sql": f"INSERT INTO t_{i} VALUES {values}"}, result=1)
        return long_sql.summary()

    def record_long_argument(i: int) -> str:
        long_args.record("import_file", {"name": f"f{i}", "content": blob}, result=1)
        return long_args.summary()

    rows: list[tuple[str, Callable[[int], object], int]] = [
        ("success, DROP TABLE, distinct", record_success, max(args.loops // 10, 50)),
        ("failure, real SQLite FK error, distinct", record_failure, max(args.loops // 10, 50)),
        ("drop scenario: fail, fail, succeed", drop_scenario, max(args.loops // 10, 50)),
        ("structured call, delete_rows with a filter", record_call, args.loops),
        ("success, INSERT, distinct", record_insert, max(args.loops // 10, 50)),
        ("success, CTE DELETE, sqlglot, distinct", record_sqlglot, max(args.loops // 10, 50)),
        ("success, CTE DELETE, sqlglot, repeated", record_sqlglot_repeated, args.loops),
        ("INSERT of 100 KB, distinct (cut, masked)", record_long_statement, 20),
        ("other tool, a 1 MB argument", record_long_argument, max(args.loops // 10, 50)),
        ("summary() alone, unchanged history", lambda _i: mixed.summary(), args.loops),
        *_adversarial_rows(long_sql),
    ]
    print(f"{'record() + summary(), 5 entries':<46} {'median µs':>10}")
    for label, step, loops in rows:
        print(f"{label:<46} {per_call_us(step, loops):>10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
