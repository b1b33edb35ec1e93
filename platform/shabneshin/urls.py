from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("history/", include("history.urls")),
    path("moderation/", include("moderation.urls")),
    path("", include("tables.urls")),
]
