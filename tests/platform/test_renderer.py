"""One renderer per table version (ARCHITECTURE §4): a table is read once per change, each
audience rendered once, each socket sent only what changed, and none of it ever crosses from
one seat to another. Run with SQLite and the in-memory layer, and against PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
import re
import threading

import pytest
from channels.db import database_sync_to_async

from games import registry
from shabneshin import counters
from tables import renderer, seating
from tables.models import Match, Table
from tests.platform.helpers import started_werewolf
from tests.platform.sockets import (
    action_message,
    close_thread_connections,
    connect,
    drain,
    receive_html,
    receive_until,
    start_werewolf,
    version_in,
)
from tests.platform.test_consumer import _version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services_in_use")]


@pytest.fixture(autouse=True)
async def _close_connections_after():
    renderer.clear_caches()
    yield
    await close_thread_connections()


@database_sync_to_async
def _open_table(host, players):
    table = seating.create_table(host, "werewolf", 5, Table.Visibility.PRIVATE)
    for player in players:
        seating.sit(table, player)
    return table


async def test_two_seats_never_receive_each_others_cached_fragments(alice, bob, charlie):
    match = await start_werewolf(alice, [bob])  # alice SEER at 0, bob VILLAGER at 1
    token = match.table.token
    tabs = {name: (await connect(token, user))[0] for name, user in [("alice", alice), ("bob", bob)]}
    tabs["alice again"] = (await connect(token, alice))[0]
    tabs["charlie"] = (await connect(token, charlie))[0]
    first = {name: await receive_html(tab) for name, tab in tabs.items()}
    await tabs["alice"].send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    seen = {name: first[name] + await receive_until(tab, 'data-version="1"') for name, tab in tabs.items()}
    for name, tab in tabs.items():
        seen[name] += "".join(await drain(tab))
    assert "Seer" in seen["alice"] and "is a wolf" in seen["alice"]
    assert "Villager" in seen["bob"] and "Seer" not in seen["bob"] and "is a wolf" not in seen["bob"]
    assert not any(role in seen["charlie"] for role in ("Seer", "Villager", "Wolf", "Doctor"))
    assert "is a wolf" in seen["alice again"], "a seat's second tab shares its fragments"
    for tab in tabs.values():
        await tab.disconnect()


async def test_a_browsers_csrf_token_is_never_sent_to_another_browser(alice, bob, charlie, dave):
    table = await _open_table(alice, [bob])
    charlie_tab, _, _ = await connect(table.token, charlie, csrf="charlie-token-" + "c" * 18)
    dave_tab, _, _ = await connect(table.token, dave, csrf="dave-token-" + "d" * 21)
    charlie_html, dave_html = await receive_html(charlie_tab), await receive_html(dave_tab)
    assert "charlie-token" in charlie_html and "dave-token" not in charlie_html
    assert "dave-token" in dave_html and "charlie-token" not in dave_html
    assert renderer.CSRF_PLACEHOLDER not in charlie_html + dave_html
    for tab in (charlie_tab, dave_tab):
        await tab.disconnect()


async def test_a_chat_line_sends_only_the_chat(alice, bob):
    table = await _open_table(alice, [bob])
    alice_tab, _, _ = await connect(table.token, alice)
    bob_tab, _, _ = await connect(table.token, bob)
    await receive_html(alice_tab)
    assert 'id="board"' in await receive_html(bob_tab), "a new socket gets every fragment"
    await alice_tab.send_to(text_data=json.dumps({"chat": "hello bob"}))
    update = await receive_until(bob_tab, "hello bob")
    assert 'id="chat"' in update
    assert not any(f'id="{name}"' in update for name in ("status", "seats", "board", "actions", "log"))
    for tab in (alice_tab, bob_tab):
        await tab.disconnect()


async def _queries_for_one_move(alice, bob, onlookers) -> tuple[int, int]:
    """SQL queries and template renders, all threads, from alice's move until every socket has it."""
    match = await start_werewolf(alice, [bob])
    token = match.table.token
    tabs = [(await connect(token, user))[0] for user in (alice, bob, *onlookers)]
    for tab in tabs:
        await receive_html(tab)
    await asyncio.sleep(0.1)
    counters.install()
    before = counters.snapshot()
    await tabs[0].send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    for tab in tabs:
        assert await receive_until(tab, 'data-version="1"')
    after = counters.snapshot()
    for tab in tabs:
        await tab.disconnect()
    return after["queries"] - before["queries"], after["renders"] - before["renders"]


async def test_a_move_costs_a_few_queries_whatever_the_number_of_sockets(alice, bob, charlie, dave):
    few, few_renders = await _queries_for_one_move(alice, bob, [])
    many, many_renders = await _queries_for_one_move(alice, bob, [charlie, dave, None, None])
    assert many == few <= 10
    # The onlookers are two audiences (signed in or not): four more sockets, two more renderings.
    assert many_renders < 2 * few_renders


async def test_a_flood_gets_one_notice_then_the_socket_is_closed(alice, bob):
    match = await start_werewolf(alice, [bob])
    tab, _, _ = await connect(match.table.token, alice)
    await receive_html(tab)
    for _ in range(300):
        await tab.send_to(text_data="not json")
    replies = []
    while True:
        output = await tab.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
        replies.append(output["text"])
    assert output["code"] == 1008, "a socket that keeps flooding is closed as a policy violation"
    assert sum("too fast" in r for r in replies) == 1
    assert len(replies) < 40, "frames past the budget cost no answer each"
    assert await _version(match) == 0


# --- a click that races another seat's move ---------------------------------------------------


@database_sync_to_async
def _monster(host, players):
    from tests.platform.test_monster_ui import started_monster

    match = started_monster(host, players)
    match.table  # noqa: B018
    return match


async def test_another_seats_pick_does_not_make_my_monster_pick_stale(alice, bob):
    match = await _monster(alice, [bob])  # every seat selects a monster face down, at once
    alice_tab, _, _ = await connect(match.table.token, alice)
    bob_tab, _, _ = await connect(match.table.token, bob)
    alice_page, bob_page = await receive_html(alice_tab), await receive_html(bob_tab)
    form_version = int(re.search(r'name="version" value="(\d+)"', alice_page).group(1))
    await bob_tab.send_to(text_data=action_message({"type": "select", "monster": 1}, version_in(bob_page)))
    assert await receive_until(alice_tab, 'data-version="1"')
    await alice_tab.send_to(text_data=action_message({"type": "select", "monster": 0}, form_version))
    assert await receive_until(alice_tab, 'data-version="2"'), "alice's pick is applied"
    assert "moved on" not in "".join(await drain(alice_tab))
    for tab in (alice_tab, bob_tab):
        await tab.disconnect()


@database_sync_to_async
def _werewolf_day(alice, bob):
    """A werewolf table in its day discussion, alice and bob alive (the first seed that gives it)."""
    from tests.platform.helpers import play_until

    engine = registry.get("werewolf")
    for seed in range(1, 40):
        match = started_werewolf(alice, [bob], seed=seed)
        match = play_until(
            match, lambda m: m.status != "playing" or m.state["public"]["phase"] in ("day_discussion", "over")
        )
        if match.status == "playing" and {0, 1} <= set(engine.awaiting(match.state)):
            match.table  # noqa: B018
            return match
        Table.objects.filter(pk=match.table_id).delete()
    raise AssertionError("no seed gave a day with both humans alive")


async def test_another_seats_readiness_does_not_make_my_werewolf_readiness_stale(alice, bob):
    match = await _werewolf_day(alice, bob)
    alice_tab, _, _ = await connect(match.table.token, alice)
    bob_tab, _, _ = await connect(match.table.token, bob)
    alice_page, bob_page = await receive_html(alice_tab), await receive_html(bob_tab)
    form_version = int(re.search(r'name="version" value="(\d+)"', alice_page).group(1))
    start = version_in(alice_page)
    await bob_tab.send_to(text_data=action_message({"type": "ready"}, version_in(bob_page)))
    assert await receive_until(alice_tab, f'data-version="{start + 1}"')
    await alice_tab.send_to(text_data=action_message({"type": "ready"}, form_version))
    assert await receive_until(alice_tab, f'data-version="{start + 2}"'), "alice's readiness is applied"
    for tab in (alice_tab, bob_tab):
        await tab.disconnect()


async def test_a_replayed_frame_is_still_refused(alice, bob):
    match = await _monster(alice, [bob])
    tab, _, _ = await connect(match.table.token, alice)
    page = await receive_html(tab)
    frame = action_message({"type": "select", "monster": 0}, version_in(page))
    await tab.send_to(text_data=frame)
    assert await receive_until(tab, 'data-version="1"')
    await drain(tab)
    await tab.send_to(text_data=frame)
    assert "moved on" in await receive_until(tab, "moved on")
    assert await _version(match) == 1
    await tab.disconnect()


GAMES = [("werewolf", 6), ("mummy", 6), ("monster", 4), ("insidejob", 4), ("dracula", 2)]


@database_sync_to_async
def _log_items_match_a_full_render(slug: str, players: int) -> list[int]:
    """At several steps, each seat's cached log items equal the entry rendered with the whole
    context, so entry templates read nothing that the cache key does not hold."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from accounts.models import User
    from tests.platform.helpers import play_until

    host = User.objects.create_user(username=f"host-{slug}", password="a-long-password-1", display_name="Host")
    table = seating.create_table(host, slug, players, Table.Visibility.PRIVATE)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=5)
    match = Match.objects.get(table=table)
    checked = []
    for version in (3, 12, 10_000):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(table.pk)
        for language in ("fa", "en"):
            for seat in [None, *range(players)]:
                audience = renderer.Audience(seat, False, True, language)
                with translation.override(language):
                    ctx = renderer.build_context(snapshot, audience)
                    full = [
                        render_to_string("tables/_log_item.html", {**ctx, "entry": entry})
                        for entry in ctx["view"]["log"]
                    ]
                assert [str(item) for item in ctx["log_items"]] == full, (slug, version, seat, language)
        checked.append(match.version)
    return checked


@pytest.mark.parametrize(("slug", "players"), GAMES)
async def test_cached_log_entries_render_as_the_whole_context_would(slug, players):
    checked = await _log_items_match_a_full_render(slug, players)
    assert len(checked) == 3 and checked[-1] > checked[0]


async def _round_trip(tab) -> float:
    import time

    began = time.perf_counter()
    await tab.send_to(text_data="not json")
    await tab.receive_from(timeout=10)
    return time.perf_counter() - began


async def test_another_tables_latency_stays_flat_during_a_stale_flood(alice, bob, charlie, dave):
    flooded = await start_werewolf(alice, [bob])
    quiet = await start_werewolf(charlie, [dave])
    flooder, _, _ = await connect(flooded.table.token, alice)
    other, _, _ = await connect(quiet.table.token, charlie)
    page = await receive_html(flooder)
    await receive_html(other)
    await flooder.send_to(text_data=action_message({"type": "pick", "target": 2}, version_in(page)))
    await receive_until(flooder, 'data-version="1"')
    baseline = sorted([await _round_trip(other) for _ in range(8)])[4]
    stale = action_message({"type": "pick", "target": 3}, version_in(page))

    async def flood():
        for _ in range(2000):
            await flooder.send_to(text_data=stale)
            await asyncio.sleep(0)

    flooding = asyncio.create_task(flood())
    during = sorted([await _round_trip(other) for _ in range(8)])[4]
    await flooding
    assert during < 5 * baseline + 0.05, (baseline, during)
    assert await _version(flooded) == 1, "no stale frame was applied"
    for tab in (flooder, other):
        await tab.disconnect()


async def test_one_change_is_rendered_in_one_trip_for_all_of_a_process_sockets(alice, bob, charlie, monkeypatch):
    """tables/hub.py: the first socket to hear a change renders every local socket's audience in
    one piece of work (a worker-thread trip, or on the loop for the move's own primed snapshot with
    PostgreSQL); the table is read once, and each socket still gets only its own seat."""
    from tables import hub as hub_module

    match = await start_werewolf(alice, [bob])  # alice SEER at 0, bob VILLAGER at 1
    token = match.table.token
    tabs = [(await connect(token, user))[0] for user in (alice, bob, charlie, None)]
    for tab in tabs:
        await receive_html(tab)
    trips = {"all": 0, "one": 0}
    renders_of, render_one = hub_module._renders_of, hub_module._render_one

    def counted_all(*args):
        trips["all"] += 1
        return renders_of(*args)

    async def counted_one(*args):
        trips["one"] += 1
        return await render_one(*args)

    monkeypatch.setattr(hub_module, "_renders_of", counted_all)
    monkeypatch.setattr(hub_module, "_render_one", counted_one)
    await tabs[0].send_to(text_data=action_message({"type": "pick", "target": 2}, 0))
    seen = [await receive_until(tab, 'data-version="1"') for tab in tabs]
    assert trips == {"all": 1, "one": 0}
    assert "is a wolf" in seen[0] and not any("is a wolf" in html for html in seen[1:])
    for tab in tabs:
        await tab.disconnect()


@database_sync_to_async
def _renders_of_a_version_that_changes_nothing(alice, bob, change):
    counted = []
    real = renderer.render_fragment

    def spy(name, ctx, oob=False):
        counted.append(name)
        return real(name, ctx, oob)

    match = started_werewolf(alice, [bob])
    snapshot = renderer.load(match.table_id)
    audience = snapshot.audience(bob, "en")
    first = renderer.fragments_for(snapshot, audience)
    again = renderer.load(match.table_id)
    again.match.version += 1  # a new version: another seat's move that bob cannot see
    change(again.match)
    again.key = renderer._key(again.table, again.seats, again.match, again.chat, again.events)
    import unittest.mock

    with unittest.mock.patch.object(renderer, "render_fragment", spy):
        second = renderer.fragments_for(again, audience)
    return first, second, counted


async def test_a_version_that_changes_nothing_a_seat_sees_renders_nothing_yet_its_status_is_new(alice, bob):
    """Even ``#status`` is reused: only the version it carries is written in."""
    first, second, rendered = await _renders_of_a_version_that_changes_nothing(alice, bob, lambda m: None)
    assert rendered == []
    assert first["status"] != second["status"] and 'data-version="1"' in second["status"]
    assert {k: v for k, v in first.items() if k != "status"} == {k: v for k, v in second.items() if k != "status"}


async def test_a_change_a_seat_can_see_is_rendered_again(alice, bob):
    def reveal_the_commitment(match):
        match.deal_commitment = "f" * 64

    _, second, rendered = await _renders_of_a_version_that_changes_nothing(alice, bob, reveal_the_commitment)
    assert "log" in rendered and "f" * 64 in second["log"]


async def test_a_process_beats_for_all_its_sockets_in_one_query(settings, monkeypatch, alice, bob, charlie):
    """Presence (tables.presence) costs one query a period per process, not one write per socket."""
    from tables import hub as hub_module
    from tables.models import Seat

    settings.PRESENCE_HEARTBEAT_S = 0.2
    match = await start_werewolf(alice, [bob])
    token = match.table.token
    tabs = [(await connect(token, user))[0] for user in (alice, bob, alice, charlie)]
    for tab in tabs:
        await receive_html(tab)
    assert hub_module.hub.present()[match.table_id] == {alice.pk, bob.pk, charlie.pk}

    @database_sync_to_async
    def seen():
        return dict(Seat.objects.filter(table_id=match.table_id, user__isnull=False).values_list("user_id", "seen_at"))

    from tables import presence

    calls = []
    many = presence.heartbeat_many
    monkeypatch.setattr(presence, "heartbeat_many", lambda present, *a: calls.append(present) or many(present, *a))
    before = await seen()
    await asyncio.sleep(0.5)
    assert 1 <= len(calls) <= 3, "a call a period"
    assert calls[0][match.table_id] == {alice.pk, bob.pk, charlie.pk}, "for every socket at once"
    after = await seen()
    assert after[alice.pk] > before[alice.pk] and after[bob.pk] > before[bob.pk]
    for tab in tabs:
        await tab.disconnect()
    assert match.table_id not in hub_module.hub.present()


async def test_a_sessions_tabs_share_one_frame_limit_on_the_cache(settings, alice, bob, one_rate_window):
    """Frames per session (shabneshin.ratelimit, Django's cache): three tabs of one browser, each
    within its own socket's budget, are limited together; another player is not."""
    from django.core.cache import cache

    from tests.platform.sockets import session_cookie

    await database_sync_to_async(cache.clear)()
    settings.RATE_FRAMES_PER_SESSION_10S = 10
    match = await start_werewolf(alice, [bob])
    token = match.table.token
    key = await session_cookie(alice)
    tabs = [(await connect(token, session=key))[0] for _ in range(3)]
    bob_tab, _, _ = await connect(token, bob)
    for tab in (*tabs, bob_tab):
        await receive_html(tab)
    for tab in tabs:
        for _ in range(5):
            await tab.send_to(text_data="not json")
    per_tab = [await drain(tab) for tab in tabs]
    replies = [html for said in per_tab for html in said]
    assert sum("not understood" in r for r in replies) == 10, "ten frames answered, five dropped"
    told = [sum("too fast" in r for r in said) for said in per_tab]
    assert 1 <= sum(told) and max(told) == 1, "a tab that had frames dropped is told once"
    await bob_tab.send_to(text_data="not json")
    bob_says = "".join(await drain(bob_tab))
    assert "not understood" in bob_says and "too fast" not in bob_says, "another session keeps its own limit"
    for tab in (*tabs, bob_tab):
        await tab.disconnect()


def test_a_log_entry_that_names_a_seat_is_rendered_for_that_seat_and_shared_by_the_others():
    """A public entry that names seat 2 speaks to seat 2 in its own words; every other seat reads
    what a spectator reads (one rendering shared by all of them)."""
    from django.utils import translation

    names = ["Afsaneh", "Bahram", "Chista", "Dara", "Elham"]
    entry = {"kind": "night_pick", "round": 1, "seat": 2, "target": 3, "to": None}
    tpl = {part: [f"games/werewolf/_{part}.html", f"tables/_{part}.html"] for part in renderer.TEMPLATE_PARTS}

    def items(seat):
        view = {"log": [entry], "seat": seat, "over": False, "result": None}
        with translation.override("en"):
            return renderer.log_items("werewolf", view, names, seat, tpl)

    spectator, named, other = items(None), items(2), items(4)
    assert "you picked" in named[0] and "you picked" not in other[0]
    assert other == spectator
    assert other[0] is items(0)[0]  # the same rendering, not an equal one


def _log_items_of(slug, entry, seat, over=False, names=("Afsaneh", "Bahram", "Chista", "Dara", "Elham")):
    from django.utils import translation

    tpl = {part: [f"games/{slug}/_{part}.html", f"tables/_{part}.html"] for part in renderer.TEMPLATE_PARTS}
    view = {"log": [entry], "seat": seat, "over": over, "result": None}
    with translation.override("en"):
        return renderer.log_items(slug, view, list(names), seat, tpl)


def test_the_days_votes_naming_every_seat_are_rendered_once_for_all_of_them(monkeypatch):
    """The votes of a day name every seat, but their words are the same to each of them (the
    template never reads who is reading): one rendering, shared by the spectator and every seat."""
    renderer.clear_caches()
    rendered = []
    watching = renderer._render_watching_the_reader
    monkeypatch.setattr(renderer, "_render_watching_the_reader", lambda values: rendered.append(1) or watching(values))
    entry = {"kind": "votes_revealed", "votes": [[0, 1], [1, 2], [2, None], [3, 1], [4, 1]], "eliminated": 1}
    entry["role"] = "VILLAGER"
    items = [_log_items_of("werewolf", entry, seat)[0] for seat in (None, 0, 1, 2, 3, 4)]
    assert "Bahram was voted out" in items[0]
    assert all(item is items[0] for item in items), "one rendering, not equal ones"
    assert len(rendered) == 1


@pytest.mark.parametrize(
    ("slug", "entry", "own_words"),
    [
        # Werewolf's template says "you" by comparing the entry's seat with my_seat ...
        ("werewolf", {"kind": "night_pick", "round": 1, "seat": 2, "target": 3, "to": None}, "you picked"),
        # ... Night of the Mummy's with the view's seat.
        ("mummy", {"kind": "peek", "seat": 2, "slot": 0, "guest": "ANUBIS", "to": None}, "You peek"),
    ],
)
def test_a_public_entry_that_says_you_to_the_seat_it_names_is_that_seats_own(slug, entry, own_words):
    """Chista (seat 2) reads the entry about her in her own words; Elham (seat 4), whom it does not
    name, reads what a spectator reads."""
    renderer.clear_caches()
    spectator, chista, elham = (_log_items_of(slug, entry, seat)[0] for seat in (None, 2, 4))
    assert own_words in chista and own_words not in spectator
    assert elham is spectator


def test_once_the_game_is_over_a_role_card_says_you_only_to_its_owner():
    """The log is open to all once the game is over: Chista's role card says "Your role" to her
    alone; Elham, whom it does not name, reads what a spectator reads, one rendering for both."""
    renderer.clear_caches()
    entry = {"kind": "role_dealt", "seat": 2, "role": "SEER", "to": [2]}
    spectator, chista, elham = (_log_items_of("werewolf", entry, seat, over=True)[0] for seat in (None, 2, 4))
    assert "Your role" in chista and "Chista's role" in spectator
    assert elham is spectator


class _Arriving:
    """A socket at the moment it arrives at its table (tables/hub.py's view of a consumer)."""

    def __init__(self, user) -> None:
        self.scope, self.language, self.checked = {"user": user}, "en", 0

    def _acting_user(self):
        self.checked += 1
        return None


async def test_sockets_arriving_together_share_one_load_and_each_still_sees_only_its_seat(
    settings, monkeypatch, alice, bob, charlie
):
    """A restart reconnects every socket at once: those of a table that arrive before its
    arrivals' hop begins share one load of it; each is still rendered as its own audience."""
    from tables import hub as hub_module

    settings.DATABASE_WORK_ON_LOOP = False  # the hop queues on the worker thread, as with PostgreSQL
    match = await database_sync_to_async(started_werewolf)(alice, [bob])  # alice SEER at 0, bob VILLAGER at 1
    loads = []
    real_load = renderer.load
    monkeypatch.setattr(renderer, "load", lambda table_id: loads.append(table_id) or real_load(table_id))
    gate = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(gate.wait)(10))  # the worker is taken meanwhile
    await asyncio.sleep(0.05)
    sockets = [_Arriving(user) for user in (alice, bob, charlie)]
    arriving = [asyncio.ensure_future(hub_module.hub.arrive(match.table_id, s)) for s in sockets]
    await asyncio.sleep(0.05)
    gate.set()
    await busy
    seen = await asyncio.gather(*arriving)
    assert loads == [match.table_id], "one load for the three"
    html = ["".join(r.fragments.values()) for r in seen]
    assert "is a wolf" not in html[1] and "Seer" in html[0] and "Seer" not in html[1] and "Seer" not in html[2]
    assert [r.audience.seat for r in seen] == [0, 1, None]
    assert [s.checked for s in sockets] == [1, 1, 1], "each signed-in socket's first acting check"


async def test_a_socket_arriving_once_the_load_began_gets_a_load_of_its_own(settings, monkeypatch, alice, bob):
    """Sharing a load that began before a socket joined the table's group could show it the
    table as it was before a change whose message it never heard."""
    from tables import hub as hub_module

    settings.DATABASE_WORK_ON_LOOP = False
    match = await database_sync_to_async(started_werewolf)(alice, [bob])
    loading, proceed, loads = threading.Event(), threading.Event(), []
    real_load = renderer.load

    def slow_load(table_id):
        loads.append(table_id)
        if len(loads) == 1:
            loading.set()
            proceed.wait(10)
        return real_load(table_id)

    monkeypatch.setattr(renderer, "load", slow_load)
    first = asyncio.ensure_future(hub_module.hub.arrive(match.table_id, _Arriving(alice)))
    assert await asyncio.get_running_loop().run_in_executor(None, loading.wait, 10)
    late = asyncio.ensure_future(hub_module.hub.arrive(match.table_id, _Arriving(bob)))
    await asyncio.sleep(0.05)
    proceed.set()
    mine, theirs = await first, await late
    assert len(loads) == 2, "the late socket's table was loaded after it arrived"
    assert (mine.audience.seat, theirs.audience.seat) == (0, 1)


def _prime_a_pick(match_id):
    """Alice's night pick, as the moderator makes it: its snapshot primed in this process."""
    from tables import broadcast, moderator

    events = []
    real = broadcast.table_changed
    broadcast.table_changed = lambda token, version=0, event=None: events.append(event) or real(token, version, event)
    try:
        moderator.submit(match_id, 0, {"type": "pick", "target": 2}, 0)
    finally:
        broadcast.table_changed = real
    return events[-1]


async def test_a_moves_own_snapshot_is_rendered_on_the_loop_while_the_worker_is_busy(settings, monkeypatch, alice, bob):
    """With PostgreSQL the database work queues on Channels' one worker thread, where moves wait
    for their round trips. A move this process made left its snapshot primed: the table's sockets
    get it rendered at once, on the loop, without the worker and without reading the table. A
    change it did not make (no snapshot here) still waits for the worker, which loads it."""
    from tables import hub as hub_module

    settings.DATABASE_WORK_ON_LOOP = False
    match = await database_sync_to_async(started_werewolf)(alice, [bob])  # alice SEER at 0, bob VILLAGER at 1
    event = await database_sync_to_async(_prime_a_pick)(match.pk)
    loads = []
    real_load = renderer.load
    monkeypatch.setattr(renderer, "load", lambda table_id: loads.append(table_id) or real_load(table_id))
    sockets = [_Arriving(user) for user in (alice, bob)]
    for socket in sockets:
        hub_module.hub.join(match.table_id, socket)
    gate = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(gate.wait)(10))  # the worker is taken meanwhile
    try:
        await asyncio.sleep(0.05)
        mine = await asyncio.wait_for(hub_module.hub.rendered_for(match.table_id, event, sockets[0]), 5)
        theirs = await asyncio.wait_for(hub_module.hub.rendered_for(match.table_id, event, sockets[1]), 5)
        assert not busy.done() and loads == []
        assert (mine.audience.seat, theirs.audience.seat) == (0, 1)
        assert mine.snapshot.version == 1 and "is a wolf" in "".join(mine.fragments.values())
        assert "is a wolf" not in "".join(theirs.fragments.values())
        unheard = asyncio.ensure_future(hub_module.hub.rendered_for(match.table_id, "another-process", sockets[0]))
        await asyncio.sleep(0.2)
        assert not unheard.done(), "a change this process did not make waits for the worker"
    finally:
        gate.set()
        await busy
        for socket in sockets:
            hub_module.hub.leave(match.table_id, socket)
    assert (await unheard).snapshot.version == 1 and loads == [match.table_id]
