"""The installable app's files: the web manifest, the service worker script and the pages it keeps."""

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.models import BattleScribeRoster, Roster
from lists.web import offline_views
from tests.test_battlescribe_pdf_delivery import flames_of_war, stored_roster  # noqa: F401 - the real data's fixture

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "heroes-all.yaml").read_text()

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]


def worker_config(client) -> dict:
    source = client.get("/sw.js").content.decode()
    return json.loads(re.match(r"const CONFIG = (\{.*\});\n", source).group(1))


def test_every_page_links_the_manifest_and_the_script_that_starts_the_service_worker(client):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<script src="/static/js/offline.js" data-worker="/sw.js" defer></script>' in html


def test_the_manifest_names_the_app_its_icons_and_my_rosters_as_its_start(client):
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Army builder" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/rosters/mine/" and manifest["theme_color"] == "#3b5d2a"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        png = b"".join(client.get(icon["src"]).streaming_content)
        assert png.startswith(b"\x89PNG")
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]


def test_the_service_worker_is_served_from_the_root_and_never_held_back_by_a_cache(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    config = worker_config(client)
    assert config["offlinePage"] == "/offline/" and config["myRostersKept"] == "/rosters/mine/kept/"
    assert "/static/css/site.css" in config["staticFiles"]
    assert all(client.get(url).status_code == 200 for url in config["staticFiles"])


def test_the_service_worker_keeps_share_pages_under_both_kinds_of_roster_s_folder(client):
    config = worker_config(client)

    assert config["shareRoots"] == ["/r/", "/bs/r/"]
    client.post("/rosters/import/", {"text": EXAMPLE})
    roster = Roster.objects.get()
    page = client.get(f"{config['shareRoots'][0]}{roster.share_id}/")
    assert page.status_code == 200 and f"<h1>{roster.name}</h1>" in page.content.decode()


def test_a_deploy_that_changes_the_pdf_templates_or_the_static_files_brings_a_new_version(client, monkeypatch):
    first = worker_config(client)["version"]
    assert worker_config(client)["version"] == first  # the same deploy, the same version

    templates_digest = offline_views.templates_digest
    monkeypatch.setattr(offline_views, "templates_digest", lambda kind: templates_digest(kind) + "changed")
    after_templates = worker_config(client)["version"]
    monkeypatch.setattr(offline_views, "static_files_digest", lambda: "the static files changed")
    after_static = worker_config(client)["version"]

    assert len({first, after_templates, after_static}) == 3


def test_the_policy_lets_the_app_install_its_own_manifest_and_worker_only(client):
    for path in ("/", "/sw.js", "/offline/"):
        policy = client.get(path)["Content-Security-Policy"]
        assert "manifest-src 'self'" in policy and "worker-src 'self'" in policy, path


def test_the_offline_page_says_the_page_needs_a_connection(client):
    response = client.get("/offline/")

    assert response.status_code == 200
    assert "This page needs a connection" in response.content.decode()


def test_the_kept_my_rosters_links_each_share_page_and_holds_no_edit_link(client):
    edit = client.post("/rosters/import/", {"text": EXAMPLE})["Location"]
    roster = Roster.objects.get()

    response = client.get("/rosters/mine/kept/")

    html = response.content.decode()
    assert response.status_code == 200
    assert f'<a href="/r/{roster.share_id}/">{roster.name}</a>' in html
    assert "/e/" not in html and edit.strip("/").split("/")[-1] not in html
    assert "no-store" in response["Cache-Control"]  # never in the browser's own cache either


def test_a_stranger_s_kept_my_rosters_lists_none_of_another_device_s_rosters(client):
    client.post("/rosters/import/", {"text": EXAMPLE})
    client.cookies.clear()

    html = client.get("/rosters/mine/kept/").content.decode()

    assert "None yet." in html and "/r/" not in html


def test_the_share_page_offers_to_keep_the_roster_offline(client):
    client.post("/rosters/import/", {"text": EXAMPLE})
    roster = Roster.objects.get()

    html = client.get(f"/r/{roster.share_id}/").content.decode()

    assert "Keep offline on this device" in html
    assert f'data-cards="/r/{roster.share_id}/cards.pdf?card=poker&amp;paper=a4"' in html
    assert f'data-list="/r/{roster.share_id}/list.pdf"' in html
    fingerprint = re.search(r'<strong class="fingerprint">([^<]+)</strong>', html).group(1)
    assert f'data-version="{fingerprint}"' in html  # kept PDFs of another fingerprint are fetched again


@pytest.mark.usefixtures("flames_of_war")
def test_a_battlescribe_share_page_offers_to_keep_it_with_the_pdfs_it_links_and_its_version(client):
    kept, secret = stored_roster()
    share = f"{worker_config(client)['shareRoots'][1]}{kept.share_id}/"

    html = client.get(share).content.decode()

    assert "<h1>Bulge breakout</h1>" in html and "Keep offline on this device" in html
    assert f'data-cards="{share}cards.pdf" data-list="{share}list.pdf" data-version="1"' in html
    assert f'<a href="{share}cards.pdf" id="download-cards" data-pdf-download>' in html  # the file the page links
    for pdf in ("cards.pdf", "list.pdf"):
        response = client.get(f"{share}{pdf}")
        assert (response.status_code, response["Content-Type"]) == (200, "application/pdf")
    renamed = client.post(
        f"/bs/e/{secret}/change/",
        {"action": "settings", "name": "Bulge counter-attack", "points_limit": "100", "version": kept.version},
    )
    assert renamed.status_code == 302
    assert 'data-version="2"' in client.get(share).content.decode()  # the kept PDFs are now of an earlier version


@pytest.mark.usefixtures("flames_of_war")
def test_the_kept_my_rosters_links_a_battlescribe_roster_s_share_page_and_no_edit_link(client):
    shared, _ = stored_roster()
    client.post(f"/bs/r/{shared.share_id}/copy/")  # the visitor's own copy, remembered on this device
    own = BattleScribeRoster.objects.get(name="Copy of Bulge breakout")

    html = client.get("/rosters/mine/kept/").content.decode()

    assert f'<a href="/bs/r/{own.share_id}/">Copy of Bulge breakout</a>' in html
    assert "Flames of War" in html and "/e/" not in html and "None yet." not in html
    assert f"/bs/r/{shared.share_id}/" not in html  # another's roster, only visited, is not this device's


PRODUCTION_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture
def production_static_files(tmp_path, settings):
    """The static files as `make serve` has them: collected with hashed names into their own folder."""
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = PRODUCTION_STORAGES
    call_command("collectstatic", interactive=False, verbosity=0)


@pytest.mark.usefixtures("production_static_files")
def test_the_service_worker_is_served_under_the_production_static_storage(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    config = worker_config(client)
    assert config["staticPrefix"] == "/static/"
    assert all(re.fullmatch(r"/static/.+\.[0-9a-f]{12}\.(css|js|png)", url) for url in config["staticFiles"])
    assert client.get("/manifest.webmanifest").status_code == 200
