"""
Which kind each of EF Core's SQL Server provider's own messages means, by hand.

Entity Framework Core wraps the driver's exception in messages of its own;
the facts (each resource name and its texts, from the provider's
`SqlServerStrings.resx` of each release) are generated into `_efcore_texts`.
Such a message frames the driver's: where the driver's message follows (`
---> Microsoft.Data.SqlClient.SqlException ...`), that message decides, and
the frame decides only a text that holds nothing else.
`tests/test_generated_tables.py` fails on a name the provider's list lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from localdata_errors._kinds import Kind

__all__ = ["KINDS"]

K = Kind

#: Resource name -> its kind.
KINDS: Final[Mapping[str, Kind]] = {
    # "An exception has been raised that is likely due to a transient failure.
    # Consider enabling transient error resiliency by adding 'EnableRetryOnFailure'
    # to the 'UseSqlServer' call.": the provider judged the driver's exception
    # transient (a dropped connection, a deadlock, Azure SQL's throttling) and no
    # retrying strategy was set, so nothing was retried.  Retrying may succeed,
    # but the failure may have struck during a commit: EF Core's own docs
    # ("Transaction commit failure and the idempotency issue") say a write may
    # have been applied.  Retry, idempotent work only.
    "TransientExceptionDetected": K.STATEMENT_COMPLETION_UNKNOWN,
}
