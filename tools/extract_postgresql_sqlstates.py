"""
Extract `tools/upstream/postgresql-sqlstates.tsv`: server messages' SQLSTATEs, from the source.

    python tools/extract_postgresql_sqlstates.py --git-dir PATH/postgres.git --ref REL_15_STABLE
    python tools/extract_postgresql_sqlstates.py --tree PATH/postgresql-15.x
    python tools/extract_postgresql_sqlstates.py --tree PATH/postgresql-15.x --why
    python tools/extract_postgresql_sqlstates.py --tree PATH/postgresql-15.x --source ... --check

PostgreSQL's message catalogues (`postgres-15.mo`) give the server's message
formats without their SQLSTATE; the server's source gives both, at each call
site:

    ereport(ERROR,
            (errcode(ERRCODE_UNDEFINED_TABLE),
             errmsg("relation \"%s\" does not exist", relname)));

Every `errmsg`, `errmsg_internal` and `errmsg_plural` format (adjacent string
literals joined, C escapes read) is paired with the `ERRCODE_*` constant the
`errcode(...)` of its `ereport(...)` call names; the constant is read as its
SQLSTATE by the source's own `src/backend/utils/errcodes.txt`.  The soft-error
reports of `elog.h` (since PostgreSQL 16: a datatype input function's
`ereturn(escontext, ...)`, `errsave(escontext, ...)` and their `_domain`
forms) are read as `ereport(ERROR, ...)`: so they report when the context is
not an `ErrorSaveContext`, and one that is keeps the same SQLSTATE and
message for its caller (`errsave_start` defaults the code to ERROR's
`XX000`, as `errstart` does).  `startup.h`'s `ereport_startup_progress(msg,
...)` is `ereport(LOG, errmsg(msg, ...))`.  An `ereport`
of a level below `ERROR` (a constant) without `errcode` states its level's
(`elog.c`'s `errstart`: `WARNING` 01000, `NOTICE` and lower 00000).  A call
site that names no constant (an `elog`, an `ereport` of `ERROR` or higher, or
of a level given by a variable, without `errcode`, an errcode given by a
variable, an `errmsg` outside a report) states no SQLSTATE.  One with
`errcode_for_file_access()` or `errcode_for_socket_access()` states the
SQLSTATE `elog.c` derives from `errno`, at any level: the marker
`errno:file` (`errno:socket`) stands for it, and a format all of whose call
sites state one marker is kept with it where the format prints
`strerror(errno)` (`%m`), the text the SQLSTATE is then read from.  A
format a function chooses through a variable (`msg = gettext_noop("permission
denied for table %s")` in a switch, or `err = _("...")`) is paired with the
constant of each ereport of that function that gives the variable to
`errmsg` (`errmsg(msg, name)`, `errmsg_internal("%s", err)`); given to
another call (`errdetail(msg)`) it states none.  A format is kept only
when every call site of it states the same SQLSTATE (or marker), and only
an `errmsg`/`errmsg_plural` one (what the catalogues translate).  The files
are the catalogue's (`src/backend/nls.mk`: `src/backend`, `src/common`,
`src/port`).  `--why`
counts the catalogue formats dropped instead, by why: sites that state
different SQLSTATEs (or markers), or the reasons of the sites that state none.

The output is a TSV, one format a line (`\\`, a tab and a line break written
`\\\\`, `\\t`, `\\n`), after `#` lines naming the source.  A section
follows: the two functions' switches (`switch (edata->saved_errno)`), one
`marker<TAB>errno<TAB>sqlstate` row per `case`, `*` for the `default`, in
the source's order; a `case` names an errno (`ENOENT`) or a macro of
`src/include/port.h` that lists some (`ALL_CONNECTION_FAILURE_ERRNOS`), and
the `#ifdef`/`#if` lines around a case are read as true (as on Linux, where
`EROFS` is defined and `ENOTEMPTY` is not `EEXIST`).  With `--check`,
nothing is written: the exit status is 1 when the committed file differs.
It is read by `tools/generate_vendor_wordings.py` and
`tools/generate_postgresql_errno.py`; the source tree is not needed there.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tools" / "upstream" / "postgresql-sqlstates.tsv"
#: The catalogue's source folders (`src/backend/nls.mk`'s `gettext-files`).
FOLDERS = ("src/backend", "src/common", "src/port")
SUFFIXES = (".c", ".y", ".l")
ERRCODES = "src/backend/utils/errcodes.txt"
#: Where the switches that set a SQLSTATE from errno are, and the macros their cases use.
ELOG_C = "src/backend/utils/error/elog.c"
PORT_H = "src/include/port.h"
#: The functions of `elog.c` that set the SQLSTATE from errno -> the marker a format gets.
ERRNO_FUNCTIONS = {
    "errcode_for_file_access": "errno:file",
    "errcode_for_socket_access": "errno:socket",
}
#: The errno a switch's `default` stands for, in the section's rows.
ANY_ERRNO = "*"

#: The reporting macros (`elog.h`): their calls bound the errcode and errmsg calls
#: inside.  `errsave`, `ereturn` (and their `_domain` forms) report at ERROR
#: unless given a soft-error context, which keeps the same fields for its caller.
_REPORTS = ("ereport", "ereport_domain", "errsave", "errsave_domain", "ereturn", "ereturn_domain")
#: `startup.h`'s `ereport_startup_progress(msg, ...)`: `ereport(LOG, errmsg(msg, ...))`.
_PROGRESS = "ereport_startup_progress"
_CALL = re.compile(
    rf"\b({'|'.join(_REPORTS)}|{_PROGRESS}|elog|errmsg|errmsg_internal|errmsg_plural)\s*\("
)
_ERRCODE = re.compile(r"\berrcode\s*\(")
_CONSTANT = re.compile(r"ERRCODE_[A-Z0-9_]+")
_SQLSTATE = re.compile(r"[0-9A-Z]{5}")
_ACCESS = re.compile(r"\berrcode_for_(file|socket)_access\s*\(")
#: The SQLSTATE an ereport of a level below ERROR states without errcode (`errstart`).
_LEVEL_DEFAULTS = {
    **dict.fromkeys(
        [
            "DEBUG5",
            "DEBUG4",
            "DEBUG3",
            "DEBUG2",
            "DEBUG1",
            "LOG",
            "LOG_SERVER_ONLY",
            "COMMERROR",
            "INFO",
            "NOTICE",
        ],
        "ERRCODE_SUCCESSFUL_COMPLETION",
    ),
    "WARNING": "ERRCODE_WARNING",
    "WARNING_CLIENT_ONLY": "ERRCODE_WARNING",
}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "?": "?", "a": "\a"}


def blank_comments(source: str) -> str:
    """The source with its comments blanked (same length), string literals kept."""
    out = list(source)
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c in "\"'":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            i = j + 1
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        else:
            i += 1
    return "".join(out)


def _past_literal(source: str, at: int) -> int:
    """The index just past the string or character literal that opens at *at*."""
    quote, i, n = source[at], at + 1, len(source)
    while i < n and source[i] != quote:
        i += 2 if source[i] == "\\" else 1
    return i + 1


def closing(source: str, at: int, pair: str = "()") -> int:
    """
    The index just past the bracket that closes the one at *at* (string
    literals skipped): a parenthesis, or with *pair* `"{}"` a brace.
    """
    opening, closer = pair[0], pair[1]
    depth, i, n = 0, at, len(source)
    while i < n:
        c = source[i]
        if c in "\"'":
            i = _past_literal(source, i)
            continue
        if c == opening:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def arguments(inside: str) -> list[str]:
    """A call's arguments (the text between its parentheses), split at top-level commas."""
    found, depth, start, i = [], 0, 0, 0
    while i < len(inside):
        c = inside[i]
        if c in "\"'":
            j = i + 1
            while j < len(inside) and inside[j] != c:
                j += 2 if inside[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            found.append(inside[start:i])
            start = i + 1
        i += 1
    found.append(inside[start:])
    return found


_LITERALS = re.compile(r'\s*(?:"((?:[^"\\\n]|\\.)*)"\s*)+')
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def literal(argument: str) -> str | None:
    """The string an argument of adjacent string literals is (C escapes read), else `None`."""
    if _LITERALS.fullmatch(argument) is None:
        return None
    return "".join(_unescape(m.group(1)) for m in _LITERAL.finditer(argument))


def _unescape(body: str) -> str:
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in "01234567":
            digits = re.match(r"[0-7]{1,3}", body[i + 1 :])
            octal = digits.group() if digits is not None else nxt
            out.append(chr(int(octal, 8)))
            i += 1 + len(octal)
        else:
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


#: Why a call site states no SQLSTATE (`--why` counts the formats they drop).
ELOG = "elog"
NO_ERRCODE = "no errcode (level ERROR or higher, or a variable)"
VARIABLE = "errcode given a variable"
NO_M = "errcode_for_file_access or errcode_for_socket_access, no %m"
OUTSIDE = "errmsg outside a report"
OTHER_CALL = "chosen format given to another call"
UNKNOWN = "constant not in errcodes.txt"

#: A call site: the formats it prints, the `ERRCODE_*` constant it states
#: (else why it states none), whether they are catalogue ones, and the level it
#: reports at (`ERROR`, `FATAL`, ...: its report's first argument, a soft
#: error's `ERROR`; `""` outside a report).
Site = tuple[list[str], str, bool, str]
#: A report or elog call: start, end, the constant it states, its level.
Span = tuple[int, int, str, str]
#: The levels a client prints as `ERROR:` (elog.h: a soft error reports as one).
ERROR_LEVEL = "ERROR"
_SOFT = ("errsave", "errsave_domain", "ereturn", "ereturn_domain")


def sites(source: str) -> Iterator[Site]:
    """
    Each message call site of a C file: its formats, the `ERRCODE_*` constant
    stated for them (else why none is), and whether they are catalogue ones
    (`errmsg`, `errmsg_plural`).
    """
    source = blank_comments(source)
    spans: list[Span] = []
    messages: list[tuple[int, list[str], bool]] = []
    for m in _CALL.finditer(source):
        name, open_at = m.group(1), m.end() - 1
        end = closing(source, open_at)
        if name in (*_REPORTS, "elog"):
            call = source[open_at + 1 : end - 1]
            spans.append((m.start(), end, _stated(call, name), _level(call, name)))
            continue
        args = arguments(source[open_at + 1 : end - 1])
        formats = args[:2] if name == "errmsg_plural" else args[:1]
        texts = [t for t in (literal(a) for a in formats) if t is not None]
        if texts and name == _PROGRESS:
            yield texts, _LEVEL_DEFAULTS["LOG"], True, "LOG"
        elif texts:
            messages.append((m.start(), texts, name != "errmsg_internal"))
    for at, texts, translated in messages:
        inside = [s for s in spans if s[0] < at < s[1] and s[2] != ELOG]
        if inside:
            yield texts, inside[-1][2], translated, inside[-1][3]
        else:
            yield texts, OUTSIDE, translated, ""
    yield from _chosen(source, spans)
    for start, end, constant, level in spans:
        if constant == ELOG:
            args = arguments(source[source.index("(", start) + 1 : end - 1])
            text = literal(args[1]) if len(args) > 1 else None
            if text is not None:
                yield [text], ELOG, False, level


#: A message chosen through a variable: `msg = gettext_noop("...")` (or `_("...")`).
_CHOSEN = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*=\s*(?:gettext_noop|_)\s*\(")
#: A call given such a variable as its format (`errmsg(msg, name)`), or as a
#: `"%s"`'s argument (`errmsg_internal("%s", _(msg))`).
_GIVEN = re.compile(r"\b(err[a-z_]+)\s*\(")


def bodies(source: str) -> Iterator[tuple[int, int]]:
    """Each top-level brace block of a C file (a function's body): start, end."""
    depth, i, n, start = 0, 0, len(source), 0
    while i < n:
        c = source[i]
        if c in "\"'":
            i = _past_literal(source, i)
            continue
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                yield start, i + 1
        i += 1


def _chosen(source: str, spans: list[Span]) -> Iterator[Site]:
    """
    The formats a function chooses through a variable (`msg = gettext_noop("...")`,
    in a switch), each with the constant of every ereport of the function
    that gives that variable to `errmsg` (`errmsg(msg, name)`); the variable
    given to another call (`errdetail(msg)`), to an `errmsg` outside an
    ereport or of an ereport that names no constant, states none.
    """
    for start, end in bodies(source):
        body = source[start:end]
        chosen: dict[str, list[str]] = {}
        for m in _CHOSEN.finditer(body):
            args = arguments(body[m.end() : closing(body, m.end() - 1) - 1])
            text = literal(args[0]) if len(args) == 1 else None
            if text is not None:
                chosen.setdefault(m.group(1), []).append(text)
        if not chosen:
            continue
        stated: dict[str, set[tuple[str, str]]] = {}
        for m in _GIVEN.finditer(body):
            name = m.group(1)
            if name == "errcode":
                continue
            args = [a.strip() for a in arguments(body[m.end() : closing(body, m.end() - 1) - 1])]
            if args[:1] == ['"%s"'] and len(args) > 1:
                given = re.fullmatch(r"(?:_\s*\(\s*)?(\w+)\s*\)?", args[1])
                variable = given.group(1) if given is not None else None
            else:
                variable = args[0] if args else None
            if variable not in chosen:
                continue
            at = start + m.start()
            inside = [s for s in spans if s[0] < at < s[1] and s[2] != ELOG]
            level = inside[-1][3] if inside else ""
            if name not in ("errmsg", "errmsg_internal", "errmsg_plural"):
                constant = OTHER_CALL
            else:
                constant = inside[-1][2] if inside else OUTSIDE
            stated.setdefault(variable, set()).add((constant, level))
        for variable, texts in chosen.items():
            for constant, level in stated.get(variable, ()):
                yield texts, constant, True, level


def _level(inside: str, name: str) -> str:
    """The level a report or elog reports at: its first argument (a soft error's `ERROR`)."""
    if name in _SOFT:
        return ERROR_LEVEL
    return arguments(inside)[0].strip()


def _stated(inside: str, name: str) -> str:
    """
    The `ERRCODE_*` constant a report states (its errcode's, else its level's
    below ERROR), else why it states none (`ELOG` for an elog).
    """
    if name == "elog":
        return ELOG
    m = _ERRCODE.search(inside)
    if m is None:
        access = _ACCESS.search(inside)
        if access is not None:  # the SQLSTATE follows errno, at any level
            return ERRNO_FUNCTIONS[f"errcode_for_{access.group(1)}_access"]
        level = arguments(inside)[0].strip()
        default = _LEVEL_DEFAULTS.get(level) if name == "ereport" else None
        return default or NO_ERRCODE
    argument = inside[m.end() : closing(inside, m.end() - 1) - 1].strip()
    return argument if _CONSTANT.fullmatch(argument) else VARIABLE


def sqlstates(errcodes: str) -> dict[str, str]:
    """`ERRCODE_*` constant -> SQLSTATE, by `errcodes.txt` (`42P01 E ERRCODE_UNDEFINED_TABLE`)."""
    found = {}
    for line in errcodes.splitlines():
        parts = line.split()
        if len(parts) >= 3 and re.fullmatch(r"[0-9A-Z]{5}", parts[0]) and parts[1] in "EWS":
            found[parts[2]] = parts[0]
    return found


def statements(files: dict[str, str], errcodes: str) -> dict[str, list[tuple[str, str]]]:
    """
    Each catalogue format -> what each of its call sites states, with the
    level it reports at: a SQLSTATE, and for a site that states none, why
    (`ELOG`, `NO_ERRCODE`, ...).
    """
    states = sqlstates(errcodes)
    seen: dict[str, list[tuple[str, str]]] = {}
    translated: set[str] = set()
    for path in sorted(files):
        for texts, constant, catalogue, level in sites(files[path]):
            state = states.get(constant, UNKNOWN if constant.startswith("ERRCODE_") else constant)
            for text in texts:
                seen.setdefault(text, []).append((state, level))
                if catalogue:
                    translated.add(text)
    return {text: seen[text] for text in sorted(translated)}


def stated(files: dict[str, str], errcodes: str) -> dict[str, set[str]]:
    """
    Each catalogue format -> what its call sites state: SQLSTATEs, and for a
    site that states none, why (`ELOG`, `NO_ERRCODE`, ...).
    """
    return {
        text: {state for state, _ in found} for text, found in statements(files, errcodes).items()
    }


def _kept(text: str, code: str) -> bool:
    """Whether a format's one statement is kept: a SQLSTATE, or a marker where it prints `%m`."""
    if code in ERRNO_FUNCTIONS.values():
        return "%m" in text
    return _SQLSTATE.fullmatch(code) is not None


def _decided(text: str, found: list[tuple[str, str]]) -> str | None:
    """
    The SQLSTATE (or errno marker) a format is kept with: the one every call
    site states; else the one every report (ereport, a soft error) at ERROR
    states (those that state none count against it): a client prints that
    level `ERROR:`, the start-up catalogue gives a FATAL site's, and an
    `elog`, "for internal errors that should never happen" (its text not
    translated), is no message a user is meant to meet.  Where ERROR reports
    disagree (`invalid input syntax for type %s: "%s"`: 22P02 for an
    integer, 22007 for a date), the text alone does not say which: none.
    """
    codes = {state for state, _ in found}
    if len(codes) != 1:
        codes = {state for state, level in found if level == ERROR_LEVEL and state != ELOG}
    if len(codes) != 1:
        return None
    code = next(iter(codes))
    return code if _kept(text, code) else None


def extract(files: dict[str, str], errcodes: str) -> dict[str, str]:
    """
    Format -> SQLSTATE (or errno marker): the one every call site of the
    format states; where they disagree, the one every site that reports it
    at ERROR states (`role "%s" does not exist`: 42704 at ERROR, the
    start-up refusal's 28000 at FATAL, which the start-up catalogue
    `backends/_postgresql_fatal.py` gives).
    """
    kept = {}
    for text, found in statements(files, errcodes).items():
        code = _decided(text, found)
        if code is not None:
            kept[text] = code
    return kept


def why(files: dict[str, str], errcodes: str) -> Counter[str]:
    """The catalogue formats `extract` drops, counted by why."""
    counts: Counter[str] = Counter()
    for text, statements_found in statements(files, errcodes).items():
        if _decided(text, statements_found) is not None:
            continue
        codes = {
            NO_M if c in ERRNO_FUNCTIONS.values() and not _kept(text, c) else c
            for c, _ in statements_found
        }
        found = {c for c in codes if _kept(text, c)}
        reasons = ", ".join(sorted(codes - found))
        if len(found) > 1:
            counts["sites state different SQLSTATEs"] += 1
        elif found and reasons:
            counts[f"one SQLSTATE, a site states none: {reasons}"] += 1
        elif not found:
            counts[f"no site states one: {reasons}"] += 1
    return counts


_SWITCH = re.compile(r"\bswitch\s*\(\s*edata->saved_errno\s*\)")
_CASE = re.compile(r"\bcase\s+(\w+)\s*:|\bdefault\s*:|\bsqlerrcode\s*=\s*(ERRCODE_\w+)")
_DEFINE = re.compile(r"^#define\s+(\w+)[ \t]+((?:.*\\\n)*.*)$", re.MULTILINE)


def switches(elog_c: str, port_h: str, errcodes: str) -> list[tuple[str, str, str]]:
    """
    The rows of the errno section: (marker, errno or `ANY_ERRNO`, SQLSTATE),
    for each case of the switch in each function of `ERRNO_FUNCTIONS`.

    A case's name that `port.h` defines as a list (`EPIPE: case ECONNRESET:
    ...`) is read as that list.

    Raises:
        ValueError: A function, or its switch, is not where `elog.c` should have it.
    """
    states = sqlstates(errcodes)
    macros = {
        m.group(1): m.group(2).replace("\\\n", " ")
        for m in _DEFINE.finditer(blank_comments(port_h))
    }
    source = blank_comments(elog_c)
    rows: list[tuple[str, str, str]] = []
    for function, marker in ERRNO_FUNCTIONS.items():
        head = re.search(rf"^{function}\s*\(\s*void\s*\)\s*\{{", source, re.MULTILINE)
        if head is None:
            raise ValueError(f"{function} is not defined in {ELOG_C}")
        body = source[head.end() - 1 : closing(source, head.end() - 1, "{}")]
        switch = _SWITCH.search(body)
        if switch is None:
            raise ValueError(f"{function} has no switch on saved_errno")
        block = body[body.index("{", switch.end()) :]
        block = re.sub(
            r"\bcase\s+(\w+)\s*:", lambda m: f"case {macros.get(m.group(1), m.group(1))}:", block
        )
        pending: list[str] = []
        for m in _CASE.finditer(block):
            if m.group(2) is not None:
                rows.extend((marker, name, states[m.group(2)]) for name in pending)
                pending = []
            else:
                pending.append(m.group(1) or ANY_ERRNO)
        if pending or not rows or rows[-1][:2] != (marker, ANY_ERRNO):
            raise ValueError(f"{function}'s switch does not end with its default's errcode")
    return rows


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def read_git(git_dir: str, ref: str) -> tuple[dict[str, str], str, str, str]:
    """The catalogue's source files at *ref*, `errcodes.txt`, `port.h`, and the commit."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True, text=True
        ).stdout

    commit = git("rev-parse", f"{ref}^{{commit}}").strip()
    names = [
        n
        for n in git("ls-tree", "-r", "--name-only", commit, "--", *FOLDERS).splitlines()
        if n.endswith(SUFFIXES)
    ]
    files = {n: git("show", f"{commit}:{n}") for n in names}
    return files, git("show", f"{commit}:{ERRCODES}"), git("show", f"{commit}:{PORT_H}"), commit


def read_tree(tree: Path) -> tuple[dict[str, str], str, str]:
    """The catalogue's source files of an unpacked tree, `errcodes.txt` and `port.h`."""
    files = {
        str(p.relative_to(tree)): p.read_text(encoding="utf-8", errors="replace")
        for folder in FOLDERS
        for p in sorted((tree / folder).rglob("*"))
        if p.suffix in SUFFIXES
    }
    return files, (tree / ERRCODES).read_text(encoding="utf-8"), (tree / PORT_H).read_text()


def render(files: dict[str, str], errcodes: str, port_h: str, source: str) -> str:
    """The TSV: the formats with their SQLSTATE or marker, then the errno section."""
    found = extract(files, errcodes)
    rows = switches(files[ELOG_C], port_h, errcodes)
    lines = [
        f"# PostgreSQL {source}: server message formats, each with the",
        "# SQLSTATE every call site of it states (errcode(ERRCODE_*) in its ereport,",
        "# errcodes.txt), or where they disagree, every site of it at ERROR.",
        "# PostgreSQL License: postgresql.LICENSE.",
        "# Extracted by tools/extract_postgresql_sqlstates.py. format<TAB>sqlstate",
        *(f"{_escape(text)}\t{code}" for text, code in found.items()),
        "# errno:file, errno:socket: a format whose every call site sets its SQLSTATE",
        "# from errno (elog.c's errcode_for_file_access(), errcode_for_socket_access()),",
        "# as their switches do (* the default). marker<TAB>errno<TAB>sqlstate",
        *("\t".join(row) for row in rows),
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--git-dir", help="a PostgreSQL git directory")
    parser.add_argument("--ref", default="HEAD", help="the commit, branch or tag to read")
    parser.add_argument("--tree", type=Path, help="an unpacked PostgreSQL source tree instead")
    parser.add_argument("--source", help="the source to record (version, commit)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--why", action="store_true", help="count the dropped formats by why")
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args()
    if args.git_dir:
        files, errcodes, port_h, _commit = read_git(args.git_dir, args.ref)
    elif args.tree:
        files, errcodes, port_h = read_tree(args.tree)
    else:
        parser.error("give --git-dir or --tree")
    if args.why:
        for reason, count in sorted(why(files, errcodes).items(), key=lambda r: (-r[1], r[0])):
            print(f"{count}\t{reason}")
        return 0
    text = render(files, errcodes, port_h, args.source)
    count = sum(1 for line in text.splitlines() if line and not line.startswith("#"))
    if args.check:
        if not args.output.exists() or args.output.read_text(encoding="utf-8") != text:
            print(f"{args.output} is stale: run without --check", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date ({count} rows)")
        return 0
    args.output.write_text(text, encoding="utf-8")
    print(f"{args.output}: {count} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
