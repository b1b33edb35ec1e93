"""Redis restarted mid-game (the tests' own redis-server on a spare port, never a shared one):
the table's consumer outlives it by itself. Its socket to the browser stays open (no reconnect),
the consumer joins its group again once Redis answers (a restarted Redis has forgotten every
membership), and the next moves reach it."""

from __future__ import annotations

import asyncio
import html
import json
import sqlite3
import time

import websockets

from tests.e2e.conftest import Daphne, migrate, server_env
from tests.faults.test_kill_and_clock import _ACTION, _SETUP, _VERSION, _manage_shell
from tests.redis_server import OwnRedis


def _version(db) -> int:  # noqa: ANN001
    with sqlite3.connect(db, timeout=20) as conn:
        return conn.execute("select max(version) from tables_match").fetchone()[0]


async def _drive(server: Daphne, table: dict[str, str], redis: OwnRedis, db) -> dict[str, object]:  # noqa: ANN001
    """One tab, one socket for the whole test, answering its decisions."""
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table['token']}/"
    headers = {"Origin": server.url, "Cookie": f"sessionid={table['session']}"}
    seen: list[int] = []
    closed: list[object] = []
    restarted_at = 0
    async with websockets.connect(url, additional_headers=headers, open_timeout=5) as ws:

        async def read(until: float, beyond: int | None) -> None:
            while time.monotonic() < until and (beyond is None or max(seen, default=0) < beyond):
                try:
                    text = str(await asyncio.wait_for(ws.recv(), timeout=0.5))
                except TimeoutError:
                    continue
                except websockets.exceptions.ConnectionClosed as exc:
                    closed.append(exc.rcvd.code if exc.rcvd else None)
                    return
                seen.extend(int(v) for v in _VERSION.findall(text))
                found = _ACTION.search(text)
                if found:
                    await ws.send(json.dumps({"action": html.unescape(found.group(1)), "version": found.group(2)}))

        await read(time.monotonic() + 3, None)
        redis.stop()
        await read(time.monotonic() + 1, None)
        redis.start()  # same port, empty: every group membership is gone
        restarted_at = _version(db)
        await read(time.monotonic() + 30, restarted_at + 3)
    return {"restarted_at": restarted_at, "seen": max(seen, default=0), "closed": closed}


def test_after_a_redis_restart_the_consumer_rejoins_and_the_next_moves_reach_the_same_socket(tmp_path):
    db = tmp_path / "redis.sqlite3"
    redis = OwnRedis()
    redis.start()
    env = server_env(SQLITE_PATH=str(db), REDIS_URL=redis.url, BOT_DELAY_S="0.3", TIMER_SCALE="0.5")
    migrate(env)
    (table,) = _manage_shell(env, _SETUP % {"tables": 1}, "SETUP")
    server = Daphne(env, tmp_path / "daphne.log")
    try:
        report = asyncio.run(_drive(server, table, redis, db))
    finally:
        server.stop()
        redis.stop()
    log = (tmp_path / "daphne.log").read_text()[-3000:]
    assert not report["closed"], f"the socket was closed: {report}\n{log}"
    assert report["restarted_at"] > 0 and _version(db) >= report["restarted_at"] + 3, "the match went on"
    assert report["seen"] >= report["restarted_at"] + 3, f"{report}\n{log}"
