"""
Which kind each DB-Library client error means: the decisions, by hand, in one place.

pymssql is built on FreeTDS's DB-Library, whose client errors (`SYBE*`,
20000 and up) come with pymssql's exceptions as `DB-Lib error message N`.
The facts (every `SYBE*` symbol of FreeTDS's `sybdb.h`, its number and its
text) are generated into `_dblib_codes`; the errors about the connection,
the login and the network get a kind here, each written from the header's
text; every other DB-Library error (bulk copy, data conversion, the API's
use) is left to the server's message and the keywords.
`tests/test_generated_tables.py` fails on a symbol the header does not define.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["KINDS"]

K = Kind

#: `SYBE*` symbol -> its kind.
KINDS: Final[Mapping[str, Kind]] = {
    # The connection could not be made: nothing ran, a retry is safe.
    "SYBEFCON": K.CONNECTION_FAILURE,  # SQL Server connection failed
    "SYBESOCK": K.CONNECTION_FAILURE,  # Unable to open socket
    "SYBECONN": K.CONNECTION_FAILURE,  # Unable to connect: SQL Server is unavailable ...
    # A query's time ran out, and DB-Library marks the connection dead (the next
    # call gets SYBEDDNE): reconnect; the statement may have run.  SQLAlchemy's
    # pymssql dialect counts it a disconnect too.
    "SYBETIME": K.CONNECTION_LOST,  # SQL Server connection timed out
    # The connection broke while in use.
    "SYBEREAD": K.CONNECTION_LOST,  # Read from SQL Server failed
    "SYBEWRIT": K.CONNECTION_LOST,  # Write to SQL Server failed
    "SYBESEOF": K.CONNECTION_LOST,  # Unexpected EOF from SQL Server
    "SYBEDDNE": K.CONNECTION_LOST,  # DBPROCESS is dead or not enabled
    "SYBESYNC": K.CONNECTION_LOST,  # Read attempted while out of synchronization
    "SYBEBTOK": K.CONNECTION_LOST,  # Bad token from SQL Server: data-stream out of sync
    "SYBEOOB": K.CONNECTION_LOST,  # Error in sending out-of-band data
    "SYBECLOS": K.CONNECTION_LOST,  # Error in closing network connection
    # The settings cannot work: stop.
    "SYBEINTF": K.CONNECTION_MISCONFIGURED,  # Server name not found in interface file
    "SYBEUHST": K.CONNECTION_MISCONFIGURED,  # Unknown host machine name
    "SYBEUNT": K.CONNECTION_MISCONFIGURED,  # Unknown network type found in interface file
    "SYBEUTDS": K.CONNECTION_MISCONFIGURED,  # Unrecognized TDS version received
    "SYBENLNL": K.CONNECTION_MISCONFIGURED,  # Program not linked with the network library
    "SYBECAP": K.CONNECTION_MISCONFIGURED,  # DB-Library capabilities not accepted
    "SYBEFENC": K.CONNECTION_MISCONFIGURED,  # Password Encryption failed
    # The login was refused.
    "SYBEPWD": K.INVALID_PASSWORD,  # Login incorrect
    "SYBENEG": K.INVALID_AUTHORIZATION,  # Negotiated login attempt failed
    "SYBEOSSL": K.INVALID_AUTHORIZATION,  # OS login level not in range of Secure SQL Server
    "SYBEESSL": K.INVALID_AUTHORIZATION,  # Login security level disagrees with the OS level
    # The client ran out of memory.
    "SYBEMEM": K.OUT_OF_MEMORY,  # Unable to allocate sufficient memory
}
