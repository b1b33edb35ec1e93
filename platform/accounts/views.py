"""Guest play, sign-up, log-in, log-out and the profile page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.claims import merge_guest_into, upgrade_guest
from accounts.forms import GuestForm, LogInForm, SignUpForm
from accounts.models import User
from moderation.bans import ban_of_device, ban_text
from shabneshin import ratelimit


def _next_url(request: HttpRequest, default: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or default
    host = {request.get_host()}
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts=host, require_https=request.is_secure())
    return target if safe else default


def _new_identity_refused(request: HttpRequest, form: Form, limit: ratelimit.Limit) -> bool:
    """A new guest or account is refused on a device a banned player has used
    (moderation/devices.py), and past the per-address hourly limit. The form keeps its input."""
    ban = ban_of_device(getattr(request, "device", None))
    if ban is not None:
        form.add_error(None, ban_text(ban))
        return True
    if not limit.allows(ratelimit.address(request)):
        form.add_error(None, _("Too many new names from your address in the last hour. Try again later."))
        return True
    return False


@require_http_methods(["GET", "HEAD", "POST"])
def guest(request: HttpRequest) -> HttpResponse:
    form = GuestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if request.user.is_authenticated:
            return redirect(_next_url(request))
        if _new_identity_refused(request, form, ratelimit.GUESTS):
            return render(request, "accounts/guest.html", {"form": form, "next": _next_url(request)})
        user = User.create_guest(form.cleaned_data["display_name"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request))
    return render(request, "accounts/guest.html", {"form": form, "next": _next_url(request)})


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    current = request.user if request.user.is_authenticated else None
    if current is not None and not current.is_guest:
        return redirect("tables:lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and not _new_identity_refused(request, form, ratelimit.SIGN_UPS):
        if current is not None:
            data = form.cleaned_data
            user = upgrade_guest(current, data["username"], data["password1"], data["display_name"])
            messages.success(request, _("Your account is ready, and your games came with you."))
        else:
            user = form.save()
            messages.success(request, _("Welcome! Your account is ready."))
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request, "/"))
    return render(request, "accounts/signup.html", {"form": form, "next": _next_url(request)})


@require_http_methods(["GET", "HEAD", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    form = LogInForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        account = form.get_user()
        guest_user = request.user if request.user.is_authenticated and request.user.is_guest else None
        login(request, account)
        if guest_user is not None:
            moved = merge_guest_into(guest_user, account)
            if moved:
                messages.success(request, _("Your guest games were added to your account."))
        return redirect(_next_url(request, "/"))
    return render(request, "accounts/login.html", {"form": form, "next": _next_url(request)})


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    """Log out. A guest has no password to come back with, so they are first told that their seats
    and games will be lost, and offered to sign up instead; they log out once they confirm."""
    if request.user.is_authenticated and request.user.is_guest and request.POST.get("confirm") != "1":
        return render(request, "accounts/logout_confirm.html")
    logout(request)
    return redirect("tables:lobby")
