"""A long-lived signed device cookie, so that a ban holds against a new guest name.

Every browser gets a random device id in a cookie signed with ``SECRET_KEY``
(``django.core.signing``): it cannot be forged or copied from another id, and each player it
logs in as is recorded (``Device``). A ban covers its player's devices, so the same browser cannot
come back as a fresh guest.

What it cannot stop, honestly: a player who clears their cookies, opens a private window or
another browser or machine gets a new device id, and is then caught only when they log in to a
banned account. And a shared browser (a family computer, a café) carries one player's ban to
everyone who uses it. It raises the cost of coming back; it is not an identity check.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.core import signing
from django.http import HttpRequest, HttpResponse

COOKIE = "shabneshin_device"
SALT = "shabneshin.device"
MAX_AGE = 10 * 365 * 24 * 3600
SESSION_LINK = "_device_linked"


def device_from_cookie(value: str | None) -> str | None:
    """The device id in a signed cookie value, or ``None`` when it is absent or forged."""
    if not value:
        return None
    try:
        return str(signing.get_cookie_signer(salt=SALT).unsign(value, max_age=MAX_AGE))
    except signing.BadSignature:
        return None


def link(user: Any, device: str) -> None:
    from moderation.models import Device

    Device.objects.get_or_create(user=user, device=device)


class DeviceMiddleware:
    """Gives every browser its device id (``request.device``), records which players use it, and
    logs out a player whose account is banned, showing the reason."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from moderation import bans

        device = device_from_cookie(request.COOKIES.get(COOKIE))
        fresh = device is None
        request.device = device or secrets.token_urlsafe(24)  # type: ignore[attr-defined]
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ban = bans.ban_of(user)
            if ban is not None:
                logout(request)
                messages.error(request, bans.ban_text(ban))
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and hasattr(request, "session"):
            if request.session.get(SESSION_LINK) != request.device:  # type: ignore[attr-defined]
                link(user, request.device)  # type: ignore[attr-defined]
                request.session[SESSION_LINK] = request.device  # type: ignore[attr-defined]
        if fresh:
            signed = signing.get_cookie_signer(salt=SALT).sign(request.device)  # type: ignore[attr-defined]
            response.set_cookie(COOKIE, signed, max_age=MAX_AGE, httponly=True, samesite="Lax")
        return response
