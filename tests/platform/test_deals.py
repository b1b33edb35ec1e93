"""Verifiable deals: the seed comes from a secret whose sha256 is published at the start and which
is revealed at the end; replaying every move from it reproduces every state. A changed seed,
secret or move fails, naming where."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone, translation

from games import registry
from history import deals
from tables import moderator
from tables.models import Match, Move
from tests.platform.helpers import play_until_over, started_werewolf
from tests.platform.latin_digits import latin_digits_in_text
from tests.platform.replaying import played

ENGINES = [e.slug for e in registry.all()]


@pytest.mark.parametrize("slug", ENGINES)
def test_an_honest_match_verifies(alice, slug):
    match, _ = played(alice, slug, registry.get(slug).min_players, seed=4)
    assert match.deal_scheme == deals.SCHEME and len(match.deal_secret) == 64
    assert match.deal_commitment == deals.commitment(match.deal_secret)
    assert match.seed == deals.derive_seed(match.deal_secret, match.table.token, match.deal_seating)
    verdict = deals.verify(match)
    assert verdict.ok, verdict.first_failure
    assert all(m.state_hash for m in match.moves.all())



@pytest.fixture(autouse=True)
def _english():
    """The verdicts read in English here, whatever an earlier test left active in this thread."""
    with translation.override("en"):
        yield

def test_the_seed_depends_on_the_table_and_the_seating():
    secret = "ab" * 32
    assert deals.derive_seed(secret, "tok", "0:p1,1:bot") != deals.derive_seed(secret, "tok2", "0:p1,1:bot")
    assert deals.derive_seed(secret, "tok", "0:p1,1:bot") != deals.derive_seed(secret, "tok", "0:bot,1:p1")
    assert 0 <= deals.derive_seed(secret, "tok", "0:p1") < 2**63


def test_the_commitment_is_on_the_table_page_from_the_start_and_the_secret_is_not(client, alice):
    match = started_werewolf(alice, seed=None)
    client.force_login(alice)
    page = client.get(reverse("tables:detail", args=[match.table.token])).content.decode()
    assert match.deal_commitment in page and 'data-testid="deal-commitment"' in page
    assert match.deal_secret not in page
    history = client.get(reverse("history:match", args=[match.pk])).content.decode()
    assert match.deal_secret not in history


def test_the_secret_is_revealed_on_the_match_page_once_it_is_over(client, alice):
    match, _ = played(alice, "werewolf", 5, seed=2)
    client.force_login(alice)
    page = client.get(reverse("history:match", args=[match.pk])).content.decode()
    assert match.deal_secret in page and 'data-testid="verify-deal"' in page
    verified = client.get(reverse("history:verify", args=[match.pk]))
    assert verified.status_code == 200 and 'data-testid="verified"' in verified.content.decode()


def test_a_changed_seed_fails(alice):
    match, _ = played(alice, "dracula", 2, seed=3)
    Match.objects.filter(pk=match.pk).update(seed=match.seed + 1)
    verdict = deals.verify(Match.objects.get(pk=match.pk))
    assert not verdict.ok and "seed" in verdict.first_failure.text


def test_a_changed_secret_fails(alice):
    match, _ = played(alice, "dracula", 2, seed=3)
    verdict = deals.verify(match, secret="00" * 32)
    assert not verdict.ok and "commitment" in verdict.first_failure.text
    assert not deals.verify(match, secret="not hex").ok


def test_a_changed_move_fails_at_that_move(alice):
    match, _ = played(alice, "monster", 3, seed=8)
    engine = match.engine
    moves = list(match.moves.order_by("seq"))
    # Replace a middle move by another legal choice from the same state: the replay goes on but
    # parts from what was played exactly there.
    state = engine.setup(match.n_players, dict(match.options), match.seed)
    for move in moves:
        legal = [a for a in engine.legal_actions(state, move.seat) if a != move.action and a["type"] != "timeout"]
        if move.seq > 3 and legal:
            Move.objects.filter(pk=move.pk).update(action=legal[0])
            tampered = move.seq
            break
        state = engine.apply(state, move.seat, move.action)
    verdict = deals.verify(Match.objects.get(pk=match.pk))
    assert not verdict.ok and verdict.first_failure.seq == tampered
    assert f"Move {tampered} " in verdict.first_failure.text


def test_verify_match_exits_non_zero_naming_the_move(alice, capsys):
    match, _ = played(alice, "werewolf", 5, seed=9)
    call_command("verify_match", str(match.pk))
    assert "every move verify" in capsys.readouterr().out
    move = match.moves.order_by("seq")[2]
    Move.objects.filter(pk=move.pk).update(action={"type": "nonsense"})
    with pytest.raises(CommandError, match=f"Move {move.seq} "):
        call_command("verify_match", str(match.pk))


def test_a_match_dealt_with_a_fixed_seed_says_it_cannot_be_verified(alice):
    match, _ = played(alice, "dracula", 2, seed=1, seed_of_deal=77)
    verdict = deals.verify(match)
    assert not verdict.ok and "fixed seed" in verdict.first_failure.text


def test_an_outsider_cannot_verify_a_private_match(client, alice, dave):
    match, _ = played(alice, "dracula", 2, seed=1)
    client.force_login(dave)
    assert client.get(reverse("history:verify", args=[match.pk])).status_code == 404


def test_an_aborted_matchs_secret_stays_sealed(client, alice):
    from tables import moderator

    match = started_werewolf(alice, seed=None)
    assert moderator.abort(match)
    client.force_login(alice)
    page = client.get(reverse("history:match", args=[match.pk])).content.decode()
    assert match.deal_secret not in page and "stays sealed" in page
    response = client.get(reverse("history:verify", args=[match.pk]))
    assert response.status_code == 409 and match.deal_secret not in response.content.decode()


def test_the_replay_check_reads_in_persian_digits(client, alice):
    """Every line of the check counts its moves in Persian digits on a Persian page."""
    match, _ = played(alice, "werewolf", 5, seed=2)
    client.force_login(alice)
    verified = client.get(reverse("history:verify", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fa")
    page = verified.content.decode()
    assert verified.status_code == 200 and 'data-testid="verified"' in page
    assert latin_digits_in_text(page) == []
    refused = client.get(reverse("history:match", args=[match.pk]) + "?step=99999", HTTP_ACCEPT_LANGUAGE="fa")
    assert latin_digits_in_text(refused.content.decode()) == []


def test_a_match_whose_nights_closed_with_their_picks_replays_move_by_move(alice, bob):
    """A night pick after the turn's minimum carries its close (tables.moderator): both moves are
    in the log, each stamped with the state it led to, and the check replays them one by one."""
    match = started_werewolf(alice, [bob], seed=None)  # a verifiable deal
    minimum = match.table.timers()["night_turn_min_s"]
    Match.objects.filter(pk=match.pk).update(window_started_at=timezone.now() - timedelta(seconds=minimum + 1))
    (seat,) = match.engine.awaiting(match.state)
    pick = next(a for a in match.engine.legal_actions(match.state, seat) if a["type"] == "pick")
    moderator.submit(match.pk, seat, pick, version=0)
    match = Match.objects.get(pk=match.pk)
    moves = list(match.moves.order_by("seq"))
    assert [m.source for m in moves] == ["player", "clock"]
    assert moves[0].state_hash != moves[1].state_hash
    assert moves[1].state_hash == deals.state_hash(match.state)
    match = play_until_over(match)
    verdict = deals.verify(match)
    assert verdict.ok, [c.text for c in verdict.checks]


def test_a_running_matchs_check_says_its_secret_waits_for_the_end_not_that_it_was_aborted(client, alice, bob):
    match = started_werewolf(alice, [bob], seed=None)
    client.force_login(bob)
    response = client.get(reverse("history:verify", args=[match.pk]))
    page = response.content.decode()
    assert response.status_code == 409 and match.deal_secret not in page
    assert "The secret stays sealed until the match ends." in page and "aborted" not in page


def _isolated(page: str, value: str) -> bool:
    """Every time ``value`` is shown it is a whole left-to-right hash of its own (templates/_hash.html),
    never a bare run of hex among the words of a Persian line."""
    whole = re.findall(rf'<code class="hash" dir="ltr" translate="no"(?: data-testid="[\w-]+")?>{value}</code>', page)
    return 0 < len(whole) == page.count(value)


def test_a_deals_hash_is_shown_left_to_right_and_whole_on_a_persian_table_page(client, alice):
    match = started_werewolf(alice, seed=None)
    client.force_login(alice)
    page = client.get(reverse("tables:detail", args=[match.table.token]), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert _isolated(page, match.deal_commitment)


def test_a_deals_hash_and_secret_are_shown_left_to_right_and_whole_on_the_match_and_check_pages(client, alice):
    match, _ = played(alice, "werewolf", 5, seed=2)
    client.force_login(alice)
    for url in (reverse("history:match", args=[match.pk]), reverse("history:verify", args=[match.pk])):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="fa").content.decode()
        assert _isolated(page, match.deal_commitment), url
        assert _isolated(page, match.deal_secret), url
