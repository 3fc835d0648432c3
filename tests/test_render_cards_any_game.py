"""render_cards takes a roster of any loaded game: a .ros of a BattleScribe data set (Flames of War, Team Yankee,
Konflikt '47, loaded from ../shared as tests/test_battlescribe_data_rosters.py does; skipped where absent), at
both card sizes and merged, with validate_roster's exit statuses."""

import io
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from lists.battlescribe.engine.roster_files import write_roster_xml
from lists.rosters.battlescribe_card_content import ShownInfo, card_units
from tests.test_battlescribe_data_rosters import SHARED, built, load

pytestmark = pytest.mark.django_db

GAMES = [
    ("bsdata/flamesofwar", "Late-War - Bulge: American", "Standard", ["M4 Sherman (Late) Tank Company"] * 2),
    ("bsdata/team-yankee", "NATO - America", "1) Main Force", ["M1A1 Abrams Combat Team"] * 2),
    ("bsdata/konflikt47", "Finland", "Reinforced Platoon", ["Officer", "Rifle Squad", "Rifle Squad"]),
]
MM_PER_POINT = 25.4 / 72


def render(path: Path, out: Path, *args: str) -> tuple[int, str, str]:
    stdout, stderr = StringIO(), StringIO()
    try:
        call_command("render_cards", str(path), "-o", str(out), *args, stdout=stdout, stderr=stderr)
    except SystemExit as exited:
        return exited.code, stdout.getvalue(), stderr.getvalue()
    return 0, stdout.getvalue(), stderr.getvalue()


def pages(pdf: bytes) -> list[tuple[tuple[int, int], str]]:
    """Each page's size (mm, rounded) and text."""
    reader = PdfReader(io.BytesIO(pdf))
    return [
        (
            (round(float(page.mediabox.width) * MM_PER_POINT), round(float(page.mediabox.height) * MM_PER_POINT)),
            " ".join(page.extract_text().split()),
        )
        for page in reader.pages
    ]


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    ("folder", "catalogue", "force_entry", "entries"), GAMES, ids=[g[0].split("/")[1] for g in GAMES]
)
def test_render_cards_prints_a_data_set_roster_at_both_card_sizes_and_merged(
    tmp_path, folder, catalogue, force_entry, entries
):
    roster = built(load(SHARED / folder), catalogue, force_entry, entries)
    path = tmp_path / "list.ros"
    path.write_text(write_roster_xml(roster))

    code, out, err = render(path, tmp_path / "poker.pdf", "--card", "poker")
    assert (code, err) == (0, "") and "unit(s)" in out
    poker = pages((tmp_path / "poker.pdf").read_bytes())
    code, _, err = render(path, tmp_path / "a6.pdf", "--card", "a6")
    assert (code, err) == (0, "")
    a6 = pages((tmp_path / "a6.pdf").read_bytes())
    code, _, err = render(path, tmp_path / "merged.pdf", "--card", "a6", "--merge")
    assert (code, err) == (0, "")
    merged = pages((tmp_path / "merged.pdf").read_bytes())

    assert {size for size, _ in poker} == {(63, 88)}
    assert {size for size, _ in a6} == {(148, 105)}
    text = " ".join(page for _, page in a6)
    for name in entries:
        assert name in text and name in " ".join(page for _, page in poker)
    # The unit entered twice, or where it is a formation (a company) its first unit with a card (the HQ).
    last = roster.forces[0].selections[-1]
    twice = card_units(last, ShownInfo(roster))[0].selection.name
    assert sum(page.count(f"{twice} ") for _, page in a6) > sum(page.count(f"{twice} ×") for _, page in a6)
    assert any(f"{twice} ×2" in page for _, page in merged)
    assert len(merged) < len(a6)


def test_render_cards_of_a_game_with_no_data_loaded_exits_2_naming_it(tmp_path):
    fixture = Path(__file__).resolve().parent / "fixtures" / "battlescribe" / "newrecruit-export-example.ros"
    code, _, err = render(fixture, tmp_path / "cards.pdf")
    assert code == 2
    assert "Age of Sigmar" in err and "load_battlescribe" in err
    assert not (tmp_path / "cards.pdf").exists()
