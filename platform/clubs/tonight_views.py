"""The night itself (issue 12): check-in, rounds and their seating, awards and penalties, the end
of the night, the recap and the verify page. Every view asks ``clubs.permissions`` first (an
outsider of a private club gets 404, a role that may not act 403) and every refused action is
a translated message that changes nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs import checkin
from clubs.models import Club, Membership, Night
from clubs.permissions import Act, may, visible_club_or_404
from clubs.views import _night_or_404, _require

WALKIN_SALT = "clubs.walkin"


def _posted_id(request: HttpRequest, name: str) -> int:
    raw = request.POST.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else 0


def _back(night: Night) -> HttpResponse:
    return redirect("clubs:night", slug=night.club.slug, night_id=night.pk)


def _club_night(request: HttpRequest, slug: str, night_id: int, act: Act) -> tuple[Club, Night]:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, act)
    return club, _night_or_404(club, night_id)


def _run(request: HttpRequest, night: Night, do, errors: tuple[type[Exception], ...], done: str = "") -> HttpResponse:  # noqa: ANN001
    """Do an action; a refusal becomes the page's error message, and the page is shown again."""
    try:
        do()
    except errors as exc:
        messages.error(request, exc.message)  # type: ignore[attr-defined]
    else:
        messages.success(request, done or _("Done."))
    return _back(night)


# --- check-in --------------------------------------------------------------------------------------


@require_POST
def check_in_self(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """ "I'm here"."""
    club, night = _club_night(request, slug, night_id, Act.RSVP)
    return _run(
        request,
        night,
        lambda: checkin.check_in_self(night, request.user),
        (checkin.CheckInError,),
        _("You are checked in. Have a good night!"),
    )


@require_POST
def check_in_others(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """An organizer checks a member in, someone out, or adds a walk-in guest."""
    club, night = _club_night(request, slug, night_id, Act.RUN_NIGHT)
    action = request.POST.get("action", "")

    def do() -> None:
        if action == "in":
            membership = Membership.objects.filter(club=club, pk=_posted_id(request, "member")).first()
            if membership is None:
                raise checkin.CheckInError(_("There is no such member in this club."))
            checkin.check_in_member(night, membership.user, request.user)
        elif action == "out":
            checkin.check_out(night, _posted_id(request, "checkin"), request.user)
        elif action == "walk_in":
            checkin.add_walk_in(night, request.POST.get("name", ""), request.user)
        else:
            raise checkin.CheckInError(_("Check someone in or out, or add a guest."))

    return _run(request, night, do, (checkin.CheckInError,))


def walkin_token(row) -> str:  # noqa: ANN001
    return signing.dumps({"c": row.pk, "u": row.user_id}, salt=WALKIN_SALT)


@require_safe
def walkin_link(request: HttpRequest, slug: str, night_id: int, token: str) -> HttpResponse:
    """The link an organizer hands a walk-in: it signs this device in as the walk-in's guest
    account, while the night runs. It works only for a guest account (never a member's)."""
    from clubs.models import CheckIn

    try:
        data = signing.loads(token, salt=WALKIN_SALT)
        row = CheckIn.objects.select_related("user", "night__club").get(pk=int(data["c"]), user_id=int(data["u"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError, CheckIn.DoesNotExist):
        raise Http404("no such guest") from None
    night = row.night
    if night.pk != night_id or night.club.slug != slug or not row.walk_in or not row.user.is_guest:
        raise Http404("no such guest")
    if night.ended_at is not None:
        messages.error(request, _("This night has ended."))
    elif not request.user.is_authenticated or request.user.pk != row.user_id:
        if request.user.is_authenticated and not request.user.is_guest:
            raise PermissionDenied("a signed-in member cannot take a guest's place")
        login(request, row.user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s! Your table will appear on this page.") % {"name": row.user})
    return _back(night)


def tonight_context(request: HttpRequest, club: Club, night: Night) -> dict:
    """What the night page shows of check-in."""
    rows = checkin.present(night)
    ctx = {
        "checkin_open": checkin.is_open(night),
        "checkin_opens": checkin.opens_at(night),
        "here": checkin.is_here(night, request.user),
        "checkin_count": len(rows),
        "checkins": rows if may(request.user, Act.SEE_MEMBERS, club) else None,
    }
    if may(request.user, Act.RUN_NIGHT, club):
        here = {r.user_id for r in rows}
        ctx["checkable"] = [
            m for m in Membership.objects.filter(club=club).select_related("user") if m.user_id not in here
        ]
        for row in rows:
            if row.walk_in:
                row.hand_over = request.build_absolute_uri(
                    f"/clubs/{club.slug}/nights/{night.pk}/walk-in/{walkin_token(row)}/"
                )
    return ctx
