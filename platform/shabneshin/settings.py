"""Shabneshin's one settings file, driven by the environment.

With no configuration: SQLite in WAL mode and the in-memory channel layer (``make run``).
``DATABASE_URL`` switches to PostgreSQL, ``REDIS_URL`` to channels-redis (ARCHITECTURE §6).
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from shabneshin.env import database_from_url, env_bool, env_float, env_int, env_list, env_str, redis_channel_layer

REPO_DIR = Path(__file__).resolve().parent.parent.parent
PLATFORM_DIR = REPO_DIR / "platform"
if str(REPO_DIR) not in sys.path:  # the engines (games/) live beside platform/
    sys.path.append(str(REPO_DIR))

DEBUG = env_bool("DEBUG", False)
# A public constant, for development only: `check --deploy` fails while DEBUG is off and it is used.
DEV_SECRET_KEY = "dev-insecure-key-" + "shabneshin" * 4
SECRET_KEY = env_str("SECRET_KEY") or DEV_SECRET_KEY
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Full origins (scheme://host:port) a WebSocket may come from besides the site's own address
# (shabneshin/origins.py).
WEBSOCKET_ORIGINS = env_list("WEBSOCKET_ORIGINS", CSRF_TRUSTED_ORIGINS)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "accounts",
    "tables",
    "history",
    "clubs",
    "moderation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "shabneshin.timezones.ReadersTimeZone",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "shabneshin.method_not_allowed.MethodNotAllowedPage",
    "moderation.devices.DeviceMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "shabneshin.urls"
ASGI_APPLICATION = "shabneshin.asgi.application"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "tables:lobby"
LOGOUT_REDIRECT_URL = "tables:lobby"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [REPO_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "clubs.context_processors.unread",
            ],
        },
    }
]

_checkout_id = hashlib.sha1(str(REPO_DIR).encode()).hexdigest()[:8]
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": database_from_url(DATABASE_URL, test_suffix=f"_{_checkout_id}")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(REPO_DIR / "db.sqlite3")),
            # WAL with synchronous=NORMAL: a commit no longer waits for an fsync of the log. A
            # process killed mid-write loses nothing committed (the WAL is in the OS's hands); only
            # a power cut or OS crash may drop the last commits, never corrupt the file.
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
            # A file, not shared memory, so tests see the locking that two server processes would.
            "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"shabneshin-test-{_checkout_id}.sqlite3")},
            # Persistent: one connection per worker thread instead of one per database_sync_to_async call.
            "CONN_MAX_AGE": env_int("CONN_MAX_AGE", 600),
            "CONN_HEALTH_CHECKS": True,
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL, env_int("REDIS_POOL_SIZE", 1000))}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "shabneshin.layers.InMemoryChannelLayer"}}

# The cache holds the rate limits' counters (shabneshin/ratelimit.py): per process by default,
# shared by every process through Redis with REDIS_URL.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "shabneshin.cache.RedisCache",  # one connection pool a process (shabneshin.cache)
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "shabneshin"),
        }
    }
else:
    # Rate limits and each user's auth generation (accounts.sessions) live here: room for a busy
    # night's sessions (the default keeps 300 entries and then drops a third at random).
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 50_000}}
    }
RATE_CHAT_PER_MINUTE = env_int("RATE_CHAT_PER_MINUTE", 20)
RATE_TABLES_PER_HOUR = env_int("RATE_TABLES_PER_HOUR", 20)
RATE_SIGNUPS_PER_HOUR = env_int("RATE_SIGNUPS_PER_HOUR", 10)
RATE_GUESTS_PER_HOUR = env_int("RATE_GUESTS_PER_HOUR", 20)
# Password-reset emails asked for, per address and per email address: no inbox is flooded.
RATE_PASSWORD_RESETS_PER_HOUR = env_int("RATE_PASSWORD_RESETS_PER_HOUR", 5)
# WebSocket frames per 10 s, on the cache framework, across every socket of one session (tabs)
# and of one address (a café's wifi seats a whole club behind one address). Each socket also has
# its own budget in memory (tables.consumers.FrameBudget).
RATE_FRAMES_PER_SESSION_10S = env_int("RATE_FRAMES_PER_SESSION_10S", 150)
RATE_FRAMES_PER_ADDRESS_10S = env_int("RATE_FRAMES_PER_ADDRESS_10S", 1500)

AUTH_PASSWORD_VALIDATORS = [
    # Django's rules, in our words (accounts/validators.py).
    {"NAME": "accounts.validators.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "accounts.validators.CommonPasswordValidator"},
]

LANGUAGE_CODE = "fa"
LANGUAGES = [("fa", _("Persian")), ("en", _("English"))]
LANGUAGES_BIDI = ["fa"]
# The site's catalogue, then one per game's templates (each game's UI strings travel with it).
LOCALE_PATHS = [REPO_DIR / "locale", *sorted((REPO_DIR / "templates" / "games").glob("*/locale"))]
USE_I18N = True
TIME_ZONE = "UTC"
# A Persian page read before the browser named its zone (shabneshin/timezones.py) shows Iran's time.
PERSIAN_TIME_ZONE = env_str("PERSIAN_TIME_ZONE", "Asia/Tehran")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [REPO_DIR / "static"]
STATIC_ROOT = REPO_DIR / "staticfiles"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"

# The moderator's clock (ARCHITECTURE §5).
BOT_DELAY_S = env_float("BOT_DELAY_S", 1.0)
CLOCK_TICK_S = env_float("CLOCK_TICK_S", 0.5)
# The clock's chores (club reminders and offers, lobby clean-up, away hosts, talking bots): at most this often.
CLOCK_CHORES_EVERY_S = env_float("CLOCK_CHORES_EVERY_S", 0.5)
CLOCK_ENABLED = env_bool("CLOCK_ENABLED", True)
# /healthz (shabneshin.health): each check's time limit; a clock that has not completed a look for
# this long is stalled (503); pending mail this far past its next try is reported as behind.
HEALTH_CHECK_TIMEOUT_S = env_float("HEALTH_CHECK_TIMEOUT_S", 5.0)
HEALTH_CLOCK_STALE_S = env_float("HEALTH_CLOCK_STALE_S", 30.0)
HEALTH_MAIL_LATE_S = env_float("HEALTH_MAIL_LATE_S", 900.0)
HEALTH_REUSE_S = env_float("HEALTH_REUSE_S", 1.0)  # requests within it share one verdict
# Multiplies every game's decision timers (1 = the rules specs' defaults); browser tests use less.
TIMER_SCALE = env_float("TIMER_SCALE", 1.0)
SERVE_STATIC = env_bool("SERVE_STATIC", True)
# The lobby's clean-up (tables/janitor.py): an open table with no human seated, and a running
# match whose humans have all left it to bots, end after these many seconds.
OPEN_TABLE_IDLE_S = env_float("OPEN_TABLE_IDLE_S", 3600)
ABANDONED_MATCH_IDLE_S = env_float("ABANDONED_MATCH_IDLE_S", 1800)
JANITOR_EVERY_S = env_float("JANITOR_EVERY_S", 30)
LOBBY_PER_HOST = env_int("LOBBY_PER_HOST", 3)
# Presence (tables/presence.py): each socket at a table refreshes its seat's heartbeat this often;
# a seat whose heartbeat is older than PRESENCE_STALE_S has no socket connected.
PRESENCE_HEARTBEAT_S = env_float("PRESENCE_HEARTBEAT_S", 15)
PRESENCE_STALE_S = env_float("PRESENCE_STALE_S", 45)
# The host's powers (tables/host.py): a host away this long hands the role to the longest seated
# human who is connected; a pause longer than HOST_PAUSE_LIMIT_S aborts the match.
HOST_AWAY_S = env_float("HOST_AWAY_S", 120)
HOST_PAUSE_LIMIT_S = env_float("HOST_PAUSE_LIMIT_S", 900)
# Query and render counters for `make bench` (shabneshin.counters), served at /__counters__.
BENCH_COUNTERS = env_bool("BENCH_COUNTERS", False)
# The consumers' database work runs on the event loop's own thread where the database is a local
# file (SQLite), and on Channels' worker thread where a call waits on the network (PostgreSQL):
# shabneshin/loop_db.py says why and what each measured.
DATABASE_WORK_ON_LOOP = env_bool("DATABASE_WORK_ON_LOOP", not DATABASE_URL)

# Email (club reminders and calendar updates): the console by default, SMTP when EMAIL_HOST is set.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)  # seconds: a server that hangs is a failed try, retried later
MAIL_RETRY_EVERY_S = env_float("MAIL_RETRY_EVERY_S", 30.0)  # how often the clock retries failed mail (clubs.outbox)
# After a mail's try failed, a process tries no mail inline for this long (clubs.outbox): they go to its mail thread.
MAIL_PAUSE_AFTER_FAILURE_S = env_float("MAIL_PAUSE_AFTER_FAILURE_S", 60.0)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Shabneshin <noreply@shabneshin.invalid>")
# Clubs: how long a freed seat is offered to the first on the waitlist; how far ahead series materialise.
CLUB_OFFER_MINUTES = env_int("CLUB_OFFER_MINUTES", 12 * 60)
CLUB_SERIES_AHEAD = env_int("CLUB_SERIES_AHEAD", 6)
# The night itself: check-in opens this long before the start; at the seat lock (this long before
# the start) seats nobody claimed pass to the waitlist.
CLUB_CHECKIN_OPENS_MINUTES = env_int("CLUB_CHECKIN_OPENS_MINUTES", 60)
CLUB_SEAT_LOCK_MINUTES = env_int("CLUB_SEAT_LOCK_MINUTES", 15)
# The public address used in emails (links to nights, signed offer links).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "shabneshin.log_filters.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
