"""Playing in the terminal: hot-seat and against bots, saved after every decision."""
