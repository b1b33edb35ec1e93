"""The benchmark's load generator: real WebSocket clients (the ``websockets`` library).

Setup, not timed, goes through the site's own HTTP flows: each player becomes a guest, a host
creates a private werewolf table, the others sit, the host starts. Then every seat opens a
socket, reads its legal actions from the ``#actions`` fragments it receives, and a table's driver
submits one of them with the version it was rendered at. A move's latency runs from the send
until **every** socket at that table has received the new version (``data-version`` of
``#status``). The echo run drives the bare Channels echo with the same tables, sockets and rates.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from typing import Any

import websockets

STATUS_VERSION = re.compile(r'<section id="status"[^>]*data-version="(\d+)"')
ACTIONS = re.compile(r'<section id="actions".*?</section>', re.S)
FORM = re.compile(r'name="action" value="([^"]+)">\s*<input type="hidden" name="version" value="(\d+)"')
GAME_OVER = 'data-testid="game-over"'
ERROR = 'data-testid="error"'
MOVE_TIMEOUT_S = 10.0


# --- HTTP setup ------------------------------------------------------------------------------------


class _StayOnRedirect(urllib.request.HTTPRedirectHandler):
    """A form's redirect is not followed: the page it leads to is not part of the setup, and
    rendering it made up half of the setup's time."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Browser:
    """One player's browser for the setup: a cookie jar and the site's forms."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _StayOnRedirect())

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def get(self, path: str) -> tuple[str, str]:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.geturl(), response.read().decode()

    def post(self, path: str, data: dict[str, str]) -> str:
        """Submits a form; the address it redirects to (a form that does not redirect failed)."""
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.cookie("csrftoken")}).encode()
        request = urllib.request.Request(self.base + path, data=body, headers={"Referer": self.base + path})
        try:
            with self.opener.open(request, timeout=30) as response:
                raise AssertionError(f"POST {path} answered {response.status} without a redirect")
        except urllib.error.HTTPError as answer:
            if answer.code not in (302, 303):
                raise
            return urllib.parse.urljoin(self.base + path, answer.headers["Location"])

    def become_guest(self, name: str) -> None:
        self.get("/accounts/guest/")
        self.post("/accounts/guest/?next=/", {"display_name": name})
        assert self.cookie("sessionid"), "the guest form did not log in"


def set_up_guests(base: str, table_no: int, seats: int) -> list[Browser]:
    """``seats`` guests, each logged in in a browser of its own, for one table's seats."""
    browsers = [Browser(base) for _ in range(seats)]
    for i, browser in enumerate(browsers):
        browser.become_guest(f"t{table_no}p{i}")
    return browsers


def set_up_table(bases: list[str], browsers: list[Browser]) -> tuple[str, list[str]]:
    """A started werewolf table of these guests, the first one hosting: its token and each seat's
    session cookie. Seat i's browser uses ``bases[i % len(bases)]`` (two servers share one
    database). A guest may sit at several tables, so one run's guests sit again in the next."""
    for i, browser in enumerate(browsers):
        browser.base = bases[i % len(bases)]
    url = browsers[0].post(
        "/new/werewolf/", {"seat_count": str(len(browsers)), "visibility": "private", "speed": "normal"}
    )
    token = url.rstrip("/").rsplit("/", 1)[-1]
    for browser in browsers[1:]:
        browser.post(f"/t/{token}/sit/", {})
    browsers[0].post(f"/t/{token}/start/", {})
    return token, [b.cookie("sessionid") for b in browsers]


def pause_table(host: Browser, token: str) -> None:
    """The host pauses the table after its run, so that the next run's server does not play its
    clock (night minimums, timeouts) alongside the tables it measures. Any version at or below the
    current one is taken; an ended game answers an error message, which is fine here."""
    host.post(f"/t/{token}/host/", {"power": "pause", "version": "0"})


# --- sockets ---------------------------------------------------------------------------------------


@dataclass
class Socket:
    url: str
    origin: str
    cookie: str = ""
    version: int = -1
    actions: list[tuple[str, int]] = field(default_factory=list)
    errors: int = 0
    over: bool = False
    frames: int = 0
    bytes: int = 0
    seen: dict[str, float] = field(default_factory=dict)  # echo: move id -> when it arrived
    ws: Any = None
    reader: asyncio.Task[None] | None = None

    async def open(self, changed: asyncio.Event) -> None:
        headers = {"Cookie": f"sessionid={self.cookie}"} if self.cookie else {}
        self.ws = await websockets.connect(
            self.url, origin=self.origin, additional_headers=headers, max_size=2**23, open_timeout=60
        )
        self.reader = asyncio.create_task(self._read(changed))

    async def _read(self, changed: asyncio.Event) -> None:
        try:
            async for message in self.ws:
                text = message if isinstance(message, str) else message.decode()
                self.frames += 1
                self.bytes += len(text.encode())
                self._take(text)
                changed.set()
        except websockets.ConnectionClosed:
            pass

    def _take(self, text: str) -> None:
        if text.startswith("{"):  # an echo frame
            self.seen[json.loads(text)["move"]] = time.perf_counter()
            return
        status = STATUS_VERSION.search(text)
        if status:
            self.version = max(self.version, int(status.group(1)))
            self.over = self.over or GAME_OVER in text
        section = ACTIONS.search(text)
        if section:
            self.actions = [(html.unescape(a), int(v)) for a, v in FORM.findall(section.group(0))]
        if ERROR in text:
            self.errors += 1

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader


@dataclass
class Outcome:
    latency: float | None  # seconds, None when the move was refused or never confirmed
    offered: bool = True
    started: float = 0.0  # perf_counter() at the send (BENCH_LATENCIES: when the slow ones came)
    kind: str = "-"  # the action's type (BENCH_LATENCIES: which moves were slow); the echo's: "-"


class Table:
    """One table's sockets and its driver."""

    def __init__(self, sockets: list[Socket], rng: random.Random, token: str = "") -> None:
        self.sockets = sockets
        self.rng = rng
        self.token = token
        self.changed = asyncio.Event()
        self.moves = 0

    async def open(self) -> None:
        await asyncio.gather(*(s.open(self.changed) for s in self.sockets))

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.sockets))

    async def until(self, done: Any, timeout: float) -> bool:
        end = time.perf_counter() + timeout
        while not done():
            left = end - time.perf_counter()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return done()  # type: ignore[no-any-return]
        return True

    @property
    def over(self) -> bool:
        return any(s.over for s in self.sockets)

    async def move(self) -> Outcome:
        """Submit one legal action of a seat that has one; wait until every socket has it."""
        ready = [s for s in self.sockets if s.actions]
        if not ready:  # the table waits for its clock (a night turn's minimum, say): nothing to offer
            return Outcome(None, offered=False)
        mover = self.rng.choice(ready)
        action, version = self.rng.choice(mover.actions)
        target = max(s.version for s in self.sockets) + 1
        errors = mover.errors
        started = time.perf_counter()
        await mover.ws.send(json.dumps({"action": action, "version": str(version)}))
        mover.actions = []  # answered: the next fragment tells what is left
        ok = await self.until(
            lambda: all(s.version >= target for s in self.sockets) or mover.errors > errors, MOVE_TIMEOUT_S
        )
        if not ok or mover.errors > errors:
            return Outcome(None, started=started, kind=_kind(action))
        self.moves += 1
        return Outcome(time.perf_counter() - started, started=started, kind=_kind(action))


def _kind(action: str) -> str:
    """A submitted action's ``type`` (its form value is the action as JSON)."""
    try:
        return str(json.loads(action).get("type", "-"))
    except ValueError:
        return "-"


class EchoTable(Table):
    """The same driver against the bare echo: a frame from one socket, until all sockets have it."""

    PAD = "x" * 200  # about the size of the echo frame

    async def move(self) -> Outcome:
        self.moves += 1
        move_id = f"{id(self)}:{self.moves}"
        mover = self.rng.choice(self.sockets)
        started = time.perf_counter()
        await mover.ws.send(json.dumps({"move": move_id, "pad": self.PAD}))
        ok = await self.until(lambda: all(move_id in s.seen for s in self.sockets), MOVE_TIMEOUT_S)
        for s in self.sockets:
            s.seen.pop(move_id, None)
        return Outcome(time.perf_counter() - started if ok else None, started=started)


# --- modes -----------------------------------------------------------------------------------------


async def waves(tables: list[Table], rate: float, duration: float) -> list[Outcome]:
    """Every table moves at once, then a pause, so that ``rate`` moves a second are offered."""
    period = len(tables) / rate
    outcomes: list[Outcome] = []
    end = time.perf_counter() + duration
    while time.perf_counter() < end:
        wave_start = time.perf_counter()
        outcomes += await asyncio.gather(*(t.move() for t in tables if not t.over))
        await asyncio.sleep(max(0.0, period - (time.perf_counter() - wave_start)))
    return outcomes


async def staggered(tables: list[Table], rate: float, duration: float, rng: random.Random) -> list[Outcome]:
    """Each table moves once a period, from its own random offset."""
    period = len(tables) / rate
    end = time.perf_counter() + duration
    outcomes: list[Outcome] = []

    async def drive(table: Table) -> None:
        await asyncio.sleep(rng.uniform(0, period))
        while time.perf_counter() < end and not table.over:
            began = time.perf_counter()
            outcomes.append(await table.move())
            await asyncio.sleep(max(0.0, period - (time.perf_counter() - began)))

    await asyncio.gather(*(drive(t) for t in tables))
    return outcomes


async def saturation(tables: list[Table], duration: float) -> list[Outcome]:
    """Closed loop: each table moves again as soon as its last move reached everyone."""
    end = time.perf_counter() + duration
    outcomes: list[Outcome] = []

    async def drive(table: Table) -> None:
        while time.perf_counter() < end and not table.over:
            outcome = await table.move()
            outcomes.append(outcome)
            if not outcome.offered:
                await asyncio.sleep(0.05)

    await asyncio.gather(*(drive(t) for t in tables))
    return outcomes


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
