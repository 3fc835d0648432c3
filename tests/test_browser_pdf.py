"""In Chromium: a PDF that is not ready shows its progress, and downloads by itself once the worker is done."""

import time
from pathlib import Path

from django.core.management import call_command
from django.db import OperationalError
from django.test import override_settings
from playwright.sync_api import expect

from lists.rosters.files import load_roster_file, save_new_roster
from lists.rosters.sharing import hash_secret
from tests.test_browser import browser, page, site  # noqa: F401 - the browser suite's fixtures

ROOT = Path(__file__).resolve().parents[1]


def run_the_worker_once() -> None:
    """The worker's pass over the queue. The suite's in-memory database fails a write at once while the
    page's poll reads (a file database, as served, waits for it): try again until the queue is read."""
    for _ in range(50):
        try:
            call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
            return
        except OperationalError:
            time.sleep(0.1)
    raise AssertionError("the worker never got the queue")


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
def test_the_waiting_page_follows_the_render_and_downloads_the_pdf(page, site, worker_signals):  # noqa: F811
    resolved = load_roster_file((ROOT / "examples" / "bolt-action-2e.yaml").read_bytes())
    save_new_roster(resolved, "browserpdfroster", hash_secret("browser-pdf-secret"))

    page.goto(f"{site}/r/browserpdfroster/list.pdf")
    expect(page.locator("#pdf-status")).to_contain_text("Waiting for the renderer")
    expect(page.locator("#pdf-status")).to_contain_text("Rangers lead the way (10 units)")

    with page.expect_download(timeout=30_000) as download_info:
        run_the_worker_once()

    download = download_info.value
    assert download.suggested_filename == "rangers-lead-the-way-list.pdf"  # named after the roster
    assert Path(download.path()).read_bytes().startswith(b"%PDF")
    expect(page.locator("h1")).to_have_text("Your PDF is ready")


def run_the_worker_when_a_render_is_queued() -> None:
    """The worker's pass, once the page's request has queued its render."""
    from django_tasks_db.models import DBTaskResult

    for _ in range(200):
        if DBTaskResult.objects.exists():
            return run_the_worker_once()
        time.sleep(0.05)
    raise AssertionError("no render was queued")


# Cards render in this process: render helpers forked from a process running the live server's threads could hang.
@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}, PDF_RENDER_PROCESSES=1)
def test_unit_cards_download_from_the_share_page_without_leaving_it(page, site, worker_signals, empty_cache):  # noqa: F811
    resolved = load_roster_file((ROOT / "examples" / "bolt-action-2e.yaml").read_bytes())
    save_new_roster(resolved, "browsercardsroster", hash_secret("browser-cards-secret"))
    page.goto(f"{site}/r/browsercardsroster/")

    with page.expect_download(timeout=60_000) as download_info:
        page.get_by_role("button", name="Unit cards (PDF)").click()
        expect(page.locator("[data-pdf-status]")).to_have_text("Preparing the PDF…")
        run_the_worker_when_a_render_is_queued()

    download = download_info.value
    assert download.suggested_filename == "rangers-lead-the-way-cards-poker.pdf"
    assert Path(download.path()).read_bytes().startswith(b"%PDF")


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}, PDF_RENDER_PROCESSES=1)
def test_without_javascript_the_progress_page_refreshes_to_the_file(browser, site, worker_signals, empty_cache):  # noqa: F811
    resolved = load_roster_file((ROOT / "examples" / "bolt-action-2e.yaml").read_bytes())
    save_new_roster(resolved, "browsernoscript", hash_secret("browser-noscript-secret"))
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site}/r/browsernoscript/")
        with page.expect_download(timeout=60_000) as download_info:
            page.get_by_role("button", name="Unit cards (PDF)").click()  # the progress page, held till it is done
            run_the_worker_when_a_render_is_queued()

        download = download_info.value
        assert download.suggested_filename == "rangers-lead-the-way-cards-poker.pdf"
        assert Path(download.path()).read_bytes().startswith(b"%PDF")
        expect(page.locator("h1")).to_have_text("Your PDF is ready")
    finally:
        context.close()
