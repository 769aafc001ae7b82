"""
Held-out error texts: real texts nobody on the project wrote or tuned on.

The same format, labels and vocabulary as `tests.text_corpus` (read its
docstring for the fields), one `<backend>.jsonl` file per backend and
`nobackend.jsonl` for texts with no sign of theirs.  Every text here was
copied from a public issue thread, Q&A page or vendor page (`source`) and
labelled from the vendor's documentation of its code or message (`doc`),
never from this library's answer.  No text here is also in
`tests/text_corpus`: compared after lower-casing and collapsing whitespace, a
held-out text is neither a corpus text, nor a fragment of one, nor a corpus
text with only a short wrapper around it (the corpus text more than 60% of
it).

The set exists to measure the text reader on text it was not improved
against: do not tune rules on it, and do not move texts from it into
`tests/text_corpus`.  `python -m bench.holdout` scores it the way
`python -m bench.text` scores the corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from tests.text_corpus import TextCase
from tests.text_corpus import load as _load

__all__ = ["DIRECTORY", "load"]

#: Where the data files live.
DIRECTORY: Final = Path(__file__).resolve().parent


def load(directory: Path = DIRECTORY) -> list[TextCase]:
    """Read and validate every held-out `*.jsonl` file (see `tests.text_corpus.load`)."""
    return _load(directory)
