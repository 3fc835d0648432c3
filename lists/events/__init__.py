"""Tournament events: submissions checked under the event's rules, and the organiser's print pack.

May import: `lists.pdfs`, `lists.roster_kinds`, `lists.cards`, `lists.rosters`, `lists.rules`,
`lists.gamedata`, `lists.models` (never `lists.web`).
"""
