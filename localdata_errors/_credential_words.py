"""
The words that name a credential, in one place for every reader of them.

Redaction's pattern (`localdata_errors._redact`) reads messages, the SQL
reader (`localdata_errors._sqlread`) reads statements: a key word one of
them knew and the other did not would have a value masked where a
statement holds it and shown where a message echoes it.
"""

from __future__ import annotations

from typing import Final

__all__ = ["KEY_PREFIXES", "KEY_WORDS"]

#: The words before "key" in a credential's name: `api_key`, `access-key`,
#: `SasKey`, `ENCRYPTION_KEY`.
KEY_PREFIXES: Final = (
    "api", "access", "private", "secret", "account", "master", "encryption", "sas"
)  # fmt: skip

#: Every credential key word, in lower case; a name that ends in one is one
#: (`db_password`, `ClientSecret`).  The SQL reader reads a statement for the
#: value after each; redaction's pattern, anchored on rare letters for speed,
#: is held to find each before a value (tests/test_redaction_echo.py).
KEY_WORDS: Final = (
    "password", "passwd", "secret", "token", "credential", "credentials", "identified",
    "key_id", "keyid", "connection_string", "connectionstring",
    *(f"{prefix}{sep}key" for prefix in KEY_PREFIXES for sep in ("_", "")),
)  # fmt: skip
