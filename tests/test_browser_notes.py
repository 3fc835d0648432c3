"""A unit's note in Chromium: typed in the editor, saved without leaving the page, read on the share page,
at a desktop's width and a phone's."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from lists.models import Roster
from tests.test_browser import browser, page, site  # noqa: F401 - the browser tests' fixtures

ROOT = Path(__file__).resolve().parents[1]
NOTE = "Feldgrau with yellow helmet bands <b>& kneeling gunner</b>"


def shot(page, name: str) -> None:  # noqa: F811
    """A full-page screenshot into $SCREENSHOT_DIR, when set, to look at what the test saw."""
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_note_typed_in_the_editor_is_read_on_the_share_page(page, site, width):  # noqa: F811
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{site}/")
    page.get_by_text("or paste it").click()
    page.fill(
        "textarea[name=text]", (ROOT / "examples" / "bolt-action-2e-germany-normandy-two-platoons.yaml").read_text()
    )
    page.get_by_role("button", name="Import").click()
    roster = Roster.objects.latest("pk")
    unit = roster.units.get(label="3. Gruppe")
    card = page.locator(f"#unit-{unit.id}")
    card.locator("summary.unit-row").click()
    card.get_by_label("Note").fill(NOTE)
    with page.expect_response(lambda response: response.url.endswith("/note/")) as saved:
        card.get_by_role("button", name="Save note").click()
    assert saved.value.status == 200  # htmx: the unit comes back, the page stays
    # The server's copy carries the note in its value attribute; the typed input (until htmx swaps it) does not.
    expect(page.locator(f"#unit-{unit.id} input[name=note]")).to_have_attribute("value", NOTE)
    assert roster.units.get(id=unit.id).note == NOTE
    page.locator(f"#unit-{unit.id} input[name=note]").scroll_into_view_if_needed()
    shot(page, f"editor-note-{width}")
    page.goto(f"{site}/r/{roster.share_id}/")
    expect(page.locator(".unit-note")).to_have_text(f"Note: {NOTE}")
    box = page.locator(".unit-note").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width  # the note wraps inside a phone's screen
    shot(page, f"share-note-{width}")
