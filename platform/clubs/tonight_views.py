"""The night itself (issue 12): check-in, rounds and their seating, awards and penalties, the end
of the night, the recap and the verify page. Every view asks ``clubs.permissions`` first (an
outsider of a private club gets 404, a role that may not act 403) and every refused action is
a translated message that changes nothing."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth import login
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs import checkin, recap, rounds, scoreboard, tonight
from clubs.models import Award, Club, Membership, Night, Penalty, RoundTable
from clubs.permissions import Act, may, may_see_nights_people, night_or_404, visible_club_or_404
from clubs.views import _night_or_404, _require, members_only
from shabneshin.number_inputs import DigitsIntegerField, read_number

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
    club = visible_club_or_404(request.user, slug)
    reason = _("Only members of the club can check in themselves. Nothing was saved.")
    refused = members_only(request, club, night_id, reason)
    if refused is not None:
        return refused
    night = _night_or_404(club, night_id)
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
    ctx.update(tonight.context(request.user, club, night, may(request.user, Act.RUN_NIGHT, club)))
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


# --- rounds ----------------------------------------------------------------------------------------

PERSON_RE = re.compile(r"^[uw][0-9]{1,12}$")


def _games_from(request: HttpRequest, night: Night) -> list[dict]:
    """The organizer's choice of games (``g`` checkboxes with ``min-<slug>``/``max-<slug>``), or
    ``mode=site``: every game the night offers."""
    if request.POST.get("mode") == "site":
        return rounds.night_games(night)
    options = {g.get("game"): g.get("options") or {} for g in night.games}
    count = DigitsIntegerField(required=False, invalid=_("Give the number of players as a number."))
    chosen = []
    for slug in list(dict.fromkeys(request.POST.getlist("g")))[:10]:
        try:
            bounds = [read_number(count, request.POST.get(f"{end}-{slug}", "")) for end in ("min", "max")]
        except ValueError as exc:
            raise rounds.RoundError(str(exc)) from None
        chosen.append(rounds.game_spec(slug, options.get(slug, {}), *bounds))
    return chosen


@require_POST
def round_start(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """Draw the next round's seating (or draw the current draft again)."""
    club, night = _club_night(request, slug, night_id, Act.RUN_NIGHT)

    def do() -> None:
        rounds.start_round(night, request.user, _games_from(request, night), request.POST.get("allow_bots") == "1")

    return _run(request, night, do, (rounds.RoundError,), _("The seating is drawn: check it, then confirm."))


def _person(request: HttpRequest, name: str) -> str:
    raw = request.POST.get(name, "")
    if not PERSON_RE.match(raw):
        raise rounds.RoundError(_("Choose two people to swap."))
    return raw


@require_POST
def round_action(request: HttpRequest, slug: str, night_id: int, round_id: int) -> HttpResponse:
    """The organizer's actions on a round: swap, lock, re-run, discard, confirm, start, end."""
    club, night = _club_night(request, slug, night_id, Act.RUN_NIGHT)
    action = request.POST.get("action", "")
    done = {
        "confirm": _("The tables are ready: everyone can see their table."),
        "start": _("Every table has started."),
        "end": _("The round has ended."),
    }.get(action, "")

    def do() -> None:
        if action == "swap":
            rounds.edit(night, round_id, ["swap", _person(request, "a"), _person(request, "b")])
        elif action == "lock":
            rounds.edit(night, round_id, ["lock", _posted_id(request, "table")])
        elif action == "rerun":
            rounds.edit(night, round_id, ["rerun"])
        elif action == "discard":
            rounds.discard_draft(night, round_id)
        elif action == "confirm":
            rounds.confirm(night, round_id, request.user)
        elif action == "start":
            rounds.start_tables(night, round_id)
        elif action == "end":
            rounds.end_round(night, round_id)
        else:
            raise rounds.RoundError(_("Unknown change to the seating."))

    return _run(request, night, do, (rounds.RoundError,), done)


@require_safe
def verify_page(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """The club's members may check it, once the night has ended (before: nothing to show). Like
    the recap and the scoreboard, it names the people of the night, which outsiders of a club do
    not see (as they do not see who is going)."""
    from clubs import verify

    club, night = _club_night(request, slug, night_id, Act.SEE_MEMBERS)
    if night.ended_at is None:
        return render(request, "clubs/verify.html", {"club": club, "night": night, "report": None}, status=404)
    report = verify.check(night)
    return render(
        request, "clubs/verify.html", {"club": club, "night": night, "report": report, "names": tonight.names(night)}
    )


# --- awards, penalties, the end, the recap -----------------------------------------------------------


def _round_table(night: Night, request: HttpRequest) -> RoundTable:
    row = (
        RoundTable.objects.filter(round__night=night, pk=_posted_id(request, "table"))
        .select_related("round__night", "table")
        .first()
    )
    if row is None:
        raise scoreboard.ScoreError(_("There is no such table tonight."))
    return row


@require_POST
def vote(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """A player's vote for their table's best player (a walk-in guest's too)."""
    club, night = night_or_404(request.user, slug, night_id)
    if not request.user.is_authenticated:
        raise PermissionDenied("log in to vote")

    def do() -> None:
        scoreboard.vote(_round_table(night, request), request.user, _posted_id(request, "player"))

    return _run(request, night, do, (scoreboard.ScoreError,), _("Your vote is counted."))


@require_POST
def awards(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """An organizer names a table's best player (``player``, or by the votes) or undoes it."""
    club, night = _club_night(request, slug, night_id, Act.RUN_NIGHT)
    action = request.POST.get("action", "")

    def do() -> None:
        if action == "undo":
            found = Award.objects.filter(round_table__round__night=night, pk=_posted_id(request, "award")).first()
            if found is None:
                raise scoreboard.ScoreError(_("There is no such award."))
            scoreboard.undo(night, found, request.user)
        elif action in ("pick", "by_vote"):
            pick = _posted_id(request, "player") if action == "pick" else None
            scoreboard.award(_round_table(night, request), request.user, pick)
        else:
            raise scoreboard.ScoreError(_("Name a best player or undo one."))

    return _run(request, night, do, (scoreboard.ScoreError,))


@require_POST
def penalties(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club, night = _club_night(request, slug, night_id, Act.RUN_NIGHT)
    action = request.POST.get("action", "")

    def do() -> None:
        if action == "undo":
            found = Penalty.objects.filter(night=night, pk=_posted_id(request, "penalty")).first()
            if found is None:
                raise scoreboard.ScoreError(_("There is no such penalty."))
            scoreboard.undo(night, found, request.user)
        elif action == "give":
            try:
                points = DigitsIntegerField(required=False, invalid=_("A penalty is 1 to 10 points."))
                value = read_number(points, request.POST.get("points", "1")) or 0  # none: refused as 0
            except ValueError as exc:
                raise scoreboard.ScoreError(str(exc)) from None
            scoreboard.penalise(
                night, _posted_id(request, "player"), request.POST.get("reason", ""), request.user, value
            )
        else:
            raise scoreboard.ScoreError(_("Give a penalty or undo one."))

    return _run(request, night, do, (scoreboard.ScoreError,))


@require_POST
def end_night(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club, night = _club_night(request, slug, night_id, Act.RUN_NIGHT)
    try:
        recap.end_night(night, request.user)
    except rounds.RoundError as exc:
        messages.error(request, exc.message)
        return _back(night)
    messages.success(request, _("The night has ended; everyone was sent the recap."))
    return redirect("clubs:recap", slug=slug, night_id=night.pk)


@require_safe
def recap_page(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club, night = night_or_404(request.user, slug, night_id)
    if not may_see_nights_people(request.user, night):
        raise PermissionDenied("not allowed in this club")
    if night.ended_at is None:
        return render(request, "clubs/recap.html", {"club": club, "night": night, "pending": True}, status=404)
    ctx = {"club": club, "night": night, "may_run": may(request.user, Act.RUN_NIGHT, club), **recap.context(night)}
    return render(request, "clubs/recap.html", ctx)


@require_POST
def repeat(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club, night = _club_night(request, slug, night_id, Act.PLAN)
    made = recap.repeat(night, request.user)
    messages.success(request, _("The next night is planned with the same settings."))
    return redirect("clubs:night", slug=slug, night_id=made.pk)
