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
SECRET_KEY = env_str("SECRET_KEY") or ("dev-insecure-key-" + "shabneshin" * 4)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

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
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
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
            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE", "timeout": 20},
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
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "fa"
LANGUAGES = [("fa", _("Persian")), ("en", _("English"))]
LANGUAGES_BIDI = ["fa"]
# The site's catalogue, then one per game's templates (each game's UI strings travel with it).
LOCALE_PATHS = [REPO_DIR / "locale", *sorted((REPO_DIR / "templates" / "games").glob("*/locale"))]
USE_I18N = True
TIME_ZONE = "UTC"
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
CLOCK_ENABLED = env_bool("CLOCK_ENABLED", True)
# Multiplies every game's decision timers (1 = the rules specs' defaults); browser tests use less.
TIMER_SCALE = env_float("TIMER_SCALE", 1.0)
SERVE_STATIC = env_bool("SERVE_STATIC", True)
# Query and render counters for `make bench` (shabneshin.counters), served at /__counters__.
BENCH_COUNTERS = env_bool("BENCH_COUNTERS", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
