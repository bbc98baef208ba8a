"""Line of sight, fields of view and light in the Black Keep (spec sections 2.8 and 3).

Everything is judged on the exact integer lattice of ``hexes`` (ruling 8): no floating point.
A sight line runs from the viewer's centre to a point; walls, the sides of solid hexes and the
map's edge block it, and so do the sides of a Special Hex it would pass through (rulings 9, 10).

A ``Board`` never changes, so its one ``Sight`` (``sight(board)``) computes each field of view
once, lazily. For a viewer, the line to a corner ``k`` of a target hex never depends on the
target (the target's own Special sides are excluded anyway, as ``k`` is one of its corners),
so the viewer's clear corners are found once for all six facings, by one angular sweep:

* the board's corners are grouped into rays from the viewer's centre (same primitive lattice
  direction), each ray ordered by distance, the rays ordered by angle with an exact integer key;
* a blocker whose ends lie on different rays crosses every ray strictly between them, and
  hides the corners of such a ray lying strictly beyond it (a per-ray threshold);
* an end of a blocker lying on a ray makes the lines beyond it along that ray lean to the side
  of its other end; a corner is hidden when lines to it lean both ways (ruling 9);
* blockers lying along a ray from the viewer never interrupt anything.

That costs a few milliseconds per viewer where the reference needs about 25 ms per (hex,
facing); ``tests/games/black_keep/test_bk_sight.py`` checks that both agree on every hex, facing
and status.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from math import gcd
from typing import Final

from citywatch.games.black_keep.board import BLOCKED, Board
from citywatch.games.black_keep.hexes import CORNER_OFFSETS, DELTAS, Point, centre, corner

Segment = tuple[Point, Point]
"""A blocker: a hex side, as its two end corners."""

EMPTY: Final[frozenset[int]] = frozenset()

NOTHING: Final = "nothing"
SHORT_ROW: Final = "short row"
ROW: Final = "row"
ARC: Final = "arc"
VIEW_OF_STATUS: Final[tuple[str, ...]] = (NOTHING, SHORT_ROW, ROW, ARC, ARC, ARC)
"""What each guard status sees, by its number in ``state`` (distracted, bored, interested,
alert, pursuing, returning; spec 3.6). Sight sits below ``state`` in the layers, so it keeps
this table; the tests check that it follows ``state.STATUSES``."""
_FAR: Final = 1 << 60
"""Larger than any distance along a ray: "nothing there"."""


def _far() -> int:
    return _FAR


_PerRay = list[int] | defaultdict[int, int]
"""Per ray (by its position in angle order): a distance along it."""


class _AngleKeys(dict[Point, tuple[int, int]]):
    """Exact sort keys of primitive lattice directions by angle, increasing the way
    ``_orient`` turns positive, made on first use.

    Within a half-turn the angle grows as ``dx / dy`` falls; two different slopes whose
    denominators are below ``span`` (the board's height in lattice rows) differ by more than
    ``1 / span**2``, so scaling by ``scale = span**2 + 1`` and flooring keeps them apart and in
    order: no fractions, no floats."""

    def __init__(self, scale: int) -> None:
        super().__init__()
        self.scale = scale

    def __missing__(self, d: Point) -> tuple[int, int]:
        dx, dy = d
        if dy == 0:
            key = (0 if dx > 0 else 1, -_FAR)
        else:
            key = (0 if dy > 0 else 1, -((dx * self.scale) // dy))
        self[d] = key
        return key


def _orient(a: Point, b: Point, c: Point) -> int:
    """The sign of the turn ``a -> b -> c``: +1, 0 (in line) or -1."""
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (v > 0) - (v < 0)


def is_line_clear(start: Point, end: Point, blockers: Iterable[Segment]) -> bool:
    """Is the sight line from ``start`` to ``end`` uninterrupted (ruling 9, spec 3.2)?

    A blocker with an end at ``end`` or lying along the line never interrupts; one whose
    interior crosses the line's interior does; one touching the line with an end strictly
    between ``start`` and ``end`` leans to the side of its other end, and the line is
    interrupted when blockers lean to both sides.
    """
    sx, sy = start
    ex, ey = end
    lo_x, hi_x = min(sx, ex), max(sx, ex)
    lo_y, hi_y = min(sy, ey), max(sy, ey)
    leans = 0  # bit 1: some blocker leans to the left, bit 2: to the right
    for a, b in blockers:
        if a == end or b == end:
            continue
        if (max(a[0], b[0]) < lo_x or min(a[0], b[0]) > hi_x
                or max(a[1], b[1]) < lo_y or min(a[1], b[1]) > hi_y):
            continue
        side_a, side_b = _orient(start, end, a), _orient(start, end, b)
        if side_a == 0 and side_b == 0:
            continue  # along the line
        if side_a * side_b < 0 and _orient(a, b, start) * _orient(a, b, end) < 0:
            return False  # crossing
        if side_a == 0 and a != start and lo_x <= a[0] <= hi_x and lo_y <= a[1] <= hi_y:
            leans |= 1 if side_b > 0 else 2  # touches with end a, leans towards b
        if side_b == 0 and b != start and lo_x <= b[0] <= hi_x and lo_y <= b[1] <= hi_y:
            leans |= 1 if side_a > 0 else 2
    return leans != 3


class Sight:
    """Fields of view (spec 3.6), light (2.8) and sight lines (3.1-3.3) of one board, each
    computed once, on first use. Hexes are board indices; facings 0-5; statuses numbered as
    in ``state``."""

    def __init__(self, board: Board) -> None:
        self.board = board
        hexes = board.hexes
        self._centres: tuple[Point, ...] = tuple(centre(h) for h in hexes)
        # every corner of a floor hex, numbered
        corner_id: dict[Point, int] = {}
        hex_corners: list[tuple[int, ...]] = []
        for h in hexes:
            hex_corners.append(tuple(corner_id.setdefault(corner(h, i), len(corner_id))
                                     for i in range(6)))
        self._corner_x = tuple(p[0] for p in corner_id)
        self._corner_y = tuple(p[1] for p in corner_id)
        self._hex_corners = tuple(hex_corners)
        # opaque sides: walls, solid hexes, the map's edge (each once)
        opaque: set[tuple[int, int]] = set()
        for i, own in enumerate(hex_corners):
            for f, there in enumerate(board.step[i]):
                if there == BLOCKED:
                    a, b = own[(f + 4) % 6], own[(f + 5) % 6]
                    opaque.add((min(a, b), max(a, b)))
        self._opaque = tuple(sorted(opaque))
        self._specials = tuple(i for i in range(board.size) if board.special[i])
        self._special_sides = {
            s: tuple((hex_corners[s][(f + 4) % 6], hex_corners[s][(f + 5) % 6]) for f in range(6))
            for s in self._specials}
        specials_at: dict[int, list[int]] = {}
        for s in self._specials:
            for c in hex_corners[s]:
                specials_at.setdefault(c, []).append(s)
        self._specials_at = {c: tuple(ss) for c, ss in specials_at.items()}
        """The Special Hexes each corner belongs to (their sides never block a line to it)."""
        span = max(self._corner_y) - min(self._corner_y) + 1
        self._scale = span * span + 1
        """Keeps distinct slopes apart in the integer angle keys (see ``_AngleKeys``)."""
        # the field test of each facing: a*dx + b*dy + least >= 0 for a target centre offset
        # (dx, dy) from the viewer's centre <=> all six corners are in the closed half-plane
        fronts = []
        for f in range(6):
            cx, cy = CORNER_OFFSETS[f]
            dq, dr = DELTAS[f]
            ahead = (3 * dq, 2 * dr + dq)
            sign = _orient((0, 0), (cx, cy), ahead)
            a, b = -sign * cy, sign * cx
            fronts.append((a, b, min(a * ox + b * oy for ox, oy in CORNER_OFFSETS)))
        self._fronts = tuple(fronts)
        self._relative: dict[Point, tuple[Point, int]] = {}
        """A lattice vector from a centre to a corner: its primitive direction and multiple."""
        self._angle_keys: _AngleKeys = _AngleKeys(self._scale)
        self._rows: dict[tuple[int, int], tuple[int, ...]] = {}
        self._clear_targets: dict[int, tuple[int, ...]] = {}
        self._fields: dict[tuple[int, int], frozenset[int]] = {}
        self._seen: dict[tuple[int, int, object, int], frozenset[int]] = {}
        self._partly: dict[tuple[int, int], frozenset[int]] = {}
        self._lit: dict[tuple[frozenset[int], int], frozenset[int]] = {}
        self._lines: dict[tuple[int, int], bool] = {}
        self._opaque_points: list[Segment] | None = None
        """The opaque sides as points, and each Special Hex's sides (``_segments``, made on
        first use)."""
        self._special_points: dict[int, list[Segment]] = {}

    # -- checks -----------------------------------------------------------------------------

    def _check_hex(self, hex: int, what: str = "hex") -> None:
        if isinstance(hex, bool) or not isinstance(hex, int) or not 0 <= hex < self.board.size:
            raise ValueError(f"{what} {hex!r} is not a floor hex index of {self.board.name} "
                             f"(0 to {self.board.size - 1})")

    @staticmethod
    def _check_facing(facing: int) -> None:
        if isinstance(facing, bool) or not isinstance(facing, int) or not 0 <= facing < 6:
            raise ValueError(f"facing {facing!r} is not 0 to 5")

    @staticmethod
    def _check_reach(reach: int | None, what: str = "reach") -> None:
        if reach is not None and (isinstance(reach, bool) or not isinstance(reach, int)
                                  or reach < 0):
            raise ValueError(f"{what} must be a whole number >= 0, not {reach!r}")

    # -- the row ahead ------------------------------------------------------------------------

    def row(self, hex: int, facing: int, reach: int | None = None) -> tuple[int, ...]:
        """The row of hexes straight ahead, nearest first (spec 3.4, ruling 11): it stops at
        a wall, a solid hex or the map's edge, just after a Special Hex, or after ``reach``
        hexes (``None``: no limit)."""
        whole = self._rows.get((hex, facing))
        if whole is None:
            self._check_hex(hex)
            self._check_facing(facing)
            self._check_reach(reach)
            whole = self._walk_row(hex, facing)
            self._rows[(hex, facing)] = whole
        if reach is None:
            return whole
        self._check_reach(reach)
        return whole[:reach]

    def _walk_row(self, hex: int, facing: int) -> tuple[int, ...]:
        step, special = self.board.step, self.board.special
        out: list[int] = []
        here = hex
        while True:
            if here != hex and special[here]:
                break
            ahead = step[here][facing]
            if ahead == BLOCKED:
                break
            out.append(ahead)
            here = ahead
        return tuple(out)

    # -- fields of view -----------------------------------------------------------------------

    def seen(self, hex: int, facing: int, status: object, bored_reach: int = 2) -> frozenset[int]:
        """The hexes a guard on ``hex`` facing ``facing`` sees in ``status`` (spec 3.6):
        nothing when Distracted; the row ahead up to ``bored_reach`` hexes when Bored (R12);
        the whole row when Interested (R11); when Alert, Pursuing or Returning, the whole row
        and every fully seen hex of the 180-degree field (R13, R14). Never its own hex (R16)."""
        key = (hex, facing, status, bored_reach)
        known = self._seen.get(key)
        if known is not None:
            return known
        self._check_hex(hex)
        self._check_facing(facing)
        if isinstance(status, bool) or not isinstance(status, int) \
                or status not in range(len(VIEW_OF_STATUS)):
            raise ValueError(f"status {status!r} is not a guard status (0 to "
                             f"{len(VIEW_OF_STATUS) - 1})")
        self._check_reach(bored_reach, "bored_reach")
        kind = VIEW_OF_STATUS[status]
        if kind == NOTHING:
            view = EMPTY
        elif kind == SHORT_ROW:
            view = frozenset(self.row(hex, facing, bored_reach))
        elif kind == ROW:
            view = frozenset(self.row(hex, facing))
        else:
            view = self._field(hex, facing)
        self._seen[key] = view
        return view

    def _field(self, hex: int, facing: int) -> frozenset[int]:
        """The arc statuses' view: the whole row plus the fully seen hexes (R13, R14)."""
        known = self._fields.get((hex, facing))
        if known is None:
            known = self.fully_seen(hex, facing).union(self.row(hex, facing))
            self._fields[(hex, facing)] = known
        return known

    def fully_seen(self, hex: int, facing: int) -> frozenset[int]:
        """The hexes with all six corners in the 180-degree field of ``facing`` and reached by
        uninterrupted lines from ``hex``'s centre (spec 3.5); the row is not added."""
        self._check_hex(hex)
        self._check_facing(facing)
        a, b, least = self._fronts[facing]
        ox, oy = self._centres[hex]
        need = -least
        centres = self._centres
        return frozenset(t for t in self.clear_targets(hex)
                         if a * (centres[t][0] - ox) + b * (centres[t][1] - oy) >= need)

    def clear_targets(self, hex: int) -> tuple[int, ...]:
        """The hexes other than ``hex`` whose six corners are all reached by uninterrupted
        lines from its centre, whatever the facing (cached)."""
        known = self._clear_targets.get(hex)
        if known is None:
            self._check_hex(hex)
            clear = self._clear_corners(hex)
            known = tuple(t for t, ids in enumerate(self._hex_corners)
                          if t != hex and all(clear[c] for c in ids))
            self._clear_targets[hex] = known
        return known

    def clear_corners(self, hex: int) -> frozenset[Point]:
        """The corners of the board's floor hexes reached by an uninterrupted line from
        ``hex``'s centre (spec 3.1-3.3; for tools and tests: not cached)."""
        self._check_hex(hex)
        xs, ys = self._corner_x, self._corner_y
        return frozenset((xs[c], ys[c]) for c, ok in enumerate(self._clear_corners(hex)) if ok)

    def _clear_corners(self, viewer: int) -> list[bool]:
        """For every corner of the board: is the line from ``viewer``'s centre to it clear?"""
        ox, oy = self._centres[viewer]
        xs, ys = self._corner_x, self._corner_y
        count = len(xs)
        # group the corners into rays from the centre, each ray by distance ``g``
        relative = self._relative
        along = [0] * count
        direction_of_corner: list[tuple[int, int]] = [(0, 0)] * count
        for c in range(count):
            rel = (xs[c] - ox, ys[c] - oy)
            known = relative.get(rel)
            if known is None:
                g = gcd(rel[0], rel[1])
                known = relative[rel] = ((rel[0] // g, rel[1] // g), g)
            direction_of_corner[c], along[c] = known
        keys = self._angle_keys
        directions = sorted(set(direction_of_corner), key=keys.__getitem__)
        ray_of_direction = {d: p for p, d in enumerate(directions)}
        ray = [ray_of_direction[d] for d in direction_of_corner]
        rays = len(directions)
        dir_x = [d[0] for d in directions]
        dir_y = [d[1] for d in directions]

        def sweep(blockers: Iterable[tuple[int, int]], beyond: _PerRay, left: _PerRay,
                  right: _PerRay) -> None:
            """Record each blocker's crossings (``beyond``: corners on the ray farther than
            this are hidden) and leanings (``left``/``right``: lines along the ray farther
            than this lean that way), per ray."""
            for a, b in blockers:
                ax, ay, bx, by = xs[a] - ox, ys[a] - oy, xs[b] - ox, ys[b] - oy
                turn = ax * by - ay * bx
                if turn == 0:
                    continue  # along a ray from the centre: never interrupts
                if turn < 0:
                    a, b, ax, ay, bx, by = b, a, bx, by, ax, ay
                pa, pb = ray[a], ray[b]
                if along[a] < left[pa]:
                    left[pa] = along[a]
                if along[b] < right[pb]:
                    right[pb] = along[b]
                ex, ey = bx - ax, by - ay
                reach = ax * ey - ay * ex
                p = pa + 1
                if p == rays:
                    p = 0
                while p != pb:
                    cut = reach // (dir_x[p] * ey - dir_y[p] * ex)
                    if cut < beyond[p]:
                        beyond[p] = cut
                    p += 1
                    if p == rays:
                        p = 0

        beyond, left, right = [_FAR] * rays, [_FAR] * rays, [_FAR] * rays
        sweep(self._opaque, beyond, left, right)
        others = [s for s in self._specials if s != viewer]
        own: dict[int, tuple[dict[int, int], dict[int, int], dict[int, int]]] = {}
        specials_on: dict[int, set[int]] = {}  # ray -> the Special Hexes acting on it
        base = (beyond[:], left[:], right[:]) if others else (beyond, left, right)
        for s in others:
            its: tuple[defaultdict[int, int], ...] = tuple(
                defaultdict(_far) for _ in range(3))
            sweep(self._special_sides[s], *its)
            own[s] = (dict(its[0]), dict(its[1]), dict(its[2]))
            for merged, events in zip((beyond, left, right), its, strict=True):
                for p, v in events.items():
                    if v < merged[p]:
                        merged[p] = v
                    specials_on.setdefault(p, set()).add(s)
        clear = [False] * count
        specials_at = self._specials_at
        for c in range(count):
            p, g = ray[c], along[c]
            cut, lean_l, lean_r = beyond[p], left[p], right[p]
            excluded = specials_at.get(c)
            if excluded and p in specials_on and not specials_on[p].isdisjoint(excluded):
                # the sides of a Special Hex with this corner never block a line to it
                cut, lean_l, lean_r = base[0][p], base[1][p], base[2][p]
                for s in specials_on[p]:
                    if s in excluded:
                        continue
                    its_cut, its_left, its_right = own[s]
                    cut = min(cut, its_cut.get(p, _FAR))
                    lean_l = min(lean_l, its_left.get(p, _FAR))
                    lean_r = min(lean_r, its_right.get(p, _FAR))
            clear[c] = g <= cut and (g <= lean_l or g <= lean_r)
        return clear

    def partly_seen(self, hex: int, facing: int) -> frozenset[int]:
        """The hexes partly but not fully seen (spec 3.5, ruling 17; no effect on play): not
        fully seen, but the centre or a point halfway from the centre to a corner lies
        strictly inside the field and is reached by an uninterrupted line."""
        known = self._partly.get((hex, facing))
        if known is not None:
            return known
        full = self.fully_seen(hex, facing)
        a, b, _ = self._fronts[facing]
        ox, oy = self._centres[hex]
        start = (2 * ox, 2 * oy)
        out = []
        for t in range(self.board.size):
            if t == hex or t in full:
                continue
            cx, cy = self._centres[t]
            points = [(2 * cx, 2 * cy)] + [(2 * cx + dx, 2 * cy + dy) for dx, dy in CORNER_OFFSETS]
            inside = [p for p in points if a * (p[0] - start[0]) + b * (p[1] - start[1]) > 0]
            if not inside:
                continue
            blockers = [((2 * p[0], 2 * p[1]), (2 * q[0], 2 * q[1]))
                        for p, q in self._segments(exclude=(hex, t))]
            if any(is_line_clear(start, p, blockers) for p in inside):
                out.append(t)
        known = frozenset(out)
        self._partly[(hex, facing)] = known
        return known

    def _segments(self, exclude: tuple[int, ...]) -> list[Segment]:
        """Opaque sides and the sides of the Special Hexes not in ``exclude``, as points."""
        if self._opaque_points is None:
            xs, ys = self._corner_x, self._corner_y
            self._opaque_points = [((xs[a], ys[a]), (xs[b], ys[b])) for a, b in self._opaque]
            self._special_points = {
                s: [((xs[a], ys[a]), (xs[b], ys[b])) for a, b in sides]
                for s, sides in self._special_sides.items()}
        out = self._opaque_points[:]
        special_points = self._special_points
        for s in self._specials:
            if s not in exclude:
                out.extend(special_points[s])
        return out

    # -- sight lines between centres ----------------------------------------------------------

    def clear_line(self, a: int, b: int) -> bool:
        """Is the line from ``a``'s centre to ``b``'s uninterrupted (spec 3.1-3.3, used by
        the Noise and Water Arrows, 6.5)? It may end in a Special Hex and start in one, but
        not pass through one. A hex's line to itself is clear."""
        key = (a, b) if a <= b else (b, a)
        known = self._lines.get(key)
        if known is None:
            self._check_hex(a)
            self._check_hex(b)
            known = a == b or is_line_clear(self._centres[a], self._centres[b],
                                            self._segments(exclude=(a, b)))
            self._lines[key] = known
        return known

    # -- light --------------------------------------------------------------------------------

    def lit(self, extinguished: frozenset[int], reach: int = 2) -> frozenset[int]:
        """The hexes lit by the board's torches that are not ``extinguished`` (spec 2.8,
        ruling 18): each lights its hex and every hex within ``reach`` steps across open
        sides, into Special Hexes but not out of them."""
        key = (extinguished, reach)
        known = self._lit.get(key)
        if known is not None:
            return known
        torches = self.board.torches
        out = set(extinguished) - set(torches)
        if out:
            raise ValueError(f"not torch hexes of {self.board.name}: {sorted(out)}")
        self._check_reach(reach)
        step, special = self.board.step, self.board.special
        lit: set[int] = set()
        for torch in torches:
            if torch in extinguished:
                continue
            reached = {torch}
            frontier = [torch]
            for _ in range(reach):
                ahead = []
                for here in frontier:
                    if here != torch and special[here]:
                        continue
                    for there in step[here]:
                        if there != BLOCKED and there not in reached:
                            reached.add(there)
                            ahead.append(there)
                frontier = ahead
            lit |= reached
        known = frozenset(lit)
        self._lit[(frozenset(extinguished), reach)] = known
        return known


def can_spot(board: Board, seen: frozenset[int], lit: frozenset[int], guard_hex: int,
             thief_hex: int, hiding: bool, eye: bool) -> bool:
    """Does a guard on ``guard_hex`` with field of view ``seen`` spot a thief on
    ``thief_hex`` (spec 3.7, rulings 18, 19)? Its hex must be seen, and the thief next to the
    guard, or not Hiding and in a ``lit`` hex or carrying the Eye."""
    if thief_hex not in seen:
        return False
    if thief_hex in board.step[guard_hex]:
        return True
    return not hiding and (eye or thief_hex in lit)


def sight(board: Board) -> Sight:
    """The board's one ``Sight`` (made on first use, kept with the board)."""
    known: Sight | None = board.derived.get("sight")
    if known is None:
        known = board.derived["sight"] = Sight(board)
    return known
