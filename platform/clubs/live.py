"""Telling the night page's open sockets that who-is-going changed. The message names only the
night; each socket renders the counts itself (clubs.consumers)."""

from __future__ import annotations

import hashlib

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from clubs.models import Night
from shabneshin import loop_db


def group_name(night_id: int) -> str:
    # the database's name keeps two test runs (or two sites) sharing one Redis apart
    site = hashlib.sha1(str(settings.DATABASES["default"]["NAME"]).encode()).hexdigest()[:10]
    return f"club-night-{site}-{night_id}"


def _send(night_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = loop_db.loop_at_work()
    if loop is not None:  # on the loop's own thread: it runs once the work is over
        loop_db.soon(loop, layer.group_send(group_name(night_id), {"type": "night.changed"}))
    else:
        async_to_sync(layer.group_send)(group_name(night_id), {"type": "night.changed"})


def night_changed(night: Night) -> None:
    transaction.on_commit(lambda: _send(night.pk))
