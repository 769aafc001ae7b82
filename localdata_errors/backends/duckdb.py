"""
DuckDB backend: the ``duckdb`` Python package (exception classes in ``_duckdb``).

DuckDB has no numeric error codes: each error is raised as one of its own
exception classes (``CatalogException``, ``ConstraintException``, ...),
whose message starts with the class's label (``Catalog Error: ...``).  The
backend reads the class (walking the MRO, so a subclass still counts), then
the first line of the message for the finer reason and the names.  Lines
after the first (``Did you mean "..."?``, ``LINE 1: ...``, candidate lists)
are hints for humans and never classified.

``database_error_code`` is the exception class's name (``CatalogException``);
``sqlstate`` is ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from localdata_errors._backends import BACKENDS
from localdata_errors._kinds import Kind, RetrySafety
from localdata_errors._mapper import BackendMapper, ErrorInput, MappedError, new_mapped_error
from localdata_errors._names import unique, unqualify, unquote

__all__ = ["CLASS_KINDS", "DuckdbMapper", "parse_message"]


K = Kind

#: Each DuckDB exception class and the kind it means when its message says
#: nothing finer.  ``UNKNOWN`` classes are decided by the message (or, failing
#: that, the keyword fallback).
CLASS_KINDS: Final[Mapping[str, Kind]] = {
    "ParserException": K.SYNTAX_ERROR,
    "SyntaxException": K.SYNTAX_ERROR,
    "CatalogException": K.UNKNOWN,
    "BinderException": K.UNKNOWN,
    "ConstraintException": K.UNKNOWN,
    "ConversionException": K.INVALID_TEXT_REPRESENTATION,
    "OutOfRangeException": K.NUMERIC_VALUE_OUT_OF_RANGE,
    "OutOfMemoryException": K.OUT_OF_MEMORY,
    "TransactionException": K.UNKNOWN,
    "InterruptException": K.QUERY_CANCELED,
    "IOException": K.IO_ERROR,
    "PermissionException": K.INSUFFICIENT_PRIVILEGE,
    "InvalidInputException": K.INVALID_PARAMETER,
    "DependencyException": K.DEPENDENT_OBJECTS_STILL_EXIST,
    # (De)serialising stored data (a database file or WAL written by another
    # version, or damaged): not a transaction's serialization failure.
    "SerializationException": K.DATA_CORRUPTED,
    # nextval() past a sequence's bounds: PostgreSQL's 2200H, a data exception.
    "SequenceException": K.NUMERIC_VALUE_OUT_OF_RANGE,
    "NotImplementedException": K.FEATURE_NOT_SUPPORTED,
    "FatalException": K.INTERNAL_ERROR,
    "InternalException": K.INTERNAL_ERROR,
    "ConnectionException": K.CONNECTION_FAILURE,
    "InvalidTypeException": K.DATATYPE_MISMATCH,
    "TypeMismatchException": K.DATATYPE_MISMATCH,
    "HTTPException": K.IO_ERROR,
}

# The label DuckDB prints before the message, for text-only classification.
_LABEL_CLASS: Final[Mapping[str, str]] = {
    "parser": "ParserException",
    "syntax": "SyntaxException",
    "catalog": "CatalogException",
    "binder": "BinderException",
    "constraint": "ConstraintException",
    "conversion": "ConversionException",
    "out of range": "OutOfRangeException",
    "out of memory": "OutOfMemoryException",
    "transactioncontext": "TransactionException",
    "interrupt": "InterruptException",
    "io": "IOException",
    "permission": "PermissionException",
    "invalid input": "InvalidInputException",
    "dependency": "DependencyException",
    "serialization": "SerializationException",
    "sequence": "SequenceException",
    "not implemented": "NotImplementedException",
    "fatal": "FatalException",
    "internal": "InternalException",
    "connection": "ConnectionException",
    "invalid type": "InvalidTypeException",
    "mismatch type": "TypeMismatchException",
    "http": "HTTPException",
}
# "Catalog Error: ...", or the label on a line of its own (DuckDB's shell).
_LABEL = re.compile(r"([A-Za-z][A-Za-z ]{0,30}) Error:(?: |\r?\n)")

_Extract = tuple[Kind, tuple[str, ...], tuple[str, ...], str | None, str | None]
_Handler = Callable[[re.Match[str]], _Extract]

# A quoted or bare name; DuckDB quotes some names and not others.
_N = r"""(?:"(?:[^"\n]|""){1,256}"|[^\s"!,:]{1,256})"""
_Q = r"""(?P<{g}>""[^"\n]{{1,256}}""|"(?:[^"\n]|""){{1,256}}"|[^\s"!,:]{{1,256}})"""


def _name(raw: str) -> tuple[str, str | None]:
    # DuckDB quotes a whole qualified name at times ("nosch.t") and doubles
    # the quotes of a sequence name (""s1""): unquote, then split.
    raw = raw.strip()
    while len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]
    obj, qualifier = unqualify(raw)
    return unquote(obj), qualifier


def _of(kind: Kind, *groups: str, deps: tuple[str, ...] = (), schema_group: str = "") -> _Handler:
    def extract(m: re.Match[str]) -> _Extract:
        names: list[str] = []
        schema: str | None = None
        for group in groups:
            raw = m.group(group)
            if raw:
                obj, qualifier = _name(raw)
                names.append(obj)
                schema = schema or qualifier
        dependencies = tuple(_name(m.group(g))[0] for g in deps if m.group(g))
        if schema_group and m.group(schema_group):
            schema = _name(m.group(schema_group))[0]
        return kind, unique(names), dependencies, None, schema

    return extract


_MISSING_KIND: Final[Mapping[str, Kind]] = {
    "table": K.UNDEFINED_TABLE,
    "view": K.UNDEFINED_TABLE,
    "schema": K.UNDEFINED_SCHEMA,
    "catalog": K.UNDEFINED_DATABASE,
    "column": K.UNDEFINED_COLUMN,
    "index": K.UNDEFINED_OBJECT,
    "sequence": K.UNDEFINED_OBJECT,
    "type": K.UNDEFINED_OBJECT,
    "collation": K.UNDEFINED_OBJECT,
    "secret": K.UNDEFINED_OBJECT,
}
_EXISTS_KIND: Final[Mapping[str, Kind]] = {
    "table": K.DUPLICATE_TABLE,
    "view": K.DUPLICATE_TABLE,
    "schema": K.DUPLICATE_SCHEMA,
    "catalog": K.DUPLICATE_DATABASE,
    "column": K.DUPLICATE_COLUMN,
}


def _entry_kind(what: str, table: Mapping[str, Kind], functions: Kind, default: Kind) -> Kind:
    what = what.lower()
    if what.endswith("function"):
        return functions
    return table.get(what, default)


def _missing(m: re.Match[str]) -> _Extract:
    kind = _entry_kind(m.group("what"), _MISSING_KIND, K.UNDEFINED_FUNCTION, K.UNDEFINED_OBJECT)
    obj, qualifier = _name(m.group("name"))
    schema = m.group("schema")
    if schema:
        # "Table with name nosch.t does not exist because schema nosch does not exist."
        return K.UNDEFINED_SCHEMA, (_name(schema)[0], obj), (), None, _name(schema)[0]
    return kind, (obj,), (), None, qualifier


def _exists(m: re.Match[str]) -> _Extract:
    kind = _entry_kind(m.group("what"), _EXISTS_KIND, K.DUPLICATE_OBJECT, K.DUPLICATE_OBJECT)
    obj, qualifier = _name(m.group("name"))
    return kind, (obj,), (), None, qualifier


def _path(kind: Kind) -> _Handler:
    def extract(m: re.Match[str]) -> _Extract:
        # A file path: its dots are not qualifiers.
        return kind, (unquote(m.group("name")),), (), None, None

    return extract


def _not_null(m: re.Match[str]) -> _Extract:
    column, table = _name(m.group("name"))
    return K.NOT_NULL_VIOLATION, unique([column, table]), (), None, None


def _function(kind: Kind) -> _Handler:
    def extract(m: re.Match[str]) -> _Extract:
        return kind, (m.group("fn"),), (), None, None

    return extract


def _only(kind: Kind) -> _Handler:
    def extract(m: re.Match[str]) -> _Extract:
        return kind, (), (), None, None

    return extract


def _rules(*pairs: tuple[str, _Handler]) -> tuple[tuple[re.Pattern[str], _Handler], ...]:
    return tuple((re.compile(p), f) for p, f in pairs)


_WHAT = r"(?P<what>[A-Z][A-Za-z ]{0,30}?)"

_BY_CLASS: Final[Mapping[str, tuple[tuple[re.Pattern[str], _Handler], ...]]] = {
    "CatalogException": _rules(
        (
            _WHAT
            + r" with name "
            + _Q.format(g="name")
            + r" does not exist(?: because schema "
            + _Q.format(g="schema")
            + r" does not exist)?",
            _missing,
        ),
        (_WHAT + r" with name " + _Q.format(g="name") + r" already exists", _exists),
        (
            r"Could not drop the table because this table is main key table of the table "
            + _Q.format(g="child"),
            _of(K.DEPENDENT_OBJECTS_STILL_EXIST, "child", deps=("child",)),
        ),
        (
            r"Cannot (?:drop|alter) (?:column|entry) " + _Q.format(g="name") + r" because",
            _of(K.DEPENDENT_OBJECTS_STILL_EXIST, "name"),
        ),
        (
            r"Existing object " + _Q.format(g="name") + r" is of type",
            _of(K.WRONG_OBJECT_TYPE, "name"),
        ),
        (
            r"SET (?:schema|search_path): No catalog \+ schema named " + _Q.format(g="name"),
            _of(K.UNDEFINED_SCHEMA, "name"),
        ),
        (r"Catalog " + _Q.format(g="name") + r" does not exist", _of(K.UNDEFINED_DATABASE, "name")),
        # The appender's (and the C API's) lookup of the table it appends to.
        (
            r"Table (?:'(?P<quoted>[^'\n]{1,256})'|(?P<name>" + _N + r")) could not be found",
            _of(K.UNDEFINED_TABLE, "quoted", "name"),
        ),
    ),
    "BinderException": _rules(
        (
            r"Referenced column " + _Q.format(g="name") + r" not found",
            _of(K.UNDEFINED_COLUMN, "name"),
        ),
        # A column of a query's reference: "Table" is the name or the alias the
        # query used, which the text cannot tell apart, so only the column is named.
        (
            r"Table "
            + _Q.format(g="table")
            + r" does not have a column named "
            + _Q.format(g="name"),
            _of(K.UNDEFINED_COLUMN, "name"),
        ),
        # INSERT's column list, ALTER TABLE: the table itself.
        (
            r"Table "
            + _Q.format(g="table")
            + r" does not have a column with name "
            + _Q.format(g="name"),
            _of(K.UNDEFINED_COLUMN, "name", "table"),
        ),
        (
            r"Values list "
            + _Q.format(g="table")
            + r" does not have a column named "
            + _Q.format(g="name"),
            _of(K.UNDEFINED_COLUMN, "name"),
        ),
        (
            r"Referenced table " + _Q.format(g="name") + r" not found",
            _of(K.UNDEFINED_TABLE, "name"),
        ),
        (
            r"Ambiguous reference to column name " + _Q.format(g="name"),
            _of(K.AMBIGUOUS_COLUMN, "name"),
        ),
        (
            r"No function matches the given name and argument types '(?P<fn>[^'(\n]{1,128})\(",
            _function(K.UNDEFINED_FUNCTION),
        ),
        (r"Could not choose a best candidate function", _only(K.DATATYPE_MISMATCH)),
        (
            r"column " + _Q.format(g="name") + r" must appear in the GROUP BY clause",
            _of(K.GROUPING_ERROR, "name"),
        ),
        (
            r"Failed to create foreign key: referenced table " + _Q.format(g="name"),
            _of(K.INVALID_OBJECT_DEFINITION, "name"),
        ),
        (
            r"table " + _Q.format(g="name") + r" has \d{1,9} columns but",
            _of(K.SYNTAX_ERROR, "name"),
        ),
        (
            r"Failed to attach database: database with name "
            + _Q.format(g="name")
            + r" already exists",
            _of(K.DUPLICATE_DATABASE, "name"),
        ),
        (
            r"Failed to detach database with name " + _Q.format(g="name") + r": database not found",
            _of(K.UNDEFINED_DATABASE, "name"),
        ),
        (
            r"Could not find key " + _Q.format(g="name") + r" in struct",
            _of(K.UNDEFINED_COLUMN, "name"),
        ),
        (r"Cannot mix values of type", _only(K.DATATYPE_MISMATCH)),
    ),
    "ConstraintException": _rules(
        (
            r"Duplicate key " + _N + r" violates (?:primary key|unique) constraint",
            _only(K.UNIQUE_VIOLATION),
        ),
        (r"NOT NULL constraint failed: (?P<name>[^\s\n]{1,256})", _not_null),
        (
            r"CHECK constraint failed on table " + _Q.format(g="name"),
            _of(K.CHECK_VIOLATION, "name"),
        ),
        (r"CHECK constraint failed", _only(K.CHECK_VIOLATION)),
        (r"Violates foreign key constraint", _only(K.FOREIGN_KEY_VIOLATION)),
        (r"PRIMARY KEY or UNIQUE constraint violated", _only(K.UNIQUE_VIOLATION)),
    ),
    "ConversionException": _rules(
        (
            r"invalid (?:date|timestamp|time|interval)\w{0,8} field format",
            _only(K.INVALID_DATETIME_FORMAT),
        ),
        (r"(?:date|timestamp|time) field value out of range", _only(K.INVALID_DATETIME_FORMAT)),
        (
            r"Type \w{1,32} with value [^\n]{0,256}? can't be cast because the value is out of "
            r"range",
            _only(K.NUMERIC_VALUE_OUT_OF_RANGE),
        ),
        (r"Unimplemented type for cast", _only(K.DATATYPE_MISMATCH)),
    ),
    "TransactionException": _rules(
        (r"Conflict on", _only(K.SERIALIZATION_FAILURE)),
        (r"Catalog write-write conflict", _only(K.SERIALIZATION_FAILURE)),
        (r"Current transaction is aborted", _only(K.TRANSACTION_ABORTED)),
        (r"cannot start a transaction within a transaction", _only(K.INVALID_TRANSACTION_STATE)),
        (
            r"cannot (?:commit|rollback) - no transaction is active",
            _only(K.INVALID_TRANSACTION_STATE),
        ),
    ),
    "IOException": _rules(
        # The file system cannot lock the file (DuckDB's own "File locks are not
        # supported for this file system", or the OS's reason after the path,
        # strerror(ENOTSUP / ENOLCK / ENOSYS)): no wait helps; open it read-only
        # or from a local disk.
        (
            r"Could not set lock on file "
            + _Q.format(g="name")
            + r": (?:Operation not supported|Not supported|File locks are not supported"
            r"|No locks available|Function not implemented)",
            _only(K.CONNECTION_MISCONFIGURED),
        ),
        # Another process holds the database file ("Conflicting lock is held in
        # ..."): DuckDB allows one writer process; it clears when that one closes it.
        (r"Could not set lock on file " + _Q.format(g="name"), _only(K.DATABASE_LOCKED)),
        # A database file that is not there (connect, ATTACH): the database is missing.
        (
            r"Cannot open (?:database|file) "
            + _Q.format(g="name")
            + r"[^\n]{0,256}?No such file or directory",
            _path(K.UNDEFINED_DATABASE),
        ),
        (
            r"No files found that match the pattern " + _Q.format(g="name"),
            _path(K.UNDEFINED_OBJECT),
        ),
        (
            r"Cannot open file " + _N + r"[^\n]{0,256}?Permission denied",
            _only(K.INSUFFICIENT_PRIVILEGE),
        ),
        (
            r"Could not (?:write|extend) file [^\n]{0,512}?No space left on device",
            _only(K.DISK_FULL),
        ),
    ),
    "InvalidInputException": _rules(
        (
            r"Cannot execute statement of type \"\w{1,32}\" on database "
            + _Q.format(g="name")
            + r" which is attached in read-only mode",
            _of(K.READ_ONLY, "name"),
        ),
        (r"Division by zero", _only(K.DIVISION_BY_ZERO)),
        (
            r"Could not parse string [^\n]{0,256}? according to format specifier",
            _only(K.INVALID_DATETIME_FORMAT),
        ),
        (r"Malformed JSON", _only(K.INVALID_TEXT_REPRESENTATION)),
    ),
    "PermissionException": _rules(
        (r"[^\n]{0,256}?read-only", _only(K.READ_ONLY)),
    ),
    "DependencyException": _rules(
        (
            r"Cannot (?:drop|alter) entry "
            + _Q.format(g="name")
            + r" because there are entries that depend on it\.\s{0,4}\w{1,32} "
            + _Q.format(g="child")
            + r" depends on",
            _of(K.DEPENDENT_OBJECTS_STILL_EXIST, "name", deps=("child",)),
        ),
        (
            r"Cannot (?:drop|alter) entry " + _Q.format(g="name"),
            _of(K.DEPENDENT_OBJECTS_STILL_EXIST, "name"),
        ),
    ),
    "SequenceException": _rules(
        (
            r"nextval: reached (?:maximum|minimum) value of sequence " + _Q.format(g="name"),
            _of(K.NUMERIC_VALUE_OUT_OF_RANGE, "name"),
        ),
    ),
    "ParserException": _rules(
        (r"[^\n]{0,256}?\bnot (?:yet )?supported", _only(K.FEATURE_NOT_SUPPORTED)),
    ),
    "ConnectionException": _rules(
        (r"Connection (?:already )?closed", _only(K.CONNECTION_LOST)),
    ),
}


def parse_message(class_name: str, text: str) -> _Extract | None:
    """
    Classify the text of a DuckDB error of class *class_name*; name what it names.

    Args:
        class_name: The DuckDB exception class (``CatalogException``).
        text: The message, with or without its ``Catalog Error: `` label.

    Returns:
        ``(kind, resources, dependencies, constraint, schema)``, or ``None``
        when no pattern of that class matches.
    """
    rules = _BY_CLASS.get(class_name)
    if rules is None:
        return None
    label = _LABEL.match(text)
    if label is None:
        # Without its label, the message may follow a log's own lines and prefix.
        body = text[:4096]
    else:
        # The reason is on the first line after the label; DependencyException
        # names the dependent on the second, so two lines are read.
        start = label.end()
        end = text.find("\n", start)
        if end >= 0 and class_name == "DependencyException":
            end = text.find("\n", end + 1)
        body = text[start:end] if end >= 0 else text[start : start + 4096]
    for pattern, extract in rules:
        m = pattern.match(body) if label is not None else pattern.search(body)
        if m is not None:
            return extract(m)
    return None


def _class_name(error: ErrorInput) -> str | None:
    """The most specific DuckDB exception class of the error (or its label)."""
    exc = error.exception
    if exc is not None:
        for klass in type(exc).__mro__:
            if klass.__name__ in CLASS_KINDS:
                return klass.__name__
    code = error.code
    if isinstance(code, str) and code in CLASS_KINDS:
        return code
    label = _LABEL.match(error.message)
    if label is not None:
        return _LABEL_CLASS.get(label.group(1).lower())
    return None


class DuckdbMapper(BackendMapper):
    """
    DuckDB: the exception class first, the first line of its message second.
    """

    name = "duckdb"
    aliases = BACKENDS["duckdb"].aliases
    driver_modules = BACKENDS["duckdb"].driver_modules
    display_name = BACKENDS["duckdb"].display_name

    def map_error(self, error: ErrorInput) -> MappedError | None:
        """
        Classify one DuckDB error.

        Args:
            error: The exception and its text.

        Returns:
            The kind (from the message when it says more than the class,
            else from the class), the class name as the code, and the names
            the message carries; ``None`` for an error that is not DuckDB's.
        """
        class_name = _class_name(error)
        if class_name is None:
            return None
        parsed = parse_message(class_name, error.message)
        if parsed is None:
            return new_mapped_error(kind=CLASS_KINDS[class_name], code=class_name)
        kind, resources, dependencies, constraint, schema = parsed
        # A closed connection (or its cursor) used again: the embedded
        # engine refused before running anything.
        safety = RetrySafety.SAFE if kind is K.CONNECTION_LOST else None
        return new_mapped_error(
            kind,
            code=class_name,
            affected_resources=resources,
            dependencies=dependencies,
            constraint=constraint,
            schema=schema,
            retry_safety=safety,
        )

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        The exception classes whose kind does not depend on the message.

        Returns:
            Class name -> kind (the classes the message decides are left out).
        """
        return {name: kind for name, kind in CLASS_KINDS.items() if kind is not K.UNKNOWN}
