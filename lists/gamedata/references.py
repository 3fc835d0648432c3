"""Checking a pack's references: every key an item names must exist, and keys are unique per section."""

from __future__ import annotations

from lists.gamedata.reading import Located, Pack, PackError
from lists.gamedata.schema import WeaponRuleRef


def check_references(pack: Pack, known_systems: set[str]) -> list[PackError]:
    """Every key a pack item refers to must exist, and keys must be unique per section."""
    return _ReferenceCheck(pack, known_systems).run()


# Sections whose items carry a `source` the system's documents must name (weapons and units check theirs).
SOURCED_SECTIONS = [
    "rules",
    "charts",
    "weapon_categories",
    "qualities",
    "officer_ranks",
    "damage_values",
    "movement",
    "mounts",
    "capacities",
    "armies",
    "organisations",
]


class _ReferenceCheck:
    """Collects every reference problem of one pack."""

    def __init__(self, pack: Pack, known_systems: set[str]):
        self.pack = pack
        self.system = pack.system
        assert self.system is not None
        self.known_systems = known_systems
        self.errors: list[PackError] = []
        self.keys: dict[str, set[str]] = {}
        self.documents = {source.key for source in self.system.sources}
        self.periods = {period.key for period in self.system.periods}
        self.setting_keys = {setting.key for setting in self.system.settings}
        self.system_located = Located(self.system, pack.system_file, "system")

    def run(self) -> list[PackError]:
        self.unique_keys()
        self.system_section()
        self.sources()
        self.purchases()
        self.rule_scopes()
        self.weapons()
        self.armies()
        self.units()
        self.organisations()
        return self.errors

    # Helpers -------------------------------------------------------------------------------------

    def error(self, located: Located, path: str, message: str) -> None:
        self.errors.append(PackError(located.file, f"{located.path}{path}", message))

    def need(self, located: Located, path: str, value: str | None, section: str, what: str) -> None:
        if value is not None and value not in self.keys[section]:
            self.error(located, path, f"unknown {what} {value!r}")

    def need_source(self, located: Located, path: str, source) -> None:
        if source is not None and source.document not in self.documents:
            self.error(located, f"{path}.document", f"unknown source document {source.document!r}")

    def need_period(self, located: Located, path: str, period: str | None) -> None:
        if period is not None and period not in self.periods:
            self.error(located, path, f"unknown period {period!r}")

    def model_weapons(self, located: Located, path: str, entries) -> None:
        for m_index, entry in enumerate(entries):
            for w_index, (weapon_key, _) in enumerate(entry.weapon_counts()):
                self.need(located, f"{path}.{m_index}.weapons.{w_index}", weapon_key, "weapons", "weapon")

    def service(self, located: Located, path: str, service) -> None:
        if service is not None:
            self.need_period(located, f"{path}.period", service.period)

    # Sections ------------------------------------------------------------------------------------

    def unique_keys(self) -> None:
        for section, located_items in self.pack.sections.items():
            if section == "errata":
                continue
            seen: set[str] = set()
            for located in located_items:
                key = located.item.key
                if key in seen:
                    self.error(located, ".key", f"the key {key!r} is used twice in {section}")
                seen.add(key)
            self.keys[section] = seen

    def system_section(self) -> None:
        system, located = self.system, self.system_located
        for index, quality in enumerate(system.spotter_no_benefit_qualities):
            self.need(located, f".spotter_no_benefit_qualities.{index}", quality, "qualities", "troop quality")
        if system.default_quality is not None:
            self.need(located, ".default_quality", system.default_quality, "qualities", "troop quality")
        for role, rule_keys in system.rule_roles:
            for index, rule_key in enumerate(rule_keys) if isinstance(rule_keys, list) else [(None, rule_keys)]:
                where = f".rule_roles.{role}" if index is None else f".rule_roles.{role}.{index}"
                self.need(located, where, rule_key, "rules", "rule")
        for t_index, term in enumerate(system.search_terms):
            where = f".search_terms.{t_index}"
            for weapon in term.weapons:
                if weapon not in self.keys["weapons"] | self.keys["weapon_categories"]:
                    self.error(located, f"{where}.weapons", f"unknown weapon or weapon category {weapon!r}")
            # Categories are not checked: a term may name those of army files converted beside the pack
            # (BattleScribe's "bs-…"), absent where the pack is read without them; one no unit has finds none.
            for rule_key in term.rules:
                self.need(located, f"{where}.rules", rule_key, "rules", "rule")
        if system.extends is not None and system.extends not in self.known_systems:
            self.error(located, ".extends", f"unknown game system {system.extends!r}")
        for r_index, ride in enumerate(system.rides):
            self.need(located, f".rides.{r_index}.rule", ride.rule, "rules", "rule")
            for category in [*ride.carriers, *ride.passengers]:
                self.need(located, f".rides.{r_index}", category, "unit_categories", "unit category")
        if system.period_costs is not None:
            for index, category in enumerate(system.period_costs.applies_to):
                self.need(located, f".period_costs.applies_to.{index}", category, "unit_categories", "unit category")
            for service_period, row in system.period_costs.multipliers.items():
                for game_period in [service_period, *row]:
                    self.need_period(located, f".period_costs.multipliers.{service_period}", game_period)

    def sources(self) -> None:
        for section in SOURCED_SECTIONS:
            for located in self.pack.sections[section]:
                self.need_source(located, ".source", getattr(located.item, "source", None))

    def purchases(self) -> None:
        for located in self.pack.sections["rules"]:
            purchase = located.item.purchase
            if purchase is None:
                continue
            if located.item.points is None:
                self.error(located, ".purchase", "only a rule with points can be bought")
            for c_index, condition in enumerate(purchase.any_of):
                for index, rule_key in enumerate(condition.with_house_rules):
                    where = f".purchase.any_of.{c_index}.with_house_rules.{index}"
                    self.need(located, where, rule_key, "rules", "rule")

    def weapons(self) -> None:
        rules_taking_values = {rule.key for rule in self.pack.items("rules") if rule.takes_value}
        for located in self.pack.sections["weapons"]:
            weapon = located.item
            self.need_source(located, ".source", weapon.source)
            self.need(located, ".category", weapon.category, "weapon_categories", "weapon category")
            for index, ref in enumerate(weapon.rules):
                rule_key = ref.rule if isinstance(ref, WeaponRuleRef) else ref
                self.need(located, f".rules.{index}", rule_key, "rules", "rule")
                if rule_key in rules_taking_values and not isinstance(ref, WeaponRuleRef):
                    self.error(
                        located,
                        f".rules.{index}",
                        f"the rule {rule_key!r} needs a value, e.g. {{rule: {rule_key}, value: ...}}",
                    )

    def armies(self) -> None:
        units_by_army: dict[str, set[str]] = {}
        for unit in self.pack.items("units"):
            units_by_army.setdefault(unit.army, set()).add(unit.key)
        for located in self.pack.sections["armies"]:
            army = located.item
            for index, rule_key in enumerate(army.rules):
                self.need(located, f".rules.{index}", rule_key, "rules", "rule")
            for index, army_key in enumerate(army.borrows_from):
                self.need(located, f".borrows_from.{index}", army_key, "armies", "army")
            self.rules_from(located, army)
            for c_index, choice in enumerate(army.rule_choices):
                for index, rule_key in enumerate(choice.rules):
                    self.need(located, f".rule_choices.{c_index}.rules.{index}", rule_key, "rules", "rule")
            borrowable = set().union(*(units_by_army.get(key, set()) for key in army.borrows_from))
            for index, unit_key in enumerate(army.borrow_units):
                if unit_key not in borrowable:
                    self.error(
                        located, f".borrow_units.{index}", f"{unit_key!r} is not a unit of an army it borrows from"
                    )

    def rules_from(self, located, army) -> None:
        """A theatre list's national rules come from an army of the pack, and it leaves out only rules of theirs."""
        if army.rules_from is None:
            if army.rules_left_out:
                self.error(located, ".rules_left_out", "only a list with `rules_from` leaves national rules out")
            return
        self.need(located, ".rules_from", army.rules_from, "armies", "army")
        parent = next((a for a in self.pack.items("armies") if a.key == army.rules_from), None)
        national = set(parent.rules) if parent else set()
        for index, rule_key in enumerate(army.rules_left_out):
            if parent and rule_key not in national:
                self.error(located, f".rules_left_out.{index}", f"{rule_key!r} is not a rule of {army.rules_from!r}")

    def rule_scopes(self) -> None:
        """The units, categories, weapons and options an army rule says it applies to must exist."""
        option_keys = {option.key for unit in self.pack.items("units") for option in unit.options}
        for located in self.pack.sections["rules"]:
            for n_index, note in enumerate(located.item.modifies):
                for index, key in enumerate(note.weapons):
                    self.need(located, f".modifies.{n_index}.weapons.{index}", key, "weapons", "weapon")
                self.need(located, f".modifies.{n_index}.replaces", note.replaces, "rules", "rule")
            scope = located.item.applies_to
            if scope is None:
                continue
            for name, section, what in [
                ("categories", "unit_categories", "unit category"),
                ("units", "units", "unit"),
                ("weapons", "weapons", "weapon"),
            ]:
                for index, key in enumerate(getattr(scope, name)):
                    self.need(located, f".applies_to.{name}.{index}", key, section, what)
            for index, option_key in enumerate(scope.options):
                if option_key not in option_keys:
                    self.error(located, f".applies_to.options.{index}", f"no unit has an option {option_key!r}")

    def units(self) -> None:
        for located in self.pack.sections["units"]:
            unit = located.item
            self.need_source(located, ".source", unit.source)
            self.need(located, ".army", unit.army, "armies", "army")
            self.need(located, ".category", unit.category, "unit_categories", "unit category")
            self.need(located, ".officer_rank", unit.officer_rank, "officer_ranks", "officer rank")
            if unit.armour is not None:
                self.need(located, ".armour.damage_value", unit.armour.damage_value, "damage_values", "damage value")
                self.need(located, ".armour.movement", unit.armour.movement, "movement", "movement")
                for index, mounted in enumerate(unit.armour.mounts):
                    self.need(located, f".armour.mounts.{index}.mount", mounted.mount, "mounts", "mount")
                    self.need(located, f".armour.mounts.{index}.weapon", mounted.weapon, "weapons", "weapon")
            self.model_weapons(located, ".composition", unit.composition)
            self.service(located, ".service", unit.service)
            self.need(located, ".capacity_from", unit.capacity_from, "capacities", "capacity")
            for index, rank in enumerate(unit.officer_ranks):
                self.need(located, f".officer_ranks.{index}", rank, "officer_ranks", "officer rank")
            for army_key in unit.army_limits:
                self.need(located, ".army_limits", army_key, "armies", "army")
            for index, limit in enumerate(unit.force_limits):
                self.need(
                    located, f".force_limits.{index}.organisation", limit.organisation, "organisations", "organisation"
                )
                for a_index, army_key in enumerate(limit.armies):
                    self.need(located, f".force_limits.{index}.armies.{a_index}", army_key, "armies", "army")
            for index, cost in enumerate(unit.qualities):
                self.need(located, f".qualities.{index}.quality", cost.quality, "qualities", "troop quality")
                for a_index, army_key in enumerate(cost.armies):
                    self.need(located, f".qualities.{index}.armies.{a_index}", army_key, "armies", "army")
                for army_key in cost.army_points:
                    self.need(located, f".qualities.{index}.army_points", army_key, "armies", "army")
            for index, rule_key in enumerate(unit.rules):
                self.need(located, f".rules.{index}", rule_key, "rules", "rule")
            for index, category in enumerate(unit.weapon_categories or []):
                self.need(located, f".weapon_categories.{index}", category, "weapon_categories", "weapon category")
            if unit.points is None and not unit.qualities:
                self.error(located, ".points", "a unit needs points, or points by quality under qualities")
            for index, option in enumerate(unit.options):
                self.option(located, f".options.{index}", option, unit)

    def option(self, located: Located, path: str, option, unit) -> None:
        self.model_weapons(located, f"{path}.adds_models", option.adds_models)
        if option.model is not None and option.model not in {entry.name for entry in unit.composition}:
            self.error(located, f"{path}.model", f"the unit has no model line named {option.model!r}")
        if option.shares is not None and option.shares not in unit.shared_limits:
            self.error(located, f"{path}.shares", f"the unit has no shared limit {option.shares!r}")
        self.service(located, f"{path}.service", option.service)
        self.need(located, f"{path}.officer_rank", option.officer_rank, "officer_ranks", "officer rank")
        for w_index, weapon_key in enumerate(option.weapons):
            self.need(located, f"{path}.weapons.{w_index}", weapon_key, "weapons", "weapon")
        for a_index, army_key in enumerate(option.armies):
            self.need(located, f"{path}.armies.{a_index}", army_key, "armies", "army")
        for w_index, weapon_key in enumerate(option.replaces):
            self.need(located, f"{path}.replaces.{w_index}", weapon_key, "weapons", "weapon")
        for period in option.periods:
            self.need_period(located, f"{path}.periods", period)
        for quality in option.quality_points:
            self.need(located, f"{path}.quality_points", quality, "qualities", "quality")
        for quality in option.quality_max:
            self.need(located, f"{path}.quality_max", quality, "qualities", "quality")
        for q_index, quality in enumerate(option.qualities):
            self.need(located, f"{path}.qualities.{q_index}", quality, "qualities", "quality")
        for army_key, least in option.least_in.items():
            self.need(located, f"{path}.least_in", army_key, "armies", "army")
            if option.max is not None and not 1 <= least <= option.max:
                self.error(located, f"{path}.least_in", f"{least} for {army_key!r} is not from 1 to max {option.max}")
        for army_key, most in option.max_in.items():
            self.need(located, f"{path}.max_in", army_key, "armies", "army")
            if option.max is None or most >= option.max:
                self.error(located, f"{path}.max_in", f"{most} for {army_key!r} is not below max {option.max}")
        for l_index, limit in enumerate(option.force_limits):
            for a_index, army_key in enumerate(limit.armies):
                self.need(located, f"{path}.force_limits.{l_index}.armies.{a_index}", army_key, "armies", "army")
        for r_index, rule_key in enumerate(option.rules):
            self.need(located, f"{path}.rules.{r_index}", rule_key, "rules", "rule")
        for n_index, needed in enumerate(option.needs_units):
            self.need(located, f"{path}.needs_units.{n_index}", needed, "units", "unit")
        offered = {other.key for other in unit.options}
        for field_name in ("points_with", "max_with", "excludes", "needs_options"):
            for other in getattr(option, field_name):
                if other not in offered or other == option.key:
                    self.error(located, f"{path}.{field_name}", f"{other!r} is not another option of the unit")

    def organisations(self) -> None:
        for located in self.pack.sections["organisations"]:
            for index, army_key in enumerate(located.item.armies):
                self.need(located, f".armies.{index}", army_key, "armies", "army")
            for s_index, slot in enumerate(located.item.slots):
                self.slot(located, f".slots.{s_index}", slot)

    def slot(self, located: Located, path: str, slot) -> None:
        for index, category in enumerate(slot.categories):
            self.need(located, f"{path}.categories.{index}", category, "unit_categories", "unit category")
        for index, category in enumerate(slot.half_choice_categories):
            if category not in slot.categories:
                self.error(
                    located,
                    f"{path}.half_choice_categories.{index}",
                    f"{category!r} is not one of the slot's categories",
                )
        for index, rank in enumerate(slot.officer_ranks):
            self.need(located, f"{path}.officer_ranks.{index}", rank, "officer_ranks", "officer rank")
        for index, rank in enumerate(slot.ranks_counted):
            self.need(located, f"{path}.ranks_counted.{index}", rank, "officer_ranks", "officer rank")
        for army_key in slot.max_in:
            self.need(located, f"{path}.max_in", army_key, "armies", "army")
        for army_key in slot.min_in:
            self.need(located, f"{path}.min_in", army_key, "armies", "army")
        if slot.requires_setting is not None and slot.requires_setting not in self.setting_keys:
            self.error(located, f"{path}.requires_setting", f"unknown roster setting {slot.requires_setting!r}")
        for bound in ("min", "max"):
            for t_index, term in enumerate(getattr(getattr(slot, bound), "per", [])):
                for index, category in enumerate(term.categories):
                    where = f"{path}.{bound}.per.{t_index}.categories.{index}"
                    self.need(located, where, category, "unit_categories", "unit category")
