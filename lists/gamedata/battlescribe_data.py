"""Loading a folder of BattleScribe data into the models, as `loadpacks` loads a pack: all or nothing.

Two stages, as for packs: the folder is read and checked whole by the engine
(`lists.battlescribe.engine.data_folder`), then written in one transaction. Data that cannot be
used raises `DataFolderInvalid` before anything is written. Files already loaded (same game system,
same digest) write nothing; any other content, a new revision or not, becomes a new data set
beside the old, which rosters may still pin.
"""

from __future__ import annotations

import hashlib
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from lists import models
from lists.battlescribe.engine import (
    CATEGORY_LINK,
    ENTRY_LINK,
    SELECTION_ENTRY,
    Catalogue,
    DataFolder,
    DataFolderInvalid,
    Entry,
    GameData,
    InfoGroup,
    Profile,
    Rule,
    data_folder_report,
    nodes,
    read_data_folder,
)
from lists.gamedata.battlescribe_cache import keep_compiled
from lists.gamedata.statistics import refresh_statistics

__all__ = ["DataFolderInvalid", "LoadedDataSet", "load_data_set"]

BATCH = 500


@dataclass
class LoadedDataSet:
    data_set: models.BattleScribeDataSet
    created: bool  # False: these files were loaded before, nothing was written


def load_data_set(
    folder: str | Path, progress: Callable[[str], None] | None = None, source_url: str = ""
) -> LoadedDataSet:
    """Read and check a folder, then write it as a data set in one transaction (see the module).

    `source_url` is the address the folder's files were fetched from (`data_sources`); the folder is then a
    temporary one and not kept. Files loaded before from elsewhere now name this address as their source.
    """
    started = time.perf_counter()
    checked = read_data_folder(Path(folder).resolve(), progress)
    system = checked.game_data.game_system
    existing = models.BattleScribeDataSet.objects.filter(game_system_id=system.id, digest=checked.digest).first()
    if existing is not None:
        keep_compiled(existing, checked.game_data, unless_kept=True)
        if source_url and existing.source_url != source_url:
            existing.source_url = source_url
            existing.save(update_fields=["source_url"])
        return LoadedDataSet(existing, created=False)
    report = data_folder_report(checked, time.perf_counter() - started)
    with transaction.atomic():
        data_set = models.BattleScribeDataSet.objects.create(
            game_system_id=system.id,
            name=system.name,
            revision=system.revision,
            source_folder="" if source_url else str(checked.path),
            source_url=source_url,
            digest=checked.digest,
            report=report,
        )
        if progress:
            progress(f"writing {system.name} revision {system.revision}")
        DataSetWriter(data_set, checked).write()
        refresh_statistics()  # the data set's first reads are planned on its rows, not on the tables before it
    # Every process reads the compiled form from the cache: none compiles it again for a first visitor.
    keep_compiled(data_set, checked.game_data)
    return LoadedDataSet(data_set, created=True)


class DataSetWriter:
    """Writes one checked folder's rows under a new data set."""

    def __init__(self, data_set: models.BattleScribeDataSet, checked: DataFolder) -> None:
        self.data_set = data_set
        self.checked = checked
        self.data: GameData = checked.game_data
        self.catalogues: dict[str, models.BattleScribeCatalogue] = {}
        self.categories: dict[str, models.BattleScribeCategory] = {}
        self.profiles: dict[str, models.BattleScribeProfile] = {}
        self.rules: dict[str, models.BattleScribeRule] = {}
        self.forces_written: set[tuple[str, str]] = set()  # (catalogue id, force id)

    def write(self) -> None:
        self.write_files()
        self.write_catalogues()
        self.write_cost_types_and_categories()
        self.write_profiles_and_rules()
        for book in self.data.books():
            self.write_forces(book)
        self.write_entries()

    def row(self, model, book: Catalogue, bs_id: str, name: str, hidden: bool = False, **fields):
        return model(
            data_set=self.data_set,
            catalogue=self.catalogues[book.id],
            bs_id=bs_id,
            name=name[:300],
            hidden=hidden,
            **fields,
        )

    def write_files(self) -> None:
        models.BattleScribeDataFile.objects.bulk_create(
            [
                models.BattleScribeDataFile(
                    data_set=self.data_set,
                    name=f.name,
                    sha256=hashlib.sha256(f.content).hexdigest(),
                    size=len(f.content),
                    compressed=zlib.compress(f.content, 6),
                )
                for f in self.checked.files
            ]
        )

    def write_catalogues(self) -> None:
        rows = [
            models.BattleScribeCatalogue(
                data_set=self.data_set,
                catalogue_id=book.id,
                name=book.name,
                revision=book.revision,
                library=book.library,
                is_game_system=book.is_game_system,
                file_name=self.checked.file_of.get(book.id, ""),
            )
            for book in self.data.books()
        ]
        for saved in models.BattleScribeCatalogue.objects.bulk_create(rows):
            self.catalogues[saved.catalogue_id] = saved

    def write_cost_types_and_categories(self) -> None:
        cost_types, categories = [], []
        for book in self.data.books():
            for cost_type in book.cost_types:
                limit = cost_type.default_cost_limit if cost_type.default_cost_limit >= 0 else None
                cost_types.append(
                    self.row(
                        models.BattleScribeCostType,
                        book,
                        cost_type.id,
                        cost_type.name,
                        cost_type.hidden,
                        default_cost_limit=limit,
                    )
                )
            categories += [
                self.row(models.BattleScribeCategory, book, c.id, c.name, c.hidden)
                for c in book.category_entries
                if self.data.category_entries.get(c.id) is c
            ]
        models.BattleScribeCostType.objects.bulk_create(_first_of_each(cost_types), batch_size=BATCH)
        saved = models.BattleScribeCategory.objects.bulk_create(categories, batch_size=BATCH)
        self.categories = {c.bs_id: c for c in saved}

    def write_profiles_and_rules(self) -> None:
        profiles, rules = [], []
        for book in self.data.books():
            for node, _ in nodes(book):
                if isinstance(node, Profile) and self.data.profiles.get(node.id) is node:
                    profiles.append(self.profile_row(book, node))
                elif isinstance(node, Rule) and self.data.rules.get(node.id) is node:
                    rules.append(self.rule_row(book, node))
        saved = models.BattleScribeProfile.objects.bulk_create(_first_of_each(profiles), batch_size=BATCH)
        self.profiles = {p.bs_id: p for p in saved}
        saved_rules = models.BattleScribeRule.objects.bulk_create(_first_of_each(rules), batch_size=BATCH)
        self.rules = {r.bs_id: r for r in saved_rules}

    def profile_row(self, book: Catalogue, profile: Profile) -> models.BattleScribeProfile:
        return self.row(
            models.BattleScribeProfile,
            book,
            profile.id,
            profile.name,
            profile.hidden,
            type_id=profile.type_id,
            type_name=profile.type_name,
            page=(profile.page or "")[:100],
            publication=self.publication(profile.publication_id),
            characteristics=[[c.name, c.value] for c in profile.characteristics],
        )

    def rule_row(self, book: Catalogue, rule: Rule) -> models.BattleScribeRule:
        return self.row(
            models.BattleScribeRule,
            book,
            rule.id,
            rule.name,
            rule.hidden,
            page=(rule.page or "")[:100],
            publication=self.publication(rule.publication_id),
            description=rule.description,
        )

    def publication(self, publication_id: str | None) -> str:
        return (self.data.publication_name(publication_id) or "")[:300]

    def write_forces(self, book: Catalogue, parent: models.BattleScribeForce | None = None, forces=None) -> None:
        """A book's force entries, nested ones under their parents, with their categories in order."""
        links = []
        for force in book.force_entries if forces is None else forces:
            if (book.id, force.id) in self.forces_written:
                continue  # the same force id twice in one catalogue: the first is kept
            self.forces_written.add((book.id, force.id))
            row = self.row(models.BattleScribeForce, book, force.id, force.name, force.hidden, parent=parent)
            row.save()
            category_ids = _unique(link.target_id for link in force.category_links)
            links += [
                models.BattleScribeForceCategory(force=row, category=self.categories[c], position=position)
                for position, c in enumerate(category_ids)
                if c in self.categories
            ]
            if force.force_entries:
                self.write_forces(book, row, force.force_entries)
        models.BattleScribeForceCategory.objects.bulk_create(links, batch_size=BATCH)

    def write_entries(self) -> None:
        rows, sources = [], []
        for book in self.data.books():
            seen: set[str] = set()
            for entry in [*book.selection_entries, *book.entry_links]:
                target = self.data.link_target(entry) if entry.kind == ENTRY_LINK else entry
                if target is None or entry.id in seen:
                    continue
                seen.add(entry.id)
                rows.append(self.entry_row(book, entry, target))
                sources.append((entry, target) if target is not entry else (entry,))
        saved = models.BattleScribeEntry.objects.bulk_create(rows, batch_size=BATCH)
        self.write_entry_links(saved, sources)

    def entry_row(self, book: Catalogue, entry: Entry, target: Entry) -> models.BattleScribeEntry:
        costs: dict[str, float] = {}
        for source in (target, entry):
            costs.update({c.type_id: c.value for c in source.costs if c.type_id in self.data.cost_type_by_id})
        return self.row(
            models.BattleScribeEntry,
            book,
            entry.id,
            entry.name or target.name,
            entry.hidden or target.hidden,
            target_id=target.id,
            entry_type=target.type if target.kind == SELECTION_ENTRY else "",
            page=(entry.page or target.page or "")[:100],
            publication=self.publication(entry.publication_id or target.publication_id),
            costs=costs,
        )

    def write_entry_links(self, saved: list[models.BattleScribeEntry], sources: list[tuple[Entry, ...]]) -> None:
        categories, profiles, rules = [], [], []
        profile_link = models.BattleScribeEntry.profiles.through
        rule_link = models.BattleScribeEntry.rules.through
        for row, entry_sources in zip(saved, sources, strict=True):
            primary: dict[str, bool] = {}
            for source in entry_sources:
                for link in source.category_links:
                    if link.kind == CATEGORY_LINK and link.target_id in self.categories:
                        primary[link.target_id] = primary.get(link.target_id, False) or link.primary
            categories += [
                models.BattleScribeEntryCategory(entry=row, category=self.categories[c], primary=p)
                for c, p in primary.items()
            ]
            profile_ids, rule_ids = self.info_of(entry_sources)
            profiles += [profile_link(battlescribeentry=row, battlescribeprofile=self.profiles[p]) for p in profile_ids]
            rules += [rule_link(battlescribeentry=row, battlescriberule=self.rules[r]) for r in rule_ids]
        models.BattleScribeEntryCategory.objects.bulk_create(categories, batch_size=BATCH)
        profile_link.objects.bulk_create(profiles, batch_size=BATCH)
        rule_link.objects.bulk_create(rules, batch_size=BATCH)

    def info_of(self, sources: tuple[Entry, ...]) -> tuple[list[str], list[str]]:
        """The ids of the profiles and rules an entry shows itself (not those of its options)."""
        profile_ids: list[str] = []
        rule_ids: list[str] = []
        for source in sources:
            for item in self._info_items(source.profiles, source.rules, source.info_groups, source.info_links):
                if isinstance(item, Profile) and item.id in self.profiles:
                    profile_ids.append(item.id)
                elif isinstance(item, Rule) and item.id in self.rules:
                    rule_ids.append(item.id)
        return _unique(profile_ids), _unique(rule_ids)

    def _info_items(self, profiles, rules, groups, links, depth: int = 0) -> Iterator[Profile | Rule]:
        yield from profiles
        yield from rules
        if depth > 20:  # info groups linking to each other: stop, as the engine never loops either
            return
        for link in links:
            if link.type == "profile" and link.target_id in self.data.profiles:
                yield self.data.profiles[link.target_id]
            elif link.type == "rule" and link.target_id in self.data.rules:
                yield self.data.rules[link.target_id]
            elif link.type == "infoGroup" and link.target_id in self.data.info_groups:
                groups = [*groups, self.data.info_groups[link.target_id]]
        for group in groups:
            yield from self._group_items(group, depth)

    def _group_items(self, group: InfoGroup, depth: int) -> Iterator[Profile | Rule]:
        yield from self._info_items(group.profiles, group.rules, group.info_groups, group.info_links, depth + 1)


def _first_of_each(rows: list) -> list:
    """The first row for each BattleScribe id (data files repeat ids; the engine keeps the first)."""
    seen: set[str] = set()
    kept = []
    for row in rows:
        if row.bs_id not in seen:
            seen.add(row.bs_id)
            kept.append(row)
    return kept


def _unique(ids) -> list[str]:
    return list(dict.fromkeys(i for i in ids if i))
