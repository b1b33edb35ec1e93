"""The yardstick: a bare Channels fan-out echo, shipped with the benchmark and not part of the site.

One ``AsyncWebsocketConsumer`` per socket at ``/ws/echo/<table>/``; every frame a socket sends is
``group_send`` to its table's group and each socket of the table sends it on. It uses the site's
own channel layer settings, so it stands on exactly the stack the site stands on. Serve it with
``PYTHONPATH=platform:. daphne scripts.bench.echo:application``.
"""

from __future__ import annotations

import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shabneshin.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"echo.{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.frame", "text": text_data or ""})

    async def echo_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter({"websocket": URLRouter([path("ws/echo/<str:table>/", EchoConsumer.as_asgi())])})
