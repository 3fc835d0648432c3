"""loadpacks: a valid pack loads, an invalid one loads nothing, reloads are idempotent."""

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction

from lists.models import GameSystem, UnitOption, UnitType, Weapon

FIXTURE = Path(__file__).parent / "fixtures" / "packs" / "skirmish"


@pytest.fixture
def packs_dir(tmp_path: Path) -> Path:
    """A folder of packs holding a copy of the skirmish pack, free to edit."""
    shutil.copytree(FIXTURE, tmp_path / "skirmish")
    return tmp_path


def edit(packs_dir: Path, file: str, old: str, new: str) -> None:
    path = packs_dir / "skirmish" / file
    text = path.read_text()
    assert old in text, f"{old!r} not in {file}"
    path.write_text(text.replace(old, new, 1))


def load(packs_dir: Path, capsys) -> tuple[str, str]:
    call_command("loadpacks", packs_dir=packs_dir)
    captured = capsys.readouterr()
    return captured.out, captured.err


def load_fails(packs_dir: Path, capsys) -> str:
    with pytest.raises(CommandError, match="nothing was loaded"):
        call_command("loadpacks", packs_dir=packs_dir)
    return capsys.readouterr().err


@pytest.mark.django_db
def test_a_valid_pack_loads_its_units_weapons_and_rules(packs_dir, capsys):
    out, _ = load(packs_dir, capsys)

    assert "skirmish 1.0.0: loaded" in out
    system = GameSystem.objects.get(key="skirmish")
    assert system.version == "1.0.0"
    assert len(system.content_hash) == 64
    squad = UnitType.objects.get(key="rifle-squad")
    assert squad.points == 50
    assert [(m.count, m.role, m.name) for m in squad.models.all()] == [(1, "nco", "NCO"), (4, "soldier", "Rifleman")]
    mortar = Weapon.objects.get(key="light-mortar")
    assert mortar.profile() == [
        ("Range", ""),
        ("Shots", "1"),
        ("Pen", "HE"),
        ("Special rules", 'Team, Indirect Fire, HE (1")'),
    ]
    assert system.errata.get().used_value == "1"


@pytest.mark.django_db
def test_reloading_an_unchanged_pack_changes_nothing(packs_dir, capsys, django_assert_max_num_queries):
    load(packs_dir, capsys)
    ids = sorted(UnitType.objects.values_list("id", flat=True))

    with django_assert_max_num_queries(5):
        out, _ = load(packs_dir, capsys)

    assert "skirmish 1.0.0: unchanged" in out
    assert sorted(UnitType.objects.values_list("id", flat=True)) == ids


@pytest.mark.django_db
def test_a_changed_pack_updates_rows_in_place(packs_dir, capsys):
    load(packs_dir, capsys)
    squad_id = UnitType.objects.get(key="rifle-squad").id
    option_id = UnitOption.objects.get(key="extra-man").id
    old_hash = GameSystem.objects.get().content_hash

    edit(packs_dir, "arms.yaml", "    points: 50\n    min_size: 5", "    points: 55\n    min_size: 5")
    edit(
        packs_dir,
        "arms.yaml",
        "{key: extra-man, name: Extra rifleman, points: 10",
        "{key: extra-man, name: Extra rifleman, points: 12",
    )
    out, _ = load(packs_dir, capsys)

    assert "skirmish 1.0.0: loaded" in out
    squad = UnitType.objects.get(key="rifle-squad")
    assert (squad.id, squad.points) == (squad_id, 55)
    option = UnitOption.objects.get(key="extra-man")
    assert (option.id, option.points) == (option_id, 12)
    assert GameSystem.objects.get().content_hash != old_hash


@pytest.mark.django_db
def test_a_unit_removed_from_the_pack_is_removed(packs_dir, capsys):
    load(packs_dir, capsys)
    text = (packs_dir / "skirmish" / "arms.yaml").read_text()
    start = text.index("  - key: mortar-team")
    end = text.index("organisations:")
    (packs_dir / "skirmish" / "arms.yaml").write_text(text[:start] + text[end:])

    load(packs_dir, capsys)

    assert sorted(UnitType.objects.values_list("key", flat=True)) == ["lieutenant", "rifle-squad"]


INVALID_PACKS = [
    pytest.param(
        "arms.yaml",
        "    points: 50\n",
        "    points: 50\n    pionts: 5\n",
        "arms.yaml: units.1.pionts: Extra inputs are not permitted",
        id="unknown-key",
    ),
    pytest.param(
        "arms.yaml",
        "    points: 50\n",
        '    points: "50"\n',
        "arms.yaml: units.1.points: Input should be a valid integer",
        id="wrong-type",
    ),
    pytest.param(
        "arms.yaml",
        "rules: [team, indirect-fire,",
        "rules: [tem, indirect-fire,",
        "arms.yaml: weapons.1.rules.0: unknown rule 'tem'",
        id="dangling-rule",
    ),
    pytest.param(
        "arms.yaml",
        "name: Crew, weapons: [light-mortar]",
        "name: Crew, weapons: [heavy-mortar]",
        "arms.yaml: units.2.composition.0.weapons.0: unknown weapon 'heavy-mortar'",
        id="dangling-weapon",
    ),
    pytest.param(
        "arms.yaml",
        "    army: blue\n    category: squad",
        "    army: red\n    category: squad",
        "arms.yaml: units.1.army: unknown army 'red'",
        id="dangling-army",
    ),
    pytest.param(
        "arms.yaml",
        "  - key: light-mortar",
        "  - key: rifle",
        "arms.yaml: weapons.1.key: the key 'rifle' is used twice in weapons",
        id="duplicate-key",
    ),
    pytest.param(
        "arms.yaml",
        'shots: "1"\n    source',
        'shots: "1"\n    shots: "2"\n    source',
        "arms.yaml: line 7, column 5: not valid YAML: the key 'shots' appears twice in one mapping",
        id="duplicate-mapping-key",
    ),
    pytest.param(
        "arms.yaml",
        "weapons:\n",
        "weapons: [\n",
        "arms.yaml: line 2, column 3: not valid YAML",
        id="malformed-yaml",
    ),
    pytest.param(
        "arms.yaml",
        'shots: "1"',
        'shots: "many"',
        "arms.yaml: weapons.0.shots: Value error, shots must be a number or a dice expression",
        id="bad-dice",
    ),
    pytest.param(
        "pack.yaml",
        "version: 1.0.0",
        "version: one",
        "pack.yaml: system.version: String should match pattern",
        id="bad-version",
    ),
    pytest.param(
        "arms.yaml",
        "categories: [squad], min: 1, max: 4}",
        "categories: [squads], min: 1, max: 4}",
        "arms.yaml: organisations.0.slots.1.categories.0: unknown unit category 'squads'",
        id="dangling-slot-category",
    ),
    pytest.param(
        "pack.yaml",
        "    summary: Needs two crew to fire at full effect.\n",
        "    summary: Needs two crew to fire at full effect.\n    applies_to: {categories: [squads], options: [extra]}\n",
        "pack.yaml: rules.0.applies_to.categories.0: unknown unit category 'squads'",
        id="dangling-rule-scope",
    ),
    pytest.param(
        "pack.yaml",
        "    summary: Needs two crew to fire at full effect.\n",
        "    summary: Needs two crew to fire at full effect.\n    applies_to: {options: [extra]}\n",
        "pack.yaml: rules.0.applies_to.options.0: no unit has an option 'extra'",
        id="rule-scope-unknown-option",
    ),
    pytest.param(
        "arms.yaml",
        "{key: extra-man, name: Extra rifleman,",
        "{key: extra-man, name: Extra rifleman, model: Sergeant,",
        "arms.yaml: units.1.options.0.model: the unit has no model line named 'Sergeant'",
        id="option-model-unknown",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("file", "old", "new", "message"), INVALID_PACKS)
def test_an_invalid_pack_is_refused_with_its_message_and_nothing_is_saved(packs_dir, capsys, file, old, new, message):
    edit(packs_dir, file, old, new)

    err = load_fails(packs_dir, capsys)

    assert message in err
    assert err.splitlines()[0].split(": ", 1)[0].endswith(f"skirmish/{file}")
    assert not GameSystem.objects.exists()
    assert not UnitType.objects.exists()


@pytest.mark.django_db
def test_one_invalid_pack_stops_every_pack_from_loading(packs_dir, capsys):
    shutil.copytree(FIXTURE, packs_dir / "second")
    edit(packs_dir, "pack.yaml", "key: skirmish", "key: skirmish-two")
    edit(packs_dir, "arms.yaml", "    points: 50\n", '    points: "fifty"\n')

    err = load_fails(packs_dir, capsys)

    assert "units.1.points" in err
    assert not GameSystem.objects.exists()


@pytest.mark.django_db
def test_an_invalid_reload_keeps_the_loaded_data(packs_dir, capsys):
    load(packs_dir, capsys)
    edit(packs_dir, "arms.yaml", "    points: 50\n", "    points: -5\n")

    load_fails(packs_dir, capsys)

    assert UnitType.objects.get(key="rifle-squad").points == 50


@pytest.mark.django_db
def test_a_pack_folder_without_a_system_is_refused(packs_dir, capsys):
    (packs_dir / "skirmish" / "pack.yaml").unlink()

    err = load_fails(packs_dir, capsys)

    assert "skirmish: system: no file of the pack gives its system" in err


def test_the_command_exits_non_zero_on_an_invalid_pack(packs_dir, tmp_path):
    """Run as a user would: a separate process, a fresh database, exit status and stderr."""
    import os
    import subprocess
    import sys

    edit(packs_dir, "arms.yaml", "rules: [team, indirect-fire,", "rules: [tem, indirect-fire,")
    # A throwaway SQLite database, whatever database the suite itself runs on.
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        DJANGO_DEBUG="1",
        DJANGO_SQLITE_PATH=str(tmp_path / "cli.sqlite3"),
        ARMYBUILDER_CACHE_DIR=str(tmp_path / "cache"),
    )
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=root, env=env, check=True)

    result = subprocess.run(
        [sys.executable, "manage.py", "loadpacks", "--packs-dir", str(packs_dir)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode != 0
    assert "arms.yaml: weapons.1.rules.0: unknown rule 'tem'" in result.stderr
    assert "nothing was loaded" in result.stderr


class RolledBack(Exception):
    pass


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="PostgreSQL plans from statistics it gathers in the background; SQLite keeps none",
)
def test_after_a_load_the_planner_counts_the_rows_written_not_the_tables_before(db, packs_dir, capsys):
    # What makes a first read after a load run for minutes: the tables' last statistics counted no rows over
    # pages of rows rolled back (a load that failed), so every table written since is planned as empty and
    # joined in nested loops over whole tables.
    with pytest.raises(RolledBack), transaction.atomic():
        load(packs_dir, capsys)
        raise RolledBack
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE lists_unitoption")

    load(packs_dir, capsys)

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN SELECT * FROM lists_unitoption")
        estimated = int(re.search(r"rows=(\d+)", cursor.fetchone()[0]).group(1))
    assert estimated == UnitOption.objects.count() > 1
