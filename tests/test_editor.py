"""The roster editor: start, add and change units, live findings, stale pages, secrets."""

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lists.gamedata.loading import game_data, priced_house_rules, roster_snapshot
from lists.gamedata.packs import load_all
from lists.models import Army, Roster, RosterUnit, UnitType
from lists.rosters.files import dump_json, export_roster, load_roster_file
from lists.rosters.sharing import hash_secret
from lists.rules.verdict import judge

FIXTURE = Path(__file__).parent / "fixtures" / "packs" / "skirmish"


@pytest.fixture
def loaded(db, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "skirmish")
    load_all(tmp_path)


@pytest.fixture
def edit_url(client, loaded) -> str:
    """Start a roster as a player would and return its secret edit link."""
    army = Army.objects.get(key="blue")
    response = client.post(
        "/rosters/new/", {"army": army.id, "name": "Test platoon", "points_limit": "120", "year": "1944"}
    )
    assert response.status_code == 302
    return response["Location"]


def version(html: str) -> str:
    return re.search(r'name="version" value="(\d+)"', html).group(1)


def add(client, edit_url: str, key: str, htmx: bool = False):
    page = client.get(edit_url).content.decode()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    unit_type = UnitType.objects.get(key=key)
    return client.post(f"{edit_url}units/", {"unit_type": unit_type.id, "version": version(page)}, **headers)


def test_starting_a_roster_gives_a_secret_edit_link_stored_only_as_a_hash(client, edit_url):
    secret = edit_url.strip("/").split("/")[-1]
    roster = Roster.objects.get()

    assert len(secret) >= 40
    assert roster.edit_secret_hash == hash_secret(secret)
    assert secret not in str(Roster.objects.values().get())
    assert len(roster.share_id) >= 16  # at least 96 bits in URL-safe base64


def test_the_editor_shows_the_empty_roster_and_its_missing_compulsory_choices(client, edit_url):
    html = client.get(edit_url).content.decode()

    assert "Test platoon" in html
    assert "0 / 120 pts" in html
    assert "Not legal" in html
    assert "needs at least 1 Officer" in html
    assert 'href="/games/skirmish/#org-platoon">Rule: Platoon</a>' in html


def test_adding_units_without_javascript_redirects_back_to_the_editor(client, edit_url):
    response = add(client, edit_url, "lieutenant")

    assert response.status_code == 302
    assert RosterUnit.objects.get().unit_type.key == "lieutenant"


def set_year(client, edit_url: str, year: int | str) -> None:
    """Set the roster's year through the settings form, as a player would."""
    page = client.get(edit_url).content.decode()
    roster = Roster.objects.get()
    fields = {"version": version(page), "name": roster.name, "points_limit": roster.points_limit, "year": year}
    assert client.post(f"{edit_url}settings/", fields).status_code == 302


def test_a_roster_of_a_game_with_war_periods_asks_for_one(client, edit_url):
    assert "no year or war period" not in client.get(edit_url).content.decode()  # started in 1944

    set_year(client, edit_url, "")
    html = client.get(edit_url).content.decode()
    assert "The roster has no year or war period" in html

    set_year(client, edit_url, 1944)
    html = client.get(edit_url).content.decode()
    assert "no year or war period" not in html


def test_a_finding_appears_and_disappears_as_the_roster_changes(client, edit_url):
    set_year(client, edit_url, 1944)  # the test game has war periods (else period.missing)
    add(client, edit_url, "lieutenant")
    response = add(client, edit_url, "rifle-squad", htmx=True)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="roster"')  # the fragment, not the page
    assert "100 / 120 pts" in html  # Regular lieutenant 50 + squad 50
    assert "Legal" in html and "Not legal" not in html

    add(client, edit_url, "rifle-squad")
    html = client.get(edit_url).content.decode()
    assert "150 / 120 pts" in html
    assert "30 over its limit of 120" in html
    assert "Remove units or options, or raise the points limit." in html

    squad = RosterUnit.objects.filter(unit_type__key="rifle-squad").last()
    client.post(f"{edit_url}units/{squad.id}/remove/", {"version": version(html)})
    html = client.get(edit_url).content.decode()
    assert "over its limit" not in html


def test_changing_a_units_quality_and_options_updates_its_points(client, edit_url):
    add(client, edit_url, "lieutenant")
    add(client, edit_url, "rifle-squad")
    squad = RosterUnit.objects.get(unit_type__key="rifle-squad")
    officer = RosterUnit.objects.get(unit_type__key="lieutenant")
    page = client.get(edit_url).content.decode()

    client.post(f"{edit_url}units/{officer.id}/", {"label": "Lt Grey", "quality": "veteran", "version": version(page)})
    page = client.get(edit_url).content.decode()
    response = client.post(
        f"{edit_url}units/{squad.id}/",
        {"label": "First Squad", "option-extra-man": "2", "version": version(page)},
        HTTP_HX_REQUEST="true",
    )

    html = response.content.decode()
    # Only the edited unit comes back whole; the others' points and the summary are swapped out of band.
    assert f'id="unit-{squad.id}"' in html and f'id="unit-{officer.id}"' not in html
    assert "First Squad" in html and "70 pts" in html
    assert f'id="unit-{officer.id}-points" hx-swap-oob="true"><span class="points">65 pts' in html
    assert "135 / 120 pts" in html
    assert "Lt Grey" in client.get(edit_url).content.decode()


def test_an_edit_from_a_stale_page_is_refused_with_the_newer_state(client, edit_url):
    add(client, edit_url, "lieutenant")
    stale = client.get(edit_url).content.decode()
    officer = RosterUnit.objects.get()
    # Another tab renames the officer first.
    client.post(f"{edit_url}units/{officer.id}/", {"label": "From tab one", "version": version(stale)})

    response = client.post(f"{edit_url}units/{officer.id}/", {"label": "From tab two", "version": version(stale)})

    assert response.status_code == 409
    html = response.content.decode()
    assert "changed elsewhere" in html
    assert "From tab one" in html
    assert RosterUnit.objects.get().label == "From tab one"


def test_bad_unit_input_gets_a_message_and_changes_nothing(client, edit_url):
    add(client, edit_url, "rifle-squad")
    squad = RosterUnit.objects.get()
    page = client.get(edit_url).content.decode()

    response = client.post(
        f"{edit_url}units/{squad.id}/", {"size": "lots", "quality": "elite", "version": version(page)}
    )

    assert response.status_code == 400
    html = response.content.decode()
    assert "Enter a whole number." in html
    assert "&#x27;elite&#x27; is not a troop quality of Skirmish Test Rules." in html
    assert 'aria-invalid="true"' in html
    assert RosterUnit.objects.get().size is None


def test_adding_a_unit_from_another_army_is_refused(client, edit_url, loaded):
    page = client.get(edit_url).content.decode()

    response = client.post(f"{edit_url}units/", {"unit_type": "999999", "version": version(page)})

    assert response.status_code == 400
    assert not RosterUnit.objects.exists()


def test_a_wrong_edit_secret_is_not_found(client, edit_url):
    assert client.get("/e/not-the-secret/").status_code == 404
    assert client.post("/e/not-the-secret/units/", {"unit_type": "1", "version": "1"}).status_code == 404


def test_the_share_link_shows_the_roster_but_cannot_edit_it(client, edit_url):
    add(client, edit_url, "lieutenant")
    roster = Roster.objects.get()
    share = f"/r/{roster.share_id}/"

    response = client.get(share)

    html = response.content.decode()
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "Lieutenant" in html
    assert 'name="version"' not in html  # no edit forms
    assert edit_url not in html
    assert client.post(f"{share}units/", {"unit_type": "1"}).status_code == 404


def test_the_share_page_shows_each_edit_at_once(client, edit_url):
    add(client, edit_url, "lieutenant")
    roster = Roster.objects.get()
    share = f"/r/{roster.share_id}/"
    assert "Lieutenant" in client.get(share).content.decode()
    officer = RosterUnit.objects.get()
    page = client.get(edit_url).content.decode()

    client.post(f"{edit_url}units/{officer.id}/", {"label": "Captain Renamed", "version": version(page)})

    assert "Captain Renamed" in client.get(share).content.decode()


def test_my_rosters_lists_the_rosters_started_on_this_device(client, edit_url):
    html = client.get("/rosters/mine/").content.decode()

    assert "Test platoon" in html
    assert edit_url in html


def test_forms_are_refused_without_a_csrf_token(loaded):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    army = Army.objects.get(key="blue")

    assert strict.post("/rosters/new/", {"army": army.id}).status_code == 403
    assert not Roster.objects.exists()


# --- one validation for every way in (issue 9, item 10) ---------------------------------

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EDITS = settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def import_example(client, name: str) -> str:
    response = client.post("/rosters/import/", {"text": (EXAMPLES / name).read_text()})
    assert response.status_code == 302
    return response["Location"]


def round_trip(roster: Roster) -> tuple[dict, dict, int, int]:
    """The saved roster's export, that export re-imported and exported again, and both totals."""
    snapshot = roster_snapshot(roster)
    document = export_roster(snapshot)
    again = load_roster_file(dump_json(document).encode(), "roster.json").snapshot()
    return document, export_roster(again), judge(snapshot).points, judge(again).points


def unit_values(data, unit_type, labels: list[str], unit_ids: list[int], house_rules):
    """One or two fields of a unit's form: good values, values just past the limits, and junk."""
    junk = st.sampled_from(["", "lots", "-1", "0", "1", "10", "101", "999", "on", "elite", " 3 "])
    fields = {
        "label": st.one_of(st.sampled_from(labels), st.text(max_size=8), st.just("")),
        "quality": st.one_of(st.sampled_from([*unit_type.quality_prices, *data.system.qualities, ""]), junk),
        "size": st.one_of(st.integers(-2, 120).map(str), junk),
        "officer_rank": st.one_of(st.sampled_from([*data.system.ranks, ""]), junk),
        "transport": st.one_of(st.sampled_from([str(i) for i in unit_ids] + [""]), junk),
        "hero_points": st.one_of(st.integers(-1, 60).map(str), junk),
    }
    for key, option in unit_type.options.items():
        most = option.max or 3
        fields[f"option-{key}"] = st.one_of(st.integers(-1, most + 5).map(str), st.sampled_from(["on", ""]), junk)
    for rule in house_rules:
        fields[f"house_rule-{rule.id}"] = st.one_of(st.integers(-1, 102).map(str), junk)
    # Options are what most often went wrong: they are drawn as often as all the other fields together.
    options = sorted(name for name in fields if name.startswith("option-"))
    names = sorted(fields) + options * max(1, (len(fields) - len(options)) // max(1, len(options)))
    return st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries({name: fields[name] for name in chosen})
    )


class UnitFormValues(HTMLParser):
    """The values a browser would post from one unit's form on the editor page, as the page shows them."""

    def __init__(self, action: str):
        super().__init__()
        self.action, self.inside, self.select, self.values = action, False, None, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("action") == self.action
        elif self.inside and tag == "input" and attrs.get("name"):
            if attrs.get("type") != "checkbox" or "checked" in attrs:
                self.values[attrs["name"]] = attrs.get("value", "on")
        elif self.inside and tag == "select":
            self.select = attrs["name"]
        elif (
            self.inside and tag == "option" and self.select and ("selected" in attrs or self.select not in self.values)
        ):
            self.values[self.select] = attrs.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def form_values(html: str, action: str) -> dict:
    parser = UnitFormValues(action)
    parser.feed(html)
    return {name: value for name, value in parser.values.items() if name != "csrfmiddlewaretoken"}


@pytest.mark.timeout(360)  # 100 random edits per example, each saved, exported and read back
@pytest.mark.usefixtures("real_packs")
@pytest.mark.parametrize(
    "example", ["bolt-action-2e.yaml", "action-all-fronts.yaml", "heroes-all.yaml", "rapid-fire-house-rules.yaml"]
)
def test_every_state_the_editor_saves_exports_and_reimports_to_the_same_roster_and_points(db, client, example):
    """Issue 9 item 10: the editor's forms and roster files share one validation.

    Random form posts (good values, values past the limits, junk) are either refused with a 400
    or saved; whatever is saved exports, re-imports to the same roster and points, and can be copied.
    """
    edit_url = import_example(client, example)
    roster = Roster.objects.get(edit_secret_hash=hash_secret(edit_url.strip("/").split("/")[-1]))
    data = game_data(roster.system)
    units = list(roster.units.order_by("position", "id"))
    labels = [unit.label for unit in units]
    unit_ids = [unit.id for unit in units]
    house_rules = list(priced_house_rules())

    @EDITS
    @given(st.data())
    def edit_and_check(draw):
        position = draw.draw(st.integers(0, len(units) - 1))
        unit = units[position]
        changes = draw.draw(unit_values(data, data.unit_types[unit.unit_type_id], labels, unit_ids, house_rules))
        action = f"{edit_url}units/{unit.id}/"
        values = {**form_values(client.get(edit_url).content.decode(), action), **changes}
        response = client.post(action, values)
        assert response.status_code in {302, 400}, response.content.decode()[:2000]
        roster.refresh_from_db()
        document, again, points, points_again = round_trip(roster)
        assert again == document
        assert points_again == points
        assert client.post(f"/r/{roster.share_id}/copy/").status_code == 302

    edit_and_check()


@pytest.mark.usefixtures("real_packs")
def test_an_option_past_its_maximum_is_refused_on_its_field_and_not_saved(db, client):
    """Issue 11: 50 anti-tank grenades where the maximum is 10 is said, not silently kept or dropped."""
    edit_url = import_example(client, "bolt-action-2e.yaml")
    section = RosterUnit.objects.get(label="1st Section")
    page = client.get(edit_url).content.decode()

    response = client.post(
        f"{edit_url}units/{section.id}/",
        {
            "label": "1st Section",
            "quality": "regular",
            "size": "10",
            "option-anti-tank-grenades": "50",
            "version": version(page),
        },
    )

    html = response.content.decode()
    assert response.status_code == 400
    field = re.search(r'<input[^>]*name="option-anti-tank-grenades"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field
    assert 'max="10"' in field and 'value="50"' in field  # the refused value stays, for the player to fix
    error_id = re.search(r'aria-describedby="([^"]+)"', field).group(1)
    assert re.search(rf'id="{error_id}">Anti-tank grenades may be taken at most 10 times, not 50.', html)
    assert not section.chosen_options.filter(option__key="anti-tank-grenades").exists()


@pytest.mark.usefixtures("real_packs")
def test_a_roster_file_with_an_option_bought_past_its_maximum_is_refused_with_the_same_message(db, client):
    text = (
        (EXAMPLES / "bolt-action-2e.yaml")
        .read_text()
        .replace("options: [Light machine gun]", "options: [{option: Light machine gun, count: 5}]", 1)
    )

    response = client.post("/rosters/import/", {"text": text})

    assert response.status_code == 400
    assert "units.1.options.0: Light machine gun may be taken at most once, not 5." in response.content.decode()
    assert text.split("\n")[5] in response.content.decode()  # the pasted text is kept


# --- the editor tells the player what things cost and when the roster is set (issue 11) -------------


def start_german(client, **when) -> str:
    army = Army.objects.get(system__key="action-all-fronts", key="german")
    response = client.post("/rosters/new/", {"army": army.id, "name": "Kampfgruppe", **when})
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"]


@pytest.mark.usefixtures("real_packs")
def test_a_game_with_war_periods_asks_for_the_year_or_period_when_the_roster_is_started(db, client):
    army = Army.objects.get(system__key="action-all-fronts", key="german")

    refused = client.post("/rosters/new/", {"army": army.id, "name": "Kampfgruppe"})

    html = refused.content.decode()
    assert refused.status_code == 400
    year = re.search(r'<input[^>]*name="year"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in year and 'aria-describedby="id_year_error"' in year
    assert 'id="id_year_error">Action All Fronts rosters are set in a year or a period' in html
    assert not Roster.objects.exists()
    assert "Middle war" in client.get(start_german(client, period="mid")).content.decode()
    assert (
        '<strong class="when">1943 (Middle war)</strong>'
        in client.get(start_german(client, year="1943")).content.decode()
    )


@pytest.mark.usefixtures("real_packs")
def test_a_period_cost_change_and_a_percentage_option_are_priced_on_the_unit(db, client):
    """Action All Fronts 25 (Tanks): a late war tank costs double in a mid war game; the German
    Panzer Attack rule adds 20% to the unit's cost. Tiger 2: 856 points, entered service 1944."""
    edit_url = start_german(client, year="1943")
    add_named(client, edit_url, "Tiger 2")

    html = client.get(edit_url).content.decode()

    assert ">1712 pts<" in html  # 856 × 2
    assert "Late war AFV in 1943 (Middle war): ×2" in html
    assert 'Panzer Attack <span class="cost">(+342 pts, +20%)</span>' in html  # 20% of 1712, rounded


@pytest.mark.usefixtures("real_packs")
def test_the_unit_list_shows_slot_usage_points_for_the_period_and_marks_units_out_of_period(db, client):
    """Action All Fronts 25: a mid war tank costs double in an early war game; late war tanks cannot be used."""
    edit_url = start_german(client, year="1941")
    usage = re.compile(r'<h3>AFV <span class="usage"[^>]*>([\d.]+) of (?:up to |[\d]+–)?(\d+)</span></h3>')
    assert usage.search(client.get(edit_url).content.decode()).group(1) == "0"
    add_named(client, edit_url, "Pz IVC")

    html = client.get(edit_url).content.decode()
    picker = html[html.index('id="picker"') : html.index("</form>", html.index('id="picker"'))]
    assert usage.search(picker).group(1) != "0"  # the tank now fills (part of) the slot

    tiger_2 = re.search(r'<span class="name">Tiger 2</span>.*?</button>', picker, re.S).group(0)
    assert "not in this period: from 1944" in tiger_2
    tiger_1 = re.search(r'<span class="name">Tiger I</span>.*?</button>', picker, re.S).group(0)
    assert "1272 pts" in tiger_1 and "not in this period" not in tiger_1  # 636 × 2


@pytest.mark.usefixtures("real_packs")
def test_settings_show_their_names_not_their_keys(db, client):
    html = client.get(start_german(client, year="1944")).content.decode()

    assert '<option value="per-2000" selected>2 per 2,000 points or part of 2,000</option>' in html
    assert ">per-2000<" not in html
    assert 'placeholder="no limit"' in html


def add_named(client, edit_url: str, name: str):
    roster = Roster.objects.get(edit_secret_hash=hash_secret(edit_url.strip("/").split("/")[-1]))
    unit_type = UnitType.objects.get(system=roster.system, army=roster.army, name=name)
    return client.post(f"{edit_url}units/", {"unit_type": unit_type.id, "version": roster.version})


@pytest.mark.usefixtures("real_packs")
def test_bought_house_rules_are_priced_lines_in_the_editor(db, client):
    """Rapid Fire house rules: a field telephone costs 15 points."""
    html = client.get(import_example(client, "rapid-fire-house-rules.yaml")).content.decode()

    lines = html[html.index('id="house-rules-heading"') :]
    assert re.search(r"<li>Field telephones <span class=\"points\">15 pts</span></li>", lines)


@pytest.mark.usefixtures("real_packs")
def test_each_unit_on_the_share_page_opens_to_its_stats_and_weapon_profiles(db, client):
    """Action All Fronts: the rifle's power is 3 (weapons table); a Company HQ is named once, not twice."""
    import_example(client, "action-all-fronts.yaml")
    roster = Roster.objects.get()

    html = client.get(f"/r/{roster.share_id}/").content.decode()

    assert html.count('<details class="lookup"><summary>Stats and weapons</summary>') == roster.units.count()
    assert re.search(r'<th scope="row">Rifle</th><td>24</td><td>3</td>', html)
    assert "Company HQ · Company HQ" not in html


def test_without_javascript_a_removal_can_be_undone_and_a_unit_duplicated(client, edit_url):
    add(client, edit_url, "lieutenant")
    add(client, edit_url, "rifle-squad")
    squad = RosterUnit.objects.get(unit_type__key="rifle-squad")
    page = client.get(edit_url).content.decode()
    client.post(
        f"{edit_url}units/{squad.id}/", {"label": "First Squad", "option-extra-man": "2", "version": version(page)}
    )

    removed = client.post(
        f"{edit_url}units/{squad.id}/remove/", {"version": version(client.get(edit_url).content.decode())}
    )
    assert removed.status_code == 302 and removed["Location"].endswith("#undo")
    page = client.get(edit_url).content.decode()
    assert "Removed First Squad." in page and not RosterUnit.objects.filter(label="First Squad").exists()

    assert client.post(f"{edit_url}undo/", {"version": version(page)}).status_code == 302
    squad = RosterUnit.objects.get(label="First Squad")
    assert squad.chosen_options.get().count == 2  # back with its options
    assert "Removed First Squad." not in client.get(edit_url).content.decode()

    page = client.get(edit_url).content.decode()
    assert client.post(f"{edit_url}units/{squad.id}/duplicate/", {"version": version(page)}).status_code == 302
    assert list(Roster.objects.get().units.order_by("position").values_list("label", flat=True)) == [
        "Lieutenant",
        "First Squad",
        "First Squad 2",
    ]
    assert ">70 pts<" in client.get(edit_url).content.decode().split("First Squad 2")[1]  # 50 + 2 × 10, copied


def test_copying_a_roster_saved_before_the_checks_answers_400_not_500(client, edit_url):
    add(client, edit_url, "rifle-squad")
    squad = RosterUnit.objects.get()
    option = squad.unit_type.options.get(key="extra-man")
    squad.chosen_options.create(option=option, count=9)  # over its maximum of 5, as older versions let through

    response = client.post(f"/r/{Roster.objects.get().share_id}/copy/")

    assert response.status_code == 400
    assert "Extra rifleman may be taken at most 5 times, not 9." in response.content.decode()
    assert Roster.objects.count() == 1


@pytest.mark.usefixtures("real_packs")
def test_a_number_setting_past_its_limit_is_refused_in_the_editor_and_in_a_file_alike(db, client):
    edit_url = import_example(client, "bolt-action-2e.yaml")
    roster = Roster.objects.get()
    page = client.get(edit_url).content.decode()
    field = re.search(r'<input[^>]*name="setting-max-order-dice"[^>]*>', page).group(0)
    assert 'max="100000"' in field

    posted = {"name": roster.name, "version": version(page)}
    response = client.post(f"{edit_url}settings/", {**posted, "setting-max-order-dice": "100001"})
    text = (EXAMPLES / "bolt-action-2e.yaml").read_text().replace("max-order-dice: 12", "max-order-dice: 100001")

    assert response.status_code == 400
    assert "Maximum order dice must be a whole number from 0 to 100,000." in response.content.decode()
    assert Roster.objects.get().settings["max-order-dice"] == 12
    refused = client.post("/rosters/import/", {"text": text})
    assert (
        "settings.max-order-dice: Maximum order dice must be a whole number from 0 to 100,000."
        in refused.content.decode()
    )
