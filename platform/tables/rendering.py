"""What one viewer sees of a table: the context built from a seat's *view* (never the state),
and the page fragments rendered from it, whole or as htmx out-of-band swaps (ARCHITECTURE §4)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.template.loader import render_to_string, select_template
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.models import User
from games.base import TIMEOUT
from tables import chat
from tables.models import Match, Table

FRAGMENTS = ("status", "seats", "board", "actions", "log", "chat", "errors")

ERROR_MESSAGES = {
    "malformed": gettext_noop("That message was not understood."),
    "unknown_action": gettext_noop("That kind of move does not exist here."),
    "not_awaited": gettext_noop("It is not your decision now."),
    "illegal_action": gettext_noop("That move is not allowed now."),
    "game_over": gettext_noop("The game is over."),
    "stale_version": gettext_noop("The game moved on before your move arrived: here is the current view."),
    "forbidden": gettext_noop("You cannot do that."),
}


def error_message(code: str) -> str:
    return _(ERROR_MESSAGES.get(code, ERROR_MESSAGES["illegal_action"]))


def seat_names(table: Table) -> list[str]:
    names = []
    for seat in table.seats.select_related("user").order_by("number"):
        if seat.is_bot:
            names.append(_("Bot %(n)d") % {"n": seat.number + 1})
        elif seat.user is not None:
            names.append(str(seat.user))
        else:
            names.append(_("Empty seat"))
    return names


def _own_deadline(match: Match, seat: int | None) -> datetime | None:
    """The viewer's own decision deadline, and only their own (others' clocks can tell secrets)."""
    if seat is None or match.status != Match.Status.PLAYING or seat not in match.engine.awaiting(match.state):
        return None
    window = match.window_started_at or timezone.now()
    return window + timedelta(seconds=match.engine.time_limit(match.state, seat, match.table.timers()))


TEMPLATE_PARTS = (*FRAGMENTS, "action_label", "log_entry", "result", "seat_badge")


def context_for(table: Table, user: User | None, error: str | None = None) -> dict[str, Any]:
    seat = chat.seat_of(table, user)
    match = Match.objects.filter(table=table).first()
    seats = list(table.seats.select_related("user").order_by("number"))
    slug = table.game
    ctx: dict[str, Any] = {
        "table": table,
        "user": user,
        "game": table.engine,
        "slug": slug,
        "tpl": {part: [f"games/{slug}/_{part}.html", f"tables/_{part}.html"] for part in TEMPLATE_PARTS},
        "seats": seats,
        "names": seat_names(table),
        "my_seat": seat,
        "on_autopilot": any(s.number == seat and s.autopilot for s in seats),
        "is_host": user is not None and user.is_authenticated and table.host_id == user.pk,
        "match": match,
        "view": None,
        "actions": [],
        "version": match.version if match else 0,
        "can_chat": False,
        "chat_messages": chat.recent(table),
        "muted_ids": chat.muted_by(user),
        "error": error,
        "deadline": None,
        "my_turn": False,
    }
    if match is not None:
        engine = match.engine
        view = engine.view(match.state, seat)
        legal = engine.legal_actions(match.state, seat) if seat is not None else []
        if match.status != Match.Status.PLAYING:
            legal = []
        ctx["view"] = view
        ctx["actions"] = [{"action": a, "json": json.dumps(a, sort_keys=True)} for a in legal if a != TIMEOUT]
        ctx["my_turn"] = bool(legal)
        ctx["deadline"] = _own_deadline(match, seat)
        ctx["awaiting_names"] = [ctx["names"][s] for s in view.get("awaiting", [])]
        if view.get("result"):
            winners = view["result"]["winners"]
            ctx["result_rows"] = [
                {**row, "seat": i, "name": ctx["names"][i], "winner": i in winners}
                for i, row in enumerate(view["result"]["seats"])
            ]
    awaiting = set(ctx["view"]["awaiting"]) if ctx["view"] else set()
    ctx["seat_rows"] = [
        {"seat": s, "number": s.number, "name": ctx["names"][s.number], "awaited": s.number in awaiting}
        for s in seats
    ]
    ctx["can_chat"] = seat is not None and (
        match is None or match.status != Match.Status.PLAYING or bool(ctx["view"].get("can_chat", True))
    )
    return ctx


def render_fragment(name: str, ctx: dict[str, Any], oob: bool = False) -> str:
    return select_template(ctx["tpl"][name]).render({**ctx, "oob": oob})


def render_fragments(ctx: dict[str, Any], names: tuple[str, ...] = FRAGMENTS) -> str:
    """The fragments as out-of-band swaps, for the WebSocket."""
    return "".join(render_fragment(name, ctx, oob=True) for name in names)


def render_page(ctx: dict[str, Any]) -> str:
    return render_to_string("tables/table.html", ctx)
