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

from bench.text import main as text_main
from tests.text_holdout import load


def main() -> int:
    """Print the figures of the held-out set (`bench.text`'s report)."""
    return text_main(load, __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
