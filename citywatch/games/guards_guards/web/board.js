// citywatch: the Guards! Guards! board module, served at /games/guards-guards/board.js and
// loaded by the table and replay pages (the interface is described in the server's
// static/common.js): the city as an SVG hex map (tiles tinted by quadrant and marked by
// kind, the river and its bridges, the University, the Luggage's track, pieces, Dragons,
// the Luggage), the players' public facts, the face-up Volunteers and Dragons; at the side
// your Guild Card with its attribute track, your hand, scrolls, items and Saboteurs.
// Clicking a glowing tile takes the choice naming it (or offers the choices that do).
//
// Everything here reads a view exactly as the server sent it for this page's token, and
// the board facts in board.json next to this file (written by make_web.py); nothing else.
"use strict";

(() => {
// the pages' helpers (static/common.js, loaded first)
const { el, svg, cap, appendWinners, boardHint, addBoardStyle, fetchJson, zoomMap, fitWidth } = CityWatch;

let facts = null; // board.json, indexed
let menu = null; // {tile, step}: the tile whose choices are offered in the small menu
let zoom = null; // the map's zoom and pan (common.js zoomMap), made by mount

/** The board's styles and facts (board.css and board.json), from the folder it is served from. */
async function load(base) {
  addBoardStyle(`${base}board.css`);
  const data = await fetchJson(`${base}board.json`, "board facts (board.json)");
  facts = {
    ...data,
    byId: Object.fromEntries(data.tiles.map((t) => [t.id, t])),
    byName: Object.fromEntries(data.tiles.map((t) => [t.name, t])),
    colourHex: Object.fromEntries(data.colours.map((c) => [c.name, c.hex])),
    spellHex: Object.fromEntries(data.spells.map((s) => [s.colour, s.hex])),
    spellName: Object.fromEntries(data.spells.map((s) => [s.colour, s.name])),
    quadrant: Object.fromEntries(data.quadrants.map((q) => [q.name, q])),
  };
}

/** The corners of a flat-top hex of circumradius ``r`` around (x, y), as SVG points. */
function hexPoints(x, y, r) {
  const out = [];
  for (let k = 0; k < 6; k += 1) {
    const a = (Math.PI / 3) * k;
    out.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return out.join(" ");
}

/** A seat's colour as a small chip and the name. */
function colourName(name, suffix = "") {
  return el("span", { class: `who gg-who gg-c-${name}` }, el("span", { class: "chip" }), name + suffix);
}

/** A spell colour as a small round swatch (``done``: returned, filled and ticked). */
function spellDot(colour, done = true, extra = "") {
  return el("span", {
    class: `gg-spell gg-spell-${colour}${done ? " done" : ""}${extra}`,
    title: `${cap(colour)}: ${facts.spellName[colour] || colour}${done ? " (returned)" : ""}`,
  });
}

// ---- the map ----------------------------------------------------------------------------

/** Which tiles the choices name, as {tile name: [choice indices]} (any field holding a
 * tile's name: "tile", "gate", ...). */
function tileChoices(ctx) {
  const found = {};
  if (!ctx.mine || ctx.pending) return found;
  ctx.choices.forEach((choice, i) => {
    const json = choice.json;
    if (json === null || typeof json !== "object") return;
    for (const [key, value] of Object.entries(json)) {
      if (key !== "verb" && typeof value === "string" && facts.byName[value]) {
        (found[value] = found[value] || []).push(i);
        break;
      }
    }
  });
  return found;
}

function drawBoard(host, view, ctx) {
  const [vx, vy, vw, vh] = facts.view_box;
  const R = facts.size;
  const clickable = tileChoices(ctx);
  const reachable = new Set((view.decision && view.decision.reachable) || []);
  const root = svg("svg", {
    viewBox: `${vx} ${vy} ${vw} ${vh}`, class: "gg-board", role: "img",
    "aria-label": "The city of Ankh-Morpork, as a hex map",
  });
  root.append(svg("defs", {},
    svg("linearGradient", { id: "gg-octarine", x1: 0, y1: 0, x2: 1, y2: 1 },
      svg("stop", { offset: "0", "stop-color": "#7fff6a" }),
      svg("stop", { offset: ".5", "stop-color": "#d8ff3a" }),
      svg("stop", { offset: "1", "stop-color": "#b061ff" })),
    svg("pattern", { id: "gg-water", width: 24, height: 10, patternUnits: "userSpaceOnUse" },
      svg("rect", { width: 24, height: 10, fill: "#5d8fb0" }),
      svg("path", { d: "M0 5 Q6 1 12 5 T24 5", fill: "none", stroke: "#86b6d4", "stroke-width": 1.5 }))));
  root.append(svg("rect", { x: vx, y: vy, width: vw, height: vh, class: "gg-bg" }));

  // The river: a band from the top edge to the bottom, its hexes, under the bridges.
  root.append(svg("rect", { x: -R * 0.75, y: vy, width: R * 1.5, height: vh, class: "gg-river-band" }));
  for (const h of facts.river.hexes) {
    root.append(svg("polygon", { points: hexPoints(h.x, h.y, R), class: "gg-river" },
      svg("title", { text: `${facts.river.name} (impassable)` })));
  }
  const uni = svg("g", { class: "gg-university" },
    svg("title", { text: `${facts.university.name} (impassable)` }));
  for (const h of facts.university.hexes) {
    uni.append(svg("polygon", { points: hexPoints(h.x, h.y, R), class: "gg-uni-hex" }));
  }
  uni.append(svg("text", { x: facts.university.x, y: facts.university.y - 4, class: "gg-uni-name", text: "Unseen" }));
  uni.append(svg("text", { x: facts.university.x, y: facts.university.y + 12, class: "gg-uni-name", text: "University" }));
  root.append(uni);

  drawQuadrantTitles(root, view);
  drawDeckSpaces(root, view, ctx, clickable);

  // The tiles; those the choices name last, so their glow stays on top.
  const order = [...facts.tiles].sort((a, b) => Boolean(clickable[a.name]) - Boolean(clickable[b.name]));
  const tiles = svg("g", { class: "gg-tiles" });
  const here = occupants(view);
  for (const t of order) {
    tiles.append(drawTile(t, clickable[t.name], reachable.has(t.id), ctx, here[t.id] || [], view));
  }
  root.append(tiles);

  root.append(drawLuggageTrack());
  root.append(drawMoves(ctx));
  root.append(drawPieces(view));
  host.replaceChildren(root);
  const mine = view.seat !== null && view.seat !== undefined && view.seats[view.seat];
  const at = mine && mine.tile && facts.byId[mine.tile];
  if (zoom) zoom.show(root, at ? [at.x, at.y] : null);
}

/** Issue 26: a dashed ring in the mover's colour on every tile each move of ``ctx.moves``
 * touched (the moves since this seat's last decision; the replay: the decision shown), one
 * ring per mover, the oldest outermost; clicks go through to the tiles. */
function drawMoves(ctx) {
  const R = facts.size;
  const layer = svg("g", { class: "gg-moves" });
  for (const [id, movers] of CityWatch.movesBySpace(ctx.moves)) {
    const t = facts.byId[id];
    if (!t) continue;
    movers.forEach((by, k) => {
      const ring = hexPoints(t.x, t.y, R - 2.5 - 4 * k);
      layer.append(svg("polygon", { points: ring, class: "gg-moved-halo" }));
      layer.append(svg("polygon", {
        points: ring, class: "gg-moved",
        stroke: facts.colourHex[by] || "#444", "data-moved": id, "data-by": by,
      }));
    });
  }
  return layer;
}

/** What stands on each tile, as lines for its hover title: {tile id: [text]}. */
function occupants(view) {
  const out = {};
  const add = (id, text) => { (out[id] = out[id] || []).push(text); };
  for (const seat of view.seats) {
    if (seat.tile) add(seat.tile, `${seat.colour}${seat.colour === view.colour ? " (you)" : ""}` +
      `${seat.guild_card ? `, ${seat.guild_card.name}` : ""}`);
  }
  if (view.luggage) add(view.luggage, "The Luggage");
  for (const [quadrant, dragon] of Object.entries(view.dragons || {})) {
    const q = facts.quadrant[quadrant];
    if (q) add(q.guild_house, `Dragon: ${dragon.name} (Brawl ${dragon.brawl}, Toughness ${dragon.toughness})`);
  }
  return out;
}

function drawTile(t, choices, reachable, ctx, here, view) {
  const R = facts.size;
  const quadrant = t.quadrant || "border";
  const classes = ["gg-tile", `gg-k-${t.kind}`, `gg-q-${quadrant}`];
  if (reachable) classes.push("reachable");
  if (choices) classes.push("can-act", choices.length === 1 ? "one" : "several");
  const g = svg("g", {
    class: classes.join(" "), "data-tile": t.id, "data-name": t.name,
    tabindex: choices ? 0 : null, role: choices ? "button" : null,
  });
  const where = t.quadrant ? `${cap(t.quadrant)} quadrant`
    : t.border_of.length ? `between the ${t.border_of.map(cap).join(" and ")}` : "";
  let title = `${cap(t.name)}\n${t.kind_name}${where ? ` · ${where}` : ""}`;
  if (t.spell_name) title += `\nGreat Spell: ${t.spell_name}${spellOwners(t, view)}`;
  if (t.use) title += `\n${t.use}`;
  if (here.length) title += `\nHere: ${here.join("; ")}`;
  if (choices) {
    title += choices.length === 1
      ? `\nClick: ${ctx.choices[choices[0]].text}`
      : `\nClick: ${choices.length} choices name this tile`;
  } else if (reachable) {
    title += "\nWithin your remaining movement";
  }
  g.append(svg("title", { text: title }));
  g.append(svg("polygon", { points: hexPoints(t.x, t.y, R - 0.8), class: "gg-hex" }));
  const mark = tileMark(t);
  if (mark) g.append(mark);
  if (reachable) g.append(svg("polygon", { points: hexPoints(t.x, t.y, R - 4), class: "gg-reach" }));
  if (choices) g.append(svg("polygon", { points: hexPoints(t.x, t.y, R - 2), class: "gg-act-ring" }));
  if (choices) {
    const go = () => chooseTile(t.name, choices, ctx);
    g.addEventListener("click", go);
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        go();
      }
    });
  }
  return g;
}

/** Issue 27: who may collect a spell tile's Great Spell (the Guild Cards are public): the
 * players whose card has it, those who returned it, and whether it is yours. */
function spellOwners(t, view) {
  if (!view) return "";
  const on = view.seats.filter((s) => s.guild_card && s.guild_card.spells.includes(t.colour));
  const words = on.map((s) => `${s.colour}${s.colour === view.colour ? " (you)" : ""}` +
    `${s.returned.includes(t.colour) ? ", returned" : ""}`);
  const me = view.seat !== null && view.seat !== undefined ? view.seats[view.seat] : null;
  const mine = me && me.guild_card
    ? on.includes(me) ? "" : "\nNot on your Guild Card: you cannot collect it" : "";
  return `\nOn the Guild Card of: ${words.length ? words.join("; ") : "nobody playing"}${mine}`;
}

/** What marks a tile's kind: an inner hex, a colour, a short label. */
function tileMark(t) {
  const { x, y } = t;
  const R = facts.size;
  if (t.kind === "street") return null;
  const g = svg("g", { class: "gg-mark" });
  if (t.kind === "spell") {
    const fill = t.colour === "octarine" ? "url(#gg-octarine)" : facts.spellHex[t.colour];
    g.append(svg("polygon", { points: hexPoints(x, y, R - 5), class: "gg-spell-hex", fill }));
    g.append(svg("path", { d: star(x, y - 11, 8, 3.3), class: `gg-star gg-star-${t.colour}` }));
    g.append(svg("text", { x, y: y + 5, class: `gg-label gg-spell-label gg-on-${t.colour}`, text: cap(t.colour) }));
    return g;
  }
  if (t.kind === "start_gate") {
    const fill = facts.colourHex[cap(t.colour)] || "#999";
    g.append(svg("polygon", { points: hexPoints(x, y, R - 5), class: "gg-gate-hex", stroke: fill }));
    g.append(svg("rect", { x: x - 8, y: y - 19, width: 16, height: 10, rx: 2, class: "gg-gate-flag", fill }));
    g.append(svg("text", { x, y: y + 4, class: "gg-label", text: `${cap(t.colour)}` }));
    return g;
  }
  g.append(svg("polygon", { points: hexPoints(x, y, R - 6), class: "gg-inner" }));
  if (t.kind === "hospital") {
    g.append(svg("path", { d: `M${x - 2.5} ${y - 20}h5v4h4v5h-4v4h-5v-4h-4v-5h4z`, class: "gg-cross" }));
    g.append(svg("text", { x, y: y + 4, class: "gg-label", text: t.label }));
    return g;
  }
  if (t.kind.startsWith("volunteer_")) {
    g.append(svg("text", { x, y: y + 3, class: "gg-label gg-label-big", text: t.label }));
    return g;
  }
  if (t.kind === "guild_house") {
    g.append(svg("path", { d: `M${x - 8} ${y - 7}v-6l8-6 8 6v6z`, class: "gg-roof" }));
    g.append(svg("text", { x, y: y + 5, class: "gg-label gg-guild-label", text: cap(t.quadrant) }));
    return g;
  }
  const lines = t.kind === "sunshine_sanctuary" ? ["Sick", "Dragons"] : [t.label];
  lines.forEach((line, k) => {
    g.append(svg("text", { x, y: y + 2 + (k - (lines.length - 1) / 2) * 11, class: "gg-label", text: line }));
  });
  return g;
}

/** A five-pointed star's path around (x, y). */
function star(x, y, outer, inner) {
  let d = "";
  for (let k = 0; k < 10; k += 1) {
    const r = k % 2 ? inner : outer;
    const a = -Math.PI / 2 + (Math.PI / 5) * k;
    d += `${k ? "L" : "M"}${(x + r * Math.cos(a)).toFixed(1)} ${(y + r * Math.sin(a)).toFixed(1)}`;
  }
  return `${d}Z`;
}

/** The Luggage's track: a dotted line through the centres of its tiles (both branches). */
function drawLuggageTrack() {
  const g = svg("g", { class: "gg-track" });
  const orange = new Set(facts.luggage.orange);
  const grey = new Set(facts.luggage.grey);
  for (const [a, b] of facts.luggage.edges) {
    const p = facts.byId[a];
    const q = facts.byId[b];
    const branch = orange.has(a) || orange.has(b) ? " orange" : grey.has(a) || grey.has(b) ? " grey" : "";
    g.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: `gg-track-line${branch}` }));
  }
  return g;
}

function drawQuadrantTitles(root, view) {
  const [vx, vy, vw, vh] = facts.view_box;
  const mine = view.own ? view.own.saboteurs : [];
  for (const q of facts.quadrants) {
    const west = q.compass.endsWith("west");
    const north = q.compass.startsWith("north");
    const x = west ? vx + vw * 0.27 : vx + vw * 0.73;
    const y = north ? vy + 19 : vy + vh - 8;
    const g = svg("g", { class: `gg-quadrant-title gg-qt-${q.name}` });
    g.append(svg("text", { x, y, class: "gg-qname", text: `${q.title} · ${q.compass}` }));
    const dragon = view.dragons && view.dragons[q.name];
    const here = mine.filter((s) => s.quadrant === q.name);
    let sx = x + (west ? 88 : 88);
    for (const s of here) {
      sx += 20;
      g.append(svg("g", { class: "gg-saboteur" },
        svg("title", { text: `Your Saboteur in the ${q.title} quadrant: ${s.volunteer}` +
          `${s.item ? ` with ${s.item}` : ""}` }),
        svg("circle", { cx: sx, cy: y - 5, r: 8 }),
        svg("text", { x: sx, y: y - 1, text: "S" })));
    }
    if (dragon) g.append(svg("title", { text: `${q.title}: Dragon ${dragon.name}` }));
    root.append(g);
  }
}

function drawDeckSpaces(root, view, ctx, clickable) {
  const counts = view.card_decks || {};
  for (const d of facts.deck_spaces) {
    const n = counts[d.id] ?? 0;
    const shop = facts.byId[d.shop];
    // A "draw from" choice names this deck by its shop (ruling 18): the pile glows and
    // clicking it takes that choice, as clicking the shop's tile does.
    const draws = shop && (clickable[shop.name] || []).filter(
      (i) => ctx.choices[i].json && ctx.choices[i].json.verb === "draw_from");
    const g = svg("g", {
      class: `gg-deck gg-deck-${d.deck}${n ? "" : " empty"}`,
      tabindex: draws && draws.length ? 0 : null, role: draws && draws.length ? "button" : null,
    }, svg("title", { text: `${d.label} deck (${d.corner}): ${n} card${n === 1 ? "" : "s"}` +
        `; bought at ${shop ? shop.name : d.shop}` +
        (draws && draws.length ? `\nClick: ${ctx.choices[draws[0]].text}` : "") }));
    for (let k = 2; k >= 0; k -= 1) {
      g.append(svg("rect", { x: d.x - 28 + k * 3, y: d.y - 20 - k * 3, width: 50, height: 40, rx: 4, class: "gg-deck-card" }));
    }
    g.append(svg("text", { x: d.x - 3, y: d.y - 3, class: "gg-deck-label", text: d.label }));
    g.append(svg("text", { x: d.x - 3, y: d.y + 13, class: "gg-deck-count", text: String(n) }));
    if (draws && draws.length) {
      g.append(svg("rect", { x: d.x - 33, y: d.y - 31, width: 62, height: 56, rx: 6, class: "gg-act-ring" }));
      const go = () => chooseTile(shop.name, draws, ctx);
      g.addEventListener("click", go);
      g.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          go();
        }
      });
    }
    root.append(g);
  }
}

/** Pieces, Dragons and the Luggage, over the tiles (clicks go through to the tiles). */
function drawPieces(view) {
  const layer = svg("g", { class: "gg-pieces" });
  // Dragons on their quadrant's Guild House
  for (const [quadrant, dragon] of Object.entries(view.dragons || {})) {
    const q = facts.quadrant[quadrant];
    const t = q && facts.byId[q.guild_house];
    if (!t) continue;
    layer.append(svg("g", { class: "gg-dragon", transform: `translate(${t.x + 15},${t.y - 13})` },
      svg("title", { text: `Dragon: ${dragon.name} (Brawl ${dragon.brawl}, Toughness ${dragon.toughness}) on the ${t.name}` }),
      svg("path", { d: "M0 -10 L9 0 L0 10 L-9 0 Z" }),
      svg("text", { y: 4, text: "D" })));
  }
  if (view.luggage && facts.byId[view.luggage]) {
    const t = facts.byId[view.luggage];
    // top centre; on a Guild House (its roof there), the top left
    const [lx, ly] = t.kind === "guild_house" ? [t.x - 15, t.y - 13] : [t.x, t.y - 16];
    layer.append(svg("g", { class: "gg-luggage", transform: `translate(${lx},${ly})` },
      svg("title", { text: `The Luggage, on ${t.name}` }),
      svg("rect", { x: -9, y: -7, width: 18, height: 14, rx: 3 }),
      svg("line", { x1: -9, y1: -2, x2: 9, y2: -2, class: "lid" }),
      svg("text", { y: 5.5, text: "L" })));
  }
  // Players' pieces, side by side on a shared tile.
  const byTile = {};
  view.seats.forEach((seat) => {
    if (seat.tile && facts.byId[seat.tile]) (byTile[seat.tile] = byTile[seat.tile] || []).push(seat);
  });
  const deciding = view.decision ? view.decision.seat : null;
  for (const [id, seats] of Object.entries(byTile)) {
    const t = facts.byId[id];
    const perRow = seats.length > 3 ? 3 : seats.length;
    const gap = seats.length > 1 ? 14.5 : 0;
    seats.forEach((seat, k) => {
      const row = Math.floor(k / perRow);
      const inRow = Math.min(perRow, seats.length - row * perRow);
      const px = t.x + (k % perRow - (inRow - 1) / 2) * gap;
      const py = t.y + (seats.length > 3 ? 6 + row * 12 : 15);
      const c = seat.colour;
      const cls = ["gg-piece", `gg-c-${c}`];
      if (c === view.colour) cls.push("me");
      if (c === view.current) cls.push("current");
      if (c === deciding) cls.push("deciding");
      const guild = seat.guild_card ? ` (${seat.guild_card.name}, ${seat.guild_card.guild})` : "";
      layer.append(svg("g", { class: cls.join(" "), transform: `translate(${px.toFixed(1)},${py.toFixed(1)})` },
        svg("title", { text: `${c}${c === view.colour ? " (you)" : ""}${guild} on ${t.name}` }),
        svg("circle", { r: 7.5, fill: facts.colourHex[c] || "#888" }),
        svg("text", { y: 3.3, text: c === "Black" ? "K" : c.charAt(0) })));
    });
  }
  return layer;
}

/** A tile was clicked: take its one choice, or offer its choices in a small menu. */
function chooseTile(name, choices, ctx) {
  if (choices.length === 1) {
    menu = null;
    ctx.act(choices[0]);
    return;
  }
  menu = { tile: name, step: ctx.step };
  renderMenu(ctx);
}

function renderMenu(ctx) {
  const host = document.getElementById("gg-menu");
  if (!host) return;
  const choices = menu && menu.step === ctx.step ? tileChoices(ctx)[menu.tile] : null;
  if (!choices) {
    menu = null;
    host.hidden = true;
    host.replaceChildren();
    return;
  }
  host.hidden = false;
  host.replaceChildren(
    el("div", { class: "gg-menu-title" }, el("strong", { text: cap(menu.tile) }), ": choose one"),
    ...choices.map((i) => el("button", {
      type: "button", class: "action gg-menu-choice", "data-index": i, text: ctx.choices[i].text,
      onclick: () => {
        menu = null;
        host.hidden = true;
        ctx.act(i);
      },
    })),
    el("button", {
      type: "button", class: "gg-menu-close", text: "Cancel",
      onclick: () => {
        menu = null;
        renderMenu(ctx);
      },
    }));
}

// ---- the players, the table -----------------------------------------------------------

function levelText(seat, attr) {
  const level = seat.levels[attr];
  const eff = seat.effective[attr];
  return eff === level ? String(level) : `${level}→${eff}`;
}

function statusBits(seat) {
  const bits = [];
  if (seat.pox) bits.push(el("span", { class: "gg-tag pox", text: "Pox", title: "Has the Pox" }));
  if (seat.fire_water) bits.push(el("span", { class: "gg-tag fire", text: `Fire Water ${seat.fire_water}` }));
  if (seat.flasks && seat.flasks.length) {
    bits.push(el("span", { class: "gg-tag flask", text: `Flasks: ${seat.flasks.join(", ")}` }));
  }
  if (seat.jailed) bits.push(el("span", { class: "gg-tag jail", text: "In the cells" }));
  if (seat.missed) bits.push(el("span", { class: "gg-tag miss", text: `Misses ${seat.missed} turn${seat.missed === 1 ? "" : "s"}` }));
  for (const e of seat.effects || []) bits.push(el("span", { class: "gg-tag effect", text: effectText(e), title: e.source }));
  if (seat.run) bits.push(el("span", { class: "gg-tag run", text: runText(seat.run) }));
  for (const k of seat.kept || []) bits.push(el("span", { class: "gg-tag kept", text: k, title: "Fate card kept" }));
  return bits;
}

function effectText(e) {
  const turns = e.turns < 0 ? "until healed" : `${e.turns} turn${e.turns === 1 ? "" : "s"}`;
  const attr = (facts.attributes[e.a] || "?");
  const what = {
    move: `Move ${e.a >= 0 ? "+" : ""}${e.a}`,
    move_set: `Move = ${e.a}`,
    move_cap: `Move ≤ ${e.a}`,
    attr: `${cap(attr)} ${e.b >= 0 ? "+" : ""}${e.b}`,
    fog: "Fog",
  }[e.kind] || e.kind;
  return `${what} (${turns}${e.source ? `, ${e.source}` : ""})`;
}

function runText(run) {
  const n = run.runners.length;
  const quads = run.quadrants.map(cap).join(" → ");
  return `Spell Run: ${cap(run.spell)}${run.final ? " (final)" : ""}, ${n} runner${n === 1 ? "" : "s"}` +
    `${quads ? `; ${quads} (${run.passed} passed)` : ""}`;
}

/** Issue 27: a player's Great Spells in words: the returned ones ticked, then those still
 * wanted, and the count; the hover says it in a sentence. */
function spellsCell(seat, view) {
  const card = seat.guild_card;
  const wanted = card ? card.spells.filter((s) => !seat.returned.includes(s)) : [];
  const sentence = `Returned ${seat.returned.length} of ${view.spells_to_win}` +
    `${seat.returned.length ? `: ${seat.returned.map(cap).join(", ")}` : ""}.` +
    `${wanted.length ? ` Still wanted: ${wanted.map(cap).join(", ")}.` : ""}`;
  const cell = el("td", { class: "gg-spells-cell", title: sentence });
  cell.append(el("span", { class: "gg-count", text: `${seat.returned.length}/${view.spells_to_win} ` }));
  for (const s of seat.returned) {
    cell.append(el("span", { class: "gg-spell-pill done gg-returned-pill" }, spellDot(s), `${cap(s)} ✓`));
  }
  for (const s of wanted) cell.append(el("span", { class: "gg-spell-pill gg-wanted-pill" }, spellDot(s, false), cap(s)));
  return cell;
}

function playersTable(view) {
  const table = el("table", { class: "players gg-players" });
  table.append(el("thead", {}, el("tr", {},
    ...[["Player"], ["Guild Card"], ["Where"], ["Mag · Gld · Chm", "num", "Magic, Guild, Charm (level→effective)"],
      ["$", "num"], ["Vol · Scr · Itm", "num", "Volunteers, Scrolls, Items in hand"],
      ["Sab.", "num", "Saboteurs planted"], ["Great Spells"], ["State"]]
      .map(([h, c, title]) => el("th", { class: c || null, text: h, title: title || null })))));
  const body = el("tbody");
  const deciding = view.decision ? view.decision.seat : null;
  for (const seat of view.seats) {
    const c = seat.colour;
    const who = el("td", { class: "player-cell" }, colourName(c, c === view.colour ? " (you)" : ""));
    if (c === view.current && !view.result) who.append(el("span", { class: "tag tag-turn", text: "turn" }));
    if (c === deciding) who.append(el("span", { class: "tag tag-deciding", text: "deciding" }));
    const card = seat.guild_card;
    const tile = seat.tile && facts.byId[seat.tile];
    const spells = spellsCell(seat, view);
    const bought = seat.bought_prices && seat.bought_prices.length
      ? `bought: ${seat.bought_prices.map((p) => `$${p}`).join(", ")}` : null;
    body.append(el("tr", { class: `player-row${c === view.colour ? " me" : ""}`, "data-colour": c },
      who,
      el("td", { title: card ? `${card.ability}: ${card.ability_text}` : null },
        card ? card.name : "–", card ? el("div", { class: "gg-sub", text: cap(card.guild) }) : null),
      el("td", { class: "gg-where", text: tile ? tile.name : "–" }),
      el("td", { class: "num gg-levels" }, ...facts.attributes.flatMap((a, k) => [k ? " · " : null,
        el("span", { class: seat.effective[a] !== seat.levels[a] ? "gg-changed" : null, text: levelText(seat, a) })]
        .filter((n) => n !== null))),
      el("td", { class: "num", text: `$${seat.dollars}` }),
      el("td", { class: "num", text: `${seat.volunteers} · ${seat.scrolls} · ${seat.items}`, title: bought }),
      el("td", { class: "num", text: String(seat.saboteurs) }),
      spells,
      el("td", { class: "gg-state" }, ...statusBits(seat))));
  }
  table.append(body);
  return table;
}

const DECK_CLASS = { "Lords & Ladies": "ll", "Man & Beast": "mb", "Shades & Shadows": "ss" };
const MARKS = { brethren: "Brethren", fate: "Fate", wanted: "Wanted", infectious: "Infectious" };

/** A Volunteer card, compact: name, deck, marks, the six numbers, bonus, ability. */
function volunteerCard(v, ctx) {
  const card = el("div", { class: `gg-vol deck-${DECK_CLASS[v.deck] || "x"}`, "data-volunteer": v.name });
  const head = el("div", { class: "gg-vol-head" }, el("span", { class: "gg-vol-name", text: v.name }),
    el("span", { class: "gg-vol-deck", text: DECK_CLASS[v.deck] ? DECK_CLASS[v.deck].toUpperCase() : v.deck, title: v.deck }));
  for (const m of v.marks || []) head.append(el("span", { class: `gg-mark-tag m-${m}`, text: MARKS[m] || m }));
  card.append(head);
  const stats = el("div", { class: "gg-stats" });
  for (const [label, key, title] of [["Ch", "charm", "Charm"], ["Bri", "bribe", "Bribe"],
    ["Loy", "loyalty", "Loyalty"], ["Str", "streetwise", "Streetwise"], ["Brl", "brawl", "Brawl"],
    ["Tgh", "toughness", "Toughness"]]) {
    stats.append(el("span", { class: "gg-stat", title }, el("span", { class: "k", text: label }), el("b", { text: String(v[key]) })));
  }
  if (v.luggage_moves) stats.append(el("span", { class: "gg-stat", title: "Luggage moves" }, el("span", { class: "k", text: "Lug" }), el("b", { text: String(v.luggage_moves) })));
  card.append(stats);
  const bonus = Object.entries(v.bonus || {}).map(([a, d]) => `${cap(a)} ${d > 0 ? "+" : ""}${d}`);
  const text = [bonus.length ? `Bonus: ${bonus.join(", ")}.` : "", v.ability || ""].filter(Boolean).join(" ");
  if (text) card.append(el("div", { class: "gg-vol-text", text }));
  card.title = volunteerWords(v);
  if (ctx) clickableCard(card, v.name, ctx);
  return card;
}

/** Issue 27: a Volunteer's numbers in words, for its card's hover text ("Charm 10, cannot
 * be bribed, Loyalty 4, ..."). */
function volunteerWords(v) {
  const words = [`Charm ${v.charm}`, v.bribe === "X" ? "cannot be bribed" : `Bribe $${v.bribe}`,
    `Loyalty ${v.loyalty}`, `Streetwise ${v.streetwise}`, `Brawl ${v.brawl}`, `Toughness ${v.toughness}`];
  if (v.luggage_moves) words.push(`moves the Luggage ${v.luggage_moves} tile${v.luggage_moves === 1 ? "" : "s"}`);
  for (const m of v.marks || []) words.push(MARKS[m] || m);
  const bonus = Object.entries(v.bonus || {}).map(([a, d]) => `${cap(a)} ${d > 0 ? "+" : ""}${d}`);
  if (bonus.length) words.push(`gives its player ${bonus.join(", ")}`);
  return `${v.name}: ${words.join(", ")}.${v.ability ? ` ${v.ability}` : ""}`;
}

/** Make ``node`` pick the choices naming ``name`` when clicked (if any). */
function clickableCard(node, name, ctx) {
  const n = ctx.naming(name).length;
  if (!n) return;
  node.classList.add("can-act");
  node.tabIndex = 0;
  const click = n === 1 ? "Click to choose this" : "Click to pick out the choices naming this";
  node.title = node.title ? `${node.title}\n${click}` : click;
  node.addEventListener("click", () => ctx.pick(name));
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      ctx.pick(name);
    }
  });
}

function tableInfo(view, ctx) {
  const parts = [];
  const vols = el("div", { class: "gg-faceup" });
  for (const d of view.volunteer_decks || []) {
    const box = el("div", { class: "gg-faceup-deck" },
      el("div", { class: "gg-faceup-title" }, el("strong", { text: d.deck }),
        el("span", { class: "note", text: ` ${d.face_down} face down · ${d.face_up_count} face up · ${d.discard.length} discarded` })));
    if (d.face_up.length) box.append(...d.face_up.map((v) => volunteerCard(v, ctx)));
    else box.append(el("div", { class: "note", text: "No face-up Volunteer." }));
    vols.append(box);
  }
  parts.push(el("h3", { text: "Face-up Volunteers" }), vols);
  const dragons = el("ul", { class: "gg-dragons" });
  for (const q of facts.quadrants) {
    const d = view.dragons && view.dragons[q.name];
    if (d) {
      dragons.append(el("li", {}, el("span", { class: "gg-dragon-chip", text: "D" }),
        el("strong", { text: d.name }), ` at the ${q.title}' Guild House (Brawl ${d.brawl}, Toughness ${d.toughness})`));
    }
  }
  if (!dragons.childElementCount) dragons.append(el("li", { class: "note", text: "No Dragon in the city." }));
  parts.push(el("h3", { text: "Dragons" }), dragons);
  const lug = view.luggage && facts.byId[view.luggage];
  const piles = [`Turn ${view.turn}`, `${view.spells_to_win} Great Spells to win`,
    `Dragon pile ${view.dragon_pile}`, `Fate deck ${view.fate_deck}`,
    `Luggage on ${lug ? lug.name : "–"}`];
  if (view.fate_discard && view.fate_discard.length) piles.push(`Fate discards: ${view.fate_discard.join(", ")}`);
  if (view.volunteer_modifiers && view.volunteer_modifiers.length) {
    piles.push(`Volunteer changes: ${view.volunteer_modifiers.map(([v, s, d]) => `${v} ${cap(s)} ${d > 0 ? "+" : ""}${d}`).join(", ")}`);
  }
  parts.push(el("p", { class: "note", text: piles.join(" · ") }));
  return parts;
}

// ---- your side: Guild Card, track, hand -------------------------------------------------

function guildCardBox(view, seat, ctx) {
  const card = seat.guild_card;
  const box = el("div", { class: "gg-guild-card" });
  if (!card) {
    box.append(el("div", { class: "gg-card-name" }, colourName(seat.colour), " has no Guild Card yet."));
    box.append(...offeredCards(view, ctx));
    return box;
  }
  box.append(el("div", { class: "gg-card-name" }, colourName(seat.colour),
    " · ", el("strong", { text: card.name }), el("span", { class: "gg-card-guild", text: ` · ${cap(card.guild)}` })));
  box.append(el("div", { class: "gg-ability" }, el("strong", { text: `${card.ability}: ` }), card.ability_text));
  const spells = el("div", { class: "gg-card-spells" }, el("span", { class: "k", text: "Great Spells " }));
  for (const s of card.spells) {
    spells.append(el("span", { class: `gg-spell-pill${seat.returned.includes(s) ? " done" : ""}` },
      spellDot(s, seat.returned.includes(s)), cap(s)));
  }
  spells.append(el("span", { class: "gg-count", text: `${seat.returned.length}/${view.spells_to_win} returned` }));
  box.append(spells);
  return box;
}

/** Issue 27: the Guild Cards a set-up choice offers (the view's ``decision.guild_cards``):
 * each with its guild, starting levels, Great Spells and Guild Ability; clicking one picks
 * out its choices. */
function offeredCards(view, ctx) {
  const cards = (view.decision && view.decision.guild_cards) || [];
  if (!cards.length) return [];
  const list = el("ul", { class: "gg-list gg-offer" });
  for (const c of cards) {
    const levels = Object.entries(c.start).map(([a, n]) => `${cap(a)} ${n}`).join(", ");
    const spells = el("div", { class: "gg-card-spells" }, el("span", { class: "k", text: "Great Spells " }),
      ...c.spells.map((s) => el("span", { class: "gg-spell-pill" }, spellDot(s, false), cap(s))));
    const li = el("li", { class: "gg-offer-card", "data-guild-card": c.name },
      el("strong", { text: c.name }), el("span", { class: "gg-card-guild", text: ` · ${cap(c.guild)}` }),
      el("div", { class: "gg-offer-levels", text: `Starts with ${levels}` +
        (c.fire_water ? ` · ${c.fire_water} Fire Water tokens` : "") }),
      el("div", { class: "gg-small" }, el("strong", { text: `${c.ability}` }),
        ` (${c.ability_test}${c.defence ? `; ${c.defence}` : ""}): ${c.ability_text}`),
      spells);
    clickableCard(li, c.name, ctx);
    list.append(li);
  }
  return [el("h3", { text: "The Guild Cards you may choose" }), list];
}

function attributeTrack(seat) {
  const box = el("div", { class: "gg-track-box", role: "table", "aria-label": "Attribute track" });
  box.append(el("div", { class: "gg-track-row gg-track-head" }, el("span", { class: "gg-track-name" }),
    ...Array.from({ length: 11 }, (_, i) => el("span", { class: "gg-cell head", text: String(i) })),
    el("span", { class: "gg-track-eff" })));
  for (const a of facts.attributes) {
    const level = seat.levels[a];
    const eff = seat.effective[a];
    const row = el("div", { class: `gg-track-row attr-${a}` }, el("span", { class: "gg-track-name", text: cap(a) }));
    for (let i = 0; i <= 10; i += 1) {
      const cls = ["gg-cell"];
      if (i === level) cls.push("level");
      else if (i < level) cls.push("below");
      if (eff !== level && i === Math.max(0, Math.min(10, eff))) cls.push("effective");
      row.append(el("span", { class: cls.join(" "), text: i === level ? String(i) : "" }));
    }
    row.append(el("span", { class: "gg-track-eff", text: eff !== level ? `now ${eff}` : "" }));
    box.append(row);
  }
  return box;
}

function ownBox(view, ctx) {
  const $ = (id) => document.getElementById(id);
  const own = $("gg-own");
  if (view.seat === null || view.seat === undefined || !view.seats[view.seat]) {
    own.hidden = true;
    return;
  }
  own.hidden = false;
  const seat = view.seats[view.seat];
  const tile = seat.tile && facts.byId[seat.tile];
  const facts1 = el("div", { class: "gg-me-facts" },
    el("span", { class: "gg-money", text: `$${seat.dollars}` }),
    el("span", { class: "note", text: tile ? ` on ${tile.name}` : " not on the board yet" }));
  const status = statusBits(seat);
  $("gg-me-body").replaceChildren(...[guildCardBox(view, seat, ctx),
    seat.guild_card ? attributeTrack(seat) : null, facts1,
    status.length ? el("div", { class: "gg-me-status" }, ...status) : null].filter(Boolean));

  const cards = view.own || { hand: [], scrolls: [], items: [], saboteurs: [] };
  const parts = [el("h2", { text: `Your Volunteers (${cards.hand.length})` })];
  parts.push(cards.hand.length
    ? el("div", { class: "gg-hand" }, ...cards.hand.map((v) => volunteerCard(v, ctx)))
    : el("p", { class: "note", text: "No Volunteers in your hand." }));
  const none = []; // the kinds you have none of, said in one line at the end
  const small = (title, list, line) => {
    if (!list.length) {
      none.push(title);
      return [];
    }
    return [el("h3", { text: `${title} (${list.length})` }),
      el("ul", { class: "gg-list" }, ...list.map(line))];
  };
  parts.push(...small("Scrolls", cards.scrolls, (s) => {
    const li = el("li", {}, el("strong", { text: s.name }),
      el("span", { class: "note", text: ` $${s.price} · Magic ${s.magic_target}+ ` }), el("div", { class: "gg-small", text: s.text }));
    clickableCard(li, s.name, ctx);
    return li;
  }));
  parts.push(...small("Items", cards.items, (s) => {
    const li = el("li", {}, el("strong", { text: s.name }),
      el("span", { class: "note", text: ` $${s.price} ` }), el("div", { class: "gg-small", text: s.text }));
    clickableCard(li, s.name, ctx);
    return li;
  }));
  parts.push(...small("Saboteurs", cards.saboteurs, (s) => el("li", {},
    el("strong", { text: s.volunteer }), ` in the ${cap(s.quadrant)} quadrant${s.item ? `, with ${s.item}` : ""}`)));
  if (none.length) parts.push(el("p", { class: "note gg-none", text: none.map((t) => `${t}: none.`).join(" ") }));
  $("gg-hand").replaceChildren(...parts);
}

// ---- the dice: the latest rolls the log reports ----------------------------------------

/** Log sentences that report a roll of the die (the engine's words: "rolls 7 + 4 = 11
 * against 5", "Brawl test passed: 14 (needed 11)", "casts Fog (6, needed 4)", "strikes
 * with 9", "answers the Call (5)", "survives (9 against Brawl 6)", ...). Not a roll: a
 * "Scroll", or a card's text that speaks of rolls ("without a Charm roll", "Every player
 * rolls for each Brethren"): a roll reported has its number, or says how it fell. */
const ROLL_LINES = [
  /\brolls? (?:\d|a natural \d|for the fighters\b|highest\b)/,
  /\btest (?:passed|failed): \d/,
  /\(\d+(?: on \w+)?, needed \d+\)/,
  /\bstrikes with \d/,
  /\bfails to resist .*\(\d+\)/,
  /\banswers the Call \(\d+\)/,
  /\bsurvives \(\d+ against/,
];
/** How a roll went for whoever rolled, when the sentence says so plainly. */
const ROLL_PASSED = /: (?:success|safe|free|a hit|survives)\b|\btest passed\b|\bcasts\b|\bresists\b|\bsurvives \(|\bstays loyal\b|\bis wounded\b/;
const ROLL_FAILED = /: (?:failure|fails|falls|still held|no hit)\b|\btest failed\b|\bmisses\b|\bfails to\b|\bis unhurt\b/;
const DICE_SHOWN = 6;

let diceSeen = null; // how many roll lines the last render showed (null: none rendered yet)

function isRoll(line) {
  return ROLL_LINES.some((re) => re.test(line));
}

/** A roll's sentence with its numbers in bold. */
function rollText(line) {
  return line.split(/(\d+)/).filter((part) => part !== "")
    .map((part) => (/^\d+$/.test(part) ? el("b", { text: part }) : part));
}

/** The Dice panel: the last few rolls of ``ctx.log`` (the lines this seat may read), newest
 * first and picked out (flashing when it is new since the last state). */
function diceBox(ctx) {
  const section = document.getElementById("gg-dice");
  const list = document.getElementById("gg-dice-list");
  if (!Array.isArray(ctx.log)) { // a page that passes no log (the replay): no panel
    section.hidden = true;
    list.replaceChildren();
    diceSeen = null;
    return;
  }
  section.hidden = false;
  const rolls = ctx.log.filter((line) => typeof line === "string" && isRoll(line));
  const fresh = diceSeen !== null && rolls.length > diceSeen;
  diceSeen = rolls.length;
  if (!rolls.length) {
    list.replaceChildren(el("li", { class: "note gg-dice-none", text: "No dice rolled yet." }));
    return;
  }
  const shown = rolls.slice(-DICE_SHOWN).reverse();
  list.replaceChildren(...shown.map((line, k) => {
    const outcome = ROLL_FAILED.test(line) ? "fail" : ROLL_PASSED.test(line) ? "pass" : null;
    const cls = ["gg-roll"];
    if (k === 0) cls.push("gg-roll-newest");
    if (k === 0 && fresh) cls.push("gg-roll-fresh");
    if (outcome) cls.push(`gg-roll-${outcome}`);
    return el("li", { class: cls.join(" "), title: k === 0 ? "The latest roll" : null },
      el("span", { class: "gg-die", "aria-hidden": "true" }),
      el("span", { class: "gg-roll-text" }, ...rollText(line)),
      outcome ? el("span", { class: "gg-roll-tag", text: outcome === "pass" ? "pass" : "fail" }) : null);
  }));
}

// ---- the board module -------------------------------------------------------------------

/** The widths of your cards' panel beside the map: one, two or three columns of cards. */
const OWN_WIDTHS = ["gg-own-1", "gg-own-2", "gg-own-3"];
const MAP_LEAST = 24; // rem: the map's least width beside your cards
const DICE_LEAST = 5; // rem: the Dice panel's least height under them (and the gap)

function mount(main, side) {
  const frame = el("div", { id: "gg-board", class: "board-host gg-board-host" });
  zoom = zoomMap(frame, { name: "The city map" });
  main.replaceChildren(
    el("div", { class: "gg-board-row", id: "gg-board-row" },
      el("section", { class: "panel board-panel gg-board-panel", id: "board-panel" },
        zoom.tools,
        frame,
        el("div", { id: "gg-menu", class: "gg-menu", hidden: true }),
        el("p", { id: "gg-legend", class: "note gg-legend" },
          el("span", { class: "gg-key key-reach" }), "within your movement ",
          el("span", { class: "gg-key key-act" }), "click to choose ",
          el("span", { class: "gg-key key-track" }), "the Luggage's track · ",
          "LL/MB/SS: Volunteer tiles · D: Dragon · L: the Luggage · hover a tile for its name")),
      el("div", { id: "gg-aside", class: `gg-aside ${OWN_WIDTHS[0]}` },
        el("section", { id: "gg-own", class: "panel gg-own", hidden: true },
          el("section", { id: "gg-me", class: "gg-me" },
            el("h2", { text: "Your Guild Card" }),
            el("div", { id: "gg-me-body" })),
          el("section", { id: "gg-hand", class: "gg-hand-panel" })),
        el("section", { id: "gg-dice", class: "panel gg-dice-panel", hidden: true, "aria-live": "polite" },
          el("h2", { text: "Dice" }),
          el("ol", { id: "gg-dice-list", class: "gg-dice-list" })))),
    el("section", { class: "panel", id: "players-panel" },
      el("h2", { text: "Players" }),
      el("div", { id: "gg-players", class: "table-wrap" })),
    el("section", { class: "panel gg-table-panel", id: "gg-table" }));
  side.replaceChildren();
  window.addEventListener("resize", fitOwn);
}

/** Issue 26: your cards beside the map in full, in as few columns as the height allows
 * (leaving the Dice panel under them DICE_LEAST rem, and the map MAP_LEAST rem); on a narrow
 * window they stand under the map. */
function fitOwn() {
  const own = document.getElementById("gg-own");
  const row = document.getElementById("gg-board-row");
  const aside = document.getElementById("gg-aside");
  if (!own || own.hidden) return;
  const height = parseFloat(getComputedStyle(row).minHeight);
  if (!(height > 0)) return;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  fitWidth(aside, OWN_WIDTHS, height - DICE_LEAST * rem, { row, rest: MAP_LEAST * rem, measure: own });
}

function render(view, ctx) {
  if (menu && menu.step !== ctx.step) menu = null;
  ownBox(view, ctx);
  fitOwn();
  drawBoard(document.getElementById("gg-board"), view, ctx);
  renderMenu(ctx);
  document.getElementById("gg-players").replaceChildren(playersTable(view));
  document.getElementById("gg-table").replaceChildren(...tableInfo(view, ctx));
  diceBox(ctx);
}

/** The banner saying whose decision it is. */
function banner(view, ctx) {
  const decision = view.decision;
  if (!decision) return null;
  if (ctx.mine) {
    const outOfTurn = view.turn > 0 && view.current !== view.colour;
    const text = outOfTurn
      ? `Out of turn: it is ${view.current}'s turn, but this decision is yours: ${decision.task}.`
      : `Your decision: ${decision.task}.`;
    return el("div", { class: `banner ${outOfTurn ? "banner-interrupt" : "banner-mine"}`, text });
  }
  const outOfTurn = view.turn > 0 && decision.seat !== view.current ? ` (it is ${view.current}'s turn)` : "";
  return el("div", { class: "banner banner-wait" }, "Waiting for ",
    colourName(decision.seat), ` to ${decision.task}${outOfTurn}.`);
}

const plainHint = boardHint("Click a button, or a glowing tile on the map (gold rings: tiles within your movement; one click walks to a far one).");
let noted = null; // issue 27: the deciding seat's decision as last hinted, for the buttons' notes

/** The sentence above the buttons: the decision's notes when it has some (issue 27). */
function hint(view, ctx) {
  const decision = view.decision;
  noted = ctx.mine ? decision : null;
  if (ctx.mine && decision && decision.guild_cards) {
    return "Choose a Guild Card and a Start Gate: each card's levels and Guild Ability are " +
      "under Your Guild Card (click one there to pick it out).";
  }
  if (ctx.mine && decision && decision.notes && decision.notes.length) return decision.notes.join(" ");
  return plainHint(view, ctx);
}

/** A choice button's words, with the decision's note on it under them (issue 27). */
function label(text) {
  const decision = noted;
  const k = decision && decision.actions ? decision.actions.indexOf(text) : -1;
  const note = k >= 0 && decision.action_notes ? decision.action_notes[k] : "";
  if (!note) return text;
  return el("span", { class: "gg-choice", title: note }, text,
    el("span", { class: "gg-choice-note", text: note.length > 90 ? `${note.slice(0, 88)}…` : note }));
}

const REASONS = {
  spells: "returned enough Great Spells",
};

function outcome(view) {
  const result = view.result;
  if (!result) return null;
  const names = view.seats.map((s) => s.colour);
  const winners = result.winners.map((w) => names[w]);
  const box = el("div", { class: "outcome" });
  const head = el("h2", {}, view.colour && winners.includes(view.colour) ? "You win! " : "The game is over. ");
  if (winners.length) {
    appendWinners(head, winners, colourName);
  }
  box.append(head);
  box.append(el("p", { text: `The game ended: ${REASONS[result.reason] || result.reason}.` }));
  // Issue 26: each player's Great Spells, result and hand follow (the server's ``end``).
  const row = el("p", { class: "gg-returned" });
  view.seats.forEach((seat, i) => {
    if (i) row.append(" · ");
    row.append(colourName(seat.colour), " ", ...seat.returned.map((s) => spellDot(s)));
    if (!seat.returned.length) row.append("no spell");
  });
  box.append(row);
  return box;
}

window.CityWatchBoards["guards-guards"] = {
  load, mount, render, banner, hint, label, outcome,
  space: (id) => (facts.byId[id] ? facts.byId[id].name : id), // issue 26: a tile id's name
  who: (view) => (view.colour ? el("span", {}, "You play ", colourName(view.colour)) : null),
};
})();
