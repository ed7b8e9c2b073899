"""The doors to the table: how phones, the host page, the galleries and the kiosk reach it.

The phones' server (`server`, with its message checks `action_check` and the games'
list and own files the pages load, `phone_games`), the host page's
API and PIN (`host_api`, `host`), the take-home galleries (`gallery`), and the kiosk's
ways to the session: the seat pad (`kiosk_seat`), the host menu (`kiosk_host`) and the
games' facts the kiosk shows (`kiosk_games`).

May import: `games`, `appliance.system`, `appliance.table`, other modules of
`appliance.door`, and the kiosk's intents and words the kiosk doors answer
(`appliance.kiosk`; the gallery paints with `appliance.system.drawing`, never the
kiosk's code). Nothing of `appliance.app` or `appliance.cli` (tests/test_layering.py).
"""
