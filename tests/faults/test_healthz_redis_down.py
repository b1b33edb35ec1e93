"""A load balancer's view of a Redis outage (the tests' own redis-server on a spare port): a real
daphne process answers ``/healthz`` 200, then 503 while its Redis is down (cache and channel
layer failing, the database still fine), then 200 again once Redis is back, without a restart."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

from tests.e2e.conftest import Daphne, migrate, server_env
from tests.redis_server import OwnRedis


def _healthz(server: Daphne) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(server.url + "/healthz", timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as answer:
        return answer.code, json.loads(answer.read())


def _until(server: Daphne, status: int, within_s: float) -> dict:
    deadline = time.monotonic() + within_s
    while True:
        got, body = _healthz(server)
        if got == status or time.monotonic() > deadline:
            assert got == status, body
            return body
        time.sleep(0.3)


def test_healthz_follows_a_redis_outage_and_its_end(tmp_path):
    db = tmp_path / "health.sqlite3"
    redis = OwnRedis()
    redis.start()
    env = server_env(SQLITE_PATH=str(db), REDIS_URL=redis.url, HEALTH_CHECK_TIMEOUT_S="2")
    migrate(env)
    server = Daphne(env, tmp_path / "daphne.log")
    try:
        body = _until(server, 200, 10)
        assert body["checks"]["clock"]["state"] == "ok", body  # daphne starts its clock with the server
        redis.stop()
        body = _until(server, 503, 15)
        assert body["checks"]["cache"]["state"] == "failing", body
        assert body["checks"]["channel_layer"]["state"] == "failing", body
        assert body["checks"]["database"]["state"] == "ok", body
        redis.start()  # the same port
        body = _until(server, 200, 20)
        assert all(body["checks"][name]["state"] == "ok" for name in ("cache", "channel_layer")), body
    finally:
        server.stop()
        redis.stop()
