"""A player's own tools about another player at a table: report them (or one of their chat
lines), mute them for yourself, block them from your tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from moderation.forms import ReportForm
from moderation.models import Block, PersonalMute, Report
from tables import broadcast
from tables.models import ChatMessage, Table


def _at_table(request: HttpRequest, token: str, user_id: int) -> tuple[Table, User]:
    """The table and the other player, who must be seated there or have written in its chat."""
    table = get_object_or_404(Table, token=token)
    other = get_object_or_404(User, pk=user_id)
    present = table.seats.filter(user=other).exists() or table.chat.filter(author=other).exists()
    if other.pk == request.user.pk or not present:
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
    table, other = _at_table(request, token, user_id)
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


def _hosted_tables_changed(host: User) -> None:
    """A block (or its end) changes whom the host's open tables offer a seat (tables.renderer)
    and the lobby lists them to (tables.lobby): their pages and the lobby are told."""
    for token in Table.objects.filter(host=host, status=Table.Status.OPEN).values_list("token", flat=True):
        broadcast.table_changed(token)
    broadcast.lobby_changed()
