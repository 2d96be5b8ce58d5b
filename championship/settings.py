"""Settings for the Modern Nardy platform.

Everything comes from the environment, with a zero-config default: SQLite, a local-memory
cache, Celery tasks run inline and e-mail printed to the console. Set

* ``DATABASE_URL`` (e.g. ``postgres://user@127.0.0.1:5432/nardy``) for PostgreSQL,
* ``REDIS_URL`` (e.g. ``redis://127.0.0.1:6379/0``) for the cache and the Celery broker,
* ``EMAIL_URL`` (e.g. ``smtp://user:password@mail.example.org:587/?tls=1``) for SMTP,
* ``DJANGO_DEBUG=0`` for production (then ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS``
  are required).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0 (production mode)."
        )
    SECRET_KEY = "django-insecure-development-key-only-for-local-use-never-in-production-0123456789"

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else []
)
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG=0.")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# The site's public address: every absolute link (e-mails, calendar files, the tablets' QR
# codes) is built from it by common.links.absolute_url, never from the request's Host header.
# check --deploy warns while it is the local default (or not HTTPS) in production.
SITE_URL = os.environ.get("SITE_URL", f"http://127.0.0.1:{os.environ.get('PORT', '8000')}").rstrip(
    "/"
)

INSTALLED_APPS = [
    "common.apps.AdminConfig",  # django.contrib.admin with a throttled login (common/login.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_tables2",
    "phonenumber_field",
    "people",
    "championship",
    "registrations",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "common.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # An unchanged spectator's poll answered here, before the session (games/middleware.py).
    "games.middleware.EarlyPollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "common.middleware.RejectNulBytesMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
    "common.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "championship.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "championship.wsgi.application"
ASGI_APPLICATION = "championship.asgi.application"

# --- Database -------------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "0" if DEBUG else "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a lock instead of failing at once when the dev server and a task write together.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and Celery -----------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            # django-redis: while Redis is down, reads miss and writes are dropped (logged), so
            # pages are computed from the database instead of failing.
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "nardy",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 1,
                "SOCKET_TIMEOUT": 1,
            },
        }
    }
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", REDIS_URL)
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# How long a process reuses its near copy of a key that a write forgets (a round's feed key, a
# game's live state, a tournament's version; common.cache): with Redis, 500 ms (a turn reaches
# a spectator served by another process that much later at most); without it, none.
NEAR_CACHE_MS = int(os.environ.get("NEAR_CACHE_MS", "500")) if REDIS_URL else 0
# Tasks report through the database (outbox rows, cache status), not through results, so a
# Redis outage cannot stall a request waiting for the result store.
CELERY_TASK_IGNORE_RESULT = True
# The engine's analyses (seconds of CPU each) have a queue of their own, served by their own
# worker (deploy/systemd/nardy-analysis.service, niced): they never hold up the e-mails, the
# pairings and the recomputed public tables of the default queue.
CELERY_TASK_ROUTES = {"games.tasks.analyse_game_task": {"queue": "analysis"}}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "America/Toronto"
# Publishing to a broker that is down fails fast; the e-mail stays pending in the database.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # A task whose worker died is delivered again after this long (Redis transport).
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
}
CELERY_BEAT_SCHEDULE = {
    "pending-emails": {
        "task": "registrations.tasks.send_pending_emails",
        "schedule": 60.0,
    },
    "personal-data-expiry": {
        "task": "registrations.tasks.expire_personal_data",
        "schedule": crontab(hour=3, minute=30),
    },
    "registration-digest": {
        # Only organisers who asked for it get one (off by default).
        "task": "registrations.tasks.send_registration_digests",
        "schedule": crontab(hour=8, minute=0),
    },
    "master-class-reminders": {
        "task": "registrations.tasks.send_masterclass_reminders",
        # Every evening: reminders for the sessions of the next day.
        "schedule": crontab(hour=18, minute=0),
    },
}

# --- E-mail -----------------------------------------------------------------------------------
DEFAULT_FROM_EMAIL = os.environ.get(
    "DEFAULT_FROM_EMAIL", "Modern Nardy Toronto <noreply@nardy.local>"
)
# An outbox row still "sending" after this many seconds belongs to a worker that died: it is
# sent again, with the same Message-ID (registrations.services.outbox.outbox_send). Far above
# the time of one SMTP exchange (EMAIL_TIMEOUT is per socket operation).
OUTBOX_SENDING_TIMEOUT = int(os.environ.get("OUTBOX_SENDING_TIMEOUT", "300"))
# Pairing jobs (championship/jobs.py): a running job whose heartbeat is older than this has lost
# its worker (shown as failed); a request no worker started within the second is given up.
PAIRING_HEARTBEAT_STALE = int(os.environ.get("PAIRING_HEARTBEAT_STALE", "60"))
PAIRING_QUEUE_TIMEOUT = int(os.environ.get("PAIRING_QUEUE_TIMEOUT", "300"))
# The engine's analysis of a finished game (games/analysis.py, docs/analysis.md): the search's
# time per ply in milliseconds (a 72-ply game takes about 72 times that). Without a worker
# (tasks inline, the zero-config default) the analysis runs in the request that finishes the
# game, so it gets far less time there: a few seconds for a whole game of 72 plies.
ANALYSIS_MS_PER_PLY = int(
    os.environ.get("ANALYSIS_MS_PER_PLY", "10" if CELERY_TASK_ALWAYS_EAGER else "200")
)
# A running analysis whose heartbeat (renewed after every ply) is older than this many seconds
# has lost its worker; one still queued after the second was never started. Either is shown
# as failed, and an organiser can start it again.
ANALYSIS_HEARTBEAT_STALE = int(os.environ.get("ANALYSIS_HEARTBEAT_STALE", "120"))
ANALYSIS_QUEUE_TIMEOUT = int(os.environ.get("ANALYSIS_QUEUE_TIMEOUT", str(6 * 3600)))
EMAIL_URL = os.environ.get("EMAIL_URL", "")
if EMAIL_URL:
    _email = urlsplit(EMAIL_URL)
    _query = parse_qs(_email.query)
    if _email.scheme in {"smtp", "smtps", "submission"}:
        EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        EMAIL_HOST = _email.hostname or "localhost"
        EMAIL_PORT = _email.port or (465 if _email.scheme == "smtps" else 587)
        EMAIL_HOST_USER = unquote(_email.username or "")
        EMAIL_HOST_PASSWORD = unquote(_email.password or "")
        EMAIL_USE_SSL = _email.scheme == "smtps"
        EMAIL_USE_TLS = not EMAIL_USE_SSL and _query.get("tls", ["1"])[0] in {"1", "true"}
        EMAIL_TIMEOUT = 10
    elif _email.scheme == "console":
        EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    elif _email.scheme == "file":
        # Each message as a file in a folder (used by the integration tests).
        EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
        EMAIL_FILE_PATH = unquote(_email.path)
    elif _email.scheme == "memory":
        EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    else:
        raise ImproperlyConfigured(f"Unsupported EMAIL_URL scheme: {_email.scheme!r}")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# --- Auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "organiser_home"
LOGOUT_REDIRECT_URL = "home"

# --- Internationalisation -------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "America/Toronto"
USE_I18N = True
USE_TZ = True
PHONENUMBER_DEFAULT_REGION = "CA"
PHONENUMBER_DB_FORMAT = "E164"

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

# --- Rate limiting of the public forms ------------------------------------------------------
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
RATELIMIT_USE_CACHE = "default"
# While the cache (Redis) is down the public forms keep working, without rate limiting.
RATELIMIT_FAIL_OPEN = True
RATELIMIT_VIEW = "common.views.ratelimited"
# Rate for the public forms' POSTs, per client address.
PUBLIC_FORM_RATE = os.environ.get("PUBLIC_FORM_RATE", "10/m")
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"] if not REDIS_URL else []

# --- Client address ---------------------------------------------------------------------------
# Behind a reverse proxy the visitor's address is in a header the proxy sets, named here as a
# request.META key: HTTP_X_REAL_IP with the shipped nginx config (it overwrites X-Real-IP with
# $remote_addr). Unset: REMOTE_ADDR, and no header a client could forge is ever read. A missing
# or malformed header falls back to REMOTE_ADDR (common/client_ip.py).
TRUSTED_PROXY_HEADER = os.environ.get("TRUSTED_PROXY_HEADER", "")
if os.environ.get("RATELIMIT_IP_META_KEY"):
    raise ImproperlyConfigured(
        "RATELIMIT_IP_META_KEY is no longer read: behind nginx (deploy/nginx.conf) set "
        "TRUSTED_PROXY_HEADER=HTTP_X_REAL_IP instead, and never X-Forwarded-For (docs/deploy.md)."
    )
RATELIMIT_IP_META_KEY = "common.client_ip.client_ip"

# --- Login throttling (common/login.py) -------------------------------------------------------
# Failed logins counted per (account, client address) and per client address; at the limit
# that address's login answers 429 until the window ends. Off with RATELIMIT_ENABLE=0.
LOGIN_FAILURES_PER_ACCOUNT = "5/15m"
LOGIN_FAILURES_PER_ADDRESS = "20/15m"

# Public tournament pages check for new results this often (seconds) and reload.
LIVE_POLL_SECONDS = int(os.environ.get("LIVE_POLL_SECONDS", "20"))

# Signed links in e-mails stay valid this long (seconds).
SIGNED_LINK_MAX_AGE = int(os.environ.get("SIGNED_LINK_MAX_AGE", str(60 * 60 * 24 * 120)))

# --- Registrations (registrations/) -----------------------------------------------------------
# The organisers' contact, in every e-mail to players (and its Reply-To) and on the privacy
# notice.
ORGANISER_EMAIL = os.environ.get("ORGANISER_EMAIL", "organisers@nardy.local")
ORGANISER_PHONE = os.environ.get("ORGANISER_PHONE", "")
# Names and contacts of players and master-class guests are anonymised automatically this many
# days after the tournament ended or the session took place (daily beat task).
PERSONAL_DATA_RETENTION_DAYS = int(os.environ.get("PERSONAL_DATA_RETENTION_DAYS", "180"))
# Rate limits of the public registration, sign-up and lost-link forms (registrations/throttle.py):
# per client address, successful posts (a registration or sign-up made, links sent) and refused
# ones (a form with mistakes, a bot's) are counted apart, so a group registering over one
# Wi-Fi is not stopped by its typos, nor a bot by anything but its own posts; per e-mail
# address, every post that would e-mail it.
REGISTRATIONS_PER_ADDRESS = os.environ.get("REGISTRATIONS_PER_ADDRESS", "40/10m")
REFUSED_POSTS_PER_ADDRESS = os.environ.get("REFUSED_POSTS_PER_ADDRESS", "50/10m")
POSTS_PER_EMAIL = os.environ.get("POSTS_PER_EMAIL", "5/h")

# --- Security -------------------------------------------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # HTTPS-only cookies; DJANGO_SECURE_COOKIES=0 only for a local load test over plain HTTP.
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}
