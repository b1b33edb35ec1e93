"""The table page around the game, in a real Chromium and in Persian: on a phone the awaited
decision is in sight without scrolling, the player's own secret is in sight, nothing overflows
sideways; axe finds no serious or critical violation on any game's table; a turn changes the title
and the favicon; the countdown turns urgent in its last seconds; focus stays on the same action
across a re-render; and a tap pressed just before a re-render still sends its action exactly once."""

from __future__ import annotations

import json
import time

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.flows import become_guest, create_table, fill_with_bots_and_start, run_in_site, wait_for_socket

pytestmark = pytest.mark.e2e

VIEWPORTS = ((360, 740), (390, 844), (844, 390), (1280, 900))  # (844, 390): a phone turned sideways

GAMES = {
    "werewolf": (5, {}),
    "dracula": (2, {"dracula_seat": "1"}),
    "insidejob": (4, {}),
    "mummy": (4, {"first_player": "0"}),
    "monster": (3, {}),
}

# What "in view" means: ``wholly``, an element fully on screen whose middle is not covered by
# another (a sticky panel, the dock); ``partly``, some part of it on screen and not covered.
IN_VIEW_JS = """
  const vw = innerWidth, vh = innerHeight;
  const uncovered = (el, x, y) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit));
  };
  const wholly = (el) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.top < 0 || r.left < 0 || r.bottom > vh || r.right > vw) return false;
    return uncovered(el, r.left + r.width / 2, r.top + r.height / 2);
  };
  const partly = (el) => {
    const r = el.getBoundingClientRect();
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, vh);
    const left = Math.max(r.left, 0), right = Math.min(r.right, vw);
    if (bottom - top < 8 || right - left < 8) return false;
    return uncovered(el, (left + right) / 2, (top + bottom) / 2);
  };
"""

# One snapshot of the page, read at once so that no swap can fall between two readings: whether a
# decision is awaited, how many of its action buttons are fully on screen and not covered, whether
# some part of the player's own secret is on screen and not covered, and the sideways overflow.
MEASURE_JS = (
    """() => {"""
    + IN_VIEW_JS
    + """
  const me = document.querySelector('#seats .seat.me');
  const mine = me ? me.dataset.seat : null;
  const buttons = [...document.querySelectorAll('#actions button.action')];
  const status = document.querySelector('#status');
  // Monster's hands are public by default: there the own hand (or the choice drawn from it) is
  // what the player must see.
  const secrets = mine === null ? [] : [...document.querySelectorAll(
    `[data-secret-of="${mine}"], [data-testid=my-hand], [data-testid=hand-choices]`)];
  return {
    awaited: !!status && status.classList.contains('my-turn') && buttons.length > 0,
    buttons: buttons.length,
    inView: buttons.filter(wholly).length,
    firstTop: buttons.length ? Math.round(buttons[0].getBoundingClientRect().top) : null,
    secrets: secrets.length,
    secretInView: secrets.some(partly),
    overflow: document.scrollingElement.scrollWidth - innerWidth,
  };
}"""
)


def _start(page, server, slug: str) -> None:
    seats, options = GAMES[slug]
    become_guest(page, server, "سارا")
    create_table(page, server, slug, seats, **options)
    fill_with_bots_and_start(page)


AWAITED_JS = "document.querySelector('#status.my-turn') && document.querySelector('#actions button.action')"


def _awaited_snapshot(page) -> dict:
    """The page's figures at a moment when a decision of this player's is awaited."""
    for _ in range(40):
        page.wait_for_function(AWAITED_JS, timeout=60_000)
        snap = page.evaluate(MEASURE_JS)
        if snap["awaited"]:
            return snap
    raise AssertionError("no awaited decision could be measured")


@pytest.mark.parametrize("slug", list(GAMES))
def test_on_a_phone_the_decision_and_the_secret_are_in_sight_without_scrolling(server, new_page, slug, capsys):
    page = new_page("fa")
    _start(page, server, slug)
    rows = []
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        rows.append(((width, height), _awaited_snapshot(page)))
    with capsys.disabled():
        for (width, height), snap in rows:
            print(
                f"\n{slug:9} {width}x{height}: first action y={snap['firstTop']},"
                f" {snap['inView']}/{snap['buttons']} actions in view, secret in view={snap['secretInView']}"
                f" ({snap['secrets']} marked), overflow={snap['overflow']}px"
            )
    for (width, height), snap in rows:
        if width < 500 or height < 500:  # a phone, upright or sideways
            assert snap["inView"] >= 1, (width, height, snap)
        if width < 500:  # sideways, 390 px high, the choice alone fills the screen
            assert snap["secretInView"], (width, height, snap)
        assert snap["overflow"] <= 0, (width, height, snap)

    # axe on the same table page, phone-sized, while the decision is awaited.
    page.set_viewport_size({"width": 360, "height": 740})
    _awaited_snapshot(page)
    results = Axe().run(page)
    grave = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not grave, [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in grave]


def _action_of(locator) -> str:
    return locator.evaluate("(b) => b.closest('form').querySelector('input[name=action]').value")


# The same htmx out-of-band swap of #actions the socket performs, with the fragment the server
# rendered (``drop`` removes the forms of that action first, as when it is no longer legal). Since
# the renderer sends #actions only when it changed, a move of another seat no longer re-renders it
# in a simultaneous phase, so the test drives the swap itself at the moment it needs one.
RERENDER_JS = """(drop) => {
  const old = document.getElementById('actions');
  const copy = old.cloneNode(true);
  copy.querySelectorAll('form').forEach((f) => {
    if (drop && f.querySelector('input[name=action]').value === drop) f.remove();
  });
  copy.querySelectorAll('[data-htmx-powered]').forEach((el) => el.removeAttribute('data-htmx-powered'));
  const page = document.querySelector('.table-page');
  page.dispatchEvent(new CustomEvent('htmx:wsBeforeMessage', {bubbles: true}));
  htmx.swap(old, copy.outerHTML, {swapStyle: 'outerHTML'});
  page.dispatchEvent(new CustomEvent('htmx:wsAfterMessage', {bubbles: true}));
  return !old.isConnected;
}"""


def test_a_tap_pressed_before_a_rerender_sends_once_and_focus_stays_on_the_same_action(server, new_page):
    """While the finger is down on a monster, #actions is swapped for a fresh render: releasing it
    still sends that pick, once. Keyboard focus comes back to the same monster after a swap, or to
    the first one when its action is gone. The tab title and the favicon say it is the player's
    turn, and stop once they have picked; the announcer reads the newest log line."""
    page = new_page("fa")
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    become_guest(page, server, "سارا")
    create_table(page, server, "monster", 3, speed="relaxed")
    fill_with_bots_and_start(page)
    page.wait_for_selector("[data-testid=picked-1]")
    page.wait_for_selector("[data-testid=picked-2]")  # both bots have picked: only this guest is awaited
    buttons = page.locator("#actions button.action")
    assert page.title().startswith("● نوبت شماست")
    assert page.locator("#favicon").get_attribute("href").endswith("favicon-turn.svg")

    buttons.nth(2).focus()
    focused_action = _action_of(buttons.nth(2))
    assert page.evaluate(RERENDER_JS, None)
    assert _action_of(page.locator(":focus")) == focused_action, "focus followed the re-render"
    assert page.evaluate(RERENDER_JS, focused_action)
    assert _action_of(page.locator(":focus")) == _action_of(buttons.first), "the first action, once it is gone"
    page.reload()
    wait_for_socket(page)

    target = buttons.nth(5)
    chosen = json.loads(_action_of(target))
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert page.evaluate(RERENDER_JS, None)
    page.mouse.up()
    page.wait_for_selector(f"[data-testid=player-0] [data-monster='{chosen['monster']}']")
    time.sleep(0.5)  # a second, duplicate send would arrive within this time
    picks = [frame for frame in sent if "action" in frame]
    assert [json.loads(frame["action"]) for frame in picks] == [chosen], picks
    assert page.locator("[data-testid=error]").count() == 0
    page.wait_for_function("document.getElementById('announcer').textContent !== ''")
    # Read at once: the title and the favicon say "your turn" exactly while a decision is awaited.
    assert page.evaluate(
        """() => {
          const mine = !!(document.querySelector('#status.my-turn') && document.querySelector('#actions .action'));
          const icon = document.getElementById('favicon').getAttribute('href');
          return document.title.startsWith('●') === mine && icon.endsWith('favicon-turn.svg') === mine;
        }"""
    )


def test_the_countdown_turns_urgent_in_its_last_seconds(server, new_page):
    page = new_page("fa")
    become_guest(page, server, "سارا")
    create_table(page, server, "werewolf", 5)
    wait_for_socket(page)
    page.evaluate(
        """() => {
          const until = new Date(Date.now() + 11500).toISOString();
          document.querySelector('.table-main').insertAdjacentHTML('beforeend',
            `<p class="timer" id="probe"><span class="countdown" data-until="${until}"></span></p>`);
        }"""
    )
    probe = page.locator("#probe")
    page.wait_for_function("document.querySelector('#probe .countdown').textContent !== ''")
    assert "urgent" not in probe.get_attribute("class")
    calm = probe.locator(".countdown").evaluate("(el) => getComputedStyle(el).color")
    page.wait_for_selector("#probe.urgent", timeout=5000)
    urgent = probe.locator(".countdown").evaluate(
        "(el) => [getComputedStyle(el).color, getComputedStyle(el).animationName]"
    )
    assert urgent[0] != calm and urgent[1] == "urgent-beat"


def test_on_a_phone_the_chat_is_one_tap_away_and_counts_what_is_unread(server, new_page):
    host = new_page("fa")
    host.set_viewport_size({"width": 360, "height": 740})
    become_guest(host, server, "سارا")
    invite = create_table(host, server, "werewolf", 5)
    wait_for_socket(host)
    friend = new_page("fa")
    become_guest(friend, server, "بیژن")
    friend.goto(invite)
    friend.click("[data-testid=sit]")
    wait_for_socket(friend)
    host.fill("#chat input[name=chat]", "دارم می‌نویسم")
    for text in ("سلام", "آماده‌اید؟"):
        friend.fill("#chat input[name=chat]", text)
        friend.press("#chat input[name=chat]", "Enter")
    host.wait_for_function("document.querySelector('[data-testid=unread]').textContent === '۲'")
    assert host.locator("#chat input[name=chat]").input_value() == "دارم می‌نویسم", "a new message keeps a draft"
    host.click("[data-testid=dock-chat]")
    assert host.locator("#chat").evaluate(
        "(el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    ), "the chat opens as a sheet on screen"
    assert host.locator("[data-testid=unread]").is_hidden()
    host.fill("#chat input[name=chat]", "بله")
    host.press("#chat input[name=chat]", "Enter")
    friend.wait_for_selector("#chat li:has-text('بله')")


def test_a_skip_link_comes_first_and_the_alert_toggles_are_off_until_pressed_and_remembered(server, new_page):
    page = new_page("fa")
    page.context.grant_permissions(["notifications"])
    become_guest(page, server, "سارا")
    create_table(page, server, "werewolf", 5)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "skip-to-actions", "the first Tab stop"
    sound, notify = page.locator("[data-testid=sound-toggle]"), page.locator("[data-testid=notify-toggle]")
    assert sound.get_attribute("aria-pressed") == "false" and notify.get_attribute("aria-pressed") == "false"
    sound.click()
    notify.click()
    page.wait_for_function("document.querySelector('[data-testid=notify-toggle]').ariaPressed === 'true'")
    page.reload()
    wait_for_socket(page)
    assert sound.get_attribute("aria-pressed") == "true" and notify.get_attribute("aria-pressed") == "true"
    sound.click()
    page.reload()
    assert sound.get_attribute("aria-pressed") == "false"


def test_the_host_menu_stays_open_while_bots_move(server, new_page):
    """A swap of #status for a newer version (a bot's move) must not close the menu the host opened."""
    page = new_page("en")
    become_guest(page, server, "Sara")
    invite = create_table(page, server, "werewolf", 5)
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")
    page.goto(invite)
    wait_for_socket(page)
    page.click("[data-testid=host-menu] > summary")
    opened_at = int(page.locator("#status").get_attribute("data-version"))
    page.wait_for_function(
        f"Number(document.querySelector('#status').dataset.version) >= {opened_at + 2}", timeout=60_000
    )
    assert page.locator("[data-testid=host-menu]").evaluate("(d) => d.open")
    assert page.locator("[data-testid=host-pause]").is_visible()


# During a vote: each finding of the seer's (each seat they looked at) is readable, wholly on
# screen and uncovered, somewhere on the page (the board's list, or the strip in the choices), and
# so is at least one of the choices.
FINDINGS_JS = (
    """() => {"""
    + IN_VIEW_JS
    + """
  const board = document.querySelector('#board');
  const buttons = [...document.querySelectorAll('#actions button.action')];
  const findings = [...document.querySelectorAll('[data-testid=seer-results] [data-finding]')];
  const readable = [...document.querySelectorAll('[data-finding]')].filter(wholly).map((el) => el.dataset.finding);
  return {
    voting: !!board && board.classList.contains('phase-day_vote') && buttons.length > 0,
    findings: findings.map((el) => el.dataset.finding),
    readable: [...new Set(readable)],
    choicesInView: buttons.filter(wholly).length,
  };
}"""
)

SEER_DEAL = ["SEER", "WOLF", "VILLAGER", "DOCTOR", "WOLF", "VILLAGER", "VILLAGER"]
DEAL_CODE = """import json, sys
from tables.models import Table
table = Table.objects.get(token=sys.argv[1])
table.options = {**table.options, "deal": {"roles": json.loads(sys.argv[2])}}
table.save(update_fields=["options"])
"""


def _seer_in_a_vote(page, server, server_settings) -> bool:
    """A new seven-seat table where this guest is dealt the seer, played (their night looks, their
    readiness) up to a day vote with a finding; False if the seer died first (the wolves' pick)."""
    invite = create_table(page, server, "werewolf", 7, speed="relaxed")
    run_in_site(server_settings, DEAL_CODE, invite.rstrip("/").rsplit("/", 1)[1], json.dumps(SEER_DEAL))
    fill_with_bots_and_start(page)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.locator("[data-testid=result]").count() or page.locator("#seats .seat.me .badge.out").count():
            return False
        if page.evaluate(FINDINGS_JS)["voting"] and page.locator("[data-testid=seer-results] li").count():
            return True
        buttons = page.locator("#actions button.action")
        if buttons.count() and not page.locator("#board.phase-day_vote").count():
            try:
                buttons.first.click(timeout=2000)
            except Exception:  # the view moved on between counting and clicking
                pass
        time.sleep(0.1)
    raise AssertionError("no day vote came")


@pytest.mark.parametrize("language", ["fa", "en"])
def test_on_a_phone_the_seer_reads_every_finding_while_the_vote_is_in_view(server, server_settings, new_page, language):
    """Sara, the seer on a phone, votes on the day after her night's look: the choices panel stays
    in view, and what she saw is readable beside it, not hidden behind it."""
    page = new_page(language)
    page.set_viewport_size({"width": 390, "height": 844})
    become_guest(page, server, "سارا")
    for _ in range(6):  # the wolves may kill the seer on the first night: deal again
        if _seer_in_a_vote(page, server, server_settings):
            break
    else:
        raise AssertionError("the seer never lived to a vote")
    for width, height in ((390, 844), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        snap = page.evaluate(FINDINGS_JS)
        assert snap["voting"], "the vote is still open"
        assert snap["findings"], snap
        assert snap["choicesInView"] >= 1, (width, height, snap)
        assert set(snap["findings"]) <= set(snap["readable"]), (width, height, snap)


def test_on_a_phone_the_deals_hash_in_the_persian_log_starts_its_own_line_whole(server, new_page):
    """Sara, on a 390 px phone, opens «what happened»: the sealed deal's sha256 is one left-to-right
    block under the sentence, not a hex run whose first digit waits alone at the end of the line."""
    page = new_page("fa")
    page.set_viewport_size({"width": 390, "height": 844})
    become_guest(page, server, "سارا")
    create_table(page, server, "werewolf", 5)
    fill_with_bots_and_start(page)
    page.click("[data-testid=dock-log]")
    hash_ = page.locator("[data-testid=deal-commitment] code.hash")
    hash_.wait_for()
    rects, first_char_at_line_start, text_top, hash_top = hash_.evaluate(
        """(el) => {
          const range = document.createRange();
          range.setStart(el.firstChild, 0);
          range.setEnd(el.firstChild, 1);
          const first = range.getBoundingClientRect(), box = el.getBoundingClientRect();
          const sentence = el.parentElement.getBoundingClientRect();
          return [el.getClientRects().length, Math.abs(first.left - box.left) < 1, sentence.top, box.top];
        }"""
    )
    assert rects == 1, "the hash is one box, not a run broken across the sentence's line"
    assert first_char_at_line_start, "its first digit starts the box's first line, left to right"
    assert hash_top > text_top + 5, "it starts below the sentence's first line"
