"""Games of loaded BattleScribe data, played through the pages as a player clicks them (Django's test client).

For each of Flames of War, Team Yankee, Konflikt '47, Battlegroup and the two Bolt Action 3rd edition sets
(loaded from ../shared with `load_battlescribe`; skipped where absent): the game is on the home page with
its revision, a roster is started from the home page's own choices, filled from the editor's own buttons
and choices until legal, becomes not legal when a compulsory entry is removed (saying which), is shared,
exported as .ros and imported back with the same points and verdict. Entry and group names are the data's
(the folder's .cat files; each game's README names the repository and commit).
"""

from __future__ import annotations

import io
import re
from contextlib import contextmanager
from io import StringIO
from pathlib import Path

import lxml.html
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from pypdf import PdfReader

from lists.models import BattleScribeDataSet, BattleScribeRoster
from lists.rosters import battlescribe_data_editing as editing

SHARED = Path(__file__).resolve().parents[2] / "shared"
HX = {"HTTP_HX_REQUEST": "true"}

# folder, army (catalogue), force, points limit, steps to a legal list, the compulsory selection removed,
# and the error that names what is then missing.
GAMES = [
    (
        "bsdata/flamesofwar",
        "Late-War - Bulge: American",
        "Standard",
        100,
        [("add", "M4 Sherman (Late) Tank Company"), ("add", "M18 Tank Destroyer Company")],
        "M4 Sherman (Late) Tank Company HQ (LU181)",
        "must have 1 more selections of 01. Formation HQ (Compulsory) (minimum 1)",
    ),
    (
        "bsdata/team-yankee",
        "NATO - America",
        "1) Main Force",
        100,
        [("add", "M1A1 Abrams Combat Team"), ("add", "M113 Mech Combat Team")],
        "M1A1 Abrams Combat Team HQ",
        "must have 1 more selections of M1A1 Abrams Combat Team HQ (minimum 1)",
    ),
    (
        "bsdata/konflikt47",
        "Finland",
        "Reinforced Platoon",
        1000,
        [("add", "Officer"), ("add", "Rifle Squad"), ("add", "Rifle Squad")],
        "Officer",
        "must have 1 more selections of Headquarters (minimum 1)",
    ),
    (
        "bsdata/battlegroup",
        "Kursk - German - Infantry Division",
        "Battlegroup",
        500,
        [("add", "Attack/Counter-Attack"), ("add", "Forward Observer Team"), ("add", "Panzer IV")],
        "Attack/Counter-Attack",
        "must have 1 more selections of Main Scenario (minimum 1)",
    ),
    (
        "community-data/ba3-afrika-korps",
        "Armies of Germany",
        "Army List",
        1000,
        [
            ("add", "Platoon Commander"),
            ("add", "Heer Infantry Squad"),
            ("choose", "Platoon Commander", "Experience", "Regular"),
            ("choose", "Heer Infantry Squad", "1. Unit Quality", "Regular"),
        ],
        "NCO",
        "must have 1 more selections of 2. NCO (minimum 1)",
    ),
    (
        "community-data/ba3-soviet-union",
        "Armies of the soviet union",
        "Rifle Platoon",
        1000,
        [
            ("add", "Platoon Commander"),
            ("add", "Rifle Squad"),
            ("add", "Rifle Squad"),
            ("choose", "Platoon Commander", "Veterancy", "Regular"),
        ],
        "Rifle Squad",
        "must have 1 more selections of Infantry Squad (minimum 2)",
    ),
]
IDS = [game[0].split("/")[1] for game in GAMES]


@contextmanager
def folders_loaded(folders, django_db_blocker):
    """The data folders of ../shared named, those there are, loaded; every data set and roster gone after."""
    with django_db_blocker.unblock():
        for folder in folders:
            if (SHARED / folder).is_dir():
                call_command("load_battlescribe", str(SHARED / folder), stdout=StringIO())
    yield
    with django_db_blocker.unblock():
        BattleScribeRoster.objects.all().delete()
        BattleScribeDataSet.objects.all().delete()


@pytest.fixture(scope="module")
def data_sets(django_db_setup, django_db_blocker):
    """Every data folder of ../shared there is, loaded once for the module."""
    with folders_loaded({game[0] for game in GAMES}, django_db_blocker):
        yield


def data_set_of(folder: str) -> BattleScribeDataSet:
    if not (SHARED / folder).is_dir():
        pytest.skip(f"no data at {SHARED / folder}")
    return BattleScribeDataSet.objects.get(source_folder__endswith=Path(folder).name)


def html(response) -> lxml.html.HtmlElement:
    assert response.status_code == 200, response.content[:500]
    return lxml.html.fromstring(response.content.decode())


def text(node) -> str:
    return " ".join(node.text_content().split())


class Player:
    """A player on the editor: each change is the form the page shows, sent as htmx sends it."""

    def __init__(self, client, edit_url: str) -> None:
        self.client = client
        self.edit_url = edit_url
        self.page = html(client.get(edit_url))

    def send(self, form, extra: list[tuple[str, str]] = ()) -> lxml.html.HtmlElement:
        values = [*sent(form), *extra]
        response = self.client.post(form.get("hx-post"), _as_data(values), **HX)
        self.page = html(response)
        problem = self.page.xpath("//*[@id='bs-problem']")
        assert not problem, text(problem[0])
        return self.page

    def add(self, name: str) -> None:
        button = next(
            b for b in self.page.xpath("//button[@class='offer']") if text(b.xpath("span[@class='name']")[0]) == name
        )
        form = next(button.iterancestors("form"))
        self.send(form, [("entry", button.get("value"))])

    def selection(self, name: str):
        return next(
            a
            for a in self.page.xpath("//article[contains(@class, 'bs-selection')]")
            if text(a.xpath("form/header/h3")[0]) == name
        )

    def choose(self, selection: str, legend: str, label: str) -> None:
        form = self.selection(selection).xpath("form")[0]
        fieldset = next(f for f in form.xpath(".//fieldset[@class='one-of']") if text(f.xpath("legend")[0]) == legend)
        radio = next(lab.xpath("input")[0] for lab in fieldset.xpath("label") if text(lab).startswith(label + " "))
        for other in form.xpath(f".//input[@name='{radio.get('name')}']"):
            other.checked = other is radio
        self.send(form)

    def remove(self, selection: str) -> None:
        self.send(self.selection(selection).xpath("form")[0], [("action", "remove")])

    def totals(self) -> str:
        return text(self.page.xpath("//*[@id='bs-totals']")[0])

    def shown_points(self) -> int | float:
        """The sum of the points shown on each force's head."""
        heads = self.page.xpath(
            "//section[contains(@class, 'bs-force')]/div[@class='force-head']/span[@class='points']"
        )
        return sum(float(text(h).split()[0]) for h in heads)


def sent(form) -> list[tuple[str, str]]:
    """What a browser sends of a form: every named input's value, boxes and radios only when ticked."""
    values = []
    for field in form.xpath(".//input[@name]"):
        if field.get("type") in ("checkbox", "radio") and field.get("checked") is None:
            continue
        values.append((field.get("name"), field.get("value", "on" if field.get("type") == "checkbox" else "")))
    return values


def _as_data(values: list[tuple[str, str]]) -> dict[str, list[str]]:
    data: dict[str, list[str]] = {}
    for name, value in values:
        data.setdefault(name, []).append(value)
    return data


def start(client, data_set: BattleScribeDataSet, army: str, force: str, limit: int) -> Player:
    """From the home page: the game listed, its army and force picked from the start form's own choices."""
    home = html(client.get("/"))
    listed = [text(item) for item in home.xpath("//*[@id='bs-game-list']/li")]
    assert any(item.startswith(f"{data_set.name} Revision {data_set.revision} ") for item in listed), listed
    form = home.xpath("//form[@action='/bs/new/']")[0]
    group = f"{data_set.name} (revision {data_set.revision})"
    army_value = _choice(form, "catalogue", group, army)
    force_value = _force_of(form, army_value, force)
    response = client.post(
        "/bs/new/", {"catalogue": army_value, "force": force_value, "name": f"{army} test", "points_limit": limit}
    )
    assert response.status_code == 302, response.content[:500]
    return Player(client, response["Location"])


def _force_of(form, army_value: str, label: str) -> str:
    """A force from the group of forces the army fields (the group the page's script keeps for that army)."""
    optgroup = next(g for g in form.xpath(".//select[@name='force']/optgroup") if g.get("data-army") == army_value)
    return next(o.get("value") for o in optgroup.xpath("option") if text(o) == label)


def _choice(form, name: str, group: str, label: str) -> str:
    optgroup = next(g for g in form.xpath(f".//select[@name='{name}']/optgroup") if g.get("label") == group)
    return next(o.get("value") for o in optgroup.xpath("option") if text(o) == label)


pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("folder", "army", "force", "limit", "steps", "compulsory", "missing"), GAMES, ids=IDS)
def test_a_player_builds_checks_shares_and_reimports_a_list(
    client, data_sets, folder, army, force, limit, steps, compulsory, missing
):
    data_set = data_set_of(folder)
    player = start(client, data_set, army, force, limit)
    for kind, *names in steps:
        getattr(player, kind)(*names)

    legal = player.totals()
    points = player.shown_points()
    assert points > 0
    assert re.fullmatch(rf"{points:g} / {limit} \S+ ·( .*)? Legal", legal), legal
    assert not player.page.xpath("//li[@class='finding error']")

    player.remove(compulsory)
    assert "Not legal" in player.totals()
    errors = [text(e) for e in player.page.xpath("//li[@class='finding error']")]
    assert f"Not legal: {missing}" in errors, errors
    verdict = player.totals()
    kept = BattleScribeRoster.objects.get()
    assert (kept.error_count > 0, f"{kept.points:g}") == (True, verdict.split()[0])

    share_link = html(client.get(player.edit_url)).xpath("//*[@id='share-link']")[0].get("value")
    share_path = "/" + share_link.split("/", 3)[3]
    shared = html(client.get(share_path))
    assert text(shared.xpath("//*[@id='bs-totals']")[0]) == re.sub(r" \(\d+ problems?\)$", "", verdict)
    assert missing in text(shared)
    assert not shared.xpath("//form[contains(@action, '/change/')]")  # read-only: no editing form

    ros = client.get(share_path + "roster.ros")
    assert ros.status_code == 200 and ros["Content-Disposition"].endswith('.ros"')
    upload = SimpleUploadedFile("exported.ros", ros.content)
    imported = client.post("/rosters/import/", {"file": upload})
    assert imported.status_code == 302 and imported["Location"].startswith("/bs/e/")
    again = Player(client, imported["Location"])
    assert again.totals() == verdict
    copy = BattleScribeRoster.objects.exclude(pk=kept.pk).get()
    assert (copy.points, copy.error_count, copy.data_set_id) == (kept.points, kept.error_count, kept.data_set_id)


def konflikt_player(client) -> Player:
    data_set = data_set_of("bsdata/konflikt47")
    return start(client, data_set, "Finland", "Reinforced Platoon", 1000)


def test_the_game_page_lists_its_armies_with_their_forces(client, data_sets):
    data_set = data_set_of("bsdata/konflikt47")
    page = html(client.get(f"/games/data/{data_set.pk}/"))
    assert text(page.xpath("//h1")[0]) == data_set.name
    assert f"revision {data_set.revision}" in text(page.xpath("//p[@class='meta']")[0])
    armies = {text(item.xpath("strong")[0]): text(item) for item in page.xpath("//*[@id='bs-books']/li")}
    assert "Reinforced Platoon" in armies["Finland"]


def test_a_battlescribe_games_pages_do_not_call_its_rule_texts_our_summaries(client, data_sets):
    """The data's rules are the community's texts: only our packs' rule texts are summaries."""
    data_set = data_set_of("bsdata/konflikt47")
    footer = text(html(client.get(f"/games/data/{data_set.pk}/")).xpath("//footer[@class='site']")[0])
    assert footer == "Game data and rule texts from the game's BattleScribe data, as its community wrote them."
    home = text(html(client.get("/")).xpath("//footer[@class='site']")[0])
    assert "rule texts are summaries" in home  # the packs' pages keep saying so


def test_a_force_of_another_game_is_refused_saying_so(client, data_sets):
    konflikt = data_set_of("bsdata/konflikt47")
    other = data_set_of("community-data/ba3-soviet-union")
    army = konflikt.catalogues.get(name="Finland")
    force = other.battlescribeforce_set.filter(parent=None).first()
    response = client.post(
        "/bs/new/", {"catalogue": f"{konflikt.pk}:{army.catalogue_id}", "force": f"{other.pk}:{force.bs_id}"}
    )
    assert response.status_code == 400
    assert f"Choose a force of {konflikt.name}: the force chosen is another game" in response.content.decode()
    assert not BattleScribeRoster.objects.exists()


def test_an_entry_the_force_does_not_offer_changes_nothing_and_says_why(client, data_sets):
    player = konflikt_player(client)
    player.add("Officer")
    before = BattleScribeRoster.objects.get()
    form = player.page.xpath("//form[contains(@class, 'bs-offers')]")[0]
    response = client.post(form.get("hx-post"), _as_data([*sent(form), ("entry", "no-such-entry")]), **HX)
    problem = html(response).xpath("//*[@id='bs-problem']")
    assert "Reinforced Platoon offers no entry no-such-entry now: pick one of those listed." in text(problem[0])
    after = BattleScribeRoster.objects.get()
    assert (after.version, after.points) == (before.version, before.points)


def test_a_change_from_a_stale_page_is_not_saved_and_says_so(client, data_sets):
    player = konflikt_player(client)
    stale = player.page
    player.add("Officer")
    points = BattleScribeRoster.objects.get().points
    player.page = stale  # a second tab, opened before the Officer was added
    response = client.post(
        stale.xpath("//form[contains(@class, 'bs-offers')]")[0].get("hx-post"),
        _as_data(
            [*sent(stale.xpath("//form[contains(@class, 'bs-offers')]")[0]), ("entry", _offer(stale, "Rifle Squad"))]
        ),
        **HX,
    )
    page = html(response)
    assert "this roster was changed elsewhere" in text(page.xpath("//*[@id='bs-conflict']")[0])
    assert BattleScribeRoster.objects.get().points == points


def _offer(page, name: str) -> str:
    return next(b.get("value") for b in page.xpath("//button[@class='offer']") if text(b.xpath("span")[0]) == name)


def test_counts_step_and_a_roster_read_back_takes_new_selections_under_ids_of_its_own(client, data_sets):
    player = konflikt_player(client)
    player.add("Rifle Squad")
    squad = player.selection("Rifle Squad")
    form = squad.xpath("form")[0]
    soldiers = next(i for i in form.xpath(".//input[@type='number']") if "Soldier with Rifle" in text(i.getparent()))
    before = float(player.totals().split()[0])
    soldiers.set("value", str(int(soldiers.get("value")) + 2))
    player.send(form)
    assert float(player.totals().split()[0]) > before
    editing.RECENT.clear()  # the next edit reads the roster back from its XML, as another process would
    player.add("Rifle Squad")
    player.add("Officer")
    kept = BattleScribeRoster.objects.get()
    ids = re.findall(r'<(?:selection|force) id="([^"]+)"', kept.ros_xml)
    assert len(ids) == len(set(ids)) and len(player.page.xpath("//article[contains(@class, 'bs-selection')]")) > 3


def test_a_shared_roster_is_copied_and_read_as_text(client, data_sets):
    player = konflikt_player(client)
    player.add("Officer")
    kept = BattleScribeRoster.objects.get()
    listing = client.get(f"/bs/r/{kept.share_id}/roster.txt").content.decode()
    assert listing.startswith(f"Finland test ({kept.data_set.name} revision {kept.data_set.revision}): NOT legal")
    assert "Officer [50]" in listing
    copied = client.post(f"/bs/r/{kept.share_id}/copy/")
    assert copied.status_code == 302 and copied["Location"].startswith("/bs/e/")
    copy = BattleScribeRoster.objects.exclude(pk=kept.pk).get()
    assert (copy.name, copy.points, copy.data_set_id) == ("Copy of Finland test", kept.points, kept.data_set_id)
    mine = client.get("/rosters/mine/").content.decode()
    assert "Copy of Finland test" in mine and "Finland test" in mine


def test_a_roster_stays_on_its_revision_and_says_when_a_newer_one_is_loaded(client, data_sets, tmp_path):
    player = konflikt_player(client)
    player.add("Officer")
    kept = BattleScribeRoster.objects.get()
    newer = tmp_path / "konflikt47"
    newer.mkdir()
    for source in (SHARED / "bsdata" / "konflikt47").iterdir():
        content = source.read_bytes()
        if source.suffix == ".gst":  # the same data as a later revision of the game system
            content = content.replace(b'revision="3"', b'revision="4"', 1)
        (newer / source.name).write_bytes(content)
    call_command("load_battlescribe", str(newer), stdout=StringIO())

    page = html(client.get(player.edit_url))
    notice = page.xpath("//*[@id='newer-data']")[0]
    assert text(notice.xpath("h2")[0]) == f"Newer data loaded: {kept.data_set.name} revision 4 (was 3)"
    assert "This roster stays on revision 3, priced as it was built, until it is moved." in text(notice)
    assert "None of this roster's units change in cost or entries." in text(notice)
    assert BattleScribeRoster.objects.get().data_set_id == kept.data_set_id


def test_settings_share_one_card_and_every_unit_has_its_own(client, data_sets):
    player = konflikt_player(client)
    player.add("Officer")
    player.add("Rifle Squad")
    kept = BattleScribeRoster.objects.get()
    response = client.get(f"/bs/r/{kept.share_id}/cards.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF"), response.content[:300]
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.content)).pages]
    # The roster card (its share link as a QR code) first; the force's order dice count prints nothing of its own:
    # it is a line of the settings card, not a card.
    assert len(pages) == 4, pages
    assert "Scan to open this roster" in pages[0]
    assert "Roster settings" in pages[1] and re.search(r"Selections: Order Dice: \d+ ", pages[1]), pages[1]
    assert "Order Dice" not in " ".join(pages[2:])
    assert [("Officer" in page, "Rifle Squad" in page) for page in pages[2:]] == [(True, False), (False, True)]


def test_a_player_names_and_notes_a_unit_and_the_share_page_the_ros_and_the_cards_keep_them(client, data_sets):
    player = konflikt_player(client)
    player.add("Rifle Squad")
    form = player.selection("Rifle Squad").xpath("details/form[contains(@class, 'bs-customise')]")[0]
    player.send(form, [("custom_name", "Lahti's section"), ("custom_notes", "Holds the farm <b>")])
    kept = BattleScribeRoster.objects.get()

    shared = html(client.get(f"/bs/r/{kept.share_id}/"))
    squad = next(a for a in shared.xpath("//article[contains(@class, 'bs-selection')]") if "Rifle Squad" in text(a))
    assert "“Lahti's section”" in text(squad) and "Note: Holds the farm <b>" in text(squad)  # shown as text, escaped
    ros = client.get(f"/bs/r/{kept.share_id}/roster.ros").content.decode()
    assert 'customName="Lahti\'s section"' in ros and "<customNotes>Holds the farm &lt;b&gt;</customNotes>" in ros
    cards = " ".join(
        # After the roster card and the settings card.
        PdfReader(io.BytesIO(client.get(f"/bs/r/{kept.share_id}/cards.pdf").content)).pages[2].extract_text().split()
    )
    assert "Lahti's section" in cards and "Holds the farm <b>" in cards

    too_long = player.selection("Rifle Squad").xpath("details/form[contains(@class, 'bs-customise')]")[0]
    response = client.post(too_long.get("hx-post"), _as_data([*sent(too_long), ("custom_name", "x" * 121)]), **HX)
    assert "A unit's name is at most 120 characters" in text(html(response).xpath("//*[@id='bs-problem']")[0])
    assert BattleScribeRoster.objects.get().version == kept.version
