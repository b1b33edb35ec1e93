"""Redis restarted mid-game (the tests' own redis-server on a spare port, never a shared one):
the table's socket recovers (its consumer fails with the connection and the tab reconnects, as
the htmx ws extension does after 1011) and the next moves reach it."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from tests.e2e.conftest import Daphne, migrate, server_env
from tests.faults.test_kill_and_clock import _SETUP, _manage_shell, _play
from tests.redis_server import OwnRedis


def _version(db) -> int:  # noqa: ANN001
    with sqlite3.connect(db, timeout=20) as conn:
        return conn.execute("select max(version) from tables_match").fetchone()[0]


async def _drive(server: Daphne, table: dict[str, str], redis: OwnRedis, db) -> tuple[int, list[int]]:  # noqa: ANN001
    stop = asyncio.Event()
    errors: list[str] = []
    seen: list[int] = []
    player = asyncio.create_task(_play([server], table, stop, errors, seen))
    await asyncio.sleep(3)
    redis.stop()
    await asyncio.sleep(0.5)
    redis.start()  # same port, empty: every group membership is gone
    restarted_at = _version(db)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and max(seen, default=0) < restarted_at + 3:
        await asyncio.sleep(0.3)
    stop.set()
    await player
    return restarted_at, seen


def test_after_a_redis_restart_the_next_moves_reach_the_tables_socket(tmp_path):
    db = tmp_path / "redis.sqlite3"
    redis = OwnRedis()
    redis.start()
    env = server_env(SQLITE_PATH=str(db), REDIS_URL=redis.url, BOT_DELAY_S="0.3", TIMER_SCALE="0.5")
    migrate(env)
    (table,) = _manage_shell(env, _SETUP % {"tables": 1}, "SETUP")
    server = Daphne(env, tmp_path / "daphne.log")
    try:
        restarted_at, seen = asyncio.run(_drive(server, table, redis, db))
    finally:
        server.stop()
        redis.stop()
    assert restarted_at > 0 and _version(db) >= restarted_at + 3, "the match went on after the restart"
    assert max(seen) >= restarted_at + 3, (tmp_path / "daphne.log").read_text()[-3000:]
