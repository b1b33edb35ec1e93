"""A whole game of Dracula vs Van Helsing in a real browser: a guest hosts a table, a bot takes
the other seat, the guest plays every decision by clicking rack slots, districts and buttons, and
the page never shows a card the guest may not know until the final reveal."""

from __future__ import annotations

import re

import pytest

from tests.e2e.flows import become_guest, create_table, fill_with_bots_and_start, play_until_over

pytestmark = pytest.mark.e2e

OPPONENT_RACK = "[data-testid=rack-dracula]"  # the guest plays Van Helsing, the bot Dracula


def test_a_guest_plays_van_helsing_against_a_bot_to_the_end(server, new_page):
    page = new_page("en")
    become_guest(page, server, "Ava")
    create_table(page, server, "dracula", 2, dracula_seat="1")
    fill_with_bots_and_start(page)
    page.wait_for_selector("[data-testid=rack-van_helsing] .dv-card[data-card]")
    # The bot moves within a moment of the start and may already have turned one of these face up.
    own = page.locator("[data-testid=rack-van_helsing]").evaluate(
        """(rack) => [rack.querySelectorAll('.dv-slot').length, rack.querySelectorAll('.dv-slot.is-revealed').length,
                      rack.querySelectorAll("[data-secret-of='0']").length]"""
    )
    slots, face_up, secret = own
    assert slots == 5 and secret == slots - face_up, own
    assert page.locator(f"{OPPONENT_RACK} .dv-slot").count() == 5

    seen = {"checks": 0, "hidden_backs": 0, "bot_draws": 0}

    def shows_no_secret_of_the_bot(p):
        if p.locator("[data-testid=result]").count():
            return
        # One snapshot, read at once, so a swap of the fragments cannot mix two renders.
        snap = p.evaluate(
            """(rack) => ({
                over: !!document.querySelector('[data-testid=result]'),
                html: document.documentElement.outerHTML,
                slots: [...document.querySelectorAll(rack + ' .dv-slot')].map(
                    (s) => [s.className, s.querySelectorAll('[data-card]').length]),
                botDraws: [...document.querySelectorAll(".dv-drawn[data-seat='1'][data-public='0']")].map(
                    (d) => d.querySelectorAll('[data-card]').length),
            })""",
            OPPONENT_RACK,
        )
        if snap["over"]:  # the end arrived between the first look and the snapshot: all is revealed
            return
        seen["checks"] += 1
        assert 'data-secret-of="1"' not in snap["html"], "the bot's private cards never reach the guest's page"
        # On the bot's rack a face shows only where the card is public or the guest gave it away.
        for classes, faces in snap["slots"]:
            if faces:
                assert "is-revealed" in classes or "is-remembered" in classes
            else:
                seen["hidden_backs"] += 1
        for faces in snap["botDraws"]:
            assert faces == 0, "the bot's drawn card stays a back"
            seen["bot_draws"] += 1

    play_until_over([page], on_each=shows_no_secret_of_the_bot, limit_s=120)
    assert seen["checks"] > 3 and seen["hidden_backs"] > 0

    result = page.locator("[data-testid=result]")
    assert re.search(r"(Dracula|Van Helsing) wins", result.inner_text())
    for seat in (0, 1):
        assert page.locator(f"[data-testid=final-holder-{seat}] [data-card]").count() == 5
    assert page.locator("[data-testid=comparison] .dv-fight").count() == 5
    # After the end every card of the last round is face up on both racks.
    assert page.locator(f"{OPPONENT_RACK} .dv-slot [data-card]").count() == 5


WHOLLY_IN_VIEW_JS = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}"""
MY_DRAWN = ".dv-drawn[data-seat='0']"
DISCARD = "#actions button.action[data-action*='discard']"


def test_on_a_phone_the_card_just_drawn_and_discard_it_are_in_sight(server, new_page):
    """Sara draws on a phone: the decision is about that card, so it and "Discard it" are on
    screen without scrolling, above the slots she may place it in."""
    page = new_page("fa")
    page.set_viewport_size({"width": 390, "height": 844})
    become_guest(page, server, "سارا")
    create_table(page, server, "dracula", 2, dracula_seat="1")
    fill_with_bots_and_start(page)
    page.locator("#actions button.action[data-action*='draw']").first.click(timeout=60_000)
    page.wait_for_selector(f"{MY_DRAWN} [data-card]", timeout=30_000)
    page.wait_for_selector(DISCARD, timeout=30_000)
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate(WHOLLY_IN_VIEW_JS, MY_DRAWN), "the card just drawn is on screen"
    assert page.evaluate(WHOLLY_IN_VIEW_JS, DISCARD), '"Discard it" is on screen'


@pytest.mark.parametrize(("language", "trump_side"), [("en", "left"), ("fa", "right")])
def test_the_boards_colour_ranking_reads_trump_first_in_the_pages_direction(server, new_page, language, trump_side):
    page = new_page(language)
    become_guest(page, server, "Ava")
    create_table(page, server, "dracula", 2, dracula_seat="1")
    fill_with_bots_and_start(page)
    page.wait_for_selector("[data-testid=ranking] .ranks li.trump")
    lefts = page.locator("[data-testid=ranking] .ranks li").evaluate_all(
        "(items) => items.map((li) => li.getBoundingClientRect().left)"
    )
    assert len(lefts) == 4 and len(set(lefts)) == 4, lefts  # one row of four, drawn in the ranking's order
    expected = sorted(lefts) if trump_side == "left" else sorted(lefts, reverse=True)
    assert lefts == expected, f"the ranking runs from the {trump_side}, trump first: {lefts}"


# Scrolled through from top to bottom, some position shows at once the board's top strip (the
# round, Dracula's lives, the colour ranking with its trump, the deck with its top card when one is
# shown, the discard pile) and the awaited decision, each wholly on screen and not covered by a
# pinned panel.
STRIP_AND_DECISION_JS = """() => {
  const wholly = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.top < 0 || r.left < 0) return false;
    if (r.bottom > innerHeight || r.right > innerWidth) return false;
    return [[.5, .5], [.5, .1], [.5, .9]].every(([x, y]) => {
      const hit = document.elementFromPoint(r.left + r.width * x, r.top + r.height * y);
      return !!hit && (hit === el || el.contains(hit));
    });
  };
  const strip = ['round', 'lives', 'ranking', 'deck', 'discard'].map(
    (id) => document.querySelector(`[data-testid=${id}]`));
  const buttons = [...document.querySelectorAll('#actions button.action')];
  const seen = [];
  for (let y = 0; ; y += 20) {
    window.scrollTo(0, y);
    if (strip.every(wholly) && buttons.some(wholly)) return {found: true, y: scrollY};
    seen.push(scrollY);
    if (scrollY + innerHeight >= document.scrollingElement.scrollHeight) return {found: false, seen: seen.length};
  }
}"""


def test_on_a_laptop_screen_the_top_of_the_board_is_readable_beside_ones_choice(server, new_page):
    """Ava, the host, plays on a 1280 x 720 screen: while her choice is pinned to the bottom, she can
    scroll to read the whole top of the board above it (round, lives, trump, deck, discard pile); the
    "your turn" banner does not stay pinned over it."""
    page = new_page("en")
    page.set_viewport_size({"width": 1280, "height": 720})
    become_guest(page, server, "Ava")
    create_table(page, server, "dracula", 2, dracula_seat="1", speed="relaxed")
    fill_with_bots_and_start(page)
    page.wait_for_function(
        "document.querySelector('#status.my-turn') && document.querySelector('#actions button.action')",
        timeout=60_000,
    )
    assert page.locator("[data-testid=host-menu]").count() == 1  # the host's banner is the taller one
    found = page.evaluate(STRIP_AND_DECISION_JS)
    assert found["found"], found
