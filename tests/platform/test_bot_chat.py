"""Practice bots talk in the werewolf day chat through the table's chat, at a human pace, and are
ready only after a share of the discussion timer."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games.werewolf import talk
from tables import bot_chat, bot_pace, chat, moderator
from tables.models import ChatMessage, Match
from tests.platform.helpers import fresh, play_until, started_werewolf

# alice is the seer (seat 0); the bots: 1 VILLAGER, 2 WOLF, 3 DOCTOR, 4 VILLAGER. A wolf bot
# always talks by day (it claims seer or accuses a villager).
W5 = ["SEER", "VILLAGER", "WOLF", "DOCTOR", "VILLAGER"]


def _in_discussion(alice) -> Match:
    match = play_until(started_werewolf(alice, roles=W5), lambda m: m.state["public"]["phase"] == "day_discussion")
    assert match.state["public"]["alive"][2]
    return match


def _later(match: Match, share: float) -> timezone.datetime:
    return match.window_started_at + timedelta(seconds=share * match.table.timers()["discussion_s"])


def test_a_bot_line_reaches_the_tables_chat_with_the_bots_name(client, alice):
    match = _in_discussion(alice)
    assert bot_chat.run_due(match.window_started_at) == 0, "nobody speaks the moment the day begins"
    assert bot_chat.run_due(_later(match, 0.5)) >= 1
    wolf_lines = ChatMessage.objects.filter(table=match.table, seat=2, author__isnull=True)
    assert wolf_lines.exists()
    client.force_login(alice)
    page = client.get(reverse("tables:detail", args=[match.table.token]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    line = wolf_lines.first()
    with translation.override("en"):
        assert str(bot_chat.line_html("werewolf", line.key, line.params, bot_chat.seat_names(match.table))) in page
    assert re.search(r"<strong>(<bdi>)+Bot 3(</bdi>)+</strong>: <span", page), "a bot's line carries the bot's name"


def _page(client, match: Match, language: str) -> str:
    url = reverse("tables:detail", args=[match.table.token])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def _words(message: str) -> list[str]:
    """The fixed words of a line's template, around the named player."""
    return [part.strip(" .:;؛") for part in message.split("%(target)s") if part.strip(" .:;؛")]


def test_an_english_reader_sees_a_bots_line_in_english_and_a_persian_reader_in_persian(client, alice):
    match = _in_discussion(alice)
    bot_chat.run_due(_later(match, 0.5))
    line = ChatMessage.objects.filter(table=match.table, seat=2).first()
    assert line.key in talk.MESSAGES and "target" in line.params, "stored as a key and its params"
    english = _words(talk.MESSAGES[line.key])
    with translation.override("fa"):
        persian = _words(translation.gettext(talk.MESSAGES[line.key]))
    assert english and persian and set(english).isdisjoint(persian)
    named = line.params["target"]
    client.force_login(alice)
    for language, theirs, other, name in (("en", english, persian, f"Bot {named + 1}"), ("fa", persian, english, None)):
        page = _page(client, match, language)
        chat_html = page[page.index('id="chat"') :]
        assert all(word in chat_html for word in theirs), (language, theirs)
        assert not any(word in chat_html for word in other), (language, other)
        if name is not None and named != 0:
            assert f"<bdi>{name}</bdi>" in chat_html, "the named player is shown by name, inside <bdi>"
    # Back to English: the rendering cached for the Persian reader is not the English one's.
    page = _page(client, match, "en")
    assert all(word in page[page.index('id="chat"') :] for word in english)


def test_a_line_stored_as_text_before_keys_existed_still_shows_its_text(client, alice):
    match = _in_discussion(alice)
    ChatMessage.objects.create(table=match.table, author=None, seat=2, text="یک خط قدیمی")
    ChatMessage.objects.create(table=match.table, author=None, seat=3, text="<b>an unknown key</b>", key="gone")
    client.force_login(alice)
    page = _page(client, match, "en")
    assert "یک خط قدیمی" in page
    assert "&lt;b&gt;an unknown key&lt;/b&gt;" in page and "<b>an unknown key" not in page


def test_bot_lines_are_the_talk_modules_lines_stored_with_their_key_and_the_site_languages_text(alice, settings):
    match = _in_discussion(alice)
    bot_chat.run_due(_later(match, 0.5))
    lines = talk.lines(match.engine.view(match.state, 2), [], talk.rng_for_seat(match.seed, 2))
    with translation.override(settings.LANGUAGE_CODE):
        expected = bot_chat.render(talk, lines[0], bot_chat.seat_names(match.table))
    stored = ChatMessage.objects.filter(table=match.table, seat=2).first()
    assert (stored.key, stored.params) == (lines[0]["key"], lines[0]["params"])
    assert stored.text == expected, "the text, for the admin and moderation, is in the site's language"
    assert {"seat": 2, **lines[0]} in bot_chat.public_chat(fresh(match)), "the bots read the stored key"


def test_the_seers_claim_reads_in_persian_as_the_glossary_says():
    with translation.override("fa"):
        line = {"key": talk.CLAIM_WOLF, "params": {"target": 1}}
        assert bot_chat.render(talk, line, ["الف", "مینا"]) == "من پیشگو هستم؛ مینا گرگ است."


def test_a_bot_says_at_most_two_lines_a_discussion_one_at_a_time(alice):
    match = _in_discussion(alice)
    first = bot_chat.line_due(match, 2, 0, match.table.timers()["discussion_s"])
    second = bot_chat.line_due(match, 2, 1, match.table.timers()["discussion_s"])
    assert match.window_started_at < first < second
    for when in (first, second, second + timedelta(seconds=30)):
        bot_chat.run_due(when)
    said = list(ChatMessage.objects.filter(table=match.table, seat=2).values_list("text", flat=True))
    assert 1 <= len(said) <= talk.MAX_LINES and len(set(said)) == len(said)


def test_bots_never_post_at_night_during_the_vote_or_when_dead(alice):
    match = started_werewolf(alice, roles=W5)
    assert match.state["public"]["phase"] == "night"
    assert bot_chat.run_due(timezone.now() + timedelta(hours=1)) == 0
    with pytest.raises(chat.ChatRefused):
        bot_chat.post_as_bot(match.table, 2, "hello")
    match = play_until(match, lambda m: m.state["public"]["phase"] == "day_vote")
    assert bot_chat.run_due(timezone.now() + timedelta(hours=1)) == 0
    with pytest.raises(chat.ChatRefused):
        bot_chat.post_as_bot(match.table, 2, "hello")
    # A day with a dead bot: the dead bot says nothing, and may not.
    for seed in range(2, 40):
        match = play_until(
            started_werewolf(alice, roles=W5, seed=seed),
            lambda m: (
                m.status != Match.Status.PLAYING
                or (m.state["public"]["phase"] == "day_discussion" and not all(m.state["public"]["alive"][1:]))
            ),
        )
        if match.status == Match.Status.PLAYING:
            break
    assert match.status == Match.Status.PLAYING, "some seed has a day with a dead bot"
    dead = next(s for s in range(1, 5) if not match.state["public"]["alive"][s])
    bot_chat.run_due(_later(match, 0.9))
    assert not ChatMessage.objects.filter(table=match.table, seat=dead).exists()
    with pytest.raises(chat.ChatRefused):
        bot_chat.post_as_bot(match.table, dead, "hello")
    assert not ChatMessage.objects.filter(table=match.table, text="hello").exists()


def test_bots_read_a_human_claim_in_the_templated_form(alice):
    match = _in_discussion(alice)
    with translation.override("en"):
        names = bot_chat.seat_names(match.table)
        text = bot_chat.render(talk, {"key": talk.CLAIM_WOLF, "params": {"target": 2}}, names)
    chat.post(match.table, alice, text)
    chat.post(match.table, alice, "hello everyone")
    assert bot_chat.public_chat(fresh(match)) == [{"seat": 0, "key": talk.CLAIM_WOLF, "params": {"target": 2}}]


def test_a_bot_is_ready_only_after_a_share_of_the_discussion_timer(alice, settings):
    settings.BOT_DELAY_S = 1.0
    match = _in_discussion(alice)
    seats = list(match.table.seats.all())
    limit = match.engine.time_limit(match.state, 1, match.table.timers())
    due = moderator._due_times(match, seats, match.window_started_at)
    bots = [seat for seat in due if seat != 0]
    assert bots
    for seat in bots:
        when, how = due[seat]
        assert how == "bot"
        assert when >= match.window_started_at + timedelta(seconds=bot_pace.READY_SHARE * limit)
        assert when <= match.window_started_at + timedelta(seconds=(bot_pace.READY_SHARE + 0.1) * limit)
    # A lone human who is ready at once still has the bots' time to read and talk.
    moderator.submit(match.pk, 0, {"type": "ready"}, match.version)
    assert moderator.run_due(match.window_started_at + timedelta(seconds=5)) == 0
    assert fresh(match).state["public"]["phase"] == "day_discussion"


def test_bots_act_at_their_usual_delay_on_other_decisions(alice, settings):
    settings.BOT_DELAY_S = 1.0
    match = fresh(started_werewolf(alice, roles=W5))
    seats = list(match.table.seats.all())
    for seat, (when, how) in moderator._due_times(match, seats, match.window_started_at).items():
        assert bot_pace.ready_at(match, seat, match.window_started_at, match.table.timers()) is None
        if how == "bot":
            assert when == match.last_move_at + timedelta(seconds=1.0)


def test_a_table_of_people_costs_the_bot_chat_no_lock(alice, bob, charlie, dave, monkeypatch):
    """Bot chat looks only at matches with a bot seat: a werewolf table of five people is never
    locked by it, tick after tick."""
    from accounts.models import User
    from tables import bot_chat, seating
    from tables.models import Table

    eve = User.objects.create(username="eve", display_name="Eve")
    table = seating.create_table(alice, "werewolf", 5, Table.Visibility.PRIVATE)
    for player in (bob, charlie, dave, eve):
        seating.sit(table, player)
    seating.start(table, alice, seed=1)
    spoken = []
    monkeypatch.setattr(bot_chat, "_speak", lambda match_id, now: spoken.append(match_id) or 0)
    bot_chat.run_due()
    assert spoken == []
