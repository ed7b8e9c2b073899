"""`python -m appliance` is the `easel` command."""

import sys

from appliance.cli import main

if __name__ == "__main__":  # not when a worker process (appliance/door/gallery.py) imports it
    sys.exit(main())
