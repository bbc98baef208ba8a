// citywatch: the table page, /play/{token}.
//
// The page shows only what the server sends for its own token: GET /api/view/{token}
// once, then every "state" message of the WebSocket /ws/{token}. Each state redraws
// everything. Decisions go back over the WebSocket (or POST /api/act when it is down).
// Every state also says what every seat is told of the table itself ("table": practice,
// failed, notices): banners under the header, on every seat's page and the spectator's;
// which game it is (game, title, board); whether the game is over; and "options", the game's
// options not at their default (shown in the header; absent when there are none).
// "choices" are this seat's legal actions when the decision is its own ({text, json}; the
// game's usual choice also has "usual": true, and "never_hurts": true when it can never hurt).
//
// Issue 16: the usual choice is the first, marked button (Enter takes it); with the setting
// "Take what can never hurt without asking" (remembered in localStorage; on until the person
// turns it off, issue 26) the page takes a never-hurts usual choice itself after a short
// visible pause and says so. A decision with more
// than LIMIT choices is taken in steps: the verb first (if there are several), then each field
// of the action's JSON in key order, offering only values that still lead to a legal action
// (a field with one value left is skipped); board clicks narrow the same way; "Back" undoes a
// step. Issue 26: every move since the person's last decision ("moves", from the server: who
// moved, the places it touched, every line of it in the person's own log) heads the choices
// panel in full, the lines naming the person first; the board marks each mover's places. A
// decision auto-take took for the person does not end the list: it counts from the person's
// last decision by hand (on this page).
//
// Issue 27: a choice may be a plan ("steps": a run of the seat's decisions, such as walking to
// a place clicked on the map). Choosing it sends its first step; each next step is sent when
// the decision is this seat's again and the step is one of its choices (other seats may decide
// in between), each an action of its own; the plan stops at the first step that is not offered,
// and "Stop" (or Escape) stops it. The moves of others during a plan stay listed.
//
// Issue 26: once the game is over the result panel shows the board's outcome box, every seat's
// points part by part with its result and what the end reveals (the state's "end", drawn by
// common.js), a rematch button (POST /api/rematch/{token}: this link's own seat at a new
// table of the same seats; "Join the rematch" once anyone set it up), the public replay link
// (table.replay: no seat in it) and the record, which the server names.
//
// Issue 30: the coach. When the table allows hints (table.hints_on) and the decision is
// this seat's, a "Hint" button beside the choices sends {"type": "hint", "step": n} over the
// WebSocket; the answer ({"type": "hint", "step", "hint": {options: [{text, json, chance}],
// best, hard, cooperative}}) comes to this page only, and each choice button gets its chance
// as a badge, the best ones highlighted and the hard level's pick marked, until the decision
// changes. A refusal comes as {"type": "hint_error", "error"}. Every hint asked at the table
// (table.hints: {step, seat}) is listed above the log on every page: "Red asked the coach for
// a hint (decision 57)". Once the game is over the result panel links the analysis page.
//
// Issue 31: the table's chat. Every state carries "chat" (the messages this page may read,
// {n, seat, text, at}: a seat's own mutes left out; the spectator's only when the table
// allows, table.spectators_chat) and "muted" (the seats this seat hides). A person's seat
// writes with {"type": "chat", "text"} (1 to 200 characters) and mutes another seat with
// {"type": "mute", "seat", "muted"}; a refusal comes as {"type": "chat_error", "error"}.
// Messages are shown as text only (textContent): nothing in them becomes markup or a link.
// The panel starts closed on small screens.
//
// Issue 31: notifications. A seat's page offers "Notify me when it is my turn" in the header
// (never a prompt on load); the answer is kept in localStorage and the page never asks again.
// With the permission granted, a state that makes the decision this seat's (it was not, on
// this page) while the tab is hidden shows a Notification "Your turn — <game title>", one per
// table (its tag), which focuses the tab when clicked; never on the spectator's page, nor for a
// plan's next step (the page takes it itself). At a turn-based table a seat's state carries
// "webhook" (true: set, false: none; null elsewhere): the "Told elsewhere" panel sends an
// address with POST /api/webhook/{token} ({"url": "..."}, or null to remove it).
//
// Issue 31: the clocks. A timed table's every state carries table.clock ({kind, move,
// reserve, stand_in, reserves, running, deadline, away, now, waiting}, see
// citywatch/server/clocks.py). The seats strip shows the rule and, beside each person's seat,
// its reserve; the running seat's time counts down each second: the time per decision first,
// then the reserve ("0:12 + 4:59"), red under CLOCK_LOW seconds on a live clock; a turn-based
// clock shows the time left to the deadline ("23 h 10 min", or its date when days away). The
// countdown reads the server's time: "now" corrects for the gap between the server's clock
// and the browser's when the state arrives. A seat the stand-in plays reads "stand-in
// (easy)"; on its own page a banner says so with "Take my seat back", which sends
// {"type": "back"} once (a refusal comes as {"type": "error"}). While a public table waits
// for its free seats, the strip says the clock starts when every seat is taken.
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
  let highlighted = new Set(); // action indices left by the steps taken (empty: no step taken)
  let picks = []; // the steps taken in the current decision: {field, key, raw, label}
  let autoTimer = null; // the pending auto-take (see autoTake)
  let autoFor = null; // the step the pending auto-take is for
  let declined = null; // the step whose auto-take the person declined ("Let me choose")
  let takenForYou = []; // texts of the choices taken for the person since its last own decision
  let movesBefore = []; // issue 26: the moves shown before decisions taken for the person
  let autoTaken = 0; // decisions taken for the person on this page
  let walking = null; // issue 27: the plan being followed, {text, steps, next} (null: none)
  let coach = null; // issue 30: the hint of this decision, {step, thinking, hint, error}
  let chatShown = ""; // issue 31: the key of the messages drawn (redrawn only when it changes)
  let chatUnread = 0; // issue 31: messages that came while the panel was closed
  const CHAT_LONGEST = 200; // issue 31: the most characters of a message (the server's bound)
  let clockSkew = 0; // issue 31: the server's clock minus the browser's, in milliseconds
  let takingBack = false; // issue 31: "Take my seat back" was sent and not yet answered
  const CLOCK_TICK = 250; // issue 31: how often the clocks are read again (milliseconds)
  const CLOCK_LOW = 10; // issue 31: seconds left under which a live clock shows red
  let socket = null;
  let attempts = 0; // reconnection attempts since the last state message
  let retryTimer = null;
  let fatal = false;
  let board = undefined; // the game's board module; null: the generic panel; undefined: not yet
  let preparing = null; // the promise of the board being loaded
  const jsonState = { closed: new Set(), opened: new Set() }; // the generic panel's folds
  const LIMIT = 13; // the most choices shown as buttons at once; more are taken in steps
  const AUTO_PAUSE = 900; // milliseconds shown before a never-hurts choice is taken unasked
  const AUTO_KEY = "citywatch.autoTake"; // localStorage: "yes" or "no", as the person set it
  const AUTO_DEFAULT = true; // issue 26: what never hurts is taken unless the person says no
  let autoChosen = null; // the setting chosen on this page (kept if storage is refused)
  const NAME_KEY = "citywatch.name"; // localStorage: the name last given (also by the start page)
  const SKIP_KEY = "citywatch.nameSkipped."; // localStorage + token: "yes" once naming was skipped
  let naming = false; // the name form is open because the person asked to change the name
  let nameSaving = false; // a name was sent and its answer has not come yet
  let skipped = false; // naming was skipped on this page (kept even if storage is refused)
  const NOTIFY_KEY = "citywatch.notify"; // issue 31, localStorage: the permission's answer
  let notifyAsked = false; // issue 31: asked on this page (kept even if storage is refused)
  let webhookNote = null; // issue 31: the answer to the last webhook saved, {text, error}
  let webhookSaving = false;

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
      } else if (message.type === "error" && takingBack) {
        backRefused(message.error);
      } else if (message.type === "error") {
        refused(message.error, message.step);
      } else if (message.type === "hint" || message.type === "hint_error") {
        coached(message);
      } else if (message.type === "chat_error") {
        chatRefused(message.error);
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
    const wasMine = current ? myDecision() : null; // issue 31: null before the first state
    const table = message.table || {};
    const choices = Array.isArray(message.choices) ? message.choices : [];
    current = {
      step: message.step, seat: message.seat, view: message.view, log: message.log,
      last_move: message.last_move || null, // issue 16: public, beside the view
      end: message.end && typeof message.end === "object" ? message.end : null, // issue 26
      moves: Array.isArray(message.moves) ? message.moves : [], // issue 26: since the last decision
      chat: Array.isArray(message.chat) ? message.chat.filter( // issue 31
        (m) => m && Number.isInteger(m.n) && Number.isInteger(m.seat) &&
          typeof m.text === "string") : [],
      muted: Array.isArray(message.muted) ? message.muted.filter(Number.isInteger) : [],
      webhook: typeof message.webhook === "boolean" ? message.webhook : null, // issue 31
      title: typeof table.title === "string" ? table.title : "",
      choices: choices.map((c) => ({
        text: String(c.text), json: c.json, usual: c.usual === true,
        never_hurts: c.usual === true && c.never_hurts === true,
        steps: Array.isArray(c.steps) && c.steps.length ? c.steps : null, // issue 27: a plan
      })),
      table: {
        practice: table.practice === true,
        failed: typeof table.failed === "string" && table.failed ? table.failed : null,
        notices: Array.isArray(table.notices) ? table.notices.map(String) : [],
        over: table.over === true,
        options: table.options && typeof table.options === "object" ? table.options : {},
        replay: typeof table.replay === "string" ? table.replay : "", // issue 26
        rematch: table.rematch === true,
        hints_on: table.hints_on === true, // issue 30
        spectators_chat: table.spectators_chat === true, // issue 31
        hints: Array.isArray(table.hints) ? table.hints.filter(
          (h) => h && Number.isInteger(h.step) && Number.isInteger(h.seat)) : [],
        free: Array.isArray(table.free) ? table.free.filter(Number.isInteger) : [], // issue 31
        clock: clockOf(table.clock), // issue 31
        ...seatsOf(table),
      },
    };
    pending = false;
    const { clock } = current.table;
    if (clock) clockSkew = Date.parse(clock.now) - Date.now();
    if (!clock || !clock.away.includes(current.seat)) takingBack = false;
    if (advanced) {
      picks = [];
      highlighted = new Set();
      cancelAuto();
      if (coach && coach.step !== current.step) coach = null; // issue 30: marks vanish
    }
    if (failed() || (socket && socket.readyState === WebSocket.OPEN)) showConnected();
    if (wasMine === false && myDecision()) notifyTurn();
    if (board === undefined) {
      if (!preparing) preparing = prepare(table).then(() => { if (current) render(); });
      return;
    }
    render();
    followPlan();
  }

  /** Load the board module of the table's game (once), or choose the generic panel. */
  async function prepare(table) {
    const game = typeof table.game === "string" ? table.game : "";
    const title = typeof table.title === "string" && table.title ? table.title : game;
    document.body.dataset.game = game;
    $("game-name").textContent = title;
    if (game) $("how-to-play").href = `/how-to-play/${encodeURIComponent(game)}`;
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
    walking = null; // issue 27: a refused step ends the plan
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

  /** Send choice ``index`` of the current state; ``auto``: taken for the person by the
   * auto-take setting, not by hand. */
  async function act(index, auto = false, planStep = false) {
    const choice = current && current.choices[index];
    if (pending || !choice || failed() || fatal) return;
    cancelAuto();
    if (planStep) {
      movesBefore = movesSince(); // a plan's next step: what others did stays news
    } else if (auto) {
      autoTaken += 1;
      takenForYou.push(choice.text);
      movesBefore = movesSince(); // still news: the person did not choose by hand
    } else {
      takenForYou = [];
      movesBefore = [];
      walking = choice.steps ? { text: choice.text, steps: choice.steps, next: 1 } : null;
    }
    pending = true;
    clearError();
    render();
    const step = current.step;
    const action = choice.steps && !planStep ? choice.steps[0] : choice.json;
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

  // ---- issue 27: plans -----------------------------------------------------------------

  /** Send the next step of the plan being followed, when the decision is this seat's and
   * the step is one of its choices; else stop following (the game over, the step not
   * offered). Another seat's decision: wait for it. */
  function followPlan() {
    if (!walking || pending) return;
    if (!current || current.table.over || failed() || walking.next >= walking.steps.length) {
      stopPlan();
      return;
    }
    if (!myDecision()) return;
    const wanted = valueKey(walking.steps[walking.next]);
    const index = current.choices.findIndex((c) => !c.steps && valueKey(c.json) === wanted);
    if (index < 0) {
      stopPlan();
      return;
    }
    walking.next += 1;
    act(index, false, true);
  }

  /** Stop following the plan (the steps taken stay taken). */
  function stopPlan() {
    walking = null;
    if (current) render();
  }

  // ---- big choices in steps, and board clicks ---------------------------------------

  /** True if choice ``choice`` keeps to step ``p``: its field ``p.field`` has the value
   * picked, or (a board click, field "*") any field but the verb names ``p.raw``. */
  function keeps(choice, p) {
    const json = choice.json;
    if (json === null || typeof json !== "object") return false;
    if (p.field === "*") {
      return Object.entries(json).some(([k, v]) => k !== "verb" && v === p.raw);
    }
    return valueKey(json[p.field]) === p.key;
  }

  /** A value's key for grouping (JSON text; "" for a missing field). */
  function valueKey(value) {
    return value === undefined ? "" : JSON.stringify(value);
  }

  /** Indices of the choices left by the steps taken. */
  function remaining() {
    if (!current) return [];
    const left = [];
    current.choices.forEach((choice, i) => {
      if (picks.every((p) => keeps(choice, p))) left.push(i);
    });
    return left;
  }

  /** Whether every choice's JSON is an object (only those can be taken in steps). */
  function structured() {
    return current.choices.every((c) => c.json !== null && typeof c.json === "object" &&
      !Array.isArray(c.json));
  }

  /** The next step of a big choice among the choices ``left``: the first field (the verb
   * first, then the fields in the JSON's key order) not yet picked that still has several
   * values, as {field, groups: [{key, value, indices}]} in order of first appearance; null
   * when the choices left are few enough to show, or cannot be split. */
  function nextStep(left) {
    if (left.length <= LIMIT || !structured()) return null;
    const fields = [];
    for (const i of left) {
      for (const k of Object.keys(current.choices[i].json)) if (!fields.includes(k)) fields.push(k);
    }
    fields.sort((a, b) => (b === "verb") - (a === "verb"));
    for (const field of fields) {
      if (picks.some((p) => p.field === field)) continue;
      const groups = new Map();
      for (const i of left) {
        const value = current.choices[i].json[field];
        const key = valueKey(value);
        if (!groups.has(key)) groups.set(key, { key, value, indices: [] });
        groups.get(key).indices.push(i);
      }
      if (groups.size > 1) return { field, groups: [...groups.values()] };
    }
    return null;
  }

  /** The groups of a step shown as their choices rather than as one step button: every
   * group of one choice, then, in order, each group that still fits in LIMIT buttons (the
   * usual choice, shown first, counted once), so that a small verb costs no extra click. */
  function opened(groups, usual) {
    const open = new Set(groups.filter((g) => g.indices.length === 1));
    const count = () => (usual >= 0 ? 1 : 0) + groups.reduce((n, g) => n + (open.has(g)
      ? g.indices.filter((i) => i !== usual).length : 1), 0);
    for (const group of groups) {
      if (open.has(group)) continue;
      open.add(group);
      if (count() > LIMIT) open.delete(group);
    }
    return open;
  }

  /** A step button's words for ``group`` of ``field``: for the verb, what the group's
   * texts begin with; a name as it is; any other value after its field's name. */
  function groupLabel(field, group) {
    if (field === "verb") {
      const texts = group.indices.map((i) => current.choices[i].text.split(" "));
      const common = [];
      for (let w = 0; w < texts[0].length - 1; w += 1) {
        if (!texts.every((t) => t[w] === texts[0][w])) break;
        common.push(texts[0][w]);
      }
      if (common.length) return `${common.join(" ")} …`;
      return CityWatch.cap(String(group.value).replace(/_/g, " "));
    }
    if (group.value === undefined) return "Other choices";
    if (typeof group.value === "string") return group.value;
    const value = typeof group.value === "object" ? JSON.stringify(group.value) : group.value;
    return `${CityWatch.cap(field.replace(/_/g, " "))}: ${value}`;
  }

  /** Take the step ``p`` (stop a pending auto-take: the person is choosing). */
  function step(p) {
    if (pending) return;
    cancelAuto(true);
    picks.push(p);
    highlighted = new Set(remaining());
    render();
  }

  /** Undo the last step. */
  function back() {
    if (pending || !picks.length) return;
    picks.pop();
    highlighted = picks.length ? new Set(remaining()) : new Set();
    render();
  }

  /** Indices of the choices left whose JSON names ``name`` (e.g. an area or a card) in a
   * field other than the verb, while a decision of this page's can be taken. */
  function mentioning(name) {
    if (!myDecision() || pending) return [];
    return remaining().filter((i) => keeps(current.choices[i], { field: "*", raw: name }));
  }

  /** A click on ``name`` on the board: take the one choice left naming it, or narrow the
   * choices to those naming it (as the current step's value when it is one). */
  function pick(name) {
    const found = mentioning(name);
    if (found.length === 1) {
      act(found[0]);
      return;
    }
    const left = remaining();
    if (!found.length || found.length === left.length) return;
    const next = nextStep(left);
    const key = valueKey(name);
    if (next && next.groups.some((g) => g.key === key)) {
      step({ field: next.field, key, raw: name, label: String(name) });
    } else {
      step({ field: "*", key, raw: name, label: String(name) });
    }
    const first = document.querySelector("#actions .action");
    if (first) first.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  // ---- the usual choice and auto-take -----------------------------------------------

  /** The index of the usual choice (-1: none). */
  function usualIndex() {
    return current ? current.choices.findIndex((c) => c.usual) : -1;
  }

  /** Whether what can never hurt is taken without asking: as the person last set it,
   * else AUTO_DEFAULT. */
  function autoTakeOn() {
    try {
      const kept = localStorage.getItem(AUTO_KEY);
      if (kept === "yes" || kept === "no") return kept === "yes";
    } catch {
      // storage refused: this page's own choice, or the default
    }
    return autoChosen === null ? AUTO_DEFAULT : autoChosen;
  }

  function setAutoTake(on) {
    autoChosen = on;
    try {
      localStorage.setItem(AUTO_KEY, on ? "yes" : "no");
    } catch {
      // storage refused: the setting lasts as long as the page
    }
    declined = null;
    if (!on) cancelAuto();
    if (current) render();
  }

  /** Start the pause before taking a never-hurts usual choice for the person, when the
   * setting is on, the decision is untouched and the person has not declined it. */
  function scheduleAuto() {
    if (!autoTakeOn() || !myDecision() || pending || picks.length) return;
    const i = usualIndex();
    if (i < 0 || !current.choices[i].never_hurts || declined === current.step) return;
    if (autoTimer && autoFor === current.step) return;
    cancelAuto();
    autoFor = current.step;
    autoTimer = setTimeout(() => {
      autoTimer = null;
      if (current && current.step === autoFor && myDecision() && !pending) act(i, true);
    }, AUTO_PAUSE);
  }

  /** Stop a pending auto-take; ``byHand``: the person chose to decide this one. */
  function cancelAuto(byHand = false) {
    if (autoTimer) {
      clearTimeout(autoTimer);
      autoTimer = null;
      if (byHand) declined = autoFor;
    }
  }

  /** Enter takes the usual choice; Escape undoes a step. */
  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && target.closest && target.closest("button, a, input, select, textarea, summary")) {
      return;
    }
    if (event.key === "Escape" && walking) {
      event.preventDefault();
      stopPlan();
    } else if (event.key === "Enter" && myDecision() && !pending && !walking) {
      const i = usualIndex();
      if (i >= 0) {
        event.preventDefault();
        act(i);
      }
    } else if (event.key === "Escape" && picks.length) {
      event.preventDefault();
      back();
    }
  }

  // ---- issue 26: every move since the person's last decision -------------------------

  /** A mover's name as a chip and the name (common.js's seat colours). */
  function mover(name) {
    return el("span", { class: `who who-${String(name).replace(/[^A-Za-z0-9]+/g, "-")}` },
      el("span", { class: "chip" }), name);
  }

  /** The moves since the person's last decision by hand: the server's (since the seat's last
   * decision) after those shown before the decisions auto-take took for the person. */
  function movesSince() {
    return [...movesBefore, ...current.moves];
  }

  /** "Since your last decision": first every line naming the person, then each move in
   * full (who, the places marked on the board, every line), oldest first. */
  function renderSince(ctx) {
    const since = $("since");
    const moves = current.seat === null || current.table.over ? [] : movesSince();
    const shown = moves.filter((m) => m.lines.length || m.spaces.length);
    if (!shown.length) {
      since.hidden = true;
      since.replaceChildren();
    } else {
      since.hidden = false;
      const mentions = (m) => new Set(Array.isArray(m.mentions) ? m.mentions : []);
      const yours = shown.flatMap((m) => m.lines.filter((_, i) => mentions(m).has(i))
        .map((line) => el("li", { class: "since-line about-you", title: `In ${m.by}'s move`, text: line })));
      const list = el("ol", { class: "since-moves" }, ...shown.map((m) => {
        const named = mentions(m);
        return el("li", { class: "since-move", "data-by": m.by },
          el("div", { class: "since-head" }, mover(m.by),
            m.spaces.length ? el("span", {
              class: "since-where",
              text: ` · ${m.spaces.map((n) => (board && board.space ? board.space(n) : n)).join(", ")}`,
            }) : null),
          m.lines.length ? el("ul", {}, ...m.lines.map((line, i) => el("li", {
            class: `since-line${named.has(i) ? " about-you" : ""}`, text: line,
          }))) : null);
      }));
      const lines = shown.reduce((n, m) => n + m.lines.length, 0);
      since.replaceChildren(
        el("h3", { text: `Since your last decision (${CityWatch.plural(lines, "line")}):` }),
        ...(yours.length ? [el("div", { class: "since-you" },
          el("h4", { text: "About you:" }), el("ul", {}, ...yours))] : []),
        list);
      since.scrollTop = 0; // what names the person first
    }
    const note = $("auto-note");
    const waiting = autoTimer && ctx.mine;
    const i = usualIndex();
    if (waiting && i >= 0) {
      note.hidden = false;
      note.replaceChildren(el("span", {
        text: `Taking “${current.choices[i].text}” for you in a moment: it can never hurt.`,
      }), el("button", {
        type: "button", class: "button secondary", id: "let-me-choose",
        onclick: () => {
          cancelAuto(true);
          render();
        },
        text: "Let me choose",
      }));
    } else if (takenForYou.length) {
      note.hidden = false;
      note.replaceChildren(el("span", {
        text: `Taken for you: ${takenForYou.slice(-3).join("; ")}.`,
      }));
    } else {
      note.hidden = true;
      note.replaceChildren();
    }
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
      naming: mentioning, pick, act, log: current.log || [], last_move: current.last_move,
      moves: movesSince(),
    };
  }

  function render() {
    if (board === undefined) return;
    const { view } = current;
    const mine = myDecision();
    scheduleAuto();
    const ctx = context();
    document.body.dataset.step = String(current.step);
    document.body.dataset.pending = pending ? "yes" : "no";
    document.body.dataset.walking = walking ? "yes" : "no"; // issue 27: a plan is followed
    document.body.dataset.picks = String(picks.length);
    document.body.dataset.autotake = autoTimer && mine ? "yes" : "no";
    document.body.dataset.autotaken = String(autoTaken);
    document.body.dataset.mine = mine ? "yes" : "no";
    document.body.dataset.practice = current.table.practice ? "yes" : "no";
    document.body.dataset.failed = failed() ? "yes" : "no";
    document.body.dataset.over = current.table.over ? "yes" : "no";
    const prefix = failed() ? "Failed · " : mine ? "● Your decision · " : "";
    document.title = `${prefix}${$("game-name").textContent} · citywatch`;
    renderHeader(view);
    renderSeats(view);
    renderClock();
    renderBanner(view, ctx);
    renderActions(view, ctx);
    renderCoach(ctx);
    if (board) board.render(view, ctx);
    else $("generic-view").replaceChildren(CityWatch.jsonTree(view, jsonState));
    CityWatch.fillLog($("log"), current.log);
    renderChat();
    renderNotify();
    renderResult(view);
  }

  // ---- issue 31: notifications -------------------------------------------------------

  /** True if the page may show notifications: the browser has them and they are granted. */
  function notificationsOn() {
    return "Notification" in window && Notification.permission === "granted";
  }

  /** Tell the person that the decision became theirs, if the tab is hidden. */
  function notifyTurn() {
    if (current.seat === null || walking || document.visibilityState !== "hidden") return;
    if (!notificationsOn()) return;
    try {
      const shown = new Notification(`Your turn — ${current.title || "citywatch"}`, {
        tag: `citywatch-turn-${current.table.replay}`, // one per table: a new one replaces it
        body: "Your decision is waiting.",
      });
      shown.onclick = () => {
        window.focus();
        shown.close();
      };
    } catch {
      // a browser that shows notifications only from a service worker: none then
    }
  }

  /** Whether the page should still offer to ask for the permission (asked at most once). */
  function mayAskNotify() {
    if (!current || current.seat === null || notifyAsked) return false;
    if (!("Notification" in window) || Notification.permission !== "default") return false;
    try {
      return localStorage.getItem(NOTIFY_KEY) === null;
    } catch {
      return true;
    }
  }

  /** Ask for the permission once (the person clicked), and remember the answer. */
  async function askNotify() {
    notifyAsked = true;
    let answer = "default";
    try {
      answer = await Notification.requestPermission();
    } catch {
      // refused without a prompt: answer stays "default"
    }
    try {
      localStorage.setItem(NOTIFY_KEY, answer);
    } catch {
      // storage refused: not asked again on this page
    }
    if (current) render();
  }

  /** The header's ask button and, at a turn-based table, the webhook panel. */
  function renderNotify() {
    $("notify-ask").hidden = !mayAskNotify();
    const panel = $("webhook-panel");
    panel.hidden = current.webhook === null || current.table.over;
    const note = $("webhook-note");
    const text = webhookNote ? webhookNote.text
      : current.webhook ? "A webhook is set. Save an empty address to remove it." : "";
    note.textContent = text;
    note.classList.toggle("webhook-error", Boolean(webhookNote && webhookNote.error));
  }

  /** Send the address typed (empty: remove the webhook) with POST /api/webhook/{token}. */
  async function saveWebhook(event) {
    event.preventDefault();
    if (webhookSaving || !current || current.seat === null) return;
    const url = $("webhook-input").value.trim();
    webhookSaving = true;
    $("webhook-save").disabled = true;
    try {
      const response = await fetch(`/api/webhook/${encodeURIComponent(token)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ url: url || null }),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        webhookNote = { error: true, text: CityWatch.sentence(CityWatch.cap(
          answer.error || `the server answered ${response.status}`)) };
      } else {
        current.webhook = answer.webhook === true;
        webhookNote = { error: false, text: current.webhook
          ? "Saved: the server tells this address when your turn begins."
          : "Removed: no webhook is told any more." };
        $("webhook-input").value = "";
      }
    } catch (error) {
      webhookNote = { error: true, text: `Cannot reach the server: ${error.message}.` };
    } finally {
      webhookSaving = false;
      $("webhook-save").disabled = false;
      if (current) render();
    }
  }

  // ---- issue 31: the table's chat ------------------------------------------------------

  /** The time of a message (ISO text) as the reader's hours and minutes. */
  function chatTime(at) {
    const when = new Date(at);
    return Number.isNaN(when.getTime()) ? ""
      : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  /** The chat panel: the messages (text only), a mute toggle per other person, the form. */
  function renderChat() {
    const { table, seat, chat, muted } = current;
    const panel = $("chat-panel");
    const reads = seat !== null || table.spectators_chat;
    panel.hidden = !reads;
    if (!reads) return;
    $("chat-form").hidden = seat === null;
    const key = JSON.stringify([chat.map((m) => m.n), table.colours, table.names]);
    if (key !== chatShown) {
      const before = chatShown ? JSON.parse(chatShown)[0] : [];
      const fresh = chat.filter((m) => !before.includes(m.n) && m.seat !== seat).length;
      chatShown = key;
      const list = $("chat-list");
      list.replaceChildren(...chat.map((m) => {
        const colour = table.colours[m.seat] || `Seat ${m.seat + 1}`;
        const name = table.names[m.seat];
        return el("li", { "data-seat": m.seat, "data-n": m.n },
          el("span", { class: "chat-time", text: chatTime(m.at) }),
          el("span", { class: `who who-${String(colour).replace(/[^A-Za-z0-9]+/g, "-")}` },
            el("span", { class: "chip" }), ` ${name ? `${name} (${colour})` : colour}:`),
          el("span", { class: "chat-text", text: m.text }));
      }));
      list.scrollTop = list.scrollHeight;
      if (!panel.open && before.length) chatUnread += fresh;
    }
    $("chat-empty").hidden = chat.length > 0;
    $("chat-new").textContent = chatUnread && !panel.open ? `${chatUnread} new` : "";
    const others = seat === null ? [] : table.colours.map((colour, i) => i)
      .filter((i) => i !== seat && !table.bots[i]);
    $("chat-mutes").replaceChildren(...others.map((i) => {
      const hidden = muted.includes(i);
      const who = table.names[i] ? `${table.names[i]} (${table.colours[i]})` : table.colours[i];
      return el("button", {
        type: "button", class: "button secondary chat-mute", "data-seat": i,
        "aria-pressed": hidden ? "true" : "false",
        title: hidden ? `Show ${who}'s messages again` : `Hide ${who}'s messages (for you only)`,
        text: hidden ? `Unmute ${who}` : `Mute ${who}`,
        onclick: () => sendChat({ type: "mute", seat: i, muted: !hidden }),
      });
    }));
  }

  /** Send a chat or mute message over the WebSocket; false (and a note) when it is down. */
  function sendChat(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      $("chat-error").textContent = "Not connected: try again in a moment.";
      return false;
    }
    $("chat-error").textContent = "";
    socket.send(JSON.stringify(message));
    return true;
  }

  let chatSent = ""; // the last message sent, put back in the box if it is refused

  function submitChat(event) {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (sendChat({ type: "chat", text })) {
      chatSent = input.value;
      input.value = "";
      countChat();
    }
  }

  function chatRefused(error) {
    $("chat-error").textContent = String(error || "The message was refused.");
    const input = $("chat-input");
    if (!input.value && chatSent) input.value = chatSent;
    chatSent = "";
    countChat();
  }

  /** The counter under the box: characters written of the 200 allowed. */
  function countChat() {
    const used = [...$("chat-input").value.trim()].length;
    const count = $("chat-count");
    count.textContent = `${used}/${CHAT_LONGEST}`;
    count.classList.toggle("chat-full", used > CHAT_LONGEST);
  }

  // ---- issue 31: the clocks ------------------------------------------------------------

  /** The state's clock checked ({kind, move, reserve, stand_in, reserves, running, deadline,
   * away, now, waiting}), or null for an untimed table or a clock that is not readable. */
  function clockOf(raw) {
    if (!raw || typeof raw !== "object" || (raw.kind !== "live" && raw.kind !== "turn-based")) {
      return null;
    }
    const number = (value) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
    const time = (value) => (typeof value === "string" && !Number.isNaN(Date.parse(value))
      ? value : null);
    return {
      kind: raw.kind, move: number(raw.move), reserve: number(raw.reserve),
      stand_in: typeof raw.stand_in === "string" ? raw.stand_in : "",
      reserves: Array.isArray(raw.reserves) ? raw.reserves.map(number) : [],
      running: Number.isInteger(raw.running) ? raw.running : null,
      deadline: time(raw.deadline),
      away: Array.isArray(raw.away) ? raw.away.filter(Number.isInteger) : [],
      now: time(raw.now) || new Date().toISOString(),
      waiting: raw.waiting === true,
    };
  }

  const clockText = CityWatch.clockText;

  /** A turn-based clock's time left: "42 min", "23 h 10 min", or the deadline's date from
   * two days on ("until Tue 1 Dec, 14:00", in the reader's time). */
  function turnText(seconds, deadline) {
    if (seconds >= 2 * 86400) {
      return `until ${deadline.toLocaleString([], { weekday: "short", day: "numeric",
        month: "short", hour: "2-digit", minute: "2-digit" })}`;
    }
    const minutes = Math.max(0, Math.ceil(seconds / 60));
    if (minutes < 60) return `${minutes} min`;
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  }

  /** The clock's rule in words, and "starts when every seat is taken" while it waits. */
  function clockRule(clock) {
    return CityWatch.clockRuleText(clock) +
      (clock.waiting ? " · clock starts when every seat is taken" : "");
  }

  /** What a seat's clock reads now (its text, and whether it is low), or null for a seat
   * with none (a bot's; a turn-based seat whose time does not run). */
  function seatClock(clock, i) {
    if (clock.away.includes(i)) {
      return { text: `stand-in (${CityWatch.botLabel(clock.stand_in)})`, low: false };
    }
    const reserve = clock.reserves[i] || 0;
    if (clock.running === i && clock.deadline && !current.table.over) {
      const deadline = Date.parse(clock.deadline);
      const left = (deadline - (Date.now() + clockSkew)) / 1000;
      if (clock.kind === "turn-based") {
        return { text: turnText(left, new Date(deadline - clockSkew)), low: false };
      }
      const decision = clockText(Math.max(left - reserve, 0));
      return { text: clock.reserve ? `${decision} + ${clockText(Math.min(left, reserve))}`
        : decision, low: left < CLOCK_LOW };
    }
    if (clock.kind === "turn-based") return null;
    return { text: `reserve ${clockText(reserve)}`, low: false };
  }

  /** The clock's rule in the seats strip and each person's clock beside its seat. */
  function renderClock() {
    const { clock, bots, over } = current.table;
    const rule = $("clock-rule");
    rule.hidden = !clock;
    document.body.dataset.clock = !clock ? "none" : clock.waiting ? "waiting"
      : clock.running !== null && !over ? "running" : "stopped";
    if (!clock) return;
    rule.textContent = clockRule(clock);
    for (const item of $("seat-names").querySelectorAll("li[data-seat]")) {
      const i = Number(item.dataset.seat);
      if (bots[i]) continue;
      item.append(" ", el("span", { class: "seat-clock", "data-seat": i }));
    }
    tickClock();
  }

  /** Each seat's clock as it reads now (called every CLOCK_TICK ms). */
  function tickClock() {
    const clock = current && current.table.clock;
    if (!clock) return;
    for (const span of $("seat-names").querySelectorAll(".seat-clock")) {
      const i = Number(span.dataset.seat);
      const reading = seatClock(clock, i);
      span.hidden = !reading;
      if (!reading) continue;
      if (span.textContent !== reading.text) span.textContent = reading.text;
      span.classList.toggle("clock-low", reading.low && clock.kind === "live");
      span.classList.toggle("clock-running", clock.running === i && !current.table.over);
      span.classList.toggle("clock-away", clock.away.includes(i));
    }
  }

  /** The banner of a seat the stand-in plays, on its own page: "Take my seat back". */
  function awayBanner() {
    const { clock, over } = current.table;
    if (!clock || over || failed() || current.seat === null ||
        !clock.away.includes(current.seat)) {
      return null;
    }
    return el("div", { class: "banner banner-away", role: "status", "data-kind": "away" },
      el("span", { text: `Your time ran out: the ${CityWatch.botLabel(clock.stand_in)} bot ` +
        "plays for you." }),
      el("button", { type: "button", class: "button take-back", id: "take-back",
        disabled: takingBack, onclick: () => takeBack(),
        text: takingBack ? "Taking it back…" : "Take my seat back" }));
  }

  /** Ask for the seat back from the stand-in ({"type": "back"}; one click). */
  function takeBack() {
    if (takingBack || !current) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError("Not connected: try again in a moment.", "connection");
      return;
    }
    takingBack = true;
    socket.send(JSON.stringify({ type: "back" }));
    render();
  }

  /** The server refused to give the seat back: say why. */
  function backRefused(error) {
    takingBack = false;
    showError(CityWatch.sentence(`Your seat was not given back: ${error || "refused"}`));
    if (current) render();
  }

  // ---- issue 16: every seat's name, and this seat's own ------------------------------

  /** The table's seats as the server tells every seat: {colours, names, bots}, one each. */
  function seatsOf(table) {
    const list = (value) => (Array.isArray(value) ? value : []);
    const colours = list(table.colours).map(String);
    const text = (value) => (typeof value === "string" && value ? value : null);
    return {
      colours,
      names: colours.map((_, i) => text(list(table.names)[i])),
      bots: colours.map((_, i) => text(list(table.bots)[i])),
    };
  }

  /** Whether the person skipped naming this seat (the form is not offered again). */
  function nameSkipped() {
    if (skipped) return true;
    try {
      return localStorage.getItem(`${SKIP_KEY}${token}`) === "yes";
    } catch {
      return false;
    }
  }

  /** The name the person gave last, on any table (offered in the form), or "". */
  function lastName() {
    try {
      return localStorage.getItem(NAME_KEY) || "";
    } catch {
      return "";
    }
  }

  /** The seats strip under the header, and the name form: open when the person asked to
   * change the name, or once while a person's seat has none (until saved or skipped). */
  function renderSeats(view) {
    const { table, seat } = current;
    const strip = $("seat-strip");
    strip.hidden = table.colours.length === 0;
    const unnamed = seat !== null && !table.names[seat];
    const open = seat !== null && (naming || (unnamed && !table.over && !nameSkipped()));
    const change = seat !== null && !open ? el("button", {
      type: "button", class: "seat-change", id: "change-name",
      text: unnamed ? "give your name" : "change",
      title: unnamed ? "Give your name to the other players" : "Change your name",
      onclick: () => openNameForm(),
    }) : null;
    $("seat-names").replaceChildren(...CityWatch.seatEntries(table, view, seat, change));
    const form = $("name-form");
    if (open && form.hidden) {
      const input = $("name-input");
      input.value = table.names[seat] || lastName();
      $("name-error").textContent = "";
    }
    form.hidden = !open;
    $("name-skip").textContent = unnamed ? "Skip" : "Cancel";
  }

  function openNameForm() {
    naming = true;
    render();
    $("name-input").focus();
  }

  /** Send the name typed (POST /api/name/{token}); the next state shows it on every page. */
  async function saveName(event) {
    event.preventDefault();
    if (nameSaving || !current || current.seat === null) return;
    const name = $("name-input").value.trim();
    nameSaving = true;
    $("name-save").disabled = true;
    try {
      const response = await fetch(`/api/name/${encodeURIComponent(token)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name }),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        $("name-error").textContent = CityWatch.sentence(CityWatch.cap(
          answer.error || `the server answered ${response.status}`));
        return;
      }
      try {
        localStorage.setItem(NAME_KEY, answer.name);
      } catch {
        // storage refused: the name is not offered next time
      }
      naming = false;
      current.table.names[current.seat] = answer.name;
      render();
    } catch (error) {
      $("name-error").textContent = `Cannot reach the server: ${error.message}.`;
    } finally {
      nameSaving = false;
      $("name-save").disabled = false;
    }
  }

  /** Skip naming this seat (or cancel a change). */
  function skipName() {
    if (!naming) {
      skipped = true;
      try {
        localStorage.setItem(`${SKIP_KEY}${token}`, "yes");
      } catch {
        // storage refused: the form closes for this page's life
      }
    }
    naming = false;
    if (current) render();
  }

  function renderHeader(view) {
    const options = Object.entries(current.table.options).map(([name, value]) => `${name} ${value}`);
    options.push(current.table.hints_on ? "hints allowed" : "no hints"); // issue 30
    const shown = $("table-options");
    shown.textContent = options.join(" · ");
    shown.title = shown.textContent; // the header keeps one line and may cut it
    shown.hidden = false;
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
    const away = awayBanner();
    if (away) banners.push(away);
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
    const path = $("path");
    box.classList.toggle("active", ctx.mine);
    $("auto-take").checked = autoTakeOn();
    if (failed()) {
      // No decision can be taken any more: no buttons, and the banner says why.
      box.hidden = true;
      list.replaceChildren();
      path.hidden = true;
      hint.textContent = "";
      return;
    }
    renderSince(ctx);
    if (walking) {
      // Issue 27: a plan is being followed; its steps are sent as the table allows.
      box.hidden = false;
      list.replaceChildren();
      path.hidden = true;
      const sent = Math.min(walking.next, walking.steps.length);
      hint.replaceChildren(
        `${walking.text}: ${sent} of ${walking.steps.length} steps taken` +
        (ctx.mine || pending ? "… " : ", waiting for another player's decision… "),
        el("button", { type: "button", class: "stop-plan", id: "stop-plan",
                       title: "Stop here (Escape); the steps taken stay taken",
                       onclick: () => stopPlan(), text: "Stop" }));
      return;
    }
    if (!ctx.mine) {
      box.hidden = current.seat === null || current.table.over;
      list.replaceChildren();
      path.hidden = true;
      const own = board && board.hint && current.seat !== null ? board.hint(view, ctx) : null;
      hint.textContent = current.seat === null ? "" : own ||
        "Your buttons appear here when a decision is yours.";
      return;
    }
    box.hidden = false;
    const left = remaining();
    const next = nextStep(left);
    const usual = usualIndex();
    const own = board && board.hint ? board.hint(view, ctx) : null;
    hint.textContent = pending
      ? "Sent; waiting for the table…"
      : next
        ? `${CityWatch.plural(left.length, "choice")}: pick one part at a time` +
          (board ? " (or click the board)." : ".")
        : picks.length
          ? "Pick one of the choices left."
          : own || "Click a button.";
    path.hidden = picks.length === 0;
    path.replaceChildren(
      el("button", {
        type: "button", class: "back", id: "back", disabled: pending,
        title: "Undo the last step (Escape)", onclick: () => back(), text: "← Back",
      }),
      el("span", { class: "step-path-text", text: picks.map((p) => p.label).join(" › ") }));
    const marks = coachMarks();
    const button = (i, extra = "") => {
      const choice = current.choices[i];
      const mark = marks ? marks.get(i) : null;
      if (mark && mark.best) extra += " coach-best";
      return el("button", {
        type: "button",
        class: `action${choice.usual ? " usual" : ""}${highlighted.has(i) ? " highlight" : ""}${extra}`,
        "data-index": i,
        "data-never-hurts": choice.never_hurts ? "yes" : null,
        title: choice.usual ? "The usual choice: Enter takes it" : null,
        disabled: pending,
        onclick: () => act(i),
      }, board && board.label ? board.label(choice.text) : choice.text, ...coachBadges(mark));
    };
    const buttons = [];
    if (usual >= 0 && left.includes(usual)) buttons.push(button(usual));
    if (!next) {
      for (const i of left) if (i !== usual) buttons.push(button(i));
    } else {
      const open = opened(next.groups, usual);
      for (const group of next.groups) {
        if (open.has(group)) {
          for (const i of group.indices) if (i !== usual) buttons.push(button(i));
          continue;
        }
        const label = groupLabel(next.field, group);
        const mark = marks ? bestOf(marks, group.indices) : null;
        buttons.push(el("button", {
          type: "button", class: `action step${mark && mark.best ? " coach-best" : ""}`,
          "data-field": next.field,
          "data-value": group.key, disabled: pending,
          onclick: () => step({ field: next.field, key: group.key, raw: group.value, label }),
        }, label, el("span", { class: "count", text: ` ${CityWatch.plural(group.indices.length, "choice")}` }),
        ...coachBadges(mark)));
      }
    }
    list.replaceChildren(...buttons);
  }

  // ---- issue 30: the coach ------------------------------------------------------------

  /** A chance in words, as the coach writes it: "54%", "<1%", ">99%". */
  function percent(chance) {
    if (chance > 0 && chance < 0.005) return "<1%";
    if (chance > 0.995 && chance < 1) return ">99%";
    return `${Math.round(100 * chance)}%`;
  }

  /** Ask the coach for this decision's hint (one click; the answer comes to this page). */
  function askHint() {
    if (!current || !myDecision() || !current.table.hints_on) return;
    if (coach && coach.step === current.step && (coach.thinking || coach.hint)) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      coach = { step: current.step, error: "not connected; try again in a moment" };
      render();
      return;
    }
    coach = { step: current.step, thinking: true };
    socket.send(JSON.stringify({ type: "hint", step: current.step }));
    render();
  }

  /** The coach's answer (or refusal) for this page's seat. */
  function coached(message) {
    if (!current || message.step !== current.step) return;
    if (message.type === "hint" && message.hint && Array.isArray(message.hint.options)) {
      coach = { step: current.step, hint: message.hint };
    } else {
      coach = { step: current.step, error: String(message.error || "no hint") };
    }
    render();
  }

  /** Choice index -> {chance, best, hard} for the hint shown, matched by the action's JSON;
   * null without a hint for this decision. The best: within one point of the highest. */
  function coachMarks() {
    if (!coach || !coach.hint || coach.step !== current.step) return null;
    const options = coach.hint.options;
    const top = Math.max(...options.map((o) => Number(o.chance) || 0));
    const byJson = new Map(options.map((o, i) => [JSON.stringify(o.json), { o, i }]));
    const marks = new Map();
    current.choices.forEach((choice, i) => {
      if (choice.steps) return; // a plan is not one action
      const found = byJson.get(JSON.stringify(choice.json));
      if (!found) return;
      const chance = Number(found.o.chance) || 0;
      marks.set(i, { chance, best: chance >= top - 0.01, hard: found.i === coach.hint.hard });
    });
    return marks;
  }

  /** The mark of the best choice among ``indices`` (a step's group of choices). */
  function bestOf(marks, indices) {
    let best = null;
    for (const i of indices) {
      const mark = marks.get(i);
      if (mark && (!best || mark.chance > best.chance)) best = { ...mark };
      if (mark && mark.hard) {
        if (!best) best = { ...mark };
        best.hard = true;
      }
    }
    return best;
  }

  /** A choice's badges: its chance, and "hard level's pick". */
  function coachBadges(mark) {
    if (!mark) return [];
    const badges = [el("span", {
      class: "coach-badge", title: coach.hint.cooperative
        ? "The crew's chance of winning after this choice" : "Your chance of winning after this choice",
      text: percent(mark.chance),
    })];
    if (mark.hard) badges.push(el("span", { class: "coach-hard", text: "hard level's pick" }));
    return badges;
  }

  /** The Hint button and its note (hidden when hints are not allowed or the decision is not
   * this seat's), and the hints every seat asked, above the log. */
  function renderCoach(ctx) {
    const box = $("coach");
    const allowed = current.table.hints_on;
    box.hidden = !(allowed && ctx.mine && !walking);
    const ask = $("coach-ask");
    const mine = coach && coach.step === current.step ? coach : null;
    ask.disabled = pending || Boolean(mine && (mine.thinking || mine.hint));
    ask.textContent = mine && mine.thinking ? "Thinking…" : "Hint";
    const note = $("coach-note");
    if (mine && mine.error) {
      note.textContent = CityWatch.sentence(`No hint: ${mine.error}`);
      note.className = "coach-note coach-error";
    } else if (mine && mine.hint) {
      note.textContent = mine.hint.cooperative
        ? "The crew's chance of winning after each choice."
        : "Your chance of winning after each choice.";
      note.className = "coach-note";
    } else {
      note.textContent = "";
      note.className = "coach-note";
    }
    document.body.dataset.coach = mine ? (mine.thinking ? "thinking" : mine.hint ? "shown" : "refused") : "none";
    const used = $("coach-used");
    const { hints, colours } = current.table;
    used.hidden = hints.length === 0;
    used.replaceChildren(...hints.map((h) => el("li", {
      text: `${colours[h.seat] || `Seat ${h.seat + 1}`} asked the coach for a hint (decision ${h.step + 1})`,
    })));
  }

  /** Once the game is over: the board's outcome box (or a sentence), every seat's points
   * part by part with its result and what the end reveals (issue 26: the server's ``end``,
   * drawn by common.js for any game), the rematch, the public replay and the record. */
  function renderResult(view) {
    const box = $("result");
    if (!current.table.over) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const t = encodeURIComponent(token);
    const { table } = current;
    const outcome = board && board.outcome ? board.outcome(view) : null;
    const replay = table.replay ? `/replay/${encodeURIComponent(table.replay)}` : `/replay/${t}`;
    box.replaceChildren(outcome || el("h2", { text: "The game is over." }),
      el("p", { class: "links" }, rematchButton(), " ",
        el("a", { href: replay, class: "button-link", id: "replay-link",
          title: "The replay link shows the game as a spectator saw it: share it freely",
          text: "Watch the replay" }), " ",
        el("a", { href: `/api/record/${t}`, download: "", class: "button-link",
          id: "record-link", text: "Download the record" }), " ",
        el("a", { href: `/analysis/${table.replay ? encodeURIComponent(table.replay) : t}`,
          class: "button-link", id: "analysis-link", // issue 30
          title: "Each player's chance of winning over the game, and its turning points",
          text: "Analysis" })),
      rematchNote(),
      CityWatch.endScores(current.end, table.names, current.seat) || "");
  }

  // ---- issue 26: a rematch at the same seats -------------------------------------------

  let rematching = false; // a rematch was asked for and its answer has not come yet

  /** "Rematch" (a person's seat), "Join the rematch" once one is set up, "Watch the
   * rematch" for the spectator once one is set up; else nothing. */
  function rematchButton() {
    const { table } = current;
    if (current.seat === null && !table.rematch) return "";
    const text = current.seat === null ? "Watch the rematch"
      : table.rematch ? "Join the rematch" : "Rematch";
    return el("button", {
      type: "button", class: "button rematch", id: "rematch", disabled: rematching,
      title: "A new game of the same seats and levels: your link takes you to your own seat",
      onclick: () => rematch(), text,
    });
  }

  /** What the rematch button does, in a sentence. */
  function rematchNote() {
    const { table } = current;
    if (current.seat === null && !table.rematch) return "";
    return el("p", { class: "note rematch-note", text: table.rematch
      ? "A rematch has been set up: the same game, seats and levels. Your link takes you to your own seat there."
      : "Rematch: a new game at this table's seats, bots at their levels; the others join it from their own pages." });
  }

  /** Ask for this link's seat at the rematch (POST /api/rematch/{token}) and go there. */
  async function rematch() {
    if (rematching) return;
    rematching = true;
    render();
    try {
      const response = await fetch(`/api/rematch/${encodeURIComponent(token)}`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok || typeof answer.link !== "string") {
        showError(`No rematch: ${answer.error || `the server answered ${response.status}`}.`);
        return;
      }
      location.assign(answer.link);
    } catch (error) {
      showError(`Cannot reach the server: ${error.message}.`);
    } finally {
      rematching = false;
      if (current) render();
    }
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

  $("auto-take").addEventListener("change", (event) => setAutoTake(event.target.checked));
  $("coach-ask").addEventListener("click", askHint);
  $("chat-form").addEventListener("submit", submitChat);
  $("chat-input").addEventListener("input", countChat);
  $("chat-panel").addEventListener("toggle", () => {
    if ($("chat-panel").open) chatUnread = 0;
    $("chat-new").textContent = "";
  });
  if (window.matchMedia("(max-width: 700px)").matches) $("chat-panel").open = false;
  $("name-form").addEventListener("submit", saveName);
  $("name-skip").addEventListener("click", skipName);
  $("notify-ask").addEventListener("click", askNotify);
  $("webhook-form").addEventListener("submit", saveWebhook);
  document.addEventListener("keydown", onKey);
  setInterval(tickClock, CLOCK_TICK); // issue 31: the running clock counts down
  start();
})();
