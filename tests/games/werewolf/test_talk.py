"""Talking werewolf bots: they speak only by day and alive, from their own view and the public
chat alone; the seer tells or hints, a wolf lies, and claims are read as weak evidence."""

from __future__ import annotations

from games.base import rng_for
from games.werewolf import bots, talk
from games.werewolf.engine import ENGINE
from tests.games.playout import canonical, scrambled_for

W7 = ["VILLAGER", "WOLF", "SEER", "VILLAGER", "WOLF", "DOCTOR", "VILLAGER"]


def _games(count: int = 12):
    """Every state of some all-bot games whose bots talk, with the public chat at that moment."""
    for seed in range(count):
        n = 5 + seed % 6
        state = ENGINE.setup(n, None, seed)
        chat: list[dict] = []
        said: set = set()
        while ENGINE.awaiting(state):
            yield state, list(chat)
            for seat in range(n):
                view = ENGINE.view(state, seat)
                for line in talk.lines(view, list(chat), talk.rng_for_seat(seed, seat)):
                    if (seat, view["round"], line["key"]) not in said:
                        said.add((seat, view["round"], line["key"]))
                        chat.append({"seat": seat, **line})
            seat = min(ENGINE.awaiting(state))
            legal = ENGINE.legal_actions(state, seat)
            rng = rng_for(f"talk-test:{seed}", state["step"])
            if len(legal) == 1:
                action = legal[0]
            else:
                action = bots.choose(ENGINE.view(state, seat), legal, rng, chat=list(chat))
            state = ENGINE.apply(state, seat, action)


def test_bots_never_talk_at_night_during_the_vote_or_when_dead():
    spoken = 0
    for state, chat in _games():
        public = state["public"]
        for seat in range(len(state["seats"])):
            said = talk.lines(ENGINE.view(state, seat), chat, talk.rng_for_seat(state["seed"], seat))
            if public["phase"] != "day_discussion" or not public["alive"][seat]:
                assert said == [], (public["phase"], seat)
            spoken += len(said)
    assert spoken > 50, "bots say something in the day discussions"


def test_what_a_bot_says_depends_only_on_its_own_view_and_the_public_chat():
    checked = 0
    for state, chat in _games(8):
        if state["public"]["phase"] != "day_discussion":
            continue
        for seat in range(len(state["seats"])):
            rng = talk.rng_for_seat(state["seed"], seat)
            said = talk.lines(ENGINE.view(state, seat), chat, rng)
            other = scrambled_for(state, seat)
            again = talk.lines(ENGINE.view(other, seat), chat, talk.rng_for_seat(state["seed"], seat))
            assert canonical(again) == canonical(said)
            checked += bool(said)
    assert checked > 20


def _day_one(roles: list[str], seer_pick: int) -> dict:
    """Night 1 of a W7 deal: the seer inquires ``seer_pick``, everyone else picks seat 0 or 3."""
    state = ENGINE.setup(7, {"deal": {"roles": roles}})
    while state["public"]["phase"] == "night":
        seat = min(ENGINE.awaiting(state))
        legal = ENGINE.legal_actions(state, seat)
        if len(legal) > 1:
            wanted = seer_pick if roles[seat] == "SEER" else (6 if roles[seat] == "WOLF" else 0)
            choice = {"type": "pick", "target": wanted}
            state = ENGINE.apply(state, seat, choice if choice in legal else legal[0])
        state = ENGINE.apply(state, seat, {"type": "timeout"})
    assert state["public"]["phase"] == "day_discussion"
    return state


def _temperaments(seat: int) -> tuple[int, int]:
    """A bold and a shy seed for ``seat`` (the temperament is the first draw of its talk rng)."""
    bold = next(s for s in range(100) if talk.rng_for_seat(s, seat).random() < 0.5)
    shy = next(s for s in range(100) if talk.rng_for_seat(s, seat).random() >= 0.5)
    return bold, shy


def test_the_seer_who_found_a_wolf_says_so_or_hints_by_temperament():
    view = ENGINE.view(_day_one(W7, seer_pick=4), 2)
    assert view["seer_results"][0]["result"] == "WOLF"
    bold, shy = _temperaments(2)
    assert talk.lines(view, [], talk.rng_for_seat(bold, 2))[0] == {"key": talk.CLAIM_WOLF, "params": {"target": 4}}
    assert talk.lines(view, [], talk.rng_for_seat(shy, 2))[0] == {"key": talk.HINT, "params": {"target": 4}}
    # Temperament is fixed for the match: the same seed and seat always talk alike.
    assert talk.lines(view, [], talk.rng_for_seat(bold, 2)) == talk.lines(view, [], talk.rng_for_seat(bold, 2))


def test_a_wolf_claims_seer_or_accuses_and_names_the_real_seer_who_exposed_it():
    state = _day_one(W7, seer_pick=4)
    view = ENGINE.view(state, 1)
    bold, shy = _temperaments(1)
    exposed = [{"seat": 2, "key": talk.CLAIM_WOLF, "params": {"target": 4}}]
    lie = talk.lines(view, exposed, talk.rng_for_seat(bold, 1))
    assert lie == [{"key": talk.CLAIM_WOLF, "params": {"target": 2}}], "a false seer claim against the real seer"
    accusation = talk.lines(view, exposed, talk.rng_for_seat(shy, 1))
    assert accusation == [{"key": talk.SUSPECT, "params": {"target": 2}}]
    for seed in range(30):
        for line in talk.lines(view, [], talk.rng_for_seat(seed, 1)):
            assert line["params"]["target"] not in (1, 4), "a wolf never names a fellow wolf"


def test_villagers_echo_suspicions_from_public_votes():
    state = _day_one(W7, seer_pick=4)  # the wolves killed seat 6
    for seat in sorted(ENGINE.awaiting(state)):
        state = ENGINE.apply(state, seat, {"type": "ready"})
    ballots = {0: 5, 1: 3, 2: 3, 3: 0, 4: 3, 5: 3}  # seat 0 votes against the doctor (5); 3 goes
    while state["public"]["phase"] == "day_vote":
        seat = min(ENGINE.awaiting(state))
        state = ENGINE.apply(state, seat, {"type": "vote", "target": ballots[seat]})
    while state["public"]["phase"] == "night":  # nobody picks: nobody dies
        state = ENGINE.apply(state, min(ENGINE.awaiting(state)), {"type": "timeout"})
    view = ENGINE.view(state, 5)
    assert view["phase"] == "day_discussion" and view["dead_roles"][3] == "VILLAGER"
    for seed in range(5):
        said = talk.lines(view, [], talk.rng_for_seat(seed, 5))
        assert said == [{"key": talk.SUSPECT, "params": {"target": 0}}], "seat 0 voted against me"


def test_a_seer_claim_a_later_reveal_confirms_raises_trust_and_a_contradicted_one_marks_a_liar():
    state = _day_one(W7, seer_pick=4)
    view = ENGINE.view(state, 0)
    claim = [{"seat": 5, "key": talk.CLAIM_WOLF, "params": {"target": 4}}]
    untested = talk.chat_suspicion(view, claim)
    assert 0 < untested[4] < 2, "an untested claim is weak evidence"
    confirmed = {**view, "dead_roles": [*view["dead_roles"][:4], "WOLF", *view["dead_roles"][5:]]}
    assert talk.seer_claims(confirmed, claim)[5]["proven"]
    later = [*claim, {"seat": 5, "key": talk.CLAIM_WOLF, "params": {"target": 1}}]
    assert talk.chat_suspicion(confirmed, later)[1] > 2 * untested[4], "the trusted claimant's next claim weighs more"
    contradicted = {**view, "dead_roles": [*view["dead_roles"][:4], "VILLAGER", *view["dead_roles"][5:]]}
    assert talk.seer_claims(contradicted, claim)[5]["liar"]
    assert talk.chat_suspicion(contradicted, claim).get(5, 0) >= 5
    # Naming me as a wolf, when I know I am not one, proves the claimant lies.
    about_me = [{"seat": 5, "key": talk.CLAIM_WOLF, "params": {"target": 0}}]
    assert talk.seer_claims(view, about_me)[5]["liar"]


def test_a_villager_bot_votes_for_the_player_a_seer_claim_names_and_holds_its_vote_only_when_asked():
    state = _day_one(W7, seer_pick=4)
    for seat in range(7):
        if seat in ENGINE.awaiting(state):
            state = ENGINE.apply(state, seat, {"type": "ready"})
    seat = min(ENGINE.awaiting(state))
    view = ENGINE.view(state, seat)
    assert view["my_role"] == "VILLAGER"
    legal = ENGINE.legal_actions(state, seat)
    claim = [{"seat": 2, "key": talk.CLAIM_WOLF, "params": {"target": 4}}]
    assert bots.choose(view, legal, rng_for(0, 0), chat=claim) == {"type": "vote", "target": 4}
    # No clue at all: a blind vote, never for myself (abstaining leaves the choice to others).
    blind = {bots.choose(view, legal, rng_for(salt, 0))["target"] for salt in range(20)}
    assert None not in blind and seat not in blind and len(blind) > 1
    # Another living player asked to hold the votes: without a clue, the bot holds its vote.
    hold = [{"seat": 3, "key": talk.UNSURE, "params": {}}]
    assert bots.choose(view, legal, rng_for(0, 0), chat=hold) == {"type": "vote", "target": None}


def test_wolves_hunt_the_seer_claimant_who_named_one_of_them():
    state = _day_one(W7, seer_pick=4)
    for seat in range(7):
        if seat in ENGINE.awaiting(state):
            state = ENGINE.apply(state, seat, {"type": "ready"})
    while state["public"]["phase"] == "day_vote":
        state = ENGINE.apply(state, min(ENGINE.awaiting(state)), {"type": "vote", "target": None})
    claim = [{"seat": 2, "key": talk.CLAIM_WOLF, "params": {"target": 4}}]
    while True:
        seat = min(ENGINE.awaiting(state))
        if ENGINE.view(state, seat)["my_role"] == "WOLF":
            break
        state = ENGINE.apply(ENGINE.apply(state, seat, {"type": "timeout"}), seat, {"type": "timeout"})
    action = bots.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng_for(0, 0), chat=claim)
    assert action == {"type": "pick", "target": 2}


def _vote_phase(state: dict) -> dict:
    for seat in range(7):
        if seat in ENGINE.awaiting(state):
            state = ENGINE.apply(state, seat, {"type": "ready"})
    assert state["public"]["phase"] == "day_vote"
    return state


def test_a_bare_suspicion_weighs_nothing_and_a_dead_claimants_role_settles_his_claim():
    view = ENGINE.view(_day_one(W7, seer_pick=4), 0)
    assert talk.chat_suspicion(view, [{"seat": 1, "key": talk.SUSPECT, "params": {"target": 3}}]).get(3, 0) == 0
    assert talk.chat_suspicion(view, [{"seat": 2, "key": talk.HINT, "params": {"target": 4}}])[4] > 0
    claim = [{"seat": 5, "key": talk.CLAIM_WOLF, "params": {"target": 4}}]
    as_seer = {**view, "dead_roles": [*view["dead_roles"][:5], "SEER", *view["dead_roles"][6:]]}
    assert talk.seer_claims(as_seer, claim)[5]["proven"], "the dead claimant was the seer: his claim is true"
    as_villager = {**view, "dead_roles": [*view["dead_roles"][:5], "VILLAGER", *view["dead_roles"][6:]]}
    assert talk.seer_claims(as_villager, claim)[5]["liar"], "the dead claimant was no seer: he lied"
    # A counter-claim naming the first claimant weighs less than the first claim.
    rivals = [*claim, {"seat": 4, "key": talk.CLAIM_WOLF, "params": {"target": 5}}]
    score = talk.chat_suspicion(view, rivals)
    assert score[4] > score[5] > 0


def test_a_wolf_bot_runs_with_the_village_and_votes_alone_when_it_holds_its_votes():
    state = _vote_phase(_day_one(W7, seer_pick=4))
    while ENGINE.view(state, min(ENGINE.awaiting(state)))["my_role"] != "WOLF":
        state = ENGINE.apply(state, min(ENGINE.awaiting(state)), {"type": "vote", "target": None})
    wolf = min(ENGINE.awaiting(state))
    view, legal = ENGINE.view(state, wolf), ENGINE.legal_actions(state, wolf)
    claim = [{"seat": 2, "key": talk.CLAIM_WOLF, "params": {"target": 3}}]
    assert bots.choose(view, legal, rng_for(0, 0), chat=claim) == {"type": "vote", "target": 3}
    hold = [{"seat": 3, "key": talk.UNSURE, "params": {}}]
    votes = {bots.choose(view, legal, rng_for(salt, 0), chat=hold)["target"] for salt in range(30)}
    assert None not in votes and not votes & {1, 4} and len(votes) > 1, "two wolves each vote alone at random"


def test_on_the_last_day_before_parity_clueless_village_bots_vote_one_blind_target():
    state = _vote_phase(_day_one(W7, seer_pick=4))
    view = ENGINE.view(state, min(ENGINE.awaiting(state)))
    # Seats 2 (seer) and 5 (doctor) dead instead of 6: two wolves among five, a night kill ends it.
    dead = [None, None, "SEER", None, None, "DOCTOR", None]
    alive = [0, 1, 3, 4, 6]
    hold = [{"seat": 3, "key": talk.UNSURE, "params": {}}]
    picks = {}
    for seat in (0, 3):
        mine = {**view, "seat": seat, "my_role": "VILLAGER", "alive": alive, "dead_roles": dead}
        legal = [{"type": "vote", "target": t} for t in alive if t != seat] + [{"type": "vote", "target": None}]
        picks[seat] = {bots.choose(mine, legal, rng_for(salt, 0), chat=hold)["target"] for salt in range(10)}
    assert len(picks[0]) == 1 and None not in picks[0], "no holding on the last day, and no random vote"
    assert picks[0] == picks[3] or picks[0] == {3} or picks[3] == {0}, "both bots vote the same player"
