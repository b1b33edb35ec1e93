from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import include, path

from shabneshin.admin_wording import name_the_admin
from shabneshin.health import healthz


def counters(request: HttpRequest) -> JsonResponse:
    """The benchmark's query and render counts; a 404 unless BENCH_COUNTERS is set."""
    from shabneshin import counters as counted

    if not (settings.BENCH_COUNTERS and counted.installed()):
        raise Http404("counters are off")
    return JsonResponse(counted.snapshot())


name_the_admin(admin.site)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("history/", include("history.urls")),
    path("", include("history.player_urls")),
    path("moderation/", include("moderation.urls")),
    path("__counters__", counters),
    path("healthz", healthz),
    path("", include("clubs.urls")),
    path("", include("tables.urls")),
]
