"""
A SQL Server message in another language is classified as its English original.

The texts are real, pasted in public issues (each with its address).  The
expected number is the one whose page in SQL Server's documentation
(https://learn.microsoft.com/en-us/sql/relational-databases/errors-events/)
gives that text, and the kind is that number's meaning there: 208 `Invalid
object name`, 207 `Invalid column name`, 1205 `chosen as the deadlock
victim`.  The translations come from the translated docs
(`tools/upstream/sqlserver-doc-messages.tsv`).
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from generate_localized_messages import _printf, _repaired, _variants, sqlserver_messages

from localdata_errors import Kind, classify_message
from localdata_errors._localized import _QUOTES, _parse, may_be_translated, read_back

# (text, where it was found, the message number, its kind, a name it holds).
PASTED = [
    pytest.param(
        "System.Data.SqlClient.SqlException (0x80131904): 对象名 'JQUser' 无效。\n"
        "   at SqlSugar.AdoProvider.GetDataReader(String sql, SugarParameter[] parameters)",
        "https://github.com/DotNetNext/SqlSugar/issues/547",
        208,
        Kind.UNDEFINED_TABLE,
        "JQUser",
        id="zh-208",
    ),
    pytest.param(
        '{"message":"对象名 \'siteserver_20200916_1\' 无效。","addDate":"2021-01-21 12:25:13"}',
        "https://github.com/siteserver/cms/issues/2953",
        208,
        Kind.UNDEFINED_TABLE,
        "siteserver_20200916_1",
        id="zh-208-json",
    ),
    pytest.param(
        "错误!   对象名 'siteserver_Table' 无效。",
        "https://github.com/siteserver/cms/issues/1146",
        208,
        Kind.UNDEFINED_TABLE,
        "siteserver_Table",
        id="zh-208-page",
    ),
    pytest.param(
        "Ungültiger Objektname 'sys.extended_properties'.",
        "https://github.com/yiisoft/yii/issues/1916",
        208,
        Kind.UNDEFINED_TABLE,
        "extended_properties",
        id="de-208",
    ),
    pytest.param(
        "rr :208 Nom d'objet '#prm' non valide. In procedure yExecNLog.LogAndOrExec: at line 222",
        "https://github.com/pelsql/YourSqlDba/issues/11",
        208,
        Kind.UNDEFINED_TABLE,
        "#prm",
        id="fr-208-ascii",
    ),
    pytest.param(
        "RootException: SqlException\n"
        "El nombre de columna '$systemCreatedAt' no es válido.\n"
        "El nombre de columna '$systemCreatedBy' no es válido.\n"
        "No se puede preparar la instrucción o instrucciones.",
        "https://github.com/MicrosoftDocs/dynamics365smb-devitpro-pb/issues/1940",
        207,
        Kind.UNDEFINED_COLUMN,
        "$systemCreatedAt",
        id="es-207",
    ),
    pytest.param(
        "事务(进程 ID 897)与另一个进程被死锁在 锁 | 线程 资源上，"  # noqa: RUF001 - as pasted
        "并且已被选作死锁牺牲品。请重新运行该事务",
        "https://github.com/dotnetcore/FreeSql/issues/1696",
        1205,
        Kind.DEADLOCK_DETECTED,
        None,
        id="zh-1205",
    ),
    pytest.param(
        "### Error updating database.  Cause: com.microsoft.sqlserver.jdbc.SQLServerException: "
        "事务(进程 ID 70)与另一个进程被死锁在 锁 资源上，"  # noqa: RUF001 - as pasted
        "并且已被选作死锁牺牲品。请重新运行该事务。\n"
        "### The error may involve defaultParameterMap",
        "https://github.com/xuxueli/xxl-job/issues/3488",
        1205,
        Kind.DEADLOCK_DETECTED,
        None,
        id="zh-1205-jdbc",
    ),
    # Numbers without a page of their own: their translation is their docs' list's.
    pytest.param(
        "Server Error in Application 关键字 'and' 附近有语法错误。"
        "关键字 'and' 附近有语法错误。关键字 'and' 附近有语法错误。",
        "https://github.com/siteserver/cms/issues/2179",
        156,
        Kind.SYNTAX_ERROR,
        None,
        id="zh-156",
    ),
    pytest.param(
        '{"message":"关键字 \'Top\' 附近有语法错误。","addDate":"2020-09-29 19:18:34"}',
        "https://github.com/siteserver/cms/issues/2629",
        156,
        Kind.SYNTAX_ERROR,
        None,
        id="zh-156-json",
    ),
    pytest.param(
        "将截断字符串或二进制数据。 语句已终止。\n\n"
        "在 System.Data.SqlClient.SqlConnection.OnError(SqlException exception, "
        "Boolean breakConnection, Action`1 wrapCloseInAction)",
        "https://github.com/siteserver/cms/issues/594",
        8152,
        Kind.STRING_DATA_RIGHT_TRUNCATION,
        None,
        id="zh-8152",
    ),
    pytest.param(
        '{"message":"将截断字符串或二进制数据。\\r\\n语句已终止。",'
        '"addDate":"2020-11-21 12:05:28"}',
        "https://github.com/siteserver/cms/issues/2775",
        8152,
        Kind.STRING_DATA_RIGHT_TRUNCATION,
        None,
        id="zh-8152-json",
    ),
    pytest.param(
        'Cause:无法打开登录所请求的数据库 "eggshell?useSSL=false"。登录失败。 '
        "ClientConnectionId:204797ba-0184-46aa-9fa9-ff82e05d2be5",
        "https://github.com/leecho/mybatis-generator-plus/issues/11",
        4060,
        Kind.UNDEFINED_DATABASE,
        "eggshell?useSSL=false",
        id="zh-4060-jdbc",
    ),
    # The docs write `列名“%.*ls”无效。`; the server, ASCII quotes with spaces around.
    pytest.param(
        "列名 'LastModifiedDate' 无效。",
        "https://github.com/siteserver/cms/issues/3294",
        207,
        Kind.UNDEFINED_COLUMN,
        "LastModifiedDate",
        id="zh-207-spaced",
    ),
    # The docs' translation broke its conversions (`'%. ls'`) and put a space
    # after a full stop (`值。 %ls 失败。`); the English text is quoted cut short.
    pytest.param(
        "不能将值 NULL 插入列 'Id'，表 'qds232351540_db.dbo.siteserver_TemplateLog'；"  # noqa: RUF001 - as pasted
        "列不允许有 Null 值。INSERT 失败。语句已终止。",
        "https://github.com/siteserver/cms/issues/2010",
        515,
        Kind.NOT_NULL_VIOLATION,
        None,
        id="zh-515-repaired",
    ),
    # A whole translation read back to its English text's beginning (`Conversion
    # failed when converting date and/or time from ...`, quoted cut short).
    pytest.param(
        "CAP初始化错误---> 从字符串转换日期和/或时间时，转换失败。",  # noqa: RUF001 - as pasted
        "https://github.com/dotnetcore/CAP/issues/139",
        241,
        Kind.INVALID_DATETIME_FORMAT,
        None,
        id="zh-241-beginning",
    ),
    pytest.param(
        '{"message":"数据库中已存在名为 \'siteserver_20211108_1\' 的对象。",'
        '"addDate":"2021-11-08 21:30:46"}',
        "https://github.com/siteserver/cms/issues/3254",
        2714,
        Kind.DUPLICATE_OBJECT,
        None,
        id="zh-2714-json",
    ),
]


@pytest.mark.parametrize(("text", "source", "number", "kind", "name"), PASTED)
def test_a_pasted_translated_message_is_classified_by_its_number(
    text: str, source: str, number: int, kind: Kind, name: str | None
) -> None:
    answer = classify_message(text)
    assert answer.backend == "mssql", source
    assert answer.database_error_code == str(number), source
    assert answer.kind is kind, source
    assert answer.is_retryable is (kind is Kind.DEADLOCK_DETECTED)
    if name is not None:
        assert name in answer.affected_resources
    # The message is the text as given (its part the mapper reads), not the English.
    assert answer.message in text


def _filled(template: str) -> str:
    parts, values = _parse(template)
    return parts[0] + "".join(
        f"v{value}x" + part for value, part in zip(values, parts[1:], strict=True)
    )


def test_every_extracted_translation_reads_back_to_its_english_text() -> None:
    pairs = sqlserver_messages()
    # The same translation of two English texts reads back as one of them; so does
    # one that differs only in its conversions' types (`%f`, `%ld`: 232 and 220)
    # or in its quotes (an apostrophe or a typographic one: every quote reads as one).
    english: defaultdict[tuple[str, ...], set[str]] = defaultdict(set)
    for translated in pairs.values():
        for msgid, msgstr in translated:
            english[_parse(msgstr.translate(_QUOTES))[0]].add(_filled(msgid))
    read = 0
    for language, translated in pairs.items():
        for _, msgstr in translated:
            parts, _ = _parse(msgstr.translate(_QUOTES))
            # Not readable by construction: a literal `%%` (kept out of the table)
            # and two values side by side (where one ends is not known).
            if "%%" in msgstr or "" in parts[1:-1]:
                continue
            back = read_back(_filled(msgstr))
            assert back is not None, (language, msgstr)
            assert back.english in english[parts], (language, msgstr, back.english)
            read += 1
    assert read >= 6000


@pytest.mark.parametrize(
    "text",
    [
        "Invalid object name 'foo'.",
        "Invalid column name 'x'.",
        "Login failed for user 'sa'.",
        "Incorrect syntax near the keyword 'and'.",
        "Transaction (Process ID 52) was deadlocked on lock resources with another process"
        " and has been chosen as the deadlock victim. Rerun the transaction.",
        "String or binary data would be truncated.",
    ],
)
def test_an_english_sqlserver_text_is_not_read_back(text: str) -> None:
    assert not may_be_translated(text)
    back = read_back(text)
    assert back is None or back.english == text


@pytest.mark.parametrize(
    ("broken", "written"),
    [
        ("'%. ls'", "'%.*ls'"),
        ("'%.* ls'", "'%.*ls'"),
        ("'%. * ls'", "'%.*ls'"),
        ("% d", "%d"),
        ("'%.*ls'", "'%.*ls'"),
    ],
)
def test_a_conversion_the_translation_broke_is_repaired(broken: str, written: str) -> None:
    assert _repaired(broken) == written


def test_the_forms_a_server_prints_beside_the_docs() -> None:
    # 18456: the reason the server may add after the sentence, left out; the
    # values' typographic quotes, written as the server writes them.
    english = _printf(_repaired("Login failed for user '%.*ls'.%.*ls%.*ls"))
    local = _printf(_repaired("用户 '%. ls' 登录失败。%. ls%.*ls"))
    assert english is not None
    assert local is not None
    stripped = ("Login failed for user '%.*ls'.", "用户 '%.*ls' 登录失败。")
    assert stripped in _variants(english, local)
    assert ("Invalid column name '%.*ls'.", "列名 '%.*ls' 无效。") in _variants(
        "Invalid column name '%.*ls'.", "列名“%.*ls”无效。"
    )


def test_a_login_failure_without_its_reason() -> None:
    answer = classify_message("用户 'sa' 登录失败。")
    assert (answer.backend, answer.database_error_code, answer.kind) == (
        "mssql",
        "18456",
        Kind.INVALID_PASSWORD,
    )
