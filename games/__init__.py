"""The rules of Easel's games: pure standard-library Python.

Nothing here knows about pygame, asyncio, SQLite, the web or the hardware. A game is
data plus pure functions (see `games.core.Rules`); the appliance feeds it actions and
shows its views. `games.registry` lists the games the box can start.
"""
