"""
The real-error corpus: cases produced by real databases through real drivers.

Each backend has a module here (``sqlite``, ``duckdb``, ``postgresql``,
``mysql``, ``oracle``, ``mssql``) exposing ``collect() -> Iterator[CorpusCase]``.
``collect`` triggers every case for real (embedded engines, the running
servers) or, for Oracle and SQL Server, builds the exception exactly as the
driver does.  The tests assert on the same cases; ``python -m bench.accuracy``
scores them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from localdata_errors import KIND_TABLE, Kind, StructuredErrorResponse

__all__ = ["CorpusCase", "Expected", "Score", "score"]


@dataclass(frozen=True)
class Expected:
    """What a correct answer says about one real error."""

    kind: Kind
    #: The database_error_code that must be kept (None: not checked).
    code: str | None = None
    #: Names that must all appear in affected_resources.
    resources: tuple[str, ...] = ()
    #: Names that must all appear in dependencies.
    dependencies: tuple[str, ...] = ()
    #: The constraint name, where the error names one.
    constraint: str | None = None
    #: The schema (MySQL: database) a qualified name carried (None: not checked).
    schema: str | None = None
    #: Names that must not appear in affected_resources: data (a key's values
    #: and columns), an alias, a schema or database that only qualifies a name.
    absent: tuple[str, ...] = ()
    #: Overrides the Kind table's retry decision for this case (rarely needed).
    retryable: bool | None = None


@dataclass(frozen=True)
class CorpusCase:
    """One real error and what its answer must say."""

    backend: str
    driver: str
    name: str
    exception: BaseException
    expected: Expected
    #: db_type to pass, when the case is about explicit selection (usually None).
    db_type: str | None = None
    notes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Score:
    """Which parts of an answer were right."""

    kind: bool
    category: bool
    retryable: bool
    code: bool
    names: bool

    @property
    def all(self) -> bool:
        """Every part right."""
        return self.kind and self.category and self.retryable and self.code and self.names


def score(case: CorpusCase, resp: StructuredErrorResponse) -> Score:
    """Score *resp* against *case*'s expectations."""
    exp = case.expected
    info = KIND_TABLE[exp.kind]
    retryable = info.retryable if exp.retryable is None else exp.retryable
    names_ok = (
        all(n in resp.affected_resources for n in exp.resources)
        and all(d in resp.dependencies for d in exp.dependencies)
        and (exp.constraint is None or resp.constraint == exp.constraint)
        and (exp.schema is None or resp.schema == exp.schema)
        and not any(n in resp.affected_resources for n in exp.absent)
    )
    return Score(
        kind=resp.kind is exp.kind,
        category=resp.error_type is info.category,
        retryable=resp.is_retryable is retryable,
        code=exp.code is None or resp.database_error_code == exp.code,
        names=names_ok,
    )
