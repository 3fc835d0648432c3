"""In headless Chromium, per game: the operator signs in, adds the game from an index on the loopback address,
a player builds a small list and downloads its cards, then the operator updates the game to a newer revision
served at the same address, and the roster is offered the move: its points stay until the player moves it.

The games are tests/test_battlescribe_games.py's BSData games from ../shared (each skipped where absent),
published by tests/data_server.py as .gstz/.catz with an index.bsi. The newer revision raises the game
system's revision and doubles every cost in the data, so the move shows in the points.
"""

import re
import shutil
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from playwright.sync_api import expect

from tests.data_server import publish
from tests.test_battlescribe_games import GAMES, IDS, SHARED
from tests.test_browser import browser, page, settled  # noqa: F401 - the browser suite's fixtures
from tests.test_browser_battlescribe import start, take
from tests.test_browser_pdf import run_the_worker_once

PUBLISHED = [game[:5] for game in GAMES if game[0].startswith("bsdata/")]  # folder, army, force, limit, steps
PUBLISHED_IDS = [name for game, name in zip(GAMES, IDS, strict=True) if game[0].startswith("bsdata/")]
COST_TYPE = re.compile(rb'<costType\b[^>]*?\bid="([^"]+)"')
PRICED = re.compile(rb"<(?:cost|modifier)\b[^>]*>")  # a cost, or a modifier that may change one
VALUE = re.compile(rb'(\bvalue=")(-?\d+(?:\.\d+)?)(")')
FIELD = re.compile(rb'\b(?:typeId|field)="([^"]+)"')
SYSTEM_REVISION = re.compile(rb'(<gameSystem\b[^>]*?\brevision=")(\d+)(")')


@pytest.fixture
def site(live_server, transactional_db):
    return live_server.url


def next_revision(folder: Path) -> int:
    """The folder as its next revision: the game system's revision raised by one, every cost and every
    modifier of a cost doubled (so each unit costs twice as much)."""
    system = next(path for path in folder.iterdir() if path.suffix == ".gst")
    cost_types = set(COST_TYPE.findall(system.read_bytes()))

    def doubled(tag) -> bytes:
        field = FIELD.search(tag[0])
        if field is None or field[1] not in cost_types:
            return tag[0]
        return VALUE.sub(lambda found: found[1] + str(float(found[2]) * 2).encode() + found[3], tag[0])

    for path in folder.iterdir():
        if path.suffix in (".gst", ".cat"):
            path.write_bytes(PRICED.sub(doubled, path.read_bytes()))
    content = system.read_bytes()
    revision = int(SYSTEM_REVISION.search(content)[2]) + 1
    system.write_bytes(SYSTEM_REVISION.sub(lambda found: found[1] + str(revision).encode() + found[3], content, 1))
    return revision


def run_the_worker_when_a_job_waits() -> None:
    """The worker's pass, once the page's request has queued a job (a load or a render)."""
    from django_tasks_db.models import DBTaskResult

    for _ in range(400):
        if DBTaskResult.objects.filter(status="READY").exists():
            return run_the_worker_once()
        time.sleep(0.05)
    raise AssertionError("no job was queued")


def sign_in(page, site) -> None:  # noqa: F811 - the fixture, passed on
    """The operator signed in: a staff user's session, as Django's admin login leaves it, in the browser's cookies
    (the admin's own pages ask for a /favicon.ico the site does not serve, which the browser suite counts as an error)."""
    operator = get_user_model().objects.create_user("operator", password="a long operator password", is_staff=True)
    client = Client()
    client.force_login(operator)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": site}])
    page.goto(f"{site}/operator/games/")


@pytest.mark.timeout(900)
@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}, PDF_RENDER_PROCESSES=1)
@pytest.mark.parametrize(("folder", "army", "force", "limit", "steps"), PUBLISHED, ids=PUBLISHED_IDS)
def test_an_operator_adds_a_game_from_its_index_and_updates_it_under_a_players_roster(
    page,  # noqa: F811
    site,
    served,
    worker_signals,
    empty_cache,
    tmp_path,
    folder,
    army,
    force,
    limit,
    steps,
):
    if not (SHARED / folder).is_dir():
        pytest.skip(f"no data at {SHARED / folder}")
    data = tmp_path / "data"
    shutil.copytree(SHARED / folder, data)
    publish(data, served.served)
    address = f"{served.url}/index.bsi"
    sign_in(page, site)
    page.fill("#id_address", address)
    page.click("#add-game button")
    expect(page.locator("#game-loads li[data-state=queued]")).to_have_count(1)
    run_the_worker_when_a_job_waits()
    expect(page.locator("#game-loads")).to_contain_text("players can start rosters of it now")
    row = page.locator("#loaded-games li")
    expect(row).to_have_count(1)
    expect(row.locator(".source")).to_have_text(address)
    name = row.locator("h3 a").inner_text()
    revision = int(row.get_attribute("data-revision"))

    start(page, site, name, army, force, limit)
    editor = page.url
    for kind, *names in steps:
        take(page, kind, *names)
    totals = page.locator("#bs-totals")
    expect(totals).to_contain_text("Legal")
    points = totals.inner_text().split()[0]
    page.click("#open-share")
    page.wait_for_url("**/bs/r/**")
    with page.expect_download(timeout=60_000) as cards:
        page.get_by_role("link", name="unit cards (PDF)").click()
        run_the_worker_when_a_job_waits()
    assert Path(cards.value.path()).read_bytes().startswith(b"%PDF")

    newer = next_revision(data)
    publish(data, served.served)
    page.goto(f"{site}/operator/games/")
    page.click("#loaded-games li form[action$='/check/'] button")
    expect(page.locator("#operator-messages")).to_contain_text(f"revision {newer} (loaded: {revision})")
    page.click("#loaded-games li form[action$='/update/'] button")
    expect(page.locator("#game-loads > li").first).to_have_attribute("data-state", "queued")
    run_the_worker_when_a_job_waits()
    expect(page.locator("#game-loads > li").first).to_contain_text(
        f"Loaded {name} revision {newer} beside {name} revision {revision}"
    )
    expect(page.locator("#loaded-games li")).to_have_count(2)

    page.goto(editor)
    notice = page.locator("#newer-data")
    expect(notice.locator("h2")).to_have_text(f"Newer data loaded: {name} revision {newer} (was {revision})")
    expect(totals).to_contain_text(f"{points} / {limit}")
    page.click("#move-form button")
    page.wait_for_load_state()
    expect(page.locator("#newer-data")).to_have_count(0)
    expect(page.locator(".roster-head p.meta")).to_contain_text(f"revision {newer}")
    expect(totals).not_to_contain_text(f"{points} / {limit}")
    assert float(totals.inner_text().split()[0]) > float(points)
