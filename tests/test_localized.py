"""
A PostgreSQL or MariaDB message in another language is classified as its English original.

The texts are real: pasted in public issues (each with its address), or
written by the PostgreSQL 15 server here with `lc_messages` set (each beside
the English text the same statement gets with `lc_messages = 'C'`), or by
the MariaDB 10.11 server here (beside `lc_messages = 'en_US'`).  The
expected kinds are the SQLSTATE's meaning in PostgreSQL's documentation
(https://www.postgresql.org/docs/current/errcodes-appendix.html).
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from generate_localized_messages import upstream_translations

from localdata_errors import Kind, classify_message
from localdata_errors._localized import _parse, may_be_translated, read_back

# (text, where it was found, kind its SQLSTATE means, a name it holds, when read).
PASTED = [
    pytest.param(
        "psycopg2.errors.UndefinedTable: FEHLER:  Relation »info_user« existiert nicht",
        "https://github.com/tum-ewk/lemlab/issues/24",
        Kind.UNDEFINED_TABLE,
        "info_user",
        id="de-42P01",
    ),
    pytest.param(
        'peewee.ProgrammingError: 错误:  关系 "tabpost" 不存在\n'
        'LINE 1: ..., "t1"."rating", "t1"."memo", "t1"."extinfo" FROM "tabpost" ...',
        "https://github.com/bukun/TorCMS/issues/6",
        Kind.UNDEFINED_TABLE,
        "tabpost",
        id="zh-42P01",
    ),
    pytest.param(
        'ERROR:  リレーション"product"は存在しません',
        "https://www.fujitsu.com/jp/products/software/resources/feature-stories/postgres/"
        "article-index/relation-does-not-exist/",
        Kind.UNDEFINED_TABLE,
        "product",
        id="ja-42P01",
    ),
    pytest.param(
        'повторяющееся значение ключа нарушает ограничение уникальности "Users_email_key"',
        "https://github.com/WebbyLab/webbylab-starter-app-for-nodejs/issues/36",
        Kind.UNIQUE_VIOLATION,
        "Users_email_key",
        id="ru-23505",
    ),
    pytest.param(
        "An ActiveRecord::StatementInvalid occurred in interventions#update:\n\n"
        "  PG::NotNullViolation: ERREUR:  une valeur NULL viole la contrainte NOT NULL de la"
        " colonne « started_at »",
        "https://github.com/ekylibre/ekylibre/issues/1725",
        Kind.NOT_NULL_VIOLATION,
        None,  # PostgreSQL 12's wording (no relation): not in 15's catalogue
        id="fr-23502",
    ),
    pytest.param(
        "org.postgresql.util.PSQLException: FEHLER: Spalte „isuseforpartnerrequestwindow“"
        " existiert nicht\n  Position: 607",
        "https://github.com/metasfresh/metasfresh/issues/641",
        Kind.UNDEFINED_COLUMN,
        "isuseforpartnerrequestwindow",
        id="de-42703-older-quotes",
    ),
]


@pytest.mark.parametrize(("text", "source", "kind", "name"), PASTED)
def test_a_pasted_localized_message_is_classified_by_its_meaning(
    text: str, source: str, kind: Kind, name: str | None
) -> None:
    answer = classify_message(text)
    assert answer.kind is kind, source
    assert answer.backend == "postgresql"
    assert name is None or name in answer.affected_resources
    # The message is the text as given (its part the mapper reads), not the English.
    assert answer.message in text


# Pasted from servers (or clients) of other releases than the catalogues
# installed here (15's), in their release's translation: PostgreSQL 12's
# zh_CN (Debian's postgresql-13 and -18 packages still ship it), read from
# `tools/upstream/postgresql-translations.tsv`.
OLDER = [
    pytest.param(
        "导入失败： ### Error querying database. Cause: org.postgresql.util.PSQLException:"  # noqa: RUF001 - as pasted
        ' 错误: 字段 "is_required" 不存在 建议：也许您想要引用列"list_column.is_require"。'  # noqa: RUF001 - as pasted
        " 位置：21",  # noqa: RUF001 - as pasted
        "https://github.com/p0mp0k0/RuoYi-Vue-Plus-Postgresql/issues/1",
        'column "is_required" does not exist',
        Kind.UNDEFINED_COLUMN,
        id="zh-12-42703",
    ),
    pytest.param(
        "test=# INSERT INTO products VALUES (2, 'P001', '智能手机');  -- 报错\n"
        'ERROR:  重复键违反唯一约束"products_product_code_key"\n'
        '描述:  键值"(product_code)=(P001)" 已经存在',
        "https://www.cnblogs.com/nengdoudou/p/19073586",
        'duplicate key value violates unique constraint "products_product_code_key"',
        Kind.UNIQUE_VIOLATION,
        id="zh-12-23505",
    ),
    pytest.param(
        "服务器处理出现异常:42703: 字段 s0.ColumnCnName 不存在",
        "https://github.com/cq-panda/Vue.NetCore/issues/325",
        "column s0.ColumnCnName does not exist",
        Kind.UNDEFINED_COLUMN,
        id="zh-12-42703-qualified",
    ),
]


@pytest.mark.parametrize(("text", "source", "english", "kind"), OLDER)
def test_an_older_release_translation_is_read_back(
    text: str, source: str, english: str, kind: Kind
) -> None:
    back = read_back(text)
    assert back is not None, source
    assert english in back.english
    answer = classify_message(text)
    assert answer.kind is kind
    assert answer.backend == "postgresql"


# What psql printed for one statement with the server's lc_messages set, and
# with lc_messages = 'C' (psql's own labels, `DETAIL` and `LINE`, stay English:
# the client's locale is C).
SERVER = [
    pytest.param(
        "FEHLER:  doppelter Schlüsselwert verletzt Unique-Constraint »loc_t_pkey«\n"
        "DETAIL:  Schlüssel »(id)=(1)« existiert bereits.",
        'ERROR:  duplicate key value violates unique constraint "loc_t_pkey"\n'
        "DETAIL:  Key (id)=(1) already exists.",
        id="de-23505",
    ),
    pytest.param(
        "FEHLER:  Syntaxfehler bei »SELEC«\nLINE 1: SELEC 1;\n        ^",
        'ERROR:  syntax error at or near "SELEC"\nLINE 1: SELEC 1;\n        ^',
        id="de-42601-nested",
    ),
    pytest.param(
        "ERREUR:  une valeur NULL viole la contrainte NOT NULL de la colonne « id » dans la"
        " relation « loc_t »\nDETAIL:  La ligne en échec contient (null, 1).",
        'ERROR:  null value in column "id" of relation "loc_t" violates not-null constraint\n'
        "DETAIL:  Failing row contains (null, 1).",
        id="fr-23502",
    ),
    pytest.param(
        "ERROR:  inserción o actualización en la tabla «loc_c» viola la llave foránea"
        " «loc_c_id_fkey»\nDETAIL:  La llave (id)=(99) no está presente en la tabla «loc_t».",
        'ERROR:  insert or update on table "loc_c" violates foreign key constraint'
        ' "loc_c_id_fkey"\nDETAIL:  Key (id)=(99) is not present in table "loc_t".',
        id="es-23503",
    ),
    pytest.param(
        'ОШИБКА:  ошибка синтаксиса (примерное положение: "SELEC")\nLINE 1: SELEC 1;\n        ^',
        'ERROR:  syntax error at or near "SELEC"\nLINE 1: SELEC 1;\n        ^',
        id="ru-42601",
    ),
    pytest.param("ОШИБКА:  деление на ноль", "ERROR:  division by zero", id="ru-22012-fixed"),
    pytest.param(
        '错误:  关系 "loc_t" 的新行违反检查约束 "loc_t_v_check"\nDETAIL:  出错的行包含 (5, -1)。',
        'ERROR:  new row for relation "loc_t" violates check constraint "loc_t_v_check"\n'
        "DETAIL:  Failing row contains (5, -1).",
        id="zh-23514",
    ),
    pytest.param("错误:  除以零", "ERROR:  division by zero", id="zh-22012-fixed"),
    # The translation names the relation first: its values are read by position.
    pytest.param(
        'ERROR:  リレーション"loc_t"の列"id"のNULL値が非NULL制約に違反しています\n'
        "DETAIL:  失敗した行は(null, 1)を含みます",
        'ERROR:  null value in column "id" of relation "loc_t" violates not-null constraint\n'
        "DETAIL:  Failing row contains (null, 1).",
        id="ja-23502-reordered",
    ),
]


@pytest.mark.parametrize(("localized", "english"), SERVER)
def test_a_server_message_in_another_language_answers_as_the_english_one(
    localized: str, english: str
) -> None:
    got, want = classify_message(localized), classify_message(english)
    assert got.kind is want.kind is not Kind.UNKNOWN
    assert (got.error_type, got.is_retryable, got.action) == (
        want.error_type,
        want.is_retryable,
        want.action,
    )
    assert (got.affected_resources, got.constraint, got.backend) == (
        want.affected_resources,
        want.constraint,
        want.backend,
    )
    assert got.message in localized


# Translations written in ASCII alone, as the servers here wrote them: MariaDB
# 10.11 with the session's lc_messages set (pymysql's message, beside the one
# with lc_messages = 'en_US'), and PostgreSQL 15's German (psycopg's message,
# beside lc_messages = 'C').  The kinds are the numbers' meaning in MariaDB's
# error list (https://mariadb.com/kb/en/mariadb-error-code-reference/) and
# the SQLSTATE's.
ASCII = [
    pytest.param(
        "Tabelle 'loc_b32ef446.nosuch_t' existiert nicht",
        "Table 'loc_b32ef446.nosuch_t' doesn't exist",
        Kind.UNDEFINED_TABLE,
        id="mariadb-de-1146",
    ),
    pytest.param(
        "La tabla 'loc_b32ef446.nosuch_t' no existe",
        "Table 'loc_b32ef446.nosuch_t' doesn't exist",
        Kind.UNDEFINED_TABLE,
        id="mariadb-es-1146",
    ),
    pytest.param(
        "La table 'loc_b32ef446.nosuch_t' n'existe pas",
        "Table 'loc_b32ef446.nosuch_t' doesn't exist",
        Kind.UNDEFINED_TABLE,
        id="mariadb-fr-1146",
    ),
    pytest.param(
        "No se reconoce la columna 'nosuch_c' en SELECT",
        "Unknown column 'nosuch_c' in 'SELECT'",
        Kind.UNDEFINED_COLUMN,
        id="mariadb-es-1054",
    ),
    pytest.param(
        "Colonna sconosciuta 'nosuch_c' in 'SELECT'",
        "Unknown column 'nosuch_c' in 'SELECT'",
        Kind.UNDEFINED_COLUMN,
        id="mariadb-it-1054",
    ),
    pytest.param(
        "Feld 'id' darf nicht NULL sein",
        "Column 'id' cannot be null",
        Kind.NOT_NULL_VIOLATION,
        id="mariadb-de-1048",
    ),
    pytest.param(
        "Tabelle 'loc_t' bereits vorhanden",
        "Table 'loc_t' already exists",
        Kind.DUPLICATE_TABLE,
        id="mariadb-de-1050",
    ),
    # One word of a translation, in a text of three words besides its names.
    pytest.param(
        "Base 'nosuch_db' inconnue",
        "Unknown database 'nosuch_db'",
        Kind.UNDEFINED_DATABASE,
        id="mariadb-fr-1049",
    ),
    pytest.param(
        "CONSTRAINT `loc_t.v` fehlgeschlagen: `loc_b32ef446`.`loc_t`",
        "CONSTRAINT `loc_t.v` failed for `loc_b32ef446`.`loc_t`",
        Kind.CHECK_VIOLATION,
        id="mariadb-de-4025",
    ),
    pytest.param(
        "Division durch Null", "division by zero", Kind.DIVISION_BY_ZERO, id="postgresql-de-22012"
    ),
]


@pytest.mark.parametrize(("localized", "english", "kind"), ASCII)
def test_a_translation_written_in_ascii_answers_as_the_english_one(
    localized: str, english: str, kind: Kind
) -> None:
    assert localized.isascii()
    assert may_be_translated(localized)
    got, want = classify_message(localized), classify_message(english)
    assert got.kind is want.kind is kind
    assert (got.database_error_code, got.backend) == (want.database_error_code, want.backend)
    assert got.affected_resources[:1] == want.affected_resources[:1]
    assert got.message == localized


@pytest.mark.parametrize(
    "text",
    [
        # Read in English: never asked about.
        "Table 'shop.orders' doesn't exist",
        # Not read, and no two words of a translation (`fail` is Estonian's
        # `file`, `charge` French): the table stays where it is.
        "the nightly export will fail again unless someone restarts the worker",
        "something nobody recognises at all",
    ],
)
def test_an_english_text_is_not_read_back(text: str) -> None:
    assert not may_be_translated(text)


def test_the_values_are_put_back_where_the_english_has_them() -> None:
    back = read_back('リレーション"loc_t"の列"id"のNULL値が非NULL制約に違反しています')
    assert back is not None
    assert (
        back.english == 'null value in column "id" of relation "loc_t" violates not-null constraint'
    )


def test_the_labels_are_read_back_and_the_rest_is_kept() -> None:
    text = "2024-01-01 10:00:00 ПРЕДУПРЕЖДЕНИЕ:  что-то\nОШИБКА:  деление на ноль"  # noqa: RUF001
    back = read_back(text)
    assert back is not None
    assert back.english == "2024-01-01 10:00:00 WARNING:  что-то\nERROR:  division by zero"
    assert back.original("division by zero") == "деление на ноль"


def test_libpq_and_the_server_on_one_line() -> None:
    text = (
        "Verbindung zum Server auf »db« (10.0.0.5), Port 5432 fehlgeschlagen: FATAL:  "
        "Passwort-Authentifizierung für Benutzer »app« fehlgeschlagen"
    )
    answer = classify_message(text)
    assert answer.kind is Kind.INVALID_PASSWORD
    assert answer.message == text


def test_a_secret_in_a_localized_text_is_masked() -> None:
    secret = "hunter2secret"
    text = f"FEHLER:  Relation »orders« existiert nicht (postgresql://app:{secret}@db/shop)"
    answer = classify_message(text)
    assert answer.kind is Kind.UNDEFINED_TABLE
    assert secret not in answer.message
    assert secret not in str(answer.to_dict())
    named = classify_message("FEHLER:  Relation »orders« existiert nicht", secrets=["orders"])
    assert "orders" not in named.message


def test_a_word_of_a_catalogue_inside_other_text_is_not_a_message() -> None:
    # `contrainte %s` is a msgstr of its own (an object's name): inside a sentence it stays.
    assert read_back("la contrainte de clé est violée, dit l'application") is None


def test_english_with_a_letter_outside_ascii_is_unchanged() -> None:
    text = 'ERROR:  relation "größe" does not exist'
    assert read_back(text) is None
    assert classify_message(text).kind is Kind.UNDEFINED_TABLE


def test_the_table_is_loaded_by_the_first_text_that_is_not_ascii() -> None:
    script = (
        "import sys, localdata_errors\n"
        "from localdata_errors import classify_message\n"
        "classify_message('ERROR:  relation \"x\" does not exist')\n"
        "print('localdata_errors._localized_messages' in sys.modules)\n"
        "classify_message('FEHLER:  Relation »x« existiert nicht')\n"
        "print('localdata_errors._localized_messages' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["False", "True"]


def test_an_ascii_text_loads_the_table_only_when_read_in_english_it_says_nothing() -> None:
    # An English text read, one not read (its words no translation's): the
    # word list is loaded for the second, the table for neither; a German
    # MariaDB text loads it.
    script = (
        "import sys, localdata_errors\n"
        "from localdata_errors import classify_message\n"
        "def loaded(name): return f'localdata_errors._{name}' in sys.modules\n"
        "classify_message(\"Table 'shop.orders' doesn't exist\")\n"
        "print(loaded('localized_words'), loaded('localized_messages'))\n"
        "classify_message('something nobody recognises at all')\n"
        "print(loaded('localized_words'), loaded('localized_messages'))\n"
        "classify_message(\"Tabelle 'loc_t' bereits vorhanden\")\n"
        "print(loaded('localized_words'), loaded('localized_messages'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["False", "False", "True", "False", "True", "True"]


@pytest.mark.parametrize(
    "unit",
    ["ä", "Relation »", '关系 "', "x »« ", "FEHLER: ", "n »x« existiert nicht "],
)
def test_a_long_text_costs_linear_time(unit: str) -> None:
    read_back("warm-up »x«")

    def seconds(size: int) -> float:
        text = (unit * (size // len(unit) + 1))[:size]
        # This thread's CPU time: time the core spent on other processes is not counted.
        start = time.thread_time()
        read_back(text)
        return time.thread_time() - start

    small, large = seconds(16 * 1024), seconds(256 * 1024)
    # 16 times the text: linear is about 16 times; the bound catches quadratic.
    assert large < 64 * max(small, 0.005)
    assert large < 10.0
    start = time.thread_time()
    classify_message(unit * (1024 * 1024 // len(unit)))
    assert time.thread_time() - start < 10.0


#: Messages people paste most, in the wordings of the releases the upstream
#: file's catalogues translate (12's `null value in column "%s" violates
#: not-null constraint`, before 13 named the relation too).
COMMON = (
    'duplicate key value violates unique constraint "%s"',
    'column "%s" does not exist',
    'relation "%s" does not exist',
    'null value in column "%s" violates not-null constraint',
    'insert or update on table "%s" violates foreign key constraint "%s"',
    'password authentication failed for user "%s"',
    'database "%s" does not exist',
)


def test_every_release_translation_of_a_common_message_reads_back_to_it() -> None:
    def filled(template: str) -> str:
        parts, values = _parse(template)
        return parts[0] + "".join(
            f"v{value}_x" + part for value, part in zip(values, parts[1:], strict=True)
        )

    read = 0
    for language, translations in upstream_translations().items():
        for msgid in COMMON:
            for msgstr in translations.get(msgid, []):
                back = read_back(filled(msgstr))
                assert back is not None, (language, msgstr)
                assert back.english == filled(msgid), (language, msgstr)
                read += 1
    assert read >= 30
