"""Guest play, sign-up, log-in, log-out, a player's account settings and their password (changed,
or reset by an emailed link)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.claims import merge_guest_into, upgrade_guest
from accounts.forms import AccountForm, ChangePasswordForm, GuestForm, LogInForm, NewPasswordForm, SignUpForm
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
    # A guest signing up keeps the name the table knows them by, unless they type another.
    data = request.POST.copy() if request.method == "POST" else None
    if data is not None and current is not None and not data.get("display_name", "").strip():
        data["display_name"] = current.display_name
    form = SignUpForm(data, initial={"display_name": current.display_name} if current else None)
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
        return _with_language(redirect(_next_url(request, "/")), account.language)
    return render(request, "accounts/login.html", {"form": form, "next": _next_url(request)})


def _with_language(response: HttpResponse, language: str) -> HttpResponse:
    """The player's chosen language as the language cookie (LocaleMiddleware reads it), if any."""
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


def _playing_now(user: User) -> bool:
    from tables.models import Seat, Table

    return Seat.objects.filter(user=user, table__status=Table.Status.PLAYING).exists()


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """A registered player's settings. A guest has none yet: they are led to sign up."""
    if request.user.is_guest:
        messages.info(request, _("Sign up first: a guest has no account settings."))
        return redirect("accounts:signup")
    before = request.user.display_name
    form = AccountForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["display_name"] != before and _playing_now(request.user):
            form.add_error(
                "display_name", _("Your name cannot change while you play: the others know you by it. Finish first.")
            )
        else:
            user = form.save()
            translation.activate(user.language or translation.get_language())
            messages.success(request, _("Your settings are saved."))
            answer = _with_language(redirect("accounts:account"), user.language)
            if not user.language:  # "the browser's": the language cookie a choice set goes
                answer.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
            return answer
    return render(request, "accounts/account.html", {"form": form})


class PasswordChange(auth_views.PasswordChangeView):
    """Change one's password (the old one first). This session stays logged in; the player's other
    sessions end, as Django does with a changed password."""

    template_name = "accounts/password_change.html"
    form_class = ChangePasswordForm
    success_url = reverse_lazy("accounts:account")

    def dispatch(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.user.is_authenticated and request.user.is_guest:
            messages.info(request, _("Sign up first: a guest has no password."))
            return redirect("accounts:signup")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: Form) -> HttpResponse:
        messages.success(self.request, _("Your password is changed."))
        return super().form_valid(form)


class PasswordReset(auth_views.PasswordResetView):
    """Ask for a link to a new password by email. The answer is the same whether or not an account
    has that address (no one learns who plays here), and a flood of requests is refused per
    address and per email address (``RATE_PASSWORD_RESETS_PER_HOUR``)."""

    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: Form) -> HttpResponse:
        email = form.cleaned_data["email"].strip().casefold()
        allowed = ratelimit.PASSWORD_RESETS.allows(ratelimit.address(self.request))
        allowed = ratelimit.PASSWORD_RESETS.allows(f"email:{email}") and allowed
        if not allowed:
            form.add_error(None, _("Too many requests for a new password. Try again in an hour."))
            return self.form_invalid(form)
        return super().form_valid(form)


class PasswordResetDone(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    form_class = NewPasswordForm
    success_url = reverse_lazy("accounts:login")

    def form_valid(self, form: Form) -> HttpResponse:
        messages.success(self.request, _("Your new password is set: log in with it."))
        return super().form_valid(form)


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    """Log out. A guest has no password to come back with, so they are first told that their seats
    and games will be lost, and offered to sign up instead; they log out once they confirm."""
    if request.user.is_authenticated and request.user.is_guest and request.POST.get("confirm") != "1":
        return render(request, "accounts/logout_confirm.html")
    logout(request)
    return redirect("tables:lobby")
