"""`python -m appliance` is the `easel` command."""

import sys

from appliance.cli import main

sys.exit(main())
