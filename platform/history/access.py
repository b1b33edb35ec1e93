"""Who may see a match's page (ARCHITECTURE §7, §10).

One function decides, for every history URL: a running match is nobody's to look at (its players
keep their own past moves on the table page); a finished or aborted match is its players'; an
unlisted practice game is only theirs; a public table's match is everyone's; a private table's
match is also open to whoever holds the table's link (its token, passed as ``?t=``).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest

from tables.models import Match, Table


@dataclass(frozen=True)
class Access:
    match: Match
    seat: int | None  # the viewer's own seat, if they played
    key: str  # the table token the viewer proved, to carry on in links ("" if none was needed)

    @property
    def query(self) -> str:
        return f"t={self.key}" if self.key else ""


def _holds_link(request: HttpRequest, table: Table) -> bool:
    given = request.GET.get("t", "")
    return bool(given) and hmac.compare_digest(given.encode(), table.token.encode())


def is_practice(match: Match) -> bool:
    return any(seat.is_bot for seat in match.table.seats.all())


def may_see(match: Match, user: Any, seat: int | None, holds_link: bool) -> bool:
    """Whether this viewer may see a match that is over (the status is checked apart)."""
    if seat is not None or getattr(user, "is_staff", False):
        return True
    if match.unlisted:
        return False
    return match.table.visibility == Table.Visibility.PUBLIC or holds_link


def match_for(request: HttpRequest, match_id: int) -> Access:
    """The match and the viewer's standing, or 404 for anyone who may not know it exists."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None:
        raise Http404("no such match")
    seat = match.seat_of(request.user)
    holds_link = _holds_link(request, match.table)
    if not may_see(match, request.user, seat, holds_link):
        raise Http404("not your match")
    key = match.table.token if holds_link and seat is None else ""
    return Access(match=match, seat=seat, key=key)
