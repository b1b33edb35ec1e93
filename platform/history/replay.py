"""Step-through replays (ARCHITECTURE §10): a match is its seed plus its moves, so the state after
any number of moves is recomputed through the engine, and a step is shown to a chosen pair of
eyes with the game's own templates, from ``engine.view(state_k, seat)`` exactly as live play
builds its context from a view. Nothing of a running match is ever replayed.

Steps run from 0 (the deal) to the number of moves (the end); step k is the state after move k.
Eyes are a seat (that seat's view), the spectator, or everything (every seat's view at once).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.template.loader import select_template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.base import Engine, State
from shabneshin.localize import digits
from tables import left_seats
from tables.models import Match, Move, Seat
from tables.renderer import TEMPLATE_PARTS, log_items, ring_rows
from tables.rendering import seat_names

SPECTATOR = "spectator"
EVERYTHING = "all"
# The fragments a replay shows: the ring, the game's picture and the log (no actions, no chat).
REPLAY_FRAGMENTS = ("seats", "board", "log")


class NotReplayable(Exception):
    """A replay that may not be shown; ``message`` is translated and says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def states(engine: Engine, match: Match, moves: list[Move]) -> Iterator[State]:
    """The deal, then the state after each move, recomputed from the seed and the moves."""
    state = engine.setup(match.n_players, dict(match.options), match.seed)
    yield state
    for move in moves:
        state = engine.apply(state, move.seat, move.action)
        yield state


def timeline(match: Match) -> tuple[list[Move], list[State]]:
    if match.status == Match.Status.PLAYING:
        raise NotReplayable(_("A match cannot be replayed while it is being played."))
    moves = list(match.moves.order_by("seq"))
    return moves, list(states(match.engine, match, moves))


def allowed_eyes(match: Match, own_seat: int | None) -> list[int | str]:
    """A finished match reveals everything, so any eyes; an aborted one never reached its reveal,
    so its players keep to their own eyes and everyone else to the spectator's."""
    if match.status == Match.Status.FINISHED:
        return [*range(match.n_players), SPECTATOR, EVERYTHING]
    return [own_seat, SPECTATOR] if own_seat is not None else [SPECTATOR]


def default_eyes(match: Match, own_seat: int | None) -> int | str:
    if own_seat is not None:
        return own_seat
    return EVERYTHING if match.status == Match.Status.FINISHED else SPECTATOR


def parse_step(raw: str | None, last: int) -> int:
    if raw in (None, ""):
        return last
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6) or int(raw) > last:
        raise NotReplayable(
            digits(
                _("This match has no step %(step)s: its steps run from 0 to %(last)d.")
                % {"step": raw[:12], "last": last}
            )
        )
    return int(raw)


def parse_eyes(raw: str | None, match: Match, own_seat: int | None) -> int | str:
    if raw in (None, ""):
        return default_eyes(match, own_seat)
    eyes: int | str = raw
    if raw.isascii() and raw.isdigit() and len(raw) <= 3:
        eyes = int(raw)
        if eyes >= match.n_players:
            raise NotReplayable(_("There is no such seat in this match."))
    elif raw not in (SPECTATOR, EVERYTHING):
        raise NotReplayable(_("There is no such seat in this match."))
    if eyes not in allowed_eyes(match, own_seat):
        raise NotReplayable(_("This match was aborted before its end: it can be seen only through your own eyes."))
    return eyes


def view_context(match: Match, view: dict[str, Any], seat: int | None, names: list[str], seats: list[Seat]) -> dict:
    """The context a live fragment gets (templates/games/CONTRACT.md), built from a view of a past
    step: no actions, no clock, no chat."""
    slug = match.game
    awaiting = set(view.get("awaiting", []))
    ctx: dict[str, Any] = {
        "table": match.table,
        "user": None,
        "game": match.engine,
        "slug": slug,
        "tpl": {part: [f"games/{slug}/_{part}.html", f"tables/_{part}.html"] for part in TEMPLATE_PARTS},
        "seats": seats,
        "names": names,
        "my_seat": seat,
        "on_autopilot": False,
        "is_host": False,
        "match": match,
        "view": view,
        "actions": [],
        "version": 0,
        "can_chat": False,
        "chat_messages": [],
        "error": None,
        "deadline": None,
        "my_turn": False,
        "awaiting_names": [names[s] for s in view.get("awaiting", [])],
        "seat_rows": [
            {"seat": s, "number": s.number, "name": names[s.number], "awaited": s.number in awaiting} for s in seats
        ],
        "oob": False,
    }
    ctx["seat_html"] = ring_rows(
        slug=slug,
        table=match.table,
        seat_rows=ctx["seat_rows"],
        view=view,
        my_seat=seat,
        me_id=None,
        signed_in=False,
        is_host=False,
        onlooker=None,
    )
    ctx["log_items"] = log_items(slug, view, names, seat, ctx["tpl"])
    if view.get("result"):
        left = {s.number for s in seats if s.left_game}
        # A finished match's leaves counted as losses if it was rated (its ratings were written by
        # now, unlike on the table's own page: tables.renderer); asked only when someone left.
        counted = bool(left) and match.rating_changes.exists()
        ctx["result_rows"] = left_seats.result_rows(view["result"], names, left, counted)
        ctx["result_names"] = left_seats.result_names(names, left)
    return ctx


def _fragments(ctx: dict[str, Any], suffix: str = "") -> str:
    html = "".join(select_template(ctx["tpl"][name]).render(ctx) for name in REPLAY_FRAGMENTS)
    if suffix:  # several views on one page: keep their ids apart
        for name in REPLAY_FRAGMENTS:
            html = html.replace(f'id="{name}"', f'id="{name}-{suffix}"', 1)
    return mark_safe(html)  # noqa: S308 - every part was rendered by an autoescaping template


@dataclass
class Panel:
    """One view of the step on the page: whose it is and its fragments."""

    seat: int | None
    title: str
    html: str


def face_down(match: Match, state: State, names: list[str]) -> str:
    """What no seat sees (the state's ``hidden``: a deck's order, cards set aside...), named and
    drawn by the game's own ``_hidden.html`` in the reader's language; only the everything view
    shows it, and only of a finished match (``allowed_eyes``). ``view`` is the spectator's view of
    the same step, for what the game's card pictures read of the table (Dracula's trump)."""
    slug = match.game
    template = select_template([f"games/{slug}/_hidden.html", "history/_hidden.html"])
    context = {"hidden": state["hidden"], "names": names, "slug": slug, "view": match.engine.view(state, None)}
    return template.render(context)


def panels(match: Match, state: State, eyes: int | str) -> list[Panel]:
    engine = match.engine
    names = seat_names(match.table)
    seats = list(match.table.seats.select_related("user").order_by("number"))
    if eyes == EVERYTHING:
        every_seat = [
            Panel(s, names[s], _fragments(view_context(match, engine.view(state, s), s, names, seats), str(s)))
            for s in range(match.n_players)
        ]
        return [*every_seat, Panel(None, _("Face down: seen by nobody"), face_down(match, state, names))]
    seat = None if eyes == SPECTATOR else int(eyes)
    title = _("Spectator") if seat is None else names[seat]
    return [Panel(seat, title, _fragments(view_context(match, engine.view(state, seat), seat, names, seats)))]
