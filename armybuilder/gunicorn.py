"""gunicorn settings for `make serve`; every value can be overridden from the environment."""

import os

bind = os.environ.get("ARMYBUILDER_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("ARMYBUILDER_WORKERS", "2"))
threads = int(os.environ.get("ARMYBUILDER_THREADS", "1"))
timeout = 60  # a 100-card PDF takes several seconds
accesslog = os.environ.get("ARMYBUILDER_ACCESS_LOG") or None
preload_app = True  # load Django once, then fork the workers
