// citywatch: the Guardians of the City Vol.2 board module, served at
// /games/guardians-of-the-city/board.js and loaded by the table and replay pages (the
// interface is described in the server's static/common.js): the shared Terrorist Cells with
// their strength, each nation's five pillars (effort) and four Citizen Groups (support), its
// Shield, Counter-Terrorism points, score, deck and discard counts, active Subversive and
// lasting Galvanised People cards; at the side the National Effort controls (one click per
// pillar, or one click for the deck's suggested effort or to keep it) and your hand as cards,
// each saying whether its effort requirement is met; a card, cell, pillar or group that a
// choice names is clicked to take that choice (or to pick out the choices naming it).
//
// Everything here reads a view exactly as the server sent it for this page's token, and
// the card and table facts in board.json next to this file (written by make_web.py).
"use strict";

(() => {
// the pages' helpers (static/common.js, loaded first)
const { el, plural, appendWinners, boardHint, addBoardStyle, fetchJson } = CityWatch;

let facts = null; // board.json, indexed
/** The effort plan being sent pillar by pillar: {levels: {pillar: level}, next: the index of
 * the pillar to send next, acted: the step its last level was sent at}. */
let plan = null;

/** The board's styles and facts (board.css and board.json), from the folder it is served from. */
async function load(base) {
  addBoardStyle(`${base}board.css`);
  const data = await fetchJson(`${base}board.json`, "board facts (board.json)");
  facts = {
    ...data,
    pillar: Object.fromEntries(data.pillars.map((p, i) => [p.name, { ...p, index: i }])),
    action: Object.fromEntries(data.action_cards.map((c) => [c.name, c])),
    crisis: Object.fromEntries(data.crisis_cards.map((c) => [c.name, c])),
  };
}

/** A seat's name as a chip and the name ("you" marked). */
function seatName(view, name) {
  const index = view.seats.findIndex((s) => s.name === name);
  const you = view.name === name ? " (you)" : "";
  return el("span", { class: `who gc-who gc-seat-${index + 1}` }, el("span", { class: "chip" }), name + you);
}

/** A pillar's name on its colour. */
function pillarTag(name, extra = "") {
  const p = facts.pillar[name];
  return el("span", { class: `gc-pillar-tag gc-p-${p ? p.index : "none"}${extra}`, text: name });
}

/** ``n`` of ``max`` pips, filled up to ``n`` (``extra``: a class for the filled ones). */
function pips(n, max, extra = "") {
  const box = el("span", { class: "gc-pips", "aria-label": `${n} of ${max}` });
  for (let i = 1; i <= max; i += 1) {
    box.append(el("span", { class: `gc-pip${i <= n ? ` on${extra}` : ""}` }));
  }
  return box;
}

// ---- choices named by the board ---------------------------------------------------------

/** Indices of the choices naming ``name``: a field equal to it, or a list of just it. */
function naming(ctx, name) {
  if (!ctx.mine || ctx.pending) return [];
  const found = [];
  ctx.choices.forEach((choice, i) => {
    const json = choice.json;
    if (json === null || typeof json !== "object") return;
    if (Object.entries(json).some(([k, v]) => k !== "verb" &&
      (v === name || (Array.isArray(v) && v.length === 1 && v[0] === name)))) found.push(i);
  });
  return found;
}

/** Make ``node`` take the choice naming ``name`` when clicked, or pick out the several that
 * do; ``only``: a filter on the choices' JSON. */
function clickable(node, name, ctx, only = null) {
  const found = naming(ctx, name).filter((i) => !only || only(ctx.choices[i].json));
  if (!found.length) return node;
  node.classList.add("can-act");
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  node.title = found.length === 1 ? `Click: ${ctx.choices[found[0]].text}`
    : `Click to pick out the ${found.length} choices naming ${name}`;
  const go = () => {
    if (found.length === 1) ctx.act(found[0]);
    else ctx.pick(name);
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      go();
    }
  });
  return node;
}

// ---- cards ------------------------------------------------------------------------------

/** An Action card's face (``face``: as the view gives it; ``extra``: more classes). */
function actionCard(face, extra = "") {
  const p = facts.pillar[face.pillar];
  const kind = face.kind === "galvanised_people" ? "Galvanised People"
    : face.kind === "special_intelligence" ? "Special Intelligence" : "Action";
  return el("div", { class: `gc-card gc-action-card gc-p-${p ? p.index : "none"}${extra}`, "data-card": face.name },
    el("div", { class: "gc-card-head" },
      el("span", { class: "gc-card-pillar", text: p ? p.short : "" }),
      el("strong", { class: "gc-card-name", text: face.name })),
    el("div", { class: "gc-card-need" }, `${kind} · needs `, pillarTag(face.pillar), ` ${face.min_effort}+`,
      face.lasting ? " · lasting" : ""),
    el("div", { class: "gc-card-text", text: face.text }));
}

/** A Crisis or Subversive card's face. */
function crisisCard(face, extra = "") {
  const subversive = face.kind === "subversive";
  return el("div", { class: `gc-card gc-crisis-card${subversive ? " gc-subversive" : ""}${extra}`, "data-card": face.name },
    el("div", { class: "gc-card-head" },
      el("span", { class: "gc-card-pillar", text: subversive ? "SUB" : "CRI" }),
      el("strong", { class: "gc-card-name", text: face.name })),
    face.pillar ? el("div", { class: "gc-card-need" }, "tests ", pillarTag(face.pillar)) : null,
    el("div", { class: "gc-card-text", text: face.text }));
}

/** Card names as a short list with each card's text on hover (newest last). */
function cardList(names, table) {
  if (!names.length) return el("span", { class: "note", text: "none" });
  return el("span", { class: "gc-names" }, ...names.map((name, i) => el("span", {
    class: "gc-name", title: table[name] ? table[name].text : name, text: `${i ? ", " : ""}${name}`,
  })));
}

// ---- the shared table: cells and the card being resolved ---------------------------------

function cellsPanel(view, ctx) {
  const max = facts.numbers.cell_max;
  const row = el("div", { class: "gc-cells" });
  for (const cell of view.cells) {
    const box = el("div", {
      class: `gc-cell${cell.eliminated ? " eliminated" : ""}${cell.frozen ? " frozen" : ""}`,
      "data-cell": cell.name,
    },
    el("div", { class: "gc-cell-name", text: cell.name }),
    el("div", { class: "gc-cell-strength" }, el("b", { class: "gc-strength", text: String(cell.strength) }),
      ` / ${max} `, pips(cell.strength, max, " threat")),
    el("div", { class: "gc-cell-state", text: cell.eliminated ? "eliminated" : cell.frozen ? "frozen: cannot rise" : "active" }));
    row.append(clickable(box, cell.name, ctx));
  }
  const status = [`Turn ${view.turn}`, view.step_name, view.result ? null : `${view.current} to act`,
    `${view.first} went first`].filter(Boolean);
  if (view.step === 2) status.push(`${plural(view.plays, "card")} played this turn`);
  const parts = [el("h2", { text: "Terrorist Cells" }), row,
    el("p", { class: "note gc-status", text: status.join(" · ") })];
  if (view.ending.length) {
    parts.push(el("p", { class: "gc-ending", text: `The game ends when this round is over: ${view.ending.join("; ")}.` }));
  }
  const resolving = el("div", { class: "gc-resolving" });
  if (view.in_play) {
    resolving.append(el("div", {}, el("div", { class: "gc-small-title" }, seatName(view, view.in_play.seat), " plays"),
      actionCard(view.in_play.card, " gc-in-play"),
      view.in_play.galvanised ? actionCard(view.in_play.galvanised, " gc-in-play") : null));
  }
  if (view.crisis) {
    resolving.append(el("div", {}, el("div", { class: "gc-small-title", text: "Crisis being resolved" }),
      crisisCard(view.crisis, " gc-in-play")));
  }
  if (resolving.childElementCount) parts.push(resolving);
  return parts;
}

// ---- the nations ------------------------------------------------------------------------

/** Issue 29: the score part by part, adding up ("Counter-Terrorism points 17 + Support left
 * 16 + Special Intelligence used 2 = 35"), each part's detail on a line below. */
function scoreTitle(seat) {
  const parts = seat.score_parts || [];
  const sum = parts.map((p, i) => (i === 0 ? `${p.label} ${p.points}`
    : `${p.points < 0 ? "−" : "+"} ${p.label} ${Math.abs(p.points)}`)).join(" ");
  return `${sum} = ${seat.score}\n` +
    parts.map((p) => `${p.label}: ${p.detail}`).join("\n");
}

function nationBox(view, seat, index, ctx) {
  const own = view.seat === index;
  const box = el("div", { class: `gc-nation${own ? " gc-own" : ""}${view.current === seat.name ? " gc-current" : ""}`, "data-seat": seat.name });
  box.append(el("div", { class: "gc-nation-head" }, seatName(view, seat.name),
    el("span", { class: "gc-deck-name", text: seat.deck.name }),
    el("span", { class: "gc-score", title: scoreTitle(seat), text: `Score ${seat.score}` })));
  const stats = el("div", { class: "gc-stats" });
  const stat = (key, value, title) => el("span", { class: "gc-stat", title }, el("span", { class: "k", text: key }), el("b", { text: String(value) }));
  stats.append(stat("CT", seat.counter_terrorism_points, "Counter-Terrorism points"),
    stat("Shield", seat.shield, "Shield: absorbs losses of support"),
    stat("Hand", seat.hand_count, "Action cards in hand"),
    stat("Actions", seat.action_deck_count, "Action deck (cards left)"),
    stat("Crises", seat.crisis_deck_count, "Crisis deck (cards left)"),
    stat("Discards", `${seat.action_discard.length}/${seat.crisis_discard.length}`, "Action / Crisis discard piles"),
    stat("Scored", seat.score_pile.length, "Score pile"),
    stat("SI", seat.special_intelligence_used, "Special Intelligence used"),
    stat("Limit", seat.action_limit, "Action cards this nation may play in Step 2"));
  box.append(stats);

  const pillars = el("div", { class: "gc-pillars" });
  facts.pillars.forEach((p, index) => {
    const printed = seat.effort[p.name];
    const effective = seat.effective_effort[p.name];
    const waiting = seat.effort_assigned && !seat.effort_assigned.includes(p.name);
    const row = el("div", { class: `gc-pillar gc-p-${index}${waiting ? " gc-unassigned" : ""}`, "data-pillar": p.name },
      el("span", { class: "gc-pillar-name", text: p.name }),
      pips(printed, facts.numbers.effort_max),
      el("b", { class: "gc-effort", text: String(printed) }),
      el("span", { class: "gc-effective", text: effective !== printed ? `now ${effective}` : "" }));
    pillars.append(own ? clickable(row, p.name, ctx, (json) => json.verb !== "effort") : row);
  });
  const groups = el("div", { class: "gc-groups" });
  for (const g of facts.groups) {
    const support = seat.support[g];
    const row = el("div", { class: `gc-group${support === 0 ? " left" : ""}`, "data-group": g },
      el("span", { class: "gc-group-name", text: g }),
      pips(support, facts.numbers.group_max, " support"),
      el("b", { class: "gc-support", text: support === 0 ? "left" : String(support) }));
    groups.append(own ? clickable(row, g, ctx) : row);
  }
  box.append(el("div", { class: "gc-nation-body" },
    el("div", {}, el("div", { class: "gc-small-title", text: `National Effort (${seat.required_effort})` }), pillars),
    el("div", {}, el("div", { class: "gc-small-title", text: "Citizen Groups (support)" }), groups)));

  const extras = el("div", { class: "gc-extras" });
  if (seat.subversive) {
    const card = crisisCard(seat.subversive, " gc-active-subversive");
    extras.append(el("div", {}, el("div", { class: "gc-small-title", text: "Active Subversive" }),
      clickable(card, seat.subversive.name, ctx)));
  }
  for (const lasting of seat.lasting) {
    const what = [];
    if (lasting.protects.length) what.push(`protects ${lasting.protects.join(", ")}`);
    if (lasting.freezes.length) what.push(`freezes ${lasting.freezes.join(", ")}`);
    if (lasting.boost) what.push(`${lasting.boost.pillar} +${lasting.boost.amount}`);
    const face = facts.action[lasting.card];
    extras.append(el("div", { class: "gc-lasting", title: face ? face.text : lasting.card },
      el("strong", { text: lasting.card }), ` with ${lasting.paired}${what.length ? `: ${what.join("; ")}` : ""}`));
  }
  if (seat.known_in_hand.length && !own) {
    extras.append(el("div", { class: "note" }, "Known in hand: ", cardList(seat.known_in_hand, facts.action)));
  }
  const piles = el("details", { class: "gc-piles" }, el("summary", { text: "Discard and Score piles" }),
    el("div", {}, "Action discards: ", cardList(seat.action_discard, facts.action)),
    el("div", {}, "Crisis discards: ", cardList(seat.crisis_discard, facts.crisis)),
    el("div", {}, "Score pile: ", cardList(seat.score_pile, facts.action)));
  extras.append(piles);
  box.append(extras);
  return box;
}

// ---- your side: effort controls and hand -------------------------------------------------

/** The effort choices of the decision shown: {pillar, levels: {level: index}, keep} or null. */
function effortChoices(ctx) {
  if (!ctx.mine) return null;
  let pillar = null;
  const levels = {};
  let keep = null;
  ctx.choices.forEach((choice, i) => {
    const json = choice.json || {};
    if (json.verb === "effort") {
      pillar = json.pillar;
      levels[json.level] = i;
    } else if (json.verb === "keep_effort") {
      keep = i;
    }
  });
  return pillar === null && keep === null ? null : { pillar, levels, keep };
}

/** Send the planned level of the pillar asked for now (once per step, pillar after pillar);
 * drop the plan once it is done or the choices no longer allow it. */
function followPlan(ctx, choices) {
  if (!plan || ctx.pending || plan.acted === ctx.step) return;
  const expected = facts.pillars[plan.next] ? facts.pillars[plan.next].name : null;
  const index = choices && expected && choices.pillar === expected
    ? choices.levels[plan.levels[expected]] : undefined;
  if (index === undefined) {
    plan = null;
    return;
  }
  plan.acted = ctx.step;
  plan.next += 1;
  setTimeout(() => ctx.act(index), 0);
}

// ---- issue 29: the effort step with the facts in view ---------------------------------------

/** The effort step's row for ``name`` (your view only, while you assign), or null. */
function effortRow(view, name) {
  const step = view.own && view.own.effort_step;
  return step ? step.pillars.find((row) => row.pillar === name) || null : null;
}

/** Your cards that ``level`` in pillar ``name`` makes playable, or null outside the step. */
function playableAt(view, name, level) {
  const row = effortRow(view, name);
  return row ? row.playable[String(level)] || [] : null;
}

/** "Galvanised People (Unity)" as "Unity"; any other card keeps its name. */
function shortName(name) {
  return name.replace(/^Galvanised People \((.*)\)$/, "$1");
}

/** The pillar's cards a level's playable ``names`` add to ``seen`` (which it fills): a card
 * alone ("Raids"), a card not yet playable alone but with a Galvanised People card ("Raids +
 * Unity"), a Galvanised People card of the pillar ("Unity"). */
function newlyPlayable(row, names, seen) {
  const mine = new Set(row.cards.map((c) => c.name));
  const found = new Map();
  for (const text of names) {
    const [card, galvanised] = text.split(" with ");
    if (!galvanised && mine.has(card)) found.set(card, shortName(card));
  }
  for (const text of names) {
    const [card, galvanised] = text.split(" with ");
    if (galvanised && mine.has(card) && !found.has(card) && !seen.has(card) && !found.has(`${card}+`)) {
      found.set(`${card}+`, `${card} + ${shortName(galvanised)}`);
    }
    if (galvanised && mine.has(galvanised) && !found.has(galvanised)) found.set(galvanised, shortName(galvanised));
  }
  const fresh = [...found].filter(([key]) => !seen.has(key)).map(([, text]) => text);
  found.forEach((text, key) => seen.add(key));
  return fresh;
}

/** Beside a pillar's level buttons: the level from which each of the pillar's cards in your
 * hand becomes playable ("Raids + Unity": only with that Galvanised People card, the other
 * pillars permitting), and the cards that no level makes playable. */
function effortFacts(view, name) {
  const row = effortRow(view, name);
  if (!row) return null;
  const box = el("span", { class: "gc-effort-facts", "data-facts": name });
  const seen = new Set();
  for (const [level, names] of Object.entries(row.playable)) {
    const fresh = newlyPlayable(row, names, seen);
    if (fresh.length) {
      box.append(el("span", { class: "gc-from" }, el("b", { text: `${level}+` }), ` ${fresh.join(", ")}`));
    }
  }
  const never = row.cards.filter((c) => !seen.has(c.name) && !seen.has(`${c.name}+`));
  if (never.length) box.append(el("span", { class: "gc-from gc-never", text: `never: ${never.map((c) => shortName(c.name)).join(", ")}` }));
  if (!box.childElementCount) box.append(el("span", { class: "note", text: "no cards in hand" }));
  return box;
}

function effortPanel(view, ctx) {
  const section = document.getElementById("gc-effort");
  const choices = effortChoices(ctx);
  if (view.seat === null || view.seat === undefined || !choices) {
    section.hidden = true;
    section.replaceChildren();
    if (!ctx.pending) plan = null;
    section.dataset.plan = plan ? "yes" : "no";
    return;
  }
  section.hidden = false;
  const seat = view.seats[view.seat];
  const order = facts.pillars.map((p) => p.name);
  const at = choices.pillar ? order.indexOf(choices.pillar) : 0;
  const parts = [el("h2", { text: `Assign National Effort (${seat.required_effort})` }),
    el("p", { class: "note", text: "One click per pillar, in order; or take a whole assignment at once." })];
  const grid = el("div", { class: "gc-effort-grid" });
  order.forEach((name, k) => {
    const row = el("div", { class: `gc-effort-row gc-p-${k}${k === at && choices.pillar ? " now" : ""}` },
      el("span", { class: "gc-pillar-name", text: name }));
    for (let level = facts.numbers.effort_min; level <= facts.numbers.effort_max; level += 1) {
      const index = k === at ? choices.levels[level] : undefined;
      const planned = plan && plan.levels[name] === level;
      const playableHere = playableAt(view, name, level);
      row.append(el("button", {
        type: "button", class: `gc-level${index !== undefined ? " can-act" : ""}${planned ? " planned" : ""}` +
          `${seat.effort[name] === level ? " current" : ""}`,
        disabled: index === undefined || ctx.pending || Boolean(plan),
        "data-pillar": name, "data-level": level, text: String(level),
        title: (index !== undefined ? ctx.choices[index].text : `${name} ${level}`) +
          (playableHere ? `\nPlayable: ${playableHere.length ? playableHere.join(", ") : "none of your cards"}` : ""),
        onclick: () => { if (index !== undefined) ctx.act(index); },
      }));
    }
    const factsBox = effortFacts(view, name);
    if (factsBox) {
      row.classList.add("gc-with-facts");
      row.append(factsBox);
    }
    grid.append(row);
  });
  parts.push(grid);
  const buttons = el("div", { class: "gc-effort-buttons" });
  if (choices.keep !== null) {
    const now = order.map((name) => `${name.slice(0, 3)} ${seat.effort[name]}`).join(", ");
    buttons.append(el("button", {
      type: "button", class: "gc-keep", disabled: ctx.pending, text: `Keep ${now}`,
      onclick: () => ctx.act(choices.keep),
    }));
  }
  const suggested = seat.deck.suggested_effort || {};
  const total = order.reduce((sum, name) => sum + (suggested[name] || 0), 0);
  if (at === 0 && choices.pillar && total === seat.required_effort &&
    choices.levels[suggested[order[0]]] !== undefined) {
    buttons.append(el("button", {
      type: "button", class: "gc-suggested", disabled: ctx.pending || Boolean(plan),
      text: `Use the deck's plan: ${order.map((name) => `${name.slice(0, 3)} ${suggested[name]}`).join(", ")}`,
      onclick: () => {
        plan = { levels: { ...suggested }, next: 0, acted: null };
        section.dataset.plan = "yes";
        followPlan(ctx, choices);
      },
    }));
  }
  if (buttons.childElementCount) parts.push(buttons);
  section.replaceChildren(...parts);
  followPlan(ctx, choices);
  section.dataset.plan = plan ? "yes" : "no";
}

function handPanel(view, ctx) {
  const section = document.getElementById("gc-hand");
  if (!view.own) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const hand = view.own.hand;
  const cards = hand.map((face) => {
    const extra = `${face.requirement_met ? " met" : " unmet"}${face.playable_now ? " playable" : ""}`;
    const card = actionCard(face, extra);
    card.append(el("div", { class: "gc-card-foot", text: face.playable_now ? "playable now"
      : face.requirement_met ? "requirement met" : "requirement not met" }));
    return clickable(card, face.name, ctx);
  });
  section.replaceChildren(el("h2", { text: `Your hand (${hand.length})` }),
    hand.length ? el("div", { class: "gc-hand" }, ...cards) : el("p", { class: "note", text: "No Action cards in your hand." }));
}

// ---- the board module -------------------------------------------------------------------

function mount(main, side) {
  // Issue 26: the main column holds it all: the cells, the efforts to assign (when they
  // are), your hand as a strip of cards in full, the nations (yours first); the side keeps
  // the choices and the log.
  main.replaceChildren(
    el("section", { class: "panel gc-cells-panel", id: "gc-table" }),
    el("section", { id: "gc-effort", class: "panel gc-effort-panel", hidden: true }),
    el("section", { id: "gc-hand", class: "panel gc-hand-panel", hidden: true }),
    el("section", { class: "panel", id: "gc-nations-panel" },
      el("h2", { text: "Nations" }),
      el("div", { id: "gc-nations", class: "gc-nations" })),
    el("p", { id: "gc-label", class: "note gc-label" }));
  side.replaceChildren();
}

function render(view, ctx) {
  document.getElementById("gc-table").replaceChildren(...cellsPanel(view, ctx));
  document.getElementById("gc-nations").replaceChildren(...view.seats.map((seat, i) => nationBox(view, seat, i, ctx)));
  document.getElementById("gc-label").textContent = view.label;
  markMoves(ctx);
  effortPanel(view, ctx);
  handPanel(view, ctx);
}

/** Issue 26: the cells and nations each move of ``ctx.moves`` touched (the moves since this
 * seat's last decision; the replay: the decision shown) get a dashed outline in the newest
 * mover's colour and a chip per mover. */
function markMoves(ctx) {
  for (const [space, movers] of CityWatch.movesBySpace(ctx.moves)) {
    const node = document.querySelector(`#gc-table [data-cell="${CSS.escape(space)}"]`) ||
      document.querySelector(`#gc-nations [data-seat="${CSS.escape(space)}"]`);
    if (!node) continue;
    const last = movers[movers.length - 1];
    node.classList.add("gc-moved", `gc-moved-${last.replace(/[^A-Za-z0-9]+/g, "-")}`);
    node.dataset.moved = space;
    node.dataset.by = movers.join(", ");
    node.title = [node.title, `Changed by ${movers.join(" and ")}`].filter(Boolean).join("\n");
    const chips = el("span", { class: "gc-moved-by" },
      ...movers.map((by) => el("span", { class: `who who-${by.replace(/[^A-Za-z0-9]+/g, "-")}` },
        el("span", { class: "chip" }))));
    const head = node.querySelector(".gc-nation-head");
    (head || node).append(chips);
  }
}

/** The banner saying whose decision it is. */
function banner(view, ctx) {
  const decision = view.decision;
  if (!decision) return null;
  if (ctx.mine) {
    const outOfTurn = view.current !== view.name;
    const text = outOfTurn
      ? `Out of turn: it is ${view.current}'s turn, but this decision is yours: ${decision.task}.`
      : `Your decision: ${decision.task}.`;
    return el("div", { class: `banner ${outOfTurn ? "banner-interrupt" : "banner-mine"}`, text });
  }
  return el("div", { class: "banner banner-wait" }, "Waiting for ", seatName(view, decision.seat), ` to ${decision.task}.`);
}

const hint = boardHint("Click a button, a glowing card in your hand, a cell, a pillar or a group.");

function outcome(view) {
  const result = view.result;
  if (!result) return null;
  const names = view.seats.map((s) => s.name);
  const winners = result.winners.map((w) => names[w]);
  const box = el("div", { class: "outcome" });
  const head = el("h2", {}, view.name && winners.includes(view.name) ? "You win! " : "The game is over. ");
  if (winners.length) {
    appendWinners(head, winners, (w) => seatName(view, w));
  } else {
    head.append("Nobody wins.");
  }
  // Issue 26: each nation's score part by part, result and hand follow (the server's ``end``).
  box.append(head, el("p", { text: `The game ended: ${result.reason}.` }));
  return box;
}

window.CityWatchBoards["guardians-of-the-city"] = {
  load, mount, render, banner, hint, outcome,
  who: (view) => (view.name ? el("span", {}, "You play ", seatName(view, view.name)) : null),
};
})();
