"""
`localdata-errors scan` on a large generated log: throughput and peak memory.

    python -m bench.scan [--size-mb 1024] [--dir /tmp] [--error-share 0.02] [--keep]

The log is made of real errors (`tests.real_logs`: failing statements run
through sqlite3 and SQLAlchemy, and through psycopg, psycopg2, PyMySQL and
mysqlclient when the PostgreSQL and MariaDB servers answer, each logged with
its traceback by Python's `logging`; the real `psql` client's multi-line
errors; the text corpus's real error texts as the messages of ERROR lines)
among ordinary log lines, about one in twelve of which is a warning with an
error word in it that is not a database error.  A share `--error-share` of
the records are errors.

The scan runs as `python -m localdata_errors scan --format json` in a child
process, whose peak resident memory (`ru_maxrss`) and CPU time are read by
a wrapper process that runs only it; the same is measured on a log of one
line, so the growth the large log causes is visible.  The file is deleted
afterwards unless `--keep`.

Measured on the development machine (2 cores, shared with other work; Python
3.11): a 1.07 GB log, 13.5 million records of which 267,136 are errors (970
distinct real errors, translated messages among them); 260,992 database
errors found, in 145 groups.  Peak RSS 149.3 MiB (a one-line log: 19.3 MiB;
the difference is the text reader's tables, loaded once by the first line
that needs them: the vendors' wordings, and the index of translated
templates a translated message loads, not growth with the log); 1.5 MB per
second of CPU time (698 s), 809 s of wall-clock time.  (With 545 distinct
errors and no translated one, the log of an earlier corpus read at 6.4 MB
per second in 27.9 MiB.)  A line is read by the text reader (codes in any
language, drivers' prefixes, product names) unless it holds an error word or
opens a record logged below an error level: that reading is most of the time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from tests.real_logs import Event, corpus_events, driver_events, psql_events, write_sized_log

_WRAPPER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump({"status": proc.returncode, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
           "peak_kib": usage.ru_maxrss, "stdout": proc.stdout.decode(),
           "stderr": proc.stderr.decode()[-2000:]}, sys.stdout)
"""


def measure(path: str) -> dict[str, Any]:
    """Scan *path* in a child process; return its status, times, peak memory and summary."""
    command = [sys.executable, "-m", "localdata_errors", "scan", "--format", "json"]
    out = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *command, "--no-progress", path],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    result["summary"] = json.loads(result.pop("stdout")) if result["status"] == 0 else None
    return result


def _servers() -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    import socket

    def up(port: int) -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    pg = {"host": "127.0.0.1", "port": 5432, "user": "postgres", "dbname": "test"}
    my = {"host": "127.0.0.1", "port": 3306, "user": "root", "password": "", "database": "test"}
    return (pg if up(5432) else None), (my if up(3306) else None)


def events() -> list[Event]:
    """Every real error this machine can produce, and the corpus's texts."""
    pg, my = _servers()
    found = driver_events(pg, my)
    if pg is not None:
        found += psql_events(pg)
    return found + corpus_events()


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bench.scan``."""
    parser = argparse.ArgumentParser(prog="python -m bench.scan", description=__doc__)
    parser.add_argument("--size-mb", type=int, default=1024, help="log size in MiB (1024)")
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where to write the log")
    parser.add_argument("--error-share", type=float, default=0.02, help="share of error records")
    parser.add_argument("--keep", action="store_true", help="keep the generated log")
    args = parser.parse_args(argv)
    pool = events()
    path = os.path.join(args.dir, f"bench-scan-{os.getpid()}.log")
    tiny = path + ".tiny"
    try:
        start = time.perf_counter()
        records, errors = write_sized_log(path, args.size_mb << 20, pool, args.error_share)
        size = os.path.getsize(path)
        print(
            f"generated {size / 1e9:.2f} GB in {time.perf_counter() - start:.0f} s: "
            f"{records:,} records, {errors:,} of them errors ({len(pool)} distinct real errors)"
        )
        with open(tiny, "w", encoding="utf-8") as out:
            out.write("2024-05-01 12:00:00,000 INFO app: started\n")
        base = measure(tiny)
        big = measure(path)
        if big["status"] != 0:
            print(f"scan failed: {big['stderr']}", file=sys.stderr)
            return 1
        summary = big["summary"]
        print(
            f"scan: {size / 1e6 / big['wall']:.1f} MB/s wall ({big['wall']:.0f} s), "
            f"{size / 1e6 / big['cpu']:.1f} MB/s of CPU time ({big['cpu']:.0f} s)"
        )
        print(
            f"peak RSS: {big['peak_kib'] / 1024:.1f} MiB "
            f"(a one-line log: {base['peak_kib'] / 1024:.1f} MiB)"
        )
        print(
            f"found: {summary['database_errors']:,} database errors, "
            f"{summary['keyword_errors']:,} by their words alone, "
            f"{summary['other_error_records']:,} other error-like records, "
            f"in {len(summary['groups'])} groups; {summary['lines']:,} lines"
        )
    finally:
        for leftover in (path, tiny):
            if not args.keep and os.path.exists(leftover):
                os.remove(leftover)
    return 0


if __name__ == "__main__":
    sys.exit(main())
