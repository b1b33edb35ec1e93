"""Steps a person takes in the browser, shared by the end-to-end tests of every game."""

from __future__ import annotations

import re
import subprocess
import sys
import time

from tests.servers import ROOT


def become_guest(page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/guest/?next=/")
    page.fill("input[name=display_name]", name)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/$"))


def create_table(
    page, base: str, slug: str, seats: int, visibility: str = "private", speed: str = "fast", **options: str
) -> str:
    page.goto(f"{base}/new/{slug}/")
    page.select_option("select[name=seat_count]", str(seats))
    page.select_option("select[name=visibility]", visibility)
    page.select_option("select[name=speed]", speed)
    for key, value in options.items():
        page.select_option(f"select[name=opt_{key}]", value)
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/[^/]+/$"))
    return page.url


def wait_for_socket(page) -> None:
    """The page is live once the consumer's first render (data-version) has arrived."""
    page.wait_for_function("(document.querySelector('#status') || {dataset: {}}).dataset.version !== undefined")


def fill_with_bots_and_start(page) -> None:
    """The host, alone at a new table, fills the empty seats with bots and starts; the page is live."""
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")
    wait_for_socket(page)


def play_until_over(pages, on_each=None, limit_s: float = 240) -> None:
    """Each page clicks one of its offered actions whenever it has any, until every page shows the
    result. ``on_each(page)`` runs on every page at every round, for checks along the way."""
    deadline = time.monotonic() + limit_s
    turn = 0
    while time.monotonic() < deadline:
        done = 0
        for page in pages:
            if on_each is not None:
                on_each(page)
            if page.locator("[data-testid=result]").count():
                done += 1
                continue
            buttons = page.locator("#actions button.action")
            count = buttons.count()
            if count:
                turn += 1
                try:
                    buttons.nth(turn % count).click(timeout=2000)
                except Exception:  # the view moved on between counting and clicking; look again
                    pass
        if done == len(pages):
            return
        time.sleep(0.15)
    raise AssertionError("the game did not reach its end in the browser")


def friend_joins_and_host_starts(host, friend, base: str, invite: str, friend_name: str = "Bijan") -> None:
    """A second guest opens the invite link and sits; the host fills the rest with bots and starts;
    both pages then hold a live socket."""
    become_guest(friend, base, friend_name)
    friend.goto(invite)
    friend.click("[data-testid=sit]")
    friend.wait_for_selector("[data-testid=leave]")
    host.goto(invite)
    host.click("[data-testid=fill-bots]")
    host.click("[data-testid=start]")
    wait_for_socket(host)
    friend.goto(invite)
    wait_for_socket(friend)


def sign_up(page, base: str, username: str) -> None:
    """A new registered account, logged in."""
    page.goto(f"{base}/accounts/signup/?next=/")
    page.fill("input[name=username]", username)
    page.fill("input[name=display_name]", username.capitalize())
    page.fill("input[name=password1]", "a-long-password-1")
    page.fill("input[name=password2]", "a-long-password-1")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/$"))


def create_club(page, base: str, name: str, slug: str, time_zone: str) -> str:
    """The signed-in organizer creates a club; returns a fresh invite link to it."""
    page.goto(f"{base}/clubs/new/")
    page.fill("input[name=name]", name)
    page.fill("input[name=slug]", slug)
    page.select_option("select[name=time_zone]", time_zone)
    page.click("[data-testid=club-form] button[type=submit]")
    page.wait_for_url(re.compile(rf".*/clubs/{slug}/$"))
    page.click("[data-testid=invites]")
    page.click("[data-testid=invite-form] button")
    return page.locator("[data-testid=club-invite-link]").first.input_value()


def plan_night(page, base: str, slug: str, fields: dict[str, str], games: tuple[str, ...], repeat: str = "") -> str:
    """The signed-in organizer plans a night of club ``slug`` with the form's text ``fields``
    (title, starts, address, capacity, ...) and the ``games`` offered; returns the night's address."""
    page.goto(f"{base}/clubs/{slug}/nights/new/")
    for name, value in fields.items():
        page.fill(f"input[name={name}]", value)
    if repeat:
        page.select_option("select[name=repeat]", repeat)
    for game in games:
        page.check(f"input[name=g-{game}-offered]")
    page.click("[data-testid=night-form] button[type=submit]")
    page.wait_for_url(re.compile(rf".*/clubs/{slug}/nights/\d+/$"))
    return page.url


def run_in_site(env: dict[str, str], code: str, *args: str) -> str:
    """Run ``code`` with the site's models against the database of a server started with ``env``
    (after ``django.setup()``; ``sys.argv[1:]`` are ``args``), and return what it printed."""
    program = "import django; django.setup()\n" + code
    out = subprocess.run(
        [sys.executable, "-c", program, *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return out.stdout.strip()
