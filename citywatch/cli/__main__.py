"""``python -m citywatch.cli``: the same as the ``citywatch`` command."""

import sys

from citywatch.cli import main

sys.exit(main())
