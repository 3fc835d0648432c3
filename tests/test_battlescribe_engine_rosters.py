"""Rosters BattleScribe would save, made with our engine from the real data, read by our .ros reader.

The rosters are built through the engine's option tree and saved with its `write_roster_xml`
(tests/battlescribe_engine_rosters.py): composite entry ids and entry-group ids as BattleScribe writes
them. Our reader must load each at the engine's points, with the verdict our checks give. Our own exports,
read back by the engine against the real data, must cost what we say they cost. The data lives in
../shared/bsdata (never in the repository): the tests skip where it is absent.
"""

import json
from pathlib import Path

import pytest
from lxml import etree

from lists.battlescribe.engine.roster_files import read_roster_xml
from lists.rosters.battlescribe_writing import export, exportable, roster_rosz
from lists.rosters.files import load_roster_file
from lists.rules.pricing import unit_points
from lists.rules.verdict import judge
from tests import battlescribe_engine_rosters as made
from tests.test_roster_files import EXAMPLES, validate

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "battlescribe"
SCHEMA = etree.XMLSchema(etree.parse(str(FIXTURES / "Roster-2.03.xsd")))

pytestmark = [
    pytest.mark.usefixtures("real_packs"),
    pytest.mark.django_db,
    pytest.mark.skipif(not made.BOLT_ACTION.is_dir(), reason="../shared/bsdata/boltaction is absent"),
]


def written(tmp_path: Path, data: bytes | str, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# (recipe, file kind, our verdict: legal?, the findings' codes). A squad as BattleScribe first adds it (its
# NCO and the least soldiers the data asks) is below the rulebook's size for three of them (unit.size); the
# Soviet Rifle Squads of the Compulsory Units copy count as no Infantry squad of the platoon (org.missing).
CASES = {
    "germany": ("ros", True, []),
    "united_states": ("rosz", False, ["unit.size"]),
    "great_britain": ("newrecruit", False, ["unit.size"]),
    "soviet_union": ("newrecruit", False, ["org.missing"]),
    "japan": ("ros", False, ["unit.size"]),
    "italy": ("rosz", True, []),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_roster_battlescribe_saves_is_read_at_the_engines_points(tmp_path, name):
    kind, legal, codes = CASES[name]
    builder = getattr(made, name)()
    xml = builder.xml()
    content = {"ros": xml, "rosz": made.zipped(xml), "newrecruit": made.new_recruit(xml)}[kind]
    path = written(tmp_path, content, f"{name}.{'rosz' if kind == 'rosz' else 'ros'}")
    code, out, err = validate(path, "--json")
    assert code in (0, 1), err
    verdict = json.loads(out)
    assert verdict["points"] == builder.points
    assert "file_points" not in verdict  # the file's own costs (the engine's) agree with ours
    assert (verdict["valid"], sorted({f["code"] for f in verdict["findings"]})) == (legal, codes)


@pytest.mark.parametrize("name", ["germany", "soviet_union"])
def test_our_export_of_an_engine_roster_is_valid_and_reads_back_the_same(name):
    builder = getattr(made, name)()
    ours = load_roster_file(builder.xml().encode(), f"{name}.ros").snapshot()
    xml = export(ours)
    assert SCHEMA.validate(etree.fromstring(xml)), SCHEMA.error_log
    back = load_roster_file(roster_rosz(xml), "again.rosz").snapshot()
    assert [(u.unit_type.key, u.label, u.quality, u.own_size, u.options) for u in back.units] == [
        (u.unit_type.key, u.label, u.quality, u.own_size, u.options) for u in ours.units
    ]
    assert judge(back).points == judge(ours).points == builder.points


def engine_points(snapshot) -> tuple[float, float]:
    """Our export read by the engine against the real data: (the engine's total, ours)."""
    catalogue = {"germany": "Armies of Germany", "soviet-union": "Armies of the  Soviet Union"}
    nation = snapshot.army_key.split("-1")[0]
    data = made.nation_data(catalogue.get(nation, nation))
    roster = read_roster_xml(data, export(snapshot))
    return roster.total_cost("points"), sum(unit_points(snapshot, u) for u in snapshot.units)


def test_the_engine_reads_our_exports_of_the_examples_at_our_points():
    tried = []
    for path in EXAMPLES:
        snapshot = load_roster_file(path.read_bytes(), path.name).snapshot()
        if exportable(snapshot):
            tried.append((path.stem, *engine_points(snapshot)))
    assert sorted(stem for stem, _, _ in tried) == [
        "bolt-action-2e-germany-normandy",
        "bolt-action-2e-germany-normandy-two-platoons",
    ]
    assert [(stem, engine) for stem, engine, ours in tried if engine != ours] == []
