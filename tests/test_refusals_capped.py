"""Every reader refuses a hostile file at the first limit no roster passes, and tells at most 50 problems, saying so.

YAML, JSON, text and .ros files alike: reading stops there, so a refusal costs time linear in the file
(`python scripts/bench_input.py` prints the figures at 128, 256 and 512 KB).
"""

import json
import shutil
from pathlib import Path

import pytest

from lists.gamedata.packs import load_all
from lists.rosters import battlescribe_ids
from lists.rosters.files import MAX_PROBLEMS, RosterFileInvalid, load_roster_file

FIXTURE = Path(__file__).parent / "fixtures" / "packs" / "skirmish"
TEXT_HEAD = "Hostile\nSkirmish · Blue army [skirmish/blue]\n"
STOPPED = "the file was read no further than its first 50"


@pytest.fixture
def loaded(db, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "skirmish")
    load_all(tmp_path)


def refusal(raw: str, filename: str) -> list[str]:
    with pytest.raises(RosterFileInvalid) as refused:
        load_roster_file(raw.encode(), filename)
    return [str(problem) for problem in refused.value.problems]


def ros(body: str, catalogue: bool = False) -> str:
    known = battlescribe_ids.ids()
    force = f' catalogueId="{next(iter(known["catalogues"].values()))["id"]}"' if catalogue else ""
    return f'<roster gameSystemId="{known["game_system"]["id"]}"><forces>{body.format(force=force)}</forces></roster>'


def test_a_ros_of_thousands_of_empty_forces_is_refused_at_the_21st():
    problems = refusal(ros("<force/>" * 20_000), "roster.ros")

    assert problems == ["the roster holds more than 20 forces (platoons), the most one holds"]


def test_a_ros_of_thousands_of_unknown_selections_tells_50_and_says_it_stopped():
    selections = '<selection entryId="x" name="Nothing"/>' * 10_000
    problems = refusal(ros(f"<force{{force}}><selections>{selections}</selections></force>", catalogue=True), "r.ros")

    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[1] == "Nothing (x): not an entry of the Bolt Action data a force may hold"
    assert STOPPED in problems[-1]


@pytest.mark.usefixtures("loaded")
def test_a_text_roster_of_thousands_of_stray_lines_tells_50_and_says_it_stopped():
    block = "Platoon\n   65 pts  Rifle squad [rifle-squad]\nRegular\nstray line\n"
    problems = refusal(TEXT_HEAD + "\n" + block * 2_000, "roster.txt")

    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[0].startswith("line 7: 'stray line' is neither a unit")
    assert STOPPED in problems[-1]


@pytest.mark.usefixtures("loaded")
def test_a_text_roster_of_thousands_of_forces_is_refused_at_the_21st_naming_its_line():
    block = "\nPlatoon\n   65 pts  Rifle squad [rifle-squad]\nRegular\n"
    problems = refusal(TEXT_HEAD + block * 5_000, "roster.txt")

    assert problems == ["line 84: more than 20 forces (platoons): a roster holds at most 20"]


@pytest.mark.usefixtures("loaded")
def test_a_text_roster_of_thousands_of_units_is_refused_at_the_401st_naming_its_line():
    problems = refusal(TEXT_HEAD + "\nPlatoon\n" + "   65 pts  Rifle squad [rifle-squad]\n" * 5_000, "roster.txt")

    assert problems == ["line 405: more than 400 units: a roster holds at most 400"]


def test_a_json_file_of_45000_unknown_keys_is_refused_at_its_oversized_mapping():
    document = {"game": "skirmish", "army": "blue", **{f"k{i}": 1 for i in range(45_000)}}

    problems = refusal(json.dumps(document, separators=(",", ":")), "roster.json")

    assert problems == ["a mapping of more than 200 keys: no roster file has near as many"]


def test_a_yaml_file_of_45000_unknown_keys_spread_over_units_is_refused_at_its_40001st_value():
    unit = "  - {unit: rifle-squad, " + ", ".join(f"k{i}: 1" for i in range(199)) + "}\n"
    text = "game: skirmish\narmy: blue\nunits:\n" + unit * 226  # every mapping and list within its own cap

    problems = refusal(text, "roster.yaml")

    assert len(problems) == 1
    assert "more than 40,000 keys and values: no roster holds as many" in problems[0]


def test_a_yaml_roster_of_400_units_with_their_options_is_not_refused_for_its_size(loaded):
    unit = "  - {unit: rifle-squad, quality: regular, label: 'Squad {n}', options: [{option: extra-man, count: 5}]}\n"
    text = "game: skirmish\narmy: blue\nunits:\n" + "".join(unit.replace("{n}", str(n)) for n in range(400))

    resolved = load_roster_file(text.encode(), "roster.yaml")

    assert len(resolved.snapshot().units) == 400
