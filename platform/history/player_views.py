"""Players' profiles (/players/<name>/) and the per-game leaderboards."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.models import FormerName, User
from clubs.permissions import Act, may, visible_club_or_404
from games import registry
from history import club_boards, profiles
from history.models import PROVISIONAL_GAMES, PROVISIONAL_SIGMA, ProfileSettings


@require_safe
def search(request: HttpRequest) -> HttpResponse:
    """Find a player by name: their profile is a click away (hidden ones only for those who may)."""
    query = request.GET.get("q", "")[:40]
    found = profiles.search(query, request.user)
    short = bool(query.strip()) and len(" ".join(query.split())) < profiles.SEARCH_MIN_CHARS
    return render(request, "history/player_search.html", {"q": query, "found": found, "short": short})


def _alike(name: str) -> User | None:
    """The player a mistyped address means: regardless of case, when only one player's name
    matches (an address typed as /players/Ava/ for ava), which the caller redirects to."""
    alike = list(User.objects.filter(username__iexact=name)[:2])
    return alike[0] if len(alike) == 1 else None


def _formerly_named(name: str) -> User | None:
    """The player who was known by ``name`` before (a guest who signed up or logged in)."""
    former = FormerName.objects.filter(name=name).select_related("user").first()
    return former.user if former is not None else None


def _hidden(request: HttpRequest, owner: User) -> HttpResponse:
    return render(request, "history/profile_hidden.html", {"owner": owner}, status=403)


@require_safe
def profile(request: HttpRequest, name: str) -> HttpResponse:
    owner = User.objects.filter(username=name).first()
    if owner is None and (former := _formerly_named(name)) is not None:
        # An address shared while the player was a guest leads on for good, but only for those
        # who may see the profile: the others get the hidden page where they stand, so the
        # account's own address is not told.
        if not profiles.may_view_profile(former, request.user):
            return _hidden(request, former)
        return HttpResponsePermanentRedirect(reverse("players:profile", args=[former.username]))
    if owner is None and (owner := _alike(name)) is not None:
        return redirect("players:profile", name=owner.username)
    if owner is None:
        raise Http404("no such player")
    if not profiles.may_view_profile(owner, request.user):
        return _hidden(request, owner)
    return render(
        request,
        "history/profile.html",
        {
            "owner": owner,
            "is_me": request.user.is_authenticated and request.user.pk == owner.pk,
            "hidden": profiles.is_hidden(owner),
            "ratings": profiles.rating_rows(owner),
            "record": profiles.record(owner),
            "recent": profiles.recent_matches(owner, request.user),
            "clubs": profiles.clubs_of(owner, request.user),
        },
    )


@login_required(login_url="accounts:guest")
@require_POST
def set_hidden(request: HttpRequest, name: str) -> HttpResponse:
    owner = get_object_or_404(User, username=name)
    if owner.pk != request.user.pk:
        messages.error(request, _("Only the player can change who sees their profile."))
        return redirect("players:profile", name=owner.username)
    hidden = request.POST.get("hidden") == "1"
    ProfileSettings.objects.update_or_create(user=owner, defaults={"hidden": hidden})
    messages.success(
        request,
        _("Your profile is hidden from strangers now.") if hidden else _("Your profile is open to everyone now."),
    )
    return redirect("players:profile", name=owner.username)


@require_safe
def leaderboards(request: HttpRequest) -> HttpResponse:
    return redirect("players:leaderboard", slug=registry.all()[0].slug)


def _engine_or_404(slug: str):  # noqa: ANN202
    try:
        return registry.get(slug)
    except KeyError:
        raise Http404("no such game") from None


@require_safe
def club_leaderboard(request: HttpRequest, slug: str, club: str) -> HttpResponse:
    """A club's own board: its members only (a club's names are for its members, issue 11)."""
    engine = _engine_or_404(slug)
    the_club = visible_club_or_404(request.user, club)
    if not may(request.user, Act.SEE_MEMBERS, the_club):
        return render(request, "history/club_leaderboard_closed.html", {"club": the_club}, status=403)
    rows, provisional = club_boards.club_leaderboard(the_club, slug)
    return _board(request, engine, rows, club=the_club, provisional_left_out=provisional)


def _board(request: HttpRequest, engine: Any, rows: list[Any], **extra: Any) -> HttpResponse:
    context = {
        "engine": engine,
        "slug": engine.slug,
        "engines": registry.all(),
        "rows": rows,
        "provisional_games": PROVISIONAL_GAMES,
        "provisional_sigma": PROVISIONAL_SIGMA,
        **extra,
    }
    return render(request, "history/leaderboard.html", context)


@require_safe
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    engine = _engine_or_404(slug)
    return _board(request, engine, profiles.leaderboard(slug), provisional_left_out=profiles.provisional_count(slug))
