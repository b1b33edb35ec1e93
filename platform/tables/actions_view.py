"""What a game's ``#actions`` reads, for games that name what their action labels read.

Most moves leave a deciding seat's choices as they were (the other voters vote, the others pick at
night), yet they change its view, and with it every fragment's key; so the same buttons were
rendered again at every move. The generic ``tables/_actions.html`` reads the actions, the version
its forms carry and whether it is the viewer's turn; each button's label (the game's
``_action_label.html``), and the game's note above the buttons (``_actions_note.html``), read the
action, the seats' names and the part of the view that :data:`LABEL_READS` lists for the game.
The renderer renders ``#actions`` from those alone (:func:`actions_context`) and reuses it for
every version and audience with the same (``tables.renderer._actions``).

A label that read anything else would render it missing, never stale:
``tests/platform/test_actions_view.py`` renders the actions of whole games both ways (the whole
context, and these) for every seat in both languages and compares them. A game with its own
``_actions.html``, or not listed here, renders its actions from the whole context as before.
"""

from __future__ import annotations

from typing import Any

from tables.fingerprint import fingerprint

# What each game's _action_label.html, and its _actions_note.html above the buttons, read of the
# view (templates/games/<slug>/): werewolf's note shows the seer's findings beside the choices.
LABEL_READS: dict[str, tuple[str, ...]] = {
    "werewolf": ("my_role", "seer_results"),
}


def label_view(slug: str, view: dict[str, Any] | None) -> dict[str, Any] | None:
    """The part of ``view`` the game's labels read, or None where the game names none."""
    reads = LABEL_READS.get(slug)
    if reads is None or view is None:
        return None
    return {key: view[key] for key in reads if key in view}


def actions_context(ctx: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """All that ``#actions`` rendered from ``part`` (the label view) may read."""
    return {
        "actions": ctx["actions"],
        "version": ctx["version"],
        "my_turn": ctx["my_turn"],
        "names": ctx["names"],
        "tpl": ctx["tpl"],
        "slug": ctx["slug"],
        "view": part,
    }


def actions_key(ctx: dict[str, Any], part: dict[str, Any], language: str) -> tuple[Any, ...]:
    """Kept per seat, as ``#board`` is: a seat's buttons are reused across its versions, never
    handed to another seat's socket."""
    return (
        "actions",
        ctx["slug"],
        language,
        ctx["my_seat"],
        tuple(a["json"] for a in ctx["actions"]),
        ctx["version"],
        ctx["my_turn"],
        tuple(str(name) for name in ctx["names"]),
        fingerprint(part),
    )
