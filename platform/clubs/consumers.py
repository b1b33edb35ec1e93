"""The night page's socket: it sends the going and waitlist counts, and the night itself (each
table's game, status and progress, the reader's own table, the scoreboard), whenever they change. The
group message names only the night; the consumer checks visibility and renders the counts."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from clubs import live, rsvp, tonight
from clubs.models import Night
from clubs.permissions import Act, may, may_see_night
from shabneshin.dispatch import DispatchesOnTheLoop
from shabneshin.loop_db import database_work
from shabneshin.rejoin import RejoinsItsGroups
from tables.consumers import csrf_secret
from tables.language import language_from_scope


class NightConsumer(DispatchesOnTheLoop, RejoinsItsGroups, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.language = language_from_scope(self.scope)
        kwargs = self.scope["url_route"]["kwargs"]
        self.night_id = await self._visible_night(kwargs["slug"], int(kwargs["night_id"]))
        if self.night_id is None:
            await self.close(code=4404)
            return
        self.group = live.group_name(self.night_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=await self._render())

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    def groups_to_rejoin(self) -> list[str]:
        return [self.group] if getattr(self, "group", None) else []

    async def rejoined(self) -> None:
        await self.send(text_data=await self._render())

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the night page listens only

    async def night_changed(self, event: dict[str, Any]) -> None:
        html = await self._render()
        if html:
            await self.send(text_data=html)

    @database_work
    def _visible_night(self, slug: str, night_id: int) -> int | None:
        night = Night.objects.select_related("club").filter(pk=night_id, club__slug=slug).first()
        if night is None or not may_see_night(self.scope.get("user"), night):
            return None
        return night.pk

    @database_work
    def _render(self) -> str:
        night = Night.objects.select_related("club").filter(pk=self.night_id).first()
        if night is None or not may_see_night(self.scope.get("user"), night):
            return ""
        user = self.scope.get("user")
        ctx = {
            "night": night,
            "going_count": rsvp.going_count(night),
            "waiting_count": len(rsvp.waitlist(night)),
            "oob": True,
        }
        with translation.override(self.language):
            html = render_to_string("clubs/_counts.html", ctx)
            # A seat freed for this reader appears at once, with its accept and decline buttons.
            offer, csrf = rsvp.pending_offer(night, user), csrf_secret(self.scope)
            offer_ctx = {"offer": offer, "night": night, "club": night.club, "oob": True, "csrf": csrf}
            html += render_to_string("clubs/_offer.html", offer_ctx)
            if night.cancelled:
                return html
            organizer = may(user, Act.RUN_NIGHT, night.club)
            ctx.update(tonight.context(user, night.club, night, organizer))
            return html + render_to_string("clubs/_tonight.html", ctx)
