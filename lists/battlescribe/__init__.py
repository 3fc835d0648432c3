"""BattleScribe data: reading game systems and catalogues, and converting Bolt Action's into our packs.

`run.import_data` (the `import_battlescribe` command) reads the XML (`reader`,
`nodes`) and writes YAML packs under `lists/packs/` by the format's concepts:
entry ids, costs, constraints, conditions, forces, units and their options.
Roster files in BattleScribe's format are read and written in `lists.rosters`;
every zipped file (`.rosz`, `.gstz`, `.catz`) is inflated by `archives`, with a bound.

May import: the standard library and its own modules; nothing else of `lists/`.
"""
