import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from toy_game import toy_registered  # noqa: E402, F401  (the fixture, for every test file)
