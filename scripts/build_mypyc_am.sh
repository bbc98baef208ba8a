#!/bin/sh
# Build Ankh-Morpork's forward model and the core modules it calls with mypyc, in place
# (.so files beside the sources; build/ holds the C). Run from the repository root.
# Only Ankh-Morpork: with stack.py compiled, the other games' states (interpreted subclasses
# of the compiled StackedState that repeat its attributes in __slots__) lose their stack.
set -e
AM=citywatch/games/ankh_morpork
PYTHONPATH=$PWD exec "${PYTHON:-/work/main/.venv/bin/python}" -m mypyc \
  citywatch/core/stack.py citywatch/core/rng.py citywatch/core/log.py \
  $AM/kinds.py $AM/data.py $AM/actions.py $AM/state.py $AM/harm.py $AM/events.py \
  $AM/effects.py $AM/rules.py $AM/scoring.py $AM/position.py $AM/view.py $AM/evaluate.py \
  $AM/heuristic.py $AM/frames.py
