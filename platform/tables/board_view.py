"""The part of a seat's view that a game's ``#board`` reads, for games that name it.

In a sequential phase every move changes whose turn it is, and with it every seat's view; so every
seat's ``#board`` was rendered again at every move, though the werewolf board (the sky, the phase,
the viewer's own card and secrets) reads of the turn only whether it is the viewer's own. A game
listed in :data:`BOARD_VIEWS` gives the part of the view its ``_board.html`` reads; the renderer
renders the board from that part alone (:func:`board_context`) and reuses it for every later
version and every audience with the same part, seat, names and language
(``tables.renderer._board``).

The board is rendered from the part alone, so a board that read anything else would render it
missing, never stale: ``tests/platform/test_board_view.py`` renders the board of random games both
ways (the whole view and context, and the part) for every seat and a spectator, in both languages,
and compares them. A game not listed here renders its board from the whole context at every change
of its seat's view, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# What the werewolf board (templates/games/werewolf/_board.html) and its result read of the view.
_WEREWOLF_READS = (
    "phase",
    "round",
    "my_role",
    "my_wolves",
    "wolf_picks",
    "seer_results",
    "last_protected",
    "my_pick",
    "has_voted",
    "my_vote",
    "result",
    "winner",
)


def _werewolf(view: dict[str, Any], my_seat: int | None) -> dict[str, Any]:
    part = {key: view[key] for key in _WEREWOLF_READS if key in view}
    # Whose turn it is, only where it is the viewer's (#status names whom the table waits for).
    turn = view.get("turn_seat")
    part["turn_seat"] = turn if turn is not None and turn == my_seat else None
    return part


BOARD_VIEWS: dict[str, Callable[[dict[str, Any], int | None], dict[str, Any]]] = {
    "werewolf": _werewolf,
}


def board_view(slug: str, view: dict[str, Any] | None, my_seat: int | None) -> dict[str, Any] | None:
    """The part of ``view`` the game's board reads, or None where the game names none (or there is
    no view yet): then the board is rendered from the whole context."""
    project = BOARD_VIEWS.get(slug)
    if project is None or view is None:
        return None
    return project(view, my_seat)


def board_context(ctx: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """All a board rendered from ``part`` may read: the part as its ``view``, the viewer's seat, the
    seats' names, the game's templates, and the result's rows (made from the result and the
    names, both in the part's key)."""
    return {
        "view": part,
        "my_seat": ctx["my_seat"],
        "names": ctx["names"],
        "tpl": ctx["tpl"],
        "slug": ctx["slug"],
        "result_rows": ctx.get("result_rows"),
    }
