"""Fair roles as an option of the night (issue 12 §6): each table's deal secret is the first fair
attempt derived openly from the night's seed and the earlier rounds' sides (clubs.fair_roles);
the match still publishes sha256 of its secret, and nobody is dealt Dracula three games running."""

from __future__ import annotations

from django.db.models import F

from clubs import checkin, commitment, fair_roles, nights, recap, rounds, rsvp, sides, verify
from clubs.models import RoundTable
from history import deals
from tests.platform.clubs.conftest import add_members
from tests.platform.clubs.tonight_helpers import night_tonight

DRACULA = [{"game": "dracula", "options": {}, "min_players": 2, "max_players": 2}]


def _round(night, bob):
    round_ = rounds.start_round(night, bob, DRACULA)
    rounds.confirm(night, round_.pk, bob)
    rounds.start_tables(night, round_.pk)
    rounds.end_round(night, round_.pk)
    return RoundTable.objects.select_related("table__match").get(round=round_)


def test_the_deal_of_a_fair_night_is_derived_openly_and_breaks_a_run_of_three(club, bob):
    night = night_tonight(club, bob)
    nights.update_night(night, {"fair_roles": True})
    night.refresh_from_db()
    people = add_members(club, 2)
    for person in people:
        rsvp.answer(night, person, "going", organizer=True)
        checkin.check_in_self(night, person)
    dealt = {}
    for number in range(1, 7):
        row = _round(night, bob)
        match = row.table.match
        expected = commitment.table_deal_secret(night.seed_secret, number, 0, row.deal_attempt)
        assert match.deal_secret == expected and match.deal_commitment == deals.commitment(expected)
        assert match.seed == deals.derive_seed(expected, row.table.token, match.deal_seating)
        state = sides._dealt_state(match)
        for seat, person in enumerate(row.people):
            dealt.setdefault(person, []).append(fair_roles.side_of("dracula", state, seat))
    for person, history in dealt.items():
        runs = ["".join("D" if s == "dracula" else "V" for s in history)]
        assert "DDD" not in runs[0], (person, history)
    assert sides.previous_sides(night, 7) == dealt
    recap.end_night(night, bob)
    night.refresh_from_db()
    report = verify.check(night)
    assert report["all_ok"] and all(r["checks"]["deals"] for r in report["rounds"])
    RoundTable.objects.filter(round__night=night, round__number=3).update(deal_attempt=F("deal_attempt") + 1)
    assert not verify.check(night)["all_ok"], "a deal not chosen by the rule shows"
