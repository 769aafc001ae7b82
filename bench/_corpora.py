"""Load whichever real-error corpora can be produced on this machine."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from localdata_errors import Claim, ErrorMapperRegistry
from tests.corpus import CorpusCase

BACKENDS = ("sqlite", "duckdb", "postgresql", "mysql", "oracle", "mssql")


def load(backends: tuple[str, ...] = BACKENDS) -> Iterator[tuple[str, list[CorpusCase] | str]]:
    """Yield (backend, cases) or (backend, why it was left out)."""
    for backend in backends:
        try:
            module = importlib.import_module(f"tests.corpus.{backend}")
        except ImportError as exc:
            yield backend, f"no corpus module ({exc})"
            continue
        try:
            yield backend, list(module.collect())
        except Exception as exc:  # noqa: BLE001 - a missing server leaves that backend out
            yield backend, f"could not produce the corpus: {type(exc).__name__}: {exc}"


def claimed(cases: list[CorpusCase]) -> list[tuple[CorpusCase, Claim]]:
    """
    The cases a backend claims by its driver, with the claim.

    Wrapped exceptions (unwrapping is its own stage) and cases classified
    with an explicit backend are left out.
    """
    found: list[tuple[CorpusCase, Claim]] = []
    for case in cases:
        claim = ErrorMapperRegistry.claim_for_type(type(case.exception))
        if claim is not None and case.db_type is None:
            found.append((case, claim))
    return found
