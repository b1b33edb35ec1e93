"""The Persian admin names our models in correct Persian: Django's own catalogue doubled a plural
(«حذف  بازیکنان های انتخاب شده»), put a middle dot for a space and called the staff member's
account «شناسه»; ours (shabneshin/admin_wording.py) wins over it."""

from __future__ import annotations

import ast
from pathlib import Path

import django.contrib.admin
import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from moderation.models import Device
from shabneshin.admin_wording import DJANGO_ADMIN_MSGIDS

FA = {"HTTP_ACCEPT_LANGUAGE": "fa"}


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("staff", "staff@example.com", "a-long-password-1", display_name="Staff")


def _devices(user, count):
    return [Device.objects.create(user=user, device=f"device-{i}") for i in range(count)]


def _msgids(po: Path) -> set[str]:
    """The msgids of a catalogue (each one's quoted lines joined)."""
    found, current = set(), None
    for line in po.read_text().splitlines():
        if line.startswith("msgid "):
            current = ast.literal_eval(line[6:])
        elif line.startswith('"') and current is not None:
            current += ast.literal_eval(line)
        elif current is not None:
            found.add(current)
            current = None
    return found


def test_every_admin_sentence_we_word_is_still_one_of_djangos():
    """A Django upgrade that rewords one of them would leave our Persian unused: this says so."""
    contrib = Path(django.contrib.admin.__file__).parent.parent
    djangos = _msgids(contrib / "admin/locale/en/LC_MESSAGES/django.po")
    djangos |= _msgids(contrib / "auth/locale/en/LC_MESSAGES/django.po")
    assert [m for m in DJANGO_ADMIN_MSGIDS if m not in djangos] == []


def test_the_persian_delete_selected_action_names_each_model_once(staff):
    """Every model the staff may delete from, players and devices among them, offers «حذف موارد
    انتخاب‌شده (بازیکنان)»: its plural name once, with no «های» added to it."""
    request = RequestFactory().get("/admin/")
    request.user = staff
    offered = {}
    with translation.override("fa"):
        for model, model_admin in admin.site._registry.items():
            choices = dict(model_admin.get_action_choices(request, default_choices=[]))
            if "delete_selected" in choices:
                plural = str(model._meta.verbose_name_plural)
                offered[model._meta.model_name] = (str(choices["delete_selected"]), plural)
    assert {"user", "device", "club"} <= set(offered), offered
    for label, plural in offered.values():
        assert label == f"حذف موارد انتخاب‌شده ({plural})"
        assert "های انتخاب" not in label and "  " not in label


def test_the_persian_players_list_offers_to_delete_the_selected_players(client, staff):
    client.force_login(staff)
    page = client.get(reverse("admin:accounts_user_changelist"), **FA).content.decode()
    assert "حذف موارد انتخاب‌شده (بازیکنان)" in page and "بازیکنان های" not in page
    assert "<title>بازیکن را برای تغییر انتخاب کنید | مدیریت شب‌نشین</title>" in page, "not «مدیریت وب‌گاه Django»"


def test_the_persian_confirmation_of_deleting_selected_devices_reads_right(client, staff):
    devices = _devices(staff, 2)
    client.force_login(staff)
    page = client.post(
        reverse("admin:moderation_device_changelist"),
        {"action": "delete_selected", "_selected_action": [d.pk for d in devices]},
        **FA,
    ).content.decode()
    assert "آیا از حذف این دستگاه‌ها مطمئن هستید؟" in page
    assert "دستگاه‌ها انتخاب شده" not in page and "حذف اشیاء متعدد" not in page
    assert Device.objects.filter(pk__in=[d.pk for d in devices]).count() == 2, "asked first"
    said = client.post(
        reverse("admin:moderation_device_changelist"),
        {"action": "delete_selected", "_selected_action": [d.pk for d in devices], "post": "yes"},
        follow=True,
        **FA,
    ).content.decode()
    assert "2 مورد حذف شد (دستگاه‌ها)." in said and "تا دستگاه‌ها" not in said


def test_the_persian_confirmation_of_deleting_one_device_has_no_middle_dot(client, staff):
    """Django's Persian put «·» between the model and the record: beside Persian digits it reads
    as a zero."""
    (device,) = _devices(staff, 1)
    client.force_login(staff)
    page = client.get(reverse("admin:moderation_device_delete", args=[device.pk]), **FA).content.decode()
    assert f"آیا از حذف دستگاه «{device}» مطمئن هستید؟" in page and "·" not in page
    said = client.post(
        reverse("admin:moderation_device_delete", args=[device.pk]), {"post": "yes"}, follow=True, **FA
    ).content.decode()
    assert f"دستگاه «{device}» حذف شد." in said


def test_the_persian_admin_labels_its_landmarks_and_checkboxes_in_persian(client, staff):
    """What a screen reader reads: Django's Persian left these in English."""
    (device,) = _devices(staff, 1)
    client.force_login(staff)
    home = client.get(reverse("admin:index"), **FA).content.decode()
    assert "Model name" not in home and "نام مدل" in home and 'aria-label="Breadcrumbs"' not in home
    listing = client.get(reverse("admin:moderation_device_changelist"), **FA).content.decode()
    assert f'aria-label="انتخاب این مورد برای یک کار: {device}"' in listing


@pytest.mark.parametrize(
    ("language", "count", "select_all"),
    [
        ("fa", "۳ دستگاه\n", "انتخاب همهٔ ۳ دستگاه</a>"),
        ("en", "3 devices\n", "Select all 3 devices</a>"),
    ],
)
def test_a_list_counts_its_records_with_the_noun_its_language_puts_after_a_number(
    client, staff, monkeypatch, language, count, select_all
):
    """Persian names one thing after a number («۳ دستگاه»), where Django's admin read «3
    دستگاه‌ها» and «انتخاب همهٔ دستگاه‌ها (3)»; English names them in the plural."""
    monkeypatch.setattr(admin.site._registry[Device], "list_per_page", 2)
    _devices(staff, 3)
    client.force_login(staff)
    page = client.get(reverse("admin:moderation_device_changelist"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    paginator = page.split('<p class="paginator">')[1].split("</p>")[0]
    assert f"\n{count}" in paginator
    assert select_all in page
    assert "دستگاه‌ها (" not in page


def test_a_players_change_page_in_persian_has_no_english_sentence_of_djangos_left(client, staff):
    """Django's Persian catalogue lacks the password part of a player's page («Reset password»,
    «Password-based authentication», «Raw passwords are not stored…»): ours words them."""
    bob = User.objects.create_user("bob", password="a-long-password-1", display_name="Bob")
    client.force_login(staff)
    page = client.get(reverse("admin:accounts_user_change", args=[bob.pk]), **FA).content.decode()
    for english in ("Reset password", "Raw passwords are not stored", "Recent actions"):
        assert english not in page
    assert "بازنشانی گذرواژه" in page and "به‌صورت خام نگه داشته نمی‌شوند" in page
    index = client.get(reverse("admin:index"), **FA).content.decode()
    assert "کارهای اخیر" in index and "فعالیتهای" not in index
    password_url = reverse("admin:auth_user_password_change", args=[bob.pk])
    password = client.get(password_url, **FA).content.decode()
    assert "Password-based authentication" not in password and "ورود با گذرواژه" in password
