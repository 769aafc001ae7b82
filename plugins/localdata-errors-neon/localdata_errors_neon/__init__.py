"""
Neon rule pack for localdata-errors: a compute waking up, SNI and TLS settings, quotas.

Neon serves PostgreSQL through a proxy that routes by endpoint ID and wakes
suspended computes.  Its errors reach PostgreSQL's drivers, so the built-in
``postgresql`` mapper answers first; this refiner recognises the proxy's own
texts, as Neon's "Connection errors" page lists them:

- ``Couldn't connect to compute node``: the compute is still starting from
  scale-to-zero; wait a few seconds and connect again (``safe``: nothing ran);
- ``The endpoint ID is not specified`` (a client without SNI) and
  ``connection is insecure (try using `sslmode=require`)``: the connection
  settings must change (``stop``);
- ``endpoint is disabled`` and ``... has exceeded the compute time quota``:
  the project cannot be used until someone acts (``stop``);
- ``You have exceeded the limit of concurrently active endpoints``: suspend a
  compute first (``stop``).

Everything else is PostgreSQL's (``terminating connection due to
administrator command`` when a compute suspends is ``admin_shutdown``
already).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from localdata_errors import (
    PROXY_KINDS,
    BackendMapper,
    ErrorInput,
    ErrorRefiner,
    Kind,
    MappedError,
    RefinerClaims,
    RetrySafety,
    hookimpl,
)

__all__ = ["NEEDLES", "RULES", "NeonRefiner", "NeonRule", "localdata_errors_mappers"]

_SCAN: Final = 4096


class NeonRule(NamedTuple):
    """One of Neon's messages: a pattern, its kind, and what Neon says beyond the kind."""

    pattern: str
    kind: Kind
    retryable: bool | None = None
    retry_safety: RetrySafety | None = None
    retry_after_ms: int | None = None


#: Neon's messages by name, in the order they are tried (settings first: a
#: password failure that names the missing endpoint ID is a settings problem).
RULES: Final[Mapping[str, NeonRule]] = MappingProxyType(
    {
        "endpoint_id_not_specified": NeonRule(
            r"[Ee]ndpoint ID is not specified", Kind.CONNECTION_MISCONFIGURED
        ),
        "connection_insecure": NeonRule(
            r"connection is insecure \(try using `?sslmode=require`?\)",
            Kind.CONNECTION_MISCONFIGURED,
        ),
        "endpoint_disabled": NeonRule(
            r"[Ee]ndpoint is disabled|Access to this endpoint is temporarily disabled",
            # Neon's docs list it among connection errors: the compute endpoint
            # takes no connection until it is enabled again (not a credential).
            Kind.CONNECTION_MISCONFIGURED,
        ),
        "quota_exceeded": NeonRule(
            r"has exceeded the (?:[a-z ]{1,40} )?quota", Kind.QUOTA_EXCEEDED
        ),
        "active_endpoints_limit": NeonRule(
            r"exceeded the limit of concurrently active endpoints"
            r"|active endpoints limit exceeded",
            Kind.TOO_MANY_CONNECTIONS,
            retryable=False,
        ),
        # Waking from scale to zero "takes a few seconds".
        "compute_not_reachable": NeonRule(
            r"Couldn't connect to compute node",
            Kind.CONNECTION_FAILURE,
            retry_safety=RetrySafety.SAFE,
            retry_after_ms=3000,
        ),
        "authorization_internal_error": NeonRule(
            r"The request could not be authorized due to an internal error",
            Kind.CONNECTION_FAILURE,
            retry_safety=RetrySafety.SAFE,
            retry_after_ms=3000,
        ),
    }
)

_NAMES: Final = tuple(RULES)
# Each rule's branch ends in an empty group named by its index: the group
# that matched says which rule (ending a branch in it, not wrapping the
# branch, lets the engine reject a branch by its first character).
_PATTERN: Final = re.compile(
    "|".join(f"(?:{RULES[name].pattern})(?P<r{i}>)" for i, name in enumerate(_NAMES))
)
#: Texts every one of Neon's messages holds (each rule's pattern has one): the
#: refiner's claims, so the core asks it only about errors that hold one; the
#: phrases of two words or more also name Neon's messages in a pasted text.
NEEDLES: Final = (
    "endpoint id is not specified",
    "endpoint is disabled",
    "access to this endpoint is temporarily disabled",
    "connection is insecure",
    "concurrently active endpoints",
    "active endpoints limit exceeded",
    "quota",
    "couldn't connect to compute node",
    "could not be authorized due to an internal error",
)


class NeonRefiner(ErrorRefiner):
    """
    Neon's proxy in front of PostgreSQL: compute wake-ups, SNI, quotas.
    """

    name = "neon"
    aliases = ("neondb", "neon_postgres")
    refines = ("postgresql",)
    display_name = "Neon"
    claims = RefinerClaims(markers=NEEDLES, kinds=PROXY_KINDS)

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Recognise Neon's proxy messages in the PostgreSQL mapper's answer.

        Args:
            error: The exception and its text.
            base: The PostgreSQL mapper's answer.

        Returns:
            The refined answer, or ``None`` for an error that is not Neon's.
        """
        match = _PATTERN.search(error.message, 0, _SCAN)
        if match is None or match.lastgroup is None:
            return None
        rule = RULES[_NAMES[int(match.lastgroup[1:])]]
        answer = MappedError(rule.kind) if base is None else base
        return answer._replace(
            kind=rule.kind,
            refine=None,
            retryable=rule.retryable,
            retry_safety=rule.retry_safety,
            retry_after_ms=rule.retry_after_ms,
        )


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the Neon refiner.

    Returns:
        One `NeonRefiner`.
    """
    return [NeonRefiner()]
