from __future__ import annotations

from django.urls import path

from clubs.consumers import NightConsumer
from tables import consumers

websocket_urlpatterns = [
    path("ws/tables/<str:token>/", consumers.TableConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/clubs/<slug:slug>/nights/<int:night_id>/", NightConsumer.as_asgi()),
]
