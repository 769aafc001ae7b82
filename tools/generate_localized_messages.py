"""
Generate `localdata_errors/_localized_messages.py` from the translations of three servers.

    python tools/generate_localized_messages.py           # write the module
    python tools/generate_localized_messages.py --check   # exit 1 when it is stale

A PostgreSQL server with `lc_messages` set, and libpq in a localized
environment, write their messages in the local language (`FEHLER:  Relation
»foo« existiert nicht`).  Every translation ships with PostgreSQL: the
message catalogues Debian's `postgresql-15` and `libpq5` install
(`/usr/share/locale/*/LC_MESSAGES/postgres-15.mo`, `libpq5-15.mo`), whose
msgids are the English texts and msgstrs their translations, printf
placeholders and all.

Upstream facts only, in a compact form: the msgids and, per language, each
one's msgstr.  Kept are the upper-case labels a message is printed with
(`ERROR`, `FATAL`, `DETAIL:  `, `LINE %d: `) and what PostgreSQL's message
style guide (https://www.postgresql.org/docs/current/error-style-guide.html)
calls primary messages (one line, a lower-case start, no final period:
detail and hint sentences, configuration descriptions and `--help` lines are
not): all of libpq's, the server's that carry a value (a printf
conversion), and the server's short ones without a value (at most six
words: `division by zero`, `deadlock detected`, `canceling statement due to
statement timeout`).  The server's longer fixed messages would make the
module 780 KB instead of 610 KB.

Translations change between releases (PostgreSQL 12's zh_CN wrote `column
"%s" does not exist` as `字段 "%s" 不存在`, 15's writes `列 "%s" 不存在`), and
other releases' packages carry catalogues last brought up to date for older
releases still: the msgstrs of Debian's `postgresql-13`, `-17` and `-18`
packages that 15's catalogues do not write are recorded in
`tools/upstream/postgresql-translations.tsv`
(`tools/extract_postgresql_translations.py`) and read here with the
installed ones; they add about 320 KB to the module.

MariaDB ships its server messages' translations too, in one list
(`/usr/share/mysql/errmsg-utf8.txt`: each error's name, then its text per
language, `eng` the English one, printf placeholders such as `%-.192s`,
`%`s` and `%M` and all); a server with `lc_messages` set (`zh_CN`, `de_DE`)
sends them (`表 'db.t' 不存在`).  Each English text is a msgid of the same
table, its translations the msgstrs of the catalogues' language names
(`ger` is `de`, `chi` `zh_CN`).  All of MariaDB's one-line messages are
kept: they add about 150 KB of xz (200 KB of the module).

SQL Server's messages are translated too (a login whose language is not
English reads `对象名 'x' 无效。` for `Invalid object name 'x'.`); the server
ships them in no file, but its documentation translates each message's page
(`tools/upstream/sqlserver-doc-messages.tsv`,
`tools/extract_sqlserver_doc_messages.py`, with their list of every
message): each English text is a msgid, its conversions written as printf's
(`%S_MSG` as `%s`, `%I64d` as `%lld`), its translation the msgstr of the
language, and a message of several sentences each sentence too
(`sqlserver_messages`).

An ASCII text is asked about only when it holds two words of the
translations written in ASCII alone that no English text of these sources
writes (`Tabelle`, `existiert`; `viele`, `Verbindungen`): those words go to
`localdata_errors/_localized_words.py`, so that the text is tested without
decoding the table (see `localdata_errors._localized.may_be_translated`).

The table is stored as an xz-compressed JSON document in base64 (base85 is
smaller, but its decoder is Python's, not C's), decoded only when a text
that is not ASCII is classified.  `--check` compares the decoded document,
so that another xz build compressing differently does not make it stale.
"""

from __future__ import annotations

import argparse
import base64
import glob
import json
import lzma
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

TOOLS: Final = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:  # imported from the tests, not run: find the sibling tools
    sys.path.insert(0, str(TOOLS))

from _generated import source_missing, write_or_check  # noqa: E402 - needs the sys.path line
from generate_libpq_messages import read_catalogue  # noqa: E402 - needs the sys.path line

from localdata_errors import _localized  # noqa: E402 - after the tools' own imports

ROOT: Final = TOOLS.parent
OUTPUT: Final = ROOT / "localdata_errors" / "_localized_messages.py"
WORDS_OUTPUT: Final = ROOT / "localdata_errors" / "_localized_words.py"
CATALOGUES: Final = (
    "/usr/share/locale/*/LC_MESSAGES/postgres-15.mo",
    "/usr/share/locale/*/LC_MESSAGES/libpq5-15.mo",
)
#: Other releases' translations that the installed catalogues do not write
#: (`tools/extract_postgresql_translations.py`).
UPSTREAM_TRANSLATIONS: Final = ROOT / "tools" / "upstream" / "postgresql-translations.tsv"
#: MariaDB's server messages in every language it ships (Debian's
#: `mariadb-server-core`, the source the server's `errmsg.sys` files are built from).
MARIADB_MESSAGES: Final = Path("/usr/share/mysql/errmsg-utf8.txt")
#: MariaDB's language names (its `languages` line) as the catalogues' locale names.
#: SQL Server's messages as its docs translate them
#: (`tools/extract_sqlserver_doc_messages.py`), in the catalogues' language names.
SQLSERVER_MESSAGES: Final = ROOT / "tools" / "upstream" / "sqlserver-doc-messages.tsv"
#: A conversion of SQL Server's message formats that printf does not write: a
#: text the server formats itself (`%S_MSG`, `%S_PGID`: `%s`), the length `I64`
#: (`%I64d`: `%lld`), an argument's number (`%4!s!`).
SQLSERVER_CONVERSION: Final = re.compile(r"%(?:(?P<server>S_[A-Z]+)|\d+!\w+!|[-+ #0]*\d*I64)")
#: A conversion the docs' translation tooling broke: its `*` spaced out or
#: lost (`%.* ls`, `%. ls`, `%. * ls`: SQL Server's `%.*ls`), a space after
#: its `%` (`% d`).
BROKEN_PRECISION: Final = re.compile(r"%\.(?:\s*\*\s*|\s+)ls\b")
BROKEN_SPACE: Final = re.compile(r"%\s+(?=(?:ls|hs|ld|lu|lx|d|s|u|x|S_[A-Z]+)\b)")
#: A character of the languages written without spaces between words.
CJK: Final = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
#: A conversion in quotes, the docs' typographic ones (`“%.*ls”`) or ASCII.
QUOTED_CONVERSION: Final = re.compile(
    "[\u201c\u2018\u300c\u300e'\"](%[-+ #0]*(?:\\*|\\d+)?(?:\\.(?:\\*|\\d+))?[a-zA-Z]{1,3})"
    "[\u201d\u2019\u300d\u300f'\"]"
)
#: The spaces after a full stop, exclamation or question mark of the languages
#: written without spaces (the docs' typesetting: `值。 %ls 失败。`).
SPACED_STOP: Final = re.compile("(?<=[\u3002\uff01\uff1f])[ \t]+")
#: A message whose end is values alone after its last sentence (18456's
#: `Login failed for user '%.*ls'.%.*ls%.*ls`, the reason the server may add).
TRAILING_VALUES: Final = re.compile(
    "(.*[.!?\u3002\uff01\uff1f])((?:%[^%\\s]*?[a-zA-Z])+)", re.DOTALL
)
#: Where a sentence ends: its period and spaces, or a CJK full stop, exclamation or question.
SENTENCE_END: Final = re.compile("(?<=[.!?])\\s+(?=\\S)|(?<=[\u3002\uff01\uff1f])\\s*(?=\\S)")
#: Fewest words an English text quoted cut short has to be read back to (a
#: run of its own, as a vendor's phrase is).
BEGINNING_WORDS: Final = 5
#: How an English text quoted cut short ends (`Cannot open database "%.*ls" requested by
#: the login. ...`): only its whole sentences are known.
CUT: Final = " ..."
MARIADB_LANGUAGES: Final = {
    "bgn": "bg",
    "chi": "zh_CN",
    "cze": "cs",
    "dan": "da",
    "nla": "nl",
    "est": "et",
    "fre": "fr",
    "ger": "de",
    "geo": "ka",
    "greek": "el",
    "hindi": "hi",
    "hun": "hu",
    "ita": "it",
    "jpn": "ja",
    "kor": "ko",
    "norwegian-ny": "nn",
    "nor": "nb",
    "pol": "pl",
    "por": "pt",
    "rum": "ro",
    "rus": "ru",
    "serbian": "sr",
    "slo": "sk",
    "spa": "es",
    "swe": "sv",
    "ukr": "uk",
}
#: An error's line (`ER_NO_SUCH_TABLE 42S02 `: its name, then its SQLSTATE and
#: ODBC state when it has them) and a language's line (`        ger "..."`).
MARIADB_ERROR: Final = re.compile(r"[A-Z][A-Z0-9_]+\b.*")
MARIADB_TEXT: Final = re.compile(r'[ \t]+([a-z-]+)[ \t]+"((?:[^"\\]|\\.)*)"[ \t.]*')
#: A label: upper-case words, then nothing, a colon, or a line number (`LINE %d: `):
#: the one the read-back reads them by.
LABEL: Final = _localized._LABEL
#: A primary message: a lower-case letter, a quote or a placeholder first; one line.
PRIMARY_START: Final = re.compile(r"[a-z\"%]")
#: Most words of a server message without a value that is kept.
SHORT: Final = 6
LINE_WIDTH: Final = 200


def _carries_a_value(template: str) -> bool:
    """Whether *template* has a printf conversion (`%s`, `%2$s`, `%.*s`), `%%` not counted."""
    return any(c.group("type") != "%" for c in _localized._CONVERSION.finditer(template))


def kept(msgid: str, libpq: bool) -> bool:
    """
    Whether *msgid* is a label or a primary message the table keeps.

    libpq's messages end with a line break; the server's never do.
    """
    if LABEL.fullmatch(msgid):
        return True
    line = msgid.removesuffix("\n") if libpq else msgid
    return (
        PRIMARY_START.match(line) is not None
        and "\n" not in line
        and not line.endswith(".")
        and line.lstrip() == line
        and (libpq or _carries_a_value(line) or len(line.split()) <= SHORT)
    )


def catalogues() -> dict[str, dict[str, str]]:
    """Each language's kept msgids and their msgstrs (the server's first, then libpq's)."""
    found: dict[str, dict[str, str]] = {}
    paths = [path for pattern in CATALOGUES for path in sorted(glob.glob(pattern))]
    if not paths:
        source_missing(
            f"no PostgreSQL message catalogue at {' or '.join(CATALOGUES)}"
            " (apt install postgresql-15 libpq5)"
        )
    for path in paths:
        language = Path(path).parts[-3]
        libpq = Path(path).name.startswith("libpq")
        into = found.setdefault(language, {})
        for msgid, msgstr in read_catalogue(path):
            if msgstr and msgstr != msgid and kept(msgid, libpq):
                into.setdefault(msgid, msgstr)
    return found


def mariadb_messages() -> dict[str, dict[str, str]]:
    """
    Each language's MariaDB messages: the English text (`eng`) and its translation.

    Every error's message on one line is kept (all of them, not only those
    with a SQLSTATE other than `HY000`: `Lock wait timeout exceeded` has
    none), but for the two words a label would be (`NO`, `YES`); a
    translation that is the English text is left out.
    """
    if not MARIADB_MESSAGES.exists():
        source_missing(
            f"no MariaDB message list at {MARIADB_MESSAGES} (apt install mariadb-server)"
        )
    found: dict[str, dict[str, str]] = {}
    texts: dict[str, str] = {}

    def flush() -> None:
        english = texts.get("eng")
        if english and not LABEL.fullmatch(english):
            for language, text in texts.items():
                local = MARIADB_LANGUAGES.get(language)
                if local is not None and text != english:
                    found.setdefault(local, {}).setdefault(english, text)

    for line in MARIADB_MESSAGES.read_text(encoding="utf-8").splitlines():
        if MARIADB_ERROR.fullmatch(line):
            flush()
            texts = {}
            continue
        text = MARIADB_TEXT.fullmatch(line)
        if text is not None:
            texts.setdefault(text[1], re.sub(r"\\(.)", r"\1", text[2]))
    flush()
    return found


def _printf(template: str) -> str | None:
    """
    A SQL Server message format as printf writes it (`_localized._CONVERSION`).

    `None` for one that numbers an argument (`%4!s!`): two pages' translations
    do, where the English text numbers none, so their values cannot be told apart.
    """

    def written(found: re.Match[str]) -> str:
        if found["server"] is not None:
            return "%s"
        return found.group().replace("I64", "ll")

    if "!" in template and re.search(r"%\d+!", template):
        return None
    return SQLSERVER_CONVERSION.sub(written, template)


def _repaired(text: str) -> str:
    """*text* with the conversions the translation tooling broke written as SQL Server does."""
    return BROKEN_SPACE.sub("%", BROKEN_PRECISION.sub("%.*ls", text))


def _spaced(text: str) -> str:
    """
    *text* with each quoted value written as SQL Server's own messages do in
    a language written without spaces: in ASCII quotes, a space between the
    quote and the character it touches (its docs write `列名“%.*ls”无效。`,
    the server `列名 'x' 无效。`).
    """

    def one(found: re.Match[str]) -> str:
        before = found.start() > 0 and CJK.match(text[found.start() - 1]) is not None
        after = found.end() < len(text) and CJK.match(text[found.end()]) is not None
        return f"{' ' if before else ''}'{found[1]}'{' ' if after else ''}"

    return QUOTED_CONVERSION.sub(one, text)


def _closed(text: str) -> str:
    """*text* without the spaces its docs put after a full stop of a language written without."""
    return SPACED_STOP.sub("", text)


def _variants(msgid: str, msgstr: str) -> list[tuple[str, str]]:
    """
    The pair, and the forms of it a server prints where its docs write
    otherwise: the values of a message written without spaces in ASCII
    quotes with spaces around (`_spaced`), no space after its full stops
    (`_closed`), and a message whose end is values
    alone (`TRAILING_VALUES`, the same count in both) without them, as the
    server prints it when it has none to add (`用户 'sa' 登录失败。`).
    """
    pairs = [(msgid, msgstr)]
    if CJK.search(msgstr) is not None:
        # Each form of the docs' typesetting the server does not share: the
        # values' quotes (`_spaced`), a space after a full stop (`值。 %ls 失败。`).
        for typeset in (_spaced, _closed, lambda text: _closed(_spaced(text))):
            written = typeset(msgstr)
            if all(written != text for _, text in pairs):
                pairs.append((msgid, written))
    english, local = TRAILING_VALUES.fullmatch(msgid), TRAILING_VALUES.fullmatch(msgstr)
    if (
        english is not None
        and local is not None
        and len(_conversions(english[2])) == len(_conversions(local[2]))
    ):
        pairs += [(english[1], text[: len(text) - len(local[2])]) for _, text in list(pairs)]
    return pairs


def _conversions(template: str) -> list[str]:
    return [found.group() for found in _localized._CONVERSION.finditer(template)]


def _sentences(text: str) -> list[str]:
    return SENTENCE_END.split(text)


def _beginning(english: str, translation: str) -> list[tuple[str, str]]:
    """
    The whole sentences of *english*, the beginning of a message, each with its translation's.

    The message goes on after *english*, so its translation has a sentence
    more than *english*'s whole ones, whose translations are its first
    (none: no pair); a last sentence cut short (no final `.`) is not whole.
    """
    sentences = _sentences(english)
    if not sentences[-1].endswith((".", "!", "?")):
        sentences.pop()
    local = _sentences(translation)
    if not sentences or len(local) <= len(sentences):
        return []
    return list(zip(sentences, local, strict=False))


def sqlserver_messages() -> dict[str, list[tuple[str, str]]]:
    """
    Each language's SQL Server messages: the English format and its translation.

    Read from `SQLSERVER_MESSAGES`, in its order, their conversions written as
    printf's (`_printf`).  A translation is kept only when it has the English
    text's conversions in the same order: SQL Server's formats number no
    argument, so a server prints its values in the English order (a page
    whose translation reorders, drops or breaks one, `%. * ls`, is left
    out).  A text of several sentences, with as many in its translation, is
    also kept sentence by sentence, where the two sentences' conversions
    agree: a server's translation may word one sentence otherwise than the
    docs (`请重新运行该事务` for the docs' `重新运行该事务` in 1205) and the
    others are still read.  An English text quoted cut short (`CUT`) gives
    only its sentences (`_beginning`), and its whole translation is read back to
    that beginning (its words name the message).  A text the read-back would take for a label
    (upper-case words: `DBCC CHECKDB`) is left out.
    """
    unescape = {"\\\\": "\\", "\\t": "\t", "\\n": "\n"}
    found: dict[str, list[tuple[str, str]]] = {}
    for line in SQLSERVER_MESSAGES.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        _, language, english, text, _, _ = (
            re.sub(r"\\[\\tn]", lambda m: unescape[m.group()], field) for field in line.split("\t")
        )
        source, translation = _printf(_repaired(english)), _printf(_repaired(text))
        if source is None or translation is None:
            continue
        pairs = []
        beginnings = []  # (the English beginning, the whole translation)
        for msgid, msgstr in _variants(source, translation):
            if msgid.endswith(CUT):
                pairs += _beginning(msgid.removesuffix(CUT), msgstr)
                beginnings.append((msgid.removesuffix(CUT), msgstr))
                continue
            pairs.append((msgid, msgstr))
            sentences = _sentences(msgid), _sentences(msgstr)
            if len(sentences[0]) > 1 and len(sentences[0]) == len(sentences[1]):
                pairs += zip(*sentences, strict=True)
        into = found.setdefault(language, [])
        for english_text, local in pairs:
            if (
                english_text != local
                and not LABEL.fullmatch(english_text)
                and _conversions(english_text) == _conversions(local)
            ):
                into.append((english_text, local))
        # A translation read back as the English text's beginning alone: its
        # words name the message (`Conversion failed when converting date
        # and/or time from`), its values are those the beginning has (the
        # first ones: SQL Server's formats keep their order in translation).
        for english_text, local in beginnings:
            quoted = _conversions(english_text)
            if (
                len(_fixed_text(english_text).split()) >= BEGINNING_WORDS
                and not LABEL.fullmatch(english_text)
                and _conversions(local)[: len(quoted)] == quoted
            ):
                into.append((english_text, local))
    return found


def upstream_translations() -> dict[str, dict[str, list[str]]]:
    """
    Each language's translations by other releases: msgid -> its msgstrs.

    Read from `UPSTREAM_TRANSLATIONS`, in its order; only those `kept` keeps.
    """
    unescape = {"\\\\": "\\", "\\t": "\t", "\\n": "\n"}
    found: dict[str, dict[str, list[str]]] = {}
    for line in UPSTREAM_TRANSLATIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        catalogue, language, _, msgid, msgstr = (
            re.sub(r"\\[\\tn]", lambda m: unescape[m.group()], field) for field in line.split("\t")
        )
        if kept(msgid, catalogue == "libpq5"):
            found.setdefault(language, {}).setdefault(msgid, []).append(msgstr)
    return found


def document() -> tuple[list[str], dict[str, list[str]]]:
    """
    The msgids, and per language each one's msgstr (`""`: none).

    A language's own list holds the installed catalogue's msgstr (else
    MariaDB's, else the first other release's); each further translation of
    the same msgid by another release goes to a list of its own, `de 2`,
    `de 3`, ... (the read-back reads every list alike).
    """
    found = catalogues()
    for language, pairs in mariadb_messages().items():
        into = found.setdefault(language, {})
        for english, text in pairs.items():
            into.setdefault(english, text)
    further = [
        (language, msgid, text)
        for language, translations in upstream_translations().items()
        for msgid, texts in translations.items()
        for text in texts
    ]
    further += [
        (language, msgid, text)
        for language, pairs in sqlserver_messages().items()
        for msgid, text in pairs
    ]
    for language, msgid, text in further:
        into = found.setdefault(language, {})
        column = 2
        while msgid in into and into[msgid] != text:
            into = found.setdefault(f"{language} {column}", {})
            column += 1
        into[msgid] = text
    msgids = sorted({msgid for pairs in found.values() for msgid in pairs})
    msgstrs = {
        language: [pairs.get(msgid, "") for msgid in msgids]
        for language, pairs in sorted(found.items())
    }
    return msgids, msgstrs


def english_words(msgids: list[str]) -> set[str]:
    """
    Every word (`_localized.WORD`, in lower case) an English text of the sources writes.

    The table's msgids, every msgid of the catalogues (detail and hint
    sentences included) and every English text of MariaDB's list.
    """
    texts = list(msgids)
    for pattern in CATALOGUES:
        for path in sorted(glob.glob(pattern)):
            texts.extend(msgid for msgid, _ in read_catalogue(path))
    for line in MARIADB_MESSAGES.read_text(encoding="utf-8").splitlines():
        text = MARIADB_TEXT.fullmatch(line)
        if text is not None and text[1] == "eng":
            texts.append(text[2])
    texts += (msgid for pairs in sqlserver_messages().values() for msgid, _ in pairs)
    return {word.lower() for text in texts for word in _localized.WORD.findall(_fixed_text(text))}


def _fixed_text(template: str) -> str:
    """*template* with each placeholder a space."""
    return _localized._SPLIT.sub(" ", template)


def translated_words(msgids: list[str], msgstrs: dict[str, list[str]]) -> list[str]:
    """
    The words of the msgstrs written in ASCII alone that no English text writes.

    A msgstr counts when its fixed text (its placeholders left out) is ASCII:
    only such a msgstr can be found in an ASCII text.
    """
    english = english_words(msgids)
    words = {
        word.lower()
        for texts in msgstrs.values()
        for text in texts
        if text and _fixed_text(text).isascii()
        for word in _localized.WORD.findall(_fixed_text(text))
    }
    return sorted(words - english)


def render_words(words: list[str]) -> str:
    lines = [
        '"""',
        "The words of PostgreSQL's, MariaDB's and SQL Server's translations in ASCII alone.",
        "",
        "Generated by `tools/generate_localized_messages.py` with `_localized_messages`;",
        "do not edit.  Each word (three ASCII letters or more, in lower case) of a msgstr",
        "whose fixed text is ASCII, that no English text of the same sources writes (the",
        "catalogues' msgids, MariaDB's `eng` texts, SQL Server's English pages): what",
        "`_localized.may_be_translated` looks for in an ASCII text before the table is",
        "decoded.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f"# {len(words)} words, separated by spaces.",
        "WORDS: Final = (",
    ]
    line = ""
    for word in words:
        if line and len(line) + len(word) + 1 > 90:
            lines.append(f'    "{line} "')
            line = ""
        line = f"{line} {word}" if line else word
    lines += [f'    "{line}"', ")", ""]
    return "\n".join(lines)


def encode(table: Mapping[str, object]) -> str:
    raw = json.dumps(table, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    packed = lzma.compress(raw, format=lzma.FORMAT_XZ, check=lzma.CHECK_NONE, preset=9)
    return base64.b64encode(packed).decode("ascii")


def decode(payload: str) -> object:
    return json.loads(lzma.decompress(base64.b64decode(payload)).decode("utf-8"))


def render(msgids: list[str], msgstrs: dict[str, list[str]], payload: str) -> str:
    counts = [
        f"{language} {sum(1 for text in texts if text)}" for language, texts in msgstrs.items()
    ]
    lines = [
        '"""',
        "PostgreSQL's, MariaDB's and SQL Server's messages in English and as translated.",
        "",
        "Generated by `tools/generate_localized_messages.py` from PostgreSQL's server and",
        "libpq message catalogues, MariaDB's message list and SQL Server's docs; do not",
        "edit.  `PAYLOAD` is base64 of an xz stream of the JSON",
        '`{"msgids": [...], "msgstrs": {language: [...]}}`: each language\'s msgstr of each',
        'msgid, by position (`""`: not translated).',
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "# Source:",
        "#   PostgreSQL 15: /usr/share/locale/*/LC_MESSAGES/postgres-15.mo and libpq5-15.mo;",
        "#   labels, and primary messages (one line, lower-case start, no final period): all of",
        "#   libpq's, the server's with a value or of at most six words.",
        "#   PostgreSQL 13, 17, 18 (older releases' translations among them): the msgstrs of",
        "#   tools/upstream/postgresql-translations.tsv; a further one of a msgid in a",
        "#   language is a list of its own (`zh_CN 2`).",
        "#   MariaDB 10.11: /usr/share/mysql/errmsg-utf8.txt; its one-line messages.",
        "#   SQL Server: tools/upstream/sqlserver-doc-messages.tsv (its docs' translations of",
        "#   each message's page); each message, and each sentence of one of several.",
        f"# {len(msgids)} msgids; translated:",
    ]
    lines += [f"#   {', '.join(counts[at : at + 8])}" for at in range(0, len(counts), 8)]
    lines[-1] += "."
    lines += [
        "PAYLOAD: Final = (",
    ]
    lines += [f'    "{payload[at : at + LINE_WIDTH]}"' for at in range(0, len(payload), LINE_WIDTH)]
    lines += [")", ""]
    return "\n".join(lines)


def committed_payload() -> str | None:
    if not OUTPUT.exists():
        return None
    text = OUTPUT.read_text(encoding="utf-8")
    return "".join(re.findall(r'^    "([^"]*)"$', text, flags=re.MULTILINE)) or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is stale")
    args = parser.parse_args(argv)
    msgids, msgstrs = document()
    table = {"msgids": msgids, "msgstrs": msgstrs}
    payload = encode(table)
    if args.check:
        # The same document compressed by another xz build is up to date.
        old = committed_payload()
        if old is not None and old != payload and decode(old) == table:
            payload = old
    return write_or_check(
        {
            OUTPUT: render(msgids, msgstrs, payload),
            WORDS_OUTPUT: render_words(translated_words(msgids, msgstrs)),
        },
        check=args.check,
        what="the localized message table is",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
