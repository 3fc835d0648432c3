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

from tests import battlescribe_engine_rosters as made
from tests.test_roster_files import validate

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
