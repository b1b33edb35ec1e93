"""The host's menu as forms (tables.host): one POST for every power, a confirmation page of its
own (no script needed) before a kick, a kick-to-bot or a hand-over, and the settings page of an
open table. Whoever is not the host is refused with a message and nothing changes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tables import host, renderer
from tables.forms import CreateTableForm
from tables.models import Table
from tables.seating import SeatingError


def _target_name(table: Table, target: str) -> str | None:
    seat, player = host.target_of({"target": target})
    seats = list(table.seats.select_related("user").order_by("number"))
    names = renderer.seat_names_of(seats)
    return next((names[s.number] for s in seats if s.number == seat and s.user_id == player and player), None)


@login_required(login_url="accounts:guest")
@require_POST
def power(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(Table, token=token)
    name = request.POST.get("power", "")
    asks = name in host.CONFIRMED_POWERS and table.host_id == request.user.pk
    if asks and request.POST.get("confirm") != "1":
        target = "" if name == "end" else _target_name(table, request.POST.get("target", ""))
        if target is not None:
            ctx = {"table": table, "game": table.engine, "power": name, "target": target, "post": request.POST}
            return render(request, "tables/host_confirm.html", ctx)
    try:
        host.act(table, request.user, name, request.POST)
    except SeatingError as exc:
        messages.error(request, exc.message)
    return redirect("tables:detail", token=table.token)


def _initial(table: Table) -> dict[str, object]:
    initial: dict[str, object] = {"seat_count": table.seat_count, "visibility": table.visibility, "speed": table.speed}
    for option in table.engine.options:
        value = table.options.get(option.key, option.default)
        initial[f"opt_{option.key}"] = value if isinstance(value, bool) else str(value)
    return initial


@login_required(login_url="accounts:guest")
@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(Table, token=token)
    if table.host_id != request.user.pk or table.status != Table.Status.OPEN:
        messages.error(request, _("Only the host can change the settings, and only before the start."))
        return redirect("tables:detail", token=table.token)
    form = CreateTableForm(table.engine, request.POST or None, initial=_initial(table))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            host.change_settings(
                table, request.user, data["seat_count"], data["visibility"], form.game_options(), data["speed"]
            )
        except SeatingError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("tables:detail", token=table.token)
    return render(request, "tables/host_settings.html", {"form": form, "game": table.engine, "table": table})
