"""The machinery under the table: what the box stands on, knowing no game and no player.

The config (`config`), the clocks (`clock`), systemd's notify protocol (`sdnotify`), the
network addresses (`netinfo`), the heap (`memory`), flood limits (`ratelimit`), the
panel's light show from a view (`table_lights`) and strokes painted into pixels
(`drawing`, pygame only, below both the kiosk and the gallery).

May import: the standard library, third-party libraries, other modules of
`appliance.system`, and `games.registry` for the settings the games' houses declare (the
config's game sections: it names no game). Nothing else of `games`, nothing of `drivers`,
`appliance.table`, `appliance.door` or `appliance.kiosk` (tests/test_layering.py).
"""
