"""
`localdata-errors scan`: the database errors of real logs, counted, dated and explained.

The logs are real: failing statements run through the drivers and logged by
Python's `logging` with their tracebacks (`tests.real_logs`), the `psql`
client's own output, and the text corpus's real error texts inside log lines.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import pty
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from localdata_errors import Kind, classify_message
from localdata_errors._cli import main
from localdata_errors._logread import LINE_LIMIT, read_records
from localdata_errors._scan import Progress, classify_record
from tests.real_logs import Event, driver_events, psql_events, write_log


def _scan(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own (standard input, exit status, stderr as is)."""
    return subprocess.run(
        [sys.executable, "-m", "localdata_errors", "scan", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command in this process: (status, stdout, stderr)."""
    try:
        status = main(["scan", *args])
    except SystemExit as exc:  # argparse's usage errors
        status = int(exc.code or 0)
    out = capsys.readouterr()
    return status, out.out, out.err


def _summary(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    status, out, err = _main(capsys, "--format", "json", *args)
    assert status == 0, err
    summary: dict[str, Any] = json.loads(out)
    return summary


def _line_of(path: Path, marker: str) -> tuple[int, str | None]:
    """The line number of the line holding *marker*, and its leading timestamp."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if marker in line:
            stamp = line[:23] if line[:4].isdigit() else None
            return number, stamp
    raise AssertionError(f"{marker!r} not in {path}")


def _check_log(
    capsys: pytest.CaptureFixture[str], path: Path, events: list[Event]
) -> dict[str, Any]:
    """Scan *path*; every event is found once, in its group, where it was written."""
    summary = _summary(capsys, str(path))
    found = {(g["backend"], g["kind"]): g for g in summary["groups"]}
    expected = Counter((e.backend, e.kind.value) for e in events)
    assert {key: g["count"] for key, g in found.items()} == dict(expected)
    assert summary["database_errors"] == len(events)
    for key in expected:
        mine = [e for e in events if (e.backend, e.kind.value) == key]
        first, last = _line_of(path, mine[0].marker), _line_of(path, mine[-1].marker)
        group = found[key]
        assert (group["first_seen"]["line"], group["first_seen"]["timestamp"]) == first
        assert (group["last_seen"]["line"], group["last_seen"]["timestamp"]) == last
        codes = Counter(e.code for e in mine if e.code is not None)
        assert Counter(group["codes"]) == codes, key
    return summary


def test_sqlite_errors_logged_with_their_tracebacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = driver_events()
    path = tmp_path / "app.log"
    write_log(str(path), events)
    summary = _check_log(capsys, path, events)
    groups = {g["kind"]: g for g in summary["groups"]}
    # SQLite's "database is locked": another connection holds the lock; wait and retry.
    assert groups["database_locked"]["action"] == "retry"
    assert groups["undefined_table"]["names"] == {"orders": 2}
    assert groups["undefined_table"]["examples"] == ["no such table: orders"]
    # Only the errors: the ordinary lines around them are not error records.
    assert summary["other_error_records"] == 0
    assert summary["lines"] == len(path.read_text().splitlines())


def test_server_errors_logged_with_their_tracebacks(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    pg_server: dict[str, object],
    mysql_server: dict[str, object],
) -> None:
    events = [e for e in driver_events(pg_server, mysql_server) if e.backend != "sqlite"]
    assert {e.backend for e in events} == {"postgresql", "mysql"}
    path = tmp_path / "app.log"
    write_log(str(path), events)
    summary = _check_log(capsys, path, events)
    groups = {(g["backend"], g["kind"]): g for g in summary["groups"]}
    # A foreign key violation names the parent table that must change first.
    assert "customers" in groups["postgresql", "foreign_key_violation"]["names"]


def test_psql_errors_spanning_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pg_server: dict[str, object]
) -> None:
    events = psql_events(pg_server)
    if not events:
        pytest.skip("needs the psql client: apt-get install postgresql-client")
    path = tmp_path / "psql.log"
    path.write_text("".join(e.text for e in events))
    assert any("DETAIL:" in e.text for e in events)
    assert any("HINT:" in e.text for e in events)
    summary = _summary(capsys, str(path))
    found = {(g["backend"], g["kind"]): g["count"] for g in summary["groups"]}
    assert found == dict(Counter((e.backend, e.kind.value) for e in events))
    groups = {g["kind"]: g for g in summary["groups"]}
    # psql writes no timestamps; the lines are psql's own.
    first = groups["undefined_table"]["first_seen"]
    assert first == {"file": str(path), "line": 1, "timestamp": None}
    # The verbose form prints it; the other's wording is 42P01's in PostgreSQL's source.
    assert groups["undefined_table"]["codes"] == {"42P01": 2}
    assert groups["foreign_key_violation"]["codes"] == {"23503": 1}
    # The DETAIL line belongs to its error: the referenced table is named.
    assert "p" in groups["foreign_key_violation"]["names"]


def test_a_java_stack_trace_is_read_from_its_root_cause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A Spring Boot log (logback's default layout): the root cause is the last
    # "Caused by:", under frames and "... N more" lines.
    log = (
        "2024-05-01 12:00:00.123  INFO 4242 --- [main] c.e.shop.ShopApplication : Started\n"
        "2024-05-01 12:00:01.456 ERROR 4242 --- [nio-8080-exec-1]"
        " o.a.c.c.C.[.[.[/].[dispatcherServlet] : Servlet.service() threw exception\n"
        "org.springframework.jdbc.BadSqlGrammarException: StatementCallback; bad SQL grammar"
        " [SELECT * FROM orders]\n"
        "\tat org.springframework.jdbc.support.SQLStateSQLExceptionTranslator.doTranslate"
        "(SQLStateSQLExceptionTranslator.java:101)\n"
        "\tat org.springframework.jdbc.core.JdbcTemplate.execute(JdbcTemplate.java:425)\n"
        'Caused by: org.postgresql.util.PSQLException: ERROR: relation "orders" does not exist\n'
        "  Position: 15\n"
        "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse"
        "(QueryExecutorImpl.java:2676)\n"
        "\t... 52 common frames omitted\n"
        "2024-05-01 12:00:02.000  INFO 4242 --- [main] c.e.shop.ShopApplication : next\n"
    )
    path = tmp_path / "spring.log"
    path.write_text(log)
    summary = _summary(capsys, str(path))
    assert summary["database_errors"] == 1
    (group,) = summary["groups"]
    # PostgreSQL's 42P01: the table does not exist.
    assert (group["backend"], group["kind"]) == ("postgresql", "undefined_table")
    assert group["names"] == {"orders": 1}
    assert group["first_seen"] == {
        "file": str(path),
        "line": 2,
        "timestamp": "2024-05-01 12:00:01.456",
    }


_FRAMINGS = (
    "2024-05-01 12:00:01,002 ERROR app.db: ",
    "2024-05-01T12:00:01.002Z [main] ERROR c.e.Repo - ",
    "[2024-05-01 12:00:01] production.ERROR: ",
    "",
)


def test_an_error_text_in_a_log_line_gives_the_texts_own_answer() -> None:
    # Whatever a log puts before it, a real error text gives the answer the
    # text alone gives: the same backend and code (and the log may say more).
    from tests.text_corpus import load

    checked = 0
    for case in load():
        if case.language != "en":
            continue  # a log line is kept for its error words, which are English ones
        alone = classify_message(case.text)
        if alone.database_error_code is None and (
            alone.backend == "generic" or alone.kind is Kind.UNKNOWN
        ):
            continue  # nothing a summary could act on: scan leaves such lines out
        if case.backend is not None and alone.backend != case.backend:
            continue  # the text alone is read wrong (bench.text counts it): nothing to keep
        if len(list(read_records(io.BytesIO(case.text.encode())))) > 1:
            continue  # a pasted log of its own, a record per line (duckdb-010)
        for framing in _FRAMINGS:
            log = f"2024-05-01 12:00:00,001 INFO app: ok\n{framing}{case.text}\n"
            records = list(read_records(io.BytesIO(log.encode())))
            answers = [classify_record(r, None) for r in records]
            got = [(a.backend, a.kind, a.database_error_code) for a in answers if a is not None]
            assert len(got) == 1, (case.id, framing, got)
            backend, kind, code = got[0]
            # The same backend and kind; the code the text carries (a log may
            # give one the text alone did not: the psql form after its prefix).
            assert (backend, kind) == (alone.backend, alone.kind), (case.id, framing)
            assert alone.database_error_code in (None, code), (case.id, framing)
            checked += 1
    assert checked > 400


def test_the_errors_as_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = driver_events()
    path = tmp_path / "app.log"
    write_log(str(path), events)
    status, out, err = _main(capsys, "--format", "jsonl", str(path))
    assert status == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in rows] == [_line_of(path, e.marker)[0] for e in events]
    assert [r["kind"] for r in rows] == [e.kind.value for e in events]
    assert all(r["file"] == str(path) and r["timestamp"] for r in rows)
    assert all(r["error"] is True and r["backend"] == "sqlite" for r in rows)


def test_the_text_summary_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = driver_events()
    path = tmp_path / "app.log"
    write_log(str(path), events)
    status, out, err = _main(capsys, str(path))
    assert status == 0, err
    assert out.startswith(f"Scanned {path}: ")
    assert f"; {len(events)} database errors." in out.splitlines()[0]
    block = out.split("\n\n")[1].splitlines()
    assert block[0].split()[:3] == ["sqlite", "undefined_table", "2"]
    assert block[1].split()[:4] == ["what", "to", "do", "fix_query:"]
    assert "\x1b[" not in out


def test_compressed_logs_and_standard_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = driver_events()
    plain = tmp_path / "app.log"
    write_log(str(plain), events)
    packed = tmp_path / "app.log.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    expected = _summary(capsys, str(plain))["groups"]
    for group in expected:
        for seen in ("first_seen", "last_seen"):
            group[seen]["file"] = str(packed)
    assert _summary(capsys, str(packed))["groups"] == expected
    piped = _scan("--format", "json", "-", stdin=plain.read_text())
    assert piped.returncode == 0
    assert json.loads(piped.stdout)["database_errors"] == len(events)
    # Nothing named and something piped: standard input.
    assert (
        json.loads(_scan("--format", "json", stdin=plain.read_text()).stdout)["files"][0]["name"]
        == "<stdin>"
    )


def test_db_names_the_backend_of_bare_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "app.log"
    path.write_text(
        "2024-05-01 12:00:00,000 ERROR app: no such table: orders\n"
        "2024-05-01 12:00:01,000 ERROR app: database is locked\n"
    )
    # SQLite's own wording ("no such table", "database is locked") names it.
    bare = _summary(capsys, str(path))
    assert {g["backend"] for g in bare["groups"]} == {"sqlite"}
    assert bare["database_errors"] == 2
    assert bare["keyword_errors"] == 0
    told = _summary(capsys, "--db", "sqlite", str(path))
    kinds = {(g["backend"], g["kind"]) for g in told["groups"]}
    assert kinds == {("sqlite", "undefined_table"), ("sqlite", "database_locked")}


def test_command_line_conventions(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    write_log(str(path), driver_events())
    missing = tmp_path / "nosuch.log"
    out = _scan(str(missing), str(path))
    # One line for the file it could not read, the others still scanned: status 1.
    assert out.returncode == 1
    assert out.stderr == (
        f"localdata-errors: scan: cannot read {missing}: No such file or directory\n"
    )
    assert out.stdout.startswith(f"Scanned {path}: ")
    for bad in (["--format", "xml", str(path)], ["--pretty", str(path)], ["--db", "nodb", "x"]):
        usage = _scan(*bad)
        assert usage.returncode == 2, bad
        assert usage.stderr.startswith("usage: localdata-errors scan "), bad
        assert "Traceback" not in usage.stderr
    helped = _scan("--help")
    text = " ".join(helped.stdout.split())
    assert "- (or nothing, when piped) for standard input" in text
    assert ".gz files" in text
    assert "Exit status 0 when the logs were read, whatever was found in them" in text
    assert "jsonl: each error as a JSON line" in text


def test_a_password_in_a_logged_error_never_reaches_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "app.log"
    path.write_text(
        "2024-05-01 12:00:00,000 ERROR app.db: psycopg2.OperationalError: could not connect"
        " to postgresql://shop:Hunter2Secret@10.0.0.5:5432/shop: Connection refused\n"
        "2024-05-01 12:00:01,000 ERROR app.db: sqlalchemy.exc.OperationalError:"
        " (pymysql.err.OperationalError) (1045, \"Access denied for user 'shop'@'10.0.0.9'"
        ' (using password: YES)") mysql+pymysql://shop:Hunter2Secret@db/shop\n'
    )
    for fmt in ("text", "json", "jsonl"):
        status, out, err = _main(capsys, "--format", fmt, str(path))
        assert status == 0
        assert "Hunter2Secret" not in out + err, fmt
    assert _summary(capsys, str(path))["database_errors"] == 2


def test_overlong_lines_and_endless_tracebacks_stay_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hostile.log"
    frames = "".join(f'  File "/app/x{i}.py", line {i}, in f\n    f()\n' for i in range(50_000))
    path.write_text(
        "2024-05-01 12:00:00,000 INFO app: " + "x" * (3 * LINE_LIMIT) + "\n"
        "2024-05-01 12:00:01,000 ERROR app: request failed\n"
        "Traceback (most recent call last):\n"
        + frames
        + "sqlite3.OperationalError: no such table: orders\n"
        "2024-05-01 12:00:02,000 ERROR app: no end of line: " + "y" * (2 * LINE_LIMIT)
    )
    summary = _summary(capsys, str(path))
    (group,) = [g for g in summary["groups"] if g["backend"] != "generic"]
    # The exception at the end of a 100,000-line traceback is still read.
    assert (group["backend"], group["kind"], group["first_seen"]["line"]) == (
        "sqlite",
        "undefined_table",
        2,
    )
    assert summary["lines"] == 3 + 100_000 + 1 + 1
    records = list(read_records(io.BytesIO(path.read_bytes())))
    assert max(len(r.first) + len(r.rest) for r in records) <= LINE_LIMIT + 16 * 1024 + 64


_PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _peak_kib(path: Path) -> int:
    # A wrapper process runs only the scan: its children's peak is the scan's.
    command = [sys.executable, "-m", "localdata_errors", "scan", "--format", "json", str(path)]
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, *command],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return int(out.stdout)


def test_memory_stays_bounded_however_large_the_log(tmp_path: Path) -> None:
    # The same kinds of content, once small and once many times over, with
    # what could make a careless scanner grow: distinct names in every error,
    # a line of megabytes without an end, a traceback of 200,000 lines.
    block = "".join(
        f"2024-05-01 12:00:{i % 60:02},000 INFO app.web: GET /orders/{i} 200 in 12 ms\n"
        * 9
        + f"2024-05-01 12:00:{i % 60:02},500 ERROR app.db: sqlite3.OperationalError:"
        f" no such table: t_{i}\n"
        for i in range(1_000)
    )
    small, large = tmp_path / "small.log", tmp_path / "large.log"
    small.write_text(block)
    with large.open("w") as out:
        for i in range(12):
            out.write(block.replace("no such table: t_", f"no such table: t{i}_"))
        out.write("2024-05-01 12:00:00,000 ERROR app: Traceback follows\n")
        out.write("Traceback (most recent call last):\n")
        out.write('  File "/app/x.py", line 1, in f\n    f()\n' * 100_000)
        out.write("sqlite3.OperationalError: database is locked\n")
        out.write("2024-05-01 12:00:00,000 INFO app: " + "z" * (24 << 20))
    assert large.stat().st_size > 40 * small.stat().st_size
    grown = _peak_kib(large) - _peak_kib(small)
    assert grown < 16 * 1024, f"the scan grew by {grown} KiB on a larger log"


def test_the_progress_bar_shows_on_a_terminal_only(tmp_path: Path) -> None:
    shown = io.StringIO()
    bar = Progress(shown, "app.log", 200_000_000)
    bar.errors = 12
    bar(1000, 50_000_000)
    bar.close()
    assert "app.log  [#####               ]  25%  50/200 MB" in shown.getvalue()
    assert "12 errors" in shown.getvalue()
    assert shown.getvalue().endswith("\r\x1b[K")
    path = tmp_path / "big.log"
    path.write_text("2024-05-01 12:00:00,000 INFO app: GET / 200\n" * 300_000)
    assert path.stat().st_size >= 8 << 20
    # Not a terminal: nothing on standard error.
    assert _scan("--format", "json", str(path)).stderr == ""
    # A terminal: the bar, then the line cleared.
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "localdata_errors", "scan", "--format", "json", str(path)],
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=300,
            check=True,
        )
        os.close(follower)
        follower = -1
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
        if follower != -1:
            os.close(follower)
    assert json.loads(proc.stdout)["lines"] == 300_000
    assert seen.endswith(b"\r\x1b[K")
    assert b"big.log" in seen
    assert b"MB/s" in seen
