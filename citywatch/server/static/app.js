// citywatch: the table page, /play/{token}.
//
// The page shows only what the server sends for its own token: GET /api/view/{token}
// once, then every "state" message of the WebSocket /ws/{token}. Each state redraws
// everything. Decisions go back over the WebSocket (or POST /api/act when it is down).
// Every state also says what every seat is told of the table itself ("table": practice,
// failed, notices): banners under the header, on every seat's page and the spectator's.
"use strict";

(() => {
  const { el } = CW;
  const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const $ = (id) => document.getElementById(id);

  let current = null; // the latest {step, seat, view, log, table}
  let pending = false; // a decision was sent and its answer has not come yet
  let highlighted = new Set(); // action indices picked out by clicking the board or a card
  let socket = null;
  let attempts = 0; // reconnection attempts since the last state message
  let retryTimer = null;
  let fatal = false;
  let areaPattern = null; // matches area names in action texts

  // ---- connection -----------------------------------------------------------------

  async function start() {
    try {
      await CW.loadFacts();
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
    current = {
      step: message.step, seat: message.seat, view: message.view, log: message.log,
      table: {
        practice: table.practice === true,
        failed: typeof table.failed === "string" && table.failed ? table.failed : null,
        notices: Array.isArray(table.notices) ? table.notices.map(String) : [],
      },
    };
    pending = false;
    if (advanced) highlighted = new Set();
    if (failed() || (socket && socket.readyState === WebSocket.OPEN)) showConnected();
    render();
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

  /** Send decision ``index`` of the current state. */
  async function act(index) {
    const decision = current && current.view.decision;
    if (pending || !decision || !decision.actions_json || failed()) return;
    pending = true;
    clearError();
    render();
    const step = current.step;
    const action = decision.actions_json[index];
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

  // ---- picking actions from the board and the hand ------------------------------

  /** Indices of the legal actions that name ``name`` (an area or a card). */
  function mentioning(name) {
    const decision = current.view.decision;
    if (!decision || !decision.actions_json) return [];
    const found = [];
    decision.actions_json.forEach((action, i) => {
      if (Object.entries(action).some(([k, v]) => k !== "verb" && v === name)) found.push(i);
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

  function mine() {
    const { view } = current;
    return Boolean(view.decision && view.decision.actions && view.decision.seat === view.colour);
  }

  function render() {
    const { view } = current;
    const myDecision = mine() && !view.result && !failed();
    document.body.dataset.step = String(current.step);
    document.body.dataset.pending = pending ? "yes" : "no";
    document.body.dataset.mine = myDecision ? "yes" : "no";
    document.body.dataset.practice = current.table.practice ? "yes" : "no";
    document.body.dataset.failed = failed() ? "yes" : "no";
    const prefix = failed() ? "Failed · " : myDecision ? "● Your decision · " : "";
    document.title = `${prefix}Ankh-Morpork · citywatch`;
    renderHeader(view);
    renderBanner(view, myDecision);
    renderBoard(view, myDecision);
    renderActions(view, myDecision);
    renderHand(view, myDecision);
    $("players").replaceChildren(CW.playersTable(view));
    $("piles").textContent = CW.pilesLine(view);
    renderTable(view);
    CW.fillLog($("log"), current.log);
    renderResult(view);
  }

  function renderHeader(view) {
    const who = $("who");
    if (view.seat === null) {
      who.replaceChildren(el("span", { class: "spectator", text: "Spectator: public information only" }));
    } else {
      who.replaceChildren("You play ", CW.colourName(view.colour));
    }
  }

  /** The banners under the header: a failure (instead of whose decision it is), the
   * practice warning, the table's notices, then whose decision it is. */
  function renderBanner(view, myDecision) {
    if (fatal) return;
    const { table } = current;
    const banners = [];
    if (table.failed) {
      banners.push(el("div", {
        class: "banner banner-error banner-failed", role: "alert", "data-kind": "failed",
      }, el("span", {}, el("strong", { text: "This table has failed: " }),
        sentence(table.failed), " No decision can be taken any more.")));
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
    if (!table.failed) banners.push(turnBanner(view, myDecision));
    $("banner").replaceChildren(...banners);
  }

  /** ``text`` ending with a full stop (or the mark it already ends with). */
  function sentence(text) {
    return /[.!?…]$/.test(text) ? text : `${text}.`;
  }

  /** The banner saying whose decision it is (or that the game is over). */
  function turnBanner(view, myDecision) {
    if (view.result) {
      return el("div", { class: "banner banner-over", text: "The game is over." });
    }
    const decision = view.decision;
    if (!decision) {
      return el("div", { class: "banner", text: "Waiting for the table…" });
    }
    if (myDecision) {
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

  function renderBoard(view, myDecision) {
    const clickable = {};
    if (myDecision && !pending) {
      for (const area of CW.facts.areas) {
        const n = mentioning(area.name).length;
        if (n) clickable[area.name] = n === 1 ? "can-act one" : "can-act";
      }
    }
    CW.drawBoard($("board"), view, { clickable, onArea: pick });
  }

  function renderActions(view, myDecision) {
    const box = $("decision");
    const list = $("actions");
    const hint = $("hint");
    box.classList.toggle("active", myDecision);
    if (failed()) {
      // No decision can be taken any more: no buttons, and the banner says why.
      box.hidden = true;
      list.replaceChildren();
      hint.textContent = "";
      return;
    }
    if (view.result || !myDecision) {
      box.hidden = view.seat === null || Boolean(view.result);
      list.replaceChildren();
      hint.textContent = view.seat === null ? "" : view.decision
        ? `${view.decision.seat} is deciding. Your buttons appear here when a decision is yours.`
        : "";
      return;
    }
    box.hidden = false;
    const decision = view.decision;
    hint.textContent = pending
      ? "Sent; waiting for the table…"
      : highlighted.size
        ? "Several choices name what you clicked: pick one of the highlighted buttons."
        : "Click a button, or a glowing area on the map or a card in your hand.";
    list.replaceChildren(...decision.actions.map((text, i) => el("button", {
      type: "button",
      class: `action${highlighted.has(i) ? " highlight" : ""}`,
      "data-index": i,
      disabled: pending,
      onclick: () => act(i),
    }, labelled(text))));
  }

  /** An action's text with area numbers after area names. */
  function labelled(text) {
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

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  function renderHand(view, myDecision) {
    const section = $("hand-section");
    if (view.seat === null) {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    const me = view.seats[view.seat];
    const personality = CW.facts.personalities[me.personality];
    const lines = [el("div", { class: "personality-name" }, "Your personality: ",
      el("strong", { text: me.personality || "?" }))];
    if (personality) lines.push(el("div", { class: "personality-text", text: personality.wins_if }));
    if (view.seen_personalities.length) {
      lines.push(el("div", {
        class: "note", text: `Unused personalities you were shown: ${view.seen_personalities.join(", ")}`,
      }));
    }
    $("personality").replaceChildren(...lines);
    $("hand-title").textContent = `Your hand (${view.hand.length})`;
    const hand = $("hand");
    if (!view.hand.length) {
      hand.replaceChildren(el("p", { class: "note", text: "No cards in your hand." }));
    } else {
      hand.replaceChildren(...view.hand.map((name) => {
        const n = myDecision && !pending ? mentioning(name).length : 0;
        const tile = CW.cardTile(name);
        if (n) {
          tile.classList.add("can-act");
          tile.tabIndex = 0;
          tile.title = n === 1 ? "Click to choose this card" : "Click to pick out the choices naming this card";
          tile.addEventListener("click", () => pick(name));
          tile.addEventListener("keydown", (event) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              pick(name);
            }
          });
        }
        return tile;
      }));
    }
    const shown = $("shown-hands");
    shown.replaceChildren(...Object.entries(view.shown_hands).map(([colour, cards]) =>
      el("div", { class: "note shown" }, CW.colourName(colour), `'s hand, shown to you: ${cards.join(", ") || "no cards"}`)));
  }

  function renderTable(view) {
    const parts = [];
    if (view.played_this_turn.length) parts.push(`Played this turn: ${view.played_this_turn.join(", ")}`);
    if (view.in_play.length) parts.push(`Being resolved: ${view.in_play.join(", ")}`);
    if (view.powers_used.length) parts.push(`Area powers used this turn: ${view.powers_used.join(", ")}`);
    $("this-turn").textContent = parts.join(" · ");
  }

  function renderResult(view) {
    const box = $("result");
    if (!view.result) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const t = encodeURIComponent(token);
    box.replaceChildren(CW.outcomeBox(view), el("p", { class: "links" },
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
