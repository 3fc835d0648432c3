"""gunicorn settings for `make serve`; every value can be overridden from the environment."""

import os

from gunicorn.glogging import Logger

bind = os.environ.get("ARMYBUILDER_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("ARMYBUILDER_WORKERS", "2"))
# Threads, so a slow client holds one thread, not a whole worker: a request's headers are read by a thread
# once its first byte arrives (put a buffering proxy in front, see README, so only whole requests get here).
worker_class = "gthread"
threads = int(os.environ.get("ARMYBUILDER_THREADS", "16"))
timeout = 30  # PDFs render in the background worker: no web request is slow
keepalive = 5  # an idle kept-alive connection waits on the poller, not in a thread, and is closed after this
graceful_timeout = 20
accesslog = os.environ.get("ARMYBUILDER_ACCESS_LOG") or None
preload_app = True  # load Django once, then fork the workers

# Requests are small: a long request line or many or large headers are refused before Django
# sees them (bodies over the limit are refused by Django, unread; put the same limit on your proxy).
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190


class EditSecretMaskingLogger(Logger):
    """The access log never holds an edit or organiser's secret, and no field can forge a line.

    Every field (request line, path, referrer, user agent, a redirect's Location) is written as the
    client sent it, never percent-decoded, with /e/<secret>/ and /events/o/<secret>/ masked and
    control characters, quotes and backslashes escaped (`%0a` stays `%0a`; a decoded newline in the
    path is written `\\x0a`).
    """

    def atoms(self, resp, req, environ, request_time):
        from armybuilder.middleware import log_safe

        return {
            key: log_safe(value) if isinstance(value, str) else value
            for key, value in super().atoms(resp, req, environ, request_time).items()
        }


logger_class = EditSecretMaskingLogger
