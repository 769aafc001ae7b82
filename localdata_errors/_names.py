"""
Identifier helpers every backend uses to report names: unquote, unqualify, dedupe.

``affected_resources`` lists names unqualified (``Sales.Orders`` becomes
``Orders``), with their case kept and their quotes removed; the qualifier
goes to ``schema``, never into ``affected_resources``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = [
    "column_reference",
    "split_qualified",
    "unique",
    "unqualify",
    "unqualify_parts",
    "unquote",
]

_QUOTES = {'"': '"', "`": "`", "[": "]", "'": "'"}


def unquote(name: str) -> str:
    """
    Remove one level of identifier quoting: ``"x"``, `` `x` ``, ``[x]``, ``'x'``.

    Doubled quotes inside (``"a""b"``) are undoubled.
    """
    name = name.strip()
    if len(name) >= 2:
        close = _QUOTES.get(name[0])
        if close is not None and name[-1] == close:
            inner = name[1:-1]
            return inner.replace(close + close, close) if close != "]" else inner
    return name


def split_qualified(name: str) -> list[str]:
    """
    Split a possibly quoted, dotted name into its unquoted parts.

    ``"HR"."EMP"`` gives ``["HR", "EMP"]``; ``[dbo].[my.table]`` gives
    ``["dbo", "my.table"]``; ``public.Orders`` gives ``["public", "Orders"]``.
    """
    if '"' not in name and "`" not in name and "[" not in name and "'" not in name:
        # The common case, a bare (dotted) name: no character-by-character walk.
        return [p for p in (part.strip() for part in name.split(".")) if p]
    parts: list[str] = []
    buf: list[str] = []
    close: str | None = None
    i = 0
    n = len(name)
    while i < n:
        ch = name[i]
        if close is not None:
            if ch == close:
                if close != "]" and i + 1 < n and name[i + 1] == close:
                    buf.append(ch)  # a doubled quote stands for itself
                    i += 2
                    continue
                close = None
            else:
                buf.append(ch)
        elif ch in _QUOTES:
            close = _QUOTES[ch]
        elif ch == ".":
            parts.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
        i += 1
    parts.append("".join(buf).strip())
    return [p for p in parts if p]


def unqualify(name: str) -> tuple[str, str | None]:
    """
    Return ``(object, qualifier)`` for a possibly qualified name.

    The qualifier is the part just before the object (schema, or database for
    MySQL), ``None`` for a bare name: ``"public"."Orders"`` gives
    ``("Orders", "public")``.
    """
    if (
        "." not in name
        and '"' not in name
        and "`" not in name
        and "[" not in name
        and "'" not in name
    ):
        return name.strip(), None
    parts = split_qualified(name)
    if not parts:
        return unquote(name), None
    return unqualify_parts(parts)


def unqualify_parts(parts: Sequence[str]) -> tuple[str, str | None]:
    """``["db", "t"]`` gives ``("t", "db")``; a bare name gives ``(name, None)``."""
    if not parts:
        return "", None
    return parts[-1], (parts[-2] if len(parts) > 1 else None)


def column_reference(parts: Sequence[str]) -> tuple[str, str | None, str | None]:
    """
    ``(column, table, schema)`` of a column as the statement referred to it.

    A column's one qualifier (``c.nme``) is a table *or an alias*, and the
    message cannot say which: only the column is a name.  Two qualifiers
    (``shop.orders.nme``) are a schema and its table, which no alias can be;
    three (SQL Server's ``db.dbo.Orders.nme``) start with a database, which
    is dropped.

    Args:
        parts: The reference's unquoted parts, as `split_qualified` gives them.

    Returns:
        The column, the table (``None`` unless a schema qualifies it) and the schema.
    """
    if len(parts) < 3:
        return (parts[-1] if parts else ""), None, None
    return parts[-1], parts[-2], parts[-3]


def unique(names: Iterable[str | None]) -> tuple[str, ...]:
    """The non-empty names, first occurrence kept, in order."""
    if type(names) is list and len(names) == 1 and names[0]:
        return (names[0],)
    seen: dict[str, None] = {}
    for name in names:
        if name and name not in seen:
            seen[name] = None
    return tuple(seen)
