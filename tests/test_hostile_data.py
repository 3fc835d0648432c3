"""Hostile BattleScribe data: refused whole by load_battlescribe, naming the file and the id, and never
able to hang or crash the engine when it reaches it another way.

Each test builds a small data folder in tmp_path (a game system and one catalogue written here, after
the suite's data-model document) with one hostile element; one test injects a cycle into a copy of a
real catalogue of ../shared (skipped where absent), and the real games must pass every check.
"""

import shutil
import time
from io import StringIO
from pathlib import Path

import lxml.html
import pytest
from django.core.management import CommandError, call_command
from lxml import etree

from armybuilder.middleware import DataLimitMiddleware
from lists.battlescribe.engine import Roster, data_folder, limits
from lists.battlescribe.engine.data_folder import read_data_folder
from lists.battlescribe.engine.info import shown_info
from lists.battlescribe.engine.limits import DataLimitExceeded
from lists.battlescribe.engine.xml_loading import load_data_folder
from lists.models import BattleScribeCatalogue, BattleScribeDataSet, BattleScribeEntry, BattleScribeRoster

SHARED = Path(__file__).resolve().parents[2] / "shared"
REAL_GAMES = ["battlegroup", "boltaction", "flamesofwar", "konflikt47", "team-yankee"]

GAME_SYSTEM = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs-h" name="Hostile Game" revision="1" battleScribeVersion="2.03"
    xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="{limit}" hidden="false"/></costTypes>
  <categoryEntries><categoryEntry id="cat-hq" name="HQ" hidden="false"/></categoryEntries>
  <forceEntries><forceEntry id="force-h" name="Company" hidden="false">
    <categoryLinks><categoryLink id="force-hq" name="HQ" hidden="false" targetId="cat-hq" primary="false"/></categoryLinks>
  </forceEntry></forceEntries>
</gameSystem>
"""

CATALOGUE = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-h" name="Hostile Army" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="gs-h" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="unit-sgt" name="Sergeant" hidden="false" collective="false" import="true" type="unit">
      <categoryLinks><categoryLink id="sgt-hq" name="HQ" hidden="false" targetId="cat-hq" primary="true"/></categoryLinks>
      {unit}
      <costs><cost name="pts" typeId="pts" value="{cost}"/></costs>
    </selectionEntry>
  </selectionEntries>
  <entryLinks>{roots}</entryLinks>
  <sharedSelectionEntries>{shared}</sharedSelectionEntries>
  <sharedSelectionEntryGroups>{groups}</sharedSelectionEntryGroups>
  <sharedInfoGroups>{info}</sharedInfoGroups>
</catalogue>
"""


def folder_of(tmp_path: Path, unit="", cost="10", shared="", groups="", info="", limit="-1", roots="") -> Path:
    """A data folder holding the game system and the catalogue, with hostile elements put in."""
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "Hostile Game.gst").write_text(GAME_SYSTEM.format(limit=limit))
    catalogue = CATALOGUE.format(unit=unit, cost=cost, shared=shared, groups=groups, info=info, roots=roots)
    (folder / "Hostile Army.cat").write_text(catalogue)
    return folder


def link(link_id: str, target: str, kind: str = "selectionEntryGroup") -> str:
    return f'<entryLink id="{link_id}" name="{link_id}" hidden="false" targetId="{target}" type="{kind}"/>'


def group(group_id: str, inside: str) -> str:
    return (
        f'<selectionEntryGroup id="{group_id}" name="Group {group_id}" hidden="false">'
        f"<entryLinks>{inside}</entryLinks></selectionEntryGroup>"
    )


def entry(entry_id: str, inside: str = "") -> str:
    return f'<selectionEntry id="{entry_id}" name="Entry {entry_id}" hidden="false" type="upgrade">{inside}</selectionEntry>'


def refused(folder: Path) -> str:
    """What load_battlescribe says refusing a folder (stderr and its error), checking nothing was written."""
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("load_battlescribe", str(folder), stdout=StringIO(), stderr=err)
    assert "nothing was loaded" in str(error.value)
    assert BattleScribeDataSet.objects.count() == 0
    assert BattleScribeCatalogue.objects.count() == 0
    assert BattleScribeEntry.objects.count() == 0
    return err.getvalue()


# --- cycles ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_group_linking_to_itself_is_refused_naming_the_link(tmp_path):
    hostile = group("grp-self", link("link-self", "grp-self"))
    unit = f"<entryLinks>{link('link-unit', 'grp-self')}</entryLinks>"

    message = refused(folder_of(tmp_path, unit=unit, groups=hostile))

    assert "Hostile Army.cat: entryLink link-self (link-self) leads back to itself" in message
    assert "selectionEntryGroup grp-self" in message


@pytest.mark.django_db
def test_two_groups_linking_to_each_other_are_refused(tmp_path):
    hostile = group("grp-a", link("link-a-to-b", "grp-b")) + group("grp-b", link("link-b-to-a", "grp-a"))

    message = refused(folder_of(tmp_path, groups=hostile))

    assert "Hostile Army.cat: entryLink link-b-to-a (link-b-to-a) leads back to itself" in message
    assert "grp-a" in message and "grp-b" in message


@pytest.mark.django_db
def test_an_entry_link_cycle_through_shared_selection_entries_is_refused(tmp_path):
    # The unit links to a shared rifle, whose scope links to a shared group offering the unit again.
    rifle = entry("rifle", f"<entryLinks>{link('link-scope', 'grp-scopes')}</entryLinks>")
    scopes = group("grp-scopes", link("link-back-to-unit", "unit-sgt", "selectionEntry"))
    unit = f"<entryLinks>{link('link-rifle', 'rifle', 'selectionEntry')}</entryLinks>"

    message = refused(folder_of(tmp_path, unit=unit, shared=rifle, groups=scopes))

    assert "Hostile Army.cat: entryLink link-" in message and "leads back to itself" in message
    assert "selectionEntry unit-sgt (Sergeant)" in message and "selectionEntry rifle" in message


@pytest.mark.django_db
def test_info_groups_linking_to_each_other_are_refused(tmp_path):
    info = (
        '<infoGroup id="info-a" name="Notes A" hidden="false"><infoLinks>'
        '<infoLink id="il-a" name="B" hidden="false" targetId="info-b" type="infoGroup"/></infoLinks></infoGroup>'
        '<infoGroup id="info-b" name="Notes B" hidden="false"><infoLinks>'
        '<infoLink id="il-b" name="A" hidden="false" targetId="info-a" type="infoGroup"/></infoLinks></infoGroup>'
    )

    message = refused(folder_of(tmp_path, info=info))

    assert "Hostile Army.cat: infoGroup info-a links back to itself" in message


@pytest.mark.django_db
def test_a_cycle_put_into_a_real_catalogue_is_refused_naming_its_file(tmp_path):
    source = SHARED / "bsdata" / "konflikt47"
    if not source.is_dir():
        pytest.skip(f"no data at {source}")
    folder = tmp_path / "konflikt47"
    shutil.copytree(source, folder)
    path = folder / "Finland.cat"
    tree = etree.parse(str(path))
    namespace = {"bs": tree.getroot().nsmap[None]}
    first_group = tree.find(".//bs:sharedSelectionEntryGroups/bs:selectionEntryGroup", namespace)
    links = first_group.find("bs:entryLinks", namespace)
    if links is None:
        links = etree.SubElement(first_group, f"{{{namespace['bs']}}}entryLinks")
    etree.SubElement(
        links,
        f"{{{namespace['bs']}}}entryLink",
        id="hostile-link",
        name="Again",
        hidden="false",
        targetId=first_group.get("id"),
        type="selectionEntryGroup",
    )
    tree.write(str(path), xml_declaration=True, encoding="utf-8")

    message = refused(folder)

    assert "Finland.cat: entryLink hostile-link (Again) leads back to itself" in message
    assert first_group.get("id") in message


# --- absurd numbers -------------------------------------------------------------------------------


def min_constraint(value: str, constraint_id: str = "min-sgt") -> str:
    return (
        f'<constraints><constraint id="{constraint_id}" type="min" value="{value}" field="selections" '
        'scope="parent" shared="true" includeChildSelections="false"/></constraints>'
    )


@pytest.mark.django_db
def test_a_minimum_of_two_hundred_thousand_selections_is_refused(tmp_path):
    rifle = entry("rifle", min_constraint("200000", "min-rifles"))
    unit = f"<entryLinks>{link('link-rifle', 'rifle', 'selectionEntry')}</entryLinks>"

    message = refused(folder_of(tmp_path, unit=unit, shared=rifle))

    assert "Hostile Army.cat: constraint min-rifles: min value '200000' is beyond the engine's bound" in message


@pytest.mark.django_db
def test_a_maximum_beyond_ten_thousand_selections_is_refused(tmp_path):
    unit = min_constraint("20000", "max-sgt").replace('type="min"', 'type="max"')

    message = refused(folder_of(tmp_path, unit=unit))

    assert "Hostile Army.cat: constraint max-sgt: max value '20000' is beyond the engine's bound" in message


@pytest.mark.django_db
def test_a_modifier_setting_a_minimum_beyond_the_bound_is_refused(tmp_path):
    unit = min_constraint("1") + '<modifiers><modifier type="set" field="min-sgt" value="200000"/></modifiers>'

    message = refused(folder_of(tmp_path, unit=unit))

    assert "Hostile Army.cat: selectionEntry unit-sgt (Sergeant): modifier of min constraint min-sgt" in message
    assert "'200000' is beyond the engine's bound" in message


@pytest.mark.django_db
def test_an_append_modifier_repeated_five_million_times_is_refused(tmp_path):
    unit = (
        '<modifiers><modifier type="append" field="name" value="again"><repeats>'
        '<repeat field="selections" scope="parent" value="1" repeats="5000000" childId="any" roundUp="false"/>'
        "</repeats></modifier></modifiers>"
    )

    message = refused(folder_of(tmp_path, unit=unit))

    assert "Hostile Army.cat: selectionEntry unit-sgt (Sergeant): repeats '5000000' is beyond" in message


NOT_FINITE = [
    ("a cost", {"cost": "{bad}"}, "selectionEntry unit-sgt (Sergeant): cost pts"),
    ("a cost limit", {"limit": "{bad}"}, "Hostile Game.gst: costType pts (pts): defaultCostLimit"),
    ("a constraint", {"unit": min_constraint("{bad}")}, "constraint min-sgt: min value"),
    (
        "a modifier of a cost",
        {"unit": '<modifiers><modifier type="increment" field="pts" value="{bad}"/></modifiers>'},
        "selectionEntry unit-sgt (Sergeant): modifier of pts",
    ),
    (
        "a repeat",
        {
            "unit": '<modifiers><modifier type="increment" field="pts" value="1"><repeats><repeat field="selections" '
            'scope="parent" value="1" repeats="{bad}" childId="any"/></repeats></modifier></modifiers>'
        },
        "selectionEntry unit-sgt (Sergeant): repeats",
    ),
    (
        "a condition",
        {
            "unit": '<modifiers><modifier type="set" field="hidden" value="true"><conditions><condition '
            'field="selections" scope="parent" value="{bad}" childId="any" type="atLeast"/></conditions>'
            "</modifier></modifiers>"
        },
        "selectionEntry unit-sgt (Sergeant): condition value",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["NaN", "INF", "-Infinity", "1e400"])
@pytest.mark.parametrize(("where", "fields", "named"), NOT_FINITE, ids=[row[0] for row in NOT_FINITE])
def test_a_number_that_is_not_finite_is_refused_wherever_it_is_read(tmp_path, bad, where, fields, named):
    hostile = {key: value.replace("{bad}", bad) for key, value in fields.items()}

    message = refused(folder_of(tmp_path, **hostile))

    assert named in message
    assert f"'{bad}' is not a finite number" in message


# --- sizes ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_more_entries_than_the_bound_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr("lists.battlescribe.engine.data_limits.MAX_ENTRIES", 300)
    many = "".join(entry(f"extra-{n}") for n in range(301))

    message = refused(folder_of(tmp_path, shared=many))

    assert (
        "Hostile Army.cat: selectionEntry extra-299 (Entry extra-299): more than 300 entries in the folder" in message
    )


@pytest.mark.django_db
def test_entries_nested_deeper_than_the_bound_are_refused(tmp_path):
    nested = "{inside}"
    for level in range(limits.MAX_DEPTH + 1):
        nested = nested.replace("{inside}", entry(f"level-{level}", "<selectionEntries>{inside}</selectionEntries>"))

    message = refused(folder_of(tmp_path, shared=nested.replace("{inside}", "")))

    assert "Hostile Army.cat: selectionEntry level-64 (Entry level-64): entries nested more than 64 deep" in message


@pytest.mark.django_db
def test_a_chain_of_links_deeper_than_the_bound_is_refused(tmp_path):
    chain = "".join(
        entry(f"step-{n}", f"<entryLinks>{link(f'to-{n + 1}', f'step-{n + 1}', 'selectionEntry')}</entryLinks>")
        for n in range(70)
    )

    message = refused(folder_of(tmp_path, shared=chain + entry("step-70")))

    assert (
        "Hostile Army.cat: selectionEntry step-6 (Entry step-6): entries nested more than 64 deep under it" in message
    )


@pytest.mark.django_db
def test_links_doubling_at_every_level_are_refused(tmp_path):
    # Twenty groups, each linking twice to the next: a few hundred bytes that would offer a million options.
    doubling = "".join(
        group(f"twice-{n}", link(f"first-{n}", f"twice-{n + 1}") + link(f"second-{n}", f"twice-{n + 1}"))
        for n in range(20)
    )

    message = refused(folder_of(tmp_path, groups=doubling + group("twice-20", "")))

    assert "more than 20,000 entries under it, counted through its links" in message
    assert "Hostile Army.cat: selectionEntryGroup twice-" in message


# --- what the engine does with hostile data that reaches it another way ---------------------------


def engine_data(tmp_path: Path, **hostile):
    """Game data compiled straight from the files, as a data set loaded before the checks would be."""
    return load_data_folder(folder_of(tmp_path, **hostile))


def test_the_engine_refuses_a_self_linking_group_instead_of_recursing(tmp_path):
    hostile = group("grp-self", link("link-self", "grp-self"))
    data = engine_data(tmp_path, unit=f"<entryLinks>{link('link-unit', 'grp-self')}</entryLinks>", groups=hostile)
    roster = Roster(data)
    force = roster.add_force("force-h", "cat-h")
    [sergeant] = [o for o in force.options if o.entry.id == "unit-sgt"]

    with pytest.raises(DataLimitExceeded, match="link-self .* more than 64 links"):
        roster.select(force, sergeant)


def test_the_engine_stops_a_minimum_of_two_hundred_thousand_at_once(tmp_path):
    rifle = entry("rifle", min_constraint("200000", "min-rifles"))
    data = engine_data(
        tmp_path, unit=f"<entryLinks>{link('link-rifle', 'rifle', 'selectionEntry')}</entryLinks>", shared=rifle
    )
    roster = Roster(data)
    force = roster.add_force("force-h", "cat-h")
    [sergeant] = [o for o in force.options if o.entry.id == "unit-sgt"]
    started = time.perf_counter()

    with pytest.raises(DataLimitExceeded, match=r"Entry rifle \(rifle\) must be selected at least 200000 times"):
        roster.select(force, sergeant)
    assert time.perf_counter() - started < 5


def test_the_engine_stops_minimums_multiplying_past_its_bound(tmp_path):
    # 100 of a squad, each with 100 men: ten thousand selections from one click.
    man = entry("man", min_constraint("100", "min-men"))
    squad = entry(
        "squad",
        f"<entryLinks>{link('to-man', 'man', 'selectionEntry')}</entryLinks>" + min_constraint("100", "min-squads"),
    )
    unit = f"<entryLinks>{link('to-squad', 'squad', 'selectionEntry')}</entryLinks>"
    data = engine_data(tmp_path, unit=unit, shared=man + squad)
    roster = Roster(data)
    force = roster.add_force("force-h", "cat-h")
    [sergeant] = [o for o in force.options if o.entry.id == "unit-sgt"]

    with pytest.raises(DataLimitExceeded, match="ask for more than 5,000 selections at once"):
        roster.select(force, sergeant)


def test_an_append_repeated_five_million_times_stops_at_the_text_bound(tmp_path):
    unit = (
        '<modifiers><modifier type="append" field="name" value="again"><repeats>'
        '<repeat field="selections" scope="roster" value="1" repeats="5000000" childId="any" roundUp="false"/>'
        "</repeats></modifier></modifiers>"
    )
    roster = Roster(engine_data(tmp_path, unit=unit))
    force = roster.add_force("force-h", "cat-h")
    [sergeant] = [o for o in force.options if o.entry.id == "unit-sgt"]
    started = time.perf_counter()

    selection = roster.select(force, sergeant)

    assert time.perf_counter() - started < 5
    assert selection.name.startswith("Sergeant again again")
    assert len(selection.name) == limits.MAX_TEXT


def test_the_engine_refuses_info_groups_linking_to_each_other(tmp_path):
    info = (
        '<infoGroup id="info-a" name="Notes A" hidden="false"><infoLinks>'
        '<infoLink id="il-a" name="B" hidden="false" targetId="info-b" type="infoGroup"/></infoLinks></infoGroup>'
        '<infoGroup id="info-b" name="Notes B" hidden="false"><infoLinks>'
        '<infoLink id="il-b" name="A" hidden="false" targetId="info-a" type="infoGroup"/></infoLinks></infoGroup>'
    )
    unit = (
        '<infoLinks><infoLink id="il-unit" name="Notes" hidden="false" targetId="info-a" type="infoGroup"/></infoLinks>'
    )
    data = engine_data(tmp_path, unit=unit, info=info)
    roster = Roster(data)
    force = roster.add_force("force-h", "cat-h")
    [sergeant] = [o for o in force.options if o.entry.id == "unit-sgt"]
    selection = roster.select(force, sergeant)

    with pytest.raises(DataLimitExceeded, match="info group info-. .* nested more than 64 deep"):
        shown_info(data, sergeant.sources, roster.context(force, selection))


def test_a_not_finite_repeat_count_does_not_stop_the_engine_reading_the_data(tmp_path):
    unit = (
        '<modifiers><modifier type="increment" field="pts" value="1"><repeats><repeat field="selections" '
        'scope="parent" value="1" repeats="INF" childId="any"/></repeats></modifier></modifiers>'
    )
    data = engine_data(tmp_path, unit=unit)
    assert data.entries["unit-sgt"].modifiers[0].repeats[0].repeats == 1


# --- the real games -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_real_game_passes_every_check(game):
    folder = SHARED / "bsdata" / game
    if not folder.is_dir():
        pytest.skip(f"no data at {folder}")

    checked = read_data_folder(folder)

    assert checked.game_data.catalogues


# --- the pages, for data loaded before these checks -------------------------------------------------


def loaded_unchecked(tmp_path: Path, monkeypatch, **hostile) -> BattleScribeDataSet:
    """Hostile data written into the database as a load before these checks would have written it."""
    monkeypatch.setattr(data_folder, "entry_graph_problems", lambda data, file_of: [])
    monkeypatch.setattr(data_folder.NumberCheck, "finish", lambda self: [])
    call_command("load_battlescribe", str(folder_of(tmp_path, **hostile)), stdout=StringIO())
    return BattleScribeDataSet.objects.get()


@pytest.mark.django_db
def test_starting_a_roster_of_a_self_linking_group_says_why_instead_of_a_500(tmp_path, monkeypatch, client):
    # The catalogue's own root link to the group: a force offers it from the start.
    hostile = group("grp-self", link("link-self", "grp-self"))
    data_set = loaded_unchecked(tmp_path, monkeypatch, roots=link("root-link", "grp-self"), groups=hostile)

    response = client.post("/bs/new/", {"catalogue": f"{data_set.pk}:cat-h", "force": f"{data_set.pk}:force-h"})

    assert response.status_code == 400
    page = response.content.decode()
    assert "Hostile Game&#x27;s data cannot be used here: entry link link-self (link-self)" in page
    assert "more than 64 links" in page
    assert not BattleScribeRoster.objects.exists()


@pytest.mark.django_db
def test_selecting_an_entry_with_a_minimum_of_two_hundred_thousand_says_why(tmp_path, monkeypatch, client):
    rifle = entry("rifle", min_constraint("200000", "min-rifles"))
    unit = f"<entryLinks>{link('link-rifle', 'rifle', 'selectionEntry')}</entryLinks>"
    data_set = loaded_unchecked(tmp_path, monkeypatch, unit=unit, shared=rifle)
    started = client.post("/bs/new/", {"catalogue": f"{data_set.pk}:cat-h", "force": f"{data_set.pk}:force-h"})
    editor = lxml.html.fromstring(client.get(started["Location"]).content)
    form = editor.xpath("//form[contains(@class, 'bs-offers')]")[0]
    values = {field.get("name"): field.get("value", "") for field in form.xpath(".//input[@name]")}
    before = BattleScribeRoster.objects.get()

    response = client.post(form.get("hx-post"), {**values, "entry": "unit-sgt"}, HTTP_HX_REQUEST="true")

    problem = lxml.html.fromstring(response.content).xpath("//*[@id='bs-problem']")[0].text_content()
    assert "Entry rifle (rifle) must be selected at least 200000 times" in problem
    assert "the engine makes at most 1,000 of one entry" in problem
    assert BattleScribeRoster.objects.get().version == before.version


def test_any_other_page_meeting_data_beyond_the_bounds_answers_with_the_reason(rf):
    middleware = DataLimitMiddleware(lambda request: None)

    response = middleware.process_exception(rf.get("/bs/r/x/"), DataLimitExceeded("info group g-1 (Notes) nested"))

    assert response.status_code == 422
    assert "info group g-1 (Notes) nested" in response.content.decode()
    assert middleware.process_exception(rf.get("/"), KeyError("x")) is None
