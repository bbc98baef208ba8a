// citywatch: what every page shares, for any game: building elements (HTML and SVG), the log,
// a view as readable JSON, loading a game's board module, and the small helpers the boards
// share (their stylesheet and facts, the hint, plurals, capitals and winners).
//
// A game with a web folder (Game.web_folder() on the server) has it served at
// /games/<name>/; its board.js registers a board module:
//
//   window.CityWatchBoards["<name>"] = {
//     load(base)          optional; a Promise, awaited once before anything is drawn
//                         (base is "/games/<name>/": fetch the board's data from there)
//     mount(main, side)   once: build the board's panels into two empty elements, the
//                         page's main column and its side column (above the log)
//     render(view, ctx)   every state: draw ``view`` (exactly what the server sent for this
//                         page's token) into what mount built. ``ctx``:
//                           page         "table" or "replay"
//                           seat         this page's seat (null: spectator or replay)
//                           step         decisions taken so far
//                           over         the game is over
//                           mine         a decision of this page's can be taken now
//                           choices      [{text, json}]: this seat's legal actions (or [])
//                           highlighted  a Set of choice indices picked out by ctx.pick
//                           log          the log lines this seat may read, oldest first
//                           last_move    what the newest public move touched, or null:
//                                        {by, spaces, ...} (Game.last_move; a board may
//                                        ignore it)
//                           moves        issue 26: the moves since this seat's last decision
//                                        (the replay: the decision shown), oldest first:
//                                        [{by, spaces, lines}] (Game.move_spaces); a board
//                                        marks each mover's spaces in its colour
//                                        (CityWatch.movesBySpace)
//                           naming(v)    indices of the choices whose JSON has a field equal
//                                        to v (other than "verb"), while ``mine``; else []
//                           pick(v)      take the one choice naming v, or pick out several
//                           act(i)       take choice i
//     who(view)           optional; the header's "who am I" (a Node or text), else generic
//     banner(view, ctx)   optional; the banner saying whose decision it is (a Node)
//     hint(view, ctx)     optional; the sentence above the choice buttons
//     label(text)         optional; a choice button's content (a Node or text)
//     outcome(view)       optional; the outcome box of a finished game (a Node)
//     space(name)         optional; a space of ``ctx.moves`` as people read it (else as is)
//   };
//
// A game without a board gets the generic panel: the view as collapsible JSON, and one
// button per choice (its text; it sends its JSON).
"use strict";

window.CityWatchBoards = window.CityWatchBoards || {};

const CityWatch = (() => {
  /** Set ``attrs`` on ``node``: ``class``, ``text`` (its text), ``on<event>`` (a listener),
   * anything else as an attribute (true: present; null, undefined, false: left out). */
  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.setAttribute("class", value);
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
  }

  /** A new element ``tag`` with ``attrs`` (see ``setAttrs``) and ``children``. */
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  const SVG_NS = "http://www.w3.org/2000/svg";

  /** A new SVG element ``tag`` with ``attrs`` (see ``setAttrs``) and ``children``. */
  function svg(tag, attrs = {}, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  /** ``text`` with its first letter a capital. */
  function cap(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }

  /** "1 word" or "n words". */
  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  /** Append "Winner: A" or "Winners: A and B" to ``node``, each winner as ``name(w)`` draws
   * it. */
  function appendWinners(node, winners, name) {
    node.append(winners.length > 1 ? "Winners: " : "Winner: ");
    winners.forEach((w, i) => {
      if (i) node.append(" and ");
      node.append(name(w));
    });
  }

  /** A board's ``hint(view, ctx)``: ``mine`` while a decision of the page's is open, else
   * who is deciding (null when nobody is). */
  function boardHint(mine) {
    return (view, ctx) => {
      if (ctx.mine) return mine;
      return view.decision
        ? `${view.decision.seat} is deciding. Your buttons appear here when a decision is yours.`
        : null;
    };
  }

  /** Add a board's stylesheet (its ``board.css``, at ``href``) to the page, unless a board's
   * is there already. */
  function addBoardStyle(href) {
    if (!document.querySelector("link[data-board-css]")) {
      document.head.append(el("link", { rel: "stylesheet", href, "data-board-css": "" }));
    }
  }

  /** The JSON at ``url`` (a board's facts); an Error "cannot load the ``what``" if the server
   * does not give it. */
  async function fetchJson(url, what) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot load the ${what}`);
    return response.json();
  }

  /** A seat's name as a small coloured chip and the name (colours known to style.css get
   * their colour; others a plain chip). */
  function colourName(name, suffix = "") {
    return el("span", { class: `who who-${name}` }, el("span", { class: "chip" }), name + suffix);
  }

  const BOT_LABELS = { ismcts: "ISMCTS" };

  /** A bot level as people read it ("hard", "ISMCTS"). */
  function botLabel(level) {
    return BOT_LABELS[level] || level;
  }

  /**
   * Issue 16: one list item per seat, its colour swatch and name ("Red — Ann", "Blue — hard
   * bot", or "no name yet" for a person not named yet), this page's ``seat`` marked "(you)"
   * (followed by ``own``, a Node, if given) and the seat deciding now (the view's
   * ``decision.seat``) tagged. ``table`` is what the server tells every seat of the table:
   * ``colours``, ``names`` and ``bots``, one per seat. Names are text only, never HTML.
   */
  function seatEntries(table, view, seat, own = null) {
    const deciding = view && view.decision && !table.over ? view.decision.seat : null;
    return table.colours.map((colour, i) => {
      const name = table.names[i];
      const bot = table.bots[i];
      const label = name
        ? el("span", { class: "seat-name", text: name })
        : bot
          ? el("span", { class: "seat-name seat-bot", text: `${botLabel(bot)} bot` })
          : el("span", { class: "seat-name seat-unnamed", text: "no name yet" });
      const now = colour === deciding;
      const item = el("li", {
        class: `seat-entry${i === seat ? " me" : ""}${now ? " deciding" : ""}`, "data-seat": i,
      }, el("span", { class: `who who-${String(colour).replace(/[^A-Za-z0-9]+/g, "-")}` },
        el("span", { class: "chip" }), colour), " — ", label);
      if (i === seat) item.append(el("span", { class: "seat-you", text: " (you)" }), own || "");
      if (now) item.append(el("span", { class: "tag tag-deciding", text: "deciding" }));
      return item;
    });
  }

  /** ``text`` ending with a full stop (or the mark it already ends with). */
  function sentence(text) {
    return /[.!?…]$/.test(text) ? text : `${text}.`;
  }

  /** Log lines into ``host``, turn starts standing out, scrolled to the newest line
   * (unless the reader has scrolled up to read older lines). */
  function fillLog(host, lines) {
    const reading = host.childElementCount > 0 &&
      host.scrollHeight - host.scrollTop - host.clientHeight > 40;
    host.replaceChildren(...lines.map((line) => el("li", {
      class: /^Turn \d+:/.test(line) ? "turn-start" : null, text: line,
    })));
    if (!reading) host.scrollTop = host.scrollHeight;
  }

  /**
   * ``value`` as readable, collapsible JSON: objects and arrays are <details> (open to
   * ``depth`` levels, or as the reader left them: ``closed`` holds the paths they shut and
   * ``opened`` those they opened).
   */
  function jsonTree(value, state = { closed: new Set(), opened: new Set() }, depth = 2) {
    function node(v, path, level, key) {
      const label = key === null ? null : el("span", { class: "json-key", text: `${key}: ` });
      const flat = Array.isArray(v) && v.every((x) => x === null || typeof x !== "object");
      if (flat && JSON.stringify(v).length <= 60) { // a short list of plain values: one line
        return el("div", { class: "json-row", "data-path": path }, label,
          el("span", { class: "json-list" }, "[", ...v.flatMap((x, i) => [
            i ? ", " : null,
            el("span", { class: `json-${x === null ? "null" : typeof x}`, text: JSON.stringify(x) }),
          ].filter((n) => n !== null)), "]"));
      }
      if (v !== null && typeof v === "object") {
        const entries = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
        const brief = Array.isArray(v) ? `[${v.length}]` : `{${entries.length}}`;
        if (!entries.length) {
          return el("div", { class: "json-row" }, label,
            el("span", { class: "json-empty", text: Array.isArray(v) ? "[]" : "{}" }));
        }
        const open = state.opened.has(path) || (level < depth && !state.closed.has(path));
        const box = el("details", { class: "json-node", "data-path": path, open });
        box.append(el("summary", {}, label, el("span", { class: "json-brief", text: brief })));
        box.addEventListener("toggle", () => {
          if (box.open) {
            state.closed.delete(path);
            state.opened.add(path);
          } else {
            state.opened.delete(path);
            state.closed.add(path);
          }
        });
        const body = el("div", { class: "json-body" });
        for (const [k, x] of entries) body.append(node(x, `${path}/${k}`, level + 1, k));
        box.append(body);
        return box;
      }
      const kind = v === null ? "null" : typeof v;
      return el("div", { class: "json-row" }, label,
        el("span", { class: `json-${kind}`, text: JSON.stringify(v) }));
    }
    return node(value, "", 0, null);
  }

  const loading = new Map();

  /** The board module of game ``name`` (its board.js loaded and its ``load`` awaited), or
   * null if it cannot be loaded. */
  function loadBoard(name) {
    if (!loading.has(name)) {
      loading.set(name, new Promise((resolve) => {
        const base = `/games/${encodeURIComponent(name)}/`;
        const script = document.createElement("script");
        script.src = `${base}board.js`;
        script.onload = async () => {
          const board = window.CityWatchBoards[name];
          if (!board) {
            resolve(null);
            return;
          }
          try {
            if (board.load) await board.load(base);
            resolve(board);
          } catch (error) {
            console.warn(`the board of ${name} cannot load its data: ${error.message}`);
            resolve(null);
          }
        };
        script.onerror = () => resolve(null);
        document.head.append(script);
      }));
    }
    return loading.get(name);
  }

  /** Issue 26: a board's marks of ``ctx.moves``: a Map from each space touched to the
   * movers that touched it, oldest first, each once. */
  function movesBySpace(moves) {
    const marks = new Map();
    for (const move of Array.isArray(moves) ? moves : []) {
      for (const space of move.spaces || []) {
        if (!marks.has(space)) marks.set(space, []);
        if (!marks.get(space).includes(move.by)) marks.get(space).push(move.by);
      }
    }
    return marks;
  }

  return {
    el, setAttrs, svg, cap, plural, appendWinners, boardHint, addBoardStyle, fetchJson, colourName,
    sentence, fillLog, jsonTree, loadBoard, botLabel, seatEntries, movesBySpace,
  };
})();
