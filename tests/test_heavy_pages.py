"""The pages that cost most stay cheap and fair: a 400-unit roster's editor builds only the units shown open,
with a fixed number of SQL queries, and a client asking for costly pages over and over is told to wait (429)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lists.models import RosterUnit
from lists.rosters.files import MAX_UNITS
from tests.test_hostile_editing import imported, loaded  # noqa: F401 - the skirmish pack, as a fixture

pytestmark = pytest.mark.usefixtures("empty_cache")


def unit_forms(html: str) -> list[str]:
    """The unit ids whose edit form the page holds."""
    return re.findall(r'<form method="post" action="/e/[^/]+/units/(\d+)/" ', html)


def test_a_400_unit_rosters_editor_folds_its_units_with_a_fixed_number_of_queries(client, loaded):  # noqa: F811
    edit_url = imported(client, MAX_UNITS)
    units = list(RosterUnit.objects.order_by("id").values_list("id", flat=True))

    with CaptureQueriesContext(connection) as queries:
        page = client.get(edit_url)

    assert page.status_code == 200
    assert len(queries) <= 20  # the same budget whatever the roster's size
    html = page.content.decode()
    assert unit_forms(html) == []  # every unit folded: its name, points and findings, and a link that opens it
    assert f'href="{edit_url}?unit={units[123]}#unit-{units[123]}"' in html
    assert html.count('class="open-unit"') == MAX_UNITS


def test_opening_a_unit_of_a_large_roster_shows_its_form_and_only_its_own(client, loaded):  # noqa: F811
    edit_url = imported(client, MAX_UNITS)
    unit = RosterUnit.objects.order_by("id")[123]

    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"{edit_url}?unit={unit.id}")

    html = page.content.decode()
    assert unit_forms(html) == [str(unit.id)]
    assert re.search(rf'<article [^>]*id="unit-{unit.id}".*?<details class="unit-details" open>', html, re.S)
    assert len(queries) <= 20


def test_a_small_rosters_editor_still_shows_every_units_form(client, loaded):  # noqa: F811
    edit_url = imported(client, 3)

    assert len(unit_forms(client.get(edit_url).content.decode())) == 3


@pytest.mark.parametrize("page", ["editor", "share page", "cards"])
@pytest.mark.usefixtures("one_rate_window")
def test_a_client_asking_for_a_costly_page_too_often_is_told_to_wait_others_are_not(client, loaded, settings, page):  # noqa: F811
    edit_url = imported(client, 2)
    share = client.get(edit_url).content.decode()
    share_url = re.search(r'href="(/r/[^/"]+/)"', share).group(1)
    url = {"editor": edit_url, "share page": share_url, "cards": f"{share_url}cards.pdf"}[page]
    settings.PAGE_RATE = "3/m"

    answers = [client.get(url).status_code for _ in range(3)]
    refused = client.get(url)

    assert 429 not in answers
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "Too many requests" in refused.content.decode()  # the project's page, not a bare error
    assert client.get(url, REMOTE_ADDR="203.0.113.9").status_code != 429  # another client is served


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_the_organisers_page_reads_each_lists_verdict_stored_at_submission_never_judging_on_a_get(client, monkeypatch):
    from django.core.cache import cache

    from lists.events import submitting
    from tests.test_events import three_players

    organiser, _, _ = three_players(client)
    cache.clear()  # a cold cache (a restart, an eviction): the verdicts are kept with the submissions
    judged = []
    monkeypatch.setattr(submitting, "check", lambda *args: judged.append(args) or pytest.fail("judged on a GET"))

    page = client.get(organiser)

    assert page.status_code == 200 and judged == []
    html = page.content.decode()
    assert all(player in html for player in ("Anna", "Ben", "Cleo"))
    assert "Not legal" in html or "not legal" in html  # Ben's list is over the points, as judged when submitted
