"""Deploy-safe shutdown (issue 14 §7): two daphne processes serve one table (a shared SQLite file
and the tests' own redis-server); the process holding the players' sockets gets SIGTERM. Every
socket it held is closed with 1012 (so the htmx ws extension reconnects at once), the tabs
reconnect to the other process, get the current view, and the game goes on there."""

from __future__ import annotations

import asyncio
import html
import json
import signal
import time

import websockets

from tests.e2e.conftest import Daphne, migrate, server_env
from tests.faults.test_kill_and_clock import _ACTION, _SETUP, _VERSION, _manage_shell
from tests.redis_server import OwnRedis

TABS = 3


def _connect(server: Daphne, table: dict[str, str]):  # noqa: ANN202
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table['token']}/"
    headers = {"Origin": server.url, "Cookie": f"sessionid={table['session']}"}
    return websockets.connect(url, additional_headers=headers, open_timeout=5)


async def _until_closed(ws) -> tuple[int | None, float]:  # noqa: ANN001
    """Read until the server closes the socket: its close code, and when it came."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout=15)
    except websockets.exceptions.ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), time.monotonic()


async def _play_on(server: Daphne, table: dict[str, str], beyond: int, timeout: float = 40) -> int:
    """A reconnected tab: answers its decisions until it was shown a version past ``beyond``."""
    seen = 0
    end = time.monotonic() + timeout
    async with _connect(server, table) as ws:
        while time.monotonic() < end and seen <= beyond:
            try:
                text = str(await asyncio.wait_for(ws.recv(), timeout=1))
            except TimeoutError:
                continue
            seen = max([seen, *(int(v) for v in _VERSION.findall(text))])
            found = _ACTION.search(text)
            if found:
                await ws.send(json.dumps({"action": html.unescape(found.group(1)), "version": found.group(2)}))
    return seen


async def _drive(servers: list[Daphne], table: dict[str, str]) -> dict[str, object]:
    victim, other = servers
    tabs = [await _connect(victim, table) for _ in range(TABS)]
    first = str(await tabs[0].recv())
    shown = max(int(v) for v in _VERSION.findall(first))
    for tab in tabs[1:]:
        await tab.recv()
    await asyncio.sleep(1)
    sent_at = time.monotonic()
    victim.proc.send_signal(signal.SIGTERM)
    closes = await asyncio.gather(*(_until_closed(tab) for tab in tabs))
    exited = await asyncio.to_thread(victim.proc.wait, 15)
    reached = await _play_on(other, table, shown + 3)
    return {
        "codes": [code for code, _ in closes],
        "close_after_s": max(at for _, at in closes) - sent_at,
        "exit": exited,
        "shown": shown,
        "reached": reached,
    }


def test_on_sigterm_sockets_close_with_1012_and_the_tabs_go_on_at_the_other_process(tmp_path):
    db = tmp_path / "sigterm.sqlite3"
    redis = OwnRedis()
    redis.start()
    env = server_env(SQLITE_PATH=str(db), REDIS_URL=redis.url, BOT_DELAY_S="0.2", TIMER_SCALE="0.3", LOG_LEVEL="INFO")
    migrate(env)
    (table,) = _manage_shell(env, _SETUP % {"tables": 1}, "SETUP")
    servers = [Daphne(env, tmp_path / "daphne-a.log"), Daphne(env, tmp_path / "daphne-b.log")]
    try:
        report = asyncio.run(_drive(servers, table))
    finally:
        for server in servers:
            if server.proc.poll() is None:
                server.stop()
            else:
                server._log.close()
        redis.stop()
    logs = (tmp_path / "daphne-a.log").read_text()[-3000:]
    assert report["codes"] == [1012] * TABS, (report, logs)
    assert report["close_after_s"] < 5, report
    assert report["exit"] is not None
    assert report["reached"] > report["shown"] + 3, f"the game did not go on at the other process: {report}"
    print(f"sigterm: {TABS} sockets closed with 1012 in {report['close_after_s']:.2f} s; resumed at the other")
