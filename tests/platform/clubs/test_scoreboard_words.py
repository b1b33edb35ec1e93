"""The scoreboard's tie-break chain points the way the page reads: ← on a Persian page, → on an
English one (never «›», which some browsers mirror in right-to-left text and others do not)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from clubs import recap
from tests.platform.clubs.tonight_helpers import checked_in


@pytest.mark.parametrize(("language", "arrow"), [("fa", "←"), ("en", "→")])
def test_the_tie_break_chain_points_the_way_the_page_reads(club, bob, language, arrow):
    night, people = checked_in(club, bob, 2)
    recap.end_night(night, bob)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people[0])
    page = client.get(f"/clubs/{club.slug}/nights/{night.pk}/recap/").content.decode()
    chain = re.search(r'data-testid="tie-breaks">(.*?)</span>', page).group(1)
    assert chain.count(f" {arrow} ") >= 2, chain
    assert "›" not in chain and "‹" not in chain
