// citywatch: the Thieves of the Black Keep board module, served at /games/black-keep/board.js and
// loaded by the table and replay pages (the interface is described in the server's
// static/common.js): the keep as an SVG hex map (floor, walls, solid hexes, Special Hexes, the
// map's edge and its ways out, torches and the lit hexes), every guard with its facing, status
// and the hexes it sees now shaded, the Thief Markers, the thieves whose hex this page may know
// (its own secret dial only on its own page: the view leaves the others out), the guards and
// thieves as tables, and at the side your thief (hand, Guard cards, plan) and the market.
// Clicking a glowing hex takes the choice naming it (or picks out the buttons that do); clicking
// a card of your hand or of the market does the same for the choices naming the card.
//
// The Guard Phase runs inside one step of the game, so the view carries its public steps
// (guard_steps): when they are new (a live table after a Guard Phase, or the next step of a
// replay) the map walks the guards through them, one step every STEP_MS, then shows the board
// as it is. The button under the map plays the last Guard Phase again.
//
// Everything here reads a view exactly as the server sent it for this page's token, and the
// facts in board.json next to this file (written by make_web.py); nothing else.
"use strict";

(() => {
// the pages' helpers (static/common.js, loaded first)
const { el, svg, cap, plural, appendWinners, boardHint, addBoardStyle, fetchJson, zoomMap, fitWidth } = CityWatch;
const STEP_MS = 300; // one step of the Guard Phase animation
const SQRT3 = Math.sqrt(3);
const HEX_FIELDS = ["hex", "to", "at"]; // the action fields that name a hex

let facts = null; // board.json, indexed
let shown = null; // {view, ctx}: what the page drew last
let seenSteps = null; // the key of the guard steps already shown (null: nothing drawn yet)
let lastStep = null; // ctx.step of the last render
let animation = null; // {frames, index, timer} while the Guard Phase is being played
let zoom = null; // the map's zoom and pan (common.js zoomMap), made by mount

/** The board's styles and facts (board.css and board.json), from the folder it is served from. */
async function load(base) {
  addBoardStyle(`${base}board.css`);
  const data = await fetchJson(`${base}board.json`, "board facts (board.json)");
  facts = {
    ...data,
    facing: Object.fromEntries(data.facings.map((f, i) => [f.name, i])),
    status: Object.fromEntries(data.statuses.map((s) => [s.name, s])),
    type: Object.fromEntries(data.types.map((t) => [t.name, t])),
    special: Object.fromEntries(data.specials.map((s) => [s.kind, s.name])),
    thiefCard: Object.fromEntries(data.thief_cards.map((c) => [c.name, c])),
    guardCard: Object.fromEntries(data.guard_cards.map((c) => [c.name, c])),
    treasure: Object.fromEntries(data.treasures.map((t) => [t.name, t])),
  };
}

// ---- geometry -----------------------------------------------------------------------------

/** The pixel centre of the axial hex (q, r): flat-topped hexes of circumradius facts.size. */
function centre(q, r) {
  const S = facts.size;
  return [S * 1.5 * q, S * SQRT3 * (r + q / 2)];
}

/** Corner i (0: east, then clockwise with y down) of the hex around (x, y), radius ``rad``. */
function corner(x, y, rad, i) {
  const a = (Math.PI / 3) * i;
  return [x + rad * Math.cos(a), y + rad * Math.sin(a)];
}

function hexPoints(x, y, rad) {
  const out = [];
  for (let i = 0; i < 6; i += 1) {
    const [px, py] = corner(x, y, rad, i);
    out.push(`${px.toFixed(1)},${py.toFixed(1)}`);
  }
  return out.join(" ");
}

/** The side a hex shows toward facing ``f`` (0: N ... 5: NW): corners f+4 and f+5. */
function sidePoints(x, y, rad, f) {
  return [corner(x, y, rad, (f + 4) % 6), corner(x, y, rad, (f + 5) % 6)];
}

/** The unit vector of facing ``f`` in pixels. */
function facingVector(f) {
  const { dq, dr } = facts.facings[f];
  const [x, y] = [1.5 * dq, SQRT3 * (dr + dq / 2)];
  const n = Math.hypot(x, y);
  return [x / n, y / n];
}

/** The map of the view, indexed: hexes by label with their pixel centres, the view box. */
function indexMap(map) {
  if (map.indexed) return map.indexed;
  const at = {};
  for (const [label, [q, r]] of Object.entries(map.hexes)) {
    const [x, y] = centre(q, r);
    at[label] = { label, q, r, x, y };
  }
  const solid = {};
  for (const [label, [q, r]] of Object.entries(map.solid)) {
    const [x, y] = centre(q, r);
    solid[`${q},${r}`] = { label, q, r, x, y };
  }
  const floorAt = {};
  for (const h of Object.values(at)) floorAt[`${h.q},${h.r}`] = h;
  const tileOf = {};
  map.tiles.forEach((t, k) => {
    for (const h of Object.values(at)) {
      const row = rowNumber(h.q, h.r);
      if (h.q >= t.columns[0] && h.q <= t.columns[1] && row >= t.rows[0] && row <= t.rows[1]) {
        tileOf[h.label] = k;
      }
    }
  });
  const S = facts.size;
  const all = [...Object.values(at), ...Object.values(solid)];
  const left = Math.min(...all.map((h) => h.x)) - S - 14;
  const right = Math.max(...all.map((h) => h.x)) + S + 14;
  const top = Math.min(...all.map((h) => h.y)) - S - 14;
  const bottom = Math.max(...all.map((h) => h.y)) + S + 14;
  const indexed = { at, solid, floorAt, tileOf, box: [left, top, right - left, bottom - top] };
  Object.defineProperty(map, "indexed", { value: indexed, enumerable: false });
  return indexed;
}

/** The row number of an axial hex's label (odd-q: odd columns sit half a hex lower). */
function rowNumber(q, r) {
  return r + (q - (q & 1)) / 2 + 1;
}

// ---- what the choices name ----------------------------------------------------------------

/** The hexes the choices name, as {label: [choice indices]}. */
function hexChoices(ctx) {
  const found = {};
  if (!ctx.mine || ctx.pending) return found;
  ctx.choices.forEach((choice, i) => {
    const json = choice.json;
    if (json === null || typeof json !== "object") return;
    for (const key of HEX_FIELDS) {
      if (typeof json[key] === "string") {
        (found[json[key]] = found[json[key]] || []).push(i);
        break;
      }
    }
  });
  return found;
}

function pressable(node, go) {
  node.addEventListener("click", go);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      go();
    }
  });
}

// ---- the map ------------------------------------------------------------------------------

/** The guards to draw: the view's, or (while the Guard Phase is played) the frame's. */
function guardsShown(view, frame) {
  if (!frame) return view.guards;
  return view.guards.map((g) => ({ ...g, ...(frame[g.number] || {}) }));
}

function drawBoard(host, view, ctx, frame) {
  const map = indexMap(view.map);
  const S = facts.size;
  const [bx, by, bw, bh] = map.box;
  const clickable = hexChoices(ctx);
  const lit = new Set(view.lit);
  const root = svg("svg", {
    viewBox: `${bx.toFixed(1)} ${by.toFixed(1)} ${bw.toFixed(1)} ${bh.toFixed(1)}`,
    class: "bk-board", role: "img", "data-animating": frame ? "yes" : "no",
    "data-frame": frame ? String(animation.index) : null,
    "aria-label": `${view.scenario.name}: the keep as a hex map`,
  });
  root.append(svg("rect", { x: bx, y: by, width: bw, height: bh, class: "bk-bg" }));

  // The floor, lit or dark, tiles told apart by a tint; solid hexes.
  const floor = svg("g", { class: "bk-floor" });
  for (const h of Object.values(map.at)) {
    const tile = map.tileOf[h.label] ?? 0;
    const cls = ["bk-hex", lit.has(h.label) ? "bk-lit" : "bk-dark", `bk-tile-${tile % 2}`];
    floor.append(svg("polygon", { points: hexPoints(h.x, h.y, S), class: cls.join(" ") }));
  }
  for (const h of Object.values(map.solid)) {
    floor.append(svg("polygon", { points: hexPoints(h.x, h.y, S), class: "bk-solid" },
      svg("title", { text: `${h.label}: solid (nobody stands here; sight stops)` })));
  }
  root.append(floor);

  // Fields of view: each guard's seen hexes in its status colour (not while animating).
  const guards = guardsShown(view, frame);
  if (!frame) {
    const fov = svg("g", { class: "bk-fov-layer" });
    for (const g of guards) {
      const colour = facts.status[g.status] ? facts.status[g.status].colour : "#888";
      for (const label of g.sees || []) {
        const h = map.at[label];
        if (!h) continue;
        fov.append(svg("polygon", {
          points: hexPoints(h.x, h.y, S - 2.5), class: "bk-fov", fill: colour, stroke: colour,
          "data-guard": g.number, "data-hex": label,
        }));
      }
    }
    root.append(fov);
  }

  root.append(drawRoutes(view, map, guards));
  root.append(drawFeatures(view, map, ctx));
  root.append(drawWalls(view, map));
  root.append(drawPieces(view, map, guards, frame));
  root.append(drawMoves(map, ctx));
  if (!frame) root.append(drawForecast(view, map));
  root.append(drawTargets(map, clickable, ctx, view));
  root.append(drawWarnings(view, map, clickable));
  host.replaceChildren(root);
  const own = ownThief(view);
  const at = own && own.hex && map.at[own.hex];
  if (zoom) zoom.show(root, at ? [at.x, at.y] : null);
}

/** Issue 26: a dashed ring in the thief's colour on every hex each move of ``ctx.moves``
 * touched (the moves since this seat's last decision; the replay: the decision shown; a
 * Guard Phase's hexes go with the plan that set it off), one ring per thief, the oldest
 * outermost; clicks go through. */
function drawMoves(map, ctx) {
  const S = facts.size;
  const colours = Object.fromEntries(facts.thieves.map((t) => [t.name, t.colour]));
  const layer = svg("g", { class: "bk-moves" });
  for (const [label, movers] of CityWatch.movesBySpace(ctx.moves)) {
    const h = map.at[label];
    if (!h) continue;
    movers.forEach((by, k) => {
      const ring = hexPoints(h.x, h.y, S - 3 - 4 * k);
      layer.append(svg("polygon", { points: ring, class: "bk-moved-halo" }));
      layer.append(svg("polygon", {
        points: ring, class: "bk-moved", stroke: colours[by] || "#444", "data-moved": label,
        "data-by": by,
      }));
    });
  }
  return layer;
}

/** The green line and red arrows of the guards that walk them, faint and dashed. */
function drawRoutes(view, map, guards) {
  const g = svg("g", { class: "bk-routes" });
  const byTile = Object.fromEntries(view.map.tiles.map((t) => [t.id, t]));
  const drawn = new Set();
  for (const guard of guards) {
    const tile = byTile[guard.tile];
    if (!tile || !guard.placed) continue;
    const kind = guard.type === "patrolling" ? "green_line" : guard.type === "wandering" ? "red_arrows" : null;
    if (!kind || drawn.has(`${tile.id}/${kind}`)) continue;
    drawn.add(`${tile.id}/${kind}`);
    const route = tile[kind].map((label) => map.at[label]).filter(Boolean);
    if (kind === "red_arrows" && route.length) route.push(route[0]);
    if (route.length < 2) continue;
    g.append(svg("polyline", {
      points: route.map((h) => `${h.x.toFixed(1)},${h.y.toFixed(1)}`).join(" "),
      class: `bk-route bk-route-${kind === "green_line" ? "green" : "red"}`,
    }));
  }
  return g;
}

/** Special Hexes, ways out, torches, the crown, hex labels and each hex's hover title. */
function drawFeatures(view, map, ctx) {
  const S = facts.size;
  const layer = svg("g", { class: "bk-features" });
  const torches = new Set(view.torches);
  const out = new Set(view.extinguished);
  const me = ownThief(view);
  const myExit = me ? me.exit : null;
  const tiles = view.map.tiles;
  const lit = new Set(view.lit);
  const wayOut = {}; // label -> tile
  for (const t of tiles) for (const label of t.outside_edge) wayOut[label] = t;
  for (const h of Object.values(map.at)) {
    const g = svg("g", { class: "bk-cell", "data-hex": h.label });
    const title = [`${h.label}${tiles[map.tileOf[h.label]] ? ` · ${tiles[map.tileOf[h.label]].name}` : ""}`];
    title.push(lit.has(h.label) ? "lit" : "dark");
    const kind = view.map.special[h.label];
    if (kind) title.push(drawSpecial(g, h, kind, view, tiles[map.tileOf[h.label]]));
    const edgeTile = wayOut[h.label];
    if (edgeTile) {
      for (let f = 0; f < 6; f += 1) {
        if (!isEdge(map, h, f)) continue;
        const [[x1, y1], [x2, y2]] = sidePoints(h.x, h.y, S - 2.5, f);
        const cls = ["bk-way-out"];
        if (edgeTile.entry) cls.push("bk-entry");
        if (edgeTile.id === myExit) cls.push("bk-my-exit");
        g.append(svg("line", { x1, y1, x2, y2, class: cls.join(" ") }));
      }
      const what = [edgeTile.entry ? "entry" : null, edgeTile.exit ? "exit" : null].filter(Boolean).join(" and ");
      title.push(`outside edge of the ${edgeTile.name}${what ? ` (${what})` : ""}` +
        (edgeTile.id === myExit ? ": your Exit card's tile" : ""));
    }
    if (torches.has(h.label)) {
      const burning = !out.has(h.label);
      const tx = h.x - S * 0.48;
      const ty = h.y - S * 0.3;
      g.append(svg("g", { class: `bk-torch${burning ? "" : " bk-torch-out"}`, transform: `translate(${tx.toFixed(1)},${ty.toFixed(1)})` },
        svg("path", { d: "M0 -7 C4 -3 4 1 0 4 C-4 1 -4 -3 0 -7 Z", class: "bk-flame" }),
        svg("rect", { x: -1.5, y: 4, width: 3, height: 5, class: "bk-torch-stick" })));
      title.push(burning ? "a burning torch" : "a torch put out (Extinguished Torch counter)");
    }
    if (h.label === view.map.crown) {
      g.append(svg("path", {
        d: `M${h.x - 9} ${h.y + 5} l0 -10 l4.5 5 l4.5 -7 l4.5 7 l4.5 -5 l0 10 z`, class: "bk-crown",
      }));
      title.push(`the crown: ${plural(view.treasures_on_crown, "treasure token")} on it`);
    }
    g.append(svg("text", { x: h.x, y: h.y - S * 0.58, class: "bk-hex-label", text: h.label }));
    g.append(svg("title", { text: title.join("\n") }));
    layer.append(g);
  }
  return layer;
}

/** Whether side ``f`` of floor hex ``h`` is the map's edge (no floor or solid hex across). */
function isEdge(map, h, f) {
  const { dq, dr } = facts.facings[f];
  const key = `${h.q + dq},${h.r + dr}`;
  return !map.floorAt[key] && !map.solid[key];
}

// ---- issue 28: walls and Special Hexes that read at a laptop's window ----------------------

/** A wall (``cls`` bk-wall) or the map's edge (bk-edge) along [x1, y1, x2, y2]: a line whose
 * width scales with the map, over one that keeps a least width on the screen at any zoom
 * (non-scaling stroke), so a wall never thins to a hairline when the whole map is shown. */
function wallLine(g, [x1, y1, x2, y2], cls) {
  g.append(svg("line", { x1, y1, x2, y2, class: `${cls}-least` }));
  g.append(svg("line", { x1, y1, x2, y2, class: cls }));
}

/** The picture of a Special Hex of ``kind`` (door, window, grate) around (0, 0), in map
 * units: no letter (spec 2.7: they differ only in their picture; a letter would clash with
 * the guards' status letters). */
function specialIcon(kind) {
  const cls = "bk-special-icon";
  if (kind === "window") {
    return [svg("rect", { x: -6, y: -6, width: 12, height: 12, class: cls }),
      svg("path", { d: "M0 -6 V6 M-6 0 H6", class: `${cls} bk-icon-line` })];
  }
  if (kind === "grate") {
    return [svg("rect", { x: -6.5, y: -6, width: 13, height: 12, class: cls }),
      svg("path", { d: "M-3.2 -6 V6 M0 -6 V6 M3.2 -6 V6", class: `${cls} bk-icon-line` })];
  }
  return [svg("path", { d: "M-5 7 V-2 A5 5 0 0 1 5 -2 V7 Z", class: cls }),
    svg("circle", { cx: 2.4, cy: 2.2, r: 1.2, class: "bk-icon-knob" })];
}

/** Draw Special Hex ``h`` of ``kind`` into the cell ``g``: a blue hex with its picture, its
 * rim green when this page's thief may step in (Lockpicks, or the key of its ``tile``),
 * else red (locked to it); returns the hover words. */
function drawSpecial(g, h, kind, view, tile) {
  const S = facts.size;
  const me = ownThief(view);
  const open = me && (me.lockpicks || (tile && (me.keys || []).includes(tile.id)));
  const state = !me ? "" : open ? " bk-special-open" : " bk-special-locked";
  g.append(svg("polygon", { points: hexPoints(h.x, h.y, S * 0.66), class: `bk-special bk-special-${kind}${state}`,
    "data-special": kind }));
  g.append(svg("g", { class: "bk-special-mark", transform: `translate(${h.x.toFixed(1)},${(h.y + 2).toFixed(1)})` },
    ...specialIcon(kind)));
  const name = facts.special[kind] || kind;
  const how = !me ? "Lockpicks or the tile's key to enter"
    : open ? `you may step in (${me.lockpicks ? "Lockpicks: your move ends there" : "you hold the tile's key"})`
      : "locked to you: Lockpicks or the tile's key to enter";
  return `${name} (a Special Hex): ${how}; sight stops in it`;
}

/** The legend's keys for the map's marks that are not guards' statuses, each with its
 * ``data-symbol`` (one meaning per symbol: the legend test collects them). */
function symbolKeys() {
  const key = (symbol, picture, words) => el("span", { class: "bk-symbol", "data-symbol": symbol }, picture, ` ${words}`);
  const icon = (...parts) => svg("svg", { class: "bk-legend-icon", viewBox: "-9 -9 18 18", "aria-hidden": "true" }, ...parts);
  const hexIcon = (kind) => icon(svg("polygon", { points: hexPoints(0, 0, 8.6), class: `bk-special bk-special-${kind}` }),
    svg("g", { transform: "scale(0.62)" }, ...specialIcon(kind)));
  return [
    key("T", el("strong", { class: "bk-symbol-text", text: "T1" }), "thief"),
    key("!", el("strong", { class: "bk-symbol-text bk-symbol-marker", text: "!" }), "Thief Marker"),
    key("wall", icon(svg("line", { x1: -8, y1: 0, x2: 8, y2: 0, class: "bk-wall" })), "wall"),
    key("way-out", icon(svg("line", { x1: -8, y1: 0, x2: 8, y2: 0, class: "bk-way-out" })), "way in/out"),
    ...facts.specials.map((s) => {
      const k = key(s.kind, hexIcon(s.kind), s.name.toLowerCase());
      k.title = "A Special Hex: Lockpicks or the tile's key to enter. Its rim: red, locked to your thief; green, you may step in";
      return k;
    }),
  ];
}

/** Walls (thick) and the map's edge (a wall for everything but a thief escaping); the sides of
 * the ways out are left open (their green rim, drawFeatures). */
function drawWalls(view, map) {
  const S = facts.size;
  const g = svg("g", { class: "bk-walls" });
  for (const [a, b] of view.map.walls) {
    const h = map.at[a];
    const k = map.at[b];
    if (!h || !k) continue;
    const f = facts.facings.findIndex((x) => x.dq === k.q - h.q && x.dr === k.r - h.r);
    if (f < 0) continue;
    const [[x1, y1], [x2, y2]] = sidePoints(h.x, h.y, S, f);
    wallLine(g, [x1, y1, x2, y2], "bk-wall");
  }
  const wayOut = new Set(view.map.tiles.flatMap((t) => t.outside_edge));
  for (const h of Object.values(map.at)) {
    for (let f = 0; f < 6; f += 1) {
      if (!isEdge(map, h, f) || wayOut.has(h.label)) continue; // a way out: a gap, its green rim
      const [[x1, y1], [x2, y2]] = sidePoints(h.x, h.y, S, f);
      wallLine(g, [x1, y1, x2, y2], "bk-edge");
    }
  }
  return g;
}

/** Thief Markers, the thieves this page may place, the guards. */
function drawPieces(view, map, guards, frame) {
  const S = facts.size;
  const layer = svg("g", { class: "bk-pieces" });
  for (const m of view.markers) {
    const h = map.at[m.hex];
    if (!h) continue;
    const x = h.x + S * 0.5;
    const y = h.y + S * 0.36;
    layer.append(svg("g", { class: "bk-marker", "data-hex": m.hex, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
      svg("title", { text: `Thief Marker on ${m.hex} (placed ${m.order + 1}${ordinal(m.order + 1)})` }),
      svg("path", { d: "M0 -7 L7 0 L0 7 L-7 0 Z" }),
      svg("text", { y: 3.5, text: "!" })));
  }
  // Where the public knows a hidden thief may be: faint dots.
  view.thieves.forEach((t, seat) => {
    if (t.hex || !t.possible || t.standing !== "in play") return;
    const colour = facts.thieves[seat] ? facts.thieves[seat].colour : "#666";
    for (const label of t.possible) {
      const h = map.at[label];
      if (!h) continue;
      layer.append(svg("circle", {
        cx: (h.x - S * 0.42 + seat * 5).toFixed(1), cy: (h.y + S * 0.45).toFixed(1), r: 2.2,
        class: "bk-possible", fill: colour, "data-thief": seat + 1,
      }, svg("title", { text: `${t.name} may be here (public facts)` })));
    }
  });
  // Pieces sharing a hex sit side by side.
  const here = {};
  const add = (label, piece) => { (here[label] = here[label] || []).push(piece); };
  for (const g of guards) if (g.placed && g.hex && map.at[g.hex]) add(g.hex, { guard: g });
  view.thieves.forEach((t, seat) => {
    if (t.hex && map.at[t.hex] && t.standing === "in play") add(t.hex, { thief: t, seat });
  });
  for (const [label, pieces] of Object.entries(here)) {
    const h = map.at[label];
    pieces.forEach((piece, k) => {
      const dx = pieces.length > 1 ? (k - (pieces.length - 1) / 2) * S * 0.62 : 0;
      const x = h.x + dx;
      const y = h.y + 2;
      layer.append(piece.guard ? guardPiece(piece.guard, x, y, pieces.length > 1, frame)
        : thiefPiece(view, piece.thief, piece.seat, x, y));
    });
  }
  return layer;
}

function ordinal(n) {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  return { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
}

function guardPiece(g, x, y, small, frame) {
  const S = facts.size;
  const rad = S * (small ? 0.32 : 0.46);
  const status = facts.status[g.status] || { colour: "#888", letter: "?", title: g.status };
  const f = facts.facing[g.facing] ?? 0;
  const [ux, uy] = facingVector(f);
  const [px, py] = [-uy, ux];
  const tip = rad + 10;
  const arrow = [[ux * tip, uy * tip], [ux * (rad - 2) + px * 7, uy * (rad - 2) + py * 7],
    [ux * (rad - 2) - px * 7, uy * (rad - 2) - py * 7]];
  const cls = ["bk-guard", `bk-guard-${g.status}`];
  if (g.undead) cls.push("bk-undead");
  if (frame && frame[g.number]) cls.push("bk-moving");
  const type = facts.type[g.type] ? cap(g.type) : g.type;
  const lines = [`Guard ${g.number}: ${g.name}`, `${type}${g.undead ? ", undead" : ""} · ${status.title} · faces ${g.facing} · on ${g.hex}`];
  if (g.target) lines.push(`heading for the marker on ${g.target}`);
  const carries = [g.bow ? "a bow" : null, g.key ? "its tile's key" : null, g.coins ? plural(g.coins, "coin") : null].filter(Boolean);
  if (carries.length) lines.push(`carries ${carries.join(", ")}`);
  if (!frame && g.sees) lines.push(g.sees.length ? `sees ${g.sees.join(" ")}` : "sees nothing");
  return svg("g", {
    class: cls.join(" "), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`,
    "data-guard": g.number, "data-hex": g.hex, "data-facing": g.facing, "data-status": g.status,
  },
  svg("title", { text: lines.join("\n") }),
  svg("polygon", { points: arrow.map(([ax, ay]) => `${ax.toFixed(1)},${ay.toFixed(1)}`).join(" "), class: "bk-facing", fill: status.colour }),
  svg("circle", { r: rad, class: "bk-guard-body", fill: status.colour }),
  svg("text", { y: small ? 3.5 : 4.5, class: "bk-guard-letter", text: status.letter }),
  svg("text", { x: rad * 0.9, y: -rad * 0.75, class: "bk-guard-number", text: String(g.number) }));
}

function thiefPiece(view, t, seat, x, y) {
  const S = facts.size;
  const mine = view.seat === seat;
  const colour = facts.thieves[seat] ? facts.thieves[seat].colour : "#666";
  const cls = ["bk-thief"];
  if (mine) cls.push("bk-me");
  if (t.hiding) cls.push("bk-hiding");
  const lines = [`${t.name}${mine ? " (you)" : ""} on ${t.hex}`];
  if (!mine) lines.push("its Location Dial, shared with you (co-op)");
  else if (view.mode === "rivals") lines.push("your Location Dial: secret, only you see it");
  if (t.hiding) lines.push("hiding");
  return svg("g", {
    class: cls.join(" "), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`,
    "data-thief": seat + 1, "data-hex": t.hex,
  },
  svg("title", { text: lines.join("\n") }),
  svg("circle", { r: S * 0.38, class: "bk-thief-body", fill: colour }),
  svg("text", { y: 4.5, class: "bk-thief-text", text: `T${seat + 1}` }));
}

/** The hexes the choices name: a glowing ring on top, clicking takes the choice. */
function drawTargets(map, clickable, ctx, view) {
  const S = facts.size;
  const layer = svg("g", { class: "bk-targets" });
  for (const [label, choices] of Object.entries(clickable)) {
    const h = map.at[label];
    if (!h) continue;
    const text = (choices.length === 1 ? ctx.choices[choices[0]].text : `${choices.length} choices name ${label}`)
      + warningText(view, label);
    const g = svg("g", {
      class: `bk-target${choices.some((i) => ctx.highlighted.has(i)) ? " bk-picked" : ""}`,
      "data-hex": label, tabindex: 0, role: "button", "aria-label": `${label}: ${text}`,
    },
    svg("title", { text: `${label}\nClick: ${text}` }),
    svg("polygon", { points: hexPoints(h.x, h.y, S - 2), class: "bk-target-ring" }));
    pressable(g, () => ctx.pick(label));
    layer.append(g);
  }
  return layer;
}

// ---- the guards' next moves and warnings (issue 28) ---------------------------------------

/** A point ``k`` pixels from (x, y) toward facing ``f``. */
function toward(x, y, f, k) {
  const [ux, uy] = facingVector(f);
  return [x + ux * k, y + uy * k];
}

/** An arrowhead at (x, y) pointing along facing ``f``. */
function arrowHead(x, y, f, size, cls, colour) {
  const [ux, uy] = facingVector(f);
  const [px, py] = [-uy, ux];
  const tip = [x + ux * size, y + uy * size];
  const a = [x + px * size * 0.6, y + py * size * 0.6];
  const b = [x - px * size * 0.6, y - py * size * 0.6];
  return svg("polygon", { points: [tip, a, b].map(([u, v]) => `${u.toFixed(1)},${v.toFixed(1)}`).join(" "),
    class: cls, fill: colour });
}

/** Each guard's coming Guard Phase (the view's ``forecast``): its route as an arrow from where
 * it stands through every hex it will enter, an arrowhead for the way it will face at the end,
 * and a ring with its status letter there; alternatives (a die, a condition) dashed. */
function drawForecast(view, map) {
  const S = facts.size;
  const layer = svg("g", { class: "bk-forecast" });
  const guards = Object.fromEntries(view.guards.map((g) => [g.number, g]));
  for (const item of view.forecast || []) {
    const guard = guards[item.number];
    const several = item.outcomes.filter((o) => o.hex).length > 1;
    for (const o of item.outcomes) {
      const end = o.hex && map.at[o.hex];
      if (!end) continue;
      const status = facts.status[o.status] || { colour: "#444", letter: "?", title: o.status };
      const alt = several || o.die.length > 0 || o.when;
      const g = svg("g", { class: `bk-forecast-guard${alt ? " bk-forecast-alt" : ""}`,
        "data-guard": item.number, "data-hex": o.hex });
      const start = guard && guard.placed && map.at[guard.hex];
      const points = (start ? [start] : []).concat(o.route.map((l) => map.at[l]).filter(Boolean));
      const f = facts.facing[o.facing];
      if (points.length > 1) {
        const last = points[points.length - 1];
        const stop = toward(last.x, last.y, f, S * 0.55);
        const line = points.map((h) => [h.x, h.y]);
        line.push(stop);
        const drawn = line.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
        g.append(svg("polyline", { points: drawn, class: "bk-forecast-casing" }));
        g.append(svg("polyline", { points: drawn, class: "bk-forecast-path", stroke: status.colour }));
        g.append(arrowHead(stop[0], stop[1], f, S * 0.3, "bk-forecast-head", status.colour));
      } else {
        // Turning (or standing) in place: an arrow from the guard's edge the way it will face.
        const from = toward(end.x, end.y, f, S * 0.45);
        const to = toward(end.x, end.y, f, S * 0.85);
        const ends = { x1: from[0].toFixed(1), y1: from[1].toFixed(1), x2: to[0].toFixed(1), y2: to[1].toFixed(1) };
        g.append(svg("line", { ...ends, class: "bk-forecast-casing" }));
        g.append(svg("line", { ...ends, class: "bk-forecast-path", stroke: status.colour }));
        g.append(arrowHead(to[0], to[1], f, S * 0.3, "bk-forecast-head", status.colour));
      }
      if (points.length > 1 || o.status !== (guard && guard.status)) {
        const [mx, my] = [end.x + S * 0.5, end.y - S * 0.42];
        g.append(svg("circle", { cx: mx.toFixed(1), cy: my.toFixed(1), r: S * 0.24, class: "bk-forecast-mark",
          stroke: status.colour }));
        g.append(svg("text", { x: mx.toFixed(1), y: (my + S * 0.09).toFixed(1), class: "bk-forecast-letter",
          fill: status.colour, text: status.letter }));
      }
      const why = [o.die.length ? `die ${o.die.join(", ")}` : null, o.when].filter(Boolean).join("; ");
      g.append(svg("title", { text: `${item.text}${why ? `\n(this arrow: ${why})` : ""}` }));
      layer.append(g);
    }
  }
  return layer;
}

/** The legend's words for the forecast arrows and the warning sign. */
function forecastLegend() {
  return el("span", { class: "bk-forecast-legend" },
    " · arrows: each guard's next move unless it sees or hears a thief (dashed: a die or a condition decides) · ",
    el("span", { class: "bk-key bk-key-warning" }), " a risky choice: in a guard's sight or a dead end (hover)");
}

/** The warnings of this seat's choices that end on ``label`` (the decision's ``warnings``), as
 * lines to add to the hex's title ("" if none). */
function warningText(view, label) {
  const warnings = ((view && view.decision && view.decision.warnings) || []).filter((w) => w.hex === label);
  return warnings.map((w) => `\n⚠ ${w.action}: ${w.note}`).join("");
}

/** A warning triangle on every hex a choice would end on that the decision warns about (in
 * sight of a guard, a dead end); the glowing hex's title says which choice and why. */
function drawWarnings(view, map, clickable) {
  const S = facts.size;
  const layer = svg("g", { class: "bk-warnings" });
  const warned = new Set(((view.decision && view.decision.warnings) || []).map((w) => w.hex));
  for (const label of warned) {
    const h = map.at[label];
    if (!h || !clickable[label]) continue;
    const [x, y] = [h.x - S * 0.48, h.y + S * 0.42];
    const k = S * 0.3;
    layer.append(svg("g", { class: "bk-warning", "data-hex": label },
      svg("polygon", { points: `${x.toFixed(1)},${(y - k).toFixed(1)} ${(x + k).toFixed(1)},${(y + k * 0.75).toFixed(1)} ${(x - k).toFixed(1)},${(y + k * 0.75).toFixed(1)}`,
        class: "bk-warning-sign" }),
      svg("rect", { x: (x - k * 0.12).toFixed(1), y: (y - k * 0.45).toFixed(1), width: (k * 0.24).toFixed(1),
        height: (k * 0.6).toFixed(1), class: "bk-warning-bar" }),
      svg("circle", { cx: x.toFixed(1), cy: (y + k * 0.42).toFixed(1), r: (k * 0.13).toFixed(1),
        class: "bk-warning-bar" })));
  }
  return layer;
}

// ---- the Guard Phase, step by step ----------------------------------------------------------

/** The frames of the view's Guard Phase: frame 0 every guard as the phase began, then one
 * more per step; each frame {guard number: {hex, facing, status}} with the step's words. */
function phaseFrames(view) {
  const steps = view.guard_steps || [];
  if (!steps.length) return [];
  const now = {};
  for (const s of steps) if (s.step === 0) now[s.guard] = { hex: s.hex, facing: s.facing, status: s.status, placed: s.hex !== null };
  const frames = [{ guards: { ...now }, text: "The Guard Phase begins." }];
  for (const s of steps) {
    if (s.step === 0) continue;
    const before = now[s.guard] || {};
    const words = [];
    if (s.hex !== before.hex) words.push(`steps to ${s.hex}`);
    if (s.facing !== before.facing) words.push(`faces ${s.facing}`);
    if (s.status !== before.status) words.push(`is ${cap(s.status)}`);
    now[s.guard] = { hex: s.hex, facing: s.facing, status: s.status, placed: s.hex !== null };
    frames.push({ guards: { ...now }, text: `Guard ${s.guard} ${words.join(", ") || "looks"}.` });
  }
  return frames;
}

function stepsKey(view) {
  return `${view.round}|${JSON.stringify(view.guard_steps || [])}`;
}

function stopAnimation() {
  if (animation && animation.timer) clearTimeout(animation.timer);
  animation = null;
}

/** Walk the guards through the view's Guard Phase, then draw the board as it is. */
function animate() {
  stopAnimation();
  const frames = phaseFrames(shown.view);
  if (frames.length < 2) return;
  animation = { frames, index: 0, timer: null };
  showFrame();
}

/** Draw the frame being shown, with the latest view's choices (a state may come mid-way). */
function drawFrame() {
  const { view, ctx } = shown;
  const frame = animation.frames[animation.index];
  drawBoard(document.getElementById("bk-board"), view, ctx, frame.guards);
  const caption = document.getElementById("bk-caption");
  caption.hidden = false;
  caption.textContent = `Guard Phase, step ${animation.index} of ${animation.frames.length - 1}: ${frame.text}`;
  document.getElementById("board-panel").dataset.animating = "yes";
}

function showFrame() {
  drawFrame();
  animation.timer = setTimeout(() => {
    if (!animation) return;
    animation.index += 1;
    if (animation.index < animation.frames.length) {
      showFrame();
      return;
    }
    stopAnimation();
    drawStill();
  }, STEP_MS);
}

/** The board as the view has it (no animation). */
function drawStill() {
  const { view, ctx } = shown;
  drawBoard(document.getElementById("bk-board"), view, ctx, null);
  document.getElementById("bk-caption").hidden = true;
  document.getElementById("board-panel").dataset.animating = "no";
  const replayButton = document.getElementById("bk-play-phase");
  replayButton.hidden = phaseFrames(view).length < 2;
}

// ---- the panels ---------------------------------------------------------------------------

function ownThief(view) {
  return view.seat === null || view.seat === undefined ? null : view.thieves[view.seat] || null;
}

/** A small coloured dot (an inline SVG: no inline styles under the page's policy). */
function dot(colour, cls = "bk-dot") {
  return svg("svg", { class: cls, viewBox: "0 0 10 10", "aria-hidden": "true" },
    svg("circle", { cx: 5, cy: 5, r: 4.2, fill: colour }));
}

/** A thief's name after its colour; ``you``: "(you)" after this page's own. */
function thiefName(view, seat, you = true) {
  const t = view.thieves[seat];
  const colour = facts.thieves[seat] ? facts.thieves[seat].colour : "#666";
  const name = t ? t.name : `Thief ${seat + 1}`;
  return el("span", { class: "bk-who" }, dot(colour), `${name}${you && view.seat === seat ? " (you)" : ""}`);
}

function statusChip(name) {
  const s = facts.status[name] || { colour: "#888", title: name, text: "" };
  return el("span", { class: "bk-status", title: s.text }, dot(s.colour), s.title);
}

function guardsTable(view) {
  const table = el("table", { class: "players bk-guards" });
  table.append(el("thead", {}, el("tr", {}, ...["#", "Guard", "Status", "Hex", "Faces", "Target", "Carries"]
    .map((h) => el("th", { text: h })),
    el("th", { text: "Next, if unseen", title: "What the guard does next unless it sees or hears a thief" }))));
  const body = el("tbody");
  const next = Object.fromEntries((view.forecast || []).map((f) => [f.number, f.does]));
  for (const g of view.guards) {
    const carries = [g.bow ? "bow" : null, g.key ? "key" : null, g.coins ? `${g.coins} coins` : null].filter(Boolean);
    body.append(el("tr", { class: `bk-guard-row${g.placed ? "" : " bk-waiting"}`, "data-guard": g.number },
      el("td", { class: "num", text: String(g.number) }),
      el("td", { class: "bk-guard-name" }, cap(g.name.replace(/^the /, "")), g.undead ? el("span", { class: "tag bk-tag-undead", text: "undead" }) : null),
      el("td", {}, statusChip(g.status)),
      el("td", { text: g.placed ? g.hex : "waiting" }),
      el("td", { text: g.placed ? g.facing : "–" }),
      el("td", { text: g.target || "–" }),
      el("td", { text: carries.join(", ") || "–" }),
      el("td", { class: "bk-next", text: next[g.number] || "–" })));
  }
  table.append(body);
  return table;
}

function thievesTable(view) {
  const table = el("table", { class: "players bk-thieves" });
  table.append(el("thead", {}, el("tr", {}, ...[["Thief"], ["Where"], ["Wounds", "num"], ["Coins", "num"],
    ["Cards", "num"], ["Guard cards"], ["Treasure"], ["Exit"], ["Standing"]]
    .map(([h, c]) => el("th", { class: c || null, text: h })))));
  const body = el("tbody");
  const deciding = view.decision ? view.decision.seat : null;
  view.thieves.forEach((t, seat) => {
    const who = el("td", {}, thiefName(view, seat));
    if (t.name === deciding && !view.result) who.append(el("span", { class: "tag tag-deciding", text: "deciding" }));
    let where = t.hex || "hidden";
    if (!t.hex && t.possible) where = `hidden (${plural(t.possible.length, "hex")} possible)`;
    if (t.standing !== "in play") where = "–";
    body.append(el("tr", { class: `bk-thief-row${view.seat === seat ? " me" : ""}`, "data-thief": seat + 1 },
      who,
      el("td", { class: "bk-where", text: where }),
      el("td", { class: "num", text: String(t.wounds) }),
      el("td", { class: "num", text: String(t.coins) }),
      el("td", { class: "num", text: `${t.hand.length}/${t.hand.length + t.discard.length}`, title: "in hand / in all" }),
      el("td", { class: "bk-wrap", text: [...t.guard_cards, t.lockpicks ? "Lockpicks" : null].filter(Boolean).join(", ") || "–" }),
      el("td", { class: "bk-wrap", text: t.treasure || "–" }),
      el("td", { class: "bk-wrap", text: tileName(view, t.exit) }),
      el("td", { text: cap(t.standing) + (t.hiding ? " (hiding)" : "") })));
  });
  table.append(body);
  return table;
}

function tileName(view, id) {
  const tile = view.map.tiles.find((t) => t.id === id);
  return tile ? tile.name : id || "–";
}

/** A card of a hand or of the market; clicking it picks the choices naming it. */
function cardBox(name, info, ctx, extra = {}) {
  const box = el("div", { class: `bk-card${extra.used ? " bk-used" : ""}`, "data-card": name },
    el("div", { class: "bk-card-head" }, el("span", { class: "bk-card-name", text: name }),
      extra.cost !== undefined ? el("span", { class: "bk-cost", text: plural(extra.cost, "coin") }) : null),
    info ? el("div", { class: "bk-card-text", text: info.text }) : null);
  const n = extra.used ? 0 : ctx.naming(name).length;
  if (n) {
    box.classList.add("can-act");
    box.tabIndex = 0;
    box.title = n === 1 ? `Click: ${ctx.choices[ctx.naming(name)[0]].text}` : "Click to pick out the choices naming this card";
    pressable(box, () => ctx.pick(name));
  }
  return box;
}

function ownPanel(view, ctx) {
  const section = document.getElementById("bk-me");
  const t = ownThief(view);
  section.hidden = !t;
  document.getElementById("bk-aside").hidden = !t;
  if (!t) return;
  const wounds = el("span", { class: "bk-wounds", title: `${t.wounds} wound${t.wounds === 1 ? "" : "s"} left` },
    ...Array.from({ length: t.wounds }, () => el("span", { class: "bk-heart", text: "♥" })));
  const facts1 = [
    el("span", {}, "On ", el("strong", { text: t.hex || (t.standing === "in play" ? "not placed yet" : "off the map") })),
    el("span", {}, "Wounds ", wounds),
    el("span", {}, `Coins ${t.coins}`),
    el("span", {}, `Exit: ${tileName(view, t.exit)}`),
  ];
  if (t.keys.length) facts1.push(el("span", { text: `Keys: ${t.keys.map((k) => tileName(view, k)).join(", ")}` }));
  if (t.lockpicks) facts1.push(el("span", { text: "Lockpicks" }));
  if (t.treasure) {
    const info = facts.treasure[t.treasure];
    facts1.push(el("span", { title: info ? info.text : null, text: `Treasure: ${t.treasure}` }));
  }
  if (t.hiding) facts1.push(el("span", { text: "Hiding" }));
  if (t.standing !== "in play") facts1.push(el("strong", { text: cap(t.standing) }));
  const parts = [el("div", { class: "bk-me-facts" }, ...facts1)];
  if (t.standing === "in play") {
    parts.push(el("p", { class: "bk-plan", "data-plan": t.plan ? "yes" : "no" },
      el("strong", { text: "Plan: " }), t.plan ? t.plan.text : "none yet this round"));
  }
  parts.push(el("h3", { text: `Hand (${t.hand.length})` }));
  parts.push(el("div", { class: "bk-hand" }, ...t.hand.map((name) => cardBox(name, facts.thiefCard[name], ctx))));
  if (t.discard.length) {
    parts.push(el("h3", { text: `Discarded (${t.discard.length})` }));
    parts.push(el("div", { class: "bk-hand bk-discard" }, ...t.discard.map((name) => cardBox(name, facts.thiefCard[name], ctx, { used: true }))));
  }
  if (t.guard_cards.length) {
    parts.push(el("h3", { text: `Guard cards (${t.guard_cards.length})` }));
    parts.push(el("div", { class: "bk-hand" }, ...t.guard_cards.map((name) => cardBox(name, facts.guardCard[name], ctx))));
  }
  document.getElementById("bk-me-body").replaceChildren(...parts);
  document.getElementById("bk-me-title").textContent = `Your thief: ${t.name}`;
}

const PHASES = {
  setup: "set-up", resource: "Resource Phase", plan: "plans", thief: "Thief Phase",
  guard: "Guard Phase", over: "the game is over",
};

function marketPanel(view, ctx) {
  const cards = view.market.map((name) => (name
    ? cardBox(name, facts.guardCard[name], ctx, { cost: facts.guardCard[name] ? facts.guardCard[name].cost : 0 })
    : el("div", { class: "bk-card bk-empty", text: "empty" })));
  document.getElementById("bk-market-body").replaceChildren(
    el("div", { class: "bk-hand bk-market" }, ...cards),
    el("p", { class: "note", text: [`Round ${view.round} of ${view.dawn} (dawn)`, PHASES[view.phase] || view.phase,
      `Guard deck ${view.guard_deck}`, `Exit deck ${view.exit_deck}`,
      `${plural(view.treasures_on_crown, "treasure")} on the crown`,
      view.vault_triggered ? "the Vault is open" : null].filter(Boolean).join(" · ") }));
}

// ---- the board module -------------------------------------------------------------------

function legend() {
  return el("p", { class: "note bk-legend" },
    ...facts.statuses.flatMap((s) => [el("span", { class: "bk-status", title: s.text, "data-symbol": s.letter }, dot(s.colour), `${s.letter} ${s.title}`), " "]),
    "· shaded: what each guard sees now ·",
    el("span", { class: "bk-keys" }, el("span", { class: "bk-key bk-key-lit" }), " lit ",
      el("span", { class: "bk-key bk-key-dark" }), " dark"),
    "·", ...symbolKeys(), "· hover a hex for more",
    forecastLegend());
}

/** The widths of your thief's panel beside the map: two, three or four cards a row. */
const OWN_WIDTHS = ["bk-own-2", "bk-own-3", "bk-own-4"];
const MAP_LEAST = 24; // rem: the map's least width beside your thief

function mount(main, side) {
  const frame = el("div", { id: "bk-board", class: "board-host bk-board-host" });
  zoom = zoomMap(frame, { name: "The keep's map" });
  main.replaceChildren(
    el("div", { class: "bk-board-row", id: "bk-board-row" },
      el("section", { class: "panel board-panel bk-board-panel", id: "board-panel" },
        el("div", { class: "bk-board-head" },
          el("h2", { id: "bk-title", text: "The keep" }),
          el("button", { type: "button", class: "button secondary bk-play", id: "bk-play-phase", hidden: true,
            text: "▶ Last Guard Phase", title: "Show the last Guard Phase again, step by step",
            onclick: () => { if (shown) animate(); } })),
        zoom.tools,
        el("p", { id: "bk-caption", class: "bk-caption", hidden: true, "aria-live": "polite" }),
        frame,
        legend()),
      el("div", { class: `bk-aside ${OWN_WIDTHS[0]}`, id: "bk-aside", hidden: true },
        el("section", { class: "panel bk-me", id: "bk-me", hidden: true },
          el("h2", { id: "bk-me-title", text: "Your thief" }), el("div", { id: "bk-me-body" })))),
    el("section", { class: "panel", id: "bk-guards-panel" },
      el("h2", { text: "Guards" }), el("div", { id: "bk-guards", class: "table-wrap" })),
    el("section", { class: "panel", id: "players-panel" },
      el("h2", { text: "Thieves" }), el("div", { id: "bk-thieves", class: "table-wrap" })));
  side.replaceChildren(
    el("section", { class: "panel bk-market-panel", id: "bk-market" },
      el("h2", { text: "Market" }), el("div", { id: "bk-market-body" })));
  window.addEventListener("resize", fitOwn);
}

/** Issue 26: your thief's cards beside the map in full, as few cards a row as the height
 * allows, else as many as leave the map MAP_LEAST rem (the cards are what a thief plans
 * with; the rest run on below); on a narrow window they stand under the map. */
function fitOwn() {
  const own = document.getElementById("bk-me");
  const row = document.getElementById("bk-board-row");
  if (own.hidden) return;
  const height = parseFloat(getComputedStyle(row).minHeight);
  if (!(height > 0)) return;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  fitWidth(document.getElementById("bk-aside"), OWN_WIDTHS, height,
    { row, rest: MAP_LEAST * rem, measure: own, widest: true });
}

function render(view, ctx) {
  const key = stepsKey(view);
  const changed = seenSteps !== null && key !== seenSteps;
  const fresh = changed && (ctx.page !== "replay" || (lastStep !== null && ctx.step > lastStep));
  seenSteps = key;
  lastStep = ctx.step;
  shown = { view, ctx };
  document.getElementById("bk-title").textContent = `${view.scenario.name} · round ${view.round}`;
  document.getElementById("bk-guards").replaceChildren(guardsTable(view));
  document.getElementById("bk-thieves").replaceChildren(thievesTable(view));
  ownPanel(view, ctx);
  fitOwn();
  marketPanel(view, ctx);
  if (fresh && phaseFrames(view).length > 1) {
    animate();
    return;
  }
  if (changed) stopAnimation(); // a step back in a replay: no phase to play
  if (animation) {
    drawFrame(); // the phase being played goes on, and ends with the board as it is now
    return;
  }
  drawStill();
}

/** The banner saying whose decision it is. */
function banner(view, ctx) {
  const decision = view.decision;
  if (!decision) return null;
  if (ctx.mine) return el("div", { class: "banner banner-mine", text: `Your decision: ${decision.task}.` });
  const seat = view.thieves.findIndex((t) => t.name === decision.seat);
  return el("div", { class: "banner banner-wait" }, "Waiting for ",
    seat >= 0 ? thiefName(view, seat) : decision.seat, ` to ${decision.task}.`);
}

const hint = boardHint("Click a glowing hex on the map or a glowing card, or a button.");

function outcome(view) {
  const result = view.result;
  if (!result) return null;
  const box = el("div", { class: "outcome" });
  const won = result.winners.length > 0;
  const head = el("h2", {}, view.seat !== null && result.winners.includes(view.seat) ? "You win! "
    : won ? "The game is over. " : "The keep wins. ");
  if (won) appendWinners(head, result.winners, (w) => thiefName(view, w));
  // Issue 26: each thief's score part by part, result and Location Dial follow (the
  // server's ``end``).
  box.append(head, el("p", { text: `The game ended: ${result.reason}.` }));
  return box;
}

window.CityWatchBoards["black-keep"] = {
  load, mount, render, banner, hint, outcome,
  who: (view) => {
    const seat = view.seat;
    if (seat === null || seat === undefined || !view.thieves[seat]) return null;
    return el("span", {}, "You play ", thiefName(view, seat, false));
  },
};
})();
