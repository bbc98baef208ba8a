"""The coach (issue 30): winning chances, hints and the analysis of a finished game, for any
game, on the core API.

- ``chances``: a position's winning chances (``Judge``): playouts of the kind the hard level
  searches with, cut at its depth and judged by the game's evaluation, then calibrated
  (``calibration/<game>.json``, fitted by ``calibrate``).
- ``hints``: for one seat's decision, from that seat's own information only (worlds sampled
  from its observation, never the true state), the chance after each legal action and the
  hard level's pick (``hint``).
- ``review``: a finished game's record analysed with the whole record: every seat's chance
  after every decision and the turning points (``analyse``).
"""

from __future__ import annotations

from citywatch.coach.chances import STRENGTHS, Calibration, Judge, Strength, strength
from citywatch.coach.hints import Hint, HintOption, allowed_by_default, hint, hint_rng
from citywatch.coach.review import Analysis, Moment, TurningPoint, analyse

__all__ = ["STRENGTHS", "Analysis", "Calibration", "Hint", "HintOption", "Judge", "Moment",
           "Strength", "TurningPoint", "allowed_by_default", "analyse", "hint", "hint_rng",
           "strength"]
