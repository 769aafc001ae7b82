"""
The readers' shortcuts read what the plain forms they replace read.

`localdata_errors._redact` finds every place a credential may start with one
pattern, then reads each place with anchored patterns, some written for
speed: the quoted-literal readings unrolled (the escaped forms read only
when a backslash occurs), bare runs cut with `str.find`, a closing matched
backwards, the PEM footer found from its "end", one-step conditions before
a key word's tails, cloud keys' tails stepped over and checked back.  Each
is checked here against the plain form, written out as the reference.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localdata_errors._lazy import fold

redact_module: Any = importlib.import_module("localdata_errors._redact")

# Spaces in front make a text long without changing what is masked in it.
PAD = " " * 1024

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Key words of every branch, their near-misses, what follows them in each
# form, and the characters that end, escape or quote a value.
PIECES = [
    *("password", "passwd", "pwd", "pass", "passphrase", "pass ", "passphrase "),
    *("secret", "credential", "credentials", "token", "unrecognized token", "key"),
    *("api_key", "api-key", "apikey", "accesskey", "private_key", "key_id", "keyid", "key-id"),
    *("akia", "aiza", "asia", "connection_string", "sig", "signature", "authorization"),
    *("identified", "identifie", "with", "via", "by", "as", "using", "values", "old_password"),
    *("bearer", "-----begin ", "private key", "-----", "-----end", "near ", "replace "),
    *("line 1: ...", "line 12: ...", "line 123: ...", "line 1234: ...", "for", "yes)", "no)"),
    *("syntax error", "=", "==", "=>", ":", "::", "://", ":=", "'", "''", '"', '""', "\\"),
    *("\\'", '\\"', "\\\\", "$", "$$", "$tag$", "(", ")", "@", "/", " ", "  ", "\t", "\n"),
    *("e", "n", "x", "b", "u&", "_utf8mb4", "a", "z", "0", "9", "-", "_", ".", ";", "&", "?"),
    *("{", "}", "}}", ",", "]", "#", "abcdefghijklmnop", "0123456789abcdef", "q" * 70),
    # Spellings the fold turns into key words, and characters it leaves alone.
    *("PASSWORD", "Pa\u017f\u017fword", "\u212aEY_ID", "AKIA", "\u0130DENT\u0130F\u0130ED"),
    *("\u00e9", "\u00a0", "\u3000", "\u2028"),
]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=80).map("".join)
# -- the readers' shortcuts, against the forms they replace ---------------------------

# The quoted-literal readings as first written: an alternation of a run, an
# escape and a doubled quote, repeated.
ALTERNATIONS = {
    "_SINGLE": r"(?s)'(?:[^'\\]++|\\.?|'')*+(?:'|\Z)",
    "_DOUBLE": r'(?s)"(?:[^"\\]++|\\.?|"")*+(?:"|\Z)',
    "_SINGLE_PLAIN": r"'(?:[^']++|'')*+(?:'|\Z)",
    "_DOUBLE_PLAIN": r'"(?:[^"]++|"")*+(?:"|\Z)',
    "_SINGLE_TWICE": r"(?s)'(?:[^'\\]++|\\\\'|\\.?|'')*+(?:'|\Z)",
    "_DOUBLE_TWICE": r'(?s)"(?:[^"\\]++|\\\\"|\\.?|"")*+(?:"|\Z)',
}
DOUBLED_ALTERNATIONS = [
    p.replace("Q", quote)
    for quote in "'\""
    for p in (
        r"QQ(?:[^Q]++|QQQQ|Q(?!Q))*+(?:QQ|\Z)",
        r"(?s)QQ(?:[^Q\\]++|\\(?:QQ|.)?|QQQQ|Q(?!Q))*+(?:QQ|\Z)",
        r"(?s)QQ(?:[^Q\\]++|\\\\QQ|\\(?:QQ|.)?|QQQQ|Q(?!Q))*+(?:QQ|\Z)",
    )
]
LITERAL_TEXT = st.lists(
    st.sampled_from(["'", "''", '"', '""', "\\", "\\\\", "\\'", "a", "bc", " ", "\n", ",", ")"]),
    max_size=30,
).map("".join)


@SETTINGS
@given(body=LITERAL_TEXT, quote=st.sampled_from(["'", '"', "''", '""']))
def test_the_unrolled_readings_read_what_the_alternations_read(body: str, quote: str) -> None:
    text = quote + body
    pairs = [(getattr(redact_module, n).get(), re.compile(p)) for n, p in ALTERNATIONS.items()]
    pairs += [
        (new.get(), re.compile(old))
        for new, old in zip(redact_module._DOUBLED_READINGS, DOUBLED_ALTERNATIONS, strict=True)
    ]
    for new, old in pairs:
        expected = old.match(text)
        found = new.match(text)
        assert (found and found.span()) == (expected and expected.span()), (new.pattern, text)


@SETTINGS
@given(body=LITERAL_TEXT, quote=st.sampled_from(["'", '"', "''", '""']))
def test_a_literal_ends_where_the_longest_reading_ends(body: str, quote: str) -> None:
    text = "x " + quote + body
    first = quote[0]
    doubled = text[3:4] == first and text[4:5] not in redact_module._AFTER_EMPTY
    if doubled:
        readings = DOUBLED_ALTERNATIONS[:3] if first == "'" else DOUBLED_ALTERNATIONS[3:]
    else:
        quoted = "SINGLE" if first == "'" else "DOUBLE"
        readings = [p for n, p in ALTERNATIONS.items() if quoted in n]
    expected = max(re.compile(p).match(text, 2).end() for p in readings)  # type: ignore[union-attr]
    assert redact_module._literal_end(text, text, 2) == expected


RUN_TEXT = st.lists(
    st.sampled_from(["a", "b" * 50, "c" * 70, " ", "\t", "\x1c", "\u00a0", "\u3000", ";", "&"]),
    max_size=12,
).map("".join)
RUN_TEXT |= st.lists(
    st.sampled_from(["#", ",", "}", "]", "/", "\r", "\n", "x" * 65]), max_size=8
).map("".join)


@SETTINGS
@given(text=RUN_TEXT, at=st.integers(0, 40))
def test_a_bare_run_ends_where_its_pattern_ends(text: str, at: int) -> None:
    at = min(at, len(text))
    for run in redact_module._STOPS:
        expected = run.get().match(text, at).end()
        assert redact_module._run_end(text, at, run) == expected, (run.pattern, text, at)


@SETTINGS
@given(text=RUN_TEXT, at=st.integers(1, 300), found=st.integers(-1, 300))
def test_a_mark_is_in_the_token_when_no_space_lies_between(text: str, at: int, found: int) -> None:
    # The token before an "@": the run of non-space characters that ends
    # there, found here by reading the text backwards.
    if not text:
        return
    at = min(at, len(text))
    found = min(found, at - 1)
    token = at - redact_module._TO_SPACE.get().match(text[at - 1 :: -1]).end()
    expected = found >= token
    assert redact_module._in_token(text, found, at) is expected


AT_PIECES = [
    *("@", "/", "://", ":", '"', "'", "x", "scott", "tiger", "orcl"),
    *(" ", "\n", "_", "(", "[", "$"),
]
AT_TEXT = st.lists(st.sampled_from(AT_PIECES), max_size=30).map("".join)


@SETTINGS
@given(text=AT_TEXT)
def test_an_at_sign_before_the_first_slash_is_never_read_as_a_credential(text: str) -> None:
    # Why the scan looks for an "@" only after the text's first "/": every
    # reading of one (a URL's user-info, an Oracle connect string, quoted or
    # not) ends at a "/" before it.
    folded = fold(text)
    slash = folded.find("/")
    for at in (i for i, c in enumerate(folded) if c == "@" and not 0 <= slash < i):
        assert redact_module._at_sign(text, folded, at, at + 1) is None, (text, at)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("scott/tiger@orcl", "tiger"),
        ('scott/"ti ger"@orcl', '"ti ger"'),
        ("postgresql://u:pw@h/d", "pw"),
        ("mail a@b then scott/tiger@orcl", "tiger"),
    ],
)
def test_an_at_sign_after_a_slash_is_still_read(text: str, masked: str) -> None:
    # The other side: the readings the shortcut relies on do find these.
    assert redact_module.may_hold_secret(text)
    assert masked not in redact_module.redact(text)
    assert masked not in redact_module.redact(PAD + text)


@pytest.mark.parametrize(
    "text",
    [
        "Access denied for user 'app'@'10.0.0.5' to database 'sales'",
        "The parameterized query '(@P1 int)SELECT 1 WHERE id = @P1' expects the parameter '@P1'",
        "Duplicate entry 'a@x.org' for key 'uq_email'",
    ],
)
def test_an_at_sign_with_no_slash_before_it_is_no_place(text: str) -> None:
    assert not redact_module.may_hold_secret(text)
    assert redact_module.redact(text) == text
    assert redact_module.redact(PAD + text) == PAD + text


def test_ascii_space_is_what_the_pattern_engine_takes_for_white_space() -> None:
    found = "".join(chr(c) for c in range(128) if re.fullmatch(r"\s", chr(c)))
    assert sorted(redact_module.ASCII_SPACE) == sorted(found)


CLOSING_TEXT = st.lists(
    st.sampled_from(["'", '"', "\\", "$", "ab", "_1", "}", ")", "x" * 30, " "]), max_size=14
).map("".join)


@SETTINGS
@given(value=CLOSING_TEXT)
def test_a_closing_matched_backwards_is_the_one_found_forwards(value: str) -> None:
    forwards = redact_module._CLOSING.get().search(value, max(len(value) - 40, 0))
    backwards = redact_module._CLOSING_REVERSED.get().match(value[:-41:-1])
    assert (forwards and forwards.start()) == (backwards and len(value) - backwards.end())


@SETTINGS
@given(text=st.lists(st.sampled_from(["-", "-----", "end", "-----end", "e", " "]), max_size=20))
def test_a_pem_footer_is_found_from_its_end_as_str_find_finds_it(text: list[str]) -> None:
    joined = "".join(text)
    for start in range(len(joined) + 1):
        found = redact_module._PEM_END.get().search(joined, start + 5)
        assert (-1 if found is None else found.start() - 5) == joined.find("-----end", start)


# -- the one-step conditions, against the tails they guard ----------------------------


@SETTINGS
@given(text=TEXTS)
def test_each_one_step_condition_holds_wherever_its_tail_matches(text: str) -> None:
    folded = fold(text)
    kv = redact_module._KV
    guarded = [
        (redact_module._AFTER_W, redact_module._TAIL_W),
        (redact_module._AFTER_KEY, redact_module._TAIL_C),
        (redact_module._AFTER_KEY, redact_module._TAIL_K),
        (redact_module._AFTER_PAIR, redact_module._TAIL_Z),
        (redact_module._AFTER_PAIR, f"{redact_module._AFTER_PAIR}{kv}"),
    ]
    for condition, tail in guarded:
        assert tail.startswith(condition)
        unguarded = re.compile("(?x)" + tail.removeprefix(condition))
        check = re.compile("(?x)" + condition)
        for at in range(len(folded) + 1):
            if unguarded.match(folded, at):
                assert check.match(folded, at), (condition, folded[at:])


KEY_TEXT = st.lists(
    st.sampled_from(["akia", "aiza", "a", "b" * 16, "c" * 35, "0", "_", "-", " ", "\u00e9"]),
    max_size=16,
).map("".join)


@SETTINGS
@given(text=KEY_TEXT)
def test_cloud_key_tails_step_over_and_check_back_as_the_plain_forms_read(text: str) -> None:
    for literal, tail, plain in (
        ("akia", redact_module._AWS_TAIL, r"akia[a-z0-9]{16}(?![a-z0-9])"),
        ("aiza", redact_module._AIZA_TAIL, r"aiza[a-z0-9_-]{35}(?![a-z0-9_-])"),
    ):
        stepped = re.compile(literal + tail)
        expected = [m.span() for m in re.finditer(plain, text)]
        assert [m.span() for m in stepped.finditer(text)] == expected


CUT_TEXT = st.lists(st.sampled_from(["'", "\n", "x", "y" * 30, "\\", " "]), max_size=12)


@SETTINGS
@given(text=CUT_TEXT.map("".join))
def test_the_quote_after_a_cut_excerpt_is_found_as_the_plain_lookahead_finds_it(text: str) -> None:
    plain = re.compile(r"(?=[^'\n]{0,64}')")
    split = re.compile(r"(?=[^']{0,64}+')(?=[^'\n]*+')")
    for at in range(len(text) + 1):
        assert bool(split.match(text, at)) == bool(plain.match(text, at)), (text, at)
    assert redact_module._CUT_QUOTE.startswith("(?=[^']{0,64}+')(?=[^'\\n]*+')")
