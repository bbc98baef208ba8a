# tests/ and tests/server/ are on sys.path (pyproject.toml: pythonpath), so the helper modules
# import by name from every folder.
from toy_game import toy_registered  # noqa: F401  (the fixture, for every test file)
