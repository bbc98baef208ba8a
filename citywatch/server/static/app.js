// citywatch: the table page, /play/{token}.
//
// The page shows only what the server sends for its own token: GET /api/view/{token}
// once, then every "state" message of the WebSocket /ws/{token}. Each state redraws
// everything. Decisions go back over the WebSocket (or POST /api/act when it is down).
// Every state also says what every seat is told of the table itself ("table": practice,
// failed, notices): banners under the header, on every seat's page and the spectator's;
// which game it is (game, title, board); whether the game is over; and "options", the game's
// options not at their default (shown in the header; absent when there are none).
// "choices" are this seat's legal actions when the decision is its own: one button each.
//
// This page knows no game. A game with a board (table.board) has its board module loaded
// from /games/<game>/board.js (the interface is described in common.js) to draw the view;
// a game without one gets the generic panel: the view as collapsible JSON.
"use strict";

(() => {
  const { el } = CityWatch;
  const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const $ = (id) => document.getElementById(id);

  let current = null; // the latest {step, seat, view, log, table}
  let pending = false; // a decision was sent and its answer has not come yet
  let highlighted = new Set(); // action indices picked out by clicking the board or a card
  let socket = null;
  let attempts = 0; // reconnection attempts since the last state message
  let retryTimer = null;
  let fatal = false;
  let board = undefined; // the game's board module; null: the generic panel; undefined: not yet
  let preparing = null; // the promise of the board being loaded
  const jsonState = { closed: new Set(), opened: new Set() }; // the generic panel's folds

  // ---- connection -----------------------------------------------------------------

  async function start() {
    try {
      const response = await fetch(`/api/view/${encodeURIComponent(token)}`);
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        stop(body.error || `the server answered ${response.status}`);
        return;
      }
      accept(body);
    } catch (error) {
      showError(`Cannot load the table: ${error.message}. Retrying…`, "connection");
    }
    connect();
  }

  function connect() {
    if (fatal) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(token)}`);
    setStatus("connecting", "connecting…");
    socket.onopen = () => showConnected();
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "state") {
        clearError("connection");
        attempts = 0;
        accept(message);
      } else if (message.type === "error") {
        refused(message.error, message.step);
      }
    };
    socket.onclose = (event) => {
      socket = null;
      if (event.code === 4404) {
        stop(event.reason || "This link does not belong to any table.");
        return;
      }
      pending = false;
      scheduleReconnect();
    };
  }

  function scheduleReconnect() {
    if (fatal || retryTimer) return;
    const delay = Math.min(10000, 500 * 2 ** attempts);
    attempts += 1;
    setStatus("offline", `connection lost: reconnecting in ${Math.round(delay / 100) / 10} s`);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect();
    }, delay);
    if (current) render();
  }

  function stop(message) {
    fatal = true;
    setStatus("offline", "no connection");
    $("banner").replaceChildren(el("div", { class: "banner banner-error", text: message }));
  }

  function setStatus(kind, text) {
    const status = $("status");
    status.className = `status status-${kind}`;
    status.textContent = text;
  }

  /** The status of a working connection: "live", or "failed" once the table has failed. */
  function showConnected() {
    if (failed()) setStatus("failed", "table failed");
    else setStatus("live", "live");
  }

  /** The sentence saying why the table failed, or null while it has not. */
  function failed() {
    return current && current.table.failed ? current.table.failed : null;
  }

  /** A new state from the server: keep it unless it is older than the one shown. */
  function accept(message) {
    if (current && message.step < current.step) return;
    const advanced = !current || message.step !== current.step;
    const table = message.table || {};
    const choices = Array.isArray(message.choices) ? message.choices : [];
    current = {
      step: message.step, seat: message.seat, view: message.view, log: message.log,
      choices: choices.map((c) => ({ text: String(c.text), json: c.json })),
      table: {
        practice: table.practice === true,
        failed: typeof table.failed === "string" && table.failed ? table.failed : null,
        notices: Array.isArray(table.notices) ? table.notices.map(String) : [],
        over: table.over === true,
        options: table.options && typeof table.options === "object" ? table.options : {},
      },
    };
    pending = false;
    if (advanced) highlighted = new Set();
    if (failed() || (socket && socket.readyState === WebSocket.OPEN)) showConnected();
    if (board === undefined) {
      if (!preparing) preparing = prepare(table).then(() => { if (current) render(); });
      return;
    }
    render();
  }

  /** Load the board module of the table's game (once), or choose the generic panel. */
  async function prepare(table) {
    const game = typeof table.game === "string" ? table.game : "";
    const title = typeof table.title === "string" && table.title ? table.title : game;
    document.body.dataset.game = game;
    $("game-name").textContent = title;
    document.title = `${title} · citywatch`;
    const loaded = table.board === true && game ? await CityWatch.loadBoard(game) : null;
    board = loaded;
    document.body.dataset.board = board ? "yes" : "no";
    if (board) board.mount($("game-main"), $("game-side"));
    else $("generic-panel").hidden = false;
  }

  /** The server refused a decision: say why; resynchronise if the table moved on. */
  async function refused(error, step) {
    pending = false;
    const behind = current && typeof step === "number" && step !== current.step;
    showError(`The server refused your decision: ${error}` +
      (behind ? ". The page now shows the table as it is." : ""));
    if (behind) await refetch();
    else if (current) render();
  }

  async function refetch() {
    try {
      const response = await fetch(`/api/view/${encodeURIComponent(token)}`);
      if (response.ok) accept(await response.json());
    } catch {
      // the WebSocket's next state message will resynchronise
    }
  }

  /** Send choice ``index`` of the current state. */
  async function act(index) {
    const choice = current && current.choices[index];
    if (pending || !choice || failed() || fatal) return;
    pending = true;
    clearError();
    render();
    const step = current.step;
    const action = choice.json;
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "act", step, action }));
      return;
    }
    try {
      const response = await fetch(`/api/act/${encodeURIComponent(token)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ step, action }),
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        await refused(body.error || `the server answered ${response.status}`, null);
        await refetch();
        return;
      }
      await refetch();
    } catch (error) {
      pending = false;
      showError(`Could not send the decision (${error.message}); reconnecting…`, "connection");
      render();
    }
  }

  // ---- picking actions from the board ----------------------------------------------

  /** Indices of the choices whose JSON names ``name`` (e.g. an area or a card), while a
   * decision of this page's can be taken. */
  function mentioning(name) {
    if (!myDecision() || pending) return [];
    const found = [];
    current.choices.forEach((choice, i) => {
      const json = choice.json;
      if (json !== null && typeof json === "object" &&
        Object.entries(json).some(([k, v]) => k !== "verb" && v === name)) found.push(i);
    });
    return found;
  }

  function pick(name) {
    const found = mentioning(name);
    if (found.length === 1) {
      act(found[0]);
      return;
    }
    highlighted = new Set(found);
    render();
    const first = document.querySelector("#actions .action.highlight");
    if (first) first.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  // ---- drawing ----------------------------------------------------------------------

  /** True while a decision of this page's can be taken. */
  function myDecision() {
    return Boolean(current && current.choices.length && !current.table.over && !failed());
  }

  /** What the board module is told with every view (see common.js). */
  function context() {
    const mine = myDecision();
    return {
      page: "table", seat: current.seat, step: current.step, over: current.table.over,
      mine, pending, choices: mine ? current.choices : [], highlighted,
      naming: mentioning, pick, act, log: current.log || [],
    };
  }

  function render() {
    if (board === undefined) return;
    const { view } = current;
    const mine = myDecision();
    const ctx = context();
    document.body.dataset.step = String(current.step);
    document.body.dataset.pending = pending ? "yes" : "no";
    document.body.dataset.mine = mine ? "yes" : "no";
    document.body.dataset.practice = current.table.practice ? "yes" : "no";
    document.body.dataset.failed = failed() ? "yes" : "no";
    document.body.dataset.over = current.table.over ? "yes" : "no";
    const prefix = failed() ? "Failed · " : mine ? "● Your decision · " : "";
    document.title = `${prefix}${$("game-name").textContent} · citywatch`;
    renderHeader(view);
    renderBanner(view, ctx);
    renderActions(view, ctx);
    if (board) board.render(view, ctx);
    else $("generic-view").replaceChildren(CityWatch.jsonTree(view, jsonState));
    CityWatch.fillLog($("log"), current.log);
    renderResult(view);
  }

  function renderHeader(view) {
    const options = Object.entries(current.table.options);
    const shown = $("table-options");
    shown.textContent = options.map(([name, value]) => `${name} ${value}`).join(" · ");
    shown.hidden = options.length === 0;
    const who = $("who");
    const mine = board && board.who ? board.who(view) : null;
    if (current.seat === null) {
      who.replaceChildren(el("span", { class: "spectator", text: "Spectator: public information only" }));
    } else if (mine) {
      who.replaceChildren(mine);
    } else {
      who.replaceChildren(`You play seat ${current.seat + 1}`);
    }
  }

  /** The banners under the header: a failure (instead of whose decision it is), the
   * practice warning, the table's notices, then whose decision it is. */
  function renderBanner(view, ctx) {
    if (fatal) return;
    const { table } = current;
    const banners = [];
    if (table.failed) {
      banners.push(el("div", {
        class: "banner banner-error banner-failed", role: "alert", "data-kind": "failed",
      }, el("span", {}, el("strong", { text: "This table has failed: " }),
        CityWatch.sentence(table.failed), " No decision can be taken any more.")));
    }
    if (table.practice) {
      banners.push(el("div", { class: "banner banner-practice", "data-kind": "practice" },
        el("strong", { text: "Practice table:" }),
        " its seed was chosen, so anyone who knows it can know every hidden card."));
    }
    for (const notice of table.notices) {
      banners.push(el("div", {
        class: "banner banner-notice", role: "status", "data-kind": "notice", text: notice,
      }));
    }
    if (!table.failed) banners.push(turnBanner(view, ctx));
    $("banner").replaceChildren(...banners);
  }

  /** The banner saying whose decision it is (or that the game is over): the board's, or
   * the generic one. */
  function turnBanner(view, ctx) {
    if (current.table.over) {
      return el("div", { class: "banner banner-over", text: "The game is over." });
    }
    const own = board && board.banner ? board.banner(view, ctx) : null;
    if (own) return own;
    if (ctx.mine) {
      return el("div", { class: "banner banner-mine", text: "Your decision: pick one of your choices." });
    }
    return el("div", { class: "banner banner-wait", text: "Waiting for the table…" });
  }

  function renderActions(view, ctx) {
    const box = $("decision");
    const list = $("actions");
    const hint = $("hint");
    box.classList.toggle("active", ctx.mine);
    if (failed()) {
      // No decision can be taken any more: no buttons, and the banner says why.
      box.hidden = true;
      list.replaceChildren();
      hint.textContent = "";
      return;
    }
    if (!ctx.mine) {
      box.hidden = current.seat === null || current.table.over;
      list.replaceChildren();
      const own = board && board.hint && current.seat !== null ? board.hint(view, ctx) : null;
      hint.textContent = current.seat === null ? "" : own ||
        "Your buttons appear here when a decision is yours.";
      return;
    }
    box.hidden = false;
    const own = board && board.hint ? board.hint(view, ctx) : null;
    hint.textContent = pending
      ? "Sent; waiting for the table…"
      : highlighted.size
        ? "Several choices name what you clicked: pick one of the highlighted buttons."
        : own || "Click a button.";
    list.replaceChildren(...current.choices.map((choice, i) => el("button", {
      type: "button",
      class: `action${highlighted.has(i) ? " highlight" : ""}`,
      "data-index": i,
      disabled: pending,
      onclick: () => act(i),
    }, board && board.label ? board.label(choice.text) : choice.text)));
  }

  /** Once the game is over: the board's outcome box (or a sentence), the replay and the
   * record. */
  function renderResult(view) {
    const box = $("result");
    if (!current.table.over) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const t = encodeURIComponent(token);
    const outcome = board && board.outcome ? board.outcome(view) : null;
    box.replaceChildren(outcome || el("h2", { text: "The game is over." }),
      el("p", { class: "links" },
      el("a", { href: `/replay/${t}`, class: "button-link", text: "Watch the replay" }), " ",
      el("a", { href: `/api/record/${t}`, download: "citywatch-game.json", class: "button-link",
        text: "Download the record" })));
  }

  /** Show an error until the next decision is sent (or, for ``connection`` errors, until
   * the next state arrives) or the reader dismisses it. */
  function showError(message, kind = "decision") {
    $("error").replaceChildren(el("div", {
      class: "banner banner-error", role: "alert", "data-kind": kind,
    }, el("span", { text: message }), el("button", {
      type: "button", class: "dismiss", title: "Dismiss", onclick: () => clearError(), text: "×",
    })));
  }

  /** Remove the error shown (only if it is of ``kind``, when given). */
  function clearError(kind) {
    const shown = $("error").firstElementChild;
    if (shown && (!kind || shown.dataset.kind === kind)) $("error").replaceChildren();
  }

  start();
})();
