"""A match as a JSON record for its player's export: never more than the match page shows them."""

from __future__ import annotations

from typing import Any

from history import deals
from tables.models import Match
from tables.rendering import seat_names


def match_record(match: Match, seat: int | None) -> dict[str, Any]:
    names = seat_names(match.table)
    finished = match.status == Match.Status.FINISHED
    moves = match.moves.order_by("seq")
    if not finished:  # an aborted match: only one's own moves (the others' were never revealed)
        moves = moves.filter(seat=seat)
    changes = {c.seat: c.delta for c in match.rating_changes.all()}
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "started_at": match.started_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "my_seat": seat,
        "players": [
            {"seat": s.number, "name": names[s.number], "bot": s.is_bot, "rating_change": changes.get(s.number)}
            for s in match.table.seats.all()
        ],
        "result": match.result if finished else None,
        "moves": [{"seq": m.seq, "seat": m.seat, "action": m.action, "by": m.source} for m in moves],
        "deal": {
            "scheme": match.deal_scheme,
            "commitment": match.deal_commitment,
            "secret": deals.revealed_secret(match),
            "seating": match.deal_seating if finished else "",
            "seed": match.seed if finished and match.deal_scheme else None,
        },
    }
