"""A guest's games follow them into an account, and so does the guest's profile address: the
guest's username is kept as a former name of the account (``FormerName``). So does the rest of what
the guest did and what was done about them (:func:`_move_traces`): a block or a staff ban does not
end because its person logged in, nor does a report, nor a club night's points."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Model

from accounts.models import FormerName, User


@transaction.atomic
def upgrade_guest(guest: User, username: str, password: str, display_name: str) -> User:
    """Sign-up while playing as a guest: the same row becomes a registered account."""
    _keep_former_name(guest.username, guest)
    guest.username = username
    guest.display_name = display_name or username
    guest.is_guest = False
    guest.set_password(password)
    guest.save()
    return guest


@transaction.atomic
def merge_guest_into(guest: User, account: User) -> int:
    """Log-in while playing as a guest: the guest's seats move to the account, the guest goes.
    Returns the number of seats moved. A seat at a table where the account already sits cannot
    move (one person holds one seat): it is freed, and in a running match a practice bot plays it."""
    from history import ratings
    from tables.models import ChatMessage, Seat, Table

    if not guest.is_guest or guest.pk == account.pk:
        return 0
    taken_tables = set(Seat.objects.filter(user=account).values_list("table_id", flat=True))
    movable = Seat.objects.filter(user=guest).exclude(table_id__in=taken_tables)
    moved = movable.update(user=account)
    Table.objects.filter(host=guest).update(host=account)
    ChatMessage.objects.filter(author=guest).update(author=account)  # the guest's deletion below bumps the chat
    Seat.objects.filter(user=guest, table__status=Table.Status.PLAYING).update(user=None, autopilot=True)
    Seat.objects.filter(user=guest).update(user=None)
    rated_games = ratings.games_of(guest)
    _move_traces(guest, account)
    _keep_former_name(guest.username, account)
    guest.delete()
    ratings.recompute(rated_games, write=True)  # the guest's rated games now count for the account
    return moved


def _keep_former_name(name: str, user: User) -> None:
    """``name`` leads to ``user``'s profile from now on (the player who holds it now, should it
    have led elsewhere before)."""
    FormerName.objects.update_or_create(name=name, defaults={"user": user})


def _move_traces(guest: User, account: User) -> None:
    """The guest's rows that would otherwise go with the guest become the account's: reports (made
    and received), staff sanctions, devices, blocks and mutes (made and received), the tables they
    came to watch, and a club night's check-in, points, awards, penalties and award votes (a walk-in
    who logs in keeps their place on the night's scoreboard). Where the account already holds such
    a row (the same night's check-in, a block of the same person), the account's own row stands and
    the guest's goes with the guest. A block or mute between the guest and the account themselves
    ends: nobody blocks themselves."""
    from clubs.models import Award, AwardVote, CheckIn, Penalty, PointsEntry
    from moderation.models import Block, Device, PersonalMute, Report, Sanction
    from tables.models import Watcher

    moves: list[tuple[type[Model], str, str | None]] = [  # (model, the person's field, unique beside it)
        (Report, "reporter", None),
        (Report, "reported", None),
        (Sanction, "user", None),
        (Device, "user", "device"),
        (Block, "blocker", "blocked"),
        (Block, "blocked", "blocker"),
        (PersonalMute, "muter", "muted"),
        (PersonalMute, "muted", "muter"),
        (Watcher, "user", "table"),
        (CheckIn, "user", "night"),
        (PointsEntry, "user", None),
        (Award, "user", None),
        (Penalty, "user", None),
        (AwardVote, "voter", "round_table"),
        (AwardVote, "candidate", None),
    ]
    for model, person, unique_beside in moves:
        rows = model._default_manager.filter(**{person: guest})
        if unique_beside:
            held = model._default_manager.filter(**{person: account}).values(unique_beside)
            rows = rows.exclude(**{f"{unique_beside}__in": held})
        rows.update(**{person: account})
    Block.objects.filter(blocker=account, blocked=account).delete()
    PersonalMute.objects.filter(muter=account, muted=account).delete()
