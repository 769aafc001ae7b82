"""
Extract `tools/upstream/sqlserver-doc-messages.tsv`: SQL Server's messages as its docs translate.

    python tools/extract_sqlserver_doc_messages.py \\
        --english PATH/sql-docs.git --docs zh_CN=PATH/sql-docs.zh-cn.git --docs de=... ...
    python tools/extract_sqlserver_doc_messages.py --english ... --docs ... --check

A server whose login's language is not English writes its messages in that
language (`对象名 'x' 无效。`, `Ungültiger Objektname 'x'.`): SQL Server keeps
them in `sys.messages`, which ships with no file outside a running server.
Its documentation publishes them, though: each page
`docs/relational-databases/errors-events/mssqlserver-<N>-database-engine-error.md`
of Microsoft's SQL Server docs (github.com/MicrosoftDocs/sql-docs) has a
details table whose rows are the product, the event ID (the message
number), the event source (`MSSQLSERVER`), the component, the symbolic name
and the message text (`Invalid object name '%.*ls'.`); the docs translated
into each language (github.com/MicrosoftDocs/sql-docs.<locale>, and their
public copies) have the same pages with the same table, the labels and the
message text translated (`|消息正文|对象名 '%.*ls' 无效。|`).

Only some 270 numbers have a page.  Each translation also has the list of
every message on one page,
`docs/relational-databases/errors-events/database-engine-events-and-errors.md`,
a table whose rows are the number (linked to its page where there is one,
thousands separated as the language writes them: `1.055`), the severity,
whether it is logged and the message text, translated (`|    156    |    15
|    否    |    关键字 '%.*ls' 附近有语法错误。    |`); a number the list
gives two texts is left out.  The list is of a later release than the pages
(701's page writes `There is insufficient system memory to run this
query.`, its list `... in resource pool '%ls' ...`), and the English list is
not in the English repository: a listed translation is paired with the
`sys.messages` text that `localdata_errors/backends/_mssql_codes.py` quotes
in its comment (`208: K.UNDEFINED_TABLE,  # Invalid object name '%.*ls'.`),
or with the English page's text where that quote is it or its beginning
(`_listed_english`).  A quote cut short (`... requested by the login. ...`)
is written up to its first `...`, ending ` ...`: the generator pairs its
whole sentences with the translation's first ones.  A client's message
(`(client) No such host is known.`) is no `sys.messages` text and is not
used; a number the table does not quote is left out of the list's lines.

This reads each repository at its newest commit (or `--ref`) with git alone
(`ls-tree`, `show`; no work tree is needed) and writes, for each number
whose English page and translated page both give a message text that
differs, one line: the number, the language (as the PostgreSQL catalogues
name it: `zh_CN`, `de`, `pt_BR`), the English text, the translated text,
the translation's source (`owner/repo@commit:path` of its page or list) and
the English text's (its page's, or `_mssql_codes.py:<number>`); then, where
the list's translation is another and has an English text, a line for it:
tab-separated (`\\`, a tab and a line break written `\\\\`, `\\t`, `\\n`),
after `#` lines naming each repository.  The table's cell is read as
Markdown writes it: `\\|`, `\\*`, `\\_` and the other backslash escapes, and
HTML's character references (`&lt;`), are read as the characters, emphasis
(`**@stmt**`) as its words and an include (`[!INCLUDE[ssNoVersion](...)]`)
as the included file's text.  The docs are licensed CC-BY-4.0
(`sql-docs.LICENSE`).  The file is read by
`tools/generate_localized_messages.py`; the repositories are not needed
there.  `--check` compares instead of writing (exit 1 when it differs; 3
when a repository is not given).
"""

from __future__ import annotations

import argparse
import html
import posixpath
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final, NamedTuple

TOOLS: Final = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:  # run as a script from anywhere: find the sibling tools
    sys.path.insert(0, str(TOOLS))

from _generated import source_missing, write_or_check  # noqa: E402 - needs the sys.path line

ROOT: Final = TOOLS.parent
OUTPUT: Final = ROOT / "tools" / "upstream" / "sqlserver-doc-messages.tsv"
PAGES: Final = "docs/relational-databases/errors-events/"
#: A message's page: `mssqlserver-208-...`, `mssqlserver-neg2-...` (number -2).
PAGE: Final = re.compile(
    re.escape(PAGES) + r"mssqlserver-(?P<number>(?:neg)?\d+)-database-engine-error\.md"
)
#: A table row's cells (`|label|value|`, spaces around each kept out).
ROW: Final = re.compile(r"^\s*\|(.*)\|\s*$")
#: A conversion of SQL Server's message formats (`%.*ls`, `%#016I64x`, `%S_MSG`), whose
#: `*` is no emphasis.
CONVERSION: Final = (
    r"%(?:S_[A-Z]+|\d+!\w+!|[-+ #0]*(?:\\?\*|\d+)?(?:\.(?:\\?\*|\d+))?(?:h|l|I64)?[a-zA-Z])"
)
#: What the text keeps as it is: a Markdown escape (its character) or a conversion.
LITERAL: Final = re.compile(rf"\\([!-/:-@\[-`{{-~}}])|{CONVERSION}")
#: Markdown's emphasis (`**@stmt**`, `*construct*`): the text shows its words alone.
EMPHASIS: Final = re.compile(r"(?<!\*)(\*\*?)(?=\S)(.+?)(?<=\S)\1(?!\*)")
#: An include (`[!INCLUDE[ssNoVersion](../../includes/ssnoversion-md.md)]`): the page
#: shows the included file's text (`SQL Server`).
INCLUDE: Final = re.compile(r"\[!INCLUDE\[[^]]*\]\(([^)]+)\)\]")
#: The list of every message, on one page.
LIST: Final = PAGES + "database-engine-events-and-errors.md"
#: A list's row: `|number|severity|logged|text|`; the number linked to its page or
#: not, its thousands separated as the language writes them (`1.055`, `1 055`).
LISTED: Final = re.compile(r"\[?(?P<number>-?\d{1,3}(?:[. \u00a0]\d{3})+|-?\d+)\]?(?:\([^)]*\))?")
LIST_CELLS: Final = 4
#: SQL Server's own table, whose comments quote each number's `sys.messages` text.
CODES: Final = ROOT / "localdata_errors" / "backends" / "_mssql_codes.py"
#: A number of the table and its comment (`208: K.UNDEFINED_TABLE,  # Invalid object ...`).
QUOTED: Final = re.compile(r"^\s+(?P<number>-?\d+): K\.\w+,\s+# (?P<text>.+)$", re.MULTILINE)
#: What a quote cut short ends with: the generator reads the text as a beginning.
CUT: Final = " ..."
#: The details table's rows, in the order every page writes them.
SOURCE_ROW: Final = 2  # the event source, `MSSQLSERVER`
NUMBER_ROW: Final = 1
TEXT_ROW: Final = 5
ROWS: Final = 6


class Page(NamedTuple):
    """A page's message: its number and text, and where it was read."""

    number: int
    text: str
    source: str


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, check=True
    ).stdout.decode("utf-8")


def _cell(text: str) -> str:
    """A table cell's text as the page shows it (includes aside: `rendered`)."""
    kept: list[str] = []

    def keep(found: re.Match[str]) -> str:
        # A conversion (its `*` no emphasis, `\\*` read as `*`) or an escaped character.
        kept.append(found[1] if found[1] is not None else found.group().replace("\\", ""))
        return f"\x00{len(kept) - 1}\x00"

    masked = EMPHASIS.sub(r"\2", LITERAL.sub(keep, text.strip()))
    shown = re.sub("\x00(\\d+)\x00", lambda found: kept[int(found[1])], masked)
    return html.unescape(shown)


def rendered(text: str, page: str, show: Callable[[str], str]) -> str:
    """*text* with each include replaced by the included file's text (*show* reads a path)."""

    def include(found: re.Match[str]) -> str:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(page), found[1]))
        return " ".join(_cell(show(path)).split())

    return INCLUDE.sub(include, text)


def _cells(line: str) -> list[str] | None:
    row = ROW.match(line)
    if row is None:
        return None
    # A `|` escaped as `\|` is the cell's own text, not a separator.
    return [_cell(cell) for cell in re.split(r"(?<!\\)\|", row[1])]


def message(page: str) -> tuple[int, str] | None:
    """
    The number and message text of a page's details table.

    The table is the one with a row `MSSQLSERVER` (the event source): the
    row before it is the number, the third after it the message text.
    """
    rows = [cells for cells in map(_cells, page.splitlines()) if cells is not None]
    for at, cells in enumerate(rows):
        if len(cells) == 2 and cells[1] == "MSSQLSERVER" and at >= SOURCE_ROW - NUMBER_ROW:
            first = at - SOURCE_ROW
            table = rows[first : first + ROWS]
            if len(table) < ROWS or not all(len(row) == 2 for row in table):
                return None
            number, text = table[NUMBER_ROW][1], table[TEXT_ROW][1]
            if re.fullmatch(r"-?\d+", number) is None or not text:
                return None
            return int(number), text
    return None


def pages(repository: str, git_dir: str, ref: str) -> tuple[str, dict[int, Page]]:
    """A repository's commit and its pages' messages, by number."""
    commit = _git(git_dir, "rev-parse", f"{ref}^{{commit}}").strip()
    found: dict[int, Page] = {}
    for path in sorted(_git(git_dir, "ls-tree", "-r", "--name-only", commit, PAGES).splitlines()):
        name = PAGE.fullmatch(path)
        if name is None:
            continue
        read = message(_git(git_dir, "show", f"{commit}:{path}"))
        expected = int(name["number"].replace("neg", "-"))
        if read is None or read[0] != expected:
            continue  # a page without the table, or another number's
        text = rendered(read[1], path, lambda name: _git(git_dir, "show", f"{commit}:{name}"))
        found[expected] = Page(expected, text, f"{repository}@{commit}:{path}")
    return commit, found


def listed(repository: str, git_dir: str, commit: str) -> dict[int, Page]:
    """
    The messages of a repository's list (`LIST`), by number.

    A number whose rows give two texts is left out: the list gives some
    numbers a client's message too (`233`, `11001`), which is not the server's.
    """
    path = f"{commit}:{LIST}"
    found: dict[int, Page] = {}
    twice: set[int] = set()
    text = _git(git_dir, "show", path)
    for line in text.splitlines():
        row = ROW.match(line)
        if row is None:
            continue
        cells = re.split(r"(?<!\\)\|", row[1])
        number = LISTED.fullmatch(cells[0].strip())
        if len(cells) != LIST_CELLS or number is None:
            continue
        shown = rendered(
            _cell(cells[-1]), LIST, lambda name: _git(git_dir, "show", f"{commit}:{name}")
        )
        value = int(re.sub(r"[. \u00a0]", "", number["number"]))
        if not shown:
            continue
        if value in found and found[value].text != shown:
            twice.add(value)
        found.setdefault(value, Page(value, shown, f"{repository}@{commit}:{LIST}"))
    return {number: page for number, page in found.items() if number not in twice}


def quoted(path: Path = CODES) -> dict[int, Page]:
    """
    The `sys.messages` texts SQL Server's table quotes, by number (`_mssql_codes`).

    A quote cut short is kept to its first `...` (written `CUT`); a client's
    message, quoted `(client) ...` or `(SqlClient) ...`, is not a server's.
    """
    found: dict[int, Page] = {}
    for match in QUOTED.finditer(path.read_text(encoding="utf-8")):
        text = match["text"].strip()
        if text.startswith(("(", "...")):
            continue
        if "..." in text:
            text = text.split("...", 1)[0].rstrip() + CUT
        number = int(match["number"])
        source = f"{path.relative_to(ROOT).as_posix()}:{number}"
        found.setdefault(number, Page(number, text, source))
    return found


def escape(text: str) -> str:
    """A value as one TSV field."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "").replace("\n", "\\n")


def _listed_english(page: Page | None, quote: Page | None) -> Page | None:
    """
    The English text of a listed message: its page's where its quote is that text, else its quote.

    The list gives the messages of a later release than the pages (701's page
    `There is insufficient system memory to run this query.`, its list and
    quote `... in resource pool '%ls' to run ...`; the list's 15599 another
    message than its page's), so a page's English is a listed translation's
    only where `_mssql_codes` quotes the same text (or its beginning); a
    number it does not quote is left out.
    """
    if quote is None:
        return None
    if page is not None and (
        page.text == quote.text
        or (quote.text.endswith(CUT) and page.text.startswith(quote.text.removesuffix(CUT)))
    ):
        return page
    return quote


class Translated(NamedTuple):
    """A language's repository, its commit, its pages' messages and its list's."""

    language: str
    repository: str
    commit: str
    pages: dict[int, Page]
    listed: dict[int, Page]


def render(
    english: tuple[str, str, dict[int, Page]],
    quotes: dict[int, Page],
    translated: list[Translated],
) -> str:
    """
    The file: the `#` lines naming the repositories, then a line per translated message.

    A number's page first, then its list's translation where that is another.
    """
    repository, commit, english_pages = english
    lines = [
        "# SQL Server's messages (the details table of each page",
        f"# {PAGES}mssqlserver-<N>-database-engine-error.md, and the list {LIST})",
        "# in English and as each language's docs translate them. CC-BY-4.0: sql-docs.LICENSE.",
        f"# en: {repository}@{commit}, else the sys.messages text quoted in",
        f"# {CODES.relative_to(ROOT).as_posix()} (one cut short ends{CUT}).",
    ]
    lines += [f"# {read.language}: {read.repository}@{read.commit}" for read in translated]
    lines.append(
        "# Extracted by tools/extract_sqlserver_doc_messages.py. number<TAB>language"
        "<TAB>English<TAB>translation<TAB>translation's source<TAB>English text's source"
    )
    for read in translated:
        for number in sorted(read.pages.keys() | read.listed.keys()):
            page, listed = read.pages.get(number), read.listed.get(number)
            english_page = english_pages.get(number)
            pairs = [(page, english_page)]
            if listed is not None and (page is None or listed.text != page.text):
                pairs.append((listed, _listed_english(english_page, quotes.get(number))))
            for local, source in pairs:
                if local is None or source is None or local.text == source.text:
                    continue
                fields = (str(number), read.language, source.text, local.text)
                lines.append("\t".join(map(escape, (*fields, local.source, source.source))))
    return "\n".join(lines) + "\n"


def _named(value: str) -> tuple[str, str]:
    """`NAME=owner/repo=PATH` or `NAME=PATH` (the repository named by the mirror's folder)."""
    name, _, rest = value.partition("=")
    repository, _, path = rest.rpartition("=")
    if not repository:
        # A mirror's folder is `owner+name/repo`: the repository is its name.
        folder = next((part for part in Path(path).parts if "+" in part), "")
        repository = folder.replace("+", "/", 1)
    return f"{name}={repository}", path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--english", required=True, help="[owner/repo=]git dir of the English docs")
    parser.add_argument(
        "--docs",
        action="append",
        default=[],
        help="LANGUAGE=[owner/repo=]git dir of a translation (zh_CN, de, pt_BR, ...)",
    )
    parser.add_argument("--ref", default="HEAD", help="the commit of each repository")
    parser.add_argument("--check", action="store_true", help="exit 1 when the file differs")
    args = parser.parse_args(argv)
    given = [_named(f"en={args.english}"), *(_named(value) for value in args.docs)]
    for _, path in given:
        if not Path(path).exists():
            source_missing(f"no git directory at {path} (fetch the docs' repository)")
    (english_name, english_path), *local_paths = given
    english_repository = english_name.partition("=")[2]
    english_commit, english_pages = pages(english_repository, english_path, args.ref)
    translated: list[Translated] = []
    for name, path in local_paths:
        language, _, repository = name.partition("=")
        commit, found = pages(repository, path, args.ref)
        translated.append(
            Translated(language, repository, commit, found, listed(repository, path, commit))
        )
    text = render((english_repository, english_commit, english_pages), quoted(), translated)
    return write_or_check(
        {OUTPUT: text},
        check=args.check,
        what="the SQL Server docs' message list is",
        script=Path(__file__).name,
    )


if __name__ == "__main__":
    raise SystemExit(main())
