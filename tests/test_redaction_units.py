"""
Each credential format, masked as its own rules say it is written.

The expected values come from each format's definition, cited per group:
PostgreSQL's libpq connection strings and string constants, MySQL's and
MariaDB's account statements, SQL Server's and Oracle's, DuckDB's secrets,
Redshift's and Snowflake's COPY credentials, ODBC's and JDBC's connection
strings, the AWS, Google Cloud and Azure key formats, PEM (RFC 7468), URLs
(RFC 3986).  Then the rules every format shares: the case folding, values the
caller names (of any type), the length bound, the cap on credential sites.
"""

from __future__ import annotations

import itertools
import logging
import re
import sys
from collections.abc import Iterator
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from localdata_errors import classify_error, classify_message
from localdata_errors._lazy import FOLDED_LETTERS
from localdata_errors._redact import (
    MASK,
    MAX_SECRETS,
    MAX_SITES,
    credentials_in,
    may_hold_secret,
    normalize_secrets,
    redact,
    redact_reading,
)


def _cases(*pairs: tuple[str, str]) -> list[tuple[str, str]]:
    return list(pairs)


# -- libpq (PostgreSQL docs, "Connection Strings", 34.1.1) ---------------------------
# "To write an empty value, or a value containing spaces, surround it with single
# quotes ... Single quotes and backslashes within a value must be escaped with a
# backslash.  Spaces around the equal sign are optional."  An unquoted value ends
# at white space, so ",;)&" belong to it.
LIBPQ = _cases(
    ("host=db password=s3cret dbname=x", "host=db password=*** dbname=x"),
    ("host=db password = 's3 cr\\'et \\\\ x' dbname=x", "host=db password = *** dbname=x"),
    ("host=db password='' dbname=x", "host=db password=*** dbname=x"),
    ("host=db password=a,b;c)d&e dbname=x", "host=db password=*** dbname=x"),
    ("host=db sslpassword=keypass user=u", "host=db sslpassword=*** user=u"),
    # URI form (34.1.1.2), RFC 3986 user-info: the password may be percent-encoded;
    # an unencoded "@" leaves more than one, and the host follows the last.
    ("postgresql://app:s3cret@db:5432/sales", "postgresql://app:***@db:5432/sales"),
    ("postgresql://app:p%40ss:w0rd@db/sales", "postgresql://app:***@db/sales"),
    ("postgresql://app:sec@ret@db/sales", "postgresql://app:***@db/sales"),
    ("redis://:s3cret@cache:6379/0", "redis://:***@cache:6379/0"),
    ("postgresql://app@db/sales?sslmode=require", "postgresql://app@db/sales?sslmode=require"),
)

# -- SQL string constants (PostgreSQL docs 4.1.2: '' doubles a quote, E'' takes
# backslash escapes, $tag$...$tag$ with a case-sensitive tag) and role options
# (CREATE ROLE: [ ENCRYPTED ] PASSWORD 'password' | PASSWORD NULL).
POSTGRESQL = _cases(
    ("CREATE ROLE r LOGIN PASSWORD 'it''s'", "CREATE ROLE r LOGIN PASSWORD ***"),
    ("ALTER ROLE r WITH ENCRYPTED PASSWORD 'x1y2' VALID UNTIL 'infinity'",
     "ALTER ROLE r WITH ENCRYPTED PASSWORD *** VALID UNTIL 'infinity'"),
    ("ALTER ROLE r PASSWORD E'it\\'s' LOGIN", "ALTER ROLE r PASSWORD *** LOGIN"),
    ("CREATE ROLE r PASSWORD $$a'b c$$ LOGIN", "CREATE ROLE r PASSWORD *** LOGIN"),
    ("CREATE ROLE r PASSWORD $Pw$a$pw$b$Pw$ LOGIN", "CREATE ROLE r PASSWORD *** LOGIN"),
    ("ALTER ROLE r PASSWORD NULL", "ALTER ROLE r PASSWORD NULL"),
    ("ALTER USER MAPPING FOR u SERVER s OPTIONS (SET password 'x1y2')",
     "ALTER USER MAPPING FOR u SERVER s OPTIONS (SET password ***)"),
    ("SELECT dblink_connect('host=h password=x1y2 dbname=d')",
     "SELECT dblink_connect('host=h password=*** dbname=d')"),
)  # fmt: skip

# -- MySQL 8.0 reference, CREATE USER / ALTER USER / SET PASSWORD: IDENTIFIED BY
# 'auth_string' [REPLACE 'current_auth_string'], IDENTIFIED WITH plugin BY|AS
# 'auth_string', SET PASSWORD [FOR user] = 'auth_string'; MySQL 5.7's BY PASSWORD
# '*hash' and PASSWORD('x'); MariaDB's IDENTIFIED VIA plugin USING PASSWORD('x').
# A charset introducer (_utf8mb4'x') and "..." strings are strings too.
MYSQL = _cases(
    ("CREATE USER 'u'@'%' IDENTIFIED BY 'p@ss''w'", "CREATE USER 'u'@'%' IDENTIFIED BY ***"),
    ("CREATE USER u IDENTIFIED BY \"dq pass\"", "CREATE USER u IDENTIFIED BY ***"),
    ("ALTER USER u IDENTIFIED BY 'new1' REPLACE 'old1' RETAIN CURRENT PASSWORD",
     "ALTER USER u IDENTIFIED BY *** REPLACE *** RETAIN CURRENT PASSWORD"),
    ("CREATE USER u IDENTIFIED WITH caching_sha2_password BY 'x1y2'",
     "CREATE USER u IDENTIFIED WITH caching_sha2_password BY ***"),
    ("CREATE USER u IDENTIFIED WITH mysql_native_password AS '*6C8989366EAF75BB'",
     "CREATE USER u IDENTIFIED WITH mysql_native_password AS ***"),
    ("GRANT ALL ON *.* TO u IDENTIFIED BY PASSWORD '*6C8989366EAF75BB'",
     "GRANT ALL ON *.* TO u IDENTIFIED BY PASSWORD ***"),
    ("CREATE USER u IDENTIFIED VIA ed25519 USING PASSWORD('x1y2')",
     "CREATE USER u IDENTIFIED VIA ed25519 USING PASSWORD(***)"),
    ("SET PASSWORD FOR 'bob'@'%' = PASSWORD('x1y2')", "SET PASSWORD FOR 'bob'@'%' = ***)"),
    ("SET PASSWORD = 'x1y2' REPLACE 'old1'", "SET PASSWORD = *** REPLACE ***"),
    ("SELECT OLD_PASSWORD('x1y2')", "SELECT OLD_PASSWORD(***)"),
    ("CREATE USER u IDENTIFIED BY _utf8mb4'x1y2'", "CREATE USER u IDENTIFIED BY ***"),
    ("CREATE USER u IDENTIFIED BY 'a\\'b c'", "CREATE USER u IDENTIFIED BY ***"),
)  # fmt: skip

# -- Oracle (CREATE USER ... IDENTIFIED BY password, a bare identifier or a
# "quoted" one; ALTER USER ... IDENTIFIED BY new REPLACE old; easy connect
# user/password@host:port/service).
ORACLE = _cases(
    ("CREATE USER u IDENTIFIED BY Tiger1 DEFAULT TABLESPACE users",
     "CREATE USER u IDENTIFIED BY *** DEFAULT TABLESPACE users"),
    ('ALTER USER u IDENTIFIED BY "ti ger"', "ALTER USER u IDENTIFIED BY ***"),
    ("ALTER USER u IDENTIFIED BY New1 REPLACE Old1", "ALTER USER u IDENTIFIED BY *** REPLACE ***"),
    ("CREATE USER u IDENTIFIED EXTERNALLY", "CREATE USER u IDENTIFIED EXTERNALLY"),
    ("scott/tiger@orclpdb1", "scott/***@orclpdb1"),
    ("scott/tiger@//dbhost:1521/orclpdb1", "scott/***@//dbhost:1521/orclpdb1"),
    ('scott/"ti ger"@orclpdb1', "scott/***@orclpdb1"),
)  # fmt: skip

# -- SQL Server (CREATE LOGIN ... WITH PASSWORD = 'x' | hashed_password HASHED,
# N'' Unicode strings, ALTER LOGIN ... OLD_PASSWORD, CREATE CREDENTIAL ... SECRET,
# CREATE MASTER KEY ENCRYPTION BY PASSWORD).
MSSQL = _cases(
    ("CREATE LOGIN l WITH PASSWORD = N'x1''y2' MUST_CHANGE, CHECK_POLICY = ON",
     "CREATE LOGIN l WITH PASSWORD = *** MUST_CHANGE, CHECK_POLICY = ON"),
    ("ALTER LOGIN l WITH PASSWORD = 'new1' OLD_PASSWORD = 'old1'",
     "ALTER LOGIN l WITH PASSWORD = *** OLD_PASSWORD = ***"),
    ("CREATE LOGIN l WITH PASSWORD = 0x0200A1B2C3 HASHED",
     "CREATE LOGIN l WITH PASSWORD = *** HASHED"),
    ("CREATE CREDENTIAL c WITH IDENTITY = 'SHARED ACCESS SIGNATURE', SECRET = 'sv=2022&sig=x1'",
     "CREATE CREDENTIAL c WITH IDENTITY = 'SHARED ACCESS SIGNATURE', SECRET = ***"),
    ("CREATE MASTER KEY ENCRYPTION BY PASSWORD = 'x1y2'",
     "CREATE MASTER KEY ENCRYPTION BY PASSWORD = ***"),
)  # fmt: skip

# -- DuckDB secrets (CREATE SECRET: KEY_ID, SECRET, SESSION_TOKEN, REGION for S3;
# CONNECTION_STRING, CLIENT_SECRET, ACCOUNT_NAME for Azure; TOKEN for Hugging Face).
DUCKDB = _cases(
    ("CREATE SECRET s (TYPE s3, KEY_ID 'AKIAIOSFODNN7EXAMPLE', SECRET 'wJal/rXUt', "
     "SESSION_TOKEN 'tok1', REGION 'us-east-1')",
     "CREATE SECRET s (TYPE s3, KEY_ID ***, SECRET ***, SESSION_TOKEN ***, REGION 'us-east-1')"),
    ("CREATE SECRET (TYPE azure, CONNECTION_STRING 'DefaultEndpointsProtocol=https;x')",
     "CREATE SECRET (TYPE azure, CONNECTION_STRING ***)"),
    ("CREATE SECRET (TYPE azure, PROVIDER service_principal, CLIENT_SECRET 'cs1', "
     "ACCOUNT_NAME 'acct')",
     "CREATE SECRET (TYPE azure, PROVIDER service_principal, CLIENT_SECRET ***, "
     "ACCOUNT_NAME 'acct')"),
    ("CREATE SECRET hf (TYPE huggingface, TOKEN 'hf_abc123')",
     "CREATE SECRET hf (TYPE huggingface, TOKEN ***)"),
    ("CREATE SECRET my_secret (TYPE s3)", "CREATE SECRET my_secret (TYPE s3)"),
)  # fmt: skip

# -- Redshift COPY (CREDENTIALS 'aws_access_key_id=..;aws_secret_access_key=..',
# ACCESS_KEY_ID / SECRET_ACCESS_KEY / SESSION_TOKEN, IAM_ROLE is no secret) and
# Snowflake (CREDENTIALS = ( AWS_KEY_ID = '..' AWS_SECRET_KEY = '..' ), AZURE_SAS_TOKEN).
WAREHOUSES = _cases(
    ("COPY t FROM 's3://b/k' CREDENTIALS 'aws_access_key_id=AKIAIOSFODNN7EXAMPLE;"
     "aws_secret_access_key=wJalrXUtnFEMI'",
     "COPY t FROM 's3://b/k' CREDENTIALS ***"),
    ("COPY t FROM 's3://b/k' ACCESS_KEY_ID 'AKIAIOSFODNN7EXAMPLE' SECRET_ACCESS_KEY 'sak1' "
     "SESSION_TOKEN 'st1' IAM_ROLE 'arn:aws:iam::1:role/r'",
     "COPY t FROM 's3://b/k' ACCESS_KEY_ID *** SECRET_ACCESS_KEY *** SESSION_TOKEN *** "
     "IAM_ROLE 'arn:aws:iam::1:role/r'"),
    ("COPY INTO t FROM @st CREDENTIALS = (AWS_KEY_ID = 'k1' AWS_SECRET_KEY = 's1') FILE_FORMAT = x",
     "COPY INTO t FROM @st CREDENTIALS = *** FILE_FORMAT = x"),
    ("CREATE STAGE st URL = 'azure://a/c' CREDENTIALS = (AZURE_SAS_TOKEN = 'sv=1&sig=2')",
     "CREATE STAGE st URL = 'azure://a/c' CREDENTIALS = ***"),
)  # fmt: skip

# -- ODBC (a value holding ";", "{" or "}" is braced, "}}" is a literal "}"),
# JDBC (SQL Server: braces likewise; MySQL/PostgreSQL: a query string, "&"
# separates), ADO.NET ("..." quoting).  An unbraced value ends at ";".
CONNECTION_STRINGS = _cases(
    ("Driver={ODBC Driver 18 for SQL Server};Server=db;UID=sa;PWD={a;b}}c};Encrypt=yes",
     "Driver={ODBC Driver 18 for SQL Server};Server=db;UID=sa;PWD=***;Encrypt=yes"),
    ("Server=db;UID=sa;PWD=x1y2;Encrypt=yes", "Server=db;UID=sa;PWD=***;Encrypt=yes"),
    ("jdbc:sqlserver://db:1433;user=sa;password={a;b};encrypt=true",
     "jdbc:sqlserver://db:1433;user=sa;password=***;encrypt=true"),
    ("jdbc:postgresql://db/x?user=u&password=x1y2&ssl=true",
     "jdbc:postgresql://db/x?user=u&password=***&ssl=true"),
    ('Server=db;User Id=sa;Password="Pa;55 word";', "Server=db;User Id=sa;Password=***;"),
)  # fmt: skip

# -- Environment, JSON, YAML, HTTP: a key ending in password, passwd, pwd, secret,
# token, api_key, access_key, private_key (any prefix); "Authorization: <scheme>
# <credentials>" (RFC 9110) and bare "Bearer <token>" (RFC 6750).
KEYS = _cases(
    ("PGPASSWORD=x1y2 psql", "PGPASSWORD=*** psql"),
    ("export DB_PASSWORD=x1y2 MYSQL_PWD=x3y4", "export DB_PASSWORD=*** MYSQL_PWD=***"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "aws_secret_access_key = ***"),
    ("AWS_SESSION_TOKEN=IQoJb3JpZ2luX2Vj OPENAI_API_KEY=sk-x1",
     "AWS_SESSION_TOKEN=*** OPENAI_API_KEY=***"),
    ('{"user": "u", "client_secret": "a \\" b", "port": 5432}',
     '{"user": "u", "client_secret": ***, "port": 5432}'),
    ("{'password': 'x1y2', 'host': 'db'}", "{'password': ***, 'host': 'db'}"),
    ('{\\"password\\": \\"x1y2\\"}', '{\\"password\\": ***}'),
    ("password: two words\nhost: db", "password: ***\nhost: db"),
    ("Authorization: Bearer eyJhbGciOi.x1.y2", "Authorization: ***"),
    ("Authorization: Basic dXNlcjpwYXNz", "Authorization: ***"),
    ("request failed with Bearer eyJhbGciOi.x1", "request failed with Bearer ***"),
    ("X-Api-Key: k1k2k3", "X-Api-Key: ***"),
)  # fmt: skip

# -- Cloud key shapes: AWS access key ids (AKIA long-term, ASIA temporary; the AWS
# docs' example AKIAIOSFODNN7EXAMPLE), Google API keys (AIza + 35), a Google
# service-account JSON, Azure storage connection strings (AccountKey), SAS tokens
# (sig=), Service Bus (SharedAccessKey); PEM (RFC 7468) private keys, whole.
CLOUD = _cases(
    ("key id AKIAIOSFODNN7EXAMPLE rejected", "key id *** rejected"),
    ("key id ASIAIOSFODNN7EXAMPLE rejected", "key id *** rejected"),
    ("key AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe used", "key *** used"),
    ('{"type": "service_account", "private_key_id": "1a2b", '
     '"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEv\\n-----END PRIVATE KEY-----\\n", '
     '"client_email": "sa@p.iam.gserviceaccount.com"}',
     '{"type": "service_account", "private_key_id": ***, "private_key": ***, '
     '"client_email": "sa@p.iam.gserviceaccount.com"}'),
    ("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a+b/c==;EndpointSuffix=core.windows.net",
     "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=***;EndpointSuffix=core.windows.net"),
    ("https://acct.blob.core.windows.net/c?sv=2022-11-02&ss=b&sig=a%2Bb%3D&se=1",
     "https://acct.blob.core.windows.net/c?sv=2022-11-02&ss=b&sig=***&se=1"),
    ("BlobEndpoint=https://a;SharedAccessSignature=sv=2022&sig=x1;",
     "BlobEndpoint=https://a;SharedAccessSignature=***;"),
    ("Endpoint=sb://ns/;SharedAccessKeyName=k;SharedAccessKey=x1y2=",
     "Endpoint=sb://ns/;SharedAccessKeyName=k;SharedAccessKey=***"),
    ("key: -----BEGIN RSA PRIVATE KEY-----\nMIIE\nx1\n-----END RSA PRIVATE KEY----- end",
     "key: *** end"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl", "***"),
)  # fmt: skip

# -- What servers echo back: PostgreSQL's and DuckDB's LINE excerpts (cut at a
# fixed width, "..." marking the cut), MariaDB's near '%.80s', PostgreSQL's,
# DuckDB's and SQLite's near "<token>".
EXCERPTS = _cases(
    ("unrecognized role option \"garbage\"\nLINE 1: ...SSWORD 'x1y2z3' garbage\n     ^",
     "unrecognized role option \"garbage\"\nLINE 1: ...*** garbage\n     ^"),
    ("syntax error at or near \"garbage\"\n\nLINE 1: ...efghij', REGION 'us-east-1') garbage",
     "syntax error at or near \"garbage\"\n\nLINE 1: ...***us-east-1') garbage"),
    ("LINE 1: CREATE SECRET s (TYPE s3, SECRET 'x1y2z3abc...\n   ^",
     "LINE 1: CREATE SECRET s (TYPE s3, SECRET ***"),
    ("right syntax to use near ''x1y2z3' garbage' at line 1",
     "right syntax to use near '*** garbage' at line 1"),
    ("syntax error at or near \"'x1y2z3'\"", "syntax error at or near \"***\""),
    ("right syntax to use near '' at line 1", "right syntax to use near '' at line 1"),
    # A literal the cut left open runs to the end, its last character too,
    # with a prefix (E'', N'', _charset'') as without one.
    ("LINE 1: ALTER ROLE r SET password = E'x1y2;", "LINE 1: ALTER ROLE r SET password = ***"),
    ("near 'api_key=_utf8mb4'k1k2)", "near 'api_key=***"),
    ("password=N'x1,", "password=***"),
    ("password='x1,", "password=***"),
)  # fmt: skip

# -- Driver text that names credentials without holding one.
UNCHANGED = [
    "Access denied for user 'root'@'localhost' (using password: YES)",
    "Access denied for user 'root'@'localhost' (using password: NO)",
    'FATAL:  password authentication failed for user "postgres"',
    "fe_sendauth: no password supplied",
    "ORA-01017: invalid username/password; logon denied",
    'unrecognized token: "#"',
    'invalid input syntax for type json\nDETAIL:  Token "abc" is invalid.',
    "Duplicate entry 'x' for key 'PRIMARY'",
    'duplicate key value violates unique constraint "users_pkey"\n'
    "DETAIL:  Key (id)=(1) already exists.",
    'column "password" does not exist',
    "SELECT password::text FROM users",
    "SELECT REPLACE(name, 'a', 'b') FROM t",
    'Catalog Error: Secret with name "s3_secret" does not exist',
    'near "token": syntax error',
    'could not open file "/var/lib/postgresql/data/base/1/2": No such file',
]


def _all_formats() -> Iterator[tuple[str, str, str]]:
    for group, cases in (
        ("libpq", LIBPQ),
        ("postgresql", POSTGRESQL),
        ("mysql", MYSQL),
        ("oracle", ORACLE),
        ("mssql", MSSQL),
        ("duckdb", DUCKDB),
        ("warehouses", WAREHOUSES),
        ("connection strings", CONNECTION_STRINGS),
        ("keys", KEYS),
        ("cloud", CLOUD),
        ("excerpts", EXCERPTS),
    ):
        for text, expected in cases:
            yield group, text, expected


FORMAT_CASES = [pytest.param(t, e, id=f"{g}: {t[:40]}") for g, t, e in _all_formats()]


@pytest.mark.parametrize(("text", "expected"), FORMAT_CASES)
def test_each_format_is_masked_as_its_rules_say(text: str, expected: str) -> None:
    assert redact(text) == expected
    if expected != text:
        assert may_hold_secret(text)


@pytest.mark.parametrize("text", UNCHANGED)
def test_text_that_only_names_a_credential_is_kept(text: str) -> None:
    assert redact(text) == text


# -- case folding -------------------------------------------------------------------


def test_the_fold_table_is_what_re_ignorecase_equates_with_ascii_letters() -> None:
    # Derived from the re module itself, over all of Unicode: a future Python
    # that adds a case-insensitive equivalent fails here, not in production.
    letter = re.compile("[a-z]", re.IGNORECASE)
    found = {}
    for code in range(0x80, sys.maxunicode + 1):
        char = chr(code)
        if letter.fullmatch(char):
            found[char] = next(
                a for a in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(a, char, re.I)
            )
    assert found == FOLDED_LETTERS


def test_lowering_keeps_every_other_character_one_character_long() -> None:
    # Positions found in the folded text are positions in the original.
    longer = [c for c in map(chr, range(sys.maxunicode + 1)) if len(c.lower()) != 1]
    assert longer == ["\u0130"]
    assert "\u0130" in FOLDED_LETTERS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pa\u017f\u017fword=x1y2 user=u", "pa\u017f\u017fword=*** user=u"),
        ("\u017fecret: x1y2", "\u017fecret: ***"),
        ("api_\u212aey=x1y2 region=eu", "api_\u212aey=*** region=eu"),
        (
            "ALTER USER u \u0130DENT\u0131F\u0130ED BY x1y2",
            "ALTER USER u \u0130DENT\u0131F\u0130ED BY ***",
        ),
        ("PaSsWoRd='x1y2'", "PaSsWoRd=***"),
    ],
)
def test_spellings_that_case_insensitive_matching_accepts(text: str, expected: str) -> None:
    assert may_hold_secret(text)
    assert redact(text) == expected


# Every key word, with each letter replaced by any of the characters that
# re.IGNORECASE takes for it.
_SPELLINGS = {
    letter: [letter, letter.upper(), *(c for c, a in FOLDED_LETTERS.items() if a == letter)]
    for letter in "abcdefghijklmnopqrstuvwxyz"
}


@st.composite
def _spelled(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from(["password", "passwd", "pwd", "secret", "token", "api_key",
                                 "access_key", "private_key", "client_secret"]))  # fmt: skip
    return "".join(draw(st.sampled_from(_SPELLINGS.get(c, [c]))) for c in word)


@settings(max_examples=150, deadline=None)
@given(key=_spelled(), value=st.text("abcdefXYZ0123456789", min_size=6, max_size=20))
def test_every_case_insensitive_spelling_of_a_key_is_masked(key: str, value: str) -> None:
    text = f"{key}={value} next"
    assert may_hold_secret(text)
    assert value not in redact(text)
    assert re.fullmatch(value, value, re.IGNORECASE)


# Texts made of the pieces the credential patterns start from, end at or
# stop short of.
_HOSTILE = st.lists(
    st.sampled_from(
        [
            "password",
            "=",
            ":",
            "'",
            '"',
            " ",
            "\\",
            "@",
            "/",
            "://",
            "identified by ",
            "x",
            "near ",
            "LINE 1: ...",
            "$$",
            "{",
            "}",
            "(",
            ")",
            ";",
            "&",
            "-----BEGIN ",
            "PRIVATE KEY-----",
            "Bearer ",
            "AKIA",
            "asia",
            "token",
            "secret",
            "\u017f",
            "\u212a",
            "replace ",
            "key_id",
            "\n",
            "0123456789ABCDEF",
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_HOSTILE)
def test_the_fast_path_agrees_with_the_patterns(text: str) -> None:
    # False from may_hold_secret proves that redact changes nothing.
    if not may_hold_secret(text):
        assert redact(text) == text
    masked = redact(text)
    assert redact(masked) == masked or MASK in masked


@settings(max_examples=300, deadline=None)
@given(_HOSTILE, st.lists(st.sampled_from(["password", "x'y", "AKIA", "@h", "ab"]), max_size=3))
def test_one_reading_gives_what_the_two_functions_give(text: str, named: list[str]) -> None:
    # A classification masks its message and takes the values it masked in one
    # reading (redact_reading): the answer must be the two public functions'.
    assert redact_reading(text, named) == (redact(text, named), credentials_in(text))


# -- values the caller names ---------------------------------------------------------


def test_a_named_value_masks_the_whole_token_it_occurs_in() -> None:
    text = "DETAIL:  Key (card)=(4111111111111111) already exists."
    assert redact(text, ["4111111111111111"]) == "DETAIL:  Key *** already exists."


def test_a_guess_containing_the_secret_is_masked_whole() -> None:
    # Masking only "hunter22" would show the rest of the guess, and so which part
    # of it matched.
    out = redact('invalid input syntax: "xxhunter22yy"', ["hunter22"])
    assert out == "invalid input syntax: ***"


def test_a_named_value_inside_a_quoted_literal_masks_the_literal() -> None:
    text = "Duplicate entry 'my hunter22 value' for key 'u'"
    assert redact(text, ["hunter22"]) == "Duplicate entry *** for key 'u'"


def test_a_credential_masked_once_is_masked_wherever_it_occurs() -> None:
    text = "LINE 1: CREATE ROLE r PASSWORD 'x1y2z3w4'\nDETAIL: role r has x1y2z3w4"
    assert redact(text) == "LINE 1: CREATE ROLE r PASSWORD ***\nDETAIL: role r has ***"
    assert credentials_in(text) == ("x1y2z3w4",)


class _Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no")

    __repr__ = __str__


class _NoTruth:
    def __bool__(self) -> bool:
        raise ValueError("ambiguous")

    def __eq__(self, other: object) -> bool:
        raise ValueError("ambiguous")

    __hash__ = object.__hash__

    def __iter__(self) -> Iterator[str]:
        return iter(["abc123"])


@pytest.mark.parametrize(
    ("secrets", "expected"),
    [
        (None, ()),
        ((), ()),
        ("hunter22", ("hunter22",)),
        (b"hunter22", ("hunter22", b"hunter22".hex())),
        (bytearray(b"hunter22"), ("hunter22", b"hunter22".hex())),
        (memoryview(b"hunter22"), ("hunter22", b"hunter22".hex())),
        (12345, ("12345",)),
        (1.5e10, ("15000000000.0",)),
        (Decimal("1000.0"), ("1000.0",)),
        ([Decimal("1000.0"), 1000], ("1000.0", "1000")),
        ({"password": "hunter22", "n": 7, "ok": True}, ("hunter22",)),
        ((x for x in ["hunter22", "ab", None]), ("hunter22",)),
        ({"hunter22"}, ("hunter22",)),
        ([["nested1"], [["nested2"]]], ("nested1", "nested2")),
        (_NoTruth(), ("abc123",)),
        (["dup", "dup"], ("dup",)),
    ],
)
def test_secrets_of_any_type_are_normalized(secrets: object, expected: tuple[str, ...]) -> None:
    assert normalize_secrets(secrets) == expected


def test_an_unprintable_secret_is_left_out_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="localdata_errors"):
        assert normalize_secrets(["hunter22", _Unprintable()]) == ("hunter22",)
    assert any("cannot be rendered" in r.getMessage() for r in caplog.records)


def test_an_endless_iterable_of_secrets_is_read_to_a_bound() -> None:
    found = normalize_secrets(f"value{n:05}" for n in itertools.count())
    assert len(found) == MAX_SECRETS


def test_an_iterable_that_raises_keeps_what_it_gave(caplog: pytest.LogCaptureFixture) -> None:
    def values() -> Iterator[str]:
        yield "hunter22"
        raise OSError("gone")

    with caplog.at_level(logging.WARNING, logger="localdata_errors"):
        assert normalize_secrets(values()) == ("hunter22",)


@pytest.mark.parametrize(
    "secrets",
    [None, "hunter22", b"hunter22", 12345, 3.5, Decimal("1.0"), _Unprintable(), _NoTruth(),
     {"k": "hunter22"}, (x for x in ["hunter22"]), object(), memoryview(b"hunter22")],
)  # fmt: skip
def test_classification_takes_secrets_of_any_type(secrets: object) -> None:
    exc = RuntimeError("value hunter22 rejected, 12345 too")
    for resp in (
        classify_error(exc, secrets=secrets),  # type: ignore[arg-type]
        classify_message(str(exc), "postgresql", secrets=secrets),  # type: ignore[arg-type]
    ):
        assert resp.message
        if secrets is not None and "hunter22" in normalize_secrets(secrets):
            assert "hunter22" not in resp.message


def test_equal_values_that_render_differently_are_each_masked() -> None:
    # Decimal("1000.00") == 1000.0 and they hash alike: remembered answers are
    # keyed by the rendered texts, or the second call would be answered with the
    # first one's masking.
    message = 'invalid input value "1000.0" for amount'
    first = classify_message(message, "postgresql", secrets=[Decimal("1000.00")])
    assert "1000.0" in first.message
    second = classify_message(message, "postgresql", secrets=[1000.0])
    assert "1000.0" not in second.message


# -- bounds -----------------------------------------------------------------------------


def test_limit_cuts_first_and_a_value_cut_by_it_is_masked_to_the_end() -> None:
    text = "connect: password='abc def ghi' host=db"
    assert redact(text, limit=24) == "connect: password=***"
    assert redact("password=abcdef more", limit=14) == "password=***"
    assert redact("plain text", limit=5) == "plain"


def test_past_the_cap_of_sites_the_rest_is_masked_whole() -> None:
    text = " ".join(f"password=v{n:03}" for n in range(MAX_SITES + 10))
    out = redact(text)
    assert out.count("password=***") == MAX_SITES
    assert out.endswith(MASK)
    assert "v0" not in out
