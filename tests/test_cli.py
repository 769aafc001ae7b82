"""The command line behaves like the tools people already use."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from localdata_errors._cli import main


def _run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "localdata_errors", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_classify_from_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "no such table: orders", "--db", "sqlite", "--shape", "tool"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "error"
    assert out["error_type"] == "resource_not_found"


def test_classify_json_lines_from_stdin_reports_bad_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "\n".join(
        [
            json.dumps(
                {"message": "Deadlock found when trying to get lock", "db": "mysql", "code": 1213}
            ),
            "{not json",
            json.dumps("permission denied for table orders"),
            json.dumps({"msg": "no message key"}),
            "",
        ]
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    status = main(["classify", "--shape", "jsonrpc", "--tool-name", "run_sql"])
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert status == 1
    # One output line per input line: the answer, or what was wrong with the line.
    assert [r.get("error_code") for r in records] == [
        "DEADLOCK_DETECTED",
        None,
        "INSUFFICIENT_PRIVILEGE",
        None,
    ]
    assert records[1]["line"] == 2
    assert records[1]["input_error"].startswith("not valid JSON")
    assert records[3]["line"] == 4
    assert records[0]["tool_name"] == "run_sql"
    assert "line 2: not valid JSON" in captured.err
    assert "line 4:" in captured.err
    assert "Traceback" not in captured.err


def _here(
    args: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: str = "",
) -> tuple[int, str, str]:
    """`main` in this process, as ``python -m localdata_errors`` runs it: status, stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = main(args)
    except SystemExit as ended:  # argparse's usage errors
        status = ended.code if isinstance(ended.code, int) else 1
    out = capsys.readouterr()
    return status, out.out, out.err


def test_usage_errors_are_one_line_and_nonzero(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two through the command itself, for the status its process ends with and
    # a real, empty standard input; the rest through the same main function.
    bad_shape = _run(["classify", "x", "--shape", "xml"])
    assert bad_shape.returncode == 2
    assert "invalid choice" in bad_shape.stderr
    assert "Traceback" not in bad_shape.stderr
    no_input = _run(["classify"], stdin="")
    assert no_input.returncode == 1
    assert no_input.stderr == (
        "localdata-errors: no error text on standard input (give a message, or pipe one in)\n"
    )
    status, _, err = _here(["classify", "--bogus"], monkeypatch, capsys)
    assert status == 2
    # The subcommand's usage, not the top-level one.
    assert err.startswith("usage: localdata-errors classify ")
    assert err.endswith("classify: error: unrecognized arguments: --bogus\n")
    status, out, err = _here(["classify", "x", "--db", "postgress"], monkeypatch, capsys)
    assert status == 2
    assert "unknown backend 'postgress' (known: generic, " in err
    known = err.partition("(known: ")[2].partition(")")[0].split(", ")
    assert {"duckdb", "mssql", "mysql", "oracle", "postgresql", "sqlite"} <= set(known)
    assert out == ""
    status, _, err = _here(
        ["classify"], monkeypatch, capsys, stdin='{"message": "x", "db": "nodb"}\n'
    )
    assert status == 1
    assert "line 1: unknown backend 'nodb'" in err
    assert _here(["classify", "x", "--db", "PostgreSQL+psycopg"], monkeypatch, capsys)[0] == 0
    assert _here(["classify", "x", "--db", "generic"], monkeypatch, capsys)[0] == 0
    for url, words in [
        ("nosuch://x", "knows no dialect or driver 'nosuch'"),
        ("not a url", "not a database URL"),
        ("mysql+nodriver://u:hunter22@h/db", "knows no dialect or driver"),
    ]:
        status, _, err = _here(["serve", "--url", url], monkeypatch, capsys)
        assert status == 2, err
        assert words in err
        assert "hunter22" not in err
    status, _, err = _here(["serve", "--max-rows", "-3"], monkeypatch, capsys)
    assert status == 2
    assert "must be positive" in err


def test_version() -> None:
    out = _run(["--version"])
    assert out.returncode == 0
    assert out.stdout.startswith("localdata-errors ")


def test_backends_lists_builtin_backends_with_their_distribution() -> None:
    out = _run(["backends", "--format", "json"])
    assert out.returncode == 0, out.stderr
    rows = {r["name"]: r for r in map(json.loads, out.stdout.splitlines())}
    assert "sqlite" in rows
    assert rows["sqlite"]["distribution"] == "localdata-errors"
    assert rows["sqlite"]["source"] == "built-in"
    text = _run(["backends"])
    assert text.stdout.splitlines()[0].split() == ["NAME", "ALIASES", "DRIVERS", "FROM"]


def test_demo_shows_real_errors_beside_their_answers() -> None:
    out = _run(["demo", "--format", "json"])
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    kinds = {r["kind"] for r in records if r["engine"] == "SQLite"}
    assert {
        "undefined_table",
        "syntax_error",
        "unique_violation",
        "foreign_key_violation",
        "database_locked",
        "read_only",
    } <= kinds
    locked = next(r for r in records if r["kind"] == "database_locked")
    assert locked["is_retryable"] is True
    text = _run(["demo", "--no-color"])
    assert text.returncode == 0
    assert "no such table: orders" in text.stdout
    assert "\x1b[" not in text.stdout


def test_broken_pipe_is_quiet() -> None:
    proc = subprocess.run(
        f"{sys.executable} -m localdata_errors demo | head -n 1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in proc.stderr


def test_an_unwritable_output_is_one_line_and_nonzero() -> None:
    with open("/dev/full", "w") as full:
        out = subprocess.run(
            [sys.executable, "-m", "localdata_errors", "classify", "no such table: t"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert out.returncode == 1
    assert out.stderr == "localdata-errors: cannot write the output: No space left on device\n"


def test_plain_text_on_stdin_is_one_message() -> None:
    pasted = (
        'ERROR:  42P01: relation "orders" does not exist\n'
        "LINE 1: SELECT * FROM orders\n"
        "                      ^\n"
    )
    out = _run(["classify", "--shape", "tool"], stdin=pasted)
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == 1
    assert (records[0]["error_code"], records[0]["kind"]) == ("42P01", "undefined_table")
    assert records[0]["affected_resources"] == ["orders"]


def test_backends_fits_a_100_column_terminal() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "localdata_errors", "backends"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["NAME", "ALIASES", "DRIVERS", "FROM"]
    assert max(len(line) for line in lines) <= 100
    names = {line.split()[0] for line in lines[1:] if line[:1].strip()}
    assert {"duckdb", "mssql", "mysql", "oracle", "postgresql", "sqlite"} <= names


def _sqlite_error(sql: str) -> str:
    import sqlite3

    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(sql)
    except sqlite3.Error as exc:
        return str(exc)
    finally:
        conn.close()
    raise AssertionError(f"{sql!r} did not fail")


def _fields(text: str) -> dict[str, str]:
    """The text form's labelled lines: label -> value."""
    return {line[:12].strip(): line[13:] for line in text.splitlines() if line[:1].strip()}


def test_classify_prints_the_readable_form_by_default() -> None:
    message = _sqlite_error("SELECT * FROM orders")
    out = _run(["classify", message, "--db", "sqlite"])
    assert out.returncode == 0, out.stderr
    fields = _fields(out.stdout)
    assert fields["message"] == "no such table: orders"
    assert fields["backend"] == "sqlite"
    # SQLite's "no such table" is a missing table: fix the statement, no retry.
    assert fields["kind"] == "undefined_table (schema_error), retry: no"
    assert fields["next step"] == "fix_query"
    assert fields["involves"] == "orders"
    assert "\x1b[" not in out.stdout  # not a terminal: no colour


def test_classify_json_is_asked_for_by_format_or_by_a_json_option() -> None:
    message = _sqlite_error("SELECT * FROM orders")
    as_json = _run(["classify", message, "--db", "sqlite", "--format", "json"])
    assert json.loads(as_json.stdout)["kind"] == "undefined_table"
    tool = _run(["classify", message, "--db", "sqlite", "--shape", "tool"])
    assert json.loads(tool.stdout)["error_type"] == "resource_not_found"
    both = _run(["classify", message, "--format", "text", "--shape", "tool"])
    assert both.returncode == 2
    assert both.stderr.endswith("classify: error: --shape applies to --format json\n")


def test_classify_help_says_what_db_does() -> None:
    out = _run(["classify", "--help"])
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    assert "default: generic" not in text
    assert "when omitted, the backend the text's own form names" in text
    assert "'generic' asks for the keyword fallback" in text


def test_classify_answers_each_json_line_as_it_arrives() -> None:
    # Another program keeps the command running and asks one question at a
    # time: each answer must come before the next question is written.
    proc = subprocess.Popen(
        [sys.executable, "-m", "localdata_errors", "classify", "--format", "json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        questions = [
            {"message": "Deadlock found when trying to get lock", "db": "mysql", "code": 1213},
            {"message": "x", "db": "nodb"},  # a bad question still gets its one line
            {"message": _sqlite_error("SELECT * FROM orders"), "db": "sqlite"},
        ]
        answers = []
        for question in questions:
            proc.stdin.write(json.dumps(question) + "\n")
            proc.stdin.flush()
            answers.append(json.loads(proc.stdout.readline()))
        assert answers[0]["kind"] == "deadlock_detected"
        assert answers[1]["input_error"].startswith("unknown backend 'nodb'")
        assert answers[2]["kind"] == "undefined_table"
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=60) == 1  # one line could not be answered
        proc.stdout.close()
        assert proc.stderr is not None
        proc.stderr.close()


def test_backends_print_the_package_version_of_the_built_in_backends() -> None:
    from localdata_errors import __version__

    out = _run(["backends", "--format", "json"])
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    built_in = [r for r in rows if r["source"] == "built-in"]
    assert {r["name"] for r in built_in} >= {"sqlite", "postgresql", "mysql"}
    assert {r["version"] for r in built_in} == {__version__}
    text = _run(["backends"])
    assert "None" not in text.stdout
