"""The table's hardware: GPIO buttons and LEDs (gpiozero), the touch panel (evdev), and
the keyboard stand-ins. Drivers know hardware, not games: they turn presses and touches
into plain events for the appliance, and show on LEDs what the appliance tells them.
"""
