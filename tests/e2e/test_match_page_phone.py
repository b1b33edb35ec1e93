"""A finished match's page on a 360 px phone: its players table (seat, name, role, score, rating)
fits the screen in English and Persian, so no column starts cut off at the edge."""

from __future__ import annotations

import pytest

from tests.e2e.flows import run_in_site

pytestmark = pytest.mark.e2e

# Six people (long display names, so a winner's trophy and the rating change both show) play a
# werewolf game that the clock finishes for them.
FINISHED_WEREWOLF = """
from accounts.models import User
from tables import seating
from tables.models import Match, Table
from tests.platform.helpers import play_until_over
people = [
    User.objects.create_user(username=f"phone_{i}", password="a-long-password-1", display_name=name)
    for i, name in enumerate(["Anahita Farahmandpour", "Bartholomew Quincy", "Chrysanthemum Lee",
                              "Dariush Khosravani", "Evangeline Moreau", "Fereydoun Sharifzadeh"])
]
table = seating.create_table(people[0], "werewolf", 6, Table.Visibility.PUBLIC)
for person in people[1:]:
    seating.sit(table, person)
seating.start(table, people[0], seed=7)
match = play_until_over(Match.objects.get(table=table))
from history.models import RatingChange
if not RatingChange.objects.filter(match=match).exists():  # the clock's moves for the absent count as bots'
    for seat in match.table.seats.all():
        mu_after = 25.0 + (4 if seat.number % 2 else -6)
        RatingChange.objects.create(match=match, user=seat.user, game="werewolf", seat=seat.number,
                                    mu_before=25.0, sigma_before=8.0, mu_after=mu_after, sigma_after=7.5)
print(match.pk)
"""


@pytest.fixture(scope="module")
def finished_match(server_settings) -> str:
    return run_in_site(server_settings, FINISHED_WEREWOLF).splitlines()[-1]


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_players_table_of_a_finished_match_fits_a_360_px_phone(server, new_page, finished_match, language):
    page = new_page(language)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{server}/history/{finished_match}/")
    players = page.locator("table.players")
    players.wait_for()
    assert page.locator("[data-testid=rating-change]").count() == 6, "every seat's rating change shows"
    wrap = players.locator("xpath=..")
    scroll, client = wrap.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert scroll <= client, f"the players table scrolls sideways ({scroll} > {client} px)"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for cell in players.locator("th, td").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360 + 0.5, cell.inner_text()
