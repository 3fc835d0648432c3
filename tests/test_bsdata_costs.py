"""Every Bolt Action cost against the BattleScribe (BSData/boltaction) entry it cites.

The figures are extracted by scripts/bsdata_costs.py into tests/fixtures/bsdata_costs.yaml
(catalogue file, entry id, name, points); the pack is checked against that fixture here,
and, where the BSData files are beside the repository, the fixture against them.
"""

import importlib.util
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "lists" / "packs" / "bolt-action-2e"
FIXTURE = yaml.safe_load((ROOT / "tests" / "fixtures" / "bsdata_costs.yaml").read_text())["entries"]
BSDATA = ROOT.parent / "shared" / "bsdata" / "boltaction"


def _cited_figures() -> list[tuple[str, str, int | None]]:
    """(where, cited entry, the pack's figure) for every cost the pack takes from BSData."""
    figures = []

    def walk(value, where: str) -> None:
        if isinstance(value, dict):
            citation = value.get("citation")
            if isinstance(citation, dict) and citation.get("source") == "BSData/boltaction":
                name = value.get("quality") or value.get("key")
                figures.append((f"{where}.{name}", citation["entry"], value.get("points")))
                if citation.get("extra_model") or value.get("per_extra_model") is not None:
                    figures.append(
                        (f"{where}.{name}.per_extra_model", citation.get("extra_model"), value.get("per_extra_model"))
                    )
            for key, item in value.items():
                walk(item, f"{where}.{value.get('key', key)}" if key != "citation" else where)
        elif isinstance(value, list):
            for item in value:
                walk(item, where)

    for path in sorted(PACK.glob("*.yaml")):
        walk(yaml.safe_load(path.read_text()), path.stem)
    return figures


def _bsdata_points(entry: str) -> int:
    return sum(term["count"] * term["points"] for term in FIXTURE[entry])


def test_every_bolt_action_cost_matches_the_bsdata_entry_it_cites():
    figures = _cited_figures()
    wrong = [
        (where, entry, figure, _bsdata_points(entry) if entry in FIXTURE else "not extracted")
        for where, entry, figure in figures
        if entry not in FIXTURE or figure != _bsdata_points(entry)
    ]

    assert len(figures) > 80
    assert wrong == []


def test_extra_men_with_an_officer_cost_what_bsdata_asks():
    """BSData GB Officer / Second Lieutenant / Additional Men: 7, 10, 13; Forward Observer veteran extra man 13."""
    costs = {where: figure for where, _, figure in _cited_figures() if where.endswith("per_extra_model")}

    assert costs["army.units.second-lieutenant.inexperienced.per_extra_model"] == 7
    assert costs["army.units.second-lieutenant.regular.per_extra_model"] == 10
    assert costs["army.units.second-lieutenant.veteran.per_extra_model"] == 13
    assert costs["army.units.forward-observer.veteran.per_extra_model"] == 13


@pytest.mark.skipif(not BSDATA.is_dir(), reason="the BSData files are not beside this repository")
def test_the_fixture_is_current_with_the_bsdata_files():
    spec = importlib.util.spec_from_file_location("bsdata_costs", ROOT / "scripts" / "bsdata_costs.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)

    assert script.dump(script.build(BSDATA)) == (ROOT / "tests" / "fixtures" / "bsdata_costs.yaml").read_text()


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
@pytest.mark.parametrize(
    ("unit", "quality", "points"),
    [
        ("Second Lieutenant", "Inexperienced", 35 + 2 * 7),
        ("Second Lieutenant", "Veteran", 65 + 2 * 13),
        ("Artillery Forward Observer", "Veteran", 115 + 2 * 13),
    ],
)
def test_an_officer_with_two_more_men_pays_for_them(unit, quality, points):
    """BSData Additional Men: Inexperienced Soldier 7, Veteran Soldier 13 (no longer free)."""
    from lists.rosters.files import load_roster_file
    from lists.rules.pricing import unit_points

    text = f"game: bolt-action-2e\narmy: generic\nunits:\n  - {{unit: {unit}, quality: {quality}, size: 3}}\n"
    snapshot = load_roster_file(text.encode(), "roster.yaml").snapshot()

    assert unit_points(snapshot, snapshot.units[0]) == points
