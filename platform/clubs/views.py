"""Club and night pages and their forms. Every view asks ``clubs.permissions`` first: a club an
outsider may not see answers 404, an action a role may not take answers 403."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db.models import F, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import urlencode
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubs import calendar, invites, mailer, members, nights, recurrence, reminders, rsvp
from clubs import my_nights as nights_of_mine
from clubs.forms import ClubForm, JoinRequestForm, NightEditForm, NightForm, PreferencesForm
from clubs.models import Club, Invite, JoinRequest, Membership, Night, Notification, Offer, Preferences, Rsvp
from clubs.notifications import text as notification_text
from clubs.permissions import Act, Role, may, may_remove, night_or_404, role_of, visible_club_or_404
from shabneshin.localize import digits

# --- helpers ---------------------------------------------------------------------------------------


def _require(request: HttpRequest, club: Club, act: Act) -> None:
    if not may(request.user, act, club):
        raise PermissionDenied("not allowed in this club")


def members_only(request: HttpRequest, club: Club, night_id: int, reason: str) -> HttpResponse | None:
    """A member's form of the night page (answer, "I'm here") posted by someone who is no member
    (any more: removed, or left, while the page stayed open): the night's page again as it now
    is, with ``reason`` on top, and status 403; nothing is changed. A member the club refuses for
    another reason (a suspended club) gets the plain 403."""
    if may(request.user, Act.RSVP, club):
        return None
    if role_of(request.user, club) is not None or club.suspended:
        raise PermissionDenied("not allowed in this club")
    night = _night_or_404(club, night_id)
    messages.error(request, reason)
    return render(request, "clubs/night.html", night_context(request, club, night), status=403)


def _night_or_404(club: Club, night_id: int) -> Night:
    return get_object_or_404(Night.objects.select_related("club", "series"), pk=night_id, club=club)


def _sign_up_first(request: HttpRequest, next_url: str) -> HttpResponse:
    messages.info(request, _("Sign up first (it takes a moment, and you keep your name and games)."))
    return redirect(reverse("accounts:signup") + "?" + urlencode({"next": next_url}))


def _registered(request: HttpRequest) -> bool:
    return request.user.is_authenticated and not request.user.is_guest


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _upcoming(queryset):  # noqa: ANN001, ANN202
    """Nights still to come, or begun in the last six hours and not ended (a night in progress)."""
    return queryset.filter(starts_at__gte=timezone.now() - timedelta(hours=6), ended_at__isnull=True).order_by(
        "starts_at"
    )


# --- clubs -----------------------------------------------------------------------------------------


@require_safe
def club_list(request: HttpRequest) -> HttpResponse:
    public = Club.objects.filter(visibility=Club.Visibility.PUBLIC, suspended=False)
    mine = Club.objects.none()
    if request.user.is_authenticated:
        mine = Club.objects.filter(memberships__user=request.user, suspended=False)
    return render(request, "clubs/list.html", {"clubs": public, "my_clubs": mine})


@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    if not _registered(request):
        return _sign_up_first(request, reverse("clubs:create"))
    persian = (get_language() or "fa").startswith("fa")
    initial = {"language": "fa" if persian else "en", "time_zone": "Asia/Tehran" if persian else "UTC"}
    form = ClubForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        club = members.create_club(request.user, **form.cleaned_data)
        messages.success(request, _("Your club is ready. Plan its first night!"))
        return redirect("clubs:detail", slug=club.slug)
    return render(request, "clubs/club_form.html", {"form": form, "browser_tz": not persian})


@require_http_methods(["GET", "POST"])
def club_edit(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.EDIT_CLUB)
    form = ClubForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saved."))
        return redirect("clubs:detail", slug=form.instance.slug)
    return render(request, "clubs/club_form.html", {"form": form, "club": club})


@require_safe
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    nights_of = Night.objects.filter(club=club)
    now = timezone.now()
    ctx = {
        "club": club,
        "role": role_of(request.user, club),
        "upcoming": _upcoming(nights_of)[:20],
        "past": nights_of.filter(Q(starts_at__lt=now - timedelta(hours=6)) | Q(ended_at__isnull=False)).order_by(
            "-starts_at"
        )[:10],
        "members": Membership.objects.filter(club=club).select_related("user").order_by("role", "joined_at")
        if may(request.user, Act.SEE_MEMBERS, club)
        else None,
        "member_count": Membership.objects.filter(club=club).count(),
        "may": {act.value: may(request.user, act, club) for act in Act},
        "request_form": JoinRequestForm(),
        "pending_request": request.user.is_authenticated
        and JoinRequest.objects.filter(club=club, user=request.user, status=JoinRequest.Status.PENDING).exists(),
        "pending_requests": JoinRequest.objects.filter(club=club, status=JoinRequest.Status.PENDING).count()
        if may(request.user, Act.MANAGE_MEMBERS, club)
        else 0,
        "registered": _registered(request),
    }
    return render(request, "clubs/detail.html", ctx)


@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    if not _registered(request):
        return _sign_up_first(request, reverse("clubs:detail", kwargs={"slug": slug}))
    if may(request.user, Act.JOIN, club):
        members.join(club, request.user)
        messages.success(request, _("Welcome to %(club)s!") % {"club": club.name})
    elif may(request.user, Act.REQUEST, club):
        form = JoinRequestForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Your message is too long (500 characters at most)."))
        else:
            try:
                members.request_to_join(club, request.user, form.cleaned_data["message"])
            except members.MembershipError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Your request was sent; an organizer will answer."))
    elif role_of(request.user, club) is not None:
        messages.info(request, _("You are already a member."))
    else:
        raise PermissionDenied("this club joins by invite")
    return redirect("clubs:detail", slug=slug)


@require_POST
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.LEAVE)
    try:
        members.leave(club, request.user)
    except members.MembershipError as exc:
        messages.error(request, exc.message)
        return redirect("clubs:detail", slug=slug)
    messages.success(request, _("You left %(club)s.") % {"club": club.name})
    if club.visibility == Club.Visibility.PRIVATE:
        return redirect("clubs:list")
    return redirect("clubs:detail", slug=slug)


@require_safe
def member_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.SEE_MEMBERS)
    rows = list(Membership.objects.filter(club=club).select_related("user").order_by("role", "joined_at"))
    mine = role_of(request.user, club)
    for row in rows:  # a Remove button only where it would work (an organizer removes members only)
        row.removable = row.user_id != request.user.pk and may_remove(mine, row.role)
    ctx = {
        "club": club,
        "members": rows,
        "requests": JoinRequest.objects.filter(club=club, status=JoinRequest.Status.PENDING).select_related("user")
        if may(request.user, Act.MANAGE_MEMBERS, club)
        else [],
        "may": {act.value: may(request.user, act, club) for act in Act},
        "roles": Role.choices,
    }
    return render(request, "clubs/members.html", ctx)


def _member_action(request: HttpRequest, slug: str, act: Act, do) -> HttpResponse:  # noqa: ANN001
    club = visible_club_or_404(request.user, slug)
    _require(request, club, act)
    try:
        do(club)
    except members.MembershipError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Done."))
    return redirect("clubs:members", slug=slug)


@require_POST
def member_remove(request: HttpRequest, slug: str) -> HttpResponse:
    return _member_action(
        request, slug, Act.MANAGE_MEMBERS, lambda c: members.remove(c, request.user, request.POST.get("member", ""))
    )


@require_POST
def member_role(request: HttpRequest, slug: str) -> HttpResponse:
    post = request.POST
    return _member_action(
        request,
        slug,
        Act.SET_ROLES,
        lambda c: members.set_role(c, request.user, post.get("member", ""), post.get("role", "")),
    )


@require_POST
def request_decide(request: HttpRequest, slug: str) -> HttpResponse:
    def decide(club: Club) -> None:
        raw = request.POST.get("request", "")
        found = JoinRequest.objects.filter(club=club, pk=int(raw)).first() if raw.isascii() and raw.isdigit() else None
        if found is None:
            raise members.MembershipError(_("There is no such request."))
        members.decide(found, request.user, request.POST.get("decision") == "approve")

    return _member_action(request, slug, Act.MANAGE_MEMBERS, decide)


# --- invites ---------------------------------------------------------------------------------------


INVITE_DAYS = (1, 7, 30)


@require_http_methods(["GET", "POST"])
def invite_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.MANAGE_MEMBERS)
    if request.method == "POST":
        raw = request.POST.get("days", "")
        if raw not in {str(d) for d in INVITE_DAYS}:
            messages.error(request, _("Choose how long the link works."))
        else:
            invites.create(club, request.user, int(raw))
            messages.success(request, _("A new invite link is ready."))
        return redirect("clubs:invites", slug=slug)
    now = timezone.now()
    rows = []
    for invite in Invite.objects.filter(club=club, revoked_at__isnull=True, expires_at__gt=now).order_by("-created_at"):
        url = request.build_absolute_uri(
            reverse("clubs:invite", kwargs={"slug": slug, "token": invites.token_for(invite)})
        )
        rows.append(
            {
                "invite": invite,
                "url": url,
                "qr": segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff"),
            }
        )
    return render(request, "clubs/invites.html", {"club": club, "rows": rows, "days": INVITE_DAYS})


@require_POST
def invite_revoke(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.MANAGE_MEMBERS)
    raw = request.POST.get("invite", "")
    invite = Invite.objects.filter(club=club, pk=int(raw)).first() if raw.isascii() and raw.isdigit() else None
    if invite is None:
        messages.error(request, _("There is no such invite link."))
    else:
        invites.revoke(invite)
        messages.success(request, _("The invite link no longer works."))
    return redirect("clubs:invites", slug=slug)


@require_http_methods(["GET", "POST"])
def invite_accept(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    club = Club.objects.filter(slug=slug, suspended=False).first()
    if club is None:
        raise Http404("no such club")
    try:
        invite = invites.resolve(club, token)
    except invites.InviteError as exc:
        return render(request, "clubs/invite_problem.html", {"problem": exc.message}, status=400)
    if request.method == "POST":
        if not _registered(request):
            return _sign_up_first(request, request.path)
        if role_of(request.user, club) is None:
            members.join(club, request.user)
            Invite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
        messages.success(request, _("Welcome to %(club)s!") % {"club": club.name})
        return redirect("clubs:detail", slug=slug)
    return render(request, "clubs/invite.html", {"club": club, "registered": _registered(request)})


# --- nights ----------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def night_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.PLAN)
    form = NightForm(club, request.POST or None, initial={"games": nights.default_games(club)})
    if request.method == "POST" and form.is_valid():
        fields = form.night_fields()
        if form.cleaned_data.get("repeat"):
            series = nights.create_series(
                club, request.user, form.cleaned_data["repeat"], fields, form.cleaned_data["until"]
            )
            night = series.nights.order_by("starts_at").first()
            if night is None:
                form.add_error("until", _("The series ends before its first night."))
                series.delete()
                return render(request, "clubs/night_form.html", {"form": form, "club": club})
        else:
            night = nights.create_night(club, request.user, fields)
        messages.success(request, _("The night is planned."))
        return redirect("clubs:night", slug=slug, night_id=night.pk)
    return render(request, "clubs/night_form.html", {"form": form, "club": club})


def _night_initial(night: Night) -> dict:
    lead = int((night.starts_at - night.rsvp_deadline).total_seconds() // 60)
    return {
        "title": night.title,
        "starts": night.starts_at.astimezone(ZoneInfo(night.club.time_zone)).replace(tzinfo=None),
        "duration": int(night.duration.total_seconds() // 60),
        "online": night.online,
        "address": night.address,
        "place_note": night.place_note,
        "capacity": night.capacity,
        "rsvp_close": lead,
        "games": night.games,
        "fair_roles": night.fair_roles,
    }


def _refused_once_over(request: HttpRequest, night: Night) -> HttpResponse | None:
    """Back to the night's page with the reason, for an ended night (nights.refuse_change_if_over)."""
    try:
        nights.refuse_change_if_over(night)
    except nights.NightError as exc:
        messages.error(request, str(exc))
        return redirect("clubs:night", slug=night.club.slug, night_id=night.pk)
    return None


@require_http_methods(["GET", "POST"])
def night_edit(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.PLAN)
    night = _night_or_404(club, night_id)
    if night.cancelled:
        messages.error(request, _("This night was cancelled."))
        return redirect("clubs:night", slug=slug, night_id=night.pk)
    refused = _refused_once_over(request, night)
    if refused is not None:
        return refused
    in_series = night.series_id is not None
    form = NightEditForm(club, request.POST or None, initial=_night_initial(night), in_series=in_series)
    if request.method == "POST" and form.is_valid():
        fields = form.night_fields()
        if in_series and form.cleaned_data.get("scope") == "following":
            local = fields["starts_at"].astimezone(ZoneInfo(club.time_zone))
            changes = {k: fields[k] for k in recurrence.TEMPLATE_FIELDS}
            changes |= {
                "local_time": local.time().replace(tzinfo=None),
                "first_date": local.date(),
                "rsvp_lead": fields["starts_at"] - fields["rsvp_deadline"],
            }
            recurrence.edit_from(night.series, night.occurrence_date, request.user, changes)
        else:
            nights.update_night(night, fields)
        messages.success(request, _("Saved. Everyone going was told of any change of time or place."))
        return redirect("clubs:night", slug=slug, night_id=night.pk)
    return render(request, "clubs/night_form.html", {"form": form, "club": club, "night": night})


@require_POST
def night_cancel(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.PLAN)
    night = _night_or_404(club, night_id)
    try:
        nights.cancel_night(night)
    except nights.NightError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The night is cancelled; everyone going was told."))
    return redirect("clubs:night", slug=slug, night_id=night.pk)


@require_POST
def night_end_series(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """Cancel this night and every later one of its series, which repeats no more."""
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.PLAN)
    night = _night_or_404(club, night_id)
    if night.series_id is None or night.occurrence_date is None:
        messages.error(request, _("This night is not part of a series."))
        return redirect("clubs:night", slug=slug, night_id=night.pk)
    refused = _refused_once_over(request, night)
    if refused is not None:
        return refused
    try:
        count = recurrence.end_from(night.series, night.occurrence_date)
    except nights.NightError as exc:  # a later night's games have begun: nothing is ended
        messages.error(request, str(exc))
        return redirect("clubs:night", slug=slug, night_id=night.pk)
    messages.success(
        request,
        digits(
            ngettext(
                "The series ends here: %(n)d night is cancelled, and everyone going was told.",
                "The series ends here: %(n)d nights are cancelled, and everyone going was told.",
                count,
            )
            % {"n": count}
        ),
    )
    return redirect("clubs:detail", slug=slug)


def night_context(request: HttpRequest, club: Club, night: Night) -> dict:
    see = may(request.user, Act.SEE_MEMBERS, club)
    going = list(
        Rsvp.objects.filter(night=night, answer=Rsvp.Answer.GOING).select_related("user").order_by("updated_at")
    )
    waiting = rsvp.waitlist(night)
    mine = Rsvp.objects.filter(night=night, user=request.user).first() if request.user.is_authenticated else None
    ctx = {
        "club": club,
        "night": night,
        "going": going if see else None,
        "waiting": waiting if see else None,
        "going_count": len(going),
        "waiting_count": len(waiting),
        "mine": mine,
        # one's place in the line now, not the ticket drawn on joining it (others left before)
        "my_place": next((i for i, r in enumerate(waiting, 1) if mine is not None and r.pk == mine.pk), None),
        "offer": rsvp.pending_offer(night, request.user),
        "may": {act.value: may(request.user, act, club) for act in Act},
        "rsvp_open": night.rsvp_open(),
        "attendance_open": night.attendance_open(),
        "answers": [(Rsvp.Answer.GOING, _("Going")), (Rsvp.Answer.MAYBE, _("Maybe")), (Rsvp.Answer.NO, _("Not going"))],
        "registered": _registered(request),
    }
    # A member who has not answered yet sees the answer buttons right under the night's title,
    # date and place, on a phone's first screen; the rest of what the night is follows them.
    ctx["ask_first"] = ctx["may"][Act.RSVP] and not night.cancelled and ctx["rsvp_open"] and mine is None
    if may(request.user, Act.PLAN, club):
        answered = {r.user_id for r in going}
        members = list(Membership.objects.filter(club=club).select_related("user"))
        ctx["addable"] = [m for m in members if m.user_id not in answered]
        # Who else answered, and who has not: what an organizer plans the night with.
        answers = dict(Rsvp.objects.filter(night=night).values_list("user_id", "answer"))
        ctx["roll_call"] = {
            "maybe": [m.user for m in members if answers.get(m.user_id) == Rsvp.Answer.MAYBE],
            "no": [m.user for m in members if answers.get(m.user_id) == Rsvp.Answer.NO],
            "silent": [m.user for m in members if m.user_id not in answers],
        }
        member_ids = dict(Membership.objects.filter(club=club, user_id__in=answered).values_list("user_id", "pk"))
        for r in going:
            r.member_id = member_ids.get(r.user_id, "")
    from clubs.tonight_views import tonight_context

    ctx.update(tonight_context(request, club, night))
    return ctx


@require_safe
def night_detail(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club, night = night_or_404(request.user, slug, night_id)
    return render(request, "clubs/night.html", night_context(request, club, night))


@require_POST
def night_rsvp(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    if not _registered(request):
        return _sign_up_first(request, reverse("clubs:night", kwargs={"slug": slug, "night_id": night_id}))
    refused = members_only(request, club, night_id, _("Only members of the club can answer. Nothing was saved."))
    if refused is not None:
        return refused
    night = _night_or_404(club, night_id)
    try:
        answer = rsvp.answer(night, request.user, request.POST.get("answer", ""))
    except rsvp.RsvpError as exc:
        messages.error(request, exc.message)
    else:
        if answer.answer == Rsvp.Answer.WAITING:
            messages.info(
                request, _("The night is full: you are on the waitlist, and will be offered a seat that frees.")
            )
        else:
            messages.success(request, _("Your answer is saved."))
    return redirect("clubs:night", slug=slug, night_id=night.pk)


@require_POST
def night_attendee(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """An organizer adds someone as going or removes them, also after the deadline."""
    club = visible_club_or_404(request.user, slug)
    _require(request, club, Act.PLAN)
    night = _night_or_404(club, night_id)
    raw = request.POST.get("member", "")
    membership = (
        Membership.objects.filter(club=club, pk=int(raw)).select_related("user").first()
        if raw.isascii() and raw.isdigit() and len(raw) <= 18
        else None
    )
    if membership is None:
        messages.error(request, _("There is no such member in this club."))
        return redirect("clubs:night", slug=slug, night_id=night.pk)
    choice = Rsvp.Answer.GOING if request.POST.get("action") == "add" else Rsvp.Answer.NO
    try:
        rsvp.answer(night, membership.user, choice, organizer=True)
    except rsvp.RsvpError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Done."))
    return redirect("clubs:night", slug=slug, night_id=night.pk)


def _answer_offer(request: HttpRequest, night: Night, offer_id: int, user) -> None:  # noqa: ANN001
    decision = request.POST.get("decision")
    try:
        if decision == "accept":
            rsvp.accept(night, offer_id, user)
            messages.success(request, _("The seat is yours: you are going."))
        elif decision == "decline":
            rsvp.decline(night, offer_id, user)
            messages.success(request, _("The seat goes to the next person on the waitlist."))
        else:
            messages.error(request, _("Accept or decline the seat."))
    except rsvp.RsvpError as exc:
        messages.error(request, exc.message)


@login_required(login_url="accounts:login")
@require_POST
def night_offer(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    night = _night_or_404(club, night_id)
    raw = request.POST.get("offer", "")
    offer_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else 0
    _answer_offer(request, night, offer_id, request.user)
    return redirect("clubs:night", slug=slug, night_id=night.pk)


@require_http_methods(["GET", "POST"])
def offer_link(request: HttpRequest, slug: str, night_id: int, token: str) -> HttpResponse:
    """The signed link in the offer email: it names the offer and its person, so it works
    without logging in; GET only shows the choice, POST makes it."""
    try:
        data = signing.loads(token, salt=mailer.OFFER_SALT)
        offer = Offer.objects.select_related("night__club", "user").get(pk=int(data["o"]), user_id=int(data["u"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError, Offer.DoesNotExist):
        raise Http404("no such offer") from None
    night = offer.night
    if night.pk != night_id or night.club.slug != slug:
        raise Http404("no such offer")
    if request.method == "POST":
        _answer_offer(request, night, offer.pk, offer.user)
        offer.refresh_from_db()
    return render(request, "clubs/offer.html", {"offer": offer, "night": night, "club": night.club})


# --- calendars -------------------------------------------------------------------------------------


@require_safe
def night_ics(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = visible_club_or_404(request.user, slug)
    night = _night_or_404(club, night_id)
    minutes = Preferences.of(request.user).reminder_minutes if request.user.is_authenticated else 120
    attendee = request.user if request.user.is_authenticated else None
    return _ics(calendar.single(night, "PUBLISH", minutes, attendee), f"night-{night.pk}.ics")


@require_safe
def club_ics(request: HttpRequest, slug: str) -> HttpResponse:
    club = Club.objects.filter(slug=slug, suspended=False).first()
    if club is None or club.visibility == Club.Visibility.PRIVATE:
        raise Http404("no public feed")
    shown = Night.objects.filter(club=club).select_related("club").order_by("starts_at")
    return _ics(calendar.feed(club.name, shown), f"{club.slug}.ics")


@require_safe
def user_ics(request: HttpRequest, token: str) -> HttpResponse:
    prefs = Preferences.objects.filter(feed_token=token).select_related("user").first()
    if prefs is None:
        raise Http404("no such feed")
    shown = (
        Night.objects.filter(rsvps__user=prefs.user, rsvps__answer=Rsvp.Answer.GOING, club__suspended=False)
        .select_related("club")
        .order_by("starts_at")
    )
    # A calendar app sends no language: the feed is titled in the member's own, if they chose one.
    with translation.override(prefs.user.language or translation.get_language()):
        return _ics(calendar.feed(_("My game nights"), shown), "shabneshin.ics")


@login_required(login_url="accounts:login")
@require_http_methods(["GET", "POST"])
def calendar_settings(request: HttpRequest) -> HttpResponse:
    prefs = Preferences.of(request.user)
    form = PreferencesForm(request.POST or None, instance=prefs, initial={"email": request.user.email})
    if request.method == "POST":
        if request.POST.get("rotate"):
            prefs.feed_token = Preferences._meta.get_field("feed_token").default()
            prefs.save(update_fields=["feed_token"])
            messages.success(request, _("Your calendar has a new secret address; the old one no longer works."))
            return redirect("clubs:calendar")
        if form.is_valid():
            form.save()
            request.user.email = form.cleaned_data["email"]
            request.user.save(update_fields=["email"])
            for answer in Rsvp.objects.filter(
                user=request.user, answer=Rsvp.Answer.GOING, night__starts_at__gt=timezone.now()
            ):
                reminders.sync(answer.night, request.user)
            messages.success(request, _("Saved."))
            return redirect("clubs:calendar")
    feed = request.build_absolute_uri(reverse("clubs:user_ics", kwargs={"token": prefs.feed_token}))
    return render(request, "clubs/calendar.html", {"form": form, "feed": feed})


# --- my nights, notifications ----------------------------------------------------------------------


@login_required(login_url="accounts:login")
@require_safe
def my_nights(request: HttpRequest) -> HttpResponse:
    ctx = {"nights": nights_of_mine.upcoming(request.user), "came_to": nights_of_mine.came_to(request.user)}
    return render(request, "clubs/my_nights.html", ctx)


@login_required(login_url="accounts:login")
@require_http_methods(["GET", "POST"])
def notification_list(request: HttpRequest) -> HttpResponse:
    mine = Notification.objects.filter(user=request.user)
    if request.method == "POST":
        mine.filter(read_at__isnull=True).update(read_at=timezone.now())
        return redirect("clubs:notifications")
    rows = [{"n": n, "text": notification_text(n)} for n in mine[:100]]
    return render(request, "clubs/notifications.html", {"rows": rows})
