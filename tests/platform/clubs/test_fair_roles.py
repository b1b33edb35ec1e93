"""Fair roles (issue 12 §6): over many simulated nights nobody is dealt the same hidden side a
third game running whenever some attempt allows it, and the choice recomputes from the secret."""

from __future__ import annotations

import random

from clubs import commitment, fair_roles
from clubs.fair_roles import fair_deal_secret, side_of, would_repeat
from games import registry
from history.deals import derive_seed

TABLE_GAMES = [("werewolf", 5, 7), ("insidejob", 3, 5), ("dracula", 2, 2)]


def deal(game, n, secret, token, seating):
    return registry.get(game).setup(n, {}, derive_seed(secret, token, seating))


def seating_string(people):
    return ",".join(f"{seat}:p{person[1:]}" for seat, person in enumerate(people))


def simulate(nights, fair, seed=1, light_runs=False):
    """Play ``nights`` nights of five rounds; return (thirds in a row dealt, of them in the shadow
    camp, tables where an attempt avoided every third)."""
    rng = random.Random(seed)
    dealt_thirds = shadow_thirds = avoidable = 0
    for night in range(nights):
        secret = f"{night:064x}"  # the same nights, fair or not
        people = [f"u{i}" for i in range(rng.randint(5, 9))]
        sides: dict[str, list[str]] = {p: [] for p in people}
        for round_no in range(1, 6):
            order = people[:]
            rng.shuffle(order)
            game, low, high = rng.choice(TABLE_GAMES)
            n = min(len(order), high)
            if n < low:
                continue
            seats, token = order[:n], f"t{night}-{round_no}"
            seating = seating_string(seats)
            if fair:
                chosen, attempt = fair_deal_secret(
                    game, n, {}, seats, sides, secret, round_no, 0, token, seating=seating, light_runs=light_runs
                )
            else:
                chosen, attempt = commitment.table_deal_secret(secret, round_no, 0, 0), 0
            state = deal(game, n, chosen, token, seating)
            bad = fair_roles.repeats(game, state, seats, sides, light_runs)
            dealt_thirds += len(bad)
            shadow_thirds += sum(1 for p in bad if fair_roles.camp(side_of(game, state, seats.index(p))) == "shadow")
            if fair:
                exists = any(
                    not fair_roles.repeats(
                        game,
                        deal(game, n, commitment.table_deal_secret(secret, round_no, 0, a), token, seating),
                        seats,
                        sides,
                        light_runs,
                    )
                    for a in range(32)
                )
                avoidable += exists
                if exists:
                    assert not bad, (night, round_no, game, attempt)
            for seat, person in enumerate(seats):
                sides[person].append(side_of(game, state, seat))
    return dealt_thirds, shadow_thirds, avoidable


def test_nobody_gets_a_third_shadow_or_lone_side_in_a_row_when_an_attempt_allows_it():
    """The default steers the few (shadow camp, lone sides): inside ``simulate`` every table
    where some attempt avoids a third in a row gets one that does."""
    fair_thirds, _shadow, avoidable = simulate(80, fair=True)
    plain_thirds, _plain_shadow, _ = simulate(80, fair=False)
    assert avoidable > 100
    assert fair_thirds < plain_thirds / 3, (fair_thirds, plain_thirds)


def test_with_light_runs_every_camp_is_steered_where_an_attempt_allows_it():
    """Four of five werewolf seats are light, so many light thirds cannot be avoided; each
    avoidable one is, and no shadow third is dealt."""
    fair_thirds, fair_shadow, avoidable = simulate(80, fair=True, light_runs=True)
    plain_thirds, plain_shadow, _ = simulate(80, fair=False, light_runs=True)
    assert avoidable > 100
    assert fair_thirds < plain_thirds * 0.75, (fair_thirds, plain_thirds)
    assert fair_shadow < plain_shadow / 3, (fair_shadow, plain_shadow)


def test_the_choice_recomputes_identically_from_the_revealed_secret_and_is_the_first_fair_attempt():
    secret = f"{8:064x}"  # a night whose first four attempts give u1 or u2 a third shadow game
    seats = ["u1", "u2", "u3", "u4", "u5"]
    history = {"u1": ["wolves", "INSIDER"], "u2": ["dracula", "wolves"], "u3": ["village", ""], "u4": ["village"]}
    seating = "0:p1,1:p2,2:p3,3:p4,4:p5"
    assert seating_string(seats) == seating
    chosen = fair_deal_secret("werewolf", 5, {}, seats, history, secret, 3, 1, "tok", seating=seating)
    again = fair_deal_secret("werewolf", 5, {}, seats, history, secret, 3, 1, "tok", seating=seating)
    assert chosen == again
    deal_secret, attempt = chosen
    assert attempt == 4
    assert deal_secret == commitment.table_deal_secret(secret, 3, 1, attempt)
    for earlier in range(attempt):
        state = deal("werewolf", 5, commitment.table_deal_secret(secret, 3, 1, earlier), "tok", seating)
        assert fair_roles.repeats("werewolf", state, seats, history)
    state = deal("werewolf", 5, deal_secret, "tok", seating)
    assert not fair_roles.repeats("werewolf", state, seats, history)
    assert side_of("werewolf", state, 0) != "wolves" and side_of("werewolf", state, 1) != "wolves"


def test_without_history_or_sides_the_first_attempt_is_taken():
    secret = commitment.new_secret()
    seats = ["u1", "u2", None]
    assert (
        fair_deal_secret(
            "monster", 3, {}, seats, {"u1": ["wolves", "wolves"]}, secret, 1, 0, "t", seating="0:p1,1:p2,2:bot"
        )[1]
        == 0
    )
    assert (
        fair_deal_secret("werewolf", 5, {}, ["u1", "u2", "u3", "u4", "u5"], {}, secret, 1, 0, "t", seating="x")[1] == 0
    )


def test_a_run_is_counted_by_camp_across_games_and_games_without_sides_are_skipped():
    assert would_repeat(["wolves", "INSIDER"], "dracula")
    assert would_repeat(["village", "", "AGENTS"], "van_helsing", light_runs=True)
    assert not would_repeat(["village", "", "AGENTS"], "van_helsing")  # a light run is not steered
    assert not would_repeat(["wolves", "village"], "wolves")
    assert not would_repeat(["wolves"], "wolves")
    assert not would_repeat(["wolves", "wolves"], "")
    assert would_repeat(["RIVAL", "RIVAL"], "RIVAL") and not would_repeat(["RIVAL", "RIVAL"], "INSIDER")


def test_side_of_reads_the_dealt_side_of_each_game():
    for game, n, expected in [
        ("werewolf", 6, {"village", "wolves"}),
        ("insidejob", 4, {"AGENTS", "INSIDER", "RIVAL", "SHADOW", "SCAPEGOAT"}),
        ("dracula", 2, {"dracula", "van_helsing"}),
        ("monster", 3, {""}),
        ("mummy", 4, {""}),
    ]:
        seen = {side_of(game, registry.get(game).setup(n, {}, seed), s) for seed in range(5) for s in range(n)}
        assert seen <= expected and seen, (game, seen)
