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

#: Every credential key word, as a regular expression's source read case-blind
#: (a name that ends in one is one): `password`, `db_secret`, `KeyId`,
#: `ConnectionString`, `sas_key`...  The SQL reader reads a statement for the
#: values after them; redaction's pattern, anchored on rare letters for speed,
#: is held to find each of them before a value (tests/test_redaction_echo.py).
KEY_WORDS: Final = (
    r"passw(?:or)?d|secret|token|credentials?|identified|key_?id|connection_?string"
    rf"|(?:{'|'.join(KEY_PREFIXES)})_?key"
)
