"""Telling the night page's open sockets that who-is-going changed. The message names only the
night; each socket renders the counts itself (clubs.consumers)."""

from __future__ import annotations

import hashlib

from django.conf import settings

from clubs.models import Night
from tables import broadcast


def group_name(night_id: int) -> str:
    # the database's name keeps two test runs (or two sites) sharing one Redis apart
    site = hashlib.sha1(str(settings.DATABASES["default"]["NAME"]).encode()).hexdigest()[:10]
    return f"club-night-{site}-{night_id}"


def night_changed(night: Night) -> None:
    """After the commit; a failed send is logged and dropped, as every table's is (tables.broadcast)."""
    broadcast.after_commit(group_name(night.pk), {"type": "night.changed"})
