"""Hardening: deploy checks, security headers, escaping, rate limits."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from lists.models import Roster

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.usefixtures("real_packs", "empty_cache")
EXAMPLE = (ROOT / "examples" / "heroes-all.yaml").read_text()


@pytest.mark.parametrize("redis", ["", "redis://127.0.0.1:6390/0"], ids=["embedded", "redis"])
def test_production_settings_pass_the_deploy_check_with_no_warning(redis):
    """Also the rate limits' own check, whose error (a cache that cannot count atomically) is not silenced."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
        "DJANGO_SECRET_KEY": "x7Gq2vLr9TbKz4NcW1pYfH8mJd3sA6eU0oRiV5lXnQwEyBtCgZaMhPkSjDuF-_",
        "DJANGO_ALLOWED_HOSTS": "lists.example.org",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "https://lists.example.org",
        "REDIS_URL": redis,
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "django_ratelimit.E003" not in settings.SILENCED_SYSTEM_CHECKS


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env["DJANGO_SETTINGS_MODULE"] = "armybuilder.settings"

    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_that_allows_only_the_apps_own_files(client):
    response = client.get("/")

    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    html = response.content.decode()
    assert "<script>" not in html and "onclick=" not in html and 'style="' not in html


@pytest.mark.django_db
@override_settings(SECURE_HSTS_SECONDS=31536000, SECURE_HSTS_INCLUDE_SUBDOMAINS=True)
def test_https_answers_carry_hsts(client):
    response = client.get("/", secure=True)

    assert response["Strict-Transport-Security"].startswith("max-age=31536000")


@pytest.mark.django_db
def test_user_text_is_escaped_on_the_editor_and_share_pages(client):
    text = EXAMPLE.replace("name: Panzer support", "name: '<script>alert(1)</script>'")
    text = text.replace("label: Tank hunters", "label: '<img src=x onerror=alert(2)>'")
    edit = client.post("/rosters/import/", {"text": text})["Location"]
    roster = Roster.objects.get()

    for url in (edit, f"/r/{roster.share_id}/"):
        html = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<img src=x" not in html
        assert "&lt;img src=x onerror=alert(2)&gt;" in html


@pytest.fixture
def frozen_clock(monkeypatch):
    """Rate limits count in fixed windows: keep every request of a test in the same one."""
    import types

    import django_ratelimit.core

    now = 1_700_000_000.0
    monkeypatch.setattr(django_ratelimit.core, "time", types.SimpleNamespace(time=lambda: now))


@pytest.mark.django_db
@override_settings(ROSTER_CREATE_RATE="2/m")
def test_roster_creation_is_rate_limited_per_client(client, frozen_clock):
    statuses = [
        client.post("/rosters/import/", {"text": EXAMPLE}, REMOTE_ADDR="203.0.113.7").status_code for _ in range(3)
    ]

    assert statuses == [302, 302, 429]
    assert Roster.objects.count() == 2
    # Another client is not held back.
    assert client.post("/rosters/import/", {"text": EXAMPLE}, REMOTE_ADDR="203.0.113.8").status_code == 302


@pytest.mark.django_db
@override_settings(PDF_RATE="2/m")
def test_pdf_renders_are_rate_limited_per_client_and_following_one_is_free(client, frozen_clock):
    client.post("/rosters/import/", {"text": EXAMPLE})
    share = f"/r/{Roster.objects.get().share_id}/"

    statuses = [
        client.get(f"{share}cards.pdf?card={card}", REMOTE_ADDR="203.0.113.9").status_code for card in ("poker", "a6")
    ]
    # A PDF already made costs nothing, however often it is fetched or its page polled.
    statuses += [client.get(f"{share}cards.pdf?card=a6", REMOTE_ADDR="203.0.113.9").status_code for _ in range(3)]
    response = client.get(f"{share}list.pdf", REMOTE_ADDR="203.0.113.9")

    assert statuses == [200] * 5
    assert response.status_code == 429
    assert response["Retry-After"] == "60"
    assert "wait a minute" in response.content.decode()
    assert client.get(f"{share}list.pdf", REMOTE_ADDR="203.0.113.10").status_code == 200


@pytest.mark.django_db
@override_settings(PDF_RATE="1/m", TRUSTED_PROXY_HEADER="X-Forwarded-For")
def test_behind_a_trusted_proxy_each_client_has_its_own_budget(client, frozen_clock):
    """Every request comes from the proxy's address; the client is the address the proxy added last."""
    client.post("/rosters/import/", {"text": EXAMPLE})
    share = f"/r/{Roster.objects.get().share_id}/"

    def fetch(path, forwarded):
        return client.get(path, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded).status_code

    assert fetch(f"{share}cards.pdf", "198.51.100.1") == 200
    assert fetch(f"{share}list.pdf", "198.51.100.1") == 429
    # A client cannot borrow another budget by sending its own X-Forwarded-For: the proxy's entry counts.
    assert fetch(f"{share}list.pdf", "198.51.100.77, 198.51.100.1") == 429
    assert fetch(f"{share}list.pdf", "198.51.100.2") == 200


@pytest.mark.django_db
@override_settings(PDF_RATE="1/m")
def test_without_a_trusted_proxy_header_a_forwarded_address_is_ignored(client, frozen_clock):
    client.post("/rosters/import/", {"text": EXAMPLE})
    share = f"/r/{Roster.objects.get().share_id}/"

    assert client.get(f"{share}cards.pdf", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 200
    assert client.get(f"{share}list.pdf", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 429


COUNT_IN_A_WORKER = """
import django, sys
django.setup()
from django.test import RequestFactory
from django_ratelimit.core import is_ratelimited
request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.50")
limited = [is_ratelimited(request, group="pdf", key="ip", rate="8/h", increment=True) for _ in range(5)]
print(sum(limited))
"""


def test_rate_limit_counts_are_shared_by_every_worker_in_the_default_set_up(tmp_path):
    """Two worker processes on the production settings (no Redis) draw on one budget."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "REDIS_URL"))},
        "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
        "DJANGO_SECRET_KEY": "k" * 60,
        "ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache"),
    }

    limited = [
        int(
            subprocess.run(
                [sys.executable, "-c", COUNT_IN_A_WORKER], cwd=ROOT, env=env, capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(2)
    ]

    assert limited == [0, 2]  # 5 + 5 requests against a budget of 8: the second worker sees the first's 5


@pytest.mark.django_db
def test_editor_pages_are_never_stored_or_indexed(client):
    edit = client.post("/rosters/import/", {"text": EXAMPLE})["Location"]
    roster = Roster.objects.get()

    for path in (edit, "/rosters/mine/"):
        response = client.get(path)
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"], path
        assert response["X-Robots-Tag"] == "noindex, nofollow", path
    assert "no-store" not in client.get(f"/r/{roster.share_id}/").get("Cache-Control", "")


@pytest.mark.django_db
def test_every_answer_carries_a_permissions_policy(client):
    for path in ("/", "/games/bolt-action-2e/", "/api/games/", "/no-such-page/"):
        assert "camera=()" in client.get(path)["Permissions-Policy"], path


@pytest.mark.django_db
@override_settings(SESSION_COOKIE_SECURE=True)
def test_the_device_cookie_stays_secure_on_a_request_not_seen_as_https(client):
    response = client.post("/rosters/import/", {"text": EXAMPLE})  # plain http, as behind a misconfigured proxy

    assert response.cookies["device"]["secure"] is True
    assert response.cookies["device"]["httponly"] is True


@pytest.mark.django_db
def test_django_logs_never_hold_an_edit_secret(client, caplog):
    import logging

    from armybuilder.middleware import MaskEditSecrets

    client.get("/e/a-guessed-secret-0123456789/")

    record = next(r for r in caplog.records if r.name == "django.request")
    MaskEditSecrets().filter(record)
    assert record.getMessage() == "Not Found: /e/[secret]/"
    console = logging.getLogger().handlers
    assert any(isinstance(f, MaskEditSecrets) for handler in console for f in handler.filters)


def test_the_access_log_never_holds_an_edit_secret(tmp_path):
    import datetime
    import types

    from gunicorn.config import Config

    from armybuilder.gunicorn import EditSecretMaskingLogger

    config = Config()
    config.set("accesslog", str(tmp_path / "access.log"))
    config.set("access_log_format", '%(h)s "%(r)s" %(s)s "%(f)s" %({location}o)s %(U)s')
    logger = EditSecretMaskingLogger(config)
    secret = "Zq3-secret_Value0123456789abcdefghijklmnopqr"
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": f"/e/{secret}/units/4/?x=1",
        "PATH_INFO": f"/e/{secret}/units/4/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "203.0.113.1",
        "HTTP_REFERER": f"https://lists.example.org/e/{secret}/",
    }
    response = types.SimpleNamespace(status="302 Found", sent=0, headers=[("Location", f"/e/{secret}/#roster")])
    request = types.SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])

    logger.access(response, request, environ, datetime.timedelta(milliseconds=5))
    for handler in logger.access_log.handlers:
        handler.flush()

    line = (tmp_path / "access.log").read_text()
    assert secret not in line
    assert '"POST /e/[secret]/units/4/?x=1 HTTP/1.1" 302 "https://lists.example.org/e/[secret]/"' in line
    assert "/e/[secret]/#roster /e/[secret]/units/4/" in line


SECURITY_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def assert_security_headers(response) -> None:
    for header, value in SECURITY_HEADERS.items():
        assert value in response.get(header, ""), header


@pytest.mark.django_db
def test_an_oversized_body_is_refused_with_every_security_header(client):
    big = io.BytesIO(b"name: x\n" + b"#" * (2 * 1024 * 1024))
    big.name = "roster.yaml"

    response = client.post("/rosters/import/", {"file": big})

    assert response.status_code == 400 and "too large" in response.content.decode()
    assert_security_headers(response)


@pytest.mark.django_db
def test_a_nul_in_a_query_string_is_refused_with_every_security_header(client):
    response = client.get("/", {"q": "a\x00b"})

    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert_security_headers(response)


@pytest.mark.django_db
def test_a_nul_in_a_form_field_is_refused_with_every_security_header(client):
    response = client.post("/rosters/import/", {"text": "name: a\x00b"})

    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert_security_headers(response)


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["lists.example.org"])
def test_a_request_for_another_host_is_refused_with_every_security_header(client):
    response = client.get("/", HTTP_HOST="attacker.example")

    assert response.status_code == 400
    assert_security_headers(response)


@pytest.mark.django_db
def test_a_static_file_carries_every_security_header(client):
    response = client.get("/static/css/site.css")

    assert response.status_code == 200
    assert_security_headers(response)


def written_access_log(folder: Path, environ: dict, headers: list[tuple[str, str]], log_format: str) -> str:
    """What gunicorn's access log (with the project's logger) writes for one request."""
    import datetime
    import types

    from gunicorn.config import Config

    from armybuilder.gunicorn import EditSecretMaskingLogger

    config = Config()
    config.set("accesslog", str(folder / "access.log"))
    config.set("access_log_format", log_format)
    logger = EditSecretMaskingLogger(config)
    response = types.SimpleNamespace(status="404 Not Found", sent=0, headers=[])
    base = {"REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "203.0.113.1"}
    logger.access(response, types.SimpleNamespace(headers=headers), {**base, **environ}, datetime.timedelta())
    for handler in logger.access_log.handlers:
        handler.flush()
    return (folder / "access.log").read_text()


FORGED = '203.0.113.66 - - [01/Jan/2030:00:00:00 +0000] "GET /admin/ HTTP/1.1" 200'


def test_an_encoded_newline_in_the_path_forges_no_access_log_line(tmp_path):
    raw = "/r/abc/%0a" + FORGED.replace(" ", "%20").replace('"', "%22")
    environ = {"RAW_URI": raw, "PATH_INFO": "/r/abc/\n" + FORGED}

    text = written_access_log(tmp_path, environ, [], '%(h)s "%(r)s" %(U)s')

    assert text.count("\n") == 1
    assert f'"GET {raw} HTTP/1.1"' in text  # the request line as it was sent, never decoded
    assert "/r/abc/\\x0a203.0.113.66" in text  # the decoded path with its newline escaped


def test_control_characters_in_any_access_log_field_are_escaped(tmp_path):
    agent = "curl\x1b[2J\x00\r\nevil"
    environ = {"RAW_URI": "/%1b[2J%00", "PATH_INFO": "/\x1b[2J\x00", "HTTP_USER_AGENT": agent}

    text = written_access_log(tmp_path, environ, [("USER-AGENT", agent)], '"%(r)s" %(U)s "%(a)s"')

    assert text == '"GET /%1b[2J%00 HTTP/1.1" /\\x1b[2J\\x00 "curl\\x1b[2J\\x00\\x0d\\x0aevil"\n'


def test_an_organiser_s_secret_is_masked_in_the_raw_request_line_however_it_is_encoded(tmp_path):
    secret = "Qw8-organiser_Secret0123456789abcdefghijk"
    raw = f"/events%2Fo/{secret}/submissions.csv?x=%0a"

    text = written_access_log(tmp_path, {"RAW_URI": raw, "PATH_INFO": raw}, [], '"%(r)s"')

    assert secret not in text
    assert text == '"GET /events/o/[secret]/submissions.csv?x=%0a HTTP/1.1"\n'


@pytest.mark.django_db
def test_django_s_log_of_a_path_holding_an_encoded_newline_stays_one_line(client, caplog):
    from armybuilder.middleware import MaskEditSecrets

    client.get("/no-such-page%250aforged-line/")

    record = next(r for r in caplog.records if r.name == "django.request")
    MaskEditSecrets().filter(record)
    assert "\n" not in record.getMessage() and "%0aforged-line" in record.getMessage()
