"""PDFs in the background: the render task and its worker, waiting for a job, and the worker's bell.

May import: `lists.roster_kinds`, `lists.cards`, `lists.rosters`, `lists.rules`, `lists.gamedata`,
`lists.models` (never `lists.web` or `lists.events`).
"""
