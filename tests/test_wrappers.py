"""Real wrappers around real driver errors: Django and SQLAlchemy (sync and async)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from localdata_errors import Kind, classify_error
from tests.conftest import require_module


def test_django_wrapper_is_unwrapped(tmp_path: object) -> None:
    django = require_module("django")
    from django.conf import settings

    if not settings.configured:
        settings.configure(
            DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
            INSTALLED_APPS=[],
            USE_TZ=True,
        )
        django.setup()
    from django.db import connection, utils

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        with pytest.raises(utils.OperationalError) as info:
            cursor.execute("SELECT * FROM no_such_thing")
        missing = classify_error(info.value)
        with pytest.raises(utils.IntegrityError) as dup:
            cursor.execute("INSERT INTO parent (id) VALUES (1), (1)")
        duplicate = classify_error(dup.value)
    assert isinstance(info.value.__cause__, sqlite3.OperationalError)
    assert missing.kind is Kind.UNDEFINED_TABLE
    assert missing.driver == "sqlite3"
    assert missing.message == "no such table: no_such_thing"
    assert duplicate.kind is Kind.UNIQUE_VIOLATION


def test_sqlalchemy_async_engine_over_aiosqlite() -> None:
    sa = require_module("sqlalchemy")
    require_module("aiosqlite")
    from sqlalchemy.ext.asyncio import create_async_engine

    async def run() -> BaseException:
        engine = create_async_engine("sqlite+aiosqlite://")
        try:
            async with engine.connect() as conn:
                await conn.execute(sa.text("SELECT * FROM nowhere"))
        except sa.exc.DBAPIError as exc:
            return exc
        finally:
            await engine.dispose()
        raise AssertionError("the statement should have failed")

    err = asyncio.run(run())
    resp = classify_error(err)
    assert resp.kind is Kind.UNDEFINED_TABLE
    assert resp.affected_resources == ("nowhere",)
    assert "[SQL:" not in resp.message


def test_sqlalchemy_pool_exhaustion_has_no_orig_and_is_still_classified() -> None:
    sa = require_module("sqlalchemy")
    engine = sa.create_engine(
        "sqlite:///:memory:",
        poolclass=sa.pool.QueuePool,
        pool_size=1,
        max_overflow=0,
        pool_timeout=0.01,
    )
    held = engine.connect()
    try:
        with pytest.raises(sa.exc.TimeoutError) as info:
            engine.connect()
    finally:
        held.close()
        engine.dispose()
    resp = classify_error(info.value)
    assert resp.kind is Kind.TOO_MANY_CONNECTIONS
    assert resp.is_retryable is True
    assert "sqlalche.me" not in resp.message
