"""The machinery under the table: what the box stands on, knowing no game and no player.

The config (`config`), the clocks (`clock`), systemd's notify protocol (`sdnotify`), the
network addresses (`netinfo`), the heap (`memory`), flood limits (`ratelimit`), the
panel's light show from a view (`table_lights`) and strokes painted into pixels
(`drawing`, pygame only, below both the kiosk and the gallery).

May import: the standard library, third-party libraries, and other modules of
`appliance.system`. Nothing of `games`, `drivers`, `appliance.table`, `appliance.door` or
`appliance.kiosk` (tests/test_layering.py).
"""
