"""Lobby, create-table, the table page and its seating forms, and each game's rules page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import registry
from games.base import IllegalAction
from history import ratings
from shabneshin import ratelimit
from tables import moderator, rendering, seating
from tables.forms import CreateTableForm
from tables.lobby import for_viewer, lobby_context, shut_out
from tables.models import Match, Table


def _engine_or_404(slug: str):  # noqa: ANN202
    try:
        return registry.get(slug)
    except KeyError:
        raise Http404("no such game") from None


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    ctx = lobby_context()
    if request.user.is_authenticated:
        ctx = for_viewer(ctx, shut_out(ctx["public_tables"], request.user.pk).get(request.user.pk, frozenset()))
        ctx["my_tables"] = (
            Table.objects.filter(seats__user=request.user, status__in=[Table.Status.OPEN, Table.Status.PLAYING])
            .distinct()
            .order_by("-created_at")[:20]
        )
    if request.htmx:
        return render(request, "tables/_lobby_tables.html", ctx)
    return render(request, "tables/lobby.html", ctx)


def _may_create_a_table(request: HttpRequest, form: CreateTableForm) -> bool:
    """Tables created per hour, per player and per address; the form keeps its choices."""
    allowed = ratelimit.TABLES_CREATED.allows(f"user:{request.user.pk}")
    allowed = ratelimit.TABLES_CREATED.allows(f"addr:{ratelimit.address(request)}") and allowed
    if not allowed:
        form.add_error(None, _("You have created many tables in the last hour. Try again later."))
    return allowed


@login_required(login_url="accounts:guest")
@require_http_methods(["GET", "HEAD", "POST"])
def create(request: HttpRequest, slug: str) -> HttpResponse:
    engine = _engine_or_404(slug)
    form = CreateTableForm(engine, request.POST or None)
    if request.method == "POST" and form.is_valid() and _may_create_a_table(request, form):
        try:
            table = seating.create_table(
                request.user,
                slug,
                form.cleaned_data["seat_count"],
                form.cleaned_data["visibility"],
                form.game_options(),
                form.cleaned_data["speed"],
            )
        except seating.SeatingError as exc:
            form.refuse(exc)
        else:
            return redirect("tables:detail", token=table.token)
    return render(request, "tables/create.html", {"form": form, "game": engine})


@require_safe
def detail(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(Table, token=token)
    ctx = rendering.context_for(table, request.user)
    ctx["invite_url"] = request.build_absolute_uri(reverse("tables:detail", kwargs={"token": table.token}))
    return render(request, "tables/table.html", ctx)


def _seating_action(request: HttpRequest, token: str, act) -> HttpResponse:  # noqa: ANN001
    table = get_object_or_404(Table, token=token)
    try:
        act(table)
    except seating.SeatingError as exc:
        messages.error(request, exc.message)
    return redirect("tables:detail", token=table.token)


def _seat_number(request: HttpRequest, table: Table) -> int | None:
    """The posted seat, or ``None`` when none was named (any free seat). Anything that is not a
    seat of this table raises ``SeatingError``, so that bad input changes nothing."""
    raw = request.POST.get("seat")
    if raw in (None, ""):
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3 and int(raw) < table.seat_count):
        raise seating.SeatingError(_("There is no such seat."))
    return int(raw)


@login_required(login_url="accounts:guest")
@require_POST
def sit(request: HttpRequest, token: str) -> HttpResponse:
    return _seating_action(request, token, lambda t: seating.sit(t, request.user, _seat_number(request, t)))


@login_required(login_url="accounts:guest")
@require_POST
def leave(request: HttpRequest, token: str) -> HttpResponse:
    """Leave a seat. A host whose leaving would close the table is asked first, on a page of its
    own (no script needed), and leaves only once they confirm."""
    table = get_object_or_404(Table, token=token)
    if request.POST.get("confirm") != "1" and seating.leaving_closes(table, request.user):
        return render(request, "tables/leave_confirm.html", {"table": table, "game": table.engine})
    return _seating_action(request, token, lambda t: seating.leave(t, request.user))


@login_required(login_url="accounts:guest")
@require_POST
def leave_game(request: HttpRequest, token: str) -> HttpResponse:
    """Give up one's seat in a running game for good (tables.moderator.leave_game), asked first on
    a page of its own (no script needed) that says whether the leave counts as a loss."""
    table = get_object_or_404(Table, token=token)
    match = Match.objects.filter(table=table).first()
    seat = table.seats.filter(user=request.user, left_at_version__isnull=True).first()
    may_leave = match is not None and match.status == Match.Status.PLAYING and seat is not None
    if may_leave and not match.engine.is_out(match.state, seat.number) and request.POST.get("confirm") != "1":
        ctx = {"table": table, "game": table.engine, "rated": ratings.counts_so_far(match)}
        return render(request, "tables/leave_game_confirm.html", ctx)
    try:
        moderator.leave_game(match.pk if match is not None else -1, request.user.pk)
    except IllegalAction as exc:
        messages.error(request, rendering.error_message(exc.code))
    return redirect("tables:detail", token=table.token)


@login_required(login_url="accounts:guest")
@require_POST
def add_bot(request: HttpRequest, token: str) -> HttpResponse:
    return _seating_action(request, token, lambda t: seating.add_bot(t, request.user, _seat_number(request, t)))


@login_required(login_url="accounts:guest")
@require_POST
def fill_bots(request: HttpRequest, token: str) -> HttpResponse:
    return _seating_action(request, token, lambda t: seating.fill_with_bots(t, request.user))


@login_required(login_url="accounts:guest")
@require_POST
def remove_bot(request: HttpRequest, token: str) -> HttpResponse:
    def act(table: Table) -> None:
        number = _seat_number(request, table)
        seating.remove_bot(table, request.user, -1 if number is None else number)

    return _seating_action(request, token, act)


@login_required(login_url="accounts:guest")
@require_POST
def start(request: HttpRequest, token: str) -> HttpResponse:
    return _seating_action(request, token, lambda t: seating.start(t, request.user))


@login_required(login_url="accounts:guest")
@require_POST
def play_again(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(Table, token=token)
    try:
        new = seating.play_again(table, request.user)
    except seating.SeatingError as exc:
        messages.error(request, exc.message)
        return redirect("tables:detail", token=table.token)
    return redirect("tables:detail", token=new.token)


@require_safe
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    engine = _engine_or_404(slug)
    language = (get_language() or "fa")[:2]
    try:
        body = select_template([f"games/{slug}/_rules_{language}.html", f"games/{slug}/_rules_en.html"])
    except TemplateDoesNotExist:
        raise Http404("no rules page yet") from None
    return render(request, "tables/rules.html", {"game": engine, "body": body.template.name})
