"""
Generate `localdata_errors/_token_rules.py`: the token shapes redaction masks, from gitleaks.

    python tools/generate_token_rules.py --check
    python tools/generate_token_rules.py --source PATH/gitleaks.toml --upstream v8.30.0

gitleaks (github.com/gitleaks/gitleaks, MIT) keeps the maintained rule set
of credential shapes in `config/gitleaks.toml`: each rule an id, a Go
regular expression and the key words one of which every match holds.  The
source is not a package: the file is kept as published in
`tools/upstream/gitleaks.toml` (the default `--source`; another checkout's
with `--source`; a missing file exits `SOURCE_MISSING`).  The module records the
upstream version given with `--upstream` and the file's SHA-256, so
`--check` fails on a file that is not the one the table came from.

Kept: the rules that recognise a token by its own shape (`ghp_...`,
`sk-ant-api03-...`, `xoxb-...`, `AKIA...`, a JWT).  Left out, each for its
reason, listed in the module: rules that match a file path, and rules that
recognise a value by the key word written before it (gitleaks' "semi
generic" rules, `[\\w.-]{0,50}?(?:keyword)...`: the key=value readings of
`localdata_errors._redact` cover those forms, and their nested bounded
repetitions cost hundreds of steps per character in a backtracking engine);
rules whose expression Python's `re` does not read as Go's RE2 does (the
kept ones are compiled with `re.ASCII`: `\\w`, `\\d`, `\\s` and `\\b` are ASCII
there, as in RE2, and as redaction's gate counts a token's characters); and
rules whose matches can be shorter than `MIN_RUN` characters of a token
(redaction's one gate looks for such a run before any rule runs).

Each kept rule is written with the key words one of which every match
holds (`match_keywords`: gitleaks' own where so, else the literals its
expression requires) and its matches' least run of token characters:
redaction runs a rule only on a text that holds one of its key words, or,
for a rule without any, a run that long.  A group inside a
repetition is made non-capturing (`secret_groups_only`): the secret is a
rule's first group that took part, and a repeated group holds only its
last copy.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import re
import sys
import tomllib
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, NamedTuple

from _generated import source_missing, write_or_check

# The parser's tree, to measure a match's token run (a private module typeshed omits).
sre_parse: Any = importlib.import_module("re._parser")

ROOT: Final = Path(__file__).resolve().parent.parent
OUTPUT: Final = ROOT / "localdata_errors" / "_token_rules.py"
#: A match must hold a run of at least this many token characters (letters,
#: digits, "_" and "-"): redaction's gate looks for one before any rule runs.
MIN_RUN: Final = 16
_TOKEN_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
# gitleaks' semi-generic rules open with a bounded lazy run before their key words.
_SEMI_GENERIC: Final = re.compile(r"^(?:\(\?i\))?\[\\w\.-\]\{0,\d+\}\?")


_POSIX: Final = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "lower": "a-z",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
    "word": "\\w",
    "space": "\\s",
}


class SourceError(ValueError):
    """The source holds something the generator does not understand."""


def _is_token_char_set(node: Any) -> bool:
    """Whether every character a node of the parse tree matches is a token character."""
    op, arg = node
    if op is sre_parse.LITERAL:
        return chr(arg) in _TOKEN_CHARS
    if op is sre_parse.IN:
        for item_op, item in arg:
            if item_op is sre_parse.LITERAL and chr(item) not in _TOKEN_CHARS:
                return False
            if item_op is sre_parse.RANGE and not all(
                chr(c) in _TOKEN_CHARS for c in range(item[0], item[1] + 1)
            ):
                return False
            if item_op is sre_parse.CATEGORY and item is not sre_parse.CATEGORY_WORD:
                return False
            if item_op is sre_parse.NEGATE:
                return False
        return True
    return False


_Run = tuple[int, int, int, bool]
_REPEATS: Final = (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT)
_ZERO_WIDTH: Final = (sre_parse.AT, sre_parse.ASSERT, sre_parse.ASSERT_NOT)


def _sequence(nodes: Any) -> _Run:
    """
    (least run anywhere, least run at the start, least run at the end, all token characters).

    A sequence joins the runs of its items; an alternation takes the least
    of its branches; a repetition its least count of copies.
    """
    best = running = 0
    start: int | None = None
    whole = True
    for node in nodes:
        item = _node(node)
        if item is None:
            continue
        item_best, item_start, item_end, item_whole = item
        if item_whole:
            running += item_best
        else:
            best = max(best, running + item_start, item_best)
            if start is None:
                start = running + item_start
            running = item_end
            whole = False
        best = max(best, running)
    if whole:
        return running, running, running, True
    return best, start or 0, running, False


def _node(node: Any) -> _Run | None:
    op, arg = node
    if _is_token_char_set(node):
        return 1, 1, 1, True
    if op in _ZERO_WIDTH:
        return None
    if op is sre_parse.SUBPATTERN:
        return _sequence(arg[3])
    if op is sre_parse.BRANCH:
        runs = [_sequence(branch) for branch in arg[1]]
        if all(r[3] for r in runs):
            least = min(r[0] for r in runs)
            return least, least, least, True
        return min(r[0] for r in runs), min(r[1] for r in runs), min(r[2] for r in runs), False
    if op in _REPEATS:
        low, _high, sub = arg
        sub_best, sub_start, sub_end, sub_whole = _sequence(sub)
        if sub_whole:
            width = sub_best * low
            return width, width, width, True
        if low == 0:
            return 0, 0, 0, False
        return sub_best, sub_start, sub_end, False
    return 0, 0, 0, False


def least_run(regex: str) -> int:
    """The least run of token characters every match of *regex* holds."""
    return _sequence(sre_parse.parse(regex))[0]


#: The most strings one literal reading of a node stands for (`[bp]` is two, `\\d` too many).
_MAX_LITERALS: Final = 8
#: Nothing known: every match holds the empty string.
_NOTHING: Final = frozenset({""})


class _Literals(NamedTuple):
    """What a node of the parse tree says of the literals its matches hold."""

    exact: frozenset[str] | None  # the few strings it matches, if it matches only those
    prefix: frozenset[str]  # one of these starts every match
    suffix: frozenset[str]  # one of these ends every match
    held: list[frozenset[str]]  # sets one string of which every match holds


def _join(left: frozenset[str], right: frozenset[str]) -> frozenset[str] | None:
    """Every string of *left* followed by every one of *right*; None when too many."""
    if len(left) * len(right) > _MAX_LITERALS:
        return None
    return frozenset(a + b for a in left for b in right)


def _exactly(strings: frozenset[str] | None) -> _Literals:
    if strings is None or len(strings) > _MAX_LITERALS:
        return _Literals(None, _NOTHING, _NOTHING, [])
    return _Literals(strings, strings, strings, [])


def _literal_sequence(nodes: Any) -> _Literals:
    """
    A sequence's literals: the runs of consecutive literal nodes, joined.

    A run goes on into the first characters of the node that ends it (one of
    its prefixes), and the next run starts with that node's last characters.
    """
    run: frozenset[str] = _NOTHING
    prefix: frozenset[str] | None = None
    held: list[frozenset[str]] = []
    for node in nodes:
        item = _literal_node(node)
        held += item.held
        if item.exact is not None and (joined := _join(run, item.exact)) is not None:
            run = joined
            continue
        joined = _join(run, item.prefix) or run
        if "" not in joined:
            held.append(joined)
        if prefix is None:
            prefix = joined
        run = item.suffix
    if prefix is None:
        return _Literals(run, run, run, held)
    if "" not in run:
        held.append(run)
    return _Literals(None, prefix, run, held)


def _best(sets: list[frozenset[str]]) -> frozenset[str]:
    """The set whose shortest string is longest (the fewest strings among equals)."""
    return max(sets, key=lambda strings: (min(map(len, strings)), -len(strings)))


def _union(sets: list[frozenset[str]]) -> frozenset[str]:
    union = frozenset[str]().union(*sets)
    return union if len(union) <= _MAX_LITERALS else _NOTHING


def _literal_node(node: Any) -> _Literals:
    op, arg = node
    if op is sre_parse.LITERAL:
        return _exactly(frozenset({chr(arg).lower()}))
    if op in _ZERO_WIDTH:
        return _exactly(_NOTHING)
    if op is sre_parse.IN:
        chars: set[str] = set()
        for item_op, item in arg:
            if item_op is sre_parse.LITERAL:
                chars.add(chr(item).lower())
            elif item_op is sre_parse.RANGE and item[1] - item[0] < _MAX_LITERALS:
                chars.update(chr(c).lower() for c in range(item[0], item[1] + 1))
            else:
                return _exactly(None)
        return _exactly(frozenset(chars))
    if op is sre_parse.SUBPATTERN:
        return _literal_sequence(arg[3])
    if op is sre_parse.BRANCH:
        branches = [_literal_sequence(branch) for branch in arg[1]]
        if all(b.exact is not None for b in branches):
            return _exactly(frozenset[str]().union(*(b.exact or () for b in branches)))
        # Each branch's best set: one of them is in every match of the alternation.
        picks = [
            _best(sets)
            for b in branches
            if (sets := b.held + ([b.exact] if b.exact and "" not in b.exact else []))
        ]
        return _Literals(
            None,
            _union([b.prefix for b in branches]),
            _union([b.suffix for b in branches]),
            [frozenset[str]().union(*picks)] if len(picks) == len(branches) else [],
        )
    if op in _REPEATS:
        low, high, sub = arg
        if low == 0:
            return _exactly(None)
        item = _literal_sequence(sub)
        if low == high == 1:
            return item
        held = item.held + ([item.exact] if item.exact and "" not in item.exact else [])
        return _Literals(None, item.prefix, item.suffix, held)
    return _exactly(None)


def match_keywords(regex: str, keywords: Sequence[str]) -> tuple[str, ...]:
    """
    Lower-case strings one of which every match of *regex* holds.

    gitleaks looks for a rule's key words anywhere in a file, and a rule may
    name one its matches need not hold (`airtable` for Airtable's `pat...`
    tokens, `xoxe.xoxb-` where the expression reads `xoxe.` as any character
    after `xoxe`).  Redaction runs a rule only on a text that holds one of
    its key words, and an echoed token stands alone: so a rule takes, among
    gitleaks' key words (where every match holds one) and the literals its
    expression requires, the set whose shortest string is longest, gitleaks'
    where none is better (a JWT's `.ey` between its parts, not the `ey` that
    `key` holds); none where a match need hold no literal (a bare run of hex
    digits): such a rule runs on every text the gate lets through.
    """
    found = _literal_sequence(sre_parse.parse(regex, re.ASCII))
    held = found.held + ([found.exact] if found.exact and "" not in found.exact else [])
    words = frozenset(k.lower() for k in keywords)
    if any(all(any(w in s for w in words) for s in strings) for strings in held):
        held = [words, *held]  # first: gitleaks' own, where no literal is better
    return tuple(sorted(_best(held))) if held else ()


def _repeated_groups(nodes: Any, repeated: bool = False) -> set[int]:
    """The numbers of the capturing groups inside a repetition of more than one copy."""
    found: set[int] = set()
    for op, arg in nodes:
        if op is sre_parse.SUBPATTERN:
            if repeated and arg[0] is not None:
                found.add(arg[0])
            found |= _repeated_groups(arg[3], repeated)
        elif op is sre_parse.BRANCH:
            for branch in arg[1]:
                found |= _repeated_groups(branch, repeated)
        elif op in _REPEATS:
            found |= _repeated_groups(arg[2], repeated or arg[1] > 1)
        elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
            found |= _repeated_groups(arg[1], repeated)
    return found


def secret_groups_only(regex: str) -> str:
    """
    *regex* with each capturing group inside a repetition made non-capturing.

    The secret is a rule's first group that took part, else the whole match.
    A group repeated (`([a-z0-9]{4}-){3}` in a UUID) captures its last copy
    only, never a secret of its own: without it, the whole match is masked
    (a Teams webhook's URL, not four characters of it).
    """
    groups = _repeated_groups(sre_parse.parse(regex, re.ASCII))
    if not groups:
        return regex
    out: list[str] = []
    number = i = 0
    in_set = False
    while i < len(regex):
        char = regex[i]
        if char == "\\":
            out.append(regex[i : i + 2])
            i += 2
            continue
        if in_set:
            in_set = char != "]"
        elif char == "[":
            in_set = True
            # A "]" first in a set (after a "^") is a literal.
            first = i + 1 + (regex[i + 1 : i + 2] == "^")
            if regex[first : first + 1] == "]":
                out.append(regex[i : first + 1])
                i = first + 1
                continue
        elif char == "(" and (not regex.startswith("(?", i) or regex.startswith("(?P<", i)):
            number += 1
            if number in groups:
                out.append("(?:")
                i = regex.index(">", i) + 1 if regex.startswith("(?P<", i) else i + 1
                continue
        out.append(char)
        i += 1
    rewritten = "".join(out)
    before = sre_parse.parse(regex, re.ASCII).state.groups
    if sre_parse.parse(rewritten, re.ASCII).state.groups != before - len(groups):
        raise SourceError(f"could not make the repeated groups of {regex!r} non-capturing")
    return rewritten


def _python_regex(regex: str) -> str:
    """Go's RE2 syntax as Python's `re` reads it; SourceError where it cannot."""
    converted = regex.replace(r"\z", r"\Z")
    # POSIX classes inside a set.
    for name, chars in _POSIX.items():
        converted = converted.replace(f"[:{name}:]", chars)
    # RE2 takes (?i) anywhere, for the rest of the group; Python only at the
    # start.  Case-insensitive from the start matches more, never less: the
    # mask is wider, never narrower.
    if "(?i)" in converted[1:]:
        converted = "(?i)" + converted.replace("(?i)", "")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            re.compile(converted)
        except (re.error, FutureWarning) as exc:
            raise SourceError(str(exc)) from None
    return converted


_Rule = tuple[str, tuple[str, ...], str, int]


def read_rules(source: Path) -> tuple[list[_Rule], list[str]]:
    """The kept rules (id, key words, Python regex, least run) and the left-out ones."""
    config = tomllib.loads(source.read_text(encoding="utf-8"))
    kept: list[_Rule] = []
    left: list[str] = []
    seen: set[str] = set()
    for rule in config.get("rules", ()):
        rule_id = rule.get("id")
        if not isinstance(rule_id, str) or rule_id in seen:
            raise SourceError(f"a rule without an id, or one twice: {rule_id!r}")
        seen.add(rule_id)
        regex, keywords = rule.get("regex"), rule.get("keywords")
        if "path" in rule or not isinstance(regex, str):
            left.append(f"{rule_id}: matches a file path")
            continue
        if not keywords:
            left.append(f"{rule_id}: no key words")
            continue
        if _SEMI_GENERIC.match(regex):
            left.append(f"{rule_id}: a value recognised by the key word before it")
            continue
        try:
            python = _python_regex(regex)
        except SourceError as exc:
            left.append(f"{rule_id}: not read by Python's re as by RE2 ({exc})")
            continue
        run = least_run(python)
        if run < MIN_RUN:
            left.append(f"{rule_id}: a match may hold fewer than {MIN_RUN} token characters")
            continue
        try:
            python = secret_groups_only(python)
        except SourceError as exc:
            left.append(f"{rule_id}: {exc}")
            continue
        kept.append((rule_id, match_keywords(python, keywords), python, run))
    if not kept:
        raise SourceError("no rule kept: is this gitleaks.toml?")
    return kept, left


def render(source: Path, upstream: str) -> str:
    """The module's text."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    kept, left = read_rules(source)
    lines = [
        '"""',
        "Token shapes redaction masks: generated from gitleaks' rule set.  Do not edit.",
        "",
        "Generated by tools/generate_token_rules.py from gitleaks' config/gitleaks.toml",
        f"(github.com/gitleaks/gitleaks {upstream}, MIT; SHA-256 {digest[:16]}...).",
        f"{len(kept)} rules kept; {len(left)} left out:",
        "",
        *(f"- {line}" for line in left),
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "import re",
        "from typing import Final",
        "",
        "from localdata_errors._lazy import LazyPattern",
        "",
        "__all__ = [",
        '    "KEYWORDS",',
        '    "LEAST_RUNS",',
        '    "MIN_RUN",',
        '    "PATTERNS",',
        '    "RULE_IDS",',
        '    "SOURCE_SHA256",',
        '    "UPSTREAM",',
        "]",
        "",
        f"UPSTREAM: Final = {upstream!r}",
        f"SOURCE_SHA256: Final = {digest!r}",
        "#: Every match holds a run of at least this many letters, digits, '_' or '-'.",
        f"MIN_RUN: Final = {MIN_RUN}",
        "",
        "# autogenerated: start",
        "RULE_IDS: Final = (",
        *(f"    {rule_id!r}," for rule_id, _, _, _ in kept),
        ")",
        "#: Each rule's key words, lower case: one of them is in every match.",
        "KEYWORDS: Final = (",
        *(f"    {keywords!r}," for _, keywords, _, _ in kept),
        ")",
        "#: Each rule's least run of letters, digits, '_' or '-' in a match (`MIN_RUN` or more).",
        "LEAST_RUNS: Final = (",
        *(f"    {run}," for _, _, _, run in kept),
        ")",
        "PATTERNS: Final = (",
        *(f"    LazyPattern({regex!r}, re.ASCII)," for _, _, regex, _ in kept),
        ")",
        "# autogenerated: end",
        "",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write or check the module."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0].strip())
    parser.add_argument(
        "--source",
        type=Path,
        default=ROOT / "tools" / "upstream" / "gitleaks.toml",
        help="gitleaks' config/gitleaks.toml (default: tools/upstream/gitleaks.toml)",
    )
    parser.add_argument("--upstream", help="the gitleaks version the file is from")
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        source_missing(
            f"{args.source} is not a file: pass --source with gitleaks' config/gitleaks.toml "
            "from a checkout of github.com/gitleaks/gitleaks"
        )
    upstream = args.upstream
    if upstream is None:
        # --check without --upstream: the version the committed module records.
        found = re.search(r"^UPSTREAM: Final = '([^']*)'", OUTPUT.read_text(encoding="utf-8"), re.M)
        upstream = found.group(1) if found else "unknown"
    try:
        text = render(args.source, upstream)
    except SourceError as exc:
        print(f"{args.source}: {exc}", file=sys.stderr)
        return 2
    return write_or_check(
        {OUTPUT: text}, check=args.check, what="the token rules", script="generate_token_rules.py"
    )


if __name__ == "__main__":
    raise SystemExit(main())
