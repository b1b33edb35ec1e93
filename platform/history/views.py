"""A player's finished matches, each with its result, the final reveal and the move log."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tables.models import Match
from tables.rendering import seat_names


@login_required(login_url="accounts:login")
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    matches = (
        Match.objects.filter(table__seats__user=request.user)
        .exclude(status=Match.Status.PLAYING)
        .select_related("table")
        .distinct()
        .order_by("-finished_at")
    )
    rows = []
    for match in matches[:200]:
        seat = match.seat_of(request.user)
        winners = (match.result or {}).get("winners", [])
        draw = bool((match.result or {}).get("draw"))
        rows.append({"match": match, "seat": seat, "won": seat in winners if match.result else None, "draw": draw})
    return render(request, "history/my_games.html", {"rows": rows})


@login_required(login_url="accounts:login")
@require_GET
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    seat = match.seat_of(request.user)
    if seat is None and not request.user.is_staff:
        raise Http404("not your match")
    if match.status == Match.Status.PLAYING:
        raise Http404("still running")
    names = seat_names(match.table)
    # A finished match reveals everything; an aborted one still shows only the viewer's own view.
    view = match.engine.view(match.state, seat)
    # The move log holds every seat's raw choices (face-down picks, night targets, window
    # choices): it is everyone's only once the game is over; before that, only one's own moves.
    moves_shown = match.moves.order_by("seq")
    if not view["over"]:
        moves_shown = moves_shown.filter(seat=seat) if seat is not None else moves_shown.none()
    moves = [{"move": move, "name": names[move.seat] if move.seat < len(names) else move.seat} for move in moves_shown]
    return render(
        request,
        "history/match_detail.html",
        {
            "match": match,
            "seat": seat,
            "names": names,
            "view": view,
            "moves": moves,
            "slug": match.game,
            "move_templates": [
                f"games/{match.game}/_move.html",
                f"games/{match.game}/_action_label.html",
                "history/_move.html",
            ],
            "log_templates": [f"games/{match.game}/_log_entry.html", "tables/_log_entry.html"],
        },
    )
