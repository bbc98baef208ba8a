// citywatch: the Ankh-Morpork board module, served at /games/ankh-morpork/board.js and
// loaded by the table and replay pages (the interface is described in the server's
// static/common.js): the city as an SVG map, the players' table, the hand and personality,
// the outcome; clicking a glowing area or card picks the choices that name it.
//
// Everything here reads a view exactly as the server sent it for this page's token,
// and the game facts in cards.json next to this file; nothing else.
"use strict";

(() => {
const CW = (() => {
  const COLOURS = {
    Red: "#c0392b",
    Blue: "#2364c4",
    Green: "#2e8b3e",
    Yellow: "#e6b800",
  };

  // The city, drawn on a 1000 x 660 canvas. The River Ankh runs west to east across the
  // middle, the Isle of Gods in it; Ankh (north) above, Morpork (south) below. Polygons
  // share their corners, so land borders are exactly the adjacencies of the game data.
  // ``label`` is where the name goes; ``perRow`` how many pieces fit in a row below it.
  const RIVER_NORTH = [[0, 290], [160, 282], [330, 262], [420, 240], [520, 234], [620, 240],
    [700, 268], [850, 288], [1000, 284]];
  const RIVER_SOUTH = [[0, 362], [150, 372], [290, 386], [360, 406], [450, 416], [560, 414],
    [650, 400], [810, 380], [1000, 372]];
  const AREAS = {
    12: { // Nap Hill
      poly: [[0, 0], [372, 0], [380, 146], [330, 152], [250, 166], [120, 150], [0, 160]],
      label: [190, 34],
    },
    1: { // Dolly Sisters
      poly: [[372, 0], [640, 0], [620, 150], [500, 140], [380, 146]],
      label: [505, 34],
    },
    3: { // Dragon's Landing
      poly: [[640, 0], [1000, 0], [1000, 160], [850, 150], [700, 158], [620, 150]],
      label: [820, 34],
    },
    11: { // Seven Sleepers
      poly: [[0, 160], [120, 150], [250, 166], [330, 152], [342, 205], [330, 262], [160, 282],
        [0, 290]],
      label: [160, 180],
    },
    2: { // Unreal Estate
      poly: [[330, 152], [380, 146], [500, 140], [620, 150], [700, 158], [690, 212], [700, 268],
        [620, 240], [520, 234], [420, 240], [330, 262], [342, 205]],
      label: [515, 164],
    },
    4: { // Small Gods
      poly: [[700, 158], [850, 150], [1000, 160], [1000, 284], [850, 288], [700, 268],
        [690, 212]],
      label: [850, 180],
    },
    10: { // Isle of Gods
      poly: [[345, 322], [395, 284], [500, 270], [600, 278], [655, 318], [610, 360], [500, 376],
        [395, 366]],
      label: [500, 292],
    },
    9: { // Longwall
      poly: [[0, 362], [150, 372], [290, 386], [302, 500], [286, 660], [0, 660]],
      label: [140, 400],
    },
    8: { // Dimwell
      poly: [[290, 386], [360, 406], [450, 416], [452, 520], [440, 660], [286, 660], [302, 500]],
      label: [370, 430],
      perRow: 4,
    },
    5: { // The Scours
      poly: [[450, 416], [560, 414], [650, 400], [810, 380], [816, 452], [810, 526], [630, 512],
        [452, 520]],
      label: [630, 430],
    },
    7: { // The Shades
      poly: [[452, 520], [630, 512], [810, 526], [824, 660], [440, 660]],
      label: [632, 540],
    },
    6: { // The Hippo
      poly: [[810, 380], [1000, 372], [1000, 660], [824, 660], [810, 526], [816, 452]],
      label: [906, 400],
      perRow: 5,
    },
  };
  // Bridges: every adjacency across the river, as [from, to] points.
  const BRIDGES = [
    [[110, 286], [110, 368]], // Seven Sleepers - Longwall
    [[372, 300], [318, 266]], // Isle of Gods - Seven Sleepers
    [[372, 350], [280, 386]], // Isle of Gods - Longwall
    [[500, 272], [500, 235]], // Isle of Gods - Unreal Estate
    [[640, 302], [716, 272]], // Isle of Gods - Small Gods
    [[570, 370], [580, 413]], // Isle of Gods - The Scours
    [[762, 279], [762, 386]], // Small Gods - The Scours
    [[920, 287], [906, 376]], // Small Gods - The Hippo
  ];

  let facts = null;

  /** The game facts of ``base``cards.json, loaded once. */
  async function loadFacts(base) {
    if (facts) return facts;
    const data = await CityWatch.fetchJson(`${base}cards.json`, "game facts (cards.json)");
    facts = {
      cards: Object.fromEntries(data.cards.map((c) => [c.name, c])),
      areas: data.areas,
      areaByName: Object.fromEntries(data.areas.map((a) => [a.name, a])),
      events: Object.fromEntries(data.events.map((e) => [e.name, e])),
      personalities: Object.fromEntries(data.personalities.map((p) => [p.name, p])),
    };
    return facts;
  }

  const { el, svg } = CityWatch; // the pages' (static/common.js, loaded first)

  function points(list) {
    return list.map(([x, y]) => `${x},${y}`).join(" ");
  }

  /** A colour name as a small coloured chip and the name. */
  function colourName(name, suffix = "") {
    return el("span", { class: `who who-${name}` }, el("span", { class: "chip" }), name + suffix);
  }

  function riverPath() {
    const north = RIVER_NORTH.map(([x, y]) => `${x},${y}`).join(" L");
    const south = [...RIVER_SOUTH].reverse().map(([x, y]) => `${x},${y}`).join(" L");
    return `M${north} L${south} Z`;
  }

  /**
   * Draw the board of ``view`` into ``host`` (an element). ``options.clickable`` maps an
   * area name to a CSS class for areas that legal actions mention; ``options.onArea`` is
   * called with an area name when such an area is clicked. The areas each move of
   * ``options.moves`` touched (issue 26: the moves since this seat's last decision, ``[{by,
   * spaces}]``) get a dashed ring in the mover's colour, drawn over everything; an area
   * several movers touched gets one ring each, the oldest widest.
   */
  function drawBoard(host, view, options = {}) {
    const clickable = options.clickable || {};
    const root = svg("svg", {
      viewBox: "0 0 1000 660", class: "board", role: "img",
      "aria-label": "The city of Ankh-Morpork",
    });
    root.append(svg("defs", {},
      svg("pattern", { id: "water", width: 40, height: 14, patternUnits: "userSpaceOnUse" },
        svg("rect", { width: 40, height: 14, fill: "#5d8fb0" }),
        svg("path", { d: "M0 7 Q10 2 20 7 T40 7", fill: "none", stroke: "#7fb0cf",
          "stroke-width": 2 })),
    ));
    root.append(svg("rect", { x: 0, y: 0, width: 1000, height: 660, class: "land-bg" }));
    root.append(svg("path", { d: riverPath(), fill: "url(#water)", class: "river" }));
    root.append(svg("text", { x: 200, y: 330, class: "river-name", text: "River Ankh" }));
    root.append(svg("text", { x: 841, y: 336, class: "river-name", text: "River Ankh" }));

    for (const [from, to] of BRIDGES) {
      const [x1, y1] = from;
      const [x2, y2] = to;
      root.append(svg("line", { x1, y1, x2, y2, class: "bridge-edge" }));
      root.append(svg("line", { x1, y1, x2, y2, class: "bridge-deck" }));
    }

    // Areas that can be clicked are drawn last, so their glowing borders stay on top.
    const order = [...facts.areas].sort((a, b) => Boolean(clickable[a.name]) - Boolean(clickable[b.name]));
    for (const area of order) {
      const shape = AREAS[area.number];
      const state = view.areas[area.name];
      const mark = clickable[area.name];
      const group = svg("g", {
        class: `area${mark ? " " + mark : ""}`,
        "data-area": area.name,
        tabindex: mark ? 0 : null,
      });
      group.append(svg("title", {
        text: `${area.number}. ${area.name}: building costs $${area.cost}` +
          `${area.borders_river ? "; on the river" : ""}\n${area.power}`,
      }));
      group.append(svg("polygon", { points: points(shape.poly), class: `land land-${area.number}` }));
      drawArea(group, shape, area, state);
      if (mark && options.onArea) {
        group.addEventListener("click", () => options.onArea(area.name));
        group.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            options.onArea(area.name);
          }
        });
      }
      root.append(group);
    }
    for (const [name, movers] of CityWatch.movesBySpace(options.moves)) {
      if (!facts.areaByName[name]) continue;
      const ring = points(AREAS[facts.areaByName[name].number].poly);
      const wide = (k) => ` ring-${Math.min(movers.length - 1 - k, 3)}`; // board.css's widths
      root.append(svg("polygon", { points: ring, class: `last-move-halo${wide(0)}` }));
      movers.forEach((by, k) => {
        root.append(svg("polygon", {
          points: ring, class: `last-move last-move-${by}${wide(k)}`, "data-moved": name,
          "data-by": by,
        }));
      });
    }
    host.replaceChildren(root);
  }

  /** Issue 26: "Since your last decision: Blue in Dimwell (8) and The Hippo (6); Green in
   * The Shades (7) (ringed on the map in each mover's colour)" for ``moves`` (``[{by,
   * spaces}]``; ``lead`` the words before), or null when no move touched an area. */
  function movesLine(moves, lead) {
    const parts = [];
    for (const move of Array.isArray(moves) ? moves : []) {
      const spaces = move.spaces.filter((n) => facts.areaByName[n]);
      if (!spaces.length) continue;
      const names = spaces.map((a) => `${a} (${facts.areaByName[a].number})`);
      const where = names.length > 1
        ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
      parts.push(parts.length ? "; " : "", colourName(move.by), ` in ${where}`);
    }
    if (!parts.length) return null;
    return el("span", { class: "last-move-line" }, `${lead}: `, ...parts,
      " (ringed on the map in each mover's colour)");
  }

  /** One's own personality: its name, how far it is at this table and its full text. */
  function personalityBox(view) {
    const me = view.seats[view.seat];
    const progress = view.progress;
    const lines = [el("div", { class: "personality-name" }, "Your personality: ",
      el("strong", { text: me.personality || "?" }))];
    if (progress) {
      const line = el("div", { class: `progress${progress.met ? " progress-met" : ""}`,
        id: "progress" });
      if (progress.need !== null) {
        line.append(el("meter", { min: 0, max: progress.need,
          value: Math.min(progress.have, progress.need), class: "progress-meter" }), " ");
      }
      line.append(progress.line);
      lines.push(line);
      for (const note of progress.notes) lines.push(el("div", { class: "progress-note", text: note }));
      lines.push(el("div", { class: "personality-text", text: progress.text }));
    }
    return lines;
  }

  function drawArea(group, shape, area, state) {
    const [x, y] = shape.label;
    const perRow = shape.perRow || 8;
    group.append(svg("text", { x, y, class: "area-name", text: area.name }));
    group.append(svg("text", {
      x, y: y + 17, class: "area-sub", text: `${area.number} · building $${area.cost}`,
    }));
    const pieces = [];
    for (const colour of Object.keys(COLOURS)) {
      const n = (state.minions || {})[colour] || 0;
      if (n) pieces.push(minion(colour, n));
    }
    if (state.trolls) pieces.push(creature("troll", "T", state.trolls, "trolls"));
    if (state.demons) pieces.push(creature("demon", "D", state.demons, "demons"));
    if (state.trouble) pieces.push(trouble());
    // Lay the pieces out in one centred row under the name; the building goes first.
    const items = [];
    if (state.building) items.push(building(state.building));
    items.push(...pieces);
    const gap = 30;
    for (let start = 0; start < items.length; start += perRow) {
      const row = items.slice(start, start + perRow);
      let px = x - ((row.length - 1) * gap) / 2;
      const py = y + 42 + (start / perRow) * gap;
      for (const item of row) {
        item.setAttribute("transform", `translate(${px},${py})`);
        group.append(item);
        px += gap;
      }
    }
  }

  function minion(colour, n) {
    return svg("g", { class: `minion minion-${colour}` },
      svg("title", { text: `${n} ${colour} minion${n === 1 ? "" : "s"}` }),
      svg("circle", { r: 13, fill: COLOURS[colour] }),
      svg("text", { y: 5, class: "count", text: String(n) }));
  }

  function creature(kind, letter, n, plural) {
    return svg("g", { class: kind },
      svg("title", { text: `${n} ${n === 1 ? kind : plural}` }),
      svg("rect", { x: -13, y: -13, width: 26, height: 26, rx: 5 }),
      svg("text", { y: 5, class: "count", text: n > 1 ? `${letter}${n}` : letter }));
  }

  function trouble() {
    return svg("g", { class: "trouble" },
      svg("title", { text: "Trouble marker" }),
      svg("polygon", { points: "-6,-13 6,-13 13,-6 13,6 6,13 -6,13 -13,6 -13,-6" }),
      svg("text", { y: 5, class: "count", text: "!" }));
  }

  function building(colour) {
    return svg("g", { class: `building building-${colour}` },
      svg("title", { text: `${colour}'s building` }),
      svg("polygon", { points: "-13,13 -13,-3 0,-15 13,-3 13,13", fill: COLOURS[colour] }),
      svg("rect", { x: -4, y: 3, width: 8, height: 10, class: "door" }));
  }

  const SYMBOLS = {
    "place a minion": ["Minion", "sym-minion"],
    "place a building": ["Building", "sym-building"],
    "assassination": ["Assassinate", "sym-assassin"],
    "remove a trouble marker": ["Remove trouble", "sym-trouble"],
    "card text": ["Text", "sym-text"],
    "random event": ["Event", "sym-event"],
    "play another card": ["Play another", "sym-again"],
    "interrupt": ["Interrupt", "sym-interrupt"],
  };

  /** A card's symbols as small labelled badges, left to right. */
  function symbolBadges(card) {
    const row = el("span", { class: "symbols" });
    for (const symbol of card.symbols) {
      const [label, cls] = symbol.startsWith("take $")
        ? [symbol.replace("take ", ""), "sym-money"]
        : SYMBOLS[symbol] || [symbol, "sym-text"];
      row.append(el("span", { class: `sym ${cls}`, title: symbol, text: label }));
    }
    return row;
  }

  /** A card as a tile: name, symbols and text (from cards.json). */
  function cardTile(name) {
    const card = facts.cards[name];
    const tile = el("div", { class: `card deck-${card ? card.deck : "unknown"}` });
    tile.append(el("div", { class: "card-name", text: name }));
    if (card) {
      tile.append(symbolBadges(card));
      if (card.text && !card.text.startsWith("(")) {
        tile.append(el("div", { class: "card-text", text: card.text }));
      }
    }
    return tile;
  }

  /** The players' public information as a table. */
  function playersTable(view) {
    const table = el("table", { class: "players" });
    table.append(el("thead", {}, el("tr", {},
      ...["Player", "Money", "Minions", "Buildings", "Hand", "City Area cards", "In front",
        "Personality"].map((h) => el("th", { text: h, class: h === "Personality" ? "personality-col" : null })))));
    const body = el("tbody");
    const deciding = view.decision ? view.decision.seat : null;
    for (const seat of view.seats) {
      const c = seat.colour;
      const areaCards = facts.areas.filter((a) => view.areas[a.name].card === c)
        .map((a) => `${a.name} (${a.number})`);
      const who = el("td", { class: "player-cell" }, colourName(c, c === view.colour ? " (you)" : ""));
      if (c === view.current && !view.result) who.append(el("span", { class: "tag tag-turn", text: "turn" }));
      if (c === deciding) who.append(el("span", { class: "tag tag-deciding", text: "deciding" }));
      const row = el("tr", { class: `player-row${c === view.colour ? " me" : ""}`, "data-colour": c },
        who,
        el("td", { class: "num", text: `$${seat.money}` }),
        el("td", { class: "num", text: `${12 - seat.minions_in_supply}/12` }),
        el("td", { class: "num", text: `${6 - seat.buildings_in_supply}/6` }),
        el("td", { class: "num", text: String(seat.hand_size) }),
        el("td", { text: areaCards.join(", ") || "–" }),
        el("td", { text: seat.in_front.join(", ") || "–" }),
        el("td", { class: "personality-col", text: seat.personality || "hidden" }));
      body.append(row);
    }
    table.append(body);
    return table;
  }

  /** Draw pile, events, discards: one line of public facts. */
  function pilesLine(view) {
    const parts = [
      `Turn ${view.turn}`,
      `draw pile ${view.draw_pile_size}`,
      `random events left ${view.events_left}`,
      `discard pile ${view.discard_pile.length}` +
        (view.discard_pile.length ? ` (top: ${view.discard_pile[0]})` : ""),
    ];
    if (view.events_done.length) parts.push(`events so far: ${view.events_done.join(", ")}`);
    if (view.out_of_game.length) parts.push(`out of the game: ${view.out_of_game.join(", ")}`);
    return parts.join(" · ");
  }

  const REASONS = {
    personality: "a personality's victory condition was met",
    riots: "riots broke out (eight or more trouble markers)",
    deck: "the draw pile ran out",
  };

  /** The outcome of a finished game: the winners and why the game ended. Each seat's
   * points part by part, its personality and hand follow it on the page (issue 26: the
   * server's ``end``, drawn by common.js). */
  function outcomeBox(view) {
    const result = view.result;
    const colours = view.seats.map((s) => s.colour);
    const winners = result.winners.map((w) => colours[w]);
    const mine = view.colour && winners.includes(view.colour);
    const box = el("div", { class: "outcome" });
    const headline = el("h2", {}, mine ? "You win! " : "The game is over. ");
    headline.append("Winner: ");
    winners.forEach((w, i) => {
      if (i) headline.append(" and ");
      headline.append(colourName(w));
    });
    box.append(headline);
    box.append(el("p", { text: `The game ended because ${REASONS[result.reason] || result.reason}.` +
      (result.points ? "" : " It was not decided on points: the points below are those on the board at the end.") }));
    return box;
  }

  return {
    COLOURS, loadFacts, el, svg, drawBoard, cardTile, symbolBadges, playersTable, pilesLine,
    outcomeBox, colourName, movesLine, personalityBox,
    get facts() { return facts; },
  };
})();

// ---- the board module ------------------------------------------------------------------

const { el } = CW;
let areaPattern = null; // matches area names in action texts
let personalityOpen = false; // whether the person unfolded their personality's full text

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The board's panels, all in the main column: the last move, then the map with the hand
 * beside it, then the players. On a wide window the map takes the height left over (issue
 * 16: at 1366x800 nothing covers it, and the hand stays in view beside it). */
function mount(main, side) {
  main.replaceChildren(
    el("section", { class: "panel board-panel", id: "board-panel" },
      el("p", { id: "last-move", class: "note" }), // above the map: always in view (issue 16)
      el("div", { id: "board-row", class: "board-row" },
        el("div", { id: "board", class: "board-host" }),
        el("div", { id: "board-side", class: "board-side" },
          el("section", { id: "hand-section", class: "hand-section", hidden: true },
            el("div", { id: "personality", class: "personality" }),
            el("h2", { id: "hand-title", text: "Your hand" }),
            el("div", { id: "hand", class: "hand" }),
            el("div", { id: "shown-hands" })),
          el("p", { id: "this-turn", class: "note" })))),
    el("section", { class: "panel", id: "players-panel" },
      el("div", { class: "players-head" },
        el("h2", { text: "Players" }),
        el("p", { id: "piles", class: "note" })),
      el("div", { id: "players", class: "table-wrap" })));
  side.replaceChildren();
  // The room beside the map changes with the window and the panels around (banners, choices).
  if (window.ResizeObserver) new ResizeObserver(fitHand).observe(document.getElementById("board-side"));
}

function render(view, ctx) {
  const clickable = {};
  for (const area of CW.facts.areas) {
    const n = ctx.naming(area.name).length;
    if (n) clickable[area.name] = n === 1 ? "can-act one" : "can-act";
  }
  // Issue 26: every move since this seat's last decision (the replay: the decision shown),
  // beside the view, never inside it; an older page's server sends the last move only.
  const moves = Array.isArray(ctx.moves) ? ctx.moves : ctx.last_move ? [ctx.last_move] : [];
  CW.drawBoard(document.getElementById("board"), view, { clickable, onArea: ctx.pick, moves });
  const last = CW.movesLine(moves, ctx.page === "replay" ? "This decision"
    : ctx.seat === null ? "Since the last decision of the seat to decide" : "Since your last decision");
  document.getElementById("last-move").replaceChildren(...(last ? [last] : []));
  document.getElementById("players").replaceChildren(CW.playersTable(view));
  document.getElementById("piles").textContent = CW.pilesLine(view);
  renderThisTurn(view);
  renderHand(view, ctx);
}

function renderThisTurn(view) {
  const parts = [];
  if (view.played_this_turn.length) parts.push(`Played this turn: ${view.played_this_turn.join(", ")}`);
  if (view.in_play.length) parts.push(`Being resolved: ${view.in_play.join(", ")}`);
  if (view.powers_used.length) parts.push(`Area powers used this turn: ${view.powers_used.join(", ")}`);
  document.getElementById("this-turn").textContent = parts.join(" · ");
}

function renderHand(view, ctx) {
  const $ = (id) => document.getElementById(id);
  const section = $("hand-section");
  if (view.seat === null) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  // The name and progress line always show; the full text folds (issue 16: the hand in view).
  const [name, ...more] = CW.personalityBox(view);
  const progress = more.filter((line) => line.id === "progress");
  const rest = more.filter((line) => line.id !== "progress");
  if (view.seen_personalities.length) {
    rest.push(el("div", {
      class: "note", text: `Unused personalities you were shown: ${view.seen_personalities.join(", ")}`,
    }));
  }
  const fold = el("details", { class: "personality-fold", open: personalityOpen || null },
    el("summary", { class: "personality-summary" }, name, ...progress), ...rest);
  fold.addEventListener("toggle", () => {
    personalityOpen = fold.open;
    fitHand();
  });
  $("personality").replaceChildren(rest.length ? fold : el("div", {}, name, ...progress));
  $("hand-title").textContent = `Your hand (${view.hand.length})`;
  const hand = $("hand");
  if (!view.hand.length) {
    hand.replaceChildren(el("p", { class: "note", text: "No cards in your hand." }));
  } else {
    hand.replaceChildren(...view.hand.map((name) => {
      const n = ctx.naming(name).length;
      const tile = CW.cardTile(name);
      const card = CW.facts.cards[name];
      const text = tile.querySelector(".card-text");
      // Folded (a short window), a card tells its symbols and text on hover.
      const about = [card ? card.symbols.join(" · ") : "", text ? text.textContent : ""]
        .filter(Boolean).join("\n");
      if (n) {
        tile.classList.add("can-act");
        tile.tabIndex = 0;
        const how = n === 1 ? "Click to choose this card" : "Click to pick out the choices naming this card";
        tile.title = about ? `${about}\n(${how})` : how;
        tile.addEventListener("click", () => ctx.pick(name));
        tile.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            ctx.pick(name);
          }
        });
      } else if (about) {
        tile.title = about; // ... or unfolds on a click
        tile.addEventListener("click", () => {
          tile.classList.toggle("unfolded");
          fitHand();
        });
      }
      return tile;
    }));
  }
  $("shown-hands").replaceChildren(...Object.entries(view.shown_hands).map(([colour, cards]) =>
    el("div", { class: "note shown" }, CW.colourName(colour), `'s hand, shown to you: ${cards.join(", ") || "no cards"}`)));
  fitHand();
}

/** Fold the hand until it fits beside the map (issue 16: every card's name in view without
 * scrolling): first the cards' texts (on hover, or a click unfolds one), then their symbols. */
function fitHand() {
  const side = document.getElementById("board-side");
  const section = document.getElementById("hand-section");
  if (!side || section.hidden) return;
  section.classList.remove("hand-compact", "hand-tight");
  for (const level of ["hand-compact", "hand-tight"]) {
    if (side.scrollHeight <= side.clientHeight + 1) return;
    section.classList.add(level);
  }
}

/** The banner saying whose decision it is. */
function banner(view, ctx) {
  const decision = view.decision;
  if (!decision) return null;
  if (ctx.mine) {
    const outOfTurn = view.current !== view.colour;
    const text = outOfTurn
      ? `Out of turn: it is ${view.current}'s turn, but this decision is yours. You must ${decision.task}.`
      : `Your decision: ${decision.task}.`;
    return el("div", { class: `banner ${outOfTurn ? "banner-interrupt" : "banner-mine"}`, text });
  }
  const outOfTurn = decision.seat !== view.current ? ` (out of turn: it is ${view.current}'s turn)` : "";
  return el("div", { class: "banner banner-wait" }, "Waiting for ",
    CW.colourName(decision.seat), ` to ${decision.task}${outOfTurn}.`);
}

const hint = CityWatch.boardHint("Click a button, or a glowing area on the map or a card in your hand.");

/** An action's text with area numbers after area names. */
function label(text) {
  if (!areaPattern) {
    const names = CW.facts.areas.map((a) => a.name).sort((a, b) => b.length - a.length);
    areaPattern = new RegExp(`\\b(${names.map(escapeRegExp).join("|")})\\b`, "g");
  }
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(areaPattern)) {
    out.append(text.slice(last, match.index + match[0].length));
    out.append(el("span", { class: "area-no", text: ` (${CW.facts.areaByName[match[0]].number})` }));
    last = match.index + match[0].length;
  }
  out.append(text.slice(last));
  return out;
}

/** The board's styles and facts, from the folder it is served from. */
async function load(base) {
  CityWatch.addBoardStyle(`${base}board.css`);
  await CW.loadFacts(base);
}

window.CityWatchBoards = window.CityWatchBoards || {};
window.CityWatchBoards["ankh-morpork"] = {
  load, mount, render, banner, hint, label,
  who: (view) => (view.colour ? el("span", {}, "You play ", CW.colourName(view.colour)) : null),
  outcome: (view) => (view.result ? CW.outcomeBox(view) : null),
};
})();
