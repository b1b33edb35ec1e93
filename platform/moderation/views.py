"""A player's own tools about another person at a table (seated, writing in its chat, or come to
watch it): report them (or one of their chat lines), mute them for yourself, block them from your
tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from moderation.forms import ReportForm
from moderation.models import Block, PersonalMute, Report
from tables import broadcast
from tables.models import ChatMessage, Table, Watcher

WATCHERS_SHOWN = 100  # the latest to come; a table is rarely watched by more


def _present(table: Table, user_id: int) -> User | None:
    """The person ``user_id`` if they are at ``table``: seated there, writing in its chat, or come
    to watch it while signed in (tables.presence.came_to_watch). None for anyone else, whether such
    a user exists or not, so the answer tells nothing of them."""
    at_table = (
        Q(pk__in=table.seats.values("user_id"))
        | Q(pk__in=table.chat.values("author_id"))
        | Q(pk__in=table.watchers.values("user_id"))
    )
    return User.objects.filter(at_table, pk=user_id).first()


def _at_table(request: HttpRequest, token: str, user_id: int) -> tuple[Table, User]:
    """The table and the other person, who must be at it (:func:`_present`)."""
    table = get_object_or_404(Table, token=token)
    other = _present(table, user_id)
    if other is None or other.pk == request.user.pk:
        raise Http404("no such player at this table")
    return table, other


def _message(request: HttpRequest, table: Table, other: User) -> ChatMessage | None:
    raw = request.POST.get("message") or request.GET.get("message") or ""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        return None
    return ChatMessage.objects.filter(pk=int(raw), table=table, author=other).first()


@login_required(login_url="accounts:guest")
@require_http_methods(["GET", "HEAD", "POST"])
def player(request: HttpRequest, token: str, user_id: int) -> HttpResponse:
    table, other = _at_table(request, token, user_id)
    message = _message(request, table, other)
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        Report.objects.create(
            reporter=request.user,
            reported=other,
            table=table,
            message=message,
            reason=form.cleaned_data["reason"],
            note=form.cleaned_data["note"],
        )
        messages.success(request, _("Thank you. A moderator will look at your report."))
        return redirect("tables:detail", token=table.token)
    ctx = {
        "table": table,
        "other": other,
        "message": message,
        "form": form,
        "muted": PersonalMute.objects.filter(muter=request.user, muted=other).exists(),
        "blocked": Block.objects.filter(blocker=request.user, blocked=other).exists(),
    }
    return render(request, "moderation/player.html", ctx)


def _toggle(request: HttpRequest, token: str, user_id: int, model, mine: str, theirs: str, on: str, off: str):  # noqa: ANN001, ANN202
    table = get_object_or_404(Table, token=token)
    other = _present(table, user_id)
    if other is None or other.pk == request.user.pk:  # a forged or stale form: nothing changes
        messages.error(
            request,
            _("That person is not at this table. You can block or mute only someone who sits, writes or watches here."),
        )
        return redirect("tables:detail", token=table.token)
    rows = model.objects.filter(**{mine: request.user, theirs: other})
    if request.POST.get("on") == "1":
        model.objects.get_or_create(**{mine: request.user, theirs: other})
        messages.success(request, on % {"name": other})
    else:
        rows.delete()
        messages.success(request, off % {"name": other})
    return redirect("moderation:player", token=table.token, user_id=other.pk)


@login_required(login_url="accounts:guest")
@require_POST
def mute(request: HttpRequest, token: str, user_id: int) -> HttpResponse:
    return _toggle(
        request,
        token,
        user_id,
        PersonalMute,
        "muter",
        "muted",
        _("You no longer see %(name)s's chat lines."),
        _("You see %(name)s's chat lines again."),
    )


@login_required(login_url="accounts:guest")
@require_POST
def block(request: HttpRequest, token: str, user_id: int) -> HttpResponse:
    response = _toggle(
        request,
        token,
        user_id,
        Block,
        "blocker",
        "blocked",
        _("%(name)s can no longer join the tables you host."),
        _("%(name)s may join your tables again."),
    )
    _hosted_tables_changed(request.user)
    return response


@login_required(login_url="accounts:guest")
@require_GET
def watchers(request: HttpRequest, token: str) -> HttpResponse:
    """Who came to watch the table while signed in and is not seated at it: each name leads to the
    same page as a seated player's (:func:`player`), to block, mute or report them. Anyone without
    an account is not known by name, and is not listed."""
    table = get_object_or_404(Table, token=token)
    seated = table.seats.filter(user__isnull=False).values("user_id")
    rows = (
        Watcher.objects.filter(table=table)
        .exclude(user_id__in=seated)
        .exclude(user_id=request.user.pk)
        .select_related("user")
        .order_by("-came_at", "pk")[:WATCHERS_SHOWN]
    )
    return render(request, "moderation/watchers.html", {"table": table, "watchers": [w.user for w in rows]})


@login_required(login_url="accounts:guest")
@require_http_methods(["GET", "HEAD", "POST"])
def mine(request: HttpRequest) -> HttpResponse:
    """The people one has blocked or muted, each with a button to end it: reachable from one's
    account settings and from any player's page, so a block outlives the table it was made at. A
    POST names a person by ``user`` and a ``kind`` ("block" or "mute"); a forged or stale one (no
    such block or mute of one's own) changes nothing and is told so."""
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        raw = request.POST.get("user", "")
        other = None
        if kind in ("block", "mute") and raw.isascii() and raw.isdigit() and len(raw) <= 18:
            other = _end_own(request.user, kind, int(raw))
        if other is None:
            messages.error(request, _("That block or mute is already gone. The list below is as it stands now."))
        elif kind == "block":
            _hosted_tables_changed(request.user)
            messages.success(request, _("%(name)s may join your tables again.") % {"name": other})
        else:
            messages.success(request, _("You see %(name)s's chat lines again.") % {"name": other})
        return redirect("moderation:mine")
    blocks = Block.objects.filter(blocker=request.user).select_related("blocked").order_by("-created_at", "pk")
    mutes = PersonalMute.objects.filter(muter=request.user).select_related("muted").order_by("-created_at", "pk")
    ctx = {"blocked": [b.blocked for b in blocks], "muted": [m.muted for m in mutes]}
    return render(request, "moderation/mine.html", ctx)


def _end_own(user: User, kind: str, other_id: int) -> User | None:
    """Ends ``user``'s own block (``kind`` "block") or mute of ``other_id``: the person it was
    about, or None if there was none (nothing changes)."""
    model, mine, theirs = (Block, "blocker", "blocked") if kind == "block" else (PersonalMute, "muter", "muted")
    row = model.objects.filter(**{mine: user, f"{theirs}_id": other_id}).select_related(theirs).first()
    if row is None:
        return None
    row.delete()
    return getattr(row, theirs)


def _hosted_tables_changed(host: User) -> None:
    """A block (or its end) changes whom the host's open tables offer a seat (tables.renderer)
    and the lobby lists them to (tables.lobby): their pages and the lobby are told."""
    for token in Table.objects.filter(host=host, status=Table.Status.OPEN).values_list("token", flat=True):
        broadcast.table_changed(token)
    broadcast.lobby_changed()
