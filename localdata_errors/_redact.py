"""
Credential and parameter masking: nothing that looks like a secret reaches an output.

`redact` masks credentials wherever drivers and servers echo them: SQL
credential clauses in the excerpts servers quote back (PostgreSQL's and
DuckDB's `LINE 1:`, MariaDB's `near '...'`), key=value and JSON/YAML pairs,
HTTP authorization, cloud access keys, PEM private keys, URL user-info,
Oracle connect strings, and every value the caller names.  The whole value
is masked, never just the part that equals a known secret.

How it stays cheap: the text is case-folded once (`str.lower`, plus the four
characters that Python's case-insensitive matching equates with an ASCII
letter), and one compiled pattern, each of whose branches begins with a
literal character, finds every place a credential can start.  Text without
one is returned as it is: that one pass is the whole cost of the common
message (`may_hold_secret` answers the same question).  Each place found is
then read with anchored patterns that either consume what they scan or fail
within a bounded distance, so the cost is linear in the text's length.  The
words that name a credential come from `localdata_errors._credential_words`,
which the SQL reader (`localdata_errors._sqlread`) builds on too.

Callers cut before they mask: a classification bounds its message to 8 KiB
first, so redaction never runs over megabytes (`redact(text, limit=...)`
does the cut itself).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from functools import cache
from itertools import islice
from typing import TYPE_CHECKING, Final

from localdata_errors import _token_rules
from localdata_errors._credential_words import KEY_PREFIXES, KEY_WORDS
from localdata_errors._lazy import LazyPattern, Literals, fold
from localdata_errors._log import log_once

if TYPE_CHECKING:
    from collections.abc import Callable

    from localdata_errors._sqlread import Credentials

    # The statement reader's functions: where a key word ends, and the values.
    _StatementReader = tuple[Callable[[str], int | None], Callable[[str], Credentials]]

__all__ = [
    "MASK",
    "MIN_SECRET_LENGTH",
    "credentials_in",
    "credentials_in_statement",
    "may_hold_secret",
    "normalize_secrets",
    "redact",
    "redact_name",
    "redact_reading",
]

#: What a secret is replaced with.
MASK: Final = "***"
#: Caller-named values shorter than this are ignored: masking every token
#: that contains two given characters would destroy the text and protect nothing.
MIN_SECRET_LENGTH: Final = 3
#: How many caller-named values are read from one iterable (a generator may not end).
MAX_SECRETS: Final = 4096
#: How many credential sites one text is read for one by one.  Past this the
#: text is not a driver's message but a dump (or an attack on the masking
#: itself): the rest of it, from that site on, is masked whole.
MAX_SITES: Final = 32

# -- where a credential may start ---------------------------------------------------

# A literal value: a quoted string (with E'', N'', X'', B'', U&'' or a MySQL
# charset introducer such as _utf8mb4 before it) or a dollar-quoted one.
_LIT = r"""(?:(?:[enxb]|u&|_[a-z0-9]{1,32}[ \t]{0,4})?\\{0,3}'|\$(?:[a-z_][a-z0-9_]{0,31})?\$)"""
# The same, with double-quoted strings (MySQL without ANSI_QUOTES, Oracle).
_LITQ = (
    r"""(?:(?:[enxb]|u&|_[a-z0-9]{1,32}[ \t]{0,4})?\\{0,3}['"]|\$(?:[a-z_][a-z0-9_]{0,31})?\$)"""
)
# key=value, key: value, key := value, key => value; the key may end a quoted
# name ("password": ...), also JSON escaped inside a string (\"password\": ...).
# "::" is a cast, "://" a URL; MySQL's "(using password: YES)" says whether a
# password was sent, not which; SQLite's 'near "token": syntax error' names a token.
_KV = (
    r"""(?:\\?["']){0,2}+[ \t]{0,8}+(?:=>?|:(?![/:])=?)[ \t]{0,8}+(?!(?:yes|no)\)|syntax\ error)"""
)
# PASSWORD 'x', SECRET 'x' ...: a SQL clause, a literal after white space.
_SQL = rf"""\s{{1,16}}(?={_LIT})"""
# PASSWORD('x'), OLD_PASSWORD('x').
_FN = rf"""[ \t]{{0,8}}\([ \t]{{0,8}}(?={_LITQ})"""
# SET PASSWORD FOR 'u'@'h' = ...
_ACCOUNT = r"""(?:'[^'\n]{0,80}'|"[^"\n]{0,80}"|`[^`\n]{0,80}`|[a-z0-9_.$-]{1,80})"""
_FOR = rf"""\s{{1,8}}for\s{{1,8}}{_ACCOUNT}(?:@{_ACCOUNT})?\s{{0,8}}=\s{{0,8}}"""
# What may follow a key, roughly: checked before the key's many look-behinds.
_CONNECTOR = r"""[\\"' \t]{0,10}[=:]|\s{1,16}['$enxbu_]"""
_KEY_LOOKBEHINDS = "|".join(
    f"(?<={prefix}{sep}key)" for prefix in KEY_PREFIXES for sep in ("_", "-", "")
)
_IDENTIFIED = rf"""
    \s{{1,16}}
    (?:(?:with|via)\s{{1,16}}(?:'[^'\n]{{0,64}}'|"[^"\n]{{0,64}}"|`[^`\n]{{0,64}}`|[a-z0-9_]{{1,64}})
       \s{{1,16}}(?:by|as|using)
      |by)
    \s{{1,16}}
    (?:(?:old_)?password[ \t]{{0,16}}(?:\([ \t]{{0,8}})?(?={_LITQ})|values\s{{1,16}})?
"""
# What the first character after a key word must be, past any white space, for
# its tail to match (a necessary condition, checked in one step before the
# tail's branches, so that "password expired" costs one step): a quote, "="
# or ":" (key=value), the start of a literal (SQL: E' N' X' B' U& _charset'
# $$), "(" (PASSWORD('x')), "for" (SET PASSWORD FOR).
_LITERAL_START = r"""[enxb][\\']|u&|_[a-z0-9]{1,32}+[ \t]{0,4}+[\\']"""
_AFTER_W = rf"""(?=\s{{0,16}}+(?:[\\"'=:('$]|{_LITERAL_START}|for\s))"""
_AFTER_KEY = rf"""(?=\s{{0,16}}+(?:[\\"'=:$]|{_LITERAL_START}))"""
_AFTER_PAIR = r"""(?=\s{0,16}+[\\"'=:])"""
# What follows a key word: key=value or a SQL clause (and, after password,
# PASSWORD('x') and SET PASSWORD FOR u = ...).  Named per key word, for the
# readers; shared by the one pattern and the families below.
_TAIL_W = rf"{_AFTER_W}(?:{_KV}(?P<kv_w>)|{_SQL}(?P<sql_w>)|{_FN}(?P<fn_w>)|{_FOR}(?P<for_w>))"
_TAIL_C = rf"{_AFTER_KEY}(?:{_KV}(?P<kv_c>)|{_SQL}(?P<sql_c>))"
_TAIL_K = rf"{_AFTER_KEY}(?:{_KV}(?P<kv_k>)|{_SQL}(?P<sql_k>))"
_TAIL_Z = rf"{_AFTER_PAIR}{_KV}(?P<kv_z>)"
# An AWS access key id's 16 characters, a Google API key's 35: stepped over in
# one step, the character after them checked first, then read backwards, so
# that inside a long run of letters ("akiaakia...") each is rejected unread.
_AWS_TAIL = r"(?s:.{16})(?![a-z0-9])(?<=akia[a-z0-9]{16})(?P<aws>)"
_AIZA_TAIL = r"(?s:.{35})(?![a-z0-9_-])(?<=aiza[a-z0-9_-]{35})(?P<aiza>)"
# The branches the families below share whole with the one pattern.
_PASSWORD = rf"w(?:ord(?<=password)|d(?<=passwd)){_TAIL_W}"
_PWD = rf"wd(?<=pwd){_AFTER_PAIR}{_KV}(?P<kv_w2>)"
# pass=, passphrase=, sig= and signature= (query strings, Azure SAS): key=value only
_EQUALS = r"""=(?<=[seg\ ]=)(?:(?<=pass=)|(?<=pass\ =)|(?<=passphrase=)|(?<=passphrase\ =)
    |(?<=sig=)|(?<=signature=))[ \t]{0,8}+(?P<kv_eq>)"""
# IDENTIFIED [WITH|VIA plugin] BY|AS|USING [PASSWORD(] value
_IDENTIFIED_BY = rf"fied(?<=identified){_IDENTIFIED}(?P<identified>)"
_BEARER = r"bearer\s{1,8}(?=\S)(?P<bearer>)"
# A PEM private key, from the dashes of its header on.
_PEM_BEGIN = r"-----begin\ "
_PEM_REST = r"[a-z0-9 ]{0,40}private\ key[a-z ]{0,16}-----(?P<pem>)"
# A literal a server could not parse (MariaDB near ''x' ...', PostgreSQL
# near "'x'"), also inside a repr (near \'\'x...); MySQL's ALTER USER ... REPLACE 'old'.
_QUOTE = rf"""'(?<=[\ \\]')(?:(?<=near\ ')(?!'\ at\ line\ \d)(?={_LITQ})(?P<near_s>)
                      |(?<=near\ \\')(?!\\'\ at\ line\ \d)(?={_LITQ})(?P<near_e>)
                      |(?<=replace\ ')(?P<replace_s>)
                      |(?<=replace\ \\')(?P<replace_e>)
                      |(?<=near\ ')(?P<near_x>))"""
_DOUBLE_QUOTE = rf'"(?<=\ ")(?:(?<=near\ ")(?={_LITQ})(?P<near_d>)|(?<=replace\ ")(?P<replace_d>))'
# An excerpt cut on the left: LINE 1: ...SSWORD 'x' (PostgreSQL, DuckDB).
# Then a quote within 64 characters with no line break before it: looked for
# with the one character first (the engine reads a run of one excluded
# character four times faster than a run of two).
_CUT_QUOTE = r"""(?=[^']{0,64}+')(?=[^'\n]*+')(?P<cut>)"""
_CUT = rf"""\.\.\.(?:(?<=line\ \d:\ \.\.\.)|(?<=line\ \d\d:\ \.\.\.)|(?<=line\ \d\d\d:\ \.\.\.))
    {_CUT_QUOTE}"""
# The statement a server echoes from its start: LINE 1: ... (PostgreSQL, DuckDB).
_LINE = r""":(?<=\d:)\ (?:(?<=line\ \d:\ )|(?<=line\ \d\d:\ )|(?<=line\ \d\d\d:\ ))(?P<line>)"""
# Every place a credential may start.  Each key word is matched from a rarely
# used letter (its "w", its "c", its "k"), with a look-behind for the letters
# before it, so the scan stops at few places in ordinary text.
_PLACES = rf"""(?x)
    # password, passwd (from their "w", a rare letter): every form
      {_PASSWORD}
    | {_PWD}
    # secret, credentials, connection_string (from the "c" of its "ction")
    | c(?:ret(?<=secret)|redentials?
         |tion(?:_string(?<=connection_string)|string(?<=connectionstring))){_TAIL_C}
    # token, key_id, api_key / access_key / private_key ...; AWS access key ids
    | k(?:(?:en(?<=token)(?<!unrecognized\ token)
            |ey[_-]?id
            |ey(?={_CONNECTOR})(?:{_KEY_LOOKBEHINDS}))
         {_TAIL_K}
       |ia(?<=akia){_AWS_TAIL})
    | {_EQUALS}
    # Authorization: ...; Google API keys
    | z(?:ation(?<=authorization){_TAIL_Z}
         |a(?<=aiza){_AIZA_TAIL})
    | {_IDENTIFIED_BY}
    | {_BEARER}
    | {_PEM_BEGIN}{_PEM_REST}
    | {_QUOTE}
    | {_DOUBLE_QUOTE}
    | {_CUT}
    | {_LINE}
    """
#: A place the trigger matches: its start, its end, its kind (the branch's group).
_Site = tuple[int, int, str]
_TRIGGER: Final = LazyPattern(
    # scheme://user:password@host, Oracle's user/password@service: read backwards from the @
    _PLACES + "| @(?P<at>)"
)
# The same without the "@", searched before the text's first "/": each reading
# of an "@" (`_at_sign`) ends at a "/" before it, so an "@" with none before it
# (an e-mail address, MySQL's 'user'@'host', SQL Server's @param) is no place.
_TRIGGER_BEFORE_SLASH: Final = LazyPattern(_PLACES)

# AWS temporary access key ids; "asia" is searched for on its own, as its
# letters are too common to start a branch of the pattern above with.
_ASIA: Final = LazyPattern(r"(?<![a-z0-9])asia[a-z0-9]{16}(?![a-z0-9])")
# -- token shapes --------------------------------------------------------------------
#
# The shapes of API tokens (GitHub's ghp_..., OpenAI's sk-proj-..., a JWT...)
# come from gitleaks' maintained rule set, generated into `_token_rules`.
# Every match of every rule holds a run of `_token_rules.MIN_RUN` letters,
# digits, "_" or "-": that run is the one gate, looked for with
# bytes.translate and a substring search (both at C speed, linear).  A rule
# can match only where the text's longest run reaches its matches' least
# (`_token_rules.LEAST_RUNS`): most texts that pass the gate hold a long name,
# not a token, and reach few rules.  Among those, only a rule one of whose
# key words the text holds is run (each rule's key words are strings one of
# which every match of it holds, `_token_rules.KEYWORDS`, found in one pass
# by `_lazy.Literals`), and a rule whose matches need hold none.

_TOKEN_CHARS: Final = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_TOKEN_TABLE: Final = bytes(0x61 if i in _TOKEN_CHARS else 0x20 for i in range(256))
_TOKEN_RUN: Final = b"a" * _token_rules.MIN_RUN


@cache
def _runs() -> re.Pattern[bytes]:
    """The gate's runs, found in its translated text (compiled by the first text it passes)."""
    return re.compile(_TOKEN_RUN + b"a*")


# The rules a match of which need hold no literal (a bare run of hex digits).
_UNKEYED: Final = tuple(i for i, words in enumerate(_token_rules.KEYWORDS) if not words)
# The rules' least runs, shortest first.
_LEVELS: Final = sorted(set(_token_rules.LEAST_RUNS))


@cache
def _keywords_upto(run: int) -> Literals:
    """The key words of the rules whose matches' least run is *run* or shorter."""
    return Literals(
        (keyword, index)
        for index, keywords in enumerate(_token_rules.KEYWORDS)
        if _token_rules.LEAST_RUNS[index] <= run
        for keyword in keywords
    )


def _token_spans(text: str, folded: str, first: bool = False) -> list[_Span]:
    """The tokens of the generated rules in *text* (only the first, with *first*)."""
    # A character that is not ASCII becomes "?", which the table makes a space.
    if len(text) < _token_rules.MIN_RUN:
        return []
    runs = folded.encode("ascii", "replace").translate(_TOKEN_TABLE)
    # find, not `in`: bytes' `in` first reads its operand as a byte value and
    # builds a TypeError's message before it searches.
    if runs.find(_TOKEN_RUN) < 0:
        return []
    spans: list[_Span] = []
    # Only a rule whose matches' least run the text's longest run reaches can
    # match: among those, the rules one of whose key words the text holds,
    # found in one pass, and those without key words.  Then each, in order.
    longest = _LEVELS[bisect_right(_LEVELS, max(map(len, _runs().findall(runs)))) - 1]
    rules = _keywords_upto(longest).found(folded)
    for index in _UNKEYED:
        if _token_rules.LEAST_RUNS[index] <= longest:
            rules.add(index)
    for index in sorted(rules):
        pattern = _token_rules.PATTERNS[index]
        for match in islice(pattern.get().finditer(text), MAX_SITES):
            # The secret is the rule's first group that took part, else the match.
            group = next(
                (g for g in range(1, (match.re.groups or 0) + 1) if match.start(g) >= 0), 0
            )
            spans.append(match.span(group))
            if first:
                return spans
    if spans:
        spans += _cut_copies(text, spans)
    return spans


def _cut_copies(text: str, spans: list[_Span]) -> list[_Span]:
    """
    Copies of each token cut by an excerpt (DuckDB's `LINE 1: ...ghp_abc...`).

    A server that cuts its excerpt to a width leaves a token's first or last
    characters, which no rule matches any more: wherever the token's first
    (or last) `MIN_RUN` characters occur, the run of the token's own
    characters around them is masked (a `/` or a `.` inside a token too).
    """
    found: list[_Span] = []
    reversed_text = text[::-1]
    for start, end in spans[:MAX_SITES]:
        token = text[start:end]
        if len(token) < 2 * _token_rules.MIN_RUN:
            continue
        run = re.compile(f"[{re.escape(''.join(sorted(set(token))))}]*+")
        head, tail = token[: _token_rules.MIN_RUN], token[-_token_rules.MIN_RUN :]
        at = text.find(head)
        while at >= 0 and len(found) < MAX_SITES:
            stop = run.match(text, at).end()  # type: ignore[union-attr]  # "*+" always matches
            found.append((at, stop))
            at = text.find(head, stop)
        at = text.find(tail)
        while at >= 0 and len(found) < 2 * MAX_SITES:
            stop = at + len(tail)
            back = run.match(reversed_text, len(text) - stop).end()  # type: ignore[union-attr]
            found.append((len(text) - back, stop))
            at = text.find(tail, stop)
    return found


# -- reading a value -----------------------------------------------------------------

# Each ends at its closing quote, or at the end of the text when that is
# missing: a match always consumes what it scanned, so even a search from
# every offset stays linear.  Written unrolled (a run, then each escape
# followed by a run), the engine takes each run in one step.
_SINGLE: Final = LazyPattern(r"(?s)'[^'\\]*+(?:(?:\\.?|'')[^'\\]*+)*+(?:'|\Z)")
_DOUBLE: Final = LazyPattern(r'(?s)"[^"\\]*+(?:(?:\\.?|"")[^"\\]*+)*+(?:"|\Z)')
# The same without backslash escapes (standard SQL strings, PostgreSQL's default):
# where the two readings differ, the longer one is masked.
_SINGLE_PLAIN: Final = LazyPattern(r"'[^']*+(?:''[^']*+)*+(?:'|\Z)")
_DOUBLE_PLAIN: Final = LazyPattern(r'"[^"]*+(?:""[^"]*+)*+(?:"|\Z)')
# And escaped twice over (JSON in a MySQL string: \\" is an escaped quote once
# the outer string's escapes are read).
_SINGLE_TWICE: Final = LazyPattern(r"(?s)'[^'\\]*+(?:(?:\\\\'|\\.?|'')[^'\\]*+)*+(?:'|\Z)")
_DOUBLE_TWICE: Final = LazyPattern(r'(?s)"[^"\\]*+(?:(?:\\\\"|\\.?|"")[^"\\]*+)*+(?:"|\Z)')
# JSON escaped inside a string: \"value\"
_ESCAPED: Final = LazyPattern(r'\\"(?:[^"\\]++|\\[^"])*+\\"')
# ''x'' with its own readings: plain, backslash escapes (\'' an escaped quote),
# and escapes escaped (\\'').
_DOUBLED_READINGS: Final = tuple(
    LazyPattern(p.replace("Q", quote))
    for quote in "'\""
    for p in (
        r"QQ[^Q]*+(?:(?:QQQQ|Q(?!Q))[^Q]*+)*+(?:QQ|\Z)",
        r"(?s)QQ[^Q\\]*+(?:(?:\\(?:QQ|.)?|QQQQ|Q(?!Q))[^Q\\]*+)*+(?:QQ|\Z)",
        r"(?s)QQ[^Q\\]*+(?:(?:\\\\QQ|\\(?:QQ|.)?|QQQQ|Q(?!Q))[^Q\\]*+)*+(?:QQ|\Z)",
    )
)
# What may follow an empty literal '' (so that it is one, not a doubled quote).
_AFTER_EMPTY: Final = frozenset({"", " ", "\t", "\r", "\n", ",", ";", ")", "'", '"'})
# ODBC: {value}, "}}" a literal "}"
_BRACED: Final = LazyPattern(r"\{(?:[^{}]++|\}\})*+(?:\}|\Z)")
# Snowflake's CREDENTIALS = (AWS_KEY_ID = '...' AWS_SECRET_KEY = '...')
_GROUP: Final = LazyPattern(
    r"""(?sx)\(
    (?:[^()'"]++
      |''(?=[^'\s,;)])(?:[^']++|'''')*+(?:''|\Z)  # ''x'': quotes doubled in a quoted statement
      |'(?:[^'\\]++|\\.?|'')*+(?:'|\Z)
      |"(?:[^"\\]++|\\.?|"")*+(?:"|\Z)
    )*+(?:\)|\Z)"""
)
_DOLLAR: Final = LazyPattern(r"\$(?:[A-Za-z_][A-Za-z0-9_]{0,31})?\$")
_PREFIX: Final = LazyPattern(r"""(?:[enxb]|u&|_[a-z0-9]{1,32}[ \t]{0,4})(?=\\{0,3}['"])""")
# A quote escaped by the text around it: a repr ('... \'x\' ...'), a string in a string.
_ESCAPED_QUOTE: Final = LazyPattern(r"""\\{1,3}['"]""")
_PASSWORD_CALL: Final = LazyPattern(r"(?:old_)?password[ \t]{0,16}\([ \t]{0,8}")
_REPLACE_AFTER: Final = LazyPattern(r"\s{1,16}replace\s{1,16}")
_AUTHORITY_END: Final = LazyPattern(r"[^\s/]*+")
_KEYWORD: Final = LazyPattern(r"[a-z_-]*+")
_KEY_REVERSED: Final = LazyPattern(r"[\w.-]{0,64}")
# Where an unquoted value ends: at white space; after a ";"-separated key
# (ODBC, JDBC, ADO.NET) at ";"; in a query string at "&"; in JSON at ",", "}"
# or "]"; after an unquoted "key:" (YAML, an HTTP header) at the end of the line.
_TO_SPACE: Final = LazyPattern(r"\S*+")
_A_SPACE: Final = LazyPattern(r"\s")
_TO_SEMICOLON: Final = LazyPattern(r"[^\s;]*+")
_TO_AMPERSAND: Final = LazyPattern(r"[^\s&#]*+")
_TO_JSON_END: Final = LazyPattern(r"[^\s,}\]]*+")
_TO_LINE_END: Final = LazyPattern(r"[^\r\n]*+")

# The engine reads a run one character at a time, some 1.5 ns each: a short run
# is read by the pattern, a longer one in ASCII text is cut at the first of the
# characters it stops at, each found with str.find (a memchr).
_SHORT_RUN: Final = 64
# White space as the pattern engine reads it in ASCII text (tests/test_redaction_scan.py
# derives it from the re module).
ASCII_SPACE: Final = " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
_STOPS: Final = {
    _TO_SPACE: ASCII_SPACE,
    _TO_SEMICOLON: ASCII_SPACE + ";",
    _TO_AMPERSAND: ASCII_SPACE + "&#",
    _TO_JSON_END: ASCII_SPACE + ",}]",
    _TO_LINE_END: "\r\n",
    _AUTHORITY_END: ASCII_SPACE + "/",
}


def _run_end(folded: str, at: int, run: LazyPattern) -> int:
    """Where *run* (one of `_STOPS`) read from *at* ends."""
    near = at + _SHORT_RUN
    end: int = run.get().match(folded, at, near).end()  # type: ignore[union-attr]  # "*+" matches
    if end < near:
        return end
    if not folded.isascii():
        return run.get().match(folded, end).end()  # type: ignore[union-attr]
    stop = len(folded)
    for char in _STOPS[run]:
        found = folded.find(char, end, stop)
        if found >= 0:
            stop = found
    return stop


def _in_token(folded: str, found: int, at: int) -> bool:
    """Whether *found* lies in the run of non-space characters that ends at *at*."""
    return found >= 0 and _A_SPACE.get().search(folded, found, at) is None


# Which keys may introduce a SQL literal after white space (PASSWORD 'x'): one
# of these words, or a name ending in "_" or "-" and one (client_secret,
# session_token); "compass 'x'" is no clause.
# (IDENTIFIED is read with BY, below; a message may write "-" where SQL has "_".)
_SQL_WORDS: Final = frozenset(
    {
        *(word for word in KEY_WORDS if word != "identified"),
        "key-id",
        *(f"{prefix}-key" for prefix in KEY_PREFIXES),
    }
)
_SQL_SUFFIXES: Final = tuple(f"{sep}{word}" for word in sorted(_SQL_WORDS) for sep in "_-")

_Span = tuple[int, int]
# The plain reading first (see `_literal_end`).
_SINGLE_READINGS: Final = (_SINGLE_PLAIN, _SINGLE, _SINGLE_TWICE)
_DOUBLE_READINGS: Final = (_DOUBLE_PLAIN, _DOUBLE, _DOUBLE_TWICE)


def _literal_end(text: str, folded: str, at: int) -> int:
    """The end of the literal opening at *at*; the end of the text when it is cut."""
    first = folded[at]
    match: re.Match[str] | None
    if first == "\\":
        # JSON inside a string: \"value\"; else a literal inside a repr, whose
        # own escapes (\', \\, doubled quotes) hide where it ends: to the line's end.
        match = _ESCAPED.get().match(folded, at)
        if match is not None:
            return match.end()
        line = folded.find("\n", at)
        return len(folded) if line < 0 else line
    if first in "'\"":
        if folded[at + 1 : at + 2] == first and folded[at + 2 : at + 3] not in _AFTER_EMPTY:
            # ''x'': a statement quoted in a statement (dynamic SQL, a LINE excerpt
            # of one), its quotes doubled.
            readings = _DOUBLED_READINGS[:3] if first == "'" else _DOUBLED_READINGS[3:]
        else:
            readings = _SINGLE_READINGS if first == "'" else _DOUBLE_READINGS
        end = readings[0].get().match(folded, at).end()  # type: ignore[union-attr]  # always matches
        if folded.find("\\", at, end) < 0:
            # No backslash in it: the escaped readings read it as the plain one does.
            return end
        # Where the readings (backslash escapes or not, escaped once or twice)
        # disagree, the longest is masked.
        return max(end, *(r.get().match(folded, at).end() for r in readings[1:]))  # type: ignore[union-attr]
    if first == "{":
        match = _BRACED.get().match(folded, at)
    elif first == "(":
        match = _GROUP.get().match(folded, at)
    else:  # "$": a dollar quote ends at the same tag, case and all
        tag = _DOLLAR.get().match(text, at)
        if tag is None:
            return at
        close = text.find(tag.group(), tag.end())
        return len(text) if close < 0 else close + len(tag.group())
    return len(folded) if match is None else match.end()


def _value_end(text: str, folded: str, at: int, bare: LazyPattern | None) -> int:
    """The end of the value starting at *at*: a literal, else a bare run (when *bare*)."""
    stop = _literal_value_end(text, folded, at, bare is not None)
    if stop is not None:
        return stop
    return at if bare is None else _run_end(folded, at, bare)


def _literal_value_end(text: str, folded: str, at: int, braces: bool) -> int | None:
    """
    The end of the literal value starting at *at* (*at* itself past the text's
    end); `None` when no literal starts there.  Braces and groups are literals
    only with *braces* (after "=" or ":").
    """
    if at >= len(folded):
        return at
    first = folded[at]
    if first in "'\"{(" or (first == "$" and _DOLLAR.get().match(text, at)):
        if first in "{(" and not braces:
            return None
        return _literal_end(text, folded, at)
    if first == "\\" and _ESCAPED_QUOTE.get().match(folded, at):
        return _literal_end(text, folded, at)
    prefix = _PREFIX.get().match(folded, at)
    if prefix is not None:
        return _literal_end(text, folded, prefix.end())
    call = _PASSWORD_CALL.get().match(folded, at)
    if call is not None and call.end() < len(folded) and folded[call.end()] in "'\"$\\":
        return _literal_end(text, folded, call.end())
    return None


def _key_start(folded: str, end: int) -> int:
    """Where the name ending at *end* begins (PGPASSWORD, aws_secret_access_key)."""
    low = max(end - 64, 0)
    reversed_key = folded[end - 1 : low - 1 : -1] if low else folded[end - 1 :: -1]
    return end - _KEY_REVERSED.get().match(reversed_key).end()  # type: ignore[union-attr]


def _keyword_end(folded: str, start: int) -> int:
    return _KEYWORD.get().match(folded, start).end()  # type: ignore[union-attr]


# Each reader takes a place the trigger found (where its match starts and
# ends) and returns the span to mask, if any.


def _key_value(text: str, folded: str, start: int, end: int) -> _Span | None:
    at = end
    stop = _literal_value_end(text, folded, at, True)
    if stop is None:
        # A bare value: where it ends depends on the key's form.
        bare = _bare_run(folded, start, end)
        stop = _run_end(folded, at, bare)
        if (
            bare is _TO_SPACE
            and stop - at > 1
            and folded[stop - 1] in ",;)"
            and folded[at] not in "$\\"  # a "$" or "\\" that opens no literal
        ):
            # SQL's SET password = x, api_key = y: a trailing separator is the text's.
            stop -= 1
    return (at, stop) if stop > at else None


def _bare_run(folded: str, start: int, end: int) -> LazyPattern:
    """Where a bare value after the key word at *start* (its connector ending at *end*) ends."""
    key_end = _keyword_end(folded, start)
    connector = folded[key_end:end]
    if "=" not in connector:  # "key: value"
        quoted_key = connector[:1] in ('"', "'", "\\")
        return _TO_JSON_END if quoted_key else _TO_LINE_END
    key_start = _key_start(folded, key_end)
    before = folded[key_start - 1] if key_start else ""
    return _TO_SEMICOLON if before == ";" else _TO_AMPERSAND if before in ("?", "&") else _TO_SPACE


def _sql_clause(text: str, folded: str, start: int, end: int) -> _Span | None:
    key_end = _keyword_end(folded, start)
    key = folded[_key_start(folded, key_end) : key_end]
    if key not in _SQL_WORDS and not key.endswith(_SQL_SUFFIXES):
        return None  # "compass 'x'" is no credential clause
    stop = _value_end(text, folded, end, None)
    return (end, stop) if stop > end else None


def _literal_after(text: str, folded: str, start: int, end: int) -> _Span | None:
    stop = _value_end(text, folded, end, None)
    return (end, stop) if stop > end else None


def _bare_after(text: str, folded: str, start: int, end: int) -> _Span | None:
    stop = _value_end(text, folded, end, _TO_SPACE)
    return (end, stop) if stop > end else None


def _replace(text: str, folded: str, start: int, end: int) -> _Span | None:
    start -= folded[start - 1] == "\\"  # a quote escaped in a repr
    keyword = start - 8  # "replace "
    if keyword > 0 and folded[keyword - 1].isalnum():
        return None  # "xreplace 'y'"
    return (start, _literal_end(text, folded, start))


def _cut(text: str, folded: str, start: int, end: int) -> _Span | None:
    # The server cut the statement at a fixed width from the error: what is
    # left may begin inside a literal, or inside the key word that introduced
    # it.  Neither can be told from what remains, so the text from the cut to
    # the end of the first literal is masked.
    quote = folded.index("'", end)
    return (end, _literal_end(text, folded, quote))


def _at_sign(text: str, folded: str, start: int, end: int) -> _Span | None:
    at = start
    # What comes before the "@" is read within its token (the run of
    # non-space characters that ends there, 1 KiB at most): each mark is
    # found backwards from the "@" by str.rfind, then checked to lie in the
    # token; the token itself is not read backwards for every "@" in it.
    low = max(at - 1024, 0)
    scheme = folded.rfind("://", low, at)
    if not _in_token(folded, scheme, at) and scheme >= 0 and "\n" not in folded[scheme:at]:
        # A password typed with a space (or any character a URL would have
        # encoded) still runs from the user's colon to the "@": the user is
        # one word, the password anything on that line.
        colon = folded.find(":", scheme + 3, at)
        user = folded[scheme + 3 : colon]
        if colon > scheme + 3 and not any(c.isspace() or c in "/@" for c in user):
            last = folded.rfind("@", at, _run_end(folded, at, _AUTHORITY_END))
            return (colon + 1, last) if last > colon + 1 else None
    if _in_token(folded, scheme, at):
        # scheme://user:password@host: the password runs to the last "@" of the
        # authority, as an unencoded "@" in it leaves more than one.
        colon = folded.find(":", scheme + 3, at)
        if colon < 0 or "/" in folded[scheme + 3 : colon]:
            return None
        last = folded.rfind("@", at, _run_end(folded, at, _AUTHORITY_END))
        return (colon + 1, last) if last > colon + 1 else None
    # Oracle: user/password@service, user/"pass word"@service
    if at + 1 >= len(folded) or not (folded[at + 1].isalnum() or folded[at + 1] in "_[(/"):
        return None
    if folded[at - 1 : at] == '"':
        opening = folded.rfind('"', max(at - 258, 0), at - 1)
        slash = opening - 1
        if opening < 0 or "\n" in folded[opening:at]:
            return None
    else:
        slash = folded.rfind("/", low, at)
        if not _in_token(folded, slash, at) or any(c in "\"'" for c in folded[slash + 1 : at]):
            return None
    if slash <= 0 or folded[slash] != "/" or not _ORACLE_USER_END.get().match(folded, slash - 1):
        return None
    return (slash + 1, at) if at > slash + 1 else None


_ORACLE_USER_END: Final = LazyPattern(r"[\w$#]")
_PEM_END: Final = LazyPattern(r"end(?<=-----end)")


def _pem(text: str, folded: str, start: int, end: int) -> _Span | None:
    # The first "-----end" (found from its "end": dashes would stop a search
    # for the literal at each one).
    found = _PEM_END.get().search(folded, end + 5)
    footer = -1 if found is None else folded.find("-----", found.start() + 3)
    return (start, len(folded) if footer < 0 else footer + 5)


def _aws(text: str, folded: str, start: int, end: int) -> _Span | None:
    return (start - 1, end)


def _aiza(text: str, folded: str, start: int, end: int) -> _Span | None:
    return (start - 2, end)


_READERS: Final = {
    "kv_w": _key_value,
    "kv_w2": _key_value,
    "kv_c": _key_value,
    "kv_k": _key_value,
    "kv_eq": _key_value,
    "kv_z": _key_value,
    "sql_w": _sql_clause,
    "sql_c": _sql_clause,
    "sql_k": _sql_clause,
    "fn_w": _literal_after,
    "for_w": _bare_after,
    "replace_s": _replace,
    "replace_d": _replace,
    "identified": _bare_after,
    "bearer": _bare_after,
    "near_s": _literal_after,
    "near_d": _literal_after,
    "near_e": _literal_after,
    "replace_e": _replace,
    "cut": _cut,
    "at": _at_sign,
    "pem": _pem,
    "aws": _aws,
    "aiza": _aiza,
}


def _beyond_at(folded: str, match: re.Match[str]) -> re.Match[str] | None:
    """
    *match*, an "@" the trigger found, when it is a place; else the next place.

    An "@" is a place only after the text's first "/" (see `_TRIGGER_BEFORE_SLASH`).
    """
    slash = folded.find("/")
    if 0 <= slash < match.start():
        return match
    # Before the "/", the first place that is no "@"; else the first place from the "/" on.
    found = _TRIGGER_BEFORE_SLASH.get().search(folded, match.end())
    if slash < 0 or (found is not None and found.start() < slash):
        return found
    return _TRIGGER.get().search(folded, slash)


def _search(folded: str, pos: int) -> _Site | None:
    """The trigger's first place at or after *pos*, in one pass of the one pattern."""
    match = _TRIGGER.get().search(folded, pos)
    if match is None:
        return None
    if match.lastgroup == "at":
        match = _beyond_at(folded, match)
        if match is None:
            return None
    return (match.start(), match.end(), match.lastgroup or "")


#: The most characters of one echoed statement read with the SQL tokenizer;
#: past them, the excerpt is masked from its first credential key word on.
EXCERPT_LIMIT: Final = 512
#: How many echoed statements one text is read for; past them, each is
#: masked from its first credential key word on.
MAX_EXCERPTS: Final = 4
_AT_LINE: Final = "' at line "


def _excerpt_end(folded: str, start: int, kind: str) -> int:
    """Where the statement a server echoes from *start* ends."""
    if kind == "line":
        stop = folded.find("\n", start)
        return len(folded) if stop < 0 else stop
    # MariaDB, MySQL: ... near '<the rest of the statement>' at line 1 (the last such).
    stop = folded.rfind(_AT_LINE, start)
    return len(folded) if stop < 0 else stop


@cache
def _sqlread() -> _StatementReader:
    """
    The statement reader's two functions, imported by the first statement or echo read.

    The package's import stays without it (and sqlglot's gateway), and a
    call pays a cached call rather than an import statement's look-up.
    """
    from localdata_errors._sqlread import credential_end, read_credentials  # noqa: PLC0415

    return credential_end, read_credentials


def _excerpt(text: str, start: int, stop: int, spans: list[_Span], reads: list[int]) -> None:
    """
    Read the statement a server echoed, *text[start:stop]*, for its credentials.

    The value after each credential key word is masked whether quoted or not
    (`LINE 1: ALTER ROLE app PASSWORD hunter2`), and the rest of the excerpt
    after it: where a bare value ends cannot be told.  Each value is also a
    span of its own, so that `_values` finds it and its other occurrences
    (`at or near "hunter2"`) are masked too.
    """
    credential_end, read_credentials = _sqlread()
    excerpt = text[start:stop]
    word_end = credential_end(excerpt)
    if word_end is None:
        return
    reads[0] += 1
    if len(excerpt) > EXCERPT_LIMIT or reads[0] > MAX_EXCERPTS:
        spans.append((start + word_end, stop))
        return
    found = read_credentials(excerpt)
    if found.start is not None:
        spans.append((start + found.start, stop))
        spans += [(start + s, start + e) for s, e in found.values]


def _first_site(folded: str) -> _Site | None:
    """The first place (one pass of the one pattern)."""
    return _search(folded, 0)


def _credential_spans(text: str, folded: str, site: _Site | None) -> tuple[list[_Span], int | None]:
    """The credentials' spans, and where the rest is masked whole (past `MAX_SITES`)."""
    spans: list[_Span] = []
    sites = 0
    capped: int | None = None
    read_to = 0  # how far echoed statements were read: each character once
    reads = [0]
    while site is not None:
        start, end, kind = site
        sites += 1
        if sites > MAX_SITES:
            capped = start
            break
        if kind in _EXCERPTS and end >= read_to:
            read_to = _excerpt_end(folded, end, kind)
            _excerpt(text, end, read_to, spans, reads)
        reader = _READERS.get(kind)
        span = reader(text, folded, start, end) if reader is not None else None
        resume = end
        if span is not None:
            spans.append(span)
            resume = max(resume, span[1])
            if kind == "identified":
                resume = _replaced(text, folded, resume, spans)
            elif kind == "cut":
                # Read what was cut over again: if the cut fell inside a literal,
                # its first quote closed it, and a clause may follow.
                resume = end
        site = _search(folded, resume)
    if "asia" in folded:
        spans += [found.span() for found in islice(_ASIA.get().finditer(folded), MAX_SITES)]
    spans += _token_spans(text, folded)
    return spans, capped


# The places where a server echoes the client's statement.
_EXCERPTS: Final = frozenset({"line", "near_x", "near_s", "near_e"})
#: The places that are only an echoed statement (no reader of their own).
_ECHOES_ONLY: Final = _EXCERPTS - _READERS.keys()


def _replaced(text: str, folded: str, at: int, spans: list[_Span]) -> int:
    # Oracle's ALTER USER u IDENTIFIED BY new REPLACE old, MySQL's ... REPLACE 'old'.
    follow = _REPLACE_AFTER.get().match(folded, at)
    if follow is None:
        return at
    stop = _value_end(text, folded, follow.end(), _TO_SPACE)
    if stop > follow.end():
        spans.append((follow.end(), stop))
    return max(stop, follow.end())


# -- values the caller names ----------------------------------------------------------------


def _occurrences(text: str, values: Iterable[str], spans: list[_Span]) -> None:
    """Every occurrence of every value (of the first `MAX_SITES`), exactly."""
    for value in islice(values, MAX_SITES):
        at = text.find(value)
        while at >= 0:
            if len(spans) >= 2 * MAX_SITES:
                spans.append((at, len(text)))
                return
            spans.append((at, at + len(value)))
            at = text.find(value, at + len(value))


def _secret_spans(text: str, values: Iterable[str]) -> list[_Span]:
    """The whole token around every occurrence of every value (see `redact`)."""
    spans: list[_Span] = []
    reversed_text: str | None = None
    size = len(text)
    for value in values:
        at = text.find(value)
        while at >= 0:
            if len(spans) >= MAX_SITES:
                spans.append((at, size))
                return spans
            if reversed_text is None:
                reversed_text = text[::-1]
            # The non-space run before the value, read backwards: it ends where the token begins.
            before = _TO_SPACE.get().match(reversed_text, size - at)
            start = size - before.end()  # type: ignore[union-attr]  # "*+" always matches
            end = _TO_SPACE.get().match(text, at + len(value)).end()  # type: ignore[union-attr]
            start, end = _widen_to_literal(text, start, end)
            spans.append((start, end))
            at = text.find(value, max(end, at + 1))
    return spans


def _widen_to_literal(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a token to the quoted literal it sits in, when that literal holds spaces."""
    line = text.rfind("\n", 0, start) + 1
    for quote in "'\"":
        if text.count(quote, line, start) % 2:
            opening = text.rfind(quote, line, start)
            closing = text.find(quote, end)
            start = min(start, opening)
            end = max(end, len(text) if closing < 0 else closing + 1)
    return start, end


def normalize_secrets(secrets: object) -> tuple[str, ...]:
    """
    Turn whatever a caller passes as *secrets* into the texts to mask.  Never raises.

    - `None` and `bool` values: nothing;
    - a `str`: one secret (not its characters);
    - `bytes`, `bytearray`, `memoryview`: their UTF-8 text and their hex
      digits (PostgreSQL shows `bytea` as `\\x6869`);
    - numbers, `Decimal`, dates, any other object: `str(value)`, as a driver
      renders it (`Decimal("1.0")` is `1.0`, `1` is `1`: equal values that
      render differently are each kept);
    - a mapping: its values; any other iterable (a list, a set, a generator):
      its items, at most `MAX_SECRETS`, nested up to four levels;
    - an object whose `__str__` raises: left out, with a warning logged once.

    Texts shorter than `MIN_SECRET_LENGTH` are left out; duplicates are kept once.

    Args:
        secrets: Anything.

    Returns:
        The texts to mask, in order of first appearance.
    """
    if secrets is None or (type(secrets) is tuple and not secrets):
        return ()
    if type(secrets) is tuple and all(type(s) is str for s in secrets):
        # The hot path: classification passes the normalized tuple on to every field.
        return tuple(dict.fromkeys(s for s in secrets if len(s) >= MIN_SECRET_LENGTH))
    found: list[str] = []
    try:
        _collect(secrets, found, 0)
    except Exception as exc:  # noqa: BLE001 - a hostile iterable costs its remaining items only
        _warn("secrets:iterate", "could not read every value of secrets: %s", type(exc).__name__)
    return tuple(dict.fromkeys(s for s in found if len(s) >= MIN_SECRET_LENGTH))


def _collect(value: object, found: list[str], depth: int) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value)
        found.append(raw.decode("utf-8", "replace"))
        found.append(raw.hex())
    elif isinstance(value, int | float):
        found.append(repr(value) if isinstance(value, float) else str(int(value)))
    elif depth < 4 and isinstance(value, Mapping):
        for item in islice(value.values(), MAX_SECRETS):
            _collect(item, found, depth + 1)
    elif depth < 4 and isinstance(value, Iterable):
        for item in islice(value, MAX_SECRETS):
            _collect(item, found, depth + 1)
    else:
        try:
            found.append(str(value))
        except Exception as exc:  # noqa: BLE001 - a value that cannot be shown cannot be masked
            _warn(
                f"secrets:str:{type(value).__qualname__}",
                "a value of secrets cannot be rendered (%s raised %s); it is not masked",
                type(value).__qualname__,
                type(exc).__name__,
            )


def _warn(key: str, msg: str, *args: object) -> None:
    # The arguments are type names: nothing in them to mask.
    log_once(key, msg % args)


# -- the API --------------------------------------------------------------------------------


def may_hold_secret(text: str) -> bool:
    """
    Whether *text* has a place where a credential may start.

    One pass over the case-folded text with the same pattern `redact` uses:
    `False` proves that `redact(text)` returns *text* unchanged.  (Values the
    caller names are not considered: with secrets, always redact.)

    Args:
        text: Any text.

    Returns:
        `True` when `redact` would have to look closer.
    """
    folded = fold(text)
    site = _search(folded, 0)
    # An echoed statement (`LINE 1: ...`) is a place only when a credential
    # key word is in it: most syntax errors echo one, and hold none.
    while site is not None and site[2] in _ECHOES_ONLY and not _credential_word(folded, site):
        site = _search(folded, site[1])
    return (
        site is not None
        or ("asia" in folded and _ASIA.get().search(folded) is not None)
        or bool(_token_spans(text, folded, first=True))
    )


def _credential_word(folded: str, site: _Site) -> bool:
    """Whether the statement echoed at *site* holds a credential key word."""
    end = site[1]
    credential_end = _sqlread()[0]
    return credential_end(folded[end : _excerpt_end(folded, end, site[2])]) is not None


def credentials_in(text: str) -> tuple[str, ...]:
    """
    The credential values `redact` masks in *text*, quotes stripped.

    Names taken out of a message (`affected_resources`, a constraint) have lost
    the context (`PASSWORD '...'`) that marked them; passing these values as
    secrets when redacting them masks them there too.

    Args:
        text: Any text.

    Returns:
        The values, each at least `MIN_SECRET_LENGTH` characters long.
    """
    folded = fold(text)
    site = _first_site(folded)
    return _values(text, _credential_spans(text, folded, site)[0])


#: How much of a statement `credentials_in_statement` reads.
STATEMENT_LIMIT: Final = 64 * 1024


def credentials_in_statement(sql: object) -> tuple[str, ...]:
    """
    The credential values a SQL statement holds, read with the SQL tokenizer.  Never raises.

    A server's message may echo a statement from the point it could not
    parse on, after the key word that made the value a credential: MariaDB's
    `near 'hunter2' at line 1` for `CREATE USER x IDENTIFIED BY hunter2`,
    SQLite's `near "hunter2"`, SQL Server's `near 'hunter2'`.  Only the
    statement tells that `hunter2` is a password.  Pass these values as
    `secrets` to mask them wherever the message repeats them
    (`classify_error` does so itself with the statement SQLAlchemy's
    exceptions carry).

    Every value after a credential key word counts, quoted or not
    (`PASSWORD hunter2`, `IDENTIFIED WITH plugin BY 'x'`, `SET PASSWORD FOR
    u = x`, `SECRET`, `KEY_ID`, `CREDENTIALS`...), read by every dialect the
    package knows.  Without sqlglot, or where the tokenizer cannot read on,
    every word after the first key word counts: what cannot be read is masked.

    Args:
        sql: The statement as sent (anything else: nothing).

    Returns:
        The values, quotes stripped, each at least `MIN_SECRET_LENGTH` long.
    """
    try:
        if not isinstance(sql, str) or not sql:
            return ()
        sql = sql[:STATEMENT_LIMIT]
        # Most statements hold no key word: the reading says so in one search.
        values = _sqlread()[1](sql).values
        return _values(sql, list(values)) if values else ()
    except Exception as exc:  # noqa: BLE001 - a statement that cannot be read holds nothing known
        _warn(
            "statement:read", "could not read a statement for credentials: %s", type(exc).__name__
        )
        return ()


#: How many characters in a row a name must share with a secret to be masked.
NAME_OVERLAP: Final = 6


def redact_name(name: str, secrets: object = ()) -> str:
    """
    Mask a name taken out of a message (a table, a constraint, a schema).

    As `redact`, and the whole name when it shares `NAME_OVERLAP` characters
    in a row with any of *secrets*: a name is the message's text unquoted,
    its doubled quotes and escapes read, so a credential it was cut from is
    no longer written as it was (pass `credentials_in(message)` along with the
    caller's secrets).

    Args:
        name: The name.
        secrets: As for `redact`.

    Returns:
        The name, masked in part or whole.
    """
    values = normalize_secrets(secrets)
    masked = redact(name, values)
    for start in range(len(masked) - NAME_OVERLAP + 1 if values else 0):
        window = masked[start : start + NAME_OVERLAP]
        if any(window in value for value in values):
            return MASK
    return masked


def _values(text: str, spans: list[_Span]) -> tuple[str, ...]:
    if not spans:
        return ()
    found: list[str] = []
    # Each masked text once, however often it was found.
    for masked in dict.fromkeys([text[start:end] for start, end in spans]):
        value = masked.strip()
        opening = _OPENING.get().match(value)
        if opening is not None:
            value = value[opening.end() :]
        if value[-1:] in _CLOSERS:
            # The longest closing among the last 40 characters, read backwards.
            closing = _CLOSING_REVERSED.get().match(value[:-41:-1])
            if closing is not None:
                value = value[: len(value) - closing.end()]
        found.append(value)
        # Names taken out of a message are unquoted: their quotes undoubled,
        # their escapes read.
        for doubled, single in (("''", "'"), ('""', '"'), ("}}", "}")):
            if single in value and doubled in value:  # the one character first: a memchr
                found.append(value.replace(doubled, single))
        if "\\" in value:
            found.append(_BACKSLASHED.get().sub(r"\1", value))
        # The shortest reading: where the literal may have ended first.
        in_single, in_double = value.find("'"), value.find('"')
        quote = in_single if in_double < 0 or 0 <= in_single < in_double else in_double
        if quote > 0:
            found.append(value[:quote].rstrip("\\"))
    return tuple(dict.fromkeys(v for v in found if len(v) >= MIN_SECRET_LENGTH))


# A literal's opening and closing: E'..', N'..', _utf8mb4'..', $tag$..$tag$, {..}, (..).
_OPENING: Final = LazyPattern(
    r"""(?:(?:[EeNnXxBb]|[Uu]&|_\w{1,32}\s{0,4})?\\{0,3}['"]{1,2}|\$\w{0,32}\$|[{(])"""
)
_CLOSING: Final = LazyPattern(r"""(?:\\{0,3}['"]{1,2}|\$\w{0,32}\$|[})])\Z""")
# The same, matched at the start of the text reversed.
_CLOSING_REVERSED: Final = LazyPattern(r"""['"]{1,2}\\{0,3}|\$\w{0,32}\$|[})]""")
# The last characters a closing can end with.
_CLOSERS: Final = frozenset("'\"$})")
_BACKSLASHED: Final = LazyPattern(r"\\(.)")


def redact(text: object, secrets: object = (), limit: object = None) -> str:
    """
    Mask credentials in *text*, and every value the caller names.

    Masked, each value whole (its quotes, escapes and braces included; a value
    cut off by the end of the text, as in a truncated excerpt, to the end):

    - SQL credential clauses of every supported dialect: `PASSWORD 'x'`,
      `ENCRYPTED PASSWORD`, `IDENTIFIED [WITH|VIA plugin] BY|AS|USING ...`
      (also Oracle's bare `IDENTIFIED BY pwd` and `REPLACE old`), `SET PASSWORD
      [FOR u] = PASSWORD('x')`, MySQL's `REPLACE 'old'`, SQL Server's
      `PASSWORD = N'x'`, DuckDB's `CREATE SECRET (KEY_ID '..', SECRET '..')`,
      Redshift's and Snowflake's `CREDENTIALS`, `ACCESS_KEY_ID`,
      `SECRET_ACCESS_KEY`, `SESSION_TOKEN`; a string literal at the point a
      server could not parse (`near ''x''`) and the start of an excerpt a
      server cut (`LINE 1: ...SSWORD 'x'`);
    - keys ending in `password`, `passwd`, `pwd`, `pass`, `passphrase`,
      `secret`, `token`, `api_key`, `access_key`, `private_key`, `secret_key`,
      `account_key`, `key_id`, `signature`, `sig`, `credentials`,
      `connection_string`, `authorization`, in `key=value` (libpq, ODBC,
      JDBC, env), JSON, YAML and query-string form, whatever their case
      (`PGPASSWORD=`, `"client_secret": "x"`, also spelt with a long s or a
      Kelvin sign, which case-insensitive matching takes for `s` and `k`);
    - `Bearer` tokens, AWS access key ids (`AKIA...`, `ASIA...`), Google
      API keys (`AIza...`), PEM private keys (the whole block), URL user-info
      (`scheme://user:pw@host`, an `@` inside the password included), Oracle
      `user/pw@service`.

    A value the caller names is masked with the whole token around each of its
    occurrences: the run of non-space characters, widened to the quoted
    literal it sits in when that literal holds spaces.  Masking only the part
    that equals the secret would tell a user who can make the server echo a
    guess which part of the guess was right.

    Args:
        text: Any text (a message, a DSN, a statement).
        secrets: Values to mask wherever they occur (bound parameters,
            passwords the caller knows), of any type: see `normalize_secrets`.
        limit: Cut *text* to this many characters first.  Callers bound
            their output before masking it; a value cut by the bound is
            masked to the end.

    Returns:
        *text* with each credential replaced by `***`.  It never raises: a
        *text* that is not a string is masked as its text (bytes decoded, any
        other object as `str` gives it); a *limit* that is not an integer is
        no limit; should the masking itself fail, the whole text is `***`.
    """
    try:
        if not isinstance(text, str):
            text = _as_text(text)
        if isinstance(limit, int) and not isinstance(limit, bool) and len(text) > limit:
            text = text[: max(limit, 0)]
        return _redact(text, normalize_secrets(secrets))[0]
    except Exception as exc:  # noqa: BLE001 - masking never raises, and never shows what it failed on
        _warn("redact:failed", "masking failed (%s); the whole text is masked", type(exc).__name__)
        return MASK


def _as_text(value: object) -> str:
    """A value's text for masking: bytes decoded, `None` empty, else `str` (or nothing)."""
    if value is None:
        return ""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "replace")
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - an object whose text cannot be had holds nothing shown
        return ""


def redact_reading(text: str, secrets: object = ()) -> tuple[str, tuple[str, ...]]:
    """
    `(redact(text, secrets), credentials_in(text))`, from one reading of *text*.

    A classification that must mask a message also needs the values it masked
    (to mask them in the names cut out of it): one scan and one reading of
    each place give both.

    Args:
        text: Any text.
        secrets: Values to mask, as for `redact`.

    Returns:
        The masked text, and the credential values masked in it (not the
        caller's).
    """
    return _redact(text, normalize_secrets(secrets))


_NOTHING: Final[tuple[()]] = ()


def _redact(text: str, values: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    folded = fold(text)
    site = _first_site(folded)
    if site is None and not values and not may_hold_secret(text):
        return text, _NOTHING
    spans, capped = _credential_spans(text, folded, site)
    found: tuple[str, ...] = _NOTHING
    if spans:
        # A credential masked in one place is masked wherever else it occurs.
        found = _values(text, spans)
        _occurrences(text, found, spans)
    if capped is not None:
        spans.append((capped, len(text)))
    if values:
        spans += _secret_spans(text, values)
    return _apply(text, spans), found


def _apply(text: str, spans: list[_Span]) -> str:
    if not spans:
        return text
    spans.sort()
    pieces: list[str] = []
    done = 0
    for start, end in spans:
        if end <= done:
            continue
        if start > done:
            pieces.append(text[done:start])
            pieces.append(MASK)
        elif not pieces or pieces[-1] != MASK:
            pieces.append(MASK)
        done = end
    pieces.append(text[done:])
    return "".join(pieces)
