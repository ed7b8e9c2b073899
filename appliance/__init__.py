"""The box: it wires the games to the hardware, the phones, the store and the kiosk.

`session` is the single authority; `store` keeps matches and their action logs in SQLite;
`server` serves the phones (aiohttp); `kiosk` draws the shared screen (pygame); `cli` is
the `easel` command.
"""
