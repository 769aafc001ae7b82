"""
PgBouncer and Supavisor rule packs for localdata-errors: the poolers' own errors and pooling errors.

A pooler in front of PostgreSQL answers through PostgreSQL's drivers, so the
built-in ``postgresql`` mapper reads its errors first.  This pack refines that
answer for what only a pooler says:

- PgBouncer's own messages (``no more connections allowed (max_client_conn)``,
  ``query_wait_timeout``, ``unsupported startup parameter: options``, ...),
  every one of them listed from PgBouncer's source in the generated
  ``_messages`` module, with the kind this pack gives it;
- Supavisor's coded errors (``(EMAXCONN) max client connections reached``,
  ``(ENOTFOUND) tenant/user ... not found``) and its older wording;
- the server's login failures that PgBouncer relays under its own SQLSTATE
  ``08P01`` (``database "x" does not exist``), read as PostgreSQL would;
- prepared statements under transaction pooling: ``prepared statement
  "_pg3_0" already exists`` (psycopg), ``... "__asyncpg_stmt_1__" does not
  exist`` (asyncpg): a configuration problem, ``stop``; `fix_for` says what
  to change.

Two refiners, both of ``postgresql``: ``pgbouncer`` and ``supavisor``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from localdata_errors import (
    PROXY_KINDS,
    BackendMapper,
    ErrorInput,
    ErrorMapperRegistry,
    ErrorRefiner,
    Kind,
    MappedError,
    RefinerClaims,
    TextSign,
    driver_attr,
    hookimpl,
)
from localdata_errors_pgbouncer._messages import (
    LOG_MESSAGES,
    LOG_RULES,
    REASON_LOGS,
    RELAYED_LOGS,
    RULES,
    SUPAVISOR_RULES,
    Rule,
)

__all__ = [
    "FIXES",
    "TEXT_SIGNS",
    "PgBouncerRefiner",
    "SupavisorRefiner",
    "fix_for",
    "localdata_errors_mappers",
]

_SCAN: Final = 4096


def _template_pattern(template: str) -> str:
    pattern = "".join(
        "[^\\n]{0,256}?" if part == "%s" else re.escape(part)
        for part in re.split(r"(%s)", template)
        if part
    )
    # PgBouncer before 1.8 opened its messages with a capital ("No such
    # database: %s", as its "Pooler Error: " lead): the first letter in either case.
    first = template[:1]
    if first.isalpha() and pattern.startswith(first):
        return f"[{first.lower()}{first.upper()}]{pattern[1:]}"
    return pattern


def _compile(templates: list[str]) -> re.Pattern[str]:
    # One alternation, longest first (a template that is a prefix of another
    # must not win), each ending in an empty group named by its index (the
    # group that matched says which template: ending a branch in it, not
    # wrapping the branch, lets the engine reject a branch by its first
    # character); bounded, anchored to a line.  It is matched only where a
    # pooler's message can start (see _pgbouncer): searched from every
    # offset, the alternation would be tried at each character of every
    # PostgreSQL error this refiner sees.
    alternatives = "|".join(f"{_template_pattern(t)}(?P<m{i}>)" for i, t in enumerate(templates))
    return re.compile(rf"(?:{alternatives})[ \t.]*$", re.MULTILINE)


_TEMPLATES: Final = sorted(RULES, key=len, reverse=True)
_VERB: Final = re.compile(r"%[-+ #0-9.]*[a-zA-Z]")


def _signature(template: str) -> str:
    """The longest fixed part of a message template: what no other system's message holds."""
    return max(_VERB.split(template), key=len).strip()


_PGBOUNCER: Final = _compile(_TEMPLATES)
# What a template's text can start with: a place starting otherwise is skipped.
_STARTS: Final = frozenset(start for t in _TEMPLATES for start in (t[:2], t[:1].upper() + t[1:2]))
# The severity before the message, as clients print it (libpq "FATAL:  ", two
# blanks; pgjdbc and logs "ERROR: ", one), node-postgres's error as JavaScript
# prints it ("Error: server conn crashed?"; "error: " for its DatabaseError),
# PgBouncer's SQLSTATE as Npgsql prints it before the message ("08P01: "), and
# PgBouncer's own log line for a client it disconnects ("pooler error:
# client_login_timeout"; "Pooler Error: " before 1.8): the message starts past
# the blanks after the lead.
_LEADS: Final = ("FATAL:", "ERROR:", "Error:", "error:", "08P01:", "pooler error:", "Pooler Error:")


def _pgbouncer(message: str) -> re.Match[str] | None:
    """
    PgBouncer's message in *message*: the first, at a line's start or after a lead.

    A pooler's message starts at a line's start or past one of `_LEADS` and
    up to two blanks: the leftmost such place where the alternation matches,
    found by `str.find` (C speed) instead of trying the alternation everywhere.
    """
    end = min(len(message), _SCAN)
    places = [0]
    at = message.find("\n", 0, end)
    while at >= 0:
        places.append(at + 1)
        at = message.find("\n", at + 1, end)
    for lead in _LEADS:
        at = message.find(lead, 0, end)
        while at >= 0:
            place = at + len(lead)
            blanks = message[place : place + 2]
            places.append(place + len(blanks) - len(blanks.lstrip(" ")))
            at = message.find(lead, at + 1, end)
    # Lines start before the leads found on them: sorting by place keeps the
    # leftmost match first (a lead's text starts after its own line's start).
    for place in sorted(places):
        if message[place : place + 2] in _STARTS:
            match = _PGBOUNCER.match(message, place, end)
            if match is not None:
                return match
    return None


def _opening(template: str) -> str:
    """What a log template's every line starts with: its text before the first `%`."""
    return template.partition("%")[0]


# PgBouncer's log line (lib/usual/logging.c): `<time> [<pid>] LEVEL <message>`
# (`<time> <pid> LEVEL` up to 1.7), a socket's message opening with the
# socket's prefix (src/util.c): `C-0x55d1...: db/user@host:port ` (`S-` for a
# server connection; `(nodb)/(nouser)` before login; `[addr]` for IPv6).
_SOCKET: Final = (
    r"(?<![\w-])[CS]-0x[0-9a-f]{4,16}: "
    r"(?:peer-\d{1,10}|[^\s/@]{1,256}/[^\s@]{1,256})"
    r"@(?:\[[0-9a-fA-F:.]{1,64}\]|unix(?:\(\d{1,10}\))?|[^\s:@]{1,256}):\d{1,6} "
)
_LEVEL: Final = r"(?:\[\d{1,10}\]|(?<![\w.])\d{1,10}) (?:FATAL|ERROR|WARNING|LOG|NOISE|DEBUG) "
# Every template PgBouncer logs, by its opening: the openings long enough to
# say something alone (`closing because: `, not `%s`), longest first.
_LOG_OPENINGS: Final = tuple(
    sorted(
        {o for o in map(_opening, LOG_MESSAGES) if len(o.strip()) >= 6},
        key=len,
        reverse=True,
    )
)
_LOG_LINE_PATTERN: Final = (
    f"{_LEVEL}(?:{_SOCKET})?(?P<msg>{'|'.join(map(re.escape, _LOG_OPENINGS))})"
)
_LOG_LINE: Final = re.compile(_LOG_LINE_PATTERN)
_SOCKET_LINE: Final = re.compile(f"{_SOCKET}(?P<msg>)")
#: Where a text names PgBouncer: its socket prefix, or one of its log lines.
TEXT_SIGNS: Final = (
    TextSign(_SOCKET, ("C-0x", "S-0x")),
    TextSign(_LOG_LINE_PATTERN, (" FATAL ", " ERROR ", " WARNING ", " LOG ")),
)
# The log lines that decide a kind: a client message's (`no such user: %s`),
# the server's error relayed (`server login failed: FATAL ...`: None), or
# PgBouncer's own reason for closing (`closing because: %s`: "reason").
_LOG_DECIDING: Final[tuple[tuple[str, Rule | str | None], ...]] = tuple(
    sorted(
        [(_opening(t), rule) for t, rule in LOG_RULES.items()]
        + [(_opening(t), None) for t in RELAYED_LOGS]
        + [(_opening(t), "reason") for t in REASON_LOGS],
        key=lambda item: -len(item[0]),
    )
)
# PgBouncer's reasons by their openings, longest first (`pgbouncer cannot
# connect to server (age=0s)` is `pgbouncer cannot connect to server`).
_REASONS: Final = tuple(sorted(((_opening(t), t) for t in RULES), key=lambda i: -len(i[0])))


# Prepared statements named by a driver's own statement cache: under transaction
# pooling, a statement prepared on one server connection is missing on the
# next (or, named the same by another client, already there).
_DRIVER_NAME: Final = r"(?:_pg3_\d{1,10}|__asyncpg_[a-z]{1,16}_[0-9a-f]{1,16}__)"
_ANY_NAME: Final = r'(?:[^"\n]|""){1,128}'
_PREPARED = r'prepared statement "(?P<name>{name})" (?:already exists|does not exist)'
_BIND = r'bind message supplies \d{{1,5}} parameters?, but prepared statement "(?P<bname>{name})"'
_DRIVER_PREPARED: Final = re.compile(
    f"{_PREPARED.format(name=_DRIVER_NAME)}|{_BIND.format(name=_DRIVER_NAME)}"
)
_ANY_PREPARED: Final = re.compile(
    f"{_PREPARED.format(name=_ANY_NAME)}|{_BIND.format(name=_ANY_NAME)}"
)
# asyncpg adds this note to its own prepared-statement errors.
_ASYNCPG_NOTE: Final = 'pgbouncer with pool_mode set to "transaction"'
_PREPARED_STATES: Final = frozenset({"42P05", "26000", "08P01"})

# The server's login failures, relayed by PgBouncer under 08P01: the kinds
# PostgreSQL's mapper reads from their text that this pack takes over.
_RELAYED: Final = frozenset(
    {
        Kind.UNDEFINED_DATABASE,
        Kind.INVALID_PASSWORD,
        Kind.INVALID_AUTHORIZATION,
        Kind.TOO_MANY_CONNECTIONS,
        Kind.ADMIN_SHUTDOWN,
    }
)

# Supavisor's errors reach users through every PostgreSQL client, each with its
# own lead: libpq's "FATAL:  ", pgx's and Prisma's "FATAL: " (one space),
# node-postgres's "error: ", or none.
_SUPAVISOR_LEAD: Final = r"(?:^|\b(?:FATAL|ERROR|error):[ ]{1,2})"
_SUPAVISOR_CODE: Final = re.compile(
    rf"{_SUPAVISOR_LEAD}\((?P<code>E[A-Z]{{2,40}})\) ", re.MULTILINE
)
#: Supavisor's wording before it coded its errors -> the code it has now
#: (its lib/supavisor/errors/*.ex keep the texts: "Tenant or user not found",
#: "Max client connections reached"), and the coded messages printed without
#: their code ("Address not in tenant allow_list: {...}").  Each is
#: Supavisor's own sentence, matched wherever it starts a message.  Before
#: its errors had codes (commit 357ca080, lib/supavisor/client_handler.ex),
#: it logged "ClientHandler: User not found: ..." where it sent "Tenant or
#: user not found".
_SUPAVISOR_OLD_WORDING: Final = {
    "EMAXCONN": ("Max client connections reached",),
    "ENOTFOUND": ("Tenant or user not found", "Tenant not found", "ClientHandler: User not found"),
    "EADDRNOTALLOWED": ("Address not in tenant allow_list",),
}
#: The reasons it sent as `Authentication error, reason: "..."` before it
#: coded them (357ca080, lib/supavisor/helpers.ex): the auth query found no
#: such user, what EAUTHQUERY's "user not found in the database" says now.
#: Read only after that lead: "There is no user" alone is no one's sign.
_SUPAVISOR_REASON_LEAD: Final = "Authentication error, reason: "
_SUPAVISOR_OLD_REASONS: Final = {"EAUTHQUERY": ("There is no user '",)}
_SUPAVISOR_OLD_TEXTS: Final = tuple(t for texts in _SUPAVISOR_OLD_WORDING.values() for t in texts)
_SUPAVISOR_REASON: Final = re.compile(
    re.escape(_SUPAVISOR_REASON_LEAD)
    + r'"?(?:'
    + "|".join(
        f"(?P<{code}>{'|'.join(re.escape(text) for text in texts)})"
        for code, texts in _SUPAVISOR_OLD_REASONS.items()
    )
    + ")"
)
_SUPAVISOR_OLD: Final = re.compile(
    r"(?:^|(?<=[\s:\"'\[]))(?:"
    + "|".join(
        f"(?P<{code}>{'|'.join(re.escape(text) for text in texts)})"
        for code, texts in _SUPAVISOR_OLD_WORDING.items()
    )
    + r")\b",
    re.MULTILINE | re.IGNORECASE,
)

#: How to fix what this pack answers with ``stop``, by cause.
FIXES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "psycopg": (
            "psycopg prepares statements on the server, which a transaction-pooling "
            "pooler cannot keep: connect with prepare_threshold=None, or enable "
            "PgBouncer's max_prepared_statements (PgBouncer 1.21+)."
        ),
        "asyncpg": (
            "asyncpg caches prepared statements, which a transaction-pooling pooler "
            "cannot keep: connect with statement_cache_size=0 (with SQLAlchemy also "
            "prepared_statement_cache_size=0), or enable PgBouncer's "
            "max_prepared_statements (PgBouncer 1.21+)."
        ),
        "prepared": (
            "Server-side prepared statements do not survive transaction pooling: turn "
            "off the driver's statement cache, use session pooling, or enable "
            "PgBouncer's max_prepared_statements (PgBouncer 1.21+)."
        ),
        "startup": (
            "PgBouncer refuses startup parameters it does not track: remove the "
            "parameter from the connection (psycopg: options=...), or list it in "
            "PgBouncer's ignore_startup_parameters."
        ),
    }
)


def fix_for(message: str) -> str | None:
    """
    What to change when this pack stops on a pooling misconfiguration.

    The response's ``suggestion`` is this text (the refiner sets it); the
    function is public for callers that classify the message themselves.

    Args:
        message: The error's message (``StructuredErrorResponse.message``).

    Returns:
        The fix, or ``None`` for a message that is not a pooling misconfiguration.
    """
    head = message[:_SCAN]
    prepared = _ANY_PREPARED.search(head)
    if prepared is not None or "EPREPARED" in head:
        name = prepared.group("name") or prepared.group("bname") if prepared else ""
        if name.startswith("_pg3_"):
            return FIXES["psycopg"]
        if name.startswith("__asyncpg_"):
            return FIXES["asyncpg"]
        return FIXES["prepared"]
    if "unsupported startup parameter" in head:
        return FIXES["startup"]
    return None


def _sqlstate(error: ErrorInput, base: MappedError | None) -> str | None:
    state = base.sqlstate if base is not None else None
    if state is None and error.exception is not None:
        for attr in ("sqlstate", "pgcode"):
            value = driver_attr(error.exception, attr)
            if isinstance(value, str) and len(value) == 5:
                return value
    return state


def _answer(base: MappedError | None, rule: Rule, code: str | None) -> MappedError:
    kind, safety, after_ms = rule
    if base is None:
        return MappedError(kind, code=code, retry_safety=safety, retry_after_ms=after_ms)
    return base._replace(
        kind=kind, code=code, refine=None, retry_safety=safety, retry_after_ms=after_ms
    )


_MISCONFIGURED: Final[Rule] = (Kind.CONNECTION_MISCONFIGURED, None, None)


def _prepared(
    error: ErrorInput, base: MappedError | None, state: str | None, named: bool
) -> MappedError | None:
    """Prepared statements under transaction pooling: the pooler's configuration."""
    if state not in _PREPARED_STATES:
        return None
    head = error.message[:_SCAN]
    if "prepared statement" not in head:
        return None
    if (
        _DRIVER_PREPARED.search(head)
        or _ASYNCPG_NOTE in head
        or (named and _ANY_PREPARED.search(head))
    ):
        return _answer(base, _MISCONFIGURED, base.code if base is not None else state)
    return None


def _with_fix(error: ErrorInput, answer: MappedError | None) -> MappedError | None:
    """A pooling misconfiguration's answer, with the setting that fixes it as its suggestion."""
    if answer is None or answer.kind is not Kind.CONNECTION_MISCONFIGURED:
        return answer
    fix = fix_for(error.message)
    return answer if fix is None else answer._replace(suggestion=fix)


class PgBouncerRefiner(ErrorRefiner):
    """
    PgBouncer in front of PostgreSQL: its own messages, relayed logins, pooled prepared statements.
    """

    name = "pgbouncer"
    aliases = ("pg_bouncer",)
    refines = ("postgresql",)
    display_name = "PgBouncer"
    # Its messages (by the longest fixed part of each), and the SQLSTATEs under
    # which a pooled prepared statement or a relayed login fails.
    claims = RefinerClaims(
        codes=_PREPARED_STATES,
        markers=(
            *(_signature(t) for t in _TEMPLATES),
            _ASYNCPG_NOTE,
            # Its log lines: a socket's prefix, and the lines that decide a kind.
            "C-0x",
            "S-0x",
            *(opening.strip().rstrip(":") for opening, _ in _LOG_DECIDING),
        ),
        # Also where the PostgreSQL mapper reads the pooler's "no such database: x"
        # as an object of its own that does not exist, and the server's login
        # failures PgBouncer logs ("database "x" does not exist").
        kinds=PROXY_KINDS | {Kind.UNDEFINED_OBJECT} | _RELAYED,
    )
    text_signs = TEXT_SIGNS

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Recognise PgBouncer's errors in the PostgreSQL mapper's answer.

        Args:
            error: The exception and its text.
            base: The PostgreSQL mapper's answer.

        Returns:
            The refined answer, or ``None`` for an error that is not the pooler's.
        """
        return _with_fix(error, self._refine(error, base, named=False))

    def refine_named(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Named `pgbouncer`: the caller says a pooler is in front, so every
        prepared-statement conflict is the pooler's, whatever the statement's name.

        Args:
            error: The exception and its text.
            base: The PostgreSQL mapper's answer.

        Returns:
            The refined answer, or `None` to keep the PostgreSQL mapper's.
        """
        return _with_fix(error, self._refine(error, base, named=True))

    def _refine(
        self, error: ErrorInput, base: MappedError | None, *, named: bool
    ) -> MappedError | None:
        state = _sqlstate(error, base)
        # PgBouncer's messages are whole lines no PostgreSQL message equals.
        match = _pgbouncer(error.message)
        if match is not None and match.lastgroup is not None:
            template = _TEMPLATES[int(match.lastgroup[1:])]
            return _answer(base, RULES[template], state)
        logged = _log_line(error, base, state)
        if logged is not None:
            return logged
        if "(E" in error.message[:_SCAN] and _SUPAVISOR_CODE.search(error.message, 0, _SCAN):
            return None  # Supavisor's coded error: the supavisor refiner's
        prepared = _prepared(error, base, state, named)
        if prepared is not None:
            return prepared
        return _relayed(error, base) if state == "08P01" else None

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        None: PgBouncer sends its errors under one SQLSTATE (``08P01``); the
        messages in the generated ``_messages.RULES`` carry their kinds.

        Returns:
            An empty mapping.
        """
        return {}


def _log_line(error: ErrorInput, base: MappedError | None, state: str | None) -> MappedError | None:
    """
    PgBouncer's own log line: the kind its message decides, else the base's, as PgBouncer's.
    """
    message = error.message
    match = _LOG_LINE.search(message, 0, _SCAN) or _SOCKET_LINE.search(message, 0, _SCAN)
    if match is None:
        return None
    start = match.start("msg")
    for opening, rule in _LOG_DECIDING:
        if message.startswith(opening, start):
            if rule == "reason":
                at = start + len(opening)
                for reason, template in _REASONS:
                    if reason and message.startswith(reason, at):
                        return _answer(base, RULES[template], state)
                break
            if isinstance(rule, tuple):
                return _answer(base, rule, state)
            relayed = _relayed(error, base)
            if relayed is not None:
                return relayed
            break
    # Another of its log lines: PgBouncer's, with the kind the text gives.
    return None if base is None else base._replace(refine=None)


def _relayed(error: ErrorInput, base: MappedError | None) -> MappedError | None:
    """A server's login failure that PgBouncer passed on under its own 08P01."""
    postgresql = ErrorMapperRegistry.lookup("postgresql")
    if not isinstance(postgresql, BackendMapper):
        return None
    by_text = postgresql.map_error(ErrorInput(None, error.message, None, error.driver))
    if by_text is None or by_text.kind not in _RELAYED:
        return None
    if base is None:
        return by_text
    return base._replace(kind=by_text.kind, refine=None)


class SupavisorRefiner(ErrorRefiner):
    """
    Supavisor in front of PostgreSQL: its coded errors (``(EMAXCONN) ...``) and older wording.
    """

    name = "supavisor"
    refines = ("postgresql",)
    display_name = "Supavisor"
    # Its coded errors, "(EMAXCONN) ...", and its wording before it coded them.
    claims = RefinerClaims(
        codes=_PREPARED_STATES,
        markers=(
            *(f"({code})" for code in SUPAVISOR_RULES),
            *_SUPAVISOR_OLD_TEXTS,
            _SUPAVISOR_REASON_LEAD.rstrip(),
        ),
        kinds=PROXY_KINDS,
    )

    def refine_error(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Recognise Supavisor's errors in the PostgreSQL mapper's answer.

        Args:
            error: The exception and its text.
            base: The PostgreSQL mapper's answer.

        Returns:
            The refined answer, with Supavisor's code as the native code, or ``None``.
        """
        message = error.message
        # The caller's code first (a code alone is enough), then the message's.
        code = error.code.strip().upper() if isinstance(error.code, str) else None
        if code not in SUPAVISOR_RULES:
            match = _SUPAVISOR_CODE.search(message, 0, _SCAN)
            if match is not None:
                code = match.group("code")
            else:
                old = _SUPAVISOR_OLD.search(message, 0, _SCAN)
                if old is None and _SUPAVISOR_REASON_LEAD in message[:_SCAN]:
                    old = _SUPAVISOR_REASON.search(message, 0, _SCAN)
                code = old.lastgroup if old is not None else None
        rule = SUPAVISOR_RULES.get(code) if code is not None else None
        return None if rule is None else _with_fix(error, _answer(base, rule, code))

    def refine_named(self, error: ErrorInput, base: MappedError | None) -> MappedError | None:
        """
        Named `supavisor`: its own errors, and prepared-statement conflicts as the pooler's.

        Args:
            error: The exception and its text.
            base: The PostgreSQL mapper's answer.

        Returns:
            The refined answer, or `None` to keep the PostgreSQL mapper's.
        """
        refined = self.refine_error(error, base)
        if refined is None:
            refined = _with_fix(error, _prepared(error, base, _sqlstate(error, base), named=True))
        return refined

    def declared_codes(self) -> Mapping[str, Kind]:
        """
        Supavisor's error codes and their kinds.

        Returns:
            ``{"EMAXCONN": Kind.TOO_MANY_CONNECTIONS, ...}``.
        """
        return {code: rule[0] for code, rule in SUPAVISOR_RULES.items()}


@hookimpl
def localdata_errors_mappers() -> list[BackendMapper]:
    """
    Contribute the PgBouncer and Supavisor refiners.

    Returns:
        Both refiners, PgBouncer first (it answers the pooled prepared-statement
        errors that do not name their pooler).
    """
    return [PgBouncerRefiner(), SupavisorRefiner()]
