"""Settings for the test suite: production settings with a test-only key, served over plain HTTP."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production-0123456789abcdefghijkl")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SECURE_HSTS_SECONDS", "0")

from armybuilder.settings import *  # noqa: E402,F403

CACHES = {**CACHES, "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}  # noqa: F405
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
ROSTER_CREATE_RATE = PDF_RATE = "10000/m"
WHITENOISE_AUTOREFRESH = True  # serve from the finders: tests run without collectstatic
WHITENOISE_USE_FINDERS = True
