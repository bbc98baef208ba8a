"""The games, one folder each."""
