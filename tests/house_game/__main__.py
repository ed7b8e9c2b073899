"""`python -m tests.house_game run ...` is the `easel` command on a box where Doodle Dash
is installed too: the browser test runs it as the real appliance, in a subprocess.

The game is registered on import, so a worker process that imports this module as its
main (the gallery's) knows it as well.
"""

import sys

from appliance.cli import main
from tests import house_game

house_game.register()

if __name__ == "__main__":
    sys.exit(main())
