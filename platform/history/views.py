"""A player's matches ("My games"), and each match's permanent page: the result, the players,
the move log, and (history/replay.py) the step-through replay."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from history import deals, exporting, facts, replay
from history.access import Access, is_practice, match_for
from history.forms import HistoryFilterForm
from shabneshin.localize import digits
from tables.models import Match
from tables.rendering import seat_names


def _my_matches(request: HttpRequest) -> tuple[HistoryFilterForm, list[tuple[Match, int | None]]]:
    matches = (
        Match.objects.filter(table__seats__user=request.user)
        .exclude(status=Match.Status.PLAYING)
        .select_related("table")
        .prefetch_related("table__seats")
        .distinct()
        .order_by("-finished_at")
    )
    form = HistoryFilterForm(request.GET or None)
    return form, form.apply(matches, request.user)[:500]


@login_required(login_url="accounts:login")
@require_safe
def my_games(request: HttpRequest) -> HttpResponse:
    form, found = _my_matches(request)
    rows = []
    for match, seat in found[:200]:
        winners = (match.result or {}).get("winners", [])
        rows.append({"match": match, "seat": seat, "won": seat in winners if match.result else None})
    query = request.GET.urlencode()
    return render(request, "history/my_games.html", {"rows": rows, "form": form, "query": query})


@login_required(login_url="accounts:login")
@require_safe
def export(request: HttpRequest) -> JsonResponse:
    """One's own matches (those the filters keep) as JSON: what the match page shows, and the
    move log as far as the viewer may read it."""
    _form, found = _my_matches(request)
    data = {"player": request.user.username, "matches": [exporting.match_record(m, seat) for m, seat in found]}
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = 'attachment; filename="shabneshin-matches.json"'
    return response


def _moves(match: Match, seat: int | None, everyone: bool) -> list[dict]:
    """The move log is every seat's raw choices (face-down picks, night targets): everyone's once
    the game is over, and before that only the viewer's own."""
    names = seat_names(match.table)
    shown = match.moves.order_by("seq")
    if not everyone:
        shown = shown.filter(seat=seat) if seat is not None else shown.none()
    return [{"move": m, "name": names[m.seat] if m.seat < len(names) else m.seat} for m in shown]


def _page_context(request: HttpRequest, access: Access) -> dict:
    match = access.match
    rows = facts.players(match)
    return {
        "match": match,
        "slug": match.game,
        "seat": access.seat,
        "access": access,
        "rows": rows,
        "bot_played": facts.bot_played(match, rows),
        "duration": facts.duration_text(match),
        "og_title": facts.title(match, rows),
        "page_url": request.build_absolute_uri(reverse("history:match", args=[match.pk])),
        "practice": is_practice(match),
        "secret": deals.revealed_secret(match),
        "move_templates": [
            f"games/{match.game}/_move.html",
            f"games/{match.game}/_action_label.html",
            "history/_move.html",
        ],
        "log_templates": [f"games/{match.game}/_log_entry.html", "tables/_log_entry.html"],
        "side_templates": [f"games/{match.game}/_side.html", "history/_side.html"],
    }


@require_safe
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    access = match_for(request, match_id)
    ctx = _page_context(request, access)
    match = access.match
    if match.status == Match.Status.PLAYING:
        ctx["moves"] = _moves(match, access.seat, everyone=False)
        return render(request, "history/match_running.html", ctx)
    ctx["moves"] = _moves(match, access.seat, everyone=match.status == Match.Status.FINISHED)
    moves, timeline = replay.timeline(match)
    last = len(moves)
    try:
        step = replay.parse_step(request.GET.get("step"), last)
        eyes = replay.parse_eyes(request.GET.get("eyes"), match, access.seat)
    except replay.NotReplayable as exc:
        ctx["replay_error"] = exc.message
        return render(request, "history/match_detail.html", ctx, status=400)
    ctx.update(_replay_context(access, step, last, eyes))
    ctx["panels"] = replay.panels(match, timeline[step], eyes)
    ctx["waiting_for"] = [ctx["names"][s] for s in sorted(match.engine.awaiting(timeline[step]))]
    return render(request, "history/match_detail.html", ctx)


def _step_url(access: Access, step: int, eyes: int | str) -> str:
    query = {"step": step, "eyes": eyes, **({"t": access.key} if access.key else {})}
    return f"{reverse('history:match', args=[access.match.pk])}?{urlencode(query)}"


def _replay_context(access: Access, step: int, last: int, eyes: int | str) -> dict:
    names = seat_names(access.match.table)
    choices = []
    for option in replay.allowed_eyes(access.match, access.seat):
        if option == replay.SPECTATOR:
            label = _("The spectator")
        elif option == replay.EVERYTHING:
            label = _("Everything (every secret)")
        else:
            label = _("Seat %(n)s: %(name)s") % {"n": digits(int(option) + 1), "name": names[int(option)]}
        choices.append({"value": str(option), "label": label, "selected": option == eyes})
    return {
        "names": names,
        "step": step,
        "last": last,
        "eyes": str(eyes),
        "eyes_choices": choices,
        "nav": {
            "first": _step_url(access, 0, eyes),
            "prev": _step_url(access, max(0, step - 1), eyes),
            "next": _step_url(access, min(last, step + 1), eyes),
            "last": _step_url(access, last, eyes),
        },
        "move_urls": {seq: _step_url(access, seq, eyes) for seq in range(1, last + 1)},
    }


@require_safe
def verify(request: HttpRequest, match_id: int) -> HttpResponse:
    """Verify this deal: recompute the seed from the revealed secret and replay every move."""
    access = match_for(request, match_id)
    ctx = _page_context(request, access)
    ctx["verdict"] = deals.verify(access.match)
    ctx["secret"] = deals.revealed_secret(access.match)
    return render(request, "history/verify.html", ctx, status=200 if ctx["verdict"].ok else 409)


@login_required(login_url="accounts:guest")
@require_POST
def set_unlisted(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player of a practice game keeps it off the public record, or puts it back."""
    access = match_for(request, match_id)
    match = access.match
    if access.seat is None:
        messages.error(request, _("Only the players of a match can change who sees it."))
    elif not is_practice(match):
        messages.error(request, _("Only practice games (with bots) can be unlisted."))
    else:
        match.unlisted = request.POST.get("unlisted") == "1"
        match.save(update_fields=["unlisted"])
        messages.success(
            request,
            _("Only its players can see this match now.") if match.unlisted else _("This match is listed again."),
        )
    return redirect("history:match", match_id=match.pk)
