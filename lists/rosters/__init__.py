"""Rosters: their files in and out, the one write path, sharing and fingerprints.

Roster files (YAML, JSON, plain text, BattleScribe `.ros`/`.rosz`) are parsed
(`parsing`), checked against their format (`format`), matched to the game data
(`resolving`) and saved or exported (`writing`); `files` is the one door every
format comes through (a BattleScribe roster of another game than Bolt Action 2nd
edition is read by the engine against its loaded data set, in
`battlescribe_data_rosters`; what its cards say in `battlescribe_card_content`, its
fingerprint in `battlescribe_fingerprint`). `edits` is the editor's and API's write path,
`sharing` the share ids and edit secrets, `fingerprint` what the organiser's
list prints.

May import: `lists.rules`, `lists.gamedata`, `lists.battlescribe`, `lists.models`.
"""
