"""Runs the converter over a whole library: each catalogue's entries become units, its theatre selectors
army lists, and the game system's forces organisations."""

from __future__ import annotations

import re

from lists.battlescribe.constraints import modified_value, shared_least, unit_limit
from lists.battlescribe.converter import Converter
from lists.battlescribe.force_limits import force_limits, force_organisations
from lists.battlescribe.forces import list_rules, organisation_key, organisations, selectors
from lists.battlescribe.names import slug
from lists.battlescribe.nodes import Army, Node, Report
from lists.battlescribe.reader import DataFile
from lists.battlescribe.units import UnitBuilder, nested_units


class PackWriter:
    """Runs the converter over a whole library and gathers the pack sections."""

    def __init__(self, converter: Converter):
        self.converter = converter
        self.report = converter.report
        self.files: dict[str, dict] = {}
        self.unit_keys: dict[str, list[str]] = {}  # entry id -> the keys of the units made from it

    def run(self) -> dict[str, dict]:
        library = self.converter.library
        for catalogue in library.catalogues:
            self.catalogue(catalogue)
        # The game system's forces serve every converted army (not the hand-written Generic army).
        converted = {army["key"]: army["source_id"] for content in self.files.values() for army in content["armies"]}
        organisations_ = organisations(self.converter, library.system, converted)
        shared: dict = {
            "unit_categories": [
                {k: v for k, v in c.items() if k != "source_id"} | {"source_id": c["source_id"]}
                for c in sorted(self.converter.categories.values(), key=lambda c: c["key"])
            ],
            "rules": sorted(self.converter.rules.values(), key=lambda r: r["key"]),
            "weapons": sorted(self.converter.weapons.values(), key=lambda w: w["key"]),
            "organisations": organisations_,
        }
        self.files = {"shared.yaml": shared, **self.files}
        return self.files

    def catalogue(self, catalogue: DataFile) -> None:
        name = catalogue.root.get("name", catalogue.name)
        key = slug(re.sub(r"^(BA2 - )?(Armies of )?(the )?", "", name.strip(), flags=re.IGNORECASE))
        army = Army(key, name, catalogue, catalogue.root.get("id", ""))
        selectors(self.converter, army)
        self.unit_keys = {}  # the ids of one catalogue: others copy entries with the same ids
        units: list[dict] = []
        shown_in: dict[str, list[str]] = {selector_key: [] for _, selector_key, _ in army.selector_ids}
        entries = [
            catalogue.root.findall("entryLinks/entryLink"),
            catalogue.root.findall("selectionEntries/selectionEntry"),
        ]
        for element in [e for group in entries for e in group]:
            node = self.converter.resolve(element, catalogue)
            if node is not None:
                self.entry(node, army, units, shown_in)
        self.needed_units(units, catalogue, shown_in)
        self.share_limits(units)
        self.link_limits(units)
        armies = self.armies(army, shown_in)
        self.report.counts["nations converted"] += 1
        content: dict = {"armies": armies, "units": units}
        found = organisations(self.converter, catalogue, {a["key"]: a["source_id"] for a in armies})
        if found:
            content["organisations"] = found
        self.files[f"{army.key}.yaml"] = content

    def needed_units(self, units: list[dict], catalogue: DataFile, shown_in: dict[str, list[str]]) -> None:
        """Options shown only beside other units (Cavalry beside a cavalry unit) name those units' keys; one
        whose units were not converted is left out, with what its taking changes on other options (data with
        no effect where no entry of the catalogue's roots adds those units)."""
        offered = {e.get(a, "") for e in catalogue.root.iter() if e.tag == "entryLink" for a in ("id", "targetId")}
        offered |= {e.get("id", "") for e in catalogue.root.findall("selectionEntries/selectionEntry")}
        for unit in units:
            kept = []
            for option in unit.get("options", []):
                needs = option.pop("_needs", None)
                keys = sorted({key for entry_id in needs or [] for key in self.unit_keys.get(entry_id, [])})
                if needs and not keys:
                    self.left_out(catalogue, unit, option, offered & set(needs))
                    continue
                if keys and not self.beside_in_lists(unit, option, keys, shown_in):
                    self.left_out(catalogue, unit, option, offered & set(needs))
                    continue
                if keys:
                    option["needs_units"] = keys
                    self.report.pattern("an option shown only beside another unit in its force: it needs one")
                kept.append(option)
            dropped = {option["key"]: option for option in unit.get("options", []) if option not in kept}
            for option in kept:
                for key in dropped.keys() & set(option.get("points_with", {})):
                    del option["points_with"][key]
                    if dropped[key].get("_offered_nowhere"):
                        where = f"{catalogue.name}: {unit['name']} / {option['name']}"
                        why = f"a points change while {dropped[key]['source_id']} is taken, which is never shown"
                        self.report.without_effect(where, option["source_id"], why)
                    else:
                        self.report.pattern(
                            "a point change while an option is taken that the pack does not offer (shown only"
                            " beside units the pack lacks)"
                        )
                if option.get("points_with") == {}:
                    del option["points_with"]
            if "options" in unit:
                unit["options"] = kept

    @staticmethod
    def beside_in_lists(unit: dict, option: dict, needed: list[str], shown_in: dict[str, list[str]]) -> bool:
        """Offer an option needing another unit only in the theatre lists fielding one (no Cavalry for an
        observer where no cavalry unit can be taken); False where no list does."""
        lists_of_unit = option.get("armies") or [key for key, shown in shown_in.items() if unit["key"] in shown]
        kept = [key for key in lists_of_unit if set(shown_in.get(key, ())) & set(needed)]
        if kept and (option.get("armies") or len(kept) < len(lists_of_unit)):
            option["armies"] = kept
        return bool(kept)

    def left_out(self, catalogue: DataFile, unit: dict, option: dict, linked: set[str]) -> None:
        """An option shown only beside units not converted: skipped, or data with no effect where no link
        of the catalogue adds those units at all (BattleScribe never shows it)."""
        where = f"{catalogue.name}: {unit['name']} / {option['name']}"
        if linked:
            self.report.skip(where, option["source_id"], "shown only beside units not converted")
        else:
            self.report.without_effect(where, option["source_id"], "shown only beside entries no list adds")
            option["_offered_nowhere"] = True

    def placed(self, node: Node, catalogue: DataFile) -> tuple[str, dict, str] | None:
        """An entry's category key, that category and its primary category id; None (reported) for an entry
        with no place in a force, or a theatre selector or utility entry."""
        where = f"{catalogue.name}: {node.name}"
        links = [c for part in node.parts() for c in part.findall("categoryLinks/categoryLink")]
        primary = next((c for c in links if c.get("primary") == "true"), links[0] if links else None)
        category = self.converter.category(primary.get("targetId", ""), catalogue) if primary is not None else None
        if category is None:
            self.report.skip(where, node.id, "no category, so no place in a force")
            return None
        category_info = next(c for c in self.converter.categories.values() if c["key"] == category)
        if "selector" in category_info["name"].lower() or "utility" in category_info["name"].lower():
            self.report.skip(where, node.id, "a theatre selector or utility entry, not a unit (read as army lists)")
            return None
        return category, category_info, primary.get("targetId", "")

    def entry(self, node: Node, army: Army, units: list[dict], shown_in: dict[str, list[str]]) -> None:
        """One root entry of a catalogue: its unit(s), with their limits, added to `units` and to the army
        lists showing each."""
        placed = self.placed(node, army.catalogue)
        if placed is None:
            return
        self.report.counts["entries a player can add"] += 1
        shown = self.converter.visible_in(node, army)
        if not shown:
            self.report.skip(f"{army.catalogue.name}: {node.name}", node.id, "hidden in every theatre selector")
            return
        group, nested = nested_units(self.converter, node, army.catalogue)
        built = self.built_units(node, army, shown, placed, group, nested)
        if not built:
            return
        selector_keys = [(selector_id, key) for selector_id, key, _ in army.selector_ids if key in shown]
        most, army_limits, per = unit_limit(node, selector_keys, self.converter.force_id, self.report)
        capacity = int(group.limit("max") or 1) if group is not None else 1
        per_force = self.per_force_limits(node, (node.id, node.name) if nested else None, selector_keys, capacity)
        if nested and per == "force":
            most, army_limits = None, {}  # the entry's most per force binds its units together (force_limits)
        if nested:
            self.report.pattern("an entry holding several whole units (officer ranks, team kinds) split into units")
        self.report.counts["entries converted"] += 1
        self.report.counts["units written"] += len(built)
        inner_nodes = {inner.id: inner for inner in nested}
        for unit, unit_shown in built:
            own = (most, army_limits, per)
            if unit["source_id"] in inner_nodes:
                own = self.inner_limit(inner_nodes[unit["source_id"]], selector_keys, own, per_force)
            if own[0] is not None:
                unit["max_in_roster"] = own[0]
            if own[1]:
                unit["army_limits"] = own[1]
            if own[2] == "force" and (own[0] is not None or own[1]):
                unit["limit_per"] = own[2]
            if per_force:
                unit["force_limits"] = per_force
            units.append(unit)
            for entry_id in {node.id, node.element.get("id", ""), unit["source_id"]}:
                self.unit_keys.setdefault(entry_id, []).append(unit["key"])
            for selector_key in unit_shown:
                shown_in[selector_key].append(unit["key"])

    def inner_limit(
        self,
        inner: Node,
        selector_keys: list[tuple[str, str]],
        outer: tuple[int | None, dict[str, int], str],
        per_force: list[dict],
    ) -> tuple[int | None, dict[str, int], str]:
        """A nested unit's most per force or roster: its own (a Romanian gun kind, one a roster), else the
        entry's; the lower where both count the same. Its own most per force is left out where the entry's
        (which its kinds share, `per_force`) is as low in every list: one finding, not two."""
        most, army_limits, per = unit_limit(inner, selector_keys, self.converter.force_id, self.report, nested=True)
        everywhere = [
            limit["max"] for limit in per_force if "max" in limit and not {"armies", "organisation"} & set(limit)
        ]
        if per == "force" and not army_limits and most is not None and everywhere and max(everywhere) <= most:
            most = None
        if most is None and not army_limits:
            return outer
        if outer[0] is not None and outer[2] == per:
            most = min(most, outer[0]) if most is not None else outer[0]
        elif outer[0] is not None:
            self.report.pattern("a nested unit's own most per force or roster beside its entry's other one: its own")
        self.report.pattern(f"a nested unit's own most per {per}")
        return most, army_limits, per

    def built_units(
        self, node: Node, army: Army, shown: list[str], placed: tuple[str, dict, str], group, nested: list[Node]
    ) -> list[tuple[dict, list[str]]]:
        """The units an entry makes (one, or each whole unit it holds), each with the army lists showing it."""
        category, category_info, primary_id = placed
        where = f"{army.catalogue.name}: {node.name}"
        built = []
        for name_node, body in [(inner, [node, inner]) for inner in nested] or [(node, [node])]:
            # A unit inside the entry (a heavy mortar among the mortar teams) may hide in some lists itself.
            visible = self.converter.visible_in(name_node, army) if name_node is not node else shown
            unit_shown = [k for k in shown if k in visible]
            if not unit_shown:
                self.report.skip(
                    f"{where} / {name_node.name}", name_node.id, "hidden in every theatre selector showing the entry"
                )
                continue
            if len(unit_shown) < len(shown):
                self.report.pattern("a unit inside an entry that some theatre lists hide: offered only in the others")
            builder = UnitBuilder(self.converter, army, army.catalogue, node)
            builder.unit_shown = unit_shown
            builder.tree.primary_category = primary_id
            if group is not None:
                builder.skip_ids.add(group.id)
            unit = builder.build(name_node, body, category, category_info["kind"])
            if unit is not None:
                built.append((unit, unit_shown))
        return built

    def armies(self, army: Army, shown_in: dict[str, list[str]]) -> list[dict]:
        """The nation's army and an army list for each theatre selector showing a unit."""
        catalogue = army.catalogue
        rules = list_rules(self.converter, army)
        armies = [
            {
                "key": army.key,
                "name": army.name,
                "summary": "Every unit of the catalogue; pick one of its theatre selector lists for a legal army list.",
                "rules": rules.national,
                **({"rule_choices": rules.choices} if rules.choices else {}),
                "source": {"document": "bsdata", "section": catalogue.name},
                "source_id": army.source_id,
            }
        ]
        for selector_id, selector_key, selector_name in army.selector_ids:
            if not shown_in[selector_key]:
                self.report.skip(
                    f"{catalogue.name}: {selector_name}", selector_id, "the theatre selector shows no unit"
                )
                continue
            armies.append(
                {
                    "key": selector_key,
                    "name": selector_name,
                    "rules_from": army.key,
                    **({"rules_left_out": rules.left_out[selector_key]} if rules.left_out[selector_key] else {}),
                    **({"rules": rules.own[selector_key]} if rules.own[selector_key] else {}),
                    "borrows_from": [army.key],
                    "borrow_units": sorted(shown_in[selector_key]),
                    "source": {"document": "bsdata", "section": catalogue.name, "entry": selector_name},
                    "source_id": selector_id,
                }
            )
            self.report.counts["theatre selectors converted"] += 1
        return armies

    def per_force_limits(
        self, node: Node, group: tuple[str, str] | None, selector_keys: list[tuple[str, str]], capacity: int = 1
    ) -> list[dict]:
        """The unit's least and most per kind of force (the Reinforced Platoon's one officer), each theatre
        list's own where its selector changes them; a least number other units count toward is shared."""
        organisations = force_organisations(self.converter.library.system, organisation_key)
        shared = shared_least(node)
        for modifier in node.modifiers():
            if modifier.find("repeats/repeat") is not None and modifier.get("field") not in shared:
                self.report.pattern("a limit that repeats with other selections: not carried")

        def value_in(constraint, selector_id: str | None) -> float:
            chosen = {self.converter.force_id} | ({selector_id} if selector_id else set())
            return modified_value(node, constraint, chosen, Report())  # repeats: read above (shared_least)

        limits = force_limits(node.constraints(), organisations, group, value_in, selector_keys, capacity)
        for limit in limits:
            limit["_entry"] = node.element.get("id", "")  # the entry its links share (link_limits)
            if limit.get("armies"):
                self.report.pattern("a unit's limit per force of one kind that a theatre changes: each list's own")
            if limit["source_id"] in shared:
                limit["group"] = limit["source_id"]
                limit["_counts_also"] = shared[limit["source_id"]]
            for kind in ("min", "max"):
                if kind in limit:
                    self.report.pattern(f"a unit's {kind} per force of one kind (an officer per Reinforced Platoon)")
        return limits

    def link_limits(self, units: list[dict]) -> None:
        """Units several links to one entry make (a Belgian Infantry Section in two slots) count together
        toward the entry's limits, as the data counts the entry's selections whichever link added them."""
        holders: dict[tuple[str, str], set[str]] = {}
        held = [(unit["key"], limit) for unit in units for limit in unit.get("force_limits", [])]
        for key, limit in held:
            holders.setdefault((limit["_entry"], limit["source_id"]), set()).add(key)
        limits = [limit for _, limit in held]
        for limit in limits:
            if len(holders[(limit["_entry"], limit["source_id"])]) > 1 and "group" not in limit:
                limit["group"] = limit["source_id"]
                self.report.pattern("a unit's limit per force over the units its entry's links make: one limit")
        for limit in limits:
            limit.pop("_entry", None)

    def share_limits(self, units: list[dict]) -> None:
        """A least number other units count toward (Belgium's two sections, Regular or Inexperienced): the
        same limit on those units, one group named after them all."""
        by_key = {unit["key"]: unit for unit in units}
        for unit in units:
            for limit in unit.get("force_limits", []):
                counted = limit.pop("_counts_also", [])
                others = [by_key[k] for entry_id in counted for k in self.unit_keys.get(entry_id, [])]
                if counted and not others:
                    del limit["group"]  # the entries it counts are never added: the unit's own least number
                    why = f"a least number lowered per selection of {', '.join(counted)}, which no root entry adds"
                    self.report.without_effect(f"{unit['army']}: {unit['name']}", limit["source_id"], why)
                if not others:
                    continue
                names = list(dict.fromkeys([unit["name"], *(other["name"] for other in others)]))
                limit["group_name"] = " or ".join(names)
                for other in others:
                    if not any(own.get("group") == limit["group"] for own in other.get("force_limits", [])):
                        other.setdefault("force_limits", []).append(dict(limit))
                self.report.pattern("a unit's least number per force that other units count toward: one limit")
