"""
A PostgreSQL, MariaDB or SQL Server message in another language, read back in English.

A server with `lc_messages` set and a libpq in a localized environment write
their messages translated (`FEHLER:  Relation »foo« existiert nicht`,
`致命错误:  用户 "x" 的密码认证失败`).  Their translations ship with
PostgreSQL as message catalogues, and `_localized_messages` holds them
(generated from the catalogues: see `tools/generate_localized_messages.py`):
each English msgid and each language's msgstr, printf placeholders and all.
MariaDB's translated messages and SQL Server's (`对象名 'x' 无效。`, as its
docs translate each message's page) are msgids and msgstrs of the same table.

A text is read back by finding msgstrs in it, their placeholders read as the
values there, and writing each found msgid in their place with the same
values (a translation may reorder them: `%2$s ... %1$s`); the upper-case
labels (`FEHLER` is `ERROR`, `TIPP` is `HINT`) are put back too.  The English
text then takes the English path, so that a message reads the same in any
language.

Cost: the table is decoded, and its index built, by the first text read
back.  `classify_message` asks for a text that is not ASCII, and for an
ASCII text it read no kind from that holds two words of the translations
written in ASCII alone (`Zu viele Verbindungen`, `La tabla 'x' no existe`)
that no English message writes (`may_be_translated`: a list of words of
its own, generated with the table): an English text the reader reads never
loads the table, nor does one it does not read unless two such words are
in it.  Each
msgstr is filed under one three-character run of its fixed text, the run
the fewest msgstrs share; a text is looked up at each position once, and
each msgstr found there is compared by plain substring searches, bounded
around that position: linear in the text, no regular expression over the
table.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections import Counter
from collections.abc import Callable
from functools import cache, partial
from typing import Final, NamedTuple

#: A label of the message catalogues: upper-case words, then nothing, a colon
#: or a line number (the generator keeps the messages by it too).
_LABEL: Final = re.compile(r"[A-Z][A-Z ]*[A-Z](?::  (?:%s(?::%d)?\n)?|:  | %d: )?")
#: A printf conversion (its argument number, `*` widths, length, type), or `%%`.
_CONVERSION: Final = re.compile(
    r"%(?:(?P<pos>\d+)\$)?[-+ #0'`]*(?P<width>\*(?:\d+\$)?|\d+)?"
    r"(?:\.(?P<precision>\*(?:\d+\$)?|\d+))?(?:hh|h|ll|l|z|j|t|L|q)?(?P<type>[diouxXeEfFgGcspmMT%])"
)
#: The run of fixed text each msgstr is filed under (of the shorter length
#: where no part is long enough: `不存在`).
_KEY: Final = 4
_SHORT_KEY: Final = 3
#: How far a value reaches (characters), as the server's names and numbers do.
_VALUE: Final = 256
#: Fewest letters a msgstr's fixed text has, so that it says something of its
#: own (`除以零` is division by zero, `%s bei »%s«` is `%s at or near "%s"`).
_FEWEST_LETTERS: Final = 3
#: How many msgstrs one text may be compared with at most, its values
#: included (a real message costs one or two per character; a text repeating
#: a common run stays bounded).
_COMPARISONS: Final = 20_000
#: How much of a text is read (as much as the English path reads: SCAN_LIMIT),
#: and how many messages in it at most (one error's text holds a few).
_READ_LIMIT: Final = 16 * 1024
_MESSAGES: Final = 32
#: How deep a value is read back when it is a translated message itself
#: (`Constraint x für Tabelle y` in `%s hängt von %s ab`).
_DEPTH: Final = 2
#: Characters a label is delimited by.
#: The same, as a separator of fixed parts.
_SPLIT: Final = re.compile(re.sub(r"\(\?P<\w+>", "(?:", _CONVERSION.pattern))
_LETTER: Final = re.compile(r"[^\W\d_]")
#: A label's translation is a word or two (`ZUSAMMENHANG`, `CONSTRAINT-NAME`).
_LABEL_LONGEST: Final = 32
#: What a message without values stands after, and before: a label's colon, a
#: quote or a bracket (a line's start or end too).
_OPENS: Final = frozenset("\n\r:\uff1a'\"«„“\u2018([{<>|│")
_CLOSES: Final = frozenset("\n\r'\"»“”\u2019)]}<>|│.,;:\uff1a\\(")
#: The CJK full stop, exclamation and question marks: a sentence ends there.
_SENTENCE_ENDS: Final = frozenset("\u3002\uff01\uff1f")
#: The double quotes the catalogues write (`»%s«`, `« %s »`, `„%s“`), read as
#: `"`: one character for one, so that a text's offsets stay.
_QUOTE_MARKS: Final = "\u00bb\u00ab\u201e\u201c\u201d\u201f\u300c\u300d\u300e\u300f\uff02"
#: Single quotes, read as `"` in a translation and in a text (not in an
#: English msgid, which the English path reads as written): which quotes go
#: around a name is the build's typography, not the message (SQL Server
#: prints `列名 'x' 无效。` where its docs translate `列名“%.*ls”无效。`, and
#: `Ungültiger Objektname "x".` where they write `'%.*ls'`).
_SINGLE_QUOTE_MARKS: Final = "'\u2018\u2019"
_SINGLE_QUOTES: Final = str.maketrans(dict.fromkeys(_SINGLE_QUOTE_MARKS, '"'))
_QUOTES: Final = str.maketrans(dict.fromkeys(_QUOTE_MARKS + _SINGLE_QUOTE_MARKS, '"'))
#: One of them, in the table's JSON (a pattern: `str.translate` is slower on a long text).
_QUOTE_MARK: Final = re.compile(f"[{_QUOTE_MARKS}]")
_COLON: Final = re.compile("[:\uff1a]")  # a colon, or a full-width one
#: A word as `may_be_translated` counts them (and the generator lists them):
#: three ASCII letters or more, compared in lower case.
WORD: Final = re.compile(r"[A-Za-z]{3,}")
#: How many distinct words of the translations an ASCII text needs to be read
#: back: with one, an English text with a word a translation also writes
#: (`fail` is Estonian, `charge` French) would load the table.  One is enough
#: in a text of at most `_FEW_WORDS` words, its quoted names left out
#: (`Division durch Null`, `Base 'db' inconnue`).
_TRANSLATED_WORDS: Final = 2
_FEW_WORDS: Final = 3
_QUOTED: Final = re.compile(r"'[^'\n]*'|`[^`\n]*`|\"[^\"\n]*\"")
_LABEL_END: Final = frozenset(" \t\r\n\"'«»„“”()[]{}<>,;.|│:\uff1a")


class _Template(NamedTuple):
    """A msgstr's fixed parts and values, and its msgid's."""

    parts: tuple[str, ...]  # fixed text between the values (one more than values)
    values: tuple[str, ...]  # each value's argument (`1`, `2`, `m` for %m)
    english_parts: tuple[str, ...]
    english_values: tuple[str, ...]
    weight: int  # how much fixed text: the more, the more specific


class _Table(NamedTuple):
    """The msgstrs, filed under a run of their fixed text, and the labels."""

    #: run -> (template, its part holding the run, the run's offset there, that part)
    by_key: dict[str, tuple[tuple[int, int, int, str], ...]]
    templates: tuple[tuple[str, str], ...]  # (msgstr, msgid)
    labels: dict[str, str]  # a label's translation -> the English label
    read: dict[int, _Template | None]  # each template read so far (on first use)
    fixed: dict[str, str]  # a msgstr without values -> its msgid
    named: dict[str, str]  # a msgstr's word before its one value at the end -> the msgid's


class ReadBack(NamedTuple):
    """
    A text read back in English.

    Args:
        text: The text as given.
        english: The text with each translated message and label in English.
        spans: Each replaced span, in order: (start, end) in `text`, then in `english`.
    """

    text: str
    english: str
    spans: tuple[tuple[int, int, int, int], ...]

    def original(self, part: str) -> str | None:
        """
        The span of the text that *part* of the English text was read from.

        Args:
            part: A part of `english` (the English answer's message).

        Returns:
            The text's counterpart; `None` when *part* is not in `english`.
        """
        at = self.english.find(part)
        if at < 0:
            return None
        return self.text[self._back(at, start=True) : self._back(at + len(part), start=False)]

    def _back(self, at: int, *, start: bool) -> int:
        """The text's offset of `english`'s *at*; inside a replaced span, its edge."""
        shift = 0
        for old_start, old_end, new_start, new_end in self.spans:
            if at <= new_start:
                break
            if at < new_end:
                return old_start if start else old_end
            shift = old_end - new_end
        return at + shift


# -- the table -------------------------------------------------------------------


def _parse(template: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """
    A printf template's fixed parts and the argument each value prints.

    `*` widths take an argument of their own, printed as no value; `%m` (the
    system's error text) takes none; `%%` is a fixed `%`.
    """
    if "%" not in template:
        return (template,), ()
    parts: list[str] = []
    values: list[str] = []
    current: list[str] = []
    last = argument = 0
    for found in _CONVERSION.finditer(template):
        current.append(template[last : found.start()])
        last = found.end()
        kind = found["type"]
        if kind == "%":
            current.append("%")
            continue
        if kind == "m":
            key = "m"
        else:
            for star in (found["width"], found["precision"]):
                if star is not None and star == "*":
                    argument += 1
            position = found["pos"]
            if position is None:
                argument += 1
                key = str(argument)
            else:
                key = position
        parts.append("".join(current))
        values.append(key)
        current = []
    current.append(template[last:])
    parts.append("".join(current))
    return tuple(parts), tuple(values)


def _label_of(text: str) -> str:
    """A label's own word(s): `FEHLER` of `FEHLER`, `TIPP` of `TIPP:  %s\\n`."""
    return _COLON.split(text, maxsplit=1)[0].strip()


def _build() -> _Table:
    # The table is decoded here, by the first text read back, never at import.
    import base64  # noqa: PLC0415 - only the first text read back needs these
    import json  # noqa: PLC0415
    import lzma  # noqa: PLC0415

    from localdata_errors._localized_messages import PAYLOAD  # noqa: PLC0415

    raw = lzma.decompress(base64.b64decode(PAYLOAD)).decode("utf-8")
    # Each catalogue's quotes read as one: `»%s«` is also `„%s“` of an older one.
    document = json.loads(_QUOTE_MARK.sub(r'\\"', raw))
    is_label = [
        _LABEL.fullmatch(msgid) is not None and "%d: " not in msgid for msgid in document["msgids"]
    ]
    msgids: list[str] = [msgid.removesuffix("\n") for msgid in document["msgids"]]
    english = set(msgids)
    label_numbers = [number for number, label in enumerate(is_label) if label]
    english_labels = {_label_of(msgids[number]) for number in label_numbers}
    labels: dict[str, str] = {}
    ambiguous: set[str] = set()
    by_msgstr: dict[str, str] = {}
    for msgstrs in document["msgstrs"].values():
        for number in label_numbers:
            word, local = _label_of(msgids[number]), _label_of(msgstrs[number])
            known = not local or local in english_labels or not _LABEL_END.isdisjoint(local)
            if not known and labels.setdefault(local, word) != word:
                ambiguous.add(local)
        # The first language's msgid wins where two translate alike.
        for msgid, msgstr, label in zip(msgids, msgstrs, is_label, strict=True):
            if msgstr and not label:
                text = msgstr.removesuffix("\n")
                if text not in english:
                    by_msgstr.setdefault(text.translate(_SINGLE_QUOTES), msgid)
    for local in ambiguous:
        del labels[local]
    templates: list[tuple[str, str]] = []
    runs: list[list[tuple[str, int, int, str]]] = []
    for msgstr, msgid in by_msgstr.items():
        if msgstr in english or "%%" in msgstr:
            continue
        parts = _SPLIT.split(msgstr)
        # A run of the longer length where a part is long enough, else of the
        # shorter, that starts with a letter outside ASCII (`不存在`).
        found = [(part[:_KEY], i, 0, part) for i, part in enumerate(parts) if len(part) >= _KEY]
        found += [
            (part[-_KEY:], i, len(part) - _KEY, part)
            for i, part in enumerate(parts)
            if len(part) > _KEY
        ]
        if not found:
            found = [
                (part[:_SHORT_KEY], i, 0, part)
                for i, part in enumerate(parts)
                if len(part) >= _SHORT_KEY and part[0] >= "\x80"
            ]
        if found:
            templates.append((msgstr, msgid))
            runs.append(found)
    shared = Counter(run for found in runs for run, _, _, _ in found)
    filed: dict[str, list[tuple[int, int, int, str]]] = {}
    for number, found in enumerate(runs):
        run, part, offset, fixed_part = min(found, key=lambda entry: shared[entry[0]])
        filed.setdefault(run, []).append((number, part, offset, fixed_part))
    by_key = {run: tuple(entries) for run, entries in filed.items()}
    # A value may be a message of its own (`%s at or near "%s"` with `syntax error`).
    alone = {
        msgstr: msgid
        for msgstr, msgid in by_msgstr.items()
        if "%" not in msgstr and msgstr not in english
    }
    # An object's name (`表 %s`, `Tabelle %s`: table %s) is a value of many messages.
    named = {
        msgstr[:-2]: msgid[:-2]
        for msgstr, msgid in by_msgstr.items()
        if msgstr.endswith(" %s")
        and msgid.endswith(" %s")
        and msgstr not in english
        and msgstr.count("%") == msgid.count("%") == 1
        and msgstr.count(" ") == 1
    }
    return _Table(by_key, tuple(templates), labels, {}, alone, named)


def _template(table: _Table, number: int) -> _Template | None:
    """The template *number*, read on first use; `None` when its msgid needs a value it lacks."""
    if number in table.read:
        return table.read[number]
    msgstr, msgid = table.templates[number]
    parts, values = _parse(msgstr)
    english_parts, english_values = _parse(msgid)
    template = None
    weight = len(_LETTER.findall("".join(parts)))
    if weight >= _FEWEST_LETTERS and set(english_values) <= set(values):
        template = _Template(parts, values, english_parts, english_values, weight)
    table.read[number] = template
    return template


#: A span found: its start and end, its weight (fixed letters: the more, the
#: more specific), and what writes its English.
_Found = tuple[int, int, int, Callable[[], str]]

_lock: Final = threading.Lock()
_loaded: list[_Table] = []


def _table() -> _Table:
    if not _loaded:
        with _lock:
            if not _loaded:
                _loaded.append(_build())
    return _loaded[0]


# -- reading a text back ---------------------------------------------------------

#: A value that ends a template: the rest of its line (spaces at its end left out).
_REST: Final = re.compile(rf"[^\n]{{0,{_VALUE - 1}}}[^\s]")


def _match(
    text: str, template: _Template, key_part: int, at: int
) -> tuple[int, int, dict[str, str]] | None:
    """
    The template's span in *text* with its fixed part *key_part* at *at*, and its values.

    *text* has its quotes read as `"` (`_QUOTES`), the values too.  Each
    value is the shortest text up to the next fixed part, on one line
    and at most `_VALUE` characters long; a value that starts the template
    reaches back to the line's start, a colon, a quote or a bracket (`erreur
    de syntaxe` of `%s sur ou près de « %s »`), one that ends it is the
    rest of the line.  A template without
    fixed text at both ends (or without values) is a whole message: it
    stands alone on its line, or after a label's colon, or in quotes or
    brackets (`contrainte %s` is no message inside `la contrainte de
    clé`).
    """
    parts = template.parts
    if not text.startswith(parts[key_part], at):
        return None
    values: dict[str, str] = {}
    last = len(parts) - 1
    end = at + len(parts[key_part])
    for index in range(key_part + 1, len(parts)):
        part = parts[index]
        if part:
            found = text.find(part, end, end + _VALUE + len(part))
            if found < 0 or "\n" in text[end:found]:
                return None
            value, end = text[end:found], found + len(part)
        elif index == last:
            rest = _REST.match(text, end)
            if rest is None:
                return None
            value, end = rest.group(), rest.end()
        else:  # two values side by side: where one ends is not known
            return None
        values.setdefault(template.values[index - 1], value)
    start = at
    for index in range(key_part - 1, -1, -1):
        part = parts[index]
        if part:
            found = text.rfind(part, max(0, start - _VALUE - len(part)), start)
            if found < 0 or "\n" in text[found + len(part) : start]:
                return None
            value, start = text[found + len(part) : start], found
        elif index == 0:
            # The message starts the line, or follows a label or a quote.
            begin = start
            while begin > 0 and start - begin < _VALUE and text[begin - 1] not in _OPENS:
                begin -= 1
            while begin < start and text[begin] in " \t":
                begin += 1
            if begin == start:
                return None
            value, start = text[begin:start], begin
        else:
            return None
        values.setdefault(template.values[index], value)
    # Without fixed text at both ends, the span could be words inside another text.
    if (not values or not parts[0] or not parts[-1]) and not _alone(text, start, end):
        return None
    return start, end, values


def _english(
    template: _Template, values: dict[str, str], table: _Table, budget: list[int], depth: int
) -> str:
    """
    The template's msgid with *values* in their places.

    A value that is a translated message of its own is put back too
    (`Syntaxfehler` of `%s bei »%s«`; `表 loc_t`, an object's name, of
    `不能删除 %s...`; `Constraint x für Tabelle y` of `%s hängt von %s ab`),
    to *depth* levels.
    """
    pieces = [template.english_parts[0]]
    for key, part in zip(template.english_values, template.english_parts[1:], strict=True):
        value = values[key]
        english = table.fixed.get(value)
        if english is None:
            word, space, name = value.partition(" ")
            named = table.named.get(word + space) if name else None
            if named is not None:
                english = named + name
            else:
                inner = _scan(value, table, budget, depth - 1) if depth else []
                english = _rebuilt(value, inner).english if inner else value
        pieces += (english, part)
    return "".join(pieces)


def _alone(text: str, start: int, end: int) -> bool:
    """
    Whether *text*[start:end] is a message of its own (not words inside another).

    A CJK full stop, exclamation or question mark ends a sentence, so a message
    may follow one, and one that ends with one may be followed by another
    sentence (`将截断字符串或二进制数据。 语句已终止。`).
    """
    before = text[max(0, start - _LABEL_LONGEST) : start].rstrip(" \t")
    after = text[end : end + _LABEL_LONGEST].lstrip(" \t")
    opened = not before or before[-1] in _OPENS or before[-1] in _SENTENCE_ENDS
    return opened and (not after or after[0] in _CLOSES or text[end - 1] in _SENTENCE_ENDS)


def _labels(text: str, labels: dict[str, str]) -> list[_Found]:
    """The translated labels before a colon in *text*."""
    found: list[_Found] = []
    for colon in (match.start() for match in _COLON.finditer(text)):
        begin = colon
        while begin > 0 and colon - begin < _LABEL_LONGEST and text[begin - 1] not in _LABEL_END:
            begin -= 1
        word = labels.get(text[begin:colon])
        if word is not None:
            found.append((begin, colon, colon - begin, partial(str, word)))
    return found


@cache
def _words() -> frozenset[str]:
    from localdata_errors._localized_words import WORDS  # noqa: PLC0415 - on first use

    return frozenset(WORDS.split())


def may_be_translated(text: str) -> bool:
    """
    Whether an ASCII *text* may hold a translation written in ASCII alone.

    It does when two distinct words of it (`WORD`) are words of such
    translations that no English text of the sources writes
    (`_localized_words`): `Tabelle`, `existiert`; `viele`, `Verbindungen`;
    or one is, and the text has at most three words besides its quoted
    names (`Division durch Null`).  The list is loaded by the first text
    asked about; the table is not.

    Args:
        text: An ASCII text (`classify_message` asks for one it read no kind from).

    Returns:
        Whether `read_back` is worth asking.
    """
    found = WORD.findall(_QUOTED.sub(" ", text[:_READ_LIMIT]).lower())
    seen = len(_words().intersection(found))
    return seen >= _TRANSLATED_WORDS or (seen > 0 and len(found) <= _FEW_WORDS)


def read_back(text: str) -> ReadBack | None:
    """
    The text with each translated message and label in English.

    Args:
        text: Any text (`classify_message` asks for one that is not ASCII, or
            an ASCII one `may_be_translated` holds).

    Returns:
        The text read back; `None` when it holds no translated message or label.
    """
    head = text[:_READ_LIMIT].translate(_QUOTES)
    found = _scan(head, _table(), [_COMPARISONS], _DEPTH)
    return _rebuilt(text, found) if found else None


def _scan(text: str, table: _Table, budget: list[int], depth: int) -> list[_Found]:
    """Each translated message and label in *text*."""
    by_key = table.by_key
    found: list[_Found] = []
    for at in range(len(text) - _SHORT_KEY + 1):
        if budget[0] <= 0:
            break
        # A run of the shorter length is a key only where it starts outside ASCII.
        runs = (
            (text[at : at + _KEY], text[at : at + _SHORT_KEY])
            if text[at] >= "\x80"
            else (text[at : at + _KEY],)
        )
        for run in runs:
            entries = by_key.get(run)
            if entries is None:
                continue
            budget[0] -= len(entries)
            for number, part, offset, fixed in entries:
                if len(found) >= _MESSAGES:
                    budget[0] = 0
                    break
                start = at - offset
                if start < 0 or not text.startswith(fixed, start):
                    continue
                template = _template(table, number)
                match = None if template is None else _match(text, template, part, start)
                if template is not None and match is not None:
                    # The English is written only for the spans that are taken.
                    english = partial(_english, template, match[2], table, budget, depth)
                    found.append((match[0], match[1], template.weight, english))
    found += _labels(text, table.labels)
    return found


def _rebuilt(text: str, found: list[_Found]) -> ReadBack:
    """
    The text with the most specific of overlapping spans replaced.

    Of two as specific that start at one place, the longer: `数据库 'x' 不存在。`
    is SQL Server's `Database 'x' does not exist.`, not PostgreSQL's `数据库 %s 不存在`
    (the value `'x'`) followed by `。`.
    """
    starts: list[int] = []  # the spans taken, in order, none overlapping
    taken: dict[int, tuple[int, Callable[[], str]]] = {}
    for start, end, _, write in sorted(found, key=lambda f: (-f[2], f[0], -f[1])):
        at = bisect.bisect_left(starts, start)
        if at and taken[starts[at - 1]][0] > start:
            continue
        if at < len(starts) and starts[at] < end:
            continue
        starts.insert(at, start)
        taken[start] = (end, write)
    pieces: list[str] = []
    spans: list[tuple[int, int, int, int]] = []
    last = written = 0
    for start in starts:
        end, written_by = taken[start]
        english = written_by()
        pieces.append(text[last:start])
        written += start - last
        pieces.append(english)
        spans.append((start, end, written, written + len(english)))
        written += len(english)
        last = end
    pieces.append(text[last:])
    return ReadBack(text, "".join(pieces), tuple(spans))
