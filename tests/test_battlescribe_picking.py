"""Picking units of a loaded BattleScribe data set as a player sees it: each selection's and each offered entry's
profiles and rules folded in the editor and on the share page, compulsory entries marked (and unticking one
never silently undone), and the new-roster form offering only the chosen army's forces.

Flames of War, Team Yankee and Konflikt '47 from ../shared (loaded with `load_battlescribe`; skipped, naming
the folder, where absent). Entry, profile type and characteristic names are the data's own (the folders'
.cat and .gst files, each game's README naming its repository and commit); texts are compared with what the
unit cards print from the same data, never with text of this repository.
"""

from __future__ import annotations

import pytest

from lists.models import BattleScribeDataSet, BattleScribeRoster
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters.battlescribe_card_content import roster_cards
from tests.test_battlescribe_games import HX, Player, data_set_of, folders_loaded, html, sent, text

FOLDERS = ["bsdata/flamesofwar", "bsdata/team-yankee", "bsdata/konflikt47"]

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def data_sets(django_db_setup, django_db_blocker):
    with folders_loaded(FOLDERS, django_db_blocker):
        yield


def game_form(client, data_set: BattleScribeDataSet):
    page = html(client.get(f"/games/data/{data_set.pk}/"))
    return page.xpath("//form[@action='/bs/new/']")[0]


def army_value(form, army: str) -> str:
    return next(o.get("value") for o in form.xpath(".//select[@name='catalogue']//option") if text(o) == army)


def forces_under(form, army: str) -> dict[str, str]:
    """The forces the form lists for an army: name to value."""
    value = army_value(form, army)
    group = next(g for g in form.xpath(".//select[@name='force']/optgroup") if g.get("data-army") == value)
    return {text(o): o.get("value") for o in group.xpath("option")}


def started(client, data_set, army: str, force: str, limit: int = 1000) -> Player:
    form = game_form(client, data_set)
    response = client.post(
        "/bs/new/",
        {"catalogue": army_value(form, army), "force": forces_under(form, army)[force], "points_limit": limit},
    )
    assert response.status_code == 302, response.content[:500]
    return Player(client, response["Location"])


def article(page, name: str):
    return next(
        a for a in page.xpath("//article[contains(@class, 'bs-selection')]") if text(a.xpath(".//h3")[0]) == name
    )


def fold_of(node):
    """A selection's own fold of profiles and rules (not one of a selection nested in it)."""
    folds = node.xpath("./details[contains(@class, 'bs-info')]")
    assert len(folds) == 1, text(node)[:300]
    return folds[0]


def unfolded(client, fold):
    """What unfolding the fold shows: htmx fetches its address; without JavaScript its link opens a page."""
    address = fold.get("hx-get")
    assert fold.xpath(".//a")[0].get("href") == address
    fragment = client.get(address, **HX)
    page = client.get(address)
    assert page.status_code == 200 and fragment.status_code == 200
    return html(fragment), html(page)


def tables(node) -> dict[str, list[str]]:
    """Each profile table shown: its caption to its column headers."""
    return {
        text(t.xpath("caption")[0]): [text(th) for th in t.xpath("thead/tr/th")][1:]
        for t in node.xpath(".//table[contains(@class, 'bs-profile')]")
    }


def rules(node) -> dict[str, str]:
    """Each rule shown: its name (as the data names it) to its text."""
    names = [" ".join(dt.text.split()) for dt in node.xpath(".//dl/dt")]
    return dict(zip(names, [text(dd) for dd in node.xpath(".//dl/dd")], strict=True))


# --- profiles and rules, folded -------------------------------------------------------------------------


def test_a_konflikt_squads_profiles_and_rules_unfold_in_the_editor_as_its_card_prints_them(client, data_sets):
    data_set = data_set_of("bsdata/konflikt47")
    player = started(client, data_set, "Finland", "Reinforced Platoon")
    player.add("Rifle Squad")

    squad = article(player.page, "Rifle Squad")
    fold = fold_of(squad)
    assert fold.get("open") is None and text(fold.xpath("summary")[0]) == "Profiles and rules"
    fragment, page = unfolded(client, fold)
    assert tables(page) == tables(fragment)  # the page without JavaScript shows the same
    # The squad's fold and those of the selections shown in it (its men's weapons) show what its card prints.
    shown_tables: dict[str, list[str]] = {}
    shown_rules: dict[str, str] = {}
    # (not the folds of the choices under them, which show what is not taken too)
    for nested in squad.xpath(".//details[contains(@class, 'bs-info')][not(contains(@hx-get, 'under='))]"):
        shown, _ = unfolded(client, nested)
        for type_name, columns in tables(shown).items():
            shown_tables.setdefault(type_name, [])
            shown_tables[type_name] += [c for c in columns if c not in shown_tables[type_name]]
        shown_rules.update(rules(shown))

    card = next(
        c for c in roster_cards(editing.open_roster(BattleScribeRoster.objects.get())) if c.name == "Rifle Squad"
    )
    assert len(card.tables) > 1, "the data gives the squad's men and weapons profiles"
    assert shown_tables == {t.type_name: t.columns for t in card.tables}
    assert set(shown_rules) == {r.name for r in card.references}
    for reference in card.references:  # the data's text, or where to read it when the data gives none
        expected = " ".join(reference.text.split()) if reference.text else f"read it in {reference.where}"
        assert expected in shown_rules[reference.name], (reference.name, shown_rules[reference.name])


def test_an_entry_offered_in_the_picker_unfolds_its_profiles_before_it_is_picked(client, data_sets):
    data_set = data_set_of("bsdata/konflikt47")
    player = started(client, data_set, "Finland", "Reinforced Platoon")
    button = next(b for b in player.page.xpath("//button[@class='offer']") if text(b.xpath("span")[0]) == "Rifle Squad")
    fold = button.getparent().xpath("details[contains(@class, 'bs-info')]")[0]
    fragment, _page = unfolded(client, fold)

    offered = tables(fragment)
    assert {"Troop Quality", "Weapon"} <= set(offered)  # Konflikt_47.gst's profile types: the men and their arms

    player.add("Rifle Squad")
    card = next(
        c for c in roster_cards(editing.open_roster(BattleScribeRoster.objects.get())) if c.name == "Rifle Squad"
    )
    assert offered["Troop Quality"] == next(t.columns for t in card.tables if t.type_name == "Troop Quality")
    assert BattleScribeRoster.objects.get().version == 2  # unfolding changed nothing


def test_an_entry_the_force_does_not_offer_unfolds_nothing(client, data_sets):
    data_set = data_set_of("bsdata/konflikt47")
    player = started(client, data_set, "Finland", "Reinforced Platoon")
    fold = player.page.xpath("//ul/li/details[contains(@class, 'bs-info')]")[0]
    forged = fold.get("hx-get").split("&entry=")[0] + "&entry=no-such-entry"
    response = client.get(forged)
    assert response.status_code == 400
    assert "offers no such entry" in response.content.decode()


def choice_folds(node) -> dict[str, object]:
    """The folds of the choices under a selection (its counts, ticks and one-of groups), by the entry's name."""
    folds = node.xpath("./form//details[contains(@class, 'bs-info')]")
    return {text(f.xpath(".//a")[0]).removeprefix("The profiles and rules of "): f for f in folds}


def test_a_choice_under_a_squad_unfolds_its_weapon_and_rules_before_it_is_taken(client, data_sets):
    data_set = data_set_of("bsdata/konflikt47")
    player = started(client, data_set, "Finland", "Reinforced Platoon")
    player.add("Rifle Squad")
    folds = choice_folds(article(player.page, "Rifle Squad"))

    light_machine_gun, _ = unfolded(client, folds["Soldier with LMG"])  # a count, none taken yet
    grenades, page = unfolded(client, folds["Anti-Tank Grenades"])  # a tick, not ticked

    # Konflikt_47's data: the LMG man carries the LMG profile; the grenades give the Tank Hunters rule.
    weapons = light_machine_gun.xpath(".//table[contains(@class, 'bs-profile')]//tbody/tr/th")
    assert [text(row) for row in weapons] == ["LMG"]
    assert "Tank Hunters" in rules(page) and "Tank Hunters" in text(grenades)  # the page without JavaScript too
    assert BattleScribeRoster.objects.get().version == 2  # unfolding changed nothing


def test_a_choice_the_selection_does_not_offer_unfolds_nothing(client, data_sets):
    data_set = data_set_of("bsdata/konflikt47")
    player = started(client, data_set, "Finland", "Reinforced Platoon")
    player.add("Rifle Squad")
    fold = choice_folds(article(player.page, "Rifle Squad"))["Anti-Tank Grenades"]
    response = client.get(fold.get("hx-get").split("&entry=")[0] + "&entry=no-such-entry")
    assert response.status_code == 400
    assert "offers no such entry" in response.content.decode()


def test_the_share_page_shows_a_flames_of_war_companys_tank_profiles_folded(client, data_sets):
    data_set = data_set_of("bsdata/flamesofwar")
    player = started(client, data_set, "Late-War - Bulge: American", "Standard", 100)
    player.add("M4 Sherman (Late) Tank Company")
    share_link = html(client.get(player.edit_url)).xpath("//*[@id='share-link']")[0].get("value")
    shared = html(client.get("/" + share_link.split("/", 3)[3]))

    hq = next(
        a
        for a in shared.xpath("//article[contains(@class, 'bs-selection')]")
        if text(a.xpath("header/h3")[0]) == "M4 Sherman (Late) Tank Company HQ (LU181)"
    )
    fold = fold_of(hq)
    assert fold.get("open") is None
    shown = tables(fold)
    # Flames_of_War_v4.gst's profile types, with their own characteristic names.
    assert {"Tank Unit", "Weapon"} <= set(shown)
    assert {"Armour Front", "Armour Side & Rear", "Armour Top"} <= set(shown["Tank Unit"])
    card = next(
        c
        for c in roster_cards(editing.open_roster(BattleScribeRoster.objects.get()))
        if c.name == text(hq.xpath("header/h3")[0])
    )
    assert shown == {t.type_name: t.columns for t in card.tables}
    shown_rules = rules(fold)
    assert set(shown_rules) == {r.name for r in card.references}
    with_text = [r for r in card.references if r.text]
    assert with_text, "the Flames of War data gives its rules' texts"
    assert all(shown_rules[r.name] == " ".join(r.text.split()) for r in with_text)
    assert any(r.where and r.where in text(fold) for r in card.references)  # the publication the data names


# --- compulsory entries -----------------------------------------------------------------------------------


def test_a_team_yankee_hq_is_marked_compulsory_and_unticking_it_removes_it_saying_what_is_missing(client, data_sets):
    data_set = data_set_of("bsdata/team-yankee")
    player = started(client, data_set, "NATO - America", "1) Main Force", 100)
    player.add("M1A1 Abrams Combat Team")
    team = article(player.page, "M1A1 Abrams Combat Team")
    box = next(
        i
        for i in team.xpath("form//input[@type='checkbox']")
        if text(i.getparent()).startswith("M1A1 Abrams Combat Team HQ")
    )
    assert box.checked and "compulsory" in text(box.getparent())
    assert "compulsory" in text(article(player.page, "M1A1 Abrams Combat Team HQ").xpath("form/header")[0])

    form = team.xpath("form")[0]
    values = [(n, v) for n, v in sent(form) if not (n == box.get("name") and v == "1")]
    response = client.post(form.get("hx-post"), _data(values), **HX)
    page = html(response)

    assert not [a for a in page.xpath("//article//h3") if text(a) == "M1A1 Abrams Combat Team HQ"]
    team = article(page, "M1A1 Abrams Combat Team")
    box = next(i for i in team.xpath("form//input[@type='checkbox']") if i.get("name") == box.get("name"))
    assert not box.checked  # never ticked again behind the player's back
    errors = [text(e) for e in team.xpath("form/ul/li[@class='finding error']")]
    assert "Not legal: must have 1 more selections of M1A1 Abrams Combat Team HQ (minimum 1)" in errors
    assert "Not legal" in text(page.xpath("//*[@id='bs-totals']")[0])


def test_a_flames_of_war_company_hq_shows_as_compulsory(client, data_sets):
    data_set = data_set_of("bsdata/flamesofwar")
    player = started(client, data_set, "Late-War - Bulge: American", "Standard", 100)
    player.add("M4 Sherman (Late) Tank Company")
    hq = article(player.page, "M4 Sherman (Late) Tank Company HQ (LU181)")
    assert "compulsory" in text(hq.xpath("form/header")[0])
    company = article(player.page, "M4 Sherman (Late) Tank Company")
    assert "compulsory" not in text(company.xpath("form/header")[0])  # a company the player picked, not asked for
    optional = next(
        f for f in company.xpath("form//fieldset") if text(f.xpath("legend")[0]) == "04. Combat Unit (Optional)"
    )
    assert "compulsory" not in text(optional)


def _data(values):
    data: dict[str, list[str]] = {}
    for name, value in values:
        data.setdefault(name, []).append(value)
    return data


# --- the new-roster form: the chosen army's forces ------------------------------------------------------


def test_the_form_lists_each_army_only_the_forces_it_fields_and_defaults_to_one_of_the_first_army(client, data_sets):
    data_set = data_set_of("bsdata/konflikt47")
    form = game_form(client, data_set)
    armies = [o for o in form.xpath(".//select[@name='catalogue']//option")]
    groups = form.xpath(".//select[@name='force']/optgroup")
    assert [g.get("data-army") for g in groups] == [a.get("value") for a in armies]
    assert [g.get("label") for g in groups] == [text(a) for a in armies]
    # The default force (a select's first option) is one of the default army's.
    assert groups[0].xpath("option")[0].get("value") in forces_under(form, text(armies[0])).values()
    assert "Freiwilligen Infantry Platoon" in forces_under(form, "Finland")
    assert "German Infantry Platoon" not in forces_under(form, "Finland")
    assert "German Infantry Platoon" in forces_under(form, "Germany")
    # Every force listed under an army starts a roster of that army.
    for army in ("Finland", "Germany", "Soviet_Union"):
        for force in forces_under(form, army):
            response = client.post(
                "/bs/new/", {"catalogue": army_value(form, army), "force": forces_under(form, army)[force]}
            )
            assert response.status_code == 302, (army, force, response.content[:300])


def test_a_force_of_another_army_sent_without_javascript_is_refused_naming_it(client, data_sets):
    data_set = data_set_of("bsdata/konflikt47")
    form = game_form(client, data_set)
    response = client.post(
        "/bs/new/",
        {"catalogue": army_value(form, "Finland"), "force": forces_under(form, "Germany")["German Infantry Platoon"]},
    )
    assert response.status_code == 400
    page = text(html_any(response))
    assert "Finland does not field the force 'German Infantry Platoon' (another army's)" in page
    assert "choose one of the forces listed under it" in page
    assert not BattleScribeRoster.objects.exists()


def test_the_home_pages_form_groups_forces_by_army_of_each_game(client, data_sets):
    data_set_of("bsdata/konflikt47")
    home = html(client.get("/"))
    form = home.xpath("//form[@action='/bs/new/']")[0]
    armies = form.xpath(".//select[@name='catalogue']//option")
    groups = form.xpath(".//select[@name='force']/optgroup")
    assert [g.get("data-army") for g in groups] == [a.get("value") for a in armies]
    labels = {g.get("data-army"): g.get("label") for g in groups}
    konflikt = BattleScribeDataSet.objects.get(source_folder__endswith="konflikt47")
    finland = next(a for a in armies if text(a) == "Finland").get("value")
    assert labels[finland] == f"Finland ({konflikt.name} (revision {konflikt.revision}))"


def html_any(response):
    import lxml.html

    return lxml.html.fromstring(response.content.decode())
