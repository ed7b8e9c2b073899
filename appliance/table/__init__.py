"""The table: its one authority, its memory, and what it deals from.

The session (`session`: seats, host rights, the match, its clock), the SQLite store
(`store`), today's results and the lobby's history (`history`, `lobby_history`), the
keepsakes of a finished match (`keepsakes`), the word packs on disk (`packs`), the
config's start options for a game (`game_options`), the word-form opinion it gives the
games that want it (`guess_match`), the family filter (`family_filter`) and what it says
to people (`messages`). It names no game: it asks each game's house (games/house.py).

May import: `games`, `appliance.system`, and other modules of `appliance.table`. Nothing
of `appliance.door` or `appliance.kiosk`, no aiohttp, no pygame (tests/test_layering.py).
"""
