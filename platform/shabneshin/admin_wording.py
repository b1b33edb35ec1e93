"""Django admin's own sentences that name our models, worded in our Persian, and the admin's name.

Django's Persian catalogue pluralises a name that is plural already («حذف  بازیکنان های انتخاب
شده», «دستگاه‌ها های»), glues a plural ending to a singular one without its joiner
(«بازیکنهای»), sets a middle dot where a space belongs (it reads as a zero beside Persian digits),
calls a staff member's account «شناسه» and leaves screen-reader labels in English. The msgids
below are Django's, word for word: marked here, makemessages keeps them in the site's catalogue
(``locale/``), and LOCALE_PATHS is read after every app's catalogue, so our Persian wins over
Django's. English stays Django's own.

A Persian plural takes a written ezafe after ‑ها («دستگاه‌های انتخاب‌شده») but not after ‑ان
(«بازیکنان انتخاب‌شده»), which no single sentence can do for every model: so a model's plural is
never followed by an adjective here. It stands after «این» («حذف این بازیکنان») or in brackets
(«حذف موارد انتخاب‌شده (دستگاه‌ها)»). tests/platform/test_admin_wording.py checks each msgid is
still Django's.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

DJANGO_ADMIN_MSGIDS = (
    gettext_noop("Delete selected %(verbose_name_plural)s"),
    gettext_noop("Delete multiple objects"),
    gettext_noop("Objects"),
    gettext_noop("Successfully deleted %(count)d %(items)s."),
    gettext_noop(
        "Are you sure you want to delete the selected %(objects_name)s? All of the following objects and "
        "their related items will be deleted:"
    ),
    gettext_noop(
        "Deleting the selected %(objects_name)s would require deleting the following protected related objects:"
    ),
    gettext_noop(
        "Deleting the selected %(objects_name)s would result in deleting related objects, but your account "
        "doesn't have permission to delete the following types of objects:"
    ),
    gettext_noop(
        'Are you sure you want to delete the %(object_name)s "%(escaped_object)s"? All of the following '
        "related items will be deleted:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would require deleting the following protected "
        "related objects:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would result in deleting related objects, but your "
        "account doesn't have permission to delete the following types of objects:"
    ),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop("View selected %(model)s"),
    gettext_noop("Change selected %(model)s"),
    gettext_noop("Delete selected %(model)s"),
    gettext_noop("Add another %(model)s"),
    gettext_noop("Select all %(total_count)s %(module_name)s"),
    gettext_noop("Models in the %(name)s application"),
    gettext_noop("Model name"),
    gettext_noop("Breadcrumbs"),
    gettext_noop("Select this object for an action - {}"),
    gettext_noop("Recent actions"),
    gettext_noop("My actions"),
    gettext_noop("Filter navigation items"),
    # A player's change page (django.contrib.auth.forms): Django's Persian catalogue lacks these.
    gettext_noop("Reset password"),
    gettext_noop("Set password"),
    gettext_noop("Password-based authentication"),
    gettext_noop("Enabled"),
    gettext_noop("Disabled"),
    gettext_noop(
        "Whether the user will be able to authenticate using a password or not. If disabled, they may still "
        "be able to authenticate using other backends, such as Single Sign-On or LDAP."
    ),
    gettext_noop("Raw passwords are not stored, so there is no way to see the user’s password."),
    gettext_noop("hash"),
    gettext_noop("salt"),
)


def name_the_admin(site: admin.AdminSite) -> None:
    """The admin calls itself by the site's name, not "Django administration"."""
    site.site_header = _("Shabneshin administration")
    site.site_title = _("Shabneshin administration")
