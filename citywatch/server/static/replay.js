// citywatch: the replay page, /replay/{token}, for a finished game.
//
// The record (GET /api/record/{token}) gives the number of steps and the actions; the
// board after k actions comes from GET /api/replay/{token}?step=k:
// {"step": k, "steps": total, "view": <public view>, "log": <public log>,
//  "action": <text of action k>, "by": <colour of the seat that took it>} (the last two
// null at step 0; without them the page words the record's action JSON itself).
// The record names the game; GET /api/games says its title and whether it has a board
// module (drawn as on the table page, see common.js), else the view is shown as JSON.
"use strict";

(() => {
  const { el } = CityWatch;
  const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const t = encodeURIComponent(token);
  const $ = (id) => document.getElementById(id);

  let record = null;
  let steps = 0;
  let wanted = 0; // the step asked for last (answers for other steps are dropped)
  const cache = new Map(); // step -> replay answer
  let board = null; // the game's board module, or null: the generic panel
  const jsonState = { closed: new Set(), opened: new Set() };

  async function start() {
    $("download").href = `/api/record/${t}`;
    try {
      const response = await fetch(`/api/record/${t}`);
      const body = await response.json().catch(() => ({}));
      if (response.status === 409) {
        banner("This game is not over yet: its replay opens once it has ended.",
          el("a", { href: `/play/${t}`, text: "Back to the table" }));
        disable();
        return;
      }
      if (!response.ok) {
        banner(body.error || `The server answered ${response.status}.`);
        disable();
        return;
      }
      record = body;
    } catch (error) {
      banner(`Cannot load the record: ${error.message}`);
      disable();
      return;
    }
    await prepare(record.game);
    steps = record.actions.length;
    $("slider").max = String(steps);
    $("about").textContent = `${record.players} players, seed ${record.seed}, ${steps} decisions.`;
    const fromHash = Number(location.hash.slice(1));
    go(Number.isInteger(fromHash) && fromHash >= 0 && fromHash <= steps ? fromHash : 0);
  }

  /** The game's title, and its board module if it has one (else the generic panel). */
  async function prepare(name) {
    let about = null;
    try {
      const response = await fetch("/api/games");
      if (response.ok) about = (await response.json()).find((g) => g.name === name) || null;
    } catch {
      // without the list of games: the generic panel and the game's registry name
    }
    const title = about ? about.title : String(name || "");
    $("game-name").textContent = `${title} · replay`;
    document.title = `Replay · ${title} · citywatch`;
    board = about && about.board ? await CityWatch.loadBoard(name) : null;
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
    const response = await fetch(`/api/replay/${t}?step=${k}`);
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
    $("banner").replaceChildren();
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
    const action = $("action");
    if (k === 0) {
      action.textContent = "The start of the game, before any decision.";
    } else {
      action.replaceChildren(el("strong", { text: `Decision ${k}: ` }),
        actionText(record.actions[k - 1]));
    }
  }

  function draw(answer) {
    const view = answer.view;
    if (answer.step > 0 && answer.action) {
      const line = [el("strong", { text: `Decision ${answer.step}: ` })];
      if (answer.by) line.push(CityWatch.colourName(answer.by), ": ");
      line.push(answer.action);
      $("action").replaceChildren(...line);
    }
    const over = answer.step === answer.steps;
    if (board) {
      board.render(view, {
        page: "replay", seat: null, step: answer.step, over, mine: false, pending: false,
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
    result.hidden = !over;
    if (over) {
      const outcome = board && board.outcome ? board.outcome(view) : null;
      result.replaceChildren(outcome || el("h2", { text: "The game is over." }));
    }
  }

  /** An action's JSON in words, when the server did not send its text. */
  function actionText(action) {
    if (typeof action !== "object" || action === null) return String(action);
    const { verb, ...rest } = action;
    const words = String(verb || "action").replace(/_/g, " ");
    const values = Object.values(rest);
    return values.length ? `${words}: ${values.join(", ")}` : words;
  }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(wanted - 1));
  $("next").addEventListener("click", () => go(wanted + 1));
  $("last").addEventListener("click", () => go(steps));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  document.addEventListener("keydown", (event) => {
    if (!record || event.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 0, End: steps };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  });
  start();
})();
