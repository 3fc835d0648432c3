"""Settings for the army builder, read from the environment.

Development needs nothing set: SQLite in the project folder and a throwaway
secret key. Production sets DJANGO_DEBUG off (the default) and DJANGO_SECRET_KEY.
"""

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it to a long random string for production, "
            "or set DJANGO_DEBUG=1 for local development."
        )
    SECRET_KEY = "development-only-insecure-key"  # noqa: S105 - only ever used with DEBUG on

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # Django's admin and its login: an operator (a staff user, `createsuperuser`) adds and updates games.
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "django_ratelimit",
    "django_tasks",
    "django_tasks_db",
    "lists",
]

# The middleware that set the security headers come first, so they wrap every other: an answer given
# by any layer inside them (a body over the limit or a NUL refused, a static file, a host refused,
# the redirect to https) carries the headers too.
MIDDLEWARE = [
    "csp.middleware.CSPMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "armybuilder.middleware.PrivacyHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "armybuilder.middleware.RefuseNulCharactersMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
    "armybuilder.middleware.DataLimitMiddleware",
    "lists.web.deleted_roster.RosterDeletedMiddleware",
]

ROOT_URLCONF = "armybuilder.urls"
WSGI_APPLICATION = "armybuilder.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite by default (WAL mode, so readers never wait for a writer); PostgreSQL when DATABASE_URL is set.
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.config(conn_max_age=60, conn_health_checks=True)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("DJANGO_SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
        }
    }

# One cache for rendered PDFs, share pages, PDF jobs and rate-limit counts, shared by every
# worker: Redis when REDIS_URL is set (so several machines share it), else diskcache's
# SQLite files on this machine. Both increment atomically, as the rate limits need.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {
        "default": {
            "BACKEND": "diskcache.DjangoCache",
            "LOCATION": os.environ.get("ARMYBUILDER_CACHE_DIR", str(BASE_DIR / "var" / "cache")),
            "SHARDS": 4,
            "DATABASE_TIMEOUT": 1.0,
            "OPTIONS": {"size_limit": 2 * 1024**3},
        }
    }
RATELIMIT_USE_CACHE = "default"
# django-ratelimit warns about any backend missing from its list, which predates Django's own
# Redis backend; both backends used here have the atomic increment its error check (E003) asks for.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

# PDFs render in the background (lists/pdfs/tasks.py): Django's Tasks API. With REDIS_URL the queue
# is in Redis (RQ, run by `manage.py rqworker`), shared by every machine; else it is a table in
# the database, run by `manage.py db_worker`. scripts/with_worker.py starts the matching worker.
PDF_RENDER_SECONDS = int(os.environ.get("ARMYBUILDER_PDF_SECONDS", "180"))
if REDIS_URL:
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    # RQ's own time limit only backs up the render's (lists.pdfs.tasks.time_limit), which says why it stopped.
    # "bulk" holds the heavy renders (lists.pdfs.tasks.sized): the worker empties "default" first.
    RQ_QUEUES = {name: {"URL": REDIS_URL, "DEFAULT_TIMEOUT": PDF_RENDER_SECONDS + 60} for name in ("default", "bulk")}
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default", "bulk"]}}
else:
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# Seconds one answer of a BattleScribe data source may take (load_battlescribe ADDRESS, the operator's page).
BATTLESCRIBE_FETCH_SECONDS = float(os.environ.get("ARMYBUILDER_FETCH_SECONDS", "30"))
# Requests one web process holds while their PDF renders (lists/pdfs/waits.py); more are answered at once.
PDF_MAX_WAITS = int(os.environ.get("ARMYBUILDER_PDF_WAITS", "6"))
PDF_MAX_CARD_UNITS = int(os.environ.get("ARMYBUILDER_PDF_MAX_UNITS", "400"))
# Cores one render of many new cards shares its work over (lists/cards/); all of them by default.
PDF_RENDER_PROCESSES = int(os.environ.get("ARMYBUILDER_PDF_PROCESSES", str(len(os.sched_getaffinity(0)))))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Compressed (gzip and Brotli) files with hashed names, served by WhiteNoise.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Where the game-system packs live; loadpacks reads every folder under it.
PACKS_DIR = Path(os.environ.get("ARMYBUILDER_PACKS_DIR", BASE_DIR / "lists" / "packs"))

# Uploads: roster files are small; anything larger is refused before it is read (forms by
# Django's limit on the body, files by an upload handler that stops at the limit).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_HANDLERS = ["lists.web.uploads.LimitedUploadHandler"]

# Security. Behind a TLS-terminating proxy set DJANGO_SECURE_PROXY_SSL_HEADER=1.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_HTTPONLY = False  # htmx reads no cookie: the token is in the page, sent by hx-headers
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
if env_bool("DJANGO_PROXY_REDIRECTS_TO_HTTPS"):  # the operator says the proxy sends http to https: W008 is met there
    SILENCED_SYSTEM_CHECKS = [*SILENCED_SYSTEM_CHECKS, "security.W008"]
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The header your proxy sets to the client's address (X-Forwarded-For or X-Real-IP). Unset, the
# client is REMOTE_ADDR: never trust a header that a client could send straight to the app.
TRUSTED_PROXY_HEADER = os.environ.get("DJANGO_TRUSTED_PROXY_HEADER", "")
RATELIMIT_IP_META_KEY = "armybuilder.middleware.client_address"
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

# Content Security Policy: only the app's own scripts and styles; htmx works under it
# (its indicator styles are switched off in base.html, so it injects no inline style).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "manifest-src": [SELF],  # the web app manifest and the service worker (lists/web/offline_views.py)
        "worker-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    }
}

# Rate limits (per client address) on what is costly: creating rosters and rendering PDFs.
RATELIMIT_VIEW = "lists.web.page_helpers.too_many_requests"
ROSTER_CREATE_RATE = os.environ.get("ARMYBUILDER_ROSTER_CREATE_RATE", "30/m")
PDF_RATE = os.environ.get("ARMYBUILDER_PDF_RATE", "30/m")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Django logs the path of a refused request: edit secrets in it are masked.
    "filters": {"mask_secrets": {"()": "armybuilder.middleware.MaskEditSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["mask_secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
UNIT_ADD_RATE = os.environ.get("ARMYBUILDER_UNIT_ADD_RATE", "120/m")  # units added or duplicated, per client address
# Changes to a roster (of any kind: each rewrites it), per client address: far more than a player clicks.
EDIT_RATE = os.environ.get("ARMYBUILDER_EDIT_RATE", "600/m")
VERIFY_RATE = os.environ.get("ARMYBUILDER_VERIFY_RATE", "60/m")  # fingerprint look-ups, per client address
# GETs of the pages that cost most to build (editor, share page, organiser's page, PDFs and their progress), per
# client address: a PDF followed by its page or script asks at most about once a second.
PAGE_RATE = os.environ.get("ARMYBUILDER_PAGE_RATE", "120/m")
# Opening or using a join link of a roster locker, per client address: a few devices join at once, guesses stop here.
JOIN_RATE = os.environ.get("ARMYBUILDER_JOIN_RATE", "20/m")
