"""A roster of a loaded BattleScribe data set as JSON (the API and the export) and read back from it.

The document names the game (data set name, revision), each force (catalogue, force name) and each
selection with its entry name, number, own costs per cost type after modifiers and children, the
roster's costs and limits, and the engine's validation errors (message and where). The export adds
the entry ids a roster is rebuilt from: reading one back makes the same engine actions a player
makes (add a force, select an entry, set its count) and removes what the data selected by itself
but the file does not hold, so the engine prices and judges the rebuilt roster afresh.
"""

from __future__ import annotations

from lists import models
from lists.battlescribe.engine import Force, Roster, Selection, ValidationError, find_option, roster_errors
from lists.gamedata.battlescribe_cache import battlescribe_game_data
from lists.rosters.battlescribe_data_rosters import DataSetRoster, number, primary_cost_type
from lists.rosters.format import MAX_PROBLEMS, Problem, RosterFileInvalid
from lists.rosters.numbers import finite
from lists.rosters.plain_names import plain_text

FORMAT = "armybuilder/battlescribe-roster"
FORMAT_VERSION = 1
MAX_NUMBER = 10_000  # as a .ros selection's number: refused above
MAX_NODES = 5_000  # forces and selections in one file: refused above rather than rebuilt
MAX_CUSTOM_TEXT = 2_000  # a player's own name or notes for a force or selection: longer is refused
MAX_NAME = 200  # a roster's name, as the editor keeps it


def roster_document(roster: Roster, data_set: models.BattleScribeDataSet, with_ids: bool = False) -> dict:
    """The roster as the API answers it; `with_ids` adds what importing it back needs."""
    names = {c.id: c.name for c in roster.data.cost_types}
    document = {
        "name": roster.name,
        "game": {"name": data_set.name, "revision": data_set.revision},
        "costs": _costs(roster.totals, names),
        "cost_limits": {names.get(k, k): number(v) for k, v in roster.cost_limits.items() if v >= 0},
        "forces": [_force(force, names, with_ids) for force in roster.forces],
    }
    errors = roster_errors(roster)
    owners = Owners(roster)
    document["errors"] = [{"message": e.message, "where": {"type": e.owner_type, **owners.of(e)}} for e in errors]
    document["valid"] = not errors
    if with_ids:
        document = {"format": FORMAT, "version": FORMAT_VERSION, **document}
        document["game"]["game_system_id"] = data_set.game_system_id
        document["cost_limits_by_id"] = {k: number(v) for k, v in roster.cost_limits.items()}
    return document


def _costs(costs: dict[str, float], names: dict[str, str]) -> dict:
    return {names.get(type_id, type_id): number(value) for type_id, value in costs.items()}


def _force(force: Force, names: dict[str, str], with_ids: bool) -> dict:
    totals: dict[str, float] = {}
    for selection in force.all_selections():
        for type_id, value in selection.costs.items():
            totals[type_id] = totals.get(type_id, 0.0) + value
    found = {
        "name": force.name,
        "catalogue": force.catalogue.name,
        **_custom(force),
        **({"force_entry_id": force.entry.id, "catalogue_id": force.catalogue.id} if with_ids else {}),
        "costs": _costs(totals, names),
        "selections": [_selection(s, names, with_ids) for s in force.selections],
        "forces": [_force(child, names, with_ids) for child in force.forces],
    }
    return found


def _selection(selection: Selection, names: dict[str, str], with_ids: bool) -> dict:
    return {
        "name": selection.name,
        **_custom(selection),
        **({"entry_id": selection.option.id} if with_ids else {}),
        "number": selection.number,
        "costs": _costs(
            selection.costs, names
        ),  # its own for its number, as BattleScribe lists them; children carry theirs
        "children": [_selection(child, names, with_ids) for child in selection.children],
    }


def _custom(held: Force | Selection) -> dict:
    """The player's own name and notes for a force or selection, where they gave any (as a .ros keeps them)."""
    return {
        key: value
        for key, value in (("custom_name", held.custom_name), ("custom_notes", held.custom_notes))
        if (value or "").strip()
    }


class Owners:
    """The names of each error's owner: its own (a category's as the data names it), and for a category or
    selection the force it is in (a category error of no one force: the first force having that category).
    Every force, category and selection is indexed once, so a roster of many errors is answered in linear time."""

    def __init__(self, roster: Roster) -> None:
        self.forces: dict[str, dict] = {}
        self.categories: dict[tuple[str, str], tuple[int, dict]] = {}  # ("id" or "entry", its value) -> first
        self.selections: dict[str, dict] = {}
        for place, force in enumerate(roster.all_forces()):
            self.forces.setdefault(force.id, {"name": force.name})
            for category in force.categories:
                found = (place, {"name": category.custom_name or category.name, "force": force.name})
                self.categories.setdefault(("id", category.id), found)
                self.categories.setdefault(("entry", category.entry_id), found)
            for selection in force.all_selections():
                self.selections.setdefault(selection.id, {"name": selection.name, "force": force.name})

    def of(self, error: ValidationError) -> dict:
        if error.owner_type == "force":
            return self.forces.get(error.owner_id or "", {})
        if error.owner_type == "selection":
            return self.selections.get(error.owner_id or "", {})
        if error.owner_type == "category":
            found = [
                self.categories[key]
                for key in (("id", error.owner_id), ("entry", error.owner_entry_id))
                if key in self.categories
            ]
            return min(found, key=lambda item: item[0])[1] if found else {}
        return {}


# --- reading one back ----------------------------------------------------------------------------


def is_document(data) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def read_document(data: dict) -> DataSetRoster:
    """The roster a JSON (or YAML) export describes, rebuilt by the engine; RosterFileInvalid says why not."""
    if data.get("version") != FORMAT_VERSION:
        raise _refused(
            f"version {str(data.get('version'))[:20]} of this format is not known here; export the roster again"
        )
    game = data.get("game") if isinstance(data.get("game"), dict) else {}
    data_set = _data_set(game)
    roster_data = battlescribe_game_data(data_set)
    problems: list[str] = []
    roster = Roster(
        roster_data, _plain(data.get("name"), "the roster's name", problems)[:MAX_NAME] or "Imported roster"
    )
    limits = data.get("cost_limits_by_id") if isinstance(data.get("cost_limits_by_id"), dict) else {}
    for type_id, value in limits.items():
        if roster.is_cost_type(str(type_id)) and isinstance(value, int | float):
            if finite(value) is None:
                problems.append(f"cost limit {str(type_id)[:100]}: {str(value)[:20]} is not a number of points")
            else:
                roster.set_cost_limit(str(type_id), finite(value))
    budget = [MAX_NODES]
    try:
        with roster.action():  # the roster built whole, then evaluated once
            for force in _list(data, "forces"):
                _rebuild_force(roster, force, None, problems, budget)
    except (KeyError, ValueError) as exc:  # what the checks here leave to the engine
        raise _refused(
            f"the roster cannot be rebuilt against {data_set.name} revision {data_set.revision}: {exc}"
        ) from None
    if problems:
        raise _refused(*problems[:MAX_PROBLEMS])
    found = DataSetRoster(roster, data_set, data_set.revision, primary_cost_type(roster_data))
    points_name = next((c.name for c in roster_data.cost_types if c.id == found.points_type), "")
    file_points = (data.get("costs") or {}).get(points_name) if isinstance(data.get("costs"), dict) else None
    # The file's own total, only compared (validate_roster says when it differs from the engine's).
    own_total = finite(file_points)
    found.file_total = own_total if own_total is not None else roster.totals.get(found.points_type or "", 0.0)
    found.label_units()
    return found


def _refused(*problems: str) -> RosterFileInvalid:
    return RosterFileInvalid([Problem("", problem) for problem in problems])


def _list(node: dict, key: str) -> list[dict]:
    value = node.get(key) or []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise _refused(f"{key} is a list of mappings, as the export writes it")
    return value


def _data_set(game: dict) -> models.BattleScribeDataSet:
    """The data set of the file's game system and revision; the newest loaded if that revision is not."""
    system_id = str(game.get("game_system_id") or "")
    loaded = models.BattleScribeDataSet.objects.filter(game_system_id=system_id)
    found = (
        loaded.filter(revision=game.get("revision")).order_by("-loaded_at", "-pk").first()
        if isinstance(game.get("revision"), int)
        else None
    )
    found = found or loaded.order_by("-revision", "-loaded_at", "-pk").first()
    if found is None:
        raise _refused(
            f"no BattleScribe data for {str(game.get('name') or system_id)[:100]} is loaded: "
            "run `python manage.py load_battlescribe DIR` with its data"
        )
    return found


def _rebuild_force(roster: Roster, node: dict, parent: Force | None, problems: list[str], budget: list[int]) -> None:
    entry_id, catalogue_id = str(node.get("force_entry_id") or ""), str(node.get("catalogue_id") or "")
    if entry_id not in roster.data.force_entries or catalogue_id not in roster.data.catalogues_by_id:
        problems.append(f"force {str(node.get('name'))[:100]}: its force entry or catalogue is not in this data")
        return
    force = roster.add_force(entry_id, catalogue_id, parent)
    _take_custom(force, node, problems)
    _rebuild_children(roster, force, _list(node, "selections"), problems, budget)
    for child in _list(node, "forces"):
        _rebuild_force(roster, child, force, problems, budget)


def _take_custom(held: Force | Selection, node: dict, problems: list[str]) -> None:
    """The player's own name and notes, as the file gives them (text of at most MAX_CUSTOM_TEXT characters)."""
    for key in ("custom_name", "custom_notes"):
        value = node.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or len(value) > MAX_CUSTOM_TEXT:
            problems.append(
                f"{str(node.get('name'))[:100]}: {key} must be text of at most {MAX_CUSTOM_TEXT} characters"
            )
            continue
        setattr(held, key, _plain(value, f"{str(node.get('name'))[:100]}: {key}", problems))


def _plain(value, what: str, problems: list[str]) -> str:
    """A name or note as every name of ours is kept (`validation.one_line`); a problem, naming it, if it holds
    control characters or what no XML may hold."""
    try:
        return plain_text(str(value or ""), notes=what.endswith("custom_notes"))
    except ValueError as refused:
        problems.append(f"{what}: {refused}")
        return ""


def _held(parent: Force | Selection) -> list[Selection]:
    return parent.selections if isinstance(parent, Force) else parent.children


def _rebuild_children(
    roster: Roster, parent: Force | Selection, wanted: list[dict], problems: list[str], budget: list[int]
) -> None:
    """Make `parent` hold the selections `wanted` lists, in the engine's own steps."""
    matched: set[int] = set()  # the ids of the selections matched so far
    # What the parent held before (its defaults), by option, first held last: each is matched once.
    waiting: dict[int, list[Selection]] = {}
    for held in reversed(_held(parent)):
        waiting.setdefault(id(held.option), []).append(held)
    for node in wanted:
        budget[0] -= 1
        if budget[0] < 0:
            problems.append(f"the roster holds more than {MAX_NODES} selections")
            return
        option = find_option(roster.options_under(parent), str(node.get("entry_id") or ""))
        count = node.get("number", 1)
        if option is None or isinstance(count, bool) or not isinstance(count, int) or not 0 < count <= MAX_NUMBER:
            problems.append(
                f"{str(node.get('name'))[:100]} ({str(node.get('entry_id'))[:100]}): not an entry {parent.name} "
                f"offers, or its number is not a whole number from 1 to {MAX_NUMBER}"
            )
            continue
        queue = waiting.get(id(option))
        selection = queue.pop() if queue else roster.select(parent, option)
        if selection.number != count:
            roster.set_count(selection, count)
        matched.add(id(selection))
        _take_custom(selection, node, problems)
        _rebuild_children(roster, selection, _list(node, "children"), problems, budget)
    for extra in [s for s in _held(parent) if id(s) not in matched]:
        roster.remove(extra)
