"""A seat a bot played (the autopilot after missed decisions, or a seat handed to a bot) is marked
in the night's recap and scoreboard, with an icon and words a screen reader reads, in either
language; its points count as for any seat. Only a finished match is read for it: a running
match's moves would tell who acted when, so the night's pages mark nothing of a running table."""

from __future__ import annotations

import re

from django.core import mail
from django.test import Client

from clubs import recap, rounds, scoreboard
from clubs.models import RoundTable
from tables.models import Match, Move
from tests.platform.clubs.tonight_helpers import DRACULA_AND_MONSTER, played
from tests.platform.helpers import play_until


def _night_where_a_bot_played_for_one(club, bob):
    """A played night where each seat's moves are its player's own, but for one Dracula seat,
    whose moves a bot made (the clock played every seat: the moves are only re-attributed)."""
    night, people, round_ = played(club, bob)
    Move.objects.filter(match__table__night_table__round=round_).update(source=Move.Source.PLAYER)
    dracula = RoundTable.objects.get(round=round_, table__game="dracula")
    absent = dracula.table.seats.get(number=1).user
    Move.objects.filter(match__table=dracula.table, seat=1).update(source=Move.Source.BOT)
    return night, people, absent


def _as(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _score_row(page: str, name: str) -> str:
    rows = re.findall(r'<tr data-testid="score-row">.*?</tr>', page, re.S)
    return next(row for row in rows if f"<bdi>{name}</bdi>" in row)


def test_the_recap_marks_the_seat_a_bot_played_and_only_that_one(club, bob):
    night, people, absent = _night_where_a_bot_played_for_one(club, bob)
    totals_before = scoreboard.totals(night)
    recap.end_night(night, bob)
    page = _as(people[0]).get(f"/clubs/{club.slug}/nights/{night.pk}/recap/").content.decode()
    assert page.count('data-testid="bot-played"') == 2, "the seat at its table, the person on the scoreboard"
    seat_row = re.search(r'<tr[^>]*data-seat="1">.*?</tr>', page.split("Dracula vs Van Helsing", 1)[1], re.S).group(0)
    assert 'data-testid="bot-played"' in seat_row
    assert '<span class="visually-hidden">A bot played this seat for part of the game, or all of it.</span>' in seat_row
    assert "A bot played for them at 1 table." in _score_row(page, str(absent))
    assert 'data-testid="bot-played-legend"' in page
    others = [p for p in people if p != absent]
    assert all('data-testid="bot-played"' not in _score_row(page, str(p)) for p in others if str(p) in page)
    assert scoreboard.totals(night) == totals_before, "the points are not changed by the mark"


def test_the_mark_reads_in_persian_with_persian_digits(club, bob):
    night, people, absent = _night_where_a_bot_played_for_one(club, bob)
    recap.end_night(night, bob)
    page = _as(people[0], "fa").get(f"/clubs/{club.slug}/nights/{night.pk}/recap/").content.decode()
    row = _score_row(page, str(absent))
    assert "ربات در ۱ میز به جای این بازیکن بازی کرد." in row
    assert "ربات بخشی از بازیِ این صندلی یا همهٔ آن را به جای بازیکن انجام داد." in page


def test_the_recap_mail_says_a_bot_played_for_them(club, bob, django_capture_on_commit_callbacks):
    club.language = "en"  # the mail's language, for those who chose none
    club.save()
    night, _people, absent = _night_where_a_bot_played_for_one(club, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        recap.end_night(night, bob)
    body = next(m.body for m in mail.outbox if m.to == [absent.email])
    line = next(line for line in body.splitlines() if f" {absent}: " in line)
    assert line.endswith("(A bot played for them at 1 table.)"), line


def test_a_running_tables_bot_moves_mark_nothing_on_the_nights_pages(club, bob):
    night, people, first = played(club, bob)  # everyone on the scoreboard, by their own moves
    Move.objects.filter(match__table__night_table__round=first).update(source=Move.Source.PLAYER)
    second = rounds.start_round(night, bob, DRACULA_AND_MONSTER)
    rounds.confirm(night, second.pk, bob)
    rounds.start_tables(night, second.pk)
    match = Match.objects.filter(table__night_table__round=second, table__game="dracula").get()
    play_until(match, lambda m: m.moves.exists())  # the clock's first timeout
    Move.objects.filter(match=match).update(source=Move.Source.BOT)  # as if a bot had made it
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    for reader in (bob, *people):
        page = _as(reader).get(f"/clubs/{club.slug}/nights/{night.pk}/").content.decode()
        assert 'data-testid="score-row"' in page
        assert "bot-played" not in page and "A bot played" not in page
