"""How a finished game's result shows a seat whose player left it (``tables.moderator.leave_game``).

The seat's outcome is the game's: the engine's result is never changed, and a seat the autopilot
won is still the seat that won. But the person is not shown as a winner: they left, and in a
match that counts for the ratings the leave is a loss (``history.ratings.with_leavers``). Every
result the site draws (the table's result panel and status line, the match page's table and
replay, a shared link's title) names such a seat through this module, so they say the same."""

from __future__ import annotations

from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def _with_name(words: str, name: str) -> SafeString:
    """``words`` (a translated text with ``%(name)s``) escaped, the name put in as it renders
    (a seat's display name in its ``<bdi>``)."""
    return mark_safe(conditional_escape(words) % {"name": conditional_escape(name)})  # noqa: S308 - both escaped


def _seat_words() -> str:
    return _("%(name)s's seat (played by a bot after %(name)s left)")


def seat_name(name: str) -> str:
    """The seat of a player who left, named as the seat the bot played, not as the person (text)."""
    return _seat_words() % {"name": str(name)}


def awaited_name(name: str, bot: bool) -> str:
    """How «Waiting for» names a seat: the autopilot's (a player who left, or who missed decisions)
    as the bot that decides there, not as the person, who is not the one awaited."""
    return _with_name(_("a bot (for %(name)s)"), name) if bot else name


def result_names(names: list[str], left: set[int]) -> list[str]:
    """Each seat's name in a result's winners line (HTML): a left seat named as the seat the bot played."""
    return [_with_name(_seat_words(), name) if seat in left else name for seat, name in enumerate(names)]


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
