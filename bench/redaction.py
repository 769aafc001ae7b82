"""
What redaction costs, per KiB, on ordinary driver messages and on adversarial text.

    python -m bench.redaction [--backend NAME ...] [--loops N]

Three tables:

- **ordinary messages**: the real-error corpus (every backend whose corpus can
  be produced here), each driver message redacted on its own (median µs per
  call, and per KiB), and all of them joined into one 8 KiB text (µs per KiB:
  the scanning rate, with the per-call overhead spread out);
- **adversarial text**: 8 KiB and 64 KiB of punctuation, credential key words,
  quotes, escapes, near-misses and very long tokens, each redacted whole
  (µs per KiB at both sizes; their ratio is 1.0 for linear cost);
- **with secrets**: the ordinary text with ten caller-named secrets.

Redaction runs after the text is cut to its output bound (8 KiB for a
classification's message), so the 64 KiB column is there to show linearity,
not a size that occurs.  The target is at most 2 µs per KiB on any input.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from bench._corpora import BACKENDS, load
from localdata_errors import may_hold_secret, redact
from localdata_errors._classify import safe_text

KIB = 1024
TARGET_US_PER_KIB = 2.0

#: Each unit is repeated to the size measured.
ADVERSARIAL = {
    "equals": "=",
    "quotes": "'",
    "backslashes": "\\",
    "colons": ":",
    "at signs": "@",
    "punctuation": "=':\\@\"{}();,&/$-",
    "password=": "password=",
    "password='": "password='",
    "password= spaced": "password= ",
    "PASSWORD '' ": "PASSWORD '' ",
    "IDENTIFIED BY ": "IDENTIFIED BY ",
    "identified near-miss": "identifie ",
    "key words": "password secret token api_key private_key pwd sig ",
    "key words =": "password=x secret=y token=z pwd=w ",
    "Key (k)=(v) ": "Key (k)=(v) ",
    "near ''": "near ''",
    "near \"'": "near \"'",
    "url ://u:": "://u:",
    "url ://u:p@": "x://u:p@",
    "oracle a/b@": "a/b@",
    "PEM header": "-----BEGIN PRIVATE KEY-----",
    "dashes": "-",
    "Bearer ": "Bearer ",
    "AKIA": "AKIA",
    "dollars": "$",
    "braces {": "PWD={",
    "long-s password": "pa\u017f\u017fword ",
    "long token": "a",
    "long value": "password=" + "a" * 4000,
    # Aimed at the scan of long texts, one pattern per key word (redact.LONG_TEXT):
    # each key word's near-misses, with the connector that opens its family,
    "key words, one =": "password secret token api_key private_key pwd sig sig = x ",
    "password x": "password x ",
    "password for x": "password for x ",
    "passx =": "passx = ",
    "token: x": "token: x ",
    "api_key (": "api_key (",
    "IDENTIFIED WITH x x": "IDENTIFIED WITH x x ",
    "near x'": "near x'",
    "begin -": "begin -",
    # cloud keys inside and between runs of letters,
    "AKIA spaced": "AKIA ",
    "ASIA": "ASIA",
    "AIza": "AIza",
    # a cut excerpt whose quote is missing, or behind a line break,
    "LINE 1: ...x": "LINE 1: ...x",
    "LINE 1: ... then quote": "LINE 1: ...LINE 1: ...LINE 1: ...LINE 1: ...\n'",
    # places that are read backwards or one per line,
    "@ after long token": "x" * 300 + "@",
    "Bearer per line": "Bearer\n",
    # and a driver's words with every family open.
    "ordinary, all open": (
        'relation "users" does not exist; password authentication failed for user "app"; '
        "Key (id)=(1) "
    ),
}


def per_call_us(fn: Callable[[], object], loops: int, repeats: int = 7) -> float:
    """The median over *repeats* of the mean time of one call, in microseconds."""
    fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for _ in range(loops):
            fn()
        samples.append((time.perf_counter_ns() - start) / loops / 1000)
    return statistics.median(samples)


def _sized(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _messages(backends: tuple[str, ...]) -> list[str]:
    messages: list[str] = []
    for backend, cases in load(backends):
        if isinstance(cases, str):
            print(f"  {backend}: left out: {cases}")
            continue
        messages += [safe_text(case.exception) for case in cases]
    return messages


def main() -> int:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--loops", type=int, default=200)
    args = parser.parse_args()

    print("ordinary driver messages (the real-error corpus)")
    messages = _messages(tuple(args.backend or BACKENDS))
    if messages:
        per_call = [per_call_us(partial(redact, m), args.loops) for m in messages]
        per_kib = [us * KIB / max(len(m), 1) for us, m in zip(per_call, messages, strict=True)]
        flagged = sum(may_hold_secret(m) for m in messages)
        sizes = sorted(len(m) for m in messages)
        print(
            f"  {len(messages)} messages, median {sizes[len(sizes) // 2]} characters; "
            f"{flagged} may hold a secret (the rest take the fast path)"
        )
        print(f"  redact, one message:  median {statistics.median(per_call):6.2f} µs per call")
        print(f"                        median {statistics.median(per_kib):6.2f} µs per KiB")
        screen = [per_call_us(partial(may_hold_secret, m), args.loops) for m in messages]
        print(f"  may_hold_secret:      median {statistics.median(screen):6.2f} µs per call")
        joined = _sized("\n".join(messages), 8 * KIB)
        us = per_call_us(partial(redact, joined), max(args.loops // 10, 5))
        print(f"  redact, 8 KiB joined: {us / 8:6.2f} µs per KiB")
        secrets = [m.split()[-1] for m in messages[:10] if len(m.split()[-1]) >= 3]
        us = per_call_us(partial(redact, joined, secrets), max(args.loops // 10, 5))
        print(f"  same, {len(secrets)} secrets:     {us / 8:6.2f} µs per KiB")

    print()
    print(f"adversarial text, µs per KiB (target ≤ {TARGET_US_PER_KIB:g})")
    print(f"  {'input':<24} {'8 KiB':>8} {'64 KiB':>8} {'ratio':>6}")
    worst = 0.0
    for name, unit in ADVERSARIAL.items():
        small, large = _sized(unit, 8 * KIB), _sized(unit, 64 * KIB)
        t_small = per_call_us(partial(redact, small), 20, repeats=5) / 8
        t_large = per_call_us(partial(redact, large), 3, repeats=5) / 64
        worst = max(worst, t_small, t_large)
        print(f"  {name:<24} {t_small:>8.2f} {t_large:>8.2f} {t_large / t_small:>6.2f}")
    print(f"  worst: {worst:.2f} µs per KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
