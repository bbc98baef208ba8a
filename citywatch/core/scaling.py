"""A scaled layout from an unscaled one (issue 33): each number divided by its block's scale
and clipped to 1. Needs numpy, as every encoding does."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from citywatch.core.presentation import Encoding


def scaled(unscaled: Encoding, scales: Mapping[str, float], version: int,
           potential: Callable[[Any, int], float] | None, module: str) -> Encoding:
    """``unscaled`` with each number divided by its block's scale (its max in ``unscaled``
    unless ``scales`` names the block) and clipped to 1: the same actions and blocks, at
    ``version``, with ``potential``. ``module`` names the module whose docstring documents
    the scaled layout (the observation reports it as its ``__module__``). ``ValueError`` if a
    scale is not above 0 or passes the unscaled max (a number the unscaled layout clips)."""
    high = np.asarray(unscaled.observation_high, dtype=np.float32)
    scale = high.copy()
    for name, value in scales.items():
        start, size = unscaled.blocks[name]
        scale[start:start + size] = value
    if (scale > high).any() or (scale <= 0).any():
        raise ValueError("a scale is not above 0, or passes the unscaled layout's max")
    observe = unscaled.observation

    def observation(state: Any, seat: int) -> Any:
        """What ``seat`` may see of ``state``, each number in [0, 1]."""
        out = observe(state, seat)
        np.divide(out, scale, out=out)
        np.minimum(out, 1.0, out=out)
        return out

    observation.__module__ = module
    return dataclasses.replace(
        unscaled, observation_high=np.ones_like(scale), observation=observation,
        version=version, scale=tuple(map(float, scale)), potential=potential)
