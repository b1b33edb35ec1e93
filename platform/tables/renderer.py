"""One renderer per table version (ARCHITECTURE §4).

On "this table changed", a server process loads the table **once** (:func:`load`: the table with
its match, the seats with their players, the recent chat: three queries), whatever the number of
its sockets at that table. Each distinct audience (each seat; each kind of onlooker) then gets its
context and fragments computed once (:func:`fragments_for`), and every socket of that audience
reuses them: two tabs of one seat, all the spectators of one language.

What keeps this safe:
- An audience is derived from the snapshot's seats and the socket's own user, never from the
  browser; a seat's fragments are cached under that seat's number and handed only to sockets whose
  user sits there.
- The cache key holds everything a fragment depends on (the match version, the table's and the
  seats' rows, the chat), so it stays correct across any number of processes: a process only ever
  serves what it rendered from the database itself.
- The CSRF token, the one per-browser value in a fragment, is a placeholder in the cache and
  filled in per socket (:func:`with_csrf`), so one browser's token never reaches another.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, cached_property, partial
from typing import Any

from django.dispatch import receiver
from django.template import Context, defaultfilters
from django.template.loader import get_template, render_to_string, select_template
from django.utils import dateformat, translation
from django.utils.autoreload import file_changed
from django.utils.safestring import mark_safe

from games.base import TIMEOUT, visible_log
from history import ratings
from moderation.models import Block
from shabneshin import localize
from shabneshin.precompiled import run_together
from tables import actions_view, board_view, chat, decisions, left_seats, queries, seat_ring
from tables.fingerprint import fingerprint
from tables.lru import LRU as _LRU
from tables.models import ChatMessage, Match, Seat, Table, TableEvent

FRAGMENTS = ("status", "seats", "board", "actions", "log", "chat", "errors")
TEMPLATE_PARTS = (*FRAGMENTS, "action_label", "actions_note", "log_entry", "result", "seat_badge")
CSRF_PLACEHOLDER = "__shabneshin_csrf_token__"
VERSION_PLACEHOLDER = "__shabneshin_table_version__"
# What #status shows of the moment, filled into its shared rendering (renderer._status): whom the
# table waits for (joined as tables/_status.html joins them), and the viewer's own deadline.
AWAITING_PLACEHOLDER = mark_safe("__shabneshin_awaiting__")
DEADLINE_EPOCH_PLACEHOLDER = "__shabneshin_deadline_epoch__"
DEADLINE_ISO_PLACEHOLDER = "__shabneshin_deadline_iso__"
_STATUS_PLACEHOLDERS = re.compile(
    "|".join(
        re.escape(p)
        for p in (VERSION_PLACEHOLDER, AWAITING_PLACEHOLDER, DEADLINE_EPOCH_PLACEHOLDER, DEADLINE_ISO_PLACEHOLDER)
    )
)
ITEMS_PLACEHOLDER = mark_safe("__shabneshin_items__")  # where a wrapper's rows or log items go

SNAPSHOTS_KEPT = 256
# A move adds about twenty renders to keep (each audience's fragments and inputs, a board, a
# status, rows, log items): a busy night's tables each move every second or two, and a table's
# unchanged parts are found again at its next move only if they are still kept then. 2,048
# entries lasted about a second at 100 tables (the bench rendered 35 templates a move, not 18;
# 16,384 entries rendered no fewer than 8,192). Each entry is a few KiB at most, mostly strings
# shared with other entries (bench: 83-99 KiB of RSS a socket after every table's first render).
RENDERS_KEPT = 8192
LOG_ITEMS_KEPT = 50_000
LOG_VIEWERS_KEPT = 8192  # each viewer's last list of log items, with its log's encoding


@dataclass(frozen=True)
class Onlooker:
    """What a fragment may know of the socket's user: whether they are signed in, nothing else."""

    is_authenticated: bool


@dataclass(frozen=True)
class Audience:
    """Whose eyes a rendering is for. Two sockets with the same audience see the same HTML."""

    seat: int | None
    is_host: bool
    signed_in: bool
    language: str
    muted: frozenset[int] = frozenset()  # authors whose chat lines this user chose not to see
    # The host removed this user from the table (a kick before the start): they may not sit
    # again (tables.seating), so their seat ring offers no seat, and says why.
    removed: bool = False
    # The host blocked this user (moderation.Block): they may not sit at the host's tables
    # (tables.seating), so their seat ring offers no seat either, and says why.
    blocked: bool = False
    # This user left the running game (tables.moderator.leave_game): they watch it as a spectator
    # (``seat`` is None), told that a bot plays their seat, until it ends.
    left: bool = False


@dataclass
class Snapshot:
    """A table as one process read it for one change: enough to render every audience."""

    table: Table
    seats: list[Seat]
    match: Match | None
    chat: list[ChatMessage]
    key: tuple[Any, ...] = field(default=())
    mutes: dict[int, frozenset[int]] = field(default_factory=dict)  # muter -> authors muted here
    events: list[TableEvent] = field(default_factory=list)  # the table's own log (tables.events)
    blocked: frozenset[int] = frozenset()  # whom the host blocked, read only while the table is open
    _names: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def version(self) -> int:
        return self.match.version if self.match else 0

    @cached_property
    def key_without_match(self) -> tuple[Any, ...]:
        """The key's table, seats, chat and events parts: the match part alone holds the version."""
        return _key(self.table, self.seats, None, self.chat, self.events)

    @cached_property
    def match_part(self) -> str:
        """The match's fields but the per-move ones (:func:`_match_part`), encoded once per snapshot."""
        return _match_part(self.match)

    def names(self) -> list[str]:
        """Each seat's display name in the active language, worked out once per snapshot and
        language (every audience of a move reads the same names)."""
        language = translation.get_language()
        names = self._names.get(language)
        if names is None:
            names = self._names[language] = seat_names_of(self.seats)
        return names

    @cached_property
    def left_seats(self) -> set[int]:
        """The seats whose players left the game (tables.moderator.leave_game)."""
        return {s.number for s in self.seats if s.left_game}

    @cached_property
    def leave_counts(self) -> bool:
        """Whether someone left the match and it counts for the ratings, so that each leave is a
        loss (history.ratings.leave_counts): a finished game's result shows it, and the host may not
        end a running one. Asked once per snapshot, whichever audiences read it; it reads the moves
        (one query) only when someone left a rated game of people."""
        return self.match is not None and ratings.leave_counts(self.match, self.seats)

    def seat_of(self, user: Any) -> int | None:
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        return next((s.number for s in self.seats if s.user_id == user.pk), None)

    def left_the_game(self, seat: int | None) -> bool:
        """Whether the player of ``seat`` left the match, which is still being played."""
        playing = self.match is not None and self.match.status == Match.Status.PLAYING
        return playing and seat in self.left_seats

    def audience(self, user: Any, language: str) -> Audience:
        signed_in = bool(user is not None and getattr(user, "is_authenticated", False))
        seat = self.seat_of(user)
        left = self.left_the_game(seat)
        return Audience(
            seat=None if left else seat,
            is_host=signed_in and self.table.host_id == user.pk,
            signed_in=signed_in,
            language=language,
            muted=self.mutes.get(user.pk, frozenset()) if signed_in else frozenset(),
            removed=signed_in and self.removed(user.pk),
            blocked=signed_in and user.pk in self.blocked,
            left=left,
        )

    def removed(self, user_id: int) -> bool:
        """Whether the host removed this player from the table: read from the table's own log,
        which the snapshot holds anyway (no query)."""
        return any(e.kind == TableEvent.Kind.KICK and e.target_id == user_id for e in self.events)


def _key(
    table: Table, seats: list[Seat], match: Match | None, messages: list[ChatMessage], events: list[TableEvent]
) -> tuple[Any, ...]:
    return (
        table.pk,
        table.status,
        table.updated_at,
        table.next_table_id,
        table.host_id,
        tuple((e.pk, e.created_at) for e in events),
        (match.pk, match.version, match.status, match.paused_at, match.extended_window, match.window_version)
        if match
        else None,
        tuple((s.number, s.user_id, s.is_bot, s.autopilot, s.left_game, str(s.user) if s.user else "") for s in seats),
        tuple((m.pk, m.text, m.key, getattr(m, "is_hidden", False)) for m in messages),
    )


def load(table_id: int) -> Snapshot | None:
    """The table with its match, and its seats, in two queries (one round trip on PostgreSQL: a
    process that did not make the move loads it on Channels' one worker thread, where each trip
    is a wait); the recent chat when it changed (:func:`tables.chat.recent_with_mutes`), the
    table's own log when it grew (:func:`_events_of`)."""
    found, seats = run_together(  # precompiled (tables.queries): the ORM's compiling was most of their cost
        queries.TABLE_WITH_MATCH.prepare(pk=table_id), queries.SEATS_WITH_USERS.prepare(table_id=table_id)
    )
    if not found:
        return None
    table = found[0]
    try:
        match: Match | None = table.match
    except Match.DoesNotExist:
        match = None
    if match is not None:
        match.table = table  # the reverse side is known; don't let a template query it again
    return _snapshot_of(table, seats, match)


def _snapshot_of(table: Table, seats: list[Seat], match: Match | None) -> Snapshot:
    events = _events_of(table)
    messages, mutes = chat.recent_with_mutes(table.pk)
    key = _key(table, seats, match, messages, events)
    return Snapshot(table, seats, match, messages, key, mutes, events, _blocked_by_host(table))


def _blocked_by_host(table: Table) -> frozenset[int]:
    """Whom the table's host blocked (moderation.Block), who may not sit (tables.seating): one
    query of one indexed column, and only while the table is open, the only time a seat is
    offered (a move of a running game reads nothing more)."""
    if table.status != Table.Status.OPEN:
        return frozenset()
    return frozenset(Block.objects.filter(blocker_id=table.host_id).values_list("blocked_id", flat=True))


def prime(match: Match, seats: list[Seat], event: str) -> None:
    """The snapshot for ``event`` from what the moderator's move read and wrote, once it committed:
    this process's sockets then render the move without reading the table, its match and its
    seats again (two queries a move, and on PostgreSQL two round trips on the one database
    thread). Another process still loads its own.

    It is what a load after the commit would read: the match is the row just written, under its
    lock; ``seats`` (with their users) were read under the same lock, and during a game every
    change to a seat row is made under that lock too (the autopilot, a seat handed to a bot), so
    none can fall between. The table row and its own log can change without the match's lock (a
    host handing the table over): such a change sends its own message, and a snapshot primed
    before it can at worst show the older host menu until the next version, never another seat's
    view (who sits where does not change during a game). Chat is read now, after the commit.

    Not for a finished game (its page reads the ratings, written after the commit); the clock may
    apply several moves in one transaction, and each of their messages gets the state committed."""
    if match.status != Match.Status.PLAYING:
        return
    table = match.table
    match.table = table  # the reverse side is known; don't let a template query it again
    _snapshots.put((table.pk, event), _snapshot_of(table, seats, match))


def _events_of(table: Table) -> list[TableEvent]:
    """The table's own log. Events are only appended and the table row counts them, so this
    process reads them again only when the count moved."""
    if table.event_count == 0:
        return []
    key = (table.pk, table.created_at)
    cached = _events.get(key)
    if cached is not None and len(cached) == table.event_count:
        return cached  # type: ignore[no-any-return]
    events = list(TableEvent.objects.filter(table_id=table.pk).order_by("pk"))
    _events.put(key, events)
    return events


_snapshots = _LRU(SNAPSHOTS_KEPT)
_renders = _LRU(RENDERS_KEPT)
_log_items = _LRU(LOG_ITEMS_KEPT)
_events = _LRU(SNAPSHOTS_KEPT)
_log_lists = _LRU(LOG_VIEWERS_KEPT)  # a viewer's last list of log items, with its log's encoding
_seat_rows = _LRU(RENDERS_KEPT)  # one seat's row of the ring per distinct inputs (tables.seat_ring)


def snapshot_for_event(table_id: int, event: str | None) -> Snapshot | None:
    """The snapshot for one group message: the first socket of this process to hear ``event``
    loads it, the others reuse it. Without an event (a connect, an answer to a stale move), a
    fresh load."""
    if event is None:
        return load(table_id)
    cached = _snapshots.get((table_id, event))
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    snapshot = load(table_id)
    if snapshot is not None:
        _snapshots.put((table_id, event), snapshot)
    return snapshot


def primed(table_id: int, event: str) -> Snapshot | None:
    """The snapshot this process already holds for ``event`` (the moderator's, :func:`prime`, or
    one loaded for an earlier socket): rendering it reads no database."""
    return _snapshots.get((table_id, event))  # type: ignore[no-any-return]


def clear_caches() -> None:
    _snapshots.clear()
    _renders.clear()
    _log_items.clear()
    _events.clear()
    _seat_rows.clear()
    _log_lists.clear()
    chat.clear_kept()


# --- context ---------------------------------------------------------------------------------------


def seat_names_of(seats: list[Seat]) -> list[str]:
    from tables.names import display_names  # the naming rules live in their own module

    return display_names(seats)


def build_context(snapshot: Snapshot, audience: Audience, error: str | None = None) -> dict[str, Any]:
    """Everything a fragment receives, built from one seat's *view* (never the state)."""
    table, seats, match = snapshot.table, snapshot.seats, snapshot.match
    seat = audience.seat
    slug = table.game
    names = snapshot.names()
    ctx: dict[str, Any] = {
        "table": table,
        "user": Onlooker(audience.signed_in),
        "game": table.engine,
        "slug": slug,
        "tpl": {part: [f"games/{slug}/_{part}.html", f"tables/_{part}.html"] for part in TEMPLATE_PARTS},
        "seats": seats,
        "names": names,
        "my_seat": seat,
        "on_autopilot": any(s.number == seat and s.autopilot for s in seats),
        "is_host": audience.is_host,
        "match": match,
        "view": None,
        "actions": [],
        "version": snapshot.version,
        "table_version": snapshot.version,
        "can_chat": False,
        "chat_messages": snapshot.chat,
        "muted_ids": audience.muted,
        "removed": audience.removed,
        "blocked": audience.blocked,
        "left_game": audience.left,
        "may_leave": False,
        "me_id": next((s.user_id for s in seats if s.number == seat), None),
        "error": error,
        "deadline": None,
        "my_turn": False,
        "csrf_token": CSRF_PLACEHOLDER,
        "paused_by": None,
        "log_items": _with_events(snapshot, seat, []),
    }
    if match is not None:
        engine = match.engine
        view = engine.view(match.state, seat)
        legal = engine.legal_actions(match.state, seat) if seat is not None else []
        if match.status != Match.Status.PLAYING:
            legal = []
            if not view.get("over"):  # aborted: nobody's turn, nobody awaited any more
                view = {**view, "awaiting": [], "turn_seat": None}
        ctx["view"] = view
        ctx["actions"] = [{"action": a, "json": json.dumps(a, sort_keys=True)} for a in legal if a != TIMEOUT]
        ctx["my_turn"] = bool(legal)
        # "Leave the game" (tables.moderator.leave_game): for a seat still in the running game.
        playing = match.status == Match.Status.PLAYING
        ctx["may_leave"] = seat is not None and playing and not engine.is_out(match.state, seat)
        # Action forms carry the version at which this seat's decision opened, so another seat's
        # move does not make them stale (decisions.py).
        ctx["version"] = decisions.opened_at(match, seat)
        ctx["deadline"] = decisions.own_deadline(match, seat)
        if ctx["deadline"] is not None:  # as #status shows it (tables/_status.html)
            ctx["deadline_epoch"] = dateformat.format(ctx["deadline"], "U")
            ctx["deadline_iso"] = ctx["deadline"].isoformat()
        bot_for = {s.number for s in seats if s.autopilot}
        ctx["awaiting_names"] = [left_seats.awaited_name(names[s], s in bot_for) for s in view.get("awaiting", [])]
        if view.get("result"):
            left = snapshot.left_seats
            ctx["result_rows"] = left_seats.result_rows(view["result"], names, left, snapshot.leave_counts)
            ctx["result_names"] = left_seats.result_names(names, left)
            ctx["you_won"] = seat is not None and any(r["winner"] for r in ctx["result_rows"] if r["seat"] == seat)
        ctx["log_json"] = fingerprint(view.get("log", []))
        items = log_items(slug, view, names, seat, ctx["tpl"], whole=ctx["log_json"])
        ctx["log_items"] = _with_events(snapshot, seat, items, over=bool(view.get("over")))
        if match.paused_at is not None:
            ctx["paused_by"] = next((names[s.number] for s in seats if s.user_id == match.paused_by_id), "?")
    awaiting = set(ctx["view"]["awaiting"]) if ctx["view"] else set()
    ctx["seat_rows"] = [
        {"seat": s, "number": s.number, "name": names[s.number], "awaited": s.number in awaiting} for s in seats
    ]
    ctx["seats_full"] = all(s.user_id or s.is_bot for s in seats)
    # The ring's rows, rendered (or reused) only when #seats itself is rendered.
    ctx["seat_html"] = ring_rows(
        slug=slug,
        table=table,
        seat_rows=ctx["seat_rows"],
        view=ctx["view"],
        my_seat=seat,
        me_id=ctx["me_id"],
        signed_in=audience.signed_in,
        is_host=audience.is_host,
        onlooker=ctx["user"],
        removed=audience.removed or audience.blocked,
    )
    if audience.is_host and table.status in (Table.Status.OPEN, Table.Status.PLAYING):
        ctx["host_menu"] = host_menu(snapshot, ctx["seat_rows"])
    ctx["can_chat"] = seat is not None and (
        match is None or match.status != Match.Status.PLAYING or bool(ctx["view"].get("can_chat", True))
    )
    return ctx


def ring_rows(**viewer: Any) -> Any:
    """The ``seat_html`` of a context: a callable (templates call it when they read it) giving
    each seat's row of the ring (:func:`tables.seat_ring.rows_html`, given ``viewer``'s keyword
    arguments), so a reused ``#seats`` costs nothing."""
    return partial(seat_ring.rows_html, csrf_token=CSRF_PLACEHOLDER, cache=_seat_rows, **viewer)


def host_menu(snapshot: Snapshot, seat_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What the host's menu offers now (tables.host); only the host's audience gets it."""
    table, match = snapshot.table, snapshot.match
    others = [
        r for r in seat_rows if r["seat"].user_id and r["seat"].user_id != table.host_id and not r["seat"].left_game
    ]
    menu: dict[str, Any] = {"others": others, "open": table.status == Table.Status.OPEN}
    if match is not None and match.status == Match.Status.PLAYING:
        menu["playing"] = True
        menu["paused"] = match.paused_at is not None
        menu["can_extend"] = not decisions.is_extended(match) and bool(match.engine.awaiting(match.state))
        menu["to_bot"] = [r for r in others if not r["seat"].autopilot]
        # Nobody else plays: a practice game the host may end, but not a rated one someone left
        # (the rule tables.moderator.end_practice enforces, from the same function).
        menu["can_end"] = not menu["to_bot"] and not snapshot.leave_counts
        menu["version"] = match.version
    return menu


# --- the log, one entry at a time -------------------------------------------------------------------


def _with_events(snapshot: Snapshot, seat: int | None, items: list[str], over: bool = False) -> list[str]:
    """The game's log items with the table's own events put at their moments: an event written
    when the game's log had ``log_at`` entries follows those of them this viewer may read (all of
    them once the game is ``over`` and its log is revealed)."""
    if not snapshot.events:
        return items
    match = snapshot.match
    full_log = match.state.get("log", []) if match is not None else []
    out, taken = [], 0
    for event in snapshot.events:
        at = min(event.log_at, len(full_log))
        position = at if over else len(visible_log(full_log[:at], seat))
        out.extend(items[taken:position])
        taken = max(taken, position)
        out.append(event_item(event))
    out.extend(items[taken:])
    return out


def event_item(event: TableEvent) -> str:
    """One event of the table's log as its ``<li>``, rendered once per language (events never change)."""
    key = ("event", event.pk, event.created_at, translation.get_language())
    item = _log_items.get(key)
    if item is None:
        item = mark_safe(  # noqa: S308 - rendered by our own autoescaping template
            render_to_string("tables/_table_event.html", {"event": event, "p": event.params})
        )
        _log_items.put(key, item)
    return item  # type: ignore[no-any-return]


def log_view(view: dict[str, Any]) -> dict[str, Any]:
    """All that a log entry's template may read of the view (templates/games/CONTRACT.md): whether
    the game is over and its result, the viewer's seat, and LARRY's seat in Inside Job. An entry
    never changes once written, so with these its rendering is known, and cached."""
    public = view.get("public") or {}
    return {
        "over": view.get("over"),
        "seat": view.get("seat"),
        "result": view.get("result"),
        "public": {"larry": public.get("larry")} if "larry" in public else {},
    }


def log_items(
    slug: str,
    view: dict[str, Any],
    names: list[str],
    seat: int | None,
    tpl: dict[str, list[str]],
    whole: str | None = None,
) -> list[str]:
    """Each log entry this viewer may read, rendered as its ``<li>``: once per entry, viewer, language
    and game state that it depends on; a move renders only the entries it added.

    The log is encoded once, as a whole (tables.fingerprint). The same encoding as before gives
    back the same list; an encoding that extends the last one this viewer saw (its entries, then
    more: :func:`_extends`) reuses those items and looks at the new entries alone."""
    small_view = log_view(view)
    fixed = (slug, translation.get_language(), seat, tuple(names), fingerprint(small_view))
    entries = view.get("log", [])
    if whole is None:
        whole = fingerprint(entries)
    last = _log_lists.get(fixed)
    out: list[str] = []
    if last is not None:
        last_whole, last_items = last
        if whole == last_whole:
            return list(last_items)
        if len(last_items) < len(entries) and _extends(whole, last_whole):
            out = list(last_items)
    onlooker_view = {**small_view, "seat": None}
    shared = (slug, fixed[1], fixed[3], tpl, names)
    own = (seat, small_view, fixed[4])
    onlooker = (None, onlooker_view, fingerprint(onlooker_view))
    for entry in entries[len(out) :]:
        entry_key = fingerprint(entry)
        if seat is None or not _names_seat(entry, seat):
            out.append(_log_item(shared, entry, entry_key, onlooker)[0])
        else:
            out.append(_named_seats_log_item(shared, entry, entry_key, own, onlooker))
    _log_lists.put(fixed, (whole, tuple(out)))
    return out


def _extends(whole: bytes | str, last: bytes | str) -> bool:
    """Whether the log encoded as ``whole`` starts with the entries of the log encoded as ``last``.
    In ``marshal``'s encoding a list is its type and length (five bytes), then its items one after
    the other, each encoding telling where it ends; so items that start with the last items' bytes
    start with those very entries. In JSON, an array's entries follow each other whole, so a common
    prefix up to an entry's end is a common prefix of entries."""
    if isinstance(whole, bytes) and isinstance(last, bytes):
        return whole[5:].startswith(last[5:])
    if isinstance(whole, str) and isinstance(last, str):
        return last != "[]" and whole.startswith(last[:-1] + ", ")
    return False


def _log_item(
    shared: tuple[Any, ...], entry: dict[str, Any], entry_key: Any, reader_of: tuple[Any, ...]
) -> tuple[str, bool]:
    """One entry's ``<li>`` for ``reader_of`` (a reader's seat, None for an onlooker, with the
    small view it gets and that view's encoding), rendered once, and whether its rendering read
    who the reader is (``my_seat`` or ``view.seat``: :class:`_ReaderWatch`)."""
    key = _log_item_key(shared, entry_key, reader_of)
    found = _log_items.get(key)
    if found is None:
        slug, _, _, tpl, names = shared
        reader, reader_view, _ = reader_of
        values = {"entry": entry, "names": names, "my_seat": reader, "view": reader_view, "tpl": tpl, "slug": slug}
        html, reads_reader = _render_watching_the_reader(values)
        found = (mark_safe(html), reads_reader)  # noqa: S308 - rendered by our own autoescaping template
        _log_items.put(key, found)
    return found  # type: ignore[no-any-return]


def _log_item_key(shared: tuple[Any, ...], entry_key: Any, reader_of: tuple[Any, ...]) -> tuple[Any, ...]:
    slug, language, names_key, _, _ = shared
    return (slug, language, reader_of[0], names_key, reader_of[2], entry_key)


def _named_seats_log_item(
    shared: tuple[Any, ...], entry: dict[str, Any], entry_key: Any, own: tuple[Any, ...], onlooker: tuple[Any, ...]
) -> str:
    """The ``<li>`` of an entry that names the viewer's seat (:func:`_names_seat`, its ``to``
    included). It speaks to that seat in words of its own only if its rendering reads who the
    reader is ("you picked", "Your role"); else it is the onlooker's rendering, which every seat
    that may read the entry shares (the votes of a day, which name every seat, are rendered once).
    Whichever of the two renderings comes first tells: the seat's own, if it did not read the
    reader, is also the onlooker's.

    No secret rides on this: a viewer's list holds only the entries its view holds, and an item is
    made of its entry, the names and the view's public part.
    ``test_cached_log_entries_render_as_the_whole_context_would`` checks every seat."""
    onlookers_key = _log_item_key(shared, entry_key, onlooker)
    seen = _log_items.get(onlookers_key)
    if seen is not None and not seen[1]:
        return seen[0]  # type: ignore[no-any-return]
    html, reads_reader = _log_item(shared, entry, entry_key, own)
    if not reads_reader and seen is None:
        _log_items.put(onlookers_key, (html, False))
    return html


def _names_seat(value: Any, seat: int) -> bool:
    """Whether ``seat`` appears anywhere in a log entry: as a number, or a key or string of its
    digits. An entry that does not name the viewer's seat (its ``to`` included) reads the same to
    that seat as to a spectator, even where its template says "you" to the seat it names
    (``test_cached_log_entries_render_as_the_whole_context_would`` checks every seat). Too wide a
    match only costs a rendering of its own, and only for an entry whose template reads who its
    reader is (:func:`_log_item`)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value == seat
    if isinstance(value, str):
        return value == str(seat)
    if isinstance(value, dict):
        return any(_names_seat(k, seat) or _names_seat(v, seat) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_names_seat(v, seat) for v in value)
    return False


class _ReaderWatch:
    """Whether a rendering read who its reader is: ``my_seat`` from the context, or ``seat`` from
    its ``view`` (:class:`_WatchedView`), or read the context or the view whole (conservatively
    counted as reading it)."""

    def __init__(self) -> None:
        self.read = False

    def note(self, key: str | None, reader_key: str) -> None:
        """A read of ``key`` (None: of everything), where ``reader_key`` names the reader."""
        if key is None or key == reader_key:
            self.read = True


class _WatchedContext(Context):
    """A template context that notes reads of ``my_seat`` (and a read of everything: a flatten, an
    iteration) in its :class:`_ReaderWatch`; copies made for an include share it."""

    watch: _ReaderWatch

    def __getitem__(self, key: str) -> Any:
        self.watch.note(key, "my_seat")
        return super().__getitem__(key)

    def get(self, key: str, otherwise: Any = None) -> Any:
        self.watch.note(key, "my_seat")
        return super().get(key, otherwise)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.watch.note(key, "my_seat")
        return super().setdefault(key, default)

    def flatten(self) -> dict[str, Any]:
        self.watch.note(None, "my_seat")
        return super().flatten()

    def __iter__(self) -> Any:
        self.watch.note(None, "my_seat")
        return super().__iter__()


class _WatchedView(dict[str, Any]):
    """A log entry's small view (:func:`log_view`) that notes in its :class:`_ReaderWatch` a read
    of ``seat``, or of all its values at once."""

    def __init__(self, view: dict[str, Any], watch: _ReaderWatch) -> None:
        super().__init__(view)
        self.watch = watch

    def __getitem__(self, key: str) -> Any:
        self.watch.note(key, "seat")
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.watch.note(key, "seat")
        return super().get(key, default)

    def __iter__(self) -> Any:  # also makes dict(view) and {**view} go through __getitem__
        self.watch.note(None, "seat")
        return super().__iter__()

    def items(self) -> Any:
        self.watch.note(None, "seat")
        return super().items()

    def values(self) -> Any:
        self.watch.note(None, "seat")
        return super().values()

    def copy(self) -> dict[str, Any]:
        self.watch.note(None, "seat")
        return super().copy()

    def __repr__(self) -> str:
        self.watch.note(None, "seat")
        return super().__repr__()


def _render_watching_the_reader(values: dict[str, Any]) -> tuple[str, bool]:
    """``tables/_log_item.html`` rendered with ``values``, as render_to_string would, and whether
    the rendering read who the reader is."""
    template = get_template("tables/_log_item.html")
    watch = _ReaderWatch()
    view = _WatchedView(values["view"], watch)
    context = _WatchedContext({**values, "view": view}, autoescape=template.backend.engine.autoescape)
    context.watch = watch
    return template.template.render(context), watch.read


# --- fragments -------------------------------------------------------------------------------------


def render_fragment(name: str, ctx: dict[str, Any], oob: bool = False) -> str:
    return selected_template(tuple(ctx["tpl"][name])).render({**ctx, "oob": oob})  # type: ignore[no-any-return]


@cache
def selected_template(names: tuple[str, ...]) -> Any:
    """The first of ``names`` that exists (a game's own fragment, or the platform's), looked up
    once: for a game without its own, the loader raised and caught TemplateDoesNotExist at every
    rendering."""
    return select_template(list(names))


@receiver(file_changed)
def _forget_templates(file_path: Any, **_: Any) -> None:
    """The development server's template reload: a template added or removed changes the choice."""
    if str(file_path).endswith(".html"):
        selected_template.cache_clear()
        _generic.cache_clear()
        seat_ring.badge_template.cache_clear()


# Match fields that change with every move but that no fragment reads except through the view,
# the legal actions, the version and the deadline (all part of the memo key), or in ``#status``.
# ``window_version`` moves whenever a decision opens (each turn of a sequential phase): only the
# moderator reads it (a host's extension must not be stale).
_PER_MOVE_FIELDS = frozenset(
    {
        "state",
        "version",
        "decision_versions",
        "last_move_at",
        "next_deadline",
        "window_started_at",
        "window_version",
        "result",
    }
)


def _match_part(match: Match | None) -> str:
    """Every other field of the match: a field added later (a pause, say) reaches the key by itself."""
    if match is None:
        return ""
    fields = {
        f.attname: getattr(match, f.attname) for f in Match._meta.concrete_fields if f.name not in _PER_MOVE_FIELDS
    }
    return json.dumps(fields, sort_keys=True, default=str)


def _inputs_key(snapshot: Snapshot, audience: Audience, ctx: dict[str, Any]) -> tuple[Any, ...]:
    """What the fragments other than ``#status`` are made of, for this audience: this seat's view
    and legal actions (never the state), the version its forms carry (if it has any), its deadline,
    and the table's, seats', chat's and table events' rows. A move that leaves all of it unchanged
    (another seat's secret night pick, say) needs no new rendering for this audience."""
    return (
        audience,
        snapshot.key_without_match,
        snapshot.match_part,
        # The view, its log (often most of it) in the encoding log_items made of it already.
        fingerprint(_without_log(ctx["view"])),
        ctx.get("log_json"),
        tuple(a["json"] for a in ctx["actions"]),
        ctx["version"] if ctx["actions"] else None,  # only forms carry it
        ctx["deadline"],
        ctx["on_autopilot"],
    )


def _without_log(view: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if view is None else {k: v for k, v in view.items() if k != "log"}


def _log_key(ctx: dict[str, Any]) -> tuple[Any, ...]:
    match = ctx["match"]
    return (tuple(ctx.get("log_items", ())), match.deal_commitment if match else "")


def fragments_for(snapshot: Snapshot, audience: Audience) -> dict[str, str]:
    """Every fragment of this audience, as out-of-band swaps, rendered once per snapshot key.
    ``#errors`` is rendered empty; a socket's own error goes through :func:`error_fragment`.

    ``#status`` carries the table's version, so it is rendered for every version; the others are
    reused from the last version whose inputs for this audience were the same (:func:`_inputs_key`)."""
    key = (snapshot.key, audience)
    cached = _renders.get(key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    with translation.override(audience.language):
        ctx = build_context(snapshot, audience)
        inputs = ("inputs", _inputs_key(snapshot, audience, ctx))
        rest = _renders.get(inputs)
        if rest is None:
            # The chat depends on its messages and on who may write: moves mostly change neither.
            # A bot's line names seats, so the seats' names are among its inputs.
            chat_key = ("chat", snapshot.key[0], snapshot.key[-1], snapshot.key[-2], audience, ctx["can_chat"])
            # The log is its entries (each rendered once, for this viewer) and the deal's commitment.
            log_key = ("log", ctx["tpl"]["log"][0], audience.language, bool(ctx["view"]), _log_key(ctx))
            rest = {}
            for name in FRAGMENTS:
                if name == "status":
                    continue
                if name == "chat" and (cached_chat := _renders.get(chat_key)) is not None:
                    rest[name] = cached_chat
                    continue
                if name == "log" and (cached_log := _renders.get(log_key)) is not None:
                    rest[name] = cached_log
                    continue
                if name == "log" and _generic(snapshot.table.game, "log"):
                    rest[name] = _log(audience, ctx)
                    continue
                if name == "errors":  # a socket's own error goes through error_fragment
                    rest[name] = error_fragment(None, audience.language)
                    continue
                if name == "seats" and _generic(snapshot.table.game, "seats"):
                    rest[name] = _seats(snapshot, audience, ctx)
                    continue
                if name == "actions" and _generic(snapshot.table.game, "actions"):
                    if not ctx["actions"]:
                        rest[name] = _no_actions(audience, ctx)
                        continue
                    label_part = actions_view.label_view(ctx["slug"], ctx["view"])
                    if label_part is not None:
                        rest[name] = _actions(audience, ctx, label_part)
                        continue
                part = board_view.board_view(ctx["slug"], ctx["view"], audience.seat) if name == "board" else None
                if part is not None:
                    rest[name] = _board(audience, ctx, part)
                    continue
                rest[name] = render_fragment(name, ctx, oob=True)
            _renders.put(chat_key, rest["chat"])
            _renders.put(log_key, rest["log"])
            _renders.put(inputs, rest)
        rendered = {"status": _status(snapshot, audience, ctx), **rest}
        rendered = {name: rendered[name] for name in FRAGMENTS}
    _renders.put(key, rendered)
    return rendered


def _status(snapshot: Snapshot, audience: Audience, ctx: dict[str, Any]) -> str:
    """``#status``: new at every version, since it carries the version (``data-version``). The
    generic one reads little else (:func:`_status_key`), the same for every seat that is not
    deciding, so it is rendered once per such inputs and shared, with placeholders for what
    changes from move to move: the version, whom the table waits for, and the viewer's deadline.
    The host's reads its menu besides (:func:`_menu_key`), whose forms carry the version too. A
    game's own ``_status.html``, whose reads are not known here, is rendered every time."""
    if not _generic(ctx["slug"], "status"):
        return render_fragment("status", ctx, oob=True)
    key = _status_key(snapshot, audience, ctx)
    values: dict[str, Any] = {"table_version": VERSION_PLACEHOLDER}
    filled = {VERSION_PLACEHOLDER: str(snapshot.version)}
    if ctx.get("awaiting_names"):
        values["awaiting_names"] = [AWAITING_PLACEHOLDER]
        filled[AWAITING_PLACEHOLDER] = defaultfilters.join(ctx["awaiting_names"], localize.list_separator())
    if ctx["deadline"] is not None:
        values["deadline_epoch"], values["deadline_iso"] = DEADLINE_EPOCH_PLACEHOLDER, DEADLINE_ISO_PLACEHOLDER
        filled[DEADLINE_EPOCH_PLACEHOLDER] = ctx["deadline_epoch"]
        filled[DEADLINE_ISO_PLACEHOLDER] = ctx["deadline_iso"]
    menu = ctx.get("host_menu")
    if audience.is_host:
        key = (*key, "host", _menu_key(menu))
        if menu is not None:
            values["host_menu_html"] = _host_menu_html(snapshot, audience, ctx, menu)
    html = _renders.get(key)
    if html is None:
        html = render_fragment("status", {**ctx, **values}, oob=True)
        _renders.put(key, html)
    # One pass, so that nothing filled in (a player's name) is read for placeholders again.
    return _STATUS_PLACEHOLDERS.sub(lambda found: filled.get(found[0], found[0]), html)


def _host_menu_html(snapshot: Snapshot, audience: Audience, ctx: dict[str, Any], menu: dict[str, Any]) -> str:
    """The host's menu (tables/_host_menu.html), which reads only the menu, the table's token and
    the CSRF placeholder: rendered once per those and language, with the version's placeholder
    in its forms, and put into her ``#status`` ready-made. Its forms and their URLs made it the
    costliest fragment of a move (0.7 ms), rendered again whenever her status changed."""
    key = ("host-menu", audience.language, snapshot.table.token, _menu_key(menu))
    html = _renders.get(key)
    if html is None:
        values = {**menu, "version": VERSION_PLACEHOLDER} if "version" in menu else menu
        html = mark_safe(  # noqa: S308 - rendered by our own autoescaping template
            render_to_string(
                "tables/_host_menu.html",
                {"host_menu": values, "table": snapshot.table, "csrf_token": ctx["csrf_token"]},
            )
        )
        _renders.put(key, html)
    return html  # type: ignore[no-any-return]


def _menu_key(menu: dict[str, Any] | None) -> str:
    """What the host's menu (tables/_host_menu.html) reads but the version: its flags, and each
    listed seat's number, player and name."""
    if menu is None:
        return ""

    def rows(name: str) -> list[Any]:
        return [(r["number"], r["seat"].user_id, str(r["name"])) for r in menu.get(name, ())]

    flags = {k: v for k, v in menu.items() if k not in ("others", "to_bot", "version")}
    return fingerprint([flags, rows("others"), rows("to_bot")])


def _seats(snapshot: Snapshot, audience: Audience, ctx: dict[str, Any]) -> str:
    """``#seats``: its rows (tables.seat_ring) in the generic wrapper, which reads besides them only
    the table's token and status, the number of seats and whether the viewer is signed in, seated,
    the host, removed or blocked by the host or may leave the game, and whether every seat is taken;
    so the wrapper is rendered once per those, and the rows joined into it."""
    rows = ctx["seat_html"]()
    table = snapshot.table
    key = ("seats", table.token, table.status, _seats_viewer(audience, ctx), len(ctx["seat_rows"]), ctx["seats_full"])
    wrapper = _renders.get(key)
    if wrapper is None:
        wrapper = render_fragment("seats", {**ctx, "seat_html": (ITEMS_PLACEHOLDER,)}, oob=True)
        _renders.put(key, wrapper)
    return wrapper.replace(ITEMS_PLACEHOLDER, "".join(rows))  # type: ignore[no-any-return]


def _seats_viewer(audience: Audience, ctx: dict[str, Any]) -> tuple[Any, ...]:
    """What the ``#seats`` wrapper (tables/_seats.html) reads of its viewer: not which seat, only
    whether one (the ring's rows say which)."""
    return (
        audience.language,
        audience.is_host,
        audience.signed_in,
        audience.seat is None,
        audience.removed,
        audience.blocked,
        ctx["may_leave"],
    )


def _log(audience: Audience, ctx: dict[str, Any]) -> str:
    """``#log``: its items (:func:`log_items`, each rendered once) in the generic wrapper, which
    reads besides them only whether there is a view or any item and the deal's commitment; so the
    wrapper is rendered once per those, and the items joined into it (newest first)."""
    items = ctx["log_items"]
    match = ctx["match"]
    key = ("log-wrapper", audience.language, bool(ctx["view"]), bool(items), match.deal_commitment if match else "")
    wrapper = _renders.get(key)
    if wrapper is None:
        wrapper = render_fragment("log", {**ctx, "log_items": [ITEMS_PLACEHOLDER] if items else []}, oob=True)
        _renders.put(key, wrapper)
    return wrapper.replace(ITEMS_PLACEHOLDER, "".join(reversed(items)))  # type: ignore[no-any-return]


def _board(audience: Audience, ctx: dict[str, Any], part: dict[str, Any]) -> str:
    """``#board`` of a game that names what its board reads (tables.board_view): rendered from
    that part alone, once per part, seat, seats' names and language."""
    key = (
        "board",
        ctx["slug"],
        audience.language,
        audience.seat,
        tuple(str(name) for name in ctx["names"]),
        fingerprint(part),
    )
    html = _renders.get(key)
    if html is None:
        html = render_fragment("board", board_view.board_context(ctx, part), oob=True)
        _renders.put(key, html)
    return html  # type: ignore[no-any-return]


def _actions(audience: Audience, ctx: dict[str, Any], part: dict[str, Any]) -> str:
    """The generic ``#actions`` of a game that names what its labels read (tables.actions_view):
    rendered from the actions, the version, the turn, the names and that part alone, once per them."""
    key = actions_view.actions_key(ctx, part, audience.language)
    html = _renders.get(key)
    if html is None:
        html = render_fragment("actions", actions_view.actions_context(ctx, part), oob=True)
        _renders.put(key, html)
    return html  # type: ignore[no-any-return]


def _no_actions(audience: Audience, ctx: dict[str, Any]) -> str:
    """The generic ``#actions`` with nothing to choose reads only whether it is the viewer's turn
    (a choice recorded, the turn still open): most seats, most moves, the same few bytes."""
    key = ("no-actions", audience.language, ctx["my_turn"])
    html = _renders.get(key)
    if html is None:
        html = render_fragment("actions", ctx, oob=True)
        _renders.put(key, html)
    return html  # type: ignore[no-any-return]


def _status_key(snapshot: Snapshot, audience: Audience, ctx: dict[str, Any]) -> tuple[Any, ...]:
    """What ``tables/_status.html`` reads besides the version: the table's and seats' rows and
    every Match field but the per-move ones, the language, whether the viewer has a seat, is
    signed in and won, whether it is their turn (and with actions to choose), whether they have a
    deadline and whether anyone is awaited (the deadline and the names are filled in), the game's
    end and result, the pause and the autopilot."""
    view = ctx["view"] or {}
    result = view.get("result") or {}
    return (
        "status",
        snapshot.key_without_match,
        snapshot.match_part,
        audience.language,
        audience.signed_in,
        audience.seat is None,
        bool(ctx.get("you_won")),
        ctx["my_turn"],
        bool(ctx["actions"]),
        ctx["deadline"] is not None,  # the deadline and the names are filled in (see _status)
        bool(ctx.get("awaiting_names")),
        fingerprint([view.get("over"), result]),
        str(ctx["paused_by"]),
        ctx["on_autopilot"],
        audience.left,
    )


@cache
def _generic(slug: str, part: str) -> bool:
    """Whether the game renders ``part`` with the platform's own template (not one of its own)."""
    names = [f"games/{slug}/_{part}.html", f"tables/_{part}.html"]
    return select_template(names).origin.template_name == f"tables/_{part}.html"  # type: ignore[no-any-return]


def error_fragment(text: str | None, language: str) -> str:
    key = ("errors", text, language)
    cached = _renders.get(key)
    if cached is None:
        with translation.override(language):
            cached = render_to_string("tables/_errors.html", {"error": text, "oob": True})
        _renders.put(key, cached)
    return cached  # type: ignore[no-any-return]


def with_csrf(html: str, token: str) -> str:
    """A cached fragment with this browser's CSRF token in its seating forms."""
    return html.replace(CSRF_PLACEHOLDER, token) if CSRF_PLACEHOLDER in html else html


class SentFragments:
    """What one socket last sent of each fragment, so unchanged ones are not sent again."""

    def __init__(self) -> None:
        self._hashes: dict[str, int] = {}

    def forget(self, name: str) -> None:
        self._hashes.pop(name, None)

    def changed(self, fragments: dict[str, str]) -> list[str]:
        out = []
        for name, html in fragments.items():
            digest = hash(html)
            if self._hashes.get(name) != digest:
                self._hashes[name] = digest
                out.append(name)
        return out
