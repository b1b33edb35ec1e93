"""Inside Job's mission cards for its templates, where only a mission's id is at hand (the face-down
mission deck of a replay): ``{{ "A08"|mission_trump }}`` is the trump suit printed on it
(``games.insidejob.missions``), which ``games/insidejob/_mission.html`` draws."""

from __future__ import annotations

from typing import Any

from django import template

from games.insidejob.missions import BY_ID

register = template.Library()


@register.filter
def mission_trump(mission_id: Any) -> str:
    mission = BY_ID.get(str(mission_id))
    return mission.trump if mission else ""
