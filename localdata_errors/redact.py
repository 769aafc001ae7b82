"""
Credential and parameter masking.  Nothing that looks like a secret reaches an output field.

Covered: URL user-info (``postgresql://u:secret@h/db``), ``password=`` /
``PWD=`` / ``Password=`` / ``token=`` pairs in libpq, ODBC and query strings,
Oracle's ``user/secret@tns`` connect strings, and any literal values the
caller names (bound parameters).  Every pattern is bounded, so the cost is
linear in the text's length.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["MASK", "redact"]

#: What a secret is replaced with.
MASK: Final = "***"

# scheme://user:secret@host -> scheme://user:***@host.  The secret runs to the
# last "@" before a slash or a space, so an unencoded "@" in it is masked too.
_URL_USERINFO = re.compile(r"(://[^\s:/@?#]{0,256}:)[^\s/]{1,512}(?=@)")
# key=value and key: value pairs, also JSON / repr style ("password": "x").
# The value may be quoted (libpq escapes a quote with a backslash), or braced
# (ODBC, where "}}" is a literal "}").  Each alternation's branches start with
# different characters, so matching stays linear.
_KEY_VALUE = re.compile(
    r"""(?ix)
    (\b(?:password|passwd|pass|pwd|secret|client_secret|token|access_token|auth_token
        |api[_-]?key|apikey|sslpassword|sig|signature|credentials?)
     ["']?\s{0,8}(?:=|:(?!//))\s{0,8})
    (?!(?:YES|NO)\))   # MySQL's "(using password: YES)" says whether one was sent, not which
    ("(?:[^"\\\n]|\\.){0,4096}"|'(?:[^'\\\n]|\\.){0,4096}'|\{(?:[^}\n]|\}\}){0,4096}\}
     |[^\s;&,)'"]{1,16384}+  # possessive: a long token is masked whole, never in part
     |["'{][^\s;&,)]{0,16384}+)  # an unterminated quote or brace: mask to the separator
    """
)
# Oracle easy connect / TNS: user/secret@service, user/"quoted secret"@//host:port/svc
_ORACLE = re.compile(
    r"""(\b[A-Za-z][\w$#]{0,127}/)(?:"[^"\n]{1,256}"|[^\s/@"']{1,256})(?=@[\w\[(/])"""
)


def _has_key_word(text: str) -> bool:
    # The key-value pattern tries every position; plain substring tests find
    # out first, several times faster, whether any of its key words is there.
    lower = text.lower()
    return ("pass" in lower or "pwd" in lower or "secret" in lower or "token" in lower
            or "key" in lower or "sig" in lower or "cred" in lower)


def _as_text(secret: object) -> str:
    if isinstance(secret, bytes | bytearray):
        return bytes(secret).decode("utf-8", "replace")
    return secret if isinstance(secret, str) else str(secret)


def redact(text: str, secrets: Iterable[object] = ()) -> str:
    """
    Mask credentials in *text*, and every literal occurrence of *secrets*.

    Args:
        text: Any text (a message, a DSN, a statement).
        secrets: Values to mask wherever they occur, e.g. bound parameter
            values; values shorter than 3 characters are ignored, as masking
            them would destroy the text without protecting anything.

    Returns:
        *text* with each secret replaced by ``***``.
    """
    for secret in secrets:
        value = _as_text(secret)
        if len(value) >= 3 and value in text:
            text = text.replace(value, MASK)
    if "=" not in text and ":" not in text and "@" not in text:
        return text
    if "://" in text:
        text = _URL_USERINFO.sub(r"\1" + MASK, text)
    if ("=" in text or ":" in text) and _has_key_word(text):
        text = _KEY_VALUE.sub(r"\1" + MASK, text)
    if "@" in text and "/" in text:
        text = _ORACLE.sub(r"\1" + MASK, text)
    return text
