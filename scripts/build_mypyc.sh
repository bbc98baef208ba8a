#!/bin/sh
# Build the four games' forward models, the core modules they call and the ISMCTS bot with
# mypyc, in place (.so files beside the sources; build/ holds the C). Run from the
# repository root.
# Not compiled: each game's game.py, terminal, view, web and encoding modules, and the Black
# Keep's board.py (weakly referenced by sight.py's cache: a mypyc class cannot be, and as a
# non-native class its from_scenario crashes mypyc 2.4.1, an AssertionError in curr_env_reg).
# Remove the result with: find citywatch -name '*.so' -delete; rm -rf build
set -e
AM=citywatch/games/ankh_morpork
GG=citywatch/games/guards_guards
GC=citywatch/games/guardians_of_the_city
BK=citywatch/games/black_keep
PYTHONPATH=$PWD exec "${PYTHON:-/work/main/.venv/bin/python}" -m mypyc \
  citywatch/core/stack.py citywatch/core/rng.py citywatch/core/log.py \
  $AM/kinds.py $AM/data.py $AM/actions.py $AM/state.py $AM/harm.py $AM/events.py \
  $AM/effects.py $AM/rules.py $AM/scoring.py $AM/position.py $AM/view.py $AM/evaluate.py \
  $AM/heuristic.py $AM/frames.py citywatch/bots/ismcts.py \
  $GG/kinds.py $GG/data.py $GG/actions.py $GG/state.py $GG/frames.py $GG/board.py \
  $GG/places.py $GG/abilities.py $GG/combat.py $GG/dragons.py $GG/fate.py $GG/harm.py \
  $GG/luggage.py $GG/magic.py $GG/recruit.py $GG/rules.py $GG/setup.py $GG/spells.py \
  $GG/turn.py $GG/position.py \
  $GC/kinds.py $GC/data.py $GC/actions.py $GC/state.py $GC/frames.py $GC/decks.py \
  $GC/effects.py $GC/scoring.py $GC/turn.py $GC/position.py \
  $BK/kinds.py $BK/data.py $BK/actions.py $BK/state.py $BK/hexes.py \
  $BK/params.py $BK/guards.py $BK/harm.py $BK/intentions.py $BK/referee.py $BK/round.py \
  $BK/scenario.py $BK/scoring.py $BK/setup.py $BK/sight.py $BK/position.py
