"""
The text reader against the held-out texts, per family, backend and language.

    python -m bench.holdout [--misses] [--format text|json]

The same figures as `python -m bench.text`, on `tests.text_holdout`: real
error texts from public issue threads, Q&A pages and vendor pages that are
not in the text corpus and that the reader was never tuned on.  Each text is
classified with `classify_message(text)`, no `db_type`, and scored by
`tests.text_corpus.score` (category, retry decision, code found, backend
found).  Read the figures, do not tune rules on the misses: a text that
moves into a test stops being held out.
"""

from __future__ import annotations

import argparse
import json

from bench.text import _as_json, _print_text
from tests.text_corpus.score import measure
from tests.text_holdout import load


def main() -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list every text with a wrong part")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    figures = measure(load())
    if args.format == "json":
        print(json.dumps(_as_json(figures, args.misses), indent=2, ensure_ascii=False))
    else:
        _print_text(figures, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
