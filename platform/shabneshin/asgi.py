"""HTTP and WebSocket routing. Run from the repository root as
``PYTHONPATH=platform daphne shabneshin.asgi:application``."""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shabneshin.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

if settings.SERVE_STATIC:  # the embedded default serves its own CSS and htmx; a proxy may do it instead
    django_asgi_app = ASGIStaticFilesHandler(django_asgi_app)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from moderation.gate import BanGate  # noqa: E402
from shabneshin.collector import tune_for_serving  # noqa: E402
from shabneshin.origins import OriginValidator  # noqa: E402
from shabneshin.shutdown import TracksSockets, install  # noqa: E402
from tables.clock import StartsTheClock, start_with_the_server  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402

# The moderator's clock starts with the server process: daphne has no lifespan event, so it is
# scheduled on daphne's reactor, which runs it once the server runs (ARCHITECTURE §5). The
# middleware starts it at lifespan startup or at the first request on other servers.
# On SIGTERM, every open socket is closed with 1012 so browsers reconnect at once (shutdown.py).
start_with_the_server()
install()
application = StartsTheClock(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": TracksSockets(OriginValidator(AuthMiddlewareStack(BanGate(URLRouter(websocket_urlpatterns))))),
        }
    )
)
# Everything loaded by now lives as long as the process: out of the garbage collector's sight.
tune_for_serving()
