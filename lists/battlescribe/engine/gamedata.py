"""Game data compiled for roster time: a game system and its catalogues, indexed by id once."""

from __future__ import annotations

from collections.abc import Iterator

from .model import (
    ENTRY_LINK,
    Catalogue,
    CostType,
    Entry,
    InfoGroup,
    Profile,
    Publication,
    Rule,
)


class GameData:
    """A game system and catalogues, with every entry and shared item findable by id."""

    def __init__(self, game_system: Catalogue, catalogues: list[Catalogue]) -> None:
        self.game_system = game_system
        self.catalogues = catalogues
        self.catalogues_by_id: dict[str, Catalogue] = {c.id: c for c in catalogues}
        self.entries: dict[str, Entry] = {}
        self.force_entries: dict[str, Entry] = {}
        self.category_entries: dict[str, Entry] = {}
        self.profiles: dict[str, Profile] = {}
        self.rules: dict[str, Rule] = {}
        self.info_groups: dict[str, InfoGroup] = {}
        self.publications: dict[str, Publication] = {}
        self.cost_types: list[CostType] = []
        self.links_to: dict[str, list[Entry]] = {}
        self.entry_owner: dict[str, Entry] = {}
        # Each book's own entries by id: catalogues copied from one another share ids, and a link
        # reaches the entry of its own catalogue first (see `link_target`).
        self.book_entries: dict[str, dict[str, Entry]] = {}
        self._lookup_order: dict[str, list[dict[str, Entry]]] = {}
        for book in [game_system, *catalogues]:
            self._index_book(book)
        self.cost_type_by_id = {c.id: c for c in self.cost_types}
        self._root_cache: dict[str, list[Entry]] = {}
        # Entries' fields before modifiers, by the entry's id(): see entry_view.base_fields.
        self.base_fields: dict[int, object] = {}

    def __getstate__(self) -> dict:
        # base_fields is keyed by id(): the ids of another process's objects mean nothing here.
        return {**self.__dict__, "base_fields": {}}

    def _index_book(self, book: Catalogue) -> None:
        for cost_type in book.cost_types:
            if all(c.id != cost_type.id for c in self.cost_types):
                self.cost_types.append(cost_type)
        for publication in book.publications:
            self.publications.setdefault(publication.id, publication)
        for category in book.category_entries:
            self.category_entries.setdefault(category.id, category)
            self._index_info(category)
        for force in book.force_entries:
            self._index_force(force)
        for entry in [*book.selection_entries, *book.entry_links, *book.shared_selection_entries]:
            self._index_entry(entry, None)
        for group in book.shared_selection_entry_groups:
            self._index_entry(group, None)
        for rule in [*book.shared_rules, *book.rules]:
            self.rules.setdefault(rule.id, rule)
        for profile in book.shared_profiles:
            self.profiles.setdefault(profile.id, profile)
        for group in book.shared_info_groups:
            self._index_info_group(group)

    def _index_force(self, force: Entry) -> None:
        self.force_entries.setdefault(force.id, force)
        self._index_info(force)
        for child in force.force_entries:
            self._index_force(child)

    def _index_entry(self, entry: Entry, owner: Entry | None) -> None:
        if entry.kind == ENTRY_LINK:
            if entry.target_id:
                self.links_to.setdefault(entry.target_id, []).append(entry)
        else:
            self.entries.setdefault(entry.id, entry)
            self.book_entries.setdefault(entry.catalogue_id, {}).setdefault(entry.id, entry)
        if owner is not None:
            self.entry_owner.setdefault(entry.id, owner)
        self._index_info(entry)
        for child in [*entry.selection_entries, *entry.selection_entry_groups, *entry.entry_links]:
            self._index_entry(child, entry)

    def _index_info(self, entry: Entry) -> None:
        for profile in entry.profiles:
            self.profiles.setdefault(profile.id, profile)
        for rule in entry.rules:
            self.rules.setdefault(rule.id, rule)
        for group in entry.info_groups:
            self._index_info_group(group)

    def _index_info_group(self, group: InfoGroup) -> None:
        self.info_groups.setdefault(group.id, group)
        for profile in group.profiles:
            self.profiles.setdefault(profile.id, profile)
        for rule in group.rules:
            self.rules.setdefault(rule.id, rule)
        for nested in group.info_groups:
            self._index_info_group(nested)

    def books(self) -> Iterator[Catalogue]:
        """The game system, then the catalogues."""
        yield self.game_system
        yield from self.catalogues

    def catalogue(self, catalogue_id: str | None) -> Catalogue:
        """A catalogue by id, or the only one there is."""
        if catalogue_id and catalogue_id in self.catalogues_by_id:
            return self.catalogues_by_id[catalogue_id]
        if catalogue_id == self.game_system.id:
            return self.game_system
        if not catalogue_id and len(self.catalogues) == 1:
            return self.catalogues[0]
        raise KeyError(f"Catalogue '{catalogue_id}' not found")

    def link_target(self, link: Entry) -> Entry | None:
        """The entry or group an entry link points at: its own catalogue's, else that of a catalogue
        it links to, else the game system's, else any catalogue's with that id."""
        target_id = link.target_id or ""
        for entries in self.lookup_order(link.catalogue_id):
            found = entries.get(target_id)
            if found is not None:
                return found
        return self.entries.get(target_id)

    def lookup_order(self, catalogue_id: str) -> list[dict[str, Entry]]:
        """The entry tables a link of a catalogue looks in, nearest first."""
        order = self._lookup_order.get(catalogue_id)
        if order is None:
            books: list[Catalogue] = []
            book = self.catalogues_by_id.get(catalogue_id)
            if book is not None:
                self._collect_linked(book, books)
            if self.game_system not in books:
                books.append(self.game_system)
            order = [self.book_entries[b.id] for b in books if b.id in self.book_entries]
            self._lookup_order[catalogue_id] = order
        return order

    def _collect_linked(self, book: Catalogue, books: list[Catalogue]) -> None:
        if book in books:
            return
        books.append(book)
        for link in book.catalogue_links:
            target = self.catalogues_by_id.get(link.target_id)
            if target is not None:
                self._collect_linked(target, books)

    def root_entries(self, catalogue: Catalogue) -> list[Entry]:
        """What a force of `catalogue` may select at its root: its entries and links, the game
        system's, and those of catalogues it imports root entries from."""
        cached = self._root_cache.get(catalogue.id)
        if cached is not None:
            return cached
        books: list[Catalogue] = []
        self._collect_books(catalogue, books)
        if self.game_system not in books:
            books.insert(0, self.game_system)
        found = [entry for book in books for entry in [*book.selection_entries, *book.entry_links]]
        self._root_cache[catalogue.id] = found
        return found

    def _collect_books(self, book: Catalogue, books: list[Catalogue]) -> None:
        if book in books:
            return
        books.append(book)
        for link in book.catalogue_links:
            target = self.catalogues_by_id.get(link.target_id)
            if target is not None and link.import_root_entries:
                self._collect_books(target, books)

    def category_name(self, category_id: str) -> str:
        """The name of a category entry."""
        category = self.category_entries.get(category_id)
        return category.name if category else ""

    def publication_name(self, publication_id: str | None) -> str | None:
        """The name of a publication."""
        if not publication_id:
            return None
        publication = self.publications.get(publication_id)
        return publication.name if publication else None
