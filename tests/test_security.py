"""Hardening: deploy checks, security headers, escaping, rate limits."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

from lists.models import Roster

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.usefixtures("real_packs")
EXAMPLE = (ROOT / "examples" / "heroes-all.yaml").read_text()


def test_production_settings_pass_the_deploy_check_with_no_warning():
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
        "DJANGO_SECRET_KEY": "x7Gq2vLr9TbKz4NcW1pYfH8mJd3sA6eU0oRiV5lXnQwEyBtCgZaMhPkSjDuF-_",
        "DJANGO_ALLOWED_HOSTS": "lists.example.org",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "https://lists.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stdout + result.stderr


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
def test_pdf_rendering_is_rate_limited_per_client(client, frozen_clock):
    client.post("/rosters/import/", {"text": EXAMPLE})
    roster = Roster.objects.get()

    statuses = [client.get(f"/r/{roster.share_id}/cards.pdf", REMOTE_ADDR="203.0.113.9").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    response = client.get(f"/r/{roster.share_id}/list.pdf", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 429
    assert response["Retry-After"] == "60"
    assert "wait a minute" in response.content.decode()
