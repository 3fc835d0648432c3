"""Settings for the test suite: production settings with a test-only key."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

from armybuilder.settings import *  # noqa: E402,F403
