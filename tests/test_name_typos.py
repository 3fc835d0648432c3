"""Typos of the BattleScribe data's names are corrected where players read them (overrides.yaml, `shown_name`),
while roster files naming the keys, or the names as the data spelt them, still import."""

import pytest

from lists.models import Army, SpecialRule, UnitOption, UnitType
from lists.rosters.files import load_roster_file
from lists.rules.verdict import judge

OLD_SPELLINGS = """\
format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: "1944: Normandy (Armies of Germany)"
name: Written before the typos were corrected
points_limit: 1000
forces:
  - name: 1. Zug
    organisation: Reinforced Platoon
    units:
      - {unit: germany-leutnant-second-lieutenant, quality: Regular}
      - {unit: germany-heer-grenadier-squad, quality: Regular, size: 10, transport: Hanomag}
      - {unit: germany-heer-grenadier-squad, quality: Regular, size: 10}
      - {unit: "SdKfz 251/1 Half-Track ' Hanomag'", label: Hanomag, quality: Regular,
         options: ["Pintle-mounted MMG (Rear Arc)(15pts)"]}
"""


@pytest.mark.usefixtures("real_packs")
def test_the_names_players_read_are_spelt_right_and_the_keys_are_kept(db):
    names = set(UnitType.objects.values_list("name", flat=True)) | set(
        UnitOption.objects.values_list("name", flat=True)
    )
    names |= set(SpecialRule.objects.values_list("name", flat=True)) | set(Army.objects.values_list("name", flat=True))
    for typo in ("Shurzen", "Flammpanzerwagon", "Racktenwerfer", "Bodygaurd", "Dsihonour", "New Zeland", "' Hanomag'"):
        assert not [name for name in names if typo in name], typo
    assert not [name for name in names if "(15pts)" in name or "(25pts)" in name]
    assert UnitType.objects.get(key="germany-sdkfz-251-16-flammpanzerwagon").name == "SdKfz 251/16 Flammpanzerwagen"
    assert Army.objects.get(key="new-zeland").name == "Armies of New Zealand"
    assert UnitOption.objects.filter(key="shurzen-armour-skirts", name="Schürzen armour skirts").exists()


@pytest.mark.usefixtures("real_packs")
def test_a_roster_file_naming_the_old_spellings_still_imports_at_the_same_points(db):
    roster = load_roster_file(OLD_SPELLINGS.encode(), "old.yaml").snapshot()
    hanomag = roster.units[3]
    assert hanomag.unit_type.name == "SdKfz 251/1 Half-Track 'Hanomag'"
    assert [hanomag.unit_type.options[key].name for key in hanomag.options] == ["Pintle-mounted MMG (Rear Arc)"]
    verdict = judge(roster)
    # Leutnant 50, two squads of 10 at 100, the Hanomag 89 and its rear MMG 15 (BA2 - Armies of Germany.cat).
    assert verdict.points == 50 + 100 + 100 + 89 + 15
