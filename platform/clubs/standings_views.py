"""The club's standings, its seasons, a member's page in the club, and the pair rules the
seating honours. Permissions as everywhere (clubs.permissions): the standings and member pages
name people, so they are for members; seasons are the owner's; pair rules the organizers'."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubs import standings
from clubs.models import Membership, PairRule, Season
from clubs.permissions import Act, may, visible_club_or_404
from clubs.views import _require
from shabneshin.date_inputs import CalendarDateInput, parse_date


def _posted_id(raw: str) -> int:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else 0


def _season_day_box(name: str) -> str:
    """A season's first or last day as the page's calendar writes it: the browser's picker on an
    English page, a Jalali text box on a Persian one (shabneshin.date_inputs)."""
    return CalendarDateInput().render(name, None, attrs={"required": True})


@require_safe
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.SEE_MEMBERS)
    seasons = list(Season.objects.filter(club=club))
    wanted = request.GET.get("season", "")
    season = next((s for s in seasons if str(s.pk) == wanted), None)
    if wanted and wanted != "all" and season is None:
        raise Http404("no such season")
    if not wanted and seasons:
        season = seasons[0]
    ctx = {
        "club": club,
        "seasons": seasons,
        "season": season,
        "rows": standings.leaderboard(club, season),
        # a former member or a walk-in guest keeps their row, but has no member page to link to
        "member_ids": set(Membership.objects.filter(club=club).values_list("user_id", flat=True)),
        "may_edit": may(request.user, Act.EDIT_CLUB, club),
        "starts_on_box": _season_day_box("starts_on"),
        "ends_on_box": _season_day_box("ends_on"),
    }
    return render(request, "clubs/standings.html", ctx)


@require_POST
def season_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.EDIT_CLUB)
    try:
        season = standings.add_season(
            club,
            request.user,
            request.POST.get("name", ""),
            parse_date(request.POST.get("starts_on", "")),
            parse_date(request.POST.get("ends_on", "")),
        )
    except standings.SeasonError as exc:
        messages.error(request, exc.message)
        return redirect("clubs:standings", slug=slug)
    messages.success(request, _("The season is set."))
    return redirect(f"/clubs/{slug}/standings/?season={season.pk}")


@require_safe
def member_page(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.SEE_MEMBERS)
    membership = Membership.objects.filter(club=club, user_id=user_id).select_related("user").first()
    if membership is None:
        raise Http404("not a member")
    ctx = {"club": club, "member": membership.user, "stats": standings.member_stats(club, membership.user)}
    return render(request, "clubs/member.html", ctx)


@require_http_methods(["GET", "POST"])
def pair_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """Keep apart (two who share a screen) or prefer together (a newcomer and a mentor)."""
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.RUN_NIGHT)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "remove":
            PairRule.objects.filter(club=club, pk=_posted_id(request.POST.get("rule", ""))).delete()
            messages.success(request, _("Done."))
        else:
            members = Membership.objects.filter(club=club)
            a = members.filter(pk=_posted_id(request.POST.get("a", ""))).first()
            b = members.filter(pk=_posted_id(request.POST.get("b", ""))).first()
            kind = request.POST.get("kind", "")
            if a is None or b is None or a.pk == b.pk:
                messages.error(request, _("Choose two different members of the club."))
            elif kind not in PairRule.Kind.values:
                messages.error(request, _("Choose keep apart or prefer together."))
            else:
                low, high = sorted([a.user_id, b.user_id])
                PairRule.objects.update_or_create(
                    club=club, a_id=low, b_id=high, defaults={"kind": kind, "created_by": request.user}
                )
                messages.success(request, _("The rule is set; the next seating honours it."))
        return redirect("clubs:pair_rules", slug=slug)
    ctx = {
        "club": club,
        "rules": PairRule.objects.filter(club=club).select_related("a", "b"),
        "members": Membership.objects.filter(club=club).select_related("user").order_by("user__display_name"),
        "kinds": PairRule.Kind.choices,
    }
    return render(request, "clubs/pair_rules.html", ctx)
