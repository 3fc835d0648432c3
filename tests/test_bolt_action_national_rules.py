"""A Bolt Action theatre list has its nation's national rules, as the BattleScribe data shows them.

Hand-checked against BA2 - Armies of Germany.cat (BSData/boltaction): Hitler's Buzzsaw
(d187a453-a3d5-0bc8-e475-6d14ac17eb66) is shown by conditions naming 25 of the 26 German theatre
selectors, among them "1944: Normandy" (7896-a6d8-ae3b-9a57); its text gives a German LMG 5 shots and an
MMG 6, one more than the rulebook's 4 and 5. The 1943 Spanish Blue Division (e141-99a4-eb96-f7d9) is named
by Hitler's Buzzsaw only, not by Initiative Training, Blitzkrieg or Tiger Fear.
"""

import io
import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from django.conf import settings
from django.core.cache import cache
from pypdf import PdfReader

from lists.cards import cards_pdf
from lists.models import Army
from lists.rosters.files import load_roster_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

ROOT = Path(__file__).resolve().parents[1]
BSDATA = ROOT.parent / "shared" / "bsdata" / "boltaction"
NORMANDY = "germany-1944-normandy"
ROSTER = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: "1944: Normandy (Armies of Germany)"
name: National rules check
forces:
  - name: 1. Zug
    organisation: Reinforced Platoon
    units:
"""


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def page_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def card_text(*units: str) -> str:
    """The text of the cards PDF of a German Normandy roster of these units, one platoon."""
    resolved = load_roster_file((ROSTER + "".join(f"      - {unit}\n" for unit in units)).encode(), "roster.yaml")
    pdf = cards_pdf(resolved.snapshot(), resolved.data)
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_german_normandy_army_page_names_hitlers_buzzsaw_and_its_effect(client):
    text = page_text(client.get(f"/games/bolt-action-2e/armies/{NORMANDY}/").content.decode())

    rules = text[text.index("Army special rules") : text.index("Units")]
    for name in ("Hitler's Buzzsaw", "Initiative Training", "Blitzkrieg", "Tiger Fear"):
        assert name in rules
    assert "On the cards, beside MMG: +1 shot (6, not 5)" in rules
    # Motorized Infantry belongs to the 1941 DAK Light Division only (overrides.yaml).
    assert "Motorized Infantry" not in rules


def test_a_theatre_list_adds_its_own_rules_and_leaves_out_what_its_data_leaves_out(client):
    blue = page_text(client.get("/games/bolt-action-2e/armies/germany-1943-spanish-blue-division/").content.decode())
    dak = page_text(client.get("/games/bolt-action-2e/armies/germany-1941-dak-light-division/").content.decode())

    assert "Hitler's Buzzsaw" in blue and "Until Extinction" in blue
    assert "Blitzkrieg" not in blue and "Initiative Training" not in blue
    assert "Motorized Infantry" in dak and "Desert Fighters" in dak and "Hitler's Buzzsaw" in dak


def test_the_1942_dak_list_the_data_forgot_has_the_german_national_rules(client):
    """overrides.yaml: the conditions naming the 1941 DAK Light Division name the 1942 one too."""
    army = client.get("/api/games/bolt-action-2e/armies/germany-1942-dak-light-africa-division/").json()

    names = {rule["name"] for rule in army["rules"]}
    assert {"Hitler's Buzzsaw", "Initiative Training", "Blitzkrieg", "Forward the Guns"} <= names


def test_the_api_gives_the_german_normandy_lists_national_rules_with_text_and_effect(client):
    army = client.get(f"/api/games/bolt-action-2e/armies/{NORMANDY}/").json()

    buzzsaw = next(rule for rule in army["rules"] if rule["name"] == "Hitler's Buzzsaw")
    assert buzzsaw["kind"] == "army"
    assert "an MMG 6 instead of 5" in buzzsaw["text"]
    assert {"weapons": ["mmg"], "note": "+1 shot (6, not 5)"} in buzzsaw["modifies"]
    assert {"weapons": ["lmg"], "note": "+1 shot (5, not 4)"} in buzzsaw["modifies"]


def test_the_editors_rules_panel_lists_the_rosters_national_rules(client):
    response = client.post(
        "/rosters/import/", {"text": (ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml").read_text()}
    )
    assert response.status_code == 302

    html = client.get(response["Location"]).content.decode()

    panel = page_text(html[html.index('id="army-rules"') : html.index("</details>", html.index('id="army-rules"'))])
    assert "Army rules (4)" in panel and "The nation's rules and the theatre list's own." in panel
    assert "Hitler's Buzzsaw" in panel and "beside LMG: +1 shot (5, not 4)" in panel


def test_a_german_mmg_teams_card_notes_the_buzzsaw_on_its_mmg_line():
    text = card_text("{unit: germany-medium-machine-gun-team, label: MG42 Team, quality: Regular}")

    # The MMG's printed profile (36", 5 shots) and, on the line under it, the national rule's extra shot.
    assert re.search(r"Medium machine gun \(MMG\) 36\" 5 [^↳]*↳ Hitler's Buzzsaw: \+1 shot \(6, not 5\)", text)
    assert "Hitler's Buzzsaw: LMG 5 shots, MMG 6" in text  # its reminder, and its text on the rules reference
    assert "German light and medium machine guns fire one shot more" in text


def test_a_german_card_without_a_machine_gun_does_not_print_the_buzzsaw():
    text = card_text("{unit: germany-medium-mortar-team, label: Mortar, quality: Regular}")

    assert "Buzzsaw" not in text
    assert "Initiative Training" not in text  # a rule of infantry NCOs, not of a weapon team


def _shown_by_the_data(catalogue: Path) -> dict[str, set[str]]:
    """Each hidden rule of a catalogue, by name (a rule several catalogues hold keeps the first one's id): the
    selector ids its modifiers' conditions name."""
    root = ElementTree.parse(catalogue).getroot()
    found = {}
    for rule in root.iter():
        if rule.tag.rpartition("}")[2] != "rule" or rule.get("hidden") != "true":
            continue
        found[rule.get("name", "").strip()] = {
            c.get("childId") for c in rule.iter() if c.tag.rpartition("}")[2] == "condition"
        }
    return found


def test_every_theatre_list_of_every_nation_has_its_nations_rules_unless_its_data_leaves_them_out(checked_packs):
    pack = next(p for p in checked_packs if p.system.key == "bolt-action-2e")
    armies = {army.key: army for army in pack.items("armies")}
    rules = {rule.key: rule for rule in pack.items("rules")}
    loaded = {army.key: {rule.key for rule in army.rules.all()} for army in Army.objects.prefetch_related("rules")}
    theatre_lists = [army for army in armies.values() if army.rules_from]
    assert len(theatre_lists) > 200
    nations_with_rules = {army.rules_from for army in theatre_lists if armies[army.rules_from].rules}
    assert len(nations_with_rules) >= 20

    left_out = []
    for army in theatre_lists:
        national = set(armies[army.rules_from].rules)
        assert national - set(army.rules_left_out) <= loaded[army.key], army.key
        assert set(army.rules) <= loaded[army.key], army.key
        left_out += [(army, rules[key]) for key in army.rules_left_out]
    if not BSDATA.is_dir():
        return
    # Each national rule a list leaves out is one whose conditions in the data never name that list.
    catalogues = {path.name: _shown_by_the_data(path) for path in BSDATA.glob("*.cat")}
    for army, rule in left_out:
        shown_with = catalogues[army.source.section][rule.name]
        assert army.source_id not in shown_with, f"{army.key} leaves out {rule.key}, which its data shows"


def test_the_generated_packs_name_the_german_theatre_lists_nation():
    """The converter writes the link, not a copy: each list names the nation whose rules it has."""
    germany = json.loads(
        (settings.PACKS_DIR / "bolt-action-2e" / "armies" / "germany.yaml").read_text().split("\n", 1)[1]
    )
    normandy = next(army for army in germany["armies"] if army["key"] == NORMANDY)

    assert normandy["rules_from"] == "germany"
    assert "rules" not in normandy and "rules_left_out" not in normandy
    assert "bs-hitlers-buzzsaw" in next(a for a in germany["armies"] if a["key"] == "germany")["rules"]


def test_an_italian_theatre_list_offers_its_nations_sets_of_national_rules_to_choose_from(client):
    """BA2 - Armies of Italy.cat: the root "National Rules" entry (8f80-10da-f5d2-d3e5) takes one of Western
    Desert, Case Blue, Armies of Italy and the Axis, Soft Underbelly; Western Desert's shows Avanti! in every list."""
    army = Army.objects.filter(system__key="bolt-action-2e", key__startswith="italy-").exclude(key="italy").first()
    text = page_text(client.get(f"/games/bolt-action-2e/armies/{army.key}/").content.decode())
    api = client.get(f"/api/games/bolt-action-2e/armies/{army.key}/").json()

    choices = text[text.index("National rules: one set to choose") : text.index("Units")]
    assert "Western Desert" in choices and "Avanti!" in choices and "Soft Underbelly" in choices
    assert [choice["name"] for choice in api["rule_choices"]] == [
        "Western Desert",
        "Case Blue",
        "Armies of Italy and the Axis",
        "Soft Underbelly",
    ]


def test_a_german_tank_with_italian_mmgs_prints_no_buzzsaw_and_says_why():
    """BA2 - Armies of Germany.cat, Polizei M15/42 (903a-58a8-383e-468b): its rule "Italian MMG"
    (5894-e528-ab22-2d2e) takes Hitler's Buzzsaw away from the tank's machine guns."""
    roster = ROSTER.replace("1944: Normandy", "1943-44: Anti-Partisan Security Patrol")
    unit = "{unit: germany-polizei-m15-42-tank-pz-kpfw-m15-42-738-i, label: M15, quality: Regular}"
    resolved = load_roster_file(f"{roster}      - {unit}\n".encode(), "roster.yaml")
    pdf = cards_pdf(resolved.snapshot(), resolved.data)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)

    assert re.search(r"Medium machine gun \(MMG\) 36\" 5 [^↳]*↳ Italian MMG: no extra shot \(5\)", text)
    assert "Buzzsaw: +1 shot" not in text and "LMG 5 shots, MMG 6" not in text
    assert "Italian MMG: no Hitler's Buzzsaw" in text  # the tank's own rule, on its card


ITALIAN_ROSTER = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: "1943: The Defence of Sicily (Armies of Italy)"
name: Sicily
settings: {national-rules: %s}
forces:
  - name: 1st Platoon
    organisation: Reinforced Platoon 2
    units:
      - {unit: italy-fucilieri-squad, label: Fucilieri, quality: Regular}
"""


def test_an_italian_list_plays_the_set_of_national_rules_its_player_picks_and_its_cards_print_it():
    """BA2 - Armies of Italy.cat shows each book's set of Italian national rules under a roster-wide choice;
    "Armies of Italy and the Axis" gives Avanti Savoia! and Defensive Strategy (lists/packs: italy rule_choices)."""
    resolved = load_roster_file((ITALIAN_ROSTER % '"Armies of Italy and the Axis"').encode(), "roster.yaml")
    pdf = cards_pdf(resolved.snapshot(), resolved.data)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)

    assert "Avanti Savoia!" in text and "Defensive Strategy" in text
    assert "Forza D'animo" not in text and "Poor Officers" not in text  # the other books' sets are not played


def test_a_set_of_national_rules_the_army_does_not_have_is_refused_naming_the_sets_it_has():
    from lists.rosters.files import RosterFileInvalid

    with pytest.raises(RosterFileInvalid) as refused:
        load_roster_file((ITALIAN_ROSTER % "Fortress Budapest").encode(), "roster.yaml")
    message = " ".join(str(problem) for problem in refused.value.problems)
    assert "National rules must be one of this army's sets: Western Desert; Case Blue;" in message

    german = ROSTER.replace("name: National rules check", "name: N\nsettings: {national-rules: Case Blue}")
    with pytest.raises(RosterFileInvalid) as refused:
        load_roster_file((german + "      - {unit: germany-medium-mortar-team}\n").encode(), "roster.yaml")
    assert "this army has one set of national rules" in " ".join(str(p) for p in refused.value.problems)


def test_the_editor_records_the_set_played_and_shows_it_in_the_army_rules(client):
    from lists.rosters.files import save_new_roster
    from lists.rosters.sharing import hash_secret

    resolved = load_roster_file((ITALIAN_ROSTER % "null").encode(), "roster.yaml")
    save_new_roster(resolved, "sicily", hash_secret("italian-secret-0123456789abcdefghijklmnop"))
    edit = "/e/italian-secret-0123456789abcdefghijklmnop/"
    page = client.get(edit).content.decode()
    assert '<option value="Case Blue">Case Blue</option>' in page and "(played)" not in page

    html = client.get(edit).content.decode()
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    client.post(f"{edit}settings/", {"version": version, "name": "Sicily", "setting-national-rules": "Case Blue"})

    page = page_text(client.get(edit).content.decode())
    assert "Case Blue (played) :" in page
    exported = client.get("/r/sicily/roster.json").json()
    assert exported["settings"]["national-rules"] == "Case Blue"
    text = client.get("/r/sicily/roster.txt").content
    assert b"National rules: Case Blue" in text
    assert load_roster_file(text, "roster.txt").settings["national-rules"] == "Case Blue"  # the plain list reads back

    # The .ros picks the set inside the compulsory "National Rules" entry (8f80-10da-f5d2-d3e5) as BattleScribe
    # does, by the group's choice (c70c-6fc0-1f3e-6a6c), and reads back to the same pick.
    ros = client.get("/r/sicily/roster.ros").content
    national = ElementTree.fromstring(ros).find(".//{*}selection[@entryId='8f80-10da-f5d2-d3e5']")
    (picked,) = national.findall("{*}selections/{*}selection")
    assert (picked.get("name"), picked.get("entryId")) == ("Case Blue", "f47f-ecbe-e6c5-ac5e::c70c-6fc0-1f3e-6a6c")
    assert load_roster_file(ros, "roster.ros").settings["national-rules"] == "Case Blue"


BRITISH_ROSTER = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: great-britain-1944-normandy
name: Normandy
settings: {national-rules: %s}
forces:
  - name: 1st Platoon
    organisation: Reinforced Platoon
    units:
      - {unit: great-britain-infantry-section-late-war, label: Section, quality: Regular}
"""


def test_a_british_list_offers_the_five_national_characteristics_its_data_names(client):
    """BA2 - Armies of Great Britain.cat: the compulsory root "National Charateristic" (ae71-670b-187c-7727)
    takes one of its group's five choices (9a76-b517-c03d-0199), from Blood curdling charge to Vengeance."""
    api = client.get("/api/games/bolt-action-2e/armies/great-britain-1944-normandy/").json()

    assert [choice["name"] for choice in api["rule_choices"]] == [
        "Blood curdling charge",
        "Rapid Fire",
        "Tough as boots",
        "Up and 'at 'em",
        "Vengeance",
    ]
    assert "commissar" not in json.dumps(api)


def test_a_british_list_plays_the_national_characteristic_picked_and_its_cards_print_it():
    resolved = load_roster_file((BRITISH_ROSTER % '"Rapid Fire"').encode(), "roster.yaml")
    pdf = cards_pdf(resolved.snapshot(), resolved.data)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)

    assert "Rapid Fire" in text and "one extra die for every three of its men firing" in text
    assert "Vengeance" not in text and "Tough as boots" not in text  # the other four are not played
    assert "commissar" not in text


def test_a_british_ros_holds_the_pick_under_the_national_charateristic_entry_and_reads_back():
    from lists.rosters.battlescribe_writing import export

    resolved = load_roster_file((BRITISH_ROSTER % '"Vengeance"').encode(), "roster.yaml")
    ros = export(resolved.snapshot())
    national = ElementTree.fromstring(ros).find(".//{*}selection[@entryId='ae71-670b-187c-7727']")
    (picked,) = national.findall("{*}selections/{*}selection")

    assert (picked.get("name"), picked.get("entryId")) == ("Vengeance", "1e20-3961-fd17-e86c::2699-386c-ea8f-94be")
    assert load_roster_file(ros, "roster.ros").settings["national-rules"] == "Vengeance"
