"""How a finished game's result shows a seat whose player left it (``tables.moderator.leave_game``).

The seat's outcome is the game's: the engine's result is never changed, and a seat the autopilot
won is still the seat that won. But the person is not shown as a winner: they left, and in a
match that counts for the ratings the leave is a loss (``history.ratings.with_leavers``). Every
result the site draws (the table's result panel and status line, the match page's table and
replay, a shared link's title) names such a seat through this module, so they say the same."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def seat_name(name: str) -> str:
    """The seat of a player who left, named as the seat the bot played, not as the person."""
    return _("%(name)s's seat (played by a bot after %(name)s left)") % {"name": name}


def result_names(names: list[str], left: set[int]) -> list[str]:
    """Each seat's name in a result's winners line: a left seat named as the seat (:func:`seat_name`)."""
    return [seat_name(name) if seat in left else name for seat, name in enumerate(names)]


def result_rows(result: dict[str, Any], names: list[str], left: set[int], counted: bool) -> list[dict[str, Any]]:
    """The rows of a result panel (``result_rows``, templates/games/CONTRACT.md): each seat's row of
    the result with its ``seat`` and ``name``; ``winner`` whether the person won (never one who
    left), ``seat_won`` whether the seat did, ``left`` whether its player left and ``left_counts``
    whether that leave counts as a loss (``counted``: the match counts for the ratings)."""
    winners = set(result.get("winners", []))
    return [
        {
            **row,
            "seat": seat,
            "name": names[seat],
            "winner": seat in winners and seat not in left,
            "seat_won": seat in winners,
            "left": seat in left,
            "left_counts": seat in left and counted,
        }
        for seat, row in enumerate(result.get("seats", []))
    ]
