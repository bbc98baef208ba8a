// citywatch: the replay page, /replay/{id}, where {id} is the table's public replay id
// (issue 26: it carries no seat, so the link can be shared; a seat's old /replay/{token}
// link is redirected here by the server).
//
// The board after k actions comes from GET /api/replay/{id}?step=k:
// {"step": k, "steps": total so far, "over": whether the game has ended, "table": what every
// seat is told of the table (game, title, board, colours, names), "view": <public view>,
// "log": <public log>, "action": <text of action k, once the game is over>, "by": <colour of
// the seat that took it>, "end": <the end screen's breakdown, at the last step of a finished
// game>} ("action" and "by" null at step 0). During the game the page shows what a spectator
// saw up to now, without the decisions' texts (a hidden choice stays hidden). Once it is over
// the record (GET /api/record/{id}) can be downloaded. The game's board module draws the view
// as on the table page (see common.js), else the view is shown as JSON.
// Issue 31: a timed table's step also has "clock": its rule ({kind, move, reserve, stand_in}),
// "reserves" (each seat's reserve after the step) and how the step's decision was taken:
// "took" (seconds a person took) or "stood_in" (the stand-in's level: the person's time had
// run out). The page shows each person's reserve after the step and "took 12 s" or "decided
// by the stand-in (easy)" beside the decision.
"use strict";

(() => {
  const { el } = CityWatch;
  const key = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const k0 = encodeURIComponent(key);
  const $ = (id) => document.getElementById(id);

  let steps = 0;
  let over = false;
  let table = null; // what the table tells every seat, from the first answer
  let wanted = 0; // the step asked for last (answers for other steps are dropped)
  const cache = new Map(); // step -> replay answer
  let board = null; // the game's board module, or null: the generic panel
  const jsonState = { closed: new Set(), opened: new Set() };

  async function start() {
    let first;
    try {
      first = await fetchStep(0);
    } catch (error) {
      banner(error.message);
      disable();
      return;
    }
    steps = first.steps;
    over = first.over === true;
    table = first.table || {};
    await prepare(table);
    $("slider").max = String(steps);
    const players = Array.isArray(table.colours) ? table.colours.length : 0;
    $("about").textContent = `${CityWatch.plural(players, "player")}, ` +
      `${CityWatch.plural(steps, "decision")}${over ? "" : " so far"}.`;
    if (over) {
      $("download").href = `/api/record/${k0}`;
      $("analysis-link").href = `/analysis/${k0}`; // issue 30: the coach's analysis
      $("analysis-link").hidden = false;
    } else {
      $("download").hidden = true;
      $("banner").replaceChildren(el("div", { class: "banner banner-notice", "data-kind": "live" },
        el("span", {
          text: "This game is still being played: the replay shows what a spectator saw, up to " +
            "now, without the players' hidden choices. Reload the page for newer moves.",
        })));
    }
    const fromHash = Number(location.hash.slice(1));
    go(Number.isInteger(fromHash) && fromHash >= 0 && fromHash <= steps ? fromHash : 0);
  }

  /** The game's title, and its board module if it has one (else the generic panel). */
  async function prepare(about) {
    const name = typeof about.game === "string" ? about.game : "";
    const title = typeof about.title === "string" && about.title ? about.title : name;
    $("game-name").textContent = `${title} · replay`;
    document.title = `Replay · ${title} · citywatch`;
    board = about.board === true && name ? await CityWatch.loadBoard(name) : null;
    document.body.dataset.board = board ? "yes" : "no";
    if (board) board.mount($("game-main"), $("game-side"));
    else $("generic-panel").hidden = false;
  }

  function banner(message, ...extra) {
    $("banner").replaceChildren(el("div", { class: "banner banner-error" },
      el("span", { text: message }), ...extra));
  }

  function disable() {
    for (const id of ["first", "prev", "next", "last", "slider"]) $(id).disabled = true;
  }

  async function fetchStep(k) {
    if (cache.has(k)) return cache.get(k);
    const response = await fetch(`/api/replay/${k0}?step=${k}`);
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
    cache.set(k, body);
    return body;
  }

  /** Show step ``k``: the board after k actions and the action that led there. */
  async function go(k) {
    k = Math.max(0, Math.min(steps, k));
    wanted = k;
    updateControls(k);
    let answer;
    try {
      answer = await fetchStep(k);
    } catch (error) {
      if (wanted !== k) return;
      banner(`Cannot show the board at step ${k}: ${error.message}`);
      document.body.dataset.step = String(k);
      return;
    }
    if (wanted !== k) return;
    if (over) $("banner").replaceChildren();
    document.body.dataset.step = String(k);
    draw(answer);
    if (location.hash !== `#${k}`) history.replaceState(null, "", `#${k}`);
    // Fetch the neighbours ahead of time so stepping feels instant.
    for (const n of [k + 1, k - 1]) {
      if (n >= 0 && n <= steps && !cache.has(n)) fetchStep(n).catch(() => {});
    }
  }

  function updateControls(k) {
    $("counter").textContent = `Step ${k} / ${steps}`;
    $("slider").value = String(k);
    $("first").disabled = $("prev").disabled = k === 0;
    $("next").disabled = $("last").disabled = k === steps;
    if (k === 0) $("action").textContent = "The start of the game, before any decision.";
  }

  function draw(answer) {
    const view = answer.view;
    if (answer.step > 0) {
      const line = [el("strong", { text: `Decision ${answer.step}: ` })];
      if (answer.by) line.push(CityWatch.colourName(answer.by), answer.action ? ": " : "");
      line.push(answer.action || (over ? "" : " (shown once the game is over)"));
      // issue 30: a hint asked before this decision (its step: the decisions before it)
      const hints = Array.isArray(table.hints) ? table.hints : [];
      if (hints.some((h) => h && h.step === answer.step - 1)) {
        line.push(el("span", { class: "replay-hint", text: " (after asking the coach for a hint)" }));
      }
      const mark = clockMark(answer.clock);
      if (mark) line.push(el("span", { class: "replay-took", text: ` (${mark})` }));
      $("action").replaceChildren(...line);
    }
    drawClock(answer);
    const last = answer.over === true && answer.step === answer.steps;
    if (board) {
      board.render(view, {
        page: "replay", seat: null, step: answer.step, over: last, mine: false, pending: false,
        choices: [], highlighted: new Set(), naming: () => [], pick: () => {}, act: () => {},
        log: answer.log, last_move: answer.last_move || null,
        moves: Array.isArray(answer.moves) ? answer.moves : [], // issue 26: this decision's marks
      });
    } else {
      $("generic-view").replaceChildren(CityWatch.jsonTree(view, jsonState));
    }
    const log = $("log");
    log.replaceChildren();
    CityWatch.fillLog(log, answer.log);
    const result = $("result");
    result.hidden = !last;
    if (last) {
      const outcome = board && board.outcome ? board.outcome(view) : null;
      const names = answer.table && Array.isArray(answer.table.names) ? answer.table.names : [];
      result.replaceChildren(outcome || el("h2", { text: "The game is over." }),
        CityWatch.endScores(answer.end, names) || "");
    }
  }

  // ---- issue 31: the clocks ----

  const clockText = CityWatch.clockText;

  /** How long a decision took in words: "12 s", "3 min 5 s", "5 h 20 min". */
  function tookText(seconds) {
    const whole = Math.max(0, Math.round(seconds));
    const part = (n, unit) => (n ? ` ${n} ${unit}` : "");
    if (whole < 60) return `${whole} s`;
    if (whole < 3600) return `${Math.floor(whole / 60)} min${part(whole % 60, "s")}`;
    return `${Math.floor(whole / 3600)} h${part(Math.floor((whole % 3600) / 60), "min")}`;
  }

  /** "took 12 s" or "decided by the stand-in (easy)" for a step's clock, else null. */
  function clockMark(clock) {
    if (!clock || typeof clock !== "object") return null;
    if (typeof clock.took === "number" && Number.isFinite(clock.took)) {
      return `took ${tookText(clock.took)}`;
    }
    if (typeof clock.stood_in === "string" && clock.stood_in) {
      return `decided by the stand-in (${CityWatch.botLabel(clock.stood_in)})`;
    }
    return null;
  }

  /** Each person's reserve after the step (a live clock), or the turn-based rule. */
  function drawClock(answer) {
    const shown = $("replay-clock");
    const clock = answer.clock;
    shown.hidden = !clock || typeof clock !== "object";
    if (shown.hidden) return;
    const about = answer.table || {};
    const colours = Array.isArray(about.colours) ? about.colours : [];
    const bots = Array.isArray(about.bots) ? about.bots : [];
    if (clock.kind !== "live") {
      shown.textContent = `${CityWatch.clockRuleText(clock)}.`;
      return;
    }
    const reserves = Array.isArray(clock.reserves) ? clock.reserves : [];
    const seats = colours.map((colour, i) => [colour, i]).filter(([, i]) => !bots[i]);
    shown.textContent = `Live clock, reserves after this decision: ${seats.map(([colour, i]) =>
      `${colour} ${clockText(Number(reserves[i]) || 0)}`).join(" · ")}`;
  }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(wanted - 1));
  $("next").addEventListener("click", () => go(wanted + 1));
  $("last").addEventListener("click", () => go(steps));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  document.addEventListener("keydown", (event) => {
    if (!table || event.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 0, End: steps };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  });
  start();
})();
