"""Players' profiles (/players/<name>/) and the per-game leaderboards."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.models import User
from games import registry
from history import profiles
from history.models import PROVISIONAL_GAMES, PROVISIONAL_SIGMA, ProfileSettings


@require_safe
def profile(request: HttpRequest, name: str) -> HttpResponse:
    owner = get_object_or_404(User, username=name)
    if not profiles.may_view_profile(owner, request.user):
        return render(request, "history/profile_hidden.html", {"owner": owner}, status=403)
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


@require_safe
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        engine = registry.get(slug)
    except KeyError:
        raise Http404("no such game") from None
    return render(
        request,
        "history/leaderboard.html",
        {
            "engine": engine,
            "slug": slug,
            "engines": registry.all(),
            "rows": profiles.leaderboard(slug),
            "provisional_games": PROVISIONAL_GAMES,
            "provisional_sigma": PROVISIONAL_SIGMA,
        },
    )
