from __future__ import annotations

from django.http import HttpRequest

from clubs import my_nights
from clubs.models import Notification


def unread(request: HttpRequest) -> dict[str, object]:
    """The header's unread count, and whether a guest came to a night (a walk-in: their nights
    and the recap's notification are theirs), read only when a page asks for them."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "unread_notifications": lambda: Notification.objects.filter(user=user, read_at__isnull=True).count(),
        "came_to_a_night": lambda: my_nights.ever_came(user),
    }
