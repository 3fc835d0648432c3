"""Game data: YAML packs in, database rows, and the game data and rosters in memory.

Holds the pack schema (`schema*`), reading and checking packs (`reading`,
`references`), writing them (`writing`), loading them into the models in one
transaction (`packs`), and building the in-memory `GameData` and
`RosterSnapshot` from the models with a fixed number of queries (`sections`,
`loading`, `snapshot`, `overlays`). BattleScribe data folders are written
into the models by `battlescribe_data` (`load_battlescribe`) and compiled
once per revision by `battlescribe_cache`, kept in the app's cache for every process.

May import: `lists.models`, `lists.battlescribe` (which imports nothing of
`lists/`) and the standard library; nothing else of `lists/`.
"""
