"""What one viewer sees of a table, for a page request: the context built from a seat's *view*
(never the state) and the page rendered from it. The WebSocket path renders through
``tables.renderer``, once per version and audience (ARCHITECTURE §4); both build the same context.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from accounts.models import User
from tables import renderer
from tables.models import Table

FRAGMENTS = renderer.FRAGMENTS
render_fragment = renderer.render_fragment

ERROR_MESSAGES = {
    "malformed": gettext_noop("That message was not understood."),
    "unknown_action": gettext_noop("That kind of move does not exist here."),
    "not_awaited": gettext_noop("It is not your decision now."),
    "illegal_action": gettext_noop("That move is not allowed now."),
    "game_over": gettext_noop("The game is over."),
    "stale_version": gettext_noop("The game moved on before your move arrived: here is the current view."),
    "forbidden": gettext_noop("You cannot do that."),
    "too_fast": gettext_noop("You are sending moves too fast; the extra ones were dropped."),
    "paused": gettext_noop("The game is paused: moves wait until the host resumes it."),
    "not_host": gettext_noop("Only the host can do that."),
    "already_paused": gettext_noop("The game is already paused."),
    "not_paused": gettext_noop("The game is not paused."),
    "already_extended": gettext_noop("This decision has already been given more time once."),
    "no_such_player": gettext_noop("That player is not at this seat any more."),
    "already_bot": gettext_noop("A practice bot already plays that seat."),
    "others_playing": gettext_noop(
        "Other people are still playing: the game can be ended only when everyone else at the table is a bot."
    ),
    "not_seated": gettext_noop("You have no seat in this game."),
    "not_playing": gettext_noop("This table has no game being played."),
    "out_already": gettext_noop(
        "You are out of this game already: you may simply go, and your seat's result still counts for you."
    ),
    "left_game": gettext_noop("You left this game: a practice bot plays your seat to the end."),
    "counts_for_ratings": gettext_noop(
        "Someone left this rated game: it plays on to its end, so that leaving counts as a loss."
    ),
}


def error_message(code: str) -> str:
    return _(ERROR_MESSAGES.get(code, ERROR_MESSAGES["illegal_action"]))


def seat_names(table: Table) -> list[str]:
    return renderer.seat_names_of(list(table.seats.select_related("user").order_by("number")))


def context_for(table: Table, user: User | None, error: str | None = None) -> dict[str, Any]:
    """The context of one request's page: the renderer's, with the real user and the request's
    own CSRF token (the page is rendered per request, never cached)."""
    snapshot = renderer.load(table.pk)
    if snapshot is None:
        raise Table.DoesNotExist(table.pk)
    ctx = renderer.build_context(snapshot, snapshot.audience(user, get_language() or "fa"), error)
    ctx["user"] = user
    del ctx["csrf_token"]
    return ctx


def render_fragments(ctx: dict[str, Any], names: tuple[str, ...] = FRAGMENTS) -> str:
    """The fragments as out-of-band swaps."""
    return "".join(render_fragment(name, ctx, oob=True) for name in names)


def render_page(ctx: dict[str, Any]) -> str:
    return render_to_string("tables/table.html", ctx)
