"""The seat ring (``#seats``), one seat's row at a time.

A move changes one or two rows of the ring (whose turn it is, who is ready, who died), and a row
looks the same to most audiences, so each row is rendered once for each distinct set of inputs and
reused by every audience and every later version that has the same inputs. The ring is those rows
inside ``tables/_seats.html``. Before, the whole ring was rendered for every audience at every
version: six rows and six badges, the most expensive fragment of a move (issue 9).

A row's inputs (:func:`_row_key`) are its table's token and status, the seat row itself (number,
player, bot, autopilot, whether its player left the game), the seat's display name, whether it is
the viewer's own seat (and whether the viewer has one), whether the viewer is signed in, removed or
blocked by the host (no seat is offered to them) or the host (while the table is open), the language, and the
seat's **badge view**: the part of the viewer's view that the game's ``_seat_badge.html`` reads for
that seat (:data:`BADGE_READS`, narrowed by :data:`BADGE_REFINED`).
The row template gets only these: the badge is rendered from the badge view alone, so a badge that
read anything else would render it missing. ``tests/platform/test_seat_ring.py`` renders every
badge of random games of every game both ways (full view and context, badge view) and compares,
and checks that warm rows equal fresh ones. Whether the seat is awaited is not among the inputs:
a row is kept as awaited, and a row not awaited is made from it (:func:`not_awaited`).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from django.template.loader import render_to_string, select_template
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from tables.fingerprint import fingerprint

# What each game's seat badge reads of the view (templates/games/<slug>/_seat_badge.html):
# ``indexed``: lists (or seat-keyed dicts) of which it reads the badge's own seat's item;
# ``members``: seat lists it asks "is this seat in it"; ``scalars``: values it reads whole;
# ``public``: keys of ``view.public`` it reads whole.
BADGE_READS: dict[str, dict[str, tuple[str, ...]]] = {
    "werewolf": {
        "indexed": ("dead_roles",),
        "members": ("alive", "ready", "voted", "my_wolves"),
        "scalars": ("phase",),
    },
    "dracula": {"indexed": ("roles",)},
    "insidejob": {"indexed": ("players",), "scalars": ("phase",), "public": ("leader",)},
    "monster": {"indexed": ("players",), "scalars": ("phase",)},
    "mummy": {"indexed": ("players",), "scalars": ("over", "dance", "active")},
}

NOT_MINE = -1  # a seated viewer's seat, as a row of another seat sees it: only "not this one" matters


def badge_view(slug: str, view: dict[str, Any] | None, number: int) -> dict[str, Any] | None:
    """The part of ``view`` that seat ``number``'s badge reads, in the view's own shape (so the
    badge template reads it as it reads the whole view)."""
    if view is None:
        return None
    reads = BADGE_READS.get(slug, {})
    out: dict[str, Any] = {}
    for key in reads.get("indexed", ()):
        if key in view:
            out[key] = _only_item(view[key], number)
    for key in reads.get("members", ()):
        if key in view:
            out[key] = [number] if _has(view[key], number) else []
    for key in reads.get("scalars", ()):
        if key in view:
            out[key] = view[key]
    public_keys = reads.get("public", ())
    if public_keys and isinstance(view.get("public"), dict):
        out["public"] = {k: view["public"][k] for k in public_keys if k in view["public"]}
    refine = BADGE_REFINED.get(slug)
    return refine(out) if refine else out


def _werewolf_badge(badge: dict[str, Any]) -> dict[str, Any]:
    """The werewolf badge reads the phase only to show "ready" in the discussion and "voted" in the
    vote, for a seat in those lists: the phase of any other seat's badge changes nothing, and
    without it a row is not rendered again at every change of phase."""
    if not badge.get("ready") and not badge.get("voted"):
        badge.pop("phase", None)
    return badge


# A game's narrowing of its badge view, where the badge reads a value only in some cases.
BADGE_REFINED: dict[str, Any] = {"werewolf": _werewolf_badge}


def _only_item(items: Any, number: int) -> Any:
    if isinstance(items, list):
        return [item if i == number else None for i, item in enumerate(items)]
    if isinstance(items, dict):
        return {k: v for k, v in items.items() if k in (number, str(number))}
    return items


def _has(items: Any, number: int) -> bool:
    try:
        return number in items
    except TypeError:
        return False


def rows_html(
    *,
    slug: str,
    table: Any,
    seat_rows: list[dict[str, Any]],
    view: dict[str, Any] | None,
    my_seat: int | None,
    me_id: int | None,
    signed_in: bool,
    is_host: bool,
    onlooker: Any,
    csrf_token: str,
    cache: Any,
    removed: bool = False,
) -> list[SafeString]:
    """Each seat's ``<li>`` of the ring, from ``cache`` (an LRU map) where its inputs were seen.
    ``onlooker`` is what a fragment may know of the viewer (``user``), ``csrf_token`` the
    placeholder that each socket fills in; ``removed``: the host removed (or blocked) the
    viewer, so no row offers them a seat."""
    language = translation.get_language()
    # The host's own forms (add or remove a bot) are shown only while the table is open: once it
    # plays, the host's rows are everyone's.
    is_host = is_host and table.status == "open"
    out = []
    for index, row in enumerate(seat_rows):
        seat, number = row["seat"], row["number"]
        badge = badge_view(slug, view, number)
        mine = my_seat is not None and number == my_seat
        own_account = seat.user_id is not None and seat.user_id == me_id
        viewer = (mine, my_seat is not None, own_account, signed_in, is_host, removed)
        key = _row_key(slug, language, table, seat, row, index, badge, viewer)
        both = cache.get(key)
        if both is None:  # rendered as awaited: the row of a seat not awaited is that row without the mark
            awaited = {**row, "awaited": True}
            context = row_context(
                slug, table, awaited, index, badge, mine, my_seat, own_account, is_host, onlooker, csrf_token, removed
            )
            html = mark_safe(render_to_string("tables/_seat_row.html", context))  # noqa: S308 - our own template
            both = (html, not_awaited(html))
            cache.put(key, both)
        out.append(both[0] if row["awaited"] else both[1])
    return out


AWAITED_MARK = " awaited"


def not_awaited(html: SafeString) -> SafeString:
    """A row rendered as awaited, as the row of a seat that is not: whose turn it is changes at every
    move of a sequential phase, and with it two rows for every audience, so a row is kept once
    for both. ``tables/_seat_row.html`` opens with the ``<li>`` whose classes are ``seat``, then
    `` me`` (the viewer's own seat), then the mark: the first occurrence of the mark is that one.
    ``tests/platform/test_seat_ring.py`` compares each row with its rendering from its own inputs."""
    return mark_safe(html.replace(AWAITED_MARK, "", 1))  # noqa: S308 - a class taken out of our own rendering


def row_context(
    slug: str,
    table: Any,
    row: dict[str, Any],
    index: int,
    badge: dict[str, Any] | None,
    mine: bool,
    my_seat: int | None,
    own_account: bool,
    is_host: bool,
    onlooker: Any,
    csrf_token: str,
    removed: bool = False,
) -> dict[str, Any]:
    """All that ``tables/_seat_row.html`` receives for one seat's row: what its key holds."""
    seat, number = row["seat"], row["number"]
    return {
        "row": row,
        "seat": seat,
        "index": index,
        "table": table,
        "view": badge,
        "number": number,
        "my_seat": number if mine else (None if my_seat is None else NOT_MINE),
        "me_id": seat.user_id if own_account else None,
        "user": onlooker,
        "is_host": is_host,
        "tpl": {"seat_badge": badge_template(slug)},
        "player_url": _player_url(table.token, seat.user_id) if seat.user_id else "",
        "csrf_token": csrf_token,
        "removed": removed,
    }


@cache
def badge_template(slug: str) -> Any:
    """The game's seat badge, looked up once (an include of a list of names looks it up each time)."""
    return select_template([f"games/{slug}/_seat_badge.html", "tables/_seat_badge.html"])


@lru_cache(maxsize=4096)
def _player_url(token: str, user_id: int) -> str:
    """A seated player's page (report, mute, block), reversed once per table and player."""
    return reverse("moderation:player", args=[token, user_id])


def _row_key(
    slug: str,
    language: str,
    table: Any,
    seat: Any,
    row: dict[str, Any],
    index: int,
    badge: dict[str, Any] | None,
    viewer: tuple[bool, ...],
) -> tuple[Any, ...]:
    """``viewer``: whether the row is the viewer's own seat, the viewer has one, the seat is the
    viewer's account's, the viewer is signed in, the host, removed by the host."""
    return (
        "seat-row",
        slug,
        language,
        table.token,
        table.status,
        index,
        seat.number,
        seat.user_id,
        seat.is_bot,
        seat.autopilot,
        seat.left_game,
        seat.is_empty,
        str(row["name"]),
        viewer,
        fingerprint(badge),
    )
