"""The real `easel` command with the tests' toy game registered, for whole-process tests.

`python -m tests.serve_toygame run --headless --port P --data-dir D` is the appliance as
`make run` starts it, plus Race to Twenty, so a test can play a match and pull the plug.
"""

import sys

from appliance.cli import main
from games import registry
from tests.toygame import RULES

registry.register(RULES)
sys.exit(main())
