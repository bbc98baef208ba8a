"""The web game: an ASGI app serving tables of people and bots, stored in a database.

``create_app(db_url)`` builds the app; ``citywatch serve`` runs it. See ``docs/server.md``.
"""

from citywatch.server.app import create_app

__all__ = ["create_app"]
