"""The name each seat goes by at one table: unique among the seats, safe in any line of text.

Two people called «نگار» at one table would make the seats and the log ambiguous, so the second
(in seat order) is shown as «نگار ۲», the third «نگار ۳», and so on; the names stay the players'
own everywhere else. Bots are «ربات ۳» / "Bot 3" after their seat, which no person may be called
(``accounts.names``). Each name is a :class:`SeatName`, which a template renders inside ``<bdi>``,
so a name written right to left (or left to right) cannot reorder the words around it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Protocol

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from accounts.names import without_format_characters
from shabneshin.localize import digits


class _Seat(Protocol):
    number: int
    is_bot: bool

    @property
    def user(self) -> object | None: ...


class SeatName(str):
    """A display name; ``{{ name }}`` renders it as ``<bdi>name</bdi>`` (its text escaped)."""

    __slots__ = ()

    def __html__(self) -> SafeString:
        return _isolated(str(self))


@lru_cache(maxsize=4096)
def _isolated(name: str) -> SafeString:
    """A name inside ``<bdi>``, made once per name: every fragment of every audience shows the
    table's names, most of them several times (issue 9: 2% of a move's CPU)."""
    return format_html("<bdi>{}</bdi>", name)


def _numbered(name: str, n: int) -> str:
    return _("%(name)s %(n)s") % {"name": name, "n": digits(n)}


def display_names(seats: Iterable[_Seat]) -> list[str]:
    """One name per seat, in the order given (seat order), none equal to another."""
    seats = list(seats)
    bots = {seat.number: _("Bot %(n)s") % {"n": digits(seat.number + 1)} for seat in seats if seat.is_bot}
    taken = {name.casefold() for name in bots.values()}
    names: list[str] = []
    for seat in seats:
        if seat.is_bot:
            name = bots[seat.number]
        elif seat.user is not None:
            own = without_format_characters(str(seat.user)) or "?"
            name, n = own, 1
            while name.casefold() in taken:
                n += 1
                name = _numbered(own, n)
            taken.add(name.casefold())
        else:
            name = _("Empty seat")
        names.append(SeatName(name))
    return names
