"""roster.txt both ways: every example exported as text imports back as the same roster; bad text names its line."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lists.cards import roster_text
from lists.rosters.files import RosterFileInvalid, export_roster, load_roster_file
from lists.rules.verdict import judge

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))

pytestmark = [pytest.mark.usefixtures("real_packs"), pytest.mark.django_db]


def as_text(resolved) -> str:
    snapshot = resolved.snapshot()
    return roster_text(snapshot, resolved.data, judge(snapshot))


def problems_of(text: str) -> list[str]:
    with pytest.raises(RosterFileInvalid) as refused:
        load_roster_file(text.encode())
    return [str(problem) for problem in refused.value.problems]


@pytest.mark.parametrize("example", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_every_example_exported_as_text_imports_back_as_the_same_roster(example):
    first = load_roster_file(example.read_bytes(), example.name)
    text = as_text(first)
    second = load_roster_file(text.encode())  # pasted: no file name to go by
    assert export_roster(second.snapshot()) == export_roster(first.snapshot())
    before, after = judge(first.snapshot()), judge(second.snapshot())
    assert (after.points, after.unit_points, after.valid) == (before.points, before.unit_points, before.valid)
    assert [f.message for f in after.findings] == [f.message for f in before.findings]
    assert as_text(second) == text
    assert "[" not in text  # a plain list: no keys
    assert [u.men for u in second.snapshot().units] == [u.men for u in first.snapshot().units]


def test_the_text_reads_as_a_plain_list_with_each_force_and_unit_and_their_points():
    example = ROOT / "examples" / "bolt-action-2e-germany-normandy-two-platoons.yaml"
    text = as_text(load_roster_file(example.read_bytes(), example.name))
    lines = text.splitlines()
    assert lines[:3] == [
        "Kampfgruppe Normandie, two platoons",
        "Bolt Action (2nd edition) · 1944: Normandy (Armies of Germany)",
        "960 / 1000 pts",
    ]
    assert "1. Zug (Reinforced Platoon) — 581 pts" in lines
    assert "3. Gruppe (Heer Grenadier Squad) (Regular, 10 men): LMG, rides in Hanomag — 120 pts" in lines
    assert "1. Gruppe (Heer Grenadier Squad) (Regular, 10 men): LMG, NCO SMG — 123 pts" in lines
    assert "[" not in text and "germany-" not in text


def test_the_keyed_text_carries_every_key_and_round_trips_exactly():
    for example in EXAMPLES:
        first = load_roster_file(example.read_bytes(), example.name)
        snapshot = first.snapshot()
        text = roster_text(snapshot, first.data, judge(snapshot), keyed=True)
        assert f"[{snapshot.system.key}/{snapshot.army_key}]" in text.splitlines()[1]
        second = load_roster_file(text.encode())
        assert export_roster(second.snapshot()) == export_roster(snapshot), example.name
        again = second.snapshot()
        assert roster_text(again, second.data, judge(again), keyed=True) == text


def test_a_squad_listed_twice_in_the_data_reads_back_as_the_same_one():
    """Normandy's Heer Grenadier Squad is in the data under Compulsory Units and again under Infantry, with
    other options (a Luftfaust): the plain list names the second by its category, and each comes back."""
    example = ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml"
    first = load_roster_file(example.read_bytes(), example.name)
    text = as_text(first)
    assert "Heer Grenadier Squad 2 (Heer Grenadier Squad (Infantry)) (Regular, 10 men): LMG, NCO SMG — 123 pts" in text
    keys = [unit.unit_type.key for unit in load_roster_file(text.encode()).snapshot().units]
    assert keys == [unit.unit_type.key for unit in first.snapshot().units]
    assert "germany-heer-grenadier-squad" in keys and "germany-heer-grenadier-squad-2" in keys


def test_a_hand_typed_list_without_keys_imports_by_names():
    text = "\n".join(
        [
            "Rangers",
            "Bolt Action (2nd edition) · Generic army",
            "Points limit: 500",
            "",
            "Platoon 1 (Generic Reinforced Platoon)",
            "   60  Lt. Harris (Second Lieutenant)",
            "       Regular",
            "   50  Regular Infantry Section (Mid-/ Late-War)",
            "       Regular; 6 men; Light machine gun",
        ]
    )
    resolved = load_roster_file(text.encode())
    document = export_roster(resolved.snapshot())
    assert document["points_limit"] == 500
    units = document["forces"][0]["units"]
    assert [unit.get("label", unit["unit"]) for unit in units] == [
        "Lt. Harris",
        "Regular Infantry Section (Mid-/ Late-War)",
    ]
    assert units[1]["size"] == 6 and units[1]["options"] == ["Light machine gun"]


def test_a_mistake_in_the_text_is_told_by_its_line_with_a_way_to_fix_it():
    example = ROOT / "examples" / "bolt-action-2e.yaml"
    lines = as_text(load_roster_file(example.read_bytes(), example.name)).splitlines()
    unit_line = next(number for number, line in enumerate(lines) if "): " in line and line.endswith(" pts"))
    lines[unit_line] = lines[unit_line].replace(" — ", ", Flamethrower of doom — ")
    problems = problems_of("\n".join(lines))
    assert any(p.startswith(f"line {unit_line + 1}: ") and "Flamethrower of doom" in p for p in problems), problems


def test_text_without_the_game_line_says_what_the_second_line_should_be():
    problems = problems_of("My list\nBolt Action (2nd edition) ·\n\n   60 pts  Rifle Squad\n")
    assert problems == ["line 2: the second line names the game and the army, with · between: 'Game · Army'"], problems


def test_an_unknown_unit_is_told_by_its_line_with_the_nearest_names():
    text = "My list\nBolt Action (2nd edition) · Generic army\n\nPlatoon 1\n   60 pts  Medium Mortar Teem\n"
    problems = problems_of(text)
    assert any(p.startswith("line 5: ") and "'Medium Mortar Team'" in p for p in problems), problems


def test_the_import_form_links_a_help_page_with_the_format(client):
    home = client.get("/").content.decode()
    assert 'href="/help/roster-format/"' in home
    help_page = client.get("/help/roster-format/")
    assert help_page.status_code == 200
    body = help_page.content.decode()
    assert "<h1" in body and "Roster file format" in body
    assert "Text rosters (roster.txt)" in body and "house_rules:" in body
    assert 'href="../rules/"' in body  # a link to another doc opens its help page
    assert client.get("/help/rules/").status_code == 200
    assert client.get("/help/no-such-page/").status_code == 404


TWO_PLATOONS = ROOT / "examples" / "bolt-action-2e-germany-normandy-two-platoons.yaml"


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 120), st.text(max_size=12)), min_size=1, max_size=4))
def test_any_text_edited_anyhow_is_a_roster_or_a_list_of_problems(cuts):
    """Lines with characters cut, replaced or typed anywhere: never anything but a roster or its problems."""
    lines = as_text(load_roster_file(TWO_PLATOONS.read_bytes(), TWO_PLATOONS.name)).splitlines()
    for line_index, column, typed in cuts:
        index = line_index % len(lines)
        lines[index] = lines[index][:column] + typed + lines[index][column + len(typed) :]
    try:
        load_roster_file("\n".join(lines).encode())
    except RosterFileInvalid as invalid:
        assert invalid.problems and all(str(problem) for problem in invalid.problems)


def test_a_long_line_of_spaces_is_read_at_once():
    text = "My list\nBolt Action (2nd edition) · Generic army\n\nPlatoon 1\n   60 pts  a" + " " * 400_000 + "b\n"
    problems = problems_of(text)
    assert problems == ["line 5: this name is longer than 200 characters: shorten it"], problems


def test_yaml_whose_comment_looks_like_a_text_roster_is_still_read_as_yaml():
    text = "# Rangers\n# Bolt Action (2nd edition) · Generic army\ngame: bolt-action-2e\narmy: generic\nunits: [{unit: Sniper Teem}]\n"
    problems = problems_of(text)
    assert any(p.startswith("line 5, units.0.unit: unknown unit") for p in problems), problems


def test_validate_roster_checks_a_text_roster_file(tmp_path):
    import io

    from django.core.management import call_command

    path = tmp_path / "roster.txt"
    path.write_text(as_text(load_roster_file(TWO_PLATOONS.read_bytes(), TWO_PLATOONS.name)))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_roster", str(path), stdout=out, stderr=io.StringIO())
    assert exit_info.value.code == 0
    assert "960" in out.getvalue()


def test_a_long_plain_unit_line_of_brackets_and_colons_is_read_at_once():
    import time

    line = "Platoon 1\nx" + " (a: b)" * 60_000 + " — 60 pts\n"
    started = time.monotonic()
    problems = problems_of("My list\nBolt Action (2nd edition) · Generic army\n\n" + line)
    assert time.monotonic() - started < 5
    assert problems and problems[0].startswith("line 5: "), problems
