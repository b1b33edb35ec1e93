from __future__ import annotations

from django.http import HttpRequest

from clubs.models import Notification


def unread(request: HttpRequest) -> dict[str, object]:
    """The header's unread count, read only when a page asks for it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": lambda: Notification.objects.filter(user=user, read_at__isnull=True).count()}
