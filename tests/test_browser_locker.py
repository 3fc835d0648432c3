"""In Chromium: a phone joins a desktop's roster locker, and both edit the same roster (a stale page's edit is
still refused). Screenshots of "my rosters", the join link and the join page go to $LOCKER_SCREENS when set."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from lists.models import Roster
from tests.test_browser import SECTION, add_unit, browser, pick, settled, site, start_roster, watched_page  # noqa: F401

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def not_a_refusal(text: str) -> bool:
    return "409" not in text  # a stale page's edit is refused (409) and answered by the page: not an error here


@pytest.fixture
def screens(tmp_path) -> Path:
    folder = Path(os.environ.get("LOCKER_SCREENS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"locker-{name}-{page.viewport_size['width']}.png"), full_page=True)


def test_a_phone_joins_the_desktop_s_rosters_and_both_edit_the_same_roster(browser, site, screens):  # noqa: F811
    with (
        watched_page(browser, not_a_refusal, viewport=DESKTOP) as desktop,
        watched_page(browser, not_a_refusal, viewport=PHONE, is_mobile=True, has_touch=True) as phone,
        watched_page(browser, viewport=DESKTOP) as visitor,
    ):
        start_roster(desktop, site, name="Club night")
        editor = desktop.url
        start_roster(desktop, site, name="Tournament 1000")
        desktop.goto(f"{site}/rosters/mine/")
        expect(desktop.locator(".kept-roster")).to_have_count(2)
        shot(desktop, screens, "mine")

        desktop.get_by_role("button", name="Use on another device").click()
        expect(desktop.locator(".qr svg, svg.qr")).to_have_count(1)
        join = desktop.locator("#join-url").get_attribute("href")
        assert "/rosters/join/" in join
        shot(desktop, screens, "link")
        visitor.goto(join)  # the join page at desktop width, left without joining
        expect(visitor.get_by_role("button", name="Join")).to_be_visible()
        shot(visitor, screens, "join")

        phone.goto(join)
        expect(phone.locator("#confirm")).to_contain_text("This device will share")
        shot(phone, screens, "join")
        phone.get_by_role("button", name="Join").click()
        phone.wait_for_url("**/rosters/mine/")
        expect(phone.locator(".kept-roster")).to_have_count(2)
        shot(phone, screens, "mine")

        desktop.goto(editor)  # open on the desktop before the phone's edit: this page is now stale
        settled(desktop)
        phone.get_by_role("link", name="Club night", exact=True).click()
        phone.wait_for_url("**/e/**")
        assert phone.url == editor
        add_unit(phone, SECTION)
        assert Roster.objects.get(name="Club night").units.count() == 1

        pick(desktop, SECTION).first.click()  # from the stale page: refused, the phone's unit kept
        expect(desktop.locator("#conflict")).to_contain_text("changed elsewhere since you opened this page")
        expect(desktop.locator("article.unit")).to_have_count(1)
        settled(desktop)
        assert Roster.objects.get(name="Club night").units.count() == 1
        desktop.locator("#conflict").get_by_role("button", name="OK").click()
        add_unit(desktop, SECTION)  # now current: saved

        phone.reload()
        expect(phone.locator("article.unit")).to_have_count(2)
        assert Roster.objects.get(name="Club night").units.count() == 2

        phone.goto(f"{site}/rosters/mine/")
        phone.get_by_role("button", name="Use on another device").click()
        expect(phone.locator("svg.qr")).to_have_count(1)
        shot(phone, screens, "link")
