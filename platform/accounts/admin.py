from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "is_guest", "is_staff", "date_joined", "last_login")
    list_filter = ("is_guest", "is_staff", "is_superuser", "is_active")
    search_fields = ("username", "display_name", "email")
    fieldsets = (*UserAdmin.fieldsets, (_("Shabneshin"), {"fields": ("display_name", "is_guest")}))
