"""Players report, mute and block; staff work a report queue in the admin, hide chat lines (gone
live for everyone), mute and ban for a period or for good, and every action is in the audit log.
A ban holds at log-in, against a new guest from the same device, and at socket connect."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from moderation.gate import BANNED_CLOSE_CODE
from moderation.models import Block, ModeratorAction, PersonalMute, Report, Sanction
from tables import chat, seating
from tables.models import ChatMessage, Table
from tests.platform.sockets import close_thread_connections, connect, receive_html, receive_until


@pytest.fixture
def staff(db):
    return User.objects.create_superuser(username="mod", password="a-long-password-1", display_name="Mod")


@pytest.fixture
def chatting_table(alice, bob):
    table = seating.create_table(alice, "werewolf", 5, Table.Visibility.PRIVATE)
    seating.sit(table, bob)
    return table


def _as(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def _player_url(table, user, message=None) -> str:
    url = reverse("moderation:player", args=[table.token, user.pk])
    return f"{url}?message={message.pk}" if message else url


@pytest.mark.django_db
def test_a_report_of_a_chat_line_reaches_the_admin_queue_with_the_line_in_context(chatting_table, alice, bob, staff):
    chat.post(chatting_table, alice, "before it")
    rude = chat.post(chatting_table, bob, "you are all idiots")
    chat.post(chatting_table, alice, "after it")
    response = _as(alice).post(_player_url(chatting_table, bob, rude), {"reason": "abuse", "note": "third time"})
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.message, report.note) == (alice, bob, rude, "third time")
    admin = _as(staff)
    queue = admin.get(reverse("admin:moderation_report_changelist") + "?status=open").content.decode()
    assert "Bob" in queue and "Insults or harassment" in queue
    page = admin.get(reverse("admin:moderation_report_change", args=[report.pk])).content.decode()
    assert "before it" in page and "you are all idiots" in page and "after it" in page


@pytest.mark.django_db
def test_a_report_with_no_reason_is_refused_and_keeps_the_note(chatting_table, alice, bob):
    response = _as(alice).post(_player_url(chatting_table, bob), {"reason": "nonsense", "note": "my careful note"})
    assert response.status_code == 200 and Report.objects.count() == 0
    page = response.content.decode()
    assert "Select a valid choice" in page and "my careful note" in page


@pytest.mark.django_db
def test_only_a_player_at_the_table_can_be_reported_and_never_oneself(chatting_table, alice, bob, dave):
    assert _as(alice).get(_player_url(chatting_table, dave)).status_code == 404
    assert _as(alice).post(_player_url(chatting_table, alice), {"reason": "spam"}).status_code == 404
    assert _as(dave).get(_player_url(chatting_table, bob)).status_code == 200  # anyone with the link may report
    assert Client().get(_player_url(chatting_table, bob)).status_code == 302  # but must be someone
    assert Report.objects.count() == 0


@pytest.mark.django_db
def test_a_personal_mute_hides_their_lines_for_the_muter_only(client, chatting_table, alice, bob, charlie):
    chat.post(chatting_table, bob, "bob speaking")
    alice_client = _as(alice)
    alice_client.post(reverse("moderation:mute", args=[chatting_table.token, bob.pk]), {"on": "1"})
    assert PersonalMute.objects.filter(muter=alice, muted=bob).exists()
    table_url = reverse("tables:detail", args=[chatting_table.token])
    assert "bob speaking" not in alice_client.get(table_url).content.decode()
    assert "bob speaking" in _as(charlie).get(table_url).content.decode()
    alice_client.post(reverse("moderation:mute", args=[chatting_table.token, bob.pk]), {"on": "0"})
    assert "bob speaking" in alice_client.get(table_url).content.decode()


@pytest.mark.django_db
def test_a_blocked_player_cannot_join_the_blockers_tables(chatting_table, alice, bob, charlie):
    _as(alice).post(reverse("moderation:block", args=[chatting_table.token, bob.pk]), {"on": "1"})
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    table = seating.create_table(alice, "werewolf", 5, Table.Visibility.PUBLIC)
    response = _as(bob).post(reverse("tables:sit", args=[table.token]), follow=True)
    assert "does not want you at their tables" in response.content.decode()
    assert not table.seats.filter(user=bob).exists()
    seating.sit(table, charlie)  # others still may


@pytest.mark.django_db(transaction=True)
async def test_a_hidden_message_disappears_live_for_everyone(chatting_table, alice, bob, staff):
    rude = await database_sync_to_async(chat.post)(chatting_table, bob, "a rude line")
    report = await database_sync_to_async(Report.objects.create)(
        reporter=alice, reported=bob, table=chatting_table, message=rude, reason="abuse"
    )
    tabs = []
    for user in (alice, bob):
        tab, connected, _ = await connect(chatting_table.token, user)
        assert connected and "a rude line" in await receive_html(tab)
        tabs.append(tab)
    admin = await database_sync_to_async(_as)(staff)
    await database_sync_to_async(admin.post)(
        reverse("admin:moderation_report_changelist"),
        {"action": "hide_reported_messages", "_selected_action": [report.pk]},
    )
    for tab in tabs:
        html = await receive_until(tab, "hidden by a moderator")
        assert "hidden by a moderator" in html and "a rude line" not in html
        await tab.disconnect()
    logged = await database_sync_to_async(lambda: list(ModeratorAction.objects.values_list("action", "actor")))()
    assert logged == [("hide_message", staff.pk)]
    await close_thread_connections()


@pytest.mark.django_db
def test_a_staff_chat_mute_blocks_posting_for_its_period_only(chatting_table, bob, staff):
    mute = Sanction.objects.create(
        user=bob, kind="chat_mute", reason="flooding", until=timezone.now() + timedelta(hours=1), created_by=staff
    )
    with translation.override("en"), pytest.raises(chat.ChatRefused, match="muted you in chat until .*flooding"):
        chat.post(chatting_table, bob, "let me speak")
    assert ChatMessage.objects.count() == 0
    Sanction.objects.filter(pk=mute.pk).update(until=timezone.now() - timedelta(seconds=1))
    chat.post(chatting_table, bob, "let me speak")
    assert ChatMessage.objects.count() == 1


@pytest.mark.django_db
def test_staff_bans_through_the_admin_and_the_audit_log_records_it(bob, staff):
    response = _as(staff).post(
        reverse("admin:moderation_sanction_add"),
        {"user": bob.pk, "kind": "ban", "reason": "cheating", "until_0": "", "until_1": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    ban = Sanction.objects.get()
    assert (ban.user, ban.kind, ban.until, ban.created_by) == (bob, "ban", None, staff)
    assert ModeratorAction.objects.filter(actor=staff, action="ban", target=bob).exists()


@pytest.mark.django_db
def test_a_ban_from_the_report_queue_asks_first_and_bans_only_once_confirmed(chatting_table, alice, bob, staff):
    report = Report.objects.create(reporter=alice, reported=bob, table=chatting_table, reason="abuse")
    admin = _as(staff)
    url = reverse("admin:moderation_report_changelist")
    asked = admin.post(url, {"action": "ban_reported_for_good", "_selected_action": [report.pk]}).content.decode()
    assert 'data-testid="confirm-question"' in asked and "Ban these players for good?" in asked and "Bob" in asked
    assert not Sanction.objects.exists(), "the first post only asks"
    admin.post(url, {"action": "ban_reported_for_good", "_selected_action": [report.pk], "post": "yes"})
    ban = Sanction.objects.get()
    assert (ban.user, ban.kind, ban.until) == (bob, "ban", None)
    report.refresh_from_db()
    assert report.resolved_at is not None


@pytest.mark.django_db
def test_a_ban_from_a_report_reads_in_the_banned_players_language_not_the_staffs(chatting_table, alice, bob, staff):
    """A Persian-speaking moderator bans Bob, who reads English: Bob reads the reason in English."""
    from moderation.bans import ban_text

    report = Report.objects.create(reporter=alice, reported=bob, table=chatting_table, reason="abuse")
    persian_staff = Client(HTTP_ACCEPT_LANGUAGE="fa")
    persian_staff.force_login(staff)
    persian_staff.post(
        reverse("admin:moderation_report_changelist"),
        {"action": "ban_reported_for_a_week", "_selected_action": [report.pk], "post": "yes"},
    )
    ban = Sanction.objects.get()
    with translation.override("en"):
        assert "Reason: Insults or harassment" in ban_text(ban)
    with translation.override("fa"):
        assert "Insults or harassment" not in ban_text(ban) and "abuse" not in ban_text(ban)


@pytest.mark.django_db
def test_a_banned_player_is_refused_at_log_in_with_the_reason(client, bob, staff):
    Sanction.objects.create(user=bob, kind="ban", reason="cheating at werewolf", created_by=staff)
    response = client.post(reverse("accounts:login"), {"username": "bob", "password": "a-long-password-1"})
    page = response.content.decode()
    assert response.status_code == 200 and "banned for good" in page and "cheating at werewolf" in page
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_banned_guest_cannot_come_back_as_a_new_guest_from_the_same_device(client, staff):
    client.post(reverse("accounts:guest"), {"display_name": "Troll"})
    troll = User.objects.get(display_name="Troll")
    Sanction.objects.create(
        user=troll, kind="ban", reason="flooding the lobby", until=timezone.now() + timedelta(days=7), created_by=staff
    )
    lobby = client.get(reverse("tables:lobby")).content.decode()
    assert "banned until" in lobby and "flooding the lobby" in lobby and "_auth_user_id" not in client.session
    response = client.post(reverse("accounts:guest"), {"display_name": "Innocent"})
    assert response.status_code == 200 and "banned until" in response.content.decode()
    signup = client.post(
        reverse("accounts:signup"),
        {"username": "innocent", "display_name": "", "password1": "x-long-pass-99", "password2": "x-long-pass-99"},
    )
    assert signup.status_code == 200 and "banned until" in signup.content.decode()
    assert list(User.objects.order_by("pk").values_list("display_name", flat=True)) == ["Mod", "Troll"]
    other_device = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert other_device.post(reverse("accounts:guest"), {"display_name": "Someone"}).status_code == 302


@pytest.mark.django_db
def test_a_forged_device_cookie_is_replaced(client):
    client.cookies["shabneshin_device"] = "made-up-device"
    response = client.get(reverse("tables:lobby"))
    assert response.cookies["shabneshin_device"].value != "made-up-device"


@pytest.mark.django_db(transaction=True)
async def test_a_banned_player_is_refused_at_socket_connect_with_the_reason(chatting_table, bob, staff):
    await database_sync_to_async(Sanction.objects.create)(user=bob, kind="ban", reason="abusive", created_by=staff)
    tab, connected, _ = await connect(chatting_table.token, bob)
    assert connected  # accepted only to say why
    html = await receive_html(tab)
    assert "banned for good" in html and "abusive" in html
    closed = await tab.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": BANNED_CLOSE_CODE}
    await close_thread_connections()


@pytest.mark.django_db(transaction=True)
async def test_a_ban_ends_an_open_sockets_right_to_act_at_once(chatting_table, bob, staff):
    tab, _, _ = await connect(chatting_table.token, bob)
    await receive_html(tab)
    await database_sync_to_async(Sanction.objects.create)(user=bob, kind="ban", reason="abusive", created_by=staff)
    await tab.send_to(text_data='{"chat": "still here"}')
    assert "Only seated players" in await receive_until(tab, "Only seated players")
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    await tab.disconnect()
    await close_thread_connections()


# --- a spectator who never sat nor wrote ---------------------------------------------------------


def _seat_offered(html: str) -> bool:
    return 'data-testid="sit' in html or "/sit/" in html


@pytest.mark.django_db(transaction=True)
async def test_a_spectator_who_never_sat_can_be_blocked_and_is_then_offered_no_seat_at_the_blockers_tables(
    alice, bob, charlie
):
    """Charlie only watches Alice's table (his socket is his only trace there): Alice finds him
    among those who came to watch, blocks him from his name's page, and her open tables offer him
    no seat, saying why."""
    table = await database_sync_to_async(lambda: seating.create_table(alice, "werewolf", 5, "private"))()
    await database_sync_to_async(seating.sit)(table, bob)
    charlie_tab, ok, _ = await connect(table.token, charlie)
    assert ok
    await charlie_tab.disconnect()
    await close_thread_connections()
    await database_sync_to_async(_alice_blocks_charlie_from_the_watchers_page)(table, alice, bob, charlie)


def _alice_blocks_charlie_from_the_watchers_page(table, alice, bob, charlie) -> None:  # noqa: ANN001
    host = _as(alice)
    page = host.get(reverse("tables:detail", args=[table.token])).content.decode()
    watchers_url = reverse("moderation:watchers", args=[table.token])
    assert watchers_url in page, "the table page leads to who came to watch"
    listed = host.get(watchers_url).content.decode()
    assert f'data-testid="watcher-{charlie.pk}"' in listed
    assert f'data-testid="watcher-{bob.pk}"' not in listed, "a seated player is reached from the seats"
    assert host.get(_player_url(table, charlie)).status_code == 200
    done = host.post(reverse("moderation:block", args=[table.token, charlie.pk]), {"on": "1"}, follow=True)
    assert "Charlie can no longer join the tables you host." in done.content.decode()
    assert Block.objects.filter(blocker=alice, blocked=charlie).exists()
    later = seating.create_table(alice, "werewolf", 5, Table.Visibility.PUBLIC)
    seen = _as(charlie).get(reverse("tables:detail", args=[later.token])).content.decode()
    assert not _seat_offered(seen) and 'data-testid="blocked-note"' in seen
    assert _seat_offered(_as(bob).get(reverse("tables:detail", args=[later.token])).content.decode())


@pytest.mark.django_db
def test_blocking_someone_not_at_the_table_is_refused_with_a_reason_that_tells_nothing_of_them(
    chatting_table, alice, dave
):
    """A forged form: Dave never came to this table, and user 987654 does not exist. Both are
    refused with the same translated reason, and nothing changes."""
    host = _as(alice)
    answers = []
    for user_id in (dave.pk, 987654, alice.pk):
        url = reverse("moderation:block", args=[chatting_table.token, user_id])
        answers.append(host.post(url, {"on": "1"}, follow=True))
    for answer in answers:
        assert answer.redirect_chain[-1][0] == reverse("tables:detail", args=[chatting_table.token])
    reasons = [[str(m) for m in a.context["messages"]] for a in answers]
    assert reasons[0] == reasons[1] == reasons[2] == [
        "That person is not at this table. You can block or mute only someone who sits, writes or watches here."
    ]
    assert not Block.objects.exists()
    persian = Client(HTTP_ACCEPT_LANGUAGE="fa")
    persian.force_login(alice)
    url = reverse("moderation:block", args=[chatting_table.token, dave.pk])
    said = [str(m) for m in persian.post(url, {"on": "1"}, follow=True).context["messages"]]
    assert said and said[0] != reasons[0][0], "said in Persian"
    assert not Block.objects.exists()


@pytest.mark.django_db
def test_a_guest_watching_is_listed_and_blockable_and_a_visitor_without_a_name_is_not_listed(
    chatting_table, alice
):
    """A guest (a name, no password) is an account like any other; a visitor who picked no name has
    no account, leaves no trace and cannot be named: consistent with blocking, which needs one."""
    from tables import presence

    guest = User.create_guest("Wanderer")
    presence.came_to_watch({chatting_table.pk: {guest.pk}})
    host = _as(alice)
    listed = host.get(reverse("moderation:watchers", args=[chatting_table.token])).content.decode()
    assert f'data-testid="watcher-{guest.pk}"' in listed and "Wanderer" in listed
    host.post(reverse("moderation:block", args=[chatting_table.token, guest.pk]), {"on": "1"})
    assert Block.objects.filter(blocker=alice, blocked=guest).exists()
    assert Client().get(reverse("moderation:watchers", args=[chatting_table.token])).status_code == 302


def _guest_of(client: Client, name: str) -> User:
    client.post(reverse("accounts:guest"), {"display_name": name})
    return User.objects.get(display_name=name, is_guest=True)


@pytest.mark.django_db
def test_a_guest_who_logs_in_keeps_the_blocks_mutes_reports_and_bans_made_by_and_about_them(alice, bob, staff):
    """Mina, a guest, blocked charlie-like alice and was blocked, muted and reported by alice, and
    banned by staff; logging in to bob's account does not wipe any of it: it is all bob's now."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    mina = _guest_of(client, "Mina")
    Block.objects.create(blocker=mina, blocked=alice)
    Block.objects.create(blocker=alice, blocked=mina)
    PersonalMute.objects.create(muter=alice, muted=mina)
    Report.objects.create(reporter=alice, reported=mina, reason=Report.Reason.ABUSE)
    Sanction.objects.create(user=mina, kind=Sanction.Kind.CHAT_MUTE, reason="insults", created_by=staff)
    client.post(reverse("accounts:login"), {"username": "bob", "password": "a-long-password-1"})
    assert not User.objects.filter(pk=mina.pk).exists()
    assert Block.objects.filter(blocker=bob, blocked=alice).exists()
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert PersonalMute.objects.filter(muter=alice, muted=bob).exists()
    assert Report.objects.filter(reporter=alice, reported=bob).exists(), "the report reaches the queue still"
    assert Sanction.objects.active().filter(user=bob, kind=Sanction.Kind.CHAT_MUTE).exists()


@pytest.mark.django_db
def test_a_guests_block_of_the_account_they_log_in_to_ends_and_an_existing_block_stands_once(alice, bob):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    mina = _guest_of(client, "Mina")
    Block.objects.create(blocker=mina, blocked=bob)  # nobody blocks themselves
    Block.objects.create(blocker=mina, blocked=alice)
    Block.objects.create(blocker=bob, blocked=alice)  # the account's own row stands
    client.post(reverse("accounts:login"), {"username": "bob", "password": "a-long-password-1"})
    assert list(Block.objects.values_list("blocker__username", "blocked__username")) == [("bob", "alice")]


@pytest.mark.django_db
def test_ones_blocks_and_mutes_are_listed_and_end_from_the_list_after_their_table_is_gone(alice, bob, charlie):
    table = seating.create_table(alice, "werewolf", 5, Table.Visibility.PRIVATE)
    Block.objects.create(blocker=alice, blocked=bob)
    PersonalMute.objects.create(muter=alice, muted=charlie)
    table.delete()
    client = _as(alice)
    page = client.get(reverse("moderation:mine")).content.decode()
    assert 'data-testid="blocked-list"' in page and "Bob" in page and f'data-testid="unblock-{bob.pk}"' in page
    assert 'data-testid="muted-list"' in page and f'data-testid="unmute-{charlie.pk}"' in page
    response = client.post(reverse("moderation:mine"), {"kind": "block", "user": bob.pk}, follow=True)
    assert "may join your tables again" in response.content.decode()
    assert not Block.objects.filter(blocker=alice).exists()
    assert PersonalMute.objects.filter(muter=alice, muted=charlie).exists(), "only what was asked ends"
    client.post(reverse("moderation:mine"), {"kind": "mute", "user": charlie.pk})
    assert not PersonalMute.objects.exists()
    assert 'data-testid="none-blocked"' in client.get(reverse("moderation:mine")).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("form", [{"kind": "block", "user": "x"}, {"kind": "ban", "user": "1"}, {}, {"kind": "block"}])
def test_a_forged_or_stale_unblock_changes_nothing_and_says_so(alice, bob, charlie, form):
    Block.objects.create(blocker=bob, blocked=charlie)  # someone else's block: not alice's to end
    Block.objects.create(blocker=alice, blocked=bob)
    form = dict(form)
    if form.get("user") == "1":
        form["user"] = str(charlie.pk)
    for language, said in (("en", "already gone"), ("fa", "دیگر نیست")):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(alice)
        stale = client.post(reverse("moderation:mine"), {**form, "user": form.get("user", charlie.pk)}, follow=True)
        assert said in stale.content.decode()
    assert Block.objects.count() == 2


@pytest.mark.django_db
def test_the_account_page_and_a_players_page_lead_to_the_list(chatting_table, alice, bob):
    mine = reverse("moderation:mine")
    assert f'href="{mine}"' in _as(alice).get(reverse("accounts:account")).content.decode()
    assert f'href="{mine}"' in _as(alice).get(_player_url(chatting_table, bob)).content.decode()
